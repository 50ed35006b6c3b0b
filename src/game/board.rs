//! The rules board: the colouring of every point, the Zobrist hash of that
//! colouring kept up to date as stones are placed and cleared, and the
//! Tromp-Taylor operations on it (reaching, clearing, counting).
//!
//! This board is written to be obviously right rather than fast: strings and
//! liberties are found by flood fill when a move needs them, and the game
//! keeps one copy per turn for exact superko and undo. It answers the
//! client (legality, `countlib`, `final_score`) and decides the game.
//!
//! Two boards on purpose. The search has its own, `player::PlayoutBoard`,
//! built for speed: fixed arrays copied at every playout, strings kept
//! incrementally, simple ko only. Three facts are computed by both, each
//! its own way: the score (`area` here, `PlayoutBoard::score` there), the
//! owner of a point (`owner`) and the liberties of a string (`liberties`
//! here, exact; pseudo-liberty counts there). The exact answers that reach
//! the client come from this board; the fast ones only steer the search.
//! The playout board's tests check its answers against this board's on
//! random games.

use super::color::{Color, PerColor};
use super::vertex::{BoardSize, Vertex};
use super::zobrist::stone_key;

/// What one Tromp-Taylor move did to the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveEffect {
    /// Opponent stones cleared because they no longer reached empty.
    pub captured: Vec<Vertex>,
    /// The mover's own stones cleared (a suicide). At most one of the two
    /// lists is non-empty.
    pub suicided: Vec<Vertex>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    size: BoardSize,
    /// Row-major from the lower left corner: index `row * width + col`.
    points: Vec<Option<Color>>,
    hash: u64,
}

impl Board {
    /// An empty board. Each side must lie in MIN_SIZE..=MAX_SIZE (the
    /// caller checks input).
    pub fn new(size: impl Into<BoardSize>) -> Board {
        let size = size.into();
        assert!(size.is_playable(), "board size {size}");
        Board {
            size,
            points: vec![None; size.points()],
            hash: 0,
        }
    }

    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// Zobrist hash of the colouring: XOR of the keys of every stone.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn get(&self, vertex: Vertex) -> Option<Color> {
        self.points[self.index(vertex)]
    }

    pub fn is_on_board(&self, vertex: Vertex) -> bool {
        vertex.is_on_board(self.size)
    }

    /// Puts a stone on, or takes one off, a point without any rule: for setup
    /// stones. The hash follows.
    pub fn set(&mut self, vertex: Vertex, color: Option<Color>) {
        let index = self.index(vertex);
        if let Some(old) = self.points[index] {
            self.hash ^= stone_key(old, vertex);
        }
        if let Some(new) = color {
            self.hash ^= stone_key(new, vertex);
        }
        self.points[index] = color;
    }

    /// Every stone of `color`, row by row from the bottom.
    pub fn stones(&self, color: Color) -> Vec<Vertex> {
        Vertex::all(self.size)
            .filter(|&v| self.get(v) == Some(color))
            .collect()
    }

    pub fn stone_count(&self) -> usize {
        self.points.iter().filter(|p| p.is_some()).count()
    }

    pub fn is_empty(&self) -> bool {
        self.points.iter().all(Option::is_none)
    }

    /// The orthogonal neighbours of a vertex that lie on the board.
    pub fn neighbours(&self, vertex: Vertex) -> impl Iterator<Item = Vertex> {
        let (width, height) = (self.size.width as i32, self.size.height as i32);
        let (col, row) = (vertex.col as i32, vertex.row as i32);
        [
            (col - 1, row),
            (col + 1, row),
            (col, row - 1),
            (col, row + 1),
        ]
        .into_iter()
        .filter(move |&(c, r)| c >= 0 && r >= 0 && c < width && r < height)
        .map(|(c, r)| Vertex::new(c as usize, r as usize))
    }

    /// The points connected to `vertex` through points of its own colour
    /// (its string, or its empty region), and whether that set reaches each
    /// colour and empty.
    pub fn region(&self, vertex: Vertex) -> Region {
        let own = self.get(vertex);
        let mut seen = vec![false; self.size.points()];
        let mut stack = vec![vertex];
        let mut region = Region::default();
        seen[self.index(vertex)] = true;
        while let Some(v) = stack.pop() {
            region.points.push(v);
            for n in self.neighbours(v) {
                let color = self.get(n);
                if color != own {
                    match color {
                        Some(c) => region.reaches[c] = true,
                        None => region.reaches_empty = true,
                    }
                } else if !seen[self.index(n)] {
                    seen[self.index(n)] = true;
                    stack.push(n);
                }
            }
        }
        region
    }

    /// The number of distinct empty points adjacent to the string at `vertex`.
    pub fn liberties(&self, vertex: Vertex) -> usize {
        let string = self.region(vertex).points;
        let mut liberties: Vec<Vertex> = string
            .iter()
            .flat_map(|&s| self.neighbours(s))
            .filter(|&n| self.get(n).is_none())
            .collect();
        liberties.sort();
        liberties.dedup();
        liberties.len()
    }

    /// A Tromp-Taylor move: colour the empty point, clear the opponent's
    /// strings that no longer reach empty, then clear the mover's own. The
    /// caller has checked that `vertex` is an empty point of the board.
    pub fn play(&mut self, color: Color, vertex: Vertex) -> MoveEffect {
        debug_assert!(self.get(vertex).is_none());
        self.set(vertex, Some(color));
        let mut effect = MoveEffect::default();
        let neighbours: Vec<Vertex> = self.neighbours(vertex).collect();
        for n in neighbours {
            if self.get(n) == Some(color.opponent()) {
                effect.captured.extend(self.clear_if_enclosed(n));
            }
        }
        effect.suicided = self.clear_if_enclosed(vertex);
        effect
    }

    /// Empties the string at `vertex` when it does not reach empty; returns
    /// the stones removed.
    fn clear_if_enclosed(&mut self, vertex: Vertex) -> Vec<Vertex> {
        if self.get(vertex).is_none() {
            return Vec::new();
        }
        let region = self.region(vertex);
        if region.reaches_empty {
            return Vec::new();
        }
        for &v in &region.points {
            self.set(v, None);
        }
        region.points
    }

    /// The Tromp-Taylor area of each colour: its stones plus the empty points
    /// that reach only that colour.
    pub fn area(&self) -> PerColor<usize> {
        let mut area = PerColor::default();
        let mut counted = vec![false; self.size.points()];
        for vertex in Vertex::all(self.size) {
            match self.get(vertex) {
                Some(c) => area[c] += 1,
                None if !counted[self.index(vertex)] => {
                    let region = self.region(vertex);
                    for &v in &region.points {
                        counted[self.index(v)] = true;
                    }
                    if let Some(owner) = region.sole_colour() {
                        area[owner] += region.points.len();
                    }
                }
                None => {}
            }
        }
        area
    }

    /// Whether every string on the board reaches an empty point. Each string
    /// is walked once, so the check is linear in the board: setup stones from
    /// a file are checked with it node after node.
    pub fn every_string_reaches_empty(&self) -> bool {
        let mut checked = vec![false; self.size.points()];
        for vertex in Vertex::all(self.size) {
            if self.get(vertex).is_none() || checked[self.index(vertex)] {
                continue;
            }
            let region = self.region(vertex);
            if !region.reaches_empty {
                return false;
            }
            for &v in &region.points {
                checked[self.index(v)] = true;
            }
        }
        true
    }

    /// Which colour owns a point under the Tromp-Taylor count: its stone's
    /// colour, or the one colour its empty region reaches.
    pub fn owner(&self, vertex: Vertex) -> Option<Color> {
        match self.get(vertex) {
            Some(c) => Some(c),
            None => self.region(vertex).sole_colour(),
        }
    }

    fn index(&self, vertex: Vertex) -> usize {
        self.size.index(vertex)
    }
}

