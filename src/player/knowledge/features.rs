//! A move as the learned prior sees it: its 3x3 shape (with which
//! neighbouring strings are in atari) and a few tactical and positional
//! features, in the manner of Coulom's "Computing Elo Ratings of Move
//! Patterns in the Game of Go" (2007). `gammas` gives each feature value a
//! strength fitted to game records (`fit`).

use super::patterns::CELLS;
use super::spatial::{spatial_hashes, SPATIAL_SIZES};
use crate::game::{Color, Symmetry, Vertex};
use crate::player::board::is_bad_self_atari;
use crate::player::board::{PlayoutBoard, Point, BLACK, EDGE, EMPTY, WHITE};

/// The feature groups besides the shape. In each group a move has at most
/// one value (0: none), numbered from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// 1: captures one stone, 2: captures more, 3: captures next to our
    /// string in atari (saving it).
    Capture,
    /// Extends our string in atari: 1 to two liberties, 2 to more.
    Escape,
    /// Puts an opponent string in atari: 1 a lone stone, 2 a larger one.
    Atari,
    /// 1: a self-atari the playouts refuse, 2: a throw-in they allow.
    SelfAtari,
    /// Distance to the last move, d = dx + dy + max(dx, dy): d - 1 for d
    /// from 2 to 16, and 16 beyond.
    DistanceLast,
    /// The same to the move before it.
    DistanceLast2,
    /// The line (1 to 4, 5 for the fifth and beyond), plus 5 when nothing
    /// stands within three points.
    Line,
}

pub const GROUPS: [Group; 7] = [
    Group::Capture,
    Group::Escape,
    Group::Atari,
    Group::SelfAtari,
    Group::DistanceLast,
    Group::DistanceLast2,
    Group::Line,
];

impl Group {
    pub fn name(self) -> &'static str {
        match self {
            Group::Capture => "capture",
            Group::Escape => "escape",
            Group::Atari => "atari",
            Group::SelfAtari => "self_atari",
            Group::DistanceLast => "distance_last",
            Group::DistanceLast2 => "distance_last2",
            Group::Line => "line",
        }
    }

    /// The largest value of the group.
    pub fn values(self) -> u8 {
        match self {
            Group::Capture => 3,
            Group::Escape | Group::Atari | Group::SelfAtari => 2,
            Group::DistanceLast | Group::DistanceLast2 => 16,
            Group::Line => 10,
        }
    }

    /// The group's place in `GROUPS`, which lists them in declaration
    /// order.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A candidate move's features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveFeatures {
    /// The shape key (`shape_key`), as on the board, not canonical.
    pub shape: u32,
    /// The canonical hashes of the spatial patterns around the move,
    /// smallest first (`spatial`).
    pub spatial: [u64; SPATIAL_SIZES],
    /// Per group of `GROUPS`, its value (0: none).
    pub values: [u8; GROUPS.len()],
}

/// The last two moves, where the distance features measure from.
#[derive(Clone, Copy, Debug, Default)]
pub struct Recent {
    pub last: Option<Vertex>,
    pub last2: Option<Vertex>,
}

/// The features of `to_move` playing the empty point `p`.
pub fn features(board: &PlayoutBoard, p: Point, to_move: Color, recent: Recent) -> MoveFeatures {
    let mut values = [0u8; GROUPS.len()];
    let (capture, escape, atari) = tactical(board, p, to_move);
    values[Group::Capture.index()] = capture;
    values[Group::Escape.index()] = escape;
    values[Group::Atari.index()] = atari;
    if board.is_self_atari(p, to_move) {
        values[Group::SelfAtari.index()] = if is_bad_self_atari(board, p, to_move, true) {
            1
        } else {
            2
        };
    }
    let v = board.vertex(p);
    values[Group::DistanceLast.index()] = recent.last.map_or(0, |l| distance_value(v, l));
    values[Group::DistanceLast2.index()] = recent.last2.map_or(0, |l| distance_value(v, l));
    values[Group::Line.index()] = line_value(board, v);
    MoveFeatures {
        shape: shape_key(board, p, to_move),
        spatial: spatial_hashes(board, p, to_move),
        values,
    }
}

