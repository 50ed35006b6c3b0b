//! `hane bench`: a tool, not the engine, so its report goes to stdout and
//! its progress (each measure as it starts) to stderr. Without --threads it
//! ends with advice, as KataGo's benchmark does: the middle-game search
//! measured at 1, 2, 4, ... threads up to every core, and the fewest
//! threads within 5% of the fastest recommended.

use std::io::Write;

use std::sync::Arc;

use hane::{bench, SearchParams, SharedEvaluator};

/// What to measure.
pub struct Bench<'a> {
    pub sizes: &'a [usize],
    pub playouts: u64,
    pub search_playouts: u64,
    pub threads: usize,
    pub seed: u64,
    pub params: &'a SearchParams,
    /// The network the searches evaluate with, as the engine's would.
    pub evaluator: Option<Arc<SharedEvaluator>>,
    /// Measure thread counts and recommend one.
    pub advise: bool,
    /// The machine's hardware threads.
    pub cores: usize,
}

/// A thread count gaining less than this share over fewer threads is not
/// worth the cores it takes from the rest of the machine.
const WORTH: f64 = 0.05;

fn progress(what: std::fmt::Arguments) {
    let _ = writeln!(std::io::stderr(), "hane bench: {what}");
}

fn cache_use(b: &Bench) -> Option<hane::CacheUse> {
    Some(b.evaluator.as_ref()?.cache_use())
}

pub fn run(b: &Bench) {
    let mut out = std::io::stdout().lock();
    let evaluator = b.evaluator.as_ref();
    for &size in b.sizes {
        progress(format_args!("{size}x{size} light playouts"));
        let light = bench::light_playouts(size, b.playouts, b.seed);
        let _ = writeln!(
            out,
            "light playouts {size}x{size}: {:.0}/s ({} in {:.2}s), {:.2} moves/playout, black wins {:.4} at komi 7",
            light.per_second(),
            light.playouts,
            light.seconds,
            light.moves_per_playout,
            light.black_win_rate
        );
        for (heavy, label) in [(false, "light"), (true, "policy")] {
            progress(format_args!("{size}x{size} tree search, {label} playouts"));
            let search = bench::tree_search(
                size,
                b.search_playouts,
                b.seed,
                heavy,
                b.params,
                b.threads,
                evaluator,
            );
            line(&mut out, &search, &format!("{label} playouts"));
        }
        progress(format_args!("{size}x{size} tree search, middle game"));
        let before = cache_use(b);
        if let Some(search) = bench::middle_game_search(
            size,
            b.search_playouts,
            b.seed,
            b.params,
            b.threads,
            evaluator,
        ) {
            line(&mut out, &search, "policy playouts, middle game");
        }
        if let (Some(now), Some(before)) = (cache_use(b), before) {
            let used = now.since(before);
            let _ = writeln!(
                out,
                "network cache {size}x{size}, middle game: {} of {} evaluations reused",
                used.hits, used.lookups
            );
        }
        let Some(network) = evaluator else {
            continue;
        };
        progress(format_args!("{size}x{size} network"));
        network_lines(&mut out, size, "", network.backend(), b.cores);
        for backend in hane::backends_here() {
            let Ok(evaluator) = hane::shipped_on(backend) else {
                continue;
            };
            let label = format!(", {} backend", backend.name());
            network_lines(&mut out, size, &label, &*evaluator, b.cores);
        }
    }
    if b.advise {
        advise(&mut out, b);
    }
}

/// The network's time an evaluation on one thread (the line as it always
/// read), then on every core at once, where the machine has more than one:
/// what each search thread then waits, and what they evaluate together.
fn network_lines(
    out: &mut impl Write,
    size: usize,
    label: &str,
    evaluator: &dyn hane::Evaluator,
    cores: usize,
) {
    let net = bench::network_evaluations(size, 50, evaluator, 1);
    let _ = writeln!(
        out,
        "network {size}x{size}{label}: {:.2} ms an evaluation ({} in {:.2}s, one thread)",
        net.milliseconds_each(),
        net.evaluations,
        net.seconds
    );
    if cores < 2 {
        return;
    }
    let net = bench::network_evaluations(size, 50, evaluator, cores);
    let _ = writeln!(
        out,
        "network {size}x{size}{label}, every thread ({cores}): {:.2} ms an evaluation on each, {:.0} a second in all ({} in {:.2}s)",
        net.milliseconds_each(),
        net.per_second(),
        net.evaluations * net.threads as u64,
        net.seconds
    );
}

