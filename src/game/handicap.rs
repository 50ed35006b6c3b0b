//! Handicap stones: where they go. The fixed placements are the GTP
//! specification's; free placement is hane's own choice.

use super::vertex::{BoardSize, Vertex};

/// The fixed handicap placements of the GTP specification (section 4.1.1),
/// in the spec's order. `None` when the size does not allow that many
/// stones: below 7x7 there is no fixed handicap; 7x7 and even sizes allow 2
/// to 4 stones; odd sizes from 9x9 allow 2 to 9. The spec defines the
/// placements for square boards only, so a rectangle has none.
pub fn fixed_handicap_vertices(size: BoardSize, stones: usize) -> Option<Vec<Vertex>> {
    if !size.is_square() {
        return None;
    }
    let size = size.width;
    if size < 7 || stones < 2 {
        return None;
    }
    let max = if size % 2 == 0 || size == 7 { 4 } else { 9 };
    if stones > max {
        return None;
    }
    // Corner stones on the third line up to 12x12, the fourth from 13x13.
    let low = if size < 13 { 2 } else { 3 };
    let high = size - 1 - low;
    let mid = size / 2;
    let at = |col, row| Vertex::new(col, row);
    let table = [
        at(low, low),   // D4
        at(high, high), // Q16
        at(low, high),  // D16
        at(high, low),  // Q4
        at(low, mid),   // D10
        at(high, mid),  // Q10
        at(mid, low),   // K4
        at(mid, high),  // K16
    ];
    let centre = at(mid, mid);
    let mut vertices = match stones {
        2..=4 => table[..stones].to_vec(),
        5 => table[..4].to_vec(),
        6 | 7 => table[..6].to_vec(),
        _ => table[..8].to_vec(),
    };
    if stones % 2 == 1 && stones >= 5 {
        vertices.push(centre);
    }
    Some(vertices)
}

/// Where `stones` free handicap stones go: the fixed placement where the
/// spec has one; past the spec's largest, its points first and then points
/// from the centre outwards that touch no stone already placed; where that
/// cannot find room, points of one checkerboard colour from the centre
/// outwards. No stone is ever left without a liberty. The caller checks
/// that `stones` lies in 2..width*height.
pub fn free_handicap_vertices(size: BoardSize, stones: usize) -> Vec<Vertex> {
    if let Some(fixed) = fixed_handicap_vertices(size, stones) {
        return fixed;
    }
    let largest_fixed = (2..stones)
        .rev()
        .find_map(|n| fixed_handicap_vertices(size, n));
    if let Some(mut placed) = largest_fixed {
        for v in from_the_centre(size, Vertex::all(size).collect()) {
            if placed.len() == stones {
                break;
            }
            if placed
                .iter()
                .all(|p| p.col.abs_diff(v.col) + p.row.abs_diff(v.row) >= 2)
            {
                placed.push(v);
            }
        }
        if placed.len() == stones {
            return placed;
        }
    }
    // The checkerboard colour of A1: the larger one when the board has an
    // odd number of points (on a square board it holds the centre too).
    let points = Vertex::all(size)
        .filter(|v| (v.col + v.row) % 2 == 0)
        .collect();
    let mut points = from_the_centre(size, points);
    points.truncate(stones);
    points
}

/// `points` by their distance from the centre, nearest first: by ring,
/// then by steps along the lines, then row and column.
fn from_the_centre(size: BoardSize, mut points: Vec<Vertex>) -> Vec<Vertex> {
    let (centre_col, centre_row) = ((size.width / 2) as i32, (size.height / 2) as i32);
    points.sort_by_key(|v| {
        let (dc, dr) = (v.col as i32 - centre_col, v.row as i32 - centre_row);
        (dc.abs().max(dr.abs()), dc.abs() + dr.abs(), v.row, v.col)
    });
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handicap_tables_follow_the_spec() {
        let list = |size: usize, n| {
            fixed_handicap_vertices(BoardSize::square(size), n).map(|vs| {
                vs.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
        };
        assert_eq!(list(19, 9).unwrap(), "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10");
        assert_eq!(list(19, 5).unwrap(), "D4 Q16 D16 Q4 K10");
        assert_eq!(list(19, 7).unwrap(), "D4 Q16 D16 Q4 D10 Q10 K10");
        assert_eq!(list(9, 2).unwrap(), "C3 G7");
        assert_eq!(list(13, 4).unwrap(), "D4 K10 D10 K4");
        assert_eq!(list(7, 5), None);
        assert_eq!(list(10, 4).unwrap(), "C3 H8 C8 H3");
        assert_eq!(list(6, 2), None);
        assert_eq!(list(19, 10), None);
        assert_eq!(list(19, 1), None);
        let rectangle = BoardSize::new(19, 13).expect("a playable size");
        assert_eq!(fixed_handicap_vertices(rectangle, 4), None);
    }

    /// README: `place_free_handicap N` puts the fixed points first. Ten on
    /// 19x19 were a clump of ten around tengen; now the spec's nine (GTP
    /// 4.1.1) and one more beside none of them.
    #[test]
    fn free_handicap_past_the_fixed_ones_starts_with_the_fixed_points() {
        for (size, stones) in [(19, 10), (19, 12), (13, 11), (9, 15), (10, 6)] {
            let vertices = free_handicap_vertices(size.into(), stones);
            let largest = (2..stones)
                .rev()
                .find_map(|n| fixed_handicap_vertices(size.into(), n))
                .expect("a fixed placement");
            assert_eq!(vertices.len(), stones, "{size}: {stones}");
            assert_eq!(vertices[..largest.len()], largest[..], "{size}: {stones}");
        }
        let ten: Vec<String> = free_handicap_vertices(19.into(), 10)
            .iter()
            .map(|v| v.to_string())
            .collect();
        assert_eq!(ten[..9].join(" "), "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10");
    }

    #[test]
    fn free_handicap_is_fixed_where_the_spec_has_a_placement_else_spread_apart() {
        assert_eq!(
            free_handicap_vertices(19.into(), 4),
            fixed_handicap_vertices(19.into(), 4).unwrap()
        );
        let shapes = [(5, 5, 2), (5, 5, 12), (9, 9, 10), (19, 19, 30), (2, 2, 2)];
        let rectangles = [(9, 7, 4), (2, 7, 7), (13, 9, 20), (3, 5, 8)];
        for (width, height, stones) in shapes.into_iter().chain(rectangles) {
            let size = BoardSize::new(width, height).expect("a playable size");
            let vertices = free_handicap_vertices(size, stones);
            assert_eq!(vertices.len(), stones.min(size.points().div_ceil(2)));
            assert!(vertices.iter().all(|v| v.is_on_board(size)));
            // One checkerboard colour: no two stones touch, so each keeps
            // its liberties.
            for a in &vertices {
                for b in &vertices {
                    let distance = a.col.abs_diff(b.col) + a.row.abs_diff(b.row);
                    assert!(a == b || distance >= 2, "{a} beside {b}");
                }
            }
        }
    }
}
