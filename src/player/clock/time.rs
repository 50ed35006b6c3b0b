//! The game clock and the thinking budget for one move.
//!
//! Pure bookkeeping: no threads, no I/O. The engine maps the GTP commands onto
//! [`TimeControl`] and [`Clock`], and asks [`Clock::budget`] how long a move
//! may take: the answer, a [`Budget`], is handed down to the search
//! threads. The clock also holds the command line's playouts and
//! seconds per move, so that it alone turns settings into a budget.
//!
//! How the time commands are read: the clock module's header.
//!
//! # Budget rules
//!
//! Every amount of time left is first cut by a safety margin,
//! `max(0.5 s, 5 %)`, for process start-up, the GUI and the network, and
//! main time by what each move to come costs beyond its search (`lag`). Main time
//! is spread over an estimate of our moves still to come (from the empty
//! points, never fewer than [`MIN_MOVES_LEFT`]), so it decays geometrically and
//! never runs out. A byo-yomi share is added on top while main time lasts,
//! because every move made in byo-yomi gets that share anyway. Periods that
//! could be lost in Japanese byo-yomi are never counted on. With
//! only the margin left the target is [`MIN_THINK`] or a fiftieth of what is left,
//! whichever is less, down to an instant move: the search always returns some
//! legal move quickly, and a fast move is our only chance then.

use std::time::{Duration, Instant};

use super::lag::{Lag, MoveCost};
use crate::game::{BoardSize, Color, PerColor};

/// The least time the margin leaves us per move, in seconds.
const MIN_MARGIN: f64 = 0.5;
/// The share of any amount of time left kept back as a margin.
const MARGIN_FRACTION: f64 = 0.05;
/// Latency counted on our clock for each further move of a Canadian period,
/// in seconds: the stones after this one need time to be sent too.
const PER_MOVE_LAG: f64 = 0.2;
/// The least time the search is given, in seconds, even when the clock says
/// nothing is left: enough for the search to return its first legal move.
pub const MIN_THINK: f64 = 0.02;
/// Main time is never spread over fewer of our moves than this.
pub const MIN_MOVES_LEFT: f64 = 10.0;
/// Our share of the empty points still to be filled: half of them are ours,
/// and about a fifth stay empty (eyes) when the game ends.
const OWN_SHARE_OF_EMPTY: f64 = 0.4;
/// How much of a Japanese byo-yomi period (after the margin) we aim to use.
const PERIOD_TARGET_SHARE: f64 = 0.85;
/// How far past its main-time target a move may run when the search wants
/// more time (an unclear position), as a multiple of the even share.
const MAIN_HARD_STRETCH: f64 = 3.0;
/// The same for a stone in a Canadian period.
const STONE_HARD_STRETCH: f64 = 1.5;
/// How far past its target a move whose choice is unclear may run, as a
/// multiple of the target (and never past the hard limit).
const UNCLEAR_STRETCH: f64 = 2.0;
/// In the opening we spend only part of the even share ...
const OPENING_FACTOR: f64 = 0.5;
/// ... growing to all of it over this share of the board's points (in moves).
const OPENING_LENGTH_PER_POINT: f64 = 1.0 / 12.0;
/// Times are capped here (about 31 years) so that `Duration` never overflows.
const MAX_SECONDS: f64 = 1e9;
/// The most one move may think, in seconds: an hour. No real time control
/// comes near it (eight hours each aim a 19x19 move at 1.5 to 3 minutes,
/// at most 25 near the end). A clock past it is a client's "no limit"
/// (`time_settings 1e30 0 0`) or a mistake, which once gave a genmove that
/// never answered. `--time` is refused above it. A budget cut to it is
/// marked [`Budget::capped`]: the end of input stops its search.
pub const MAX_THINK_SECONDS: f64 = 3600.0;
/// The least thinking time per move from the command line, in seconds.
const MIN_SECONDS_PER_MOVE: f64 = 0.001;

