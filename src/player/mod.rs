//! Move generation: fast playouts and Monte Carlo tree search.
//!
//! The player runs one `Search` per thread (root parallelism), adds up their
//! root statistics (`report`) and turns them into a move with the pass,
//! resign and dead-stone rules (`decision`).

pub mod bench;
mod decision;
pub mod patterns;
pub mod playout;
pub mod playout_board;
mod report;
pub mod rng;
pub mod search;
pub mod time;
pub mod tree;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use log::info;

use crate::game::{Color, Game, Vertex};
use decision::{decide, Resign};
use report::summarise;
use search::{Limits, Search, SearchParams};

pub use decision::Decision;
pub use report::{RootMove, SearchReport};

#[cfg(test)]
pub(crate) use report::sample_report;

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
    /// Search on the opponent's time after genmove, until the next command.
    pub ponder: bool,
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
            ponder: false,
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

/// How a search runs: until a deadline and a playout count per thread
/// (whichever first) or until stopped; with a look at its statistics every
/// `interval` when one is given.
pub struct SearchLimits {
    pub deadline: Option<Instant>,
    pub playouts: u64,
    pub interval: Option<Duration>,
}

/// A look at a running search: every `interval`, `on_report` gets the
/// statistics so far and returns false to end the search there.
pub struct Watch<'a> {
    pub interval: Duration,
    pub on_report: &'a mut dyn FnMut(&SearchReport) -> bool,
}

/// The move generator: owns one search (tree, root board, random stream)
/// per thread, kept from move to move for tree reuse, and the memory of the
/// resign rule. Stateless otherwise: the game is the caller's.
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

    /// Chooses a move for `color`, showing the search's statistics to
    /// `watch` every interval while it thinks.
    pub fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        budget: Option<MoveBudget>,
        stop: &AtomicBool,
        watch: Option<Watch>,
    ) -> Decision {
        let legal: Vec<Vertex> = game.legal_vertices(color);
        if legal.is_empty() {
            return Decision::Pass;
        }
        let limits = SearchLimits {
            interval: watch.as_ref().map(|w| w.interval),
            ..self.move_limits(game, budget)
        };
        let report = self.run_search(game, color, limits, stop, watch);
        info!(
            "{} playouts in {:.2}s, best {:?}",
            report.playouts,
            report.elapsed.as_secs_f64(),
            report.moves.first()
        );
        let resign = Resign {
            threshold: self.config.resign_threshold as f32,
            last_win_rate: self.last_win_rate,
        };
        let decision = decide(game, color, &report, resign);
        self.last_win_rate = report.moves.first().map(|m| m.win_rate);
        decision
    }

    /// Runs the search for `color` at the game's position as genmove would
    /// (same time or playouts) and reports, without choosing a move.
    pub fn search(
        &mut self,
        game: &Game,
        color: Color,
        budget: Option<MoveBudget>,
        stop: &AtomicBool,
    ) -> SearchReport {
        let limits = self.move_limits(game, budget);
        self.run_search(game, color, limits, stop, None)
    }

    /// Searches for `color` until `stop` is raised (or `deadline`), with no
    /// playout limit: for analysis and pondering. `watch` sees the
    /// statistics every interval.
    pub fn analyze(
        &mut self,
        game: &Game,
        color: Color,
        deadline: Option<Instant>,
        stop: &AtomicBool,
        watch: Option<Watch>,
    ) -> SearchReport {
        let limits = SearchLimits {
            deadline,
            playouts: u64::MAX,
            interval: watch.as_ref().map(|w| w.interval),
        };
        self.run_search(game, color, limits, stop, watch)
    }

    /// The limits of a genmove search: the clock's budget, else the
    /// command line's playouts or time per move.
    fn move_limits(&self, game: &Game, budget: Option<MoveBudget>) -> SearchLimits {
        let start = Instant::now();
        let deadline = match (self.config.playouts, budget) {
            // A fixed playout count with no clock is deterministic: no deadline.
            (Some(_), None) => None,
            // A fixed count under a clock stops at the clock's hard limit.
            (Some(_), Some(b)) => Some(start + b.hard_limit),
            (None, Some(b)) => Some(start + b.target),
            (None, None) => Some(start + self.default_budget(game.size()).target),
        };
        SearchLimits {
            deadline,
            playouts: self.config.playouts.unwrap_or(u64::MAX),
            interval: None,
        }
    }

    /// Runs the threads' searches in slices of one interval each (a single
    /// slice without one), reporting between slices; the trees carry on
    /// from slice to slice, so watching costs only the thread restarts.
    fn run_search(
        &mut self,
        game: &Game,
        color: Color,
        limits: SearchLimits,
        stop: &AtomicBool,
        mut watch: Option<Watch>,
    ) -> SearchReport {
        let start = Instant::now();
        let mut searches = self.prepare_searches(game, color);
        let mut playouts_left = limits.playouts;
        loop {
            let slice_end = limits.interval.map(|i| Instant::now() + i);
            let deadline = match (limits.deadline, slice_end) {
                (Some(d), Some(s)) => Some(d.min(s)),
                (d, s) => d.or(s),
            };
            let before: Vec<u64> = searches.iter().map(Search::playouts).collect();
            let slice = Limits {
                playouts: playouts_left,
                deadline,
            };
            std::thread::scope(|scope| {
                for search in searches.iter_mut() {
                    scope.spawn(move || search.run(slice, stop));
                }
            });
            // The limit is per thread: the thread that did least decides.
            let done = searches
                .iter()
                .zip(&before)
                .map(|(search, before)| search.playouts() - before)
                .min()
                .unwrap_or(0);
            playouts_left = playouts_left.saturating_sub(done.max(1));
            let finished = stop.load(std::sync::atomic::Ordering::Relaxed)
                || playouts_left == 0
                || limits.deadline.is_some_and(|d| Instant::now() >= d);
            let Some(watch) = watch.as_mut() else {
                break;
            };
            if finished || !(watch.on_report)(&summarise(&searches, game, color, start.elapsed())) {
                break;
            }
        }
        let report = summarise(&searches, game, color, start.elapsed());
        for (slot, search) in self.searches.iter_mut().zip(searches) {
            *slot = Some(search);
        }
        report
    }

    /// Each thread's search moved to the game's position, reusing its tree
    /// where the game followed it.
    fn prepare_searches(&mut self, game: &Game, color: Color) -> Vec<Search> {
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
        searches
    }
}
