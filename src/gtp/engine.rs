//! The GTP engine: owns the game and the player and answers one typed
//! command at a time. A command either succeeds and changes the state, or
//! fails and changes nothing: every command validates first, then applies.

use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

use log::{error, info, warn};

mod params;
mod position;
mod setup;

use params::{param_names, params_of_json};
use position::vertex_list;
use setup::kgs_time_control;

use super::analyze_commands;
use super::command::{AnalyzeArgs, Command, Dialect};
use super::cputime::process_cpu_seconds;
use super::live_gfx::{self, LiveGfx};
use super::parse::command_names;
use super::response::{Reply, ResponseStream, ResponseWriter};
use super::showboard::showboard;
use super::signals::Signals;
use crate::frontend::panic_message;
use crate::frontend::RulesObject;
use crate::game::{result_text, BoardSize, Color, Game, Move, Rules, DEFAULT_KOMI};
use crate::player::{
    Budget, Clock, Decision, MoveCost, MoveFilter, Player, PlayerConfig, SearchReport,
    SearchRequest, TimeControl, Watch,
};

/// What a genmove asks of the search beyond the position and the clock's
/// budget; by default a `reg_genmove`'s, whose move is only answered.
#[derive(Default)]
struct GenmoveAsk<'w> {
    /// The move is played and the clock charged; without, the search
    /// leaves no trace.
    commit: bool,
    watch: Option<Watch<'w>>,
    filter: MoveFilter,
    moves_ownership: bool,
}

/// The protocol version this engine speaks.
const PROTOCOL_VERSION: &str = "2";
/// The board of a fresh engine.
const DEFAULT_SIZE: usize = 19;

/// GoGui's analysis menu: `type/label/command`, `%m` standing for the side
/// to move. Every entry runs a bounded search (genmove's time or playouts)
/// that `# interrupt` cuts short, and leaves the game as it is.
const GOGUI_ANALYZE_COMMANDS: &str = "\
gfx/Ownership/hane-ownership %m
gfx/Candidate moves/hane-candidates %m
gfx/Principal variation/hane-pv %m
gfx/Score estimate/hane-score %m";

/// What a command may use besides the engine: the reader's signals (stop
/// flags) and the stream its response is written to while it runs.
pub struct CommandIo<'a> {
    pub signals: &'a Signals,
    pub stream: &'a mut dyn ResponseStream,
}

/// A move genmove played, waiting for its answer to be written.
struct Unanswered {
    color: Color,
    /// The time its search took ...
    searched: Duration,
    /// ... and how far that ran past the latest its budget allowed.
    late: Duration,
}

/// The GTP engine: owns the game (position, record, superko history), the
/// handicap count the record needs, the player (its search threads and
/// their tree) and the clock. It maps one typed `Command` to one `Reply`; the
/// loop in `io.rs` reads the commands and writes the replies.
pub struct Engine {
    game: Game,
    /// Stones placed by the handicap commands, for printsgf's HA.
    handicap: Option<u32>,
    player: Player,
    clock: Clock,
    quit: bool,
    /// Set by a genmove when pondering is on: search on the opponent's
    /// time once the response is out.
    ponder_due: bool,
    /// The rules of every game this engine plays (`--superko`,
    /// `--no-suicide`); the komi is the game's, set by the client.
    rules: Rules,
    /// Whether genmove draws its search in GoGui while it thinks.
    live_gfx: Option<LiveGfx>,
    /// A move played by genmove whose answer is not written yet, with the
    /// time it ran past its search's latest: the clock is charged for it
    /// once the answer is out (`answered`), as the client's clock is.
    unanswered: Option<Unanswered>,
}

impl Engine {
    pub fn new(config: &PlayerConfig) -> Engine {
        Engine {
            game: Game::new(DEFAULT_SIZE, DEFAULT_KOMI),
            handicap: None,
            player: Player::new(config),
            clock: Clock::with_settings(config.playouts, config.seconds_per_move),
            quit: false,
            ponder_due: false,
            rules: Rules::default(),
            live_gfx: None,
            unanswered: None,
        }
    }

    /// The engine with genmove drawing its search on GoGui's board every
    /// `live_gfx.interval` (`--gogui-live-gfx`).
    pub fn with_live_gfx(mut self, live_gfx: LiveGfx) -> Engine {
        self.live_gfx = Some(live_gfx);
        self
    }

