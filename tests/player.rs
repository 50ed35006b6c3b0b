//! The player seen through GTP: deterministic when seeded with a fixed
//! playout count, legal moves only and each one played, and the pass rule
//! (pass once the board is scored out, never while the count loses).

mod common;

use common::Gtp;

fn moves_of_a_seeded_game(seed: &str) -> Vec<String> {
    let mut gtp = Gtp::start_with(&["--threads", "1", "--playouts", "300", "--seed", seed]);
    gtp.ok("boardsize 9");
    gtp.ok("clear_board");
    (0..12)
        .map(|i| gtp.ok(if i % 2 == 0 { "genmove b" } else { "genmove w" }))
        .collect()
}

#[test]
fn fixed_playouts_and_a_seed_repeat_the_same_game() {
    let first = moves_of_a_seeded_game("11");
    assert_eq!(first, moves_of_a_seeded_game("11"));
    assert!(
        first.iter().all(|m| m != "pass" && m != "resign"),
        "{first:?}"
    );
}

/// The last move of the record printsgf writes, as `B[cd]` (`B[]` a pass).
fn last_recorded_move(gtp: &mut Gtp) -> String {
    let sgf = gtp.ok("printsgf");
    let at = sgf
        .rfind(";B[")
        .max(sgf.rfind(";W["))
        .expect("a move in the record");
    let end = sgf[at..].find(']').expect("closed") + at;
    sgf[at + 1..=end].to_string()
}

/// A GTP vertex (`C4`) as SGF writes it on a board of `size` (`cd`).
fn sgf_point(vertex: &str, size: usize) -> String {
    let letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let upper = vertex.to_ascii_uppercase();
    let col = letters.find(&upper[..1]).expect("column");
    let row: usize = upper[1..].parse().expect("row");
    let sgf = |n: usize| (b'a' + n as u8) as char;
    format!("{}{}", sgf(col), sgf(size - row))
}

#[test]
fn generated_moves_are_legal_and_played() {
    let mut gtp = Gtp::start_with(&["--threads", "2", "--playouts", "200", "--seed", "5"]);
    gtp.ok("boardsize 7");
    gtp.ok("clear_board");
    let mut passes = 0;
    let mut moves = 0;
    let mut ended = "200 moves";
    for turn in 0..200 {
        let color = if turn % 2 == 0 { "b" } else { "w" };
        let letter = color.to_ascii_uppercase();
        let legal = gtp.ok(&format!("all_legal {color}"));
        let legal: Vec<&str> = legal.split_whitespace().collect();
        let played = gtp.ok(&format!("genmove {color}"));
        let recorded = match played.as_str() {
            "resign" => {
                ended = "a resignation";
                break;
            }
            "pass" => {
                passes += 1;
                format!("{letter}[]")
            }
            // A multi-stone suicide is legal and leaves the point empty,
            // so legality is checked against the list from before the move.
            mv => {
                passes = 0;
                assert!(legal.contains(&mv), "turn {turn}: {mv} not in {legal:?}");
                format!("{letter}[{}]", sgf_point(mv, 7))
            }
        };
        moves += 1;
        // genmove plays its move: it is the record's last.
        assert_eq!(last_recorded_move(&mut gtp), recorded, "turn {turn}");
        if passes == 2 {
            ended = "two passes";
            break;
        }
    }
    // A game, not passes from the start; with two threads the search is
    // not repeatable, and one game in fifty (under load) was lost on the
    // board and resigned at move 19.
    let resigned = ended == "a resignation";
    assert!(
        moves >= 20 || (resigned && moves >= 10),
        "the game lasted {moves} moves, to {ended}"
    );
    // The score is the board's Tromp-Taylor count, counted here apart from
    // hane, less the komi; a game the two passes ended is scored in the
    // record as final_score counts it.
    let black = gtp.ok("list_stones black");
    let white = gtp.ok("list_stones white");
    let margin = area_count(&black, &white, 7) - 7.5;
    let score = gtp.ok("final_score");
    assert_eq!(score, result_text(margin), "black {black}, white {white}");
    if passes == 2 {
        let sgf = gtp.ok("printsgf");
        assert!(sgf.contains(&format!("RE[{score}]")), "{score} {sgf}");
    }
}

