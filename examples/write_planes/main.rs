//! The network's plane writer: replays game records and writes, for every
//! position before a move, the input planes the engine computes
//! (`knowledge::write_planes`, the same function), the move played and
//! whether the side to move went on to win. The training
//! (scripts/hane_train, its planes.py) reads what it writes.
//!
//! ```sh
//! cargo run --release --example write_planes -- --out planes \
//!     --results CORPUS/Tom/Kifu.index CORPUS/Tom/kifu/*
//! ```
//!
//! Records are SGF files (one game each) or files of one game a line in the
//! form of the Tom corpus of yenw/computer-go-dataset (`ID<TAB>;B[pd];
//! W[dc];...`, 19x19). A game whose moves repeat an earlier game's exactly
//! is skipped, so that no game is both taught and held out. The split is
//! fixed: of the distinct games, in the order read, every
//! `--held-out-every`-th (the first, the N+1-th, ...) is held out (0: none).
//!
//! A file may also be a slice of the compact game format of
//! scripts/pack_corpus.py (it starts `HANEGAMES1`; xz-decompressed first):
//! per game its moves, result, komi and held-out flag. Its games are split
//! by their flags (the packer applied the rule above over the whole corpus,
//! Tom then TYGEM) and `--held-out-every` is not applied to them; their
//! results and komi are their own, `--results` is not needed.
//!
//! A game's result is its SGF RE property or, for a Tom line, the sixth
//! column of the line of `--results` (the corpus's Kifu.index: `ID<TAB>date
//! <TAB>white<TAB>black<TAB>komi<TAB>B+Resign<TAB>...`) whose first column
//! is the line's ID: the Tom lines carry no result themselves. Only
//! `B+...`/`W+...` name a winner; anything else (a draw, `?`, no result)
//! is unknown. Neither the result nor `--per-game` changes which games are
//! read or how they are split.
//!
//! `--per-game K` writes only K positions of each game (0, the default:
//! all), one drawn in each of K equal stretches of the game (a fixed hash
//! of the game's number and the stretch, so reruns write the same): the
//! value's training set, where the positions of one game are too alike
//! for more than a few to teach anything but that game's result.
//! `--held-per-game K` sets it apart for the held-out games, where more
//! positions a game make the measure by phase finer.
//!
//! Written into `--out`, one set per thread t:
//! - `train-t.bin` / `held-t.bin`: per position, the planes bit-packed, plane
//!   after plane, points in `BoardSize::index` order, eight points a byte,
//!   the first point in the lowest bit; each position padded to whole bytes;
//! - `train-t.lbl` / `held-t.lbl`: per position, the move as a little-endian
//!   u16, the point's index or width * height for a pass;
//! - `train-t.rep` / `held-t.rep`: per position, the opponent's reply to
//!   the move played (the move after it) as `.lbl` writes a move, 65535
//!   where the game ended with the move: the target of the training's
//!   auxiliary reply policy (scripts/hane_train/model.py);
//! - `train-t.val` / `held-t.val`: per position, one byte: 1 if the side to
//!   move won the game, 0 if it lost, 255 if the result is unknown;
//! - `train-t.num` / `held-t.num`: per position, its move number in the game
//!   (0 before the first move) as a little-endian u16, for measures by phase;
//! - `train-t.komi` / `held-t.komi`: per position, the game's komi in half
//!   points for the side to move as a signed byte (13: White to move at
//!   6.5; -13: Black to move), -128 where unknown: an SGF's KM, a Tom
//!   line's index column, a slice's own. The network's komi plane is made
//!   from it (scripts/hane_train/planes.py, src/player/network/planes.rs);
//! - `train-t.mar` / `held-t.mar`: per position, the game's final margin
//!   for the side to move in half points, a little-endian i16: its area
//!   less the opponent's, komi not counted (so that a value can be taught
//!   at a komi the game was not played with), -32768 where unknown. From a
//!   counted result and the komi (`B+3.5` at 6.5: 20 for Black, -20 for
//!   White), else from the final ownership (`--ownership`: the sum of
//!   Black's shares) where that names the winner the result names;
//! - `train-t.own` / `held-t.own`, with `--ownership FILE` only: per
//!   position, one signed byte a point (`BoardSize::index` order): who owns
//!   the point at the game's end, for the side to move, in hundredths (-100
//!   the opponent, 100 the side to move); every byte -128 where the game
//!   has no line in FILE. FILE is scripts/final_ownership.py's: per game its
//!   ID (a Tom game's, or `tygem-ID` for a TYGEM game of a slice), a tab and
//!   361 hundredths for Black in KataGo's order (row 19 first); or the same
//!   games packed by scripts/pack_ownership.py for a device call
//!   (`HANEOWN1`: per game the ID's length in a byte, the ID, and one signed
//!   byte a point in the same order). SGF records have no ID, so no
//!   ownership;
//! - `meta.json`: the board size, planes, bytes per position and counts
//!   (`value_known`: the positions whose value byte is 0 or 1;
//!   `ownership_known`: those whose ownership is given).

#[path = "../common/tom_lines.rs"]
mod tom_lines;

use std::collections::{HashMap, HashSet};
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

/// The value byte of a position whose game's result is unknown.
const VALUE_UNKNOWN: u8 = 255;

/// The ownership byte of every point of a position whose game's final
/// ownership is unknown.
const OWNERSHIP_UNKNOWN: i8 = i8::MIN;

/// Final ownership by game ID: per point in `BoardSize::index` order,
/// Black's share in hundredths.
type OwnershipById = HashMap<Vec<u8>, Vec<i8>>;

struct Options {
    out: String,
    held_out_every: usize,
    threads: usize,
    max_games: usize,
    /// The distinct games before this one are counted (for the held-out
    /// rule) and not written: a later stretch of a slice's games.
    first_game: usize,
    size: usize,
    results: Option<String>,
    ownership: Option<String>,
    per_game: usize,
    held_per_game: Option<usize>,
}

/// The komi byte of a position whose game's komi is unknown.
const KOMI_UNKNOWN: i8 = i8::MIN;

/// The margin of a position whose game's final margin is unknown.
const MARGIN_UNKNOWN: i16 = i16::MIN;

