//! Move generation: fast playouts and Monte Carlo tree search.
//!
//! The player runs one `Search` per thread (root parallelism), adds up their
//! root statistics and picks the most visited move. It passes only once the
//! board is scored out: when the Tromp-Taylor count of the board as it
//! stands is what the playouts expect from continued play (every point's
//! owner now is its owner at the end of the playouts), or when the opponent
//! has just passed and the count as it stands already wins.

pub mod bench;
pub mod board;
pub mod patterns;
pub mod playout;
pub mod rng;
pub mod search;
pub mod time;
pub mod tree;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use log::info;

use crate::game::{Color, Game, Move, Vertex};
use board::Point;
use search::{Limits, Search, SearchParams};
use tree::PASS;

/// What the player answers to `genmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Vertex),
    Pass,
    Resign,
}

impl Decision {
    pub fn as_move(self) -> Option<Move> {
        match self {
            Decision::Play(v) => Some(Move::Play(v)),
            Decision::Pass => Some(Move::Pass),
            Decision::Resign => None,
        }
    }
}

impl From<Move> for Decision {
    fn from(mv: Move) -> Decision {
        match mv {
            Move::Pass => Decision::Pass,
            Move::Play(v) => Decision::Play(v),
        }
    }
}

impl std::fmt::Display for Decision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Decision::Play(v) => v.fmt(f),
            Decision::Pass => f.write_str("pass"),
            Decision::Resign => f.write_str("resign"),
        }
    }
}

/// Settings from the command line.
#[derive(Clone, Debug)]
pub struct PlayerConfig {
    /// Search threads.
    pub threads: usize,
    /// Playouts per move; when set, the search stops after that many (per
    /// thread) unless the clock says stop first.
    pub playouts: Option<u64>,
    /// Seconds per move when no time control is set.
    pub seconds_per_move: Option<f64>,
    pub seed: Option<u64>,
    /// Resign when the winning chance is below this on two moves running
    /// (0 never resigns).
    pub resign_threshold: f64,
    pub search: SearchParams,
}

impl Default for PlayerConfig {
    fn default() -> PlayerConfig {
        PlayerConfig {
            threads: 1,
            playouts: None,
            seconds_per_move: None,
            seed: None,
            resign_threshold: 0.05,
            search: SearchParams::default(),
        }
    }
}

/// How long one move may take: aim for `target`, never pass `hard_limit`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveBudget {
    pub target: Duration,
    pub hard_limit: Duration,
}

/// The statistics of one root move after a search, summed over threads.
#[derive(Clone, Copy, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub visits: u32,
    /// Winning chance for the side to move.
    pub win_rate: f32,
}

/// What a finished search knows, for genmove and for analysis.
#[derive(Clone, Debug)]
pub struct SearchReport {
    /// Best first.
    pub moves: Vec<RootMove>,
    /// Per vertex of the board, row-major from A1: +1 Black owns it, -1 White.
    pub ownership: Vec<f32>,
    pub playouts: u64,
    pub elapsed: Duration,
}

pub struct Player {
    config: PlayerConfig,
    /// One search per thread, kept between moves for tree reuse.
    searches: Vec<Option<Search>>,
    seed_counter: u64,
    /// The winning chance of our last genmove, for the resign rule.
    last_win_rate: Option<f32>,
}

impl Player {
    pub fn new(config: &PlayerConfig) -> Player {
        let threads = config.threads.max(1);
        Player {
            config: config.clone(),
            searches: (0..threads).map(|_| None).collect(),
            seed_counter: config.seed.unwrap_or_else(rand::random),
            last_win_rate: None,
        }
    }

    pub fn config(&self) -> &PlayerConfig {
        &self.config
    }

    /// Forgets the trees (after a new game, say).
    pub fn clear(&mut self) {
        for s in &mut self.searches {
            *s = None;
        }
        self.last_win_rate = None;
    }

    /// The default thinking time per move when no clock is set: about a
    /// second on 9x9, a little more on larger boards.
    fn default_budget(&self, size: usize) -> MoveBudget {
        let seconds = self
            .config
            .seconds_per_move
            .unwrap_or_else(|| (size as f64 / 9.0).max(0.5));
        // Any f64 may come from the command line: `Duration` panics on
        // values past about 1.8e19 seconds, and on NaN.
        let seconds = if seconds.is_nan() { 1.0 } else { seconds };
        let target = Duration::from_secs_f64(seconds.clamp(0.001, time::MAX_SECONDS));
        MoveBudget {
            target,
            hard_limit: target,
        }
    }

