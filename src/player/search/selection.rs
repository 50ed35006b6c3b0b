//! The choice of a child on the walk down the tree: the child with the best
//! blend of its own win rate and its all-moves-as-first (RAVE) rate, the
//! latter weighing less as real visits grow (Michi's form). With `puct` on,
//! a child of a node the network judged also gains PUCT's exploration
//! bonus from its policy probability (AlphaGo's form), which fades as the
//! child's own playouts grow but keeps pace with its parent's.

use super::tree::{Node, NodeId, Tree};
use crate::player::params::SearchParams;

/// The child of `node` (expanded) with the best value, illegal ones left
/// out; None when it has no other.
pub fn select(tree: &Tree, node: NodeId, params: &SearchParams) -> Option<NodeId> {
    let exploration = exploration_scale(tree.node(node), params);
    let mut best = None;
    let mut best_value = f32::NEG_INFINITY;
    tree.child_nodes(node).for_each(|(child, c)| {
        if c.is_illegal() {
            return;
        }
        let mut value = blended_value(c, params);
        if exploration > 0.0 {
            value += exploration * c.policy() / (1 + c.playouts()) as f32;
        }
        if value > best_value {
            best_value = value;
            best = Some(child);
        }
    });
    best
}

/// PUCT's c x sqrt(N) for the children of `parent`: 0 where it is off or
/// the network has not judged the parent (its children have no policy).
fn exploration_scale(parent: &Node, params: &SearchParams) -> f32 {
    if params.puct <= 0.0 || !parent.has_network() {
        return 0.0;
    }
    params.puct * (parent.playouts() as f32).sqrt()
}

/// The RAVE blend of a child's own win rate (the prior and the value
/// head's judgement included) and its all-moves-as-first rate. Virtual
/// losses under way count as lost visits.
fn blended_value(child: &Node, params: &SearchParams) -> f32 {
    let n = child.visits() as f32;
    let q = child.win_rate_with_value(params.value_weight);
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
    /// and 6 of 10 real ones) and `likely` (3 and 3), the network's policy
    /// giving `likely` 0.9 and `strong` 0.05; the root has `root_playouts`
    /// playouts, and the network's judgement where `judged`.
    fn tree_of_two(root_playouts: u32, judged: bool) -> (Tree, NodeId, NodeId) {
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
        let (Some(strong), Some(likely)) = (children.next(), children.next()) else {
            panic!("the root has two children");
        };
        if judged {
            assert!(tree.node(Tree::ROOT).claim_network());
        }
        for (child, policy, wins) in [(strong, 0.05, 6), (likely, 0.9, 3)] {
            let node = tree.node(child);
            node.set_policy(policy);
            (0..10).for_each(|i| node.add_result(if i < wins { 2 } else { 0 }, 0));
        }
        (0..root_playouts).for_each(|_| tree.node(Tree::ROOT).add_result(1, 0));
        (tree, strong, likely)
    }

    fn with_puct(puct: f32) -> SearchParams {
        SearchParams {
            puct,
            ..SearchParams::default()
        }
    }

    #[test]
    fn without_puct_the_better_win_rate_is_chosen() {
        let (tree, strong, _) = tree_of_two(10_000, true);
        assert_eq!(select(&tree, Tree::ROOT, &with_puct(0.0)), Some(strong));
    }

    #[test]
    fn puct_visits_the_network_s_choice_as_the_parent_s_playouts_grow() {
        // sqrt(20) x (0.9 - 0.05) / 11 = 0.35: more than the rates' 0.6 -
        // 0.3 between them.
        let (tree, _, likely) = tree_of_two(20, true);
        assert_eq!(select(&tree, Tree::ROOT, &with_puct(1.0)), Some(likely));
        // With one playout at the parent the rates still decide.
        let (tree, strong, _) = tree_of_two(1, true);
        assert_eq!(select(&tree, Tree::ROOT, &with_puct(1.0)), Some(strong));
    }

    #[test]
    fn puct_needs_the_network_s_judgement_of_the_parent() {
        let (tree, strong, _) = tree_of_two(10_000, false);
        assert_eq!(select(&tree, Tree::ROOT, &with_puct(1.0)), Some(strong));
    }

    #[test]
    fn an_illegal_child_is_never_chosen() {
        let (tree, strong, likely) = tree_of_two(20, true);
        tree.node(strong).mark_illegal();
        assert_eq!(select(&tree, Tree::ROOT, &with_puct(0.0)), Some(likely));
        tree.node(likely).mark_illegal();
        assert_eq!(select(&tree, Tree::ROOT, &with_puct(0.0)), None);
    }

    #[test]
    fn a_policy_keeps_its_probability_to_a_fine_precision() {
        let tree = Tree::new(2);
        let node = tree.node(Tree::ROOT);
        for p in [0.0, 0.0004, 0.01, 0.3, 0.97, 1.0] {
            node.set_policy(p);
            let got = node.policy();
            assert!((got - p).abs() <= 0.004 * p.sqrt() + 1e-6, "{p}: {got}");
        }
    }
}
