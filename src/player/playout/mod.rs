//! The playouts that finish a game from a leaf of the tree: the light
//! random one and the search's policy playout (`policy`), with the local
//! answers it tries first: eye-space vital points (`nakade`), capturing
//! races (`race`) and the last good replies (`reply`).

mod nakade;
mod policy;
mod race;
mod reply;

pub use policy::{
    first_code, light_playout, policy_playout, PlayoutRecords, Policy, PolicyPlayout, FIRST_NONE,
};
pub use reply::Replies;
