//! The GTP v2 line parser: one raw input line in, one typed `GtpRequest` out.
//!
//! The line is preprocessed as the spec (section 3.1) asks, then parsed as
//! bytes, not as `str`: bytes >= 128 (valid UTF-8 or not) are ordinary
//! non-space characters, so a line with invalid UTF-8 simply holds an unknown
//! command name or a malformed argument. Working on bytes also keeps nom's
//! case-insensitive `tag_no_case` ASCII-only: on `&str` it folds Unicode case
//! and can slice inside a character (`blac\u{212A}`, a Kelvin sign, panics).
//!
//! Choices the spec leaves open:
//! - An id too large for u64 is not an id: the answer is
//!   `GtpRequest { id: None, command: Err(Syntax("id too large")) }`.
//! - A line holding only an id (`12`) has an empty command name, which is not
//!   a known command: `GtpRequest { id: Some(12), command: Err(UnknownCommand) }`.
//! - Integers saturate at u64::MAX; the engine judges the value.
//! - A time of `-0` is accepted as 0.

use nom::branch::alt;
use nom::bytes::complete::{tag_no_case, take_till1, take_while, take_while1};
use nom::character::complete::digit1;
use nom::combinator::{eof, map, map_opt, map_res, peek, value, verify};
use nom::number::complete::recognize_float;
use nom::sequence::{preceded, terminated};
use nom::IResult;

use super::command::{
    AnalyzeArgs, Command, Dialect, GfxView, GtpRequest, KgsTimeSystem, ParseError, StoneStatus,
};
use crate::game::{Color, Move, Vertex, MAX_KOMI};
use crate::player::{FilterKind, MoveRule};

type Input<'a> = &'a [u8];
type Parsed<'a, T> = IResult<Input<'a>, T>;

/// Parses one input line, given without its trailing LF. Returns `None` for
/// a line that the spec says to ignore: empty, blank or only a comment once
/// control characters are gone.
pub fn parse_line(line: &[u8]) -> Option<GtpRequest> {
    let text = preprocess(line);
    if text.iter().all(|&byte| is_separator(byte)) {
        return None;
    }
    Some(parse_request(&text))
}

/// Spec section 3.1: drop control characters other than HT and LF, turn HT
/// into a space, and cut everything from the first `#`. LF becomes a space
/// too: it cannot be inside a line, and if it were it would separate words.
fn preprocess(line: &[u8]) -> Vec<u8> {
    let mut text = Vec::with_capacity(line.len());
    for &byte in line {
        match byte {
            b'#' => break,
            b'\t' | b'\n' => text.push(b' '),
            0..=31 | 127 => {}
            _ => text.push(byte),
        }
    }
    text
}

fn is_separator(byte: u8) -> bool {
    byte == b' '
}

/// `[id] command_name [arguments]`, on a line that is not blank.
fn parse_request(text: &[u8]) -> GtpRequest {
    let (rest, _) = spaces0(text).unwrap_or((text, &[]));
    let (rest, id) = match id(rest) {
        Ok((rest, digits)) => match exact_u64(digits) {
            Some(id) => (rest, Some(id)),
            None => {
                return GtpRequest {
                    id: None,
                    command: Err(syntax("id too large")),
                }
            }
        },
        Err(_) => (rest, None),
    };
    let (rest, _) = spaces0(rest).unwrap_or((rest, &[]));
    // An id-only line leaves an empty name, which matches no command.
    let (arguments, name) = split_word(rest);
    GtpRequest {
        id,
        command: parse_command(name, arguments),
    }
}

/// A command's argument reader: the rest of the line in, the command out.
type ReadArguments = for<'a> fn(Arguments<'a>) -> Result<Command, ParseError>;

