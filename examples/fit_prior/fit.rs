//! Fitting the learned prior's gammas to game records, by Coulom's
//! minorization-maximization ("Computing Elo Ratings of Move Patterns in
//! the Game of Go", 2007): each played move is a win of its features'
//! team over the teams of every other legal move of the position, and the
//! gammas are the Bradley-Terry strengths that make the records likeliest.
//! `main.rs` beside it reads the records (SGF files, or files of one game
//! a line); its output is data/prior-gammas.txt.
//!
//! Two passes over the taught games: the first counts the spatial patterns
//! (`knowledge::spatial`) of the moves played, and those seen often
//! enough make the dictionary; the second describes every candidate of
//! every sampled position by its features, its largest spatial pattern in
//! the dictionary among them. Both passes and the updates run on every
//! core.

use std::collections::HashMap;
use std::fmt::Write;

use hane::knowledge::{
    canonical_shape, features, spatial_hashes, PlayoutBoard, Point, Recent, GROUPS, LARGE_FROM,
};
use hane::sgf::{self, SgfAction};
use hane::{BoardSize, Color, Game, Move, Superko, Vertex};

/// What the fit is told.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// The first moves of every game are not taught from (the random
    /// opening moves of `scripts/selfplay.py`).
    pub skip_moves: usize,
    /// Shapes seen fewer times among the candidates share one gamma.
    pub min_shape_count: u32,
    /// Spatial patterns played fewer times than this in the taught games
    /// get no gamma of their own.
    pub min_pattern_count: u32,
    /// Only every this-many-th move of a game is a position taught from
    /// (the patterns are counted at every move).
    pub every: usize,
    /// Every this-many-th game is held out to measure the fit.
    pub held_out_every: usize,
    /// Rounds of updates of every gamma.
    pub iterations: usize,
    /// Threads for the passes and the updates.
    pub threads: usize,
}

/// Feature slots of a candidate: its shape, its spatial pattern, then one
/// per group.
const SLOTS: usize = 2 + GROUPS.len();
/// The slot of the spatial pattern.
const SPATIAL: usize = 1;

/// The gamma of the shapes too rare to have their own.
const RARE: u32 = 0;
/// The index of a group's "no value", whose gamma stays 1.
const NONE: u32 = 1;

/// A candidate's features as indices into the gammas.
type Team = [u32; SLOTS];

/// The positions of one board class, flattened.
#[derive(Default)]
struct Positions {
    teams: Vec<Team>,
    /// Per position: its first team and its played move's team.
    starts: Vec<(usize, usize)>,
    /// Whether the position is held out, to measure the fit.
    held_out: Vec<bool>,
}

impl Positions {
    /// Position `j`'s teams, and the index among them of the move played.
    fn teams_of(&self, j: usize) -> (&[Team], usize) {
        let (start, chosen) = self.starts[j];
        let end = self.starts.get(j + 1).map_or(self.teams.len(), |s| s.0);
        (&self.teams[start..end], chosen - start)
    }
}

/// A candidate's features before the shapes are numbered: its spatial
/// pattern is the dictionary's index of the largest one it has there.
struct Raw {
    shape: u32,
    spatial: Option<u32>,
    values: [u8; GROUPS.len()],
}

/// A sampled position: its candidates, the index of the move played among
/// them, and whether its game is held out.
type Sampled = (Vec<Raw>, usize, bool);

/// The spatial patterns with a gamma of their own: index by hash.
type Dictionary = HashMap<u64, u32>;

/// A game as the fit replays it: its board class and its moves.
struct Replay {
    size: BoardSize,
    large: bool,
    /// Stones set up before the first move.
    setup: Vec<(Vertex, Color)>,
    moves: Vec<(Color, Move)>,
    held_out: bool,
}

