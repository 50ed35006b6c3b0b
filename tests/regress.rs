//! Runs every `gtp-tests/*.tst` file against the built `hane` binary with the
//! semantics of GoGui's gogui-regress (src/net/sf/gogui/tools/regress/Regress.java),
//! so that `cargo test` catches what `gogui-regress` would, without Java.
//!
//! What is copied from gogui-regress:
//! - the engine starts with the .tst file's folder as working directory;
//! - `name`, `version`, `cputime` are sent first and `cputime`, `quit` last
//!   (errors on them are ignored);
//! - lines are trimmed; empty lines and `#` comments are never sent; tabs
//!   become spaces; a command whose first word is a number is a test and is
//!   sent as it stands, so the number is its GTP id;
//! - `#? [pattern]` must come right after the command it checks; the pattern
//!   must match the whole trimmed text after the first space of the response
//!   (Java `matches()`, MULTILINE | DOTALL, case-sensitive); the outer
//!   brackets are delimiters, `[!p]` negates, `]*` marks a known failure (a
//!   known failure that passes is an unexpected pass, not a harness failure);
//! - an error response (`?`) fails a test whatever the pattern.
//!
//! What is stricter than gogui-regress, because hane promises it (the GTP
//! notes of the development setup, `../shared/GTP.md`, not in this
//! repository):
//! - every response echoes the id, starts `=id ` / `?id ` (with the space)
//!   and ends with exactly one empty line; any other line on stdout (also an
//!   extra empty line, or output after `quit`) is a protocol failure;
//! - a command without a number that gets an error is a failure too (a setup
//!   step of the file went wrong, so the tests after it prove nothing);
//! - every response must arrive within `RESPONSE_TIMEOUT`, and `quit` must
//!   end the engine with exit status 0.
//!
//! Patterns are compiled with the `regex` crate, whose syntax covers what
//! .tst files use (classes, alternation, repetition, anchors); it has no
//! look-around or back-references, and a pattern it rejects is a bad file.

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use regex::Regex;

/// How long one response may take. Generous: genmove in a debug build.
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(60);
/// How long the engine may take to exit after answering `quit`.
const EXIT_TIMEOUT: Duration = Duration::from_secs(10);
/// How many stderr lines of the engine to show with a file's failures.
const STDERR_TAIL: usize = 20;

/// A test pattern as written after `#?`, already split into its parts.
#[derive(Debug, Clone, PartialEq)]
struct Pattern {
    /// The text inside the brackets (after `!`), a Java-style regex.
    regex: String,
    /// `[!p]`: the test passes when `p` does NOT match.
    negated: bool,
    /// `[p]*`: a known failure.
    expected_fail: bool,
    /// What gogui-regress shows as "Correct": inside the brackets, with `!`.
    shown: String,
}

/// Parses the text after `#?` the way Regress.handleTest does.
/// `Ok(None)`: an empty pattern (the test only checks for an error).
fn parse_pattern(text: &str) -> Result<Option<Pattern>, String> {
    let mut text = java_trim(text);
    if text.is_empty() {
        return Ok(None);
    }
    let mut expected_fail = false;
    if let Some(rest) = text.strip_suffix('*') {
        expected_fail = true;
        text = rest;
    }
    let inner = text
        .strip_prefix('[')
        .ok_or_else(|| format!("pattern has no opening bracket: {text}"))?
        .strip_suffix(']')
        .ok_or_else(|| format!("pattern has no closing bracket: {text}"))?;
    let inner = java_trim(inner);
    let (negated, regex) = match inner.strip_prefix('!') {
        Some(rest) => (true, rest),
        None => (false, inner),
    };
    Ok(Some(Pattern {
        regex: regex.to_string(),
        negated,
        expected_fail,
        shown: inner.to_string(),
    }))
}

/// Java's `String.trim`: strips every character up to U+0020 at both ends.
fn java_trim(text: &str) -> &str {
    text.trim_matches(|c: char| c <= ' ')
}

/// Compiles a pattern like `Pattern.compile(p, MULTILINE | DOTALL)` used with
/// `matches()`: the whole text must match.
fn compile_full_match(regex: &str) -> Result<Regex, String> {
    Regex::new(&format!(r"(?ms)\A(?:{regex})\z"))
        .map_err(|error| format!("pattern [{regex}] is not a valid regex: {error}"))
}

