//! The GTP engine: owns the game and the player and answers one typed
//! command at a time. A command either succeeds and changes the state, or
//! fails and changes nothing: every command validates first, then applies.

use std::io::Read;
use std::sync::atomic::AtomicBool;

use log::{info, warn};

use super::command::{Command, KgsTimeSystem, StoneStatus, COMMAND_NAMES};
use super::response::Reply;
use crate::game::sgf::{self, SgfAction, SgfGame};
use crate::game::{fixed_handicap_vertices, Action, Color, Game, Move, Vertex, MAX_SIZE, MIN_SIZE};
use crate::player::time::{Clock, TimeControl};
use crate::player::{MoveBudget, Player, PlayerConfig};

/// The protocol version this engine speaks.
const PROTOCOL_VERSION: &str = "2";
/// Files larger than this are not SGF games anyone plays: refuse before reading.
const MAX_SGF_BYTES: u64 = 16 * 1024 * 1024;
/// Komi of a fresh engine (the common Tromp-Taylor / CGOS value).
const DEFAULT_KOMI: f64 = 7.5;
const DEFAULT_SIZE: usize = 19;

pub struct Engine {
    game: Game,
    /// Stones placed by the handicap commands, for printsgf's HA.
    handicap: Option<u32>,
    player: Player,
    clock: Clock,
    quit: bool,
}

impl Engine {
    pub fn new(config: &PlayerConfig) -> Engine {
        Engine {
            game: Game::new(DEFAULT_SIZE, DEFAULT_KOMI),
            handicap: None,
            player: Player::new(config),
            clock: Clock::new(TimeControl::Unlimited),
            quit: false,
        }
    }

    /// The game as it stands (for tests and tools).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// True once `quit` has been answered.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// Answers one command. `stop` is raised by the input reader when the
    /// client interrupts a long command.
    pub fn execute(&mut self, command: Command, stop: &AtomicBool) -> Reply {
        use Command::*;
        match command {
            ProtocolVersion => Ok(PROTOCOL_VERSION.into()),
            Name => Ok("hane".into()),
            Version => Ok(env!("CARGO_PKG_VERSION").into()),
            KnownCommand(name) => Ok(COMMAND_NAMES.contains(&name.as_str()).to_string()),
            ListCommands => Ok(COMMAND_NAMES.join("\n")),
            Quit => {
                self.quit = true;
                Ok(String::new())
            }
            Boardsize(size) => self.boardsize(size),
            ClearBoard => {
                self.new_game(self.game.size());
                Ok(String::new())
            }
            Komi(komi) => {
                self.game.set_komi(komi);
                Ok(String::new())
            }
            Play(color, mv) => self.play(color, mv),
            Genmove(color) | KgsGenmoveCleanup(color) => self.genmove(color, stop, true),
            RegGenmove(color) => self.genmove(color, stop, false),
            Undo => self
                .game
                .undo()
                .map(|()| String::new())
                .map_err(|e| e.to_string()),
            Showboard => Ok(self.showboard()),
            FinalScore => Ok(format_score(self.game.score())),
            FinalStatusList(status) => Ok(match status {
                // Tromp-Taylor removes no dead stones: every stone on the
                // board counts as alive, as final_score counts it.
                StoneStatus::Alive => {
                    let mut stones = self.game.board().stones(Color::Black);
                    stones.extend(self.game.board().stones(Color::White));
                    stones.sort_by_key(|v| (v.row, v.col));
                    vertex_list(&stones)
                }
                StoneStatus::Dead | StoneStatus::Seki => String::new(),
            }),
            FixedHandicap(n) => self.fixed_handicap(n),
            PlaceFreeHandicap(n) => self.place_free_handicap(n),
            SetFreeHandicap(vertices) => self.set_free_handicap(&vertices),
            LoadSgf { path, move_number } => self.loadsgf(&path, move_number),
            PrintSgf(path) => self.printsgf(path.as_deref()),
            TimeSettings {
                main_time,
                byo_yomi_time,
                byo_yomi_stones,
            } => {
                self.clock =
                    Clock::new(TimeControl::gtp(main_time, byo_yomi_time, byo_yomi_stones));
                Ok(String::new())
            }
            KgsTimeSettings(system) => {
                self.clock = Clock::new(kgs_time_control(system));
                Ok(String::new())
            }
            TimeLeft {
                color,
                time,
                stones,
            } => {
                self.clock.time_left(color, time, stones);
                Ok(String::new())
            }
            GoguiAnalyzeCommands => Ok(String::new()),
            GoguiInterrupt => Ok(String::new()),
            IsLegal(color, mv) => Ok(if self.game.is_legal(color, mv) {
                "1"
            } else {
                "0"
            }
            .into()),
            AllLegal(color) => Ok(vertex_list(&self.game.legal_vertices(color))),
            ListStones(color) => Ok(vertex_list(&self.game.board().stones(color))),
            ColorAt(vertex) => {
                self.check_on_board(vertex)?;
                Ok(match self.game.board().get(vertex) {
                    Some(color) => color.to_string(),
                    None => "empty".into(),
                })
            }
            Countlib(vertex) => {
                self.check_on_board(vertex)?;
                if self.game.board().get(vertex).is_none() {
                    return Err("vertex must not be empty".into());
                }
                Ok(self.game.board().liberties(vertex).to_string())
            }
            Captures(color) => Ok(self.game.captures(color).to_string()),
        }
    }

