//! A game under the Tromp-Taylor rules: the board, whose turn it is, komi,
//! the history of colorings for superko (positional, or situational as an
//! option: see `superko.rs`), and exact undo.
//!
//! Superko is exact. Every position the game has passed through is kept
//! (board and all), and the colorings are indexed by their Zobrist hash. A
//! move is a repetition only when its resulting colouring is *equal* to an
//! earlier one: a hash hit is confirmed by comparing the boards point by
//! point (and, under situational superko, by the side to move), so a hash
//! collision can never make a legal move illegal. Keeping
//! whole positions costs a byte a point per turn, a few hundred KiB for
//! a long 19x19 game, and makes undo a pop.

use std::collections::HashMap;
use std::fmt;

use super::board::{Board, MoveEffect};
use super::color::{Color, PerColor};
use super::rules::Rules;
use super::superko::Superko;
use super::vertex::{BoardSize, Move, Vertex};

/// No real game comes near this many moves and setups (a long 25x25 game
/// has a couple of thousand). Every position is kept for superko, about 700
/// bytes each on 25x25: the bound keeps a client or a file from growing the
/// record without end.
pub const MAX_RECORD_ACTIONS: usize = 10_000;

/// Why a move was refused. `Display` is the GTP text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    OffBoard,
    Occupied,
    /// The move would recreate an earlier colouring (this includes the
    /// simple ko recapture).
    Superko,
    /// The move would clear the mover's own string: a single stone under
    /// every rule, a larger string under rules that forbid suicide
    /// (`Rules::allow_suicide`).
    Suicide,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The spec has one text for every refused move.
        f.write_str("illegal move")
    }
}

/// Why setup stones were refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupError {
    OffBoard,
    /// A string would be left without liberties: not a position of the game.
    NoLiberties,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SetupError::OffBoard => "setup stone off the board",
            SetupError::NoLiberties => "setup leaves a string without liberties",
        })
    }
}

/// One step of the game record, as printed to SGF.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Stones put on or taken off by hand (handicap, SGF AB/AW/AE).
    Setup(Vec<(Vertex, Option<Color>)>),
    Move(Color, Move),
}

/// Everything that changes from one turn to the next; the game keeps one per
/// turn so that undo restores all of it exactly.
#[derive(Clone, Debug)]
struct Position {
    board: Board,
    to_move: Color,
    /// Stones each colour has captured (index by `Color::index`). A
    /// suicide's stones count as captured by the opponent.
    captures: PerColor<u32>,
    consecutive_passes: u32,
}

#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    /// `positions[0]` is the start of the game; `positions[i + 1]` follows
    /// `actions[i]`.
    positions: Vec<Position>,
    actions: Vec<Action>,
    /// Colouring hash -> indices into `positions` with that hash.
    colorings: HashMap<u64, Vec<usize>>,
}

impl Game {
    /// A new game on an empty board. Each side of `size` must lie in
    /// MIN_SIZE..=MAX_SIZE.
    pub fn new(size: impl Into<BoardSize>, komi: f64) -> Game {
        let size = size.into();
        assert!(size.is_playable(), "board size {size}");
        let start = Position {
            board: Board::new(size),
            to_move: Color::Black,
            captures: PerColor::default(),
            consecutive_passes: 0,
        };
        let mut colorings = HashMap::new();
        colorings.insert(start.board.hash(), vec![0]);
        Game {
            // -0 is 0: a record writes KM[0], not KM[-0].
            rules: Rules::default().with_komi(komi + 0.0),
            positions: vec![start],
            actions: Vec::new(),
            colorings,
        }
    }

    /// The same game under `superko`: it decides the moves from now on.
    pub fn with_superko(mut self, superko: Superko) -> Game {
        self.rules.superko = superko;
        self
    }

