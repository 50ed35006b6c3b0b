//! Zobrist keys for whole-board colourings. One fixed table for every board
//! size, so the rules board and the playout board hash the same colouring to
//! the same value and the search can check its moves against the game's
//! history.

use super::color::Color;
use super::vertex::{BoardSize, Vertex, MAX_SIZE};

const KEYS_PER_COLOR: usize = MAX_SIZE * MAX_SIZE;

/// splitmix64: a fixed, well-mixed sequence, so hashes are the same in every run.
const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn build_table() -> [u64; 2 * KEYS_PER_COLOR] {
    let mut table = [0u64; 2 * KEYS_PER_COLOR];
    let mut i = 0;
    while i < table.len() {
        table[i] = splitmix64((i as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D));
        i += 1;
    }
    table
}

static TABLE: [u64; 2 * KEYS_PER_COLOR] = build_table();

/// The key XORed into the hash when a stone of `color` appears on or leaves `vertex`.
pub fn stone_key(color: Color, vertex: Vertex) -> u64 {
    TABLE[color.index() * KEYS_PER_COLOR + vertex.row as usize * MAX_SIZE + vertex.col as usize]
}

/// The key XORed into a colouring's hash when `color` is to move: under
/// situational superko a position is the colouring together with the side
/// to move, and the two sides' keys keep the same colouring apart.
pub fn to_move_key(color: Color) -> u64 {
    // Past the stone keys' seeds, so that no stone key repeats it.
    splitmix64((TABLE.len() as u64 + 1 + color.index() as u64).wrapping_mul(0x2545_F491_4F6C_DD1D))
}

/// The key XORed into a position's hash for the board's size: the same
/// colouring on boards of two sizes (two empty boards) is two positions to
/// a client that keeps analyses by hash (KataGo's `thisHash` counts the
/// size in too). The rules' own hashes compare colourings of one board and
/// leave it out.
pub fn size_key(size: BoardSize) -> u64 {
    // Past the stone keys' and the side to move's seeds.
    let index = (TABLE.len() + 3 + size.width * (MAX_SIZE + 1) + size.height) as u64;
    splitmix64(index.wrapping_mul(0x2545_F491_4F6C_DD1D))
}
