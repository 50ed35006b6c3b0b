//! Local tactics on the playout board: whether a string in atari can be
//! saved (ladders read out to the end), and which moves next to the last
//! move capture, save, or catch a string in a ladder. The playout policy and
//! the tree's priors both ask these questions; the answers are the MoGo /
//! Pachi "moggy" ideas (escape only where the ladder does not work, capture
//! what a ladder catches, answer two-liberty threats), written here from
//! their description.
//!
//! Reading plays the lines out on the asker's board itself and takes each
//! move back (`PlayoutBoard::play_logged` and `undo`), so a question costs
//! the moves it reads and no board copy; the board comes back exactly as
//! it was. A budget of board moves per question bounds it: past the budget
//! a string counts as saved, so a reading never costs more than a few
//! microseconds and errs on the side of the usual random play.

use super::playout_board::{short_list_holds, PlayoutBoard, Point};
use super::undo::{Journal, Mark};
use crate::game::Color;

/// Board moves one question may read before giving up (string saved):
/// enough for a ladder across the board, for the tree's priors.
pub const DEEP_BUDGET: u32 = 160;
/// The playouts' budget: a short ladder or a capturing race of a few
/// moves; longer lines cost more than the playout they improve.
pub const PLAYOUT_BUDGET: u32 = 24;

/// Candidate lists: at most this many moves of each kind per question.
const MAX_MOVES: usize = 8;

/// A reader with its journal of the moves being read, kept by one search
/// thread and reused for every question so that reading does not allocate
/// once warm.
pub struct TacticalReader {
    /// What the moves read so far changed, to take them back.
    journal: Journal,
    /// Board moves each question may read.
    limit: u32,
    /// Board moves left to the question being read.
    budget: u32,
}

impl TacticalReader {
    /// A reader that reads at most `limit` board moves per question.
    pub fn new(limit: u32) -> TacticalReader {
        TacticalReader {
            journal: Journal::new(),
            limit,
            budget: 0,
        }
    }

    /// Plays `m` for `color` on `board`, to be taken back with `take_back`.
    #[inline]
    fn play(&mut self, board: &mut PlayoutBoard, m: Point, color: Color) -> Mark {
        board.play_logged(m, color, &mut self.journal)
    }

    #[inline]
    fn take_back(&mut self, board: &mut PlayoutBoard, mark: Mark) {
        board.undo(&mut self.journal, mark);
    }

    /// Whether the string at `p`, in atari with its owner to move, is
    /// caught: no capture next to it and no extension gives it a future,
    /// ladders read out.
    #[cfg(test)]
    pub fn is_caught(&mut self, board: &mut PlayoutBoard, p: Point) -> bool {
        self.budget = self.limit;
        self.caught(board, p)
    }

    /// The moves that save the string at `p` (in atari, its owner to move):
    /// captures next to it and the extension, each kept only when the
    /// string is not caught after it.
    pub fn saving_moves(&mut self, board: &mut PlayoutBoard, p: Point, out: &mut Vec<Point>) {
        let Some(owner) = board.color_at(p) else {
            return;
        };
        let mut moves = [0; MAX_MOVES];
        let count = defender_moves(board, p, &mut moves);
        for &m in &moves[..count] {
            self.budget = self.limit;
            if !short_list_holds(out, m) && !self.defence_fails(board, p, owner, m) {
                out.push(m);
            }
        }
    }

    /// Answers to two-liberty strings around the last move, for `color`
    /// to play: an atari that catches an opponent string, or a move that
    /// makes safe one of ours the opponent could catch. `touching` holds
    /// the strings at and next to the last move
    /// (`PlayoutBoard::strings_touching`).
    pub fn two_liberty_answers(
        &mut self,
        board: &mut PlayoutBoard,
        color: Color,
        touching: &[Point],
        out: &mut Vec<Point>,
    ) {
        for &q in touching {
            let Some(liberties) = board.two_liberties(q) else {
                continue;
            };
            if board.color_at(q) == Some(color) {
                self.securing_moves(board, q, liberties, out);
            } else {
                self.catching_ataris(board, q, liberties, out);
            }
        }
    }

    /// The liberties of the string at `p` (its two `liberties` as
    /// `two_liberties` gives them, the opponent of its owner to move)
    /// where an atari catches it: the string cannot escape, whether by
    /// extending or by capturing the atari stone.
    pub fn catching_ataris(
        &mut self,
        board: &mut PlayoutBoard,
        p: Point,
        [a, b]: [Point; 2],
        out: &mut Vec<Point>,
    ) {
        let Some(owner) = board.color_at(p) else {
            return;
        };
        for (l, other) in [(a, b), (b, a)] {
            self.budget = self.limit;
            if !short_list_holds(out, l) && self.atari_catches(board, p, owner.opponent(), l, other)
            {
                out.push(l);
            }
        }
    }

