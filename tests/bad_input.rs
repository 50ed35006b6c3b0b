//! Hostile input through the real binary: every line that is not blank or a
//! comment gets exactly one response, with the spec's error wording and the
//! id echoed, and the game is unchanged after every failure. Also bad files
//! for `loadsgf`, end of input and a closed stdout.

mod common;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{
    assert_fails_unchanged, assert_raw_fails_unchanged, passes_sgf, snapshot, spawn_hane, start_up,
    stderr_of, wait_bounded, Gtp, TempDir,
};

/// The readers' bound on one line (src/frontend/lines.rs).
const MAX_LINE_BYTES: usize = 4 << 20;

/// A 9x9 game with stones of both colours, a capture and komi 6.5.
fn game_in_progress() -> Gtp {
    common::game_in_progress(&["--seed", "1", "--playouts", "50", "--threads", "1"])
}

/// Checks that the engine answers nothing to `line`: the next response is
/// the one to a command sent after it.
fn assert_ignored(gtp: &mut Gtp, line: &[u8]) {
    gtp.write_raw(line);
    assert_eq!(gtp.send("900 protocol_version"), "=900 2", "after {line:?}");
}

#[test]
fn unknown_commands_and_wrong_arguments() {
    let mut gtp = game_in_progress();
    for (command, expected) in [
        ("frobnicate", "? unknown command"),
        ("12 frobnicate D4", "?12 unknown command"),
        ("Play b D4", "? unknown command"),
        ("13", "?13 unknown command"),
        ("14 play", "?14 syntax error (expected a colour)"),
        ("play b", "? syntax error (expected a vertex or pass)"),
        ("play b D4 E5", "? syntax error (too many arguments)"),
        ("15 genmove", "?15 syntax error (expected a colour)"),
        ("genmove b w", "? syntax error (too many arguments)"),
        ("boardsize", "? syntax error (expected an integer)"),
        ("boardsize nine", "? syntax error (expected an integer)"),
        ("boardsize 9.0", "? syntax error (expected an integer)"),
        ("komi", "? syntax error (expected a number)"),
        ("komi 6.5 7", "? syntax error (too many arguments)"),
        ("name please", "? syntax error (too many arguments)"),
        ("fixed_handicap two", "? syntax error (expected an integer)"),
        ("undo 2", "? syntax error (too many arguments)"),
        ("16 loadsgf", "?16 syntax error (expected a file name)"),
        ("18446744073709551616 name", "? syntax error (id too large)"),
        ("-1 name", "? unknown command"),
    ] {
        assert_fails_unchanged(&mut gtp, command, expected);
    }
}

#[test]
fn misspelt_colors_and_vertices_off_the_board() {
    let mut gtp = game_in_progress();
    for (command, expected) in [
        ("play blakc A1", "? syntax error (expected a colour)"),
        ("play bw A1", "? syntax error (expected a colour)"),
        ("20 genmove whit", "?20 syntax error (expected a colour)"),
        ("list_stones red", "? syntax error (expected a colour)"),
        ("play b I5", "? syntax error (expected a vertex or pass)"),
        ("play b A0", "? syntax error (expected a vertex or pass)"),
        ("play b Z26", "? syntax error (expected a vertex or pass)"),
        ("play b A100", "? syntax error (expected a vertex or pass)"),
        ("play b passe", "? syntax error (expected a vertex or pass)"),
        // Vertices GTP can name that lie off this 9x9 board: GNU Go's
        // words (the spec gives `play` only `syntax error` and `illegal
        // move`, and names no error for a point off the board).
        ("21 play b J10", "?21 invalid color or coordinate"),
        ("play w T19", "? invalid color or coordinate"),
        ("play b Z25", "? invalid color or coordinate"),
        ("color K1", "? invalid coordinate"),
        ("countlib A10", "? invalid coordinate"),
        ("set_free_handicap A1 Z25", "? board not empty"),
        // Occupied points and the ko-like repetition are illegal moves.
        ("play w E5", "? illegal move"),
        ("play b E5", "? illegal move"),
    ] {
        assert_fails_unchanged(&mut gtp, command, expected);
    }
    assert_eq!(gtp.ok("is_legal b J10"), "0");
}

