//! `hane analyze GAME.sgf -o OUT.sgf`, driven as a user runs it: the
//! reviewed game reads back with hane's own SGF reader and loadsgf, every
//! move carries Sabaki's win rate and a comment naming a legal move, the
//! game's own comments and variations stay, the input is untouched, and
//! bad input ends in a message, not a panic.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{Gtp, TempDir};
use hane::sgf::{self, SgfAction, SgfTree};
use hane::{Color, Game, Move, Superko, Vertex};

/// Handicap-style setup in the root, comments, a pass in the middle, two
/// passes at the end, and a variation of the game's own.
const GAME: &[u8] = b"(;FF[4]GM[1]CA[UTF-8]SZ[9]KM[7.5]PB[Ann]PW[Bob]\
C[A short game to review.]AB[cc]AW[gg]PL[B]\n\
;B[ee]C[Tengen.]\n\
;W[ec]\n\
(;B[ce];W[eg];B[];W[dg];B[];W[])\n\
(;B[gc]C[A variation of the game's own.]))\n";

const QUICK: [&str; 6] = ["--playouts", "50", "--threads", "1", "--seed", "1"];

fn hane_analyze(input: &Path, output: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hane"))
        .arg("analyze")
        .arg(input)
        .arg("-o")
        .arg(output)
        .args(QUICK)
        .output()
        .expect("run hane analyze")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The move a comment says hane's search chose: after "hane prefers",
/// "hane's search chose", or the game's own move where it says "hane's
/// choice too".
fn preferred(comment: &str, played: Move) -> Move {
    if comment.contains("hane's choice too") {
        return played;
    }
    let word = ["hane prefers ", "hane's search chose "]
        .iter()
        .find_map(|lead| comment.split(lead).nth(1))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no choice of hane's in {comment:?}"));
    match word {
        "pass" => Move::Pass,
        vertex => Move::Play(Vertex::parse_gtp(vertex).expect("a vertex")),
    }
}

/// The figures of a move's judgement: "win rate A% after it, B% before;
/// score lead C after, D before: ..." as (A, B, C, D).
fn figures(comment: &str) -> (f64, f64, f64, f64) {
    let number = |after: &str, until: char| -> f64 {
        let rest = comment
            .split(after)
            .nth(1)
            .unwrap_or_else(|| panic!("no {after:?} in {comment:?}"));
        rest[..rest.find(until).expect("an end")]
            .parse()
            .unwrap_or_else(|_| panic!("a number after {after:?} in {comment:?}"))
    };
    (
        number(": win rate ", '%'),
        number("% after it, ", '%'),
        number("; score lead ", ' '),
        number(" after, ", ' '),
    )
}

/// The loss a comment gives, in points: 0 for "no points lost".
fn points_lost(comment: &str) -> f64 {
    if comment.contains("no points lost") {
        return 0.0;
    }
    let before = comment.split(" points lost").next().expect("a loss");
    before[before.rfind(' ').expect("a space") + 1..]
        .parse()
        .unwrap_or_else(|_| panic!("a loss in {comment:?}"))
}

/// A move as SGF writes it: `aa` is the top-left corner, pass is empty.
fn sgf_point(mv: Move, size: u8) -> String {
    match mv {
        Move::Pass => String::new(),
        Move::Play(v) => [b'a' + v.col, b'a' + size - 1 - v.row]
            .iter()
            .map(|&c| c as char)
            .collect(),
    }
}

fn text(value: Option<&[u8]>) -> String {
    String::from_utf8_lossy(value.unwrap_or_default()).into_owned()
}

#[test]
fn every_move_gets_a_win_rate_a_comment_and_where_hane_differs_a_variation() {
    let dir = TempDir::new("analyze-game");
    let input = dir.file("game.sgf", GAME);
    let output = dir.path().join("reviewed.sgf");
    let run = hane_analyze(&input, &output);
    assert!(run.status.success(), "{}", stderr(&run));
    assert_eq!(std::fs::read(&input).expect("input"), GAME, "input changed");

    let written = std::fs::read(&output).expect("output written");
    let record = sgf::parse(GAME).expect("input parses");
    assert_eq!(sgf::parse(&written), Ok(record.clone()), "same main line");
    let tree = SgfTree::parse(&written).expect("output parses as a tree");
    let main_line = tree.main_line().expect("main line");
    let root = tree.root();
    assert_eq!(text(tree.property(root, "PB")), "Ann");
    assert_eq!(text(tree.property(root, "C")), "A short game to review.");
    assert!(String::from_utf8_lossy(&written).contains("C[A variation of the game's own.]"));

    let mut moves_seen = 0;
    let mut variations = 0;
    for (index, (node, actions)) in main_line.nodes.iter().enumerate() {
        let [SgfAction::Play(color, played)] = &record.actions[actions.clone()] else {
            continue;
        };
        moves_seen += 1;
        let black_win = |node| -> f64 {
            text(tree.property(node, "SBKV"))
                .parse()
                .unwrap_or_else(|_| panic!("SBKV before or on move {moves_seen}"))
        };
        let win_rate = black_win(*node);
        assert!((0.0..=100.0).contains(&win_rate), "SBKV {win_rate}");

        // Every move is judged, hane's choice or not (the game's two
        // passes, which hane never searched, too), its figures the graph's.
        let comment = text(tree.property(*node, "C"));
        let own = if moves_seen == 1 { "Tengen.\n\n" } else { "" };
        assert!(
            comment.starts_with(&format!("{own}{played} for {color}: win rate ")),
            "{comment:?}"
        );
        let parent = main_line.nodes[index - 1].0;
        let for_mover = |black: f64| match color {
            Color::Black => black,
            Color::White => 100.0 - black,
        };
        let (after, before, lead_after, lead_before) = figures(&comment);
        assert!((after - for_mover(win_rate)).abs() < 0.051, "{comment:?}");
        assert!(
            (before - for_mover(black_win(parent))).abs() < 0.051,
            "{comment:?}"
        );
        // The loss is the difference of the figures beside it, and hane's
        // move is called the better only where the game's lost points.
        let lost = points_lost(&comment);
        let difference = lead_before - lead_after;
        assert!((lost - difference.max(0.0)).abs() < 1e-6, "{comment:?}");
        let best = preferred(&comment, *played);
        assert_eq!(
            comment.contains("hane prefers"),
            best != *played && lost > 0.0,
            "{comment:?}"
        );
        let before_game =
            Game::from_sgf(&record, Some(moves_seen), 7.5, Superko::Positional).expect("replays");
        assert!(before_game.is_legal(*color, best), "{best} in {comment:?}");

        // hane's variation starts from the same parent with its own move,
        // after the game's move and the game's own variations.
        let letter = color.letter().to_string();
        let branches_with_best = tree.children(parent)[1..]
            .iter()
            .filter(|s| text(tree.property(**s, &letter)) == sgf_point(best, 9))
            .count();
        if best == *played {
            assert_eq!(branches_with_best, 0, "{comment:?}");
        } else {
            assert_eq!(branches_with_best, 1, "{comment:?}");
            variations += 1;
        }
    }
    assert_eq!(moves_seen, 8);
    assert!(
        variations > 0,
        "50 playouts agree with every move of this game"
    );
    assert!(
        stderr(&run).contains("8 positions searched, 8 moves judged, in "),
        "{}",
        stderr(&run)
    );

    // Two passes ended the game: the count decides, no search needed.
    let (last, _) = main_line.nodes.last().expect("nodes");
    let over = Game::from_sgf(&record, None, 7.5, Superko::Positional).expect("replays");
    let expected = if over.score() > 0.0 { "100" } else { "0" };
    assert_eq!(text(tree.property(*last, "SBKV")), expected);
    let comment = text(tree.property(*last, "C"));
    assert!(comment.ends_with("; the count after it."), "{comment:?}");
}

#[test]
fn off_a_terminal_each_position_gets_a_line_of_progress() {
    // The bar hid itself off a terminal, so a review in a pipe, a log or
    // an IDE said nothing for minutes; on one it counted "41/41 positions,
    // move 41" for a game of 40 moves. Now each position searched gets a
    // line naming it: the start, then the position after each move (the
    // last one judges the last move: a game that two passes did not end
    // has one position more than moves).
    let dir = TempDir::new("analyze-progress");
    let moves: String = ["ee", "cg", "gc", "dc", "cd"]
        .iter()
        .zip("BWBWB".chars())
        .map(|(point, color)| format!(";{color}[{point}]"))
        .collect();
    let input = dir.file("five.sgf", format!("(;GM[1]SZ[9]KM[7]{moves})").as_bytes());
    let output = dir.path().join("five-reviewed.sgf");
    let run = hane_analyze(&input, &output);
    assert!(run.status.success(), "{}", stderr(&run));
    let lines: Vec<String> = stderr(&run)
        .lines()
        .filter(|l| l.starts_with("hane analyze: position "))
        .map(String::from)
        .collect();
    let names = [
        "the start",
        "after move 1",
        "after move 2",
        "after move 3",
        "after move 4",
    ];
    let names = names.iter().chain(&["after move 5"]);
    assert_eq!(lines.len(), 6, "{lines:?}");
    for ((line, name), number) in lines.iter().zip(names).zip(1..) {
        assert!(
            line.starts_with(&format!(
                "hane analyze: position {number} of 6 ({name}) searched, "
            )),
            "{line}"
        );
    }
    assert!(
        stderr(&run).contains("6 positions searched, 5 moves judged"),
        "{}",
        stderr(&run)
    );
}

#[test]
fn hanes_own_loadsgf_reads_the_reviewed_game() {
    let dir = TempDir::new("analyze-loadsgf");
    let input = dir.file("game.sgf", GAME);
    let output = dir.path().join("reviewed.sgf");
    assert!(hane_analyze(&input, &output).status.success());
    let mut gtp = Gtp::start_with(&["--threads", "1"]);
    let board_of = |gtp: &mut Gtp, path: &Path| {
        gtp.ok(&format!("loadsgf {}", path.display()));
        (gtp.ok("showboard"), gtp.ok("printsgf"))
    };
    let original = board_of(&mut gtp, &input);
    assert_eq!(board_of(&mut gtp, &output), original);
}

#[test]
fn one_thread_and_a_seed_review_the_same_way_twice() {
    let dir = TempDir::new("analyze-twice");
    let input = dir.file("game.sgf", GAME);
    let (first, second) = (dir.path().join("1.sgf"), dir.path().join("2.sgf"));
    assert!(hane_analyze(&input, &first).status.success());
    assert!(hane_analyze(&input, &second).status.success());
    assert_eq!(std::fs::read(first).ok(), std::fs::read(second).ok());
}

/// Fails with status 1 and a message holding `expected`, without a panic
/// and without creating `output`.
fn assert_refused(input: &Path, output: &Path, expected: &str) {
    let existed = output.exists();
    let run = hane_analyze(input, output);
    let message = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{message}");
    assert!(message.contains(expected), "{message:?} lacks {expected:?}");
    assert!(!message.contains("panicked"), "{message}");
    assert_eq!(output.exists(), existed, "{message}");
}

#[test]
fn bad_input_and_outputs_are_refused_with_a_message() {
    let dir = TempDir::new("analyze-errors");
    let output = dir.path().join("out.sgf");
    let missing = dir.path().join("missing.sgf");
    assert_refused(&missing, &output, "cannot read");
    assert_refused(&missing, &output, "missing.sgf");

    let not_sgf = dir.file("notes.txt", b"just some text");
    assert_refused(&not_sgf, &output, "malformed SGF: no game tree");
    let illegal = dir.file("illegal.sgf", b"(;SZ[9];B[ee];W[ee])");
    assert_refused(&illegal, &output, "illegal move W E5 at move 2");

    let game = dir.file("game.sgf", GAME);
    assert_refused(&game, &game, "the output is the input file");
    let through_dot = dir.path().join(".").join("game.sgf");
    assert_refused(&game, &through_dot, "the output is the input file");
    assert_eq!(std::fs::read(&game).expect("input"), GAME);

    // A collection: the second game was dropped without a word.
    let two_games = dir.file("two.sgf", &[GAME, GAME].concat());
    assert_refused(&two_games, &output, "two.sgf: a collection of 2 games");

    let no_folder = dir.path().join("no-such-folder").join("out.sgf");
    assert_refused(&game, &no_folder, "cannot write");
    assert_refused(&game, dir.path(), "cannot write");
}

#[test]
fn without_an_output_name_the_review_is_written_beside_the_game() {
    let dir = TempDir::new("default-output");
    let input = dir.file("game.sgf", GAME);
    let output = Command::new(env!("CARGO_BIN_EXE_hane"))
        .arg("analyze")
        .arg(&input)
        .args(QUICK)
        .output()
        .expect("run hane analyze");
    assert!(output.status.success(), "{}", stderr(&output));
    let reviewed = dir.path().join("game-reviewed.sgf");
    let text = std::fs::read_to_string(&reviewed).expect("the review beside the game");
    assert!(text.contains("SBKV["), "{text}");
    assert!(stderr(&output).contains("game-reviewed.sgf"));
}

/// A 19x19 game of 38 moves along the third lines, long enough to review
/// that Ctrl-C comes in the middle.
#[cfg(unix)]
fn long_game() -> Vec<u8> {
    let mut text = String::from("(;FF[4]SZ[19]KM[7.5]");
    for column in b'a'..=b's' {
        let column = column as char;
        text.push_str(&format!(";B[{column}c];W[{column}q]"));
    }
    text.push(')');
    text.into_bytes()
}

/// `hane analyze` on `input` to the default output, stopped by `signal`
/// after `wait`.
#[cfg(unix)]
fn stopped_after(input: &Path, signal: libc::c_int, wait: std::time::Duration) -> Output {
    use std::process::Stdio;
    let child = Command::new(env!("CARGO_BIN_EXE_hane"))
        .arg("analyze")
        .arg(input)
        .args(["--playouts", "1500", "--threads", "1", "--seed", "1"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hane analyze");
    std::thread::sleep(wait);
    // SAFETY: a signal to the child this test started.
    unsafe {
        libc::kill(child.id() as libc::pid_t, signal);
    }
    child.wait_with_output().expect("wait for hane analyze")
}

/// Stopped by `signal` at once, the review leaves nothing behind and exits
/// with the status of a process that signal ended (128 + its number).
#[cfg(unix)]
fn assert_stopped_before_the_first_position(input: &Path, output: &Path, signal: libc::c_int) {
    let early = stopped_after(input, signal, std::time::Duration::from_millis(200));
    assert_eq!(
        early.status.code(),
        Some(128 + signal),
        "{}",
        stderr(&early)
    );
    assert!(
        stderr(&early).contains("interrupted before the first position: nothing written"),
        "{}",
        stderr(&early)
    );
    assert!(!output.exists());
}

/// Stopped by `signal` once a position is reviewed, the review has the
/// positions reviewed so far, each with its win rate. A busy machine may
/// not have finished the first position in the first wait: wait longer
/// then.
#[cfg(unix)]
fn assert_stopped_with_the_review_so_far(input: &Path, output: &Path, signal: libc::c_int) {
    let mut waits = [4, 8, 16, 32].into_iter();
    let late = loop {
        let wait = waits.next().expect("a position reviewed within 32 s");
        let late = stopped_after(input, signal, std::time::Duration::from_secs(wait));
        if !stderr(&late).contains("before the first position") {
            break late;
        }
    };
    let message = stderr(&late);
    assert_eq!(late.status.code(), Some(128 + signal), "{message}");
    let written: usize = message
        .split("the first ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count in {message:?}"));
    assert!(
        message.contains(&format!("the first {written} of 39 positions")),
        "{message}"
    );
    let text = std::fs::read_to_string(output).expect("the partial review");
    assert_eq!(text.matches("SBKV[").count(), written, "{text}");
    let tree = SgfTree::parse(text.as_bytes()).expect("SGF");
    assert!(tree.main_line().is_ok());
}

#[cfg(unix)]
#[test]
fn ctrl_c_writes_the_review_so_far_or_nothing() {
    let dir = TempDir::new("interrupt");
    let input = dir.file("long.sgf", &long_game());
    let output = dir.path().join("long-reviewed.sgf");
    assert_stopped_before_the_first_position(&input, &output, libc::SIGINT);
    assert_stopped_with_the_review_so_far(&input, &output, libc::SIGINT);
}

/// SIGTERM (`timeout`, a service manager, `kill`) and SIGHUP (the terminal
/// closed) once killed the review and left an empty output file: they stop
/// it as Ctrl-C does.
#[cfg(unix)]
#[test]
fn sigterm_and_sighup_stop_the_review_as_ctrl_c_does() {
    let dir = TempDir::new("terminate");
    let input = dir.file("long.sgf", &long_game());
    let output = dir.path().join("long-reviewed.sgf");
    assert_stopped_before_the_first_position(&input, &output, libc::SIGTERM);
    assert_stopped_before_the_first_position(&input, &output, libc::SIGHUP);
    assert_stopped_with_the_review_so_far(&input, &output, libc::SIGTERM);
}

/// Outputs that are not regular files: the system refuses to truncate
/// /dev/null or a pipe, which once failed the review after all its
/// searches, and opening a FIFO no one reads once blocked for ever. The
/// review is written to the first two, and the third is refused at once,
/// before any search; a FIFO with a reader gets the review.
#[cfg(unix)]
#[test]
fn outputs_that_are_not_regular_files() {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::OpenOptionsExt;
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let dir = TempDir::new("special-outputs");
    let input = dir.file("game.sgf", GAME);
    let file = dir.path().join("reviewed.sgf");
    assert!(hane_analyze(&input, &file).status.success());
    let reference = std::fs::read(&file).expect("the review in a file");
    let run = hane_analyze(&input, Path::new("/dev/null"));
    assert!(run.status.success(), "{}", stderr(&run));
    // /dev/stdout into the pipe that `output` reads: the review on stdout.
    let run = hane_analyze(&input, Path::new("/dev/stdout"));
    assert!(run.status.success(), "{}", stderr(&run));
    assert_eq!(run.stdout, reference);

    let fifo = dir.path().join("fifo.sgf");
    let name = std::ffi::CString::new(fifo.as_os_str().as_bytes()).expect("a path");
    // SAFETY: a valid NUL-terminated path; mkfifo only creates the node.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hane"))
        .arg("analyze")
        .arg(&input)
        .arg("-o")
        .arg(&fifo)
        .args(QUICK)
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hane analyze");
    let status = common::wait_bounded(&mut child, Duration::from_secs(20), "a FIFO no one reads");
    let message = common::stderr_of(&mut child);
    assert_eq!(status.code(), Some(1), "{message}");
    assert!(message.contains("cannot write"), "{message}");
    assert!(!message.contains("positions searched"), "{message}");
    assert!(started.elapsed() < Duration::from_secs(10));
    // With a reader (opened without waiting for a writer), the review
    // goes through the FIFO.
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .expect("open the FIFO to read");
    let run = hane_analyze(&input, &fifo);
    assert!(run.status.success(), "{}", stderr(&run));
    let mut review = Vec::new();
    std::io::Read::read_to_end(&mut reader, &mut review).expect("read the FIFO");
    assert_eq!(review, reference);
}

/// The win-rate graph follows the game rather than the side to move: each
/// node's value is the position's (every playout of its search), not the
/// preferred move's, which overrates the side to move and made the graph
/// change direction at almost every move (80% of them in this game).
#[test]
fn the_win_rate_graph_does_not_zigzag_with_the_side_to_move() {
    let dir = TempDir::new("smooth");
    let game = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/selfplay/9x9/game-0000.sgf"
    ))
    .expect("a selfplay game");
    let input = dir.file("game.sgf", &game);
    let output = dir.path().join("reviewed.sgf");
    let run = Command::new(env!("CARGO_BIN_EXE_hane"))
        .arg("analyze")
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .args(["--playouts", "300", "--threads", "1", "--seed", "1"])
        .output()
        .expect("run hane analyze");
    assert!(run.status.success(), "{}", stderr(&run));
    let text = std::fs::read_to_string(&output).expect("the review");
    let values: Vec<f64> = text
        .split("SBKV[")
        .skip(1)
        .map(|rest| {
            rest[..rest.find(']').expect("]")]
                .parse()
                .expect("a number")
        })
        .collect();
    assert!(values.len() > 40, "{values:?}");
    let steps: Vec<f64> = values.windows(2).map(|w| w[1] - w[0]).collect();
    let turns = steps.windows(2).filter(|s| s[0] * s[1] < 0.0).count();
    let share = turns as f64 / (steps.len() - 1) as f64;
    assert!(
        share < 0.7,
        "direction changes at {share:.2} of the moves: {values:?}"
    );
}

