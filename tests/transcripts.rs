//! GTP transcripts against the built binary: every error response with its
//! exact wording and echoed id, and the game state unchanged afterwards.

mod common;

use common::{assert_fails_unchanged, snapshot, Gtp, TempDir, SUPERKO_CASE};
use regex::Regex;
use std::time::Duration;

/// A game with a few stones and a capture, to check that failures leave it be.
fn game_in_progress() -> Gtp {
    common::game_in_progress(&["--seed", "1"])
}

/// A simple ko on 5x5: White has just taken at B2, and Black retaking
/// at C2 at once would repeat the colouring (and the side to move).
const SIMPLE_KO: [&str; 9] = [
    "boardsize 5",
    "play b B3",
    "play w C3",
    "play b A2",
    "play w D2",
    "play b B1",
    "play w C1",
    "play b C2",
    "play w B2",
];

#[test]
fn unknown_commands_echo_the_id() {
    let mut gtp = game_in_progress();
    assert_fails_unchanged(&mut gtp, "frobnicate", "? unknown command");
    assert_fails_unchanged(&mut gtp, "17 frobnicate 3", "?17 unknown command");
    assert_fails_unchanged(&mut gtp, "PLAY b A1", "? unknown command");
    assert_eq!(gtp.send("42 name"), "=42 hane");
}

#[test]
fn syntax_errors_leave_the_game_alone() {
    let mut gtp = game_in_progress();
    for command in [
        "play",
        "play b",
        "play x A1",
        "play b I5",
        "play b A1 A2",
        "genmove purple",
        "komi nan",
        "komi inf",
        "komi seven",
        "boardsize -3",
        "boardsize nine",
        "time_left b -5 0",
        "time_settings 10 -1 0",
        "countlib pass",
        "fixed_handicap",
        "final_status_list zombie",
    ] {
        let before = snapshot(&mut gtp);
        let response = gtp.send(command);
        assert!(
            response.starts_with("? syntax error"),
            "`{command}` answered {response}"
        );
        assert_eq!(snapshot(&mut gtp), before, "the game after `{command}`");
    }
    let before = snapshot(&mut gtp);
    assert_eq!(gtp.send("8 play b"), gtp_syntax_with_id(8));
    assert_eq!(snapshot(&mut gtp), before);
}

fn gtp_syntax_with_id(id: u64) -> String {
    // The detail after the spec's words is free; the spec's words are not.
    format!("?{id} syntax error (expected a vertex or pass)")
}

#[test]
fn illegal_moves_use_the_spec_wording() {
    let mut gtp = game_in_progress();
    assert_fails_unchanged(&mut gtp, "play w E5", "? illegal move");
    // Off the board, GNU Go's words: `illegal move` said the point was on
    // the board and taken or forbidden (the spec names no error for a
    // point off it; its `play` fails with `syntax error` or `illegal move`).
    assert_fails_unchanged(&mut gtp, "3 play b J10", "?3 invalid color or coordinate");
    assert_fails_unchanged(&mut gtp, "play b Z25", "? invalid color or coordinate");
    let mut gtp = common::started_with(&[], &SIMPLE_KO);
    // Black retaking the ko at once recreates an earlier colouring.
    assert_fails_unchanged(&mut gtp, "play b C2", "? illegal move");
    assert_eq!(gtp.ok("is_legal b C2"), "0");
}

#[test]
fn a_point_off_the_19x19_board_is_refused_in_gnu_go_s_words() {
    // `play b Z9` answered `? illegal move`; GNU Go answers `? invalid
    // color or coordinate`, and gogui-twogtp shows that text in ERR_MSG.
    let mut gtp = common::started_with(&[], &["boardsize 19", "clear_board"]);
    assert_fails_unchanged(&mut gtp, "play b Z9", "? invalid color or coordinate");
    assert_fails_unchanged(&mut gtp, "5 play w U1", "?5 invalid color or coordinate");
    assert_eq!(gtp.ok("play b T19"), "");
}

