//! Drives the built `hane` binary over GTP for integration tests.

#![allow(dead_code)]

pub mod json_analysis;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

/// How long any one response may take before the test fails as hung.
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(60);

/// A 9x9 game with komi 6.5, stones of both colours and, after the last
/// move, a capture; the first eight lines leave it uncaptured.
pub const GAME_IN_PROGRESS: [&str; 10] = [
    "boardsize 9",
    "clear_board",
    "komi 6.5",
    "play b E5",
    "play w D5",
    "play b C5",
    "play w E4",
    "play b D6",
    "play w F5",
    "play b D4",
];

/// White's two-point eye at A1-B1 behind a wall with liberties outside;
/// Black has filled A1 and White has passed. Black's B1 would clear A1 and
/// B1, a two-stone suicide that recreates the colouring Black faced before
/// A1, which so far stood only with Black to move.
pub const SUPERKO_CASE: [&str; 12] = [
    "boardsize 5",
    "clear_board",
    "play b E5",
    "play w A2",
    "play b E4",
    "play w B2",
    "play b D5",
    "play w C2",
    "play b E3",
    "play w C1",
    "play b A1",
    "play w pass",
];

/// Starts hane with `args` and sends `commands`, each of which must succeed.
pub fn started_with(args: &[&str], commands: &[&str]) -> Gtp {
    let mut gtp = Gtp::start_with(args);
    for command in commands {
        gtp.ok(command);
    }
    gtp
}

/// hane started with `args`, in the game in progress after its capture.
pub fn game_in_progress(args: &[&str]) -> Gtp {
    started_with(args, &GAME_IN_PROGRESS)
}

/// hane started with `args`, in the game in progress before its capture.
pub fn game_before_capture(args: &[&str]) -> Gtp {
    started_with(args, &GAME_IN_PROGRESS[..8])
}

/// Everything a client can observe of the game: the stones, the captures,
/// the board with the side to move, the count, the record with komi and
/// handicap, and the legal moves of both colours.
pub fn snapshot(gtp: &mut Gtp) -> Vec<String> {
    [
        "list_stones black",
        "list_stones white",
        "captures black",
        "captures white",
        "showboard",
        "final_score",
        "printsgf",
        "all_legal b",
        "all_legal w",
    ]
    .iter()
    .map(|command| gtp.ok(command))
    .collect()
}

/// Sends raw bytes (the line ending included) and checks the one response
/// and that the game is as it was.
pub fn assert_raw_fails_unchanged(gtp: &mut Gtp, line: &[u8], expected: &str) {
    let before = snapshot(gtp);
    gtp.write_raw(line);
    let shown = String::from_utf8_lossy(&line[..line.len().min(60)]).into_owned();
    assert_eq!(gtp.read_response(), expected, "response to {shown:?}");
    assert_eq!(snapshot(gtp), before, "state after {shown:?}");
}

/// Sends `command`, checks that the response is `expected` and that the
/// game is as it was.
pub fn assert_fails_unchanged(gtp: &mut Gtp, command: &str, expected: &str) {
    assert_raw_fails_unchanged(gtp, format!("{command}\n").as_bytes(), expected);
}

/// hane started with `args`, its stdin, stdout and stderr piped: for tests
/// that drive the process itself (end of input, signals, exit status).
pub fn spawn_hane(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_hane"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hane")
}

/// hane run with `args`, stdin empty, to its end: for the command line's
/// checks.
pub fn start_up(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hane"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run hane")
}

/// Waits for `child` at most `limit`; kills it and fails, naming `what`, if
/// it hangs.
pub fn wait_bounded(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: hane still running after {limit:?}");
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// Whatever `child` wrote to its stderr, read to the end.
pub fn stderr_of(child: &mut Child) -> String {
    let mut stderr = String::new();
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut stderr);
    }
    stderr
}

pub struct Gtp {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Gtp {
    pub fn start() -> Gtp {
        Gtp::start_with(&[])
    }

    pub fn start_with(args: &[&str]) -> Gtp {
        Gtp::start_with_env(args, &[])
    }

    /// Starts hane with extra environment variables (`RUST_LOG`, say).
    pub fn start_with_env(args: &[&str], env: &[(&str, &str)]) -> Gtp {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hane"))
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start hane");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        Gtp {
            child,
            stdin,
            lines,
        }
    }

