//! The clock and the thinking budget of each move.
//!
//! The controls are GTP's `time_settings` (absolute, or Canadian byo-yomi,
//! or no limit) and KGS's `kgs-time_settings` (none, absolute, Japanese
//! byo-yomi, Canadian). The server's `time_left` is the truth whenever it
//! comes; between two of them the clock reckons our own time used.
//!
//! The budget never counts on time that might not be there: it keeps a
//! margin for the process, the pipe and the GUI, and in byo-yomi it spends
//! at most one period (Japanese) or the period's share per stone (Canadian).

use std::time::Duration;

use super::MoveBudget;
use crate::game::Color;

/// Least margin kept for latency, in seconds.
const MIN_MARGIN: f64 = 0.25;
/// Share of the time at hand kept as margin on top.
const MARGIN_SHARE: f64 = 0.05;
/// The least time ever given to a search: it always returns a legal move.
const MIN_TARGET: f64 = 0.02;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    Unlimited,
    Absolute {
        main: f64,
    },
    /// After main time, `stones` moves must be made in every `period`.
    Canadian {
        main: f64,
        period: f64,
        stones: u64,
    },
    /// After main time, each move must be made within a `period`; a period
    /// used up is lost, and with it the game after the last one.
    Byoyomi {
        main: f64,
        period: f64,
        periods: u64,
    },
}

impl TimeControl {
    /// GTP `time_settings MAIN BYO STONES`: BYO > 0 with STONES = 0 means
    /// no limit; BYO = 0 means absolute time (and with MAIN = 0 too, no
    /// limit: nobody can play in no time); else Canadian byo-yomi.
    pub fn from_gtp(main: f64, byo_yomi: f64, stones: u64) -> TimeControl {
        match (main, byo_yomi, stones) {
            (_, b, 0) if b > 0.0 => TimeControl::Unlimited,
            (m, b, _) if b <= 0.0 && m <= 0.0 => TimeControl::Unlimited,
            (m, b, _) if b <= 0.0 => TimeControl::Absolute { main: m },
            (m, b, s) => TimeControl::Canadian {
                main: m,
                period: b,
                stones: s,
            },
        }
    }
}

/// One colour's time as far as we know it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Remaining {
    main: f64,
    /// In overtime: time left in the current period.
    period: f64,
    /// In overtime: stones to play in this period (Canadian) or periods
    /// left (Japanese). Zero while in main time.
    count: u64,
}

#[derive(Clone, Debug)]
pub struct Clock {
    control: TimeControl,
    remaining: [Remaining; 2],
}

impl Default for Clock {
    fn default() -> Clock {
        Clock::new(TimeControl::Unlimited)
    }
}