/// Every command hane answers, in the order `list_commands` prints them,
/// each with the reader of its arguments. The parser looks names up here
/// and `list_commands` / `known_command` read the names from here, so the
/// two cannot disagree.
#[rustfmt::skip]
const COMMANDS: &[(&str, ReadArguments)] = &[
    ("protocol_version", |args| no_arguments(args, Command::ProtocolVersion)),
    ("name", |args| no_arguments(args, Command::Name)),
    ("version", |args| no_arguments(args, Command::Version)),
    ("known_command", |args| one_word(args).map(Command::KnownCommand)),
    ("list_commands", |args| no_arguments(args, Command::ListCommands)),
    ("quit", |args| no_arguments(args, Command::Quit)),
    ("boardsize", board_dimensions),
    ("rectangular_boardsize", board_dimensions),
    ("clear_board", |args| no_arguments(args, Command::ClearBoard)),
    ("komi", |args| one_komi(args).map(Command::Komi)),
    ("play", |args| color_and_move(args).map(|(color, mv)| Command::Play(color, mv))),
    ("genmove", |args| one_color(args).map(Command::Genmove)),
    ("reg_genmove", |args| one_color(args).map(Command::RegGenmove)),
    ("kgs-genmove_cleanup", |args| one_color(args).map(Command::KgsGenmoveCleanup)),
    ("undo", |args| no_arguments(args, Command::Undo)),
    ("showboard", |args| no_arguments(args, Command::Showboard)),
    ("final_score", |args| no_arguments(args, Command::FinalScore)),
    ("final_status_list", |args| one_status(args).map(Command::FinalStatusList)),
    ("fixed_handicap", |args| one_integer(args).map(Command::FixedHandicap)),
    ("place_free_handicap", |args| one_integer(args).map(Command::PlaceFreeHandicap)),
    ("set_free_handicap", |args| vertex_list(args).map(Command::SetFreeHandicap)),
    ("loadsgf", file_and_move_number),
    ("printsgf", |args| optional_file(args).map(Command::PrintSgf)),
    ("time_settings", time_settings),
    ("time_left", time_left),
    ("kgs-time_settings", |args| kgs_time_settings(args).map(Command::KgsTimeSettings)),
    ("cputime", |args| no_arguments(args, Command::CpuTime)),
    ("gogui-analyze_commands", |args| no_arguments(args, Command::GoguiAnalyzeCommands)),
    ("gogui-interrupt", |args| no_arguments(args, Command::GoguiInterrupt)),
    ("hane-ownership", |args| gfx(args, GfxView::Ownership)),
    ("hane-candidates", |args| gfx(args, GfxView::Candidates)),
    ("hane-pv", |args| gfx(args, GfxView::Variation)),
    ("hane-score", |args| gfx(args, GfxView::Score)),
    ("lz-analyze", |args| analyze(args, Dialect::LeelaZero, Command::Analyze)),
    ("lz-genmove_analyze", |args| analyze(args, Dialect::LeelaZero, Command::GenmoveAnalyze)),
    ("kata-analyze", |args| analyze(args, Dialect::KataGo, Command::Analyze)),
    ("kata-genmove_analyze", |args| analyze(args, Dialect::KataGo, Command::GenmoveAnalyze)),
    ("kata-get-rules", |args| no_arguments(args, Command::KataGetRules)),
    ("kata-set-rules", |args| rest_of_line(args, EXPECTED_RULES).map(Command::KataSetRules)),
    ("kata-list-params", |args| no_arguments(args, Command::KataListParams)),
    ("kata-get-param", |args| one_word(args).map(Command::KataGetParam)),
    ("kata-set-param", |args| two_words(args).map(|(n, v)| Command::KataSetParam(n, v))),
    ("kata-get-params", |args| no_arguments(args, Command::KataGetParams)),
    ("kata-set-params", |args| rest_of_line(args, EXPECTED_PARAMS).map(Command::KataSetParams)),
    ("is_legal", |args| color_and_move(args).map(|(color, mv)| Command::IsLegal(color, mv))),
    ("all_legal", |args| one_color(args).map(Command::AllLegal)),
    ("list_stones", |args| one_color(args).map(Command::ListStones)),
    ("color", |args| one_vertex(args).map(Command::ColorAt)),
    ("countlib", |args| one_vertex(args).map(Command::Countlib)),
    ("captures", |args| one_color(args).map(Command::Captures)),
];