    /// The engine under `rules` (superko and suicide; Tromp-Taylor's
    /// positional superko with suicide unless told), from the start: its
    /// games, the ones it loads and its searches follow them. The komi is
    /// the client's to set.
    /// The engine with no move thinking longer than `seconds` (a KataGo
    /// config's `maxTime`), under a clock too.
    pub fn with_move_time_cap(mut self, seconds: Option<f64>) -> Engine {
        self.clock = self.clock.with_move_cap(seconds);
        self
    }

    pub fn with_rules(mut self, rules: Rules) -> Engine {
        self.rules = rules;
        self.game = self.empty_board(self.game.size());
        self
    }

    /// An empty board of `size` under the engine's rules and the komi the
    /// client set.
    fn empty_board(&self, size: BoardSize) -> Game {
        Game::new(size, self.game.komi()).with_rules(self.rules.with_komi(self.game.komi()))
    }

    /// True once `quit` has been answered.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// Answers one command as a library call, for tests and tools, with
    /// streamed lines dropped. No client input can follow it, so it runs as
    /// at the end of input: streaming analysis, which runs until the next
    /// line, stops at once (it once ran for good), and a genmove cut to the
    /// cap on thinking time stops after its first playouts, as in the GTP
    /// loop once stdin has ended.
    pub fn execute_detached(&mut self, command: Command) -> Reply {
        let received = Instant::now();
        let signals = Signals::at_end_of_input();
        let mut sink = ResponseWriter::new(std::io::sink(), None);
        let mut context = CommandIo {
            signals: &signals,
            stream: &mut sink,
        };
        let reply = self.execute(command, &mut context);
        self.answered(received);
        reply
    }

    /// The answer to the command read at `received` is out: a move that
    /// genmove played is charged on the clock from then to now, the wait
    /// for the scheduler and the writing included (issue 74: a busy
    /// machine lost on time by what the search never saw).
    pub fn answered(&mut self, received: Instant) {
        if let Some(move_made) = self.unanswered.take() {
            let used = received.elapsed();
            let cost = MoveCost {
                used,
                beyond_search: used.saturating_sub(move_made.searched) + move_made.late,
            };
            self.clock.record_answered_move(move_made.color, cost);
        }
    }

    /// Answers one command. The input reader raises `context.signals.stop`
    /// when the client interrupts a long command; streaming commands write
    /// their lines to `context.stream` as they go.
    ///
    /// A panic inside the command (a bug: none is known) is answered as a
    /// GTP error, `internal error (...)`, with the game as it was before the
    /// command, so that a GUI's game survives it.
    pub(crate) fn execute(&mut self, command: Command, context: &mut CommandIo) -> Reply {
        self.guarded(|engine| engine.dispatch(command, context))
    }

    /// Runs `command` on the engine; on a panic, restores what a client can
    /// see (game, handicap, clock), drops the search tree, which the panic
    /// may have left half-built, and answers with an error.
    fn guarded(&mut self, command: impl FnOnce(&mut Engine) -> Reply) -> Reply {
        let game = self.game.clone();
        let handicap = self.handicap;
        let clock = self.clock.clone();
        match panic::catch_unwind(AssertUnwindSafe(|| command(self))) {
            Ok(reply) => reply,
            Err(payload) => {
                let message = panic_message(payload.as_ref()).to_string();
                error!("internal error, game restored: {message}");
                self.game = game;
                self.handicap = handicap;
                self.clock = clock;
                self.player.clear();
                self.ponder_due = false;
                Err(format!("internal error ({message})"))
            }
        }
    }

