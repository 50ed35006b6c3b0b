//! A string's pseudo-liberties: its (stone, empty neighbour) pairs, a point
//! counted once for each stone it touches. They change by one pair at a
//! time as stones are placed and removed, and two strings' pairs add up
//! when they merge, so they are kept incrementally at no walk. Besides
//! their count, the sum of their points and of the points' squares are
//! kept: all the pairs name the same point, the string being in atari,
//! exactly when count × squares = sum² (the points' variance is zero), and
//! that point is then sum / count. So atari, the question the policy asks
//! most, is answered without walking the string.

use super::point::Point;

/// The pseudo-liberties of one string (kept at its representative).
/// Bounds: at most 4 pairs for each of the at most 729 points of the padded
/// 25x25 array, whose index is below 729: the sum of squares stays under
/// 4 × 729 × 729² ≈ 1.5e9, within a u32.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PseudoLiberties {
    count: u16,
    sum: u32,
    squares: u32,
}

impl PseudoLiberties {
    /// The number of pairs: zero exactly when the string has no liberty.
    #[inline]
    pub fn count(self) -> u16 {
        self.count
    }

    /// One more pair, with the empty point `q`.
    #[inline]
    pub fn add(&mut self, q: Point) {
        let q = q as u32;
        self.count += 1;
        self.sum += q;
        self.squares += q * q;
    }

    /// One pair fewer: `q` was filled.
    #[inline]
    pub fn take(&mut self, q: Point) {
        let q = q as u32;
        self.count -= 1;
        self.sum -= q;
        self.squares -= q * q;
    }

    /// The pairs of two strings joined into one.
    #[inline]
    pub fn joined(self, other: PseudoLiberties) -> PseudoLiberties {
        PseudoLiberties {
            count: self.count + other.count,
            sum: self.sum + other.sum,
            squares: self.squares + other.squares,
        }
    }

    /// The pairs of a joined string less those `other` brought: the merge
    /// taken back.
    #[inline]
    pub fn without(self, other: PseudoLiberties) -> PseudoLiberties {
        PseudoLiberties {
            count: self.count - other.count,
            sum: self.sum - other.sum,
            squares: self.squares - other.squares,
        }
    }

    /// The string's only liberty when it has exactly one.
    #[inline]
    pub fn single(self) -> Option<Point> {
        let (count, sum) = (self.count as u64, self.sum as u64);
        (count > 0 && count * self.squares as u64 == sum * sum).then(|| (sum / count) as Point)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_point_named_several_times_is_an_atari_and_two_points_are_not() {
        let mut liberties = PseudoLiberties::default();
        assert_eq!(liberties.single(), None);
        liberties.add(700);
        liberties.add(700);
        liberties.add(700);
        liberties.add(700);
        assert_eq!(liberties.single(), Some(700));
        // Points placed symmetrically around 700 keep the mean, not the
        // variance.
        liberties.add(699);
        liberties.add(701);
        assert_eq!(liberties.single(), None);
        liberties.take(699);
        assert_eq!(liberties.single(), None);
        liberties.take(701);
        assert_eq!(liberties.single(), Some(700));
        let mut other = PseudoLiberties::default();
        other.add(22);
        other.add(45);
        let joined = liberties.joined(other);
        assert_eq!(joined.count(), 6);
        assert_eq!(joined.single(), None);
        assert_eq!(joined.without(other), liberties);
    }
}