#[test]
fn numbers_out_of_range() {
    let mut gtp = game_in_progress();
    for (command, expected) in [
        ("boardsize 0", "? unacceptable size"),
        ("boardsize 1", "? unacceptable size"),
        ("boardsize 26", "? unacceptable size"),
        (
            "30 boardsize 1000000000000000000000000000000",
            "?30 unacceptable size",
        ),
        ("boardsize -9", "? syntax error (expected an integer)"),
        ("komi NaN", "? syntax error (expected a number)"),
        ("komi nan", "? syntax error (expected a number)"),
        ("komi inf", "? syntax error (expected a number)"),
        ("komi -infinity", "? syntax error (expected a number)"),
        ("komi 1e999", "? syntax error (expected a number)"),
        ("komi 0x10", "? syntax error (expected a number)"),
        (
            "31 time_settings -1 30 5",
            "?31 syntax error (expected a non-negative number)",
        ),
        (
            "time_settings 300 -0.5 5",
            "? syntax error (expected a non-negative number)",
        ),
        (
            "time_settings 300 30 -5",
            "? syntax error (expected an integer)",
        ),
        (
            "time_settings 300 nan 5",
            "? syntax error (expected a non-negative number)",
        ),
        (
            "time_left b -1 0",
            "? syntax error (expected a non-negative number)",
        ),
        (
            "time_left w inf 0",
            "? syntax error (expected a non-negative number)",
        ),
        ("time_left w 10 -1", "? syntax error (expected an integer)"),
        (
            "kgs-time_settings byoyomi 600 -30 5",
            "? syntax error (expected a non-negative number)",
        ),
        ("fixed_handicap 1000000000000000000000", "? board not empty"),
        ("place_free_handicap 0", "? board not empty"),
        ("undo_all", "? unknown command"),
    ] {
        assert_fails_unchanged(&mut gtp, command, expected);
    }

    // On an empty board the handicap counts themselves are judged.
    let mut gtp = Gtp::start();
    gtp.ok("boardsize 9");
    for (command, expected) in [
        (
            "fixed_handicap 1000000000000000000000",
            "? invalid number of stones",
        ),
        ("fixed_handicap 0", "? invalid number of stones"),
        ("place_free_handicap 81", "? invalid number of stones"),
        (
            "place_free_handicap 18446744073709551615",
            "? invalid number of stones",
        ),
    ] {
        assert_fails_unchanged(&mut gtp, command, expected);
    }
    // A komi past anything the count can mean is refused: analysis would
    // print it as an infinite score lead.
    assert_fails_unchanged(
        &mut gtp,
        "komi 1e300",
        "? syntax error (expected a komi between -1251 and 1251)",
    );
    assert_fails_unchanged(
        &mut gtp,
        "komi -1251.5",
        "? syntax error (expected a komi between -1251 and 1251)",
    );
    assert_eq!(gtp.send("komi 1251"), "= ");
    // Huge but finite times are numbers like any other.
    assert_eq!(gtp.send("time_left b 1e300 1"), "= ");
}

#[test]
fn control_bytes_invalid_utf8_and_line_endings() {
    let mut gtp = game_in_progress();
    // NUL and other control characters vanish before parsing.
    gtp.write_raw(b"40 na\x00me\n");
    assert_eq!(gtp.read_response(), "=40 hane");
    gtp.write_raw(b"41 pl\x00ay b\x07 pass\x1b\n");
    assert_eq!(gtp.read_response(), "=41 ");
    gtp.ok("undo");
    assert_ignored(&mut gtp, b"\x00\x00\x00\n");
    assert_ignored(&mut gtp, b"\r\n");
    assert_ignored(&mut gtp, b"  \t # a comment\r\n");
    // CRLF line endings are plain line endings.
    gtp.write_raw(b"42 protocol_version\r\n43 name\r\n");
    assert_eq!(gtp.read_response(), "=42 2");
    assert_eq!(gtp.read_response(), "=43 hane");
    // Invalid UTF-8 is an unknown name or a malformed argument.
    assert_raw_fails_unchanged(&mut gtp, b"44 \xff\xfe\n", "?44 unknown command");
    assert_raw_fails_unchanged(&mut gtp, b"45 n\xc3me\n", "?45 unknown command");
    assert_raw_fails_unchanged(
        &mut gtp,
        b"play b D\xc3\x28\n",
        "? syntax error (expected a vertex or pass)",
    );
    assert_raw_fails_unchanged(
        &mut gtp,
        b"genmove \xe2\x82\n",
        "? syntax error (expected a colour)",
    );
    assert_raw_fails_unchanged(
        &mut gtp,
        b"46 komi 6.5\x80\n",
        "?46 syntax error (expected a number)",
    );
    assert_raw_fails_unchanged(
        &mut gtp,
        b"loadsgf \xff.sgf\n",
        "? syntax error (expected a file name)",
    );
    assert_eq!(gtp.stray_output(Duration::from_millis(100)), None);
}

/// Windows PowerShell writes a UTF-8 byte-order mark before what it pipes
/// to a program: the first command is read without it, on a line of its
/// own or not.
#[test]
fn a_byte_order_mark_before_the_first_command_is_skipped() {
    let mut gtp = Gtp::start();
    gtp.write_raw(b"\xEF\xBB\xBF1 name\n");
    assert_eq!(gtp.read_response(), "=1 hane");
    assert_eq!(gtp.send("2 protocol_version"), "=2 2");
    let mut gtp = Gtp::start();
    gtp.write_raw(b"\xEF\xBB\xBF\nname\n");
    assert_eq!(gtp.read_response(), "= hane");
}

