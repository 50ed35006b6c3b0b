//! Ctrl-C (SIGINT), SIGTERM (`kill`, `timeout`, a service manager) and
//! SIGHUP (the terminal closed) during a review: the running search stops,
//! and the review so far is written (or nothing, when no position was
//! reviewed yet) instead of the process dying with an empty output file.
//!
//! The handler only records the signal (an atomic store, safe in a signal
//! handler); the search polls the flag as its stop signal and the review
//! loop checks it between positions.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// The signal that raised the flag.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// From now on, SIGINT, SIGTERM and SIGHUP raise the flag instead of
/// ending the process.
#[cfg(unix)]
pub(super) fn catch() {
    extern "C" fn on_signal(signal: libc::c_int) {
        SIGNAL.store(signal, Ordering::Relaxed);
        INTERRUPTED.store(true, Ordering::Relaxed);
    }
    let handler: extern "C" fn(libc::c_int) = on_signal;
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: the handler does nothing but atomic stores, which are
        // async-signal-safe; installing it has no other effect.
        unsafe {
            libc::signal(signal, handler as libc::sighandler_t);
        }
    }
}

/// Elsewhere the signals end the process as before.
#[cfg(not(unix))]
pub(super) fn catch() {}

/// The flag, for the search to poll as its stop signal.
pub(super) fn flag() -> &'static AtomicBool {
    &INTERRUPTED
}

pub(super) fn raised() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// The signal that stopped the review, once one has.
pub(super) fn signal() -> Option<i32> {
    raised().then(|| SIGNAL.load(Ordering::Relaxed))
}