    /// The same game under `rules` (superko, suicide and komi): they
    /// decide the moves and the count from now on.
    pub fn with_rules(mut self, rules: Rules) -> Game {
        self.rules = rules;
        self
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn superko(&self) -> Superko {
        self.rules.superko
    }

    pub fn size(&self) -> BoardSize {
        self.board().size()
    }

    pub fn komi(&self) -> f64 {
        self.rules.komi
    }

    /// Sets komi; negative zero (`komi -0`) is kept as zero, so that no
    /// output (the record's KM, say) shows `-0`.
    pub fn set_komi(&mut self, komi: f64) {
        self.rules.komi = komi + 0.0;
    }

    pub fn board(&self) -> &Board {
        &self.current().board
    }

    /// The side to move right after `actions()[index]`.
    pub fn to_move_after(&self, index: usize) -> Color {
        self.positions[index + 1].to_move
    }

    pub fn to_move(&self) -> Color {
        self.current().to_move
    }

    /// Stones `color` has captured so far.
    pub fn captures(&self, color: Color) -> u32 {
        self.current().captures[color]
    }

    /// Two consecutive passes end the game.
    pub fn is_over(&self) -> bool {
        self.current().consecutive_passes >= 2
    }

    pub fn consecutive_passes(&self) -> u32 {
        self.current().consecutive_passes
    }

    /// The record of the game: setup and moves in order.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The moves played, oldest first (setup stones are not moves).
    pub fn moves(&self) -> impl Iterator<Item = (Color, Move)> + '_ {
        self.actions.iter().filter_map(|a| match a {
            Action::Move(c, m) => Some((*c, *m)),
            Action::Setup(_) => None,
        })
    }

    pub fn last_move(&self) -> Option<(Color, Move)> {
        match self.actions.last() {
            Some(Action::Move(c, m)) => Some((*c, *m)),
            _ => None,
        }
    }

