//! The player: one search of a position at a time, on every thread, kept
//! from move to move for tree reuse, and the decision that turns it into
//! genmove's move. Stateless otherwise: the game is the caller's.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use log::{debug, info};

use super::clock::Budget;
use super::decision::{
    after_pass_check, first_decision, kept_to_filter, pass_check, Decision, Resign, Situation,
};
use super::network::{shipped_evaluator, CacheUse, SharedEvaluator};
use super::params::SearchParams;
use super::request::SearchRequest;
use super::search::{
    handicap_extra, manage_time, run_threads, search_komi, summarise, MoveFilter, Search,
    SearchReport, Tree, Worker, CHECK_INTERVAL,
};
use crate::game::{Color, Game, Vertex};

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
    /// What ranks moves and judges positions for the search: the shipped
    /// network by default, `--network FILE`'s, or none (the pattern prior
    /// alone). Shared with its cache by every player made from this
    /// configuration.
    pub evaluator: Option<Arc<SharedEvaluator>>,
}

impl PlayerConfig {
    /// The default configuration with the shipped network: reads its
    /// weights and times an evaluation, so it is a named constructor, not
    /// `Default` (which would do that work wherever a default is made).
    pub fn with_shipped_network() -> PlayerConfig {
        PlayerConfig::with_evaluator(Some(shipped_evaluator()))
    }

    /// The default configuration with `evaluator`: for a front-end that
    /// picks its network, so that the shipped one is not made (its
    /// weights read and its cost timed) only to be replaced.
    pub fn with_evaluator(evaluator: Option<Arc<SharedEvaluator>>) -> PlayerConfig {
        PlayerConfig {
            threads: 1,
            playouts: None,
            seconds_per_move: None,
            seed: None,
            resign_threshold: 0.05,
            ponder: false,
            search: SearchParams::default(),
            evaluator,
        }
    }
}

/// How the player sets up one search's tree: the komi its playouts are
/// counted with (the player's choice: it may differ from the game's, with
/// dynamic komi), and from the request, the client's move rules and
/// whether root moves sum their own ownership.
struct Plan {
    playout_komi: f32,
    filter: MoveFilter,
    moves_ownership: bool,
    judge_moves: bool,
    /// The evaluator, where the budget can pay for it.
    evaluator: Option<Arc<SharedEvaluator>>,
}

/// A search asks its evaluator only when its time is at least this many
/// evaluations: below, the evaluations (the root's, and the nodes' that
/// earn one, each a pause of the thread that runs it) would take a share
/// of the move's time that the clock did not plan for, and in sudden
/// death's last seconds hane lost on time.
const EVALUATIONS_A_BUDGET_PAYS: u32 = 20;

/// The move generator: owns the search (the tree all threads share, and
/// its root position), kept from move to move for tree reuse, and the
/// memory of the resign rule. Stateless otherwise: the game is the
/// caller's, and everything else a search needs comes in its request.
pub struct Player {
    config: PlayerConfig,
    /// Search threads, at least one.
    threads: usize,
    /// The last search, kept between moves for tree reuse.
    search: Option<Search>,
    seed_counter: u64,
    /// The winning chance at each colour's last genmove (by
    /// `Color::index`), for the resign rule: a client that has hane play
    /// both sides (GoGui's "computer plays both") asks for the two in
    /// turn, and the other side's chance says nothing of this one's.
    last_win_rates: [Option<f32>; 2],
}

impl Player {
    pub fn new(config: &PlayerConfig) -> Player {
        Player {
            config: config.clone(),
            threads: config.threads.max(1),
            search: None,
            seed_counter: config.seed.unwrap_or_else(rand::random),
            last_win_rates: [None; 2],
        }
    }

    pub fn config(&self) -> &PlayerConfig {
        &self.config
    }

    /// The search from now on under `params` (`kata-set-param`); the kept
    /// tree, grown under the old ones, is dropped.
    pub fn set_search_params(&mut self, params: SearchParams) {
        self.config.search = params;
        self.search = None;
    }

