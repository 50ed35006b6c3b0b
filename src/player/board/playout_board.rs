//! The board of the search, built for speed in the manner of Pachi's
//! board.c: a padded one-dimensional array of points with a border of edge
//! points, strings kept as circular lists of stones with their
//! pseudo-liberties (counted, summed and squared, so that a string with no
//! liberty or one is known without a walk: `pseudo`), a list of
//! the empty points, and per point the packed counts of its neighbours of
//! each colour, so that the eye test and the common legality test are one
//! load. Everything lives in fixed arrays: no allocation after creation, and
//! `clone` is a plain copy.
//!
//! `play` is the full Tromp-Taylor move (capture first, then suicide of the
//! mover's own string, of any size). The light playouts never choose a
//! suicide (`is_playout_legal`), as in every light-playout engine: it is
//! almost never a good move and skipping it keeps playouts short.
//!
//! Two boards on purpose: the rules board (`game::Board`) is exact and
//! simple, and answers the client; this one is fast and only steers the
//! search. Three facts exist on both, computed differently: the score
//! (`score`), a point's owner (`owner`) and a string's liberties (here
//! pseudo-liberties kept incrementally, `liberties_up_to_two` for the
//! policy). The tests below check all three against the rules board on
//! random games.

use super::keys::{keys_for, Keys};
use super::log::{set, set_color, set_liberties, Field, Log, NoLog};
use super::pseudo::PseudoLiberties;
use crate::game::{BoardSize, Color, Vertex};

pub use super::point::{Point, MAX_POINTS, PASS};

/// The point-colour codes the board stores, one byte a point; the 3x3
/// patterns and the all-moves-as-first map use the same codes.
pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
pub const EDGE: u8 = 3;

/// The point-colour code of a colour.
#[inline]
pub fn colour_code(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// Neighbour counts are packed four bits per point colour: empty, black,
/// white, edge. `one_neighbour(c)` adds one neighbour of colour code `c`.
#[inline]
pub(super) fn one_neighbour(color: u8) -> u16 {
    1 << (4 * color as u16)
}

/// Whether the short list `list` holds `p`: the candidate and liberty
/// lists of the policy and the reader, a handful of points each. A plain
/// loop that inlines, where `contains` on `u16` is a call.
#[inline(always)]
#[allow(clippy::manual_contains)] // `contains` is the call this avoids
pub fn short_list_holds(list: &[Point], p: Point) -> bool {
    list.iter().any(|&q| q == p)
}

#[inline]
pub(super) fn count_of(neighbours: u16, color: u8) -> u16 {
    (neighbours >> (4 * color as u16)) & 15
}

/// What one move did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayResult {
    pub captured: u16,
    pub suicided: u16,
}

/// The stones of one string, from `PlayoutBoard::stones_of`.
pub struct StringStones<'a> {
    board: &'a PlayoutBoard,
    start: Point,
    next: Option<Point>,
}

impl Iterator for StringStones<'_> {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        let p = self.next?;
        let following = self.board.next[p as usize];
        self.next = (following != self.start).then_some(following);
        Some(p)
    }
}

#[derive(Clone)]
pub struct PlayoutBoard {
    pub(super) size: BoardSize,
    /// The row stride of the padded array: the width and the two edges.
    stride: usize,
    /// The points the board uses: `stride` times the height and two edges.
    used: usize,
    pub(super) color: [u8; MAX_POINTS],
    /// The representative stone of each stone's string.
    pub(super) string: [Point; MAX_POINTS],
    /// Next stone of the same string (circular).
    pub(super) next: [Point; MAX_POINTS],
    /// Pseudo-liberties of a string, at its representative: its (stone,
    /// empty neighbour) pairs.
    pub(super) liberties: [PseudoLiberties; MAX_POINTS],
    pub(super) stones: [u16; MAX_POINTS],
    pub(super) neighbours: [u16; MAX_POINTS],
    /// The empty points, the first `empty_count` (as long as the other
    /// arrays, so that `undo` writes every array alike).
    pub(super) empties: [Point; MAX_POINTS],
    pub(super) empty_index: [u16; MAX_POINTS],
    pub(super) empty_count: usize,
    pub(super) ko: Point,
    /// Stones the last move captured (0 after a pass).
    pub(super) last_captured: u16,
    pub(super) hash: u64,
    keys: &'static Keys,
}

