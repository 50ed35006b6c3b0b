//! Spatial patterns of several sizes around a move, in the manner of the
//! large patterns of Stern, Herbrich and Graepel (2006) and Pachi: the
//! stones within a gridcular distance d = dx + dy + max(dx, dy) of the
//! point, for d from 4 (the 3x3 square and the points two lines away) up
//! to 10 (about eleven points across). Each pattern is seen from the side
//! to move (own stones, the opponent's, empty points, off the board), so
//! that one pattern stands for both colours, and it is hashed canonically:
//! the least of the hashes of its eight rotations and reflections. The
//! move model gives the largest pattern it knows a strength of its own
//! (`gammas`): large patterns are precise where they have been seen often,
//! small ones cover the rest.

use std::sync::OnceLock;

use crate::game::{Color, Symmetry, Vertex};
use crate::player::board::{PlayoutBoard, Point};

/// The gridcular distances that bound the pattern sizes, smallest first.
pub const SPATIAL_DISTANCES: [i32; 7] = [4, 5, 6, 7, 8, 9, 10];

/// The number of pattern sizes.
pub const SPATIAL_SIZES: usize = SPATIAL_DISTANCES.len();

/// What a point of a pattern holds, from the side to move's view.
const EMPTY: usize = 0;
const OWN: usize = 1;
const OPPONENT: usize = 2;
const OFF_BOARD: usize = 3;

/// The offsets of the largest pattern, nearest first, and the keys that
/// hash them under each symmetry.
struct Table {
    offsets: Vec<(i32, i32)>,
    /// Per size, how many of `offsets` it holds.
    ends: [usize; SPATIAL_SIZES],
    /// Per offset, per content, per symmetry: what a point of that content
    /// XORs into the all-empty hash (its key and the empty point's). The
    /// eight symmetries side by side, so that one pass over the pattern's
    /// points hashes it under all of them.
    changes: Vec<[[u64; 8]; 4]>,
    /// Per symmetry and size, the hash of a pattern with every point
    /// empty: a pattern's hash is that with, for each point that is not
    /// empty, its content's key and the empty point's key XORed in. Most
    /// points of a pattern are empty: they cost nothing.
    all_empty: [[u64; SPATIAL_SIZES]; 8],
    /// Per size, a key that keeps equal stone layouts of two sizes apart.
    size_keys: [u64; SPATIAL_SIZES],
}

fn gridcular(dx: i32, dy: i32) -> i32 {
    dx.abs() + dy.abs() + dx.abs().max(dy.abs())
}

/// Symmetry `s` (0 to 7) of the square as a map of offsets. A pattern's
/// hash is the least over the eight, so which index names which symmetry
/// does not change it (data/prior-gammas.txt is keyed by these hashes).
fn symmetry(s: usize, offset: (i32, i32)) -> (i32, i32) {
    Symmetry::ALL[s].offset(offset)
}