/// Fits both board classes (small: shorter side under 13, large: the
/// rest) to `records` (name and SGF text; unreadable ones are skipped
/// and named in the summary) and returns the gammas file and a summary
/// of the fit, for a person.
pub fn fit_prior(records: &[(String, Vec<u8>)], options: &FitOptions) -> (String, String) {
    let mut summary = String::new();
    let mut games: [Vec<Replay>; 2] = [Vec::new(), Vec::new()];
    for (n, (name, text)) in records.iter().enumerate() {
        match replay_of(text) {
            Ok(mut replay) => {
                replay.held_out =
                    n % options.held_out_every.max(2) == options.held_out_every.max(2) - 1;
                games[usize::from(replay.large)].push(replay);
            }
            Err(e) => {
                let _ = writeln!(summary, "skipped {name}: {e}");
            }
        }
    }
    let mut file = String::from(
        "# hane's learned prior: Bradley-Terry strengths of move features and spatial\n\
         # patterns, fitted by examples/fit_prior (see README, \"The learned prior\") to\n\
         # strong players' 19x19 games (class large) and GNU Go self-play (class small);\n\
         # src/player/knowledge/gammas.rs has the format, docs/strength.md the fit.\n",
    );
    for (class, class_games) in ["small", "large"].iter().zip(&games) {
        let dictionary = pattern_dictionary(class_games, options);
        let raw = positions_of_games(class_games, &dictionary, options);
        let (text, report) = fit_class(class, raw, &dictionary, options);
        file.push_str(&text);
        summary.push_str(&report);
    }
    (file, summary)
}

/// A record read and checked: the rules board checks the whole record
/// first (sizes, setups, legality), so that the playout board, which
/// trusts what it is given, replays only sound games.
fn replay_of(text: &[u8]) -> Result<Replay, String> {
    let record = sgf::parse(text).map_err(|e| e.to_string())?;
    Game::from_sgf(&record, None, 7.5, Superko::Positional).map_err(|e| e.to_string())?;
    let mut setup = Vec::new();
    let mut moves = Vec::new();
    for action in &record.actions {
        match action {
            SgfAction::Setup(stones) => {
                if !moves.is_empty() {
                    return Err("a setup other than stones placed before the first move".into());
                }
                for &(v, color) in stones {
                    match color {
                        Some(color) if !setup.iter().any(|&(w, _)| w == v) => {
                            setup.push((v, color))
                        }
                        _ => {
                            return Err(
                                "a setup other than stones placed before the first move".into()
                            )
                        }
                    }
                }
            }
            SgfAction::ToMove(_) => {}
            SgfAction::Play(color, mv) => moves.push((*color, *mv)),
        }
    }
    Ok(Replay {
        size: record.size,
        large: record.size.shorter_side() >= LARGE_FROM,
        setup,
        moves,
        held_out: false,
    })
}

/// Replays `game` on a playout board of `size`, calling `visit` before
/// every move on the board with the mover, the point played, the last two
/// moves and the move's number (from 1).
fn replay(
    game: &Replay,
    size: BoardSize,
    mut visit: impl FnMut(&PlayoutBoard, Color, Point, Recent, usize),
) -> Result<(), String> {
    let mut board = PlayoutBoard::new(size);
    for &(v, color) in &game.setup {
        board.set_stone(v, color);
    }
    let mut recent = Recent::default();
    for (n, &(color, mv)) in game.moves.iter().enumerate() {
        match mv {
            Move::Pass => {
                board.pass();
                recent = Recent {
                    last: None,
                    last2: recent.last,
                };
            }
            Move::Play(v) => {
                let p = board.point(v);
                if !board.is_playout_legal(p, color) {
                    return Err(format!("move {} is not legal here", n + 1));
                }
                visit(&board, color, p, recent, n + 1);
                board.play(p, color);
                recent = Recent {
                    last: Some(v),
                    last2: recent.last,
                };
            }
        }
    }
    Ok(())
}

/// Runs `work` on `items` split over `threads` threads, in order.
fn in_parallel<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    work: impl Fn(&[T]) -> R + Sync,
) -> Vec<R> {
    let chunk = items.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(|| work(part)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a fitting thread panicked"))
            .collect()
    })
}

