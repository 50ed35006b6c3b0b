//! Move generation: Monte Carlo tree search over fast playouts.
//!
//! The folders are the search's layers, each using only those below it:
//!
//! - `board`: the fast playout board, self-atari tests and tactical reading;
//! - `knowledge`: what a move is worth before any search (shapes, the
//!   learned move model);
//! - `network`: the network, one component: its weights, input planes,
//!   forward pass, the evaluator the search asks through, its cache and
//!   symmetric judgement (it uses only `board`);
//! - `playout`: the light and policy playouts;
//! - `params` (a file between the playouts and the search: it names the
//!   playout policy's probabilities, and the search reads it): the one
//!   table of tunable parameters;
//! - `search`: the tree the threads share, its walk, priors, move filter,
//!   margins, report, stopping rule and dynamic komi;
//! - `clock`: how long to think (the time controls and a move's budget;
//!   it uses only `game`).
//!
//! Above them, `request` is what a caller asks for, `player` (the `Player`)
//! runs a search on every thread, and `decision` turns its report into
//! genmove's move.

pub mod bench;
mod board;
mod clock;
mod decision;
mod knowledge;
mod network;
mod params;
mod playout;
mod request;
mod rng;
mod search;
// Each file is named for the one type it holds: `Player` in player.rs.
#[allow(clippy::module_inception)]
mod player;

pub use clock::{Budget, Clock, MoveCost, TimeControl, MAX_THINK_SECONDS};
pub use decision::Decision;
pub use network::{
    backends_here, choose_backend, describe_weights, evaluate_weights_on_empty_board,
    evaluator_from_bytes, shared, shipped_evaluator, shipped_on, Backend, CacheUse, Evaluation,
    Evaluator, Heads, Position, Scratch, SharedEvaluator, Uniform,
};
pub use params::{param, Param, ParamError, ParamKind, ParamValue, SearchParams, PARAMS};
pub use player::{Player, PlayerConfig};
pub use request::{SearchRequest, Watch};
pub use search::{FilterKind, MoveFilter, MoveRule, RootMove, SearchReport};

/// The move model's pieces the offline tools read game records with: the
/// playout board, the features of a move (examples/fit_prior) and the
/// policy network's input planes (examples/write_planes).
pub mod model {
    pub use super::board::{PlayoutBoard, Point, TacticalReader, DEEP_BUDGET};
    pub use super::knowledge::{
        canonical_shape, features, spatial_hashes, Group, MoveFeatures, Recent, GROUPS, LARGE_FROM,
        SPATIAL_SIZES,
    };
    pub use super::network::{play_and_remember, write_planes, RecentMoves, PLANES, RECENT_MOVES};
}

/// Bytes one node of the search tree takes, for fitting `--max-tree-mb`.
pub const TREE_NODE_BYTES: usize = search::NODE_BYTES;

#[cfg(test)]
pub(crate) use search::sample_report;