impl PlayoutBoard {
    pub fn new(size: impl Into<BoardSize>) -> PlayoutBoard {
        let size = size.into();
        assert!(size.is_playable(), "board size {size}");
        let stride = size.width + 2;
        let used = stride * (size.height + 2);
        let mut board = PlayoutBoard {
            size,
            stride,
            used,
            color: [EDGE; MAX_POINTS],
            string: [0; MAX_POINTS],
            next: [0; MAX_POINTS],
            liberties: [PseudoLiberties::default(); MAX_POINTS],
            stones: [0; MAX_POINTS],
            neighbours: [0; MAX_POINTS],
            empties: [0; MAX_POINTS],
            empty_index: [0; MAX_POINTS],
            empty_count: 0,
            ko: 0,
            last_captured: 0,
            hash: 0,
            keys: keys_for(size.width),
        };
        for v in Vertex::all(size) {
            let p = board.point(v);
            board.color[p as usize] = EMPTY;
            board.add_empty(p, &mut NoLog);
        }
        for p in 0..used {
            if board.color[p] == EDGE {
                continue;
            }
            board.neighbours[p] = board
                .adjacent(p as Point)
                .iter()
                .map(|&n| one_neighbour(board.color[n as usize]))
                .sum();
        }
        board
    }

    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The length of the board's array in use, border included: every
    /// point of this board is below it.
    pub fn points_used(&self) -> usize {
        self.used
    }

    /// Makes this board a copy of `other`. Copies only the part of the
    /// arrays a board of this size uses, so on small boards it is several
    /// times cheaper than `clone` (which copies room for 25x25): the search
    /// and the tactical reader copy a board for every line they try.
    pub fn copy_from(&mut self, other: &PlayoutBoard) {
        if self.size != other.size {
            *self = other.clone();
            return;
        }
        let used = self.used;
        self.color[..used].copy_from_slice(&other.color[..used]);
        self.string[..used].copy_from_slice(&other.string[..used]);
        self.next[..used].copy_from_slice(&other.next[..used]);
        self.liberties[..used].copy_from_slice(&other.liberties[..used]);
        self.stones[..used].copy_from_slice(&other.stones[..used]);
        self.neighbours[..used].copy_from_slice(&other.neighbours[..used]);
        self.empty_index[..used].copy_from_slice(&other.empty_index[..used]);
        let empties = other.empty_count;
        self.empties[..empties].copy_from_slice(&other.empties[..empties]);
        self.empty_count = empties;
        self.ko = other.ko;
        self.last_captured = other.last_captured;
        self.hash = other.hash;
    }

    #[inline]
    pub fn point(&self, v: Vertex) -> Point {
        ((v.row as usize + 1) * self.stride + v.col as usize + 1) as Point
    }

    #[inline]
    pub fn vertex(&self, p: Point) -> Vertex {
        let p = p as usize;
        Vertex::new(p % self.stride - 1, p / self.stride - 1)
    }

    #[inline]
    pub fn adjacent(&self, p: Point) -> [Point; 4] {
        let w = self.stride as Point;
        [p - 1, p + 1, p - w, p + w]
    }

    #[inline]
    fn diagonals(&self, p: Point) -> [Point; 4] {
        let w = self.stride as Point;
        [p - w - 1, p - w + 1, p + w - 1, p + w + 1]
    }

