//! The liberties of a string on the playout board: counted exactly,
//! listed, or read up to two from the pseudo-liberties with no walk (the
//! playouts' and the readers' questions).

use super::playout_board::{count_of, short_list_holds, PlayoutBoard, BLACK, EMPTY, WHITE};
use super::point::Point;
#[cfg(test)]
use super::point::MAX_POINTS;

impl PlayoutBoard {
    /// The exact number of distinct liberties of the string at `p`.
    #[cfg(test)]
    pub fn string_liberties(&self, p: Point) -> usize {
        if self.color_at(p).is_none() {
            return 0;
        }
        let mut seen = [false; MAX_POINTS];
        let mut count = 0;
        let start = self.string[p as usize];
        let mut s = start;
        loop {
            for n in self.adjacent(s) {
                if self.color[n as usize] == EMPTY && !seen[n as usize] {
                    seen[n as usize] = true;
                    count += 1;
                }
            }
            s = self.next[s as usize];
            if s == start {
                return count;
            }
        }
    }

    /// Writes the distinct liberties of the string at `p` into `out`, as
    /// many as fit, and returns how many were written.
    pub fn liberties_into(&self, p: Point, out: &mut [Point]) -> usize {
        let mut count = 0;
        // Once every pseudo-liberty has been met, the rest of the string
        // has no empty neighbour: the walk stops there.
        let mut pairs_left = self.pseudo_liberties(p);
        for s in self.stones_of(p) {
            // Most stones of a long string touch no empty point: their
            // neighbour counts say so without a look at the four points.
            if count_of(self.neighbours[s as usize], EMPTY) == 0 {
                continue;
            }
            for n in self.adjacent(s) {
                if self.color[n as usize] == EMPTY {
                    pairs_left -= 1;
                    if !short_list_holds(&out[..count], n) {
                        if count == out.len() {
                            return count;
                        }
                        out[count] = n;
                        count += 1;
                    }
                }
            }
            if pairs_left == 0 {
                break;
            }
        }
        count
    }

    /// The pseudo-liberties of the string at `p`, as a count the walks
    /// of its stones may stop at; for an empty point, more than any walk
    /// meets, so that they never stop early.
    #[inline]
    fn pseudo_liberties(&self, p: Point) -> i32 {
        match self.color[p as usize] {
            BLACK | WHITE => self.liberties[self.string[p as usize] as usize].count() as i32,
            _ => i32::MAX,
        }
    }

    /// The liberties of the string at `p`, counted up to two: (0, 1 or 2
    /// meaning two or more, and one liberty when there is exactly one).
    /// Read from the pseudo-liberties, with no walk.
    #[inline]
    pub fn liberties_up_to_two(&self, p: Point) -> (u8, Point) {
        let liberties = self.liberties[self.string[p as usize] as usize];
        match liberties.single() {
            Some(liberty) => (1, liberty),
            None if liberties.count() == 0 => (0, 0),
            None => (2, 0),
        }
    }

    /// The two liberties of the string at `p`, in the order a walk of
    /// its stones from `p` meets them, when it has exactly two. Strings in
    /// atari and those with more than eight pseudo-liberties (one liberty
    /// touches at most four stones: so at least three liberties) are
    /// answered without a walk.
    #[inline]
    pub fn two_liberties(&self, p: Point) -> Option<[Point; 2]> {
        self.color_at(p)?;
        let liberties = self.liberties[self.string[p as usize] as usize];
        if liberties.count() < 2 || liberties.count() > 8 || liberties.single().is_some() {
            return None;
        }
        let mut out = [0; 3];
        (self.liberties_into(p, &mut out) == 2).then_some([out[0], out[1]])
    }
}