/// A time system, with times in seconds (finite, not negative).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// No time limits.
    Unlimited,
    /// Sudden death: `main` seconds for the whole game.
    Absolute { main: f64 },
    /// Canadian byo-yomi: after main time, `stones` moves in every `period`.
    Canadian { main: f64, period: f64, stones: u64 },
    /// Japanese byo-yomi: after main time, `periods` periods of `period`
    /// seconds; a move made within a period leaves it whole.
    Byoyomi {
        main: f64,
        period: f64,
        periods: u64,
    },
}

impl TimeControl {
    /// `time_settings MAIN BYO STONES` as GTP v2 defines it.
    pub fn gtp(main: f64, byo_yomi: f64, stones: u64) -> TimeControl {
        let main = seconds(main);
        let byo_yomi = seconds(byo_yomi);
        if byo_yomi == 0.0 {
            TimeControl::Absolute { main }
        } else if stones == 0 {
            TimeControl::Unlimited
        } else {
            TimeControl::Canadian {
                main,
                period: byo_yomi,
                stones,
            }
        }
    }

    /// `kgs-time_settings none`.
    pub fn kgs_none() -> TimeControl {
        TimeControl::Unlimited
    }

    /// `kgs-time_settings absolute MAIN`.
    pub fn kgs_absolute(main: f64) -> TimeControl {
        TimeControl::Absolute {
            main: seconds(main),
        }
    }

    /// `kgs-time_settings byoyomi MAIN PERIOD PERIODS`. Without period time
    /// or periods there is no byo-yomi: absolute time.
    pub fn kgs_byoyomi(main: f64, period: f64, periods: u64) -> TimeControl {
        let main = seconds(main);
        let period = seconds(period);
        if period == 0.0 || periods == 0 {
            TimeControl::Absolute { main }
        } else {
            TimeControl::Byoyomi {
                main,
                period,
                periods,
            }
        }
    }

    /// `kgs-time_settings canadian MAIN PERIOD STONES`. Without period time
    /// or stones there is no byo-yomi we can rely on: absolute time (unlike
    /// `time_settings`, KGS gives no "no limits" meaning to `STONES == 0`, so
    /// we take the safe reading).
    pub fn kgs_canadian(main: f64, period: f64, stones: u64) -> TimeControl {
        let main = seconds(main);
        let period = seconds(period);
        if period == 0.0 || stones == 0 {
            TimeControl::Absolute { main }
        } else {
            TimeControl::Canadian {
                main,
                period,
                stones,
            }
        }
    }

    /// The same control with every time finite and not negative (the
    /// variants can be built directly, bypassing the constructors).
    fn sanitized(self) -> TimeControl {
        match self {
            TimeControl::Unlimited => TimeControl::Unlimited,
            TimeControl::Absolute { main } => TimeControl::Absolute {
                main: seconds(main),
            },
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => TimeControl::Canadian {
                main: seconds(main),
                period: seconds(period),
                stones,
            },
            TimeControl::Byoyomi {
                main,
                period,
                periods,
            } => TimeControl::Byoyomi {
                main: seconds(main),
                period: seconds(period),
                periods,
            },
        }
    }

    /// The clock of a player who has not moved yet.
    fn full(self) -> Remaining {
        let (seconds, count) = match self {
            TimeControl::Unlimited => (0.0, 0),
            TimeControl::Absolute { main } => (main, 0),
            TimeControl::Canadian { main, stones, .. } => (main, stones),
            TimeControl::Byoyomi { main, periods, .. } => (main, periods),
        };
        Remaining {
            seconds,
            count,
            in_overtime: false,
        }
    }
}

/// What one player has left.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Remaining {
    /// Main time left, or in byo-yomi the time left in the current period.
    pub seconds: f64,
    /// Canadian: stones still to play in the current period (the full number
    /// while in main time). Japanese: periods left. Otherwise 0.
    pub count: u64,
    /// Main time is over.
    pub in_overtime: bool,
}