/// Black's area less White's on a `size` x `size` board by Tromp-Taylor's
/// rule 8: a point counts for a colour when it holds that colour's stone or
/// when the empty points connected to it reach that colour's stones and no
/// other's. `black` and `white` are list_stones answers.
fn area_count(black: &str, white: &str, size: usize) -> f64 {
    let letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let index = |vertex: &str| {
        let col = letters.find(&vertex[..1]).expect("column");
        let row: usize = vertex[1..].parse().expect("row");
        (row - 1) * size + col
    };
    // 1 Black, 2 White, 0 empty.
    let mut board = vec![0u8; size * size];
    for (stones, colour) in [(black, 1), (white, 2)] {
        stones
            .split_whitespace()
            .for_each(|v| board[index(v)] = colour);
    }
    let neighbours = |p: usize| {
        let (row, col) = (p / size, p % size);
        let mut out = Vec::new();
        if row > 0 {
            out.push(p - size);
        }
        if row + 1 < size {
            out.push(p + size);
        }
        if col > 0 {
            out.push(p - 1);
        }
        if col + 1 < size {
            out.push(p + 1);
        }
        out
    };
    let mut count = 0.0;
    let mut seen = vec![false; size * size];
    for start in 0..size * size {
        match board[start] {
            1 => count += 1.0,
            2 => count -= 1.0,
            _ if seen[start] => {}
            _ => {
                // The empty region of `start`, and the colours it reaches.
                let (mut region, mut reaches, mut stack) = (0.0, 0u8, vec![start]);
                seen[start] = true;
                while let Some(p) = stack.pop() {
                    region += 1.0;
                    for n in neighbours(p) {
                        match board[n] {
                            0 if !seen[n] => {
                                seen[n] = true;
                                stack.push(n);
                            }
                            0 => {}
                            colour => reaches |= colour,
                        }
                    }
                }
                match reaches {
                    1 => count += region,
                    2 => count -= region,
                    _ => {}
                }
            }
        }
    }
    count
}

/// A margin for Black as GTP's final_score writes it.
fn result_text(margin: f64) -> String {
    match margin {
        m if m > 0.0 => format!("B+{m}"),
        m if m < 0.0 => format!("W+{}", -m),
        _ => "0".to_string(),
    }
}

/// A set-up position whose count is known by hand, and the test's own
/// count agreeing with it: 7x7, a Black wall on column B, a White wall on
/// column E, and columns C and D empty between them, reaching both, so
/// no one's. Black 14 points, White 21, komi 7.5: W+14.5.
#[test]
fn the_score_is_the_tromp_taylor_count_less_the_komi() {
    let mut gtp = Gtp::start_with(&["--threads", "1"]);
    gtp.ok("boardsize 7");
    gtp.ok("komi 7.5");
    for row in 1..=7 {
        gtp.ok(&format!("play b B{row}"));
        gtp.ok(&format!("play w E{row}"));
    }
    assert_eq!(gtp.ok("final_score"), "W+14.5");
    let black = gtp.ok("list_stones black");
    let white = gtp.ok("list_stones white");
    assert_eq!(result_text(area_count(&black, &white, 7) - 7.5), "W+14.5");
}

/// 5x5, komi 0.5: a Black wall across the middle row, nothing of White's.
/// Black owns the whole board as it stands.
fn black_owns_the_board(args: &[&str]) -> Gtp {
    let mut gtp = Gtp::start_with(args);
    gtp.ok("boardsize 5");
    gtp.ok("komi 0.5");
    for v in ["A3", "B3", "C3", "D3", "E3"] {
        gtp.ok(&format!("play b {v}"));
        gtp.ok("play w pass");
    }
    gtp
}

#[test]
fn the_pass_rule_passes_once_the_opponent_passed_and_the_count_wins() {
    let mut gtp = black_owns_the_board(&["--threads", "1", "--playouts", "300", "--seed", "2"]);
    // White has just passed; the board counts B+24.5, and it is scored
    // out: Black passes, ending the game.
    assert_eq!(gtp.ok("final_score"), "B+24.5");
    assert_eq!(gtp.ok("genmove b"), "pass");
    assert!(gtp.ok("printsgf").contains("RE[B+24.5]"));
}

