//! The commands that set up or change the game and its clock: the board,
//! the komi, moves and undo, the handicap, SGF files, the rules and the
//! time controls. Each validates, then applies, so that a refused command
//! changes nothing.

use std::path::Path;

use log::{info, warn};

use super::position::vertex_list;
use super::Engine;
use crate::frontend::{open_for_writing, read_sgf_file, write_over, RulesObject};
use crate::game::sgf;
use crate::game::{
    fixed_handicap_vertices, free_handicap_vertices, Action, BoardSize, Color, Game, Move, Vertex,
    MAX_RECORD_ACTIONS,
};
use crate::gtp::command::KgsTimeSystem;
use crate::gtp::response::Reply;
use crate::player::TimeControl;

impl Engine {
    pub(super) fn new_game(&mut self, size: BoardSize) {
        self.game = self.empty_board(size);
        self.handicap = None;
        // Same time settings, both clocks full again.
        self.clock.new_game();
    }

    /// `boardsize N`, or a `width` x `height` rectangle (`boardsize W H`,
    /// `rectangular_boardsize W H`): each side 2..=25, else the spec's
    /// error and the game is left as it was.
    pub(super) fn boardsize(&mut self, width: u64, height: u64) -> Reply {
        let side = |n: u64| usize::try_from(n).ok();
        let size = side(width)
            .zip(side(height))
            .and_then(|(width, height)| BoardSize::new(width, height))
            .ok_or("unacceptable size")?;
        self.new_game(size);
        Ok(String::new())
    }

    /// `play`: a vertex that is written well but lies off this board
    /// (`play b Z9` on 19x19, K9 on 9x9) is refused in GNU Go's words,
    /// `invalid color or coordinate`, as its own error rather than the
    /// spec's `illegal move`, which would say the point is on the board.
    pub(super) fn play(&mut self, color: Color, mv: Move) -> Reply {
        if let Move::Play(vertex) = mv {
            if !self.game.board().is_on_board(vertex) {
                return Err("invalid color or coordinate".into());
            }
        }
        self.check_record_room()?;
        self.game
            .play(color, mv)
            .map(|_| String::new())
            .map_err(|e| e.to_string())
    }

    pub(super) fn undo(&mut self) -> Reply {
        self.game
            .undo()
            .map(|()| String::new())
            .map_err(|e| e.to_string())
    }

    /// Every move is kept for superko and undo; a client that plays on
    /// without end is refused once the record is full.
    pub(super) fn check_record_room(&self) -> Result<(), String> {
        if self.game.actions().len() >= MAX_RECORD_ACTIONS {
            return Err(format!("game record full ({MAX_RECORD_ACTIONS} moves)"));
        }
        Ok(())
    }

    fn check_handicap_allowed(&self) -> Result<(), String> {
        if !self.game.board().is_empty()
            || self
                .game
                .actions()
                .iter()
                .any(|a| matches!(a, Action::Setup(_)))
        {
            return Err("board not empty".into());
        }
        // A setup is an action of the record like a move: the bound that
        // lets hane reload its own printsgf applies to it too.
        self.check_record_room()
    }

    pub(super) fn fixed_handicap(&mut self, stones: u64) -> Reply {
        self.check_handicap_allowed()?;
        if !self.game.size().is_square() {
            // The spec places fixed handicap stones on square boards only;
            // place_free_handicap serves a rectangle.
            return Err("fixed handicap is defined only for square boards".into());
        }
        let vertices = usize::try_from(stones)
            .ok()
            .and_then(|n| fixed_handicap_vertices(self.game.size(), n))
            .ok_or("invalid number of stones")?;
        self.place_handicap(&vertices)
    }

    pub(super) fn place_free_handicap(&mut self, stones: u64) -> Reply {
        self.check_handicap_allowed()?;
        let size = self.game.size();
        if stones < 2 || stones >= size.points() as u64 {
            return Err("invalid number of stones".into());
        }
        let vertices = free_handicap_vertices(size, stones as usize);
        self.place_handicap(&vertices)
    }

    pub(super) fn set_free_handicap(&mut self, vertices: &[Vertex]) -> Reply {
        self.check_handicap_allowed()?;
        let size = self.game.size();
        let mut sorted = vertices.to_vec();
        sorted.sort();
        sorted.dedup();
        let valid = vertices.len() >= 2
            && vertices.len() < size.points()
            && sorted.len() == vertices.len()
            && vertices.iter().all(|v| v.is_on_board(size));
        if !valid {
            return Err("bad vertex list".into());
        }
        // The spec gives set_free_handicap no output.
        self.place_handicap(vertices).map(|_| String::new())
    }

