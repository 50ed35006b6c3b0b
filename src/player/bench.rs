//! Benchmarks of the playouts and the search, for `hane bench`. Not a test:
//! figures depend on the machine. Compare with a peer measured in the same
//! run (see README).

use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::time::Instant;

use super::board::{board_of, winner, PlayoutBoard};
use super::network::{Evaluator, Position, Scratch, SharedEvaluator, RECENT_MOVES};
use super::params::SearchParams;
use super::playout::{light_playout, PlayoutRecords};
use super::rng::FastRng;
use super::search::{run_threads, Search, Worker};
use crate::game::{sgf, Color, Game, Superko};

/// Light playouts from the empty board.
#[derive(Clone, Copy, Debug)]
pub struct PlayoutBench {
    pub size: usize,
    pub playouts: u64,
    pub seconds: f64,
    /// Moves per playout, passes included (the two final passes too).
    pub moves_per_playout: f64,
    /// Black's share of wins at komi 7, a tie counting half.
    pub black_win_rate: f64,
}

impl PlayoutBench {
    pub fn per_second(&self) -> f64 {
        self.playouts as f64 / self.seconds
    }
}

pub fn light_playouts(size: usize, playouts: u64, seed: u64) -> PlayoutBench {
    let empty = PlayoutBoard::new(size);
    let mut rng = FastRng::new(seed);
    let mut moves = 0u64;
    let mut black_wins = 0.0;
    let start = Instant::now();
    for _ in 0..playouts {
        let mut board = empty.clone();
        moves += light_playout(
            &mut board,
            Color::Black,
            &mut rng,
            PlayoutRecords::default(),
        )
        .moves as u64;
        let score = board.score(7.0);
        black_wins += match winner(score) {
            Some(Color::Black) => 1.0,
            Some(Color::White) => 0.0,
            None => 0.5,
        };
    }
    let seconds = start.elapsed().as_secs_f64();
    PlayoutBench {
        size,
        playouts,
        seconds,
        moves_per_playout: moves as f64 / playouts as f64,
        black_win_rate: black_wins / playouts as f64,
    }
}

/// Tree search from the empty board or a shipped position, on `threads`
/// threads sharing the tree.
#[derive(Clone, Copy, Debug)]
pub struct SearchBench {
    pub size: usize,
    pub threads: usize,
    pub playouts: u64,
    pub seconds: f64,
    pub tree_nodes: usize,
}

impl SearchBench {
    pub fn per_second(&self) -> f64 {
        self.playouts as f64 / self.seconds
    }
}

/// `heavy`: the search's own playout policy (capture, escape and shape
/// moves), else light playouts as in `light_playouts`; the other search
/// parameters are `params`' (`--param` reaches the bench, to time a
/// setting before a match tries it). The threads share
/// `playouts` out as a genmove's do. Thread t's random stream is seeded
/// from `seed` and t, thread 0's with `seed` itself, as the one-thread
/// bench always was: its figures stay comparable with older ones.
pub fn tree_search(
    size: usize,
    playouts: u64,
    seed: u64,
    heavy: bool,
    params: &SearchParams,
    threads: usize,
    evaluator: Option<&Arc<SharedEvaluator>>,
) -> SearchBench {
    let params = SearchParams {
        heavy_playouts: heavy,
        ..params.clone()
    };
    let runner = Runner {
        threads,
        seed,
        evaluator,
    };
    runner.search(&Game::new(size, 7.0), playouts, params)
}

/// The middle-game positions `middle_game_search` searches: hane's own
/// self-play (scripts/make_bench_positions.sh), 30 moves into a 9x9 game
/// and 60 into a 19x19 one, compiled in.
const MIDDLE_GAMES: [&str; 6] = [
    include_str!("../../data/bench/9x9-1.sgf"),
    include_str!("../../data/bench/9x9-2.sgf"),
    include_str!("../../data/bench/9x9-3.sgf"),
    include_str!("../../data/bench/19x19-1.sgf"),
    include_str!("../../data/bench/19x19-2.sgf"),
    include_str!("../../data/bench/19x19-3.sgf"),
];

/// The shipped middle-game positions of a board size, as games with the
/// side to move set.
pub fn middle_games(size: usize) -> Vec<Game> {
    MIDDLE_GAMES
        .iter()
        .map(|text| {
            let record = sgf::parse(text.as_bytes()).expect("a shipped bench position parses");
            Game::from_sgf(&record, None, 7.0, Superko::Positional)
                .expect("a shipped bench position replays")
        })
        .filter(|game| game.size().width == size && game.size().height == size)
        .collect()
}

/// Tree search with policy playouts from each shipped middle-game position
/// of `size` in turn, `playouts` in all shared out among them (none
/// shipped for the size: None). The question a user asks: how many
/// playouts a second in a game? `params` as for `tree_search`.
pub fn middle_game_search(
    size: usize,
    playouts: u64,
    seed: u64,
    params: &SearchParams,
    threads: usize,
    evaluator: Option<&Arc<SharedEvaluator>>,
) -> Option<SearchBench> {
    let params = SearchParams {
        heavy_playouts: true,
        ..params.clone()
    };
    let runner = Runner {
        threads,
        seed,
        evaluator,
    };
    let games = middle_games(size);
    let each = playouts / games.len().max(1) as u64;
    let runs: Vec<SearchBench> = games
        .iter()
        .map(|game| runner.search(game, each.max(1), params.clone()))
        .collect();
    let first = runs.first()?;
    Some(SearchBench {
        size,
        threads: first.threads,
        playouts: runs.iter().map(|r| r.playouts).sum(),
        seconds: runs.iter().map(|r| r.seconds).sum(),
        tree_nodes: runs.iter().map(|r| r.tree_nodes).sum(),
    })
}

