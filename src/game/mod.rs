//! The rules of Go as Tromp and Taylor wrote them: board, colourings, superko,
//! scoring, handicap placement, and the game record (SGF).

mod board;
mod color;
mod handicap;
mod history;
mod record;
mod rules;
pub mod sgf;
mod superko;
mod symmetry;
mod vertex;
pub mod zobrist;

pub use color::{Color, PerColor};
pub use handicap::{fixed_handicap_vertices, free_handicap_vertices};
pub use history::{Action, Game, IllegalMove, MAX_RECORD_ACTIONS};
pub use record::result_text;
pub use rules::{Rules, DEFAULT_KOMI, MAX_KOMI};
pub use superko::Superko;
pub use symmetry::Symmetry;
pub use vertex::{BoardSize, Move, Vertex, MAX_SIZE};

/// The rules board by name, for the playout board's tests that check the
/// fast board against it.
#[cfg(test)]
pub(crate) use board::Board;