    /// Chooses a move for `color`.
    pub fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        budget: Option<MoveBudget>,
        stop: &AtomicBool,
    ) -> Decision {
        // The opponent passed and the count as it stands wins: end the game.
        if game.consecutive_passes() >= 1 && wins_as_it_stands(game, color) {
            info!("opponent passed and the count wins for {color}: passing");
            return Decision::Pass;
        }
        let legal: Vec<Vertex> = game.legal_vertices(color);
        if legal.is_empty() {
            return Decision::Pass;
        }
        let report = self.search(game, color, budget, stop);
        info!(
            "{} playouts in {:.2}s, best {:?}",
            report.playouts,
            report.elapsed.as_secs_f64(),
            report.moves.first()
        );
        let decision = self.decide(game, color, &report);
        self.last_win_rate = report.moves.first().map(|m| m.win_rate);
        decision
    }

    /// Runs the search for `color` at the game's position and reports.
    pub fn search(
        &mut self,
        game: &Game,
        color: Color,
        budget: Option<MoveBudget>,
        stop: &AtomicBool,
    ) -> SearchReport {
        let start = Instant::now();
        let deadline = match (self.config.playouts, budget) {
            // A fixed playout count with no clock is deterministic: no deadline.
            (Some(_), None) => None,
            // A fixed count under a clock stops at the clock's hard limit.
            (Some(_), Some(b)) => Some(start + b.hard_limit),
            (None, Some(b)) => Some(start + b.target),
            (None, None) => Some(start + self.default_budget(game.size()).target),
        };
        let limits = Limits {
            playouts: self.config.playouts.unwrap_or(u64::MAX),
            deadline,
        };
        let mut searches: Vec<Search> = Vec::with_capacity(self.searches.len());
        for slot in self.searches.iter_mut() {
            self.seed_counter = self.seed_counter.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let seed = self.seed_counter;
            let search = match slot.take() {
                Some(old) => old.advance(game, color, seed),
                None => Search::new(game, color, self.config.search.clone(), seed),
            };
            searches.push(search);
        }
        std::thread::scope(|scope| {
            for search in searches.iter_mut() {
                scope.spawn(move || search.run(limits, stop));
            }
        });
        let report = summarise(&searches, game, start.elapsed());
        for (slot, search) in self.searches.iter_mut().zip(searches) {
            *slot = Some(search);
        }
        report
    }

    /// From the search's statistics to a move, with the pass and resign rules.
    fn decide(&self, game: &Game, color: Color, report: &SearchReport) -> Decision {
        let Some(best) = report.moves.first() else {
            return Decision::Pass;
        };
        if self.should_resign(game, best.win_rate) {
            return Decision::Resign;
        }
        let best_play = report
            .moves
            .iter()
            .find(|m| m.mv != Move::Pass && game.is_legal(color, m.mv));
        let scored_out = is_scored_out(game, &report.ownership);
        let pass = report.moves.iter().find(|m| m.mv == Move::Pass);
        log::info!("scored out: {scored_out}; best {best:?}; pass {pass:?}");
        if log::log_enabled!(log::Level::Debug) {
            let size = game.size();
            for row in (0..size).rev() {
                let line: Vec<String> = (0..size)
                    .map(|col| format!("{:+.2}", report.ownership[row * size + col]))
                    .collect();
                log::debug!("ownership row {}: {}", row + 1, line.join(" "));
            }
        }
        // Scored out: the count as it stands is what play would give, so
        // passing gives it too; unless the count loses and the search has
        // found a move that wins, which means the count was misread.
        if scored_out && (wins_as_it_stands(game, color) || best.win_rate < 0.5) {
            return Decision::Pass;
        }
        match (best.mv, best_play) {
            (Move::Play(_), Some(play)) => play.mv.into(),
            (Move::Play(_), None) => Decision::Pass,
            (Move::Pass, _) if scored_out => Decision::Pass,
            // Not scored out: a move that does no worse than passing keeps
            // the game going until the board can be counted as it stands.
            (Move::Pass, Some(play)) if play.win_rate >= best.win_rate - 0.05 => play.mv.into(),
            (Move::Pass, _) => Decision::Pass,
        }
    }

    fn should_resign(&self, game: &Game, win_rate: f32) -> bool {
        let threshold = self.config.resign_threshold as f32;
        if threshold <= 0.0 {
            return false;
        }
        // Early in a game on a large board low values are noise.
        let size = game.size();
        let early = game.moves().count() < size * size / 4;
        !early && win_rate < threshold && self.last_win_rate.is_some_and(|w| w < threshold)
    }
}

