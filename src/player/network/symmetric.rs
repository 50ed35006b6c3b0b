//! The network's judgement of a position averaged over the board's
//! symmetries: one network judges a position and its mirror image a few
//! points apart (the empty board and one stone at Q16 or D16: +2.3 and
//! -2.3), and the mean is the same for both. Here the geometry and the
//! mean: each orientation is a position of its own, on a board of its own
//! (`orientations`), and the mean of their evaluations is the judgement
//! (`mean_judgement`); `SharedEvaluator::symmetric_judgement` asks for
//! them as one batch through its cache, so the orientations it has seen
//! (the search's own is one) cost nothing. For the analysis's judgements
//! (eight evaluations a position on a square), not the search's.

use std::sync::Arc;

use super::evaluator::Evaluation;
use super::planes::RecentMoves;
use crate::game::Symmetry;
use crate::player::board::{turned, PlayoutBoard};

/// How many evaluations a symmetric judgement asks for on `board`: what a
/// caller on a budget weighs before it asks.
pub fn symmetries_of(board: &PlayoutBoard) -> usize {
    Symmetry::of(board.size()).len()
}

/// A position's judgement for one side: `symmetric_judgement` gives the
/// side to move's, averaged over the board's symmetries; the search keeps
/// Black's (`Search::judgement`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judgement {
    /// The expected area difference (`Evaluation::area_difference`: komi
    /// not taken off).
    pub area: f32,
    /// The winning chance, where the evaluator has a value head: the
    /// same evaluations' (`Evaluation::win_chance`), so that the win rate
    /// a report reads beside the area is of the same judgement.
    pub win_chance: Option<f32>,
}

/// `board` and its last moves `recent` in each orientation that keeps the
/// board's shape (eight on a square, four on a rectangle), the identity
/// first.
pub fn orientations(
    board: &PlayoutBoard,
    recent: &RecentMoves,
) -> Vec<(PlayoutBoard, RecentMoves)> {
    let size = board.size();
    Symmetry::of(size)
        .iter()
        .map(|&symmetry| {
            let image = turned(board, symmetry);
            let recent =
                recent.map(|p| p.map(|p| image.point(symmetry.vertex(board.vertex(p), size))));
            (image, recent)
        })
        .collect()
}

/// The mean judgement of one position's orientations' evaluations; None
/// where one judges no area (no ownership head) or the mean is not a
/// number. The sum over the board is the same in any orientation: the
/// ownership need not be turned back.
pub fn mean_judgement(evaluations: &[Arc<Evaluation>]) -> Option<Judgement> {
    let mut total = 0.0f32;
    let mut chances = Some(0.0f32);
    for evaluation in evaluations {
        total += evaluation.area_difference()?;
        chances = chances.zip(evaluation.win_chance).map(|(sum, c)| sum + c);
    }
    let count = evaluations.len() as f32;
    let area = Some(total / count).filter(|area| area.is_finite())?;
    Some(Judgement {
        area,
        win_chance: chances.map(|sum| sum / count).filter(|c| c.is_finite()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{BoardSize, Color, Vertex};

    fn judged(area: Option<f32>, win_chance: Option<f32>) -> Arc<Evaluation> {
        Arc::new(Evaluation {
            logits: vec![0.0; 82],
            win_chance,
            final_margin: area,
            ownership: None,
        })
    }

    #[test]
    fn the_mean_judgement_is_of_every_orientation_or_none() {
        let mean = mean_judgement(&[judged(Some(2.0), Some(0.5)), judged(Some(-1.0), Some(0.75))]);
        assert_eq!(
            mean,
            Some(Judgement {
                area: 0.5,
                win_chance: Some(0.625)
            })
        );
        // One orientation with no value: an area and no win chance.
        let mean = mean_judgement(&[judged(Some(2.0), Some(0.5)), judged(Some(4.0), None)]);
        assert_eq!(
            mean,
            Some(Judgement {
                area: 3.0,
                win_chance: None
            })
        );
        // One with no area: no judgement.
        assert_eq!(
            mean_judgement(&[judged(Some(2.0), Some(0.5)), judged(None, Some(0.5))]),
            None
        );
        assert_eq!(mean_judgement(&[judged(Some(f32::NAN), Some(0.5))]), None);
    }

    #[test]
    fn a_square_has_eight_orientations_a_rectangle_four_and_a_ko_turns_with_them() {
        let empty = ".........";
        let mut rows = vec![empty; 7];
        rows.extend([".XO......", "X.XO....."]);
        let mut board = PlayoutBoard::from_rows(&rows);
        // White takes C1 at B1: a simple ko at C1.
        board.play(board.point_of("B1"), Color::White);
        let ko = board.point_of("C1");
        assert_eq!(board.ko(), Some(ko));
        assert_eq!(symmetries_of(&board), 8);
        let recent = [Some(board.point_of("B1")), None, None, None];
        let images = orientations(&board, &recent);
        assert_eq!(images.len(), 8);
        let size = board.size();
        for (&s, (image, image_recent)) in Symmetry::of(size).iter().zip(&images) {
            assert_eq!(
                image.ko(),
                Some(image.point(s.vertex(board.vertex(ko), size)))
            );
            let b1 = image.point(s.vertex(Vertex::parse_gtp("B1").expect("B1"), size));
            assert_eq!(image_recent[0], Some(b1), "{s:?}");
            for v in Vertex::all(size) {
                let at = |b: &PlayoutBoard, v| b.color_at(b.point(v));
                assert_eq!(at(&board, v), at(image, s.vertex(v, size)), "{s:?} {v}");
            }
        }
        // The identity first.
        assert_eq!(images[0].0.hash(), board.hash());
        let rectangle = PlayoutBoard::new(BoardSize::new(13, 9).expect("size"));
        assert_eq!(symmetries_of(&rectangle), 4);
        assert_eq!(orientations(&rectangle, &[None; 4]).len(), 4);
    }
}