    /// Forgets the tree (after a new game, say).
    pub fn clear(&mut self) {
        self.search = None;
        self.last_win_rates = [None; 2];
    }

    /// Chooses a move for the request's side at its position.
    pub fn genmove(&mut self, request: SearchRequest) -> Decision {
        let (game, color) = (request.game, request.color);
        let legal: Vec<Vertex> = game.legal_vertices(color);
        if legal.is_empty() {
            return Decision::Pass;
        }
        // A request that keeps no tree (reg_genmove) leaves no trace: the
        // kept tree stays as it was and the seed stream is put back.
        let commit = request.keep_tree;
        let seed_counter = self.seed_counter;
        let extra_komi = self.extra_komi(game, color);
        let komi = search_komi(game.komi(), color, extra_komi);
        let (budget, stop) = (request.budget, request.stop);
        let filter = request.filter.clone();
        let cache_before = self.cache_use();
        let report = self.run_search(request, komi);
        self.log_cache_use(cache_before);
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
            last_win_rate: self.last_win_rates[color.index()],
        };
        let situation = Situation {
            game,
            color,
            report: &report,
            resign,
            filter: &filter,
            budget: &budget,
        };
        let mut decision = first_decision(&situation);
        if let Some(check) = pass_check(decision, &situation) {
            let reply_request =
                SearchRequest::new(&check.after_pass, check.opponent, check.budget, stop)
                    .filtered(&filter)
                    .keeping_no_tree();
            let reply = self.run_search(reply_request, komi);
            decision = after_pass_check(decision, &situation, &check, &reply);
        }
        let decision = kept_to_filter(decision, &situation);
        if commit {
            self.last_win_rates[color.index()] = report.moves.first().map(|m| m.win_rate);
        } else {
            self.seed_counter = seed_counter;
        }
        decision
    }

    /// The configuration's evaluator, unless `budget`'s time is too short
    /// to pay for its evaluations on `game`'s board: then the search goes
    /// on with the pattern prior alone, and the move comes in time.
    fn affordable_evaluator(&self, budget: &Budget, game: &Game) -> Option<Arc<SharedEvaluator>> {
        let evaluator = self.config.evaluator.as_ref()?;
        if let (Some(deadline), Some(cost)) =
            (budget.deadline, evaluator.cost(game.size().points()))
        {
            let time = deadline.saturating_duration_since(Instant::now());
            if time < cost * EVALUATIONS_A_BUDGET_PAYS {
                debug!(
                    "{:.0} ms to think, an evaluation about {:.1} ms: no network this move",
                    time.as_secs_f64() * 1000.0,
                    cost.as_secs_f64() * 1000.0
                );
                return None;
            }
        }
        Some(Arc::clone(evaluator))
    }

    fn cache_use(&self) -> Option<CacheUse> {
        Some(self.config.evaluator.as_ref()?.cache_use())
    }

    /// How often the evaluator's cache answered since `before`.
    fn log_cache_use(&self, before: Option<CacheUse>) {
        if let (Some(now), Some(before)) = (self.cache_use(), before) {
            let used = now.since(before);
            info!(
                "network cache: {} of {} evaluations reused",
                used.hits, used.lookups
            );
        }
    }

    /// Points beyond the real komi that `color`'s next genmove search asks
    /// for: the handicap's dynamic komi when it is on.
    fn extra_komi(&self, game: &Game, color: Color) -> f32 {
        if !self.config.search.handicap_komi {
            return 0.0;
        }
        let extra = handicap_extra(game, color);
        if extra != 0.0 {
            debug!("{color} searches with {extra:+.1} points of dynamic komi");
        }
        extra
    }

    /// Runs the search the request asks for and reports, without choosing
    /// a move; the game's own komi counts.
    pub fn search(&mut self, request: SearchRequest) -> SearchReport {
        let komi = request.game.komi() as f32;
        self.run_search(request, komi)
    }

    /// Runs the search on every thread in slices of one interval each (a
    /// single slice without one), reporting between slices; the tree and
    /// the threads' sums carry on from slice to slice, so watching costs
    /// only the thread restarts. With `keep`, the tree is kept for the next
    /// search; without, the one kept before stays as it was.
    fn run_search(&mut self, request: SearchRequest, playout_komi: f32) -> SearchReport {
        let SearchRequest {
            game,
            color,
            budget,
            stop,
            filter,
            moves_ownership,
            judge_moves,
            mut watch,
            keep_tree: keep,
        } = request;
        let start = Instant::now();
        let plan = Plan {
            playout_komi,
            filter,
            moves_ownership,
            judge_moves,
            evaluator: self.affordable_evaluator(&budget, game),
        };
        let search = self.prepare_search(game, color, plan, keep);
        let mut workers: Vec<Worker> = (0..self.threads)
            .map(|_| {
                self.seed_counter = self.seed_counter.wrapping_add(0x9E37_79B9_7F4A_7C15);
                Worker::new(search.board(), self.seed_counter)
            })
            .collect();
        // A playout count is per move (as Leela Zero's and KataGo's are):
        // the threads take their playouts from this one count, so a thread
        // that runs faster (the other sharing its core, say) does more.
        let playouts_left = AtomicU64::new(budget.playouts);
        // The judgement of the root and its moves comes after the search,
        // inside the time: the search leaves it a share.
        let searched_until = budget.deadline.map(|d| {
            let reserve = judgement_reserve(&search, d.saturating_duration_since(start));
            d.checked_sub(reserve).unwrap_or(d)
        });
        let mut deadline = searched_until;
        loop {
            // Slices of one watch interval, and under a clock short ones
            // so that the search can stop early or run on.
            let slice_len = earliest(
                watch.as_ref().map(|w| w.interval),
                budget.latest.map(|_| CHECK_INTERVAL),
            );
            let slice_end = slice_len.map(|d| Instant::now() + d);
            let slice_deadline = earliest(deadline, slice_end);
            run_threads(&search, &mut workers, slice_deadline, &playouts_left, stop);
            let mut finished =
                stop.load(Ordering::Relaxed) || playouts_left.load(Ordering::Relaxed) == 0;
            if !finished {
                deadline = match (budget.deadline, budget.latest) {
                    (Some(target), Some(latest)) => {
                        manage_time(&search, &workers, start, [target, latest], color)
                    }
                    (_, _) => searched_until.filter(|&d| Instant::now() < d),
                };
                finished = budget.deadline.is_some() && deadline.is_none();
            }
            if finished {
                break;
            }
            if let Some(watch) = watch.as_mut() {
                // Between slices the judgement takes half an interval at
                // most, so that the lines keep coming.
                search.judge_root(Some(Instant::now() + watch.interval / 2), stop);
                let report = summarise(&search, &workers, game, color, start.elapsed());
                if !(watch.on_report)(&report) {
                    break;
                }
            }
        }
        search.judge_root(budget.deadline, stop);
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
    fn prepare_search(&mut self, game: &Game, color: Color, plan: Plan, keep: bool) -> Search {
        let Plan {
            playout_komi,
            filter,
            moves_ownership,
            judge_moves,
            evaluator,
        } = plan;
        // A tree grown under another filter, or one whose depths the moves
        // since have shifted, holds moves the filter forbids; one counted
        // with another komi holds other win rates.
        let reusable = self.search.as_ref().and_then(|old| {
            let fits = old.playout_komi() == playout_komi
                && *old.filter() == filter
                && (filter.is_empty() || old.is_at(game));
            fits.then(|| old.node_at(game, color)).flatten()
        });
        let tree = match reusable {
            Some(Tree::ROOT) if keep => self.search.take().map(Search::into_tree),
            Some(node) => self.search.as_ref().map(|old| old.tree().subtree(node)),
            None => None,
        };
        if keep {
            // The new search replaces the old tree: free it now.
            self.search = None;
        }
        let search = Search::new(game, color, self.config.search.clone(), evaluator.as_ref())
            .with_filter(filter)
            .with_playout_komi(playout_komi)
            .with_report(moves_ownership, judge_moves);
        match tree {
            Some(tree) => search.with_tree(tree),
            None => search,
        }
    }
}