/// The spatial patterns played at least `min_pattern_count` times in the
/// taught games, numbered.
fn pattern_dictionary(games: &[Replay], options: &FitOptions) -> Dictionary {
    let counts = in_parallel(games, options.threads, |part| {
        let mut counts: HashMap<u64, u32> = HashMap::new();
        for game in part.iter().filter(|g| !g.held_out) {
            let _ = replay(game, game.size, |board, color, p, _, n| {
                if n > options.skip_moves {
                    for hash in spatial_hashes(board, p, color) {
                        *counts.entry(hash).or_default() += 1;
                    }
                }
            });
        }
        counts
    });
    let mut total: HashMap<u64, u32> = HashMap::new();
    for part in counts {
        for (hash, n) in part {
            *total.entry(hash).or_default() += n;
        }
    }
    let mut kept: Vec<(u64, u32)> = total
        .into_iter()
        .filter(|&(_, n)| n >= options.min_pattern_count)
        .collect();
    kept.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    kept.iter()
        .enumerate()
        .map(|(i, &(hash, _))| (hash, i as u32))
        .collect()
}

/// Every sampled position of `games`: its candidates, the index of the
/// move played among them, and whether its game is held out.
fn positions_of_games(
    games: &[Replay],
    dictionary: &Dictionary,
    options: &FitOptions,
) -> Vec<Sampled> {
    let parts = in_parallel(games, options.threads, |part| {
        let mut out = Vec::new();
        for game in part {
            let _ = replay(game, game.size, |board, color, p, recent, n| {
                if n > options.skip_moves && n % options.every.max(1) == 0 {
                    if let Some((candidates, chosen)) =
                        position(board, color, p, recent, dictionary)
                    {
                        out.push((candidates, chosen, game.held_out));
                    }
                }
            });
        }
        out
    });
    parts.into_iter().flatten().collect()
}

/// The candidates of `to_move` (the tree's: legal, no own eye filled)
/// and the index of `played` among them; None when it is not one.
fn position(
    board: &PlayoutBoard,
    to_move: Color,
    played: Point,
    recent: Recent,
    dictionary: &Dictionary,
) -> Option<(Vec<Raw>, usize)> {
    let mut candidates = Vec::with_capacity(board.empty_points().len());
    let mut chosen = None;
    for &p in board.empty_points() {
        if board.is_eye(p, to_move) || !board.is_playout_legal(p, to_move) {
            continue;
        }
        if p == played {
            chosen = Some(candidates.len());
        }
        let f = features(board, p, to_move, recent);
        candidates.push(Raw {
            shape: canonical_shape(f.shape),
            spatial: f
                .spatial
                .iter()
                .rev()
                .find_map(|h| dictionary.get(h).copied()),
            values: f.values,
        });
    }
    chosen.map(|c| (candidates, c))
}