/// The names `list_commands` prints and `known_command` accepts, in order.
pub fn command_names() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().map(|&(name, _)| name)
}

/// Reads the arguments of the command called `name` (case-sensitive);
/// `arguments` is the rest of the line, starting with separators or empty.
fn parse_command(name: &[u8], arguments: &[u8]) -> Result<Command, ParseError> {
    match COMMANDS.iter().find(|(known, _)| known.as_bytes() == name) {
        Some((_, read)) => read(Arguments::new(arguments)),
        None => Err(ParseError::UnknownCommand),
    }
}

// ---------------------------------------------------------------------------
// Error details, short, appended by `ParseError`'s Display.

const EXPECTED_COLOR: &str = "expected a colour";
const EXPECTED_VERTEX: &str = "expected a vertex";
const EXPECTED_MOVE: &str = "expected a vertex or pass";
const EXPECTED_INTEGER: &str = "expected an integer";
const EXPECTED_NUMBER: &str = "expected a number";
const EXPECTED_KOMI: &str = "expected a komi between -1251 and 1251";
const EXPECTED_TIME: &str = "expected a non-negative number";
const EXPECTED_STATUS: &str = "expected alive, dead or seki";
const EXPECTED_FILE: &str = "expected a file name";
const EXPECTED_NAME: &str = "expected a command name";
const EXPECTED_KGS_SYSTEM: &str = "expected none, absolute, byoyomi or canadian";
const TOO_MANY: &str = "too many arguments";
const EXPECTED_ANALYZE_OPTION: &str = "expected interval, maxmoves, minmoves, avoid, allow, \
ownership, ownershipStdev, movesOwnership, rootInfo, pvVisits, pvEdgeVisits or noResultValue";
/// Leela Zero answers `cannot parse analyze tags` to any key it does not
/// know; these are KataGo's, so say where they belong.
const KATAGO_ONLY_OPTION: &str = "cannot parse analyze tags: ownership, ownershipStdev, \
movesOwnership, rootInfo, pvVisits, pvEdgeVisits and noResultValue are kata-analyze's; \
Leela Zero's lz-analyze has none of them";
const KATAGO_ONLY_KEYS: [&[u8]; 7] = [
    b"ownership",
    b"ownershipStdev",
    b"movesOwnership",
    b"rootInfo",
    b"pvVisits",
    b"pvEdgeVisits",
    b"noResultValue",
];
const EXPECTED_LZ_OPTION: &str = "expected interval, maxmoves, minmoves, avoid or allow";
const EXPECTED_MOVE_LIST: &str = "expected moves separated by commas";
const EXPECTED_DEPTH: &str = "expected a depth of at least 1";
const EXPECTED_BOOLEAN: &str = "expected true or false";
const EXPECTED_RULES: &str = "expected rules: tromp-taylor or a JSON rules object";
const EXPECTED_VALUE: &str = "expected a parameter's value";
const EXPECTED_PARAMS: &str = "expected a JSON object of parameters and values";

fn syntax(detail: &str) -> ParseError {
    ParseError::Syntax(detail.to_string())
}

// ---------------------------------------------------------------------------
// Small nom combinators. Each value parser reads the start of one word;
// `argument` makes it consume the whole word.

fn spaces0(input: Input) -> Parsed<Input> {
    take_while(is_separator)(input)
}

fn spaces1(input: Input) -> Parsed<Input> {
    take_while1(is_separator)(input)
}

/// Everything up to the next separator, possibly nothing. Never fails.
fn split_word(input: Input) -> (Input, Input) {
    let end = input
        .iter()
        .position(|&byte| is_separator(byte))
        .unwrap_or(input.len());
    (&input[end..], &input[..end])
}

/// A word: one or more non-separator bytes.
fn word(input: Input) -> Parsed<Input> {
    take_till1(is_separator)(input)
}

/// Succeeds, consuming nothing, where a word ends.
fn end_of_word(input: Input) -> Parsed<()> {
    value((), peek(alt((spaces1, eof))))(input)
}

