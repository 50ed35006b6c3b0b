//! Last good reply with forgetting (LGRF-2, Baier and Drake, "The Power of
//! Forgetting", 2010): the playouts remember, for each colour, the reply
//! that won after a pair of moves (and after a single move), and try it
//! again when the same moves come up. A reply that loses is forgotten, so
//! the tables follow what works in the current search.

use crate::game::Color;
use crate::player::board::Point;

/// No reply stored.
const NONE: Point = 0;

/// One search thread's replies.
pub struct Replies {
    /// The points of the board's array (`PlayoutBoard::points_used`): the
    /// tables are as large as the board in play needs, so that 9x9's pair
    /// table is 58 KB and stays in cache where one sized for 25x25 took 2 MB.
    points: usize,
    /// By colour, then previous move: the reply to one move.
    one: Vec<Point>,
    /// By colour, then the two previous moves: the reply to a pair.
    two: Vec<Point>,
}

fn colour_index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Replies {
    /// Empty tables for a board whose points are numbered below `points`.
    pub fn new(points: usize) -> Replies {
        Replies {
            points,
            one: vec![NONE; 2 * points],
            two: vec![NONE; 2 * points * points],
        }
    }

    #[inline]
    fn one_index(&self, color: Color, previous: Point) -> usize {
        colour_index(color) * self.points + previous as usize
    }

    #[inline]
    fn two_index(&self, color: Color, before: Point, previous: Point) -> usize {
        (colour_index(color) * self.points + before as usize) * self.points + previous as usize
    }

    /// The stored reply of `color` to `before` then `previous` (pass as
    /// `PASS`), the pair's first, else the single move's.
    pub fn reply(&self, color: Color, before: Point, previous: Point) -> Option<Point> {
        if previous == NONE {
            return None;
        }
        let two = self.two[self.two_index(color, before, previous)];
        if two != NONE {
            return Some(two);
        }
        let one = self.one[self.one_index(color, previous)];
        (one != NONE).then_some(one)
    }

    /// Learns from one finished playout: `moves` in order (pass as `PASS`),
    /// the first played by `first`; `winner` won it. The winner's replies
    /// are stored, the loser's forgotten.
    pub fn learn(&mut self, moves: &[Point], first: Color, winner: Color) {
        let mut color = first;
        for (i, &mv) in moves.iter().enumerate() {
            if i >= 1 && mv != NONE && moves[i - 1] != NONE {
                let previous = moves[i - 1];
                let before = if i >= 2 { moves[i - 2] } else { NONE };
                let one = self.one_index(color, previous);
                let two = self.two_index(color, before, previous);
                if color == winner {
                    self.one[one] = mv;
                    self.two[two] = mv;
                } else {
                    if self.one[one] == mv {
                        self.one[one] = NONE;
                    }
                    if self.two[two] == mv {
                        self.two[two] = NONE;
                    }
                }
            }
            color = color.opponent();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_winners_reply_is_stored_and_the_losers_forgotten() {
        let mut replies = Replies::new(121);
        // Black 30, White 40, Black 50: Black won.
        replies.learn(&[30, 40, 50], Color::Black, Color::Black);
        assert_eq!(replies.reply(Color::Black, 30, 40), Some(50));
        assert_eq!(replies.reply(Color::Black, 99, 40), Some(50));
        assert_eq!(replies.reply(Color::White, 0, 30), None);
        // The same moves with White winning: Black's reply is forgotten,
        // White's reply to 30 is stored.
        replies.learn(&[30, 40, 50], Color::Black, Color::White);
        assert_eq!(replies.reply(Color::Black, 30, 40), None);
        assert_eq!(replies.reply(Color::White, 0, 30), Some(40));
    }
}
