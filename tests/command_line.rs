//! What the command line accepts and what it refuses before any protocol
//! starts: the bounds on threads and board sizes, and the engine's options
//! given before a subcommand, honoured where the subcommand has the same
//! setting and refused with a message where it has none.

mod common;

use common::start_up;

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
