//! The final margins of a search's playouts, kept as counts per whole point
//! so that the report can give the lead at which they split evenly.
//!
//! The mean margin, which the report gave before, is pulled by the few
//! playouts where a large group died at random: a position whose playouts
//! Black wins six times in ten read as Black trailing by several points,
//! and the lead jumped by points from one move to the next (KaTrain's
//! "points lost"). The median is the lead that agrees with the win rate
//! (the side that wins most playouts leads) and moves little when a few
//! playouts change. Under area scoring a full board's count differs by
//! an odd or an even number only (the points sum to the board's), so each
//! count is spread over the two points around it before the median is
//! read: the lead then moves smoothly with the counts instead of by two.

/// Black's final margins over a set of playouts: how many ended with each
/// difference of the board count (Black's area minus White's, komi not
/// taken off; the komi is the search's, the same for every playout).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Margins {
    /// `counts[i]`: the playouts whose difference was `i - offset`. Empty
    /// until the first playout.
    counts: Vec<u32>,
    offset: i32,
    total: u64,
}

impl Margins {
    /// Counts a playout whose count difference was `difference`, on a
    /// board of `points` points (a difference lies in -points..=points).
    pub fn add(&mut self, difference: i32, points: usize) {
        if self.counts.is_empty() {
            self.counts = vec![0; 2 * points + 1];
            self.offset = points as i32;
        }
        let index = (difference + self.offset).clamp(0, self.counts.len() as i32 - 1);
        self.counts[index as usize] += 1;
        self.total += 1;
    }

    /// Adds another set's counts (another thread's, of the same board).
    pub fn merge(&mut self, other: &Margins) {
        if other.total == 0 {
            return;
        }
        if self.counts.is_empty() {
            *self = other.clone();
            return;
        }
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            *mine += theirs;
        }
        self.total += other.total;
    }

    /// The playouts counted.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Black's lead: the margin (the count difference less `komi`) below
    /// which half the playouts ended, each count spread evenly over the
    /// two points around it. None before any playout. (Spread wider, the
    /// counts of a fight that goes either way reach across the gap
    /// between its two outcomes, and the lead could name the side that
    /// wins fewer playouts.)
    pub fn lead(&self, komi: f32) -> Option<f32> {
        if self.total == 0 {
            return None;
        }
        let half = self.total as f64 / 2.0;
        // below(k): the playouts below the difference k, a count at k
        // spread over k-1..k+1 giving half of itself below k.
        let mut below_before = 0.0f64;
        let mut whole_below = 0.0f64;
        for (i, &count) in self.counts.iter().enumerate() {
            let count = count as f64;
            let below = whole_below + count / 2.0;
            if below >= half {
                let step = below - below_before;
                let into = if step > 0.0 {
                    (half - below_before) / step
                } else {
                    1.0
                };
                let difference = (i as i32 - self.offset - 1) as f64 + into;
                return Some((difference - komi as f64) as f32);
            }
            below_before = below;
            whole_below += count;
        }
        // Unreachable: below() reaches the total at the last count.
        Some((self.counts.len() as i32 - self.offset) as f32 - komi)
    }

    /// Black's share of the playouts against `komi`: those whose count
    /// difference beat it, a tie counting half. None before any playout.
    /// (What a win rate against another komi than the one the tree's
    /// results were counted with reads: the counts are the komi's free.)
    pub fn black_wins(&self, komi: f32) -> Option<f32> {
        if self.total == 0 {
            return None;
        }
        let mut wins = 0.0f64;
        for (i, &count) in self.counts.iter().enumerate() {
            let margin = (i as i32 - self.offset) as f32 - komi;
            if margin > 0.0 {
                wins += count as f64;
            } else if margin == 0.0 {
                wins += count as f64 / 2.0;
            }
        }
        Some((wins / self.total as f64) as f32)
    }

    /// The standard deviation of the margins; None before any playout.
    pub fn stdev(&self) -> Option<f32> {
        if self.total == 0 {
            return None;
        }
        let n = self.total as f64;
        let (mut sum, mut squares) = (0.0f64, 0.0f64);
        for (i, &count) in self.counts.iter().enumerate() {
            let d = (i as i32 - self.offset) as f64;
            sum += d * count as f64;
            squares += d * d * count as f64;
        }
        let mean = sum / n;
        Some((squares / n - mean * mean).max(0.0).sqrt() as f32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn margins(differences: &[i32]) -> Margins {
        let mut m = Margins::default();
        for &d in differences {
            m.add(d, 81);
        }
        m
    }

    #[test]
    fn the_lead_splits_the_playouts_evenly_whatever_a_few_far_ones_say() {
        // Six playouts Black wins by 1.5 (a difference of 9 at komi 7.5),
        // four White wins by 40 (a big group died): the mean says White
        // leads by 15, the win rate 60% for Black; the lead is Black's.
        let m = margins(&[9, 9, 9, 9, 9, 9, -33, -33, -33, -33]);
        let lead = m.lead(7.5).expect("playouts");
        assert!(lead > 0.0 && lead < 1.5, "{lead}");
        // The lead moves little when one playout changes side.
        let one_more = margins(&[9, 9, 9, 9, 9, 9, -33, -33, -33, -33, -33]);
        let moved = one_more.lead(7.5).expect("playouts");
        assert!((lead - moved).abs() < 2.0, "{lead} -> {moved}");
    }

    #[test]
    fn an_even_split_reads_the_komi_that_makes_the_game_even() {
        // Half the playouts at +7, half at +9: even at komi 8.
        let m = margins(&[7, 9, 7, 9]);
        assert_eq!(m.lead(8.0), Some(0.0));
        assert_eq!(m.lead(7.5), Some(0.5));
        // All at one difference: that difference, less the komi.
        assert_eq!(margins(&[5, 5, 5]).lead(7.5), Some(-2.5));
        assert_eq!(Margins::default().lead(7.5), None);
    }

    #[test]
    fn black_s_share_of_the_playouts_is_read_against_any_komi() {
        let m = margins(&[5, 9, 9, 20]);
        assert_eq!(m.black_wins(7.5), Some(0.75));
        // At 9 the two playouts at 9 are ties, half a win each.
        assert_eq!(m.black_wins(9.0), Some(0.5));
        assert_eq!(m.black_wins(150.0), Some(0.0));
        assert_eq!(m.black_wins(-150.0), Some(1.0));
        assert_eq!(Margins::default().black_wins(7.5), None);
    }

    #[test]
    fn merged_counts_read_as_one_set() {
        let mut a = margins(&[1, 3]);
        let b = margins(&[5, 7, 9]);
        a.merge(&b);
        assert_eq!(a, margins(&[1, 3, 5, 7, 9]));
        assert_eq!(a.total(), 5);
        assert_eq!(a.lead(0.0), Some(5.0));
        assert_eq!(margins(&[2, 4]).stdev(), Some(1.0));
    }
}
