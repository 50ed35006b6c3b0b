//! The policy network as the tree's prior: at the root, and at every node
//! that earns it by its playouts (`network_visits`, or
//! `network_visits_valued` where the value is backed up), the network is asked
//! once and each child gets sqrt(p) x `prior_network` virtual playouts, all
//! won, on top of the heuristics' prior it was made with. A network
//! evaluation costs as much as tens of playouts, so the nodes below the
//! threshold keep the cheaper pattern prior alone. Where the network has an
//! ownership head, the node's expected area difference is kept for the
//! report's score (`network_score.rs`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::judgement::BlackJudgement;
use super::tree::{chance_for, NodeId, Tree, PASS};
use crate::game::Color;
use crate::player::board::{settled_count, PlayoutBoard, Point};
use crate::player::network::{
    play_and_remember, softmax, symmetries_of, Evaluation, Judgement, Position, RecentMoves,
    Scratch, SharedEvaluator, RECENT_MOVES,
};
use crate::player::params::SearchParams;

/// The smallest board side the network is used on: trained on 19x19
/// games, it helps on 9x9 too (docs/strength.md); smaller boards are
/// untried.
const NETWORK_MIN_SIDE: usize = 9;

/// The board a network's value is believed on: the corpus's games, every
/// network's teaching, are 19x19. On 9x9 the shipped network's value mixed
/// in at `value_share` 50 made hane weaker than with no value
/// (docs/strength.md, "Shipped, its ownership head refitted"), where its
/// policy still helps.
const VALUE_SIDE: usize = 19;

thread_local! {
    /// The buffers of the judgements a thread makes (`judge_root`), kept
    /// from pass to pass: a fresh one was 0.8 MB a judgement.
    static JUDGING_SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::new());
}

/// The network and how much its prior weighs, for one search.
#[derive(Clone)]
pub struct NetworkPrior {
    evaluator: Arc<SharedEvaluator>,
    /// The game's komi, which a network that reads the komi is told.
    komi: f32,
    /// Whether the board is the one the network's value was taught on
    /// (`VALUE_SIDE`).
    taught_board: bool,
    wins: u32,
    visits: u32,
    /// The analysis's judgements of the root's position (key None) and of
    /// the positions after its moves, for Black (`judge`): eight
    /// evaluations each, so made once a search.
    judged: Arc<Mutex<HashMap<Option<Point>, Option<Judgement>>>>,
}

/// Black's judgement of a settled board (or a game over): its count as
/// the area, and the win it gives against `komi` (a tie half) as the
/// winning chance.
fn settled_judgement(count: f32, komi: f32) -> Judgement {
    let margin = count - komi;
    let win_chance = if margin > 0.0 {
        1.0
    } else if margin < 0.0 {
        0.0
    } else {
        0.5
    };
    Judgement {
        area: count,
        win_chance: Some(win_chance),
    }
}

impl NetworkPrior {
    /// The player's evaluator where there is one and the parameters turn
    /// it on for this board, None elsewhere; `komi` the game's.
    pub fn for_board(
        params: &SearchParams,
        board: &PlayoutBoard,
        evaluator: Option<&Arc<SharedEvaluator>>,
        komi: f32,
    ) -> Option<NetworkPrior> {
        if params.prior_network == 0 || board.size().shorter_side() < NETWORK_MIN_SIDE {
            return None;
        }
        let mut prior = NetworkPrior {
            evaluator: Arc::clone(evaluator?),
            komi,
            taught_board: board.size() == crate::game::BoardSize::square(VALUE_SIDE),
            wins: params.prior_network,
            visits: params.network_visits,
            judged: Arc::default(),
        };
        // Where the judged nodes' values are backed up, a judged node is
        // worth more than its prior alone, and more of them pay.
        if params.value_share > 0 && prior.keeps_values() {
            prior.visits = params.network_visits_valued;
        }
        Some(prior)
    }

    /// Whether its evaluations judge the area (an ownership head): then
    /// the report's lead is read from the areas kept beside the tree.
    pub fn judges_area(&self) -> bool {
        self.evaluator.heads().ownership
    }

    /// Black's judgement of a settled board whose count is `count`, at the
    /// game's komi (`settled_judgement`).
    pub fn settled(&self, count: f32) -> Judgement {
        settled_judgement(count, self.komi)
    }

