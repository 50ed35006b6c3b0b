//! The Go Text Protocol, version 2: parsing, the engine that answers
//! commands, and the reader/writer threads around stdin and stdout.

pub mod command;
pub mod parse;

pub use command::{Command, ParseError, Request, COMMAND_NAMES};
pub use parse::parse_line;
