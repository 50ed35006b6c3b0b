//! The light playout: each move uniformly random among the legal moves of
//! the side to move that do not fill one of its own eyes (the usual
//! light-playout eye rule); a pass when none is left; two passes in a row,
//! or 3·N² moves, end it. Simple ko only (the tree and the real move apply
//! positional superko); no suicide (see `board`).

use super::playout_board::{PlayoutBoard, Point};
use super::rng::FastRng;
use crate::game::Color;

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutEnd {
    /// Moves played, passes included (the two final passes too).
    pub moves: u32,
}

/// The colour codes of the all-moves-as-first map: who played a point first.
pub const FIRST_NONE: u8 = 0;
pub const FIRST_BLACK: u8 = 1;
pub const FIRST_WHITE: u8 = 2;

pub fn first_code(color: Color) -> u8 {
    match color {
        Color::Black => FIRST_BLACK,
        Color::White => FIRST_WHITE,
    }
}

/// Plays a light playout from `board` with `to_move` to play. When given,
/// `first_mover` (indexed by point) records who played each point first,
/// where nobody had yet.
pub fn light_playout(
    board: &mut PlayoutBoard,
    mut to_move: Color,
    rng: &mut FastRng,
    mut first_mover: Option<&mut [u8]>,
) -> PlayoutEnd {
    let max_moves = 3 * board.size() * board.size();
    let mut passes = 0;
    let mut moves = 0u32;
    while passes < 2 && (moves as usize) < max_moves {
        match choose_move(board, to_move, rng) {
            Some(p) => {
                board.play(p, to_move);
                passes = 0;
                if let Some(first) = first_mover.as_deref_mut() {
                    if first[p as usize] == FIRST_NONE {
                        first[p as usize] = first_code(to_move);
                    }
                }
            }
            None => {
                board.pass();
                passes += 1;
            }
        }
        moves += 1;
        to_move = to_move.opponent();
    }
    PlayoutEnd { moves }
}

/// A uniformly random legal non-eye-filling move, by rejection from a
/// shrinking window of the empty-point list: a rejected point is swapped
/// out of the window, so every remaining candidate stays equally likely.
#[inline]
fn choose_move(board: &mut PlayoutBoard, color: Color, rng: &mut FastRng) -> Option<Point> {
    let mut window = board.empty_count();
    while window > 0 {
        let i = rng.below(window);
        let p = board.empty_at(i);
        if !board.is_eye(p, color) && board.is_playout_legal(p, color) {
            return Some(p);
        }
        window -= 1;
        board.swap_empties(i, window);
    }
    None
}

/// Probability of trying the capture and escape moves around the last move.
const PROB_CAPTURE: f32 = 0.9;
/// Probability of trying the 3x3 shape moves around the last move.
const PROB_PATTERN: f32 = 0.95;
/// Probability of refusing a self-atari chosen by the shape or random rule.
const PROB_REJECT_SELF_ATARI: f32 = 0.9;

/// The playout of the search, in the manner of MoGo and Michi: answer the
/// last move locally when there is a reason (capture a string it left in
/// atari, save our string it put in atari, play a good shape next to it),
/// else a uniformly random move as in `light_playout`. Self-ataris are
/// mostly refused. The rules are the light playout's (no suicide, simple
/// ko, own eyes never filled).
pub fn policy_playout(
    board: &mut PlayoutBoard,
    mut to_move: Color,
    mut last_move: Option<Point>,
    rng: &mut FastRng,
    mut first_mover: Option<&mut [u8]>,
) -> PlayoutEnd {
    let max_moves = 3 * board.size() * board.size();
    let mut passes = 0;
    let mut moves = 0u32;
    let mut candidates = Vec::with_capacity(16);
    while passes < 2 && (moves as usize) < max_moves {
        let chosen = last_move
            .and_then(|last| local_answer(board, to_move, last, rng, &mut candidates))
            .or_else(|| choose_random_move(board, to_move, rng));
        match chosen {
            Some(p) => {
                board.play(p, to_move);
                passes = 0;
                last_move = Some(p);
                if let Some(first) = first_mover.as_deref_mut() {
                    if first[p as usize] == FIRST_NONE {
                        first[p as usize] = first_code(to_move);
                    }
                }
            }
            None => {
                board.pass();
                passes += 1;
                last_move = None;
            }
        }
        moves += 1;
        to_move = to_move.opponent();
    }
    PlayoutEnd { moves }
}