    /// Whether the board is the one its judgement was taught on
    /// (`VALUE_SIDE`): elsewhere neither its value nor its areas are
    /// shown as a judgement (on 9x9 its areas read the empty board W+12.4
    /// at komi 7 whatever the visits, where the game is near even).
    pub fn judges_the_board(&self) -> bool {
        self.taught_board
    }

    /// Whether its evaluations judge the winning chance (a value head).
    pub fn judges_value(&self) -> bool {
        self.evaluator.heads().value
    }

    /// Whether its value judges this game: a network that reads the komi,
    /// taught at the game's komi and on the game's board.
    pub fn values_judge_the_game(&self) -> bool {
        self.taught_board
            && self
                .evaluator
                .heads()
                .komi
                .is_some_and(|taught| taught.contains(self.komi))
    }

    /// Whether the values the nodes keep, if any, judge this game: none
    /// kept, or kept where they judge it.
    pub fn mixed_values_judge_the_game(&self) -> bool {
        !self.keeps_values() || self.values_judge_the_game()
    }

    /// Whether the nodes keep its values, for the playouts' results to mix
    /// in (`value_share`): not where it reads the komi and was not taught
    /// the game's, since its value then judges the nearest taught komi's
    /// game; with it mixed in, a hopeless game at komi 100 read as open
    /// and was played out. A komi-blind value's komi is the games' it
    /// learnt from, whatever the game's: mixing it is the caller's call,
    /// on the board it was taught on.
    fn keeps_values(&self) -> bool {
        match self.evaluator.heads().komi {
            None => self.taught_board,
            Some(_) => self.values_judge_the_game(),
        }
    }

    /// Whether `node` (expanded) has earned the network's prior and has
    /// not had it: the root at once, the others at their threshold.
    pub fn is_due(&self, tree: &Tree, node: NodeId) -> bool {
        let n = tree.node(node);
        !n.has_network() && (node == Tree::ROOT || n.playouts() >= self.visits)
    }

    /// Adds the network's prior to the children of `node` (expanded, its
    /// position on `board` with `to_move` to play), unless another thread
    /// claimed it first.
    pub fn add(
        &self,
        tree: &Tree,
        node: NodeId,
        scratch: &mut Scratch,
        board: &mut PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
    ) {
        let n = tree.node(node);
        if !n.claim_network() {
            return;
        }
        let moves: Vec<Point> = tree.children(node).map(|c| tree.node(c).mv()).collect();
        let evaluation = self.evaluate(board, to_move, recent, scratch);
        let settled = settled_count(board);
        // The value where it is kept: a settled board's is its count's
        // result, as its area is its count (the network's guess there had
        // the root of a finished 19x19 game at 0.99999 where every playout
        // was won).
        let chance = evaluation
            .win_chance
            .filter(|_| self.keeps_values())
            .map(|chance| {
                settled
                    .and_then(|count| self.settled(count).win_chance)
                    .unwrap_or_else(|| chance_for(to_move, chance))
            });
        let area = evaluation
            .area_difference()
            .map(|area| settled.unwrap_or(to_move.sign() * area));
        tree.set_judgement(node, BlackJudgement { area, chance });
        let policy = policy_over(&evaluation, board, &moves);
        for (child, p) in tree.children(node).zip(policy) {
            let wins = (p.sqrt() * self.wins as f32).round() as u32;
            let child = tree.node(child);
            child.add_prior(wins, wins);
        }
    }

    /// The analysis's judgement of the root's position (`after` None) or
    /// of the position after the root move `after`, for Black, where
    /// `judge_root` made one.
    pub fn judgement(&self, after: Option<Point>) -> Option<Judgement> {
        self.judged_map().get(&after).copied().flatten()
    }

