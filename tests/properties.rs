//! Property tests on the library: random input lines into the GTP parser,
//! random command sequences into an engine, random text into the SGF reader.
//! No panic anywhere, one response per command, and a failed command leaves
//! what a client sees exactly as it was.

use proptest::prelude::*;

use hane::format_response;
use hane::sgf;
use hane::{parse_line, Command, Engine, GtpRequest, ParseError};
use hane::{Game, Superko};
use hane::{PlayerConfig, SearchParams};

/// Checks the shape of one response: one terminating empty line, no other.
fn assert_one_response(request: &GtpRequest, reply: &Result<String, String>) {
    let response = format_response(request.id, reply);
    assert!(response.ends_with("\n\n"), "{response:?}");
    assert_eq!(response.matches("\n\n").count(), 1, "{response:?}");
    let mark = if reply.is_ok() { '=' } else { '?' };
    let id = request.id.map(|id| id.to_string()).unwrap_or_default();
    assert!(
        response.starts_with(&format!("{mark}{id} ")),
        "{response:?}"
    );
}

/// Words a GTP line is made of, and bytes a client should not send, so that
/// random lines often reach deep into the argument parsers.
fn gtp_word() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::sample::select(vec![
            "play",
            "genmove",
            "boardsize",
            "komi",
            "undo",
            "b",
            "w",
            "black",
            "WHITE",
            "pass",
            "D4",
            "t19",
            "Z25",
            "I5",
            "A0",
            "0",
            "19",
            "-1",
            "6.5",
            "nan",
            "inf",
            "1e999",
            "#",
            "time_left",
            "time_settings",
            "kgs-time_settings",
            "byoyomi",
            "set_free_handicap",
            "loadsgf",
            "known_command",
            "final_status_list",
            "dead",
            "18446744073709551616",
        ])
        .prop_map(|word| word.as_bytes().to_vec()),
        prop::collection::vec(any::<u8>(), 0..6),
    ]
}

fn gtp_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..120),
        prop::collection::vec(
            (
                gtp_word(),
                prop::sample::select(vec![&b" "[..], b"\t", b"  ", b"\r", b"\0"])
            ),
            0..8
        )
        .prop_map(|words| {
            words
                .into_iter()
                .flat_map(|(word, gap)| word.into_iter().chain(gap.iter().copied()))
                .collect()
        }),
    ]
    .prop_map(|mut line: Vec<u8>| {
        // The reader splits on LF: a line never holds one.
        line.retain(|&byte| byte != b'\n');
        line
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5000, ..ProptestConfig::default() })]

    /// Each line is judged by the spec's rules written out here: ignored
    /// exactly when preprocessing leaves only spaces; otherwise one request
    /// with the line's id (a first word of digits), an unknown command
    /// exactly when the name is not one `list_commands` lists, and one
    /// well-formed response.
    #[test]
    fn any_line_parses_to_one_response(line in gtp_line()) {
        let text = preprocessed(&line);
        let words: Vec<&[u8]> = text.split(|&byte| byte == b' ').filter(|w| !w.is_empty()).collect();
        let Some(request) = parse_line(&line) else {
            prop_assert!(words.is_empty(), "{:?} was ignored", line);
            return Ok(());
        };
        prop_assert!(!words.is_empty(), "{:?} was not ignored", line);
        let has_id = words[0].iter().all(u8::is_ascii_digit);
        let id = if has_id {
            std::str::from_utf8(words[0]).expect("digits").parse::<u64>().ok()
        } else {
            None
        };
        prop_assert_eq!(request.id, id, "id of {:?}", line);
        if has_id && id.is_none() {
            prop_assert!(matches!(request.command, Err(ParseError::Syntax(_))), "{:?}", line);
        } else {
            let name = if has_id { words.get(1) } else { words.first() };
            let known = name.is_some_and(|name| known_names().iter().any(|k| k.as_bytes() == *name));
            prop_assert_eq!(
                matches!(request.command, Err(ParseError::UnknownCommand)),
                !known,
                "{:?} gave {:?}", line, request.command
            );
        }
        let reply = request.command.clone().map(|_| String::new()).map_err(|e| e.to_string());
        assert_one_response(&request, &reply);
    }
}

