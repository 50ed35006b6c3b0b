//! The priors of a new node's moves: virtual playouts from hand-made
//! heuristics (nearness to the last move, 3x3 shape, tactics read out,
//! lonely edge moves, self-ataris and suicides discouraged) and from the
//! learned move model (`knowledge`), that start each child's statistics so
//! that the tree tries the likely moves first.

use crate::game::Color;
use crate::player::board::{is_bad_self_atari, PlayoutBoard, Point, TacticalReader};
use crate::player::knowledge::{features, is_empty_area, patterns, Gammas, Recent};
use crate::player::params::SearchParams;

use super::tree::{Candidate, PASS};

/// The moves a new node gets: every point where `to_move` may play that
/// is not one of its own eyes (those too with `own_eyes`, where a client's
/// `allow` list may name one), and pass; each with a prior in virtual
/// playouts from the heuristics (nearness to the last move, shape,
/// tactics: captures, saves and ladders read out; self-ataris, escapes
/// into a working ladder and lonely edge moves discouraged).
pub fn candidates(
    p: &SearchParams,
    allow_suicide: bool,
    own_eyes: bool,
    reader: &mut TacticalReader,
    board: &mut PlayoutBoard,
    to_move: Color,
    [last_move, last2]: [Option<Point>; 2],
) -> Vec<Candidate> {
    let tactics = Tactics::read(board, to_move, last_move, reader);
    let board = &*board;
    let mut out = Vec::with_capacity(board.empty_points().len() + 1);
    let size = board.size();
    let (width, height) = (size.width as i32, size.height as i32);
    let last = last_move.map(|m| board.vertex(m));
    let near_last = p.near_last_for(size);
    let learned_wins = p.learned_wins_for(size);
    let learned = (p.prior_learned > 0 || learned_wins > 0).then(Gammas::shipped);
    let recent = Recent {
        last,
        last2: last2.map(|m| board.vertex(m)),
    };
    let mut strengths = Vec::new();
    for &point in board.empty_points() {
        if !own_eyes && board.is_eye(point, to_move) {
            continue;
        }
        let suicide = !board.is_playout_legal(point, to_move);
        if suicide && !(allow_suicide && is_multi_stone_suicide(board, point, to_move)) {
            continue;
        }
        let v = board.vertex(point);
        let mut visits = p.prior_even;
        let mut wins = p.prior_even as f32 / 2.0;
        if let Some(l) = last {
            let d = (v.col as i32 - l.col as i32).abs() + (v.row as i32 - l.row as i32).abs();
            if d <= 2 {
                visits += near_last;
                wins += near_last as f32;
            }
        }
        let line = (v.col as i32)
            .min(v.row as i32)
            .min(width - 1 - v.col as i32)
            .min(height - 1 - v.row as i32);
        // On a narrow board the edge is where the game is: only where both
        // sides are 9 or more is an empty first or second line a waste.
        if line <= 1 && size.shorter_side() >= 9 && is_empty_area(board, v) {
            visits += p.prior_empty_edge;
        }
        if tactics.urgent.contains(&point) {
            visits += p.prior_capture;
            wins += p.prior_capture as f32;
        }
        if tactics.futile.contains(&point) {
            visits += p.prior_self_atari;
        }
        if patterns::matches(board.neighbourhood(point)) {
            visits += p.prior_pattern;
            wins += p.prior_pattern as f32;
        }
        if is_bad_self_atari(board, point, to_move, p.policy.throw_ins) {
            visits += p.prior_self_atari;
        }
        if suicide {
            // Legal and now and then right, but it surprises clients
            // and opponents: the search must really prefer it.
            visits += p.prior_suicide;
        }
        if let Some(gammas) = learned {
            strengths.push(gammas.strength(&features(board, point, to_move, recent)));
        }
        out.push(Candidate {
            mv: point,
            prior_visits: visits,
            prior_wins: wins,
        });
    }
    add_learned_prior(p, learned_wins, &mut out, &strengths);
    out.push(Candidate {
        mv: PASS,
        prior_visits: p.prior_even,
        prior_wins: p.prior_even as f32 / 2.0,
    });
    out
}

