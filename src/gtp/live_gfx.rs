//! GoGui's live graphics (`--gogui-live-gfx`): while genmove thinks, the
//! engine draws its search on GoGui's board through stderr.
//!
//! GoGui's LiveGfx.java reads the engine's stderr line by line, each line
//! trimmed: a line `gogui-gfx: CMD ...` is one gfx directive, and a line
//! `gogui-gfx:` alone opens a block whose every following line is a
//! directive, up to the first empty line. GoGui draws a block at once,
//! replacing the previous drawing, and only while a command is running. Its
//! manual (chapter "Live Graphics") asks for a `gogui-gfx: CLEAR` before the
//! command ends, because a drawing that arrives just before the response
//! may otherwise be painted during the next command.
//!
//! The logger writes to stderr too. Inside a block GoGui would take a log
//! line for a directive, so a block goes out in one write with stderr
//! locked; env_logger locks it for each record as well.

use std::io::Write;
use std::time::Duration;

use super::analyze_commands;
use crate::player::SearchReport;

/// What GoGui reads as the end of the drawing: the board's markup cleared.
const CLEAR: &str = "gogui-gfx: CLEAR\n";

/// How often the search is drawn while genmove thinks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LiveGfx {
    pub interval: Duration,
}

/// One drawing of the search as GoGui reads it: `gogui-gfx:`, a directive
/// a line, and the empty line that closes the block.
fn block(report: &SearchReport) -> String {
    format!("gogui-gfx:\n{}\n\n", analyze_commands::gfx_live(report))
}

/// Draws `report` on GoGui's board; always true, so the search goes on
/// (a closed stderr costs the drawing, never the move).
pub(super) fn draw(report: &SearchReport) -> bool {
    write_whole(&mut std::io::stderr().lock(), &block(report));
    true
}

/// Clears the drawing: genmove's move is about to be answered.
pub(super) fn clear() {
    write_whole(&mut std::io::stderr().lock(), CLEAR);
}

/// `text` in one write, so that nothing written by another holder of the
/// stream's lock lands inside it. Errors are dropped: the drawing is an
/// extra, and the engine's answers go to stdout.
fn write_whole(out: &mut impl Write, text: &str) {
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::sample_report;

    #[test]
    fn a_block_is_opened_by_the_bare_prefix_and_closed_by_an_empty_line() {
        let text = block(&sample_report());
        let lines: Vec<&str> = text.split('\n').collect();
        assert_eq!(lines.first(), Some(&"gogui-gfx:"));
        // The directives, then the empty line, then nothing (the split's
        // last piece is what follows the final newline).
        assert_eq!(&lines[lines.len() - 2..], ["", ""]);
        let directives = &lines[1..lines.len() - 2];
        assert!(!directives.is_empty());
        assert!(directives.iter().all(|l| !l.trim().is_empty()), "{text}");
    }
}
