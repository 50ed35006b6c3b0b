//! The Zobrist keys of the playout board, by padded point: the rules
//! board's keys (`game::zobrist`) laid out on the padded array, so that the
//! two boards hash a position alike.

use std::sync::OnceLock;

use crate::game::zobrist::stone_key;
use crate::game::{BoardSize, Color, Vertex, MAX_SIZE};

/// The padded array's size, as the board's `MAX_POINTS`.
const MAX_POINTS: usize = (MAX_SIZE + 2) * (MAX_SIZE + 2);

/// Zobrist keys by padded point for one board width, built once. The
/// padded index of a vertex depends on the row stride alone, so one table
/// serves every height: the rows a short board lacks are never read.
pub(super) struct Keys {
    pub(super) keys: [[u64; MAX_POINTS]; 2],
}

pub(super) fn keys_for(width: usize) -> &'static Keys {
    static TABLES: OnceLock<Vec<Keys>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        (0..=MAX_SIZE)
            .map(|w| {
                let mut keys = Keys {
                    keys: [[0; MAX_POINTS]; 2],
                };
                let stride = w + 2;
                for v in Vertex::all(BoardSize {
                    width: w,
                    height: MAX_SIZE,
                }) {
                    let p = (v.row as usize + 1) * stride + v.col as usize + 1;
                    keys.keys[0][p] = stone_key(Color::Black, v);
                    keys.keys[1][p] = stone_key(Color::White, v);
                }
                keys
            })
            .collect()
    });
    &tables[width]
}