/// Whether a successful response's text passes the pattern.
fn pattern_passes(pattern: &Pattern, text: &str) -> Result<bool, String> {
    let matches = compile_full_match(&pattern.regex)?.is_match(text);
    Ok(matches != pattern.negated)
}

/// The number that makes a command line a test, as Regress.getId reads it:
/// the first word, when it is a number.
fn test_id(line: &str) -> Option<u32> {
    let (first, _) = line.split_once(' ')?;
    if first.is_empty() || !first.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    first.parse().ok()
}

/// One response as read from the engine.
#[derive(Debug, Clone)]
struct Response {
    error: bool,
    /// What gogui-regress matches: the text after the first space of the
    /// whole response, trimmed.
    text: String,
}

/// Why a file could not run to its end, or broke the protocol.
#[derive(Debug)]
enum Broken {
    /// The .tst file itself is malformed (gogui-regress exits with 2).
    BadFile(String),
    /// The engine broke GTP framing, hung or died.
    Engine(String),
}

/// Lines of the engine's stdout as they arrive; `None` at end of file.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Option<String>>,
    timeout: Duration,
    stderr: Arc<Mutex<Vec<String>>>,
}

impl Engine {
    /// Starts `program` with `args` (hane itself, or a fake engine in the
    /// harness's own tests) in `folder`.
    fn start(
        program: &str,
        args: &[&str],
        folder: &Path,
        timeout: Duration,
    ) -> Result<Engine, String> {
        let mut child = Process::new(program)
            .args(args)
            .current_dir(folder)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| format!("cannot start {program}: {error}"))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let stderr_pipe = child.stderr.take().ok_or("no stderr pipe")?;
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || read_lines(stdout, sender));
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let stderr_sink = Arc::clone(&stderr);
        thread::spawn(move || collect_stderr(stderr_pipe, stderr_sink));
        Ok(Engine {
            child,
            stdin,
            lines,
            timeout,
            stderr,
        })
    }

    fn next_line(&self, command: &str) -> Result<Option<String>, String> {
        match self.lines.recv_timeout(self.timeout) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "no complete response to `{command}` within {:.1} s",
                self.timeout.as_secs_f64()
            )),
            Err(RecvTimeoutError::Disconnected) => Ok(None),
        }
    }

    /// Sends one command line and reads its response, checking the framing:
    /// `=id text` or `?id text`, more lines, then one empty line.
    fn send(&mut self, line: &str) -> Result<Response, Broken> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Broken::Engine("stdin already closed".to_string()))?;
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|error| Broken::Engine(format!("cannot send `{line}`: {error}")))?;
        let id = test_id(line).map(|id| id.to_string()).unwrap_or_default();
        let died = || Broken::Engine(format!("engine died before answering `{line}`"));
        let first = self
            .next_line(line)
            .map_err(Broken::Engine)?
            .ok_or_else(died)?;
        let error = first.starts_with('?');
        let header_ok =
            (first.starts_with('=') || error) && first[1..].starts_with(&format!("{id} "));
        if !header_ok {
            return Err(Broken::Engine(format!(
                "response to `{line}` does not start with `={id} ` or `?{id} `: stray line {first:?}"
            )));
        }
        // Regress matches against GtpClient's full response: every line
        // followed by '\n', the final empty line included.
        let mut full = format!("{first}\n");
        loop {
            let next = self
                .next_line(line)
                .map_err(Broken::Engine)?
                .ok_or_else(died)?;
            full.push_str(&next);
            full.push('\n');
            if next.is_empty() {
                break;
            }
        }
        let text = match full.find(' ') {
            Some(index) => java_trim(&full[index..]).to_string(),
            None => String::new(),
        };
        Ok(Response { error, text })
    }

    /// Ends the session as Regress does (`cputime`, `quit`), then checks that
    /// nothing more comes on stdout and that the engine exits with status 0.
    fn finish(mut self) -> Result<(), Broken> {
        // hane need not know cputime; gogui-regress ignores its error too.
        self.send("cputime")?;
        self.send("quit")?;
        self.stdin = None;
        match self.next_line("quit") {
            Ok(None) => {}
            Ok(Some(line)) => {
                return Err(Broken::Engine(format!(
                    "stray line on stdout after quit: {line:?}"
                )))
            }
            Err(message) => return Err(Broken::Engine(message)),
        }
        let deadline = Instant::now() + EXIT_TIMEOUT;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) if status.success() => return Ok(()),
                Ok(Some(status)) => {
                    return Err(Broken::Engine(format!("engine exited with {status}")))
                }
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(20)),
                Ok(None) => return Err(Broken::Engine("engine did not exit after quit".into())),
                Err(error) => return Err(Broken::Engine(format!("cannot wait: {error}"))),
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // A hung or misbehaving engine must not outlive its file.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Reader thread: stdout split on LF (a CR before it is kept, so that it
/// shows up as a framing error), lossily decoded.
fn read_lines(stdout: impl Read, sender: mpsc::Sender<Option<String>>) {
    let mut reader = BufReader::new(stdout);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match reader.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                if buffer.last() == Some(&b'\n') {
                    buffer.pop();
                }
                let line = String::from_utf8_lossy(&buffer).into_owned();
                if sender.send(Some(line)).is_err() {
                    return;
                }
            }
        }
    }
    let _ = sender.send(None);
}