/// The review of `game` (its stderr, the reviewed file's root comment).
fn reviewed(dir: &TempDir, name: &str, game: &[u8]) -> (String, String) {
    let input = dir.file(name, game);
    let output = dir.path().join(format!("reviewed-{name}"));
    let run = hane_analyze(&input, &output);
    assert!(run.status.success(), "{name}: {}", stderr(&run));
    let written = std::fs::read(&output).expect("the review");
    let tree = sgf::SgfTree::parse(&written).expect("the review reads");
    let comment = text(tree.property(tree.root(), "C"));
    (stderr(&run), comment)
}

#[test]
fn rules_hane_does_not_play_are_named_and_a_decimal_comma_komi_is_read() {
    let dir = TempDir::new("analyze-rules");
    let with = |properties: &str| {
        String::from_utf8_lossy(GAME)
            .replace("KM[7.5]", properties)
            .into_bytes()
    };
    // Japanese rules count territory: said on stderr and in the root's
    // comment (the game's own comment kept).
    let (stderr, comment) = reviewed(&dir, "japanese.sgf", &with("KM[6.5]RU[Japanese]"));
    for said in [&stderr, &comment] {
        assert!(said.contains("RU[Japanese] count territory"), "{said}");
        assert!(said.contains("scoring \"TERRITORY\""), "{said}");
        assert!(said.contains("reviewed under Tromp-Taylor"), "{said}");
    }
    assert!(comment.starts_with("A short game to review."), "{comment}");
    let (stderr, comment) = reviewed(&dir, "odd.sgf", &with("RU[Ing-ish]"));
    assert!(
        stderr.contains("RU[Ing-ish] are none hane knows"),
        "{stderr}"
    );
    assert!(
        comment.contains("RU[Ing-ish] are none hane knows"),
        "{comment}"
    );
    // Area counts need no word; nor does a game without RU.
    for (name, rules) in [("chinese.sgf", "RU[Chinese]"), ("aga.sgf", "RU[AGA]")] {
        let (stderr, comment) = reviewed(&dir, name, &with(rules));
        assert!(!stderr.contains("RU["), "{stderr}");
        assert!(!comment.contains("hane analyze:"), "{comment}");
    }
    // KM[6,5], a decimal comma: refused the whole game; read as 6.5.
    let (stderr, _) = reviewed(&dir, "comma.sgf", &with("KM[6,5]"));
    assert!(!stderr.contains("KM"), "{stderr}");
}

