//! Fitting the learned prior's gammas to game records, by Coulom's
//! minorization-maximization ("Computing Elo Ratings of Move Patterns in
//! the Game of Go", 2007): each played move is a win of its features'
//! team over the teams of every other legal move of the position, and the
//! gammas are the Bradley-Terry strengths that make the records likeliest.
//! `main.rs` beside it runs it on the records `scripts/selfplay.py`
//! makes; its output is data/prior-gammas.txt.

use std::fmt::Write;

use hane::knowledge::{canonical_shape, features, PlayoutBoard, Point, Recent, GROUPS, LARGE_FROM};
use hane::sgf::{self, SgfAction};
use hane::{Color, Game, Move, Superko};

/// What the fit is told.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// The first moves of every game are not taught from (the random
    /// opening moves of `scripts/selfplay.py`).
    pub skip_moves: usize,
    /// Shapes seen fewer times among the candidates share one gamma.
    pub min_shape_count: u32,
    /// Rounds of updates of every gamma.
    pub iterations: usize,
}

/// Feature slots of a candidate: its shape, then one per group.
const SLOTS: usize = 1 + GROUPS.len();

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

/// A candidate's features before the shapes are numbered.
struct Raw {
    shape: u32,
    values: [u8; GROUPS.len()],
}

/// Fits both board classes (small: shorter side under 13, large: the
/// rest) to `records` (name and SGF text; unreadable ones are skipped
/// and named in the summary) and returns the gammas file and a summary
/// of the fit, for a person.
pub fn fit_prior(records: &[(String, Vec<u8>)], options: &FitOptions) -> (String, String) {
    let mut summary = String::new();
    let mut raw: [Vec<(Vec<Raw>, usize, bool)>; 2] = [Vec::new(), Vec::new()];
    for (n, (name, text)) in records.iter().enumerate() {
        match positions_of(text, options.skip_moves) {
            Ok((large, positions)) => {
                // Every tenth game is held out, to measure the fit on
                // games it did not see.
                let held_out = n % 10 == 9;
                raw[usize::from(large)]
                    .extend(positions.into_iter().map(|(c, i)| (c, i, held_out)));
            }
            Err(e) => {
                let _ = writeln!(summary, "skipped {name}: {e}");
            }
        }
    }
    let mut file = String::from(
        "# hane's learned prior: Bradley-Terry strengths of move features, fitted by\n\
         # examples/fit_prior.rs to GNU Go self-play (data/selfplay/, by scripts/selfplay.py); see\n\
         # src/player/gammas.rs for the format and docs/strength.md for the fit.\n",
    );
    for (class, positions) in ["small", "large"].iter().zip(raw) {
        let (text, report) = fit_class(class, positions, options);
        file.push_str(&text);
        summary.push_str(&report);
    }
    (file, summary)
}

/// The taught positions of one record: whether its board is of the large
/// class, and per position its candidates and the index of the move
/// played.
#[allow(clippy::type_complexity)]
fn positions_of(text: &[u8], skip_moves: usize) -> Result<(bool, Vec<(Vec<Raw>, usize)>), String> {
    let record = sgf::parse(text).map_err(|e| e.to_string())?;
    // The rules board checks the whole record first (sizes, setups,
    // legality): the playout board below trusts what it is given.
    Game::from_sgf(&record, None, 7.5, Superko::Positional).map_err(|e| e.to_string())?;
    let mut board = PlayoutBoard::new(record.size);
    let mut recent = Recent::default();
    let mut out = Vec::new();
    let mut moves = 0;
    for action in &record.actions {
        match action {
            SgfAction::Setup(stones) => {
                for &(v, color) in stones {
                    let empty = board.color_at(board.point(v)).is_none();
                    match color {
                        Some(color) if empty && moves == 0 => board.set_stone(v, color),
                        _ => {
                            return Err("a setup other than stones placed before the first move"
                                .to_string())
                        }
                    }
                }
            }
            SgfAction::ToMove(_) => {}
            SgfAction::Play(color, mv) => {
                moves += 1;
                match *mv {
                    Move::Pass => {
                        board.pass();
                        recent = Recent {
                            last: None,
                            last2: recent.last,
                        };
                    }
                    Move::Play(v) => {
                        let p = board.point(v);
                        if moves > skip_moves {
                            if let Some(position) = position(&board, *color, p, recent) {
                                out.push(position);
                            }
                        }
                        if !board.is_playout_legal(p, *color) {
                            return Err(format!("move {moves} is not legal here"));
                        }
                        board.play(p, *color);
                        recent = Recent {
                            last: Some(v),
                            last2: recent.last,
                        };
                    }
                }
            }
        }
    }
    Ok((record.size.shorter_side() >= LARGE_FROM, out))
}

/// The candidates of `to_move` (the tree's: legal, no own eye filled)
/// and the index of `played` among them; None when it is not one.
fn position(
    board: &PlayoutBoard,
    to_move: Color,
    played: Point,
    recent: Recent,
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
            values: f.values,
        });
    }
    chosen.map(|c| (candidates, c))
}

/// Numbers the features of one class and fits their gammas; returns its
/// section of the file and a summary.
fn fit_class(
    class: &str,
    raw: Vec<(Vec<Raw>, usize, bool)>,
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
    let mut group_base = Vec::new();
    let mut next = shapes.len() as u32 + 2;
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
            for (g, &value) in c.values.iter().enumerate() {
                if value > 0 {
                    team[1 + g] = group_base[g] + value as u32 - 1;
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
    let mut blocks: Vec<Vec<u32>> = vec![std::iter::once(RARE)
        .chain(2..shapes.len() as u32 + 2)
        .collect()];
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
        "{class}: {taught} positions taught, {held} held out, {} shapes with a gamma of their own",
        shapes.len()
    );
    for round in 0..options.iterations {
        for (slot, block) in blocks.iter().enumerate() {
            update(&positions, &mut gammas, slot, block);
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
fn update(positions: &Positions, gammas: &mut [f64], slot: usize, block: &[u32]) {
    let mut wins = vec![0.0f64; gammas.len()];
    let mut denominators = vec![0.0f64; gammas.len()];
    for j in 0..positions.starts.len() {
        if positions.held_out[j] {
            continue;
        }
        let (teams, chosen) = positions.teams_of(j);
        let total: f64 = teams.iter().map(|t| strength(t, gammas)).sum();
        for team in teams {
            let f = team[slot];
            if f != NONE {
                denominators[f as usize] += strength(team, gammas) / gammas[f as usize] / total;
            }
        }
        let f = teams[chosen][slot];
        if f != NONE {
            wins[f as usize] += 1.0;
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
            iterations: 10,
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
