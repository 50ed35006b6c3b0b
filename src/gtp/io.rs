//! The threads around the engine: a reader that owns stdin and a loop that
//! owns stdout.
//!
//! The reader keeps reading while a command runs, because clients signal
//! through the input: GoGui writes `# interrupt` to stop a genmove early,
//! and any line ends a streaming analysis. It passes every line on in order
//! and raises the stop flag when a running command should wind up.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::thread;

use log::{debug, warn};

use super::engine::Engine;
use super::parse::parse_line;
use super::response::format_response;

/// What the reader thread hands to the engine loop.
enum Input {
    Line(Vec<u8>),
    Eof,
}

/// Flags shared between the reader and the running command.
#[derive(Default)]
pub struct Signals {
    /// Raised to make the running command finish now with what it has.
    pub stop: AtomicBool,
    /// Set while a command runs that any new input line should end
    /// (streaming analysis), as opposed to genmove, which only GoGui's
    /// `# interrupt` stops.
    pub stop_on_any_line: AtomicBool,
}

/// Runs the GTP loop on stdin and stdout until `quit`, end of input, or a
/// closed stdout. Returns normally in every one of those cases.
pub fn run(engine: &mut Engine) {
    let signals = Arc::new(Signals::default());
    let lines = spawn_reader(Arc::clone(&signals));
    let stdout = io::stdout();
    for input in lines {
        let line = match input {
            Input::Line(line) => line,
            Input::Eof => break,
        };
        let Some(request) = parse_line(&line) else {
            continue;
        };
        signals.stop.store(false, Ordering::SeqCst);
        let reply = match request.command {
            Ok(command) => {
                debug!("command {command:?}");
                engine.execute(command, &signals.stop)
            }
            Err(error) => Err(error.to_string()),
        };
        let response = format_response(request.id, &reply);
        let mut out = stdout.lock();
        if out
            .write_all(response.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            warn!("stdout closed; stopping");
            return;
        }
        if engine.has_quit() {
            return;
        }
    }
}

/// Reads stdin line by line as bytes (invalid UTF-8 must not end the
/// engine) on its own thread.
fn spawn_reader(signals: Arc<Signals>) -> Receiver<Input> {
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let stdin = io::stdin();
        let mut stdin = stdin.lock();
        loop {
            let mut line = Vec::new();
            match stdin.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => {
                    signals.stop.store(true, Ordering::SeqCst);
                    let _ = sender.send(Input::Eof);
                    return;
                }
                Ok(_) => {
                    if line.last() == Some(&b'\n') {
                        line.pop();
                    }
                    if is_interrupt(&line) || signals.stop_on_any_line.load(Ordering::SeqCst) {
                        signals.stop.store(true, Ordering::SeqCst);
                    }
                    if sender.send(Input::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
    });
    receiver
}

/// GoGui's interrupt: the comment line `# interrupt`.
fn is_interrupt(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let text = text.trim();
    text.strip_prefix('#')
        .is_some_and(|rest| rest.trim() == "interrupt")
}