#[test]
fn megabyte_lines() {
    let mut gtp = game_in_progress();
    let mut name = b"50 ".to_vec();
    name.resize(1 << 20, b'x');
    name.push(b'\n');
    assert_raw_fails_unchanged(&mut gtp, &name, "?50 unknown command");
    // A megabyte of vertices is parsed, then refused by the engine.
    let mut handicap = b"51 set_free_handicap".to_vec();
    while handicap.len() < 1 << 20 {
        handicap.extend_from_slice(b" D4");
    }
    handicap.push(b'\n');
    assert_raw_fails_unchanged(&mut gtp, &handicap, "?51 board not empty");
    let mut komi = b"52 komi 6.".to_vec();
    komi.resize(1 << 20, b'0');
    komi.extend_from_slice(b"1\n");
    assert_eq!(gtp.send(&String::from_utf8(komi).unwrap()), "=52 ");

    // Past the reader's bound the line is refused with its id, the rest of
    // it dropped, and the next line read as usual.
    let mut huge = b"53 play b".to_vec();
    huge.resize(MAX_LINE_BYTES + 1000, b' ');
    huge.extend_from_slice(b"D4\n");
    assert_raw_fails_unchanged(
        &mut gtp,
        &huge,
        &format!("?53 syntax error (line longer than {MAX_LINE_BYTES} bytes)"),
    );
    // An overlong comment is still only a comment.
    let mut comment = b"54 name # ".to_vec();
    comment.resize(MAX_LINE_BYTES + 1000, b'#');
    comment.push(b'\n');
    gtp.write_raw(&comment);
    assert_eq!(gtp.read_response(), "=54 hane");
    comment.drain(..7);
    assert_ignored(&mut gtp, &comment);
}

// --- loadsgf -----------------------------------------------------------

/// `loadsgf` must fail with `expected` quickly and leave the game alone.
fn assert_load_fails(gtp: &mut Gtp, path: &Path, expected: &str) {
    let command = format!("loadsgf {}", path.display());
    let started = Instant::now();
    assert_fails_unchanged(gtp, &command, &format!("? cannot load file ({expected})"));
    let elapsed = started.elapsed();
    assert!(
        elapsed < Duration::from_secs(10),
        "{command} took {elapsed:?}"
    );
}

fn nested(depth: usize) -> Vec<u8> {
    let mut text = b"(;SZ[19]".to_vec();
    for _ in 0..depth {
        text.extend_from_slice(b"(;B[aa]");
    }
    text.extend(std::iter::repeat_n(b')', depth + 1));
    text
}

#[test]
fn files_that_are_not_games() {
    let dir = TempDir::new("bad-files");
    let mut gtp = game_in_progress();
    assert_load_fails(
        &mut gtp,
        &dir.path().join("missing.sgf"),
        "No such file or directory (os error 2)",
    );
    assert_load_fails(&mut gtp, dir.path(), "not a file");
    assert_load_fails(&mut gtp, Path::new("/dev/zero"), "not a file");
    // A FIFO would block a reader for ever; it is refused before opening.
    let fifo = dir.path().join("fifo.sgf");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|status| status.success()) {
        assert_load_fails(&mut gtp, &fifo, "not a file");
    }
    // Binary bytes with no `(` hold no game tree; with one, the place of
    // the first byte that SGF does not allow there is reported, never the
    // byte itself: the file's content is not repeated to the client.
    let mut binary: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .filter(|&byte| byte != b'(')
        .collect();
    let path = dir.file("binary.sgf", &binary);
    assert_load_fails(&mut gtp, &path, "malformed SGF: no game tree");
    binary.splice(0..0, *b"(;\x01");
    binary[2] = 0x01;
    let path = dir.file("binary2.sgf", &binary);
    assert_load_fails(
        &mut gtp,
        &path,
        "malformed SGF: unexpected character at byte 2",
    );
    assert_load_fails(
        &mut gtp,
        &dir.file("empty.sgf", b""),
        "malformed SGF: no game tree",
    );

    // 100 MB (a sparse file: quick to make) is refused by its size.
    let big = dir.path().join("big.sgf");
    let file = std::fs::File::create(&big).expect("create");
    file.set_len(100 << 20).expect("set_len");
    drop(file);
    assert_load_fails(&mut gtp, &big, "file larger than 16777216 bytes");
}

#[test]
fn malformed_and_illegal_games() {
    let dir = TempDir::new("bad-games");
    let mut gtp = game_in_progress();
    for (name, text, expected) in [
        (
            "open.sgf",
            &b"(;SZ[9];B[ee]"[..],
            "malformed SGF: unexpected end of file at byte 13",
        ),
        (
            "value.sgf",
            b"(;SZ[9]KM[six])",
            "malformed SGF: bad KM 'six'",
        ),
        ("point.sgf", b"(;SZ[9];B[zz])", "bad point 'zz' for size 9"),
        (
            "occupied.sgf",
            b"(;SZ[9];B[ee];W[ee])",
            "illegal move W E5 at move 2",
        ),
        (
            "ko.sgf",
            b"(;SZ[5];B[bc];W[cc];B[ad];W[dd];B[be];W[ce];B[cd];W[bd];B[cd])",
            "illegal move B C2 at move 9",
        ),
        (
            "enclosed.sgf",
            b"(;SZ[9]AB[aa]AW[ab][ba])",
            "setup leaves a string without liberties",
        ),
        ("size1.sgf", b"(;SZ[1];B[aa])", "unsupported board size 1"),
        ("size26.sgf", b"(;SZ[26])", "unsupported board size 26"),
        ("narrow.sgf", b"(;SZ[1:9])", "unsupported board size 1:9"),
        (
            "off_the_rectangle.sgf",
            b"(;SZ[9:5];B[af])",
            "bad point 'af' for size 9x5",
        ),
        (
            "size30.sgf",
            b"(;SZ[30:30])",
            "unsupported board size 30:30",
        ),
        (
            "rectangle.sgf",
            b"(;SZ[19:26])",
            "unsupported board size 19:26",
        ),
        ("chess.sgf", b"(;GM[2])", "not a Go game: GM[2]"),
    ] {
        assert_load_fails(&mut gtp, &dir.file(name, text), expected);
    }
}