/// Numbers the features of one class and fits their gammas; returns its
/// section of the file and a summary.
fn fit_class(
    class: &str,
    raw: Vec<Sampled>,
    dictionary: &Dictionary,
    options: &FitOptions,
) -> (String, String) {
    // Shapes seen often enough get a gamma of their own; index 0 is the
    // rare shapes', index 1 "no value" (always 1).
    let mut counts: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    for (candidates, _, _) in &raw {
        for c in candidates {
            *counts.entry(c.shape).or_default() += 1;
        }
    }
    let mut shapes: Vec<(u32, u32)> = counts
        .into_iter()
        .filter(|&(_, n)| n >= options.min_shape_count)
        .collect();
    shapes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let shape_index: std::collections::HashMap<u32, u32> = shapes
        .iter()
        .enumerate()
        .map(|(i, &(key, _))| (key, i as u32 + 2))
        .collect();
    let spatial_base = shapes.len() as u32 + 2;
    let mut group_base = Vec::new();
    let mut next = spatial_base + dictionary.len() as u32;
    for g in GROUPS {
        group_base.push(next);
        next += g.values() as u32;
    }
    let mut positions = Positions::default();
    for (candidates, chosen, held_out) in raw {
        let start = positions.teams.len();
        for c in &candidates {
            let mut team = [NONE; SLOTS];
            team[0] = shape_index.get(&c.shape).copied().unwrap_or(RARE);
            if let Some(index) = c.spatial {
                team[SPATIAL] = spatial_base + index;
            }
            for (g, &value) in c.values.iter().enumerate() {
                if value > 0 {
                    team[2 + g] = group_base[g] + value as u32 - 1;
                }
            }
            positions.teams.push(team);
        }
        positions.starts.push((start, start + chosen));
        positions.held_out.push(held_out);
    }
    let mut gammas = vec![1.0f64; next as usize];
    // Blocks of features updated together, one per slot: the shapes
    // (RARE among them), then each group; NONE is never updated.
    let mut blocks: Vec<Vec<u32>> = vec![
        std::iter::once(RARE)
            .chain(2..shapes.len() as u32 + 2)
            .collect(),
        (spatial_base..spatial_base + dictionary.len() as u32).collect(),
    ];
    for (g, &base) in GROUPS.iter().zip(&group_base) {
        blocks.push((base..base + g.values() as u32).collect());
    }
    let mut report = String::new();
    let (taught, held) = (
        positions.held_out.iter().filter(|h| !**h).count(),
        positions.held_out.iter().filter(|h| **h).count(),
    );
    let _ = writeln!(
        report,
        "{class}: {taught} positions taught, {held} held out, {} shapes and {} spatial \
         patterns with a gamma of their own",
        shapes.len(),
        dictionary.len()
    );
    for round in 0..options.iterations {
        for (slot, block) in blocks.iter().enumerate() {
            update(&positions, &mut gammas, slot, block, options.threads);
        }
        if round + 1 == options.iterations || round % 5 == 4 {
            let (fit_ll, fit_top) = measure(&positions, &gammas, false);
            let (test_ll, test_top) = measure(&positions, &gammas, true);
            let _ = writeln!(
                report,
                "  round {}: taught: log-likelihood {fit_ll:.3} a move, first choice {:.1}%; \
                 held out: {test_ll:.3}, {:.1}%",
                round + 1,
                100.0 * fit_top,
                100.0 * test_top
            );
        }
    }
    let mut text = format!("class {class}\nrare_shape {:.4}\n", gammas[RARE as usize]);
    for (g, &base) in GROUPS.iter().zip(&group_base) {
        for value in 1..=g.values() as u32 {
            let _ = writeln!(
                text,
                "{} {value} {:.4}",
                g.name(),
                gammas[(base + value - 1) as usize]
            );
        }
    }
    for (i, &(key, _)) in shapes.iter().enumerate() {
        let _ = writeln!(text, "shape 0x{key:05x} {:.4}", gammas[i + 2]);
    }
    let mut patterns: Vec<(u64, u32)> = dictionary.iter().map(|(&h, &i)| (h, i)).collect();
    patterns.sort_by_key(|&(_, i)| i);
    for (hash, index) in patterns {
        let gamma = gammas[(spatial_base + index) as usize];
        // A pattern whose gamma stayed near 1 changes nothing: left out,
        // it keeps the file small.
        if (gamma - 1.0).abs() > 0.05 {
            let _ = writeln!(text, "spatial 0x{hash:016x} {gamma:.4}");
        }
    }
    (text, report)
}

/// One minorization-maximization step for the features of `block`, those
/// of team slot `slot` (so a team has at most one of them), on the taught
/// positions: gamma_i = (W_i + 1) / (sum over positions of C_ij / E_j +
/// 2 / (gamma_i + 1)), where W_i counts the played moves with feature i,
/// E_j is the total strength of position j's candidates and C_ij the
/// strength of its candidates with feature i, gamma_i divided out. The
/// ones and twos are Coulom's prior: a virtual win and loss against a
/// gamma of 1, which keeps rare features near 1.
fn update(positions: &Positions, gammas: &mut [f64], slot: usize, block: &[u32], threads: usize) {
    let indices: Vec<usize> = (0..positions.starts.len())
        .filter(|&j| !positions.held_out[j])
        .collect();
    let shared: &[f64] = gammas;
    let sums = in_parallel(&indices, threads, |part| {
        let mut wins = vec![0.0f64; shared.len()];
        let mut denominators = vec![0.0f64; shared.len()];
        for &j in part {
            let (teams, chosen) = positions.teams_of(j);
            let total: f64 = teams.iter().map(|t| strength(t, shared)).sum();
            for team in teams {
                let f = team[slot];
                if f != NONE {
                    denominators[f as usize] += strength(team, shared) / shared[f as usize] / total;
                }
            }
            let f = teams[chosen][slot];
            if f != NONE {
                wins[f as usize] += 1.0;
            }
        }
        (wins, denominators)
    });
    let mut wins = vec![0.0f64; gammas.len()];
    let mut denominators = vec![0.0f64; gammas.len()];
    for (w, d) in sums {
        for &f in block {
            wins[f as usize] += w[f as usize];
            denominators[f as usize] += d[f as usize];
        }
    }
    for &f in block {
        let f = f as usize;
        gammas[f] = (wins[f] + 1.0) / (denominators[f] + 2.0 / (gammas[f] + 1.0));
    }
}

