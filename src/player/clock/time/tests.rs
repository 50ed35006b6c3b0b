use super::super::lag::UNSEEN_LATENCY;
use super::*;

const B: Color = Color::Black;
const W: Color = Color::White;

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

/// A budget for Black on an empty 19x19 board in the middle game.
fn budget19(clock: &Clock) -> Allowance {
    clock
        .allowance(B, 19, 100, 200)
        .expect("a time limit is set")
}

/// The invariants every budget keeps: target within the hard limit, and
/// the hard limit within `bound` (the time that may be spent on this move
/// after the margin) unless that is below MIN_THINK. (Below the margin the
/// floor shrinks with what is left: `floors_shrink_with_what_is_left`.)
fn check(budget: Allowance, bound: f64) {
    let target = secs(budget.target);
    let hard = secs(budget.hard_limit);
    assert!(target <= hard, "{budget:?}");
    assert!(hard <= bound.max(MIN_THINK) + 1e-6, "{budget:?} > {bound}");
}

#[test]
fn gtp_time_settings_follow_the_spec() {
    assert_eq!(TimeControl::gtp(0.0, 1.0, 0), TimeControl::Unlimited);
    assert_eq!(
        TimeControl::gtp(600.0, 0.0, 0),
        TimeControl::Absolute { main: 600.0 }
    );
    assert_eq!(
        TimeControl::gtp(600.0, 0.0, 25),
        TimeControl::Absolute { main: 600.0 }
    );
    assert_eq!(
        TimeControl::gtp(0.0, 300.0, 25),
        TimeControl::Canadian {
            main: 0.0,
            period: 300.0,
            stones: 25
        }
    );
    assert_eq!(
        TimeControl::gtp(0.0, 0.0, 0),
        TimeControl::Absolute { main: 0.0 }
    );
    // Nonsense from outside is made harmless.
    assert_eq!(
        TimeControl::gtp(-5.0, f64::NAN, 3),
        TimeControl::Absolute { main: 0.0 }
    );
    assert_eq!(
        TimeControl::gtp(1e300, 0.0, 0),
        TimeControl::Absolute { main: MAX_SECONDS }
    );
}

#[test]
fn kgs_time_settings_map_onto_the_systems() {
    assert_eq!(TimeControl::kgs_none(), TimeControl::Unlimited);
    assert_eq!(
        TimeControl::kgs_absolute(300.0),
        TimeControl::Absolute { main: 300.0 }
    );
    assert_eq!(
        TimeControl::kgs_byoyomi(600.0, 30.0, 5),
        TimeControl::Byoyomi {
            main: 600.0,
            period: 30.0,
            periods: 5
        }
    );
    assert_eq!(
        TimeControl::kgs_byoyomi(600.0, 30.0, 0),
        TimeControl::Absolute { main: 600.0 }
    );
    assert_eq!(
        TimeControl::kgs_byoyomi(600.0, 0.0, 5),
        TimeControl::Absolute { main: 600.0 }
    );
    assert_eq!(
        TimeControl::kgs_canadian(600.0, 300.0, 25),
        TimeControl::Canadian {
            main: 600.0,
            period: 300.0,
            stones: 25
        }
    );
    assert_eq!(
        TimeControl::kgs_canadian(600.0, 300.0, 0),
        TimeControl::Absolute { main: 600.0 }
    );
}

#[test]
fn no_limit_gives_no_budget() {
    let mut clock = Clock::new(TimeControl::Unlimited);
    assert_eq!(clock.allowance(B, 19, 0, 361), None);
    clock.record_move(B, Duration::from_secs(1000));
    assert_eq!(clock.allowance(B, 19, 1, 360), None);
    // A report of nothing is no information.
    clock.time_left(B, 0.0, 0);
    assert_eq!(clock.allowance(B, 19, 1, 360), None);
}

