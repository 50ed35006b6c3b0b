//! The Go Text Protocol, version 2: parsing, the engine that answers
//! commands, and the reader/writer threads around stdin and stdout.

mod analyze_commands;
mod command;
mod cputime;
mod engine;
mod io;
mod live_gfx;
mod parse;
mod response;
mod showboard;
mod signals;

pub use command::{Command, GtpRequest, ParseError};
pub use engine::Engine;
pub use io::serve;
pub use live_gfx::LiveGfx;
pub use parse::parse_line;
pub use response::format_response;
