//! GoGui's live graphics (`--gogui-live-gfx`): while genmove thinks, hane
//! draws its search through `gogui-gfx:` blocks on stderr, read here the
//! way GoGui's LiveGfx.java reads them, and clears the drawing before the
//! move is answered; stdout carries the GTP responses and nothing else.

mod common;

use common::Gtp;
use regex::Regex;
use std::time::Duration;

/// A vertex of the 9x9 board.
const VERTEX: &str = "[A-HJ][1-9]";

/// The drawings in `stderr`, each a list of directives, as GoGui parses
/// them: a trimmed line `gogui-gfx: CMD ...` is a drawing of one
/// directive; a line `gogui-gfx:` alone opens a block of one directive a
/// line, closed by an empty line. Every other line (a log line) is not a
/// drawing. Fails on a block left open at the end.
fn drawings(stderr: &str) -> Vec<Vec<String>> {
    let mut drawings = Vec::new();
    let mut open: Option<Vec<String>> = None;
    for line in stderr.lines().map(str::trim) {
        if let Some(block) = open.as_mut() {
            if line.is_empty() {
                drawings.extend(open.take());
            } else {
                block.push(line.to_string());
            }
        } else if let Some(rest) = line.strip_prefix("gogui-gfx:") {
            match rest.trim() {
                "" => open = Some(Vec::new()),
                directive => drawings.push(vec![directive.to_string()]),
            }
        }
    }
    assert!(open.is_none(), "a block left open in {stderr}");
    drawings
}

/// Checks that `directive` is a gfx command GoGui knows with well-formed
/// arguments, and returns the points it marks or labels on the board
/// (those of a VAR are ghost stones of a variation, not returned).
fn marked_points(directive: &str) -> Vec<String> {
    let point = VERTEX;
    let grammar = [
        format!(r"^VAR(?: [bw] (?:{point}|pass))+$"),
        format!(r"^LABEL(?: {point} \S+)+$"),
        format!(r"^(?:SQUARE|MARK|CIRCLE|TRIANGLE|BLACK|WHITE)(?: {point})+$"),
        format!(r"^COLOR \S+(?: {point})+$"),
        format!(r"^INFLUENCE(?: {point} -?[01](?:\.\d+)?)+$"),
        r"^TEXT \S.*$".to_string(),
        r"^CLEAR$".to_string(),
    ];
    assert!(
        grammar
            .iter()
            .any(|rule| Regex::new(rule).expect("regex").is_match(directive)),
        "not a gfx directive GoGui reads: {directive:?}"
    );
    let words: Vec<&str> = directive.split(' ').collect();
    match words[0] {
        "LABEL" => words[1..]
            .iter()
            .step_by(2)
            .map(|w| w.to_string())
            .collect(),
        "SQUARE" | "MARK" | "CIRCLE" | "TRIANGLE" => {
            words[1..].iter().map(|w| w.to_string()).collect()
        }
        _ => Vec::new(),
    }
}

/// Plays Black's E5 and asks White's genmove of hane started with `args`
/// and the `RUST_LOG` level `log`; returns the points White could play
/// before it, the move and hane's stderr. Checks that stdout holds exactly
/// the responses, with nothing after them.
fn genmove_after_e5(args: &[&str], log: &str) -> (Vec<String>, String, String) {
    let mut gtp = Gtp::start_with_env(args, &[("RUST_LOG", log)]);
    for command in ["boardsize 9", "clear_board", "play b E5"] {
        assert_eq!(gtp.send(command), "= ");
    }
    let legal: Vec<String> = gtp
        .ok("all_legal w")
        .split(' ')
        .map(str::to_string)
        .collect();
    let response = gtp.send("genmove w");
    let mv = response
        .strip_prefix("= ")
        .unwrap_or_else(|| panic!("genmove failed: {response}"))
        .to_string();
    assert!(legal.contains(&mv), "genmove answered {mv}");
    assert_eq!(gtp.send("quit"), "= ");
    assert_eq!(gtp.stray_output(Duration::from_millis(500)), None);
    let (status, stderr) = gtp.close();
    assert!(status.success(), "{status:?}: {stderr}");
    (legal, mv, stderr)
}