/// How long one search may think: until `deadline` or until `playouts`
/// playouts (all threads together), whichever comes first, and in any case
/// until the stop signal. The one budget type: the clock makes it for each
/// move ([`Clock::budget`]), the player shares it out among the search
/// threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub deadline: Option<Instant>,
    pub playouts: u64,
    /// Under a clock, the search manages its time: it may stop before
    /// `deadline` once its choice is settled, and run on to `latest` while
    /// the choice is unclear (the search's stopping rule).
    pub latest: Option<Instant>,
    /// The time the clock or the settings asked for was over
    /// [`MAX_THINK_SECONDS`] and cut to it: nothing but the client's word
    /// keeps the search running, so the protocol layer stops it at the end
    /// of input, as it stops analysis and pondering.
    pub capped: bool,
}

impl Budget {
    /// No bound but the stop signal: for analysis and pondering.
    pub const UNLIMITED: Budget = Budget {
        deadline: None,
        playouts: u64::MAX,
        latest: None,
        capped: false,
    };

    /// At most `playouts` playouts and, when given, `time` from `start`,
    /// with no clock to manage (a query's maxVisits and maxTime).
    pub fn fixed(playouts: u64, time: Option<Duration>, start: Instant) -> Budget {
        Budget {
            deadline: time.map(|limit| start + limit),
            playouts,
            latest: None,
            capped: false,
        }
    }

    /// The latest a move may be sent by the time control (`budget_within`
    /// makes both cases): the latest an unclear move may run, or, with a
    /// fixed playout count under a clock, the deadline, which is then the
    /// clock's hard limit. None without a clock, where the deadline is a
    /// time per move the user chose and no time can be lost.
    pub fn clock_limit(&self) -> Option<Instant> {
        match self.latest {
            Some(latest) => Some(latest),
            None if self.playouts != u64::MAX => self.deadline,
            None => None,
        }
    }
}

/// What the time control allows one move, counted from its start: the
/// clock's reckoning, from which it makes the move's [`Budget`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Allowance {
    /// The search aims to stop here.
    target: Duration,
    /// The move must be sent by then; the safety margin is already taken off.
    hard_limit: Duration,
}

impl Allowance {
    /// The latest an unclear move may run: a few targets, within the hard
    /// limit.
    fn latest(self) -> Duration {
        self.hard_limit.min(self.target.mul_f64(UNCLEAR_STRETCH))
    }

    /// Both times `seconds` shorter (never under [`MIN_THINK`]).
    fn less(self, seconds: f64) -> Allowance {
        let shorter = |d: Duration| d.as_secs_f64() - seconds;
        Allowance::new(shorter(self.target), shorter(self.hard_limit))
    }

    /// From seconds: both at least [`MIN_THINK`], and `target <= hard_limit`.
    fn new(target: f64, hard_limit: f64) -> Allowance {
        let hard_limit = seconds(hard_limit).max(MIN_THINK);
        let target = seconds(target).clamp(MIN_THINK, hard_limit);
        Allowance {
            target: Duration::from_secs_f64(target),
            hard_limit: Duration::from_secs_f64(hard_limit),
        }
    }
}

/// At the floor, a move may take at most this share of what is left.
const FLOOR_SHARE: f64 = 1.0 / 50.0;

impl Allowance {
    /// An allowance at the floor ([`MIN_THINK`], when nothing but the
    /// margin is left) shrinks with what is left, so that however long the
    /// game runs the moves at the floor never use up the clock: each takes
    /// at most a fiftieth of it, and nothing left means an instant move.
    fn floored(self, left: f64) -> Allowance {
        let floor = Duration::from_secs_f64(MIN_THINK);
        if self.hard_limit > floor {
            return self;
        }
        let limit = floor.min(Duration::from_secs_f64(seconds(left) * FLOOR_SHARE));
        Allowance {
            target: limit,
            hard_limit: limit,
        }
    }
}

/// Both players' clocks under one time control.
#[derive(Clone, Debug)]
pub struct Clock {
    control: TimeControl,
    remaining: PerColor<Remaining>,
    /// Under [`TimeControl::Unlimited`]: the server has told us a real time
    /// left for this colour, which we then respect.
    reported: PerColor<bool>,
    /// The command line's playouts per move (all threads together), if
    /// fixed.
    playouts: Option<u64>,
    /// The command line's seconds per move when no time limit is set.
    seconds_per_move: Option<f64>,
    /// A KataGo config's `maxTime`: no move thinks longer, clock or not.
    move_cap: Option<f64>,
    /// What a move costs beyond its search on this machine, measured.
    lag: Lag,
}

