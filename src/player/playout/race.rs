//! Capturing races in the playouts: when the last move took a liberty of
//! one of our strings that is short of liberties, and that string touches
//! an opponent string no better off, the answer is to take a liberty of the
//! opponent's string in turn.
//!
//! A race of three liberties against three is won by the side that keeps
//! taking liberties; a policy that answers only ataris and two-liberty
//! threats plays elsewhere as often as not, so its playouts call such a
//! race a coin toss whoever is ahead in it, and a longer search converges
//! on that wrong value (docs/strength.md, "Passing too early", has the
//! positions and the matches of `Policy::race`).

use crate::game::Color;
use crate::player::board::{PlayoutBoard, Point};

/// Races of more liberties than this are left to the random moves: they
/// last long enough for either side to play elsewhere first.
const MAX_RACE_LIBERTIES: usize = 3;

/// Our strings longer than this are not walked for the opponent strings
/// they touch: a rare case not worth the time of every playout move.
const MAX_WALKED_STONES: u16 = 24;

/// Moves for `color` that take an outside liberty of an opponent string
/// in a race with one of ours that `last` (the opponent's move) has just
/// pressed: ours at two or three liberties, the opponent's at two or
/// three and no more than ours. Shared liberties are left out: filling one
/// costs both sides a liberty. Each point is written once into `out`.
/// `touching` holds the strings at and next to `last`
/// (`PlayoutBoard::strings_touching`).
pub fn race_answers(board: &PlayoutBoard, color: Color, touching: &[Point], out: &mut Vec<Point>) {
    for &q in touching {
        if board.color_at(q) == Some(color) {
            answers_for(board, color, q, out);
        }
    }
}

/// The race answers for our string at `ours`.
fn answers_for(board: &PlayoutBoard, color: Color, ours: Point, out: &mut Vec<Point>) {
    if board.string_size(ours) > MAX_WALKED_STONES || board.liberties_up_to_two(ours).0 < 2 {
        return;
    }
    let mut our_liberties = [0; MAX_RACE_LIBERTIES + 1];
    let our_count = board.liberties_into(ours, &mut our_liberties);
    if !(2..=MAX_RACE_LIBERTIES).contains(&our_count) {
        return;
    }
    let our_liberties = &our_liberties[..our_count];
    // A string of n stones has at most 2n + 2 neighbouring points, two or
    // more of them its liberties: at most 2n opponent strings touch it.
    let mut theirs_seen = [0; 2 * MAX_WALKED_STONES as usize];
    let mut theirs_count = 0;
    for stone in board.stones_of(ours) {
        for n in board.adjacent(stone) {
            if board.color_at(n) != Some(color.opponent()) {
                continue;
            }
            let id = board.string_id(n);
            if theirs_seen[..theirs_count].contains(&id) || theirs_count == theirs_seen.len() {
                continue;
            }
            theirs_seen[theirs_count] = id;
            theirs_count += 1;
            let mut their_liberties = [0; MAX_RACE_LIBERTIES + 1];
            let their_count = board.liberties_into(n, &mut their_liberties);
            if !(2..=our_count).contains(&their_count) {
                continue;
            }
            for &l in &their_liberties[..their_count] {
                if !our_liberties.contains(&l) && !out.contains(&l) {
                    out.push(l);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(board: &PlayoutBoard, color: Color, last: &str) -> Vec<String> {
        let mut out = Vec::new();
        let (strings, count) = board.strings_touching(board.point_of(last));
        race_answers(board, color, &strings[..count], &mut out);
        let mut names: Vec<String> = out.iter().map(|&p| board.vertex(p).to_string()).collect();
        names.sort();
        names
    }

    /// Black's C3-C4 and White's D3-D4-D5 race, three liberties each; White
    /// has just played B4. They share C5.
    const RACE: [&str; 7] = [
        ".......", "...X...", "...OX..", "OOXOX..", "..XO...", ".......", ".......",
    ];

    #[test]
    fn a_pressed_string_takes_the_outside_liberties_of_the_string_it_races() {
        let board = PlayoutBoard::from_rows(&RACE);
        // Not C5, shared; not A5, B5 or A3 of White's A4-B4, which has four.
        assert_eq!(answers(&board, Color::Black, "B4"), ["D2", "E3"]);
    }

    #[test]
    fn no_race_answer_against_a_string_with_more_liberties() {
        let mut rows = RACE;
        // Without E5, White's D3-D4-D5 has four liberties to Black's three.
        rows[2] = "...O...";
        let board = PlayoutBoard::from_rows(&rows);
        assert!(answers(&board, Color::Black, "B4").is_empty());
        // Nor when the last move pressed no string of ours.
        assert!(answers(&PlayoutBoard::from_rows(&RACE), Color::Black, "G7").is_empty());
    }
}
