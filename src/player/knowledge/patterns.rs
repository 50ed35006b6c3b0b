//! 3x3 shape patterns for the playout policy and the tree's priors: the
//! classic hane, cut and edge shapes of MoGo (Gelly, Wang, Munos, Teytaud,
//! "Modification of UCT with patterns in Monte-Carlo Go", 2006).
//!
//! A neighbourhood is the colours of the eight points around a move, two
//! bits each (empty, black, white, edge), sixteen bits in all. Every pattern
//! is expanded once, in all eight orientations and both colourings, into a
//! table of 65,536 bits, so matching in a playout is one load.

use std::sync::OnceLock;

use crate::player::board as playout_board;

/// The patterns, centre = the move. `X`: a stone of one colour, `O`: the
/// other colour, `x`: not X (empty, O or edge), `o`: not O, `.`: empty,
/// `?`: anything, ` `: the edge. Both colourings are tried, so X is not
/// tied to the player to move.
const PATTERNS: [[&str; 3]; 13] = [
    ["XOX", "...", "???"], // hane enclosing
    ["XO.", "...", "?.?"], // hane, no cut
    ["XO?", "X..", "x.?"], // hane, magari
    [".O.", "X..", "..."], // attachment beside a hane
    ["XO?", "O.o", "?o?"], // cut, unprotected
    ["XO?", "O.X", "???"], // cut, peeped
    ["?X?", "O.O", "ooo"], // cut across
    ["OX?", "o.O", "???"], // cut, keima
    ["X.?", "O.?", "   "], // edge: chase
    ["OX?", "X.O", "   "], // edge: block the side cut
    ["?X?", "x.O", "   "], // edge: block the connection
    ["?XO", "x.x", "   "], // edge: sagari
    ["?OX", "X.O", "   "], // edge: cut
];

/// Point colour codes, the playout board's, widened for the 16-bit code.
const EMPTY: u16 = playout_board::EMPTY as u16;
const BLACK: u16 = playout_board::BLACK as u16;
const WHITE: u16 = playout_board::WHITE as u16;
const EDGE: u16 = playout_board::EDGE as u16;

/// The eight cells around the centre in the order of the neighbourhood
/// code: (row, column) of the 3x3 grid.
pub const CELLS: [(usize, usize); 8] = [
    (0, 0),
    (0, 1),
    (0, 2),
    (1, 0),
    (1, 2),
    (2, 0),
    (2, 1),
    (2, 2),
];

struct Table {
    bits: Vec<u64>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// Whether the neighbourhood code matches one of the patterns.
#[inline]
pub fn matches(code: u16) -> bool {
    let bits = &table().bits;
    bits[(code >> 6) as usize] >> (code & 63) & 1 == 1
}

fn build() -> Table {
    let mut table = Table {
        bits: vec![0; 1 << 10],
    };
    for pattern in PATTERNS {
        let grid: Vec<Vec<char>> = pattern.iter().map(|row| row.chars().collect()).collect();
        for variant in symmetries(&grid) {
            for x in [BLACK, WHITE] {
                let o = BLACK + WHITE - x;
                let choices: Vec<Vec<u16>> = CELLS
                    .iter()
                    .map(|&(r, c)| allowed(variant[r][c], x, o))
                    .collect();
                expand(&choices, 0, 0, &mut table);
            }
        }
    }
    table
}

/// The point colours a pattern character allows, X being `x` colour.
fn allowed(ch: char, x: u16, o: u16) -> Vec<u16> {
    match ch {
        'X' => vec![x],
        'O' => vec![o],
        'x' => vec![EMPTY, o, EDGE],
        'o' => vec![EMPTY, x, EDGE],
        '.' => vec![EMPTY],
        ' ' => vec![EDGE],
        _ => vec![EMPTY, BLACK, WHITE, EDGE],
    }
}

fn expand(choices: &[Vec<u16>], cell: usize, code: u16, table: &mut Table) {
    if cell == choices.len() {
        table.bits[(code >> 6) as usize] |= 1 << (code & 63);
        return;
    }
    for &value in &choices[cell] {
        expand(choices, cell + 1, code | value << (2 * cell), table);
    }
}

/// The eight orientations of a 3x3 grid.
fn symmetries(grid: &[Vec<char>]) -> Vec<Vec<Vec<char>>> {
    let rotate = |g: &Vec<Vec<char>>| -> Vec<Vec<char>> {
        (0..3)
            .map(|r| (0..3).map(|c| g[2 - c][r]).collect())
            .collect()
    };
    let mirror = |g: &Vec<Vec<char>>| -> Vec<Vec<char>> {
        g.iter()
            .map(|row| row.iter().rev().copied().collect())
            .collect()
    };
    let mut out = Vec::new();
    let mut g = grid.to_vec();
    for _ in 0..4 {
        out.push(g.clone());
        out.push(mirror(&g));
        g = rotate(&g);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn colour_code(rows: [&str; 3]) -> u16 {
        let grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
        CELLS.iter().enumerate().fold(0, |acc, (i, &(r, c))| {
            let v = match grid[r][c] {
                'B' => BLACK,
                'W' => WHITE,
                ' ' => EDGE,
                _ => EMPTY,
            };
            acc | v << (2 * i)
        })
    }

    #[test]
    fn hane_matches_in_every_orientation_and_colour() {
        assert!(matches(colour_code(["BWB", "...", "..."])));
        assert!(matches(colour_code(["WBW", "...", "..."])));
        assert!(matches(colour_code(["...", "...", "BWB"])));
        assert!(matches(colour_code(["B..", "W..", "B.."])));
    }

    #[test]
    fn empty_and_lone_stones_do_not_match() {
        assert!(!matches(colour_code(["...", "...", "..."])));
        assert!(!matches(colour_code(["B..", "...", "..."])));
        assert!(!matches(colour_code(["   ", "...", "..."])));
    }

    #[test]
    fn edge_patterns_need_the_edge() {
        // Sagari on the edge: ?XO / x.x / edge.
        assert!(matches(colour_code([".BW", "...", "   "])));
        // Edge chase (X.? / O.? / edge) needs the edge row below.
        assert!(matches(colour_code(["B..", "W..", "   "])));
        assert!(!matches(colour_code(["B..", "...", "   "])));
    }
}
