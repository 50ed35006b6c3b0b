//! The policy network's plane writer: replays game records and writes, for
//! every position before a move, the input planes the engine computes
//! (`knowledge::write_planes`, the same function) and the move played. The
//! training script (scripts/train_policy.py) reads what it writes.
//!
//! ```sh
//! cargo run --release --example write_planes -- --out planes CORPUS/Tom/kifu/*
//! ```
//!
//! Records are SGF files (one game each) or files of one game a line in the
//! form of the Tom corpus of yenw/computer-go-dataset (`ID<TAB>;B[pd];
//! W[dc];...`, 19x19). A game whose moves repeat an earlier game's exactly
//! is skipped, so that no game is both taught and held out. The split is
//! fixed: of the distinct games, in the order read, every
//! `--held-out-every`-th (the first, the N+1-th, ...) is held out (0: none).
//!
//! Written into `--out`, one set per thread t:
//! - `train-t.bin` / `held-t.bin`: per position, the planes bit-packed, plane
//!   after plane, points in `BoardSize::index` order, eight points a byte,
//!   the first point in the lowest bit; each position padded to whole bytes;
//! - `train-t.lbl` / `held-t.lbl`: per position, the move as a little-endian
//!   u16, the point's index or width * height for a pass;
//! - `meta.json`: the board size, planes, bytes per position and counts.

#[path = "../common/tom_lines.rs"]
mod tom_lines;

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use tom_lines::line_game;

use hane::knowledge::{
    play_and_remember, write_planes, PlayoutBoard, RecentMoves, TacticalReader, DEEP_BUDGET,
    PLANES, RECENT_MOVES,
};
use hane::sgf::{self, SgfAction};
use hane::{BoardSize, Color, Move};

struct Options {
    out: String,
    held_out_every: usize,
    threads: usize,
    max_games: usize,
    size: usize,
}

/// One game: its moves, and whether it is held out.
struct Record {
    moves: Vec<(Color, Move)>,
    held_out: bool,
}

fn main() -> ExitCode {
    let mut options = Options {
        out: String::new(),
        held_out_every: 50,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        max_games: usize::MAX,
        size: 19,
    };
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = match arg.as_str() {
            "--out" | "--held-out-every" | "--threads" | "--games" | "--size" => args.next(),
            _ => {
                paths.push(arg);
                continue;
            }
        };
        let Some(value) = value else {
            return usage();
        };
        let number = value.parse::<usize>();
        match (arg.as_str(), number) {
            ("--out", _) => options.out = value,
            ("--held-out-every", Ok(n)) => options.held_out_every = n,
            ("--threads", Ok(n)) => options.threads = n.max(1),
            ("--games", Ok(n)) => options.max_games = n,
            ("--size", Ok(n)) if BoardSize::new(n, n).is_some_and(|s| s.is_playable()) => {
                options.size = n
            }
            _ => return usage(),
        }
    }
    if options.out.is_empty() || paths.is_empty() {
        return usage();
    }
    let records = read_records(&paths, &options);
    let held = records.iter().filter(|r| r.held_out).count();
    eprintln!(
        "{} distinct games of {}x{} ({held} held out)",
        records.len(),
        options.size,
        options.size
    );
    if let Err(e) = std::fs::create_dir_all(&options.out) {
        eprintln!("cannot make {}: {e}", options.out);
        return ExitCode::FAILURE;
    }
    match write_all(&records, &options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("writing planes: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: write_planes --out DIR [--held-out-every N (0: none)] [--threads N] \
         [--games N] [--size N (the records' board, default 19)] FILE..."
    );
    ExitCode::FAILURE
}

/// The distinct games of the files, in the order read, each marked taught
/// or held out. Games of another size, with setup stones, or that do not
/// parse are skipped.
fn read_records(paths: &[String], options: &Options) -> Vec<Record> {
    let mut seen = HashSet::new();
    let mut records = Vec::new();
    for path in paths {
        let text = match std::fs::read(path) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("skipped {path}: {e}");
                continue;
            }
        };
        let games: Vec<Vec<u8>> = if text.first() == Some(&b'(') {
            vec![text]
        } else {
            text.split(|&b| b == b'\n').filter_map(line_game).collect()
        };
        for game in games {
            if records.len() >= options.max_games {
                return records;
            }
            let Some(moves) = moves_of(&game, options.size) else {
                continue;
            };
            if moves.is_empty() || !seen.insert(moves.clone()) {
                continue;
            }
            let held_out =
                options.held_out_every > 0 && records.len() % options.held_out_every == 0;
            records.push(Record { moves, held_out });
        }
    }
    records
}