impl Clock {
    /// Both colours start with full time.
    pub fn new(control: TimeControl) -> Clock {
        let start = Remaining {
            main: match control {
                TimeControl::Unlimited => 0.0,
                TimeControl::Absolute { main }
                | TimeControl::Canadian { main, .. }
                | TimeControl::Byoyomi { main, .. } => main,
            },
            period: 0.0,
            count: 0,
        };
        Clock {
            control,
            remaining: [start; 2],
        }
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// GTP `time_left COLOUR TIME STONES`: STONES = 0 means TIME is main
    /// time left; otherwise TIME is left in the current overtime period with
    /// STONES stones (Canadian) or periods (Japanese, KGS's reading) to go.
    pub fn time_left(&mut self, color: Color, seconds: f64, stones: u64) {
        let r = &mut self.remaining[color.index()];
        if stones == 0 {
            *r = Remaining {
                main: seconds,
                period: 0.0,
                count: 0,
            };
        } else {
            *r = Remaining {
                main: 0.0,
                period: seconds,
                count: stones,
            };
        }
    }

    /// Our own reckoning after a move that took `used`.
    pub fn record_move(&mut self, color: Color, used: Duration) {
        let mut used = used.as_secs_f64();
        let control = self.control;
        let r = &mut self.remaining[color.index()];
        let (period, count) = match control {
            TimeControl::Unlimited => return,
            TimeControl::Absolute { .. } => {
                r.main = (r.main - used).max(0.0);
                return;
            }
            TimeControl::Canadian { period, stones, .. } => (period, stones.max(1)),
            TimeControl::Byoyomi {
                period, periods, ..
            } => (period, periods.max(1)),
        };
        if r.count == 0 {
            if used <= r.main {
                r.main -= used;
                return;
            }
            // Main time ran out during this move: overtime began.
            used -= r.main;
            r.main = 0.0;
            r.period = period;
            r.count = count;
        }
        match control {
            TimeControl::Canadian { .. } => {
                r.period -= used;
                r.count -= 1;
                if r.count == 0 {
                    r.period = period;
                    r.count = count;
                }
            }
            _ => {
                // Each whole period used up is lost; the next one starts full.
                let lost = (used / period.max(1e-3)).floor() as u64;
                r.count = r.count.saturating_sub(lost).max(1);
                r.period = period;
            }
        }
    }

    /// The budget of `color`'s next move, or None when no clock is set.
    /// `empty_points` estimates how many moves are still to come.
    pub fn budget(&self, color: Color, empty_points: usize) -> Option<MoveBudget> {
        let r = self.remaining[color.index()];
        // Our moves still to come, roughly: half the empty points fill up
        // with our stones, less as captures are rare; never plan for fewer
        // than a handful.
        let moves_to_come = (empty_points as f64 / 2.5).max(10.0);
        let (target, hard) = match self.control {
            TimeControl::Unlimited => return None,
            TimeControl::Absolute { .. } => {
                let usable = usable(r.main);
                (usable / moves_to_come, usable / 3.0)
            }
            TimeControl::Canadian { period, stones, .. } => {
                if r.count > 0 {
                    let per_stone = usable(r.period) / r.count as f64;
                    (per_stone * 0.9, per_stone)
                } else {
                    let share = usable(period) / stones.max(1) as f64;
                    let main = usable(r.main);
                    (
                        main / moves_to_come + share * 0.5,
                        main.max(0.0) + share * 0.9,
                    )
                }
            }
            TimeControl::Byoyomi { period, .. } => {
                let one_period = usable(if r.count > 0 && r.period > 0.0 {
                    r.period
                } else {
                    period
                });
                if r.count > 0 {
                    (one_period * 0.8, one_period)
                } else {
                    let main = usable(r.main);
                    (
                        main / moves_to_come + one_period * 0.5,
                        main + one_period * 0.9,
                    )
                }
            }
        };
        let hard = hard.max(MIN_TARGET);
        let target = target.clamp(MIN_TARGET, hard);
        Some(MoveBudget {
            target: Duration::from_secs_f64(target),
            hard_limit: Duration::from_secs_f64(hard),
        })
    }
}

/// What of `seconds` may be spent: less the margin for latency.
fn usable(seconds: f64) -> f64 {
    if !seconds.is_finite() || seconds <= 0.0 {
        return 0.0;
    }
    (seconds - MIN_MARGIN.max(seconds * MARGIN_SHARE)).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(d: Duration) -> f64 {
        d.as_secs_f64()
    }

    #[test]
    fn gtp_time_settings_readings() {
        assert_eq!(
            TimeControl::from_gtp(600.0, 30.0, 0),
            TimeControl::Unlimited
        );
        assert_eq!(TimeControl::from_gtp(0.0, 0.0, 0), TimeControl::Unlimited);
        assert_eq!(
            TimeControl::from_gtp(300.0, 0.0, 0),
            TimeControl::Absolute { main: 300.0 }
        );
        assert_eq!(
            TimeControl::from_gtp(0.0, 10.0, 5),
            TimeControl::Canadian {
                main: 0.0,
                period: 10.0,
                stones: 5
            }
        );
    }

    #[test]
    fn no_clock_no_budget() {
        assert_eq!(Clock::default().budget(Color::Black, 81), None);
    }

    #[test]
    fn absolute_time_is_spread_and_never_exceeded() {
        let clock = Clock::new(TimeControl::Absolute { main: 60.0 });
        let b = clock.budget(Color::Black, 81).unwrap();
        assert!(secs(b.target) > 1.0 && secs(b.target) < 3.0, "{b:?}");
        assert!(b.target <= b.hard_limit);
        assert!(secs(b.hard_limit) < 60.0 - 0.25);
        let mut last = 0.0;
        for left in [0.0, 0.1, 0.5, 1.0, 5.0, 30.0, 300.0, 1e6] {
            let mut clock = Clock::new(TimeControl::Absolute { main: 60.0 });
            clock.time_left(Color::White, left, 0);
            let b = clock.budget(Color::White, 40).unwrap();
            assert!(secs(b.target) >= last, "budget shrank with more time");
            last = secs(b.target);
            assert!(secs(b.target) >= MIN_TARGET);
            if left > 1.0 {
                assert!(secs(b.hard_limit) <= left - 0.25, "{left}: {b:?}");
            }
        }
    }

    #[test]
    fn canadian_overtime_shares_the_period() {
        let mut clock = Clock::new(TimeControl::from_gtp(0.0, 10.0, 5));
        clock.time_left(Color::Black, 10.0, 5);
        let b = clock.budget(Color::Black, 50).unwrap();
        assert!(secs(b.hard_limit) <= (10.0 - 0.5) / 5.0 + 1e-9, "{b:?}");
        assert!(secs(b.target) > 1.0);
        clock.time_left(Color::Black, 1.0, 1);
        let b = clock.budget(Color::Black, 50).unwrap();
        assert!(secs(b.hard_limit) <= 0.75 + 1e-9, "{b:?}");
    }

    #[test]
    fn japanese_byoyomi_spends_at_most_one_period() {
        let mut clock = Clock::new(TimeControl::Byoyomi {
            main: 0.0,
            period: 1.0,
            periods: 3,
        });
        let b = clock.budget(Color::White, 81).unwrap();
        assert!(secs(b.hard_limit) <= 0.75 + 1e-9, "{b:?}");
        clock.time_left(Color::White, 30.0, 1);
        let b = clock.budget(Color::White, 81).unwrap();
        assert!(secs(b.hard_limit) <= 30.0 - 1.5 + 1e-9, "{b:?}");
    }

    #[test]
    fn own_reckoning_runs_main_time_down_then_enters_overtime() {
        let mut clock = Clock::new(TimeControl::Canadian {
            main: 2.0,
            period: 10.0,
            stones: 2,
        });
        clock.record_move(Color::Black, Duration::from_secs_f64(1.5));
        assert_eq!(clock.remaining[0].main, 0.5);
        clock.record_move(Color::Black, Duration::from_secs_f64(1.0));
        assert_eq!(clock.remaining[0].main, 0.0);
        assert!(clock.remaining[0].count > 0);
        let b = clock.budget(Color::Black, 60).unwrap();
        assert!(secs(b.hard_limit) <= 10.0, "{b:?}");
        // White's clock is untouched.
        assert_eq!(clock.remaining[1].main, 2.0);
    }

    #[test]
    fn nothing_left_still_gives_a_tiny_budget() {
        let mut clock = Clock::new(TimeControl::Absolute { main: 10.0 });
        clock.time_left(Color::Black, 0.0, 0);
        let b = clock.budget(Color::Black, 81).unwrap();
        assert_eq!(secs(b.target), MIN_TARGET);
        assert_eq!(secs(b.hard_limit), MIN_TARGET);
    }
}