#[test]
fn size_handicap_and_undo_errors() {
    let mut gtp = game_in_progress();
    assert_fails_unchanged(&mut gtp, "boardsize 1", "? unacceptable size");
    assert_fails_unchanged(&mut gtp, "boardsize 26", "? unacceptable size");
    assert_fails_unchanged(
        &mut gtp,
        "5 boardsize 1000000000000000000000000000000",
        "?5 unacceptable size",
    );
    assert_fails_unchanged(&mut gtp, "fixed_handicap 2", "? board not empty");
    assert_fails_unchanged(&mut gtp, "place_free_handicap 2", "? board not empty");
    assert_fails_unchanged(&mut gtp, "set_free_handicap A1 B2", "? board not empty");

    let mut gtp = Gtp::start();
    gtp.ok("boardsize 9");
    assert_eq!(gtp.send("undo"), "? cannot undo");
    assert_eq!(gtp.send("fixed_handicap 10"), "? invalid number of stones");
    assert_eq!(gtp.send("fixed_handicap 1"), "? invalid number of stones");
    assert_eq!(
        gtp.send("place_free_handicap 1"),
        "? invalid number of stones"
    );
    assert_eq!(gtp.send("set_free_handicap A1 A1"), "? bad vertex list");
    assert_eq!(gtp.send("set_free_handicap A1"), "? bad vertex list");
    assert_eq!(gtp.send("set_free_handicap A1 T19"), "? bad vertex list");
    assert_eq!(gtp.ok("list_stones black"), "");
    assert_eq!(gtp.ok("fixed_handicap 2"), "C3 G7");
    // Handicap stones are not moves.
    assert_eq!(gtp.send("undo"), "? cannot undo");
    assert_eq!(gtp.ok("list_stones black"), "C3 G7");
}

