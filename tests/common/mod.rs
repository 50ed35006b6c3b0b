//! Drives the built `hane` binary over GTP for integration tests.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

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

/// Starts hane with `args` and sends `commands`, each of which must succeed.
pub fn started_with(args: &[&str], commands: &[&str]) -> Gtp {
    let mut gtp = Gtp::start_with(args);
    for command in commands {
        gtp.ok(command);
    }
    gtp
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

    /// Any line on stdout not yet read (there must be none between responses).
    pub fn stray_output(&mut self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }
}
