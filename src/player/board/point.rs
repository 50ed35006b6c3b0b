//! The playout board's points: indices into a padded one-dimensional
//! array, a row of edge points around the board.

use crate::game::MAX_SIZE;

/// An index into the padded array.
pub type Point = u16;

/// The longest row of the padded array: a side of 25 and its two edges.
const MAX_STRIDE: usize = MAX_SIZE + 2;
pub const MAX_POINTS: usize = MAX_STRIDE * MAX_STRIDE;