    /// Answers one command, unguarded: each command's handler, by job.
    fn dispatch(&mut self, command: Command, context: &mut CommandIo) -> Reply {
        use Command::*;
        self.ponder_due = false;
        let stop = &context.signals.stop;
        match command {
            // The protocol and the session.
            ProtocolVersion => Ok(PROTOCOL_VERSION.into()),
            Name => Ok("hane".into()),
            Version => Ok(env!("CARGO_PKG_VERSION").into()),
            KnownCommand(name) => Ok(command_names().any(|known| known == name).to_string()),
            ListCommands => Ok(command_names().collect::<Vec<_>>().join("\n")),
            Quit => {
                self.quit = true;
                Ok(String::new())
            }
            CpuTime => cpu_time(),
            GoguiAnalyzeCommands => Ok(GOGUI_ANALYZE_COMMANDS.into()),
            GoguiInterrupt => Ok(String::new()),
            // The game and its clock (setup.rs).
            Boardsize(width, height) => self.boardsize(width, height),
            ClearBoard => {
                self.new_game(self.game.size());
                Ok(String::new())
            }
            Komi(komi) => {
                self.game.set_komi(komi);
                Ok(String::new())
            }
            Play(color, mv) => self.play(color, mv),
            Undo => self.undo(),
            FixedHandicap(n) => self.fixed_handicap(n),
            PlaceFreeHandicap(n) => self.place_free_handicap(n),
            SetFreeHandicap(vertices) => self.set_free_handicap(&vertices),
            LoadSgf { path, move_number } => self.loadsgf(&path, move_number),
            PrintSgf(path) => self.printsgf(path.as_deref()),
            KataGetRules => Ok(RulesObject::of(self.game.rules()).to_json()),
            KataSetRules(text) => self.set_rules(&text),
            TimeSettings {
                main_time,
                byo_yomi_time,
                byo_yomi_stones,
            } => self.set_time_control(TimeControl::gtp(main_time, byo_yomi_time, byo_yomi_stones)),
            KgsTimeSettings(system) => self.set_time_control(kgs_time_control(system)),
            TimeLeft {
                color,
                time,
                stones,
            } => self.time_left(color, time, stones),
            // The search: a move, or what the search sees.
            Genmove(color) | KgsGenmoveCleanup(color) => self
                .genmove_drawn(color, context.signals)
                .map(decision_text),
            RegGenmove(color) => self
                .genmove(color, context.signals, GenmoveAsk::default())
                .map(decision_text),
            GenmoveAnalyze(dialect, args) => {
                self.check_filter(&args.filter)?;
                self.genmove_analyze(dialect, &args, context)
            }
            Analyze(dialect, args) => {
                self.check_filter(&args.filter)?;
                analyze_commands::analyze(
                    &mut self.player,
                    &self.game,
                    dialect,
                    &args,
                    context.signals,
                    &mut *context.stream,
                )
            }
            Gfx(view, color) => {
                let budget = self.clock.untimed_budget(self.game.size());
                Ok(analyze_commands::gfx(
                    &mut self.player,
                    &self.game,
                    view,
                    color,
                    budget,
                    stop,
                ))
            }
            // The position, read (position.rs).
            Showboard => Ok(showboard(&self.game)),
            FinalScore => Ok(result_text(self.game.score())),
            FinalStatusList(status) => Ok(self.final_status_list(status)),
            IsLegal(color, mv) => Ok(self.is_legal(color, mv)),
            AllLegal(color) => Ok(vertex_list(&self.game.legal_vertices(color))),
            ListStones(color) => Ok(vertex_list(&self.game.board().stones(color))),
            ColorAt(vertex) => self.color_at(vertex),
            Countlib(vertex) => self.countlib(vertex),
            Captures(color) => Ok(self.game.captures(color).to_string()),
            // The search parameters (params.rs).
            KataListParams => Ok(param_names()),
            KataGetParam(name) => self.param(name),
            KataSetParam(name, value) => self.set_params(&[(name, value)]),
            KataGetParams => Ok(self.params()),
            KataSetParams(text) => self.set_params(&params_of_json(&text)?),
        }
    }

    /// An avoid or allow list may name only points of the board (and pass),
    /// as KataGo requires; checked before any response line is written.
    fn check_filter(&self, filter: &MoveFilter) -> Result<(), String> {
        match filter
            .vertices()
            .find(|&v| !v.is_on_board(self.game.size()))
        {
            Some(v) => Err(format!("syntax error ({v} is off the board)")),
            None => Ok(()),
        }
    }