impl Clock {
    /// Both colours start with their full time; no command-line settings.
    pub fn new(control: TimeControl) -> Clock {
        let control = control.sanitized();
        Clock {
            control,
            remaining: PerColor::both(control.full()),
            reported: PerColor::both(false),
            playouts: None,
            seconds_per_move: None,
            move_cap: None,
            lag: Lag::default(),
        }
    }

    /// A clock with no time limits yet and the command line's settings:
    /// `playouts` per move when fixed, `seconds_per_move` when
    /// the client sets no time limit (about a second on 9x9 when absent).
    pub fn with_settings(playouts: Option<u64>, seconds_per_move: Option<f64>) -> Clock {
        Clock {
            playouts,
            seconds_per_move,
            ..Clock::new(TimeControl::Unlimited)
        }
    }

    /// The same clock with no move thinking longer than `seconds`, as
    /// KataGo's `maxTime` caps its search under a clock too.
    pub fn with_move_cap(self, seconds: Option<f64>) -> Clock {
        let move_cap = seconds.map(|s| s.clamp(MIN_SECONDS_PER_MOVE, MAX_THINK_SECONDS));
        Clock { move_cap, ..self }
    }

    /// New time settings; both colours start full again. The command
    /// line's settings stay.
    pub fn set_control(&mut self, control: TimeControl) {
        *self = Clock {
            playouts: self.playouts,
            seconds_per_move: self.seconds_per_move,
            move_cap: self.move_cap,
            lag: self.lag,
            ..Clock::new(control)
        };
    }

    /// A new game under the same settings (`clear_board`).
    pub fn new_game(&mut self) {
        self.set_control(self.control);
    }

    /// What `color` has left by our reckoning or the server's last word.
    #[cfg(test)]
    fn remaining(&self, color: Color) -> Remaining {
        self.remaining[color]
    }

    /// `time_left COLOUR TIME STONES`: the server's word overrides our own
    /// reckoning. `stones == 0` means main time; otherwise Canadian stones
    /// left in the period, or Japanese periods left (KGS).
    pub fn time_left(&mut self, color: Color, seconds_left: f64, stones: u64) {
        let left = seconds(seconds_left);
        log::debug!("time_left {color} {left} {stones} under {:?}", self.control);
        self.remaining[color] = match self.control {
            TimeControl::Unlimited => {
                if left == 0.0 && stones == 0 {
                    return;
                }
                self.reported[color] = true;
                Remaining {
                    seconds: left,
                    count: stones,
                    in_overtime: stones > 0,
                }
            }
            TimeControl::Absolute { .. } => {
                if stones > 0 {
                    log::warn!("time_left gives {stones} stones under absolute time; ignored");
                }
                Remaining {
                    seconds: left,
                    count: 0,
                    in_overtime: false,
                }
            }
            TimeControl::Canadian {
                period,
                stones: full,
                ..
            } => main_or_period(left, stones, period, full),
            TimeControl::Byoyomi {
                period, periods, ..
            } => main_or_period(left, stones, period, periods),
        };
    }

    /// A move of `color`'s answered at `cost`: the reckoning charges it
    /// with what no one could see (`Lag::unseen`), and the estimate of
    /// what a move costs beyond its search takes it in.
    pub fn record_answered_move(&mut self, color: Color, cost: MoveCost) {
        self.lag.observe(cost);
        let unseen = Duration::from_secs_f64(self.lag.unseen());
        self.record_move(color, cost.used + unseen);
    }

