use std::fmt;

/// The colour of a stone or of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: the place of a colour in `PerColor` and
    /// in tables of the playout board.
    pub fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    /// +1 for Black, -1 for White: turns a value seen by Black (a margin,
    /// an owner) into the same value seen by this colour.
    pub fn sign(self) -> f32 {
        match self {
            Color::Black => 1.0,
            Color::White => -1.0,
        }
    }

    /// The GTP / SGF letter: `B` or `W`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// One value for each colour (captures, areas, clocks), read and written
/// by colour rather than by a hand-made index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerColor<T> {
    black: T,
    white: T,
}

impl<T> PerColor<T> {
    pub const fn new(black: T, white: T) -> PerColor<T> {
        PerColor { black, white }
    }
}

impl<T: Clone> PerColor<T> {
    /// The same value for both colours.
    pub fn both(value: T) -> PerColor<T> {
        PerColor {
            black: value.clone(),
            white: value,
        }
    }
}

impl<T> std::ops::Index<Color> for PerColor<T> {
    type Output = T;

    fn index(&self, color: Color) -> &T {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }
}

impl<T> std::ops::IndexMut<Color> for PerColor<T> {
    fn index_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}