/// What the spec's preprocessing (GTP v2, section 3.1) leaves of a line:
/// everything from `#` cut, control characters other than HT and LF
/// dropped, HT (and LF) turned into a space.
fn preprocessed(line: &[u8]) -> Vec<u8> {
    let end = line
        .iter()
        .position(|&byte| byte == b'#')
        .unwrap_or(line.len());
    line[..end]
        .iter()
        .filter_map(|&byte| match byte {
            b'\t' | b'\n' => Some(b' '),
            0..=31 | 127 => None,
            _ => Some(byte),
        })
        .collect()
}

/// The command names `list_commands` answers.
fn known_names() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let mut engine = Engine::new(&PlayerConfig::with_shipped_network());
        let list = engine
            .execute_detached(Command::ListCommands)
            .expect("list_commands");
        list.lines().map(str::to_string).collect()
    })
}

// --- command sequences against an engine ---------------------------------

fn engine() -> Engine {
    Engine::new(&PlayerConfig {
        threads: 1,
        playouts: Some(8),
        seconds_per_move: None,
        seed: Some(1),
        resign_threshold: 0.05,
        ponder: false,
        search: SearchParams {
            max_nodes: 5_000,
            ..SearchParams::default()
        },
        ..PlayerConfig::with_shipped_network()
    })
}

/// The game as a client sees it: the record (moves, setup, komi, handicap)
/// and the board with captures and the side to move.
fn observe(engine: &mut Engine) -> (String, String) {
    let sgf = engine.execute_detached(Command::PrintSgf(None));
    let board = engine.execute_detached(Command::Showboard);
    (
        sgf.expect("printsgf answers"),
        board.expect("showboard answers"),
    )
}

fn vertex_text() -> impl Strategy<Value = String> {
    // Columns and rows a little past the largest board, to reach off-board
    // points; small ones more often, so that stones meet on small boards.
    prop_oneof![(0usize..5, 1usize..6), (0usize..25, 1usize..27),]
        .prop_map(|(col, row)| format!("{}{row}", b"ABCDEFGHJKLMNOPQRSTUVWXYZ"[col] as char))
}

fn color_text() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["b", "w", "black", "white"])
}

/// A small SGF game: a size, maybe setup stones, then moves; some of them
/// illegal or off the board.
fn sgf_text() -> impl Strategy<Value = String> {
    let point = (0u8..10, 0u8..10)
        .prop_map(|(x, y)| format!("{}{}", (b'a' + x) as char, (b'a' + y) as char));
    (
        prop::sample::select(vec![1usize, 2, 5, 7, 9, 13, 19, 26]),
        prop::collection::vec(point.clone(), 0..4),
        prop::collection::vec((any::<bool>(), prop::option::of(point)), 0..30),
        prop::option::of(-10.0f64..10.0),
    )
        .prop_map(|(size, setup, moves, komi)| {
            let mut text = format!("(;SZ[{size}]");
            if let Some(komi) = komi {
                text.push_str(&format!("KM[{komi}]"));
            }
            if !setup.is_empty() {
                text.push_str("AB");
                for p in setup {
                    text.push_str(&format!("[{p}]"));
                }
            }
            for (black, point) in moves {
                let color = if black { 'B' } else { 'W' };
                text.push_str(&format!(";{color}[{}]", point.unwrap_or_default()));
            }
            text.push(')');
            text
        })
}

