//! The rules of Go as Tromp and Taylor wrote them: board, colourings, superko,
//! scoring, handicap placement, and the game record (SGF).

mod board;
mod color;
mod handicap;
mod history;
mod record;
pub mod sgf;
mod vertex;
pub mod zobrist;

pub use board::{Board, MoveEffect};
pub use color::Color;
pub use handicap::{fixed_handicap_vertices, free_handicap_vertices};
pub use history::{Action, CannotUndo, Game, IllegalMove, SetupError, MAX_RECORD_ACTIONS};
pub use record::{result_text, ReplayError};
pub use vertex::{Move, Vertex, MAX_SIZE, MIN_SIZE};