/// An ASCII word matched in any case, and nothing longer (`b` is not `bx`).
fn keyword<'a>(text: &'static str) -> impl FnMut(Input<'a>) -> Parsed<'a, Input<'a>> {
    terminated(tag_no_case(text), end_of_word)
}

/// The optional command id: decimal digits followed by a separator or the
/// end of the line (`12abc` is a command name, not an id).
fn id(input: Input) -> Parsed<Input> {
    terminated(digit1, end_of_word)(input)
}

/// `b`, `w`, `black` or `white`, any case.
fn color(input: Input) -> Parsed<Color> {
    alt((
        value(Color::Black, keyword("black")),
        value(Color::Black, keyword("b")),
        value(Color::White, keyword("white")),
        value(Color::White, keyword("w")),
    ))(input)
}

/// A vertex such as `D4` or `t19`, not `pass`; not checked against a board size.
fn vertex(input: Input) -> Parsed<Vertex> {
    map_opt(word, |text| {
        std::str::from_utf8(text).ok().and_then(Vertex::parse_gtp)
    })(input)
}

/// A vertex or `pass` in any case.
fn game_move(input: Input) -> Parsed<Move> {
    alt((map(vertex, Move::Play), value(Move::Pass, keyword("pass"))))(input)
}

/// An unsigned decimal integer, saturating at u64::MAX.
fn unsigned(input: Input) -> Parsed<u64> {
    map(digit1, saturating_u64)(input)
}

/// A finite decimal number with optional sign, fraction and exponent; no
/// `nan` or `inf`, and nothing that overflows to infinity (`1e999`).
fn float(input: Input) -> Parsed<f64> {
    map_opt(recognize_float, |text: Input| {
        let number: f64 = std::str::from_utf8(text).ok()?.parse().ok()?;
        number.is_finite().then_some(number)
    })(input)
}

/// A time in seconds: a finite number that is not negative (`-0` is 0).
fn time(input: Input) -> Parsed<f64> {
    map(verify(float, |&seconds| seconds >= 0.0), f64::abs)(input)
}

fn boolean(input: Input) -> Parsed<bool> {
    alt((value(true, keyword("true")), value(false, keyword("false"))))(input)
}

fn stone_status(input: Input) -> Parsed<StoneStatus> {
    alt((
        value(StoneStatus::Alive, keyword("alive")),
        value(StoneStatus::Dead, keyword("dead")),
        value(StoneStatus::Seki, keyword("seki")),
    ))(input)
}

/// A file name: one word, which must be UTF-8 because `Command` holds a String.
fn file_name(input: Input) -> Parsed<String> {
    map_res(word, |text: Input| {
        std::str::from_utf8(text).map(str::to_string)
    })(input)
}

/// A command name for `known_command`: any word. Invalid UTF-8 is kept
/// lossily; such a name is unknown either way.
fn command_name(input: Input) -> Parsed<String> {
    map(word, |text: Input| {
        String::from_utf8_lossy(text).into_owned()
    })(input)
}

/// The names of the `kgs-time_settings` systems.
#[derive(Clone, Copy)]
enum KgsSystemName {
    None,
    Absolute,
    Byoyomi,
    Canadian,
}

fn kgs_system_name(input: Input) -> Parsed<KgsSystemName> {
    alt((
        value(KgsSystemName::None, keyword("none")),
        value(KgsSystemName::Absolute, keyword("absolute")),
        value(KgsSystemName::Byoyomi, keyword("byoyomi")),
        value(KgsSystemName::Canadian, keyword("canadian")),
    ))(input)
}

/// u64 from ASCII digits, None when too large. `str::parse` stops at the
/// first overflow, so a megabyte of digits costs no more than twenty.
fn exact_u64(digits: &[u8]) -> Option<u64> {
    std::str::from_utf8(digits).ok()?.parse().ok()
}

/// u64 from ASCII digits, u64::MAX when too large.
fn saturating_u64(digits: &[u8]) -> u64 {
    exact_u64(digits).unwrap_or(u64::MAX)
}

// ---------------------------------------------------------------------------
// The arguments of one command, read left to right.

struct Arguments<'a> {
    rest: Input<'a>,
}

