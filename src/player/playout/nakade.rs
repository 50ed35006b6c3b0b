//! Nakade: the vital point of a small eye space.
//!
//! A string's eye space of three to six points, enclosed by one colour, lives
//! or dies by its vital point: the defender playing there makes two eyes, the
//! attacker playing there leaves one (straight and bent three, pyramid four,
//! bulky and crossed five, rabbity six). In all those shapes the vital point
//! is the one point of the space with the most neighbours inside it; the
//! shapes that are alive or dead whoever moves (straight and bent four, the
//! square four, rectangular six) have no such unique point. The playouts
//! play it for whichever side is to move, as MoGo and Pachi's playouts do,
//! so that who moves first there decides, not the random order.

use crate::game::Color;
use crate::player::board::{PlayoutBoard, Point};

/// Eye spaces larger than this are left to the random play.
const MAX_SPACE: usize = 6;
/// Smaller spaces have no vital point: one or two points make one eye.
const MIN_SPACE: usize = 3;

/// The vital points of the eye spaces next to `last`, added to `out` (each
/// once).
pub fn vital_points_near(board: &PlayoutBoard, last: Point, out: &mut Vec<Point>) {
    for q in board.adjacent(last) {
        if board.is_on_board(q) && board.color_at(q).is_none() {
            if let Some(vital) = vital_point(board, q) {
                if !out.contains(&vital) {
                    out.push(vital);
                }
            }
        }
    }
}

/// The vital point of the empty region holding `start`, when the region is
/// an eye space of three to six points bordered by stones of one colour
/// only, and its shape has one.
pub fn vital_point(board: &PlayoutBoard, start: Point) -> Option<Point> {
    let mut space = [0 as Point; MAX_SPACE];
    let mut size = 0;
    space[size] = start;
    size += 1;
    let mut border: Option<Color> = None;
    let mut next = 0;
    while next < size {
        let p = space[next];
        next += 1;
        for q in board.adjacent(p) {
            if !board.is_on_board(q) {
                continue;
            }
            match board.color_at(q) {
                Some(color) => {
                    if border.is_some_and(|b| b != color) {
                        return None;
                    }
                    border = Some(color);
                }
                None if space[..size].contains(&q) => {}
                None if size == MAX_SPACE => return None,
                None => {
                    space[size] = q;
                    size += 1;
                }
            }
        }
    }
    border?;
    if size < MIN_SPACE {
        return None;
    }
    let space = &space[..size];
    let degree = |p: Point| {
        board
            .adjacent(p)
            .iter()
            .filter(|q| space.contains(q))
            .count()
    };
    let most = space.iter().map(|&p| degree(p)).max()?;
    let mut at_most = space.iter().filter(|&&p| degree(p) == most);
    let vital = *at_most.next()?;
    at_most.next().is_none().then_some(vital)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> PlayoutBoard {
        PlayoutBoard::from_rows(rows)
    }

    #[test]
    fn the_middle_of_a_straight_three_in_the_corner() {
        let b = board(&[
            ".......", ".......", ".......", ".......", "XXXX...", "...X...", "XXXX...",
        ]);
        let vital = b.point_of("B2");
        for start in ["A2", "B2", "C2"] {
            assert_eq!(vital_point(&b, b.point_of(start)), Some(vital), "{start}");
        }
    }

    #[test]
    fn bent_three_pyramid_four_and_bulky_five() {
        // Bent three A1 B1 A2: the corner of the bend, A1.
        let bent = board(&[
            ".......", ".......", ".......", ".......", "XX.....", ".X.....", "..X....",
        ]);
        assert_eq!(
            vital_point(&bent, bent.point_of("B1")),
            Some(bent.point_of("A1"))
        );
        // Pyramid four B1 A1 C1 B2: vital B1.
        let pyramid = board(&[
            ".......", ".......", ".......", ".......", "XXX....", "X.XX...", "...X...",
        ]);
        assert_eq!(
            vital_point(&pyramid, pyramid.point_of("A1")),
            Some(pyramid.point_of("B1"))
        );
        // Bulky five A1 B1 A2 B2 C1: vital B1 (three neighbours inside).
        let bulky = board(&[
            ".......", ".......", ".......", ".......", "XX.....", "..X....", "...X...",
        ]);
        assert_eq!(
            vital_point(&bulky, bulky.point_of("A1")),
            Some(bulky.point_of("B1"))
        );
    }

    #[test]
    fn shapes_alive_or_dead_whoever_moves_have_no_vital_point() {
        // Straight four A1-D1, the square four A1 B1 A2 B2, two points.
        let straight = board(&[
            ".......", ".......", ".......", ".......", ".......", "XXXXX..", "....X..",
        ]);
        assert_eq!(vital_point(&straight, straight.point_of("A1")), None);
        let square = board(&[
            ".......", ".......", ".......", ".......", "XX.....", "..X....", "..X....",
        ]);
        assert_eq!(vital_point(&square, square.point_of("A1")), None);
        let two = board(&[
            ".......", ".......", ".......", ".......", ".......", "XX.....", "..X....",
        ]);
        assert_eq!(vital_point(&two, two.point_of("A1")), None);
    }

    #[test]
    fn a_space_touching_both_colours_or_too_large_is_no_eye_space() {
        let mixed = board(&[
            ".......", ".......", ".......", ".......", "XXXX...", "...O...", "XXXX...",
        ]);
        assert_eq!(vital_point(&mixed, mixed.point_of("B2")), None);
        let open = board(&[
            ".......", ".......", ".......", ".......", "XXXX...", ".......", "XXXX...",
        ]);
        assert_eq!(vital_point(&open, open.point_of("B2")), None);
    }

    #[test]
    fn the_vital_points_next_to_a_move_are_listed_once() {
        let b = board(&[
            ".......", ".......", ".......", ".......", "XXXX...", "...X...", "XXXX...",
        ]);
        let mut out = Vec::new();
        vital_points_near(&b, b.point_of("D2"), &mut out);
        assert_eq!(out, vec![b.point_of("B2")]);
        vital_points_near(&b, b.point_of("B3"), &mut out);
        assert_eq!(out, vec![b.point_of("B2")]);
    }
}