#[test]
fn a_real_time_left_is_honoured_even_without_limits() {
    let mut clock = Clock::new(TimeControl::Unlimited);
    clock.time_left(B, 30.0, 0);
    let budget = budget19(&clock);
    check(budget, usable(30.0));
    assert_eq!(clock.allowance(W, 19, 100, 200), None);
    clock.time_left(W, 10.0, 2);
    let white = clock.allowance(W, 19, 100, 200).expect("reported");
    check(white, usable(10.0));
    // After the two stones the unknown period restarts: no more limit.
    clock.record_move(W, Duration::from_secs(1));
    assert!(clock.allowance(W, 19, 101, 199).is_some());
    clock.record_move(W, Duration::from_secs(1));
    assert_eq!(clock.allowance(W, 19, 102, 198), None);
}

#[test]
fn absolute_spreads_main_time_over_the_moves_to_come() {
    let mut clock = Clock::new(TimeControl::kgs_absolute(600.0));
    let budget = budget19(&clock);
    check(budget, usable(600.0));
    // 570 usable seconds over 80 own moves (200 empty * 0.4).
    assert!(
        (secs(budget.target) - 570.0 / 80.0).abs() < 1e-3,
        "{budget:?}"
    );
    assert!((secs(budget.hard_limit) - 3.0 * 570.0 / 80.0).abs() < 1e-3);
    // The opening takes less, the late game (fewer empty points) more.
    let opening = clock.allowance(B, 19, 0, 361).expect("limited");
    let late = clock.allowance(B, 19, 250, 60).expect("limited");
    assert!(opening.target < budget.target);
    assert!(late.target > budget.target);
    // Never spread over fewer than MIN_MOVES_LEFT moves (19x19: 18).
    let end = clock.allowance(B, 19, 300, 0).expect("limited");
    assert!((secs(end.target) - 570.0 / 18.05).abs() < 1e-3, "{end:?}");
    let small = clock.allowance(B, 9, 60, 0).expect("limited");
    assert!((secs(small.target) - 570.0 / MIN_MOVES_LEFT).abs() < 1e-3);

    clock.record_move(B, Duration::from_secs(100));
    assert_eq!(clock.remaining(B).seconds, 500.0);
    assert_eq!(clock.remaining(W).seconds, 600.0);
    assert!(budget19(&clock).target < budget.target);
}

#[test]
fn no_time_left_gives_an_instant_move_and_little_time_a_share_of_it() {
    // The search still makes one playout past its deadline, so an instant
    // budget still gives a real move.
    let mut clock = Clock::new(TimeControl::kgs_absolute(10.0));
    clock.record_move(B, Duration::from_secs(20));
    assert_eq!(clock.remaining(B).seconds, 0.0);
    let budget = budget19(&clock);
    assert_eq!(budget.target, Duration::ZERO);
    assert_eq!(budget.hard_limit, Duration::ZERO);
    clock.time_left(B, 0.3, 0);
    let target = secs(budget19(&clock).target);
    assert!((target - 0.3 * FLOOR_SHARE).abs() < 1e-6, "{target}");
    // Negative or NaN reports count as nothing left.
    clock.time_left(B, -4.0, 0);
    assert_eq!(clock.remaining(B).seconds, 0.0);
    clock.time_left(B, f64::NAN, 0);
    assert_eq!(clock.remaining(B).seconds, 0.0);
    assert_eq!(budget19(&clock).hard_limit, Duration::ZERO);
}

#[test]
fn time_left_overrides_our_reckoning() {
    let mut clock = Clock::new(TimeControl::gtp(600.0, 0.0, 0));
    clock.record_move(B, Duration::from_secs(10));
    assert_eq!(clock.remaining(B).seconds, 590.0);
    clock.time_left(B, 42.0, 0);
    assert_eq!(clock.remaining(B).seconds, 42.0);
    check(budget19(&clock), usable(42.0));
    clock.time_left(B, 5000.0, 0);
    assert_eq!(clock.remaining(B).seconds, 5000.0);
    // A new game restores the settings.
    clock.new_game();
    assert_eq!(clock.remaining(B).seconds, 600.0);
}

