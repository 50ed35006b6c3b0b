//! Benchmarks of the playouts and the search, for `hane bench`. Not a test:
//! figures depend on the machine. Compare with a peer measured in the same
//! run (see README).

use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

use super::board::{winner, PlayoutBoard};
use super::params::SearchParams;
use super::playout::{light_playout, Records};
use super::rng::FastRng;
use super::search::{run_threads, Search, Worker};
use crate::game::{Color, Game};

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
        moves += light_playout(&mut board, Color::Black, &mut rng, Records::default()).moves as u64;
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

/// Tree search from the empty board, on `threads` threads sharing the tree.
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
/// moves), else light playouts as in `light_playouts`. The threads share
/// `playouts` out as a genmove's do. Thread t's random stream is seeded
/// from `seed` and t, thread 0's with `seed` itself, as the one-thread
/// bench always was: its figures stay comparable with older ones.
pub fn tree_search(
    size: usize,
    playouts: u64,
    seed: u64,
    heavy: bool,
    threads: usize,
) -> SearchBench {
    let game = Game::new(size, 7.0);
    let params = SearchParams {
        heavy_playouts: heavy,
        ..SearchParams::default()
    };
    let search = Search::new(&game, Color::Black, params);
    let mut workers: Vec<Worker> = (0..threads.max(1) as u64)
        .map(|t| {
            Worker::new(
                &search,
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
