//! Fits the learned prior to game records and prints the gammas file:
//!
//! ```sh
//! cargo run --release --example fit_prior -- --skip-moves 4 --min-shape-count 30 --iterations 10 \
//!     data/selfplay/9x9/*.sgf data/selfplay/19x19/*.sgf > data/prior-gammas.txt
//! ```
//!
//! The fit's summary (positions, likelihood, how often the played move is
//! the first choice, on taught and held-out games) goes to stderr.

use std::process::ExitCode;

mod fit;

use fit::{fit_prior, FitOptions};

fn main() -> ExitCode {
    let mut options = FitOptions {
        skip_moves: 4,
        min_shape_count: 30,
        iterations: 10,
    };
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let number = |value: Option<String>| value.and_then(|v| v.parse::<usize>().ok());
        match arg.as_str() {
            "--skip-moves" => match number(args.next()) {
                Some(n) => options.skip_moves = n,
                None => return usage(),
            },
            "--min-shape-count" => match number(args.next()) {
                Some(n) => options.min_shape_count = n as u32,
                None => return usage(),
            },
            "--iterations" => match number(args.next()) {
                Some(n) => options.iterations = n,
                None => return usage(),
            },
            _ => paths.push(arg),
        }
    }
    if paths.is_empty() {
        return usage();
    }
    let mut records = Vec::new();
    for path in paths {
        match std::fs::read(&path) {
            Ok(text) => records.push((path, text)),
            Err(e) => eprintln!("skipped {path}: {e}"),
        }
    }
    let (file, summary) = fit_prior(&records, &options);
    eprint!("{summary}");
    print!("{file}");
    ExitCode::SUCCESS
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: fit_prior [--skip-moves N] [--min-shape-count N] [--iterations N] FILE.sgf..."
    );
    ExitCode::FAILURE
}
