//! The playout board of a game's position, for everything that starts
//! from the game: the search's root, the decision's cheapest move, the
//! bench.

use super::playout_board::PlayoutBoard;
use crate::game::{Game, Vertex};

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