/// A maximal set of connected points of one colour (or of empty points).
#[derive(Clone, Debug, Default)]
pub struct Region {
    pub points: Vec<Vertex>,
    pub reaches: PerColor<bool>,
    pub reaches_empty: bool,
}

impl Region {
    /// The one colour the region reaches, if it reaches only one.
    pub fn sole_colour(&self) -> Option<Color> {
        match (self.reaches[Color::Black], self.reaches[Color::White]) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vertex {
        Vertex::parse_gtp(s).unwrap()
    }

    #[test]
    fn capture_comes_before_suicide() {
        // Black A2 and B1 around the corner; White A1 is captured when Black
        // fills... here White plays A1 into Black's two stones: White's
        // stone has no liberty and captures nothing, so it is a suicide.
        let mut board = Board::new(5);
        board.play(Color::Black, v("A2"));
        board.play(Color::Black, v("B1"));
        let effect = board.play(Color::White, v("A1"));
        assert_eq!(effect.suicided, vec![v("A1")]);
        assert!(effect.captured.is_empty());
        assert_eq!(board.get(v("A1")), None);
        assert_eq!(
            board.hash(),
            stone_key(Color::Black, v("A2")) ^ stone_key(Color::Black, v("B1"))
        );

        // Now White surrounds the black pair's liberties: A3, B2, C1, then A1 captures both.
        for s in ["A3", "B2", "C1"] {
            board.play(Color::White, v(s));
        }
        let effect = board.play(Color::White, v("A1"));
        let mut captured = effect.captured.clone();
        captured.sort();
        assert_eq!(captured, vec![v("A2"), v("B1")]);
        assert!(effect.suicided.is_empty());
    }

    #[test]
    fn multi_stone_suicide_clears_the_whole_string() {
        let mut board = Board::new(3);
        // White owns the middle column; Black A1, A2 then A3 fills its own last liberty.
        for s in ["B1", "B2", "B3"] {
            board.play(Color::White, v(s));
        }
        board.play(Color::Black, v("A1"));
        board.play(Color::Black, v("A2"));
        let effect = board.play(Color::Black, v("A3"));
        assert_eq!(effect.suicided.len(), 3);
        assert_eq!(board.stone_count(), 3);
    }

    #[test]
    fn area_counts_stones_and_single_color_regions() {
        let mut board = Board::new(3);
        assert_eq!(board.area(), PerColor::new(0, 0));
        board.play(Color::Black, v("B2"));
        assert_eq!(board.area(), PerColor::new(9, 0));
        board.play(Color::White, v("A1"));
        // A2 and B1... every empty point reaches both colours now
        assert_eq!(board.area(), PerColor::new(1, 1));
    }

    #[test]
    fn a_rectangle_has_its_own_edges() {
        // On a 5-wide, 2-high board a stone on E2 touches only E1 and D2.
        let mut board = Board::new(BoardSize::new(5, 2).expect("a playable size"));
        assert_eq!(board.neighbours(v("E2")).count(), 2);
        board.play(Color::Black, v("B1"));
        board.play(Color::Black, v("B2"));
        assert_eq!(board.area(), PerColor::new(10, 0));
        board.play(Color::White, v("A2"));
        let effect = board.play(Color::White, v("A1"));
        assert_eq!(effect.suicided.len(), 2);
        assert_eq!(board.area(), PerColor::new(10, 0));
    }
}
