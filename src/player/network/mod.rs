//! The network: one component, the engine's learned judgement of a
//! position. What goes in: a position (the playout board, the side to
//! move, its last moves: `RecentMoves`) written as input planes
//! (`planes`, the one function the engine and the plane writer share).
//! What comes out: an `Evaluation`, the move logits and each head the
//! weights have (the side to move's winning chance, each point's owner).
//!
//! - `network_file`: the weights file's format (versions 1 to 3) and its
//!   checked loading; the shipped weights are compiled in;
//! - `forward`: `Network`, the forward pass on the CPU (im2col and one
//!   sgemm a convolution) in a thread's `EvalScratch`;
//! - `evaluator`: `Evaluator`, the interface the search asks through, and
//!   `CachedEvaluator`, the cache of evaluations a player's threads share
//!   and the measured cost of one;
//! - `symmetric`: a judgement averaged over the board's symmetries,
//!   through any evaluator and its cache.
//!
//! It uses only `board` (and `game`); the search (`search::network_prior`,
//! `search::network_score`) and the player use it.

mod evaluator;
mod forward;
mod network_file;
mod planes;
mod symmetric;

pub use evaluator::{
    describe_weights, evaluate_weights_on_empty_board, evaluator_from_bytes, shipped_evaluator,
    CacheUse, Evaluation, Evaluator,
};
pub use forward::EvalScratch;
#[cfg(test)]
pub use forward::Network;
pub use planes::{play_and_remember, write_planes, RecentMoves, PLANES, RECENT_MOVES};
pub use symmetric::{symmetric_area, symmetries_of};