/// SplitMix64: fixed keys, the same in every build and every run, so that
/// a fitted file's hashes stay valid.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn key_of((dx, dy): (i32, i32), content: usize) -> u64 {
    let code = (((dx + 16) as u64) << 16) | (((dy + 16) as u64) << 8) | content as u64;
    mix(code)
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let largest = SPATIAL_DISTANCES[SPATIAL_SIZES - 1];
        let mut offsets: Vec<(i32, i32)> = (-largest..=largest)
            .flat_map(|dx| (-largest..=largest).map(move |dy| (dx, dy)))
            .filter(|&(dx, dy)| (dx, dy) != (0, 0) && gridcular(dx, dy) <= largest)
            .collect();
        offsets.sort_by_key(|&(dx, dy)| (gridcular(dx, dy), dx, dy));
        let mut ends = [0; SPATIAL_SIZES];
        for (k, &d) in SPATIAL_DISTANCES.iter().enumerate() {
            ends[k] = offsets
                .iter()
                .filter(|&&(dx, dy)| gridcular(dx, dy) <= d)
                .count();
        }
        let keys: [Vec<[u64; 4]>; 8] = std::array::from_fn(|s| {
            offsets
                .iter()
                .map(|&o| std::array::from_fn(|content| key_of(symmetry(s, o), content)))
                .collect()
        });
        let size_keys = std::array::from_fn(|k| mix(0x5350_4154_4941_4c00 | k as u64));
        let all_empty = std::array::from_fn(|s| {
            let keys: &Vec<[u64; 4]> = &keys[s];
            std::array::from_fn(|k| keys[..ends[k]].iter().fold(0, |h, key| h ^ key[EMPTY]))
        });
        let changes = (0..offsets.len())
            .map(|i| {
                std::array::from_fn(|content| {
                    std::array::from_fn(|sym| {
                        let key: &[u64; 4] = &keys[sym][i];
                        key[content] ^ key[EMPTY]
                    })
                })
            })
            .collect();
        Table {
            offsets,
            ends,
            changes,
            all_empty,
            size_keys,
        }
    })
}