    fn check_on_board(&self, vertex: Vertex) -> Result<(), String> {
        if self.game.board().is_on_board(vertex) {
            Ok(())
        } else {
            Err("invalid coordinate".into())
        }
    }

    fn new_game(&mut self, size: usize) {
        self.game = Game::new(size, self.game.komi());
        self.handicap = None;
        // Same time settings, both clocks full again.
        self.clock.new_game();
    }

    fn boardsize(&mut self, size: u64) -> Reply {
        if !(MIN_SIZE as u64..=MAX_SIZE as u64).contains(&size) {
            return Err("unacceptable size".into());
        }
        self.new_game(size as usize);
        Ok(String::new())
    }

    fn play(&mut self, color: Color, mv: Move) -> Reply {
        self.game
            .play(color, mv)
            .map(|_| String::new())
            .map_err(|e| e.to_string())
    }

    fn genmove(&mut self, color: Color, stop: &AtomicBool, commit: bool) -> Reply {
        let started = std::time::Instant::now();
        let empty_points = self.game.size() * self.game.size() - self.game.board().stone_count();
        let moves_played = self.game.moves().count();
        let budget = self
            .clock
            .budget(color, self.game.size(), moves_played, empty_points)
            .map(|b| MoveBudget {
                target: b.target,
                hard_limit: b.hard_limit,
            });
        let decision = self.player.genmove(&self.game, color, budget, stop);
        if commit {
            self.clock.record_move(color, started.elapsed());
        }
        if commit {
            if let Some(mv) = decision.as_move() {
                if let Err(e) = self.game.play(color, mv) {
                    // The player only proposes legal moves; if that ever
                    // fails, passing is the one move that is always legal.
                    warn!("player proposed {mv} for {color}, refused: {e:?}; passing");
                    self.game
                        .play(color, Move::Pass)
                        .map_err(|e| e.to_string())?;
                    return Ok("pass".into());
                }
            }
        }
        info!("genmove {color}: {decision}");
        Ok(decision.to_string())
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
        Ok(())
    }

    fn fixed_handicap(&mut self, stones: u64) -> Reply {
        self.check_handicap_allowed()?;
        let vertices = usize::try_from(stones)
            .ok()
            .and_then(|n| fixed_handicap_vertices(self.game.size(), n))
            .ok_or("invalid number of stones")?;
        self.place_handicap(&vertices)
    }

    fn place_free_handicap(&mut self, stones: u64) -> Reply {
        self.check_handicap_allowed()?;
        let size = self.game.size();
        if stones < 2 || stones >= (size * size) as u64 {
            return Err("invalid number of stones".into());
        }
        let vertices = free_handicap_vertices(size, stones as usize);
        self.place_handicap(&vertices)
    }

