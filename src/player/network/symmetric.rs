//! The network's judgement of a position averaged over the board's
//! symmetries, as a wrapper over any evaluator: one network judges a
//! position and its mirror image a few points apart (the empty board and
//! one stone at Q16 or D16: +2.3 and -2.3), and the mean is the same for
//! both. Each orientation is a position of its own, turned on a board of
//! its own and asked through the evaluator's own `evaluate`, so a cached
//! evaluator answers the orientations it has seen (the search's own is
//! one) and the calling thread's buffers serve all of them; nothing is
//! locked across an evaluation. For the analysis's judgements (eight
//! evaluations a position on a square), not the search's.

use super::evaluator::{Evaluator, Position, Scratch};
use super::planes::RecentMoves;
use crate::game::{Color, Symmetry};
use crate::player::board::{turned, PlayoutBoard};

/// How many evaluations `symmetric_judgement` asks for on `board`: what a
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

/// `to_move`'s judgement of `board` with `komi` to count, averaged over
/// the symmetries that keep the board's shape (eight on a square, four on
/// a rectangle); None where the evaluator has no ownership head or judged
/// a number that is not one.
pub fn symmetric_judgement(
    evaluator: &dyn Evaluator,
    (board, to_move, recent): (&PlayoutBoard, Color, &RecentMoves),
    komi: f32,
    scratch: &mut Scratch,
) -> Option<Judgement> {
    if !evaluator.heads().ownership {
        return None;
    }
    let size = board.size();
    let symmetries = Symmetry::of(size);
    let mut total = 0.0f32;
    let mut chances = Some(0.0f32);
    for &symmetry in symmetries {
        let mut image = turned(board, symmetry);
        let recent = recent.map(|p| p.map(|p| image.point(symmetry.vertex(board.vertex(p), size))));
        // The sum over the board is the same in any orientation: no need
        // to turn the ownership back.
        let position = Position {
            board: &mut image,
            to_move,
            recent: &recent,
            komi,
        };
        let evaluation = evaluator.evaluate(position, scratch);
        total += evaluation.area_difference()?;
        chances = chances.zip(evaluation.win_chance).map(|(sum, c)| sum + c);
    }
    let count = symmetries.len() as f32;
    let area = Some(total / count).filter(|area| area.is_finite())?;
    Some(Judgement {
        area,
        win_chance: chances.map(|sum| sum / count).filter(|c| c.is_finite()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{BoardSize, Vertex};
    use crate::player::network::cache::Cached;
    use crate::player::network::forward::Network;

    fn one_stone(stone: &str) -> (PlayoutBoard, RecentMoves) {
        let mut board = PlayoutBoard::new(BoardSize::square(19));
        let point = board.point(Vertex::parse_gtp(stone).expect("vertex"));
        board.play(point, Color::Black);
        (board, [Some(point), None, None, None])
    }

    #[test]
    fn the_symmetric_judgement_of_a_position_is_its_mirror_images() {
        let net = Network::shipped();
        let mut scratch = Scratch::new();
        let mut judged = |stone: &str| {
            let (board, recent) = one_stone(stone);
            symmetric_judgement(&net, (&board, Color::White, &recent), 7.5, &mut scratch)
                .expect("an ownership head")
        };
        // R16's 8 images: mirrored, turned, transposed (Q17). The win
        // chance is the same evaluations' mean, and the same for all.
        let r16 = judged("R16");
        let chance = r16.win_chance.expect("a value head");
        assert!(chance > 0.0 && chance < 1.0, "{chance}");
        for image in ["Q17", "C16", "D17", "R4", "Q3", "C4", "D3"] {
            let other = judged(image);
            assert!((other.area - r16.area).abs() < 1e-3, "{image}");
            let other_chance = other.win_chance.expect("a value head");
            assert!((other_chance - chance).abs() < 1e-4, "{image}");
        }
        // One orientation alone judges them apart (what the average is for).
        let mut plain = |stone: &str| {
            let (mut board, recent) = one_stone(stone);
            let position = Position {
                board: &mut board,
                to_move: Color::White,
                recent: &recent,
                komi: 7.5,
            };
            net.evaluate(position, &mut scratch)
                .area_difference()
                .expect("an ownership head")
        };
        let (one, other) = (plain("Q16"), plain("D16"));
        assert!((one - other).abs() > 0.1, "{one} {other}");
    }

    #[test]
    fn the_orientations_are_asked_through_the_cache() {
        let cached = Cached::new(Network::shipped());
        let mut scratch = Scratch::new();
        // R16: off the diagonals, so its eight images are eight positions.
        let (mut board, recent) = one_stone("R16");
        // The search's own evaluation of the position, then the judgement:
        // that orientation is the cache's already.
        let position = Position {
            board: &mut board,
            to_move: Color::White,
            recent: &recent,
            komi: 7.5,
        };
        cached.evaluate(position, &mut scratch);
        let judged = (&board, Color::White, &recent);
        let first = symmetric_judgement(&cached, judged, 7.5, &mut scratch);
        let used = cached.cache_use();
        assert_eq!((used.lookups, used.hits), (9, 1));
        // A second judgement of the position costs no evaluation.
        let again = symmetric_judgement(&cached, judged, 7.5, &mut scratch);
        assert_eq!(first, again);
        let used = cached.cache_use();
        assert_eq!((used.lookups, used.hits), (17, 9));
    }

    #[test]
    fn a_rectangle_is_judged_over_its_four_and_a_ko_turns_with_it() {
        let net = Network::shipped();
        let empty = ".........";
        let mut rows = vec![empty; 7];
        rows.extend([".XO......", "X.XO....."]);
        let mut board = PlayoutBoard::from_rows(&rows);
        // White takes C1 at B1: a simple ko at C1.
        board.play(board.point_of("B1"), Color::White);
        let ko = board.point_of("C1");
        assert_eq!(board.ko(), Some(ko));
        assert_eq!(symmetries_of(&board), 8);
        for &s in Symmetry::of(board.size()) {
            let image = turned(&board, s);
            let size = board.size();
            assert_eq!(
                image.ko(),
                Some(image.point(s.vertex(board.vertex(ko), size)))
            );
            for v in Vertex::all(size) {
                let at = |b: &PlayoutBoard, v| b.color_at(b.point(v));
                assert_eq!(at(&board, v), at(&image, s.vertex(v, size)), "{s:?} {v}");
            }
        }
        let mut scratch = Scratch::new();
        let none = [None; 4];
        let judged = symmetric_judgement(&net, (&board, Color::Black, &none), 7.5, &mut scratch);
        assert!(judged.is_some());
        let rectangle = PlayoutBoard::new(BoardSize::new(13, 9).expect("size"));
        assert_eq!(symmetries_of(&rectangle), 4);
        let judged =
            symmetric_judgement(&net, (&rectangle, Color::Black, &none), 7.5, &mut scratch);
        assert!(judged.is_some_and(|j| j.area.is_finite()));
    }
}
