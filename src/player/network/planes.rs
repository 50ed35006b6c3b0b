//! The policy network's input: a position as binary planes over the board,
//! seen from the side to move (so no colour plane is needed). The plane
//! writer that makes the training data (examples/write_planes) and the
//! engine's evaluator (`network`) both call `write_planes`, so what the
//! network was trained on and what it is shown in a game cannot drift.
//!
//! The planes, in order (`PLANES` of them, each `width * height` values of
//! 0 or 1, points in `BoardSize::index` order):
//!
//! | plane | ones where |
//! | --- | --- |
//! | 0, 1, 2 | a stone of the side to move; of the opponent; empty |
//! | 3 | on the board (all ones: the network's zero padding is the edge) |
//! | 4, 5, 6 | a stone of the side to move whose string has 1, 2, 3+ liberties |
//! | 7, 8, 9 | the same for the opponent's strings |
//! | 10..14 | the last move, the one before, and so on back four moves |
//! | 14 | the simple-ko point the side to move may not retake |
//! | 15 | a legal move: empty, not the ko point, no suicide |
//! | 16 | a legal move that puts the mover's own string in atari |
//! | 17 | an atari that catches an opponent string (ladders read out) |
//! | 18 | the extension of our string in atari that a ladder still catches |
//!
//! The last two are what a small convolutional network cannot see for
//! itself: a ladder's outcome is decided far from where it starts.
//!
//! A network of `KOMI_PLANES` inputs (issue 56) reads one plane more, the
//! komi: `write_komi_plane`, the side to move's komi over 20 on every
//! point (KataGo's scale; White's komi, Black's its negative), so that its
//! value and its lead know what the count adds. The plane writer writes
//! the komi beside the planes rather than as one (scripts/hane_train makes
//! the plane of it); a network of `PLANES` inputs is komi-blind.

use crate::game::Color;
use crate::player::board::{PlayoutBoard, Point, TacticalReader, MAX_POINTS};

/// Input planes per position.
pub const PLANES: usize = 19;

/// Input planes of a network that reads the komi: `PLANES`, then the
/// komi's.
pub const KOMI_PLANES: usize = PLANES + 1;

/// The komi plane's scale: 7.5 points are 0.375.
const KOMI_SCALE: f32 = 20.0;

/// Writes the komi plane of `to_move`'s position under `komi` (White's)
/// into `out` (one value a point).
pub fn write_komi_plane(to_move: Color, komi: f32, out: &mut [f32]) {
    let mover = match to_move {
        Color::White => komi,
        Color::Black => -komi,
    };
    out.fill(mover / KOMI_SCALE);
}

/// How many earlier moves the planes show.
pub const RECENT_MOVES: usize = 4;

/// The moves before a position, the most recent first; None for a pass or
/// for before the start (or the last setup).
pub type RecentMoves = [Option<Point>; RECENT_MOVES];

/// Plays `point` for `color` on `board` (None: a pass) and puts it first
/// in `recent`: how a game record is replayed into the positions the
/// network sees, by the plane writer and by the evaluator's golden test.
pub fn play_and_remember(
    board: &mut PlayoutBoard,
    color: Color,
    point: Option<Point>,
    recent: &mut RecentMoves,
) {
    match point {
        Some(p) => {
            board.play(p, color);
        }
        None => board.pass(),
    }
    recent.rotate_right(1);
    recent[0] = point;
}

const OWN: usize = 0;
const OPPONENT: usize = 1;
const EMPTY_PLANE: usize = 2;
const ON_BOARD: usize = 3;
const OWN_LIBERTIES: usize = 4;
const OPPONENT_LIBERTIES: usize = 7;
const RECENT: usize = 10;
const KO: usize = 14;
const LEGAL: usize = 15;
const SELF_ATARI: usize = 16;
const LADDER_CAPTURE: usize = 17;
const LADDER_FUTILE: usize = 18;

