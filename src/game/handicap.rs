//! Handicap stones: where they go. The fixed placements are the GTP
//! specification's; free placement is hane's own choice.

use super::vertex::Vertex;

/// The fixed handicap placements of the GTP specification (section 4.1.1),
/// in the spec's order. `None` when the size does not allow that many
/// stones: below 7x7 there is no fixed handicap; 7x7 and even sizes allow 2
/// to 4 stones; odd sizes from 9x9 allow 2 to 9.
pub fn fixed_handicap_vertices(size: usize, stones: usize) -> Option<Vec<Vertex>> {
    if size < 7 || stones < 2 {
        return None;
    }
    let max = if size.is_multiple_of(2) || size == 7 {
        4
    } else {
        9
    };
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
/// spec has one, else points of one checkerboard colour from the centre
/// outwards, so that no stone is ever left without a liberty. The caller
/// checks that `stones` lies in 2..size*size.
pub fn free_handicap_vertices(size: usize, stones: usize) -> Vec<Vertex> {
    if let Some(fixed) = fixed_handicap_vertices(size, stones) {
        return fixed;
    }
    let centre = (size / 2) as i32;
    let parity = (centre + centre) % 2;
    let mut points: Vec<Vertex> = Vertex::all(size)
        .filter(|v| (v.col as i32 + v.row as i32) % 2 == parity)
        .collect();
    points.sort_by_key(|v| {
        let (dc, dr) = (v.col as i32 - centre, v.row as i32 - centre);
        (dc.abs().max(dr.abs()), dc.abs() + dr.abs(), v.row, v.col)
    });
    points.truncate(stones);
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handicap_tables_follow_the_spec() {
        let list = |size, n| {
            fixed_handicap_vertices(size, n).map(|vs| {
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
    }

    #[test]
    fn free_handicap_is_fixed_where_the_spec_has_a_placement_else_spread_apart() {
        assert_eq!(
            free_handicap_vertices(19, 4),
            fixed_handicap_vertices(19, 4).unwrap()
        );
        for (size, stones) in [(5, 2), (5, 12), (9, 10), (19, 30), (2, 2)] {
            let vertices = free_handicap_vertices(size, stones);
            assert_eq!(vertices.len(), stones.min((size * size).div_ceil(2)));
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