#[test]
fn canadian_main_time_adds_a_stone_share() {
    let clock = Clock::new(TimeControl::gtp(600.0, 300.0, 25));
    let budget = budget19(&clock);
    let stone = (285.0 - 24.0 * PER_MOVE_LAG) / 25.0;
    let expected = 570.0 / 80.0 + stone;
    assert!((secs(budget.target) - expected).abs() < 1e-3, "{budget:?}");
    let hard = 3.0 * 570.0 / 80.0 + 1.5 * stone;
    assert!((secs(budget.hard_limit) - hard).abs() < 1e-3, "{budget:?}");
    check(budget, usable(600.0) + stone);
}

#[test]
fn canadian_byo_yomi_divides_the_period_by_the_stones() {
    let mut clock = Clock::new(TimeControl::gtp(0.0, 300.0, 25));
    // Byo-yomi from the start: main time 0 gives just a stone's share.
    let first = budget19(&clock);
    let stone = (285.0 - 24.0 * PER_MOVE_LAG) / 25.0;
    assert!((secs(first.target) - stone).abs() < 1e-3, "{first:?}");
    clock.record_move(B, Duration::from_secs(10));
    let state = clock.remaining(B);
    assert!(state.in_overtime);
    assert_eq!(state.count, 24);
    assert_eq!(state.seconds, 290.0);

    clock.time_left(B, 60.0, 10);
    let budget = budget19(&clock);
    let share = (57.0 - 9.0 * PER_MOVE_LAG) / 10.0;
    assert!((secs(budget.target) - share).abs() < 1e-3, "{budget:?}");
    check(budget, usable(60.0));

    // One stone left: nearly the whole rest of the period.
    clock.time_left(B, 20.0, 1);
    let last = budget19(&clock);
    assert!((secs(last.target) - usable(20.0)).abs() < 1e-6, "{last:?}");
    assert!((secs(last.hard_limit) - usable(20.0)).abs() < 1e-6);
    // Playing it starts a fresh period.
    clock.record_move(B, Duration::from_secs(15));
    let state = clock.remaining(B);
    assert_eq!((state.seconds, state.count), (300.0, 25));
}

#[test]
fn canadian_main_time_running_out_starts_a_period_with_that_stone() {
    let mut clock = Clock::new(TimeControl::gtp(60.0, 100.0, 5));
    clock.record_move(B, Duration::from_secs(50));
    assert!(!clock.remaining(B).in_overtime);
    clock.record_move(B, Duration::from_secs(15));
    let state = clock.remaining(B);
    assert!(state.in_overtime);
    assert_eq!(state.count, 4);
    assert!((state.seconds - 95.0).abs() < 1e-9);
    // The server's "0 0" at the end of main time: a whole period.
    clock.time_left(W, 0.0, 0);
    let white = clock.remaining(W);
    assert!(white.in_overtime);
    assert_eq!((white.seconds, white.count), (100.0, 5));
}

#[test]
fn japanese_byo_yomi_uses_most_of_one_period() {
    let mut clock = Clock::new(TimeControl::kgs_byoyomi(60.0, 30.0, 5));
    let main = budget19(&clock);
    let expected = 57.0 / 80.0 + PERIOD_TARGET_SHARE * 28.5;
    assert!((secs(main.target) - expected).abs() < 1e-3, "{main:?}");
    check(main, usable(90.0));

    // KGS in byo-yomi: time in the current period, periods left.
    clock.time_left(B, 30.0, 5);
    let five = budget19(&clock);
    assert!((secs(five.target) - PERIOD_TARGET_SHARE * 28.5).abs() < 1e-6);
    assert!((secs(five.hard_limit) - 28.5).abs() < 1e-6);
    // The last period is treated like any other: never counting on
    // losing one, we spend the same.
    clock.time_left(B, 30.0, 1);
    assert_eq!(budget19(&clock), five);
    check(five, usable(30.0));
}