fn line(out: &mut impl Write, search: &bench::SearchBench, label: &str) {
    let size = search.size;
    // The one-thread line as it always read, for comparisons.
    let threads = match search.threads {
        1 => String::new(),
        n => format!(", {n} threads"),
    };
    let _ = writeln!(
        out,
        "tree search    {size}x{size}, {label}{threads}: {:.0} playouts/s ({} in {:.2}s, {} nodes)",
        search.per_second(),
        search.playouts,
        search.seconds,
        search.tree_nodes
    );
}

/// The thread counts to measure: powers of two, then every core.
fn thread_counts(cores: usize) -> Vec<usize> {
    let mut counts: Vec<usize> = std::iter::successors(Some(1usize), |n| n.checked_mul(2))
        .take_while(|&n| n <= cores)
        .collect();
    if counts.last() != Some(&cores) {
        counts.push(cores);
    }
    counts
}

/// The fewest threads within `WORTH` of the fastest.
fn recommended(rates: &[(usize, f64)]) -> Option<(usize, f64)> {
    let best = rates.iter().map(|&(_, rate)| rate).fold(0.0, f64::max);
    rates
        .iter()
        .copied()
        .find(|&(_, rate)| rate >= best * (1.0 - WORTH))
}

fn advise(out: &mut impl Write, b: &Bench) {
    // The size the engine is most often run on of those measured: the last.
    let Some(&size) = b.sizes.last() else { return };
    let mut rates = Vec::new();
    for threads in thread_counts(b.cores.max(1)) {
        progress(format_args!(
            "{size}x{size} middle game with {threads} thread(s), for the advice"
        ));
        let search = bench::middle_game_search(
            size,
            b.search_playouts,
            b.seed,
            b.params,
            threads,
            b.evaluator.as_ref(),
        )
        .unwrap_or_else(|| {
            bench::tree_search(
                size,
                b.search_playouts,
                b.seed,
                true,
                b.params,
                threads,
                b.evaluator.as_ref(),
            )
        });
        let _ = writeln!(
            out,
            "threads {threads:>4}: {:.0} playouts/s ({size}x{size})",
            search.per_second()
        );
        rates.push((threads, search.per_second()));
    }
    if let Some(line) = advice(&rates, size) {
        let _ = writeln!(out, "{line}");
    }
}

/// The advice from the rates measured at each thread count, speaking only
/// of those: the fewest threads within `WORTH` of the fastest, and what
/// the fastest, when it is another count, gains over it.
fn advice(rates: &[(usize, f64)], size: usize) -> Option<String> {
    let (threads, rate) = recommended(rates)?;
    let (fastest, top) = rates.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1))?;
    let measured: Vec<String> = rates.iter().map(|(n, _)| n.to_string()).collect();
    let measured = measured.join(", ");
    Some(if fastest == threads {
        format!(
            "recommended: --threads {threads} ({rate:.0} playouts/s on {size}x{size}, the fastest \
of the thread counts measured: {measured})"
        )
    } else {
        format!(
            "recommended: --threads {threads} ({rate:.0} playouts/s on {size}x{size}; {fastest} \
threads, the fastest measured, gain {:.1}% over it, under {:.0}%, for cores taken from the rest \
of the machine)",
            100.0 * (top / rate - 1.0),
            WORTH * 100.0
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_double_up_to_every_core() {
        assert_eq!(thread_counts(1), [1]);
        assert_eq!(thread_counts(6), [1, 2, 4, 6]);
        assert_eq!(thread_counts(8), [1, 2, 4, 8]);
    }

    #[test]
    fn the_advice_names_only_thread_counts_it_measured() {
        // On 2 cores it once said "more threads gain under 5% here" of
        // counts it never ran.
        assert_eq!(
            advice(&[(1, 8833.0), (2, 11081.0)], 9).as_deref(),
            Some(
                "recommended: --threads 2 (11081 playouts/s on 9x9, the fastest of the thread \
counts measured: 1, 2)"
            )
        );
        assert_eq!(
            advice(&[(1, 10_000.0), (2, 19_000.0), (4, 19_500.0)], 19).as_deref(),
            Some(
                "recommended: --threads 2 (19000 playouts/s on 19x19; 4 threads, the fastest \
measured, gain 2.6% over it, under 5%, for cores taken from the rest of the machine)"
            )
        );
    }

    #[test]
    fn the_fewest_threads_near_the_fastest_are_recommended() {
        let rates = [(1, 10_000.0), (2, 19_000.0), (4, 30_000.0), (8, 31_000.0)];
        assert_eq!(recommended(&rates), Some((4, 30_000.0)));
        assert_eq!(recommended(&[(1, 5.0), (2, 4.0)]), Some((1, 5.0)));
    }
}