    /// Our own reckoning after `color` took `used` for a move, for when no
    /// `time_left` arrives (GoGui without a clock, gogui-twogtp).
    pub fn record_move(&mut self, color: Color, used: Duration) {
        let used = used.as_secs_f64();
        let state = &mut self.remaining[color];
        match self.control {
            TimeControl::Unlimited => {
                if self.reported[color] {
                    spend_reported(state, used, &mut self.reported[color]);
                }
            }
            TimeControl::Absolute { main } => {
                // No time at all (`time_settings 0 0 0`) is overrun by every
                // move: nothing a user needs told, move after move.
                if used > state.seconds && main > 0.0 {
                    log::warn!("{color} has overrun absolute time by our reckoning");
                }
                state.seconds = (state.seconds - used).max(0.0);
            }
            TimeControl::Canadian { period, stones, .. } => {
                spend_main_then(state, used, period, stones, |state, used| {
                    spend_canadian(state, used, period, stones)
                })
            }
            TimeControl::Byoyomi {
                period, periods, ..
            } => spend_main_then(state, used, period, periods, |state, used| {
                spend_japanese(state, used, period)
            }),
        }
        if state.in_overtime && state.count == 0 && self.control != TimeControl::Unlimited {
            log::warn!("{color} has lost on time by our reckoning");
        }
    }

    /// How long `color` may think about its next move, from now.
    /// `moves_played` counts the moves of the game so far, `empty_points`
    /// the empty points now. Under a time limit the search aims for the
    /// clock's target; with fixed playouts it stops at them or at the
    /// clock's hard limit, whichever comes first, and with no time limit it
    /// has no deadline (so a seeded one-thread search repeats). Without
    /// either, the command line's seconds per move.
    pub fn budget(
        &self,
        color: Color,
        board_size: impl Into<BoardSize>,
        moves_played: usize,
        empty_points: usize,
    ) -> Budget {
        let board_size = board_size.into();
        let allowance = self.allowance(color, board_size, moves_played, empty_points);
        self.budget_within(allowance, board_size)
    }

    /// A move's worth of thinking by the command line's settings alone,
    /// whatever the time control: for GoGui's gfx views, which are not moves
    /// of the game.
    pub fn untimed_budget(&self, board_size: impl Into<BoardSize>) -> Budget {
        self.budget_within(None, board_size.into())
    }

    /// The budget of a search starting now, within `allowance` when the
    /// time control gives one; no move thinks more than
    /// [`MAX_THINK_SECONDS`].
    fn budget_within(&self, allowance: Option<Allowance>, board_size: BoardSize) -> Budget {
        let start = Instant::now();
        let (deadline, latest) = match (self.playouts, allowance) {
            // A fixed playout count with no clock is deterministic: no deadline.
            (Some(_), None) => (None, None),
            // A fixed count under a clock stops at the clock's hard limit.
            (Some(_), Some(a)) => (Some(a.hard_limit), None),
            (None, Some(a)) => (Some(a.target), Some(a.latest())),
            // A time per move is what the user asked for: no more, no less.
            (None, None) => (Some(self.default_move_time(board_size)), None),
        };
        let cap = Duration::from_secs_f64(MAX_THINK_SECONDS);
        let move_cap = self.move_cap.map(Duration::from_secs_f64);
        let deadline = match (deadline, move_cap) {
            (Some(d), Some(m)) => Some(d.min(m)),
            (d, m) => d.or(m),
        };
        Budget {
            deadline: deadline.map(|d| start + d.min(cap)),
            playouts: self.playouts.unwrap_or(u64::MAX),
            latest: latest.map(|d| start + d.min(move_cap.unwrap_or(cap)).min(cap)),
            // Only the time the search aims for counts: a target within
            // the cap whose unclear stretch was cut is still a clock's.
            capped: deadline.is_some_and(|d| d > cap),
        }
    }

    /// The time per move when no time limit is set: the command line's, else
    /// about a second on 9x9, a little more on larger boards (a rectangle
    /// counts as the square of its area).
    fn default_move_time(&self, board_size: BoardSize) -> Duration {
        let side = (board_size.points() as f64).sqrt();
        let per_move = self
            .seconds_per_move
            .unwrap_or_else(|| (side / 9.0).max(0.5));
        Duration::from_secs_f64(seconds(per_move).max(MIN_SECONDS_PER_MOVE))
    }

