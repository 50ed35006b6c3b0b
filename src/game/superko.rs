//! The two superko rules that the formulations of Tromp-Taylor use, and the
//! rules in force as one line of text.
//!
//! - Positional (the default): no move may recreate any earlier colouring
//!   of the board, whoever was to move then. This is rule 5 of the concise
//!   "logical rules" and of most other formulations.
//! - Situational: the newsgroup text's rule 4, "a move not leaving a grid
//!   coloring left by that player before", which its comment 4 calls the
//!   situational superko rule. A turn by one player leaves the other to
//!   move, so "left by that player" is the same colouring with the same
//!   side to move; hane reads the start of the game and setup stones the
//!   same way, as positions with the side to move they had.
//!
//! The two differ only rarely: when a player recreates a colouring that so
//! far stood only with that player to move (a pass in between, or a
//! suicide that gives back the colouring the player faced).

use std::fmt;
use std::str::FromStr;

use super::color::Color;
use super::zobrist::to_move_key;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Superko {
    #[default]
    Positional,
    Situational,
}

impl Superko {
    /// What a position is remembered by for this rule, as a hash: the
    /// colouring's, and under situational superko the side to move's key
    /// with it. A hash only: the game confirms every hit on whole boards.
    pub fn key(self, coloring_hash: u64, to_move: Color) -> u64 {
        match self {
            Superko::Positional => coloring_hash,
            Superko::Situational => coloring_hash ^ to_move_key(to_move),
        }
    }
}

impl fmt::Display for Superko {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Superko::Positional => "positional",
            Superko::Situational => "situational",
        })
    }
}

impl FromStr for Superko {
    type Err = String;

    fn from_str(text: &str) -> Result<Superko, String> {
        match text {
            "positional" => Ok(Superko::Positional),
            "situational" => Ok(Superko::Situational),
            _ => Err("expected positional or situational".to_string()),
        }
    }
}
