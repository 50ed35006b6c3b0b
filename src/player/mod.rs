//! Move generation: fast playouts and Monte Carlo tree search.
//!
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::game::{Color, Game, Move, Vertex};

/// What the player answers to `genmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Vertex),
    Pass,
    Resign,
}

impl Decision {
    pub fn as_move(self) -> Option<Move> {
        match self {
            Decision::Play(v) => Some(Move::Play(v)),
            Decision::Pass => Some(Move::Pass),
            Decision::Resign => None,
        }
    }
}

impl From<Move> for Decision {
    fn from(mv: Move) -> Decision {
        match mv {
            Move::Pass => Decision::Pass,
            Move::Play(v) => Decision::Play(v),
        }
    }
}

impl std::fmt::Display for Decision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Decision::Play(v) => v.fmt(f),
            Decision::Pass => f.write_str("pass"),
            Decision::Resign => f.write_str("resign"),
        }
    }
}

/// Settings from the command line.
#[derive(Clone, Debug, Default)]
pub struct PlayerConfig {
    pub seed: Option<u64>,
}

/// How long one move may take: aim for `target`, never pass `hard_limit`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveBudget {
    pub target: Duration,
    pub hard_limit: Duration,
}

pub struct Player {
    rng: SmallRng,
}

impl Player {
    pub fn new(config: &PlayerConfig) -> Player {
        let rng = match config.seed {
            Some(seed) => SmallRng::seed_from_u64(seed),
            None => SmallRng::from_entropy(),
        };
        Player { rng }
    }

    /// Chooses uniformly among the legal moves that do not fill one of
    /// `color`'s own eyes; passes only when none is left.
    pub fn genmove(
        &mut self,
        game: &Game,
        color: Color,
        _budget: Option<MoveBudget>,
        _stop: &AtomicBool,
    ) -> Decision {
        let candidates: Vec<Vertex> = game
            .legal_vertices(color)
            .into_iter()
            .filter(|&v| !is_own_eye(game, color, v))
            .collect();
        match candidates.choose(&mut self.rng) {
            Some(&v) => Decision::Play(v),
            None => Decision::Pass,
        }
    }
}

/// The usual light-playout eye: every neighbour is `color`'s stone or the
/// edge, and the opponent holds at most one diagonal (none on the edge).
pub fn is_own_eye(game: &Game, color: Color, vertex: Vertex) -> bool {
    let board = game.board();
    if board.get(vertex).is_some()
        || board
            .neighbours(vertex)
            .any(|n| board.get(n) != Some(color))
    {
        return false;
    }
    let size = board.size() as i32;
    let (col, row) = (vertex.col as i32, vertex.row as i32);
    let mut enemy_diagonals = 0;
    let mut off_board = 0;
    for (dc, dr) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
        let (c, r) = (col + dc, row + dr);
        if c < 0 || r < 0 || c >= size || r >= size {
            off_board += 1;
        } else if board.get(Vertex::new(c as usize, r as usize)) == Some(color.opponent()) {
            enemy_diagonals += 1;
        }
    }
    enemy_diagonals + usize::from(off_board > 0) < 2
}
