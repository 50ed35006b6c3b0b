//! The search's own board, built for speed, and what reading it tells: the
//! playout board (`playout_board`) and its count (`count`), whether a move is a self-atari worth
//! refusing (`selfatari`) and short tactical reading of ladders and
//! two-liberty strings (`tactics`), played on the board itself and taken
//! back (`undo`). Everything above it (the playouts, the
//! move model, the tree) reads positions through this folder.

mod count;
mod keys;
mod liberties;
mod log;
mod playout_board;
mod point;
mod pseudo;
mod selfatari;
mod settled;
mod setup;
mod tactics;
mod undo;

pub use count::winner;
pub use playout_board::{
    colour_code, PlayoutBoard, Point, BLACK, EDGE, EMPTY, MAX_POINTS, PASS, WHITE,
};
pub use selfatari::is_bad_self_atari;
#[cfg(test)]
pub use settled::filled_board;
pub use settled::settled_count;
#[cfg(test)]
pub use setup::board_with;
pub use setup::{board_of, turned};
pub use tactics::{TacticalReader, DEEP_BUDGET, PLAYOUT_BUDGET};