#[test]
fn japanese_periods_reset_and_are_lost_by_our_reckoning() {
    let mut clock = Clock::new(TimeControl::kgs_byoyomi(60.0, 30.0, 3));
    // Running 20 s past main time stays within the first period.
    clock.record_move(B, Duration::from_secs(80));
    let state = clock.remaining(B);
    assert!(state.in_overtime);
    assert_eq!((state.seconds, state.count), (30.0, 3));
    // A move within the period leaves it whole.
    clock.record_move(B, Duration::from_secs(29));
    assert_eq!(clock.remaining(B).count, 3);
    assert_eq!(clock.remaining(B).seconds, 30.0);
    // 45 s uses up one period.
    clock.record_move(B, Duration::from_secs(45));
    assert_eq!(clock.remaining(B).count, 2);
    // 65 s uses up two.
    clock.record_move(B, Duration::from_secs(65));
    assert_eq!(clock.remaining(B).count, 0);
    assert_eq!(budget19(&clock).target, Duration::ZERO);
    // A huge overrun never panics.
    clock.record_move(B, Duration::from_secs(u64::MAX));
    assert_eq!(clock.remaining(B).count, 0);
}

#[test]
fn huge_times_do_not_overflow() {
    for control in [
        TimeControl::gtp(f64::MAX, 0.0, 0),
        TimeControl::gtp(1e18, 1e18, 1),
        TimeControl::kgs_byoyomi(1e300, 1e300, u64::MAX),
        TimeControl::gtp(0.0, 1e300, u64::MAX),
    ] {
        let mut clock = Clock::new(control);
        check(budget19(&clock), usable(2.0 * MAX_SECONDS));
        clock.record_move(B, Duration::from_secs(u64::MAX));
        clock.time_left(B, f64::MAX, u64::MAX);
        check(budget19(&clock), usable(2.0 * MAX_SECONDS));
        check(
            clock
                .allowance(B, usize::MAX, usize::MAX, usize::MAX)
                .expect("limited"),
            usable(2.0 * MAX_SECONDS),
        );
        check(
            clock.allowance(B, 0, 0, 0).expect("limited"),
            usable(2.0 * MAX_SECONDS),
        );
    }
}

/// Time lefts from nothing to a lot, finely spaced where it matters.
fn sweep() -> Vec<f64> {
    let mut times = vec![0.0];
    let mut t = 0.01;
    while t < 1e7 {
        times.push(t);
        t *= 1.17;
    }
    times
}

/// Each system and each way of being in it, with the time beyond a
/// `time_left` of `t` seconds that the move may run into (the first
/// period, from main time): the move may spend `usable(t + extra)`.
fn cases() -> Vec<(TimeControl, u64, f64)> {
    let canadian = TimeControl::gtp(600.0, 300.0, 25);
    let japanese = TimeControl::kgs_byoyomi(600.0, 30.0, 5);
    vec![
        (TimeControl::kgs_absolute(600.0), 0, 0.0),
        (canadian, 0, 300.0),
        (canadian, 25, 0.0),
        (canadian, 3, 0.0),
        (canadian, 1, 0.0),
        (japanese, 0, 30.0),
        (japanese, 5, 0.0),
        (japanese, 1, 0.0),
        (TimeControl::Unlimited, 0, 0.0),
        (TimeControl::Unlimited, 4, 0.0),
    ]
}

#[test]
fn budgets_stay_within_the_time_left_minus_margin() {
    for (control, stones, extra) in cases() {
        for t in sweep() {
            let mut clock = Clock::new(control);
            clock.time_left(B, t, stones);
            for (size, played, empty) in [(19, 0, 361), (19, 150, 180), (9, 70, 5), (2, 0, 4)] {
                if let Some(budget) = clock.allowance(B, size, played, empty) {
                    check(budget, usable(t + extra));
                }
            }
        }
    }
}

#[test]
fn more_time_left_never_gives_a_smaller_budget() {
    for (control, stones, _) in cases() {
        let mut previous: Option<Allowance> = None;
        for t in sweep() {
            let mut clock = Clock::new(control);
            clock.time_left(B, t, stones);
            let Some(budget) = clock.allowance(B, 19, 120, 150) else {
                continue;
            };
            if let Some(before) = previous {
                assert!(
                    budget.target >= before.target && budget.hard_limit >= before.hard_limit,
                    "{control:?} stones {stones} at {t}: {budget:?} < {before:?}"
                );
            }
            previous = Some(budget);
        }
    }
}

