//! The score a search's tree gives where the network has an ownership head:
//! each playout through a node counts at the expected area difference of
//! the deepest node on its way down that the network was asked at (KataGo
//! averages its score head the same way, over every visit's leaf). The
//! value head's winning chances are read over the same nodes with the
//! same weights, so that the win rate a report shows beside the lead is
//! the same judgement's (the tree's own counts weigh a node's first
//! playouts, made before it was judged, at its parent's value, and the
//! two had named different sides in near-even positions).
//!
//! The random playouts' own margins spread over 80 to 100 points on a
//! 19x19 opening, so their median moved by points from one seed to the
//! next and from a position to the next; the network's judgement of a
//! position is the same every time it is asked, and the tree only decides
//! how much each judged position weighs.

use std::collections::HashMap;

use super::tree::{chance_for, NodeId, Tree};
use crate::game::Color;

/// The network's judgement at node `id` of `tree` from its judgements of
/// the tree's positions in `judged` (by node: Black's area difference,
/// komi not taken off, or Black's winning chance), averaged over the
/// playouts through `id`: None where no node of the subtree was judged.
pub fn subtree_mean(tree: &Tree, judged: &HashMap<NodeId, f32>, id: NodeId) -> Option<f32> {
    if judged.is_empty() {
        return None;
    }
    estimate(tree, judged, id).map(|mean| mean as f32)
}

/// The value head's winning chances for Black at the tree's judged nodes
/// (the root's side to move `root_to_move`): a node's value is for the
/// player who made its move, the root's the opponent of the side to move.
pub fn black_values(tree: &Tree, root_to_move: Color) -> HashMap<NodeId, f32> {
    let mut values = HashMap::new();
    let mut stack = vec![(Tree::ROOT, root_to_move.opponent())];
    while let Some((id, mover)) = stack.pop() {
        let Some(chance) = tree.node(id).value() else {
            continue;
        };
        values.insert(id, chance_for(mover, chance));
        for (child, node) in tree.child_nodes(id) {
            if node.has_network() {
                stack.push((child, mover.opponent()));
            }
        }
    }
    values
}

/// The mean over the playouts through `id` of the judgement of the deepest
/// judged node each went through: the judged children's estimates weighed
/// by their playouts, and `id`'s own judgement for the rest.
fn estimate(tree: &Tree, judged: &HashMap<NodeId, f32>, id: NodeId) -> Option<f64> {
    let (mut sum, mut covered) = (0.0f64, 0.0f64);
    for (child, node) in tree.child_nodes(id) {
        // The network is asked at a node before any below it (a node
        // reaches the threshold before its children), so a node it was
        // not asked at has no judged node below it.
        if !node.has_network() {
            continue;
        }
        if let Some(mean) = estimate(tree, judged, child) {
            let playouts = node.playouts() as f64;
            sum += mean * playouts;
            covered += playouts;
        }
    }
    match judged.get(&id) {
        Some(&own) => {
            let rest = (tree.node(id).playouts() as f64 - covered).max(1.0);
            Some((sum + own as f64 * rest) / (covered + rest))
        }
        None if covered > 0.0 => Some(sum / covered),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::search::tree::Candidate;

    /// A root with two children: `a` judged and played out 30 times, `b`
    /// not judged and played out 20 times; the root judged, 50 playouts.
    fn tree() -> (Tree, NodeId, NodeId) {
        let tree = Tree::new(1000);
        tree.expand(Tree::ROOT, || {
            [10, 11]
                .iter()
                .map(|&mv| Candidate {
                    mv,
                    prior_visits: 0,
                    prior_wins: 0.5,
                })
                .collect()
        });
        let (a, b) = (
            tree.children(Tree::ROOT).start,
            tree.children(Tree::ROOT).start + 1,
        );
        for (id, playouts) in [(Tree::ROOT, 50), (a, 30), (b, 20)] {
            for _ in 0..playouts {
                tree.node(id).add_result(1, 0);
            }
        }
        assert!(tree.node(Tree::ROOT).claim_network());
        assert!(tree.node(a).claim_network());
        (tree, a, b)
    }

    #[test]
    fn each_playout_counts_at_its_deepest_judged_node() {
        let (tree, a, b) = tree();
        let areas = HashMap::from([(Tree::ROOT, 0.0), (a, 10.0)]);
        // 30 playouts at a's 10, the other 20 at the root's 0.
        assert_eq!(subtree_mean(&tree, &areas, Tree::ROOT), Some(6.0));
        assert_eq!(subtree_mean(&tree, &areas, a), Some(10.0));
        assert_eq!(subtree_mean(&tree, &areas, b), None);
        // The root not judged: its judged child alone.
        let areas = HashMap::from([(a, -4.0)]);
        assert_eq!(subtree_mean(&tree, &areas, Tree::ROOT), Some(-4.0));
        assert_eq!(subtree_mean(&tree, &HashMap::new(), Tree::ROOT), None);
    }

    #[test]
    fn the_values_are_black_s_and_weigh_as_the_areas_do() {
        let (tree, a, b) = tree();
        // A node's value is for the player who made its move: with White
        // to move at the root, the root's is Black's and a's White's.
        tree.node(Tree::ROOT).set_value(0.0);
        tree.node(a).set_value(0.0);
        // b has a value but the network did not judge it: a playout
        // through b counts at the root's judgement.
        tree.node(b).set_value(1.0);
        let values = black_values(&tree, Color::White);
        assert_eq!(values, HashMap::from([(Tree::ROOT, 0.0), (a, 1.0)]));
        // 30 playouts at a's 1, the other 20 at the root's 0.
        assert_eq!(subtree_mean(&tree, &values, Tree::ROOT), Some(0.6));
        // Black to move: the root's value is White's, a's Black's.
        let values = black_values(&tree, Color::Black);
        assert_eq!(values, HashMap::from([(Tree::ROOT, 1.0), (a, 0.0)]));
        assert_eq!(subtree_mean(&tree, &values, Tree::ROOT), Some(0.4));
    }

    #[test]
    fn a_reused_tree_keeps_the_areas_of_its_judged_nodes() {
        let (tree, a, _) = tree();
        tree.set_network_area(Tree::ROOT, 3.0);
        tree.set_network_area(a, 7.5);
        let kept = tree.subtree(a);
        assert_eq!(kept.network_areas(), HashMap::from([(Tree::ROOT, 7.5)]));
        assert_eq!(
            subtree_mean(&kept, &kept.network_areas(), Tree::ROOT),
            Some(7.5)
        );
    }
}
