//! Typed GTP commands: what the parser produces and the engine consumes.
//! The engine never sees command strings, only these values.

use std::fmt;

use crate::game::{Color, Move, Vertex};
use crate::player::{FilterKind, MoveFilter};

/// One input line after preprocessing: the optional numeric id (echoed in
/// the response) and either a command or the error to answer with.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
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
/// `Display` (and `Debug`, the same) writes the command as GTP text, the
/// way a client would type it (`play B E5`), for the debug log and for
/// test failures.
#[derive(Clone, PartialEq)]
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

impl fmt::Debug for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Command::*;
        let c = |color: &Color| color.letter();
        match self {
            ProtocolVersion => f.write_str("protocol_version"),
            Name => f.write_str("name"),
            Version => f.write_str("version"),
            KnownCommand(name) => write!(f, "known_command {name}"),
            ListCommands => f.write_str("list_commands"),
            Quit => f.write_str("quit"),
            Boardsize(w, h) if w == h => write!(f, "boardsize {w}"),
            Boardsize(w, h) => write!(f, "boardsize {w} {h}"),
            ClearBoard => f.write_str("clear_board"),
            Komi(komi) => write!(f, "komi {komi}"),
            Play(color, mv) => write!(f, "play {} {mv}", c(color)),
            Genmove(color) => write!(f, "genmove {}", c(color)),
            RegGenmove(color) => write!(f, "reg_genmove {}", c(color)),
            KgsGenmoveCleanup(color) => write!(f, "kgs-genmove_cleanup {}", c(color)),
            Undo => f.write_str("undo"),
            Showboard => f.write_str("showboard"),
            FinalScore => f.write_str("final_score"),
            FinalStatusList(status) => write!(
                f,
                "final_status_list {}",
                match status {
                    StoneStatus::Alive => "alive",
                    StoneStatus::Dead => "dead",
                    StoneStatus::Seki => "seki",
                }
            ),
            FixedHandicap(n) => write!(f, "fixed_handicap {n}"),
            PlaceFreeHandicap(n) => write!(f, "place_free_handicap {n}"),
            SetFreeHandicap(vertices) => {
                f.write_str("set_free_handicap")?;
                vertices.iter().try_for_each(|v| write!(f, " {v}"))
            }
            LoadSgf { path, move_number } => {
                write!(f, "loadsgf {path}")?;
                move_number.map_or(Ok(()), |n| write!(f, " {n}"))
            }
            PrintSgf(path) => {
                f.write_str("printsgf")?;
                path.as_ref().map_or(Ok(()), |path| write!(f, " {path}"))
            }
            TimeSettings {
                main_time,
                byo_yomi_time,
                byo_yomi_stones,
            } => write!(
                f,
                "time_settings {main_time} {byo_yomi_time} {byo_yomi_stones}"
            ),
            TimeLeft {
                color,
                time,
                stones,
            } => write!(f, "time_left {} {time} {stones}", c(color)),
            KgsTimeSettings(system) => match system {
                KgsTimeSystem::None => f.write_str("kgs-time_settings none"),
                KgsTimeSystem::Absolute { main_time } => {
                    write!(f, "kgs-time_settings absolute {main_time}")
                }
                KgsTimeSystem::Byoyomi {
                    main_time,
                    period_time,
                    periods,
                } => write!(
                    f,
                    "kgs-time_settings byoyomi {main_time} {period_time} {periods}"
                ),
                KgsTimeSystem::Canadian {
                    main_time,
                    period_time,
                    stones,
                } => write!(
                    f,
                    "kgs-time_settings canadian {main_time} {period_time} {stones}"
                ),
            },
            CpuTime => f.write_str("cputime"),
            GoguiAnalyzeCommands => f.write_str("gogui-analyze_commands"),
            GoguiInterrupt => f.write_str("gogui-interrupt"),
            Gfx(view, color) => {
                f.write_str(match view {
                    GfxView::Ownership => "hane-ownership",
                    GfxView::Candidates => "hane-candidates",
                    GfxView::Variation => "hane-pv",
                    GfxView::Score => "hane-score",
                })?;
                color.map_or(Ok(()), |color| write!(f, " {}", c(&color)))
            }
            Analyze(dialect, args) | GenmoveAnalyze(dialect, args) => {
                let prefix = match dialect {
                    Dialect::LeelaZero => "lz",
                    Dialect::KataGo => "kata",
                };
                let name = if matches!(self, Analyze(..)) {
                    "analyze"
                } else {
                    "genmove_analyze"
                };
                write!(f, "{prefix}-{name}{args}")
            }
            KataGetRules => f.write_str("kata-get-rules"),
            KataSetRules(rules) => write!(f, "kata-set-rules {rules}"),
            KataListParams => f.write_str("kata-list-params"),
            KataGetParam(name) => write!(f, "kata-get-param {name}"),
            KataSetParam(name, value) => write!(f, "kata-set-param {name} {value}"),
            KataGetParams => f.write_str("kata-get-params"),
            KataSetParams(params) => write!(f, "kata-set-params {params}"),
            IsLegal(color, mv) => write!(f, "is_legal {} {mv}", c(color)),
            AllLegal(color) => write!(f, "all_legal {}", c(color)),
            ListStones(color) => write!(f, "list_stones {}", c(color)),
            ColorAt(vertex) => write!(f, "color {vertex}"),
            Countlib(vertex) => write!(f, "countlib {vertex}"),
            Captures(color) => write!(f, "captures {}", c(color)),
        }
    }
}

/// The arguments as they would be written after the command name, each
/// with its leading space: ` B 50 maxmoves 3 avoid W D4,Q16 1`.
impl fmt::Display for AnalyzeArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(color) = self.color {
            write!(f, " {}", color.letter())?;
        }
        if let Some(interval) = self.interval {
            write!(f, " {interval}")?;
        }
        if let Some(n) = self.max_moves {
            write!(f, " maxmoves {n}")?;
        }
        if let Some(n) = self.min_moves {
            write!(f, " minmoves {n}")?;
        }
        for rule in self.filter.rules() {
            let kind = match rule.kind {
                FilterKind::Avoid => "avoid",
                FilterKind::Allow => "allow",
            };
            let moves: Vec<String> = rule.moves.iter().map(Move::to_string).collect();
            write!(
                f,
                " {kind} {} {} {}",
                rule.color.letter(),
                moves.join(","),
                rule.until_depth
            )?;
        }
        for (on, key) in [
            (self.ownership, "ownership"),
            (self.ownership_stdev, "ownershipStdev"),
            (self.moves_ownership, "movesOwnership"),
            (self.root_info, "rootInfo"),
            (self.pv_visits, "pvVisits"),
            (self.pv_edge_visits, "pvEdgeVisits"),
            (self.no_result_value, "noResultValue"),
        ] {
            if on {
                write!(f, " {key} true")?;
            }
        }
        Ok(())
    }
}
