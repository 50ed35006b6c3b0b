//! The policy network as the tree's prior: at the root, and at every node
//! that earns it by its playouts (`network_visits`), the network is asked
//! once and each child gets sqrt(p) x `prior_network` virtual playouts, all
//! won, on top of the heuristics' prior it was made with. A network
//! evaluation costs as much as tens of playouts, so the nodes below the
//! threshold keep the cheaper pattern prior alone. Where the network has an
//! ownership head, the node's expected area difference is kept for the
//! report's score (`network_score.rs`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use super::tree::{NodeId, Tree, PASS};
use crate::game::Color;
use crate::player::board::{settled_count, PlayoutBoard, Point};
use crate::player::knowledge::{
    play_and_remember, sigmoid, EvalScratch, Evaluation, Evaluator, RecentMoves, RECENT_MOVES,
};
use crate::player::params::SearchParams;

/// The smallest board side the network is used on: trained on 19x19
/// games, it helps on 9x9 too (docs/strength.md); smaller boards are
/// untried.
const NETWORK_MIN_SIDE: usize = 9;

/// The network and how much its prior weighs, for one search.
#[derive(Clone)]
pub struct NetworkPrior {
    evaluator: Arc<dyn Evaluator>,
    wins: u32,
    visits: u32,
    /// How the ownership head's area enters a node's value.
    area: AreaJudgement,
    /// The analysis's judgements of the positions after the root's moves
    /// (`area_after`) and of the root's own (`root_area`), for Black:
    /// eight evaluations each, so made once a search.
    judged: Arc<Mutex<HashMap<Point, Option<f32>>>>,
    judged_root: Arc<OnceLock<Option<f32>>>,
}

impl NetworkPrior {
    /// The player's evaluator where there is one and the parameters turn
    /// it on for this board, None elsewhere.
    pub fn for_board(
        params: &SearchParams,
        board: &PlayoutBoard,
        komi: f32,
        evaluator: Option<&Arc<dyn Evaluator>>,
    ) -> Option<NetworkPrior> {
        if params.prior_network == 0 || board.size().shorter_side() < NETWORK_MIN_SIDE {
            return None;
        }
        Some(NetworkPrior {
            evaluator: Arc::clone(evaluator?),
            wins: params.prior_network,
            visits: params.network_visits,
            area: AreaJudgement {
                komi,
                share: params.value_area.min(100) as f32 / 100.0,
                scale: params.value_area_scale.max(0.1),
            },
            judged: Arc::default(),
            judged_root: Arc::default(),
        })
    }

    /// Whether its evaluations judge the area (an ownership head): then
    /// the report's lead is read from the areas kept beside the tree.
    pub fn judges_area(&self) -> bool {
        self.evaluator.has_ownership()
    }

    /// The same prior judging leads against `komi`.
    pub fn set_komi(&mut self, komi: f32) {
        self.area.komi = komi;
    }