    /// Writes raw bytes (a line may hold anything a client could send).
    pub fn write_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to hane");
        stdin.flush().expect("flush");
    }

    /// Reads one line of output (for streamed responses).
    pub fn read_line(&mut self) -> String {
        self.lines
            .recv_timeout(RESPONSE_TIMEOUT)
            .unwrap_or_else(|_| panic!("no output line within {RESPONSE_TIMEOUT:?}"))
    }

    /// Ends the input, as a client that goes away does, and keeps reading.
    pub fn close_stdin(&mut self) {
        self.stdin.take();
    }

    /// Reads one whole response: its lines up to the empty line that ends it.
    pub fn read_response(&mut self) -> String {
        let mut lines = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(RESPONSE_TIMEOUT)
                .unwrap_or_else(|_| panic!("no complete response; got so far {lines:?}"));
            if line.is_empty() {
                break;
            }
            lines.push(line);
        }
        lines.join("\n")
    }

    /// Sends one command line and returns the whole response, e.g. `= D4`.
    pub fn send(&mut self, command: &str) -> String {
        self.write_raw(format!("{command}\n").as_bytes());
        self.read_response()
    }

    /// Sends a command that must succeed; returns the text after `= `.
    pub fn ok(&mut self, command: &str) -> String {
        let response = self.send(command);
        match response.strip_prefix("= ") {
            Some(text) => text.to_string(),
            None => panic!("`{command}` failed: {response}"),
        }
    }

    /// Closes stdin and waits for the process to end.
    pub fn close(mut self) -> (ExitStatus, String) {
        self.stdin.take();
        let status = self.child.wait().expect("wait");
        let mut stderr = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            use std::io::Read;
            let _ = err.read_to_string(&mut stderr);
        }
        (status, stderr)
    }

    /// The CPU time the process has used so far, all threads together, in
    /// seconds (Linux: from /proc, in the kernel's 1/100 s ticks).
    pub fn cpu_seconds(&self) -> f64 {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).expect("proc stat");
        // The fields after the command name, which is in parentheses and
        // may hold spaces: utime and stime are the 12th and 13th.
        let after_name = &stat[stat.rfind(')').expect("command name") + 1..];
        let fields: Vec<&str> = after_name.split_whitespace().collect();
        let ticks: u64 =
            fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime");
        ticks as f64 / 100.0
    }

    /// The process's resident memory in MiB (Linux: VmRSS from /proc).
    pub fn resident_mib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("proc status");
        let line = status
            .lines()
            .find(|l| l.starts_with("VmRSS:"))
            .expect("VmRSS");
        let kib: u64 = line
            .split_whitespace()
            .nth(1)
            .and_then(|n| n.parse().ok())
            .expect("VmRSS in kB");
        kib / 1024
    }

    /// Any line on stdout not yet read (there must be none between responses).
    pub fn stray_output(&mut self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }
}

/// A directory of its own for one test's files, removed at the end.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("hane-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn file(&self, name: &str, contents: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, contents).expect("write temp file");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The stones of a `width` x `height` board filled to the end, as (colour,
/// vertex) pairs: Black on the left half (the middle column included),
/// White on the right, every string with two one-point eyes, so every
/// string pass-alive and no move left to either side but pass. At komi
/// 7.5 Black wins by the board's height less 7.5 where the width is odd
/// (B+11.5 on 19x19).
pub fn filled_board(width: usize, height: usize) -> Vec<(&'static str, String)> {
    const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let eyes = [
        (1, 1),
        (1, height - 2),
        (width - 2, 1),
        (width - 2, height - 2),
    ];
    let mut stones = Vec::new();
    for (x, &column) in COLUMNS.iter().enumerate().take(width) {
        for y in 0..height {
            if !eyes.contains(&(x, y)) {
                let color = if x < width.div_ceil(2) { "B" } else { "W" };
                stones.push((color, format!("{}{}", column as char, y + 1)));
            }
        }
    }
    stones
}

/// An SGF main line of `moves` passes, alternating from Black, on a
/// `size` board: a record that fills up without a stone on the board.
pub fn passes_sgf(size: usize, moves: usize) -> Vec<u8> {
    let mut text = format!("(;SZ[{size}]").into_bytes();
    for i in 0..moves {
        text.extend_from_slice(if i % 2 == 0 { b";B[]" } else { b";W[]" });
    }
    text.push(b')');
    text
}

/// Runs hane with `args` on `input` (then end of input), at most `limit`;
/// returns the exit status, stdout and stderr.
pub fn run_to_end(args: &[&str], input: &str, limit: Duration) -> (ExitStatus, String, String) {
    let mut child = spawn_hane(args);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("write");
    drop(stdin);
    // Read both pipes on threads so that a full pipe cannot stall hane.
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = out.read_to_string(&mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = err.read_to_string(&mut text);
        text
    });
    let status = wait_bounded(&mut child, limit, &format!("{args:?} {input:?}"));
    (
        status,
        out.join().expect("stdout reader"),
        err.join().expect("stderr reader"),
    )
}
