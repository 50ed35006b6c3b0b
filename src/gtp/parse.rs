//! The GTP v2 line parser: one raw input line in, one typed `Request` out.
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
//!   `Request { id: None, command: Err(Syntax("id too large")) }`.
//! - A line holding only an id (`12`) has an empty command name, which is not
//!   a known command: `Request { id: Some(12), command: Err(UnknownCommand) }`.
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
    AnalyzeArgs, Command, Dialect, GfxView, KgsTimeSystem, ParseError, Request, StoneStatus,
};
use crate::game::{Color, Move, Vertex};

type Input<'a> = &'a [u8];
type Parsed<'a, T> = IResult<Input<'a>, T>;

/// Parses one input line, given without its trailing LF. Returns `None` for
/// a line that the spec says to ignore: empty, blank or only a comment once
/// control characters are gone.
pub fn parse_line(line: &[u8]) -> Option<Request> {
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
fn parse_request(text: &[u8]) -> Request {
    let (rest, _) = spaces0(text).unwrap_or((text, &[]));
    let (rest, id) = match id(rest) {
        Ok((rest, digits)) => match exact_u64(digits) {
            Some(id) => (rest, Some(id)),
            None => {
                return Request {
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
    Request {
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
    ("boardsize", |args| one_integer(args).map(Command::Boardsize)),
    ("clear_board", |args| no_arguments(args, Command::ClearBoard)),
    ("komi", |args| one_float(args).map(Command::Komi)),
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
const EXPECTED_TIME: &str = "expected a non-negative number";
const EXPECTED_STATUS: &str = "expected alive, dead or seki";
const EXPECTED_FILE: &str = "expected a file name";
const EXPECTED_NAME: &str = "expected a command name";
const EXPECTED_KGS_SYSTEM: &str = "expected none, absolute, byoyomi or canadian";
const TOO_MANY: &str = "too many arguments";
const EXPECTED_ANALYZE_OPTION: &str = "expected interval, maxmoves or ownership";
const EXPECTED_LZ_OPTION: &str = "expected interval or maxmoves";
const EXPECTED_BOOLEAN: &str = "expected true or false";

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

fn one_integer(mut args: Arguments) -> Result<u64, ParseError> {
    let number = args.next(unsigned, EXPECTED_INTEGER)?;
    args.finish().map(|()| number)
}

fn one_float(mut args: Arguments) -> Result<f64, ParseError> {
    let number = args.next(float, EXPECTED_NUMBER)?;
    args.finish().map(|()| number)
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

/// `[COLOUR] [INTERVAL] {KEY VALUE}`, as Leela Zero and KataGo read them:
/// the keys `interval` and `maxmoves`, and for KataGo `ownership`. An
/// option hane does not honour is a syntax error rather than ignored.
fn analyze_args(mut args: Arguments, dialect: Dialect) -> Result<AnalyzeArgs, ParseError> {
    let mut parsed = AnalyzeArgs {
        color: args.optional(color),
        interval: args.optional(unsigned),
        ..AnalyzeArgs::default()
    };
    let expected = match dialect {
        Dialect::LeelaZero => EXPECTED_LZ_OPTION,
        Dialect::KataGo => EXPECTED_ANALYZE_OPTION,
    };
    while !args.is_empty() {
        match args.next(word, expected)? {
            b"interval" => parsed.interval = Some(args.next(unsigned, EXPECTED_INTEGER)?),
            b"maxmoves" => parsed.max_moves = Some(args.next(unsigned, EXPECTED_INTEGER)?),
            b"ownership" if dialect == Dialect::KataGo => {
                parsed.ownership = args.next(boolean, EXPECTED_BOOLEAN)?
            }
            _ => return Err(syntax(expected)),
        }
    }
    Ok(parsed)
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
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn parse(line: &str) -> Option<Request> {
        parse_line(line.as_bytes())
    }

    /// The command of a line that must not be ignored.
    fn command(line: &str) -> Result<Command, ParseError> {
        match parse(line) {
            Some(request) => request.command,
            None => panic!("line {line:?} was ignored"),
        }
    }

    fn ok(line: &str) -> Command {
        match command(line) {
            Ok(command) => command,
            Err(error) => panic!("line {line:?} gave {error}"),
        }
    }

    fn syntax_error(line: &str) -> String {
        match command(line) {
            Err(ParseError::Syntax(detail)) => detail,
            other => panic!("line {line:?} gave {other:?}, expected a syntax error"),
        }
    }

    fn v(text: &str) -> Vertex {
        Vertex::parse_gtp(text).expect("test vertex")
    }

    // --- every command with good arguments ---------------------------------

    #[test]
    fn commands_without_arguments() {
        assert_eq!(ok("protocol_version"), Command::ProtocolVersion);
        assert_eq!(ok("name"), Command::Name);
        assert_eq!(ok("version"), Command::Version);
        assert_eq!(ok("list_commands"), Command::ListCommands);
        assert_eq!(ok("quit"), Command::Quit);
        assert_eq!(ok("clear_board"), Command::ClearBoard);
        assert_eq!(ok("undo"), Command::Undo);
        assert_eq!(ok("showboard"), Command::Showboard);
        assert_eq!(ok("final_score"), Command::FinalScore);
        assert_eq!(ok("gogui-analyze_commands"), Command::GoguiAnalyzeCommands);
        assert_eq!(ok("gogui-interrupt"), Command::GoguiInterrupt);
    }

    #[test]
    fn commands_with_numbers() {
        assert_eq!(ok("boardsize 19"), Command::Boardsize(19));
        assert_eq!(ok("boardsize 007"), Command::Boardsize(7));
        assert_eq!(ok("komi 6.5"), Command::Komi(6.5));
        assert_eq!(ok("komi -7"), Command::Komi(-7.0));
        assert_eq!(ok("komi +0.5"), Command::Komi(0.5));
        assert_eq!(ok("komi 1e1"), Command::Komi(10.0));
        assert_eq!(ok("komi .5"), Command::Komi(0.5));
        assert_eq!(ok("fixed_handicap 4"), Command::FixedHandicap(4));
        assert_eq!(ok("place_free_handicap 9"), Command::PlaceFreeHandicap(9));
    }

    #[test]
    fn commands_with_colors_and_moves() {
        assert_eq!(
            ok("play b D4"),
            Command::Play(Color::Black, Move::Play(v("D4")))
        );
        assert_eq!(
            ok("play WHITE q16"),
            Command::Play(Color::White, Move::Play(v("Q16")))
        );
        assert_eq!(
            ok("play Black PASS"),
            Command::Play(Color::Black, Move::Pass)
        );
        assert_eq!(ok("play w Pass"), Command::Play(Color::White, Move::Pass));
        assert_eq!(
            ok("play B z25"),
            Command::Play(Color::Black, Move::Play(v("Z25")))
        );
        assert_eq!(ok("genmove w"), Command::Genmove(Color::White));
        assert_eq!(ok("genmove B"), Command::Genmove(Color::Black));
        assert_eq!(ok("reg_genmove black"), Command::RegGenmove(Color::Black));
        assert_eq!(
            ok("kgs-genmove_cleanup W"),
            Command::KgsGenmoveCleanup(Color::White)
        );
        assert_eq!(
            ok("is_legal w a1"),
            Command::IsLegal(Color::White, Move::Play(v("A1")))
        );
        assert_eq!(
            ok("is_legal b pass"),
            Command::IsLegal(Color::Black, Move::Pass)
        );
        assert_eq!(ok("all_legal white"), Command::AllLegal(Color::White));
        assert_eq!(ok("list_stones b"), Command::ListStones(Color::Black));
        assert_eq!(ok("captures WHITE"), Command::Captures(Color::White));
        assert_eq!(ok("color k10"), Command::ColorAt(v("K10")));
        assert_eq!(ok("countlib T19"), Command::Countlib(v("T19")));
    }

    #[test]
    fn commands_with_words_and_lists() {
        assert_eq!(
            ok("known_command play"),
            Command::KnownCommand("play".into())
        );
        assert_eq!(
            ok("known_command frobnicate"),
            Command::KnownCommand("frobnicate".into())
        );
        assert_eq!(
            ok("final_status_list dead"),
            Command::FinalStatusList(StoneStatus::Dead)
        );
        assert_eq!(
            ok("final_status_list ALIVE"),
            Command::FinalStatusList(StoneStatus::Alive)
        );
        assert_eq!(
            ok("final_status_list Seki"),
            Command::FinalStatusList(StoneStatus::Seki)
        );
        assert_eq!(
            ok("set_free_handicap D4"),
            Command::SetFreeHandicap(vec![v("D4")])
        );
        assert_eq!(
            ok("set_free_handicap d4 Q16  k10 "),
            Command::SetFreeHandicap(vec![v("D4"), v("Q16"), v("K10")])
        );
        assert_eq!(
            ok("loadsgf games/a.sgf"),
            Command::LoadSgf {
                path: "games/a.sgf".into(),
                move_number: None
            }
        );
        assert_eq!(
            ok("loadsgf партия.sgf 12"),
            Command::LoadSgf {
                path: "партия.sgf".into(),
                move_number: Some(12)
            }
        );
        assert_eq!(ok("printsgf"), Command::PrintSgf(None));
        assert_eq!(
            ok("printsgf out.sgf"),
            Command::PrintSgf(Some("out.sgf".into()))
        );
    }

    #[test]
    fn time_commands() {
        assert_eq!(
            ok("time_settings 300 30 5"),
            Command::TimeSettings {
                main_time: 300.0,
                byo_yomi_time: 30.0,
                byo_yomi_stones: 5
            }
        );
        assert_eq!(
            ok("time_settings 0 2.5 0"),
            Command::TimeSettings {
                main_time: 0.0,
                byo_yomi_time: 2.5,
                byo_yomi_stones: 0
            }
        );
        assert_eq!(
            ok("time_left b 12.25 3"),
            Command::TimeLeft {
                color: Color::Black,
                time: 12.25,
                stones: 3
            }
        );
        assert_eq!(
            ok("time_left white 0 0"),
            Command::TimeLeft {
                color: Color::White,
                time: 0.0,
                stones: 0
            }
        );
        assert_eq!(
            ok("kgs-time_settings none"),
            Command::KgsTimeSettings(KgsTimeSystem::None)
        );
        assert_eq!(
            ok("kgs-time_settings Absolute 600"),
            Command::KgsTimeSettings(KgsTimeSystem::Absolute { main_time: 600.0 })
        );
        assert_eq!(
            ok("kgs-time_settings byoyomi 600 30 5"),
            Command::KgsTimeSettings(KgsTimeSystem::Byoyomi {
                main_time: 600.0,
                period_time: 30.0,
                periods: 5
            })
        );
        assert_eq!(
            ok("kgs-time_settings CANADIAN 0.5 300 25"),
            Command::KgsTimeSettings(KgsTimeSystem::Canadian {
                main_time: 0.5,
                period_time: 300.0,
                stones: 25
            })
        );
        // -0 is not negative; it is stored as +0.
        match ok("time_left b -0 0") {
            Command::TimeLeft { time, .. } => assert!(time == 0.0 && time.is_sign_positive()),
            other => panic!("unexpected {other:?}"),
        }
    }

    /// `list_commands` promises exactly the names the parser knows.
    #[test]
    fn every_listed_name_is_parsed_and_no_other() {
        for name in command_names() {
            assert_ne!(command(name), Err(ParseError::UnknownCommand), "{name}");
        }
        for name in [
            "cputime",
            "genmove_black",
            "analyze",
            "genmove_analyze",
            "kgs-chat",
        ] {
            assert!(!command_names().any(|known| known == name));
            assert_eq!(command(name), Err(ParseError::UnknownCommand), "{name}");
        }
    }

    #[test]
    fn analysis_arguments_in_every_form() {
        let lz = |args: AnalyzeArgs| Command::Analyze(Dialect::LeelaZero, args);
        let kata = |args: AnalyzeArgs| Command::Analyze(Dialect::KataGo, args);
        assert_eq!(ok("lz-analyze"), lz(AnalyzeArgs::default()));
        let sabaki = AnalyzeArgs {
            color: Some(Color::Black),
            interval: Some(50),
            ..AnalyzeArgs::default()
        };
        assert_eq!(ok("lz-analyze B 50"), lz(sabaki.clone()));
        assert_eq!(ok("lz-analyze b interval 50"), lz(sabaki.clone()));
        assert_eq!(
            ok("kata-analyze 25 maxmoves 3 ownership true"),
            kata(AnalyzeArgs {
                interval: Some(25),
                max_moves: Some(3),
                ownership: true,
                ..AnalyzeArgs::default()
            })
        );
        assert_eq!(
            ok("kata-genmove_analyze W 10"),
            Command::GenmoveAnalyze(
                Dialect::KataGo,
                AnalyzeArgs {
                    color: Some(Color::White),
                    interval: Some(10),
                    ..AnalyzeArgs::default()
                }
            )
        );
        assert_eq!(
            ok("hane-pv w"),
            Command::Gfx(GfxView::Variation, Some(Color::White))
        );
        assert_eq!(ok("hane-score"), Command::Gfx(GfxView::Score, None));
        assert_eq!(
            syntax_error("lz-analyze b 50 ownership true"),
            EXPECTED_LZ_OPTION
        );
        assert_eq!(
            syntax_error("kata-analyze b 50 ownership maybe"),
            EXPECTED_BOOLEAN
        );
        assert_eq!(syntax_error("kata-analyze b 50 interval"), EXPECTED_INTEGER);
        assert_eq!(syntax_error("kata-analyze b -5"), EXPECTED_ANALYZE_OPTION);
        assert_eq!(syntax_error("kata-analyze 50 b"), EXPECTED_ANALYZE_OPTION);
        assert_eq!(syntax_error("hane-ownership purple"), EXPECTED_COLOR);
        assert_eq!(syntax_error("hane-candidates b w"), TOO_MANY);
    }

    // --- failure classes ---------------------------------------------------

    #[test]
    fn unknown_commands() {
        assert_eq!(command("frobnicate"), Err(ParseError::UnknownCommand));
        assert_eq!(command("PLAY b D4"), Err(ParseError::UnknownCommand));
        assert_eq!(command("Genmove b"), Err(ParseError::UnknownCommand));
        assert_eq!(command("play_ b D4"), Err(ParseError::UnknownCommand));
        assert_eq!(command("12abc"), Err(ParseError::UnknownCommand));
    }

    #[test]
    fn missing_arguments() {
        assert_eq!(syntax_error("play"), EXPECTED_COLOR);
        assert_eq!(syntax_error("play b"), EXPECTED_MOVE);
        assert_eq!(syntax_error("genmove"), EXPECTED_COLOR);
        assert_eq!(syntax_error("boardsize"), EXPECTED_INTEGER);
        assert_eq!(syntax_error("komi   "), EXPECTED_NUMBER);
        assert_eq!(syntax_error("known_command"), EXPECTED_NAME);
        assert_eq!(syntax_error("final_status_list"), EXPECTED_STATUS);
        assert_eq!(syntax_error("set_free_handicap"), EXPECTED_VERTEX);
        assert_eq!(syntax_error("loadsgf"), EXPECTED_FILE);
        assert_eq!(syntax_error("time_settings 1 2"), EXPECTED_INTEGER);
        assert_eq!(syntax_error("time_left b 10"), EXPECTED_INTEGER);
        assert_eq!(syntax_error("kgs-time_settings"), EXPECTED_KGS_SYSTEM);
        assert_eq!(syntax_error("kgs-time_settings absolute"), EXPECTED_TIME);
        assert_eq!(
            syntax_error("kgs-time_settings byoyomi 1 2"),
            EXPECTED_INTEGER
        );
        assert_eq!(syntax_error("color"), EXPECTED_VERTEX);
        assert_eq!(syntax_error("countlib"), EXPECTED_VERTEX);
    }

    #[test]
    fn extra_arguments() {
        for line in [
            "name x",
            "quit now",
            "boardsize 19 19",
            "komi 6.5 7",
            "play b D4 D5",
            "genmove b w",
            "known_command play genmove",
            "final_status_list dead alive",
            "loadsgf a.sgf 3 4",
            "printsgf a.sgf b.sgf",
            "time_settings 1 2 3 4",
            "kgs-time_settings none 5",
            "kgs-time_settings absolute 1 2",
            "kgs-time_settings canadian 1 2 3 4",
            "color D4 D5",
            "captures b b",
        ] {
            assert_eq!(syntax_error(line), TOO_MANY, "{line}");
        }
    }

    #[test]
    fn bad_colors() {
        for line in [
            "genmove x",
            "genmove bl",
            "genmove blackx",
            "play bw D4",
            "genmove 1",
        ] {
            assert_eq!(syntax_error(line), EXPECTED_COLOR, "{line}");
        }
    }

    #[test]
    fn bad_vertices() {
        for line in [
            "play b Z26",
            "play b I5",
            "play b A0",
            "play b A",
            "play b 4D",
            "play b D4x",
            "play b passx",
            "play b -pass",
            "is_legal w A100",
        ] {
            assert_eq!(syntax_error(line), EXPECTED_MOVE, "{line}");
        }
        assert_eq!(syntax_error("color I5"), EXPECTED_VERTEX);
        assert_eq!(syntax_error("set_free_handicap D4 A0"), EXPECTED_VERTEX);
    }

    #[test]
    fn pass_where_a_vertex_is_required() {
        assert_eq!(syntax_error("color pass"), EXPECTED_VERTEX);
        assert_eq!(syntax_error("countlib PASS"), EXPECTED_VERTEX);
        assert_eq!(syntax_error("set_free_handicap D4 pass"), EXPECTED_VERTEX);
    }

    #[test]
    fn bad_numbers() {
        for line in [
            "komi nan",
            "komi NaN",
            "komi inf",
            "komi -inf",
            "komi infinity",
            "komi 1e400",
            "komi -1e400",
            "komi 6.5.5",
            "komi 1e",
            "komi 0x10",
            "komi six",
        ] {
            assert_eq!(syntax_error(line), EXPECTED_NUMBER, "{line}");
        }
        for line in [
            "boardsize -19",
            "boardsize +19",
            "boardsize 19.0",
            "boardsize 1e2",
        ] {
            assert_eq!(syntax_error(line), EXPECTED_INTEGER, "{line}");
        }
        assert_eq!(syntax_error("loadsgf a.sgf -1"), EXPECTED_INTEGER);
        assert_eq!(syntax_error("final_status_list unknown"), EXPECTED_STATUS);
        assert_eq!(
            syntax_error("kgs-time_settings fischer 1 2"),
            EXPECTED_KGS_SYSTEM
        );
    }

    #[test]
    fn negative_or_non_finite_times() {
        for line in [
            "time_settings -1 30 5",
            "time_settings 300 -0.5 5",
            "time_left b -3 0",
            "time_left b inf 0",
            "kgs-time_settings absolute -600",
            "kgs-time_settings byoyomi 600 -30 5",
            "kgs-time_settings canadian -1e-3 300 25",
        ] {
            assert_eq!(syntax_error(line), EXPECTED_TIME, "{line}");
        }
        assert_eq!(syntax_error("time_settings 300 30 -5"), EXPECTED_INTEGER);
    }

    #[test]
    fn huge_integers_saturate() {
        assert_eq!(
            ok("boardsize 1000000000000000000000000000000"),
            Command::Boardsize(u64::MAX)
        );
        assert_eq!(
            ok("boardsize 18446744073709551615"),
            Command::Boardsize(u64::MAX)
        );
        assert_eq!(
            ok("boardsize 18446744073709551616"),
            Command::Boardsize(u64::MAX)
        );
        assert_eq!(
            ok("fixed_handicap 99999999999999999999"),
            Command::FixedHandicap(u64::MAX)
        );
        assert_eq!(
            ok("time_left w 1 99999999999999999999999"),
            Command::TimeLeft {
                color: Color::White,
                time: 1.0,
                stones: u64::MAX
            }
        );
    }

    // --- preprocessing -----------------------------------------------------

    #[test]
    fn empty_blank_and_comment_lines_are_ignored() {
        for line in [
            "",
            " ",
            "   \t ",
            "\r",
            "\t\r",
            "# a comment",
            "   # indented",
            "# interrupt",
        ] {
            assert_eq!(parse(line), None, "{line:?}");
        }
        assert_eq!(parse_line(b"\x00\x01\x7f\x1b"), None);
        assert_eq!(parse_line(b"\x00 # \x00 comment"), None);
    }

    #[test]
    fn comments_are_cut() {
        assert_eq!(ok("genmove b # what else"), Command::Genmove(Color::Black));
        assert_eq!(
            ok("genmove b#no space needed"),
            Command::Genmove(Color::Black)
        );
        assert_eq!(
            ok("play b pass #D4"),
            Command::Play(Color::Black, Move::Pass)
        );
        assert_eq!(syntax_error("play b #D4"), EXPECTED_MOVE);
        assert_eq!(ok("komi 5#.5"), Command::Komi(5.0));
    }

    #[test]
    fn control_characters_are_removed_and_tabs_separate() {
        assert_eq!(ok("genmove b\r"), Command::Genmove(Color::Black));
        assert_eq!(
            ok("play\tb\t\tD4\r"),
            Command::Play(Color::Black, Move::Play(v("D4")))
        );
        assert_eq!(
            parse_line(b"na\x00me"),
            Some(Request {
                id: None,
                command: Ok(Command::Name)
            })
        );
        assert_eq!(
            parse_line(b"ge\x01nmove \x1bw\x7f\r"),
            Some(Request {
                id: None,
                command: Ok(Command::Genmove(Color::White))
            })
        );
        assert_eq!(
            parse_line(b"1\x002 pla\x08y b D\x004"),
            Some(Request {
                id: Some(12),
                command: Ok(Command::Play(Color::Black, Move::Play(v("D4"))))
            })
        );
        assert_eq!(ok("  \t  name  \t "), Command::Name);
    }

    // --- ids ---------------------------------------------------------------

    #[test]
    fn ids_are_returned() {
        assert_eq!(
            parse("12 name"),
            Some(Request {
                id: Some(12),
                command: Ok(Command::Name)
            })
        );
        assert_eq!(
            parse("0\tname"),
            Some(Request {
                id: Some(0),
                command: Ok(Command::Name)
            })
        );
        assert_eq!(
            parse(" 007  genmove b "),
            Some(Request {
                id: Some(7),
                command: Ok(Command::Genmove(Color::Black))
            })
        );
        assert_eq!(
            parse("18446744073709551615 quit"),
            Some(Request {
                id: Some(u64::MAX),
                command: Ok(Command::Quit)
            })
        );
        assert_eq!(
            parse("name"),
            Some(Request {
                id: None,
                command: Ok(Command::Name)
            })
        );
    }

    #[test]
    fn ids_are_echoed_on_errors() {
        assert_eq!(
            parse("5 frobnicate"),
            Some(Request {
                id: Some(5),
                command: Err(ParseError::UnknownCommand)
            })
        );
        assert_eq!(
            parse("6 play b I5"),
            Some(Request {
                id: Some(6),
                command: Err(syntax(EXPECTED_MOVE))
            })
        );
        assert_eq!(
            parse("7 boardsize 19 19"),
            Some(Request {
                id: Some(7),
                command: Err(syntax(TOO_MANY))
            })
        );
        // An id-only line: the empty name is not a command.
        assert_eq!(
            parse("12"),
            Some(Request {
                id: Some(12),
                command: Err(ParseError::UnknownCommand)
            })
        );
        assert_eq!(
            parse("12 # c"),
            Some(Request {
                id: Some(12),
                command: Err(ParseError::UnknownCommand)
            })
        );
    }

    #[test]
    fn overflowing_ids_are_not_ids() {
        assert_eq!(
            parse("18446744073709551616 name"),
            Some(Request {
                id: None,
                command: Err(syntax("id too large"))
            })
        );
        assert_eq!(
            parse("99999999999999999999999999"),
            Some(Request {
                id: None,
                command: Err(syntax("id too large"))
            })
        );
        // Signs and other characters make a word a (unknown) name, not an id.
        assert_eq!(
            parse("-1 name"),
            Some(Request {
                id: None,
                command: Err(ParseError::UnknownCommand)
            })
        );
        assert_eq!(
            parse("+1 name"),
            Some(Request {
                id: None,
                command: Err(ParseError::UnknownCommand)
            })
        );
    }

    // --- bytes that are not ASCII ------------------------------------------

    #[test]
    fn invalid_utf8_is_an_unknown_name_or_a_bad_argument() {
        assert_eq!(
            parse_line(b"3 n\xffame"),
            Some(Request {
                id: Some(3),
                command: Err(ParseError::UnknownCommand)
            })
        );
        assert_eq!(
            parse_line(b"\xff\xfe"),
            Some(Request {
                id: None,
                command: Err(ParseError::UnknownCommand)
            })
        );
        assert_eq!(
            parse_line(b"genmove \xff").map(|r| r.command),
            Some(Err(syntax(EXPECTED_COLOR)))
        );
        assert_eq!(
            parse_line(b"play b D\xc04").map(|r| r.command),
            Some(Err(syntax(EXPECTED_MOVE)))
        );
        assert_eq!(
            parse_line(b"komi 6.5\x80").map(|r| r.command),
            Some(Err(syntax(EXPECTED_NUMBER)))
        );
        assert_eq!(
            parse_line(b"loadsgf a\xff.sgf").map(|r| r.command),
            Some(Err(syntax(EXPECTED_FILE)))
        );
        // known_command takes any word; a lossy name is simply one hane does not know.
        assert_eq!(
            parse_line(b"known_command pl\xffay").map(|r| r.command),
            Some(Ok(Command::KnownCommand("pl\u{fffd}ay".into())))
        );
    }

    #[test]
    fn unicode_is_not_folded_into_ascii_keywords() {
        // U+212A KELVIN SIGN lower-cases to `k`; nom's tag_no_case on &str
        // would match it and then slice inside it. On bytes it is just a
        // foreign word.
        assert_eq!(
            syntax_error("kgs-time_settings none\u{212A}"),
            EXPECTED_KGS_SYSTEM
        );
        assert_eq!(
            syntax_error("kgs-time_settings \u{212A}"),
            EXPECTED_KGS_SYSTEM
        );
        assert_eq!(syntax_error("genmove blac\u{212A}"), EXPECTED_COLOR);
        assert_eq!(syntax_error("play b \u{0130}5"), EXPECTED_MOVE);
        // A non-breaking space is not a separator.
        assert_eq!(command("name\u{a0}"), Err(ParseError::UnknownCommand));
    }

    // --- long lines --------------------------------------------------------

    const MEGABYTE: usize = 1 << 20;

    /// Parses `line` and checks that it took well under a second: linear work
    /// on a megabyte is milliseconds, quadratic work would be minutes.
    fn parse_quickly(line: &[u8]) -> Option<Request> {
        let start = Instant::now();
        let request = parse_line(line);
        let elapsed = start.elapsed();
        assert!(elapsed < Duration::from_secs(1), "took {elapsed:?}");
        request
    }

    fn repeat(piece: &[u8], prefix: &[u8]) -> Vec<u8> {
        let mut line = prefix.to_vec();
        while line.len() < MEGABYTE {
            line.extend_from_slice(piece);
        }
        line
    }

    #[test]
    fn megabyte_lines_are_handled_in_linear_time() {
        let vertices = repeat(b" D4", b"set_free_handicap");
        match parse_quickly(&vertices).map(|r| r.command) {
            Some(Ok(Command::SetFreeHandicap(list))) => {
                assert_eq!(list.len(), (vertices.len() - 17) / 3);
                assert!(list.iter().all(|&point| point == v("D4")));
            }
            other => panic!("unexpected {:?}", other.map(|c| c.map(|_| ()))),
        }
        let mut last_bad = vertices.clone();
        last_bad.extend_from_slice(b" pass");
        assert_eq!(
            parse_quickly(&last_bad).map(|r| r.command),
            Some(Err(syntax(EXPECTED_VERTEX)))
        );

        let digits = repeat(b"9", b"");
        assert_eq!(
            parse_quickly(&digits),
            Some(Request {
                id: None,
                command: Err(syntax("id too large"))
            })
        );
        let big_integer = repeat(b"9", b"boardsize ");
        assert_eq!(
            parse_quickly(&big_integer).map(|r| r.command),
            Some(Ok(Command::Boardsize(u64::MAX)))
        );
        let long_komi = repeat(b"0", b"komi 0.");
        assert_eq!(
            parse_quickly(&long_komi).map(|r| r.command),
            Some(Ok(Command::Komi(0.0)))
        );

        let long_name = repeat(b"a", b"");
        assert_eq!(
            parse_quickly(&long_name).map(|r| r.command),
            Some(Err(ParseError::UnknownCommand))
        );
        let spaces = repeat(b" \t", b"");
        assert_eq!(parse_quickly(&spaces), None);
        let controls = repeat(b"\x00\r\x01", b"name");
        assert_eq!(
            parse_quickly(&controls).map(|r| r.command),
            Some(Ok(Command::Name))
        );
        let spaced_args = repeat(b" ", b"genmove");
        assert_eq!(
            parse_quickly(&spaced_args).map(|r| r.command),
            Some(Err(syntax(EXPECTED_COLOR)))
        );
        let many_args = repeat(b" b", b"genmove");
        assert_eq!(
            parse_quickly(&many_args).map(|r| r.command),
            Some(Err(syntax(TOO_MANY)))
        );
        let invalid = repeat(b"\xff\xc0", b"known_command ");
        assert!(matches!(
            parse_quickly(&invalid).map(|r| r.command),
            Some(Ok(Command::KnownCommand(_)))
        ));
    }
}
