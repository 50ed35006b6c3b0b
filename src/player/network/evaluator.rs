//! "Evaluate these positions": the seam every backend fits. A backend (the
//! CPU networks of `forward` and `bf16`, the uniform evaluator of the
//! tests, a GPU one) is one type that implements `Evaluator`: it is given
//! a `Position` (the board, the side to move, the moves before it and the
//! komi the game is counted with), or a batch of them, and the calling
//! thread's `Scratch`, in which it keeps whatever buffers it needs, and
//! answers an `Evaluation` each (the move logits and each head it has).
//! The cache, the cost figures and the average over the board's
//! symmetries are not part of the seam: one `SharedEvaluator` (`shared`)
//! owns them above any backend.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use super::planes::RecentMoves;
use crate::game::Color;
use crate::player::board::PlayoutBoard;

/// A position as an evaluator is asked to judge it.
pub struct Position<'a> {
    /// The stones and the simple-ko point; an evaluator may read it in
    /// place (a ladder read out) and leaves it as it was.
    pub board: &'a mut PlayoutBoard,
    pub to_move: Color,
    /// The moves before it, the most recent first.
    pub recent: &'a RecentMoves,
    /// White's komi in the game's count (the game's, never a search's
    /// playout komi): what a network that reads the komi is told.
    pub komi: f32,
}

impl<'a> Position<'a> {
    /// Black to play on `board`, no move before, the usual komi: the
    /// position a network is timed and checked on (the empty board).
    pub fn black_first(board: &'a mut PlayoutBoard) -> Position<'a> {
        Position {
            board,
            to_move: Color::Black,
            recent: &[None; 4],
            komi: crate::game::DEFAULT_KOMI as f32,
        }
    }
}

/// One thread's working memory for whichever evaluator it asks: each
/// backend keeps its own buffers here (`get`), made at its first
/// evaluation and kept after, so that a search thread allocates nothing an
/// evaluation and the seam names no backend's buffers.
#[derive(Default)]
pub struct Scratch(Option<Box<dyn Any + Send>>);

impl Scratch {
    pub fn new() -> Scratch {
        Scratch::default()
    }

    /// The buffers of type `T`, made afresh where the scratch holds none
    /// (or another backend's).
    pub fn get<T: Any + Send + Default>(&mut self) -> &mut T {
        let held = self.0.get_or_insert_with(|| Box::<T>::default());
        if !held.as_ref().is::<T>() {
            *held = Box::<T>::default();
        }
        match held.as_mut().downcast_mut::<T>() {
            Some(buffers) => buffers,
            None => unreachable!("a {} was just put in", std::any::type_name::<T>()),
        }
    }
}

/// What an evaluator says of a position, for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// One logit per point in `BoardSize::index` order, then pass's.
    pub logits: Vec<f32>,
    /// The side to move's chance of winning, where the evaluator judges
    /// positions (a value head); None where it only ranks moves.
    pub win_chance: Option<f32>,
    /// The side to move's area less the opponent's at the game's end
    /// (komi not counted) at which the evaluator's judgement splits evenly,
    /// where it judges the final margin itself (a score head: its
    /// distribution's median, from which `win_chance` is read too).
    pub final_margin: Option<f32>,
    /// Per point in `BoardSize::index` order, who owns it at the game's
    /// end, from -1 (the opponent) to +1 (the side to move), where the
    /// evaluator has an ownership head.
    pub ownership: Option<Vec<f32>>,
}

impl Evaluation {
    /// The side to move's expected area less the opponent's at the game's
    /// end (komi not taken off): the final margin where the evaluator
    /// judges it (so that the lead and the win chance are one judgement:
    /// `final_margin`),
    /// else the ownership summed over the board.
    pub fn area_difference(&self) -> Option<f32> {
        self.final_margin
            .or_else(|| self.ownership.as_ref().map(|o| o.iter().sum()))
    }
}

/// Which judgements an evaluator's evaluations carry beside the move
/// logits.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Heads {
    /// A win chance (`Evaluation::win_chance`).
    pub value: bool,
    /// Each point's owner (`Evaluation::ownership`).
    pub ownership: bool,
    /// The komis its judgements are of where it is given them
    /// (`Position::komi` an input): those it was taught at. None: a
    /// komi-blind one, which judges as if at the komi of the games it
    /// learnt from.
    pub komi: Option<KomiRange>,
}

/// The komis (White's, in points) a network that reads the komi was taught
/// at. Given another, it is told the nearest of them (`clamp`): a komi it
/// never saw would be read by weights fitted to others, and its value
/// would judge nothing a game has (a komi of 150 on 9x9 once read 38% for
/// Black, who cannot win).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KomiRange {
    pub lowest: f32,
    pub highest: f32,
}

impl KomiRange {
    /// Whether `komi` is one it was taught at, so that its judgements are
    /// of that komi.
    pub fn contains(&self, komi: f32) -> bool {
        (self.lowest..=self.highest).contains(&komi)
    }