fn strength(team: &Team, gammas: &[f64]) -> f64 {
    team.iter().map(|&f| gammas[f as usize]).product()
}

/// Mean log-likelihood of the played moves and how often the played move
/// is the strongest, on the held-out positions or the taught ones.
fn measure(positions: &Positions, gammas: &[f64], held_out: bool) -> (f64, f64) {
    let (mut ll, mut top, mut n) = (0.0, 0usize, 0usize);
    for j in 0..positions.starts.len() {
        if positions.held_out[j] != held_out {
            continue;
        }
        let (teams, chosen) = positions.teams_of(j);
        let strengths: Vec<f64> = teams.iter().map(|t| strength(t, gammas)).collect();
        let total: f64 = strengths.iter().sum();
        let played = strengths[chosen];
        ll += (played / total).ln();
        if strengths.iter().all(|&s| s <= played) {
            top += 1;
        }
        n += 1;
    }
    (ll / n.max(1) as f64, top as f64 / n.max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records whose every move is next to the last one: the fit must
    /// make "next to the last move" the strongest distance.
    #[test]
    fn the_fit_finds_what_the_records_prefer() {
        // A snake along rows 5 and 6 of 9x9, colours alternating.
        let row5 = "abcdefghi".chars().map(|c| format!("{c}e"));
        let row6 = "ihgfedcba".chars().map(|c| format!("{c}d"));
        let moves: String = row5
            .chain(row6)
            .enumerate()
            .map(|(i, p)| format!(";{}[{p}]", if i % 2 == 0 { 'B' } else { 'W' }))
            .collect();
        let game = format!("(;SZ[9]{moves})");
        let records: Vec<(String, Vec<u8>)> = (0..20)
            .map(|i| (format!("g{i}"), game.clone().into_bytes()))
            .collect();
        let options = FitOptions {
            skip_moves: 1,
            min_shape_count: 1,
            min_pattern_count: 1000,
            every: 1,
            held_out_every: 10,
            iterations: 10,
            threads: 2,
        };
        let (file, summary) = fit_prior(&records, &options);
        assert!(
            summary.contains("small: 306 positions taught, 34 held out"),
            "{summary}"
        );
        assert!(
            file.contains("class small") && file.contains("class large"),
            "{file}"
        );
        let gamma = |name: String| -> f64 {
            file.lines()
                .skip_while(|l| *l != "class small")
                .find_map(|l| l.strip_prefix(&name).and_then(|g| g.trim().parse().ok()))
                .unwrap_or(f64::NAN)
        };
        let next_to_last = gamma("distance_last 1 ".to_string());
        for d in 2..=16 {
            let other = gamma(format!("distance_last {d} "));
            assert!(
                next_to_last > other,
                "{d}: {other} against {next_to_last}\n{file}"
            );
        }
        // Unreadable records are named, not fatal: not SGF, an illegal
        // move (onto a stone), a stone set up twice, a setup mid-game.
        for (name, text) in [
            ("not-sgf", &b"not sgf"[..]),
            ("illegal", b"(;SZ[9];B[ee];W[ee])"),
            ("twice", b"(;SZ[9]AB[ee][ee];W[dd])"),
            ("mid-game", b"(;SZ[9];B[ee];AW[dd];W[cc])"),
        ] {
            let (_, summary) = fit_prior(&[(name.to_string(), text.to_vec())], &options);
            assert!(summary.contains(&format!("skipped {name}")), "{summary}");
        }
    }
}