    fn set_free_handicap(&mut self, vertices: &[Vertex]) -> Reply {
        self.check_handicap_allowed()?;
        let size = self.game.size();
        let mut sorted = vertices.to_vec();
        sorted.sort();
        sorted.dedup();
        let valid = vertices.len() >= 2
            && vertices.len() < size * size
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

    fn loadsgf(&mut self, path: &str, move_number: Option<u64>) -> Reply {
        let loaded = read_sgf_file(path).and_then(|record| {
            let game = replay_sgf(&record, move_number, self.game.komi())?;
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

    fn printsgf(&self, path: Option<&str>) -> Reply {
        let text = sgf::write(&self.sgf_record());
        match path {
            None => Ok(text),
            Some(path) => std::fs::write(path, text)
                .map(|()| String::new())
                .map_err(|e| format!("cannot write file ({e})")),
        }
    }

    fn sgf_record(&self) -> SgfGame {
        let mut actions = Vec::new();
        for action in self.game.actions() {
            match action {
                Action::Setup(stones) => {
                    actions.push(SgfAction::Setup(stones.clone()));
                    if self.handicap.is_some() {
                        // White moves first after handicap stones.
                        actions.push(SgfAction::ToMove(Color::White));
                    }
                }
                Action::Move(color, mv) => actions.push(SgfAction::Play(*color, *mv)),
            }
        }
        SgfGame {
            size: self.game.size(),
            komi: Some(self.game.komi()),
            handicap: self.handicap,
            rules: Some("Tromp-Taylor".into()),
            result: self.game.is_over().then(|| format_score(self.game.score())),
            actions,
        }
    }

    fn showboard(&self) -> String {
        let board = self.game.board();
        let size = board.size();
        let letters: String = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
            .chars()
            .take(size)
            .flat_map(|c| [' ', c])
            .collect();
        let mut lines = vec![String::new(), format!("   {letters}")];
        for row in (0..size).rev() {
            let mut line = format!("{:>2} ", row + 1);
            for col in 0..size {
                let v = Vertex::new(col, row);
                let last = self.game.last_move().and_then(|(_, m)| m.vertex()) == Some(v);
                line.push(if last { '(' } else { ' ' });
                line.push(match board.get(v) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
            }
            line.push_str(&format!(" {}", row + 1));
            match row {
                r if r == size - 1 => line.push_str(&format!(
                    "    Black (X) has captured {} stones",
                    self.game.captures(Color::Black)
                )),
                r if size >= 2 && r == size - 2 => line.push_str(&format!(
                    "    White (O) has captured {} stones",
                    self.game.captures(Color::White)
                )),
                _ => {}
            }
            lines.push(line);
        }
        lines.push(format!("   {letters}"));
        lines.push(format!(
            "{} to move, komi {}, Tromp-Taylor count {}",
            self.game.to_move(),
            self.game.komi(),
            format_score(self.game.score())
        ));
        lines.join("\n")
    }
}

/// KGS's time systems as the clock's controls.
fn kgs_time_control(system: KgsTimeSystem) -> TimeControl {
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

/// Reads and parses an SGF file, refusing what is not a plain readable file
/// of a sane size before reading it.
fn read_sgf_file(path: &str) -> Result<SgfGame, String> {
    let metadata = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !metadata.is_file() {
        return Err("not a file".into());
    }
    if metadata.len() > MAX_SGF_BYTES {
        return Err(format!("file larger than {MAX_SGF_BYTES} bytes"));
    }
    // The file may grow after the check (or be a /proc file that reports
    // no length): read no more than the cap allows, whatever it says.
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(MAX_SGF_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_SGF_BYTES {
        return Err(format!("file larger than {MAX_SGF_BYTES} bytes"));
    }
    sgf::parse(&bytes).map_err(|e| e.to_string())
}

/// Replays an SGF main line into a new game, up to (not including) move
/// `move_number` when given. Komi comes from the file, else stays as it was.
/// Public for the fuzz targets, which replay SGF text without a file.
pub fn replay_sgf(record: &SgfGame, move_number: Option<u64>, komi: f64) -> Result<Game, String> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&record.size) {
        return Err(format!("unsupported board size {}", record.size));
    }
    let mut game = Game::new(record.size, record.komi.unwrap_or(komi));
    let mut moves_played = 0u64;
    for action in &record.actions {
        match action {
            SgfAction::Setup(stones) => {
                game.setup(stones).map_err(|e| e.to_string())?;
                if record.handicap.is_some_and(|h| h > 1) && game.moves().next().is_none() {
                    game.set_to_move(Color::White);
                }
            }
            SgfAction::ToMove(color) => game.set_to_move(*color),
            SgfAction::Play(color, mv) => {
                if move_number.is_some_and(|n| moves_played + 1 >= n) {
                    break;
                }
                game.play(*color, *mv).map_err(|_| {
                    format!(
                        "illegal move {} {mv} at move {}",
                        color.letter(),
                        moves_played + 1
                    )
                })?;
                moves_played += 1;
            }
        }
    }
    Ok(game)
}

/// Spreads `stones` handicap stones: the fixed placement where the spec has
/// one, else points of one checkerboard colour from the centre outwards, so
/// no stone is ever left without a liberty.
fn free_handicap_vertices(size: usize, stones: usize) -> Vec<Vertex> {
    if let Some(fixed) = fixed_handicap_vertices(size, stones) {
        return fixed;
    }
    let centre = (size / 2) as i32;
    let parity = (centre + centre) % 2;
    let mut points: Vec<Vertex> = Vertex::all(size)
        .filter(|v| (v.col as i32 + v.row as i32) % 2 == parity)
        .collect();
    points.sort_by_key(|v| {
        let (dc, dr) = (v.col as i32 - centre, v.row as i32 - centre);
        (dc.abs().max(dr.abs()), dc.abs() + dr.abs(), v.row, v.col)
    });
    points.truncate(stones);
    points
}

/// Vertices separated by spaces, in the order given.
fn vertex_list(vertices: &[Vertex]) -> String {
    vertices
        .iter()
        .map(Vertex::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `B+3.5`, `W+7` or `0`, from Black's margin.
pub fn format_score(black_margin: f64) -> String {
    if black_margin > 0.0 {
        format!("B+{black_margin}")
    } else if black_margin < 0.0 {
        format!("W+{}", -black_margin)
    } else {
        "0".into()
    }
}