    /// Chooses a move for `color` and, when `commit`, plays it. `watch`
    /// sees the search every interval; the search and the move keep to
    /// `filter`.
    fn genmove(
        &mut self,
        color: Color,
        signals: &Signals,
        ask: GenmoveAsk,
    ) -> Result<Decision, String> {
        let commit = ask.commit;
        if commit {
            self.check_record_room()?;
        }
        let empty_points = self.game.size().points() - self.game.board().stone_count();
        let moves_played = self.game.moves().count();
        let budget = self
            .clock
            .budget(color, self.game.size(), moves_played, empty_points);
        info!("genmove {color}: {}", budget_text(&budget));
        // A time cut to the cap on thinking time (a clock of 1e30 seconds)
        // gives the search no reason to go on but the client's word: the
        // end of input stops it, as it stops analysis, and the commands
        // queued behind it (`quit`) are answered.
        let _until_input_ends = budget.capped.then(|| signals.stop_at_end_of_input());
        let mut request = SearchRequest::new(&self.game, color, budget, &signals.stop)
            .filtered(&ask.filter)
            .with_moves_ownership(ask.moves_ownership)
            .watched(ask.watch);
        if !commit {
            request = request.keeping_no_tree();
        }
        let search_started = Instant::now();
        let decision = self.player.genmove(request);
        if !commit {
            return Ok(decision);
        }
        self.unanswered = Some(Unanswered {
            color,
            searched: search_started.elapsed(),
            late: budget
                .clock_limit()
                .map_or(Duration::ZERO, |limit| limit.elapsed()),
        });
        info!("genmove {color}: {}", decision_text(decision));
        if let Some(mv) = decision.as_move() {
            if let Err(e) = self.game.play(color, mv) {
                // The player only proposes legal moves; if that ever
                // fails, passing is the one move that is always legal.
                warn!("player proposed {mv} for {color}, refused: {e:?}; passing");
                self.game
                    .play(color, Move::Pass)
                    .map_err(|e| e.to_string())?;
                return Ok(Decision::Pass);
            }
        }
        self.ponder_due = self.player.config().ponder && decision != Decision::Resign;
        Ok(decision)
    }

    /// genmove, drawing the search on GoGui's board while it thinks when
    /// live graphics are on, and clearing the drawing before the move is
    /// answered.
    fn genmove_drawn(&mut self, color: Color, signals: &Signals) -> Result<Decision, String> {
        let Some(live) = self.live_gfx else {
            return self.genmove(
                color,
                signals,
                GenmoveAsk {
                    commit: true,
                    ..Default::default()
                },
            );
        };
        let watch = Watch::every(live.interval, live_gfx::draw);
        let ask = GenmoveAsk {
            commit: true,
            watch: Some(watch),
            ..Default::default()
        };
        let decision = self.genmove(color, signals, ask);
        live_gfx::clear();
        decision
    }

    /// `lz-genmove_analyze` / `kata-genmove_analyze`: genmove, with info
    /// lines while the search runs and `play MOVE` as the last line. Only
    /// GoGui's `# interrupt` cuts it short, as for genmove.
    fn genmove_analyze(
        &mut self,
        dialect: Dialect,
        args: &AnalyzeArgs,
        context: &mut CommandIo,
    ) -> Reply {
        let color = args.color.unwrap_or(self.game.to_move());
        let stream = &mut *context.stream;
        // The position searched, for the legality of the moves minmoves adds.
        let game = self.game.clone();
        // The response begins with the first info line, so that a failure
        // before it (genmove's full record, say) is still answered as an
        // error.
        let send = |report: &SearchReport| {
            analyze_commands::send_info_line(&mut *stream, report, &game, dialect, args)
        };
        let watch = Watch::every(analyze_commands::interval(args), send);
        let ask = GenmoveAsk {
            commit: true,
            watch: Some(watch),
            filter: args.filter.clone(),
            moves_ownership: args.moves_ownership,
        };
        let decision = self.genmove(color, context.signals, ask)?;
        // The move on a line of its own, as Leela Zero answers, even when
        // no info line came before it.
        context.stream.open();
        Ok(format!("play {}", decision_text(decision)))
    }

    /// After a genmove, with `--ponder`: searches the opponent's move until
    /// the next input line arrives, so that the next genmove starts from a
    /// grown tree. Does nothing otherwise.
    pub(crate) fn ponder(&mut self, signals: &Signals) {
        if !std::mem::take(&mut self.ponder_due) || self.game.is_over() {
            return;
        }
        // Pondering has no response to carry an error: a panic is logged.
        if let Err(message) = self.guarded(|engine| {
            engine.ponder_now(signals);
            Ok(String::new())
        }) {
            warn!("pondering stopped: {message}");
        }
    }

    fn ponder_now(&mut self, signals: &Signals) {
        let _until_input = signals.stop_on_next_line();
        let color = self.game.to_move();
        let request = SearchRequest::new(&self.game, color, Budget::UNLIMITED, &signals.stop);
        let report = self.player.search(request);
        info!(
            "pondered {} playouts for {color} in {:.2}s",
            report.playouts,
            report.elapsed.as_secs_f64()
        );
    }
}

