use std::fmt;

/// Smallest and largest board sizes GTP allows (and hane plays).
pub const MIN_SIZE: usize = 2;
pub const MAX_SIZE: usize = 25;

/// Column letters as GTP writes them: `I` is skipped.
const COLUMN_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

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

    pub fn is_on_board(self, size: usize) -> bool {
        (self.col as usize) < size && (self.row as usize) < size
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
    pub fn all(size: usize) -> impl Iterator<Item = Vertex> {
        (0..size).flat_map(move |row| (0..size).map(move |col| Vertex::new(col, row)))
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
}