/// A record whose rules allowed a move that hane's rules in force forbid
/// (here Black's B1, a two-stone suicide back to a colouring Black faced,
/// which positional superko refuses) was refused whole by `hane analyze`,
/// where `hane analysis` replays such moves with a warning (KataGo's way).
/// It is reviewed, with a note on stderr and in the root's comment.
#[test]
fn a_move_the_rules_in_force_forbid_is_reviewed_with_a_note() {
    let dir = TempDir::new("analyze-repetition");
    let game = b"(;FF[4]SZ[5]KM[0.5]RU[Japanese];B[ea];W[ad];B[eb];W[bd];B[da];W[cd];B[ec];W[ce];B[ae];W[];B[be];W[cc])";
    let (stderr, comment) = reviewed(&dir, "repetition.sgf", game);
    let note = "move 11: black B1 repeats an earlier position, which positional superko forbids; reviewed as played";
    assert!(stderr.contains(note), "{stderr}");
    assert!(comment.contains(note), "{comment}");
}

/// A move stored in the root node (`(;SZ[9]B[ee];W[...])`, legal SGF) was
/// reviewed as setup: no comment and no variation, where every other move
/// gets both. It is moved into a node of its own (the root keeps the game's
/// information), judged like the rest, and hane's alternative, where it
/// has one, stands beside it as a variation from the root.
#[test]
fn a_move_in_the_root_node_is_judged_like_every_other() {
    let dir = TempDir::new("analyze-root-move");
    // B A1 in the corner: a move hane would not choose on an empty board.
    let game = b"(;FF[4]SZ[9]KM[7]PB[Ann]C[Root comment.]B[aa];W[ee];B[cc])";
    let input = dir.file("root-move.sgf", game);
    let output = dir.path().join("reviewed.sgf");
    let run = hane_analyze(&input, &output);
    assert!(run.status.success(), "{}", stderr(&run));
    let written = std::fs::read(&output).expect("the review");
    assert_eq!(
        sgf::parse(&written).expect("the review reads").actions,
        sgf::parse(game).unwrap().actions,
        "the game's moves are unchanged"
    );
    let tree = SgfTree::parse(&written).expect("the review reads");
    let root = tree.root();
    assert_eq!(text(tree.property(root, "PB")), "Ann");
    assert!(text(tree.property(root, "C")).starts_with("Root comment."));
    assert_eq!(tree.property(root, "B"), None);
    let children = tree.children(root);
    let first = children[0];
    assert_eq!(text(tree.property(first, "B")), "aa");
    let comment = text(tree.property(first, "C"));
    assert!(comment.contains(": win rate "), "{comment}");
    let _ = points_lost(&comment);
    let choice = preferred(&comment, Move::Play(Vertex::parse_gtp("A9").unwrap()));
    assert_ne!(
        choice,
        Move::Play(Vertex::parse_gtp("A9").unwrap()),
        "{comment}"
    );
    assert_eq!(children.len(), 2, "hane's line beside the root's move");
    assert_eq!(
        text(tree.property(children[1], "B")),
        sgf_point(choice, 9),
        "{comment}"
    );
}