    /// What the time control allows `color`'s next move; `None` when no
    /// time limit is set.
    fn allowance(
        &self,
        color: Color,
        board_size: impl Into<BoardSize>,
        moves_played: usize,
        empty_points: usize,
    ) -> Option<Allowance> {
        let board_size = board_size.into();
        let mut state = self.remaining[color];
        let moves = moves_left(board_size, empty_points);
        // Each move to come costs more than its search: kept back from main
        // time, and taken off this move's own share (`Lag`).
        let lag = self.lag.per_move();
        // What is on the clock, before the lag kept back: what `floored`
        // may take its share of.
        let on_clock = state.seconds;
        if !state.in_overtime {
            state.seconds = (state.seconds - moves * lag).max(0.0);
        }
        let opening = opening_factor(board_size, moves_played);
        let budget = match self.control {
            TimeControl::Unlimited => {
                if !self.reported[color] {
                    return None;
                }
                if state.in_overtime {
                    canadian_period(state.seconds, state.count)
                } else {
                    absolute(state.seconds, moves, opening)
                }
            }
            TimeControl::Absolute { .. } => absolute(state.seconds, moves, opening),
            TimeControl::Canadian { period, stones, .. } => {
                if state.in_overtime {
                    canadian_period(state.seconds, state.count)
                } else {
                    canadian_main(state.seconds, period, stones, moves, opening)
                }
            }
            TimeControl::Byoyomi { period, .. } => {
                if !state.in_overtime {
                    japanese_main(state.seconds, period, moves, opening)
                } else if state.count == 0 {
                    // Lost on time by our reckoning: play at once.
                    Allowance::new(0.0, 0.0)
                } else {
                    japanese_period(state.seconds)
                }
            }
        };
        Some(budget.less(lag).floored(on_clock))
    }
}

/// A finite, non-negative, bounded number of seconds from anything.
fn seconds(value: f64) -> f64 {
    if value.is_nan() {
        0.0
    } else {
        value.clamp(0.0, MAX_SECONDS)
    }
}

/// The safety margin kept back from `left` seconds.
fn margin(left: f64) -> f64 {
    MIN_MARGIN.max(MARGIN_FRACTION * left)
}

/// What may be spent of `left` seconds once the margin is kept back.
pub fn usable(left: f64) -> f64 {
    (left - margin(left)).max(0.0)
}

/// The state a `time_left` report gives for a system with byo-yomi.
fn main_or_period(left: f64, stones: u64, period: f64, full_count: u64) -> Remaining {
    if stones > 0 {
        Remaining {
            seconds: left,
            count: stones,
            in_overtime: true,
        }
    } else if left == 0.0 {
        // Main time is over and the first period starts whole.
        Remaining {
            seconds: period,
            count: full_count,
            in_overtime: true,
        }
    } else {
        Remaining {
            seconds: left,
            count: full_count,
            in_overtime: false,
        }
    }
}

/// A move under a system with byo-yomi: spent from main time while it
/// lasts; a move that runs past main time is the first move of the first
/// period (`count` stones or periods), charged with what it overran.
fn spend_main_then(
    state: &mut Remaining,
    used: f64,
    period: f64,
    count: u64,
    spend_overtime: impl FnOnce(&mut Remaining, f64),
) {
    let mut used = used;
    if !state.in_overtime {
        if used <= state.seconds {
            state.seconds -= used;
            return;
        }
        used -= state.seconds;
        *state = Remaining {
            seconds: period,
            count,
            in_overtime: true,
        };
    }
    spend_overtime(state, used);
}

/// One stone played in a Canadian period; a finished period starts anew.
fn spend_canadian(state: &mut Remaining, used: f64, period: f64, stones: u64) {
    if used > state.seconds {
        log::warn!("overran a Canadian period by our reckoning");
    }
    state.seconds = (state.seconds - used).max(0.0);
    state.count = state.count.saturating_sub(1);
    if state.count == 0 {
        state.seconds = period;
        state.count = stones;
    }
}

