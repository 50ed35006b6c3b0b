use std::fmt;

/// Smallest and largest board sizes GTP allows (and hane plays).
pub const MIN_SIZE: usize = 2;
pub const MAX_SIZE: usize = 25;

/// Column letters as GTP writes them: `I` is skipped.
const COLUMN_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The dimensions of a board: `width` columns (`A`, `B`, ...) and `height`
/// rows (`1`, `2`, ...). The rules allow a rectangle by prior agreement; a
/// square board is the common case, and a plain number converts to one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardSize {
    pub width: usize,
    pub height: usize,
}

impl BoardSize {
    /// A `width` x `height` board, or None when a side lies outside
    /// MIN_SIZE..=MAX_SIZE.
    pub fn new(width: usize, height: usize) -> Option<BoardSize> {
        let fits = |side| (MIN_SIZE..=MAX_SIZE).contains(&side);
        (fits(width) && fits(height)).then_some(BoardSize { width, height })
    }

    /// An `n` x `n` board; the range is the caller's to check (`is_playable`).
    pub const fn square(n: usize) -> BoardSize {
        BoardSize {
            width: n,
            height: n,
        }
    }

    /// Whether both sides lie in MIN_SIZE..=MAX_SIZE.
    pub fn is_playable(self) -> bool {
        BoardSize::new(self.width, self.height).is_some()
    }

    pub fn is_square(self) -> bool {
        self.width == self.height
    }

    /// The number of points of the board (saturating: the clock's tests
    /// hand it absurd sides).
    pub fn points(self) -> usize {
        self.width.saturating_mul(self.height)
    }

    /// The shorter side: what decides, for instance, how far a point can lie
    /// from the edge.
    pub fn shorter_side(self) -> usize {
        self.width.min(self.height)
    }

    /// Row-major index of a vertex from the lower left corner.
    #[inline]
    pub fn index(self, vertex: Vertex) -> usize {
        vertex.row as usize * self.width + vertex.col as usize
    }
}

impl From<usize> for BoardSize {
    fn from(n: usize) -> BoardSize {
        BoardSize::square(n)
    }
}

/// `19` for a square board, `9x7` (width x height) for a rectangle.
impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_square() {
            write!(f, "{}", self.width)
        } else {
            write!(f, "{}x{}", self.width, self.height)
        }
    }
}

/// A point of the board, counted from the lower left corner: `col` 0 is
/// column `A`, `row` 0 is row `1`. Whether it lies on a given board is the
/// board's business (`Vertex::is_on_board`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Vertex {
    pub col: u8,
    pub row: u8,
}

impl Vertex {
    pub fn new(col: usize, row: usize) -> Vertex {
        debug_assert!(col < MAX_SIZE && row < MAX_SIZE);
        Vertex {
            col: col as u8,
            row: row as u8,
        }
    }

    /// Whether the vertex lies on a board of this size: its column within
    /// the width and its row within the height.
    pub fn is_on_board(self, size: impl Into<BoardSize>) -> bool {
        let size = size.into();
        (self.col as usize) < size.width && (self.row as usize) < size.height
    }

    /// Parses a GTP vertex such as `D4` or `t19` (not `pass`). The letter `I`
    /// is not a column. Does not check against a board size.
    pub fn parse_gtp(text: &str) -> Option<Vertex> {
        let bytes = text.as_bytes();
        let (&letter, digits) = bytes.split_first()?;
        let letter = letter.to_ascii_uppercase();
        let col = COLUMN_LETTERS.iter().position(|&c| c == letter)?;
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let row: usize = std::str::from_utf8(digits).ok()?.parse().ok()?;
        if row == 0 || row > MAX_SIZE {
            return None;
        }
        Some(Vertex::new(col, row - 1))
    }

    /// Every vertex of a board of this size, row by row from the bottom.
    pub fn all(size: impl Into<BoardSize>) -> impl Iterator<Item = Vertex> {
        let BoardSize { width, height } = size.into();
        (0..height).flat_map(move |row| (0..width).map(move |col| Vertex::new(col, row)))
    }
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            COLUMN_LETTERS[self.col as usize] as char,
            self.row as usize + 1
        )
    }
}

/// A turn: a stone on a vertex, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Pass,
    Play(Vertex),
}

impl Move {
    pub fn vertex(self) -> Option<Vertex> {
        match self {
            Move::Pass => None,
            Move::Play(v) => Some(v),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Pass => f.write_str("pass"),
            Move::Play(v) => v.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_vertices_skip_i_and_ignore_case() {
        assert_eq!(Vertex::parse_gtp("A1"), Some(Vertex::new(0, 0)));
        assert_eq!(Vertex::parse_gtp("j10"), Some(Vertex::new(8, 9)));
        assert_eq!(Vertex::parse_gtp("I5"), None);
        assert_eq!(Vertex::parse_gtp("Z25"), Some(Vertex::new(24, 24)));
        assert_eq!(Vertex::parse_gtp("A26"), None);
        assert_eq!(Vertex::parse_gtp("A0"), None);
        assert_eq!(Vertex::parse_gtp("A"), None);
        assert_eq!(Vertex::parse_gtp("A+1"), None);
        assert_eq!(Vertex::new(8, 9).to_string(), "J10");
    }

    #[test]
    fn a_rectangle_checks_columns_against_its_width_and_rows_against_its_height() {
        let size = BoardSize::new(7, 4).expect("a playable size");
        assert!(Vertex::parse_gtp("G4").is_some_and(|v| v.is_on_board(size)));
        assert!(Vertex::parse_gtp("H1").is_some_and(|v| !v.is_on_board(size)));
        assert!(Vertex::parse_gtp("A5").is_some_and(|v| !v.is_on_board(size)));
        assert_eq!(Vertex::all(size).count(), 28);
        assert_eq!(Vertex::all(size).last(), Some(Vertex::new(6, 3)));
        assert_eq!(BoardSize::new(1, 9), None);
        assert_eq!(BoardSize::new(9, 26), None);
        assert_eq!(size.to_string(), "7x4");
        assert_eq!(BoardSize::square(9).to_string(), "9");
    }
}