fn collect_stderr(stderr: impl Read, sink: Arc<Mutex<Vec<String>>>) {
    for line in BufReader::new(stderr).lines() {
        let Ok(line) = line else { break };
        if let Ok(mut lines) = sink.lock() {
            lines.push(line);
        }
    }
}

/// How one test ended, in gogui-regress's four classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Pass,
    UnexpectedFail,
    ExpectedFail,
    UnexpectedPass,
}

#[derive(Debug)]
struct TestResult {
    line_number: usize,
    id: Option<u32>,
    command: String,
    expected: String,
    got: String,
    outcome: Outcome,
}

#[derive(Debug, Default)]
struct FileReport {
    results: Vec<TestResult>,
    /// Bad file, framing errors, hangs, crashes.
    broken: Option<String>,
    stderr_tail: Vec<String>,
}

impl FileReport {
    fn count(&self, outcome: Outcome) -> usize {
        self.results.iter().filter(|r| r.outcome == outcome).count()
    }

    fn has_failures(&self) -> bool {
        self.broken.is_some() || self.count(Outcome::UnexpectedFail) > 0
    }
}

/// A command sent, waiting for a possible `#?` on the next line.
struct Pending {
    line_number: usize,
    id: Option<u32>,
    command: String,
    response: Response,
}

/// Judges a command that no `#?` line follows: a numbered one is a test that
/// only fails on an error; an unnumbered one that fails is a setup failure.
fn judge_without_pattern(pending: Pending) -> Option<TestResult> {
    if pending.id.is_none() && !pending.response.error {
        return None;
    }
    let outcome = if pending.response.error {
        Outcome::UnexpectedFail
    } else {
        Outcome::Pass
    };
    Some(TestResult {
        line_number: pending.line_number,
        id: pending.id,
        command: pending.command,
        expected: "(no error)".to_string(),
        got: format!("? {}", pending.response.text),
        outcome,
    })
}

fn judge_with_pattern(pending: Pending, pattern: &Pattern) -> Result<TestResult, String> {
    let fail = pending.response.error || !pattern_passes(pattern, &pending.response.text)?;
    let outcome = match (fail, pattern.expected_fail) {
        (false, false) => Outcome::Pass,
        (true, false) => Outcome::UnexpectedFail,
        (true, true) => Outcome::ExpectedFail,
        (false, true) => Outcome::UnexpectedPass,
    };
    let marker = if pending.response.error { "? " } else { "" };
    Ok(TestResult {
        line_number: pending.line_number,
        id: pending.id,
        command: pending.command,
        expected: format!("[{}]", pattern.shown),
        got: format!("{marker}{}", pending.response.text),
        outcome,
    })
}

