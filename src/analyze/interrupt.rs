//! Ctrl-C during a review: the running search stops, and the review so
//! far is written (or nothing, when no position was reviewed yet) instead
//! of the process dying with an empty output file.
//!
//! The handler only raises a flag (an atomic store, safe in a signal
//! handler); the search polls it as its stop signal and the review loop
//! checks it between positions.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// From now on, SIGINT raises the flag instead of ending the process.
#[cfg(unix)]
pub(super) fn catch() {
    extern "C" fn on_interrupt(_: libc::c_int) {
        INTERRUPTED.store(true, Ordering::Relaxed);
    }
    let handler: extern "C" fn(libc::c_int) = on_interrupt;
    // SAFETY: the handler does nothing but an atomic store, which is
    // async-signal-safe; installing it has no other effect.
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
    }
}

/// Elsewhere Ctrl-C ends the process as before.
#[cfg(not(unix))]
pub(super) fn catch() {}

/// The flag, for the search to poll as its stop signal.
pub(super) fn flag() -> &'static AtomicBool {
    &INTERRUPTED
}

pub(super) fn raised() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}
