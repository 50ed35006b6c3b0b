//! The choice of a child on the walk down the tree: the child with the best
//! blend of its own win rate and its all-moves-as-first (RAVE) rate, the
//! latter weighing less as real visits grow (Michi's form). (PUCT's
//! exploration bonus from the network's policy was tried here and failed
//! its screen: docs/strength.md, "PUCT".)

use super::tree::{Node, NodeId, Tree};
use crate::player::params::SearchParams;

/// The child of `node` (expanded) with the best value, illegal ones left
/// out; None when it has no other.
pub fn select(tree: &Tree, node: NodeId, params: &SearchParams) -> Option<NodeId> {
    let mut best = None;
    let mut best_value = f32::NEG_INFINITY;
    tree.child_nodes(node).for_each(|(child, c)| {
        if c.is_illegal() {
            return;
        }
        let value = blended_value(c, params);
        if value > best_value {
            best_value = value;
            best = Some(child);
        }
    });
    best
}

/// The RAVE blend of a child's own win rate (the prior included) and its
/// all-moves-as-first rate. Virtual losses under way count as lost visits.
fn blended_value(child: &Node, params: &SearchParams) -> f32 {
    let n = child.visits() as f32;
    let q = child.win_rate();
    let (amaf_visits, amaf_rate) = child.amaf();
    if amaf_visits == 0 {
        return q;
    }
    let rn = amaf_visits as f32;
    let beta = rn / (rn + n + n * rn / params.rave_equiv);
    (1.0 - beta) * q + beta * amaf_rate
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::search::tree::Candidate;

    /// A root with two children: `strong` (6 of its 10 prior playouts won,
    /// and 6 of 10 real ones) and `weak` (3 and 3).
    fn tree_of_two() -> (Tree, NodeId, NodeId) {
        let tree = Tree::new(16);
        tree.expand(Tree::ROOT, || {
            [(10, 6.0), (11, 3.0)]
                .map(|(mv, prior_wins)| Candidate {
                    mv,
                    prior_visits: 10,
                    prior_wins,
                })
                .to_vec()
        });
        let mut children = tree.children(Tree::ROOT);
        let (Some(strong), Some(weak)) = (children.next(), children.next()) else {
            panic!("the root has two children");
        };
        for (child, wins) in [(strong, 6), (weak, 3)] {
            let node = tree.node(child);
            (0..10).for_each(|i| node.add_result(if i < wins { 2 } else { 0 }, 0));
        }
        (tree, strong, weak)
    }

    #[test]
    fn the_better_win_rate_is_chosen() {
        let (tree, strong, _) = tree_of_two();
        assert_eq!(
            select(&tree, Tree::ROOT, &SearchParams::default()),
            Some(strong)
        );
    }

    #[test]
    fn an_illegal_child_is_never_chosen() {
        let (tree, strong, weak) = tree_of_two();
        let params = SearchParams::default();
        tree.node(strong).mark_illegal();
        assert_eq!(select(&tree, Tree::ROOT, &params), Some(weak));
        tree.node(weak).mark_illegal();
        assert_eq!(select(&tree, Tree::ROOT, &params), None);
    }
}