    /// The superko keys (`Superko::key`) of every position of this game: a
    /// move that leads to a position with one of them is a repetition.
    /// (Hashes only: the search uses them as a filter; the game confirms
    /// every real move exactly.)
    pub fn superko_keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.positions
            .iter()
            .map(|p| self.rules.superko.key(p.board.hash(), p.to_move))
    }

    /// Whether `color` may play `mv` now. A pass is always legal.
    pub fn is_legal(&self, color: Color, mv: Move) -> bool {
        self.try_move(color, mv).is_ok()
    }

    /// Every vertex where `color` may play now, row by row from the bottom.
    pub fn legal_vertices(&self, color: Color) -> Vec<Vertex> {
        Vertex::all(self.size())
            .filter(|&v| self.is_legal(color, Move::Play(v)))
            .collect()
    }

    /// Plays a move for `color` (who need not be the side to move: GTP lets a
    /// colour play twice). On error nothing changes.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<MoveEffect, IllegalMove> {
        let (position, effect) = self.try_move(color, mv)?;
        self.push(position, Action::Move(color, mv));
        Ok(effect)
    }

    /// Plays a move as a record gives it, even where the rules in force
    /// forbid it but the board can take it: a repetition, or a suicide
    /// under rules without suicide (KataGo replays a query's moves so).
    /// Ok with the rule the move broke, if any; a move off the board, onto
    /// a stone, or a one-stone suicide (which changes nothing on the board)
    /// is refused as `play` refuses it.
    pub fn play_as_given(
        &mut self,
        color: Color,
        mv: Move,
    ) -> Result<Option<IllegalMove>, IllegalMove> {
        let (next, effect) = self.next_position(color, mv)?;
        let broken = self.check_rules(mv, &next, &effect).err();
        if broken.is_some() && next.board == self.current().board {
            return Err(IllegalMove::Superko);
        }
        self.push(next, Action::Move(color, mv));
        Ok(broken)
    }

    /// Takes back the last move. Setup stones are not moves: undo stops at
    /// them, as it stops at the start of the game.
    pub fn undo(&mut self) -> Result<(), CannotUndo> {
        match self.actions.last() {
            Some(Action::Move(..)) => {
                self.pop();
                Ok(())
            }
            _ => Err(CannotUndo),
        }
    }

    /// Puts stones on or takes them off the board by hand. Black is to move
    /// afterwards unless the caller says otherwise with `set_to_move`.
    pub fn setup(&mut self, stones: &[(Vertex, Option<Color>)]) -> Result<(), SetupError> {
        let mut position = self.current().clone();
        for &(vertex, color) in stones {
            if !position.board.is_on_board(vertex) {
                return Err(SetupError::OffBoard);
            }
            position.board.set(vertex, color);
        }
        if !position.board.every_string_reaches_empty() {
            return Err(SetupError::NoLiberties);
        }
        // Setup stones may give back an earlier colouring: superko
        // restricts moves, and SGF's AB/AW/AE overwrite what was there
        // (FF[4] setup properties); `(;B[ee];AE[ee])` is a record of
        // the empty board again.
        position.consecutive_passes = 0;
        self.push(position, Action::Setup(stones.to_vec()));
        Ok(())
    }

    /// Whose turn it is, set by hand (SGF `PL`, or after handicap stones).
    pub fn set_to_move(&mut self, color: Color) {
        if let Some(position) = self.positions.last_mut() {
            position.to_move = color;
        }
    }

    /// The Tromp-Taylor result of the board as it stands: Black's area minus
    /// White's area minus komi. Positive means Black wins.
    pub fn score(&self) -> f64 {
        let area = self.board().area();
        area[Color::Black] as f64 - area[Color::White] as f64 - self.rules.komi
    }

    fn current(&self) -> &Position {
        // The start position is never popped, so there is always one.
        &self.positions[self.positions.len() - 1]
    }

    fn try_move(&self, color: Color, mv: Move) -> Result<(Position, MoveEffect), IllegalMove> {
        let (next, effect) = self.next_position(color, mv)?;
        self.check_rules(mv, &next, &effect)?;
        Ok((next, effect))
    }

    /// The position after `color` plays `mv`, if the board can take the
    /// move at all; the suicide and superko rules are `check_rules`'.
    fn next_position(&self, color: Color, mv: Move) -> Result<(Position, MoveEffect), IllegalMove> {
        let current = self.current();
        let mut next = current.clone();
        next.to_move = color.opponent();
        let vertex = match mv {
            Move::Pass => {
                next.consecutive_passes += 1;
                return Ok((next, MoveEffect::default()));
            }
            Move::Play(vertex) => vertex,
        };
        if !current.board.is_on_board(vertex) {
            return Err(IllegalMove::OffBoard);
        }
        if current.board.get(vertex).is_some() {
            return Err(IllegalMove::Occupied);
        }
        let effect = next.board.play(color, vertex);
        next.captures[color] += effect.captured.len() as u32;
        next.captures[color.opponent()] += effect.suicided.len() as u32;
        next.consecutive_passes = 0;
        Ok((next, effect))
    }

    /// Whether the rules in force allow the move `mv` that led to `next`:
    /// a pass always; a stone unless it is a suicide under rules without
    /// suicide, or recreates an earlier colouring (superko).
    fn check_rules(
        &self,
        mv: Move,
        next: &Position,
        effect: &MoveEffect,
    ) -> Result<(), IllegalMove> {
        if mv == Move::Pass {
            return Ok(());
        }
        if !self.rules.allow_suicide && !effect.suicided.is_empty() {
            return Err(IllegalMove::Suicide);
        }
        // A one-stone suicide changes nothing but the turn. Every rule set
        // hane offers forbids it: positional superko as a repetition, and
        // KataGo's rules, whose multiStoneSuicideLegal allows only a
        // suicide of several stones. Situational superko alone would let
        // it through (the colouring with the other side to move may be
        // new), so it is refused here for every rule.
        if effect.suicided.len() == 1 {
            return Err(IllegalMove::Suicide);
        }
        let situation = match self.rules.superko {
            Superko::Positional => None,
            Superko::Situational => Some(next.to_move),
        };
        if self.is_repetition(&next.board, situation) {
            return Err(IllegalMove::Superko);
        }
        Ok(())
    }

    /// Whether this colouring occurred earlier in the game, with `to_move`
    /// to move when given (situational superko), with anyone to move when
    /// not: a hash hit is confirmed against the stored position.
    fn is_repetition(&self, board: &Board, to_move: Option<Color>) -> bool {
        self.colorings.get(&board.hash()).is_some_and(|indices| {
            indices.iter().any(|&i| {
                let earlier = &self.positions[i];
                earlier.board == *board && to_move.is_none_or(|c| earlier.to_move == c)
            })
        })
    }

    fn push(&mut self, position: Position, action: Action) {
        let index = self.positions.len();
        self.colorings
            .entry(position.board.hash())
            .or_default()
            .push(index);
        self.positions.push(position);
        self.actions.push(action);
    }

    fn pop(&mut self) {
        let index = self.positions.len() - 1;
        if let Some(position) = self.positions.pop() {
            let hash = position.board.hash();
            if let Some(indices) = self.colorings.get_mut(&hash) {
                indices.retain(|&i| i != index);
                if indices.is_empty() {
                    self.colorings.remove(&hash);
                }
            }
        }
        self.actions.pop();
    }
}