/// Adds up the root statistics of every thread's search.
fn summarise(searches: &[Search], game: &Game, elapsed: Duration) -> SearchReport {
    let size = game.size();
    let mut totals: Vec<(Point, u32, f32)> = Vec::new();
    let mut ownership = vec![0.0f32; size * size];
    let mut samples = 0u32;
    let mut playouts = 0;
    for search in searches {
        playouts += search.playouts();
        for (mv, visits, rate) in search.root_children() {
            match totals.iter_mut().find(|t| t.0 == mv) {
                Some(t) => {
                    t.1 += visits;
                    t.2 += rate * visits as f32;
                }
                None => totals.push((mv, visits, rate * visits as f32)),
            }
        }
        let own = search.ownership();
        let n = search.ownership_samples();
        for (i, v) in Vertex::all(size).enumerate() {
            ownership[i] += own[search.board().point(v) as usize] * n as f32;
        }
        samples += n;
    }
    for o in &mut ownership {
        *o /= samples.max(1) as f32;
    }
    let board = searches.first().map(|s| s.board());
    let mut moves: Vec<RootMove> = totals
        .into_iter()
        .map(|(mv, visits, wins)| RootMove {
            mv: match (mv, board) {
                (PASS, _) | (_, None) => Move::Pass,
                (p, Some(b)) => Move::Play(b.vertex(p)),
            },
            visits,
            win_rate: if visits > 0 {
                wins / visits as f32
            } else {
                0.5
            },
        })
        .collect();
    moves.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.win_rate.total_cmp(&a.win_rate))
    });
    SearchReport {
        moves,
        ownership,
        playouts,
        elapsed,
    }
}

/// Whether `color` wins by the Tromp-Taylor count of the board as it stands.
fn wins_as_it_stands(game: &Game, color: Color) -> bool {
    let score = game.score();
    match color {
        Color::Black => score > 0.0,
        Color::White => score < 0.0,
    }
}

/// Whether the count of the board as it stands is what play would give:
/// every point a colour owns now (its stone, or an empty point reaching only
/// that colour) is owned by that colour at the end of nearly all playouts,
/// and every point nobody owns now is dame, an empty point between stones of
/// both colours. An open area (an empty point with no stone beside it, say
/// on the empty board) is never scored out, however the playouts split it.
pub fn is_scored_out(game: &Game, ownership: &[f32]) -> bool {
    const SURE: f32 = 0.8;
    let board = game.board();
    Vertex::all(game.size()).enumerate().all(|(i, v)| {
        let expected = ownership.get(i).copied().unwrap_or(0.0);
        match board.owner(v) {
            Some(Color::Black) => expected > SURE,
            Some(Color::White) => expected < -SURE,
            None => {
                let beside: Vec<Color> = board.neighbours(v).filter_map(|n| board.get(n)).collect();
                beside.contains(&Color::Black) && beside.contains(&Color::White)
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game_with(size: usize, stones: &[(&str, Color)]) -> Game {
        let mut game = Game::new(size, 0.5);
        for &(v, c) in stones {
            let v = Vertex::parse_gtp(v).expect("vertex");
            game.play(c, Move::Play(v)).expect("legal");
        }
        game
    }

    #[test]
    fn an_open_board_is_never_scored_out() {
        let game = Game::new(9, 7.5);
        assert!(!is_scored_out(&game, &[0.0; 81]));
        assert!(!is_scored_out(&game, &[-1.0; 81]));
    }

    #[test]
    fn settled_walls_with_dame_are_scored_out() {
        use Color::{Black as B, White as W};
        // 3x3: Black column A, White column C, dame column B.
        let game = game_with(
            3,
            &[
                ("A1", B),
                ("C1", W),
                ("A2", B),
                ("C2", W),
                ("A3", B),
                ("C3", W),
            ],
        );
        let mut ownership = [0.0f32; 9];
        for row in 0..3 {
            ownership[row * 3] = 1.0;
            ownership[row * 3 + 2] = -1.0;
        }
        assert!(is_scored_out(&game, &ownership));
        // A stone the playouts say dies is not scored out.
        ownership[0] = -0.5;
        assert!(!is_scored_out(&game, &ownership));
    }
}
