//! Move generation: fast playouts and Monte Carlo tree search.
//!
//! The player runs one `Search` per thread (root parallelism), adds up their
//! root statistics (`report`) and turns them into a move with the pass,
//! resign and dead-stone rules (`decision`).

pub mod bench;
mod decision;
mod filter;
mod komi;
mod nakade;
mod patterns;
mod playout;
mod playout_board;
mod reply;
mod report;
mod rng;
mod search;
mod selfatari;
mod stopping;
mod tactics;
mod time;
mod tree;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use log::{debug, info};

use crate::game::{Color, Game, Vertex};
use decision::{decide, Resign};
use report::summarise;
use search::Search;

pub use decision::Decision;
pub use filter::{FilterKind, MoveFilter, MoveRule};
pub use report::{RootMove, SearchReport};
pub use search::SearchParams;
pub use time::{Budget, Clock, TimeControl};

/// Bytes one node of a search tree takes, for fitting `--max-tree-mb`.
pub const TREE_NODE_BYTES: usize = std::mem::size_of::<tree::Node>();

#[cfg(test)]
pub(crate) use report::sample_report;

/// Settings from the command line.
#[derive(Clone, Debug)]
pub struct PlayerConfig {
    /// Search threads.
    pub threads: usize,
    /// Playouts per move, shared out among the threads; when set, the search
    /// stops after that many unless the clock says stop first. Read by the
    /// clock.
    pub playouts: Option<u64>,
    /// Seconds per move when no time control is set. Read by the clock.
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
    /// The client's avoid / allow rules for the search running now (see
    /// `filtered`); empty otherwise.
    filter: MoveFilter,
    /// The adaptive part of the dynamic komi, moved after each genmove.
    adaptive_komi: komi::Adaptive,
}

impl Player {
    pub fn new(config: &PlayerConfig) -> Player {
        let threads = config.threads.max(1);
        Player {
            config: config.clone(),
            searches: (0..threads).map(|_| None).collect(),
            seed_counter: config.seed.unwrap_or_else(rand::random),
            last_win_rate: None,
            filter: MoveFilter::default(),
            adaptive_komi: komi::Adaptive::default(),
        }
    }

    /// Runs `search` (a genmove or an analysis) with the search kept to
    /// `filter`; the filter ends with it.
    pub fn filtered<T>(&mut self, filter: &MoveFilter, search: impl FnOnce(&mut Player) -> T) -> T {
        self.filter = filter.clone();
        let result = search(self);
        self.filter = MoveFilter::default();
        result
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
        self.filter = MoveFilter::default();
        self.adaptive_komi.clear();
    }