#[test]
fn deep_and_huge_variation_trees() {
    let dir = TempDir::new("deep-games");
    let mut gtp = game_in_progress();
    // 100,000 nested variations: the first of each is the main line, far
    // past the bound on its length.
    assert_load_fails(
        &mut gtp,
        &dir.file("nested.sgf", &nested(100_000)),
        "main line longer than 10000 moves and setups",
    );
    // The same depth inside a side variation is walked and skipped.
    let mut side = b"(;SZ[9];B[ee](;W[dd])".to_vec();
    side.extend_from_slice(&nested(100_000));
    side.push(b')');
    let side = dir.file("side.sgf", &side);
    let started = Instant::now();
    assert_eq!(gtp.ok(&format!("loadsgf {}", side.display())), "black");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(gtp.ok("list_stones white"), "D6");
    // Ten megabytes of sibling variations.
    let mut wide = b"(;SZ[9];B[ee]".to_vec();
    while wide.len() < 10 << 20 {
        wide.extend_from_slice(b"(;W[aa])");
    }
    wide.push(b')');
    let wide = dir.file("wide.sgf", &wide);
    assert_eq!(gtp.ok(&format!("loadsgf {}", wide.display())), "black");
    assert_eq!(gtp.ok("list_stones white"), "A9");
    // A main line of passes just over the bound.
    let mut passes = b"(;SZ[19]".to_vec();
    for _ in 0..5001 {
        passes.extend_from_slice(b";B[];W[]");
    }
    passes.push(b')');
    let before = snapshot(&mut gtp);
    let response = gtp.send(&format!(
        "loadsgf {}",
        dir.file("passes.sgf", &passes).display()
    ));
    assert_eq!(
        response,
        "? cannot load file (main line longer than 10000 moves and setups)"
    );
    assert_eq!(snapshot(&mut gtp), before);
}

// --- end of input and a closed stdout -------------------------------------

#[test]
fn end_of_input_during_genmove_answers_then_exits() {
    // End of input lets the genmove already read run its whole budget (two
    // seconds), as a script expects, and then the engine exits. It once
    // stopped the search at once and answered the pass of an empty search.
    let mut child = spawn_hane(&["--time", "2", "--threads", "1"]);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"boardsize 19\n7 genmove b\n")
        .expect("write");
    let started = Instant::now();
    drop(stdin);
    let status = wait_bounded(
        &mut child,
        Duration::from_secs(20),
        "end_of_input_during_genmove_answers_then_exits",
    );
    let elapsed = started.elapsed();
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut stdout)
        .expect("read stdout");
    assert!(status.success(), "exit status {status}");
    let stderr = stderr_of(&mut child);
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
    let responses: Vec<&str> = stdout.split_terminator("\n\n").collect();
    assert_eq!(responses.len(), 2, "stdout: {stdout:?}");
    assert_eq!(responses[0], "= ");
    assert!(responses[1].starts_with("=7 "), "stdout: {stdout:?}");
    assert_ne!(responses[1], "=7 pass", "an empty search's pass");
    assert!(
        elapsed >= Duration::from_millis(1500),
        "searched only {elapsed:?}"
    );
}

#[test]
fn an_interrupt_written_with_the_genmove_stops_it_with_a_real_move() {
    // GoGui's interrupt in the same write as the genmove applies to it: the
    // answer comes at once (not after thirty seconds), and is a move the
    // search chose, not the pass of an empty search.
    for _ in 0..5 {
        let mut child = spawn_hane(&["--time", "30", "--threads", "1"]);
        let mut stdin = child.stdin.take().expect("stdin");
        let started = Instant::now();
        stdin
            .write_all(b"boardsize 9\n7 genmove b\n# interrupt\n")
            .expect("write");
        drop(stdin);
        let status = wait_bounded(
            &mut child,
            Duration::from_secs(15),
            "an_interrupt_written_with_the_genmove_stops_it_with_a_real_move",
        );
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(status.success(), "exit status {status}");
        let mut stdout = String::new();
        child
            .stdout
            .take()
            .expect("stdout")
            .read_to_string(&mut stdout)
            .expect("read stdout");
        let responses: Vec<&str> = stdout.split_terminator("\n\n").collect();
        assert_eq!(responses.len(), 2, "stdout: {stdout:?}");
        assert!(responses[1].starts_with("=7 "), "stdout: {stdout:?}");
        assert_ne!(responses[1], "=7 pass", "an empty search's pass");
    }
}

