//! What a move costs on the client's clock beyond its search. A client
//! counts wall time from writing `genmove` to reading the answer: the wait
//! before the engine is scheduled to read the line, the parsing, the move
//! played, the answer written, and any stall of a busy machine on the way,
//! during the search too. Some of it the engine sees (from reading the line
//! to flushing the answer, against the time the search had); the rest
//! (before the read, after the write) it cannot, and takes to be as large
//! as what it saw, since the same scheduler delays both. The clock charges
//! both on every move and keeps both back for each move still to come, as
//! KataGo's `lagBuffer` keeps a fixed reserve: here it is measured, so a
//! quiet machine keeps little and a loaded one more.

use std::time::Duration;

/// The least charged a move for what no measurement sees, in seconds: the
/// command and the answer through the pipes. A 19x19 game of 551 moves
/// against GNU Go under gogui-twogtp, on a loaded machine, overran a 30 s
/// sudden-death clock by 0.2 s without it, some 2.5 ms a move never seen;
/// four times that is charged.
pub const UNSEEN_LATENCY: Duration = Duration::from_millis(10);

/// How fast the estimate follows a move that cost more than it (a machine
/// getting busy must be seen within a few moves) ...
const RISE: f64 = 0.5;
/// ... and one that cost less (a quiet stretch on a busy machine is no
/// promise).
const FALL: f64 = 0.05;

/// What one answered move cost, as the engine measured it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveCost {
    /// From reading the command to flushing the answer.
    pub used: Duration,
    /// The part of it the search was not given: the time outside the
    /// search, and how far the search ran past the latest its budget
    /// allowed (a stall while it thought).
    pub beyond_search: Duration,
}

/// The running estimate of a move's cost beyond its search.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Lag {
    /// Seconds a move, seen beyond the search: rises fast, falls slowly.
    seen: f64,
    /// Whether a move was measured: until one is, nothing is kept back for
    /// the moves to come (the safety margin covers the first).
    measured: bool,
}

impl Lag {
    /// Takes in one answered move's cost beyond its search.
    pub fn observe(&mut self, cost: MoveCost) {
        let sample = cost.beyond_search.as_secs_f64();
        if !sample.is_finite() {
            return;
        }
        let rate = if sample > self.seen { RISE } else { FALL };
        self.seen += rate * (sample - self.seen);
        self.measured = true;
    }

    /// Seconds charged a move for what the engine cannot see.
    pub fn unseen(&self) -> f64 {
        UNSEEN_LATENCY.as_secs_f64().max(self.seen)
    }

    /// Seconds a move costs beyond its search, seen and unseen: taken off
    /// each move's allowance, and kept back for each move to come.
    pub fn per_move(&self) -> f64 {
        if self.measured {
            self.seen + self.unseen()
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cost(ms: u64) -> MoveCost {
        MoveCost {
            used: Duration::from_millis(100 + ms),
            beyond_search: Duration::from_millis(ms),
        }
    }

    #[test]
    fn a_quiet_machine_is_charged_the_fixed_latency() {
        let mut lag = Lag::default();
        assert_eq!(lag.unseen(), 0.010);
        assert_eq!(lag.per_move(), 0.0, "nothing measured, nothing kept back");
        for _ in 0..50 {
            lag.observe(cost(1));
        }
        assert_eq!(lag.unseen(), 0.010);
        assert!((lag.per_move() - 0.011).abs() < 1e-4, "{lag:?}");
    }

    #[test]
    fn load_is_seen_within_a_few_moves_and_forgotten_slowly() {
        let mut lag = Lag::default();
        for _ in 0..4 {
            lag.observe(cost(40));
        }
        assert!(lag.unseen() > 0.035, "{lag:?}");
        assert!(lag.per_move() > 0.07, "{lag:?}");
        // Ten quiet moves later, most of it is still kept back.
        for _ in 0..10 {
            lag.observe(cost(1));
        }
        assert!(lag.unseen() > 0.02, "{lag:?}");
    }
}
