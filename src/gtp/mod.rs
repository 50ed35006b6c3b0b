//! The Go Text Protocol, version 2: parsing, the engine that answers
//! commands, and the reader/writer threads around stdin and stdout.

mod analysis;
pub mod command;
pub mod engine;
pub mod io;
pub mod parse;
pub mod response;
mod showboard;
pub mod signals;

pub use command::{Command, ParseError, Request};
pub use engine::Engine;
pub use parse::parse_line;