    #[inline]
    pub fn color_at(&self, p: Point) -> Option<Color> {
        match self.color[p as usize] {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// Whether `p` is a point of the board (not the border).
    #[inline]
    pub fn is_on_board(&self, p: Point) -> bool {
        (p as usize) < MAX_POINTS && self.color[p as usize] != EDGE
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// How many stones the last move captured.
    pub fn last_captured(&self) -> u16 {
        self.last_captured
    }

    /// The point where a simple ko forbids the next move, if any.
    pub fn ko(&self) -> Option<Point> {
        (self.ko != 0).then_some(self.ko)
    }

    pub fn empty_points(&self) -> &[Point] {
        &self.empties[..self.empty_count]
    }

    /// Whether `other` is this board in every array and value a move
    /// reads or writes, list orders included. For the undo tests.
    #[cfg(test)]
    pub fn is_identical(&self, other: &PlayoutBoard) -> bool {
        let u = self.used;
        self.size == other.size
            && self.color[..u] == other.color[..u]
            && self.string[..u] == other.string[..u]
            && self.next[..u] == other.next[..u]
            && self.liberties[..u] == other.liberties[..u]
            && self.stones[..u] == other.stones[..u]
            && self.neighbours[..u] == other.neighbours[..u]
            && self.empty_index[..u] == other.empty_index[..u]
            && self.empty_points() == other.empty_points()
            && (self.ko, self.last_captured, self.hash)
                == (other.ko, other.last_captured, other.hash)
    }

    /// The representative stone of the string at `p`: equal for every
    /// stone of one string.
    #[inline]
    pub fn string_id(&self, p: Point) -> Point {
        self.string[p as usize]
    }

    /// The stones of the string at `p`, each once.
    #[inline]
    pub fn stones_of(&self, p: Point) -> StringStones<'_> {
        StringStones {
            board: self,
            start: p,
            next: Some(p),
        }
    }

    /// A square board from rows written top row first: `X` Black, `O`
    /// White, anything else empty. For tests.
    #[cfg(test)]
    pub fn from_rows(rows: &[&str]) -> PlayoutBoard {
        let size = rows.len();
        let mut board = PlayoutBoard::new(size);
        for (i, row) in rows.iter().enumerate() {
            for (col, c) in row.chars().enumerate() {
                let v = Vertex::new(col, size - 1 - i);
                match c {
                    'X' => board.set_stone(v, Color::Black),
                    'O' => board.set_stone(v, Color::White),
                    _ => {}
                }
            }
        }
        board
    }

    /// The strings at `p` and next to it (a move's own and its
    /// neighbours'), each once, as one stone of each: the first `count`.
    pub fn strings_touching(&self, p: Point) -> ([Point; 5], usize) {
        let mut strings = [0; 5];
        let mut count = 0;
        let mut ids = [0; 5];
        let mut points = [p; 5];
        points[1..].copy_from_slice(&self.adjacent(p));
        for q in points {
            if self.color_at(q).is_none() {
                continue;
            }
            let id = self.string_id(q);
            if !short_list_holds(&ids[..count], id) {
                ids[count] = id;
                strings[count] = q;
                count += 1;
            }
        }
        (strings, count)
    }

    /// The point of a vertex written as GTP writes it. For tests.
    #[cfg(test)]
    pub fn point_of(&self, gtp: &str) -> Point {
        self.point(Vertex::parse_gtp(gtp).expect("vertex"))
    }

    /// The number of stones of the string at `p`.
    #[inline]
    pub fn string_size(&self, p: Point) -> u16 {
        self.stones[self.string[p as usize] as usize]
    }

    /// The number of empty points next to `p`.
    #[inline]
    pub fn empty_neighbours(&self, p: Point) -> u16 {
        count_of(self.neighbours[p as usize], EMPTY)
    }

    /// The number of `color`'s stones next to `p`.
    #[inline]
    pub fn neighbours_of(&self, p: Point, color: Color) -> u16 {
        count_of(self.neighbours[p as usize], colour_code(color))
    }

    /// The colours of the eight points around `p`, two bits each, in the
    /// order of `patterns::CELLS` (grid row 0 is the row below `p`).
    #[inline]
    pub fn neighbourhood(&self, p: Point) -> u16 {
        let mut code = 0u16;
        for (i, q) in self.neighbourhood_points(p).into_iter().enumerate() {
            code |= (self.color[q as usize] as u16) << (2 * i);
        }
        code
    }

    /// The eight points around `p`, in the order of `neighbourhood`.
    #[inline]
    pub fn neighbourhood_points(&self, p: Point) -> [Point; 8] {
        let w = self.stride as Point;
        [
            p - w - 1,
            p - w,
            p - w + 1,
            p - 1,
            p + 1,
            p + w - 1,
            p + w,
            p + w + 1,
        ]
    }

    /// Whether the string at `p` is in atari.
    #[inline]
    fn in_atari(&self, p: Point) -> bool {
        self.liberties[self.string[p as usize] as usize]
            .single()
            .is_some()
    }

    /// Whether playing `p` would leave the mover's new string (the stone
    /// and the friendly strings it joins) with exactly one liberty while
    /// capturing nothing: a move the opponent answers by capturing.
    pub fn is_self_atari(&self, p: Point, color: Color) -> bool {
        if count_of(self.neighbours[p as usize], EMPTY) >= 2 {
            return false;
        }
        let c = colour_code(color);
        let mut liberty: Point = 0;
        let mut liberties = 0;
        let note = |q: Point, liberties: &mut u32, liberty: &mut Point| {
            if q != p && *liberty != q {
                *liberties += 1;
                *liberty = q;
            }
        };
        for q in self.adjacent(p) {
            let cq = self.color[q as usize];
            if cq == EMPTY {
                note(q, &mut liberties, &mut liberty);
            } else if cq == c {
                // A friendly string brings its liberties but `p`: one with
                // two, one of them `p`, is put in atari by the move.
                // Past eight pseudo-liberties it has at least three; in
                // atari, it has only `p`.
                let of_q = self.liberties[self.string[q as usize] as usize];
                if of_q.count() > 8 {
                    return false;
                }
                if of_q.single().is_some() {
                    continue;
                }
                let mut of_string = [0; 3];
                let n = self.liberties_into(q, &mut of_string);
                for &l in &of_string[..n] {
                    note(l, &mut liberties, &mut liberty);
                }
            } else if cq != EDGE && self.liberties_up_to_two(q).0 == 1 {
                // Captures: gains at least the captured point.
                return false;
            }
            if liberties >= 2 {
                return false;
            }
        }
        liberties < 2
    }

    /// The light-playout eye of `color`: all four neighbours its stones or
    /// the edge, and at most one diagonal the opponent's (none at the edge).
    #[inline]
    pub fn is_eye(&self, p: Point, color: Color) -> bool {
        let c = colour_code(color);
        let nb = self.neighbours[p as usize];
        if count_of(nb, c) + count_of(nb, EDGE) != 4 {
            return false;
        }
        let opponent = 3 - c;
        let mut enemy = 0;
        let mut edge = 0;
        for q in self.diagonals(p) {
            let cq = self.color[q as usize];
            enemy += (cq == opponent) as u32;
            edge += (cq == EDGE) as u32;
        }
        enemy + u32::from(edge > 0) < 2
    }

    /// Whether `color` may play the empty point `p` in a playout: not the
    /// ko point and not a suicide.
    #[inline(always)]
    pub fn is_playout_legal(&self, p: Point, color: Color) -> bool {
        if p == self.ko {
            return false;
        }
        if count_of(self.neighbours[p as usize], EMPTY) > 0 {
            return true;
        }
        // With no empty neighbour, the stone lives by joining a string of
        // ours with a liberty besides `p`, or by capturing a string whose
        // only liberty is `p`.
        let c = colour_code(color);
        self.adjacent(p).into_iter().any(|q| {
            let cq = self.color[q as usize];
            (cq == c && !self.in_atari(q)) || (cq == 3 - c && self.in_atari(q))
        })
    }

    /// Puts a stone on an empty point with no capture: for building the
    /// board from a legal position of the game.
    pub fn set_stone(&mut self, v: Vertex, color: Color) {
        let p = self.point(v);
        debug_assert_eq!(self.color[p as usize], EMPTY);
        self.place(p, colour_code(color), &mut NoLog);
    }

    /// A Tromp-Taylor move on an empty point: place, clear the opponent's
    /// strings left without liberties, then the mover's own string if it
    /// has none. Sets the simple ko point.
    pub fn play(&mut self, p: Point, color: Color) -> PlayResult {
        self.play_with(p, color, &mut NoLog)
    }

    /// `play`, each write noted in `log` (`undo`).
    #[inline(always)]
    pub(super) fn play_with<L: Log>(&mut self, p: Point, color: Color, log: &mut L) -> PlayResult {
        let c = colour_code(color);
        let s = self.place(p, c, log);
        let mut result = PlayResult::default();
        let mut captured_at = 0;
        for q in self.adjacent(p) {
            if self.color[q as usize] == 3 - c {
                let t = self.string[q as usize];
                if self.liberties[t as usize].count() == 0 {
                    result.captured += self.stones[t as usize];
                    captured_at = t;
                    self.remove_string(t, log);
                }
            }
        }
        let s = self.string[s as usize];
        if self.liberties[s as usize].count() == 0 {
            result.suicided = self.stones[s as usize];
            self.remove_string(s, log);
            self.ko = 0;
            self.last_captured = result.captured;
            return result;
        }
        // A lone stone that took a lone stone and can be taken back at once.
        self.ko = if result.captured == 1
            && self.stones[s as usize] == 1
            && self.liberties[s as usize].count() == 1
        {
            captured_at
        } else {
            0
        };
        self.last_captured = result.captured;
        result
    }

    pub fn pass(&mut self) {
        self.ko = 0;
        self.last_captured = 0;
    }

    /// Colours `p`, joins it to its friendly neighbours and takes the
    /// pseudo-liberty it filled from every neighbouring string. Returns the
    /// string's representative.
    #[inline]
    fn place<L: Log>(&mut self, p: Point, c: u8, log: &mut L) -> Point {
        let pu = p as usize;
        set_color(log, &mut self.color, pu, c);
        self.hash ^= self.keys.keys[(c - 1) as usize][pu];
        self.remove_empty(p, log);
        let adjacent = self.adjacent(p);
        let added = one_neighbour(c).wrapping_sub(one_neighbour(EMPTY));
        for q in adjacent {
            let n = self.neighbours[q as usize].wrapping_add(added);
            set(log, Field::Neighbours, &mut self.neighbours, q as usize, n);
        }
        set(log, Field::String, &mut self.string, pu, p);
        set(log, Field::Next, &mut self.next, pu, p);
        set(log, Field::Stones, &mut self.stones, pu, 1);
        let mut own = PseudoLiberties::default();
        for q in adjacent {
            let cq = self.color[q as usize];
            if cq == EMPTY {
                own.add(q);
            } else if cq == BLACK || cq == WHITE {
                let t = self.string[q as usize] as usize;
                let mut l = self.liberties[t];
                l.take(p);
                set_liberties(log, &mut self.liberties, t, l);
            }
        }
        set_liberties(log, &mut self.liberties, pu, own);
        let mut s = p;
        for q in adjacent {
            if self.color[q as usize] == c {
                let t = self.string[q as usize];
                if t != s {
                    s = self.merge(s, t, log);
                }
            }
        }
        s
    }

    /// Joins two strings, relabelling the smaller; returns the survivor.
    #[inline]
    fn merge<L: Log>(&mut self, a: Point, b: Point, log: &mut L) -> Point {
        let (big, small) = if self.stones[a as usize] >= self.stones[b as usize] {
            (a, b)
        } else {
            (b, a)
        };
        let mut r = small;
        loop {
            set(log, Field::String, &mut self.string, r as usize, big);
            r = self.next[r as usize];
            if r == small {
                break;
            }
        }
        let (bu, su) = (big as usize, small as usize);
        let (next_big, next_small) = (self.next[bu], self.next[su]);
        set(log, Field::Next, &mut self.next, bu, next_small);
        set(log, Field::Next, &mut self.next, su, next_big);
        let l = self.liberties[bu].joined(self.liberties[su]);
        set_liberties(log, &mut self.liberties, bu, l);
        let n = self.stones[bu] + self.stones[su];
        set(log, Field::Stones, &mut self.stones, bu, n);
        log.merged(big, small);
        big
    }

    /// Empties every stone of the string `s`; its neighbours gain back
    /// their pseudo-liberties.
    fn remove_string<L: Log>(&mut self, s: Point, log: &mut L) {
        let mut p = s;
        loop {
            let pu = p as usize;
            let c = self.color[pu];
            log.removed(p, self.empty_index[pu]);
            self.hash ^= self.keys.keys[(c - 1) as usize][pu];
            set_color(log, &mut self.color, pu, EMPTY);
            self.add_empty(p, log);
            let removed = one_neighbour(EMPTY).wrapping_sub(one_neighbour(c));
            for q in self.adjacent(p) {
                let n = self.neighbours[q as usize].wrapping_add(removed);
                set(log, Field::Neighbours, &mut self.neighbours, q as usize, n);
            }
            p = self.next[pu];
            if p == s {
                break;
            }
        }
        loop {
            for q in self.adjacent(p) {
                let cq = self.color[q as usize];
                if cq == BLACK || cq == WHITE {
                    let t = self.string[q as usize] as usize;
                    let mut l = self.liberties[t];
                    l.add(p);
                    set_liberties(log, &mut self.liberties, t, l);
                }
            }
            // Unlink the stone (it points to itself) and move on.
            let pu = p as usize;
            let following = self.next[pu];
            set(log, Field::Next, &mut self.next, pu, p);
            p = following;
            if p == s {
                break;
            }
        }
    }

    #[inline]
    fn add_empty<L: Log>(&mut self, p: Point, log: &mut L) {
        let count = self.empty_count;
        set(
            log,
            Field::EmptyIndex,
            &mut self.empty_index,
            p as usize,
            count as u16,
        );
        set(log, Field::Empties, &mut self.empties, count, p);
        self.empty_count += 1;
    }

    #[inline]
    fn remove_empty<L: Log>(&mut self, p: Point, log: &mut L) {
        let i = self.empty_index[p as usize] as usize;
        self.empty_count -= 1;
        let last = self.empties[self.empty_count];
        set(log, Field::Empties, &mut self.empties, i, last);
        set(
            log,
            Field::EmptyIndex,
            &mut self.empty_index,
            last as usize,
            i as u16,
        );
    }

    /// Moves the empty point at index `i` of the list to index `j`
    /// (swapping), for the playout's in-place rejection sampling.
    #[inline]
    pub(crate) fn swap_empties(&mut self, i: usize, j: usize) {
        let (a, b) = (self.empties[i], self.empties[j]);
        self.empties[i] = b;
        self.empties[j] = a;
        self.empty_index[b as usize] = i as u16;
        self.empty_index[a as usize] = j as u16;
    }

    #[inline]
    pub(crate) fn empty_at(&self, i: usize) -> Point {
        self.empties[i]
    }

    pub(crate) fn empty_count(&self) -> usize {
        self.empty_count
    }
}

#[cfg(test)]
mod tests {
    //! The fast board against the rules board (`game::Board`, flood fill
    //! and nothing clever) on random games.

    use super::*;
    use crate::game::Board as RulesBoard;
    use crate::player::board::undo::Journal;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn same_position(fast: &PlayoutBoard, rules: &RulesBoard) {
        for v in Vertex::all(rules.size()) {
            assert_eq!(fast.color_at(fast.point(v)), rules.get(v), "colour at {v}");
        }
        assert_eq!(fast.hash(), rules.hash(), "hash");
        let mut empties: Vec<Vertex> = fast
            .empty_points()
            .iter()
            .map(|&p| fast.vertex(p))
            .collect();
        empties.sort();
        let mut expected: Vec<Vertex> = Vertex::all(rules.size())
            .filter(|&v| rules.get(v).is_none())
            .collect();
        expected.sort();
        assert_eq!(empties, expected, "empty points");
        let area = rules.area();
        let (black, white) = (area[Color::Black], area[Color::White]);
        assert_eq!(fast.score(0.5), black as f32 - white as f32 - 0.5, "score");
        for v in Vertex::all(rules.size()) {
            assert_eq!(fast.owner(fast.point(v)), rules.owner(v), "owner of {v}");
            if rules.get(v).is_some() {
                let p = fast.point(v);
                let liberties = rules.liberties(v);
                assert_eq!(fast.string_liberties(p), liberties, "liberties at {v}");
                // The counts read without a walk.
                let (up_to_two, single) = fast.liberties_up_to_two(p);
                assert_eq!(up_to_two as usize, liberties.min(2), "up to two at {v}");
                if liberties == 1 {
                    let touches = |q: Point| {
                        fast.color_at(q).is_some() && fast.string_id(q) == fast.string_id(p)
                    };
                    assert!(fast.adjacent(single).into_iter().any(touches), "{v}");
                    assert!(rules.get(fast.vertex(single)).is_none(), "{v}");
                }
                assert_eq!(
                    fast.two_liberties(p).is_some(),
                    liberties == 2,
                    "two at {v}"
                );
            }
        }
    }

    /// Playout legality by the rules board: empty, not the ko point, and
    /// the mover's stone survives.
    fn playout_legal_by_rules(rules: &RulesBoard, ko: Option<Vertex>, v: Vertex, c: Color) -> bool {
        if rules.get(v).is_some() || ko == Some(v) {
            return false;
        }
        let mut after = rules.clone();
        after.play(c, v).suicided.is_empty()
    }

    /// A self-atari by the rules board: the move captures nothing and
    /// leaves its string one liberty.
    fn self_atari_by_rules(rules: &RulesBoard, v: Vertex, c: Color) -> bool {
        let mut after = rules.clone();
        after.play(c, v).captured.is_empty() && after.liberties(v) == 1
    }

    fn random_game(size: impl Into<BoardSize>, seed: u64) {
        let size = size.into();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut fast = PlayoutBoard::new(size);
        let mut rules = RulesBoard::new(size);
        let mut ko: Option<Vertex> = None;
        let mut color = Color::Black;
        for _ in 0..3 * size.points() {
            same_position(&fast, &rules);
            assert_eq!(fast.ko().map(|p| fast.vertex(p)), ko, "ko point");
            for v in Vertex::all(size) {
                assert_eq!(
                    rules.get(v).is_none() && fast.is_playout_legal(fast.point(v), color),
                    playout_legal_by_rules(&rules, ko, v, color),
                    "playout legality of {v} for {color}"
                );
                if playout_legal_by_rules(&rules, ko, v, color) {
                    assert_eq!(
                        fast.is_self_atari(fast.point(v), color),
                        self_atari_by_rules(&rules, v, color),
                        "self-atari at {v} for {color}"
                    );
                }
            }
            // Any empty point, suicides included: the full Tromp-Taylor move.
            let empty: Vec<Vertex> = Vertex::all(size)
                .filter(|&v| rules.get(v).is_none())
                .collect();
            if empty.is_empty() || rng.gen_bool(0.03) {
                fast.pass();
                ko = None;
            } else {
                let v = empty[rng.gen_range(0..empty.len())];
                let effect = rules.play(color, v);
                let result = fast.play(fast.point(v), color);
                assert_eq!(result.captured as usize, effect.captured.len());
                assert_eq!(result.suicided as usize, effect.suicided.len());
                let own = rules.region(v);
                ko = (effect.captured.len() == 1
                    && own.points.len() == 1
                    && rules.liberties(v) == 1)
                    .then(|| effect.captured[0]);
            }
            color = color.opponent();
        }
    }

    #[test]
    fn random_games_agree_with_the_rules_board() {
        for seed in 0..200 {
            random_game(2, seed);
        }
        for seed in 0..30 {
            random_game(5, seed);
        }
        for seed in 0..4 {
            random_game(9, seed);
        }
        random_game(19, 7);
    }

    #[test]
    fn undo_restores_the_board_exactly() {
        // Random lines of up to six moves (captures and suicides among
        // them) played logged and nested, then undone one by one: each
        // undo gives back the board before its move, bit for bit.
        let mut rng = StdRng::seed_from_u64(11);
        for size in [5, 9, 19] {
            let mut board = PlayoutBoard::new(size);
            let mut journal = Journal::new();
            let mut color = Color::Black;
            for _ in 0..3 * size * size {
                let mut line = Vec::new();
                for _ in 0..rng.gen_range(1..=6) {
                    let empty = board.empty_points();
                    if empty.is_empty() {
                        break;
                    }
                    let p = empty[rng.gen_range(0..empty.len())];
                    let before = board.clone();
                    let mark = board.play_logged(p, color, &mut journal);
                    line.push((before, mark));
                    color = color.opponent();
                }
                while let Some((before, mark)) = line.pop() {
                    board.undo(&mut journal, mark);
                    assert!(board.is_identical(&before));
                }
                // Then a real move, so that the positions go on.
                let empty = board.empty_points();
                if empty.is_empty() {
                    break;
                }
                let p = empty[rng.gen_range(0..empty.len())];
                board.play(p, color);
                color = color.opponent();
            }
        }
    }

    #[test]
    fn random_games_on_rectangles_agree_with_the_rules_board() {
        let sizes = [(2, 7), (7, 2), (3, 5), (9, 7), (13, 9), (25, 2)];
        for (width, height) in sizes {
            let size = BoardSize::new(width, height).expect("a playable size");
            for seed in 0..6 {
                random_game(size, seed);
            }
        }
    }

    #[test]
    fn a_rectangle_has_edges_on_all_four_sides() {
        // 7 wide, 4 high: the padded rows are 9 points long, and a stone on
        // each corner has two neighbours on the board and two edge points.
        let size = BoardSize::new(7, 4).expect("a playable size");
        let board = PlayoutBoard::new(size);
        assert_eq!(board.stride, 9);
        assert_eq!(board.empty_points().len(), 28);
        for corner in ["A1", "G1", "A4", "G4"] {
            let p = board.point(Vertex::parse_gtp(corner).expect("a vertex"));
            assert_eq!(board.vertex(p).to_string(), corner);
            let edges = board
                .adjacent(p)
                .iter()
                .filter(|&&n| !board.is_on_board(n))
                .count();
            assert_eq!(edges, 2, "edge points beside {corner}");
            assert_eq!(board.empty_neighbours(p), 2, "empty points beside {corner}");
        }
        // Black fills the whole board but one point: the lone empty point is
        // Black's, and the count is every point.
        let mut full = PlayoutBoard::new(size);
        for v in Vertex::all(size).skip(1) {
            full.set_stone(v, Color::Black);
        }
        assert_eq!(full.score(0.0), 28.0);
    }

    #[test]
    fn building_from_stones_matches_playing_them() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut rules = RulesBoard::new(9);
        for _ in 0..60 {
            let v = Vertex::new(rng.gen_range(0..9), rng.gen_range(0..9));
            if rules.get(v).is_none() {
                let c = if rng.gen_bool(0.5) {
                    Color::Black
                } else {
                    Color::White
                };
                rules.play(c, v);
            }
        }
        let mut fast = PlayoutBoard::new(9);
        for v in Vertex::all(9) {
            if let Some(c) = rules.get(v) {
                fast.set_stone(v, c);
            }
        }
        same_position(&fast, &rules);
    }
}
