//! The record of what a move changed on the playout board, so that the
//! tactical reader can play a line on the board itself and take it back
//! (`PlayoutBoard::play_logged` and `undo`) instead of copying the board
//! for every line it reads (about 6 KB on 19x19).
//!
//! Every write a move makes to the board's arrays goes through `set` with a
//! `Log`: the playouts' `NoLog` records nothing (and compiles to the plain
//! write), the reader's `Journal` keeps each entry's old value. Undoing
//! writes the old values back in reverse order, so the board comes back
//! bit for bit, the order of its empty-point list and of its strings'
//! stone lists included: a reading leaves no trace on what the playout
//! draws next.

/// The board array a write went to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Field {
    Color,
    String,
    Next,
    Liberties,
    Stones,
    Neighbours,
    Empties,
    EmptyIndex,
}

/// One write: where, and the value it replaced.
#[derive(Clone, Copy, Debug)]
pub(super) struct Change {
    pub field: Field,
    pub index: u16,
    pub old: u16,
}

/// Where the board's writes are recorded, if anywhere.
pub(super) trait Log {
    fn note(&mut self, field: Field, index: usize, old: u16);
}

/// Records nothing: the ordinary move.
pub(super) struct NoLog;

impl Log for NoLog {
    #[inline(always)]
    fn note(&mut self, _: Field, _: usize, _: u16) {}
}

/// The writes of the moves played since the marks still open, oldest
/// first. Kept by the reader and reused, so that reading does not
/// allocate once warm.
#[derive(Default)]
pub struct Journal {
    changes: Vec<Change>,
}

impl Journal {
    pub fn new() -> Journal {
        Journal::default()
    }

    pub(super) fn len(&self) -> usize {
        self.changes.len()
    }

    /// The latest change recorded after the first `len`, taken off.
    #[inline]
    pub(super) fn pop_above(&mut self, len: usize) -> Option<Change> {
        if self.changes.len() > len {
            self.changes.pop()
        } else {
            None
        }
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
}

/// What `undo` needs besides the journal: where the move's changes begin
/// and the board's single values before it.
#[derive(Clone, Copy, Debug)]
#[must_use = "a move played with play_logged must be undone"]
pub struct Mark {
    pub(super) changes: usize,
    pub(super) empty_count: usize,
    pub(super) ko: u16,
    pub(super) last_captured: u16,
    pub(super) hash: u64,
}

/// Writes `value` at `array[i]`, noting the old value in `log`.
#[inline(always)]
pub(super) fn set<L: Log>(log: &mut L, field: Field, array: &mut [u16], i: usize, value: u16) {
    log.note(field, i, array[i]);
    array[i] = value;
}

/// Writes `value` at the colour array's `color[i]`, noting the old one.
#[inline(always)]
pub(super) fn set_color<L: Log>(log: &mut L, color: &mut [u8], i: usize, value: u8) {
    log.note(Field::Color, i, color[i] as u16);
    color[i] = value;
}