/// One command line of a random session. `loadsgf` lines name a file the
/// test writes first.
#[derive(Clone, Debug)]
enum Step {
    Line(String),
    LoadSgf(String, Option<u8>),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => (color_text(), vertex_text()).prop_map(|(c, v)| Step::Line(format!("play {c} {v}"))),
        1 => color_text().prop_map(|c| Step::Line(format!("play {c} pass"))),
        3 => Just(Step::Line("undo".into())),
        1 => color_text().prop_map(|c| Step::Line(format!("genmove {c}"))),
        1 => color_text().prop_map(|c| Step::Line(format!("reg_genmove {c}"))),
        1 => (0u64..28).prop_map(|n| Step::Line(format!("boardsize {n}"))),
        1 => Just(Step::Line("clear_board".into())),
        1 => (-100.0f64..100.0).prop_map(|k| Step::Line(format!("komi {k}"))),
        1 => (0u64..12).prop_map(|n| Step::Line(format!("fixed_handicap {n}"))),
        1 => (0u64..30).prop_map(|n| Step::Line(format!("place_free_handicap {n}"))),
        1 => prop::collection::vec(vertex_text(), 0..5)
            .prop_map(|vs| Step::Line(format!("set_free_handicap {}", vs.join(" ")))),
        1 => (0u64..100, 0u64..10, 0u64..5)
            .prop_map(|(m, b, s)| Step::Line(format!("time_settings {m} {b} {s}"))),
        1 => (color_text(), 0u64..100, 0u64..5)
            .prop_map(|(c, t, s)| Step::Line(format!("time_left {c} {t} {s}"))),
        1 => (color_text(), vertex_text()).prop_map(|(c, v)| Step::Line(format!("is_legal {c} {v}"))),
        1 => vertex_text().prop_map(|v| Step::Line(format!("countlib {v}"))),
        1 => Just(Step::Line("final_score".into())),
        2 => (sgf_text(), prop::option::of(0u8..20)).prop_map(|(t, n)| Step::LoadSgf(t, n)),
        1 => gtp_line().prop_map(|line| Step::Line(String::from_utf8_lossy(&line).into_owned())),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn failed_commands_change_nothing(steps in prop::collection::vec(step(), 1..40)) {
        let dir = std::env::temp_dir().join(format!("hane-properties-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
            let mut engine = engine();
        // The state before the last successful play, to check undo.
        let mut before_play: Option<(String, String)> = None;
        for (i, step) in steps.iter().enumerate() {
            let line = match step {
                Step::Line(line) => line.clone(),
                Step::LoadSgf(text, move_number) => {
                    let path = dir.join(format!("{i}.sgf"));
                    std::fs::write(&path, text).expect("write sgf");
                    match move_number {
                        Some(n) => format!("loadsgf {} {n}", path.display()),
                        None => format!("loadsgf {}", path.display()),
                    }
                }
            };
            let Some(request) = parse_line(line.as_bytes()) else { continue };
            let reply = match request.command.clone() {
                Ok(command) => {
                    let before = observe(&mut engine);
                    let reply = engine.execute_detached(command.clone());
                    // The engine answers a panic with this error and goes
                    // on; here it is a failure all the same.
                    prop_assert!(
                        !matches!(&reply, Err(e) if e.starts_with("internal error")),
                        "`{}` panicked: {:?}",
                        line,
                        reply
                    );
                    let after = observe(&mut engine);
                    if reply.is_err() {
                        prop_assert_eq!(&after, &before, "after failed `{}`", line);
                    }
                    match (&command, &reply) {
                        (Command::Play(..), Ok(_)) => before_play = Some(before),
                        (Command::Undo, Ok(_)) => {
                            if let Some(earlier) = before_play.take() {
                                prop_assert_eq!(&after, &earlier, "undo after a play");
                            }
                        }
                        _ => before_play = None,
                    }
                    reply
                }
                Err(error) => Err(error.to_string()),
            };
            assert_one_response(&request, &reply);
            if engine.has_quit() {
                break;
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

// --- SGF text ------------------------------------------------------------

fn sgf_bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        prop::sample::select(vec![
            "(", ")", ";", "[", "]", "\\", ":", "B", "W", "AB", "AW", "AE", "PL", "SZ", "KM", "HA",
            "GM", "RE", "RU", "[aa]", "[]", "[tt]", "[dd:ff]", "[19]", "[9:9]", "[6.5]", "\n",
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        prop::collection::vec(any::<u8>(), 0..4),
    ];
    prop_oneof![
        prop::collection::vec(piece, 0..60).prop_map(|pieces| pieces.concat()),
        sgf_text().prop_map(String::into_bytes),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5000, ..ProptestConfig::default() })]

    #[test]
    fn sgf_text_reads_writes_and_replays_without_panic(text in sgf_bytes(), cut in 0u64..20) {
        if let Ok(record) = sgf::parse(&text) {
            let written = sgf::write(&record);
            prop_assert_eq!(sgf::parse(written.as_bytes()), Ok(record.clone()), "{}", written);
            let _ = Game::from_sgf(&record, None, 7.5, Superko::Positional);
            let _ = Game::from_sgf(&record, Some(cut), 7.5, Superko::Positional);
        }
    }
}
