//! Typed GTP commands: what the parser produces and the engine consumes.
//! The engine never sees command strings, only these values.

use crate::game::{Color, Move, Vertex};
use crate::player::MoveFilter;

/// One input line after preprocessing: the optional numeric id (echoed in
/// the response) and either a command or the error to answer with.
#[derive(Clone, Debug, PartialEq)]
pub struct GtpRequest {
    pub id: Option<u64>,
    pub command: Result<Command, ParseError>,
}

/// Why a line is not a command. `Display` is the text the client sees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The command name is not one hane knows (spec: "unknown command").
    UnknownCommand,
    /// A known command with missing, extra or malformed arguments
    /// (spec: "syntax error"). The detail is appended after the spec's words.
    Syntax(String),
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseError::UnknownCommand => f.write_str("unknown command"),
            ParseError::Syntax(detail) if detail.is_empty() => f.write_str("syntax error"),
            ParseError::Syntax(detail) => write!(f, "syntax error ({detail})"),
        }
    }
}

/// `final_status_list` argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoneStatus {
    Alive,
    Dead,
    Seki,
}

/// `kgs-time_settings` systems. Times in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KgsTimeSystem {
    None,
    Absolute {
        main_time: f64,
    },
    Byoyomi {
        main_time: f64,
        period_time: f64,
        periods: u64,
    },
    Canadian {
        main_time: f64,
        period_time: f64,
        stones: u64,
    },
}

/// The arguments of `lz-analyze`, `kata-analyze` and their genmove forms:
/// `[COLOUR] [INTERVAL]` then, in any order, `interval N`, `maxmoves N`,
/// `minmoves N`, `avoid COLOUR MOVES DEPTH`, `allow COLOUR MOVES DEPTH`
/// and, for KataGo, `ownership`, `ownershipStdev`, `movesOwnership`,
/// `rootInfo`, `pvVisits`, `pvEdgeVisits` and `noResultValue`, each
/// `true|false`. The interval is a number of centiseconds, as KataGo reads
/// it (`50.5`), not only a whole one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AnalyzeArgs {
    /// The side to analyse for; the side to move when absent.
    pub color: Option<Color>,
    /// Centiseconds between info lines: finite, not negative.
    pub interval: Option<f64>,
    /// At most this many candidates per info line.
    pub max_moves: Option<u64>,
    /// At least this many candidates per info line, where the root has
    /// them: moves not searched yet fill up the line, by prior.
    pub min_moves: Option<u64>,
    /// The moves the search keeps away from, or to.
    pub filter: MoveFilter,
    /// KataGo's per-point ownership after the candidates.
    pub ownership: bool,
    /// KataGo's `ownershipStdev`: the spread of each point's owner over
    /// the playouts, after the ownership.
    pub ownership_stdev: bool,
    /// KataGo's `movesOwnership`: each candidate's own ownership.
    pub moves_ownership: bool,
    /// KataGo's `rootInfo`: the position's visits, win rate and score.
    pub root_info: bool,
    /// KataGo's `pvVisits`: the visits of each position along a PV.
    pub pv_visits: bool,
    /// KataGo's `pvEdgeVisits`: the visits of each move along a PV (the
    /// same numbers in hane's tree, which has no transpositions).
    pub pv_edge_visits: bool,
    /// KataGo's `noResultValue`: each candidate's chance of a game without
    /// a result, which Tromp-Taylor under superko never has (0).
    pub no_result_value: bool,
}

/// Which analysis dialect a command speaks, and so which `info` lines it
/// writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Leela Zero: win rate, prior and lcb as integers in 1/10000.
    LeelaZero,
    /// KataGo: floats in 0..1, and the score lead in points.
    KataGo,
}

/// The GoGui gfx views of the analysis (see `gogui-analyze_commands`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GfxView {
    Ownership,
    Candidates,
    Variation,
    Score,
}

/// Every command hane answers. Numeric arguments are kept as parsed (u64
/// saturating at u64::MAX for huge integers; f64 always finite) so that the
/// engine, which knows the game, decides what is acceptable.
///
/// A command is three lines of code, each where its kind lives: its
/// variant here (its typed arguments, what the parser's tests and the
/// fuzzers compare), its row in parse.rs's `COMMANDS` (its name, which
/// `list_commands` and `known_command` read, and the reader of its
/// arguments), and its arm in `Engine::dispatch`, which the compiler asks
/// for once the variant exists.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    /// Width and height; `boardsize N` gives N twice.
    Boardsize(u64, u64),
    ClearBoard,
    Komi(f64),
    Play(Color, Move),
    Genmove(Color),
    RegGenmove(Color),
    KgsGenmoveCleanup(Color),
    Undo,
    Showboard,
    FinalScore,
    FinalStatusList(StoneStatus),
    FixedHandicap(u64),
    PlaceFreeHandicap(u64),
    SetFreeHandicap(Vec<Vertex>),
    /// `loadsgf FILE [MOVE_NUMBER]`: play the file's main line up to, not
    /// including, move MOVE_NUMBER (counted from 1).
    LoadSgf {
        path: String,
        move_number: Option<u64>,
    },
    /// `printsgf [FILE]`: the game as SGF, written to FILE when given.
    PrintSgf(Option<String>),
    TimeSettings {
        main_time: f64,
        byo_yomi_time: f64,
        byo_yomi_stones: u64,
    },
    TimeLeft {
        color: Color,
        time: f64,
        stones: u64,
    },
    KgsTimeSettings(KgsTimeSystem),
    /// CPU seconds the engine process has used.
    CpuTime,
    GoguiAnalyzeCommands,
    GoguiInterrupt,
    /// A bounded search shown as GoGui graphics, for a colour or the side to move.
    Gfx(GfxView, Option<Color>),
    /// Streams info lines until the next input line.
    Analyze(Dialect, AnalyzeArgs),
    /// genmove with info lines while thinking and `play MOVE` at the end.
    GenmoveAnalyze(Dialect, AnalyzeArgs),
    /// KataGo's rules object of the rules in force.
    KataGetRules,
    /// KataGo's rules, a shorthand or a JSON object, as written.
    KataSetRules(String),
    /// The search parameters' names (`player::PARAMS`).
    KataListParams,
    /// One search parameter's value.
    KataGetParam(String),
    /// Sets a search parameter: name and value as written.
    KataSetParam(String, String),
    /// Every search parameter's value, as a JSON object.
    KataGetParams,
    /// Sets several parameters: a JSON object, as written.
    KataSetParams(String),
    IsLegal(Color, Move),
    AllLegal(Color),
    ListStones(Color),
    ColorAt(Vertex),
    Countlib(Vertex),
    Captures(Color),
}
