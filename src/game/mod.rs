//! The rules of Go as Tromp and Taylor wrote them: board, colourings, superko,
//! scoring, and the game record (SGF).

pub mod board;
mod color;
pub mod history;
pub mod sgf;
mod vertex;
pub mod zobrist;

pub use board::{Board, MoveEffect};
pub use color::Color;
pub use history::{
    fixed_handicap_vertices, Action, CannotUndo, Game, IllegalMove, SetupError, MAX_RECORD_ACTIONS,
};
pub use vertex::{Move, Vertex, MAX_SIZE, MIN_SIZE};
