//! Moves the tactical reader plays on the board itself and takes back
//! (`PlayoutBoard::play_logged` and `undo`), instead of copying the board
//! for every line it reads (about 6 KB on 19x19).
//!
//! Most moves a reading plays capture nothing: those are taken back by
//! reversing each step of the move (the strings it merged split again, the
//! liberties and neighbour counts it took given back, its point put back
//! where it was in the list of empty points), from the few values the
//! `Mark` keeps. A move that captures is taken back the same way once its
//! captured strings are put back: the reader's `Journal` keeps their
//! stones in the order of their lists, and putting a string back recolours
//! and relinks its stones and takes back the liberties their removal gave
//! (about a third of the moves a playout's reading plays capture, and
//! noting each of their writes cost twice this). A suicide, which no
//! reading plays, has every write noted, old value first, and undoing
//! writes the old values back in reverse order. Every way the board comes
//! back bit for bit, the order of its empty-point list and of its strings'
//! stone lists included: a reading leaves no trace on what the playout
//! draws next.

use super::log::{Field, Log};
use super::playout_board::{
    colour_code, count_of, one_neighbour, PlayoutBoard, Point, BLACK, EDGE, EMPTY, MAX_POINTS,
    WHITE,
};
use super::pseudo::PseudoLiberties;
use crate::game::Color;

/// One write: where, and the value it replaced.
#[derive(Clone, Copy, Debug)]
struct Change {
    field: Field,
    index: u16,
    old: u16,
}

/// The writes of the capturing moves played since the marks still open,
/// oldest first. Kept by the reader and reused, so that reading does not
/// allocate once warm.
#[derive(Default)]
pub struct Journal {
    changes: Vec<Change>,
    /// The pseudo-liberties' writes (index, old value), kept apart: they
    /// go to an array of their own, so the two lists rewind independently.
    liberties: Vec<(u16, PseudoLiberties)>,
    /// The stones the capturing moves took off, each string's in the
    /// order of its list, with their old empty-list indexes.
    captured: Vec<(Point, u16)>,
}

impl Journal {
    pub fn new() -> Journal {
        Journal::default()
    }
}

impl Log for Journal {
    #[inline(always)]
    fn note(&mut self, field: Field, index: usize, old: u16) {
        self.changes.push(Change {
            field,
            index: index as u16,
            old,
        });
    }

    #[inline(always)]
    fn note_liberties(&mut self, index: usize, old: PseudoLiberties) {
        self.liberties.push((index as u16, old));
    }

    #[inline(always)]
    fn merged(&mut self, _: Point, _: Point) {}

    #[inline(always)]
    fn removed(&mut self, _: Point, _: u16) {}
}

/// The merges of a move, in order: (the surviving representative, the
/// absorbed one). A stone joins at most four strings.
#[derive(Clone, Copy, Debug, Default)]
struct Merges {
    pairs: [(Point, Point); 4],
    count: u8,
}

/// What a move that keeps its stone notes to be taken back step by step:
/// its merges, and the stones it captures (none for most).
struct Steps<'a> {
    merges: &'a mut Merges,
    captured: &'a mut Vec<(Point, u16)>,
}

impl Log for Steps<'_> {
    #[inline(always)]
    fn note(&mut self, _: Field, _: usize, _: u16) {}

    #[inline(always)]
    fn note_liberties(&mut self, _: usize, _: PseudoLiberties) {}

    #[inline(always)]
    fn merged(&mut self, big: Point, small: Point) {
        let merges = &mut *self.merges;
        merges.pairs[merges.count as usize] = (big, small);
        merges.count += 1;
    }

    #[inline(always)]
    fn removed(&mut self, p: Point, old_empty_index: u16) {
        self.captured.push((p, old_empty_index));
    }
}

/// How a move read is taken back.
#[derive(Clone, Copy, Debug)]
enum TakeBack {
    /// The stones it captured, the journal's from this index on, put
    /// back, then the move itself step by step.
    Steps(usize),
    /// A suicide: the journal's writes from these indexes on, rewound.
    Writes(usize, usize),
}

/// What `undo` needs to take a move back: the board's single values before
/// it, the move's merges and its point's old string values, and where its
/// captured stones (or, for a suicide, its writes) begin in the journal.
#[derive(Clone, Copy, Debug)]
#[must_use = "a move played with play_logged must be undone"]
pub struct Mark {
    p: Point,
    take_back: TakeBack,
    merges: Merges,
    /// `p`'s string, next and stones entries before the move.
    old: [u16; 3],
    /// `p`'s pseudo-liberties entry before the move.
    old_liberties: PseudoLiberties,
    empty_count: usize,
    ko: Point,
    last_captured: u16,
    hash: u64,
}