    /// Whether `node` (expanded) has earned the network's prior and has
    /// not had it: the root at once, the others at `network_visits`.
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
        scratch: &mut EvalScratch,
        board: &mut PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
    ) {
        let n = tree.node(node);
        if !n.claim_network() {
            return;
        }
        let moves: Vec<Point> = tree.children(node).map(|c| tree.node(c).mv()).collect();
        let evaluation = self.evaluator.evaluate(board, to_move, recent, scratch);
        if let Some(chance) = judged_chance(&evaluation, to_move, self.area) {
            // The node's statistics are its mover's, the opponent of the
            // side to move that the value judges for.
            n.set_value(1.0 - chance);
        }
        if let Some(area) = evaluation.area_difference() {
            // Only the report reads the area: a settled board's is its count.
            let area = settled_count(board).unwrap_or(to_move.sign() * area);
            tree.set_network_area(node, area);
        }
        let policy = policy_over(&evaluation, board, &moves);
        for (child, p) in tree.children(node).zip(policy) {
            let wins = (p.sqrt() * self.wins as f32).round() as u32;
            let child = tree.node(child);
            child.set_policy(p);
            child.add_prior(wins, wins);
        }
    }

    /// The network's expected area difference for Black after `to_move`
    /// plays `mv` (a point of `board`, or PASS) at the position of `board`,
    /// whose last moves are `recent`; None where the network has no
    /// ownership head (or the move is not a legal play there).
    pub fn area_after(
        &self,
        board: &PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
        mv: Point,
    ) -> Option<f32> {
        if !self.evaluator.has_ownership() {
            return None;
        }
        let judged = |judged: &mut HashMap<Point, Option<f32>>| -> Option<f32> {
            *judged.entry(mv).or_insert_with(|| {
                let (mut board, mut recent) = (board.clone(), *recent);
                let point = (mv != PASS).then_some(mv);
                if point.is_some_and(|p| !board.is_playout_legal(p, to_move)) {
                    return None;
                }
                play_and_remember(&mut board, to_move, point, &mut recent);
                self.judged_area(&mut board, to_move.opponent(), &recent)
            })
        };
        // A poisoned map holds whole numbers still.
        judged(&mut self.judged.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// The network's expected area difference for Black at the root's
    /// position (`board`, `to_move` to play), judged as the analysis judges
    /// the positions after its moves; made once a search.
    pub fn root_area(
        &self,
        board: &PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
    ) -> Option<f32> {
        *self
            .judged_root
            .get_or_init(|| self.judged_area(&mut board.clone(), to_move, recent))
    }

    /// `to_move`'s judged area on `board`, for Black: a settled board's
    /// count (`settled_count`), the network's judgement elsewhere.
    fn judged_area(
        &self,
        board: &mut PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
    ) -> Option<f32> {
        if let Some(count) = settled_count(board) {
            return Some(count);
        }
        let area = self
            .evaluator
            .judge_area(board, to_move, recent, &mut EvalScratch::new())?;
        Some(to_move.sign() * area)
    }

    /// The network's probabilities of `moves` (points of `board`, or
    /// PASS), normalised over them.
    pub fn policy(
        &self,
        scratch: &mut EvalScratch,
        board: &mut PlayoutBoard,
        to_move: Color,
        recent: &RecentMoves,
        moves: &[Point],
    ) -> Vec<f32> {
        let evaluation = self.evaluator.evaluate(board, to_move, recent, scratch);
        policy_over(&evaluation, board, moves)
    }
}

/// How the ownership head's area enters a node's value.
#[derive(Clone, Copy, Debug)]
struct AreaJudgement {
    /// The komi the search counts with.
    komi: f32,
    /// The share (0 to 1) of the value from the area's lead.
    share: f32,
    /// The lead (points) read as a 73% chance.
    scale: f32,
}

/// `to_move`'s chance of winning by `evaluation`: the value head's, mixed
/// with the ownership head's lead (its area less the komi, through a
/// logistic curve) by `area.share`; either alone where the other is
/// missing.
fn judged_chance(evaluation: &Evaluation, to_move: Color, area: AreaJudgement) -> Option<f32> {
    let from_area = evaluation
        .area_difference()
        .filter(|_| area.share > 0.0)
        .map(|difference| {
            let lead = difference - to_move.sign() * area.komi;
            sigmoid(lead / area.scale)
        });
    match (evaluation.win_chance, from_area) {
        (Some(head), Some(from_area)) => Some((1.0 - area.share) * head + area.share * from_area),
        (head, from_area) => head.or(from_area),
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

/// Logits to probabilities, in place.
fn softmax(values: &mut [f32]) {
    let max = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for v in values.iter_mut() {
        *v = (*v - max).exp();
        total += *v;
    }
    for v in values.iter_mut() {
        *v /= total;
    }
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

    fn evaluation(win_chance: Option<f32>, area: Option<f32>) -> Evaluation {
        Evaluation {
            logits: vec![0.0; 10],
            win_chance,
            // The area spread over four points.
            ownership: area.map(|a| vec![a / 4.0; 4]),
        }
    }

    #[test]
    fn the_value_mixes_the_heads_with_the_komi_against_the_side_to_move() {
        let area = |share| AreaJudgement {
            komi: 7.5,
            share,
            scale: 10.0,
        };
        let close = |a: Option<f32>, b: f32| a.is_some_and(|a| (a - b).abs() < 1e-5);
        let both = evaluation(Some(0.6), Some(17.5));
        // Black leads by 17.5 - 7.5 = 10 points: 1 / (1 + e^-1).
        let ten_points = 0.731_058_6;
        assert!(close(judged_chance(&both, Color::Black, area(0.0)), 0.6));
        assert!(close(
            judged_chance(&both, Color::Black, area(1.0)),
            ten_points
        ));
        assert!(close(
            judged_chance(&both, Color::Black, area(0.5)),
            0.3 + ten_points / 2.0
        ));
        // White to move with 17.5 more points and the komi: 25 ahead.
        let white = judged_chance(&both, Color::White, area(1.0));
        assert!(close(white, 1.0 / (1.0 + (-2.5f32).exp())));
        // A head missing: the other alone, whatever the share.
        let no_value = evaluation(None, Some(-2.5));
        assert!(close(
            judged_chance(&no_value, Color::Black, area(0.3)),
            1.0 - ten_points
        ));
        assert_eq!(judged_chance(&no_value, Color::Black, area(0.0)), None);
        let no_area = evaluation(Some(0.4), None);
        assert!(close(judged_chance(&no_area, Color::White, area(1.0)), 0.4));
    }

    #[test]
    fn softmax_sums_to_one_and_keeps_the_order() {
        let mut v = [1.0, 3.0, 2.0, -50.0];
        softmax(&mut v);
        assert!((v.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(v[1] > v[2] && v[2] > v[0] && v[0] > v[3]);
    }
}
