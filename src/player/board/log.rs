//! How the playout board's moves note their writes: every write a move
//! makes to the board's arrays goes through `set`, `set_color` or
//! `set_liberties`, and every merge of two strings through `Log::merged`,
//! so that `undo` can take a move back while the playouts' ordinary move
//! (`NoLog`) pays nothing.

use super::pseudo::PseudoLiberties;

/// The board array a write went to, for `undo`'s journal; `undo` indexes
/// the arrays in this order, the colours last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum Field {
    String,
    Next,
    Stones,
    Neighbours,
    Empties,
    EmptyIndex,
    Color,
}

/// Where a move's writes are noted, if anywhere: every write to the
/// arrays goes through `set` or `set_color`, every merge of two strings
/// through `merged`, and every stone a capture takes off through
/// `removed`, in the order of its string's list. The playouts' `NoLog`
/// notes nothing and compiles to the plain writes; `undo` keeps what it
/// needs to take the move back.
pub(super) trait Log {
    fn note(&mut self, field: Field, index: usize, old: u16);
    fn note_liberties(&mut self, index: usize, old: PseudoLiberties);
    fn merged(&mut self, big: u16, small: u16);
    /// The stone `p` is being taken off; its empty-list index was
    /// `old_empty_index` (a value no move reads while it is a stone, kept
    /// so that taking the capture back leaves the board bit for bit).
    fn removed(&mut self, p: u16, old_empty_index: u16);
}

/// Notes nothing: the ordinary move.
pub(super) struct NoLog;

impl Log for NoLog {
    #[inline(always)]
    fn note(&mut self, _: Field, _: usize, _: u16) {}
    #[inline(always)]
    fn note_liberties(&mut self, _: usize, _: PseudoLiberties) {}
    #[inline(always)]
    fn merged(&mut self, _: u16, _: u16) {}
    #[inline(always)]
    fn removed(&mut self, _: u16, _: u16) {}
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

/// Writes a string's pseudo-liberties at `liberties[i]`, noting the old
/// ones.
#[inline(always)]
pub(super) fn set_liberties<L: Log>(
    log: &mut L,
    liberties: &mut [PseudoLiberties],
    i: usize,
    value: PseudoLiberties,
) {
    log.note_liberties(i, liberties[i]);
    liberties[i] = value;
}
