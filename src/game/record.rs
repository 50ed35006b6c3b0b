//! The game record beside SGF's description of it ([`SgfGame`]): a game
//! replayed from a file's main line, a game written out for `printsgf`, and
//! the result as both SGF and GTP write it.

use std::fmt;

use super::color::Color;
use super::history::{Action, Game, IllegalMove, SetupError};
use super::sgf::{SgfAction, SgfGame};
use super::superko::Superko;
use super::vertex::{BoardSize, Move};

/// Why an SGF main line does not replay as a game. `Display` is the text
/// `loadsgf` reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ReplayError {
    UnsupportedSize(BoardSize),
    Setup(SetupError),
    /// The move numbered `number` (from 1) is not legal.
    IllegalMove {
        color: Color,
        mv: Move,
        number: u64,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::UnsupportedSize(size) => write!(f, "unsupported board size {size}"),
            ReplayError::Setup(error) => error.fmt(f),
            ReplayError::IllegalMove { color, mv, number } => {
                write!(f, "illegal move {} {mv} at move {number}", color.letter())
            }
        }
    }
}

impl Game {
    /// Replays an SGF main line into a new game, up to (not including) move
    /// `move_number` when given. Komi comes from the file, else is `komi`.
    /// After handicap stones (HA of 2 or more) White moves first. The moves
    /// are replayed under `superko`, the rules in force, whatever the file's
    /// RU says: RU is free text, and the engine plays by its own rules.
    pub fn from_sgf(
        record: &SgfGame,
        move_number: Option<u64>,
        komi: f64,
        superko: Superko,
    ) -> Result<Game, ReplayError> {
        let mut game = Game::for_sgf(record, komi, superko)?;
        let mut moves_played = 0u64;
        for action in &record.actions {
            if let SgfAction::Play(color, _) = action {
                if move_number.is_some_and(|n| moves_played + 1 >= n) {
                    // Move N is the next to play, by its own colour
                    // (GNU Go's answer too), even where one colour
                    // moved twice in a row before it.
                    game.set_to_move(*color);
                    break;
                }
            }
            game.replay_sgf_action(action, record.handicap, &mut moves_played)?;
        }
        Ok(game)
    }

    /// The empty game an SGF record starts from: its size, and its komi or
    /// else `komi`. For replaying a record action by action.
    pub fn for_sgf(record: &SgfGame, komi: f64, superko: Superko) -> Result<Game, ReplayError> {
        if !record.size.is_playable() {
            return Err(ReplayError::UnsupportedSize(record.size));
        }
        Ok(Game::new(record.size, record.komi.unwrap_or(komi)).with_superko(superko))
    }

    /// Applies one action of an SGF main line as `from_sgf` does, in a game
    /// of `handicap` stones; `moves_played` counts the moves, for the
    /// number an illegal one is reported with.
    pub fn replay_sgf_action(
        &mut self,
        action: &SgfAction,
        handicap: Option<u32>,
        moves_played: &mut u64,
    ) -> Result<(), ReplayError> {
        match action {
            SgfAction::Setup(stones) => {
                self.setup(stones).map_err(ReplayError::Setup)?;
                if handicap.is_some_and(|h| h > 1) && self.moves().next().is_none() {
                    self.set_to_move(Color::White);
                }
            }
            SgfAction::ToMove(color) => self.set_to_move(*color),
            SgfAction::Play(color, mv) => {
                self.play(*color, *mv)
                    .map_err(|_| ReplayError::IllegalMove {
                        color: *color,
                        mv: *mv,
                        number: *moves_played + 1,
                    })?;
                *moves_played += 1;
            }
        }
        Ok(())
    }

    /// `replay_sgf_action`, but a move that breaks only the rules in force
    /// (a repetition superko forbids, a suicide they forbid) is played as
    /// given, as `hane analysis` replays a query's moves in KataGo's way;
    /// the rule it broke comes back. A move the board cannot take (onto a
    /// stone, a one-stone suicide) is refused all the same.
    pub fn replay_sgf_action_as_given(
        &mut self,
        action: &SgfAction,
        handicap: Option<u32>,
        moves_played: &mut u64,
    ) -> Result<Option<IllegalMove>, ReplayError> {
        let SgfAction::Play(color, mv) = *action else {
            return self
                .replay_sgf_action(action, handicap, moves_played)
                .map(|()| None);
        };
        let broken = self
            .play_as_given(color, mv)
            .map_err(|_| ReplayError::IllegalMove {
                color,
                mv,
                number: *moves_played + 1,
            })?;
        *moves_played += 1;
        Ok(broken)
    }

    /// The game as SGF describes it, under the Tromp-Taylor rules with this
    /// game's superko and suicide option (RU, `Rules`' text), with its result once two passes
    /// ended it. `handicap` is the number of
    /// handicap stones (HA); their setup is followed by White to move.
    pub fn to_sgf(&self, handicap: Option<u32>) -> SgfGame {
        let mut actions = Vec::new();
        // The side to move a reader infers (`from_sgf`'s rules): Black at
        // the start, White after a handicap setup before any move, the
        // opponent after a move. PL is written where the game differs, and
        // only there, so that reading the record back gives the same side.
        let mut implied = Color::Black;
        let mut moved = false;
        for (index, action) in self.actions().iter().enumerate() {
            match action {
                Action::Setup(stones) => {
                    actions.push(SgfAction::Setup(stones.clone()));
                    if handicap.is_some_and(|h| h > 1) && !moved {
                        implied = Color::White;
                    }
                }
                Action::Move(color, mv) => {
                    actions.push(SgfAction::Play(*color, *mv));
                    implied = color.opponent();
                    moved = true;
                }
            }
            let actual = self.to_move_after(index);
            if actual != implied {
                actions.push(SgfAction::ToMove(actual));
                implied = actual;
            }
        }
        SgfGame {
            size: self.size(),
            komi: Some(self.komi()),
            handicap,
            rules: Some(self.rules().to_string()),
            result: self.is_over().then(|| result_text(self.score())),
            actions,
        }
    }
}

/// `B+3.5`, `W+7` or `0`, from Black's margin: a result as SGF's `RE` and
/// GTP's `final_score` write it.
pub fn result_text(black_margin: f64) -> String {
    if black_margin > 0.0 {
        format!("B+{}", shortest_decimal(black_margin))
    } else if black_margin < 0.0 {
        format!("W+{}", shortest_decimal(-black_margin))
    } else {
        "0".into()
    }
}

/// The margin with the fewest decimals that stays within the rounding of
/// the count's subtraction: the area difference is whole and the komi a
/// short decimal, but `81 - 80.8` in binary floating point is
/// 0.20000000000000284, which is the komi's decimals plus noise, not a
/// finer result. Every margin lies within ±1900 (25x25, komi within
/// `MAX_KOMI`), where that noise stays under 1e-12.
fn shortest_decimal(margin: f64) -> String {
    const NOISE: f64 = 1e-12;
    (0..=12)
        .map(|decimals| format!("{margin:.decimals$}"))
        .find(|text| {
            text.parse::<f64>()
                .is_ok_and(|m| (m - margin).abs() <= NOISE)
        })
        .unwrap_or_else(|| margin.to_string())
}
