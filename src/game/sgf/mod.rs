//! SGF `FF[4]` reading and writing, for GTP `loadsgf` and `printsgf` and
//! for `hane analyze`.
//!
//! This module only converts between SGF text and a plain description of a
//! game ([`SgfGame`]): board size, game information and the main line as a
//! list of actions. It knows nothing of the rules; whoever replays the actions
//! rejects illegal ones.
//!
//! The reader is written with nom 7 rather than taken from a crate: the SGF
//! crates on crates.io build the whole variation tree as nested values, which
//! recurse once per node when dropped or printed, so a hostile file with deep
//! nesting (or just a long game) can overflow the stack. Here the game tree is
//! walked by a loop with a depth counter, and only the main line is kept, so
//! time and memory are linear in the input whatever its shape.
//!
//! `hane analyze` writes a game back with its comments, markup and
//! variations, so it reads the whole tree instead ([`SgfTree`]): an arena of
//! nodes with every property, walked by the same loop and written by one.

mod read;
mod syntax;
mod tree;
mod types;
mod write;

#[cfg(test)]
mod tests;

pub use read::parse;
pub use syntax::count_game_trees;
pub use tree::{MainLine, NodeId, SgfTree};
pub use types::{
    SgfAction, SgfError, SgfGame, MAX_MAIN_LINE_ACTIONS, MAX_SETUP_POINTS, MAX_TREE_NODES,
};
pub use write::write;
