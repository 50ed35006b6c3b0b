//! Move generation: fast playouts and Monte Carlo tree search.
//!
//! The player runs one `Search` on every thread at once: the threads grow
//! one tree together (`tree`), each with its own `Worker` state, and the
//! report (`report`) reads the tree's root and adds up what the threads
//! counted on their own (ownership, margins). `decision` turns the report
//! into a move with the pass, resign and dead-stone rules.

pub mod bench;
mod decision;
mod features;
mod filter;
mod fit;
mod gammas;
mod komi;
mod nakade;
mod outcome;
mod patterns;
mod playout;
mod playout_board;
mod race;
mod reply;
mod report;
mod rng;
mod search;
mod selfatari;
mod stopping;
mod tactics;
mod time;
mod tree;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use log::{debug, info};

use crate::game::{Color, Game, Move, Vertex};
use decision::{decide, Resign};
use report::summarise;
use search::{Search, Worker};

pub use decision::Decision;
pub use filter::{FilterKind, MoveFilter, MoveRule};
pub use fit::{fit_prior, FitOptions};
pub use report::{RootMove, SearchReport};
pub use search::SearchParams;
pub use time::{Budget, Clock, TimeControl, MAX_THINK_SECONDS, UNSEEN_LATENCY};

/// Playouts the search of the opponent's reply to a pass gets at least
/// (`Player::check_pass`).
const MIN_PASS_CHECK_PLAYOUTS: u64 = 200;

/// Bytes one node of the search tree takes, for fitting `--max-tree-mb`.
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

