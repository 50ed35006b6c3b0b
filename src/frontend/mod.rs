//! What the front-ends share: the GTP engine (`gtp/`), KataGo's JSON
//! analysis (`hane analysis`) and the game review (`hane analyze`) each read
//! a client's lines, read and write SGF files, answer a panic with its
//! text, and speak of rules in KataGo's vocabulary (its rules object and
//! the text forms its clients write: `rules_object.rs`, `rules_text.rs`),
//! and read the network file the command line names (`weights_file.rs`).
//! One copy of each, here, so that a bound or a fix made for one front-end
//! holds for all of them.
//!
//! It sits beside the front-ends and above `player/` and `game/`; the
//! front-ends use it, nothing below imports it.

mod lines;
mod panic_text;
mod rules_object;
mod rules_text;
mod sgf_file;
mod weights_file;

pub use lines::{BoundedLines, LineEnd, MAX_LINE_BYTES};
pub use panic_text::panic_message;
pub use rules_object::{HandicapBonus, RulesObject, Scoring};
pub use rules_text::{KomiInRules, RulesText};
pub use sgf_file::{
    open_for_appending, open_for_writing, read_regular_file, read_sgf_file, write_over, Unreadable,
};
pub use weights_file::evaluator_from_file;