/// The moves of an SGF game of the given size with no setup stones.
fn moves_of(text: &[u8], size: usize) -> Option<Vec<(Color, Move)>> {
    let record = sgf::parse(text).ok()?;
    if record.size != BoardSize::square(size) {
        return None;
    }
    let mut moves = Vec::new();
    for action in &record.actions {
        match action {
            SgfAction::Setup(_) => return None,
            SgfAction::ToMove(_) => {}
            SgfAction::Play(color, mv) => moves.push((*color, *mv)),
        }
    }
    Some(moves)
}

/// Counts of what one thread wrote.
#[derive(Default)]
struct Counts {
    train: u64,
    held: u64,
    broken: u64,
}

fn write_all(records: &[Record], options: &Options) -> std::io::Result<()> {
    let chunk = records.len().div_ceil(options.threads).max(1);
    let results: Vec<std::io::Result<Counts>> = std::thread::scope(|scope| {
        let handles: Vec<_> = records
            .chunks(chunk)
            .enumerate()
            .map(|(t, part)| scope.spawn(move || write_part(t, part, options)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(std::io::Error::other("a writer thread panicked")))
            })
            .collect()
    });
    let mut total = Counts::default();
    for counts in results {
        let counts = counts?;
        total.train += counts.train;
        total.held += counts.held;
        total.broken += counts.broken;
    }
    let points = options.size * options.size;
    let meta = format!(
        "{{\"size\": {}, \"planes\": {PLANES}, \"bytes_per_position\": {}, \"threads\": {}, \
         \"train\": {}, \"held\": {}, \"games\": {}, \"held_out_every\": {}, \
         \"stopped_at_illegal_move\": {}}}\n",
        options.size,
        (PLANES * points).div_ceil(8),
        records.len().div_ceil(chunk),
        total.train,
        total.held,
        records.len(),
        options.held_out_every,
        total.broken
    );
    std::fs::write(format!("{}/meta.json", options.out), &meta)?;
    eprint!("{meta}");
    Ok(())
}

/// The planes and moves of `records` into the files of thread `t`.
fn write_part(t: usize, records: &[Record], options: &Options) -> std::io::Result<Counts> {
    let file = |name: &str| -> std::io::Result<BufWriter<File>> {
        Ok(BufWriter::with_capacity(
            1 << 20,
            File::create(format!("{}/{name}", options.out))?,
        ))
    };
    let mut train = (
        file(&format!("train-{t}.bin"))?,
        file(&format!("train-{t}.lbl"))?,
    );
    let mut held = (
        file(&format!("held-{t}.bin"))?,
        file(&format!("held-{t}.lbl"))?,
    );
    let size = BoardSize::square(options.size);
    let points = size.points();
    let mut planes = vec![0f32; PLANES * points];
    let mut packed = vec![0u8; (PLANES * points).div_ceil(8)];
    let mut reader = TacticalReader::new(DEEP_BUDGET);
    let mut counts = Counts::default();
    for record in records {
        let (bin, lbl) = if record.held_out {
            (&mut held.0, &mut held.1)
        } else {
            (&mut train.0, &mut train.1)
        };
        let mut board = PlayoutBoard::new(size);
        let mut recent: RecentMoves = [None; RECENT_MOVES];
        for &(color, mv) in &record.moves {
            let point = match mv {
                Move::Pass => None,
                Move::Play(v) => {
                    let p = board.point(v);
                    if board.color_at(p).is_some() || !board.is_playout_legal(p, color) {
                        // A record that breaks the rules (or plays a
                        // suicide) ends here for the planes.
                        counts.broken += 1;
                        break;
                    }
                    Some(p)
                }
            };
            write_planes(&mut board, color, &recent, &mut reader, &mut planes);
            pack(&planes, &mut packed);
            bin.write_all(&packed)?;
            let label = match mv {
                Move::Pass => points,
                Move::Play(v) => size.index(v),
            };
            lbl.write_all(&(label as u16).to_le_bytes())?;
            if record.held_out {
                counts.held += 1;
            } else {
                counts.train += 1;
            }
            play_and_remember(&mut board, color, point, &mut recent);
        }
    }
    for mut w in [train.0, train.1, held.0, held.1] {
        w.flush()?;
    }
    Ok(counts)
}

/// Ones and zeros eight to a byte, the first in the lowest bit.
fn pack(planes: &[f32], packed: &mut [u8]) {
    packed.fill(0);
    for (i, &x) in planes.iter().enumerate() {
        if x > 0.5 {
            packed[i / 8] |= 1 << (i % 8);
        }
    }
}
