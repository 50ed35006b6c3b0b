//! The value head in the tree, backed up: each playout's result is mixed
//! with the value head's judgement of the deepest position on its way that
//! the network judged, and the mixture is what every node on the way
//! counts (AlphaGo's mixed leaf evaluation, `value_share` = 1 - lambda).
//! The network judges the root and each node that earns its prior
//! (`network_visits`), so a playout's judged position is the last such
//! node it went through.

use super::tree::{HalfWins, Tree};
use super::worker::Step;
use crate::game::Color;
use crate::player::rng::FastRng;

/// Black's half wins (0 to 2) to back up along `path` (the root first)
/// for a playout won by `winner` (None: a
/// draw): `share_percent` of it the value head's judgement where a node
/// on the way has one. The mixture is rounded to whole half wins at
/// random, so that what a node counts keeps its mean.
pub fn mixed_result(
    tree: &Tree,
    path: &[Step],
    share_percent: u32,
    winner: Option<Color>,
    rng: &mut FastRng,
) -> HalfWins {
    let playout = black_half_wins(winner);
    let share = share_percent.min(100) as f32 / 100.0;
    if share == 0.0 {
        return playout;
    }
    let Some(black_chance) = deepest_value(tree, path) else {
        return playout;
    };
    let mixed =
        (2.0 * (share * black_chance + (1.0 - share) * playout as f32 / 2.0)).clamp(0.0, 2.0);
    let whole = mixed.floor();
    whole as HalfWins + HalfWins::from(rng.chance(mixed - whole))
}

/// Black's half wins for a playout won by `winner` (None: a draw).
fn black_half_wins(winner: Option<Color>) -> HalfWins {
    match winner {
        Some(Color::Black) => 2,
        Some(Color::White) => 0,
        None => 1,
    }
}

/// Black's winning chance by the value head at the deepest node of `path`
/// that has one (`judgement.rs`: the same judgement the report reads).
fn deepest_value(tree: &Tree, path: &[Step]) -> Option<f32> {
    path.iter()
        .rev()
        .find_map(|&(id, _)| tree.judged(id).own().chance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::search::judgement::BlackJudgement;
    use crate::player::search::tree::{Candidate, Expansion};

    /// A tree of a root and one child, `path` through both.
    fn root_and_child() -> (Tree, Vec<Step>) {
        let tree = Tree::new(8);
        let child = Candidate {
            mv: 5,
            prior_visits: 0,
            prior_wins: 0.0,
        };
        let expansion = tree.expand(Tree::ROOT, || vec![child]);
        assert_eq!(expansion, Expansion::Expanded);
        let child = tree.children(Tree::ROOT).next().expect("a child");
        (tree, vec![(Tree::ROOT, 0), (child, 0)])
    }

    #[test]
    fn a_playout_is_mixed_with_the_deepest_judgement_on_its_way() {
        let (tree, path) = root_and_child();
        let mut rng = FastRng::new(1);
        // The root judged lost for Black.
        let black_chance = |chance| BlackJudgement {
            area: None,
            chance: Some(chance),
        };
        tree.set_judgement(path[0].0, black_chance(0.0));
        // No share: the playout's own result.
        assert_eq!(
            mixed_result(&tree, &path, 0, Some(Color::Black), &mut rng),
            2
        );
        // All of it the value: Black has lost at the root.
        assert_eq!(
            mixed_result(&tree, &path, 100, Some(Color::Black), &mut rng),
            0
        );
        // The deeper judgement wins: the child judged won for Black.
        tree.set_judgement(path[1].0, black_chance(1.0));
        assert_eq!(
            mixed_result(&tree, &path, 100, Some(Color::White), &mut rng),
            2
        );
        // Half and half of a lost playout and a won judgement: one half win
        // on average, rounded at random.
        let mean = (0..10_000)
            .map(|_| mixed_result(&tree, &path, 50, Some(Color::White), &mut rng) as f64)
            .sum::<f64>()
            / 10_000.0;
        assert!((mean - 1.0).abs() < 0.02, "{mean}");
        // A judgement of 0.75 for Black mixed half and half with a won
        // playout: 1.75 half wins on average, never outside 1 to 2.
        let child = tree.judged(path[1].0);
        child.set_chance(0.75);
        let results: Vec<HalfWins> = (0..10_000)
            .map(|_| mixed_result(&tree, &path, 50, Some(Color::Black), &mut rng))
            .collect();
        assert!(results.iter().all(|&r| (1..=2).contains(&r)));
        let mean = results.iter().map(|&r| r as f64).sum::<f64>() / 10_000.0;
        assert!((mean - 1.75).abs() < 0.02, "{mean}");
    }

    #[test]
    fn a_path_with_no_judgement_backs_up_the_playout() {
        let (tree, path) = root_and_child();
        let mut rng = FastRng::new(1);
        let results = [(Some(Color::White), 0), (None, 1), (Some(Color::Black), 2)];
        for (winner, playout) in results {
            let mixed = mixed_result(&tree, &path, 50, winner, &mut rng);
            assert_eq!(mixed, playout);
        }
    }
}
