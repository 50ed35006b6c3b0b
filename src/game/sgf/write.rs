//! From an [`SgfGame`] to FF[4] text that GoGui and Sabaki read.

use std::fmt::Write;

use super::types::{SgfAction, SgfGame};
use crate::game::color::Color;
use crate::game::vertex::{BoardSize, Move, Vertex};

/// Moves per line of output, to keep files readable in a text editor.
const MOVES_PER_LINE: usize = 10;

/// Writes the game as one `FF[4]` game tree: the root holds the game
/// information and the setup (and PL) that comes before anything else, then
/// one node per move, or per later setup. What [`super::read::parse`] returns is
/// written so that it parses back equal.
pub fn write(game: &SgfGame) -> String {
    let mut out = String::new();
    out.push_str("(;FF[4]GM[1]CA[UTF-8]");
    let _ = write!(out, "AP[hane:{}]", env!("CARGO_PKG_VERSION"));
    // FF[4] writes a square as one number and a rectangle as columns:rows.
    let BoardSize { width, height } = game.size;
    if game.size.is_square() {
        let _ = write!(out, "SZ[{width}]");
    } else {
        let _ = write!(out, "SZ[{width}:{height}]");
    }
    if let Some(komi) = game.komi.filter(|k| k.is_finite()) {
        // f64's Display gives `7.5`, `7`, `-3.5`, never an exponent; and
        // `-0` for negative zero, which adding zero turns into `0`.
        let _ = write!(out, "KM[{}]", komi + 0.0);
    }
    text_property(&mut out, "RU", game.rules.as_deref());
    if let Some(handicap) = game.handicap {
        let _ = write!(out, "HA[{handicap}]");
    }
    text_property(&mut out, "RE", game.result.as_deref());

    let mut actions = game.actions.as_slice();
    // The root takes one setup and one PL, as a later node would.
    actions = setup_node(&mut out, game.size, actions);
    out.push('\n');
    let mut moves_on_line = 0;
    while let Some((action, rest)) = actions.split_first() {
        match action {
            SgfAction::Play(color, a_move) => {
                let _ = write!(out, ";{}[", color.letter());
                if let Move::Play(vertex) = a_move {
                    point(&mut out, game.size, *vertex);
                }
                out.push(']');
                actions = rest;
                moves_on_line += 1;
                if moves_on_line == MOVES_PER_LINE {
                    out.push('\n');
                    moves_on_line = 0;
                }
            }
            SgfAction::Setup(_) | SgfAction::ToMove(_) => {
                out.push(';');
                actions = setup_node(&mut out, game.size, actions);
            }
        }
    }
    out.push_str(")\n");
    out
}

/// Writes the properties of one setup node from the front of `actions`: at
/// most one non-empty Setup, then at most one ToMove, the way the reader
/// splits a node. Returns the actions left.
fn setup_node<'a>(
    out: &mut String,
    size: BoardSize,
    mut actions: &'a [SgfAction],
) -> &'a [SgfAction] {
    if let Some((SgfAction::Setup(stones), rest)) = actions.split_first() {
        for (ident, color) in [
            ("AB", Some(Color::Black)),
            ("AW", Some(Color::White)),
            ("AE", None),
        ] {
            let mut points = stones.iter().filter(|(_, c)| *c == color).peekable();
            if points.peek().is_none() {
                continue;
            }
            out.push_str(ident);
            for (vertex, _) in points {
                out.push('[');
                point(out, size, *vertex);
                out.push(']');
            }
        }
        actions = rest;
    }
    if let Some((SgfAction::ToMove(color), rest)) = actions.split_first() {
        let _ = write!(out, "PL[{}]", color.letter());
        actions = rest;
    }
    actions
}

/// `aa` is the top-left corner.
pub(super) fn point(out: &mut String, size: BoardSize, vertex: Vertex) {
    let x = b'a'.saturating_add(vertex.col);
    let y = b'a'.saturating_add(size.height.saturating_sub(1 + vertex.row as usize) as u8);
    out.push(x as char);
    out.push(y as char);
}

/// SimpleText with `]` and `\` escaped; line breaks are written as spaces,
/// which is what a reader makes of them anyway. Empty text is left out.
fn text_property(out: &mut String, ident: &str, text: Option<&str>) {
    let Some(text) = text.filter(|t| !t.is_empty()) else {
        return;
    };
    out.push_str(ident);
    out.push('[');
    for c in text.chars() {
        match c {
            ']' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_ascii_whitespace() || c == '\u{0b}' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push(']');
}