/// `cputime`: seconds with millisecond digits, as GNU Go prints them.
fn cpu_time() -> Reply {
    process_cpu_seconds()
        .map(|seconds| format!("{seconds:.3}"))
        .ok_or_else(|| "cannot measure CPU time".to_string())
}

/// The clock's budget for a move, for the log: `think 1.52 s (up to
/// 3.04 s while the choice is unclear), at most 2000 playouts`.
fn budget_text(budget: &Budget) -> String {
    let now = std::time::Instant::now();
    let seconds = |t: std::time::Instant| t.saturating_duration_since(now).as_secs_f64();
    let mut text = match (budget.deadline, budget.latest) {
        (Some(deadline), Some(latest)) => format!(
            "think {:.2} s (up to {:.2} s while the choice is unclear)",
            seconds(deadline),
            seconds(latest)
        ),
        (Some(deadline), None) => format!("think {:.2} s", seconds(deadline)),
        (None, _) => "no time limit".to_string(),
    };
    if budget.playouts != u64::MAX {
        text.push_str(&format!(", at most {} playouts", budget.playouts));
    }
    text
}

/// The answer to genmove: a vertex, `pass` or `resign`.
fn decision_text(decision: Decision) -> String {
    match decision {
        Decision::Play(vertex) => vertex.to_string(),
        Decision::Pass => "pass".into(),
        Decision::Resign => "resign".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Vertex;

    fn engine() -> Engine {
        Engine::new(&PlayerConfig {
            playouts: Some(16),
            seed: Some(1),
            ..PlayerConfig::with_shipped_network()
        })
    }

    fn shown(engine: &mut Engine) -> [Reply; 2] {
        [
            engine.execute_detached(Command::Showboard),
            engine.execute_detached(Command::PrintSgf(None)),
        ]
    }

    fn vertex(name: &str) -> Vertex {
        Vertex::parse_gtp(name).expect("vertex")
    }

    #[test]
    fn a_panic_in_a_search_thread_is_answered_with_its_own_message() {
        // The thread scope once replaced it with "a scoped thread panicked".
        let mut config = PlayerConfig {
            playouts: Some(16),
            threads: 2,
            seed: Some(1),
            ..PlayerConfig::with_shipped_network()
        };
        config.search.panic_in_search = true;
        let mut engine = Engine::new(&config);
        let before = shown(&mut engine);
        assert_eq!(
            engine.execute_detached(Command::Genmove(Color::Black)),
            Err("internal error (a test's panic in a search thread)".to_string())
        );
        assert_eq!(shown(&mut engine), before);
    }

    #[test]
    fn a_panic_inside_a_command_is_an_error_and_the_game_is_as_it_was() {
        let mut engine = engine();
        assert_eq!(
            engine.execute_detached(Command::Play(Color::Black, Move::Play(vertex("D4")))),
            Ok(String::new())
        );
        let before = shown(&mut engine);
        let reply = engine.guarded(|engine| {
            let _ = engine.game.play(Color::White, Move::Play(vertex("Q16")));
            engine.game = Game::new(9, 0.5);
            panic!("a bug in {}", "a command");
        });
        assert_eq!(
            reply,
            Err("internal error (a bug in a command)".to_string())
        );
        assert_eq!(shown(&mut engine), before);
        // The engine goes on: the move the panic took back can be played.
        assert_eq!(
            engine.execute_detached(Command::Play(Color::White, Move::Play(vertex("Q16")))),
            Ok(String::new())
        );
        assert!(engine
            .execute_detached(Command::Genmove(Color::Black))
            .is_ok());
    }

    /// A detached call has no input to follow it, so it runs as at the end
    /// of input: streaming analysis, which runs until the next input line,
    /// answers at once. It ran for good (the gtp_session fuzzer's timeout,
    /// a session with `kata-analyze` in it).
    #[test]
    fn detached_streaming_analysis_answers() {
        let (sender, answers) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut engine = engine();
            for line in [
                "kata-analyze",
                "lz-analyze 10",
                "kata-analyze w interval 5 ownership true",
                "lz-analyze b 1",
            ] {
                let request = super::super::parse_line(line.as_bytes()).expect("a request");
                let command = request.command.expect("a command");
                let _ = sender.send((line, engine.execute_detached(command)));
            }
        });
        for _ in 0..4 {
            let (line, reply) = answers
                .recv_timeout(std::time::Duration::from_secs(60))
                .expect("a detached analysis command never answered");
            assert_eq!(reply, Ok(String::new()), "{line}");
        }
    }
}
