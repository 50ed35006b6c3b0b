//! hane: a Go engine that speaks GTP v2, plays by the Tromp-Taylor rules and
//! chooses its moves by Monte Carlo tree search.
//!
//! Data flows one way: `gtp` (protocol) -> `game` (rules and board) -> `player`
//! (search) -> `gtp` response.

mod game;
mod gtp;
mod player;

pub use game::sgf;
pub use game::zobrist::stone_key;
pub use game::{Color, Game, Move, Vertex};
pub use gtp::{format_response, parse_line, serve, Command, Engine, ParseError, Request};
pub use player::{bench, PlayerConfig, SearchParams, TREE_NODE_BYTES};