/// The reply of a position whose move ended the game.
const NO_REPLY: u16 = u16::MAX;

/// The first bytes of a slice of scripts/pack_corpus.py's game format.
const COMPACT_MAGIC: &[u8] = b"HANEGAMES1\n";

/// The first bytes of scripts/pack_ownership.py's ownership format.
const COMPACT_OWNERSHIP_MAGIC: &[u8] = b"HANEOWN1\n";

/// One game: its moves, whether it is held out, and its winner if known.
struct Record {
    moves: Moves,
    held_out: bool,
    winner: Option<Color>,
    /// The komi in half points, or KOMI_UNKNOWN.
    komi: i8,
    /// Black's final ownership, in hundredths, where known.
    ownership: Option<Vec<i8>>,
    /// Black's final area margin in half points (komi not counted), or
    /// MARGIN_UNKNOWN.
    margin: i16,
}

fn main() -> ExitCode {
    let mut options = Options {
        out: String::new(),
        held_out_every: 50,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        max_games: usize::MAX,
        first_game: 0,
        size: 19,
        results: None,
        ownership: None,
        per_game: 0,
        held_per_game: None,
    };
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = match arg.as_str() {
            "--out" | "--held-out-every" | "--threads" | "--games" | "--first-game" | "--size"
            | "--results" | "--ownership" | "--per-game" | "--held-per-game" => args.next(),
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
            ("--results", _) => options.results = Some(value),
            ("--ownership", _) => options.ownership = Some(value),
            ("--held-out-every", Ok(n)) => options.held_out_every = n,
            ("--threads", Ok(n)) => options.threads = n.max(1),
            ("--games", Ok(n)) => options.max_games = n,
            ("--first-game", Ok(n)) => options.first_game = n,
            ("--per-game", Ok(n)) => options.per_game = n,
            ("--held-per-game", Ok(n)) => options.held_per_game = Some(n),
            ("--size", Ok(n)) if BoardSize::new(n, n).is_some_and(|s| s.is_playable()) => {
                options.size = n
            }
            _ => return usage(),
        }
    }
    if options.out.is_empty() || paths.is_empty() {
        return usage();
    }
    let results = match &options.results {
        None => HashMap::new(),
        Some(path) => match std::fs::read(path) {
            Ok(text) => read_results(&text),
            Err(e) => {
                eprintln!("cannot read {path}: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let ownership = match &options.ownership {
        None => HashMap::new(),
        Some(path) => match std::fs::read(path) {
            Ok(text) => read_ownership(&text, options.size),
            Err(e) => {
                eprintln!("cannot read {path}: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let records = read_records(&paths, &results, &ownership, &options);
    let held = records.iter().filter(|r| r.held_out).count();
    let known = records.iter().filter(|r| r.winner.is_some()).count();
    eprintln!(
        "{} distinct games of {}x{} ({held} held out, {known} with a winner)",
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
         [--games N] [--first-game N (the distinct games before it skipped)] [--size N (the records' board, default 19)] \
         [--results KIFU_INDEX (the Tom lines' results)] \
         [--ownership FILE (the Tom lines' final ownership)] [--per-game K (0: all)] \
         [--held-per-game K (default: --per-game)] FILE..."
    );
    ExitCode::FAILURE
}

/// A game's result text and komi as an index gives them.
#[derive(Clone, Debug, PartialEq)]
struct Indexed {
    result: Vec<u8>,
    komi: Option<f64>,
}

/// The results of a Tom index, by game ID: the first column and the sixth,
/// and the fifth, the komi.
fn read_results(text: &[u8]) -> HashMap<Vec<u8>, Indexed> {
    text.split(|&b| b == b'\n')
        .filter_map(|line| {
            let mut columns = line.split(|&b| b == b'\t');
            let id = columns.next()?;
            let komi = columns
                .nth(3)
                .and_then(|k| std::str::from_utf8(k).ok())
                .and_then(|k| k.trim().parse::<f64>().ok());
            let result = columns.next()?;
            Some((
                id.to_vec(),
                Indexed {
                    result: result.trim_ascii().to_vec(),
                    komi,
                },
            ))
        })
        .collect()
}

/// A komi in half points as the komi byte, or KOMI_UNKNOWN.
fn komi_byte(komi: Option<f64>) -> i8 {
    match komi {
        Some(k) if k.is_finite() && (k * 2.0).abs() < 127.5 => (k * 2.0).round() as i8,
        _ => KOMI_UNKNOWN,
    }
}

/// The komi byte for `to_move`: the komi is White's, so Black's is its
/// negative.
fn komi_for(komi: i8, to_move: Color) -> i8 {
    match (komi, to_move) {
        (KOMI_UNKNOWN, _) | (_, Color::White) => komi,
        (_, Color::Black) => -komi,
    }
}

/// One game of a compact slice: the SGF of its moves, its result and komi
/// as an index would give them, its held-out flag and the ID its final
/// ownership is found by: a Tom game's own, `tygem-ID` for TYGEM's (the two
/// indexes number their games apart).
struct CompactGame {
    sgf: Vec<u8>,
    indexed: Indexed,
    held_out: bool,
    ownership_id: Option<Vec<u8>>,
}

/// The games of a slice of scripts/pack_corpus.py's format (its docstring
/// gives the layout), or None where the bytes end inside a game.
fn compact_games(data: &[u8]) -> Option<Vec<CompactGame>> {
    let mut rest = data.strip_prefix(COMPACT_MAGIC)?;
    let mut games = Vec::new();
    while !rest.is_empty() {
        let header = rest.get(..12)?;
        let flags = header[0];
        let id = u32::from_le_bytes(header[1..5].try_into().ok()?);
        let komi = header[5] as i8;
        let (winner, how) = (header[6], header[7]);
        let margin = u16::from_le_bytes([header[8], header[9]]);
        let n = u16::from_le_bytes([header[10], header[11]]) as usize;
        let moves = rest.get(12..12 + 2 * n)?;
        rest = &rest[12 + 2 * n..];
        let mut sgf = b"(;SZ[19]".to_vec();
        for (i, pair) in moves.chunks(2).enumerate() {
            sgf.extend_from_slice(if i % 2 == 0 { b";B[" } else { b";W[" });
            if pair[0] < 19 && pair[1] < 19 {
                sgf.extend_from_slice(&[b'a' + pair[0], b'a' + pair[1]]);
            }
            sgf.push(b']');
        }
        sgf.push(b')');
        let side = match winner {
            1 => "B+",
            2 => "W+",
            3 => "0",
            _ => "?",
        };
        let result = match how {
            0 if winner == 1 || winner == 2 => format!("{side}{}", margin as f64 / 2.0),
            1 => format!("{side}Resign"),
            2 => format!("{side}Time"),
            _ => side.to_string(),
        };
        let komi = (komi != KOMI_UNKNOWN).then_some(komi as f64 / 2.0);
        games.push(CompactGame {
            sgf,
            indexed: Indexed {
                result: result.into_bytes(),
                komi,
            },
            held_out: flags & 1 == 1,
            ownership_id: match flags >> 1 {
                0 => Some(id.to_string().into_bytes()),
                1 => Some(format!("tygem-{id}").into_bytes()),
                _ => None,
            },
        });
    }
    Some(games)
}

/// The final ownership of scripts/final_ownership.py's lines, or of
/// scripts/pack_ownership.py's packed games, by game ID, turned into
/// `BoardSize::index` order. A game with another count of points, or a
/// number out of -100..=100, is left out; packed bytes that end inside a
/// game end the reading there.
fn read_ownership(data: &[u8], size: usize) -> OwnershipById {
    let games: Vec<(&[u8], Vec<i8>)> = match data.strip_prefix(COMPACT_OWNERSHIP_MAGIC) {
        Some(packed) => packed_ownership(packed, size * size),
        None => data
            .split(|&b| b == b'\n')
            .filter_map(|line| {
                let tab = line.iter().position(|&b| b == b'\t')?;
                let numbers = std::str::from_utf8(&line[tab + 1..])
                    .ok()?
                    .split_ascii_whitespace()
                    .map(|n| n.parse::<i8>().ok())
                    .collect::<Option<_>>()?;
                Some((&line[..tab], numbers))
            })
            .collect(),
    };
    let board = BoardSize::square(size);
    games
        .into_iter()
        .filter(|(_, numbers)| {
            numbers.len() == board.points() && numbers.iter().all(|n| (-100..=100).contains(n))
        })
        .map(|(id, numbers)| {
            // KataGo's order: the top row (row `size`) first.
            let mut ownership = vec![0i8; board.points()];
            for (k, &n) in numbers.iter().enumerate() {
                let vertex = hane::Vertex::new(k % size, size - 1 - k / size);
                ownership[board.index(vertex)] = n;
            }
            (id.to_vec(), ownership)
        })
        .collect()
}

/// The games of packed ownership (after its magic): per game the ID's
/// length, the ID and `points` signed bytes.
fn packed_ownership(mut rest: &[u8], points: usize) -> Vec<(&[u8], Vec<i8>)> {
    let mut games = Vec::new();
    while let Some((&length, after)) = rest.split_first() {
        let Some(game) = after.get(..length as usize + points) else {
            break;
        };
        let (id, numbers) = game.split_at(length as usize);
        games.push((id, numbers.iter().map(|&b| b as i8).collect()));
        rest = &after[length as usize + points..];
    }
    games
}

/// Black's final area margin in half points, komi not counted (a
/// record's `margin`): from a counted result (`B+3.5`, `W+0.5`) and the
/// komi (`komi`, a komi byte), else from Black's final ownership where the
/// count it makes, less the komi, names the winner `result` names (a
/// resigned game's final position, read by final_ownership.py).
fn final_margin(result: &[u8], komi: i8, ownership: Option<&[i8]>) -> i16 {
    let winner = winner(result);
    if komi == KOMI_UNKNOWN {
        return MARGIN_UNKNOWN;
    }
    let counted = std::str::from_utf8(result.get(2..).unwrap_or_default())
        .ok()
        .and_then(|m| m.trim().parse::<f64>().ok())
        .filter(|m| m.is_finite() && m.abs() <= 1000.0);
    let black_margin = match (winner, counted) {
        (Some(Color::Black), Some(m)) => (2.0 * m).round() as i32 + komi as i32,
        (Some(Color::White), Some(m)) => komi as i32 - (2.0 * m).round() as i32,
        (Some(winner), None) => {
            let Some(black) = ownership else {
                return MARGIN_UNKNOWN;
            };
            let hundredths: i32 = black.iter().map(|&n| n as i32).sum();
            let area = (hundredths as f64 / 50.0).round() as i32;
            if area == komi as i32 || (area > komi as i32) != (winner == Color::Black) {
                return MARGIN_UNKNOWN;
            }
            area
        }
        (None, _) => return MARGIN_UNKNOWN,
    };
    i16::try_from(black_margin).unwrap_or(MARGIN_UNKNOWN)
}

/// Whether Black's final ownership `black` (hundredths, read by
/// final_ownership.py from the game's last position) names the winner
/// that the recorded result names, at the game's komi: the count it makes
/// less the komi on the winner's side. A reading of the end that
/// disagrees with the result, or a game without a winner or a komi to
/// check it against, teaches no ownership (a wrong target is worse than
/// none).
fn ownership_agrees(result: &[u8], komi: i8, black: &[i8]) -> bool {
    let Some(winner) = winner(result) else {
        return false;
    };
    if komi == KOMI_UNKNOWN {
        return false;
    }
    let hundredths: i32 = black.iter().map(|&n| n as i32).sum();
    // Black's area margin in half points against the komi in half points.
    let area = (hundredths as f64 / 50.0).round() as i32;
    area != komi as i32 && (area > komi as i32) == (winner == Color::Black)
}

/// The margin for `to_move` of Black's `margin`.
fn margin_for(margin: i16, to_move: Color) -> i16 {
    match (margin, to_move) {
        (MARGIN_UNKNOWN, _) | (_, Color::Black) => margin,
        (_, Color::White) => -margin,
    }
}

/// The winner a result names (`B+Resign`, `W+0.5`, ...), or None for a
/// draw or anything unreadable.
fn winner(result: &[u8]) -> Option<Color> {
    match result {
        [b'B' | b'b', b'+', ..] => Some(Color::Black),
        [b'W' | b'w', b'+', ..] => Some(Color::White),
        _ => None,
    }
}

/// The ID of a Tom line, the text before its tab.
fn line_id(line: &[u8]) -> Option<&[u8]> {
    line.iter()
        .position(|&b| b == b'\t')
        .map(|tab| &line[..tab])
}

/// The distinct games of the files, in the order read, each marked taught
/// or held out. Games of another size, with setup stones, or that do not
/// parse are skipped.
fn read_records(
    paths: &[String],
    results: &HashMap<Vec<u8>, Indexed>,
    ownership: &OwnershipById,
    options: &Options,
) -> Vec<Record> {
    let mut seen = HashSet::new();
    let mut records = Vec::new();
    // Distinct games met so far, those before `first_game` included.
    let mut counted = 0;
    for path in paths {
        let text = match std::fs::read(path) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("skipped {path}: {e}");
                continue;
            }
        };
        // Each game with the result and the ownership its line's ID has,
        // and its held-out flag where the file gives it.
        type Entry<'a> = (Vec<u8>, Option<Indexed>, Option<&'a Vec<i8>>, Option<bool>);
        let games: Vec<Entry> = if text.starts_with(COMPACT_MAGIC) {
            let Some(games) = compact_games(&text) else {
                eprintln!("skipped {path}: a slice cut short");
                continue;
            };
            games
                .into_iter()
                .map(|g| {
                    let owner = g.ownership_id.as_ref().and_then(|id| ownership.get(id));
                    (g.sgf, Some(g.indexed), owner, Some(g.held_out))
                })
                .collect()
        } else if text.first() == Some(&b'(') {
            vec![(text, None, None, None)]
        } else {
            text.split(|&b| b == b'\n')
                .filter_map(|line| {
                    let id = line_id(line);
                    let result = id.and_then(|id| results.get(id)).cloned();
                    let owner = id.and_then(|id| ownership.get(id));
                    line_game(line).map(|game| (game, result, owner, None))
                })
                .collect()
        };
        for (game, indexed, owner, flagged) in games {
            if records.len() >= options.max_games {
                return records;
            }
            let Some((moves, result, komi)) = moves_of(&game, options.size) else {
                continue;
            };
            if moves.is_empty() || !seen.insert(moves.clone()) {
                continue;
            }
            let index = counted;
            counted += 1;
            if index < options.first_game {
                continue;
            }
            let held_out = flagged
                .unwrap_or(options.held_out_every > 0 && index % options.held_out_every == 0);
            let (result, komi) = match indexed {
                Some(r) => (r.result, r.komi),
                None => (result.unwrap_or_default().trim().as_bytes().to_vec(), komi),
            };
            let komi = komi_byte(komi);
            let owner = owner.filter(|o| ownership_agrees(&result, komi, o));
            records.push(Record {
                moves,
                held_out,
                winner: winner(&result),
                komi,
                ownership: owner.cloned(),
                margin: final_margin(&result, komi, owner.map(|o| o.as_slice())),
            });
        }
    }
    records
}

/// A game's moves in order.
type Moves = Vec<(Color, Move)>;

/// The moves of an SGF game of the given size with no setup stones, its
/// RE and its KM.
fn moves_of(text: &[u8], size: usize) -> Option<(Moves, Option<String>, Option<f64>)> {
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
    Some((moves, record.result, record.komi))
}

/// Counts of what one thread wrote.
#[derive(Default)]
struct Counts {
    train: u64,
    held: u64,
    broken: u64,
    value_known: u64,
    ownership_known: u64,
    komi_known: u64,
    margin_known: u64,
}

fn write_all(records: &[Record], options: &Options) -> std::io::Result<()> {
    let chunk = records.len().div_ceil(options.threads).max(1);
    let results: Vec<std::io::Result<Counts>> = std::thread::scope(|scope| {
        let handles: Vec<_> = records
            .chunks(chunk)
            .enumerate()
            .map(|(t, part)| scope.spawn(move || write_part(t, t * chunk, part, options)))
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
        total.value_known += counts.value_known;
        total.ownership_known += counts.ownership_known;
        total.komi_known += counts.komi_known;
        total.margin_known += counts.margin_known;
    }
    let points = options.size * options.size;
    let meta = format!(
        "{{\"size\": {}, \"planes\": {PLANES}, \"bytes_per_position\": {}, \"threads\": {}, \
         \"train\": {}, \"held\": {}, \"games\": {}, \"held_out_every\": {}, \
         \"stopped_at_illegal_move\": {}, \"per_game\": {}, \"held_per_game\": {}, \
         \"games_with_winner\": {}, \"value_known\": {}, \"value_unknown_byte\": {VALUE_UNKNOWN}, \
         \"ownership\": {}, \"ownership_known\": {}, \"komi_known\": {}, \
         \"komi_unknown_byte\": {KOMI_UNKNOWN}, \"margin_known\": {}, \
         \"margin_unknown\": {MARGIN_UNKNOWN}}}\n",
        options.size,
        (PLANES * points).div_ceil(8),
        records.len().div_ceil(chunk),
        total.train,
        total.held,
        records.len(),
        options.held_out_every,
        total.broken,
        options.per_game,
        options.held_per_game.unwrap_or(options.per_game),
        records.iter().filter(|r| r.winner.is_some()).count(),
        total.value_known,
        options.ownership.is_some(),
        total.ownership_known,
        total.komi_known,
        total.margin_known
    );
    std::fs::write(format!("{}/meta.json", options.out), &meta)?;
    eprint!("{meta}");
    Ok(())
}

/// The files of one split of one thread: seven, and the ownership's with
/// `--ownership`.
struct Sinks<W: Write> {
    bin: W,
    lbl: W,
    rep: W,
    val: W,
    num: W,
    komi: W,
    mar: W,
    own: Option<W>,
}

impl<W: Write> Sinks<W> {
    fn flush(&mut self) -> std::io::Result<()> {
        for w in [
            &mut self.bin,
            &mut self.lbl,
            &mut self.rep,
            &mut self.val,
            &mut self.num,
            &mut self.komi,
            &mut self.mar,
        ] {
            w.flush()?;
        }
        if let Some(own) = &mut self.own {
            own.flush()?;
        }
        Ok(())
    }
}

/// The planes, moves and values of `records` (the first numbered `first`
/// among all games) into the files of thread `t`.
fn write_part(
    t: usize,
    first: usize,
    records: &[Record],
    options: &Options,
) -> std::io::Result<Counts> {
    let sinks = |split: &str| -> std::io::Result<Sinks<BufWriter<File>>> {
        let file = |ext: &str| -> std::io::Result<BufWriter<File>> {
            Ok(BufWriter::with_capacity(
                1 << 20,
                File::create(format!("{}/{split}-{t}.{ext}", options.out))?,
            ))
        };
        Ok(Sinks {
            bin: file("bin")?,
            lbl: file("lbl")?,
            rep: file("rep")?,
            val: file("val")?,
            num: file("num")?,
            komi: file("komi")?,
            mar: file("mar")?,
            own: match options.ownership {
                Some(_) => Some(file("own")?),
                None => None,
            },
        })
    };
    let mut train = sinks("train")?;
    let mut held = sinks("held")?;
    let size = BoardSize::square(options.size);
    let mut writer = GameWriter::new(size);
    let mut counts = Counts::default();
    for (i, record) in records.iter().enumerate() {
        let out = if record.held_out {
            &mut held
        } else {
            &mut train
        };
        let per_game = match options.held_per_game {
            Some(k) if record.held_out => k,
            _ => options.per_game,
        };
        let chosen = chosen_positions(first + i, record.moves.len(), per_game);
        writer.write_game(record, chosen.as_deref(), out, &mut counts)?;
    }
    train.flush()?;
    held.flush()?;
    Ok(counts)
}

/// The positions of a game of `moves` moves that `--per-game K` keeps:
/// one in each of K equal stretches (fewer if the game is shorter), at a
/// place a hash of the game's number and the stretch picks. None: all.
fn chosen_positions(game: usize, moves: usize, per_game: usize) -> Option<Vec<usize>> {
    if per_game == 0 {
        return None;
    }
    let k = per_game.min(moves);
    let chosen = (0..k)
        .map(|j| {
            let (lo, hi) = (j * moves / k, (j + 1) * moves / k);
            let hash = splitmix64(((game as u64) << 16) ^ j as u64);
            lo + (hash % (hi - lo) as u64) as usize
        })
        .collect();
    Some(chosen)
}

/// SplitMix64's output function: a fixed, well-mixed hash.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// What replaying a game needs, kept from one game to the next.
struct GameWriter {
    size: BoardSize,
    planes: Vec<f32>,
    packed: Vec<u8>,
    reader: TacticalReader,
}

impl GameWriter {
    fn new(size: BoardSize) -> GameWriter {
        let points = size.points();
        GameWriter {
            size,
            planes: vec![0f32; PLANES * points],
            packed: vec![0u8; (PLANES * points).div_ceil(8)],
            reader: TacticalReader::new(DEEP_BUDGET),
        }
    }

    /// A move as `.lbl` and `.rep` write it: the point's index, or the
    /// number of points for a pass.
    fn label(&self, mv: Move) -> u16 {
        let label = match mv {
            Move::Pass => self.size.points(),
            Move::Play(v) => self.size.index(v),
        };
        label as u16
    }

    /// Replays one game, writing the positions before its moves (those of
    /// `chosen`, sorted, or all).
    fn write_game<W: Write>(
        &mut self,
        record: &Record,
        chosen: Option<&[usize]>,
        out: &mut Sinks<W>,
        counts: &mut Counts,
    ) -> std::io::Result<()> {
        let points = self.size.points();
        let mut board = PlayoutBoard::new(self.size);
        let mut recent: RecentMoves = [None; RECENT_MOVES];
        let mut next_chosen = 0;
        for (number, &(color, mv)) in record.moves.iter().enumerate() {
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
            let keep = match chosen {
                None => true,
                // The stretches do not overlap: `chosen` rises strictly.
                Some(chosen) if chosen.get(next_chosen) == Some(&number) => {
                    next_chosen += 1;
                    true
                }
                Some(_) => false,
            };
            if keep {
                write_planes(
                    &mut board,
                    color,
                    &recent,
                    &mut self.reader,
                    &mut self.planes,
                );
                pack(&self.planes, &mut self.packed);
                out.bin.write_all(&self.packed)?;
                out.lbl.write_all(&self.label(mv).to_le_bytes())?;
                let reply = match record.moves.get(number + 1) {
                    Some(&(_, reply)) => self.label(reply),
                    None => NO_REPLY,
                };
                out.rep.write_all(&reply.to_le_bytes())?;
                let value = match record.winner {
                    Some(winner) => u8::from(winner == color),
                    None => VALUE_UNKNOWN,
                };
                out.val.write_all(&[value])?;
                out.num.write_all(&(number as u16).to_le_bytes())?;
                out.komi.write_all(&[komi_for(record.komi, color) as u8])?;
                if record.komi != KOMI_UNKNOWN {
                    counts.komi_known += 1;
                }
                out.mar
                    .write_all(&margin_for(record.margin, color).to_le_bytes())?;
                if record.margin != MARGIN_UNKNOWN {
                    counts.margin_known += 1;
                }
                if let Some(own) = &mut out.own {
                    let known = ownership_for(record.ownership.as_deref(), color, points);
                    own.write_all(&known.iter().map(|&n| n as u8).collect::<Vec<u8>>())?;
                    if record.ownership.is_some() {
                        counts.ownership_known += 1;
                    }
                }
                if value != VALUE_UNKNOWN {
                    counts.value_known += 1;
                }
                if record.held_out {
                    counts.held += 1;
                } else {
                    counts.train += 1;
                }
            }
            play_and_remember(&mut board, color, point, &mut recent);
        }
        Ok(())
    }
}

/// The ownership bytes of a position with `to_move` to play: the game's
/// final ownership for that side, or every point unknown.
fn ownership_for(black: Option<&[i8]>, to_move: Color, points: usize) -> Vec<i8> {
    match black {
        Some(black) if to_move == Color::Black => black.to_vec(),
        Some(black) => black.iter().map(|&n| -n).collect(),
        None => vec![OWNERSHIP_UNKNOWN; points],
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Sinks in memory, with the ownership's where `own`.
    fn memory_sinks(own: bool) -> Sinks<Vec<u8>> {
        Sinks {
            bin: Vec::new(),
            lbl: Vec::new(),
            rep: Vec::new(),
            val: Vec::new(),
            num: Vec::new(),
            komi: Vec::new(),
            mar: Vec::new(),
            own: own.then(Vec::new),
        }
    }

    /// A test's options on `size`: one thread, every game, nothing held
    /// out, no results or ownership file, every position.
    fn options_for(size: usize) -> Options {
        Options {
            out: String::new(),
            held_out_every: 0,
            threads: 1,
            max_games: usize::MAX,
            first_game: 0,
            size,
            results: None,
            ownership: None,
            per_game: 0,
            held_per_game: None,
        }
    }

    /// The value bytes and move numbers `write_game` writes for a game.
    fn values(sgf: &[u8], results: &[u8], per_game: usize) -> (Vec<u8>, Vec<u16>) {
        // One folder a call: the tests run at once, in one process.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("write_planes_test_{}_{call}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.txt");
        std::fs::write(&path, sgf).unwrap();
        let options = Options {
            per_game,
            ..options_for(9)
        };
        let paths = [path.to_string_lossy().into_owned()];
        let records = read_records(&paths, &read_results(results), &HashMap::new(), &options);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(records.len(), 1);
        let mut out = memory_sinks(false);
        let mut counts = Counts::default();
        let chosen = chosen_positions(0, records[0].moves.len(), per_game);
        GameWriter::new(BoardSize::square(9))
            .write_game(&records[0], chosen.as_deref(), &mut out, &mut counts)
            .unwrap();
        let bytes = (PLANES * 81).div_ceil(8);
        assert_eq!(out.bin.len(), out.val.len() * bytes);
        assert_eq!(out.lbl.len(), out.val.len() * 2);
        let numbers = out
            .num
            .chunks(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        (out.val, numbers)
    }

    #[test]
    fn the_value_byte_says_whether_the_side_to_move_won() {
        // Black, White, Black, then White passes.
        let moves = "B[ee];W[cc];B[gg];W[]";
        let game = |re: &str| format!("(;SZ[9]{re};{moves})").into_bytes();
        assert_eq!(values(&game("RE[B+3.5]"), b"", 0).0, [1, 0, 1, 0]);
        assert_eq!(values(&game("RE[W+Resign]"), b"", 0).0, [0, 1, 0, 1]);
        for unknown in ["", "RE[0]", "RE[Draw]", "RE[?]"] {
            assert_eq!(values(&game(unknown), b"", 0).0, [255; 4], "{unknown}");
        }
        assert_eq!(values(&game(""), b"", 0).1, [0, 1, 2, 3]);
    }

    #[test]
    fn a_tom_lines_result_comes_from_the_index_by_its_id() {
        // A Tom line is 19x19: its moves, its ID, and the index's columns.
        let line = b"77\t;B[pd];W[dd];B[pp]\n";
        let index = |id: &str, re: &str| {
            format!("{id}\t2003.09.25 20:21\tsomeone\tother\t6.5\t{re}\t3\t30/3 5m\n").into_bytes()
        };
        let tom = |index: &[u8]| {
            let dir = std::env::temp_dir().join(format!("write_planes_tom_{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join("kifu");
            std::fs::write(&path, line).unwrap();
            let options = options_for(19);
            let paths = [path.to_string_lossy().into_owned()];
            let records = read_records(&paths, &read_results(index), &HashMap::new(), &options);
            std::fs::remove_dir_all(&dir).unwrap();
            records[0].winner
        };
        assert_eq!(tom(&index("77", "W+Resign")), Some(Color::White));
        assert_eq!(tom(&index("77", "B+0.5")), Some(Color::Black));
        assert_eq!(tom(&index("78", "B+0.5")), None);
        assert_eq!(tom(b""), None);
    }

    #[test]
    fn the_ownership_bytes_are_the_final_owner_for_the_side_to_move() {
        let line = b"77\t;B[pd];W[dd];B[pp]\n";
        // KataGo's order: A19 first, T1 last.
        let mut numbers = vec!["0"; 361];
        numbers[0] = "100";
        numbers[360] = "-50";
        let ownership = format!("77\t{}\n", numbers.join(" ")).into_bytes();
        let dir = std::env::temp_dir().join(format!("write_planes_own_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("kifu");
        std::fs::write(&path, line).unwrap();
        let options = Options {
            ownership: Some(String::new()),
            ..options_for(19)
        };
        let paths = [path.to_string_lossy().into_owned()];
        let by_id = read_ownership(&ownership, 19);
        // Black's count half a point up at komi 0 and Black's win: the
        // reading agrees with the result, so it is taught.
        let index = read_results(b"77\t2003.09.25 20:21\ta\tb\t0\tB+Resign\t3\t30/3 5m\n");
        let records = read_records(&paths, &index, &by_id, &options);
        std::fs::remove_dir_all(&dir).unwrap();
        let mut out = memory_sinks(true);
        let mut counts = Counts::default();
        GameWriter::new(BoardSize::square(19))
            .write_game(&records[0], None, &mut out, &mut counts)
            .unwrap();
        let own: Vec<i8> = out.own.unwrap().iter().map(|&b| b as i8).collect();
        assert_eq!(own.len(), 3 * 361);
        let size = BoardSize::square(19);
        let (a19, t1) = (
            size.index(hane::Vertex::new(0, 18)),
            size.index(hane::Vertex::new(18, 0)),
        );
        // Black, White, Black to move.
        for (position, sign) in [(0, 1), (1, -1), (2, 1)] {
            let at = |i: usize| own[position * 361 + i];
            assert_eq!((at(a19), at(t1)), (100 * sign, -50 * sign));
            assert_eq!(
                own[position * 361..(position + 1) * 361]
                    .iter()
                    .filter(|&&n| n != 0)
                    .count(),
                2
            );
        }
        assert_eq!(counts.ownership_known, 3);
        // A game with no line: every byte unknown; a short line is none.
        assert_eq!(ownership_for(None, Color::White, 4), [OWNERSHIP_UNKNOWN; 4]);
        assert!(read_ownership(b"77\t1 2 3\n", 19).is_empty());
        assert!(
            read_ownership(format!("77\t{}", ["101"; 361].join(" ")).as_bytes(), 19).is_empty()
        );
    }

    #[test]
    fn packed_ownership_reads_as_its_lines_do() {
        // KataGo's order: A19 first, T1 last.
        let mut numbers = vec![0i8; 361];
        numbers[0] = 100;
        numbers[360] = -75;
        let text: Vec<String> = numbers.iter().map(|n| n.to_string()).collect();
        let lines = format!("77\t{}\ntygem-9\t{}\n", text.join(" "), text.join(" "));
        let mut packed = COMPACT_OWNERSHIP_MAGIC.to_vec();
        for id in [&b"77"[..], b"tygem-9", b"bad"] {
            packed.push(id.len() as u8);
            packed.extend_from_slice(id);
            let mut bytes: Vec<u8> = numbers.iter().map(|&n| n as u8).collect();
            if id == b"bad" {
                bytes[5] = 101;
            }
            packed.extend(bytes);
        }
        // A game cut short at the end is not read.
        packed.extend_from_slice(b"\x02ab\x00\x00");
        let from_lines = read_ownership(lines.as_bytes(), 19);
        let from_packed = read_ownership(&packed, 19);
        assert_eq!(from_lines.len(), 2);
        assert_eq!(from_packed, from_lines);
        let size = BoardSize::square(19);
        let a19 = size.index(hane::Vertex::new(0, 18));
        let t1 = size.index(hane::Vertex::new(18, 0));
        let black = &from_packed[&b"tygem-9".to_vec()];
        assert_eq!((black[a19], black[t1]), (100, -75));
        assert_eq!(black.iter().filter(|&&n| n != 0).count(), 2);
    }

    /// One game in scripts/pack_corpus.py's layout.
    fn compact(flags: u8, id: u32, komi: i8, result: (u8, u8, u16), moves: &[(u8, u8)]) -> Vec<u8> {
        let mut out = vec![flags];
        out.extend_from_slice(&id.to_le_bytes());
        out.extend_from_slice(&[komi as u8, result.0, result.1]);
        out.extend_from_slice(&result.2.to_le_bytes());
        out.extend_from_slice(&(moves.len() as u16).to_le_bytes());
        for &(c, r) in moves {
            out.extend_from_slice(&[c, r]);
        }
        out
    }

    #[test]
    fn a_compact_slice_gives_each_game_its_moves_result_komi_and_split() {
        let mut slice = COMPACT_MAGIC.to_vec();
        // Held out, Tom 77, komi 6.5, B+3.5: D16 (dd), Q4 (pp), a pass.
        slice.extend(compact(1, 77, 13, (1, 0, 7), &[(3, 3), (15, 15), (19, 19)]));
        // Taught, TYGEM 77 (no ownership: that is Tom's 77, and TYGEM's is
        // `tygem-77`), komi 7.5, W+Resign.
        slice.extend(compact(2, 77, 15, (2, 1, 0), &[(15, 3), (3, 15)]));
        // Unknown result and komi.
        slice.extend(compact(2, 78, -128, (0, 255, 0), &[(9, 9)]));
        let dir = std::env::temp_dir().join(format!("write_planes_hgm_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("slice.hgm");
        std::fs::write(&path, &slice).unwrap();
        let mut ownership = HashMap::new();
        // Black's everywhere: the count names B+3.5's winner. Game 78's is
        // left out, as no result checks it.
        ownership.insert(b"77".to_vec(), vec![100i8; 361]);
        ownership.insert(b"tygem-78".to_vec(), vec![100i8; 361]);
        let options = Options {
            ownership: Some(String::new()),
            ..options_for(19)
        };
        let paths = [path.to_string_lossy().into_owned()];
        let records = read_records(&paths, &HashMap::new(), &ownership, &options);
        // Cut short: skipped, not misread.
        std::fs::write(&path, &slice[..slice.len() - 1]).unwrap();
        assert!(read_records(&paths, &HashMap::new(), &ownership, &options).is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(records.len(), 3);
        let held: Vec<bool> = records.iter().map(|r| r.held_out).collect();
        assert_eq!(held, [true, false, false]);
        let winners: Vec<Option<Color>> = records.iter().map(|r| r.winner).collect();
        assert_eq!(winners, [Some(Color::Black), Some(Color::White), None]);
        let komi: Vec<i8> = records.iter().map(|r| r.komi).collect();
        assert_eq!(komi, [13, 15, KOMI_UNKNOWN]);
        let owned: Vec<bool> = records.iter().map(|r| r.ownership.is_some()).collect();
        assert_eq!(owned, [true, false, false]);
        let size = BoardSize::square(19);
        assert_eq!(
            records[0].moves,
            [
                (Color::Black, Move::Play(hane::Vertex::new(3, 15))),
                (Color::White, Move::Play(hane::Vertex::new(15, 3))),
                (Color::Black, Move::Pass),
            ]
        );
        // The komi byte of every position is its game's komi for the side
        // to move: White's komi, Black's its negative.
        let mut out = memory_sinks(false);
        let mut counts = Counts::default();
        GameWriter::new(size)
            .write_game(&records[1], None, &mut out, &mut counts)
            .unwrap();
        assert_eq!(out.komi, [-15i8 as u8, 15]);
        assert_eq!(out.val, [0, 1]);
        // Q16 (pd) played, then D4 (dp) the reply; then the game's end.
        let (q16, d4) = (
            size.index(hane::Vertex::new(15, 15)),
            size.index(hane::Vertex::new(3, 3)),
        );
        assert_eq!(
            out.lbl,
            [q16 as u16, d4 as u16].map(u16::to_le_bytes).concat()
        );
        assert_eq!(
            out.rep,
            [d4 as u16, NO_REPLY].map(u16::to_le_bytes).concat()
        );
        assert_eq!(counts.komi_known, 2);
        // B+3.5 at 6.5: Black's area 10 points more than White's; a
        // resignation with no ownership, and no result: no margin.
        let margins: Vec<i16> = records.iter().map(|r| r.margin).collect();
        assert_eq!(margins, [20, MARGIN_UNKNOWN, MARGIN_UNKNOWN]);
        assert_eq!(out.mar, [MARGIN_UNKNOWN.to_le_bytes(); 2].concat());
        let mut out = memory_sinks(false);
        GameWriter::new(size)
            .write_game(&records[0], None, &mut out, &mut counts)
            .unwrap();
        // Black, White, Black to move: the margin for each.
        assert_eq!(out.mar, [20i16, -20, 20].map(i16::to_le_bytes).concat());
        assert_eq!(counts.margin_known, 3);
        // A Tom index's komi column.
        let index = b"77\t2003.09.25 20:21\ta\tb\t6.5\tW+Resign\t3\t30/3 5m\n";
        let by_id = read_results(index);
        assert_eq!(by_id[&b"77".to_vec()].komi, Some(6.5));
        assert_eq!(komi_byte(Some(6.5)), 13);
        assert_eq!(komi_byte(None), KOMI_UNKNOWN);
    }

    #[test]
    fn a_resigned_games_margin_is_its_ownerships_count_where_that_names_its_winner() {
        // Black owns 40 points more than White at the end.
        let mut black = vec![0i8; 361];
        black[..40].fill(100);
        // At komi 7.5 (15) Black wins by 32.5: a count of 80 half points.
        assert_eq!(final_margin(b"B+Resign", 15, Some(&black)), 80);
        assert_eq!(final_margin(b"B+R", 15, Some(&black)), 80);
        // The count says Black, the result White: neither is trusted.
        assert_eq!(final_margin(b"W+Resign", 15, Some(&black)), MARGIN_UNKNOWN);
        // A counted result wins over the ownership.
        assert_eq!(final_margin(b"W+0.5", 15, Some(&black)), 14);
        // No ownership, no komi, no winner: unknown.
        assert_eq!(final_margin(b"B+Resign", 15, None), MARGIN_UNKNOWN);
        assert_eq!(final_margin(b"B+3.5", KOMI_UNKNOWN, None), MARGIN_UNKNOWN);
        assert_eq!(final_margin(b"0", 15, Some(&black)), MARGIN_UNKNOWN);
        assert_eq!(final_margin(b"Draw", 15, None), MARGIN_UNKNOWN);
        // Shares in hundredths: 150 half points of 7,500 hundredths.
        black.fill(0);
        black[..75].fill(100);
        assert_eq!(final_margin(b"B+Time", 13, Some(&black)), 150);
        assert_eq!(margin_for(150, Color::White), -150);
        assert_eq!(margin_for(MARGIN_UNKNOWN, Color::White), MARGIN_UNKNOWN);
    }

    #[test]
    fn ownership_is_taught_only_where_its_count_names_the_recorded_winner() {
        // Black owns 40 points more than White at the end: 80 half points.
        let mut black = vec![0i8; 361];
        black[..40].fill(100);
        assert!(ownership_agrees(b"B+Resign", 15, &black));
        assert!(ownership_agrees(b"B+12.5", 15, &black));
        // The reading says Black wins, the record White: left out.
        assert!(!ownership_agrees(b"W+Resign", 15, &black));
        assert!(!ownership_agrees(b"W+0.5", 15, &black));
        // At a komi of 40.5 White wins that count.
        assert!(ownership_agrees(b"W+Time", 81, &black));
        assert!(!ownership_agrees(b"B+Time", 81, &black));
        // A count equal to the komi names no winner; nor does a record
        // without a result or a komi.
        assert!(!ownership_agrees(b"B+Resign", 80, &black));
        assert!(!ownership_agrees(b"Draw", 15, &black));
        assert!(!ownership_agrees(b"B+Resign", KOMI_UNKNOWN, &black));
    }

    #[test]
    fn first_game_writes_the_later_games_with_the_held_out_rule_unchanged() {
        let lines: Vec<String> = (0..7)
            .map(|i| {
                format!(
                    "{i}\t;B[{}a];W[{}b]\n",
                    (b'a' + i) as char,
                    (b'a' + i) as char
                )
            })
            .collect();
        let dir = std::env::temp_dir().join(format!("write_planes_first_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.txt");
        std::fs::write(&path, lines.concat()).unwrap();
        let paths = [path.to_string_lossy().into_owned()];
        let options = |first_game, max_games| Options {
            held_out_every: 3,
            first_game,
            max_games,
            ..options_for(19)
        };
        let all = read_records(
            &paths,
            &HashMap::new(),
            &HashMap::new(),
            &options(0, usize::MAX),
        );
        let later = read_records(&paths, &HashMap::new(), &HashMap::new(), &options(3, 2));
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(all.len(), 7);
        // Games 3 and 4 of 0..7: the same moves, and games 0, 3 and 6 held
        // out whichever stretch is written.
        assert_eq!(later.len(), 2);
        assert_eq!(later[0].moves, all[3].moves);
        assert_eq!(later[1].moves, all[4].moves);
        let held: Vec<bool> = all.iter().map(|r| r.held_out).collect();
        assert_eq!(held, [true, false, false, true, false, false, true]);
        assert_eq!([later[0].held_out, later[1].held_out], [true, false]);
    }

    #[test]
    fn per_game_keeps_k_positions_spread_over_the_game() {
        let moves: Vec<String> = ["B[aa]", "W[ba]", "B[ca]", "W[da]", "B[ea]", "W[fa]"]
            .iter()
            .cycle()
            .take(6)
            .map(|m| m.to_string())
            .collect();
        let game = format!("(;SZ[9]RE[W+R];{})", moves.join(";")).into_bytes();
        let (val, numbers) = values(&game, b"", 3);
        assert_eq!(numbers.len(), 3);
        // One in each third: moves 0-1, 2-3, 4-5; Black moves at the even.
        for (j, &n) in numbers.iter().enumerate() {
            assert!((2 * j..2 * j + 2).contains(&(n as usize)), "{numbers:?}");
            assert_eq!(val[j], u8::from(n % 2 == 1));
        }
        // More asked than the game has: each position once.
        assert_eq!(values(&game, b"", 10).1, [0, 1, 2, 3, 4, 5]);
        assert_eq!(chosen_positions(5, 200, 4), chosen_positions(5, 200, 4));
    }
}