#[test]
fn the_colors_keep_separate_clocks() {
    let mut clock = Clock::new(TimeControl::gtp(100.0, 0.0, 0));
    clock.record_move(W, Duration::from_secs(90));
    assert_eq!(clock.remaining(B).seconds, 100.0);
    assert!(
        clock.allowance(W, 19, 10, 300).expect("limited").target
            < clock.allowance(B, 19, 10, 300).expect("limited").target
    );
    clock.set_control(TimeControl::kgs_byoyomi(10.0, 5.0, 2));
    assert_eq!(clock.remaining(W).seconds, 10.0);
    assert_eq!(clock.remaining(W).count, 2);
}

/// The deadline of `budget` as time from `start`, checked to lie within
/// `expected` of it (the call itself takes a moment).
fn deadline_after(budget: Budget, start: Instant, expected: Duration) {
    let deadline = budget.deadline.expect("a deadline");
    let after = deadline.duration_since(start);
    assert!(
        after >= expected && after < expected + Duration::from_secs(1),
        "{after:?} for {expected:?}"
    );
}

#[test]
fn budgets_follow_the_command_line_when_no_time_limit_is_set() {
    let start = Instant::now();
    // Fixed playouts and no clock: no deadline at all.
    let fixed = Clock::with_settings(Some(300), None).budget(B, 9, 0, 81);
    assert_eq!(
        fixed,
        Budget {
            deadline: None,
            playouts: 300,
            latest: None,
            capped: false,
        }
    );
    // Seconds per move, or about a second per 9 lines by default.
    let timed = Clock::with_settings(None, Some(2.5)).budget(B, 19, 0, 361);
    assert_eq!(timed.playouts, u64::MAX);
    // No clock, so no limit a move must keep to.
    assert_eq!(fixed.clock_limit(), None);
    assert_eq!(timed.clock_limit(), None);
    deadline_after(timed, start, Duration::from_secs_f64(2.5));
    let default = Clock::with_settings(None, None);
    deadline_after(default.budget(B, 9, 0, 81), start, Duration::from_secs(1));
    deadline_after(
        default.budget(B, 19, 0, 361),
        start,
        Duration::from_secs_f64(19.0 / 9.0),
    );
    // Nonsense seconds are made harmless.
    for nonsense in [f64::NAN, -1.0, 0.0] {
        let budget = Clock::with_settings(None, Some(nonsense)).budget(B, 9, 0, 81);
        deadline_after(budget, start, Duration::from_secs_f64(MIN_SECONDS_PER_MOVE));
    }
    // A time per move past the cap (main.rs refuses one) is cut to it.
    let huge = Clock::with_settings(None, Some(1e300)).budget(B, 9, 0, 81);
    deadline_after(huge, start, Duration::from_secs_f64(MAX_THINK_SECONDS));
    assert!(huge.capped && !timed.capped && !fixed.capped);
}

