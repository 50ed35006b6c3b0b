//! Rectangular boards through GTP, as a client sees them: `boardsize W H`
//! and KataGo's `rectangular_boardsize W H`, each side 2..25, with every
//! command working on the rectangle (columns checked against the width,
//! rows against the height) and SGF's `SZ[W:H]` written and read back.

mod common;

use common::{assert_fails_unchanged, game_in_progress, snapshot, Gtp, TempDir};

/// The columns a board of `width` shows, as showboard writes them.
fn letters(width: usize) -> Vec<char> {
    "ABCDEFGHJKLMNOPQRSTUVWXYZ".chars().take(width).collect()
}

#[test]
fn both_commands_set_a_rectangle_and_boardsize_n_stays_square() {
    let mut gtp = Gtp::start();
    assert_eq!(gtp.ok("rectangular_boardsize 7 4"), "");
    assert_eq!(gtp.ok("all_legal b").split_whitespace().count(), 28);
    assert_eq!(gtp.ok("boardsize 9 7"), "");
    assert_eq!(gtp.ok("all_legal b").split_whitespace().count(), 63);
    assert_eq!(gtp.ok("boardsize 5"), "");
    assert_eq!(gtp.ok("all_legal b").split_whitespace().count(), 25);
    assert_eq!(gtp.ok("rectangular_boardsize 25 2"), "");
    assert_eq!(gtp.ok("all_legal w").split_whitespace().count(), 50);
    assert!(gtp
        .ok("list_commands")
        .lines()
        .any(|l| l == "rectangular_boardsize"));
    assert_eq!(gtp.ok("known_command rectangular_boardsize"), "true");
}

#[test]
fn a_side_out_of_range_is_an_unacceptable_size_and_the_game_is_kept() {
    let mut gtp = game_in_progress(&["--seed", "1"]);
    for command in [
        "rectangular_boardsize 1 9",
        "rectangular_boardsize 9 1",
        "rectangular_boardsize 26 9",
        "rectangular_boardsize 9 26",
        "boardsize 9 0",
        "boardsize 30 30",
        "boardsize 9 1000000000000000000000000000000",
    ] {
        assert_fails_unchanged(&mut gtp, command, "? unacceptable size");
    }
    assert_fails_unchanged(&mut gtp, "4 boardsize 2 26", "?4 unacceptable size");
    for command in [
        "rectangular_boardsize 9 x",
        "rectangular_boardsize 9 -7",
        "boardsize 9 7 5",
    ] {
        let before = snapshot(&mut gtp);
        let response = gtp.send(command);
        assert!(
            response.starts_with("? syntax error"),
            "`{command}` answered {response}"
        );
        assert_eq!(snapshot(&mut gtp), before, "state after {command}");
    }
}

#[test]
fn showboard_draws_five_columns_and_three_rows() {
    let mut gtp = Gtp::start();
    gtp.ok("rectangular_boardsize 5 3");
    gtp.ok("play b E3");
    gtp.ok("play w A1");
    let board = gtp.ok("showboard");
    let expected = [
        "",
        "    A B C D E",
        " 3  . . . . X 3    Black (X) has captured 0 stones",
        " 2  . . . . . 2    White (O) has captured 0 stones",
        " 1 (O . . . . 1",
        "    A B C D E",
        "black to move, komi 7.5, Tromp-Taylor count W+7.5",
    ];
    assert_eq!(board.lines().collect::<Vec<_>>(), expected);
}

#[test]
fn the_corners_of_a_7x4_board_are_playable_and_points_beyond_it_are_not() {
    let mut gtp = Gtp::start();
    gtp.ok("rectangular_boardsize 7 4");
    for (color, corner) in [("b", "A1"), ("w", "G1"), ("b", "A4"), ("w", "G4")] {
        gtp.ok(&format!("play {color} {corner}"));
    }
    assert_eq!(gtp.ok("list_stones black"), "A1 A4");
    assert_eq!(gtp.ok("list_stones white"), "G1 G4");
    assert_eq!(gtp.ok("countlib G4"), "2");
    // H is the eighth column and row 5 the fifth row: both off this board.
    for vertex in ["H1", "A5", "H5", "G5", "T19"] {
        assert_fails_unchanged(
            &mut gtp,
            &format!("play b {vertex}"),
            "? invalid color or coordinate",
        );
        assert_eq!(gtp.ok(&format!("is_legal b {vertex}")), "0");
    }
    assert_eq!(gtp.ok("undo"), "");
    assert_eq!(gtp.ok("list_stones white"), "G1");
}

