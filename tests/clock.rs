//! What the clock does at its extremes, through the real binary: a clock
//! too large to mean anything still answers and lets the end of the input
//! stop the search, and no time at all still plays a move worth playing.

mod common;

use std::time::{Duration, Instant};

use common::{run_to_end, Gtp};

/// A clock of 1e30 seconds gave a genmove that never answered, and neither
/// the `quit` queued behind it nor the end of input stopped it. Thinking
/// time per move is now capped (an hour, MAX_THINK), and a search whose
/// time was cut by that cap, which has no clock reason to go on, stops at
/// the end of input with the move it has.
#[test]
fn an_absurd_clock_answers_and_the_end_of_input_stops_it() {
    for (size, clock) in [
        // The smallest board: no move worth a long search.
        ("2", "time_settings 1e30 0 0"),
        ("9", "time_settings 1e30 0 0"),
        ("9", "time_settings 99999999999999999999 5 5"),
        ("9", "time_settings 5 0 0\ntime_left b 99999999999 0"),
        ("9", "kgs-time_settings byoyomi 0 1e30 5"),
        ("9", "kgs-time_settings canadian 1e30 1e30 25"),
    ] {
        let input = format!("boardsize {size}\n{clock}\n7 genmove b\n8 quit\n");
        let started = Instant::now();
        let (status, stdout, stderr) =
            run_to_end(&["--threads", "1"], &input, Duration::from_secs(20));
        assert!(started.elapsed() < Duration::from_secs(15), "{clock}");
        assert!(status.success(), "{clock}: {status}: {stderr}");
        let responses: Vec<&str> = stdout.split_terminator("\n\n").collect();
        let answer = responses
            .iter()
            .find(|r| r.starts_with("=7 "))
            .unwrap_or_else(|| panic!("{clock}: {stdout:?}"));
        if size == "9" {
            assert_ne!(*answer, "=7 pass", "{clock}");
        }
        assert_eq!(responses.last(), Some(&"=8 "), "{clock}: {stdout:?}");
    }
}

/// The end of input stops a capped search that is already running, not
/// only one that starts after it.
#[test]
fn the_end_of_input_during_a_capped_search_stops_it() {
    let mut gtp = Gtp::start_with(&["--threads", "1"]);
    gtp.ok("boardsize 9");
    gtp.ok("time_settings 1e30 0 0");
    gtp.write_raw(b"7 genmove b\n");
    std::thread::sleep(Duration::from_millis(500));
    let started = Instant::now();
    gtp.close_stdin();
    let answer = gtp.read_response();
    assert!(answer.starts_with("=7 ") && answer != "=7 pass", "{answer}");
    assert!(started.elapsed() < Duration::from_secs(10));
    let (status, stderr) = gtp.close();
    assert!(status.success(), "{status}: {stderr}");
}

/// With no time at all, genmove answered the unsearched move of a single
/// playout, and with `--seed 4` White's first answer was `pass`, which
/// conceded the game on the count (B+73.5). Now an open board gets the
/// prior's choice, at once.
#[test]
fn no_time_at_all_plays_the_prior_not_a_pass() {
    for clock in ["time_settings 0 0 0", "kgs-time_settings absolute 0"] {
        for size in [9, 19] {
            for seed in 1..=6 {
                let seed = seed.to_string();
                let mut gtp = Gtp::start_with(&["--seed", &seed, "--threads", "1"]);
                gtp.ok(&format!("boardsize {size}"));
                gtp.ok(clock);
                for color in ["b", "w", "b", "w", "b", "w"] {
                    let started = Instant::now();
                    let answer = gtp.ok(&format!("genmove {color}"));
                    assert!(
                        answer != "pass" && answer != "resign",
                        "{clock}, {size}x{size}, seed {seed}: {color} answered {answer}"
                    );
                    assert!(started.elapsed() < Duration::from_secs(2), "{clock}");
                }
            }
        }
    }
}

/// `time_settings 0 0 0` is absolute time with no main time (the spec: a
/// byo-yomi time above 0 with no stones is the unlimited clock; KataGo
/// reads 0 0 0 as absolute time too). Every move of such a game overran
/// it, and each genmove logged "has overrun absolute time": a warning for
/// what the client asked. A clock with time to overrun still warns.
#[test]
fn no_time_at_all_logs_no_overrun() {
    let mut gtp = Gtp::start_with(&["--seed", "1", "--threads", "1"]);
    gtp.ok("boardsize 9");
    gtp.ok("time_settings 0 0 0");
    for color in ["b", "w", "b"] {
        gtp.ok(&format!("genmove {color}"));
    }
    let (status, stderr) = gtp.close();
    assert!(status.success());
    assert!(!stderr.contains("overrun"), "{stderr}");

    let mut gtp = Gtp::start_with(&["--seed", "1", "--threads", "1", "--playouts", "2000"]);
    gtp.ok("boardsize 9");
    gtp.ok("time_settings 0.001 0 0");
    gtp.ok("genmove b");
    let (status, stderr) = gtp.close();
    assert!(status.success());
    assert!(
        stderr.contains("black has overrun absolute time"),
        "{stderr}"
    );
}