/// Capture, escape and atari values of `to_move` at `p`.
fn tactical(board: &PlayoutBoard, p: Point, to_move: Color) -> (u8, u8, u8) {
    let mut own_in_atari = [0 as Point; 4];
    let mut own_count = 0;
    for q in board.adjacent(p) {
        if board.color_at(q) == Some(to_move) && board.liberties_up_to_two(q).0 == 1 {
            own_in_atari[own_count] = q;
            own_count += 1;
        }
    }
    let own_in_atari = &own_in_atari[..own_count];
    let (mut capture, mut atari) = (0u8, 0u8);
    for q in board.adjacent(p) {
        match board.color_at(q) {
            Some(c) if c != to_move => {
                let (liberties, _) = board.liberties_up_to_two(q);
                let size = board.string_size(q);
                if liberties == 1 {
                    let saves = board.stones_of(q).any(|s| {
                        board.adjacent(s).iter().any(|&n| {
                            own_in_atari
                                .iter()
                                .any(|&o| board.string_id(o) == board.string_id(n))
                        })
                    });
                    let value = if saves {
                        3
                    } else if size > 1 {
                        2
                    } else {
                        1
                    };
                    capture = capture.max(value);
                } else if liberties == 2 && has_exactly_two_liberties(board, q) {
                    atari = atari.max(if size > 1 { 2 } else { 1 });
                }
            }
            _ => {}
        }
    }
    let escape = if own_in_atari.is_empty() {
        0
    } else if liberties_after_extending(board, p, to_move) >= 3 {
        2
    } else {
        1
    };
    (capture, escape, atari)
}

/// Whether the string at `q` has exactly two liberties (two or more by
/// `liberties_up_to_two`, fewer than three here).
fn has_exactly_two_liberties(board: &PlayoutBoard, q: Point) -> bool {
    board.two_liberties(q).is_some()
}

/// The liberties, counted up to three, of the string `to_move` makes at
/// `p` with its friendly neighbours (captures not counted).
fn liberties_after_extending(board: &PlayoutBoard, p: Point, to_move: Color) -> usize {
    let mut liberties: Vec<Point> = Vec::with_capacity(4);
    let add = |l: Point, liberties: &mut Vec<Point>| {
        if l != p && !liberties.contains(&l) {
            liberties.push(l);
        }
    };
    for q in board.adjacent(p) {
        if !board.is_on_board(q) {
            continue;
        }
        match board.color_at(q) {
            None => add(q, &mut liberties),
            Some(c) if c == to_move => {
                let mut out = [0; 4];
                let n = board.liberties_into(q, &mut out);
                for &l in &out[..n] {
                    add(l, &mut liberties);
                }
            }
            Some(_) => {}
        }
        if liberties.len() >= 3 {
            break;
        }
    }
    liberties.len().min(3)
}

/// Coulom's distance d = dx + dy + max(dx, dy), as a value: d - 1 for d
/// from 2 (a neighbour) to 16, 16 beyond.
fn distance_value(v: Vertex, from: Vertex) -> u8 {
    let dx = v.col.abs_diff(from.col);
    let dy = v.row.abs_diff(from.row);
    let d = dx + dy + dx.max(dy);
    d.clamp(2, 17) - 1
}

/// The line of `v` (1 on the edge, 5 for the fifth and beyond), plus 5
/// when no stone stands within Manhattan distance 3.
fn line_value(board: &PlayoutBoard, v: Vertex) -> u8 {
    let size = board.size();
    let (col, row) = (v.col as usize, v.row as usize);
    let line = col
        .min(row)
        .min(size.width - 1 - col)
        .min(size.height - 1 - row)
        + 1;
    let line = line.min(5) as u8;
    if is_empty_area(board, v) {
        line + 5
    } else {
        line
    }
}