/// Runs one .tst file from start to end (or to the first broken point).
fn run_file(path: &Path) -> FileReport {
    let mut report = FileReport::default();
    let folder = path.parent().unwrap_or(Path::new("."));
    let script = match fs::read_to_string(path) {
        Ok(script) => script,
        Err(error) => {
            report.broken = Some(format!("cannot read: {error}"));
            return report;
        }
    };
    let hane = env!("CARGO_BIN_EXE_hane");
    let mut engine = match Engine::start(hane, &[], folder, RESPONSE_TIMEOUT) {
        Ok(engine) => engine,
        Err(error) => {
            report.broken = Some(error);
            return report;
        }
    };
    let stderr = Arc::clone(&engine.stderr);
    let outcome = run_script(&mut engine, &script, &mut report.results);
    let outcome = outcome.and_then(|()| engine.finish());
    // The engine is gone (finished or dropped), so its stderr is complete
    // once the collecting thread has read the last bytes.
    thread::sleep(Duration::from_millis(20));
    let lines = stderr.lock().map(|l| l.clone()).unwrap_or_default();
    report.stderr_tail = lines[lines.len().saturating_sub(STDERR_TAIL)..].to_vec();
    if let Err(broken) = outcome {
        report.broken = Some(match broken {
            Broken::BadFile(message) => format!("bad test file: {message}"),
            Broken::Engine(message) => format!("engine: {message}"),
        });
    }
    report
}