    /// Whether the string at `p` (two liberties, its owner's opponent to
    /// move) can be caught by an atari.
    #[cfg(test)]
    pub fn can_be_caught(&mut self, board: &mut PlayoutBoard, p: Point) -> bool {
        let Some(owner) = board.color_at(p) else {
            return false;
        };
        let Some(liberties) = board.two_liberties(p) else {
            return false;
        };
        self.budget = self.limit;
        self.either_atari_catches(board, p, owner.opponent(), liberties)
    }

    /// The moves that make safe the string at `p` (its two `liberties` as
    /// `two_liberties` gives them, its owner to move) when the opponent
    /// could otherwise catch it with an atari: an extension or a capture
    /// next to it after which no atari works. Nothing when the string is
    /// not in danger.
    pub fn securing_moves(
        &mut self,
        board: &mut PlayoutBoard,
        p: Point,
        liberties: [Point; 2],
        out: &mut Vec<Point>,
    ) {
        let Some(owner) = board.color_at(p) else {
            return;
        };
        self.budget = self.limit;
        if !self.either_atari_catches(board, p, owner.opponent(), liberties) {
            return;
        }
        let mut moves = [0; MAX_MOVES];
        let mut count = capturing_moves(board, p, &mut moves);
        for l in liberties {
            if count < MAX_MOVES && !short_list_holds(&moves[..count], l) {
                moves[count] = l;
                count += 1;
            }
        }
        for &m in &moves[..count] {
            if short_list_holds(out, m) || !board.is_playout_legal(m, owner) {
                continue;
            }
            let mark = self.play(board, m, owner);
            let safe = match board.liberties_up_to_two(p).0 {
                0 | 1 => false,
                _ => match board.two_liberties(p) {
                    Some(two) => {
                        self.budget = self.limit;
                        !self.either_atari_catches(board, p, owner.opponent(), two)
                    }
                    None => true,
                },
            };
            self.take_back(board, mark);
            if safe {
                out.push(m);
            }
        }
    }

    /// Defender to move, string at `p` in atari.
    fn caught(&mut self, board: &mut PlayoutBoard, p: Point) -> bool {
        let Some(owner) = board.color_at(p) else {
            return true;
        };
        let mut moves = [0; MAX_MOVES];
        let count = defender_moves(board, p, &mut moves);
        moves[..count]
            .iter()
            .all(|&m| self.defence_fails(board, p, owner, m))
    }

    /// Whether the defence `m` of the string at `p` fails. Out of budget,
    /// it is taken to work.
    fn defence_fails(
        &mut self,
        board: &mut PlayoutBoard,
        p: Point,
        owner: Color,
        m: Point,
    ) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        if !board.is_playout_legal(m, owner) {
            return true;
        }
        if board.empty_neighbours(m) >= 3 && touches(board, m, p) {
            // Extending there already gives three liberties.
            return false;
        }
        let mark = self.play(board, m, owner);
        let fails = match board.liberties_up_to_two(p).0 {
            0 | 1 => true,
            _ => match board.two_liberties(p) {
                Some(liberties) => self.either_atari_catches(board, p, owner.opponent(), liberties),
                None => false,
            },
        };
        self.take_back(board, mark);
        fails
    }

    /// Whether an atari on one of the two liberties of the string at `p`
    /// catches it.
    fn either_atari_catches(
        &mut self,
        board: &mut PlayoutBoard,
        p: Point,
        attacker: Color,
        [a, b]: [Point; 2],
    ) -> bool {
        self.atari_catches(board, p, attacker, a, b) || self.atari_catches(board, p, attacker, b, a)
    }

    /// Whether the attacker's atari at `l` catches the string at `p`,
    /// whose other liberty is `other`.
    fn atari_catches(
        &mut self,
        board: &mut PlayoutBoard,
        p: Point,
        attacker: Color,
        l: Point,
        other: Point,
    ) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        if !board.is_playout_legal(l, attacker) || escapes_past(board, p, l, other) {
            return false;
        }
        let mark = self.play(board, l, attacker);
        let works = board.liberties_up_to_two(p).0 == 1 && self.caught(board, p);
        self.take_back(board, mark);
        works
    }
}