/// Whether no stone stands within Manhattan distance 3 of `v`.
pub fn is_empty_area(board: &PlayoutBoard, v: Vertex) -> bool {
    let size = board.size();
    let (width, height) = (size.width as i32, size.height as i32);
    for dc in -3i32..=3 {
        for dr in -3i32..=3 {
            if dc.abs() + dr.abs() > 3 {
                continue;
            }
            let (c, r) = (v.col as i32 + dc, v.row as i32 + dr);
            if c < 0 || r < 0 || c >= width || r >= height {
                continue;
            }
            let p = board.point(Vertex::new(c as usize, r as usize));
            if board.color_at(p).is_some() {
                return false;
            }
        }
    }
    true
}

/// Bits of the shape key: eight cells of two bits (0 empty, 1 ours, 2
/// theirs, 3 edge) in the order of `patterns::CELLS`, then four atari bits
/// for the orthogonal cells (a stone there whose string has one liberty).
pub const SHAPE_BITS: u32 = 20;

/// The cells of `patterns::CELLS` that touch the centre, in the order of
/// the atari bits.
const ORTHOGONAL: [usize; 4] = [1, 3, 4, 6];

/// The shape around `p` for `to_move`: the colours relative to the mover
/// and the atari bits.
pub fn shape_key(board: &PlayoutBoard, p: Point, to_move: Color) -> u32 {
    let code = board.neighbourhood(p);
    let mut key = 0u32;
    for i in 0..8 {
        let cell = (code >> (2 * i)) as u8 & 3;
        let relative = match (cell, to_move) {
            (EMPTY, _) => 0,
            (EDGE, _) => 3,
            (BLACK, Color::Black) | (WHITE, Color::White) => 1,
            _ => 2,
        };
        key |= relative << (2 * i);
    }
    let points = board.neighbourhood_points(p);
    for (bit, &cell) in ORTHOGONAL.iter().enumerate() {
        let q = points[cell];
        if board.color_at(q).is_some() && board.liberties_up_to_two(q).0 == 1 {
            key |= 1 << (16 + bit);
        }
    }
    key
}

/// The eight symmetries of the square applied to a shape key, the key
/// itself first.
pub fn shape_symmetries(key: u32) -> [u32; 8] {
    let mut out = [0u32; 8];
    for (s, slot) in out.iter_mut().enumerate() {
        let mut moved = 0u32;
        for (i, &(r, c)) in CELLS.iter().enumerate() {
            let (r2, c2) = transform(s, r, c);
            let j = cell_at(r2, c2);
            moved |= (key >> (2 * i) & 3) << (2 * j);
            if let Some(bit) = ORTHOGONAL.iter().position(|&o| o == i) {
                if key >> (16 + bit) & 1 == 1 {
                    let to = ORTHOGONAL.iter().position(|&o| o == j).unwrap_or(0);
                    moved |= 1 << (16 + to);
                }
            }
        }
        *slot = moved;
    }
    out
}

/// The smallest of the key's symmetric variants: one key per shape.
pub fn canonical_shape(key: u32) -> u32 {
    shape_symmetries(key).into_iter().min().unwrap_or(key)
}

/// Symmetry `s` (0..8) of the 3x3 grid, about its centre (row 1,
/// column 1). The callers take the least key or every key of the eight, so
/// which index names which symmetry does not matter.
fn transform(s: usize, r: usize, c: usize) -> (usize, usize) {
    let (dx, dy) = Symmetry::ALL[s].offset((c as i32 - 1, r as i32 - 1));
    ((dy + 1) as usize, (dx + 1) as usize)
}

