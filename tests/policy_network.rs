//! The policy network as a client sees it: the priors that `kata-analyze`
//! reports at the root are the network's, and the heuristics' where it is
//! turned off.

mod common;

use common::Gtp;

/// The (move, prior) pairs of the first info line of `kata-analyze` on the
/// empty board of `size`, every legal move listed (`minmoves`).
fn root_priors(args: &[&str], size: usize) -> Vec<(String, f64)> {
    let mut gtp = Gtp::start_with(args);
    gtp.ok(&format!("boardsize {size}"));
    gtp.write_raw(b"kata-analyze b 1 minmoves 700\n");
    assert_eq!(gtp.read_line(), "= ");
    let line = gtp.read_line();
    gtp.write_raw(b"name\n");
    while !gtp.read_line().is_empty() {}
    assert_eq!(gtp.read_response(), "= hane");
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut priors = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if *w == "move" {
            let prior = words[i..]
                .iter()
                .position(|&k| k == "prior")
                .map(|j| words[i + j + 1].parse::<f64>().expect("a prior"))
                .expect("every move has a prior");
            priors.push((words[i + 1].to_string(), prior));
        }
    }
    priors
}

/// The line of a vertex (1 for the edge) on a square board of `size`.
fn line_of(vertex: &str, size: usize) -> usize {
    let col = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
        .find(&vertex[..1])
        .expect("a column");
    let row: usize = vertex[1..].parse().expect("a row");
    1 + col.min(size - 1 - col).min(row - 1).min(size - row)
}

#[test]
fn the_root_priors_are_the_network_s_on_19x19() {
    let priors = root_priors(&["--threads", "1", "--seed", "1"], 19);
    assert!(priors.len() >= 361, "every point: {}", priors.len());
    let total: f64 = priors.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 0.01, "{total}");
    let (best, p) = priors
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .expect("priors");
    // Strong players open on the third or fourth line, nearly always
    // in a corner: the network puts most of its weight there.
    assert!((3..=4).contains(&line_of(best, 19)), "{best} {p}");
    assert!(*p > 0.1, "{best} {p}");
    let edge: f64 = priors
        .iter()
        .filter(|(v, _)| v != "pass" && line_of(v, 19) <= 2)
        .map(|(_, p)| p)
        .sum();
    assert!(edge < 0.01, "the first two lines: {edge}");
}

#[test]
fn without_the_network_the_priors_are_the_heuristics() {
    let args = [
        "--threads",
        "1",
        "--seed",
        "1",
        "--param",
        "prior_network=0",
    ];
    let priors = root_priors(&args, 19);
    let best = priors.iter().map(|(_, p)| *p).fold(0.0, f64::max);
    assert!(best < 0.05, "a flat prior: {best}");
}
