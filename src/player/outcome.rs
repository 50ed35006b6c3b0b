//! What one playout is worth to the tree: its winner and, weighted lightly,
//! its margin.
//!
//! A search that counts only wins cannot tell a move that keeps a ten-point
//! lead from one that gives nine of them away: both win every playout. So
//! once a game is won it plays the lead down to the last half point, where
//! one misreading loses (every 9x9 game hane won against GNU Go at 5,000
//! playouts went by 0.5 or 1.5 points as White and Black alike;
//! docs/strength.md). A small share of the value from the margin breaks
//! those ties and leaves close fights to the win rate: Pachi's
//! `val_scale` does the same.
//!
//! The tree counts whole half wins (`tree::HalfWins`), so a value between
//! is rounded at random to one of its two neighbours with the chance that
//! keeps its mean: the node stays 32 bytes, and the rate it converges to is
//! the mean value.

use super::rng::FastRng;
use super::tree::HalfWins;
use crate::game::Color;

/// How a playout's result is valued.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Valuation {
    /// The margin's share of a playout's value (0: wins only).
    pub margin_weight: f32,
    /// The margin that is worth all of that share (`SearchParams::
    /// margin_scale` of the board's points): larger leads count as much.
    pub full_margin: f32,
}

impl Valuation {
    pub fn new(margin_weight: f32, full_margin: f32) -> Valuation {
        Valuation {
            margin_weight,
            full_margin: full_margin.max(0.5),
        }
    }

    /// Black's value of a playout in [0, 1]: 1 a win, 0 a loss, 1/2 a
    /// draw, moved towards the margin's own value by `margin_weight`. A
    /// playout decided without a count (`black_margin` None, the mercy
    /// rule) is worth its winner's whole win.
    pub fn black_value(&self, winner_of: Option<Color>, black_margin: Option<f32>) -> f32 {
        let win = match winner_of {
            Some(Color::Black) => 1.0,
            Some(Color::White) => 0.0,
            None => 0.5,
        };
        let Some(margin) = black_margin else {
            return win;
        };
        let by_margin = (0.5 + margin / (2.0 * self.full_margin)).clamp(0.0, 1.0);
        (1.0 - self.margin_weight) * win + self.margin_weight * by_margin
    }

    /// Black's half wins for a playout won by `winner_of` (None: even) by
    /// `black_margin` (None: decided without a count, by the mercy rule).
    /// With no margin weight, or no margin, this is the plain result and
    /// draws no random number, so searches seeded before the margin
    /// counted play the same moves.
    pub fn black_half_wins(
        &self,
        winner_of: Option<Color>,
        black_margin: Option<f32>,
        rng: &mut FastRng,
    ) -> HalfWins {
        let value = self.black_value(winner_of, black_margin);
        if self.margin_weight == 0.0 || black_margin.is_none() {
            // 0, 1/2 or 1 exactly.
            return (2.0 * value) as HalfWins;
        }
        round_at_random(2.0 * value, rng)
    }
}

/// `twice_value` (0 to 2) as 0, 1 or 2 half wins, rounded up with the
/// chance of its fraction so that the mean is kept.
fn round_at_random(twice_value: f32, rng: &mut FastRng) -> HalfWins {
    let twice_value = twice_value.clamp(0.0, 2.0);
    let floor = twice_value.floor();
    let up = rng.chance(twice_value - floor);
    (floor as HalfWins + HalfWins::from(up)).min(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_margin_weight_a_playout_is_its_win() {
        let plain = Valuation::new(0.0, 40.5);
        let mut rng = FastRng::new(1);
        let black = Some(Color::Black);
        let white = Some(Color::White);
        assert_eq!(plain.black_half_wins(black, Some(0.5), &mut rng), 2);
        assert_eq!(plain.black_half_wins(black, Some(40.5), &mut rng), 2);
        assert_eq!(plain.black_half_wins(white, Some(-0.5), &mut rng), 0);
        assert_eq!(plain.black_half_wins(None, Some(0.0), &mut rng), 1);
        // The mercy rule's playouts: the winner's, whatever the margin.
        assert_eq!(plain.black_half_wins(white, None, &mut rng), 0);
        // No random number was drawn.
        assert_eq!(rng.next_u64(), FastRng::new(1).next_u64());
    }

    #[test]
    fn a_larger_win_is_worth_more_but_never_as_much_as_a_loss_costs() {
        let v = Valuation::new(0.1, 40.5);
        let small_win = v.black_value(Some(Color::Black), Some(0.5));
        let large_win = v.black_value(Some(Color::Black), Some(20.5));
        let small_loss = v.black_value(Some(Color::White), Some(-0.5));
        let large_loss = v.black_value(Some(Color::White), Some(-20.5));
        assert!(large_win > small_win && small_win > 0.9);
        assert!(small_loss > large_loss && small_loss < 0.1);
        // A whole board's lead is the most the margin adds.
        assert_eq!(v.black_value(Some(Color::Black), Some(81.0)), 1.0);
        assert_eq!(v.black_value(Some(Color::White), Some(-81.0)), 0.0);
        // The mercy rule's playouts have no margin: a plain win.
        assert_eq!(v.black_value(Some(Color::Black), None), 1.0);
    }

    #[test]
    fn random_rounding_keeps_the_mean_value() {
        let v = Valuation::new(0.2, 40.5);
        let mut rng = FastRng::new(7);
        let n = 200_000;
        let margin = 10.5;
        let sum: u64 = (0..n)
            .map(|_| u64::from(v.black_half_wins(Some(Color::Black), Some(margin), &mut rng)))
            .sum();
        let mean = sum as f64 / (2.0 * n as f64);
        let expected = f64::from(v.black_value(Some(Color::Black), Some(margin)));
        assert!((mean - expected).abs() < 0.002, "{mean} against {expected}");
        // White's view is the complement: a won playout for White is lost
        // for Black by the same amount.
        let white = v.black_value(Some(Color::White), Some(-margin));
        assert!((white - (1.0 - v.black_value(Some(Color::Black), Some(margin)))).abs() < 1e-6);
    }
}
