//! What hane knows of good moves before it searches: hand-made 3x3 shapes
//! (`patterns`), the description of a move by Coulom's features
//! (`features`) with the spatial patterns around it (`spatial`), and the
//! strengths fitted to strong players' choices
//! (`gammas`, read from data/prior-gammas.txt), and the network that
//! ranks moves and judges positions (`network`, read by `network_file`,
//! asked through `evaluator`). The tree's priors read it;
//! the offline fitter (examples/fit_prior) makes the strengths from it.

mod evaluator;
mod features;
mod gammas;
mod network;
mod network_file;
pub mod patterns;
mod planes;
mod spatial;
mod symmetric;

pub use evaluator::{
    describe_weights, evaluate_weights_on_empty_board, evaluator_from_bytes, shipped_evaluator,
    CacheUse, Evaluation, Evaluator,
};
pub use features::{canonical_shape, features, is_empty_area, Group, MoveFeatures, Recent, GROUPS};
pub use gammas::{Gammas, LARGE_FROM};
pub use network::EvalScratch;
#[cfg(test)]
pub use network::Network;
pub use planes::{play_and_remember, write_planes, RecentMoves, PLANES, RECENT_MOVES};
pub use spatial::{spatial_hashes, SPATIAL_SIZES};
pub use symmetric::{symmetric_area, symmetries_of};