#[test]
fn final_score_counts_a_small_rectangle() {
    let mut gtp = Gtp::start();
    gtp.ok("rectangular_boardsize 4 3");
    gtp.ok("komi 0.5");
    // Black's B column walls off column A, White's C column column D:
    // 6 points each.
    for (black, white) in [("B1", "C1"), ("B2", "C2"), ("B3", "C3")] {
        gtp.ok(&format!("play b {black}"));
        gtp.ok(&format!("play w {white}"));
    }
    assert_eq!(gtp.ok("final_score"), "W+0.5");
    gtp.ok("komi 0");
    assert_eq!(gtp.ok("final_score"), "0");
    gtp.ok("play b D2");
    // A black stone on D2 makes D1 and D3 touch both colours: Black 7,
    // White 3.
    assert_eq!(gtp.ok("final_score"), "B+4");
    assert_eq!(gtp.ok("final_status_list dead"), "");
}

#[test]
fn genmove_plays_legal_moves_on_9x7_and_13x9() {
    for (width, height) in [(9, 7), (13, 9)] {
        let mut gtp = Gtp::start_with(&["--threads", "1", "--playouts", "150", "--seed", "3"]);
        gtp.ok(&format!("boardsize {width} {height}"));
        for turn in 0..12 {
            let color = if turn % 2 == 0 { "b" } else { "w" };
            let legal = gtp.ok(&format!("all_legal {color}"));
            let played = gtp.ok(&format!("genmove {color}"));
            assert!(
                played == "pass" || legal.split_whitespace().any(|v| v == played),
                "{width}x{height}: {played} is not among {legal}"
            );
            if played != "pass" {
                let column = played.chars().next().unwrap_or('?');
                let row: usize = played[1..].parse().unwrap_or(0);
                assert!(
                    letters(width).contains(&column),
                    "{played} beyond the width"
                );
                assert!((1..=height).contains(&row), "{played} beyond the height");
            }
        }
        let stones = gtp.ok("list_stones black").split_whitespace().count()
            + gtp.ok("list_stones white").split_whitespace().count();
        assert!(
            stones > 6,
            "{width}x{height}: only {stones} stones after 12 moves"
        );
    }
}

#[test]
fn analysis_gives_one_ownership_value_a_point_row_by_row_from_the_top() {
    // The last info line, which sums the whole search: on a loaded machine
    // the first one may come after a handful of playouts, too few for the
    // signs below.
    let mut gtp = Gtp::start_with(&["--threads", "1", "--time", "0.3", "--seed", "2"]);
    // 5 wide, 4 high: Black's wall on row 3 owns row 4, White's on row 2
    // owns row 1, and nothing is left to decide.
    gtp.ok("rectangular_boardsize 5 4");
    for col in ["A", "B", "C", "D", "E"] {
        gtp.ok(&format!("play b {col}3"));
        gtp.ok(&format!("play w {col}2"));
    }
    // An info line every 50 ms while the move is thought over, and one at
    // the end.
    let analysis = gtp.ok("kata-genmove_analyze w 5 ownership true");
    let info = analysis
        .lines()
        .rfind(|l| l.starts_with("info"))
        .expect("an info line");
    let ownership: Vec<f64> = info
        .split(" ownership ")
        .nth(1)
        .expect("ownership")
        .split_whitespace()
        .map(|x| x.parse().expect("a number"))
        .collect();
    // From White's side, row 4 first (A4 to E4), row 1 last.
    assert_eq!(ownership.len(), 20);
    // (Random playouts do not always keep Black's wall alive with White to
    // move, so only the sign of Black's rows is sure.)
    for (row, black) in ownership.chunks(5).zip([true, true, false, false]) {
        assert!(row.iter().all(|&x| (x < 0.0) == black), "{ownership:?}");
    }
    let gfx = gtp.ok("hane-ownership");
    assert!(gfx.contains(" E4 ") && gfx.contains(" A1 "), "{gfx}");
    assert!(!gfx.contains(" F") && !gfx.contains("A5"), "{gfx}");
}