/// The canonical hashes of the patterns of every size around `p` (an
/// empty point), seen from `to_move`; smallest size first.
pub fn spatial_hashes(board: &PlayoutBoard, p: Point, to_move: Color) -> [u64; SPATIAL_SIZES] {
    let table = table();
    let size = board.size();
    let v = board.vertex(p);
    let (col, row) = (v.col as i32, v.row as i32);
    // Per size, per symmetry: the changes from the all-empty hash, taken
    // as the walk outwards passes each size's last point.
    let mut by_size = [[0u64; 8]; SPATIAL_SIZES];
    let mut changes = [0u64; 8];
    let mut k = 0;
    for (i, &(dx, dy)) in table.offsets.iter().enumerate() {
        while table.ends[k] == i {
            by_size[k] = changes;
            k += 1;
        }
        let (x, y) = (col + dx, row + dy);
        let content = if x < 0 || y < 0 || x >= size.width as i32 || y >= size.height as i32 {
            OFF_BOARD
        } else {
            match board.color_at(board.point(Vertex::new(x as usize, y as usize))) {
                None => continue,
                Some(c) if c == to_move => OWN,
                Some(_) => OPPONENT,
            }
        };
        let change = &table.changes[i][content];
        for (c, d) in changes.iter_mut().zip(change) {
            *c ^= d;
        }
    }
    for size_changes in &mut by_size[k..] {
        *size_changes = changes;
    }
    std::array::from_fn(|k| {
        let least = (0..8)
            .map(|s| table.all_empty[s][k] ^ by_size[k][s])
            .min()
            .unwrap_or(0);
        least ^ table.size_keys[k]
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::rng::FastRng;

    /// The hashes symmetry by symmetry, each over the list of the
    /// pattern's stones: the plain form `spatial_hashes` must agree with.
    fn reference_hashes(board: &PlayoutBoard, p: Point, to_move: Color) -> [u64; SPATIAL_SIZES] {
        let table = table();
        let size = board.size();
        let v = board.vertex(p);
        let (col, row) = (v.col as i32, v.row as i32);
        // The points that are not empty, nearest first: (offset index,
        // content).
        let mut filled = [(0u16, 0u8); 256];
        let mut count = 0;
        for (i, &(dx, dy)) in table.offsets.iter().enumerate() {
            let (x, y) = (col + dx, row + dy);
            let content = if x < 0 || y < 0 || x >= size.width as i32 || y >= size.height as i32 {
                OFF_BOARD
            } else {
                match board.color_at(board.point(Vertex::new(x as usize, y as usize))) {
                    None => continue,
                    Some(c) if c == to_move => OWN,
                    Some(_) => OPPONENT,
                }
            };
            filled[count] = (i as u16, content as u8);
            count += 1;
        }
        let filled = &filled[..count];
        let mut hashes = [[0u64; SPATIAL_SIZES]; 8];
        for (s, hashes) in hashes.iter_mut().enumerate() {
            let keys: Vec<[u64; 4]> = table
                .offsets
                .iter()
                .map(|&o| std::array::from_fn(|content| key_of(symmetry(s, o), content)))
                .collect();
            let mut changes = 0u64;
            let mut next = 0;
            for (k, &end) in table.ends.iter().enumerate() {
                while let Some(&(i, content)) =
                    filled.get(next).filter(|&&(i, _)| (i as usize) < end)
                {
                    let key = &keys[i as usize];
                    changes ^= key[content as usize] ^ key[EMPTY];
                    next += 1;
                }
                hashes[k] = table.all_empty[s][k] ^ changes;
            }
        }
        std::array::from_fn(|k| {
            let least = hashes.iter().map(|h| h[k]).min().unwrap_or(0);
            least ^ table.size_keys[k]
        })
    }

    fn hashes_at(rows: &[&str], at: &str, to_move: Color) -> [u64; SPATIAL_SIZES] {
        let board = PlayoutBoard::from_rows(rows);
        spatial_hashes(&board, board.point_of(at), to_move)
    }

    #[test]
    fn the_sizes_nest_from_the_3x3_square_outwards() {
        let table = table();
        assert_eq!(table.ends[0], 12, "d <= 4: the 3x3 square and four points");
        assert!(table.ends.windows(2).all(|w| w[0] < w[1]));
        assert!(table.offsets.len() <= 256);
    }

    #[test]
    fn a_pattern_and_its_rotations_reflections_and_colour_swap_hash_alike() {
        // A corner shape, then the same shape rotated into another corner
        // with the colours swapped and the other side to move.
        let a = hashes_at(
            &[
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
                "..X......",
                ".O.X.....",
                ".........",
            ],
            "C1",
            Color::Black,
        );
        let b = hashes_at(
            &[
                ".........",
                ".....O.X.",
                "......O..",
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
            ],
            "G9",
            Color::White,
        );
        assert_eq!(a, b);
        // Another side to move sees other patterns.
        let c = hashes_at(
            &[
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
                "..X......",
                ".O.X.....",
                ".........",
            ],
            "C1",
            Color::White,
        );
        assert!(a.iter().zip(&c).all(|(x, y)| x != y));
    }

    #[test]
    fn a_stone_changes_only_the_sizes_that_reach_it() {
        let empty = [
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
        ];
        let mut far = empty;
        // E5 to E9 is four points: gridcular distance 8.
        far[0] = "....X....";
        let base = hashes_at(&empty, "E5", Color::Black);
        let with = hashes_at(&far, "E5", Color::Black);
        for (k, &d) in SPATIAL_DISTANCES.iter().enumerate() {
            assert_eq!(base[k] == with[k], d < 8, "size {d}");
        }
        // Sizes of one layout never share a hash.
        let mut all = base.to_vec();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), SPATIAL_SIZES);
    }

    #[test]
    fn the_one_pass_hashes_are_those_of_the_plain_form_on_random_boards() {
        let mut rng = FastRng::new(7);
        for size in [5, 9, 13, 19] {
            for density in [0, 15, 40, 70] {
                let rows: Vec<String> = (0..size)
                    .map(|_| {
                        (0..size)
                            .map(|_| match rng.below(100) {
                                r if r >= density => '.',
                                r if r % 2 == 0 => 'X',
                                _ => 'O',
                            })
                            .collect()
                    })
                    .collect();
                let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
                let board = PlayoutBoard::from_rows(&rows);
                for &p in board.empty_points() {
                    for color in [Color::Black, Color::White] {
                        assert_eq!(
                            spatial_hashes(&board, p, color),
                            reference_hashes(&board, p, color),
                            "{size}x{size} at {p}: {rows:?}"
                        );
                    }
                }
            }
        }
    }
}
