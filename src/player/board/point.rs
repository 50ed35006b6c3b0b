//! The playout board's points: indices into a padded one-dimensional
//! array, a row of edge points around the board.

use crate::game::MAX_SIZE;

/// An index into the padded array.
pub type Point = u16;

/// The point that stands for a pass, in the tree and in the playouts'
/// records: point 0 is a border point of the padded board, never a move.
pub const PASS: Point = 0;

/// The longest row of the padded array: a side of 25 and its two edges.
const MAX_STRIDE: usize = MAX_SIZE + 2;
pub const MAX_POINTS: usize = MAX_STRIDE * MAX_STRIDE;
