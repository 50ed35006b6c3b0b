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
//! `review` (`hane analyze`, a whole game reviewed into an SGF file) and
//! `json_analysis` (`hane analysis`, KataGo's JSON analysis protocol) are
//! tools on top of `player` and `game`, beside the protocol, not part of it;
//! `frontend` is what the three front-ends share (bounded line reading, SGF
//! files, a panic's text).
//!
//! Data flows one way: stdin -> reader thread -> parser -> `Command` ->
//! `Engine` -> (the clock's budget -> `Player` -> search threads -> report ->
//! decision) -> reply -> stdout. The modules are private; what follows the
//! declarations is the whole public API, for `main.rs`, `tests/` and `fuzz/`.
//! docs/architecture.md maps every module.

mod frontend;
mod game;
mod gtp;
mod json_analysis;
mod player;
mod review;

pub use frontend::{evaluator_from_file, open_for_appending};
pub use game::sgf;
pub use game::zobrist::stone_key;
pub use game::{BoardSize, Color, Game, Move, Rules, Superko, Vertex};
pub use gtp::{
    format_response, parse_line, serve, Command, Engine, GtpRequest, LiveGfx, ParseError,
};
pub use json_analysis::{
    parse_overrides, read_config_file, run_analysis, serve_analysis, AnalysisOptions, KataSettings,
    NotUsed, ReportAs, Setting, MAX_THREADS,
};
pub use player::model as knowledge;
pub use player::{
    backends_here, bench, choose_backend, describe_weights, evaluate_weights_on_empty_board, param,
    shared, shipped_evaluator, shipped_on, Backend, CacheUse, Evaluation, Evaluator, Heads, Param,
    ParamError, ParamKind, ParamValue, PlayerConfig, Position, Scratch, SearchParams,
    SharedEvaluator, Uniform, MAX_THINK_SECONDS, PARAMS, TREE_NODE_BYTES,
};
pub use review::{review_file, ReviewError, ReviewOptions, ReviewSummary};
