//! What README.md shows that a change can make untrue is checked here: the
//! sample session (replayed with the command line the README gives) and
//! the number of gogui-regress tests it quotes.

mod common;

use std::path::Path;

use common::Gtp;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md")
}

/// The first fenced block after the line containing `marker`.
fn block_after<'a>(text: &'a str, marker: &str) -> &'a str {
    let start = text
        .find(marker)
        .unwrap_or_else(|| panic!("README has no {marker:?}"));
    let rest = &text[start..];
    let open = rest.find("\n```").expect("a fenced block") + 4;
    let body = &rest[open..];
    let body = &body[body.find('\n').expect("the fence's line") + 1..];
    &body[..body.find("```").expect("the block's end")]
}

#[test]
fn the_sample_session_is_what_hane_answers() {
    let text = readme();
    let marker = "A short session, as `";
    let line = &text[text.find(marker).expect("the session's introduction") + marker.len()..];
    let command = &line[..line.find('`').expect("the command's end")];
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    assert!(
        args.contains(&"--seed") && args.contains(&"--playouts"),
        "a session the same on every run: {command}"
    );
    let session = block_after(&text, marker);
    let mut gtp = Gtp::start_with(&args);
    let mut exchanges = 0;
    for exchange in session.split("\n\n").filter(|e| !e.trim().is_empty()) {
        let (command, expected) = exchange
            .trim_matches('\n')
            .split_once('\n')
            .unwrap_or_else(|| panic!("a command and its answer: {exchange:?}"));
        let answer = gtp.send(command);
        assert_eq!(
            answer.trim_end(),
            expected.trim_end(),
            "README's sample session, `{command}` (update README.md if the search changed)"
        );
        exchanges += 1;
    }
    assert!(exchanges >= 3, "{session}");
}

#[test]
fn the_regression_counts_are_those_of_gtp_tests() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/gtp-tests"));
    let mut files = 0;
    let mut tests = 0;
    for entry in std::fs::read_dir(dir).expect("gtp-tests") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "tst") {
            files += 1;
            let text = std::fs::read_to_string(&path).expect("a .tst file");
            // A numbered command is a test (gogui-regress's reading).
            tests += text
                .lines()
                .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
                .count();
        }
    }
    let text = readme();
    let claim = format!("The {tests} tests in {files} files");
    assert!(text.contains(&claim), "README should say {claim:?}");
    // summary.dat's header, then its row.
    let header = text.find("#Tests\tFAIL").expect("the summary.dat sample");
    let row = text[header..].lines().nth(1).expect("the summary's row");
    let columns: Vec<&str> = row.split('\t').collect();
    assert_eq!(columns[0], tests.to_string(), "#Tests in {row:?}");
    assert_eq!(columns[4], tests.to_string(), "pass in {row:?}");
}