fn cell_at(r: usize, c: usize) -> usize {
    CELLS.iter().position(|&g| g == (r, c)).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> PlayoutBoard {
        PlayoutBoard::from_rows(rows)
    }

    fn at(board: &PlayoutBoard, gtp: &str) -> Point {
        board.point(Vertex::parse_gtp(gtp).expect("vertex"))
    }

    #[test]
    fn each_group_knows_its_place_in_the_list() {
        for (i, g) in GROUPS.iter().enumerate() {
            assert_eq!(g.index(), i, "{g:?}");
        }
    }

    #[test]
    fn symmetric_shapes_share_their_canonical_key() {
        // A black stone above the point and one to its right: the same
        // shape as one below and one to its left, turned.
        let b = board(&[".....", "..X..", "..+X.", ".....", "....."]);
        let rotated = board(&[".....", ".....", ".X+..", "..X..", "....."]);
        let (p, q) = (at(&b, "C3"), at(&rotated, "C3"));
        let (k1, k2) = (
            shape_key(&b, p, Color::Black),
            shape_key(&rotated, q, Color::Black),
        );
        assert_ne!(k1, k2);
        assert_eq!(canonical_shape(k1), canonical_shape(k2));
        // For White the same stones are the opponent's: another shape.
        assert_ne!(
            canonical_shape(shape_key(&b, p, Color::White)),
            canonical_shape(k1)
        );
        // The eight symmetries of a shape are each other's.
        for s in shape_symmetries(k1) {
            assert_eq!(canonical_shape(s), canonical_shape(k1));
        }
    }

    #[test]
    fn atari_bits_follow_the_stones_in_atari() {
        // White C4 is in atari (Black B4, D4, C5), above C3: the cell
        // above the centre is cell 6 (grid row 0 is the row below), the
        // fourth orthogonal one.
        let b = board(&["..X..", ".XOX.", ".....", ".....", "....."]);
        let key = shape_key(&b, at(&b, "C3"), Color::Black);
        assert_eq!(key >> 16, 0b1000, "{key:x}");
        // Turned, the bit moves with the stone and stays one bit.
        for turned in shape_symmetries(key) {
            assert_eq!((turned >> 16).count_ones(), 1, "{turned:x}");
            assert_eq!(turned & 0xffff != key & 0xffff, turned >> 16 != key >> 16);
        }
        // No stone in atari next to D2.
        assert_eq!(shape_key(&b, at(&b, "D2"), Color::Black) >> 16, 0);
    }

    #[test]
    fn capture_escape_atari_and_self_atari_are_told_apart() {
        // White B3 is in atari at C3.
        let b = board(&[".....", ".XO..", "XO.O.", ".XO..", "....."]);
        let black = features(&b, at(&b, "C3"), Color::Black, Recent::default());
        assert_eq!(black.values[Group::Capture.index()], 1, "{black:?}");
        assert_eq!(black.values[Group::SelfAtari.index()], 0, "{black:?}");
        // White C3 joins B3 to strings with room: an escape to three
        // liberties or more.
        let white = features(&b, at(&b, "C3"), Color::White, Recent::default());
        assert_eq!(white.values[Group::Escape.index()], 2, "{white:?}");
        assert_eq!(white.values[Group::Capture.index()], 0, "{white:?}");

        // Black C4 ataris the lone White C3; Black A1 next to White A2 is
        // a self-atari that is no throw-in.
        let b = board(&[".....", ".....", ".XOX.", "O....", "....."]);
        let atari = features(&b, at(&b, "C4"), Color::Black, Recent::default());
        assert_eq!(atari.values[Group::Atari.index()], 1, "{atari:?}");
        let self_atari = features(&b, at(&b, "A1"), Color::Black, Recent::default());
        assert_eq!(
            self_atari.values[Group::SelfAtari.index()],
            1,
            "{self_atari:?}"
        );
    }

    #[test]
    fn distances_and_lines() {
        let b = board(&[
            ".........",
            ".........",
            ".........",
            ".........",
            "....X....",
            ".........",
            ".........",
            ".........",
            ".........",
        ]);
        let recent = Recent {
            last: Vertex::parse_gtp("E5"),
            last2: Vertex::parse_gtp("A1"),
        };
        let f = features(&b, at(&b, "F5"), Color::White, recent);
        // A neighbour: d = 2; A1 to F5: dx 5, dy 4, d 14.
        assert_eq!(f.values[Group::DistanceLast.index()], 1);
        assert_eq!(f.values[Group::DistanceLast2.index()], 13);
        // F5 is on the fourth line (from the right edge), next to a
        // stone; B2 on the second, with nothing within three points.
        assert_eq!(f.values[Group::Line.index()], 4);
        let corner = features(&b, at(&b, "B2"), Color::White, recent);
        assert_eq!(corner.values[Group::Line.index()], 2 + 5);
    }
}