/// The liberties of opponent strings in atari that touch the string at
/// `p`: each move captures next to it. Returns how many were written.
fn capturing_moves(board: &PlayoutBoard, p: Point, out: &mut [Point; MAX_MOVES]) -> usize {
    let Some(owner) = board.color_at(p) else {
        return 0;
    };
    let mut count = 0;
    for s in board.stones_of(p) {
        if board.neighbours_of(s, owner.opponent()) == 0 {
            continue;
        }
        for n in board.adjacent(s) {
            if board.color_at(n) != Some(owner.opponent()) {
                continue;
            }
            // Atari is read without a walk, so a string met again costs
            // no more than a list of the strings already met would.
            let (liberties, liberty) = board.liberties_up_to_two(n);
            if liberties == 1 && count < MAX_MOVES && !short_list_holds(&out[..count], liberty) {
                out[count] = liberty;
                count += 1;
            }
        }
    }
    count
}

/// The defences of the string at `p` in atari: capture an opponent string
/// in atari that touches it, or extend at its liberty.
fn defender_moves(board: &PlayoutBoard, p: Point, out: &mut [Point; MAX_MOVES]) -> usize {
    let mut count = capturing_moves(board, p, out);
    let (liberties, liberty) = board.liberties_up_to_two(p);
    if liberties == 1 && count < MAX_MOVES && !short_list_holds(&out[..count], liberty) {
        out[count] = liberty;
        count += 1;
    }
    count
}

/// Whether `m` is next to the string at `p`.
fn touches(board: &PlayoutBoard, m: Point, p: Point) -> bool {
    let id = board.string_id(p);
    board
        .adjacent(m)
        .iter()
        .any(|&n| board.color_at(n).is_some() && board.string_id(n) == id)
}