    /// Chooses a move for `color` within `budget`, showing the search's
    /// statistics to `watch` every interval while it thinks.
    pub fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        budget: Budget,
        stop: &AtomicBool,
        watch: Option<Watch>,
        commit: bool,
    ) -> Decision {
        let legal: Vec<Vertex> = game.legal_vertices(color);
        if legal.is_empty() {
            return Decision::Pass;
        }
        // Without a commit (reg_genmove) the search leaves no trace: the
        // kept trees stay as they were and the seed stream is put back.
        let seed_counter = self.seed_counter;
        let extra_komi = self.extra_komi(game, color);
        let komi = komi::search_komi(game.komi(), color, extra_komi);
        let report = self.run_search(game, color, komi, budget, stop, watch, commit);
        if !commit {
            self.seed_counter = seed_counter;
        }
        info!(
            "{} playouts in {:.2}s, best {}",
            report.playouts,
            report.elapsed.as_secs_f64(),
            report
                .moves
                .first()
                .map_or("none".to_string(), |m| m.describe(color))
        );
        let resign = Resign {
            // Asking for more than the real komi, the win rates understate
            // our chances: no resigning on them.
            threshold: if extra_komi > 0.0 {
                0.0
            } else {
                self.config.resign_threshold as f32
            },
            last_win_rate: self.last_win_rate,
        };
        let decision = decide(game, color, &report, resign);
        let decision = self.filter.kept_to(decision, game, color, &report);
        if commit {
            self.last_win_rate = report.moves.first().map(|m| m.win_rate);
            if let (true, Some(best)) = (self.config.search.adaptive_komi, report.moves.first()) {
                self.adaptive_komi.update(color, best.win_rate, game.size());
            }
        }
        decision
    }

    /// Points beyond the real komi that `color`'s next genmove search asks
    /// for (negative: the loss it accepts), by the dynamic komi settings.
    fn extra_komi(&self, game: &Game, color: Color) -> f32 {
        let params = &self.config.search;
        let handicap = if params.handicap_komi {
            komi::handicap_extra(game, color)
        } else {
            0.0
        };
        let adaptive = if params.adaptive_komi {
            self.adaptive_komi.extra(color)
        } else {
            0.0
        };
        if handicap + adaptive != 0.0 {
            debug!(
                "{color} searches with {:+.1} points of dynamic komi",
                handicap + adaptive
            );
        }
        handicap + adaptive
    }

    /// Runs the search for `color` at the game's position within `budget`
    /// and reports, without choosing a move.
    pub fn search(
        &mut self,
        game: &Game,
        color: Color,
        budget: Budget,
        stop: &AtomicBool,
    ) -> SearchReport {
        self.run_search(game, color, game.komi() as f32, budget, stop, None, true)
    }

    /// Searches for `color` until `stop` is raised, with no other bound: for
    /// analysis and pondering. `watch` sees the statistics every interval.
    pub fn analyze(
        &mut self,
        game: &Game,
        color: Color,
        stop: &AtomicBool,
        watch: Option<Watch>,
    ) -> SearchReport {
        self.run_search(
            game,
            color,
            game.komi() as f32,
            Budget::UNLIMITED,
            stop,
            watch,
            true,
        )
    }

    /// Runs the threads' searches in slices of one interval each (a single
    /// slice without one), reporting between slices; the trees carry on
    /// from slice to slice, so watching costs only the thread restarts.
    /// With `keep`, the trees are kept for the next search; without, the
    /// ones kept before stay as they were.
    #[allow(clippy::too_many_arguments)]
    fn run_search(
        &mut self,
        game: &Game,
        color: Color,
        komi: f32,
        budget: Budget,
        stop: &AtomicBool,
        mut watch: Option<Watch>,
        keep: bool,
    ) -> SearchReport {
        let start = Instant::now();
        let mut searches = self.prepare_searches(game, color, komi, keep);
        // A playout count is per move (as Leela Zero's and KataGo's are),
        // shared out among the threads.
        let mut playouts_left = match budget.playouts {
            u64::MAX => u64::MAX,
            n => n.div_ceil(searches.len().max(1) as u64),
        };
        let mut deadline = budget.deadline;
        loop {
            // Slices of one watch interval, and under a clock short ones
            // so that the search can stop early or run on.
            let slice_len = earliest(
                watch.as_ref().map(|w| w.interval),
                budget.latest.map(|_| stopping::CHECK_INTERVAL),
            );
            let slice_end = slice_len.map(|d| Instant::now() + d);
            let before: Vec<u64> = searches.iter().map(Search::playouts).collect();
            let slice = Budget {
                playouts: playouts_left,
                deadline: earliest(deadline, slice_end),
                latest: None,
            };
            std::thread::scope(|scope| {
                let threads: Vec<_> = searches
                    .iter_mut()
                    .map(|search| scope.spawn(move || search.run(slice, stop)))
                    .collect();
                // Joined here so that a thread's panic reaches the caller
                // with its own message (the scope would replace it with "a
                // scoped thread panicked").
                for thread in threads {
                    if let Err(payload) = thread.join() {
                        std::panic::resume_unwind(payload);
                    }
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
            let mut finished =
                stop.load(std::sync::atomic::Ordering::Relaxed) || playouts_left == 0;
            if !finished {
                deadline = match (budget.deadline, budget.latest) {
                    (Some(target), Some(latest)) => {
                        manage_time(&searches, start, target, latest, color)
                    }
                    (d, _) => d.filter(|&d| Instant::now() < d),
                };
                finished = budget.deadline.is_some() && deadline.is_none();
            }
            if finished {
                break;
            }
            if let Some(watch) = watch.as_mut() {
                if !(watch.on_report)(&summarise(&searches, game, color, start.elapsed())) {
                    break;
                }
            }
        }
        let report = summarise(&searches, game, color, start.elapsed());
        if keep {
            for (slot, search) in self.searches.iter_mut().zip(searches) {
                *slot = Some(search);
            }
        }
        report
    }

    /// Each thread's search moved to the game's position, reusing its tree
    /// where the game followed it.
    fn prepare_searches(
        &mut self,
        game: &Game,
        color: Color,
        komi: f32,
        keep: bool,
    ) -> Vec<Search> {
        let mut searches: Vec<Search> = Vec::with_capacity(self.searches.len());
        for slot in self.searches.iter_mut() {
            self.seed_counter = self.seed_counter.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let seed = self.seed_counter;
            // Each search starts from a copy of the subtree it reuses. A
            // tree grown under another filter, or one whose depths the
            // moves since have shifted, holds moves the filter forbids.
            let filter = &self.filter;
            let search = match slot.as_ref() {
                Some(old)
                    if old.komi() == komi
                        && old.filter() == filter
                        && (filter.is_empty() || old.is_at(game)) =>
                {
                    old.advance(game, color, seed)
                }
                _ => Search::new(game, color, self.config.search.clone(), seed),
            }
            .with_filter(filter.clone())
            .with_komi(komi);
            if keep {
                // The new search replaces the old tree: free it now.
                *slot = None;
            }
            searches.push(search);
        }
        searches
    }
}

/// The earlier (or shorter) of two optional times, either when only one is
/// given.
fn earliest<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A clock-managed search between slices: the time to run to (`target`,
/// or `latest` while the choice is unclear), or None to stop now.
fn manage_time(
    searches: &[Search],
    start: Instant,
    target: Instant,
    latest: Instant,
    color: Color,
) -> Option<Instant> {
    let (best, runner_up) = stopping::top_two(searches);
    let playouts = searches.iter().map(Search::playouts).sum();
    let now = Instant::now();
    let until = stopping::run_until(best, runner_up, playouts, now - start, now, target, latest);
    match until {
        None if now < target => debug!(
            "{color}: stopped {:.2}s early, the best move cannot be overtaken",
            (target - now).as_secs_f64()
        ),
        Some(until) if until > target && now <= target + stopping::CHECK_INTERVAL => {
            debug!(
                "{color}: unclear choice, thinking up to {:.2}s longer",
                (until - target).as_secs_f64()
            )
        }
        _ => {}
    }
    until
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_playout_count_is_per_move_whatever_the_threads() {
        // It was per thread: two threads made twice the playouts asked for.
        for threads in [1, 2, 3] {
            let mut player = Player::new(&PlayerConfig {
                threads,
                seed: Some(4),
                ..PlayerConfig::default()
            });
            let game = Game::new(9, 7.5);
            let budget = Budget {
                deadline: None,
                playouts: 300,
                latest: None,
            };
            let report = player.search(&game, Color::Black, budget, &AtomicBool::new(false));
            let expected = 300u64.div_ceil(threads as u64) * threads as u64;
            assert_eq!(report.playouts, expected, "{threads} threads");
        }
    }

    #[test]
    fn the_handicap_komi_counts_for_blacks_genmove_only() {
        let mut game = Game::new(9, 0.5);
        let stones: Vec<_> = ["C3", "G7", "C7", "G3"]
            .iter()
            .map(|s| (Vertex::parse_gtp(s).expect("vertex"), Some(Color::Black)))
            .collect();
        game.setup(&stones).expect("setup");
        let budget = Budget {
            deadline: None,
            playouts: 200,
            latest: None,
        };
        let stop = AtomicBool::new(false);
        let search_komi = |handicap_komi: bool, color: Color, genmove: bool| {
            let mut config = PlayerConfig {
                seed: Some(3),
                ..PlayerConfig::default()
            };
            config.search.handicap_komi = handicap_komi;
            let mut player = Player::new(&config);
            if genmove {
                player.genmove(&game, color, budget, &stop, None, true);
            } else {
                player.search(&game, color, budget, &stop);
            }
            player.searches[0].as_ref().expect("kept").komi()
        };
        assert_eq!(search_komi(true, Color::Black, true), 28.5);
        assert_eq!(search_komi(false, Color::Black, true), 0.5);
        assert_eq!(search_komi(true, Color::White, true), 0.5);
        // Analysis shows the game's own komi.
        assert_eq!(search_komi(true, Color::Black, false), 0.5);
    }
}
