//! Issue 27, "Reliability III": seven defects a hostile client found, one
//! regression test (or a few) each, through the real binary. Each of these
//! failed on main ef081e2, before the fixes (docs/robustness.md, "Reliability
//! III").

mod common;

use common::{Gtp, TempDir};

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
