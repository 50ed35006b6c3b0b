//! Which self-ataris are worth playing. A self-atari usually throws stones
//! away, so the playouts mostly refuse it and the tree's prior discourages
//! it; but a lone stone thrown in where its capture leaves the capturing
//! string short of liberties is how groups are killed: a snapback (the
//! capturer is left in atari) or a throw-in that shortens a string in a
//! capturing race or spoils an eye. Playouts that never throw in let too
//! many groups live.

use super::playout_board::{PlayoutBoard, Point};
use crate::game::Color;

/// Liberties the capturing string may have, the thrown-in point included,
/// for a throw-in to be worth it: one is a snapback, two an atari next.
const MAX_CAPTURER_LIBERTIES: usize = 2;

/// Whether `color` playing `p` is a self-atari that should be refused:
/// any self-atari but a useful throw-in.
pub fn is_bad_self_atari(board: &PlayoutBoard, p: Point, color: Color, throw_ins: bool) -> bool {
    board.is_self_atari(p, color) && !(throw_ins && is_throw_in(board, p, color))
}

/// Whether `p` is a lone stone of `color` (no own string next to it) in
/// atari, such that the opponent capturing it at its one liberty would
/// have a string of at most `MAX_CAPTURER_LIBERTIES` liberties, `p`
/// included. The capture must take only this stone: a capture of another
/// of our strings at the same point gives the capturer room.
fn is_throw_in(board: &PlayoutBoard, p: Point, color: Color) -> bool {
    let mut liberty = None;
    for q in board.adjacent(p) {
        match board.color_at(q) {
            Some(c) if c == color => return false,
            None if board.is_on_board(q) => {
                if liberty.is_some() {
                    return false;
                }
                liberty = Some(q);
            }
            _ => {}
        }
    }
    let Some(capture_at) = liberty else {
        return false;
    };
    let mut liberties = Liberties::new(p);
    for q in board.adjacent(capture_at) {
        if q == p || !board.is_on_board(q) {
            continue;
        }
        let room = match board.color_at(q) {
            None => liberties.add(q),
            Some(c) if c == color => board.liberties_up_to_two(q) != (1, capture_at),
            Some(_) => {
                let mut of_string = [0; MAX_CAPTURER_LIBERTIES + 2];
                let n = board.liberties_into(q, &mut of_string);
                of_string[..n]
                    .iter()
                    .all(|&l| l == capture_at || l == p || liberties.add(l))
            }
        };
        if !room {
            return false;
        }
    }
    true
}

/// A small set of distinct points, refusing to grow past the bound.
struct Liberties {
    points: [Point; MAX_CAPTURER_LIBERTIES],
    count: usize,
}

impl Liberties {
    fn new(first: Point) -> Liberties {
        let mut points = [0; MAX_CAPTURER_LIBERTIES];
        points[0] = first;
        Liberties { points, count: 1 }
    }

    /// Adds `p`; false when that makes more than the bound.
    fn add(&mut self, p: Point) -> bool {
        if self.points[..self.count].contains(&p) {
            return true;
        }
        if self.count == self.points.len() {
            return false;
        }
        self.points[self.count] = p;
        self.count += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Vertex;

    fn board(size: usize, black: &[&str], white: &[&str]) -> PlayoutBoard {
        let mut board = PlayoutBoard::new(size);
        for (stones, color) in [(black, Color::Black), (white, Color::White)] {
            for v in stones {
                board.set_stone(Vertex::parse_gtp(v).expect("vertex"), color);
            }
        }
        board
    }

    #[test]
    fn a_throw_in_whose_capture_leaves_the_capturer_in_atari_is_kept() {
        //   3 X X X X .
        //   2 O O O X .
        //   1 . . O X .      Black A1 is a self-atari (liberty B1). If
        // White takes at B1, White's string A2-C2, B1, C1 has only A1 left:
        // Black takes back five stones (a snapback).
        let b = board(
            5,
            &["A3", "B3", "C3", "D3", "D2", "D1"],
            &["A2", "B2", "C2", "C1"],
        );
        let a1 = b.point_of("A1");
        assert!(b.is_self_atari(a1, Color::Black));
        assert!(!is_bad_self_atari(&b, a1, Color::Black, true));
        assert!(is_bad_self_atari(&b, a1, Color::Black, false));
    }

    #[test]
    fn a_throw_in_that_shortens_the_capturer_to_two_liberties_is_kept() {
        //   3 X X X X .
        //   2 O O O X .
        //   1 . . O . .      As above with D1 open: after White takes at
        // B1 its string has A1 and D1, and Black's atari comes next.
        let b = board(
            5,
            &["A3", "B3", "C3", "D3", "D2"],
            &["A2", "B2", "C2", "C1"],
        );
        let a1 = b.point_of("A1");
        assert!(b.is_self_atari(a1, Color::Black));
        assert!(!is_bad_self_atari(&b, a1, Color::Black, true));
    }

    #[test]
    fn a_self_atari_in_the_open_is_still_refused() {
        //   3 . . O . .
        //   2 . O . O .
        //   1 . . . . .      Black C2 has one liberty, C1; White taking
        // there has B1 and D1 too, and C2 once it is empty.
        let b = board(5, &[], &["B2", "C3", "D2"]);
        let c2 = b.point_of("C2");
        assert!(b.is_self_atari(c2, Color::Black));
        assert!(is_bad_self_atari(&b, c2, Color::Black, true));
    }

    #[test]
    fn two_stones_in_atari_are_no_throw_in() {
        //   2 O O O O .
        //   1 . X . O .      Black C1 joins B1: two stones with the one
        // liberty A1. Only lone stones are thrown in.
        let b = board(5, &["B1"], &["A2", "B2", "C2", "D1", "D2"]);
        let c1 = b.point_of("C1");
        assert!(b.is_self_atari(c1, Color::Black));
        assert!(is_bad_self_atari(&b, c1, Color::Black, true));
    }
}
