//! hane: a Go engine that speaks GTP v2, plays by the Tromp-Taylor rules and
//! chooses its moves by Monte Carlo tree search.
//!
//! Three layers, each using only the one below it:
//!
//! - `gtp` (protocol) reads lines, parses them into typed commands, answers
//!   them with the `Engine` and writes the responses: all protocol text is
//!   written there.
//! - `player` (search) turns a position and a budget into a move, or into a
//!   report of numbers (candidates, visits, win rates, PV, ownership).
//! - `game` (rules): board, game record, superko, scoring, SGF.
//!
//! `analyze` (`hane analyze`, a whole game reviewed into an SGF file) and
//! `analysis_engine` (`hane analysis`, KataGo's JSON analysis protocol) are
//! tools on top of `player` and `game`, beside the protocol, not part of it.
//!
//! Data flows one way: stdin -> reader thread -> parser -> `Command` ->
//! `Engine` -> (the clock's budget -> `Player` -> search threads -> report ->
//! decision) -> reply -> stdout. The modules are private; what follows the
//! declarations is the whole public API, for `main.rs`, `tests/` and `fuzz/`.
//! docs/architecture.md maps every module.

mod analysis_engine;
mod analyze;
mod frontend;
mod game;
mod gtp;
mod player;

pub use analysis_engine::{
    parse_overrides, read_config_file, run_analysis, serve_analysis, AnalysisOptions, KataSettings,
    NotUsed, ReportAs, Setting,
};
pub use analyze::{analyze_file, AnalyzeError, AnalyzeOptions, Summary};
pub use game::sgf;
pub use game::zobrist::stone_key;
pub use game::{BoardSize, Color, Game, Move, Rules, Superko, Vertex};
pub use gtp::{format_response, parse_line, serve, Command, Engine, LiveGfx, ParseError, Request};
pub use player::model as knowledge;
pub use player::{
    bench, param, use_network_file, Param, ParamError, ParamKind, ParamValue, PlayerConfig,
    SearchParams, MAX_THINK_SECONDS, PARAMS, TREE_NODE_BYTES,
};
