//! The threads around the engine: a reader that owns stdin and a loop that
//! owns stdout.
//!
//! The reader keeps reading while a command runs, because clients signal
//! through the input: GoGui writes `# interrupt` to stop a genmove early,
//! and any line ends a streaming analysis. It passes every line on in order
//! and raises the stop flag when a running command should wind up.

use std::io::{self, Write};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::Instant;

use log::{debug, warn};

use super::command::{GtpRequest, ParseError};
use super::engine::{CommandIo, Engine};
use super::parse::parse_line;
use super::response::ResponseWriter;
use super::signals::Signals;
use crate::frontend::{BoundedLines, LineEnd, MAX_LINE_BYTES};

/// Most input bytes read ahead of the engine loop. While a command runs the
/// reader keeps reading (it must see GoGui's `# interrupt`), so a client that
/// floods the engine would otherwise grow the queue without end; past this
/// bound the reader waits, and the pipe pushes back on the client.
pub const MAX_QUEUED_BYTES: usize = 16 << 20;

/// What a queued line is charged: its bytes and its bookkeeping, so that a
/// flood of empty lines is bounded too.
fn queue_cost(input: &Input) -> usize {
    const PER_LINE: usize = 64;
    PER_LINE
        + match input {
            Input::Line(bytes, _) | Input::TooLong(bytes, _) => bytes.len(),
            Input::Eof => 0,
            Input::ReadError(message) => message.len(),
        }
}

/// The bytes queued between the reader and the engine loop.
#[derive(Default)]
struct QueuedBytes {
    bytes: Mutex<usize>,
    taken: Condvar,
}

impl QueuedBytes {
    /// Waits until `cost` more bytes fit (a line always fits an empty
    /// queue), then counts them.
    fn add(&self, cost: usize) {
        let mut bytes = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        while *bytes > 0 && *bytes + cost > MAX_QUEUED_BYTES {
            bytes = self
                .taken
                .wait(bytes)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *bytes += cost;
    }

    fn remove(&self, cost: usize) {
        let mut bytes = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        *bytes = bytes.saturating_sub(cost);
        self.taken.notify_all();
    }
}

/// What the reader thread hands to the engine loop.
/// A line comes with the moment it was read: the client's clock for a move
/// runs from then.
enum Input {
    Line(Vec<u8>, Instant),
    /// A line longer than MAX_LINE_BYTES: its first MAX_LINE_BYTES bytes.
    TooLong(Vec<u8>, Instant),
    Eof,
    /// Reading stdin failed (not for want of input): the engine stops.
    ReadError(String),
}

/// Serves GTP on stdin and stdout until `quit`, end of input, or a closed
/// stdout, returning Ok in every one of those cases.
///
/// A closed stdout is a pipe whose reader has gone (EPIPE): the client
/// ended the session, and no one is left to miss a response. Any other
/// failure to write a response (a full disk, /dev/full, an I/O error) ends
/// the engine with that error, as an error reading stdin does: responses
/// were lost, and the exit status must say so (`main` exits with 1). A
/// non-blocking stdout that is full (EAGAIN) is not a failure: the write
/// waits until the pipe takes the bytes (`PatientStdout`).
pub fn serve(engine: &mut Engine) -> io::Result<()> {
    let signals = Arc::new(Signals::default());
    let queued = Arc::new(QueuedBytes::default());
    let lines = spawn_reader(Arc::clone(&signals), Arc::clone(&queued));
    for input in lines {
        queued.remove(queue_cost(&input));
        signals.pending_lines.fetch_sub(1, Ordering::SeqCst);
        if matches!(&input, Input::Line(line, _) if is_interrupt(line)) {
            signals.pending_interrupts.fetch_sub(1, Ordering::SeqCst);
        }
        let (request, line, received) = match input {
            Input::Line(line, received) => (parse_line(&line), line, received),
            Input::TooLong(start, received) => (too_long(&start), start, received),
            Input::Eof => break,
            Input::ReadError(message) => {
                return Err(io::Error::other(format!(
                    "cannot read standard input: {message}"
                )))
            }
        };
        let Some(request) = request else {
            continue;
        };
        signals.arm_for_next_command();
        // This loop is the only writer of stdout: responses, streamed or
        // not, go through the one ResponseWriter of each command.
        let mut writer = ResponseWriter::new(PatientStdout(io::stdout()), request.id);
        let reply = match request.command {
            Ok(command) => {
                debug!("command {}", logged(&line));
                let mut context = CommandIo {
                    signals: &signals,
                    stream: &mut writer,
                };
                engine.execute(command, &mut context)
            }
            Err(error) => Err(error.to_string()),
        };
        if let Err(e) = writer.finish(&reply) {
            if e.kind() == io::ErrorKind::BrokenPipe {
                warn!("stdout closed; stopping");
                return Ok(());
            }
            return Err(io::Error::new(
                e.kind(),
                format!("cannot write standard output: {e}"),
            ));
        }
        engine.answered(received);
        if engine.has_quit() {
            return Ok(());
        }
        if !signals.has_pending_input() {
            engine.ponder(&signals);
        }
    }
    Ok(())
}

/// How long to wait before writing again to a non-blocking stdout that was
/// full: as on the input side, short next to any client.
const OUTPUT_FULL_WAIT: std::time::Duration = std::time::Duration::from_millis(5);

/// stdout for the responses. A parent may hand over a non-blocking pipe;
/// when its reader falls behind, a write finds it full (EAGAIN), which was
/// once taken for a closed stdout: the engine stopped and every pending
/// response, genmove's included, was lost. Here such a write waits until
/// the pipe takes the bytes, as a blocking pipe would. (Std's buffer keeps
/// what it could not write and a failed write takes none of the new
/// bytes, so the write is simply made again.)
struct PatientStdout(io::Stdout);

impl PatientStdout {
    fn retry<T>(mut operation: impl FnMut() -> io::Result<T>) -> io::Result<T> {
        loop {
            match operation() {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    thread::sleep(OUTPUT_FULL_WAIT);
                }
                result => return result,
            }
        }
    }
}