#[test]
fn printsgf_writes_sz_width_colon_height_and_loadsgf_reads_it_back() {
    let mut gtp = Gtp::start();
    gtp.ok("rectangular_boardsize 9 5");
    for (color, vertex) in [("b", "A1"), ("w", "J5"), ("b", "J1"), ("w", "A5")] {
        gtp.ok(&format!("play {color} {vertex}"));
    }
    let sgf = gtp.ok("printsgf");
    assert!(sgf.contains("SZ[9:5]"), "{sgf}");
    // Column a is A, row a the top row (5): J5 is ia, J1 ie.
    assert!(sgf.contains(";B[ae];W[ia];B[ie];W[aa]"), "{sgf}");
    let before = snapshot(&mut gtp);

    let dir = TempDir::new("rectangular-sgf");
    let path = dir.file("game.sgf", sgf.as_bytes());
    let mut other = Gtp::start();
    assert_eq!(other.ok(&format!("loadsgf {}", path.display())), "black");
    assert_eq!(snapshot(&mut other), before);
    assert_eq!(other.ok(&format!("loadsgf {} 3", path.display())), "black");
    assert_eq!(other.ok("list_stones white"), "J5");

    // A square board still writes one number.
    gtp.ok("boardsize 9");
    assert!(gtp.ok("printsgf").contains("SZ[9]"));
}

#[test]
fn fixed_handicap_is_refused_on_a_rectangle_and_free_handicap_placed() {
    let mut gtp = Gtp::start();
    gtp.ok("rectangular_boardsize 13 9");
    assert_fails_unchanged(
        &mut gtp,
        "fixed_handicap 4",
        "? fixed handicap is defined only for square boards",
    );
    let stones = gtp.ok("place_free_handicap 4");
    assert_eq!(stones.split_whitespace().count(), 4);
    for vertex in stones.split_whitespace() {
        let row: usize = vertex[1..].parse().unwrap_or(0);
        assert!((1..=9).contains(&row), "{vertex} beyond the height");
    }
    assert_eq!(gtp.ok("list_stones black").split_whitespace().count(), 4);

    let mut gtp = Gtp::start();
    gtp.ok("boardsize 9 7");
    assert_eq!(gtp.send("set_free_handicap A1 A8"), "? bad vertex list");
    assert_eq!(gtp.ok("set_free_handicap A1 J7"), "");
}

#[test]
fn hane_analyze_reviews_a_rectangular_game_and_keeps_its_size() {
    let dir = TempDir::new("rectangular-analyze");
    let game = dir.file(
        "game.sgf",
        b"(;FF[4]GM[1]SZ[9:5]KM[0.5];B[ec];W[dc];B[db];W[cb];B[dd];W[ie])",
    );
    let out = dir.path().join("reviewed.sgf");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_hane"))
        .args([
            "analyze",
            "--playouts",
            "200",
            "--threads",
            "1",
            "--seed",
            "1",
        ])
        .arg("-o")
        .arg(&out)
        .arg(&game)
        .output()
        .expect("hane runs");
    assert!(status.status.success(), "{status:?}");
    let reviewed = std::fs::read_to_string(&out).expect("the review");
    assert!(reviewed.contains("SZ[9:5]"), "{reviewed}");
    for mv in ["B[ec]", "W[dc]", "B[db]", "W[cb]", "B[dd]", "W[ie]"] {
        assert!(reviewed.contains(mv), "{mv} missing: {reviewed}");
    }
    // Every vertex the comments name lies on the 9x5 board: rows 1 to 5.
    let vertex = regex::Regex::new(r"\b([A-Z])(\d+) (?:for |\()").expect("a regex");
    let mut named = 0;
    for found in vertex.captures_iter(&reviewed) {
        let row: usize = found[2].parse().expect("a row");
        assert!((1..=5).contains(&row), "{} in {reviewed}", &found[0]);
        named += 1;
    }
    // Each of the six moves is named (and hane's choice where it differs).
    assert!(named >= 6, "{named} vertices named in {reviewed}");
}