#[test]
fn bad_files_are_refused_and_the_game_kept() {
    let mut gtp = game_in_progress();
    let dir = std::env::temp_dir().join(format!("hane-transcripts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let garbage = dir.join("garbage.sgf");
    std::fs::write(&garbage, b"\x00\x01(;;;((]]").expect("write");
    let illegal = dir.join("illegal.sgf");
    std::fs::write(&illegal, "(;SZ[9];B[ee];W[ee])").expect("write");
    let huge_board = dir.join("big.sgf");
    std::fs::write(&huge_board, "(;SZ[31];B[aa])").expect("write");
    for path in [
        dir.join("missing.sgf"),
        dir.clone(),
        garbage,
        illegal,
        huge_board,
    ] {
        let command = format!("loadsgf {}", path.display());
        let before = snapshot(&mut gtp);
        let response = gtp.send(&command);
        assert!(
            response.starts_with("? cannot load file"),
            "`{command}` answered {response}"
        );
        assert_eq!(snapshot(&mut gtp), before, "state after `{command}`");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn inspection_errors() {
    let mut gtp = game_in_progress();
    assert_fails_unchanged(&mut gtp, "countlib A1", "? vertex must not be empty");
    assert_fails_unchanged(&mut gtp, "countlib T19", "? invalid coordinate");
    assert_fails_unchanged(&mut gtp, "color T19", "? invalid coordinate");
    assert_eq!(gtp.ok("countlib E5"), "2");
    assert_eq!(gtp.ok("color D5"), "empty");
    assert_eq!(gtp.ok("captures black"), "1");
}

#[test]
fn preprocessing_of_hostile_lines() {
    let mut gtp = Gtp::start();
    gtp.write_raw(b"1 na\x00me\r\n");
    assert_eq!(gtp.read_response(), "=1 hane");
    gtp.write_raw(b"\t2\tprotocol_version # a comment\n");
    assert_eq!(gtp.read_response(), "=2 2");
    gtp.write_raw(b"# only a comment\n\n   \n3 \xff\xfe\n");
    assert_eq!(gtp.read_response(), "?3 unknown command");
    let long = format!("4 {}\n", "x".repeat(1 << 20));
    gtp.write_raw(long.as_bytes());
    assert_eq!(gtp.read_response(), "?4 unknown command");
    assert_eq!(gtp.stray_output(Duration::from_millis(200)), None);
    let (status, stderr) = gtp.close();
    assert!(status.success(), "exit status {status}");
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
}

#[test]
fn quit_and_end_of_input_end_cleanly() {
    let mut gtp = Gtp::start();
    assert_eq!(gtp.send("7 quit"), "=7 ");
    let (status, stderr) = gtp.close();
    assert!(status.success());
    assert!(!stderr.contains("panicked"));

    let mut gtp = Gtp::start();
    gtp.write_raw(b"name");
    let (status, stderr) = gtp.close();
    assert!(status.success());
    assert!(!stderr.contains("panicked"));
}

#[test]
fn reg_genmove_leaves_no_trace_in_the_next_genmove() {
    // With one thread, a seed and a playout count the search repeats
    // itself: the genmove after a reg_genmove must be the genmove alone.
    let args = ["--threads", "1", "--playouts", "400", "--seed", "11"];
    let setup = [
        "boardsize 9",
        "clear_board",
        "play b E5",
        "play w D4",
        "play b C3",
    ];
    let mut alone = Gtp::start_with(&args);
    let mut after = Gtp::start_with(&args);
    for command in setup {
        alone.ok(command);
        after.ok(command);
    }
    after.ok("reg_genmove w");
    // A few moves of self-play: any difference in trees or random streams
    // shows as a different game.
    for color in ["w", "b", "w", "b", "w", "b"] {
        let command = format!("genmove {color}");
        assert_eq!(alone.ok(&command), after.ok(&command), "{command}");
    }
    assert_eq!(alone.ok("showboard"), after.ok("showboard"));
}

/// An engine at `playouts` a move (seed 5) on an empty `size` board with
/// a komi no board can win against, past the opening (a quarter of the
/// points), where resigning begins, after `pass_pairs` passes by each side.
fn hopeless_game(size: usize, komi: &str, playouts: &str, pass_pairs: usize) -> Gtp {
    hopeless_game_with(&[], size, komi, playouts, pass_pairs)
}

/// `hopeless_game` with `args` added to the engine's.
fn hopeless_game_with(
    args: &[&str],
    size: usize,
    komi: &str,
    playouts: &str,
    pass_pairs: usize,
) -> Gtp {
    let mut all = vec!["--threads", "1", "--playouts", playouts, "--seed", "5"];
    all.extend_from_slice(args);
    let mut gtp = Gtp::start_with(&all);
    gtp.ok(&format!("boardsize {size}"));
    gtp.ok("clear_board");
    gtp.ok(&format!("komi {komi}"));
    for _ in 0..pass_pairs {
        gtp.ok("play b pass");
        gtp.ok("play w pass");
    }
    gtp
}

#[test]
fn reg_genmove_does_not_count_towards_resigning() {
    // Resigning takes two hopeless genmoves running; a reg_genmove before
    // the first must not count as one of them.
    let mut gtp = hopeless_game(9, "100", "3000", 11);
    // Hopeless, but the first look never resigns.
    assert_ne!(gtp.ok("reg_genmove b"), "resign");
    assert_ne!(gtp.ok("genmove b"), "resign");
    assert_eq!(gtp.ok("genmove b"), "resign");
}

#[test]
fn a_hopeless_side_resigns_when_hane_plays_both() {
    // GoGui's "computer plays both" asks genmove b, genmove w, ... in turn:
    // the resign rule compared Black's chance with White's at the genmove
    // before, which was winning, and Black played a lost game to the end.
    let mut gtp = hopeless_game(9, "100", "3000", 11);
    assert_ne!(gtp.ok("genmove b"), "resign");
    assert_ne!(gtp.ok("genmove w"), "resign");
    assert_eq!(gtp.ok("genmove b"), "resign");
}

#[test]
fn a_hopeless_game_at_a_komi_the_network_was_not_taught_is_resigned() {
    // data/training's network reads the komi but was taught at 6.5 and
    // 7.5 alone: all of each result its value's, a 9x9 game at komi 100
    // read as open (its value judged the nearest taught komi's game) and
    // was played out. Its value is kept only at komis it was taught; on
    // 19x19, the board its value is believed on, at 150 playouts a move.
    let args = [
        "--network",
        concat!(env!("CARGO_MANIFEST_DIR"), "/data/training/net.bin"),
        "--param",
        "value_share=100",
    ];
    let mut gtp = hopeless_game_with(&args, 19, "1000", "150", 46);
    assert_ne!(gtp.ok("genmove b"), "resign");
    assert_eq!(gtp.ok("genmove b"), "resign");
}

#[test]
fn a_hopeless_19x19_game_is_resigned_on_a_short_search() {
    // 150 playouts a move, as on a short clock. The prior's virtual
    // playouts once held every move's win rate above 5% here, so that
    // hane played a lost game out to the end.
    let mut gtp = hopeless_game(19, "1000", "150", 46);
    assert_ne!(gtp.ok("genmove b"), "resign");
    assert_eq!(gtp.ok("genmove b"), "resign");
}

#[test]
fn loadsgf_up_to_move_n_answers_the_colour_of_move_n() {
    // Black moved twice in a row: move 2 is Black's, and GNU Go answers
    // black too. hane once answered white (the side after move 1).
    let dir = TempDir::new("loadsgf-n");
    let path = dir.file("twice.sgf", b"(;SZ[9];B[ee];B[dd];W[cc])");
    let mut gtp = Gtp::start();
    for (n, colour, stones) in [(2, "black", 1), (3, "white", 2), (1, "black", 0)] {
        let answer = gtp.ok(&format!("loadsgf {} {n}", path.display()));
        assert_eq!(answer, colour, "move {n}");
        let black = gtp.ok("list_stones black");
        assert_eq!(
            black.split_whitespace().count(),
            stones,
            "move {n}: {black}"
        );
    }
    // Without N the whole game is loaded and the side to move follows it.
    assert_eq!(gtp.ok(&format!("loadsgf {}", path.display())), "black");
}

#[test]
fn printsgf_writes_the_side_to_move_where_the_moves_do_not_imply_it() {
    let dir = TempDir::new("pl");
    let setup = dir.file("setup.sgf", b"(;SZ[9]AB[cc]PL[W])");
    let mut gtp = Gtp::start();
    assert_eq!(gtp.ok(&format!("loadsgf {}", setup.display())), "white");
    let printed = dir.path().join("printed.sgf");
    gtp.ok(&format!("printsgf {}", printed.display()));
    let text = std::fs::read_to_string(&printed).expect("read");
    assert!(text.contains("PL[W]"), "{text}");
    // Read back, it gives the same side to move (it once gave black).
    assert_eq!(gtp.ok(&format!("loadsgf {}", printed.display())), "white");
    // A handicap game implies White after the stones: no PL at all.
    gtp.ok("boardsize 9");
    gtp.ok("clear_board");
    gtp.ok("fixed_handicap 2");
    gtp.ok("play w E5");
    gtp.ok("play b D4");
    let text = gtp.ok("printsgf");
    assert!(!text.contains("PL["), "{text}");
}

#[test]
fn cputime_answers_the_engines_cpu_seconds() {
    let mut gtp = Gtp::start_with(&["--threads", "1", "--time", "0.5"]);
    let seconds = |text: String| -> f64 {
        assert!(
            Regex::new(r"^\d+\.\d{3}$").expect("regex").is_match(&text),
            "cputime answered {text:?}"
        );
        text.parse().expect("a number")
    };
    let before = seconds(gtp.ok("cputime"));
    gtp.ok("boardsize 9");
    gtp.ok("genmove b");
    let after = seconds(gtp.ok("cputime"));
    assert!(after > before, "{before} then {after}");
    // The process's own CPU time as the kernel counts it, read while the
    // engine idles: the two agree to within the kernel's ticks.
    let kernel = gtp.cpu_seconds();
    assert!(
        (after - kernel).abs() < 0.05,
        "cputime {after}, kernel {kernel}"
    );
    assert!(gtp.send("7 cputime").starts_with("=7 "));
    assert_fails_unchanged(&mut gtp, "cputime 3", "? syntax error (too many arguments)");
}

#[test]
fn list_commands_offers_both_analysis_dialects_and_no_plain_analyze() {
    // Sabaki tries `analyze` before `kata-analyze` and reads the win rates
    // of every command not named kata-* as integers in 1/10000: a plain
    // `analyze` would be chosen and misread.
    let mut gtp = Gtp::start();
    let list = gtp.ok("list_commands");
    let names: Vec<&str> = list.lines().collect();
    for name in ["kata-analyze", "lz-analyze", "cputime"] {
        assert!(names.contains(&name), "{name} not in {names:?}");
    }
    for name in ["analyze", "genmove_analyze"] {
        assert!(!names.contains(&name), "{name} listed");
        assert_eq!(gtp.ok(&format!("known_command {name}")), "false");
    }
    assert_eq!(gtp.send("analyze b 50"), "? unknown command");
}

#[test]
fn situational_superko_allows_the_suicide_that_positional_refuses() {
    let mut positional = common::started_with(&[], &SUPERKO_CASE);
    assert_eq!(positional.ok("is_legal b B1"), "0");
    assert_fails_unchanged(&mut positional, "play b B1", "? illegal move");
    assert!(!positional.ok("all_legal b").contains("B1"));

    let mut situational = common::started_with(&["--superko", "situational"], &SUPERKO_CASE);
    assert_eq!(situational.ok("is_legal b B1"), "1");
    situational.ok("play b B1");
    assert_eq!(situational.ok("list_stones black"), "E3 E4 D5 E5");
    assert_eq!(situational.ok("captures white"), "2");
    // The record says which rule it was played under. Loaded again it
    // replays under the rule in force: the positional engine refuses B1.
    let dir = TempDir::new("situational");
    let record = dir.path().join("record.sgf");
    situational.ok(&format!("printsgf {}", record.display()));
    let text = std::fs::read_to_string(&record).expect("read the record");
    assert!(
        text.contains("RU[Tromp-Taylor, situational superko, suicide allowed]"),
        "{text}"
    );
    assert_eq!(
        situational.ok(&format!("loadsgf {}", record.display())),
        "white"
    );
    assert_eq!(situational.ok("list_stones black"), "E3 E4 D5 E5");
    assert_eq!(
        positional.send(&format!("loadsgf {}", record.display())),
        "? cannot load file (illegal move B B1 at move 11)"
    );

    // Both rules refuse the simple ko's recapture: it repeats the
    // colouring and the side to move.
    let mut gtp = common::started_with(&["--superko", "situational"], &SIMPLE_KO);
    assert_fails_unchanged(&mut gtp, "play b C2", "? illegal move");
}

/// A one-stone suicide changes only the turn. README and KataGo's rules
/// (multiStoneSuicideLegal: only a suicide of several stones may be legal)
/// refuse it under every rule hane offers; situational superko alone once
/// let it through, since the colouring with White to move was new.
#[test]
fn a_one_stone_suicide_is_illegal_under_both_superko_rules() {
    const EYE: [&str; 3] = ["boardsize 5", "play w A2", "play w B1"];
    for args in [
        &["--superko", "positional"][..],
        &["--superko", "situational"],
        &["--superko", "situational", "--no-suicide"],
    ] {
        let mut gtp = common::started_with(args, &EYE);
        assert_eq!(gtp.ok("is_legal b A1"), "0", "{args:?}");
        assert!(!gtp.ok("all_legal b").contains("A1"), "{args:?}");
        assert_fails_unchanged(&mut gtp, "play b A1", "? illegal move");
    }
}

/// KGS's kgs-genmove_cleanup: the engine does not pass while dead stones
/// remain, and README has genmove take dead stones off first. White's B1
/// stands alone in Black's corner behind A3-D3 and D1-D2, White passes, and
/// the count as it stands wins for Black: every visit went to the pass that
/// ends the game, so the search saw no dead stone, and Black passed.
#[test]
fn cleanup_takes_a_dead_stone_off_before_passing() {
    for command in ["kgs-genmove_cleanup b", "genmove b"] {
        let mut setup = vec!["boardsize 9".to_string(), "komi 7.5".to_string()];
        for col in ["A", "B", "C", "D", "E", "F", "G", "H", "J"] {
            setup.push(format!("play b {col}6"));
            setup.push(format!("play w {col}7"));
        }
        for v in ["A3", "B3", "C3", "D3", "D2", "D1", "B1"] {
            let color = if v == "B1" { "w" } else { "b" };
            setup.push(format!("play {color} {v}"));
        }
        setup.push("play w pass".to_string());
        let setup: Vec<&str> = setup.iter().map(String::as_str).collect();
        let mut gtp = common::started_with(&["--threads", "1", "--playouts", "300"], &setup);
        assert!(gtp.ok("final_score").starts_with("B+"));
        let first = gtp.ok(command);
        assert!(
            ["A1", "C1", "B2"].contains(&first.as_str()),
            "{command}: {first}"
        );
        for _ in 0..4 {
            if !gtp.ok("list_stones white").contains("B1") {
                break;
            }
            gtp.ok("play w pass");
            assert_ne!(gtp.ok(command), "pass", "{command}");
        }
        assert!(!gtp.ok("list_stones white").contains("B1"), "{command}");
    }
}

#[test]
fn the_rules_in_force_are_in_the_record_and_the_start_up_log() {
    let mut gtp = Gtp::start_with_env(&["--threads", "1"], &[("RUST_LOG", "info")]);
    let record = gtp.ok("printsgf");
    assert!(
        record.contains("RU[Tromp-Taylor, positional superko, suicide allowed]"),
        "{record}"
    );
    let (_, stderr) = gtp.close();
    let line = stderr
        .lines()
        .find(|l| l.contains("rules "))
        .unwrap_or_else(|| panic!("no rules in the log: {stderr}"));
    assert!(
        line.contains("rules Tromp-Taylor, positional superko, suicide allowed"),
        "{line}"
    );
    assert!(line.contains("komi 7.5"), "{line}");

    let mut gtp = Gtp::start_with_env(
        &["--superko", "situational", "--no-suicide"],
        &[("RUST_LOG", "info")],
    );
    // Under --no-suicide the rules forbid suicide to both sides: Black's
    // A1 B1, whose last liberty C1 White surrounds, would take its own
    // three stones off by playing there.
    for command in [
        "boardsize 5",
        "play b A1",
        "play b B1",
        "play w A2",
        "play w B2",
        "play w C2",
        "play w D1",
    ] {
        gtp.ok(command);
    }
    assert_fails_unchanged(&mut gtp, "play b C1", "? illegal move");
    assert!(gtp
        .ok("printsgf")
        .contains("RU[Tromp-Taylor, situational superko, suicide forbidden]"));
    let (_, stderr) = gtp.close();
    assert!(
        stderr.contains("rules Tromp-Taylor, situational superko, suicide forbidden"),
        "{stderr}"
    );
    // Under the default rules the same suicide is legal.
    let mut gtp = Gtp::start();
    for command in [
        "boardsize 5",
        "play b A1",
        "play b B1",
        "play w A2",
        "play w B2",
        "play w C2",
        "play w D1",
    ] {
        gtp.ok(command);
    }
    assert_eq!(gtp.send("play b C1"), "= ");
    assert_eq!(gtp.ok("list_stones black"), "");
    // A superko rule hane does not know is refused at start.
    let gtp = Gtp::start_with(&["--superko", "simple"]);
    let (status, stderr) = gtp.close();
    assert!(!status.success());
    assert!(stderr.contains("positional or situational"), "{stderr}");
}

/// KataGo's rules commands: Tromp-Taylor as its rules object, either
/// superko rule set by shorthand or object, other rules refused.
#[test]
fn katago_rules_commands_set_the_superko_rule_and_refuse_other_rules() {
    const TROMP_TAYLOR: &str = r#"{"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":true,"tax":"NONE","whiteHandicapBonus":"0","friendlyPassOk":false}"#;
    let mut gtp = common::started_with(&[], &SUPERKO_CASE);
    assert_eq!(gtp.send("1 kata-get-rules"), format!("=1 {TROMP_TAYLOR}"));
    assert_eq!(gtp.ok("is_legal b B1"), "0");
    // The object as kata-get-rules wrote it, with spaces, and situational ko.
    gtp.ok(r#"kata-set-rules {"hasButton": false, "ko": "SITUATIONAL", "scoring": "AREA", "suicide": true, "tax": "NONE", "whiteHandicapBonus": "0", "friendlyPassOk": false}"#);
    assert_eq!(
        gtp.ok("kata-get-rules"),
        TROMP_TAYLOR.replace("POSITIONAL", "SITUATIONAL")
    );
    assert_eq!(
        gtp.ok("is_legal b B1"),
        "1",
        "the position stays, the rule changes"
    );
    assert!(gtp
        .ok("printsgf")
        .contains("RU[Tromp-Taylor, situational superko, suicide allowed]"));
    let japanese = gtp.send("2 kata-set-rules japanese");
    assert!(
        japanese.starts_with("?2 rules hane does not play: hane plays only Tromp-Taylor"),
        "{japanese}"
    );
    assert!(
        japanese.contains(r#"scoring "TERRITORY" (hane: "AREA")"#),
        "{japanese}"
    );
    assert_eq!(gtp.ok("is_legal b B1"), "1", "a refusal changes nothing");
    assert!(gtp
        .send("kata-set-rules chinese")
        .starts_with("? rules hane does not play"));
    assert!(gtp
        .send("kata-set-rules go")
        .starts_with("? unknown rules 'go', expected a JSON rules object or one of tromp-taylor"));
    assert_eq!(
        gtp.send("kata-set-rules"),
        "? syntax error (expected rules: tromp-taylor or a JSON rules object)"
    );
    // Every form KataGo reads: its spellings of the shorthands, and the
    // compact form of its logs (here Tromp-Taylor without suicide).
    assert!(gtp
        .send("kata-set-rules new zealand")
        .starts_with("? rules hane does not play"));
    gtp.ok("kata-set-rules koPOSITIONALscoreAREAtaxNONEsui0");
    assert_eq!(
        gtp.ok("kata-get-rules"),
        TROMP_TAYLOR.replace(r#""suicide":true"#, r#""suicide":false"#)
    );
    // No komi here: the game keeps its own, as in KataGo.
    assert!(gtp
        .send(r#"kata-set-rules {"komi":6.5}"#)
        .starts_with("? unknown rules"));
    gtp.ok("kata-set-rules tromp taylor");
    assert_eq!(gtp.ok("kata-get-rules"), TROMP_TAYLOR);
    assert_eq!(gtp.ok("is_legal b B1"), "0");
    for name in ["kata-get-rules", "kata-set-rules"] {
        assert_eq!(gtp.ok(&format!("known_command {name}")), "true");
    }
}

/// The debug log writes commands as the client sent them; the info log says what the
/// clock gave a move and why the search stopped.
#[test]
fn logs_write_commands_as_gtp_and_the_clock_s_decisions() {
    let mut gtp = Gtp::start_with_env(&["--threads", "1"], &[("RUST_LOG", "debug")]);
    gtp.ok("boardsize 9");
    gtp.ok("play b e5");
    gtp.ok("time_settings 30 0 0");
    gtp.ok("genmove w");
    let (_, stderr) = gtp.close();
    assert!(stderr.contains("command play b e5"), "{stderr}");
    assert!(!stderr.contains("Vertex {"), "{stderr}");
    let budget = stderr
        .lines()
        .find(|l| l.contains("genmove white: think "))
        .unwrap_or_else(|| panic!("no budget in {stderr}"));
    assert!(budget.contains(" INFO "), "{budget}");
    assert!(budget.contains("while the choice is unclear"), "{budget}");
    assert!(
        stderr.contains("white: stopped "),
        "why the search stopped: {stderr}"
    );
    assert!(!stderr.contains("pass pass"), "{stderr}");
    assert!(stderr.contains("; passing: "), "{stderr}");
}

#[test]
fn katago_parameter_commands_read_and_set_the_one_parameter_table() {
    let mut gtp = Gtp::start_with(&["--threads", "1"]);
    let names = gtp.ok("kata-list-params");
    let listed: Vec<&str> = names.split_whitespace().collect();
    let table: Vec<&str> = hane::PARAMS.iter().map(|p| p.name).collect();
    assert_eq!(listed, table);
    assert_eq!(gtp.ok("kata-get-param prior_suicide"), "40");
    assert_eq!(gtp.send("kata-set-param prior_suicide 7"), "= ");
    assert_eq!(gtp.ok("kata-get-param prior_suicide"), "7");
    // An unknown name lists the valid ones; a bad value says the range;
    // neither changes anything.
    let unknown = gtp.send("kata-set-param prior_evn 3");
    assert!(
        unknown.starts_with("? unknown parameter 'prior_evn'; the parameters are: rave_equiv,"),
        "{unknown}"
    );
    assert!(gtp
        .send("kata-get-param prior_evn")
        .starts_with("? unknown parameter"));
    assert_eq!(
        gtp.send("kata-set-param policy_capture 2"),
        "? bad value '2' for parameter policy_capture: expected a number from 0 to 1"
    );
    assert_eq!(gtp.ok("kata-get-param policy_capture"), "0.9");
    // All at once, as JSON.
    let all = gtp.ok("kata-get-params");
    assert!(all.contains("\"prior_suicide\":7"), "{all}");
    assert!(all.contains("\"heavy_playouts\":true"), "{all}");
    // Each value as kata-get-param prints it: 0.9, not the f32's
    // 0.8999999761581421.
    let object: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&all).expect("a JSON object");
    assert_eq!(object.len(), table.len());
    for (name, value) in &object {
        let single = gtp.ok(&format!("kata-get-param {name}"));
        match value {
            serde_json::Value::Number(n) => {
                let single: f64 = single.parse().expect("a number");
                assert_eq!(n.as_f64(), Some(single), "{name}: {all}");
            }
            other => assert_eq!(other.to_string(), single, "{name}"),
        }
    }
    assert!(all.contains("\"policy_capture\":0.9,"), "{all}");
    assert_eq!(
        gtp.send(r#"kata-set-params {"prior_even": 3, "heavy_playouts": false}"#),
        "= "
    );
    assert_eq!(gtp.ok("kata-get-param prior_even"), "3");
    assert_eq!(gtp.ok("kata-get-param heavy_playouts"), "false");
    // One bad entry sets none of them.
    assert!(gtp
        .send(r#"kata-set-params {"prior_even": 5, "expand_visits": 0}"#)
        .starts_with("? bad value '0' for parameter expand_visits"));
    assert_eq!(gtp.ok("kata-get-param prior_even"), "3");
    assert!(gtp
        .send("kata-set-params [1]")
        .starts_with("? not a JSON object"));
    // The search runs under the new values.
    gtp.ok("boardsize 9");
    let reply = gtp.ok("genmove b");
    assert!(reply != "pass" && reply != "resign", "{reply}");
}

/// `komi -0` was written back as `KM[-0]`.
#[test]
fn negative_zero_komi_is_written_as_zero() {
    let dir = TempDir::new("komi-minus-zero");
    let mut gtp = Gtp::start_with(&["--threads", "1"]);
    gtp.ok("boardsize 9");
    gtp.ok("komi -0");
    let record = gtp.ok("printsgf");
    assert!(record.contains("KM[0]"), "{record}");
    assert!(!record.contains("KM[-0]"), "{record}");
    // A file's KM[-0] as well, and the count it gives.
    let path = dir.file("minus-zero.sgf", b"(;SZ[9]KM[-0];B[ee])");
    gtp.ok(&format!("loadsgf {}", path.display()));
    let record = gtp.ok("printsgf");
    assert!(
        record.contains("KM[0]") && !record.contains("KM[-0]"),
        "{record}"
    );
    assert_eq!(gtp.ok("final_score"), "B+81");
}
