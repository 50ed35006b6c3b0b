//! The progress of a review, on stderr: a bar on a terminal, a line a
//! position anywhere else (a pipe, a log, an IDE's console), so that a
//! review of minutes is never silent. Each position is named as what it
//! is: the start, or the position after move N; a game of 40 moves that
//! two passes did not end has 41 (its last position judges its last move).
//!
//! indicatif draws the bar and estimates the time left from the pace so
//! far; `{wide_bar}` takes what the terminal's width leaves beside the
//! text, so the line never wraps on 80 columns.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// At most 56 columns beside the bar: "141/141 positions done, now after
/// move 140, ~10m left".
const TEMPLATE: &str = "{wide_bar} {pos}/{len} positions done, now {msg}, ~{eta} left";

pub(super) struct Progress {
    /// On a terminal, the bar; elsewhere, lines.
    bar: Option<ProgressBar>,
    planned: u64,
    done: u64,
    started: Instant,
    /// The position being searched: "the start" or "after move N".
    current: String,
}

impl Progress {
    /// The progress of `positions` searches.
    pub(super) fn new(positions: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(positions);
            // The template is a constant: it parses, else the plain bar will do.
            if let Ok(style) = ProgressStyle::with_template(TEMPLATE) {
                bar.set_style(style);
            }
            bar
        });
        Progress {
            bar,
            planned: positions,
            done: 0,
            started: Instant::now(),
            current: String::new(),
        }
    }

    /// The search of the position after `moves_played` moves starts.
    pub(super) fn searching(&mut self, moves_played: u64) {
        self.current = position_name(moves_played);
        if let Some(bar) = &self.bar {
            bar.set_message(self.current.clone());
        }
    }

    pub(super) fn searched(&mut self) {
        self.done += 1;
        match &self.bar {
            Some(bar) => bar.inc(1),
            None => {
                let line = self.line(self.started.elapsed());
                // A stderr that is gone (SIGHUP) loses the line, not the review.
                let _ = writeln!(std::io::stderr(), "{line}");
            }
        }
    }

    /// The line of the position just searched, `spent` into the review.
    fn line(&self, spent: Duration) -> String {
        let spent = spent.as_secs_f64();
        let left = self.planned.saturating_sub(self.done);
        let mut line = format!(
            "hane analyze: position {} of {} ({}) searched, {spent:.1} s spent",
            self.done, self.planned, self.current
        );
        if left > 0 && self.done > 0 {
            let pace = spent / self.done as f64;
            line.push_str(&format!(", about {:.0} s left", pace * left as f64));
        }
        line
    }

    pub(super) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// "the start" before any move, else "after move N".
fn position_name(moves_played: u64) -> String {
    if moves_played == 0 {
        "the start".to_string()
    } else {
        format!("after move {moves_played}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_line_names_its_position_and_the_time_left() {
        let mut progress = Progress {
            bar: None,
            planned: 41,
            done: 0,
            started: Instant::now(),
            current: String::new(),
        };
        progress.searching(0);
        progress.done = 1;
        assert_eq!(
            progress.line(Duration::from_secs(2)),
            "hane analyze: position 1 of 41 (the start) searched, 2.0 s spent, about 80 s left"
        );
        progress.searching(40);
        progress.done = 41;
        assert_eq!(
            progress.line(Duration::from_secs(82)),
            "hane analyze: position 41 of 41 (after move 40) searched, 82.0 s spent"
        );
    }

    #[test]
    fn the_text_beside_the_bar_leaves_room_on_80_columns() {
        let widest = TEMPLATE
            .replace("{wide_bar}", "")
            .replace("{pos}/{len}", "141/141")
            .replace("{msg}", &position_name(140))
            .replace("{eta}", "10m");
        // The bar keeps at least 20 columns of the 80.
        assert!(widest.len() <= 60, "{widest}");
    }
}