/// One move in Japanese byo-yomi: each period that runs out is lost, and the
/// period the move is made in is whole again afterwards.
fn spend_japanese(state: &mut Remaining, used: f64, period: f64) {
    if used < state.seconds {
        state.seconds = period;
        return;
    }
    let beyond_current = used - state.seconds;
    // Periods lost after the current one: how many whole periods `beyond`
    // covers (as f64 then saturated, so huge values cannot overflow).
    let further = (beyond_current / period).floor();
    let further = if further >= state.count as f64 {
        state.count
    } else {
        further as u64
    };
    state.count = state.count.saturating_sub(1).saturating_sub(further);
    state.seconds = if state.count == 0 { 0.0 } else { period };
}

/// A move under "no limits" after the server reported a real time left.
fn spend_reported(state: &mut Remaining, used: f64, reported: &mut bool) {
    state.seconds = (state.seconds - used).max(0.0);
    if state.in_overtime {
        state.count = state.count.saturating_sub(1);
        if state.count == 0 {
            // A new period of a size we were never told: wait for the next
            // report.
            *reported = false;
        }
    }
}

/// Our moves still to come, estimated from the empty points.
fn moves_left(board_size: BoardSize, empty_points: usize) -> f64 {
    let points = board_size.points().max(1);
    let empty = empty_points.min(points) as f64;
    let floor = MIN_MOVES_LEFT.max(points as f64 / 20.0);
    (empty * OWN_SHARE_OF_EMPTY).max(floor)
}

/// Less of the even share in the first moves: the tree is shallow there and
/// the time is worth more in the middle game.
fn opening_factor(board_size: BoardSize, moves_played: usize) -> f64 {
    let points = board_size.points().max(1) as f64;
    let opening_length = (points * OPENING_LENGTH_PER_POINT).max(1.0);
    let progress = (moves_played as f64 / opening_length).min(1.0);
    OPENING_FACTOR + (1.0 - OPENING_FACTOR) * progress
}

/// Main time only: spread it over the moves to come.
fn absolute(left: f64, moves: f64, opening: f64) -> Allowance {
    let spendable = usable(left);
    let share = spendable / moves;
    Allowance::new(share * opening, spendable.min(MAIN_HARD_STRETCH * share))
}

/// The time for one stone of a Canadian period with `left` seconds for
/// `stones` stones; the stones after it keep their latency allowance.
fn stone_share(left: f64, stones: u64) -> f64 {
    let stones = stones.max(1) as f64;
    ((usable(left) - (stones - 1.0) * PER_MOVE_LAG) / stones).max(0.0)
}

/// The latest a stone of a Canadian period may take.
fn stone_hard_limit(left: f64, stones: u64) -> f64 {
    usable(left).min(STONE_HARD_STRETCH * stone_share(left, stones))
}

fn canadian_period(left: f64, stones: u64) -> Allowance {
    Allowance::new(stone_share(left, stones), stone_hard_limit(left, stones))
}

/// Canadian main time: its even share plus what a byo-yomi stone would get,
/// since main time running out only leads to that byo-yomi. The move may run
/// into the first period as far as its first stone may take (so the budget
/// with main time nearly gone meets the one in byo-yomi).
fn canadian_main(main: f64, period: f64, stones: u64, moves: f64, opening: f64) -> Allowance {
    let spendable = usable(main);
    let share = spendable / moves;
    let stone_hard = stone_hard_limit(period, stones);
    Allowance::new(
        share * opening + stone_share(period, stones),
        spendable.min(MAIN_HARD_STRETCH * share) + stone_hard,
    )
}

/// One Japanese period: most of it, never counting on losing it.
fn japanese_period(left: f64) -> Allowance {
    let spendable = usable(left);
    Allowance::new(PERIOD_TARGET_SHARE * spendable, spendable)
}

/// Japanese main time: its even share plus most of a period, since every
/// move in byo-yomi gets a whole period. A move that runs into the first
/// period but ends within it loses nothing.
fn japanese_main(main: f64, period: f64, moves: f64, opening: f64) -> Allowance {
    let spendable = usable(main);
    let share = spendable / moves;
    let in_period = usable(period);
    Allowance::new(
        share * opening + PERIOD_TARGET_SHARE * in_period,
        spendable.min(MAIN_HARD_STRETCH * share) + in_period,
    )
}

#[cfg(test)]
mod tests;