#[test]
fn any_time_per_move_on_the_command_line_is_safe() {
    // 1e300 seconds once panicked converting to a Duration; it is refused
    // at start-up now, with 0, NaN and infinity
    // (`senseless_times_per_move_are_refused_at_start_up` in
    // tests/reliability.rs). The extremes that are accepted:
    for time in ["3600", "1e-300"] {
        let mut child = spawn_hane(&["--time", time, "--threads", "1"]);
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(
                b"boardsize 9
8 genmove b
",
            )
            .expect("write");
        std::thread::sleep(Duration::from_millis(500));
        // End of input lets a genmove run its whole time: GoGui's interrupt
        // ends the hour-long one.
        stdin.write_all(b"# interrupt\n").expect("write");
        drop(stdin);
        let status = wait_bounded(
            &mut child,
            Duration::from_secs(10),
            "any_time_per_move_on_the_command_line_is_safe",
        );
        let mut stdout = String::new();
        let _ = child
            .stdout
            .take()
            .expect("stdout")
            .read_to_string(&mut stdout);
        let stderr = stderr_of(&mut child);
        assert!(!stderr.contains("panicked"), "--time {time}: {stderr}");
        assert!(status.success(), "--time {time}: exit status {status}");
        assert!(stdout.contains("\n\n=8 "), "--time {time}: {stdout:?}");
    }
}

#[test]
fn end_of_input_mid_line_and_without_commands() {
    for input in [&b""[..], b"name", b"\x00\xff", b"genmove"] {
        let mut child = spawn_hane(&[]);
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(input).expect("write");
        drop(stdin);
        let status = wait_bounded(
            &mut child,
            Duration::from_secs(10),
            "end_of_input_mid_line_and_without_commands",
        );
        assert!(status.success(), "exit status {status} after {input:?}");
        let stderr = stderr_of(&mut child);
        assert!(!stderr.contains("panicked"), "stderr: {stderr}");
    }
}

