//! Fits the learned prior to game records and prints the gammas file. The
//! shipped data/prior-gammas.txt is made by (README, "The learned prior"):
//!
//! ```sh
//! cargo run --release --example fit_prior -- --games 6000 --every 2 \
//!     data/selfplay/9x9/*.sgf CORPUS/Tom/kifu/* > data/prior-gammas.txt
//! ```
//!
//! Records are SGF files (one game each) or files of one game a line in
//! the form of the Tom corpus of yenw/computer-go-dataset (`ID<TAB>;B[pd];
//! W[dc];...`, 19x19), read in the order given. The fit's summary
//! (positions, likelihood, how often the played move is the first choice,
//! on taught and held-out games) goes to stderr.

mod fit;

#[path = "../common/tom_lines.rs"]
mod tom_lines;

use std::process::ExitCode;
use tom_lines::line_game;

use fit::{fit_prior, FitOptions};

fn main() -> ExitCode {
    let mut options = FitOptions {
        skip_moves: 4,
        min_shape_count: 30,
        min_pattern_count: 12,
        every: 1,
        held_out_every: 10,
        iterations: 12,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let mut max_line_games = usize::MAX;
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let Some(setting) = setting(&arg) else {
            paths.push(arg);
            continue;
        };
        let Some(n) = args.next().and_then(|v| v.parse::<usize>().ok()) else {
            return usage();
        };
        match setting {
            Setting::SkipMoves => options.skip_moves = n,
            Setting::MinShapeCount => options.min_shape_count = n as u32,
            Setting::MinPatternCount => options.min_pattern_count = n as u32,
            Setting::Every => options.every = n.max(1),
            Setting::HeldOutEvery => options.held_out_every = n.max(2),
            Setting::Iterations => options.iterations = n,
            Setting::Threads => options.threads = n.max(1),
            Setting::Games => max_line_games = n,
        }
    }
    if paths.is_empty() {
        return usage();
    }
    let mut records = Vec::new();
    let mut line_games = 0;
    for path in paths {
        let text = match std::fs::read(&path) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("skipped {path}: {e}");
                continue;
            }
        };
        if text.first() == Some(&b'(') {
            records.push((path, text));
            continue;
        }
        for (n, line) in text.split(|&b| b == b'\n').enumerate() {
            if line_games >= max_line_games {
                break;
            }
            if let Some(sgf) = line_game(line) {
                records.push((format!("{path}:{}", n + 1), sgf));
                line_games += 1;
            }
        }
    }
    eprintln!(
        "{} records read ({line_games} from files of one game a line)",
        records.len()
    );
    let (file, summary) = fit_prior(&records, &options);
    eprint!("{summary}");
    print!("{file}");
    ExitCode::SUCCESS
}

enum Setting {
    SkipMoves,
    MinShapeCount,
    MinPatternCount,
    Every,
    HeldOutEvery,
    Iterations,
    Threads,
    Games,
}

fn setting(arg: &str) -> Option<Setting> {
    Some(match arg {
        "--skip-moves" => Setting::SkipMoves,
        "--min-shape-count" => Setting::MinShapeCount,
        "--min-pattern-count" => Setting::MinPatternCount,
        "--every" => Setting::Every,
        "--held-out-every" => Setting::HeldOutEvery,
        "--iterations" => Setting::Iterations,
        "--threads" => Setting::Threads,
        "--games" => Setting::Games,
        _ => return None,
    })
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: fit_prior [--skip-moves N] [--min-shape-count N] [--min-pattern-count N] \
         [--every N] [--held-out-every N] [--iterations N] [--threads N] \
         [--games N (of the one-game-a-line files)] FILE..."
    );
    ExitCode::FAILURE
}