impl<'a> Arguments<'a> {
    fn new(rest: Input<'a>) -> Arguments<'a> {
        Arguments { rest }
    }

    /// Reads the next argument with `parser`, which must consume all of it;
    /// a missing or malformed argument is the syntax error `expected`.
    fn next<T>(
        &mut self,
        parser: impl FnMut(Input<'a>) -> Parsed<'a, T>,
        expected: &str,
    ) -> Result<T, ParseError> {
        match preceded(spaces1, terminated(parser, end_of_word))(self.rest) {
            Ok((rest, parsed)) => {
                self.rest = rest;
                Ok(parsed)
            }
            Err(_) => Err(syntax(expected)),
        }
    }

    /// Reads the next argument with `parser` if it parses, else leaves it
    /// for the next reader: for leading optional arguments.
    fn optional<T>(&mut self, parser: impl FnMut(Input<'a>) -> Parsed<'a, T>) -> Option<T> {
        match preceded(spaces1, terminated(parser, end_of_word))(self.rest) {
            Ok((rest, parsed)) => {
                self.rest = rest;
                Some(parsed)
            }
            Err(_) => None,
        }
    }

    /// Whether only separators are left.
    fn is_empty(&self) -> bool {
        self.rest.iter().all(|&byte| is_separator(byte))
    }

    /// Ends the argument list: anything left is one argument too many.
    fn finish(self) -> Result<(), ParseError> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(syntax(TOO_MANY))
        }
    }
}

// ---------------------------------------------------------------------------
// One function per argument shape.

fn no_arguments(args: Arguments, command: Command) -> Result<Command, ParseError> {
    args.finish().map(|()| command)
}

fn one_word(mut args: Arguments) -> Result<String, ParseError> {
    let name = args.next(command_name, EXPECTED_NAME)?;
    args.finish().map(|()| name)
}

fn two_words(mut args: Arguments) -> Result<(String, String), ParseError> {
    let first = args.next(command_name, EXPECTED_NAME)?;
    let second = args.next(command_name, EXPECTED_VALUE)?;
    args.finish().map(|()| (first, second))
}

/// Everything after the command name, as one text with the outer spaces
/// trimmed (a JSON object has spaces inside); not empty.
fn rest_of_line(args: Arguments, expected: &'static str) -> Result<String, ParseError> {
    let text = String::from_utf8_lossy(args.rest).trim().to_string();
    if text.is_empty() {
        return Err(syntax(expected));
    }
    Ok(text)
}

fn one_integer(mut args: Arguments) -> Result<u64, ParseError> {
    let number = args.next(unsigned, EXPECTED_INTEGER)?;
    args.finish().map(|()| number)
}

/// `N` for a square board, or `W H` (width, then height) for a rectangle,
/// as KataGo and q5Go read both `boardsize` and `rectangular_boardsize`.
fn board_dimensions(mut args: Arguments) -> Result<Command, ParseError> {
    let width = args.next(unsigned, EXPECTED_INTEGER)?;
    if args.is_empty() {
        return Ok(Command::Boardsize(width, width));
    }
    let height = args.next(unsigned, EXPECTED_INTEGER)?;
    args.finish().map(|()| Command::Boardsize(width, height))
}

fn one_float(mut args: Arguments) -> Result<f64, ParseError> {
    let number = args.next(float, EXPECTED_NUMBER)?;
    args.finish().map(|()| number)
}

fn one_komi(args: Arguments) -> Result<f64, ParseError> {
    let komi = one_float(args)?;
    if komi.abs() > MAX_KOMI {
        return Err(ParseError::Syntax(EXPECTED_KOMI.to_string()));
    }
    Ok(komi)
}

fn one_color(mut args: Arguments) -> Result<Color, ParseError> {
    let color = args.next(color, EXPECTED_COLOR)?;
    args.finish().map(|()| color)
}

fn one_vertex(mut args: Arguments) -> Result<Vertex, ParseError> {
    let point = args.next(vertex, EXPECTED_VERTEX)?;
    args.finish().map(|()| point)
}

fn one_status(mut args: Arguments) -> Result<StoneStatus, ParseError> {
    let status = args.next(stone_status, EXPECTED_STATUS)?;
    args.finish().map(|()| status)
}

fn color_and_move(mut args: Arguments) -> Result<(Color, Move), ParseError> {
    let color = args.next(color, EXPECTED_COLOR)?;
    let mv = args.next(game_move, EXPECTED_MOVE)?;
    args.finish().map(|()| (color, mv))
}

fn optional_color(mut args: Arguments) -> Result<Option<Color>, ParseError> {
    if args.is_empty() {
        return Ok(None);
    }
    let color = args.next(color, EXPECTED_COLOR)?;
    args.finish().map(|()| Some(color))
}

/// A GoGui gfx view, for a colour or the side to move.
fn gfx(args: Arguments, view: GfxView) -> Result<Command, ParseError> {
    optional_color(args).map(|color| Command::Gfx(view, color))
}

/// An analysis command of `dialect`, streaming or genmove-like (`make`).
fn analyze(
    args: Arguments,
    dialect: Dialect,
    make: fn(Dialect, AnalyzeArgs) -> Command,
) -> Result<Command, ParseError> {
    analyze_args(args, dialect).map(|parsed| make(dialect, parsed))
}

/// `[COLOUR] [INTERVAL] {KEY VALUE}`, as Leela Zero and KataGo read them
/// (the interval in centiseconds, a fraction allowed, as KataGo reads it):
/// the keys `interval`, `maxmoves`, `minmoves`, `avoid` and `allow`, and
/// for KataGo the optional outputs (`KATAGO_ONLY_KEYS`), which
/// `lz-analyze` refuses as KataGo's and Leela Zero's own do. An option hane
/// does not honour is a syntax error rather than ignored.
fn analyze_args(mut args: Arguments, dialect: Dialect) -> Result<AnalyzeArgs, ParseError> {
    let mut parsed = AnalyzeArgs {
        color: args.optional(color),
        interval: args.optional(time),
        ..AnalyzeArgs::default()
    };
    let expected = match dialect {
        Dialect::LeelaZero => EXPECTED_LZ_OPTION,
        Dialect::KataGo => EXPECTED_ANALYZE_OPTION,
    };
    while !args.is_empty() {
        match args.next(word, expected)? {
            b"interval" => parsed.interval = Some(args.next(time, EXPECTED_TIME)?),
            b"maxmoves" => parsed.max_moves = Some(args.next(unsigned, EXPECTED_INTEGER)?),
            b"minmoves" => parsed.min_moves = Some(args.next(unsigned, EXPECTED_INTEGER)?),
            b"avoid" => parsed
                .filter
                .add(move_rule(&mut args, FilterKind::Avoid)?)
                .map_err(syntax)?,
            b"allow" => parsed
                .filter
                .add(move_rule(&mut args, FilterKind::Allow)?)
                .map_err(syntax)?,
            key if KATAGO_ONLY_KEYS.contains(&key) => {
                if dialect != Dialect::KataGo {
                    return Err(syntax(KATAGO_ONLY_OPTION));
                }
                let on = args.next(boolean, EXPECTED_BOOLEAN)?;
                match key {
                    b"ownership" => parsed.ownership = on,
                    b"ownershipStdev" => parsed.ownership_stdev = on,
                    b"movesOwnership" => parsed.moves_ownership = on,
                    b"rootInfo" => parsed.root_info = on,
                    b"pvVisits" => parsed.pv_visits = on,
                    b"pvEdgeVisits" => parsed.pv_edge_visits = on,
                    _ => parsed.no_result_value = on,
                }
            }
            _ => return Err(syntax(expected)),
        }
    }
    Ok(parsed)
}

/// The rest of `avoid COLOUR MOVES DEPTH` or `allow ...`: MOVES are
/// vertices or `pass` separated by commas (empty pieces skipped, as KataGo
/// skips them), DEPTH counts plies from the root, 1 and up.
fn move_rule(args: &mut Arguments, kind: FilterKind) -> Result<MoveRule, ParseError> {
    let color = args.next(color, EXPECTED_COLOR)?;
    let moves = args.next(move_list, EXPECTED_MOVE_LIST)?;
    let until_depth = args.next(unsigned, EXPECTED_DEPTH)?;
    if until_depth == 0 {
        return Err(syntax(EXPECTED_DEPTH));
    }
    Ok(MoveRule {
        kind,
        color,
        moves,
        until_depth: until_depth.min(u32::MAX as u64) as u32,
    })
}

/// `D4,Q16,pass`: one word of moves separated by commas.
fn move_list(input: Input) -> Parsed<Vec<Move>> {
    map_opt(word, |text: Input| {
        text.split(|&byte| byte == b',')
            .filter(|piece| !piece.is_empty())
            .map(|piece| match game_move(piece) {
                Ok((b"", mv)) => Some(mv),
                _ => None,
            })
            .collect()
    })(input)
}

/// One or more vertices; `pass` is not a vertex here.
fn vertex_list(mut args: Arguments) -> Result<Vec<Vertex>, ParseError> {
    let mut vertices = vec![args.next(vertex, EXPECTED_VERTEX)?];
    while !args.is_empty() {
        vertices.push(args.next(vertex, EXPECTED_VERTEX)?);
    }
    Ok(vertices)
}

/// `loadsgf FILE [MOVE_NUMBER]`.
fn file_and_move_number(mut args: Arguments) -> Result<Command, ParseError> {
    let path = args.next(file_name, EXPECTED_FILE)?;
    let move_number = if args.is_empty() {
        None
    } else {
        Some(args.next(unsigned, EXPECTED_INTEGER)?)
    };
    args.finish()?;
    Ok(Command::LoadSgf { path, move_number })
}

/// `printsgf [FILE]`.
fn optional_file(mut args: Arguments) -> Result<Option<String>, ParseError> {
    if args.is_empty() {
        return Ok(None);
    }
    let path = args.next(file_name, EXPECTED_FILE)?;
    args.finish().map(|()| Some(path))
}

/// `time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES`.
fn time_settings(mut args: Arguments) -> Result<Command, ParseError> {
    let main_time = args.next(time, EXPECTED_TIME)?;
    let byo_yomi_time = args.next(time, EXPECTED_TIME)?;
    let byo_yomi_stones = args.next(unsigned, EXPECTED_INTEGER)?;
    args.finish()?;
    Ok(Command::TimeSettings {
        main_time,
        byo_yomi_time,
        byo_yomi_stones,
    })
}

/// `time_left COLOUR TIME STONES`.
fn time_left(mut args: Arguments) -> Result<Command, ParseError> {
    let color = args.next(color, EXPECTED_COLOR)?;
    let time = args.next(time, EXPECTED_TIME)?;
    let stones = args.next(unsigned, EXPECTED_INTEGER)?;
    args.finish()?;
    Ok(Command::TimeLeft {
        color,
        time,
        stones,
    })
}

/// `kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD_TIME PERIODS
/// | canadian MAIN PERIOD_TIME STONES`.
fn kgs_time_settings(mut args: Arguments) -> Result<KgsTimeSystem, ParseError> {
    let system = match args.next(kgs_system_name, EXPECTED_KGS_SYSTEM)? {
        KgsSystemName::None => KgsTimeSystem::None,
        KgsSystemName::Absolute => KgsTimeSystem::Absolute {
            main_time: args.next(time, EXPECTED_TIME)?,
        },
        KgsSystemName::Byoyomi => KgsTimeSystem::Byoyomi {
            main_time: args.next(time, EXPECTED_TIME)?,
            period_time: args.next(time, EXPECTED_TIME)?,
            periods: args.next(unsigned, EXPECTED_INTEGER)?,
        },
        KgsSystemName::Canadian => KgsTimeSystem::Canadian {
            main_time: args.next(time, EXPECTED_TIME)?,
            period_time: args.next(time, EXPECTED_TIME)?,
            stones: args.next(unsigned, EXPECTED_INTEGER)?,
        },
    };
    args.finish().map(|()| system)
}

#[cfg(test)]
mod tests;
