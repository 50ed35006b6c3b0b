//! Issue 27, "Reliability III": seven defects a hostile client found, one
//! regression test (or a few) each, through the real binary. Each of these
//! failed on main ef081e2, before the fixes (docs/robustness.md, "Reliability
//! III").

mod common;

use std::io::{Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use common::{spawn_hane, start_up, wait_bounded, Gtp, TempDir};

/// Runs hane with `args` on `input` (then end of input), at most `limit`;
/// returns the exit status, stdout and stderr.
fn run_script(args: &[&str], input: &str, limit: Duration) -> (ExitStatus, String, String) {
    let mut child = spawn_hane(args);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("write");
    drop(stdin);
    // Read both pipes on threads so that a full pipe cannot stall hane.
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = out.read_to_string(&mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = err.read_to_string(&mut text);
        text
    });
    let status = wait_bounded(&mut child, limit, &format!("{args:?} {input:?}"));
    (
        status,
        out.join().expect("stdout reader"),
        err.join().expect("stderr reader"),
    )
}

/// Checks that `args` are refused at start-up: a non-zero status, a message
/// naming `words` on stderr, nothing on stdout.
fn assert_refused(args: &[&str], words: &str) {
    let output = start_up(args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{args:?} was accepted");
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?} wrote to stdout");
    assert!(stderr.contains(words), "{args:?}: {stderr}");
}

// --- 1. a non-blocking stdout ------------------------------------------------

/// A parent may hand over a non-blocking stdout. When the reader fell
/// behind, a write got EAGAIN, which was taken for a closed stdout: hane
/// stopped after some 50 KB and every pending response was lost. The
/// client here writes 202 commands whose answers fill the pipe several
/// times over, waits two seconds, then reads.
#[test]
fn a_non_blocking_stdout_is_waited_on() {
    let python = r#"
import os, subprocess, sys, time
r, w = os.pipe()
os.set_blocking(w, False)
p = subprocess.Popen([sys.argv[1], '--threads', '1'], stdin=subprocess.PIPE, stdout=w)
os.close(w)
p.stdin.write(b'boardsize 19\n' + b'showboard\n' * 200 + b'99 name\n')
p.stdin.close()
time.sleep(2)
out = b''
while True:
    chunk = os.read(r, 65536)
    if not chunk:
        break
    out += chunk
code = p.wait(timeout=20)
sys.stdout.write(out.decode())
sys.exit(code)
"#;
    let output = match Command::new("python3")
        .args(["-c", python, env!("CARGO_BIN_EXE_hane")])
        .output()
    {
        Ok(output) => output,
        Err(e) => {
            eprintln!("python3 is needed to make a non-blocking pipe: {e}");
            return;
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
    let responses: Vec<&str> = stdout.split_terminator("\n\n").collect();
    assert_eq!(
        responses.len(),
        202,
        "{} bytes arrived; stderr: {stderr}",
        stdout.len()
    );
    assert_eq!(responses[201], "=99 hane");
    assert!(stdout.len() > 200_000, "{} bytes", stdout.len());
}

// --- 2. --threads has a bound ------------------------------------------------

/// `--threads 4294967296` aborted at the first genmove (an allocation of
/// that many workers), `100000` took 5.9 GB and panicked spawning a thread,
/// after the engine had answered its first commands. A number of threads
/// past MAX_THREADS is refused at start-up.
#[test]
fn absurd_thread_counts_are_refused_at_start_up() {
    for threads in ["4294967296", "99999999999", "100000", "1025"] {
        assert_refused(&["--threads", threads], "--threads");
        assert_refused(&["bench", "--threads", threads], "--threads");
        assert_refused(
            &["analyze", "in.sgf", "-o", "out.sgf", "--threads", threads],
            "--threads",
        );
    }
    // The bound itself is accepted and plays.
    let (status, stdout, stderr) = run_script(
        &["--threads", "1024", "--playouts", "2048"],
        "boardsize 5\n1 genmove b\n",
        Duration::from_secs(60),
    );
    assert!(status.success(), "{status}: {stderr}");
    assert!(stdout.contains("=1 "), "{stdout:?}");
}

// --- 3. an absurd clock --------------------------------------------------------

/// A clock of 1e30 seconds gave a genmove that never answered, and neither
/// the `quit` queued behind it nor the end of input stopped it. Thinking
/// time per move is now capped (an hour, MAX_THINK), and a search whose
/// time was cut by that cap, which has no clock reason to go on, stops at
/// the end of input with the move it has.
#[test]
fn an_absurd_clock_answers_and_the_end_of_input_stops_it() {
    for (size, clock) in [
        // The issue's repro.
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
            run_script(&["--threads", "1"], &input, Duration::from_secs(20));
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

// --- 5. --time: one rule for every senseless value -------------------------

/// `--time -1` was refused, but 0, NaN and infinity were taken silently as
/// "not set"; the same rule for all now, and a time past the cap on
/// thinking time is refused too.
#[test]
fn senseless_times_per_move_are_refused_at_start_up() {
    for time in [
        "0", "0.0", "-0", "nan", "NaN", "inf", "-inf", "infinity", "-1", "1e30", "1e300", "3601",
        "", "x",
    ] {
        let arg = format!("--time={time}");
        assert_refused(&[&arg], "--time");
        assert_refused(&["analyze", "in.sgf", "-o", "out.sgf", &arg], "--time");
    }
    // The ends of the range are accepted.
    for time in ["0.001", "3600", "1e-300"] {
        let (status, stdout, stderr) = run_script(
            &["--time", time, "--threads", "1"],
            "name\n",
            Duration::from_secs(10),
        );
        assert!(status.success(), "--time {time}: {stderr}");
        assert_eq!(stdout, "= hane\n\n");
    }
}

// --- 6. a failed stdout ----------------------------------------------------------

/// With stdout on /dev/full every response failed to write, yet hane exited
/// 0 as if the session had succeeded. A write error other than a closed pipe
/// now ends it with status 1; a closed pipe (the client went away) stays 0,
/// `closed_stdout_ends_the_engine_cleanly` in tests/bad_input.rs.
#[test]
fn a_stdout_that_cannot_be_written_exits_non_zero() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("no /dev/full here");
        return;
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_hane"))
        .stdin(Stdio::piped())
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hane");
    let mut stdin = child.stdin.take().expect("stdin");
    // hane may be gone before the last line is written.
    let _ = stdin.write_all(b"name\nname\n");
    drop(stdin);
    let status = wait_bounded(&mut child, Duration::from_secs(10), "/dev/full");
    let mut stderr = String::new();
    let _ = child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr);
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot write standard output"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
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
