//! The progress bar of a review, on stderr. indicatif draws it and
//! estimates the time left from the pace so far; it hides the bar by
//! itself when stderr is not a terminal, so logs and pipes stay clean.

use indicatif::{ProgressBar, ProgressStyle};

const TEMPLATE: &str = "{bar:40} {pos}/{len} positions, {msg}, {elapsed} spent, about {eta} left";

pub(super) struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar of `positions` searches.
    pub(super) fn new(positions: u64) -> Progress {
        let bar = ProgressBar::new(positions);
        // The template is a constant: it parses, else the plain bar will do.
        if let Ok(style) = ProgressStyle::with_template(TEMPLATE) {
            bar.set_style(style);
        }
        Progress { bar }
    }

    /// The search of the position before move `number` starts.
    pub(super) fn searching(&self, number: u64) {
        self.bar.set_message(format!("move {number}"));
    }

    pub(super) fn searched(&self) {
        self.bar.inc(1);
    }

    pub(super) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
