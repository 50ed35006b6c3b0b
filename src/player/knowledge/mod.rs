//! What hane knows of good moves before it searches, beside the network
//! (`player::network`): hand-made 3x3 shapes (`patterns`), the description
//! of a move by Coulom's features (`features`) with the spatial patterns
//! around it (`spatial`), and the strengths fitted to strong players'
//! choices (`gammas`, read from data/prior-gammas.txt). The tree's priors
//! and the playouts read it; the offline fitter (examples/fit_prior) makes
//! the strengths from it.

mod features;
mod gammas;
pub mod patterns;
mod spatial;

pub use features::{canonical_shape, features, is_empty_area, Group, MoveFeatures, Recent, GROUPS};
pub use gammas::{Gammas, LARGE_FROM};
pub use spatial::{spatial_hashes, SPATIAL_SIZES};
