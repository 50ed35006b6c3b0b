//! The commands that read the position and change nothing: the final
//! status of stones, the legality of a move, a point's colour and
//! liberties.

use super::Engine;
use crate::game::{Color, Move, Vertex};
use crate::gtp::command::StoneStatus;
use crate::gtp::response::Reply;

impl Engine {
    pub(super) fn final_status_list(&self, status: StoneStatus) -> String {
        match status {
            // Tromp-Taylor removes no dead stones: every stone on the
            // board counts as alive, as final_score counts it.
            StoneStatus::Alive => {
                let mut stones = self.game.board().stones(Color::Black);
                stones.extend(self.game.board().stones(Color::White));
                stones.sort_by_key(|v| (v.row, v.col));
                vertex_list(&stones)
            }
            StoneStatus::Dead | StoneStatus::Seki => String::new(),
        }
    }

    /// `is_legal`: `1` or `0`.
    pub(super) fn is_legal(&self, color: Color, mv: Move) -> String {
        if self.game.is_legal(color, mv) {
            "1"
        } else {
            "0"
        }
        .into()
    }

    /// `color`: `black`, `white` or `empty`.
    pub(super) fn color_at(&self, vertex: Vertex) -> Reply {
        self.check_on_board(vertex)?;
        Ok(match self.game.board().get(vertex) {
            Some(color) => color.to_string(),
            None => "empty".into(),
        })
    }

    /// `countlib`: the liberties of the string at `vertex`.
    pub(super) fn countlib(&self, vertex: Vertex) -> Reply {
        self.check_on_board(vertex)?;
        if self.game.board().get(vertex).is_none() {
            return Err("vertex must not be empty".into());
        }
        Ok(self.game.board().liberties(vertex).to_string())
    }

    fn check_on_board(&self, vertex: Vertex) -> Result<(), String> {
        if self.game.board().is_on_board(vertex) {
            Ok(())
        } else {
            Err("invalid coordinate".into())
        }
    }
}

/// Vertices separated by spaces, in the order given.
pub(super) fn vertex_list(vertices: &[Vertex]) -> String {
    vertices
        .iter()
        .map(Vertex::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}
