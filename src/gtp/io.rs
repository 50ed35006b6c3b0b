//! The threads around the engine: a reader that owns stdin and a loop that
//! owns stdout.
//!
//! The reader keeps reading while a command runs, because clients signal
//! through the input: GoGui writes `# interrupt` to stop a genmove early,
//! and any line ends a streaming analysis. It passes every line on in order
//! and raises the stop flag when a running command should wind up.

use std::io::{self, BufRead};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::thread;

use log::{debug, warn};

use super::engine::{Context, Engine};
use super::parse::parse_line;
use super::response::ResponseWriter;

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
    /// Input lines (and the end of input) read but not yet taken by the
    /// engine loop: a line that came before `stop_on_any_line` was raised
    /// must end a stream as well as one that comes after.
    pub pending_lines: AtomicUsize,
}

impl Signals {
    /// Makes the next input line, or one already waiting, stop the running
    /// command, until the returned guard is dropped. For commands that run
    /// until the client says something: streaming analysis and pondering.
    pub fn stop_on_next_line(&self) -> StopOnNextLine<'_> {
        self.stop.store(false, Ordering::SeqCst);
        self.stop_on_any_line.store(true, Ordering::SeqCst);
        // The reader counts a line before it looks at the flag, and here the
        // flag is raised before the count is read: one side sees the other.
        if self.pending_lines.load(Ordering::SeqCst) > 0 {
            self.stop.store(true, Ordering::SeqCst);
        }
        StopOnNextLine { signals: self }
    }

    /// Whether input is waiting for the engine.
    pub fn has_pending_input(&self) -> bool {
        self.pending_lines.load(Ordering::SeqCst) > 0
    }
}

/// While alive, any input line stops the running command.
pub struct StopOnNextLine<'a> {
    signals: &'a Signals,
}

impl Drop for StopOnNextLine<'_> {
    fn drop(&mut self) {
        self.signals.stop_on_any_line.store(false, Ordering::SeqCst);
    }
}

/// Runs the GTP loop on stdin and stdout until `quit`, end of input, or a
/// closed stdout. Returns normally in every one of those cases.
pub fn run(engine: &mut Engine) {
    let signals = Arc::new(Signals::default());
    let lines = spawn_reader(Arc::clone(&signals));
    for input in lines {
        signals.pending_lines.fetch_sub(1, Ordering::SeqCst);
        let line = match input {
            Input::Line(line) => line,
            Input::Eof => break,
        };
        let Some(request) = parse_line(&line) else {
            continue;
        };
        signals.stop.store(false, Ordering::SeqCst);
        // This loop is the only writer of stdout: responses, streamed or
        // not, go through the one ResponseWriter of each command.
        let mut writer = ResponseWriter::new(io::stdout(), request.id);
        let reply = match request.command {
            Ok(command) => {
                debug!("command {command:?}");
                let mut context = Context {
                    signals: &signals,
                    stream: &mut writer,
                };
                engine.execute(command, &mut context)
            }
            Err(error) => Err(error.to_string()),
        };
        if !writer.finish(&reply) {
            warn!("stdout closed; stopping");
            return;
        }
        if engine.has_quit() {
            return;
        }
        if !signals.has_pending_input() {
            engine.ponder(&signals);
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
                    signals.pending_lines.fetch_add(1, Ordering::SeqCst);
                    signals.stop.store(true, Ordering::SeqCst);
                    let _ = sender.send(Input::Eof);
                    return;
                }
                Ok(_) => {
                    if line.last() == Some(&b'\n') {
                        line.pop();
                    }
                    signals.pending_lines.fetch_add(1, Ordering::SeqCst);
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
