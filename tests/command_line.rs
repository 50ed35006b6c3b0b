//! What the command line accepts and what it refuses before any protocol
//! starts: the bounds on threads and board sizes, and the engine's options
//! given before a subcommand, honoured where the subcommand has the same
//! setting and refused with a message where it has none.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use common::{run_to_end, spawn_hane, start_up, stderr_of, wait_bounded, TempDir};
use serde_json::Value;

/// Runs hane with `args` and `input` on stdin, at most a minute.
fn run(args: &[&str], input: &str) -> (Output, Value) {
    let mut child = spawn_hane(args);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("write");
    drop(stdin);
    let status = wait_bounded(&mut child, Duration::from_secs(60), &format!("{args:?}"));
    let stderr = stderr_of(&mut child);
    let mut stdout = String::new();
    if let Some(mut out) = child.stdout.take() {
        use std::io::Read;
        let _ = out.read_to_string(&mut stdout);
    }
    let last = stdout
        .lines()
        .last()
        .and_then(|line| serde_json::from_str(line).ok())
        .unwrap_or(Value::Null);
    (
        Output {
            status,
            stdout: stdout.into_bytes(),
            stderr: stderr.into_bytes(),
        },
        last,
    )
}

/// `args` are refused at start-up: status 2, a message naming `words` on
/// stderr, nothing on stdout.
fn assert_refused(args: &[&str], words: &str) {
    let output = start_up(args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?} wrote to stdout");
    assert!(stderr.contains(words), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
}

/// `hane analysis` bounds its threads as the engine and `hane analyze` do:
/// a number past 1024 once panicked spawning threads (then aborted or hung)
/// or took gigabytes first. The search threads of all the positions at
/// once count together.
#[test]
fn analysis_thread_counts_are_bounded() {
    for threads in ["1025", "0", "100000", "4294967297"] {
        assert_refused(&["analysis", "--threads", threads], "--threads");
        assert_refused(
            &["analysis", "--analysis-threads", threads],
            "--analysis-threads",
        );
    }
    assert_refused(
        &["analysis", "--threads", "64", "--analysis-threads", "64"],
        "1024",
    );
    for args in [
        ["analysis", "--threads", "1024"],
        ["analysis", "--analysis-threads", "1024"],
    ] {
        let output = start_up(&args);
        assert!(
            output.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// `hane bench --sizes 0` measured nothing and exited 0.
#[test]
fn bench_refuses_sizes_hane_does_not_play() {
    for sizes in ["0", "1", "26", "9,0", "x"] {
        assert_refused(&["bench", "--sizes", sizes], "--sizes");
    }
}

/// `hane bench --playouts 0` printed `NaN moves/playout, black wins NaN`.
#[test]
fn bench_refuses_no_playouts() {
    for option in ["--playouts", "--search-playouts"] {
        assert_refused(&["bench", "--sizes", "9", option, "0"], option);
    }
}

const QUERY: &str = r#"{"id":"q","moves":[],"rules":"tromp-taylor","boardXSize":9,"boardYSize":9}"#;

/// The engine's options before a subcommand were silently dropped (`hane
/// --playouts 7 analysis` searched 1000 visits): they are honoured where
/// the subcommand has the setting, and refused otherwise.
#[test]
fn engine_options_before_a_subcommand_are_honoured_or_refused() {
    let (output, answer) = run(&["--playouts", "7", "--seed", "1", "analysis"], QUERY);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(answer["rootInfo"]["visits"], 7, "{answer}");
    let (output, answer) = run(&["--threads", "1", "--playouts", "9", "analysis"], QUERY);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(answer["rootInfo"]["visits"], 9, "{answer}");

    let dir = TempDir::new("options-before");
    let game = dir.file("game.sgf", b"(;SZ[9]KM[7.5];B[ee];W[cc])");
    let reviewed = dir.path().join("reviewed.sgf");
    let review = Command::new(env!("CARGO_BIN_EXE_hane"))
        .args([
            "--playouts",
            "30",
            "--threads",
            "1",
            "--seed",
            "1",
            "analyze",
        ])
        .arg(&game)
        .arg("-o")
        .arg(&reviewed)
        .stdin(Stdio::null())
        .output()
        .expect("run hane analyze");
    assert!(review.status.success(), "{review:?}");
    let text = std::fs::read_to_string(&reviewed).expect("the review");
    assert_eq!(
        text.matches(" Searched with 30 playouts before it and 30 after.")
            .count(),
        2,
        "{text}"
    );

    let game = game.to_string_lossy().into_owned();
    for (args, words) in [
        (vec!["--resign", "0.1", "analysis"], "--resign"),
        (vec!["--ponder", "analysis"], "--ponder"),
        (vec!["--time", "1", "analysis"], "--time"),
        (vec!["--superko", "situational", "analysis"], "--superko"),
        (vec!["--no-suicide", "analysis"], "--no-suicide"),
        (vec!["--gogui-live-gfx", "analysis"], "--gogui-live-gfx"),
        (vec!["--resign", "0", "analyze", &game], "--resign"),
        (vec!["--ponder", "analyze", &game], "--ponder"),
        (vec!["--playouts", "5", "bench"], "--playouts"),
        (vec!["--time", "1", "bench"], "--time"),
        (vec!["--threads", "2", "params"], "--threads"),
        // Given on both sides: which one was meant?
        (
            vec!["--playouts", "5", "analysis", "--playouts", "6"],
            "--playouts",
        ),
    ] {
        assert_refused(&args, words);
    }

    // The tree's bounds and the search parameters apply to every tool, on
    // either side of its name.
    for args in [
        vec!["--max-tree-mb", "64", "--param", "prior_even=3", "analysis"],
        vec!["analysis", "--max-tree-mb", "64", "--param", "prior_even=3"],
        vec!["analysis", "--max-nodes", "5000"],
    ] {
        let (output, answer) = run(&args, QUERY);
        assert!(output.status.success(), "{args:?}: {output:?}");
        assert_eq!(answer["id"], "q", "{args:?}");
    }
}

/// A number the option cannot take is refused with the option's own
/// message, whatever its spelling: `--max-nodes 1` became 1000 without a
/// word (while `--param max_nodes=1` was refused), and `--time -1` read as
/// an unknown option `-1`.
#[test]
fn out_of_range_numbers_get_the_options_message() {
    for (args, words) in [
        (
            vec!["--max-nodes", "1"],
            "expected a whole number of nodes from 1000",
        ),
        (vec!["analysis", "--max-nodes", "999"], "from 1000"),
        (vec!["--param", "max_nodes=1"], "max_nodes"),
        (vec!["--time", "-1"], "expected a number of seconds"),
        (
            vec!["analyze", "x.sgf", "--time", "-1"],
            "expected a number of seconds",
        ),
    ] {
        assert_refused(&args, words);
        let output = start_up(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !stderr.contains("unexpected argument"),
            "{args:?}: {stderr}"
        );
    }
}

/// Each tool's --help speaks of that tool: `hane analysis --help` showed
/// bench's default seed.
#[test]
fn help_texts_name_their_own_tool() {
    let output = start_up(&["analysis", "--help"]);
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{help}");
    assert!(help.contains("--seed"), "{help}");
    assert!(!help.contains("bench"), "{help}");
    for option in [
        "-config",
        "-model",
        "-override-config",
        "--log-file",
        "--verbose",
    ] {
        assert!(help.contains(option), "{option} in {help}");
    }
}

/// `hane params` is a table: every row's columns start where the header's
/// do (a name one letter over the name column once pushed its row
/// right).
#[test]
fn params_columns_line_up() {
    let output = start_up(&["params"]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    let mut lines = text.lines();
    let header = lines.next().expect("a header");
    let starts = |line: &str| -> Vec<usize> {
        // Where each of the first four columns' words begins: after two
        // spaces or more (a column's gap), and the first at 0.
        let bytes = line.as_bytes();
        let mut at = vec![0];
        for i in 2..bytes.len() {
            if bytes[i - 1] == b' ' && bytes[i - 2] == b' ' && bytes[i] != b' ' {
                at.push(i);
            }
        }
        at
    };
    let columns = starts(header);
    assert_eq!(columns.len(), 5, "{header}");
    let (kind, range) = (columns[1], columns[3]);
    let mut rows = 0;
    for line in lines.take_while(|l| !l.is_empty()) {
        rows += 1;
        let bytes = line.as_bytes();
        assert!(
            bytes[kind - 1] == b' ' && bytes[kind] != b' ',
            "kind column: {line}"
        );
        assert!(
            bytes[range - 1] == b' ' && bytes[range] != b' ',
            "range column: {line}"
        );
    }
    assert!(rows > 20, "{text}");
}

/// --log-file keeps the log (with -v, the information lines) in a file as
/// well as on stderr; stdout still carries GTP alone.
#[test]
fn log_file_and_verbosity() {
    let dir = TempDir::new("log-file");
    let log = dir.path().join("hane.log");
    let log_arg = log.to_string_lossy().into_owned();
    let mut child = spawn_hane(&["-v", "--log-file", &log_arg, "--playouts", "20"]);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"boardsize 9\ngenmove b\nquit\n")
        .expect("write");
    drop(stdin);
    let status = wait_bounded(&mut child, Duration::from_secs(60), "hane -v --log-file");
    assert!(status.success());
    let stderr = stderr_of(&mut child);
    let mut stdout = String::new();
    if let Some(mut out) = child.stdout.take() {
        use std::io::Read;
        let _ = out.read_to_string(&mut stdout);
    }
    assert!(
        stdout.lines().all(|l| l.is_empty() || l.starts_with('=')),
        "{stdout}"
    );
    let logged = std::fs::read_to_string(&log).expect("the log file");
    assert!(logged.contains("genmove black"), "{logged}");
    assert!(stderr.contains("genmove black"), "{stderr}");
    // Without -v, the information lines are not logged.
    let output = start_up(&["--playouts", "5"]);
    assert!(!String::from_utf8_lossy(&output.stderr).contains("INFO"));
}

/// `hane bench` says what it is measuring as it goes (stderr) and ends
/// with a thread count to use, measured, as KataGo's benchmark does;
/// given --threads, the user has chosen and no advice is measured.
#[test]
fn bench_shows_progress_and_recommends_threads() {
    let args = [
        "bench",
        "--sizes",
        "9",
        "--playouts",
        "100",
        "--search-playouts",
        "300",
    ];
    let output = start_up(&args);
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("hane bench: 9x9 light playouts"),
        "{stderr}"
    );
    assert!(
        stderr.contains("hane bench: 9x9 tree search, middle game"),
        "{stderr}"
    );
    let advice = stdout
        .lines()
        .find_map(|l| l.strip_prefix("recommended: --threads "))
        .unwrap_or_else(|| panic!("no advice in {stdout}"));
    let threads: usize = advice
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{advice}"));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert!((1..=cores).contains(&threads), "{advice}");
    assert!(stdout.contains("threads    1: "), "{stdout}");
    // The advice speaks only of thread counts the bench measured.
    let measured: Vec<String> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("threads "))
        .filter_map(|l| l.split(':').next())
        .map(|n| n.trim().to_string())
        .collect();
    let named = regex::Regex::new(r"measured: ([\d, ]+)\)|; (\d+) threads").expect("regex");
    let found = named.captures(advice).unwrap_or_else(|| panic!("{advice}"));
    let counts = found.get(1).or(found.get(2)).expect("a count").as_str();
    for count in counts.split(", ") {
        assert!(
            measured.iter().any(|m| m == count),
            "{count} in {advice}: {measured:?}"
        );
    }
    assert!(!advice.contains("more threads"), "{advice}");
    // The network timed on one thread, and on every core at once where
    // there are several, for the network in use and on each backend.
    for label in ["", ", fp32 backend"] {
        let one = format!("network 9x9{label}: ");
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(&one) && l.contains("ms an evaluation (50 in")),
            "{one} in {stdout}"
        );
        let every = format!("network 9x9{label}, every thread ({cores}): ");
        let line = stdout.lines().find(|l| l.starts_with(&every));
        if cores < 2 {
            assert!(line.is_none(), "{stdout}");
            continue;
        }
        let line = line.unwrap_or_else(|| panic!("{every} in {stdout}"));
        let rate: f64 = line
            .split(" a second in all")
            .next()
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!(rate > 0.0, "{line}");
        assert!(line.contains(&format!("({} in", 50 * cores)), "{line}");
    }

    let mut chosen = args.to_vec();
    chosen.extend(["--threads", "1"]);
    let output = start_up(&chosen);
    assert!(output.status.success());
    assert!(!String::from_utf8_lossy(&output.stdout).contains("recommended"));
}

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
    let (status, stdout, stderr) = run_to_end(
        &["--threads", "1024", "--playouts", "2048"],
        "boardsize 5\n1 genmove b\n",
        Duration::from_secs(60),
    );
    assert!(status.success(), "{status}: {stderr}");
    assert!(stdout.contains("=1 "), "{stdout:?}");
}

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
        let (status, stdout, stderr) = run_to_end(
            &["--time", time, "--threads", "1"],
            "name\n",
            Duration::from_secs(10),
        );
        assert!(status.success(), "--time {time}: {stderr}");
        assert_eq!(stdout, "= hane\n\n");
    }
}

