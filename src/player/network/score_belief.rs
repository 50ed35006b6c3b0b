//! A score head's judgement: the distribution of a game's final margin for
//! the side to move (its area less the opponent's, komi not counted), one
//! logit a whole point from -(bins - 1) / 2 to +(bins - 1) / 2. The win
//! chance at any komi and the margin at which the game is even (its
//! median) are both read from it, so that the win rate and the lead a
//! client is shown are one judgement that names one side (issue 56);
//! scripts/hane_train/model.py's `win_logit` and `score_median` are the
//! same readings in the training.

use super::evaluator::softmax;

/// The final margin's distribution, as the score head's logits.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreBelief {
    /// One logit a margin, the lowest first; an odd count.
    logits: Vec<f32>,
    /// Their softmax, worked out once: the win chance and the median an
    /// evaluation reads each need it.
    probabilities: Vec<f32>,
}

impl ScoreBelief {
    /// The belief of `logits` (an odd count, checked by the weights file).
    pub fn new(logits: Vec<f32>) -> ScoreBelief {
        debug_assert!(logits.len() % 2 == 1);
        let mut probabilities = logits.clone();
        softmax(&mut probabilities);
        ScoreBelief {
            logits,
            probabilities,
        }
    }

    /// The logits, the lowest margin's first.
    #[cfg(test)]
    pub fn logits(&self) -> &[f32] {
        &self.logits
    }

    /// The margin of bin `i`.
    fn margin(&self, i: usize) -> f32 {
        i as f32 - (self.logits.len() / 2) as f32
    }

    /// Each margin's probability (the softmax of the logits).
    fn probabilities(&self) -> &[f32] {
        &self.probabilities
    }

    /// The side to move's chance of winning with `komi` points added to
    /// its margin (White's komi when White is to move, its negative when
    /// Black is): the probability of a margin that beats it, a margin that
    /// ties it counting half (a draw).
    pub fn win_chance(&self, komi: f32) -> f32 {
        self.probabilities()
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let total = self.margin(i) + komi;
                if total > 0.0 {
                    *p
                } else if total == 0.0 {
                    0.5 * p
                } else {
                    0.0
                }
            })
            .sum()
    }

    /// The margin at which the distribution splits evenly, each margin's
    /// probability spread over the point around it: the lead the win
    /// chance agrees with (above 0.5 at a half-integer komi k exactly when
    /// the median is above -k). Unlike the mean it does not move with the
    /// far margins' little mass, the part of the head a game's result
    /// teaches least.
    pub fn median(&self) -> f32 {
        let mut below = 0.0f32;
        for (i, &p) in self.probabilities().iter().enumerate() {
            if p > 0.0 && below + p >= 0.5 {
                return self.margin(i) - 0.5 + (0.5 - below) / p;
            }
            below += p;
        }
        self.margin(self.logits.len() - 1) + 0.5
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Logits that give the margins -2..=2 the probabilities `p`.
    fn belief(p: [f32; 5]) -> ScoreBelief {
        ScoreBelief::new(p.iter().map(|p| p.ln()).collect())
    }

    #[test]
    fn the_win_chance_is_the_share_of_margins_that_beat_the_komi() {
        let b = belief([0.1, 0.2, 0.3, 0.25, 0.15]);
        // Margins -2, -1, 0, 1, 2: at a komi of 0.5 the margins 0 and up win.
        assert!((b.win_chance(0.5) - 0.7).abs() < 1e-6);
        assert!((b.win_chance(-0.5) - 0.4).abs() < 1e-6);
        // At a whole komi a tie (the margin -1 at a komi of 1) is half a
        // win: 1 - 0.1 - 0.2 / 2.
        assert!((b.win_chance(1.0) - 0.8).abs() < 1e-6);
        assert!((b.win_chance(10.5) - 1.0).abs() < 1e-6);
        assert_eq!(b.win_chance(-10.5), 0.0);
        // The opponent's chance at the opposite komi on the mirrored
        // distribution is the rest.
        let mirrored = belief([0.15, 0.25, 0.3, 0.2, 0.1]);
        assert!((b.win_chance(0.5) + mirrored.win_chance(-0.5) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn the_median_splits_the_distribution_evenly_and_agrees_with_the_win_chance() {
        let b = belief([0.1, 0.2, 0.3, 0.25, 0.15]);
        // 0.3 below the point around 0 (-0.5 to 0.5), whose 0.3 holds the
        // half: two thirds of the way across it.
        assert!((b.median() - (-0.5 + 0.2 / 0.3)).abs() < 1e-5);
        for komi in [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5] {
            assert_eq!(b.win_chance(komi) > 0.5, b.median() > -komi, "{komi}");
        }
        let sure = ScoreBelief::new(vec![0.0, 0.0, 0.0, 0.0, 500.0]);
        assert!((sure.median() - 2.0).abs() < 1e-5);
    }
}