/// How a bench's searches run: threads, seed, evaluator.
struct Runner<'a> {
    threads: usize,
    seed: u64,
    evaluator: Option<&'a Arc<SharedEvaluator>>,
}

impl Runner<'_> {
    /// Tree search from `game`'s position, its side to move to play.
    fn search(&self, game: &Game, playouts: u64, params: SearchParams) -> SearchBench {
        let (threads, seed) = (self.threads, self.seed);
        let size = game.size().width;
        let search = Search::new(game, game.to_move(), params, self.evaluator);
        let mut workers: Vec<Worker> = (0..threads.max(1) as u64)
            .map(|t| {
                Worker::new(
                    search.board(),
                    seed.wrapping_add(t.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
                )
            })
            .collect();
        let stop = AtomicBool::new(false);
        let start = Instant::now();
        run_threads(
            &search,
            &mut workers,
            None,
            &AtomicU64::new(playouts),
            &stop,
        );
        SearchBench {
            size,
            threads: workers.len(),
            playouts: workers.iter().map(Worker::playouts).sum(),
            seconds: start.elapsed().as_secs_f64(),
            tree_nodes: search.tree().len(),
        }
    }
}

/// The policy network's evaluations of one position, on one thread or
/// several at once.
#[derive(Clone, Copy, Debug)]
pub struct NetworkBench {
    pub size: usize,
    /// The threads evaluating at once, each its own copy of the position.
    pub threads: usize,
    /// The evaluations each thread made.
    pub evaluations: u64,
    /// From the first thread's start to the last thread's end.
    pub seconds: f64,
}

impl NetworkBench {
    /// What one evaluation takes on one thread while the others run: what
    /// a search thread waits for a node's prior.
    pub fn milliseconds_each(&self) -> f64 {
        1000.0 * self.seconds / self.evaluations.max(1) as f64
    }

    /// Evaluations a second on all the threads together.
    pub fn per_second(&self) -> f64 {
        (self.threads as u64 * self.evaluations) as f64 / self.seconds.max(f64::MIN_POSITIVE)
    }
}

/// `evaluations` evaluations of the network on each of `threads` threads
/// at once, on a shipped middle-game position of `size` (the empty board
/// where none is shipped), after one a thread that warms its buffers:
/// what a node that earns the network's prior costs in a game searched on
/// that many threads. `evaluator` without a cache in front (each
/// evaluation runs the network).
pub fn network_evaluations(
    size: usize,
    evaluations: u64,
    evaluator: &dyn Evaluator,
    threads: usize,
) -> NetworkBench {
    let game = middle_games(size)
        .into_iter()
        .next()
        .unwrap_or_else(|| Game::new(size, 7.0));
    let threads = threads.max(1);
    // Every thread warmed before the clock starts, then all let go at once.
    let ready = std::sync::Barrier::new(threads + 1);
    let done = std::sync::Barrier::new(threads + 1);
    let seconds = std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut board = board_of(&game);
                let mut scratch = Scratch::new();
                let recent = [None; RECENT_MOVES];
                let mut evaluate = |board: &mut PlayoutBoard| {
                    let position = Position {
                        board,
                        to_move: game.to_move(),
                        recent: &recent,
                        komi: game.komi() as f32,
                    };
                    evaluator.evaluate(position, &mut scratch);
                };
                evaluate(&mut board);
                ready.wait();
                for _ in 0..evaluations {
                    evaluate(&mut board);
                }
                done.wait();
            });
        }
        ready.wait();
        let start = Instant::now();
        done.wait();
        start.elapsed().as_secs_f64()
    });
    NetworkBench {
        size,
        threads,
        evaluations,
        seconds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_middle_games_replay_in_the_middle_of_a_game() {
        for (size, moves) in [(9, 30), (19, 60)] {
            let games = middle_games(size);
            assert_eq!(games.len(), 3, "{size}x{size}");
            for game in &games {
                assert_eq!(game.moves().count(), moves);
                assert_eq!(game.to_move(), Color::Black);
            }
        }
        let bench =
            middle_game_search(9, 30, 1, &SearchParams::default(), 1, None).expect("9x9 positions");
        assert!(bench.playouts >= 30, "{bench:?}");
        assert!(middle_game_search(13, 30, 1, &SearchParams::default(), 1, None).is_none());
    }

    #[test]
    fn network_evaluations_are_timed_on_every_size() {
        for size in [9, 13, 19] {
            let bench =
                network_evaluations(size, 3, &crate::player::network::Network::shipped(), 1);
            assert_eq!((bench.size, bench.threads, bench.evaluations), (size, 1, 3));
            assert!(
                bench.seconds > 0.0 && bench.milliseconds_each() > 0.0,
                "{bench:?}"
            );
        }
    }

    #[test]
    fn network_evaluations_on_several_threads_count_them_all() {
        let network = crate::player::network::Network::shipped();
        let bench = network_evaluations(9, 4, &network, 3);
        assert_eq!((bench.threads, bench.evaluations), (3, 4));
        let one_thread_rate = 1000.0 / bench.milliseconds_each();
        assert!(
            (bench.per_second() - 3.0 * one_thread_rate).abs() < 1e-6 * bench.per_second(),
            "{bench:?}"
        );
    }
}
