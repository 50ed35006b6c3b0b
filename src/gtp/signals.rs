//! The stop signals shared by the input reader and the running command.
//!
//! The reader raises `stop` (GoGui's `# interrupt`, any line while a
//! streaming command runs, the end of input); a command that runs until the
//! client speaks asks for that with `stop_on_next_line`; the search only
//! reads `stop`. A module of its own, so that the reader loop and the engine
//! depend on it and not on each other.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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
    /// GoGui's `# interrupt` lines read but not yet taken by the engine
    /// loop. Lines are taken in order, so one still waiting when a command
    /// starts was written after it and is meant for it, even when it
    /// arrived before the command began.
    pub pending_interrupts: AtomicUsize,
    /// Set by the reader once stdin has ended.
    pub input_ended: AtomicBool,
    /// Set while a command runs that the end of input should stop (a
    /// genmove whose time was cut to the cap on thinking time: no clock
    /// gives it a reason to go on, and no client is left to interrupt it).
    pub stop_at_end_of_input: AtomicBool,
}

impl Signals {
    /// The signals of a command that no input can follow: stdin has ended
    /// (the end counts as a line waiting), as the reader would have marked
    /// it.
    pub fn at_end_of_input() -> Signals {
        let signals = Signals::default();
        signals.pending_lines.store(1, Ordering::SeqCst);
        signals.input_ended.store(true, Ordering::SeqCst);
        signals
    }

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

    /// Makes the end of input, or one already read, stop the running
    /// command, until the returned guard is dropped.
    pub fn stop_at_end_of_input(&self) -> StopAtEndOfInput<'_> {
        self.stop_at_end_of_input.store(true, Ordering::SeqCst);
        // The reader marks the end before it looks at the flag, and here
        // the flag is raised before the mark is read: one side sees the
        // other.
        if self.input_ended.load(Ordering::SeqCst) {
            self.stop.store(true, Ordering::SeqCst);
        }
        StopAtEndOfInput { signals: self }
    }

    /// Arms `stop` for a command about to run: raised when an interrupt
    /// written after it is already waiting, lowered otherwise.
    pub fn arm_for_next_command(&self) {
        let interrupted = self.pending_interrupts.load(Ordering::SeqCst) > 0;
        self.stop.store(interrupted, Ordering::SeqCst);
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

/// While alive, the end of input stops the running command.
pub struct StopAtEndOfInput<'a> {
    signals: &'a Signals,
}

impl Drop for StopAtEndOfInput<'_> {
    fn drop(&mut self) {
        self.signals
            .stop_at_end_of_input
            .store(false, Ordering::SeqCst);
    }
}