/// The learned prior (`gammas`) on top of the others: `prior_learned`
/// virtual playouts for each of `candidates` (the board points, pass not
/// among them), won at a rate that grows with the log of the move's share
/// of the candidates' total strength: 50% for an average share (1/n), up
/// to 50% more or less (by `prior_learned_slope`) for a share n times
/// the average or an n-th of it. Then `wins_weight` × sqrt(q) virtual
/// playouts, all won, for a move of probability q (its share of the
/// total strength): progressive bias, Pachi's form of a pattern prior.
fn add_learned_prior(
    p: &SearchParams,
    wins_weight: u32,
    candidates: &mut [Candidate],
    strengths: &[f32],
) {
    let n = candidates.len();
    if strengths.len() != n || n < 2 {
        return;
    }
    let total: f32 = strengths.iter().sum();
    let scale = (n as f32).ln();
    for (c, &s) in candidates.iter_mut().zip(strengths) {
        let share = (s / total * n as f32).max(f32::MIN_POSITIVE);
        let rate = (0.5 + p.prior_learned_slope * share.ln() / scale).clamp(0.02, 0.98);
        c.prior_visits += p.prior_learned;
        c.prior_wins += p.prior_learned as f32 * rate;
        // Progressive bias: whole virtual wins, rounded to whole visits.
        let wins = ((s / total).sqrt() * wins_weight as f32).round();
        c.prior_visits += wins as u32;
        c.prior_wins += wins;
    }
}

/// What tactical reading says about a position for the side to move.
struct Tactics {
    /// Captures anywhere, saves that work anywhere, and the two-liberty
    /// answers around the last move.
    urgent: Vec<Point>,
    /// Extensions of our strings in atari that a ladder still catches.
    futile: Vec<Point>,
}

impl Tactics {
    fn read(
        board: &mut PlayoutBoard,
        to_move: Color,
        last_move: Option<Point>,
        reader: &mut TacticalReader,
    ) -> Tactics {
        let mut urgent = Vec::new();
        let mut futile = Vec::new();
        let mut seen = Vec::new();
        // By index: the reader plays on the board, and leaves it (its
        // list of empty points too) exactly as it found it.
        for i in 0..board.empty_points().len() {
            let e = board.empty_points()[i];
            for q in board.adjacent(e) {
                if board.color_at(q).is_none() || seen.contains(&board.string_id(q)) {
                    continue;
                }
                let (liberties, liberty) = board.liberties_up_to_two(q);
                if liberties != 1 {
                    continue;
                }
                seen.push(board.string_id(q));
                if board.color_at(q) == Some(to_move) {
                    let before = urgent.len();
                    reader.saving_moves(board, q, &mut urgent);
                    if !urgent[before..].contains(&liberty) {
                        futile.push(liberty);
                    }
                } else if !urgent.contains(&liberty) {
                    urgent.push(liberty);
                }
            }
        }
        // The ataris around the last move are among those read above.
        if let Some(m) = last_move {
            let (strings, count) = board.strings_touching(m);
            reader.two_liberty_answers(board, to_move, &strings[..count], &mut urgent);
        }
        futile.retain(|f| !urgent.contains(f));
        Tactics { urgent, futile }
    }
}