/// A clock of 1e30 seconds, or a `time_left` of 1e11, gave a genmove that
/// never answered: no move thinks past MAX_THINK_SECONDS, and a budget cut
/// to it is marked, so that the end of input stops its search.
#[test]
fn no_move_thinks_past_the_cap() {
    let cap = Duration::from_secs_f64(MAX_THINK_SECONDS);
    let mut reported = Clock::new(TimeControl::kgs_absolute(5.0));
    reported.time_left(B, 99_999_999_999.0, 0);
    let mut fixed = Clock::with_settings(Some(1_000_000), None);
    fixed.set_control(TimeControl::gtp(1e30, 0.0, 0));
    for clock in [
        Clock::new(TimeControl::gtp(1e30, 0.0, 0)),
        Clock::new(TimeControl::gtp(1e20, 5.0, 5)),
        Clock::new(TimeControl::kgs_byoyomi(0.0, 1e30, 5)),
        Clock::new(TimeControl::kgs_canadian(1e30, 1e30, 25)),
        reported,
        fixed,
    ] {
        for size in [2, 9, 19, 25] {
            let start = Instant::now();
            let budget = clock.budget(B, size, 0, size * size);
            let end = Instant::now() + cap;
            assert!(budget.capped, "{clock:?}");
            for limit in [budget.deadline, budget.latest].into_iter().flatten() {
                assert!(limit >= start + cap && limit <= end, "{clock:?}");
            }
        }
    }
    // The longest real clock, eight hours each, is not cut: not at the
    // start, nor with the whole clock left at the end of a game.
    let eight_hours = Clock::new(TimeControl::kgs_absolute(8.0 * 3600.0));
    for (moves_played, empty_points) in [(0, 361), (100, 261), (300, 40)] {
        let budget = eight_hours.budget(B, 19, moves_played, empty_points);
        assert!(!budget.capped, "{moves_played} moves");
        let latest = budget.latest.expect("a clock");
        assert!(latest < Instant::now() + cap, "{moves_played} moves");
    }
}

#[test]
fn under_a_time_limit_budgets_follow_the_clock() {
    let control = TimeControl::kgs_absolute(600.0);
    let allowance = Clock::new(control)
        .allowance(B, 19, 100, 200)
        .expect("limited");
    let start = Instant::now();
    // The target, or with fixed playouts the hard limit.
    let mut clock = Clock::with_settings(None, Some(30.0));
    clock.set_control(control);
    let timed = clock.budget(B, 19, 100, 200);
    deadline_after(timed, start, allowance.target);
    // An unclear move may run on to twice its target, within the hard limit.
    let latest = timed.latest.expect("a clock-managed search");
    assert_eq!(timed.clock_limit(), Some(latest));
    let stretch = latest.duration_since(timed.deadline.expect("a deadline"));
    assert!(latest.duration_since(start) <= allowance.hard_limit + Duration::from_millis(50));
    assert!(
        stretch + Duration::from_millis(50)
            >= allowance
                .target
                .min(allowance.hard_limit - allowance.target)
    );
    // A time per move, or a fixed playout count, is kept as asked.
    assert_eq!(clock.untimed_budget(9).latest, None);
    let mut fixed = Clock::with_settings(Some(300), None);
    fixed.set_control(control);
    let budget = fixed.budget(B, 19, 100, 200);
    assert_eq!(budget.playouts, 300);
    assert_eq!(budget.latest, None);
    deadline_after(budget, start, allowance.hard_limit);
    assert_eq!(budget.clock_limit(), budget.deadline);
    // The command line's settings survive a new control and a new game.
    fixed.new_game();
    fixed.set_control(TimeControl::Unlimited);
    assert_eq!(fixed.budget(B, 19, 100, 200).deadline, None);
    // GoGui's views ignore the time control.
    deadline_after(clock.untimed_budget(9), start, Duration::from_secs(30));
}

#[test]
fn floors_shrink_with_what_is_left() {
    // 5 s sudden death, played out to 600 moves a side with no time_left:
    // the floor once took MIN_THINK a move whatever was left, six seconds
    // in all. Now it never adds up to the clock.
    let mut clock = Clock::new(TimeControl::gtp(5.0, 0.0, 0));
    let mut used = 0.0;
    for move_number in 0..600 {
        let budget = clock
            .allowance(B, 19, 2 * move_number, 300)
            .expect("a time limit is set");
        let spent = secs(budget.hard_limit);
        used += spent;
        clock.record_move(B, budget.hard_limit);
    }
    assert!(used < 5.0, "used {used} s of 5");
    // With nothing left, the move is instant.
    let budget = Allowance::new(0.0, 0.0).floored(0.0);
    assert_eq!(budget.hard_limit, Duration::ZERO);
}