/// `undo` with no move to take back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CannotUndo;

impl fmt::Display for CannotUndo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("cannot undo")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vertex {
        Vertex::parse_gtp(s).unwrap()
    }

    fn play(game: &mut Game, color: Color, s: &str) {
        let mv = if s == "pass" {
            Move::Pass
        } else {
            Move::Play(v(s))
        };
        game.play(color, mv).unwrap();
    }

    #[test]
    fn simple_ko_recapture_is_superko() {
        use Color::{Black as B, White as W};
        let mut game = Game::new(5, 0.0);
        for (c, s) in [
            (B, "B3"),
            (W, "C3"),
            (B, "A2"),
            (W, "D2"),
            (B, "B1"),
            (W, "C1"),
            (B, "C2"),
        ] {
            play(&mut game, c, s);
        }
        // White B2 captures C2; Black C2 retaking would recreate the position.
        play(&mut game, W, "B2");
        assert_eq!(game.board().get(v("C2")), None);
        assert_eq!(game.captures(W), 1);
        assert_eq!(game.play(B, Move::Play(v("C2"))), Err(IllegalMove::Superko));
        play(&mut game, B, "E5");
        play(&mut game, W, "E4");
        assert!(game.is_legal(B, Move::Play(v("C2"))));
    }

    #[test]
    fn one_stone_suicide_is_illegal_and_multi_stone_suicide_legal() {
        use Color::{Black as B, White as W};
        let mut game = Game::new(3, 0.0);
        play(&mut game, B, "B1");
        play(&mut game, B, "A2");
        let before = game.board().clone();
        assert_eq!(game.play(W, Move::Play(v("A1"))), Err(IllegalMove::Suicide));
        assert_eq!(game.board(), &before);
        // Under situational superko too: the colouring with Black to move
        // after it is new, yet the move changes nothing but the turn, and
        // every rule set hane offers forbids it (README, KataGo's rules).
        let mut game = Game::new(3, 0.0).with_superko(Superko::Situational);
        play(&mut game, B, "B1");
        play(&mut game, B, "A2");
        assert!(!game.is_legal(W, Move::Play(v("A1"))));
        assert_eq!(game.play(W, Move::Play(v("A1"))), Err(IllegalMove::Suicide));
        assert_eq!(
            game.play_as_given(W, Move::Play(v("A1"))),
            Err(IllegalMove::Superko)
        );

        let mut game = Game::new(3, 0.0);
        for (c, s) in [
            (W, "B1"),
            (W, "B2"),
            (W, "B3"),
            (B, "A1"),
            (W, "C3"),
            (B, "A2"),
            (W, "C1"),
        ] {
            play(&mut game, c, s);
        }
        let effect = game.play(B, Move::Play(v("A3"))).unwrap();
        assert_eq!(effect.suicided.len(), 3);
        assert_eq!(game.captures(W), 3);
        assert_eq!(game.board().stones(B), vec![]);
        assert_eq!(game.score(), -9.0);
    }

    #[test]
    fn a_suicide_that_recreates_a_coloring_is_illegal() {
        use Color::{Black as B, White as W};
        let mut game = Game::new(3, 0.0);
        for (c, s) in [(W, "B1"), (W, "B2"), (W, "B3"), (B, "A1"), (B, "A2")] {
            play(&mut game, c, s);
        }
        // Clearing A1-A3 would leave the colouring after White's B3.
        assert_eq!(game.play(B, Move::Play(v("A3"))), Err(IllegalMove::Superko));
    }

    #[test]
    fn situational_superko_allows_the_suicide_that_positional_refuses() {
        use Color::{Black as B, White as W};
        for (superko, allowed) in [(Superko::Positional, false), (Superko::Situational, true)] {
            let mut game = Game::new(5, 0.0).with_superko(superko);
            // White's two-point eye A1-B1 behind a wall with liberties
            // outside; Black fills A1, White passes.
            for (c, s) in [
                (B, "E5"),
                (W, "A2"),
                (B, "E4"),
                (W, "B2"),
                (B, "D5"),
                (W, "C2"),
                (B, "E3"),
                (W, "C1"),
            ] {
                play(&mut game, c, s);
            }
            let faced = game.board().clone();
            play(&mut game, B, "A1");
            play(&mut game, W, "pass");
            // B1 clears A1 and B1: the colouring Black faced before A1,
            // which stood only with Black to move.
            assert_eq!(game.is_legal(B, Move::Play(v("B1"))), allowed, "{superko}");
            if allowed {
                play(&mut game, B, "B1");
                assert_eq!(game.board(), &faced);
                assert_eq!(game.captures(W), 2);
            }
            // The simple ko recapture repeats a situation too: both refuse it.
            let mut game = Game::new(5, 0.0).with_superko(superko);
            for (c, s) in [
                (B, "B3"),
                (W, "C3"),
                (B, "A2"),
                (W, "D2"),
                (B, "B1"),
                (W, "C1"),
                (B, "C2"),
                (W, "B2"),
            ] {
                play(&mut game, c, s);
            }
            assert_eq!(game.play(B, Move::Play(v("C2"))), Err(IllegalMove::Superko));
        }
    }

    #[test]
    fn a_move_played_as_given_may_break_superko_and_the_suicide_rule() {
        use Color::{Black as B, White as W};
        // On 2x2, Black's A1 at the end takes three stones and gives back
        // the board after the first move.
        let mut game = Game::new(2, 0.0);
        for (c, s) in [
            (B, "A1"),
            (W, "B1"),
            (B, "A2"),
            (W, "B2"),
            (B, "A1"),
            (W, "A2"),
        ] {
            play(&mut game, c, s);
        }
        assert_eq!(game.play(B, Move::Play(v("A1"))), Err(IllegalMove::Superko));
        assert_eq!(
            game.play_as_given(B, Move::Play(v("A1"))),
            Ok(Some(IllegalMove::Superko))
        );
        assert_eq!(game.board().stones(B), vec![v("A1")]);
        assert_eq!(game.to_move(), W);
        assert_eq!(
            game.play_as_given(W, Move::Play(v("A1"))),
            Err(IllegalMove::Occupied)
        );
        assert_eq!(game.play_as_given(W, Move::Pass), Ok(None));
        // A two-stone suicide under rules without suicide; a one-stone
        // suicide changes nothing and is never a move.
        let mut game = Game::new(3, 0.0).with_rules(Rules {
            allow_suicide: false,
            ..Rules::default()
        });
        for (c, s) in [(W, "A2"), (W, "B2"), (W, "C1"), (B, "A1")] {
            play(&mut game, c, s);
        }
        assert_eq!(
            game.play_as_given(B, Move::Play(v("B1"))),
            Ok(Some(IllegalMove::Suicide))
        );
        assert_eq!(game.board().stones(B), vec![]);
        assert_eq!(game.captures(W), 2);
        // A1 again gives back the board before Black's first A1.
        assert_eq!(
            game.play_as_given(B, Move::Play(v("A1"))),
            Ok(Some(IllegalMove::Superko))
        );
        play(&mut game, W, "B1");
        let before = game.board().clone();
        assert_eq!(game.play_as_given(B, Move::Play(v("C2"))), Ok(None));
        game.undo().unwrap();
        assert_eq!(game.board(), &before);
        // Black's A1 is gone (B1 took it); a lone black stone at A1 would
        // have no liberty.
        assert_eq!(
            game.play_as_given(B, Move::Play(v("A1"))),
            Err(IllegalMove::Superko)
        );
    }

    #[test]
    fn undo_restores_everything() {
        use Color::{Black as B, White as W};
        let mut game = Game::new(9, 7.5);
        let start = game.clone();
        play(&mut game, B, "E5");
        play(&mut game, W, "pass");
        game.undo().unwrap();
        game.undo().unwrap();
        assert_eq!(game.undo(), Err(CannotUndo));
        assert_eq!(game.board(), start.board());
        assert_eq!(game.to_move(), B);
        assert_eq!(game.colorings, start.colorings);
    }
}