impl PlayoutBoard {
    /// `play`, to be taken back with `undo` (marks undone last opened
    /// first): the tactical reader's move.
    pub fn play_logged(&mut self, p: Point, color: Color, journal: &mut Journal) -> Mark {
        let pu = p as usize;
        let mut mark = Mark {
            p,
            take_back: TakeBack::Steps(journal.captured.len()),
            merges: Merges::default(),
            old: [self.string[pu], self.next[pu], self.stones[pu]],
            old_liberties: self.liberties[pu],
            empty_count: self.empty_count,
            ko: self.ko,
            last_captured: self.last_captured,
            hash: self.hash,
        };
        if self.is_suicide(p, colour_code(color)) {
            mark.take_back = TakeBack::Writes(journal.changes.len(), journal.liberties.len());
            self.play_with(p, color, journal);
        } else {
            let mut steps = Steps {
                merges: &mut mark.merges,
                captured: &mut journal.captured,
            };
            let result = self.play_with(p, color, &mut steps);
            debug_assert_eq!(result.suicided, 0);
        }
        mark
    }

    /// Takes back the move `mark` came from: the board is again exactly
    /// as it was. Every move played after it must have been taken back.
    pub fn undo(&mut self, journal: &mut Journal, mark: Mark) {
        match mark.take_back {
            TakeBack::Steps(start) => {
                if journal.captured.len() > start {
                    self.put_back_captured(journal, start, mark.p);
                }
                self.take_back_placed(&mark);
            }
            TakeBack::Writes(changes, liberties) => self.rewind(journal, (changes, liberties)),
        }
        self.empty_count = mark.empty_count;
        self.ko = mark.ko;
        self.last_captured = mark.last_captured;
        self.hash = mark.hash;
    }

    /// Whether `c` playing the empty point `p` captures nothing and
    /// leaves its own string without a liberty.
    #[inline]
    fn is_suicide(&self, p: Point, c: u8) -> bool {
        let mut lives = count_of(self.neighbours[p as usize], EMPTY) > 0;
        for q in self.adjacent(p) {
            let cq = self.color[q as usize];
            if cq != BLACK && cq != WHITE {
                continue;
            }
            // A string in atari next to `p` has `p` as its only liberty:
            // theirs is captured, ours gives the stone no liberty.
            let in_atari = self.liberties[self.string[q as usize] as usize]
                .single()
                .is_some();
            if cq != c && in_atari {
                return false;
            }
            lives |= cq == c && !in_atari;
        }
        !lives
    }

    /// Puts back the strings the move at `p` captured, from the journal's
    /// stones at `start` on, as they were just before it removed them:
    /// colours, stone lists, the neighbour counts of the points around
    /// them, the pseudo-liberties their removal gave the strings around
    /// (the move's own among them) and the empty-list indexes. Their
    /// representatives' entries (string, stones, pseudo-liberties) were
    /// left as they were by the removal. The list of empty points is left
    /// longer by the stones: `undo` sets its length.
    fn put_back_captured(&mut self, journal: &mut Journal, start: usize, p: Point) {
        let c = EDGE - self.color[p as usize];
        let mover = self.color[p as usize];
        let stones = &journal.captured[start..];
        let mut first = 0;
        while first < stones.len() {
            let id = self.string[stones[first].0 as usize];
            let mut end = first + 1;
            while end < stones.len() && self.string[stones[end].0 as usize] == id {
                end += 1;
            }
            for i in first..end {
                let (s, old_index) = stones[i];
                let su = s as usize;
                let following = if i + 1 < end {
                    stones[i + 1].0
                } else {
                    stones[first].0
                };
                self.next[su] = following;
                self.color[su] = c;
                self.empty_index[su] = old_index;
                let added = one_neighbour(c).wrapping_sub(one_neighbour(EMPTY));
                for q in self.adjacent(s) {
                    let qu = q as usize;
                    self.neighbours[qu] = self.neighbours[qu].wrapping_add(added);
                    if self.color[qu] == mover {
                        let t = self.string[qu] as usize;
                        self.liberties[t].take(s);
                    }
                }
            }
            first = end;
        }
        journal.captured.truncate(start);
    }