/// At most this many judgements (the root's and its best moves') are left
/// time at the end of a search that judges its moves.
const JUDGEMENTS_RESERVED: u32 = 6;

/// The time a search of `time` leaves for judging the root and its moves
/// (`Search::judge_root`) where its report judges them: six judgements by
/// the evaluator's measured cost, a fifth of the time at most. A large
/// network's judgements took 12 s after a one-second analysis.
fn judgement_reserve(search: &Search, time: Duration) -> Duration {
    search.judgement_cost().map_or(Duration::ZERO, |cost| {
        (cost * JUDGEMENTS_RESERVED).min(time / 5)
    })
}

/// The earlier (or shorter) of two optional times, either when only one is
/// given.
fn earliest<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::game::Move;
    use crate::player::clock::Budget;
    use crate::player::network::{shared, Evaluator, Uniform};

    #[test]
    fn a_playout_count_is_per_move_whatever_the_threads() {
        // It was per thread: two threads made twice the playouts asked for.
        // The threads now take their playouts from one count: exactly the
        // number asked for, however the threads share them.
        for threads in [1, 2, 3] {
            let mut player = Player::new(&PlayerConfig {
                threads,
                seed: Some(4),
                ..PlayerConfig::with_shipped_network()
            });
            let game = Game::new(9, 7.5);
            let budget = Budget {
                deadline: None,
                playouts: 300,
                latest: None,
                capped: false,
            };
            let report = player.search(SearchRequest::new(
                &game,
                Color::Black,
                budget,
                &AtomicBool::new(false),
            ));
            assert_eq!(report.playouts, 300, "{threads} threads");
        }
    }

    #[test]
    fn an_analysis_judges_its_moves_inside_its_time() {
        // Analysis judges the root and its moves over the 8 symmetries
        // after the search: it did so outside the time, 12 s for a 1 s
        // analysis with a large network. With 40 ms an evaluation, every
        // move searched took a third of a second more. Inside the time,
        // what does not fit is not judged.
        let evaluator = Slow(
            Duration::from_millis(40),
            crate::player::network::Network::shipped(),
        );
        let mut player = Player::new(&PlayerConfig {
            threads: 2,
            seed: Some(3),
            ..PlayerConfig::with_evaluator(Some(shared(Box::new(evaluator))))
        });
        let mut game = Game::new(19, 7.5);
        game.play(Color::Black, Move::Play(Vertex::new(3, 3)))
            .expect("legal");
        let start = Instant::now();
        let budget = Budget {
            deadline: Some(start + Duration::from_secs(2)),
            playouts: u64::MAX,
            latest: None,
            capped: false,
        };
        let stop = AtomicBool::new(false);
        let request = SearchRequest::new(&game, Color::White, budget, &stop).judging_moves(true);
        let report = player.search(request);
        let elapsed = start.elapsed();
        assert!(report.moves.len() > 10, "{} moves", report.moves.len());
        // Judged outside the time it took 5 s.
        assert!(elapsed < Duration::from_secs(3), "{elapsed:?}");
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
        (tree.len(), tree.node(Tree::ROOT).playouts())
    }

    #[test]
    fn the_threads_tree_is_kept_and_followed_after_the_moves_played() {
        let mut player = Player::new(&PlayerConfig {
            threads: 2,
            seed: Some(9),
            ..PlayerConfig::with_shipped_network()
        });
        let stop = AtomicBool::new(false);
        let mut game = Game::new(9, 7.5);
        let decision = player.genmove(SearchRequest::new(
            &game,
            Color::Black,
            playouts(2000),
            &stop,
        ));
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
        player.genmove(SearchRequest::new(
            &game,
            Color::Black,
            playouts(500),
            &stop,
        ));
        // The subtree was copied once and searched on by both threads.
        assert_eq!(kept(&player).1, reply_playouts + 500);
    }

    #[test]
    fn a_search_without_keep_leaves_the_kept_tree_as_it_was() {
        let mut player = Player::new(&PlayerConfig {
            threads: 2,
            seed: Some(5),
            ..PlayerConfig::with_shipped_network()
        });
        let stop = AtomicBool::new(false);
        let game = Game::new(9, 7.5);
        player.search(SearchRequest::new(
            &game,
            Color::Black,
            playouts(600),
            &stop,
        ));
        let before = kept(&player);
        player.genmove(
            SearchRequest::new(&game, Color::Black, playouts(600), &stop).keeping_no_tree(),
        );
        assert_eq!(kept(&player), before);
        // With keep, the same position grows the kept tree itself.
        player.search(SearchRequest::new(
            &game,
            Color::Black,
            playouts(600),
            &stop,
        ));
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
                ..PlayerConfig::with_shipped_network()
            };
            config.search.handicap_komi = handicap_komi;
            let mut player = Player::new(&config);
            if genmove {
                player.genmove(SearchRequest::new(&game, color, budget, &stop));
            } else {
                player.search(SearchRequest::new(&game, color, budget, &stop));
            }
            player.search.as_ref().expect("kept").playout_komi()
        };
        assert_eq!(search_komi(true, Color::Black, true), 28.5);
        assert_eq!(search_komi(false, Color::Black, true), 0.5);
        assert_eq!(search_komi(true, Color::White, true), 0.5);
        // Analysis shows the game's own komi.
        assert_eq!(search_komi(true, Color::Black, false), 0.5);
    }

    #[test]
    fn a_requests_settings_end_with_its_search() {
        // The move filter and the per-move ownership were player state that
        // callers switched on and off; one left on (a panic between the
        // switches) reached every later search. Now each request says them.
        let mut player = Player::new(&PlayerConfig {
            seed: Some(6),
            ..PlayerConfig::with_shipped_network()
        });
        let stop = AtomicBool::new(false);
        let game = Game::new(9, 7.5);
        let e5 = Vertex::parse_gtp("E5").expect("vertex");
        let mut filter = MoveFilter::default();
        filter
            .add(crate::player::search::MoveRule {
                kind: crate::player::search::FilterKind::Avoid,
                color: Color::Black,
                moves: vec![Move::Play(e5)],
                until_depth: 1,
            })
            .expect("one rule");
        let asked = SearchRequest::new(&game, Color::Black, playouts(400), &stop)
            .filtered(&filter)
            .with_moves_ownership(true);
        let report = player.search(asked);
        let best = report.moves.first().expect("a move searched");
        assert!(best.ownership.is_some(), "{best:?}");
        assert!(report.moves.iter().all(|m| m.mv != Move::Play(e5)));
        let plain = player.search(SearchRequest::new(
            &game,
            Color::Black,
            playouts(400),
            &stop,
        ));
        assert!(report.moves.len() > 1);
        assert!(plain.moves.iter().all(|m| m.ownership.is_none()));
        assert!(plain.moves.iter().any(|m| m.mv == Move::Play(e5)));
    }

    /// An evaluator that puts all the weight of its policy on one point.
    struct OnePoint(Vertex);

    impl Evaluator for OnePoint {
        fn evaluate(
            &self,
            position: crate::player::network::Position<'_>,
            _: &mut crate::player::network::Scratch,
        ) -> Arc<crate::player::network::Evaluation> {
            let size = position.board.size();
            let mut logits = vec![-20.0; size.points() + 1];
            logits[size.index(self.0)] = 20.0;
            Arc::new(crate::player::network::Evaluation {
                logits,
                win_chance: None,
                final_margin: None,
                ownership: None,
            })
        }

        fn description(&self) -> String {
            format!("all on {}", self.0)
        }

        fn heads(&self) -> crate::player::network::Heads {
            crate::player::network::Heads::default()
        }
    }

    #[test]
    fn two_players_in_one_process_search_with_their_own_networks() {
        let tengen = Vertex::parse_gtp("K10").expect("vertex");
        let prior_of = |evaluator: Option<Arc<SharedEvaluator>>| {
            let mut player = Player::new(&PlayerConfig {
                seed: Some(3),
                evaluator,
                ..PlayerConfig::with_shipped_network()
            });
            let game = Game::new(19, 7.5);
            let stop = AtomicBool::new(false);
            let report = player.search(SearchRequest::new(
                &game,
                Color::Black,
                playouts(300),
                &stop,
            ));
            let tengen_move = report.moves.iter().find(|m| m.mv == Move::Play(tengen));
            let best = report.moves.first().map(|m| m.mv);
            (tengen_move.map_or(0.0, |m| m.prior), best)
        };
        let (one_point, best) = prior_of(Some(shared(Box::new(OnePoint(tengen)))));
        assert!(one_point > 0.99, "{one_point}");
        assert_eq!(best, Some(Move::Play(tengen)));
        // In the same process, the shipped network: strong players do not
        // open at tengen.
        let (shipped, _) = prior_of(PlayerConfig::with_shipped_network().evaluator);
        assert!(shipped < 0.05, "{shipped}");
        let (none, _) = prior_of(None);
        assert!(none < 0.05, "{none}");
    }

    /// An evaluator that sees Black owning the whole board, whoever is to
    /// move, and has no preference among moves.
    fn black_owns_all() -> Arc<SharedEvaluator> {
        shared(Box::new(Uniform {
            win_chance: None,
            black_ownership: Some(1.0),
        }))
    }

    #[test]
    fn the_lead_is_the_ownership_heads_where_the_network_has_one() {
        let report_on = |side: usize, score_network: u64, judge: bool| {
            let mut search = SearchParams::default();
            search
                .set("score_network", &score_network.to_string())
                .expect("a value");
            // Judged nodes 50 playouts deep at most: with fewer, the tree
            // judges White's pass and Black's reply pass, a finished game
            // whose count (White's by the komi) is its judgement.
            search.set("network_visits", "50").expect("a value");
            let mut player = Player::new(&PlayerConfig {
                seed: Some(5),
                evaluator: Some(black_owns_all()),
                search,
                ..PlayerConfig::with_shipped_network()
            });
            let game = Game::new(side, 7.5);
            let stop = AtomicBool::new(false);
            player.search(
                SearchRequest::new(&game, Color::White, playouts(300), &stop).judging_moves(judge),
            )
        };
        let report = |score_network, judge| report_on(19, score_network, judge);
        let whole = 361.0 - 7.5;
        // The whole board, 361 points, less the komi: for the position and
        // for every move the network judged the position after.
        // (Near it: a playout through White's pass and Black's reply pass
        // meets the finished game's count, 0, as its judgement.)
        let near = |m: f32| (m - whole).abs() < 100.0;
        let network = report(100, false);
        assert!(near(network.black_margin), "{}", network.black_margin);
        let judged: Vec<f32> = network
            .moves
            .iter()
            .filter(|m| m.visits >= 60)
            .filter_map(|m| m.black_margin)
            .collect();
        assert!(!judged.is_empty());
        assert!(judged.iter().all(|&m| near(m)), "{judged:?}");
        // The moves of a few visits: their playouts' margins, unless the
        // report judges every move searched (analysis).
        let searched = |report: &SearchReport| -> Vec<f32> {
            report
                .moves
                .iter()
                .filter(|m| m.visits > 0)
                .filter_map(|m| m.black_margin)
                .collect()
        };
        assert!(searched(&network).iter().any(|&m| !near(m)));
        let analysis = report(100, true);
        let every = searched(&analysis);
        assert!(every.len() > judged.len());
        assert!(every.iter().all(|&m| near(m)), "{every:?}");
        assert!(near(analysis.black_margin), "{}", analysis.black_margin);
        // Half and half; and the playouts' alone, which know nothing of it.
        let half = report(50, false).black_margin;
        let playouts = report(0, true).black_margin;
        assert!(playouts.abs() < 60.0, "{playouts}");
        assert!(
            (half - (whole + playouts) / 2.0).abs() < 15.0,
            "{half} {playouts}"
        );
        // On 9x9, a board the network was not taught on, its areas are no
        // judgement to show: the lead is the playouts' whatever the share.
        let small = report_on(9, 100, true).black_margin;
        assert!(small.abs() < 30.0, "{small}");
        assert_eq!(small, report_on(9, 0, true).black_margin);
    }

    /// The shipped network, each evaluation taking `0` longer: a network
    /// file far larger than the shipped one.
    struct Slow(std::time::Duration, crate::player::network::Network);

    impl Evaluator for Slow {
        fn evaluate(
            &self,
            position: crate::player::network::Position<'_>,
            scratch: &mut crate::player::network::Scratch,
        ) -> Arc<crate::player::network::Evaluation> {
            std::thread::sleep(self.0);
            self.1.evaluate(position, scratch)
        }

        fn description(&self) -> String {
            "slow".to_string()
        }

        fn heads(&self) -> crate::player::network::Heads {
            self.1.heads()
        }
    }

    #[test]
    fn a_short_clock_searches_without_an_evaluator_it_cannot_pay_for() {
        let slow = Slow(
            std::time::Duration::from_millis(150),
            crate::player::network::Network::shipped(),
        );
        let mut player = Player::new(&PlayerConfig {
            seed: Some(5),
            evaluator: Some(shared(Box::new(slow))),
            ..PlayerConfig::with_shipped_network()
        });
        let game = Game::new(19, 7.5);
        let stop = AtomicBool::new(false);
        let time = std::time::Duration::from_millis(400);
        let start = Instant::now();
        let budget = Budget {
            deadline: Some(start + time),
            playouts: u64::MAX,
            latest: None,
            capped: false,
        };
        let decision = player.genmove(SearchRequest::new(&game, Color::Black, budget, &stop));
        assert!(matches!(decision, Decision::Play(_)), "{decision:?}");
        // The root's evaluation, the nodes' and the report's would each
        // have taken 150 ms of the 400.
        let taken = start.elapsed();
        assert!(
            taken < time + std::time::Duration::from_millis(100),
            "{taken:?}"
        );
        // With time for it, the same player uses it: the root's priors are
        // the network's (a corner point, far above the pattern prior's).
        let budget = Budget {
            deadline: Some(Instant::now() + std::time::Duration::from_secs(60)),
            playouts: 100,
            latest: None,
            capped: false,
        };
        let report = player.search(SearchRequest::new(&game, Color::Black, budget, &stop));
        let best_prior = report.moves.iter().map(|m| m.prior).fold(0.0, f32::max);
        assert!(best_prior > 0.1, "{best_prior}");
    }

    /// The shipped network's policy with a fixed judgement: Black wins
    /// with this chance, whatever the position; the flag says whether it
    /// is a judgement at the game's komi (a network that reads it).
    struct Judge(f32, crate::player::network::Network, bool);

    impl Evaluator for Judge {
        fn evaluate(
            &self,
            position: crate::player::network::Position<'_>,
            scratch: &mut crate::player::network::Scratch,
        ) -> Arc<crate::player::network::Evaluation> {
            let black = position.to_move == Color::Black;
            let mut evaluation = (*self.1.evaluate(position, scratch)).clone();
            evaluation.win_chance = Some(if black { self.0 } else { 1.0 - self.0 });
            Arc::new(evaluation)
        }

        fn description(&self) -> String {
            format!("Black wins {}", self.0)
        }

        fn heads(&self) -> crate::player::network::Heads {
            crate::player::network::Heads {
                value: true,
                ownership: false,
                // Any komi a test gives is one it knows.
                komi: self.2.then_some(crate::player::network::KomiRange {
                    lowest: -1000.0,
                    highest: 1000.0,
                }),
            }
        }
    }

    #[test]
    fn a_value_that_knows_the_komi_is_shown_as_judged_over_the_tree() {
        // Black's shown win rate and the tree's own (Black to move), a
        // judge of Black's chance 0.7 in every position, 19x19 (the board
        // a value is believed on), komi 7.5.
        let rates = |knows_the_komi: bool, value_share: u32| {
            let judge = Judge(
                0.7,
                crate::player::network::Network::shipped(),
                knows_the_komi,
            );
            let mut player = Player::new(&PlayerConfig {
                seed: Some(3),
                evaluator: Some(shared(Box::new(judge))),
                search: SearchParams {
                    value_share,
                    network_visits: 4,
                    ..SearchParams::default()
                },
                ..PlayerConfig::with_shipped_network()
            });
            let game = Game::new(19, 7.5);
            let stop = AtomicBool::new(false);
            let request = SearchRequest::new(&game, Color::Black, playouts(300), &stop);
            let report = player.search(request);
            let best = report.moves[0].clone();
            (
                report.root_shown_win_rate(),
                report.root_win_rate(),
                report.shown_win_rate(&best),
            )
        };
        // All of each result the judge's, at the game's komi: the rate
        // shown is the judgement over the tree's judged nodes, 0.7 to the
        // node's 254ths, at the root and after its best move alike. The
        // tree's own counts, each a judgement rounded to whole half wins
        // at random, are only near it.
        let (root, tree, best) = rates(true, 100);
        assert!((root - 0.7).abs() < 0.002, "{root}");
        assert!((best - 0.7).abs() < 0.002, "{best}");
        assert!((tree - 0.7).abs() < 0.1, "{tree}");
        // Half of each result the judge's: the tree's rate is half the
        // judge's, but the rate shown is the judgement alone, the
        // playouts' share won left out of it (docs/judgement.md).
        let (judged_half, tree_half, best_half) = rates(true, 50);
        let (playouts_alone, _, _) = rates(true, 0);
        assert!((judged_half - 0.7).abs() < 0.002, "{judged_half}");
        assert!((best_half - 0.7).abs() < 0.002, "{best_half}");
        assert!(
            (tree_half - (0.7 + playouts_alone) / 2.0).abs() < 0.1,
            "{tree_half} {playouts_alone}"
        );
        // No share of the results the judge's: a value not believed is not
        // shown; the playouts' share won is.
        assert!((playouts_alone - 0.7).abs() > 0.05, "{playouts_alone}");
        // A komi-blind judge: the playouts' share won against the game's
        // komi is shown, not the judge's 0.7.
        let (blind, _, _) = rates(false, 100);
        assert!((blind - 0.7).abs() > 0.05, "{blind}");
    }

    #[test]
    fn the_value_weighs_in_the_win_rates_the_search_reports() {
        let root_win_rate_on = |size: usize, chance: f32, value_share: u32| {
            let mut player = Player::new(&PlayerConfig {
                seed: Some(2),
                evaluator: Some(shared(Box::new(Judge(
                    chance,
                    crate::player::network::Network::shipped(),
                    false,
                )))),
                search: SearchParams {
                    value_share,
                    network_visits: 1,
                    ..SearchParams::default()
                },
                ..PlayerConfig::with_shipped_network()
            });
            let game = Game::new(size, 7.5);
            let stop = AtomicBool::new(false);
            let report = player.search(SearchRequest::new(
                &game,
                Color::Black,
                playouts(400),
                &stop,
            ));
            report.root_win_rate()
        };
        let root_win_rate =
            |chance: f32, value_share: u32| root_win_rate_on(19, chance, value_share);
        // Each playout backs up that share of the judgement: all of it,
        // Black's rate is the judge's; half, halfway to the playouts'.
        let neutral = root_win_rate(1.0, 0);
        let black_wins = root_win_rate(1.0, 100);
        let black_loses = root_win_rate(0.0, 100);
        let half = root_win_rate(1.0, 50);
        assert!((0.2..0.8).contains(&neutral), "{neutral}");
        assert_eq!((black_wins, black_loses), (1.0, 0.0));
        assert!(
            (half - (1.0 + neutral) / 2.0).abs() < 0.1,
            "{half} {neutral}"
        );
        // On 9x9, a board no network's value was taught on, the playouts
        // alone: the same search whatever the share.
        assert_eq!(root_win_rate_on(9, 1.0, 100), root_win_rate_on(9, 1.0, 0));
    }
}