/// The move generator: owns the search (the tree all threads share, and
/// its root position), kept from move to move for tree reuse, and the
/// memory of the resign rule. Stateless otherwise: the game is the
/// caller's.
pub struct Player {
    config: PlayerConfig,
    /// Search threads, at least one.
    threads: usize,
    /// The last search, kept between moves for tree reuse.
    search: Option<Search>,
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
        Player {
            config: config.clone(),
            threads: config.threads.max(1),
            search: None,
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

    /// Forgets the tree (after a new game, say).
    pub fn clear(&mut self) {
        self.search = None;
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
        // kept tree stays as it was and the seed stream is put back.
        let seed_counter = self.seed_counter;
        let extra_komi = self.extra_komi(game, color);
        let komi = komi::search_komi(game.komi(), color, extra_komi);
        let report = self.run_search(game, color, komi, budget, stop, watch, commit);
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
        let decision = self.check_pass(decision, game, color, komi, &budget, &report, stop);
        let decision = self.filter.kept_to(decision, game, color, &report);
        if commit {
            self.last_win_rate = report.moves.first().map(|m| m.win_rate);
            if let (true, Some(best)) = (self.config.search.adaptive_komi, report.moves.first()) {
                self.adaptive_komi.update(color, best.win_rate, game.size());
            }
        } else {
            self.seed_counter = seed_counter;
        }
        decision
    }

    /// A pass that the opponent has not made first, while the search's
    /// best move is a play, is checked by searching the opponent's reply
    /// to it: the ownership that called the board scored out came from
    /// playouts nearly all of which began with our best move, and that move
    /// may be the one that closes a boundary or saves a stone in atari.
    /// Passing there lost 11 of the 39 9x9 games GNU Go won in three
    /// matches (docs/strength.md). When the opponent's best reply does
    /// better against our pass than against our best move, the best move is
    /// played instead. The check takes a quarter of the search's playouts
    /// and time, within the clock's limit; with no time left on the clock,
    /// or stopped, the pass stands.
    #[allow(clippy::too_many_arguments)]
    fn check_pass(
        &mut self,
        decision: Decision,
        game: &Game,
        color: Color,
        komi: f32,
        budget: &Budget,
        report: &SearchReport,
        stop: &AtomicBool,
    ) -> Decision {
        let Some(best) = report.moves.first() else {
            return decision;
        };
        if decision != Decision::Pass || game.consecutive_passes() > 0 || best.mv == Move::Pass {
            return decision;
        }
        let Some(play) = report.best_play(game) else {
            return decision;
        };
        let now = Instant::now();
        let check_end = now + report.elapsed / 4;
        // A time per move with no clock sets no limit: the check runs a
        // little over it.
        let deadline = match (budget.deadline, budget.clock_limit()) {
            (None, _) => None,
            (Some(_), Some(limit)) if limit <= now => return decision,
            (Some(_), Some(limit)) => Some(check_end.min(limit)),
            (Some(_), None) => Some(check_end),
        };
        let check_budget = Budget {
            deadline,
            playouts: (report.playouts / 4).max(MIN_PASS_CHECK_PLAYOUTS),
            latest: None,
            capped: budget.capped,
        };
        let mut after_pass = game.clone();
        if after_pass.play(color, Move::Pass).is_err() {
            return decision;
        }
        let opponent = color.opponent();
        let reply = self.run_search(&after_pass, opponent, komi, check_budget, stop, None, false);
        let Some(opponent_best) = reply.moves.first() else {
            return decision;
        };
        if reply.playouts < MIN_PASS_CHECK_PLAYOUTS / 2 {
            return decision;
        }
        let after_pass_rate = 1.0 - opponent_best.win_rate;
        if after_pass_rate >= best.win_rate - decision::NO_WORSE {
            info!(
                "checked the pass: {opponent}'s best reply {} leaves {color} {:.1}%",
                opponent_best.describe(opponent),
                100.0 * after_pass_rate
            );
            return decision;
        }
        info!(
            "not passing: {opponent} would answer {}, leaving {color} {:.1}% against {:.1}% after {}",
            opponent_best.describe(opponent),
            100.0 * after_pass_rate,
            100.0 * best.win_rate,
            play.describe(color)
        );
        play.mv.into()
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

    /// Runs the search on every thread in slices of one interval each (a
    /// single slice without one), reporting between slices; the tree and
    /// the threads' sums carry on from slice to slice, so watching costs
    /// only the thread restarts. With `keep`, the tree is kept for the next
    /// search; without, the one kept before stays as it was.
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
        let search = self.prepare_search(game, color, komi, keep);
        let mut workers: Vec<Worker> = (0..self.threads)
            .map(|_| {
                self.seed_counter = self.seed_counter.wrapping_add(0x9E37_79B9_7F4A_7C15);
                Worker::new(&search, self.seed_counter)
            })
            .collect();
        // A playout count is per move (as Leela Zero's and KataGo's are):
        // the threads take their playouts from this one count, so a thread
        // that runs faster (the other sharing its core, say) does more.
        let playouts_left = AtomicU64::new(budget.playouts);
        let mut deadline = budget.deadline;
        loop {
            // Slices of one watch interval, and under a clock short ones
            // so that the search can stop early or run on.
            let slice_len = earliest(
                watch.as_ref().map(|w| w.interval),
                budget.latest.map(|_| stopping::CHECK_INTERVAL),
            );
            let slice_end = slice_len.map(|d| Instant::now() + d);
            let slice_deadline = earliest(deadline, slice_end);
            run_threads(&search, &mut workers, slice_deadline, &playouts_left, stop);
            let mut finished =
                stop.load(Ordering::Relaxed) || playouts_left.load(Ordering::Relaxed) == 0;
            if !finished {
                deadline = match (budget.deadline, budget.latest) {
                    (Some(target), Some(latest)) => {
                        manage_time(&search, &workers, start, target, latest, color)
                    }
                    (d, _) => d.filter(|&d| Instant::now() < d),
                };
                finished = budget.deadline.is_some() && deadline.is_none();
            }
            if finished {
                break;
            }
            if let Some(watch) = watch.as_mut() {
                let report = summarise(&search, &workers, game, color, start.elapsed());
                if !(watch.on_report)(&report) {
                    break;
                }
            }
        }
        let report = summarise(&search, &workers, game, color, start.elapsed());
        if keep {
            self.search = Some(search);
        }
        report
    }

    /// The search at the game's position, on the kept tree's subtree where
    /// the game followed it: the kept tree itself when the game has not
    /// moved (after pondering, or an analysis) and `keep` lets it change,
    /// else a copy of the subtree, made once for all threads.
    fn prepare_search(&mut self, game: &Game, color: Color, komi: f32, keep: bool) -> Search {
        // A tree grown under another filter, or one whose depths the moves
        // since have shifted, holds moves the filter forbids; one counted
        // with another komi holds other win rates.
        let filter = &self.filter;
        let reusable = self.search.as_ref().and_then(|old| {
            let fits = old.komi() == komi
                && old.filter() == filter
                && (filter.is_empty() || old.is_at(game));
            fits.then(|| old.node_at(game, color)).flatten()
        });
        let tree = match reusable {
            Some(tree::Tree::ROOT) if keep => self.search.take().map(Search::into_tree),
            Some(node) => self.search.as_ref().map(|old| old.tree().subtree(node)),
            None => None,
        };
        if keep {
            // The new search replaces the old tree: free it now.
            self.search = None;
        }
        let search = Search::new(game, color, self.config.search.clone())
            .with_filter(filter.clone())
            .with_komi(komi);
        match tree {
            Some(tree) => search.with_tree(tree),
            None => search,
        }
    }
}

/// Runs `search` on one thread per worker until `deadline`, until
/// `playouts_left` runs out or until `stop`: the threads grow the one tree
/// together. A panic in a thread reaches the caller with its own message.
pub(crate) fn run_threads(
    search: &Search,
    workers: &mut [Worker],
    deadline: Option<Instant>,
    playouts_left: &AtomicU64,
    stop: &AtomicBool,
) {
    std::thread::scope(|scope| {
        let threads: Vec<_> = workers
            .iter_mut()
            .map(|worker| scope.spawn(move || search.run(worker, deadline, playouts_left, stop)))
            .collect();
        // Joined here so that a thread's panic reaches the caller with its
        // own message (the scope would replace it with "a scoped thread
        // panicked"). The tree it leaves half-built (a node marked as being
        // expanded for ever) is the caller's to drop: the engine clears the
        // player after a panic.
        for thread in threads {
            if let Err(payload) = thread.join() {
                std::panic::resume_unwind(payload);
            }
        }
    });
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
    search: &Search,
    workers: &[Worker],
    start: Instant,
    target: Instant,
    latest: Instant,
    color: Color,
) -> Option<Instant> {
    let (best, runner_up) = stopping::top_two(search);
    let playouts = workers.iter().map(Worker::playouts).sum();
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
    use crate::game::Move;

    #[test]
    fn a_playout_count_is_per_move_whatever_the_threads() {
        // It was per thread: two threads made twice the playouts asked for.
        // The threads now take their playouts from one count: exactly the
        // number asked for, however the threads share them.
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
                capped: false,
            };
            let report = player.search(&game, Color::Black, budget, &AtomicBool::new(false));
            assert_eq!(report.playouts, 300, "{threads} threads");
        }
    }

    fn playouts(n: u64) -> Budget {
        Budget {
            deadline: None,
            playouts: n,
            latest: None,
            capped: false,
        }
    }

    /// The kept tree's node count and root playouts.
    fn kept(player: &Player) -> (usize, u32) {
        let search = player.search.as_ref().expect("a kept search");
        let tree = search.tree();
        (tree.len(), tree.node(tree::Tree::ROOT).playouts())
    }

    #[test]
    fn the_threads_tree_is_kept_and_followed_after_the_moves_played() {
        let mut player = Player::new(&PlayerConfig {
            threads: 2,
            seed: Some(9),
            ..PlayerConfig::default()
        });
        let stop = AtomicBool::new(false);
        let mut game = Game::new(9, 7.5);
        let decision = player.genmove(&game, Color::Black, playouts(2000), &stop, None, true);
        let Decision::Play(vertex) = decision else {
            panic!("{decision:?}");
        };
        let (_, first) = kept(&player);
        assert_eq!(first, 2000);
        // Black's move and White's most visited answer: the tree follows.
        game.play(Color::Black, Move::Play(vertex)).expect("legal");
        let search = player.search.as_ref().expect("kept");
        let node = search.node_at(&game, Color::White).expect("in the tree");
        let reply = search
            .tree()
            .children(node)
            .max_by_key(|&c| search.tree().node(c).playouts());
        let reply = search.tree().node(reply.expect("searched")).mv();
        let reply_playouts = {
            let child = search.tree().child_with_move(node, reply).expect("child");
            search.tree().node(child).playouts()
        };
        assert!(reply_playouts > 0);
        let reply = search.board().vertex(reply);
        game.play(Color::White, Move::Play(reply)).expect("legal");
        player.genmove(&game, Color::Black, playouts(500), &stop, None, true);
        // The subtree was copied once and searched on by both threads.
        assert_eq!(kept(&player).1, reply_playouts + 500);
    }

    #[test]
    fn a_search_without_keep_leaves_the_kept_tree_as_it_was() {
        let mut player = Player::new(&PlayerConfig {
            threads: 2,
            seed: Some(5),
            ..PlayerConfig::default()
        });
        let stop = AtomicBool::new(false);
        let game = Game::new(9, 7.5);
        player.search(&game, Color::Black, playouts(600), &stop);
        let before = kept(&player);
        player.genmove(&game, Color::Black, playouts(600), &stop, None, false);
        assert_eq!(kept(&player), before);
        // With keep, the same position grows the kept tree itself.
        player.search(&game, Color::Black, playouts(600), &stop);
        assert_eq!(kept(&player).1, before.1 + 600);
        assert!(kept(&player).0 > before.0);
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
            capped: false,
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
            player.search.as_ref().expect("kept").komi()
        };
        assert_eq!(search_komi(true, Color::Black, true), 28.5);
        assert_eq!(search_komi(false, Color::Black, true), 0.5);
        assert_eq!(search_komi(true, Color::White, true), 0.5);
        // Analysis shows the game's own komi.
        assert_eq!(search_komi(true, Color::Black, false), 0.5);
    }
}