    /// Reverses a move whose captures are back on the board (most
    /// captured nothing), step by step in the reverse order of `place`.
    fn take_back_placed(&mut self, mark: &Mark) {
        let p = mark.p;
        let pu = p as usize;
        let merges = &mark.merges;
        for &(big, small) in merges.pairs[..merges.count as usize].iter().rev() {
            let (bu, su) = (big as usize, small as usize);
            self.stones[bu] -= self.stones[su];
            self.liberties[bu] = self.liberties[bu].without(self.liberties[su]);
            self.next.swap(bu, su);
            let mut r = small;
            loop {
                self.string[r as usize] = small;
                r = self.next[r as usize];
                if r == small {
                    break;
                }
            }
        }
        let c = self.color[pu];
        let added = one_neighbour(c).wrapping_sub(one_neighbour(EMPTY));
        for q in self.adjacent(p) {
            let cq = self.color[q as usize];
            if cq == BLACK || cq == WHITE {
                let t = self.string[q as usize] as usize;
                self.liberties[t].add(p);
            }
            self.neighbours[q as usize] = self.neighbours[q as usize].wrapping_sub(added);
        }
        [self.string[pu], self.next[pu], self.stones[pu]] = mark.old;
        self.liberties[pu] = mark.old_liberties;
        self.color[pu] = EMPTY;
        // The empty list: `p` back at its index, the point that took its
        // place back at the end. When `p` was the last, nothing moved, and
        // its slot may since hold a captured stone.
        let i = self.empty_index[pu] as usize;
        let end = mark.empty_count - 1;
        let moved = if i == end { p } else { self.empties[i] };
        self.empties[i] = p;
        self.empties[end] = moved;
        self.empty_index[moved as usize] = end as u16;
        self.empty_index[pu] = i as u16;
    }

    /// Writes back the journal's old values from the last to `starts`.
    fn rewind(&mut self, journal: &mut Journal, (start, liberties_start): (usize, usize)) {
        for (i, old) in journal.liberties.drain(liberties_start..).rev() {
            self.liberties[i as usize] = old;
        }
        // One indexed store per change, in the order of `Field`, with no
        // branch on the array but for the colours (bytes).
        let mut arrays: [&mut [u16; MAX_POINTS]; 6] = [
            &mut self.string,
            &mut self.next,
            &mut self.stones,
            &mut self.neighbours,
            &mut self.empties,
            &mut self.empty_index,
        ];
        for c in journal.changes.drain(start..).rev() {
            let (i, old) = (c.index as usize, c.old);
            match arrays.get_mut(c.field as usize) {
                Some(array) => array[i] = old,
                None => self.color[i] = old as u8,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `gtp` for `color` logged and takes it back: the board must be
    /// the one before, bit for bit. Returns what the move captured.
    fn captures_then_undoes(board: &mut PlayoutBoard, gtp: &str, color: Color) -> u16 {
        let p = board.point_of(gtp);
        let before = board.clone();
        let mut journal = Journal::new();
        let mark = board.play_logged(p, color, &mut journal);
        let captured = board.last_captured();
        board.undo(&mut journal, mark);
        assert!(board.is_identical(&before), "after taking back {gtp}");
        assert!(journal.captured.is_empty() && journal.changes.is_empty());
        captured
    }

    #[test]
    fn a_capture_of_two_strings_is_taken_back_exactly() {
        // Black C3 takes the two White strings C4-C5 and C2 at once, and
        // joins B3 and D3 into one string.
        let rows = [
            ".XOX.", //
            ".XOX.", //
            ".X.X.", //
            "XXOX.", //
            ".XXX.", //
        ];
        let mut board = PlayoutBoard::from_rows(&rows);
        assert_eq!(captures_then_undoes(&mut board, "C3", Color::Black), 3);
    }

    #[test]
    fn a_capture_by_the_last_point_of_the_empty_list_is_taken_back_exactly() {
        // When the move's point ends the list of empty points, nothing
        // moves into its place, and the captured stones are listed where
        // it was: the take-back must not read them as the moved point.
        // White C2 takes Black B2.
        let rows = [
            ".....", //
            ".....", //
            ".O...", //
            "OX...", //
            ".O...", //
        ];
        let mut board = PlayoutBoard::from_rows(&rows);
        let p = board.point_of("C2");
        let at = board.empty_points().iter().position(|&e| e == p);
        let last = board.empty_count() - 1;
        board.swap_empties(at.expect("C2 is empty"), last);
        assert_eq!(captures_then_undoes(&mut board, "C2", Color::White), 1);
    }
}
