//! The Tromp-Taylor count on the playout board: a playout's score and a
//! point's owner, the two facts the search reads from a finished playout.
//! The rules board computes both its own way; the playout board's tests
//! check them against it on random games.

use super::playout_board::{count_of, PlayoutBoard, Point, BLACK, EDGE, EMPTY, MAX_POINTS, WHITE};
use crate::game::{Color, Vertex, MAX_SIZE};

/// Who a playout's count (Black's margin, komi included) makes the
/// winner; None for a tie. The one place a score becomes a result.
pub fn winner(black_margin: f32) -> Option<Color> {
    if black_margin > 0.0 {
        Some(Color::Black)
    } else if black_margin < 0.0 {
        Some(Color::White)
    } else {
        None
    }
}

impl PlayoutBoard {
    /// The Tromp-Taylor count: Black's area minus White's minus komi.
    pub fn score(&self, komi: f32) -> f32 {
        let mut black = 0i32;
        let mut white = 0i32;
        for v in Vertex::all(self.size) {
            let p = self.point(v) as usize;
            match self.color[p] {
                BLACK => black += 1,
                WHITE => white += 1,
                _ => {}
            }
        }
        let mut seen = [false; MAX_POINTS];
        for &p in self.empty_points() {
            if seen[p as usize] {
                continue;
            }
            let nb = self.neighbours[p as usize];
            let (b, w) = (count_of(nb, BLACK), count_of(nb, WHITE));
            if count_of(nb, EMPTY) == 0 {
                // A lone empty point, the usual case at a playout's end.
                black += (b > 0 && w == 0) as i32;
                white += (w > 0 && b == 0) as i32;
                continue;
            }
            let (points, reaches) = self.empty_region(p, &mut seen);
            match reaches {
                (true, false) => black += points,
                (false, true) => white += points,
                _ => {}
            }
        }
        (black - white) as f32 - komi
    }

    /// Size of the empty region at `p` and whether it reaches black and
    /// white; marks the region in `seen`.
    fn empty_region(&self, p: Point, seen: &mut [bool; MAX_POINTS]) -> (i32, (bool, bool)) {
        let mut stack = [0 as Point; MAX_SIZE * MAX_SIZE];
        let mut top = 0;
        stack[top] = p;
        top += 1;
        seen[p as usize] = true;
        let mut points = 0;
        let (mut black, mut white) = (false, false);
        while top > 0 {
            top -= 1;
            let q = stack[top];
            points += 1;
            for n in self.adjacent(q) {
                match self.color[n as usize] {
                    BLACK => black = true,
                    WHITE => white = true,
                    EMPTY if !seen[n as usize] => {
                        seen[n as usize] = true;
                        stack[top] = n;
                        top += 1;
                    }
                    _ => {}
                }
            }
        }
        (points, (black, white))
    }

    /// The owner of a point under the Tromp-Taylor count.
    pub fn owner(&self, p: Point) -> Option<Color> {
        match self.color[p as usize] {
            BLACK => return Some(Color::Black),
            WHITE => return Some(Color::White),
            EDGE => return None,
            _ => {}
        }
        let nb = self.neighbours[p as usize];
        let reaches = if count_of(nb, EMPTY) == 0 {
            (count_of(nb, BLACK) > 0, count_of(nb, WHITE) > 0)
        } else {
            let mut seen = [false; MAX_POINTS];
            self.empty_region(p, &mut seen).1
        };
        match reaches {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        }
    }
}