/// An empty point next to one of the mover's strings where the move is
/// not otherwise legal: playing it clears a string of two or more stones.
fn is_multi_stone_suicide(board: &PlayoutBoard, point: Point, color: Color) -> bool {
    board.ko() != Some(point)
        && board
            .adjacent(point)
            .iter()
            .any(|&n| board.color_at(n) == Some(color))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::board::DEEP_BUDGET;

    /// The (visits, wins) priors of every candidate of `to_move` on
    /// `board`, `last` the last move.
    fn priors_after(
        board: &mut PlayoutBoard,
        params: &SearchParams,
        to_move: Color,
        last: Option<Point>,
    ) -> Vec<(u32, f32)> {
        candidates(
            params,
            true,
            false,
            &mut TacticalReader::new(DEEP_BUDGET),
            board,
            to_move,
            [last, None],
        )
        .iter()
        .map(|c| (c.prior_visits, c.prior_wins))
        .collect()
    }

    #[test]
    fn the_learned_prior_rates_moves_by_their_share_of_the_strength() {
        let params = SearchParams {
            prior_learned: 20,
            prior_learned_slope: 0.5,
            ..SearchParams::default()
        };
        let mut candidates: Vec<Candidate> = (0..4)
            .map(|mv| Candidate {
                mv,
                prior_visits: 10,
                prior_wins: 5.0,
            })
            .collect();
        // Shares of the total of 4 candidates: 2.5, 1, 1/4 and 1/4 times
        // the average.
        add_learned_prior(&params, 0, &mut candidates, &[2.5, 1.0, 0.25, 0.25]);
        let rates: Vec<f32> = candidates
            .iter()
            .map(|c| (c.prior_wins - 5.0) / (c.prior_visits - 10) as f32)
            .collect();
        // 50% and half the slope's log ratio more; the average 50%; an
        // n-th of it 0%, held to 2%.
        let expected = [0.5 + 0.5 * 2.5f32.ln() / 4f32.ln(), 0.5, 0.02, 0.02];
        for (rate, expected) in rates.iter().zip(expected) {
            assert!((rate - expected).abs() < 1e-4, "{rates:?}");
        }
        // With the strengths missing (the prior off): nothing added.
        let before: Vec<u32> = candidates.iter().map(|c| c.prior_visits).collect();
        add_learned_prior(&params, 0, &mut candidates, &[1.0]);
        let after: Vec<u32> = candidates.iter().map(|c| c.prior_visits).collect();
        assert_eq!(before, after);
    }

    #[test]
    fn the_learned_wins_grow_with_the_root_of_the_move_probability() {
        let params = SearchParams {
            prior_learned: 0,
            ..SearchParams::default()
        };
        let mut candidates: Vec<Candidate> = (0..4)
            .map(|mv| Candidate {
                mv,
                prior_visits: 10,
                prior_wins: 5.0,
            })
            .collect();
        // Probabilities 0.625, 0.25, 1/16, 1/16: roots 0.79, 0.5, 0.25.
        add_learned_prior(&params, 100, &mut candidates, &[2.5, 1.0, 0.25, 0.25]);
        let added: Vec<(u32, f32)> = candidates
            .iter()
            .map(|c| (c.prior_visits - 10, c.prior_wins - 5.0))
            .collect();
        assert_eq!(added, [(79, 79.0), (50, 50.0), (25, 25.0), (25, 25.0)]);
    }

    #[test]
    fn the_learned_prior_is_on_every_board_with_its_wins_on_the_small_ones() {
        let priors = |size: usize, params: &SearchParams| {
            priors_after(&mut PlayoutBoard::new(size), params, Color::Black, None)
        };
        let off = SearchParams {
            prior_learned: 0,
            prior_learned_wins_small: 0,
            ..SearchParams::default()
        };
        let default = SearchParams::default();
        for size in [5, 9, 13, 19] {
            assert_ne!(priors(size, &default), priors(size, &off), "{size}");
        }
        // The wins form up to 12x12: on 9x9, not on 13x13 or 19x19.
        let rate_form_only = SearchParams {
            prior_learned_wins_small: 0,
            ..SearchParams::default()
        };
        assert_ne!(priors(9, &default), priors(9, &rate_form_only));
        assert_eq!(priors(13, &default), priors(13, &rate_form_only));
        assert_eq!(priors(19, &default), priors(19, &rate_form_only));
        // The large boards' value is their own.
        let large_wins = SearchParams {
            prior_learned_wins_large: 200,
            ..SearchParams::default()
        };
        assert_eq!(priors(9, &large_wins), priors(9, &default));
        assert_ne!(priors(19, &large_wins), priors(19, &default));
    }

    #[test]
    fn the_bonus_near_the_last_move_is_left_to_the_model_on_small_boards() {
        // After a black stone at the centre, White's priors.
        let priors = |size: usize, params: &SearchParams| {
            let mut board = PlayoutBoard::new(size);
            let centre = board.point(crate::game::Vertex::new(size / 2, size / 2));
            board.play(centre, Color::Black);
            priors_after(&mut board, params, Color::White, Some(centre))
        };
        let default = SearchParams::default();
        let without = SearchParams {
            prior_near_last_large: 0,
            ..SearchParams::default()
        };
        let on_small_too = SearchParams {
            prior_near_last_small: 10,
            ..SearchParams::default()
        };
        assert_eq!(priors(9, &default), priors(9, &without));
        assert_ne!(priors(9, &on_small_too), priors(9, &without));
        assert_ne!(priors(13, &default), priors(13, &without));
        assert_ne!(priors(19, &default), priors(19, &without));
    }
}
