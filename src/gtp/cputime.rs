//! `cputime`: the CPU time the engine process has used, as GNU Go and Fuego
//! answer it. gogui-regress asks for it before and after each test file,
//! gogui-twogtp after each game (its .dat's CPU columns).

/// CPU seconds used by the whole process so far, user and system time
/// together, every thread counted (the search threads, including those
/// already finished). None where the system cannot say.
#[cfg(unix)]
pub(super) fn process_cpu_seconds() -> Option<f64> {
    // SAFETY: `rusage` is plain integers, for which all zeroes is a valid
    // value; getrusage only writes into the struct it is handed.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: RUSAGE_SELF with a pointer to a live, writable rusage.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return None;
    }
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Some(seconds(usage.ru_utime) + seconds(usage.ru_stime))
}

#[cfg(not(unix))]
pub(super) fn process_cpu_seconds() -> Option<f64> {
    None
}