#[test]
fn the_pass_rule_never_passes_an_open_board_whose_count_loses() {
    // 9x9: Black has one stone and has just passed. As it stands the
    // board is all Black's (B+73.5): a pass by White would end the game
    // lost, where any move of White's wins it back. The board is open
    // (empty points with no stone near), so it is not scored out.
    let mut gtp = Gtp::start_with(&["--threads", "1", "--playouts", "300", "--seed", "3"]);
    gtp.ok("boardsize 9");
    gtp.ok("play b E5");
    gtp.ok("play b pass");
    assert_eq!(gtp.ok("final_score"), "B+73.5");
    let reply = gtp.ok("genmove w");
    assert!(
        reply != "pass" && reply != "resign",
        "White answered {reply}"
    );
}

fn hane(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_hane"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("hane runs")
}

#[test]
fn the_parameter_table_drives_the_listing_the_errors_and_the_log() {
    // `hane params` lists every parameter of the table, with its default.
    let listing = hane(&["params"]);
    assert!(listing.status.success());
    let listing = String::from_utf8_lossy(&listing.stdout).into_owned();
    for param in hane::PARAMS {
        let line = listing
            .lines()
            .find(|l| l.split_whitespace().next() == Some(param.name))
            .unwrap_or_else(|| panic!("{} not listed:\n{listing}", param.name));
        assert!(line.contains(&param.default_value().to_string()), "{line}");
    }
    // An unknown name stops hane and names every valid one.
    let unknown = hane(&["--param", "prior_evn=3"]);
    assert_eq!(unknown.status.code(), Some(2));
    let message = String::from_utf8_lossy(&unknown.stderr).into_owned();
    assert!(
        message.contains("unknown parameter 'prior_evn'"),
        "{message}"
    );
    for param in hane::PARAMS {
        assert!(message.contains(param.name), "{message}");
    }
    // A value out of range says what is accepted.
    let bad = hane(&["--param", "policy_capture=2"]);
    assert_eq!(bad.status.code(), Some(2));
    let message = String::from_utf8_lossy(&bad.stderr).into_owned();
    assert!(
        message
            .contains("bad value '2' for parameter policy_capture: expected a number from 0 to 1"),
        "{message}"
    );
    // The effective values are logged at start-up.
    let gtp = Gtp::start_with_env(
        &["--param", "prior_suicide=7", "--threads", "1"],
        &[("RUST_LOG", "info")],
    );
    let (_, stderr) = gtp.close();
    let line = stderr
        .lines()
        .find(|l| l.contains("search parameters:"))
        .unwrap_or_else(|| panic!("no parameters in the log: {stderr}"));
    assert!(line.contains("prior_suicide=7"), "{line}");
    assert!(line.contains("rave_equiv=3500"), "{line}");
}

/// The tree nodes of each search line of `hane bench` on 9x9.
fn bench_nodes(params: &[&str]) -> Vec<u64> {
    let mut args = params.to_vec();
    args.extend(["bench", "--sizes", "9", "--playouts", "100"]);
    args.extend(["--search-playouts", "400"]);
    let output = hane(&args);
    assert!(output.status.success(), "{output:?}");
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    let nodes: Vec<u64> = report
        .lines()
        .filter(|l| l.starts_with("tree search"))
        .filter_map(|l| l.split(", ").last()?.strip_suffix(" nodes)")?.parse().ok())
        .collect();
    assert_eq!(nodes.len(), 3, "{report}");
    nodes
}

#[test]
fn the_bench_searches_with_the_parameters_given() {
    // A leaf expanded only at its 10,000th visit: 400 playouts grow the
    // root's children and no further, on every line of the bench.
    let unexpanded = bench_nodes(&["--param", "expand_visits=10000"]);
    let default = bench_nodes(&[]);
    for (few, many) in unexpanded.iter().zip(&default) {
        assert!(few * 4 < *many, "{unexpanded:?} against {default:?}");
    }
}