/// Writes the planes of `board` with `to_move` to play into `out`
/// (`PLANES * width * height` values, every one written). `recent` are the
/// moves that led here; `reader` reads the ladders out on the board itself
/// and leaves it exactly as it was.
pub fn write_planes(
    board: &mut PlayoutBoard,
    to_move: Color,
    recent: &RecentMoves,
    reader: &mut TacticalReader,
    out: &mut [f32],
) {
    let size = board.size();
    let n = size.points();
    assert_eq!(out.len(), PLANES * n, "planes for a {size} board");
    out.fill(0.0);
    let index = |board: &PlayoutBoard, p: Point| size.index(board.vertex(p));
    // Liberties counted up to three, once per string (by its
    // representative); 0 until counted.
    let mut liberties = [0u8; MAX_POINTS];
    let mut catching = Vec::new();
    let mut saving = Vec::new();
    for vertex in crate::game::Vertex::all(size) {
        let p = board.point(vertex);
        let i = size.index(vertex);
        out[ON_BOARD * n + i] = 1.0;
        let Some(color) = board.color_at(p) else {
            out[EMPTY_PLANE * n + i] = 1.0;
            continue;
        };
        let id = board.string_id(p) as usize;
        if liberties[id] == 0 {
            let mut found = [0; 3];
            liberties[id] = board.liberties_into(p, &mut found).max(1) as u8;
            if color != to_move && liberties[id] == 2 {
                reader.catching_ataris(board, p, [found[0], found[1]], &mut catching);
            }
            if color == to_move && liberties[id] == 1 {
                saving.clear();
                reader.saving_moves(board, p, &mut saving);
                if !saving.contains(&found[0]) {
                    out[LADDER_FUTILE * n + index(board, found[0])] = 1.0;
                }
            }
        }
        let (stones, by_liberties) = if color == to_move {
            (OWN, OWN_LIBERTIES)
        } else {
            (OPPONENT, OPPONENT_LIBERTIES)
        };
        out[stones * n + i] = 1.0;
        out[(by_liberties + liberties[id] as usize - 1) * n + i] = 1.0;
    }
    for &p in &catching {
        out[LADDER_CAPTURE * n + index(board, p)] = 1.0;
    }
    for (k, m) in recent.iter().enumerate() {
        if let Some(m) = *m {
            out[(RECENT + k) * n + index(board, m)] = 1.0;
        }
    }
    if let Some(ko) = board.ko() {
        out[KO * n + index(board, ko)] = 1.0;
    }
    for &p in board.empty_points() {
        if board.is_playout_legal(p, to_move) {
            let i = index(board, p);
            out[LEGAL * n + i] = 1.0;
            if board.is_self_atari(p, to_move) {
                out[SELF_ATARI * n + i] = 1.0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Vertex;
    use crate::player::board::board_with;

    fn planes(board: &mut PlayoutBoard, to_move: Color, recent: &RecentMoves) -> Vec<f32> {
        let mut out = vec![f32::NAN; PLANES * board.size().points()];
        let before = board.clone();
        write_planes(
            board,
            to_move,
            recent,
            &mut TacticalReader::new(160),
            &mut out,
        );
        assert!(
            board.is_identical(&before),
            "the reader left the board as it was"
        );
        assert!(
            out.iter().all(|&x| x == 0.0 || x == 1.0),
            "every value written"
        );
        out
    }

    /// The points (GTP names, sorted) where plane `k` is one.
    fn ones(board: &PlayoutBoard, out: &[f32], k: usize) -> Vec<String> {
        let size = board.size();
        let n = size.points();
        let mut names: Vec<String> = Vertex::all(size)
            .filter(|&v| out[k * n + size.index(v)] == 1.0)
            .map(|v| v.to_string())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn stones_and_liberties_are_seen_from_the_side_to_move() {
        // Black B3-B4 has four liberties, Black B1 two (C1, B2); White
        // C3-C4 four; White A1 one (A2).
        let mut board = board_with(&["B3", "B4", "B1"], &["C3", "C4", "A1"]);
        let black = planes(&mut board, Color::Black, &[None; 4]);
        assert_eq!(ones(&board, &black, OWN), ["B1", "B3", "B4"]);
        assert_eq!(ones(&board, &black, OPPONENT), ["A1", "C3", "C4"]);
        assert_eq!(ones(&board, &black, ON_BOARD).len(), 81);
        assert_eq!(ones(&board, &black, EMPTY_PLANE).len(), 75);
        assert!(ones(&board, &black, OWN_LIBERTIES).is_empty());
        assert_eq!(ones(&board, &black, OWN_LIBERTIES + 1), ["B1"]);
        assert_eq!(ones(&board, &black, OWN_LIBERTIES + 2), ["B3", "B4"]);
        assert_eq!(ones(&board, &black, OPPONENT_LIBERTIES), ["A1"]);
        assert!(ones(&board, &black, OPPONENT_LIBERTIES + 1).is_empty());
        assert_eq!(ones(&board, &black, OPPONENT_LIBERTIES + 2), ["C3", "C4"]);
        let white = planes(&mut board, Color::White, &[None; 4]);
        assert_eq!(ones(&board, &white, OWN), ["A1", "C3", "C4"]);
        assert_eq!(ones(&board, &white, OWN_LIBERTIES), ["A1"]);
        assert_eq!(ones(&board, &white, OPPONENT_LIBERTIES + 1), ["B1"]);
        assert_eq!(ones(&board, &white, OPPONENT_LIBERTIES + 2), ["B3", "B4"]);
    }

    #[test]
    fn recent_moves_the_ko_point_and_legal_moves() {
        // Black D3 captures White C3: White may not retake at C3 at once.
        let mut board = board_with(&["C2", "B3", "C4"], &["C3", "D2", "E3", "D4"]);
        let d3 = board.point_of("D3");
        let e5 = board.point_of("E5");
        board.play(d3, Color::Black);
        let out = planes(&mut board, Color::White, &[Some(d3), None, Some(e5), None]);
        assert_eq!(ones(&board, &out, KO), ["C3"]);
        assert_eq!(ones(&board, &out, RECENT), ["D3"]);
        assert!(ones(&board, &out, RECENT + 1).is_empty());
        assert_eq!(ones(&board, &out, RECENT + 2), ["E5"]);
        assert!(ones(&board, &out, RECENT + 3).is_empty());
        // Every empty point but the ko is legal for White; D3 is in atari.
        let legal = ones(&board, &out, LEGAL);
        assert_eq!(legal.len(), 81 - 7 - 1);
        assert!(!legal.contains(&"C3".to_string()));
        assert_eq!(ones(&board, &out, OPPONENT_LIBERTIES), ["D3"]);
    }

    #[test]
    fn suicides_are_not_legal_and_self_ataris_are_marked() {
        // White A1 would be a suicide inside Black's corner; Black J1
        // beside White H1 is left one liberty (J2) and captures nothing.
        let mut board = board_with(&["A2", "B2", "B1"], &["H1"]);
        let white = planes(&mut board, Color::White, &[None; 4]);
        assert!(!ones(&board, &white, LEGAL).contains(&"A1".to_string()));
        assert_eq!(ones(&board, &white, LEGAL).len(), 77 - 1);
        let black = planes(&mut board, Color::Black, &[None; 4]);
        assert_eq!(ones(&board, &black, LEGAL).len(), 77);
        assert_eq!(ones(&board, &black, SELF_ATARI), ["J1"]);
    }

    #[test]
    fn ladders_are_read_out() {
        // White C3 with two liberties, C4 and D3: an atari from either
        // side runs a ladder that works (tactics' own example).
        let mut board = board_with(&["B3", "C2", "D4"], &["C3"]);
        let black = planes(&mut board, Color::Black, &[None; 4]);
        assert_eq!(ones(&board, &black, LADDER_CAPTURE), ["C4", "D3"]);
        // With a White stone at B5 the atari at D3 fails.
        let mut board = board_with(&["B3", "C2", "D4"], &["C3", "B5"]);
        let black = planes(&mut board, Color::Black, &[None; 4]);
        assert_eq!(ones(&board, &black, LADDER_CAPTURE), ["C4"]);
        // White C3 in atari (C4 played): running to D3 is futile.
        let mut board = board_with(&["B3", "C2", "D4", "C4"], &["C3"]);
        let white = planes(&mut board, Color::White, &[None; 4]);
        assert_eq!(ones(&board, &white, LADDER_FUTILE), ["D3"]);
        // A ladder breaker at E2 saves it: nothing futile.
        let mut board = board_with(&["B3", "C2", "D4", "C4"], &["C3", "E2"]);
        let white = planes(&mut board, Color::White, &[None; 4]);
        assert!(ones(&board, &white, LADDER_FUTILE).is_empty());
    }
}