#[test]
fn a_long_game_counts_the_round_trips_it_cannot_see() {
    // 30 s sudden death, 300 moves a side on 19x19 with no time_left (the
    // game that overran had 551 in all), each move taking 5 ms more on the
    // client's clock than the engine measures (pipes, a busy scheduler):
    // charging UNSEEN_LATENCY keeps the client's count under the clock,
    // where the engine's own count alone drifted past it. (No engine can
    // answer in no time: a game long enough overruns any clock.)
    let mut clock = Clock::new(TimeControl::gtp(30.0, 0.0, 0));
    let unseen = 0.005;
    let mut on_the_clients_clock = 0.0;
    for move_number in 0..300 {
        let budget = clock
            .allowance(B, 19, 2 * move_number, 300)
            .expect("a time limit is set");
        on_the_clients_clock += secs(budget.hard_limit) + unseen;
        clock.record_move(B, budget.hard_limit + UNSEEN_LATENCY);
    }
    assert!(
        on_the_clients_clock < 30.0,
        "the client counted {on_the_clients_clock} s of 30"
    );
}

/// KataGo's maxTime caps a move's search under a clock too (its config's
/// comment: "If provided, cap on the time per move, in seconds"): with
/// `maxTime = 0.3` and `time_settings 600 0 0`, 9x9 moves took 7-9 s.
#[test]
fn a_move_time_cap_bounds_a_clocked_move() {
    let mut clock = Clock::with_settings(None, Some(0.3)).with_move_cap(Some(0.3));
    clock.set_control(TimeControl::Absolute { main: 600.0 });
    let start = Instant::now();
    let budget = clock.budget(B, 9, 0, 81);
    let cap = start + Duration::from_secs_f64(0.3) + Duration::from_millis(50);
    assert!(budget.deadline.is_some_and(|d| d <= cap), "{budget:?}");
    assert!(budget.latest.is_none_or(|l| l <= cap), "{budget:?}");
    // Without the cap the clock gives the move several seconds.
    let mut uncapped = Clock::with_settings(None, Some(0.3));
    uncapped.set_control(TimeControl::Absolute { main: 600.0 });
    let free = uncapped.budget(B, 9, 0, 81);
    assert!(free.deadline.is_some_and(|d| d > cap), "{free:?}");
    // With fixed playouts and no clock, the cap is the one deadline.
    let fixed = Clock::with_settings(Some(300), None).with_move_cap(Some(0.3));
    assert!(fixed.budget(B, 9, 0, 81).deadline.is_some_and(|d| d <= cap));
}

/// A busy machine (issue 74 item 14): every move costs 20 ms on the
/// client's clock beyond its search that the engine can see (the wait to be
/// scheduled before genmove starts, the answer written) and 20 ms more that
/// it cannot (before it reads the line). 20 s sudden death, 150 moves a
/// side, each search using its whole hard limit. Counting the search alone
/// and a fixed 10 ms for the rest, the engine's reckoning fell 30 ms a move
/// behind the client's and lost on time; measuring from the line read to
/// the answer written, charging as much again for what it cannot see, and
/// keeping that back for the moves to come, the client's count stays under
/// the clock.
#[test]
fn a_busy_machine_is_measured_and_kept_back_for() {
    use super::super::lag::MoveCost;
    let (seen, unseen) = (Duration::from_millis(20), Duration::from_millis(20));
    let clients_count = |measured: bool| {
        let mut clock = Clock::new(TimeControl::gtp(20.0, 0.0, 0));
        let mut count = 0.0;
        for move_number in 0..150 {
            let empty = 361 - 2 * move_number;
            let allowance = clock
                .allowance(B, 19, 2 * move_number, empty)
                .expect("a time limit is set");
            count += secs(allowance.hard_limit + seen + unseen);
            if measured {
                let cost = MoveCost {
                    used: allowance.hard_limit + seen,
                    beyond_search: seen,
                };
                clock.record_answered_move(B, cost);
            } else {
                clock.record_move(B, allowance.hard_limit + UNSEEN_LATENCY);
            }
        }
        count
    };
    let before = clients_count(false);
    assert!(before > 20.0, "the fixed charge held: {before} s of 20");
    let now = clients_count(true);
    assert!(now < 20.0, "the client counted {now} s of 20");
}
