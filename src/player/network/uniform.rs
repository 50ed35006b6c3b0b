//! The evaluator that knows nothing: every move alike, and where it is
//! given one, a fixed judgement of every position. A backend in one file
//! through the same seam as the network (`Evaluator`), with no buffers of
//! its own: what the tests search with where the network's knowledge
//! would only hide what they check.

use std::sync::Arc;

use super::evaluator::{Evaluation, Evaluator, Heads, Position, Scratch};
use crate::game::Color;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Uniform {
    /// The side to move's chance of winning, whatever the position (a
    /// value head), or none.
    pub win_chance: Option<f32>,
    /// Black's ownership of every point, from -1 to 1 (an ownership head),
    /// or none.
    pub black_ownership: Option<f32>,
}

impl Evaluator for Uniform {
    fn evaluate(&self, position: Position<'_>, _: &mut Scratch) -> Arc<Evaluation> {
        let points = position.board.size().points();
        let for_mover = |black: f32| match position.to_move {
            Color::Black => black,
            Color::White => -black,
        };
        Arc::new(Evaluation {
            logits: vec![0.0; points + 1],
            win_chance: self.win_chance,
            final_margin: None,
            ownership: self.black_ownership.map(|b| vec![for_mover(b); points]),
        })
    }

    fn description(&self) -> String {
        let mut text = "uniform: every move alike".to_string();
        if let Some(w) = self.win_chance {
            text += &format!(", the side to move wins {w}");
        }
        if let Some(o) = self.black_ownership {
            text += &format!(", Black owns every point {o}");
        }
        text
    }

    fn heads(&self) -> Heads {
        Heads {
            value: self.win_chance.is_some(),
            ownership: self.black_ownership.is_some(),
            komi: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::BoardSize;
    use crate::player::board::PlayoutBoard;

    #[test]
    fn it_prefers_no_move_and_judges_as_it_was_told() {
        let uniform = Uniform {
            win_chance: Some(0.25),
            black_ownership: Some(1.0),
        };
        let mut board = PlayoutBoard::new(BoardSize::new(7, 5).expect("size"));
        let mut ask = |to_move| {
            let position = Position {
                board: &mut board,
                to_move,
                recent: &[None; 4],
                komi: 7.5,
            };
            uniform.evaluate(position, &mut Scratch::new())
        };
        let white = ask(Color::White);
        assert_eq!(white.logits, vec![0.0; 36]);
        assert_eq!(white.win_chance, Some(0.25));
        assert_eq!(white.area_difference(), Some(-35.0));
        assert_eq!(ask(Color::Black).area_difference(), Some(35.0));
        assert_eq!(
            Uniform::default().heads(),
            Heads {
                value: false,
                ownership: false,
                komi: None
            }
        );
    }
}