impl Write for PatientStdout {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let out = &mut self.0;
        PatientStdout::retry(|| out.write(bytes))
    }

    fn flush(&mut self) -> io::Result<()> {
        let out = &mut self.0;
        PatientStdout::retry(|| out.flush())
    }
}

/// Reads stdin line by line as bytes (invalid UTF-8 must not end the
/// engine) on its own thread.
fn spawn_reader(signals: Arc<Signals>, queued: Arc<QueuedBytes>) -> Receiver<Input> {
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut stdin = BoundedLines::new(io::stdin().lock());
        loop {
            let mut line = Vec::new();
            match stdin.read_into(&mut line) {
                Err(e) => {
                    signals.pending_lines.fetch_add(1, Ordering::SeqCst);
                    signals.stop.store(true, Ordering::SeqCst);
                    let input = Input::ReadError(e.to_string());
                    queued.add(queue_cost(&input));
                    let _ = sender.send(input);
                    return;
                }
                Ok(LineEnd::Eof) => {
                    signals.pending_lines.fetch_add(1, Ordering::SeqCst);
                    signals.input_ended.store(true, Ordering::SeqCst);
                    // The commands already read run in full, as in a
                    // script; only a stream that runs until the client
                    // speaks (analysis, pondering) must end here, and a
                    // genmove that only the client's word keeps going
                    // (its time cut to the cap on thinking time).
                    if signals.stop_on_any_line.load(Ordering::SeqCst)
                        || signals.stop_at_end_of_input.load(Ordering::SeqCst)
                    {
                        signals.stop.store(true, Ordering::SeqCst);
                    }
                    queued.add(queue_cost(&Input::Eof));
                    let _ = sender.send(Input::Eof);
                    return;
                }
                Ok(end) => {
                    signals.pending_lines.fetch_add(1, Ordering::SeqCst);
                    let interrupt = is_interrupt(&line);
                    if interrupt {
                        signals.pending_interrupts.fetch_add(1, Ordering::SeqCst);
                    }
                    if interrupt || signals.stop_on_any_line.load(Ordering::SeqCst) {
                        signals.stop.store(true, Ordering::SeqCst);
                    }
                    let received = Instant::now();
                    let input = match end {
                        LineEnd::TooLong => Input::TooLong(line, received),
                        _ => Input::Line(line, received),
                    };
                    // Counted and signalled first: a line that waits here
                    // for room still stops the running command.
                    queued.add(queue_cost(&input));
                    if sender.send(input).is_err() {
                        return;
                    }
                }
            }
        }
    });
    receiver
}

/// A command line as the debug log shows it: as the client wrote it (the
/// parsed value's `Debug` would spell out vertices field by field), cut
/// short where a long line would flood the log.
fn logged(line: &[u8]) -> std::borrow::Cow<'_, str> {
    const SHOWN: usize = 200;
    String::from_utf8_lossy(&line[..line.len().min(SHOWN)])
}

/// GoGui's interrupt: the comment line `# interrupt`.
fn is_interrupt(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let text = text.trim();
    text.strip_prefix('#')
        .is_some_and(|rest| rest.trim() == "interrupt")
}

/// The answer to a line cut at MAX_LINE_BYTES. When a `#` falls inside the
/// kept part, all that was dropped is comment and the line is read as usual;
/// otherwise it is a syntax error, with the id if the line starts with one.
fn too_long(start: &[u8]) -> Option<GtpRequest> {
    if start.contains(&b'#') {
        return parse_line(start);
    }
    Some(GtpRequest {
        id: parse_line(start).and_then(|request| request.id),
        command: Err(ParseError::Syntax(format!(
            "line longer than {MAX_LINE_BYTES} bytes"
        ))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_overlong_line_is_a_syntax_error_with_its_id() {
        let mut line = b"7 ".to_vec();
        line.resize(MAX_LINE_BYTES, b'x');
        let request = too_long(&line).expect("a response");
        assert_eq!(request.id, Some(7));
        assert!(matches!(request.command, Err(ParseError::Syntax(_))));
    }

    #[test]
    fn an_overlong_comment_is_still_a_comment() {
        let mut line = b"8 name # ".to_vec();
        line.resize(MAX_LINE_BYTES, b'x');
        let request = too_long(&line).expect("a response");
        assert_eq!(request.id, Some(8));
        assert_eq!(request.command, Ok(super::super::Command::Name));
        let mut comment = b"# ".to_vec();
        comment.resize(MAX_LINE_BYTES, b'x');
        assert_eq!(too_long(&comment), None);
    }
}