    /// Judges the root's position (`board`, `to_move` to play, `recent`
    /// its last moves), then the positions after `moves` in their order,
    /// each over the board's symmetries (`SharedEvaluator::symmetric_judgement`), while the next
    /// judgement fits before `until` by the evaluator's measured cost and
    /// `stop` is down: they came after the search's time, and a large
    /// network's made a one-second analysis take twelve. What is not
    /// judged keeps the search's own numbers.
    pub fn judge_root(
        &self,
        (board, to_move, recent): (&PlayoutBoard, Color, &RecentMoves),
        moves: &[Point],
        until: Option<Instant>,
        stop: &AtomicBool,
    ) {
        if !self.evaluator.heads().ownership {
            return;
        }
        let cost = self.judgement_cost(board);
        let too_late = |now: Instant| match (until, cost) {
            (Some(until), Some(cost)) => now + cost > until,
            (Some(until), None) => now >= until,
            (None, _) => false,
        };
        JUDGING_SCRATCH.with_borrow_mut(|scratch| {
            for after in std::iter::once(None).chain(moves.iter().map(|&m| Some(m))) {
                if self.judged_map().contains_key(&after) {
                    continue;
                }
                if stop.load(Ordering::Relaxed) || too_late(Instant::now()) {
                    return;
                }
                let judged = self.judge_after(board, to_move, recent, after, scratch);
                self.judged_map().insert(after, judged);
            }
        });
    }

    /// What one judgement (`judge_root`) on `board`'s size costs, by the
    /// evaluator's measured cost of an evaluation (a cached orientation
    /// costs less: an estimate that errs long).
    pub fn judgement_cost(&self, board: &PlayoutBoard) -> Option<Duration> {
        let one = self.evaluator.cost(board.size().points())?;
        Some(one * symmetries_of(board) as u32)
    }

    /// The judgement of the position after `after` (None: the root's), for
    /// Black; None where it is not a legal play there.
    fn judge_after(
        &self,
        board: &PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
        after: Option<Point>,
        scratch: &mut Scratch,
    ) -> Option<Judgement> {
        let Some(mv) = after else {
            return self.black_judgement(board, to_move, recent, scratch);
        };
        let (mut board, mut recent) = (board.clone(), *recent);
        let point = (mv != PASS).then_some(mv);
        if point.is_some_and(|p| !board.is_playout_legal(p, to_move)) {
            return None;
        }
        play_and_remember(&mut board, to_move, point, &mut recent);
        self.black_judgement(&board, to_move.opponent(), &recent, scratch)
    }

    /// The judgement of `board`, `to_move` to play, for Black: a settled
    /// board's count (`settled_count`), the network's judgement over the
    /// board's symmetries elsewhere.
    fn black_judgement(
        &self,
        board: &PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
        scratch: &mut Scratch,
    ) -> Option<Judgement> {
        if let Some(count) = settled_count(board) {
            return Some(self.settled(count));
        }
        let position = (board, to_move, recent);
        let judged = self
            .evaluator
            .symmetric_judgement(position, self.komi, scratch)?;
        Some(Judgement {
            area: to_move.sign() * judged.area,
            win_chance: judged.win_chance.map(|c| chance_for(to_move, c)),
        })
    }

    /// The judgements' map; a poisoned one holds whole numbers still, and
    /// its lock is never held across an evaluation.
    fn judged_map(&self) -> MutexGuard<'_, HashMap<Option<Point>, Option<Judgement>>> {
        self.judged.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The network's probabilities of `moves` (points of `board`, or
    /// PASS), normalised over them.
    pub fn policy(
        &self,
        scratch: &mut Scratch,
        board: &mut PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
        moves: &[Point],
    ) -> Vec<f32> {
        let evaluation = self.evaluate(board, to_move, recent, scratch);
        policy_over(&evaluation, board, moves)
    }

    /// The evaluator's evaluation of `to_move`'s position on `board`.
    fn evaluate(
        &self,
        board: &mut PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
        scratch: &mut Scratch,
    ) -> Arc<Evaluation> {
        let position = Position {
            board,
            to_move,
            recent,
            komi: self.komi,
        };
        self.evaluator.evaluate(position, scratch)
    }
}

/// An evaluation's probabilities of `moves` (points of `board`, or PASS),
/// normalised over them.
fn policy_over(evaluation: &Evaluation, board: &PlayoutBoard, moves: &[Point]) -> Vec<f32> {
    let size = board.size();
    let logits = &evaluation.logits;
    let mut policy: Vec<f32> = moves
        .iter()
        .map(|&m| match m {
            PASS => logits[size.points()],
            m => logits[size.index(board.vertex(m))],
        })
        .collect();
    softmax(&mut policy);
    policy
}

/// The share (0 to 1) of the reported lead the network's areas give:
/// `percent` (`score_network`) where its judgement is believed, none on a
/// board it was not taught on (`NetworkPrior::judges_the_board`).
pub fn lead_share(network: Option<&NetworkPrior>, percent: u32) -> f32 {
    let believed = network.is_none_or(NetworkPrior::judges_the_board);
    if !believed {
        return 0.0;
    }
    percent.min(100) as f32 / 100.0
}