/// A bare `hane` typed at a terminal printed nothing and looked hung;
/// now one line on stderr says it waits for GTP (KataGo prints such a
/// line). Only for a person: with stdin a pipe, as every client starts
/// it, stderr has no such line. The terminal is util-linux's `script`,
/// which runs hane on a pseudo-terminal (the test says so and passes
/// where `script` is missing).
#[test]
fn a_bare_hane_on_a_terminal_says_it_is_ready_for_gtp() {
    let ready = "ready for GTP commands";
    let hane = env!("CARGO_BIN_EXE_hane");
    let typed = Command::new("script")
        .args(["-q", "-e", "-c", hane, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    match typed {
        Err(e) => eprintln!("no pseudo-terminal to test with: `script`: {e}"),
        Ok(mut child) => {
            let mut stdin = child.stdin.take().expect("stdin");
            // script passes the end of its input on as the terminal's
            // end of file only once hane reads; quit ends it anyway.
            stdin.write_all(b"quit\n").expect("write");
            let status = wait_bounded(&mut child, Duration::from_secs(60), "script");
            drop(stdin);
            let mut seen = String::new();
            if let Some(mut out) = child.stdout.take() {
                use std::io::Read;
                let _ = out.read_to_string(&mut seen);
            }
            assert!(status.success(), "{seen}");
            let line = seen.lines().find(|l| l.contains(ready));
            assert!(
                line.is_some_and(|l| l.starts_with("hane ") && l.contains("quit")),
                "{seen:?}"
            );
            assert_eq!(seen.matches(ready).count(), 1, "{seen:?}");
        }
    }
    let (output, _) = run(&[], "name\nquit\n");
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains(ready), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "= hane\n\n= \n\n");
}

/// Each tool's --help lists what that tool reads: `hane params` took
/// --seed, --network and --param in its help and refused them; `hane
/// analysis`'s -config named keys only `hane gtp` reads (and the other
/// way round); `hane bench` said `--threads [default: 1]` beside "without
/// it, measures 1, 2, 4, ...".
#[test]
fn each_tool_s_help_lists_what_it_reads() {
    let help = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_hane"))
            .args(args)
            .arg("--help")
            .output()
            .expect("hane runs");
        assert!(output.status.success(), "{args:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let params = help(&["params"]);
    for option in [
        "--seed",
        "--network",
        "--param",
        "--max-nodes",
        "--max-tree-mb",
    ] {
        assert!(
            !params.contains(&format!("{option} <")),
            "{option} in {params}"
        );
    }
    let (status, _) = refused(&["params", "--seed", "1"]);
    assert_eq!(status, Some(2));
    let analysis = help(&["analysis"]);
    assert!(analysis.contains("numAnalysisThreads"), "{analysis}");
    for key in ["ponderingEnabled", "resignThreshold", "allowResignation"] {
        assert!(!analysis.contains(key), "{key} in {analysis}");
    }
    let gtp = help(&["gtp"]);
    assert!(gtp.contains("ponderingEnabled"), "{gtp}");
    assert!(!gtp.contains("numAnalysisThreads"), "{gtp}");
    assert!(!gtp.contains("reportAnalysisWinratesAs"), "{gtp}");
    let bench = help(&["bench"]);
    // The option's line and its text, up to the next option.
    let threads = &bench[bench.find("--threads <").expect("--threads")..];
    let threads = &threads[..threads.find("\n      --").unwrap_or(threads.len())];
    assert!(threads.contains("Without it"), "{threads}");
    assert!(!threads.contains("[default"), "{threads}");
    // The top-level help keeps the engine's options.
    let top = help(&[]);
    for option in ["--seed", "--network", "--threads", "--resign"] {
        assert!(top.contains(option), "{option}");
    }
}

/// hane with `args` and nothing on stdin: its exit status and stderr.
fn refused(args: &[&str]) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_hane"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("hane runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
