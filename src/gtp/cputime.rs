//! `cputime`: the CPU time the engine process has used, as GNU Go and Fuego
//! answer it. gogui-regress asks for it before and after each test file,
//! gogui-twogtp after each game (its .dat's CPU columns).

/// CPU seconds used by the whole process so far, user and system time
/// together, every thread counted (the search threads, including those
/// already finished). None where the system cannot say.
pub(super) fn process_cpu_seconds() -> Option<f64> {
    cpu_time::ProcessTime::try_now()
        .ok()
        .map(|time| time.as_duration().as_secs_f64())
}
