//! Benchmarks of the playouts and the search, for `hane bench`. Not a test:
//! figures depend on the machine. Compare with a peer measured in the same
//! run (see README).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::playout::light_playout;
use super::playout_board::{winner, PlayoutBoard};
use super::rng::FastRng;
use super::search::{Search, SearchParams};
use super::time::Budget;
use crate::game::{Color, Game};

/// Light playouts from the empty board.
#[derive(Clone, Copy, Debug)]
pub struct PlayoutBench {
    pub size: usize,
    pub playouts: u64,
    pub seconds: f64,
    /// Moves per playout, passes included (the two final passes too).
    pub moves_per_playout: f64,
    /// Black's share of wins at komi 7, a tie counting half.
    pub black_win_rate: f64,
}

impl PlayoutBench {
    pub fn per_second(&self) -> f64 {
        self.playouts as f64 / self.seconds
    }
}

pub fn light_playouts(size: usize, playouts: u64, seed: u64) -> PlayoutBench {
    let empty = PlayoutBoard::new(size);
    let mut rng = FastRng::new(seed);
    let mut moves = 0u64;
    let mut black_wins = 0.0;
    let start = Instant::now();
    for _ in 0..playouts {
        let mut board = empty.clone();
        moves += light_playout(&mut board, Color::Black, &mut rng, None).moves as u64;
        let score = board.score(7.0);
        black_wins += match winner(score) {
            Some(Color::Black) => 1.0,
            Some(Color::White) => 0.0,
            None => 0.5,
        };
    }
    let seconds = start.elapsed().as_secs_f64();
    PlayoutBench {
        size,
        playouts,
        seconds,
        moves_per_playout: moves as f64 / playouts as f64,
        black_win_rate: black_wins / playouts as f64,
    }
}

/// Tree search from the empty board on one thread.
#[derive(Clone, Copy, Debug)]
pub struct SearchBench {
    pub size: usize,
    pub playouts: u64,
    pub seconds: f64,
    pub tree_nodes: usize,
}

impl SearchBench {
    pub fn per_second(&self) -> f64 {
        self.playouts as f64 / self.seconds
    }
}

/// `heavy`: the search's own playout policy (capture, escape and shape
/// moves), else light playouts as in `light_playouts`.
pub fn tree_search(size: usize, playouts: u64, seed: u64, heavy: bool) -> SearchBench {
    let game = Game::new(size, 7.0);
    let params = SearchParams {
        heavy_playouts: heavy,
        ..SearchParams::default()
    };
    let mut search = Search::new(&game, Color::Black, params, seed);
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    search.run(
        Budget {
            playouts,
            deadline: None,
            latest: None,
        },
        &stop,
    );
    SearchBench {
        size,
        playouts: search.playouts(),
        seconds: start.elapsed().as_secs_f64(),
        tree_nodes: search.tree().len(),
    }
}