    /// Puts Black's handicap stones on the empty board; White moves next.
    fn place_handicap(&mut self, vertices: &[Vertex]) -> Reply {
        let stones: Vec<(Vertex, Option<Color>)> =
            vertices.iter().map(|&v| (v, Some(Color::Black))).collect();
        let mut game = self.game.clone();
        game.setup(&stones)
            .map_err(|_| "bad vertex list".to_string())?;
        game.set_to_move(Color::White);
        self.game = game;
        self.handicap = Some(vertices.len() as u32);
        Ok(vertex_list(vertices))
    }

    pub(super) fn loadsgf(&mut self, path: &str, move_number: Option<u64>) -> Reply {
        let loaded = read_sgf_file(Path::new(path)).and_then(|bytes: Vec<u8>| {
            let record = sgf::parse(&bytes).map_err(|e| e.to_string())?;
            let game = Game::from_sgf(&record, move_number, self.game.komi(), self.rules.superko)
                .map_err(|e| e.to_string())?;
            let komi = game.komi();
            let game = game.with_rules(self.rules.with_komi(komi));
            Ok((record, game))
        });
        match loaded {
            Ok((record, game)) => {
                self.handicap = record.handicap;
                let to_move = game.to_move();
                self.game = game;
                Ok(to_move.to_string())
            }
            Err(reason) => {
                warn!("loadsgf {path}: {reason}");
                Err(format!("cannot load file ({reason})"))
            }
        }
    }

    pub(super) fn printsgf(&self, path: Option<&str>) -> Reply {
        let text = sgf::write(&self.game.to_sgf(self.handicap));
        match path {
            None => Ok(text),
            Some(path) => write_sgf_file(path, &text)
                .map(|()| String::new())
                .map_err(|e| format!("cannot write file ({e})")),
        }
    }

    /// `kata-set-rules`: Tromp-Taylor under either superko rule, with or
    /// without suicide, which then decides the moves from now on (the
    /// position and the komi stay); any other rules are refused with what
    /// differs, and change nothing.
    pub(super) fn set_rules(&mut self, text: &str) -> Reply {
        let asked =
            RulesObject::parse(text).map_err(|why| format!("unknown rules '{text}', {why}"))?;
        let rules = asked
            .played(self.game.komi())
            .map_err(|why| format!("rules hane does not play: {why}"))?;
        if rules != self.game.rules() {
            self.rules = rules;
            self.game = self.game.clone().with_rules(rules);
            // The kept tree marked moves illegal under the old rules.
            self.player.clear();
            info!("rules now {rules}");
        }
        Ok(String::new())
    }

    /// `time_settings` and `kgs-time_settings`: the same control for both
    /// colours, both clocks full.
    pub(super) fn set_time_control(&mut self, control: TimeControl) -> Reply {
        self.clock.set_control(control);
        Ok(String::new())
    }

    pub(super) fn time_left(&mut self, color: Color, seconds: f64, stones: u64) -> Reply {
        self.clock.time_left(color, seconds, stones);
        Ok(String::new())
    }
}

/// KGS's time systems as the clock's controls.
pub(super) fn kgs_time_control(system: KgsTimeSystem) -> TimeControl {
    match system {
        KgsTimeSystem::None => TimeControl::kgs_none(),
        KgsTimeSystem::Absolute { main_time } => TimeControl::kgs_absolute(main_time),
        KgsTimeSystem::Byoyomi {
            main_time,
            period_time,
            periods,
        } => TimeControl::kgs_byoyomi(main_time, period_time, periods),
        KgsTimeSystem::Canadian {
            main_time,
            period_time,
            stones,
        } => TimeControl::kgs_canadian(main_time, period_time, stones),
    }
}

/// Writes a game record to `path`, refusing anything but a regular file: a
/// device is no place for a record, and a FIFO no one reads is refused
/// rather than waited on.
fn write_sgf_file(path: &str, text: &str) -> Result<(), String> {
    let mut file = open_for_writing(Path::new(path)).map_err(|e| e.to_string())?;
    if !file.metadata().map_err(|e| e.to_string())?.is_file() {
        return Err("not a regular file".into());
    }
    write_over(&mut file, text.as_bytes()).map_err(|e| e.to_string())
}
