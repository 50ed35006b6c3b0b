//! The search run on threads: one a worker, all growing the one tree.

use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

use super::search::Search;
use super::worker::Worker;

/// Runs `search` on one thread per worker until `deadline`, until
/// `playouts_left` runs out or until `stop`: the threads grow the one tree
/// together. A panic in a thread reaches the caller with its own message.
pub fn run_threads(
    search: &Search,
    workers: &mut [Worker],
    deadline: Option<Instant>,
    playouts_left: &AtomicU64,
    stop: &AtomicBool,
) {
    if let Some(first) = workers.first_mut() {
        search.prepare_root(first);
    }
    std::thread::scope(|scope| {
        let threads: Vec<_> = workers
            .iter_mut()
            .map(|worker| scope.spawn(move || search.run(worker, deadline, playouts_left, stop)))
            .collect();
        // Joined here so that a thread's panic reaches the caller with its
        // own message (the scope would replace it with "a scoped thread
        // panicked"). The tree it leaves half-built (a node marked as being
        // expanded for ever) is the caller's to drop: the engine clears the
        // player after a panic.
        for thread in threads {
            if let Err(payload) = thread.join() {
                std::panic::resume_unwind(payload);
            }
        }
    });
}
