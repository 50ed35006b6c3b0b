//! What SGF text is read into and written from: the game as SGF describes
//! it, and why a file could not be read.

use std::fmt;

use crate::game::color::Color;
use crate::game::history::MAX_RECORD_ACTIONS;
use crate::game::vertex::{BoardSize, Move, Vertex};

/// Far more nodes than any game record holds (a heavily commented
/// professional game has a few thousand); the bound keeps a hostile file's
/// tree to some tens of megabytes.
pub const MAX_TREE_NODES: usize = 1_000_000;

/// A game as SGF describes it, reduced to what replaying it needs.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfGame {
    /// SZ, default 19: `SZ[19]` for a square, `SZ[9:7]` (columns:rows) for
    /// a rectangle; sides 2..=25 are accepted.
    pub size: BoardSize,
    /// KM.
    pub komi: Option<f64>,
    /// HA.
    pub handicap: Option<u32>,
    /// RU.
    pub rules: Option<String>,
    /// RE.
    pub result: Option<String>,
    /// The main line (first variation at every branch), in order.
    pub actions: Vec<SgfAction>,
}

impl Default for SgfGame {
    fn default() -> Self {
        SgfGame {
            size: BoardSize::square(19),
            komi: None,
            handicap: None,
            rules: None,
            result: None,
            actions: Vec::new(),
        }
    }
}

/// One step of the main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfAction {
    /// AB / AW / AE of one node, in the order black, white, empty.
    Setup(Vec<(Vertex, Option<Color>)>),
    /// PL.
    ToMove(Color),
    /// B / W: pass is `[]`, and `[tt]` on boards up to 19x19.
    Play(Color, Move),
}

/// Why a file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfError {
    /// No `(` anywhere: empty file, or not SGF at all.
    NoGameTree,
    /// The structure is broken: `unexpected` says what was found ("')'",
    /// "end of file", or "character" for anything but SGF's punctuation)
    /// at byte `offset` of the file.
    Syntax { unexpected: String, offset: usize },
    /// A property value that cannot be understood, such as `KM[abc]`.
    BadValue { property: String, value: String },
    /// SZ outside 2..=25, or not square.
    UnsupportedSize(String),
    /// A point that is not on the board (or not two letters).
    BadPoint { point: String, size: BoardSize },
    /// GM is not 1.
    NotGo(String),
    /// More setup points than [`MAX_SETUP_POINTS`]: `FF[4]` rectangles such as
    /// `AB[aa:yy]` would otherwise let a small file fill the memory.
    TooManySetupPoints,
    /// A main line of more than [`MAX_MAIN_LINE_ACTIONS`] moves and setups.
    MainLineTooLong,
    /// A game tree of more than [`MAX_TREE_NODES`] nodes.
    TreeTooLarge,
}

/// No real game comes near this many AB / AW / AE points (a full 25x25 board
/// is 625); at 3 bytes a point it bounds their memory to a few megabytes.
pub const MAX_SETUP_POINTS: usize = 1_000_000;

/// The game's own bound on its record: without it a 16 MB file of passes
/// would take gigabytes to replay.
pub const MAX_MAIN_LINE_ACTIONS: usize = MAX_RECORD_ACTIONS;

/// Values quoted in error messages are cut to this many characters: the text
/// comes from the file and may be huge or binary.
const QUOTE_LIMIT: usize = 20;

/// A value from the file, made safe to put in a one-line message.
pub(super) fn quote(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut quoted: String = text
        .chars()
        .take(QUOTE_LIMIT)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().count() > QUOTE_LIMIT {
        quoted.push_str("...");
    }
    quoted
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfError::NoGameTree => f.write_str("malformed SGF: no game tree"),
            SgfError::Syntax { unexpected, offset } => {
                write!(f, "malformed SGF: unexpected {unexpected} at byte {offset}")
            }
            SgfError::BadValue { property, value } => {
                write!(f, "malformed SGF: bad {property} '{value}'")
            }
            SgfError::UnsupportedSize(size) => write!(f, "unsupported board size {size}"),
            SgfError::BadPoint { point, size } => {
                write!(f, "bad point '{point}' for size {size}")
            }
            SgfError::NotGo(game) => write!(f, "not a Go game: GM[{game}]"),
            SgfError::TooManySetupPoints => {
                write!(
                    f,
                    "malformed SGF: more than {MAX_SETUP_POINTS} setup points"
                )
            }
            SgfError::MainLineTooLong => write!(
                f,
                "main line longer than {MAX_MAIN_LINE_ACTIONS} moves and setups"
            ),
            SgfError::TreeTooLarge => write!(f, "game tree larger than {MAX_TREE_NODES} nodes"),
        }
    }
}

impl std::error::Error for SgfError {}