#[test]
fn genmove_draws_its_search_on_legal_points_and_clears_it_at_the_end() {
    // Debug logging, so that log lines are written while the blocks are.
    let (legal, mv, stderr) = genmove_after_e5(
        &["--threads", "1", "--time", "1.2", "--gogui-live-gfx=0.1"],
        "debug",
    );
    let drawings = drawings(&stderr);
    // Every 0.1 s over 1.2 s: a loaded machine still draws a few.
    assert!(drawings.len() >= 4, "{} drawings: {stderr}", drawings.len());
    let (last, searching) = drawings.split_last().expect("drawings");
    assert_eq!(last, &["CLEAR"], "the last drawing: {stderr}");
    let square = Regex::new(&format!(r"^SQUARE {VERTEX}$")).expect("regex");
    let status = Regex::new(
        r"^TEXT best (?:[A-HJ][1-9]|pass) \d+\.\d% \(\d+ visits, \d+%\); numbered stones: its line; blue N%: win rates$",
    )
    .expect("regex");
    let rate = Regex::new(r"^\d{1,2}%$").expect("regex");
    for drawing in searching {
        for directive in drawing {
            for point in marked_points(directive) {
                assert!(legal.contains(&point), "{point} is not empty: {drawing:?}");
            }
        }
        // The candidates and the best move's variation for White, the
        // best marked, and the short status line last.
        let kinds: Vec<&str> = drawing
            .iter()
            .map(|d| d.split(' ').next().unwrap_or(""))
            .collect();
        assert_eq!(
            kinds,
            ["VAR", "COLOR", "LABEL", "SQUARE", "TEXT"],
            "{drawing:?}"
        );
        assert!(drawing[0].starts_with("VAR w "), "{drawing:?}");
        // The best line's move numbers are GoGui's own, on its ghost
        // stones; the win rates carry a percent sign, on coloured points,
        // the same points: a rate never reads as a move number.
        let labels: Vec<&str> = drawing[2].split(' ').skip(1).collect();
        let rates: Vec<&str> = labels.iter().skip(1).step_by(2).copied().collect();
        assert!(rates.iter().all(|r| rate.is_match(r)), "{drawing:?}");
        let labelled: Vec<&str> = labels.iter().step_by(2).copied().collect();
        assert_eq!(
            drawing[1],
            format!("COLOR #0064ff {}", labelled.join(" ")),
            "{drawing:?}"
        );
        assert!(square.is_match(&drawing[3]), "{drawing:?}");
        assert!(status.is_match(&drawing[4]), "{drawing:?}");
    }
    // Clearing follows the search: genmove's own log line comes before it.
    let answered = stderr
        .find(&format!("genmove white: {mv}"))
        .unwrap_or_else(|| panic!("no genmove log line: {stderr}"));
    let cleared = stderr.rfind("gogui-gfx: CLEAR").expect("CLEAR");
    assert!(answered < cleared, "{stderr}");
}

#[test]
fn without_the_option_nothing_is_drawn() {
    let (_, _, stderr) = genmove_after_e5(&["--threads", "1", "--time", "0.5"], "debug");
    assert!(stderr.contains("genmove white:"), "the log is on: {stderr}");
    assert!(!stderr.contains("gogui-gfx"), "{stderr}");
}

#[test]
fn a_drawing_interval_out_of_range_is_refused() {
    for value in ["0", "0.01", "-1", "nan", "soon", "7200"] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_hane"))
            .arg(format!("--gogui-live-gfx={value}"))
            .output()
            .expect("run hane");
        assert_eq!(output.status.code(), Some(2), "--gogui-live-gfx={value}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("0.05 to 3600"), "{value}: {stderr}");
    }
}

#[test]
fn the_drawing_interval_may_follow_after_a_space() {
    let (_, _, stderr) = genmove_after_e5(
        &["--threads", "1", "--time", "0.5", "--gogui-live-gfx", "0.1"],
        "warn",
    );
    assert!(stderr.contains("gogui-gfx:"), "{stderr}");
}
