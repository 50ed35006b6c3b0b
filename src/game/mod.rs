//! The rules of Go as Tromp and Taylor wrote them: board, colourings, superko,
//! scoring, and the game record (SGF).

mod color;
pub mod sgf;
mod vertex;
pub mod zobrist;

pub use color::Color;
pub use vertex::{Move, Vertex, MAX_SIZE, MIN_SIZE};
