//! When a search under a clock stops: before its target time once the most
//! visited move cannot be overtaken in the time left, and past it (up to the
//! clock's latest) while the choice is unclear. Time saved on easy moves is
//! what the clock then spreads over the hard ones.

use std::time::{Duration, Instant};

use log::info;

use super::report::{root_totals, MoveTotals};
use super::search::Search;
use super::worker::Worker;
use crate::game::Color;

/// How often a search under a clock looks at its root.
pub const CHECK_INTERVAL: Duration = Duration::from_millis(50);

/// The runner-up counts as close while it has at least this share of the
/// best move's visits.
const CLOSE_VISITS: f64 = 0.8;

/// A root move's visits and win rate.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Contender {
    pub visits: u64,
    pub win_rate: f64,
}

/// The two most visited root moves of the tree the threads share.
pub fn top_two(search: &Search) -> (Contender, Contender) {
    let mut totals = root_totals(search);
    totals.sort_by_key(|t| std::cmp::Reverse(t.visits));
    let contender = |t: Option<&MoveTotals>| {
        t.map_or(Contender::default(), |t| Contender {
            visits: t.visits as u64,
            win_rate: t.wins / t.visits.max(1) as f64,
        })
    };
    (contender(totals.first()), contender(totals.get(1)))
}

/// The search at `now`, `playouts` into a run of `elapsed`, aimed at
/// `target` and allowed to `latest`: the time it should run to, or None to
/// stop now.
pub fn run_until(
    best: Contender,
    runner_up: Contender,
    playouts: u64,
    elapsed: Duration,
    now: Instant,
    target: Instant,
    latest: Instant,
) -> Option<Instant> {
    let until = if now < target {
        target
    } else if now < latest && is_unclear(best, runner_up) {
        latest
    } else {
        return None;
    };
    let rate = playouts as f64 / elapsed.as_secs_f64().max(1e-3);
    let reachable = rate * until.saturating_duration_since(now).as_secs_f64();
    let lead = best.visits.saturating_sub(runner_up.visits) as f64;
    (lead <= reachable).then_some(until)
}

/// Whether the choice needs more time: the runner-up rates better than the
/// most visited move, or is nearly as visited.
fn is_unclear(best: Contender, runner_up: Contender) -> bool {
    runner_up.visits > 0
        && (runner_up.win_rate > best.win_rate
            || runner_up.visits as f64 >= CLOSE_VISITS * best.visits as f64)
}

/// A clock-managed search between slices: the time to run to (`target`,
/// or `latest` while the choice is unclear), or None to stop now.
pub fn manage_time(
    search: &Search,
    workers: &[Worker],
    start: Instant,
    [target, latest]: [Instant; 2],
    color: Color,
) -> Option<Instant> {
    let (best, runner_up) = top_two(search);
    let playouts = workers.iter().map(Worker::playouts).sum();
    let now = Instant::now();
    let until = run_until(best, runner_up, playouts, now - start, now, target, latest);
    // The clock's decisions, at info: why this move took the time it did.
    match until {
        None if target.saturating_duration_since(now) > CHECK_INTERVAL => info!(
            "{color}: stopped {:.2}s early, the best move cannot be overtaken",
            (target - now).as_secs_f64()
        ),
        None => info!(
            "{color}: stopped after {:.2}s, {}",
            (now - start).as_secs_f64(),
            if now <= target + CHECK_INTERVAL {
                "its time for the move"
            } else if now < latest {
                "the unclear choice now clear"
            } else {
                "the most it may think"
            }
        ),
        Some(until) if until > target && now <= target + CHECK_INTERVAL => {
            info!(
                "{color}: unclear choice, thinking up to {:.2}s longer",
                (until - target).as_secs_f64()
            )
        }
        _ => {}
    }
    until
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contender(visits: u64, win_rate: f64) -> Contender {
        Contender { visits, win_rate }
    }

    #[test]
    fn a_lead_the_time_left_cannot_close_stops_the_search() {
        let now = Instant::now();
        let target = now + Duration::from_millis(500);
        let latest = now + Duration::from_secs(1);
        // 10,000 playouts a second: 5,000 more before the target.
        let elapsed = Duration::from_millis(500);
        let (best, second) = (contender(6_000, 0.6), contender(900, 0.5));
        assert_eq!(
            run_until(best, second, 5_000, elapsed, now, target, latest),
            None
        );
        let second = contender(1_100, 0.5);
        assert_eq!(
            run_until(best, second, 5_000, elapsed, now, target, latest),
            Some(target)
        );
    }

    #[test]
    fn an_unclear_choice_runs_past_the_target_to_the_latest() {
        let start = Instant::now();
        let now = start + Duration::from_millis(600);
        let target = start + Duration::from_millis(500);
        let latest = start + Duration::from_secs(1);
        let elapsed = Duration::from_millis(600);
        // The runner-up rates higher.
        let (best, second) = (contender(3_000, 0.55), contender(2_000, 0.58));
        assert_eq!(
            run_until(best, second, 6_000, elapsed, now, target, latest),
            Some(latest)
        );
        // Nearly as visited.
        let (best, second) = (contender(3_000, 0.6), contender(2_500, 0.55));
        assert_eq!(
            run_until(best, second, 6_000, elapsed, now, target, latest),
            Some(latest)
        );
        // Clear: stop at the target.
        let (best, second) = (contender(3_000, 0.6), contender(1_000, 0.5));
        assert_eq!(
            run_until(best, second, 6_000, elapsed, now, target, latest),
            None
        );
        // Past the latest nothing runs on.
        let now = start + Duration::from_millis(1_100);
        let (best, second) = (contender(3_000, 0.55), contender(2_000, 0.58));
        assert_eq!(
            run_until(best, second, 6_000, elapsed, now, target, latest),
            None
        );
    }
}
