//! Issue 27, "Reliability III": seven defects a hostile client found, one
//! regression test (or a few) each, through the real binary. Each of these
//! failed on main ef081e2, before the fixes (docs/robustness.md, "Reliability
//! III").

mod common;

use std::time::{Duration, Instant};

use common::{Gtp, TempDir};

// --- 4. no time at all ---------------------------------------------------------

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

// --- 7. komi -0 ------------------------------------------------------------------

/// `komi -0` was written back as `KM[-0]`.
#[test]
fn negative_zero_komi_is_written_as_zero() {
    let dir = TempDir::new("komi-minus-zero");
    let mut gtp = Gtp::start_with(&["--threads", "1"]);
    gtp.ok("boardsize 9");
    gtp.ok("komi -0");
    let record = gtp.ok("printsgf");
    assert!(record.contains("KM[0]"), "{record}");
    assert!(!record.contains("KM[-0]"), "{record}");
    // A file's KM[-0] as well, and the count it gives.
    let path = dir.file("minus-zero.sgf", b"(;SZ[9]KM[-0];B[ee])");
    gtp.ok(&format!("loadsgf {}", path.display()));
    let record = gtp.ok("printsgf");
    assert!(
        record.contains("KM[0]") && !record.contains("KM[-0]"),
        "{record}"
    );
    assert_eq!(gtp.ok("final_score"), "B+81");
}