fn run_script(
    engine: &mut Engine,
    script: &str,
    results: &mut Vec<TestResult>,
) -> Result<(), Broken> {
    for startup in ["name", "version", "cputime"] {
        engine.send(startup)?;
    }
    let mut pending: Option<Pending> = None;
    for (index, raw) in script.lines().enumerate() {
        let line_number = index + 1;
        let line = java_trim(raw);
        if let Some(pattern_text) = line.strip_prefix("#?") {
            let Some(last) = pending.take() else {
                return Err(Broken::BadFile(format!(
                    "line {line_number}: `#?` not directly after a command: {line}"
                )));
            };
            let pattern = parse_pattern(pattern_text)
                .map_err(|e| Broken::BadFile(format!("line {line_number}: {e}")))?;
            let result = match pattern {
                Some(pattern) => judge_with_pattern(last, &pattern)
                    .map_err(|e| Broken::BadFile(format!("line {line_number}: {e}")))?,
                None => match judge_without_pattern(last) {
                    Some(result) => result,
                    None => continue,
                },
            };
            results.push(result);
            continue;
        }
        if let Some(last) = pending.take() {
            results.extend(judge_without_pattern(last));
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line.replace('\t', " ");
        let id = test_id(&line);
        let command = match id {
            Some(_) => line.split_once(' ').map_or("", |(_, c)| c).to_string(),
            None => line.clone(),
        };
        let response = engine.send(&line)?;
        pending = Some(Pending {
            line_number,
            id,
            command,
            response,
        });
    }
    if let Some(last) = pending.take() {
        results.extend(judge_without_pattern(last));
    }
    Ok(())
}

fn tst_files() -> Vec<PathBuf> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests");
    let mut files: Vec<PathBuf> = fs::read_dir(&folder)
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|path| path.extension().is_some_and(|ext| ext == "tst"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn describe(result: &TestResult) -> String {
    let id = result.id.map_or("-".to_string(), |id| id.to_string());
    format!(
        "  line {} id {id}: `{}`\n      expected: {}\n      got:      '{}'",
        result.line_number, result.command, result.expected, result.got
    )
}

fn print_report(name: &str, report: &FileReport) {
    println!(
        "{name}: {} tests, {} passed, {} unexpected failures, {} expected failures, {} unexpected passes",
        report.results.len(),
        report.count(Outcome::Pass),
        report.count(Outcome::UnexpectedFail),
        report.count(Outcome::ExpectedFail),
        report.count(Outcome::UnexpectedPass),
    );
    for result in &report.results {
        match result.outcome {
            Outcome::UnexpectedFail => println!("  FAIL{}", describe(result)),
            Outcome::UnexpectedPass => println!("  unexpected PASS{}", describe(result)),
            Outcome::ExpectedFail => println!("  (known failure){}", describe(result)),
            Outcome::Pass => {}
        }
    }
    if let Some(broken) = &report.broken {
        println!("  BROKEN: {broken}");
    }
    if report.has_failures() && !report.stderr_tail.is_empty() {
        println!("  last stderr lines of the engine:");
        for line in &report.stderr_tail {
            println!("    {line}");
        }
    }
}

#[test]
fn gtp_regression_files() {
    let files = tst_files();
    assert!(!files.is_empty(), "no gtp-tests/*.tst files found");
    let mut failures = Vec::new();
    for path in &files {
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let report = run_file(path);
        print_report(&name, &report);
        for result in &report.results {
            if result.outcome == Outcome::UnexpectedFail {
                failures.push(format!("{name}{}", describe(result)));
            }
        }
        if let Some(broken) = report.broken {
            failures.push(format!("{name}: {broken}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} unexpected failure(s) in gtp-tests:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// The harness's own semantics, checked without an engine.

#[test]
fn pattern_is_a_full_match() {
    let pattern = parse_pattern(" [D4] ").unwrap().unwrap();
    assert!(pattern_passes(&pattern, "D4").unwrap());
    assert!(!pattern_passes(&pattern, "D45").unwrap());
    assert!(!pattern_passes(&pattern, "AD4").unwrap());
    assert!(!pattern_passes(&pattern, "d4").unwrap(), "case-sensitive");
}

#[test]
fn alternation_negation_and_known_failures() {
    let either = parse_pattern("[pass|resign]").unwrap().unwrap();
    assert!(pattern_passes(&either, "pass").unwrap());
    assert!(pattern_passes(&either, "resign").unwrap());
    assert!(!pattern_passes(&either, "passresign").unwrap());
    let not = parse_pattern("[!pass]").unwrap().unwrap();
    assert!(not.negated);
    assert!(!pattern_passes(&not, "pass").unwrap());
    assert!(pattern_passes(&not, "D4").unwrap());
    let known = parse_pattern("[B+3.5]*").unwrap().unwrap();
    assert!(known.expected_fail);
    assert_eq!(known.regex, "B+3.5");
    assert_eq!(parse_pattern("").unwrap(), None);
    assert!(parse_pattern("D4]").is_err());
    assert!(parse_pattern("[D4").is_err());
}

#[test]
fn multiline_and_dotall() {
    let pattern = parse_pattern("[.*AB\\[dd\\].*]").unwrap().unwrap();
    assert!(pattern_passes(&pattern, "(;FF[4]\nAB[dd]\n)").unwrap());
    let lines = parse_pattern("[^a$.^b$]").unwrap().unwrap();
    assert!(pattern_passes(&lines, "a\nb").unwrap());
}

#[test]
fn numbered_commands_are_tests() {
    assert_eq!(test_id("10 play b D4"), Some(10));
    assert_eq!(test_id("play b D4"), None);
    assert_eq!(test_id("10"), None);
    assert_eq!(test_id("1a play"), None);
}

#[test]
fn an_error_fails_even_a_matching_pattern() {
    let pending = Pending {
        line_number: 1,
        id: Some(1),
        command: "play b A1".to_string(),
        response: Response {
            error: true,
            text: "illegal move".to_string(),
        },
    };
    let pattern = parse_pattern("[.*]").unwrap().unwrap();
    let result = judge_with_pattern(pending, &pattern).unwrap();
    assert_eq!(result.outcome, Outcome::UnexpectedFail);
}

// The harness against fake engines (POSIX sh scripts): it must catch what
// gogui-regress would, and the framing faults and hangs it promises to.

/// A well-behaved fake engine: answers every command with an empty success,
/// echoing the id; `quit` ends it.
const ECHO_ENGINE: &str = r#"
while IFS= read -r line; do
  set -- $line
  case "$1" in
    [0-9]*) id=$1; shift ;;
    *) id= ;;
  esac
  case "$1" in
    color) printf '=%s black\n\n' "$id" ;;
    fail) printf '?%s no\n\n' "$id" ;;
    *) printf '=%s \n\n' "$id" ;;
  esac
  [ "$1" = quit ] && exit 0
done
"#;

fn run_fake(
    engine_script: &str,
    tst: &str,
    timeout: Duration,
) -> (Vec<TestResult>, Result<(), Broken>) {
    let mut engine = Engine::start("sh", &["-c", engine_script], Path::new("."), timeout)
        .expect("sh is available");
    let mut results = Vec::new();
    let outcome = run_script(&mut engine, tst, &mut results).and_then(|()| engine.finish());
    (results, outcome)
}

fn outcomes(results: &[TestResult]) -> Vec<Outcome> {
    results.iter().map(|r| r.outcome).collect()
}

#[test]
fn fake_engine_outcomes_follow_gogui_regress() {
    let tst = "# a comment\n\
               1 color A1\n#? [black]\n\
               2 color A1\n#? [white]\n\
               3 color A1\n#? [white]*\n\
               4 color A1\n#? [black]*\n\
               5 fail\n#? [.*]\n\
               6 play b A1\n\
               7 fail\n\
               8 color A1\n#? [!white]\n";
    let (results, outcome) = run_fake(ECHO_ENGINE, tst, Duration::from_secs(10));
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(
        outcomes(&results),
        vec![
            Outcome::Pass,
            Outcome::UnexpectedFail,
            Outcome::ExpectedFail,
            Outcome::UnexpectedPass,
            Outcome::UnexpectedFail,
            Outcome::Pass,
            Outcome::UnexpectedFail,
            Outcome::Pass,
        ]
    );
    assert_eq!(results[1].got, "black");
    assert_eq!(results[1].expected, "[white]");
}

#[test]
fn an_unnumbered_command_that_fails_is_reported() {
    let (results, outcome) = run_fake(
        ECHO_ENGINE,
        "fail\n1 color A1\n#? [black]\n",
        Duration::from_secs(10),
    );
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(
        outcomes(&results),
        vec![Outcome::UnexpectedFail, Outcome::Pass]
    );
}

#[test]
fn a_pattern_not_right_after_its_command_is_a_bad_file() {
    let (_, outcome) = run_fake(
        ECHO_ENGINE,
        "1 color A1\n\n#? [black]\n",
        Duration::from_secs(10),
    );
    assert!(matches!(outcome, Err(Broken::BadFile(_))), "{outcome:?}");
    let (_, outcome) = run_fake(
        ECHO_ENGINE,
        "1 color A1\n#? black\n",
        Duration::from_secs(10),
    );
    assert!(matches!(outcome, Err(Broken::BadFile(_))), "{outcome:?}");
}

#[test]
fn a_stray_line_on_stdout_is_caught() {
    let chatty = ECHO_ENGINE.replace("color) printf", "color) echo thinking; printf");
    let (_, outcome) = run_fake(&chatty, "1 color A1\n#? [black]\n", Duration::from_secs(10));
    match outcome {
        Err(Broken::Engine(message)) => assert!(message.contains("thinking"), "{message}"),
        other => panic!("stray line not caught: {other:?}"),
    }
    // An extra empty line after a response is stray output too.
    let blank = ECHO_ENGINE.replace(
        "color) printf '=%s black\\n\\n'",
        "color) printf '=%s black\\n\\n\\n'",
    );
    assert_ne!(blank, ECHO_ENGINE);
    let (_, outcome) = run_fake(
        &blank,
        "1 color A1\n#? [black]\n2 color A1\n",
        Duration::from_secs(10),
    );
    assert!(matches!(outcome, Err(Broken::Engine(_))), "{outcome:?}");
}

#[test]
fn a_wrong_id_or_missing_space_is_caught() {
    let wrong_id = ECHO_ENGINE.replace(
        "printf '=%s black\\n\\n' \"$id\"",
        "printf '=99 black\\n\\n'",
    );
    assert_ne!(wrong_id, ECHO_ENGINE);
    let (_, outcome) = run_fake(
        &wrong_id,
        "1 color A1\n#? [black]\n",
        Duration::from_secs(10),
    );
    assert!(matches!(outcome, Err(Broken::Engine(_))), "{outcome:?}");
    let no_space = ECHO_ENGINE.replace("*) printf '=%s \\n\\n'", "*) printf '=%s\\n\\n'");
    assert_ne!(no_space, ECHO_ENGINE);
    let (_, outcome) = run_fake(&no_space, "1 play b A1\n#? []\n", Duration::from_secs(10));
    assert!(matches!(outcome, Err(Broken::Engine(_))), "{outcome:?}");
}

#[test]
fn a_hung_engine_times_out() {
    let hung = "read line; printf '= hane\\n\\n'; exec sleep 30";
    let started = Instant::now();
    let (_, outcome) = run_fake(hung, "1 color A1\n", Duration::from_millis(300));
    match outcome {
        Err(Broken::Engine(message)) => {
            assert!(message.contains("no complete response"), "{message}")
        }
        other => panic!("hang not caught: {other:?}"),
    }
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn an_engine_that_dies_is_caught() {
    let (_, outcome) = run_fake("exit 0", "1 color A1\n", Duration::from_secs(10));
    assert!(matches!(outcome, Err(Broken::Engine(_))), "{outcome:?}");
}
