//! Last good reply with forgetting (LGRF-2, Baier and Drake, "The Power of
//! Forgetting", 2010): the playouts remember, for each colour, the reply
//! that won after a pair of moves (and after a single move), and try it
//! again when the same moves come up. A reply that loses is forgotten, so
//! the tables follow what works in the current search.

use crate::game::Color;
use crate::player::board::{Point, MAX_POINTS};

/// No reply stored.
const NONE: Point = 0;

/// One search thread's replies.
pub struct Replies {
    /// By colour, then previous move: the reply to one move.
    one: Vec<Point>,
    /// By colour, then the two previous moves: the reply to a pair.
    two: Vec<Point>,
}

impl Default for Replies {
    fn default() -> Self {
        Replies::new()
    }
}

fn colour_index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Replies {
    pub fn new() -> Replies {
        Replies {
            one: vec![NONE; 2 * MAX_POINTS],
            two: vec![NONE; 2 * MAX_POINTS * MAX_POINTS],
        }
    }

    fn one_index(color: Color, previous: Point) -> usize {
        colour_index(color) * MAX_POINTS + previous as usize
    }

    fn two_index(color: Color, before: Point, previous: Point) -> usize {
        (colour_index(color) * MAX_POINTS + before as usize) * MAX_POINTS + previous as usize
    }

    /// The stored reply of `color` to `before` then `previous` (pass as
    /// 0), the pair's first, else the single move's.
    pub fn reply(&self, color: Color, before: Point, previous: Point) -> Option<Point> {
        if previous == NONE {
            return None;
        }
        let two = self.two[Self::two_index(color, before, previous)];
        if two != NONE {
            return Some(two);
        }
        let one = self.one[Self::one_index(color, previous)];
        (one != NONE).then_some(one)
    }

    /// Learns from one finished playout: `moves` in order (pass as 0),
    /// the first played by `first`; `winner` won it. The winner's replies
    /// are stored, the loser's forgotten.
    pub fn learn(&mut self, moves: &[Point], first: Color, winner: Color) {
        let mut color = first;
        for (i, &mv) in moves.iter().enumerate() {
            if i >= 1 && mv != NONE && moves[i - 1] != NONE {
                let previous = moves[i - 1];
                let before = if i >= 2 { moves[i - 2] } else { NONE };
                let one = Self::one_index(color, previous);
                let two = Self::two_index(color, before, previous);
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
        let mut replies = Replies::new();
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
