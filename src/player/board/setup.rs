//! The playout board of a game's position, for everything that starts
//! from the game: the search's root, the decision's cheapest move, the
//! bench.

use super::playout_board::PlayoutBoard;
#[cfg(test)]
use crate::game::Color;
use crate::game::{Game, Symmetry, Vertex};

/// The stones of `game`'s position on a playout board (no ko point: the
/// game's rules check the move finally played).
pub fn board_of(game: &Game) -> PlayoutBoard {
    let size = game.size();
    let mut board = PlayoutBoard::new(size);
    for vertex in Vertex::all(size) {
        if let Some(color) = game.board().get(vertex) {
            board.set_stone(vertex, color);
        }
    }
    board
}

/// `board` turned by `symmetry` (one that keeps its shape: `Symmetry::of`),
/// its simple-ko point with it: the same position to the rules, another
/// to a network that judges each orientation a little differently.
pub fn turned(board: &PlayoutBoard, symmetry: Symmetry) -> PlayoutBoard {
    let size = board.size();
    let mut out = PlayoutBoard::new(size);
    // Each string of a legal position keeps a liberty while its stones are
    // put down one by one: an empty neighbour, or one of its own stones not
    // yet put down. Nothing is captured on the way.
    for vertex in Vertex::all(size) {
        if let Some(color) = board.color_at(board.point(vertex)) {
            out.set_stone(symmetry.vertex(vertex, size), color);
        }
    }
    if let Some(ko) = board.ko() {
        out.ko = out.point(symmetry.vertex(board.vertex(ko), size));
    }
    out
}

/// A 9x9 board with the given stones, as GTP vertices. For tests.
#[cfg(test)]
pub fn board_with(black: &[&str], white: &[&str]) -> PlayoutBoard {
    let mut board = PlayoutBoard::new(9);
    for (stones, color) in [(black, Color::Black), (white, Color::White)] {
        for s in stones {
            board.set_stone(Vertex::parse_gtp(s).expect("test vertex"), color);
        }
    }
    board
}
