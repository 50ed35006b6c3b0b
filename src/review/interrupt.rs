//! Ctrl-C (SIGINT), SIGTERM (`kill`, `timeout`, a service manager) and
//! SIGHUP (the terminal closed) during a review: the running search stops,
//! and the review so far is written (or nothing, when no position was
//! reviewed yet) instead of the process dying with an empty output file.
//! On Windows, Ctrl-C and SIGTERM (as its C runtime raises them).
//!
//! The handlers only store into atomics (signal-hook's `flag` module, safe
//! in a signal handler); the search polls the flag as its stop signal and
//! the review loop checks it between positions.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};

use signal_hook::consts::{SIGINT, SIGTERM};

static INTERRUPTED: LazyLock<Arc<AtomicBool>> = LazyLock::new(Arc::default);
/// The signal that raised the flag.
static SIGNAL: LazyLock<Arc<AtomicUsize>> = LazyLock::new(Arc::default);

/// The signals caught: those that ask a process to end.
#[cfg(unix)]
const SIGNALS: [i32; 3] = [SIGINT, SIGTERM, signal_hook::consts::SIGHUP];
#[cfg(not(unix))]
const SIGNALS: [i32; 2] = [SIGINT, SIGTERM];

/// From now on, the signals raise the flag instead of ending the process.
/// A signal that cannot be caught keeps its usual effect.
pub(super) fn catch() {
    for signal in SIGNALS {
        let Ok(number) = usize::try_from(signal) else {
            continue;
        };
        let caught = signal_hook::flag::register_usize(signal, Arc::clone(&SIGNAL), number)
            .and_then(|_| signal_hook::flag::register(signal, Arc::clone(&INTERRUPTED)));
        if let Err(e) = caught {
            log::warn!("cannot catch signal {signal}: {e}");
        }
    }
}

/// The flag, for the search to poll as its stop signal.
pub(super) fn flag() -> &'static AtomicBool {
    &INTERRUPTED
}

pub(super) fn raised() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// The signal that stopped the review, once one has.
pub(super) fn signal() -> Option<i32> {
    raised().then(|| i32::try_from(SIGNAL.load(Ordering::Relaxed)).unwrap_or(0))
}
