//! The network: one component, the engine's learned judgement of a
//! position. What goes in: a `Position` (the playout board, the side to
//! move, its last moves: `RecentMoves`, and the komi the game is counted
//! with) written as input planes (`planes`, the one function the engine
//! and the plane writer share). What comes out: an `Evaluation`, the move
//! logits and each head the weights have (the side to move's winning
//! chance, the final margin at which its judgement is even, each point's
//! owner).
//!
//! - `evaluator`: the seam, `Evaluator`, that every backend implements:
//!   a position (or a batch of them) and the calling thread's `Scratch`
//!   (where a backend keeps its buffers) in, an evaluation each out;
//! - `model`: `Model`, the network a weights file describes (the trunk and
//!   each head, fp32 weights), apart from any backend; each backend is
//!   built from one;
//! - `network_file`: the weights file's format (versions 1 to 6, the table
//!   of each version's header words that data/weights-format.json holds
//!   for the exporter too) and its checked loading into a `Model`; the
//!   shipped weights are compiled in;
//! - `score_belief`: a score head's distribution of the final margin, and
//!   the win chance at a komi and its median margin read from it;
//! - `forward`: `Network`, the fp32 backend on the CPU (im2col and one
//!   sgemm a convolution), the reference;
//! - `uniform`: `Uniform`, the backend that knows nothing (every move
//!   alike, a fixed judgement), for the tests;
//! - `backend`: which backend runs a model (`--backend
//!   fp32|winograd|bf16|auto`, `HANE_BACKEND`); `winograd`: fp32 with the
//!   blocks' 3x3 convolutions by Winograd's F(4x4, 3x3) (AVX2 where the
//!   CPU has it), the fp32 one's stem and heads; `bf16` (with `amx`, its
//!   convolutions on AMX tiles): the bf16 backend, the fp32 one's heads on
//!   a bf16 trunk;
//! - `shared`: `SharedEvaluator`, what a player evaluates with: one
//!   backend, the measured cost of an evaluation, the cache its threads
//!   share, and the judgement over the board's symmetries asked as one
//!   batch;
//! - `cache`: that cache, a fixed table of evaluations by position;
//! - `symmetric`: a position's orientations and the mean judgement of
//!   their evaluations.
//!
//! It uses only `board` (and `game`); the search (`search::network_prior`,
//! `search::network_score`) and the player use it.

#[cfg(target_arch = "x86_64")]
mod amx;
mod backend;
#[cfg(target_arch = "x86_64")]
mod bf16;
mod cache;
mod evaluator;
mod forward;
mod model;
mod network_file;
mod planes;
mod score_belief;
mod shared;
mod symmetric;
mod uniform;
mod winograd;

pub use backend::{backends_here, choose_backend, shipped_on, Backend};
pub use cache::CacheUse;
pub use evaluator::{softmax, Evaluation, Evaluator, Heads, Position, Scratch};
// Named outside only by tests' own evaluators.
#[cfg(test)]
pub use evaluator::KomiRange;
#[cfg(test)]
pub use forward::Network;
pub use network_file::{describe_weights, evaluate_weights_on_empty_board};
pub use planes::{play_and_remember, write_planes, RecentMoves, PLANES, RECENT_MOVES};
pub use shared::{evaluator_from_bytes, shared, shipped_evaluator, SharedEvaluator};
pub use symmetric::{symmetries_of, Judgement};
pub use uniform::Uniform;