#[test]
fn closed_stdout_ends_the_engine_cleanly() {
    for commands in [&b"name\n"[..], b"boardsize 9\ngenmove b\n"] {
        let mut child = spawn_hane(&["--playouts", "200", "--threads", "1"]);
        drop(child.stdout.take());
        let mut stdin = child.stdin.take().expect("stdin");
        // Keep writing: the engine may be gone before the last lines, so
        // write errors here are expected.
        for _ in 0..100 {
            if stdin
                .write_all(commands)
                .and_then(|()| stdin.flush())
                .is_err()
            {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let status = wait_bounded(
            &mut child,
            Duration::from_secs(20),
            "closed_stdout_ends_the_engine_cleanly",
        );
        drop(stdin);
        assert!(status.success(), "exit status {status}");
        let stderr = stderr_of(&mut child);
        assert!(!stderr.contains("panicked"), "stderr: {stderr}");
    }
}

/// Every move is kept for superko and undo, so a client that plays on
/// without end is refused once the record holds 10,000 moves and setups,
/// the bound a loaded SGF main line has too; undo still works, and after
/// an undo a move may be played again.
#[test]
fn the_game_record_is_bounded() {
    let dir = TempDir::new("full-record");
    let mut gtp = game_in_progress();
    let path = dir.file("full.sgf", &passes_sgf(19, 10_000));
    assert_eq!(gtp.ok(&format!("loadsgf {}", path.display())), "black");
    for command in [
        "play b D4",
        "play b pass",
        "genmove b",
        "lz-genmove_analyze b 10",
        "kata-genmove_analyze b 10",
    ] {
        // The analysing genmoves once answered success with no play line.
        assert_fails_unchanged(&mut gtp, command, "? game record full (10000 moves)");
    }
    // reg_genmove plays nothing, so it is still answered.
    let before = snapshot(&mut gtp);
    gtp.ok("reg_genmove b");
    assert_eq!(snapshot(&mut gtp), before);
    assert_eq!(gtp.ok("undo"), "");
    assert_eq!(gtp.ok("play w D4"), "");
    assert_fails_unchanged(&mut gtp, "play b Q16", "? game record full (10000 moves)");
}

/// The handicap commands add a setup to the record: after ten thousand
/// passes the board is empty, and they once went past the bound (after
/// which hane could not reload its own printsgf).
#[test]
fn handicap_commands_respect_the_record_bound() {
    let dir = TempDir::new("full-record-handicap");
    let mut gtp = Gtp::start();
    let path = dir.file("passes.sgf", &passes_sgf(9, 10_000));
    gtp.ok(&format!("loadsgf {}", path.display()));
    for command in [
        "fixed_handicap 2",
        "place_free_handicap 2",
        "set_free_handicap C3 G7",
    ] {
        assert_fails_unchanged(&mut gtp, command, "? game record full (10000 moves)");
    }
}

/// The largest resident set the process has had, from /proc (Linux).
fn peak_resident_bytes(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    let kilobytes: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM");
    kilobytes * 1024
}

/// The reader's bound on what it reads ahead of the engine loop
/// (src/gtp/io.rs's MAX_QUEUED_BYTES).
const MAX_QUEUED_BYTES: u64 = 16 << 20;

/// The peak resident set of an engine through one three-second 9x9
/// genmove, with `flood` comment lines of MAX_LINE_BYTES sent while it
/// thinks; every line must then have been read (the `protocol_version`
/// after them answered).
fn peak_through_a_genmove(flood: usize) -> u64 {
    let mut child = spawn_hane(&["--time", "3", "--threads", "1", "--max-tree-mb", "16"]);
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let writer = std::thread::spawn(move || {
        let mut comment = vec![b'x'; MAX_LINE_BYTES - 1];
        comment[0] = b'#';
        comment.push(b'\n');
        stdin.write_all(b"boardsize 9\ngenmove b\n").expect("write");
        for _ in 0..flood {
            stdin.write_all(&comment).expect("write");
        }
        stdin.write_all(b"protocol_version\n").expect("write");
        stdin
    });
    let mut responses = Vec::new();
    let mut line = String::new();
    while responses.len() < 3 {
        line.clear();
        let read = std::io::BufRead::read_line(&mut stdout, &mut line).expect("read");
        assert!(read > 0, "hane ended early");
        if !line.trim().is_empty() {
            responses.push(line.trim().to_string());
        }
    }
    assert_eq!(responses[0], "=");
    assert!(responses[1].starts_with("= "), "{responses:?}");
    assert_eq!(responses[2], "= 2");
    let peak = peak_resident_bytes(pid);
    drop(writer.join().expect("writer"));
    let status = wait_bounded(
        &mut child,
        Duration::from_secs(10),
        "peak_through_a_genmove",
    );
    assert!(status.success());
    peak
}

/// The reader keeps reading while genmove thinks (it must see GoGui's
/// `# interrupt`), but only so far ahead: 256 MiB of comment lines sent
/// during a three-second genmove wait in the pipe, not in the engine's
/// memory, and are all read once the genmove has answered.
///
/// What the flood costs is measured against the same genmove without it,
/// so that the search's own memory (which its parameters change) is not
/// counted. The reader holds at most MAX_QUEUED_BYTES queued and a line
/// in hand, the engine loop the line it is parsing; the allocator
/// (mimalloc) returns freed line buffers to the system after a delay, not
/// at once, which was measured to add up to about as much again (26 to
/// 46 MiB in all, 21 with its purge delay set to 0). An unbounded queue
/// would hold the whole 256 MiB.
#[test]
fn input_read_ahead_during_a_search_is_bounded() {
    let quiet = peak_through_a_genmove(0);
    let flooded = peak_through_a_genmove(64);
    let in_hand = MAX_QUEUED_BYTES + 2 * MAX_LINE_BYTES as u64;
    let extra = flooded.saturating_sub(quiet);
    assert!(
        extra < 2 * in_hand + (16 << 20),
        "the flood added {} MiB to a peak of {} MiB",
        extra >> 20,
        quiet >> 20
    );
}

#[test]
fn senseless_command_line_values_are_refused_at_start_up() {
    // Each of these used to start an engine that passed every move
    // (--playouts 0) or ignored the value silently.
    for (args, words) in [
        (&["--threads", "0"][..], "--threads"),
        (&["--playouts", "0"][..], "--playouts"),
        (&["--resign", "1.5"][..], "--resign"),
        (&["--resign=-0.1"][..], "--resign"),
        (&["--time=-1"][..], "--time"),
        (&["--param", "rave_equiv"][..], "NAME=VALUE"),
        (&["--param", "no_such=1"][..], "unknown parameter"),
    ] {
        let output = start_up(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} was accepted");
        assert!(output.stdout.is_empty(), "{args:?} wrote to stdout");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
    }
}

#[test]
fn printsgf_refuses_what_is_not_a_regular_file() {
    // A FIFO with no reader once blocked the engine for good.
    let temp = TempDir::new("printsgf");
    let dir = temp.path().to_path_buf();
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    let mut gtp = game_in_progress();
    if made.is_ok_and(|s| s.success()) {
        let started = Instant::now();
        let answer = gtp.send(&format!("printsgf {}", fifo.display()));
        assert!(answer.starts_with("? cannot write file"), "{answer}");
        assert!(started.elapsed() < Duration::from_secs(5));
    }
    let answer = gtp.send(&format!("printsgf {}", dir.display()));
    assert!(answer.starts_with("? cannot write file"), "{answer}");
    // A regular file is still written, and a longer old one truncated.
    let file = dir.join("game.sgf");
    std::fs::write(&file, "x".repeat(100_000)).expect("write");
    assert_eq!(gtp.send(&format!("printsgf {}", file.display())), "= ");
    let written = std::fs::read_to_string(&file).expect("read back");
    assert!(written.starts_with("(;") && written.trim_end().ends_with(')'));
    assert!(written.len() < 100_000);
    assert_eq!(gtp.send("name"), "= hane");
}

/// A log file that cannot be opened is set aside with a warning, and the
/// engine answers on stdout as it would without one (KataGo does the
/// same); `analysis` and `gtp` answer `query` on their protocol.
fn serves_despite_the_log_file(args: &[&str], env: &[(&str, &str)]) -> String {
    let analysis = args.contains(&"analysis");
    let (input, answer) = if analysis {
        (r#"{"id":"q","action":"query_version"}"#, r#""id":"q""#)
    } else {
        ("name", "= hane")
    };
    let mut engine = Gtp::start_with_env(args, env);
    engine.write_raw(format!("{input}\n").as_bytes());
    let line = engine.read_line();
    let (status, stderr) = engine.close();
    assert!(line.contains(answer), "{args:?}: {line} / {stderr}");
    assert!(status.success(), "{args:?}: {stderr}");
    assert!(
        stderr.contains("cannot open the log file"),
        "{args:?}: {stderr}"
    );
    stderr
}

#[test]
fn a_log_file_that_is_a_fifo_no_one_reads_is_set_aside_at_once() {
    // `--log-file FIFO` (or `logFile` in an analysis config) once held the
    // start-up for ever, with no answer to `name`.
    let temp = TempDir::new("log-fifo");
    let fifo = temp.path().join("log.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return;
    }
    let fifo = fifo.to_string_lossy().to_string();
    let config = temp.file("log.cfg", format!("logFile = {fifo}\n").as_bytes());
    let config = config.to_string_lossy().to_string();
    for args in [
        vec!["--log-file", fifo.as_str()],
        vec!["--log-file", fifo.as_str(), "analysis"],
        vec!["analysis", "-config", config.as_str()],
    ] {
        let stderr = serves_despite_the_log_file(&args, &[]);
        assert!(
            stderr.contains("a FIFO that no one reads"),
            "{args:?}: {stderr}"
        );
    }
}

/// A client's config may name a log file in a folder of the client's own
/// (KaTrain's `logFile = "~/.katrain/katago_log.txt"`): where that folder
/// is missing the engine starts all the same, and `~/` is the home folder.
#[test]
fn a_config_s_log_file_in_a_missing_folder_does_not_stop_the_engine() {
    let home = TempDir::new("log-home");
    let config = home.file(
        "katrain.cfg",
        b"logFile = \"~/.katrain/katago_log.txt\"\nmaxVisits = 500\n",
    );
    let config = config.to_string_lossy().to_string();
    let home_dir = home.path().to_string_lossy().to_string();
    let env = [("HOME", home_dir.as_str())];
    for args in [
        vec!["analysis", "-config", config.as_str()],
        vec!["gtp", "-config", config.as_str()],
    ] {
        let stderr = serves_despite_the_log_file(&args, &env);
        let expanded = home.path().join(".katrain").join("katago_log.txt");
        assert!(
            stderr.contains(&expanded.display().to_string()),
            "{args:?}: {stderr}"
        );
    }
    // With the folder there, the log goes to it.
    std::fs::create_dir(home.path().join(".katrain")).expect("mkdir");
    let mut engine = Gtp::start_with_env(&["-v", "analysis", "-config", config.as_str()], &env);
    engine.write_raw(b"{\"id\":\"q\",\"action\":\"query_version\"}\n");
    assert!(engine.read_line().contains(r#""id":"q""#));
    let (status, stderr) = engine.close();
    assert!(status.success(), "{stderr}");
    let log = std::fs::read_to_string(home.path().join(".katrain/katago_log.txt"))
        .expect("the log in the home folder");
    assert!(
        !log.is_empty() && !stderr.contains("cannot open"),
        "{stderr}"
    );
}

/// A parent may hand over a non-blocking stdin: "nothing yet" (EAGAIN) was
/// taken for the end of input, and the engine quit at once, silently.
#[test]
fn a_non_blocking_stdin_is_waited_on() {
    let python = "import os, subprocess, sys, time\n\
r, w = os.pipe()\n\
os.set_blocking(r, False)\n\
p = subprocess.Popen([sys.argv[1]], stdin=r, stdout=subprocess.PIPE)\n\
os.close(r)\n\
time.sleep(0.5)\n\
os.write(w, b'name\\n')\n\
os.close(w)\n\
out, _ = p.communicate(timeout=20)\n\
sys.stdout.write(out.decode())\n\
sys.exit(p.returncode)\n";
    let Some(output) = run_with_python(python) else {
        return;
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{:?}: {stdout}", output.status);
    assert_eq!(stdout, "= hane\n\n");
}

/// A real read error is not the end of input: it is logged and the exit
/// status says so.
#[test]
fn a_read_error_on_stdin_exits_non_zero() {
    let directory = std::fs::File::open("/").expect("open /");
    let output = Command::new(env!("CARGO_BIN_EXE_hane"))
        .stdin(Stdio::from(directory))
        .output()
        .expect("run hane");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot read standard input"), "{stderr}");
    assert!(output.stdout.is_empty());
}

/// A 16 MiB SGF file (within the cap) of millions of empty comments once
/// took 870 MB while it was read; only the properties a game needs are
/// kept now.
#[test]
fn a_large_sgf_file_is_read_in_bounded_memory() {
    let dir = TempDir::new("comments");
    let mut text = b"(;SZ[9]".to_vec();
    while text.len() + 4 < 16 << 20 {
        text.extend_from_slice(b"C[]");
    }
    text.push(b')');
    let path = dir.file("comments.sgf", &text);
    let mut child = spawn_hane(&["--threads", "1"]);
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(stdin, "loadsgf {}", path.display()).expect("write");
    let mut stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut line).expect("read");
    assert_eq!(line.trim(), "= black");
    let peak = peak_resident_bytes(pid);
    drop(stdin);
    let status = wait_bounded(
        &mut child,
        Duration::from_secs(10),
        "a_large_sgf_file_is_read_in_bounded_memory",
    );
    assert!(status.success());
    assert!(peak < 256 << 20, "peak resident set {} MiB", peak >> 20);

    // A node of a hundred thousand moves is refused, not stored.
    let mut text = b"(;SZ[9];".to_vec();
    for _ in 0..100_000 {
        text.extend_from_slice(b"B[]");
    }
    text.push(b')');
    let path = dir.file("moves.sgf", &text);
    let mut gtp = Gtp::start();
    let answer = gtp.send(&format!("loadsgf {}", path.display()));
    assert!(answer.starts_with("? cannot load file"), "{answer}");
}

/// A parent may hand over a non-blocking stdout. When the reader fell
/// behind, a write got EAGAIN, which was taken for a closed stdout: hane
/// stopped after some 50 KB and every pending response was lost. The
/// client here writes 202 commands whose answers fill the pipe several
/// times over, waits two seconds, then reads.
#[test]
fn a_non_blocking_stdout_is_waited_on() {
    let python = r#"
import os, subprocess, sys, time
r, w = os.pipe()
os.set_blocking(w, False)
p = subprocess.Popen([sys.argv[1], '--threads', '1'], stdin=subprocess.PIPE, stdout=w)
os.close(w)
p.stdin.write(b'boardsize 19\n' + b'showboard\n' * 200 + b'99 name\n')
p.stdin.close()
time.sleep(2)
out = b''
while True:
    chunk = os.read(r, 65536)
    if not chunk:
        break
    out += chunk
code = p.wait(timeout=20)
sys.stdout.write(out.decode())
sys.exit(code)
"#;
    let Some(output) = run_with_python(python) else {
        return;
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
    let responses: Vec<&str> = stdout.split_terminator("\n\n").collect();
    assert_eq!(
        responses.len(),
        202,
        "{} bytes arrived; stderr: {stderr}",
        stdout.len()
    );
    assert_eq!(responses[201], "=99 hane");
    assert!(stdout.len() > 200_000, "{} bytes", stdout.len());
}

/// With stdout on /dev/full every response failed to write, yet hane exited
/// 0 as if the session had succeeded. A write error other than a closed pipe
/// now ends it with status 1; a closed pipe (the client went away) stays 0,
/// `closed_stdout_ends_the_engine_cleanly` in tests/bad_input.rs.
#[test]
fn a_stdout_that_cannot_be_written_exits_non_zero() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("no /dev/full here");
        return;
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_hane"))
        .stdin(Stdio::piped())
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hane");
    let mut stdin = child.stdin.take().expect("stdin");
    // hane may be gone before the last line is written.
    let _ = stdin.write_all(b"name\nname\n");
    drop(stdin);
    let status = wait_bounded(&mut child, Duration::from_secs(10), "/dev/full");
    let mut stderr = String::new();
    let _ = child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr);
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot write standard output"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Runs the Python `script` with hane's path as its argument (the tests
/// that need a non-blocking pipe make it there); None, with a note on
/// stderr, where there is no python3.
fn run_with_python(script: &str) -> Option<std::process::Output> {
    match Command::new("python3")
        .args(["-c", script, env!("CARGO_BIN_EXE_hane")])
        .output()
    {
        Ok(output) => Some(output),
        Err(e) => {
            eprintln!("python3 is needed to make a non-blocking pipe: {e}");
            None
        }
    }
}

/// `hane analysis` whose client closes its end of stdout but keeps stdin
/// open: it logged "stopping" and then waited on stdin for ever. It exits,
/// with status 0 as GTP mode does for a closed pipe
/// (`closed_stdout_ends_the_engine_cleanly`).
#[test]
fn analysis_exits_once_its_output_is_gone_though_stdin_stays_open() {
    let mut child = spawn_hane(&["analysis", "--threads", "1"]);
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin");
    let query = br#"{"id":"q","moves":[],"rules":"tromp-taylor","komi":7.5,"boardXSize":9,"boardYSize":9,"maxVisits":50}"#;
    stdin.write_all(query).expect("write the query");
    stdin.write_all(b"\n").expect("write the query");
    stdin.flush().expect("flush the query");
    // stdin stays open until hane is gone.
    let status = wait_bounded(
        &mut child,
        Duration::from_secs(30),
        "analysis_exits_once_its_output_is_gone",
    );
    drop(stdin);
    assert!(status.success(), "exit status {status}");
    let stderr = stderr_of(&mut child);
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
}
