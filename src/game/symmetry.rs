//! The eight symmetries of a square board (the dihedral group of the
//! square: four rotations, each with or without a mirror), as one type for
//! everything that turns a position: the network's symmetric judgement,
//! the spatial patterns' and the 3x3 shapes' canonical keys, and the
//! analysis's symmetric position hash. A rectangle keeps its shape under
//! the four that do not swap rows and columns only (`Symmetry::of`).

use super::vertex::{BoardSize, Vertex};

/// One symmetry: bit 0 mirrors the columns, bit 1 the rows, and bit 2 then
/// swaps columns and rows. Index 0 is the identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry(u8);

impl Symmetry {
    pub const IDENTITY: Symmetry = Symmetry(0);

    /// All eight, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// Those that keep a board of `size` as it is: all eight on a square,
    /// the four without a swap of rows and columns on a rectangle.
    pub fn of(size: BoardSize) -> &'static [Symmetry] {
        if size.is_square() {
            &Symmetry::ALL
        } else {
            &Symmetry::ALL[..4]
        }
    }

    /// Whether it swaps columns and rows (and so turns a rectangle).
    pub fn swaps_axes(self) -> bool {
        self.0 & 4 != 0
    }

    /// An offset (dx, dy) from a point, turned about that point.
    pub fn offset(self, (dx, dy): (i32, i32)) -> (i32, i32) {
        let x = if self.0 & 1 != 0 { -dx } else { dx };
        let y = if self.0 & 2 != 0 { -dy } else { dy };
        if self.swaps_axes() {
            (y, x)
        } else {
            (x, y)
        }
    }

    /// Where `v` goes on a board of `size`, turned about its centre. A
    /// symmetry that swaps the axes is for squares only: on a rectangle
    /// its vertex would be off the board.
    pub fn vertex(self, v: Vertex, size: BoardSize) -> Vertex {
        let (mut col, mut row) = (v.col as usize, v.row as usize);
        if self.0 & 1 != 0 {
            col = size.width - 1 - col;
        }
        if self.0 & 2 != 0 {
            row = size.height - 1 - row;
        }
        if self.swaps_axes() {
            (col, row) = (row, col);
        }
        Vertex::new(col, row)
    }

    /// The symmetry that undoes this one: a swap of the axes after the
    /// mirrors is undone by the swap first, which moves each mirror to the
    /// other axis.
    #[allow(dead_code)] // The group's laws, for turning a point's output back.
    pub fn inverse(self) -> Symmetry {
        if self.swaps_axes() {
            Symmetry(4 | (self.0 & 1) << 1 | (self.0 & 2) >> 1)
        } else {
            self
        }
    }

    /// This symmetry, then `next`. Found by where the two take one offset:
    /// (1, 2) goes to a different place under each of the eight.
    #[allow(dead_code)] // As `inverse`.
    pub fn then(self, next: Symmetry) -> Symmetry {
        let probe = next.offset(self.offset((1, 2)));
        Symmetry::ALL
            .into_iter()
            .find(|s| s.offset((1, 2)) == probe)
            .unwrap_or(Symmetry::IDENTITY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_symmetry_is_undone_by_its_inverse() {
        let size = BoardSize::square(19);
        for s in Symmetry::ALL {
            assert_eq!(s.then(s.inverse()), Symmetry::IDENTITY, "{s:?}");
            assert_eq!(s.inverse().then(s), Symmetry::IDENTITY, "{s:?}");
            for v in Vertex::all(size) {
                assert_eq!(s.inverse().vertex(s.vertex(v, size), size), v);
            }
            for o in [(1, 2), (-3, 0), (4, -5)] {
                assert_eq!(s.inverse().offset(s.offset(o)), o);
            }
        }
    }

    #[test]
    fn the_eight_are_a_group() {
        let size = BoardSize::square(9);
        let v = Vertex::parse_gtp("C2").expect("vertex");
        for a in Symmetry::ALL {
            for b in Symmetry::ALL {
                let ab = a.then(b);
                assert_eq!(ab.vertex(v, size), b.vertex(a.vertex(v, size), size));
                assert_eq!(ab.offset((2, 5)), b.offset(a.offset((2, 5))));
                // Associative, with the identity on either side.
                for c in Symmetry::ALL {
                    assert_eq!(ab.then(c), a.then(b.then(c)));
                }
            }
            assert_eq!(a.then(Symmetry::IDENTITY), a);
            assert_eq!(Symmetry::IDENTITY.then(a), a);
        }
    }

    #[test]
    fn a_vertex_under_each_of_the_eight() {
        // C2 on 9x9 (column 2, row 1) goes to each of its eight images
        // once.
        let size = BoardSize::square(9);
        let v = Vertex::parse_gtp("C2").expect("vertex");
        let images: Vec<String> = Symmetry::ALL
            .iter()
            .map(|s| s.vertex(v, size).to_string())
            .collect();
        assert_eq!(
            images,
            ["C2", "G2", "C8", "G8", "B3", "B7", "H3", "H7"],
            "mirror columns, rows, both; then each with the axes swapped"
        );
        for (s, o) in Symmetry::ALL.iter().zip([
            (1, 2),
            (-1, 2),
            (1, -2),
            (-1, -2),
            (2, 1),
            (2, -1),
            (-2, 1),
            (-2, -1),
        ]) {
            assert_eq!(s.offset((1, 2)), o, "{s:?}");
        }
    }

    #[test]
    fn a_rectangle_keeps_its_shape_under_its_four() {
        let size = BoardSize::new(7, 5).expect("size");
        assert_eq!(Symmetry::of(size).len(), 4);
        assert_eq!(Symmetry::of(BoardSize::square(9)).len(), 8);
        for &s in Symmetry::of(size) {
            assert!(!s.swaps_axes());
            let mut seen: Vec<Vertex> = Vertex::all(size).map(|v| s.vertex(v, size)).collect();
            seen.sort_by_key(|v| (v.row, v.col));
            seen.dedup();
            assert_eq!(seen.len(), size.points(), "{s:?} is a bijection");
            assert!(seen
                .iter()
                .all(|v| (v.col as usize) < size.width && (v.row as usize) < size.height));
        }
    }
}