    /// The taught komi nearest `komi`: what the network is told.
    pub fn clamp(&self, komi: f32) -> f32 {
        komi.clamp(self.lowest, self.highest)
    }
}

/// Evaluates positions: a network, or anything that ranks moves and judges
/// positions in its place.
pub trait Evaluator: Send + Sync {
    /// The evaluation of `position`; `scratch` is the calling thread's.
    fn evaluate(&self, position: Position<'_>, scratch: &mut Scratch) -> Arc<Evaluation>;

    /// The evaluations of `positions`, in their order, one each: a batch,
    /// which a backend that runs positions together (a GPU's, or a CPU one
    /// whose matrix products gain from more columns) runs at once. By
    /// default one after another.
    fn evaluate_batch(
        &self,
        positions: Vec<Position<'_>>,
        scratch: &mut Scratch,
    ) -> Vec<Arc<Evaluation>> {
        positions
            .into_iter()
            .map(|position| self.evaluate(position, scratch))
            .collect()
    }

    /// What it is, in words, for the log and for clients that ask.
    fn description(&self) -> String;

    /// The judgements its evaluations carry.
    fn heads(&self) -> Heads;
}

impl<E: Evaluator + ?Sized> Evaluator for Box<E> {
    fn evaluate(&self, position: Position<'_>, scratch: &mut Scratch) -> Arc<Evaluation> {
        (**self).evaluate(position, scratch)
    }

    fn evaluate_batch(
        &self,
        positions: Vec<Position<'_>>,
        scratch: &mut Scratch,
    ) -> Vec<Arc<Evaluation>> {
        (**self).evaluate_batch(positions, scratch)
    }

    fn description(&self) -> String {
        (**self).description()
    }

    fn heads(&self) -> Heads {
        (**self).heads()
    }
}

impl fmt::Debug for dyn Evaluator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Evaluator({})", self.description())
    }
}

/// A logit to its probability.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Logits to probabilities, in place, the largest taken off first so that
/// none overflows.
pub fn softmax(values: &mut [f32]) {
    let max = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for v in values.iter_mut() {
        *v = (*v - max).exp();
        total += *v;
    }
    for v in values.iter_mut() {
        *v /= total;
    }
}

/// An evaluation with only numbers in it. Weights checked finite can
/// still overflow (a file of huge weights): a logit that is not a number
/// becomes the lowest (its move never preferred), all of them 0 (no
/// preference), and a win chance that is not a number none, so that no
/// client is ever shown NaN.
pub(super) fn finite(mut evaluation: Evaluation) -> Evaluation {
    if evaluation.logits.iter().all(|l| !l.is_finite()) {
        evaluation.logits.fill(0.0);
    }
    for logit in &mut evaluation.logits {
        if !logit.is_finite() {
            *logit = f32::MIN;
        }
    }
    evaluation.win_chance = evaluation.win_chance.filter(|w| w.is_finite());
    evaluation.final_margin = evaluation.final_margin.filter(|m| m.is_finite());
    evaluation.ownership = evaluation
        .ownership
        .filter(|o| o.iter().all(|v| v.is_finite()));
    evaluation
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn softmax_sums_to_one_and_keeps_the_order() {
        let mut v = [1.0, 3.0, 2.0, -50.0];
        softmax(&mut v);
        assert!((v.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(v[1] > v[2] && v[2] > v[0] && v[0] > v[3]);
    }

    #[test]
    fn an_evaluation_that_overflows_holds_numbers_only() {
        let evaluation = finite(Evaluation {
            logits: vec![1.0, f32::INFINITY, f32::NAN, -2.0],
            win_chance: Some(f32::NAN),
            final_margin: Some(f32::INFINITY),
            ownership: Some(vec![0.5, f32::NAN]),
        });
        assert_eq!(evaluation.logits, [1.0, f32::MIN, f32::MIN, -2.0]);
        assert_eq!(evaluation.win_chance, None);
        assert_eq!(evaluation.final_margin, None);
        assert_eq!(evaluation.ownership, None);
        let all_bad = finite(Evaluation {
            logits: vec![f32::NAN; 3],
            win_chance: Some(0.25),
            final_margin: None,
            ownership: Some(vec![1.0, -0.5, 0.25]),
        });
        assert_eq!(all_bad.logits, [0.0; 3]);
        assert_eq!(all_bad.win_chance, Some(0.25));
        assert_eq!(all_bad.area_difference(), Some(0.75));
        // A judged final margin is the area difference, not the ownership's sum.
        let judged = Evaluation {
            final_margin: Some(-3.5),
            ..all_bad
        };
        assert_eq!(judged.area_difference(), Some(-3.5));
    }

    #[test]
    fn a_scratch_keeps_one_backends_buffers_and_makes_anothers_afresh() {
        let mut scratch = Scratch::new();
        scratch.get::<Vec<u32>>().push(7);
        assert_eq!(scratch.get::<Vec<u32>>(), &[7]);
        // Another backend's buffers replace them.
        assert_eq!(scratch.get::<String>(), "");
        assert!(scratch.get::<Vec<u32>>().is_empty());
    }
}