/// Whether the two-liberty string at `p`, after an atari at its liberty
/// `l`, surely escapes by extending at its other liberty `other`: the
/// extension would have three liberties or more, counting the empty points
/// around it and those of the friendly strings it joins. Spares the reader
/// its moves in the common cases (an open board, a connection home).
fn escapes_past(board: &PlayoutBoard, p: Point, l: Point, other: Point) -> bool {
    let Some(owner) = board.color_at(p) else {
        return false;
    };
    let mut found = [0 as Point; 3];
    let mut count = 0;
    let mut note = |q: Point, count: &mut usize| {
        if q != l && q != other && !short_list_holds(&found[..*count], q) && *count < 3 {
            found[*count] = q;
            *count += 1;
        }
    };
    for n in board.adjacent(other) {
        match board.color_at(n) {
            None if board.is_on_board(n) => note(n, &mut count),
            Some(c) if c == owner && board.string_id(n) != board.string_id(p) => {
                let mut theirs = [0; 5];
                let seen = board.liberties_into(n, &mut theirs);
                for &q in &theirs[..seen] {
                    note(q, &mut count);
                }
            }
            _ => {}
        }
        if count >= 3 {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Vertex;
    use crate::player::board::board_with;

    fn at(board: &PlayoutBoard, s: &str) -> Point {
        board.point(Vertex::parse_gtp(s).expect("test vertex"))
    }

    fn two_liberties(board: &PlayoutBoard, p: Point) -> [Point; 2] {
        board.two_liberties(p).expect("a string with two liberties")
    }

    #[test]
    fn a_ladder_to_the_corner_catches_the_string() {
        // White C3 in atari by C4, its only liberty D3; the ladder runs
        // to the lower right and nothing breaks it.
        let mut board = board_with(&["B3", "C2", "D4", "C4"], &["C3"]);
        let c3 = at(&board, "C3");
        let mut reader = TacticalReader::new(DEEP_BUDGET);
        assert!(reader.is_caught(&mut board, c3));
        let mut saves = Vec::new();
        reader.saving_moves(&mut board, c3, &mut saves);
        assert!(saves.is_empty(), "{saves:?}");
    }

    #[test]
    fn a_ladder_breaker_saves_the_string() {
        let mut board = board_with(&["B3", "C2", "D4", "C4"], &["C3", "E2"]);
        let c3 = at(&board, "C3");
        let mut reader = TacticalReader::new(DEEP_BUDGET);
        assert!(!reader.is_caught(&mut board, c3));
        let mut saves = Vec::new();
        reader.saving_moves(&mut board, c3, &mut saves);
        assert_eq!(saves, vec![at(&board, "D3")]);
    }

    #[test]
    fn capturing_the_atari_stone_saves_the_string() {
        // White C3 in atari, but Black's C4 stone is itself in atari.
        let mut board = board_with(&["B3", "C2", "D3", "C4"], &["C3", "B4", "D4", "C5"]);
        let c3 = at(&board, "C3");
        let mut reader = TacticalReader::new(DEEP_BUDGET);
        let mut saves = Vec::new();
        reader.saving_moves(&mut board, c3, &mut saves);
        assert!(
            saves.is_empty() || saves == vec![at(&board, "C4")],
            "{saves:?}"
        );
    }

    #[test]
    fn the_atari_that_starts_a_working_ladder_is_found() {
        // White C3 with two liberties, C4 and D3: the atari at C4 drives
        // it along the ladder to the lower right, the atari at D3 along
        // one to the left edge; with a White stone at B5 that one fails.
        let mut board = board_with(&["B3", "C2", "D4"], &["C3"]);
        let c3 = at(&board, "C3");
        let mut reader = TacticalReader::new(DEEP_BUDGET);
        let mut ataris = Vec::new();
        let two = two_liberties(&board, c3);
        reader.catching_ataris(&mut board, c3, two, &mut ataris);
        ataris.sort();
        let mut both = vec![at(&board, "C4"), at(&board, "D3")];
        both.sort();
        assert_eq!(ataris, both);
        assert!(reader.can_be_caught(&mut board, c3));
        let mut board = board_with(&["B3", "C2", "D4"], &["C3", "B5"]);
        let c3 = at(&board, "C3");
        let mut ataris = Vec::new();
        let two = two_liberties(&board, c3);
        reader.catching_ataris(&mut board, c3, two, &mut ataris);
        assert_eq!(ataris, vec![at(&board, "C4")]);
    }

    #[test]
    fn an_atari_that_drives_the_string_home_does_not_catch_it() {
        // As above, but White E3-F3 stands beside D3: the atari at C4 drives
        // White into them; only the atari at D3 still catches.
        let mut board = board_with(&["B3", "C2", "D4"], &["C3", "E3", "F3"]);
        let c3 = at(&board, "C3");
        let (c4, d3) = (at(&board, "C4"), at(&board, "D3"));
        assert!(escapes_past(&board, c3, c4, d3));
        assert!(!escapes_past(&board, c3, d3, c4));
        let mut reader = TacticalReader::new(DEEP_BUDGET);
        let mut ataris = Vec::new();
        let two = two_liberties(&board, c3);
        reader.catching_ataris(&mut board, c3, two, &mut ataris);
        assert_eq!(ataris, vec![at(&board, "D3")]);
    }
    #[test]
    fn reading_leaves_the_board_as_it_was() {
        // Random games on 9x9 and 19x19; at every position, every question
        // about every string of one or two liberties, with both budgets:
        // the board afterwards is the board before, bit for bit.
        use crate::player::rng::FastRng;
        let mut rng = FastRng::new(17);
        let mut questions = 0;
        for size in [9, 19] {
            let mut board = PlayoutBoard::new(size);
            let mut readers = [
                TacticalReader::new(DEEP_BUDGET),
                TacticalReader::new(PLAYOUT_BUDGET),
            ];
            let mut color = Color::Black;
            for _ in 0..size * size {
                let before = board.clone();
                let stones: Vec<Point> = (0..crate::player::board::MAX_POINTS as Point)
                    .filter(|&p| board.color_at(p).is_some())
                    .collect();
                for reader in &mut readers {
                    for &p in &stones {
                        let mut out = Vec::new();
                        match board.liberties_up_to_two(p).0 {
                            1 => reader.saving_moves(&mut board, p, &mut out),
                            _ => {
                                if let Some(two) = board.two_liberties(p) {
                                    reader.catching_ataris(&mut board, p, two, &mut out);
                                    reader.securing_moves(&mut board, p, two, &mut out);
                                }
                                reader.can_be_caught(&mut board, p);
                            }
                        }
                        questions += 1;
                        assert!(board.is_identical(&before), "after reading {p}");
                    }
                }
                let empty = board.empty_points().to_vec();
                let legal: Vec<Point> = empty
                    .into_iter()
                    .filter(|&p| !board.is_eye(p, color) && board.is_playout_legal(p, color))
                    .collect();
                if legal.is_empty() {
                    break;
                }
                board.play(legal[rng.below(legal.len())], color);
                color = color.opponent();
            }
        }
        assert!(questions > 10_000, "{questions}");
    }
}