/// The recent moves at a node: those of the path (`path_moves`, oldest
/// first, PASS for a pass, the root's last move first of all) and, before
/// them, the root's own (`root`, most recent first).
pub fn recent_moves(path_moves: &[Point], root: &RecentMoves) -> RecentMoves {
    let mut recent = [None; RECENT_MOVES];
    // The path's first entry is the root's last move: the root's list
    // goes on from its second.
    let from_path = path_moves
        .iter()
        .skip(1)
        .rev()
        .map(|&m| (m != PASS).then_some(m));
    for (slot, m) in recent.iter_mut().zip(from_path.chain(root.iter().copied())) {
        *slot = m;
    }
    recent
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::search::tree::Candidate;

    #[test]
    fn recent_moves_take_the_path_then_the_root() {
        let root = [Some(5), None, Some(7), Some(8)];
        assert_eq!(recent_moves(&[5], &root), root);
        assert_eq!(
            recent_moves(&[5, 20], &root),
            [Some(20), Some(5), None, Some(7)]
        );
        assert_eq!(
            recent_moves(&[5, 20, PASS, 30, 40], &root),
            [Some(40), Some(30), None, Some(20)]
        );
    }

    #[test]
    fn a_settled_board_is_judged_by_its_count_against_the_komi() {
        let judged = |count: f32| settled_judgement(count, 7.5);
        assert_eq!(judged(11.0).area, 11.0);
        assert_eq!(judged(11.0).win_chance, Some(1.0));
        assert_eq!(judged(5.0).win_chance, Some(0.0));
        assert_eq!(settled_judgement(7.0, 7.0).win_chance, Some(0.5));
    }

    #[test]
    fn a_settled_board_s_value_in_the_tree_is_its_count_s_result() {
        // An evaluator that gives the side to move 0.3 everywhere (komi-
        // blind, so its value is kept on 19x19): on a settled board the
        // node's value is the count's result instead. The network's guess at a finished 19x19 game's
        // root once had it at 0.99999 where every playout was won.
        let evaluator = crate::player::network::shared(Box::new(crate::player::network::Uniform {
            win_chance: Some(0.3),
            black_ownership: None,
        }));
        // Black on A-K, White on L-T: Black's by 19 points of area.
        let mut board = crate::player::board::filled_board(19, |_| {});
        assert_eq!(settled_count(&board), Some(19.0));
        let prior =
            NetworkPrior::for_board(&SearchParams::default(), &board, Some(&evaluator), 7.5)
                .expect("a prior on 19x19");
        // Black wins by the count, whoever is to move.
        for (to_move, black_value) in [(Color::Black, 1.0), (Color::White, 1.0)] {
            let tree = Tree::new(8);
            let pass = Candidate {
                mv: PASS,
                prior_visits: 0,
                prior_wins: 0.0,
            };
            tree.expand(Tree::ROOT, || vec![pass]);
            let mut scratch = Scratch::new();
            prior.add(
                &tree,
                Tree::ROOT,
                &mut scratch,
                &mut board,
                to_move,
                &[None; RECENT_MOVES],
            );
            assert_eq!(
                tree.judged(Tree::ROOT).own().chance,
                Some(black_value),
                "{to_move:?}"
            );
        }
    }

    #[test]
    fn the_threshold_is_the_valued_one_where_values_are_backed_up() {
        let komi_blind =
            crate::player::network::shared(Box::new(crate::player::network::Uniform {
                win_chance: Some(0.5),
                black_ownership: None,
            }));
        let params = |value_share: u32| SearchParams {
            network_visits: 50,
            network_visits_valued: 25,
            value_share,
            ..SearchParams::default()
        };
        let visits = |params: &SearchParams, side: usize| {
            let board = PlayoutBoard::new(crate::game::BoardSize::square(side));
            NetworkPrior::for_board(params, &board, Some(&komi_blind), 7.5)
                .expect("a prior")
                .visits
        };
        assert_eq!(visits(&params(50), 19), 25);
        // No value believed on 9x9; none mixed in at value_share 0.
        assert_eq!(visits(&params(50), 9), 50);
        assert_eq!(visits(&params(0), 19), 50);
    }
}
