//! The light playout: each move uniformly random among the legal moves of
//! the side to move that do not fill one of its own eyes (the usual
//! light-playout eye rule); a pass when none is left; two passes in a row,
//! or 3·N² moves, end it. Simple ko only (the tree and the real move apply
//! positional superko); no suicide (see `board`).

use super::board::{Board, Point};
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
    board: &mut Board,
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
fn choose_move(board: &mut Board, color: Color, rng: &mut FastRng) -> Option<Point> {
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
            let mut board = Board::new(9);
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
        let mut board = Board::new(5);
        let mut first = [FIRST_NONE; super::super::board::MAX_POINTS];
        light_playout(&mut board, Color::Black, &mut rng, Some(&mut first));
        let marked = first.iter().filter(|&&f| f != FIRST_NONE).count();
        assert!(marked > 10, "only {marked} points marked");
        assert!(first.iter().all(|&f| f <= FIRST_WHITE));
    }
}
