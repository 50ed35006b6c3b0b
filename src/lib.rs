//! hane: a Go engine that speaks GTP v2, plays by the Tromp-Taylor rules and
//! chooses its moves by Monte Carlo tree search.
//!
//! Data flows one way: `gtp` (protocol) -> `game` (rules and board) -> `player`
//! (search) -> `gtp` response.

pub mod game;
pub mod gtp;
pub mod player;