/// A move answering the last one, or None.
fn local_answer(
    board: &PlayoutBoard,
    color: Color,
    last: Point,
    rng: &mut FastRng,
    candidates: &mut Vec<Point>,
) -> Option<Point> {
    if rng.chance(PROB_CAPTURE) {
        candidates.clear();
        capture_and_escape_moves(board, color, last, candidates);
        if let Some(p) = pick(board, color, candidates, rng, false) {
            return Some(p);
        }
    }
    if rng.chance(PROB_PATTERN) {
        candidates.clear();
        for p in neighbourhood_points(board, last) {
            if board.color_at(p).is_none()
                && board.is_on_board(p)
                && super::patterns::matches(board.neighbourhood(p))
            {
                candidates.push(p);
            }
        }
        if let Some(p) = pick(board, color, candidates, rng, true) {
            return Some(p);
        }
    }
    None
}

/// The eight points around `p`.
fn neighbourhood_points(board: &PlayoutBoard, p: Point) -> [Point; 8] {
    let w = board.width() as Point;
    [
        p - w - 1,
        p - w,
        p - w + 1,
        p - 1,
        p + 1,
        p + w - 1,
        p + w,
        p + w + 1,
    ]
}

/// Captures of opponent strings in atari next to the last move (or the
/// last move's own string), and the liberty of our strings next to it that
/// it put in atari, when extending there gains liberties.
pub fn capture_and_escape_moves(
    board: &PlayoutBoard,
    color: Color,
    last: Point,
    out: &mut Vec<Point>,
) {
    let mut strings = [last; 5];
    strings[1..].copy_from_slice(&board.adjacent(last));
    for q in strings {
        let Some(owner) = board.color_at(q) else {
            continue;
        };
        let (liberties, liberty) = board.liberties_up_to_two(q);
        if liberties != 1 {
            continue;
        }
        // Capture theirs; save ours when extending gains liberties.
        if owner != color || !board.is_self_atari(liberty, color) {
            out.push(liberty);
        }
    }
}

/// A random acceptable point of `candidates`: legal, not an own eye, and
/// (when `avoid_self_atari`) mostly not a self-atari.
fn pick(
    board: &PlayoutBoard,
    color: Color,
    candidates: &mut Vec<Point>,
    rng: &mut FastRng,
    avoid_self_atari: bool,
) -> Option<Point> {
    while !candidates.is_empty() {
        let i = rng.below(candidates.len());
        let p = candidates.swap_remove(i);
        if board.is_eye(p, color) || !board.is_playout_legal(p, color) {
            continue;
        }
        if avoid_self_atari && board.is_self_atari(p, color) && rng.chance(PROB_REJECT_SELF_ATARI) {
            continue;
        }
        return Some(p);
    }
    None
}

/// A uniformly random legal non-eye move that is mostly not a self-atari.
fn choose_random_move(board: &mut PlayoutBoard, color: Color, rng: &mut FastRng) -> Option<Point> {
    let mut window = board.empty_count();
    // A refused self-atari is still better than passing when it is the
    // only move left.
    let mut refused = None;
    while window > 0 {
        let i = rng.below(window);
        let p = board.empty_at(i);
        if !board.is_eye(p, color) && board.is_playout_legal(p, color) {
            if !(board.is_self_atari(p, color) && rng.chance(PROB_REJECT_SELF_ATARI)) {
                return Some(p);
            }
            refused = Some(p);
        }
        window -= 1;
        board.swap_empties(i, window);
    }
    refused
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn light_playouts_on_9x9_look_like_the_standard_ones() {
        // The standard light playout averages about 111 moves on 9x9 and
        // Black wins about 43% at komi 7.
        let mut rng = FastRng::new(5);
        let (mut moves, mut black) = (0u64, 0.0);
        let n = 4000;
        for _ in 0..n {
            let mut board = PlayoutBoard::new(9);
            let end = light_playout(&mut board, Color::Black, &mut rng, None);
            moves += end.moves as u64;
            let score = board.score(7.0);
            black += if score > 0.0 {
                1.0
            } else if score == 0.0 {
                0.5
            } else {
                0.0
            };
            // A finished light playout leaves only eyes: every empty point
            // is owned by one colour or is a lone point between both.
            assert!(board.empty_points().len() < 30);
        }
        let mean = moves as f64 / n as f64;
        let rate = black / n as f64;
        assert!((105.0..117.0).contains(&mean), "moves per playout {mean}");
        assert!((0.39..0.47).contains(&rate), "black win rate {rate}");
    }

    #[test]
    fn first_mover_map_records_the_first_player_only() {
        let mut rng = FastRng::new(9);
        let mut board = PlayoutBoard::new(5);
        let mut first = [FIRST_NONE; super::super::playout_board::MAX_POINTS];
        light_playout(&mut board, Color::Black, &mut rng, Some(&mut first));
        let marked = first.iter().filter(|&&f| f != FIRST_NONE).count();
        assert!(marked > 10, "only {marked} points marked");
        assert!(first.iter().all(|&f| f <= FIRST_WHITE));
    }
}
