//! Whether a position's count is settled: every string of both colours is
//! pass-alive by Benson's test (it lives even if its owner only passes)
//! and every empty point lies in a region that one colour alone borders
//! and that is a vital region (each of its points a liberty) of one of
//! those living strings, so that no stone the opponent adds there can
//! make an eye. Then the Tromp-Taylor count is the game's result under
//! good play, and it is the judgement of the position: the network, which
//! never saw a board filled to the end, misjudged a filled 19x19 board by
//! some 220 points.
//!
//! Only empty regions are taken as vital regions (Benson's regions may
//! hold the opponent's stones): a stricter test, which finds fewer
//! positions settled but never one that is not.

use super::playout_board::{PlayoutBoard, Point, MAX_POINTS};
use crate::game::{Color, Vertex};

/// An empty region: its points, the one colour around it and the strings
/// of that colour it touches (by `string_id`), each with whether the
/// region is vital to it.
struct Region {
    color: Color,
    points: Vec<Point>,
    strings: Vec<(Point, bool)>,
}

/// Black's area less White's where the position is settled; None
/// elsewhere (and on a board with no stone of one colour).
pub fn settled_count(board: &PlayoutBoard) -> Option<f32> {
    let regions = regions(board)?;
    for color in [Color::Black, Color::White] {
        if !all_pass_alive(board, color, &regions) {
            return None;
        }
    }
    Some(board.score(0.0))
}

/// The board's empty regions; None where one touches both colours (or
/// neither: an empty board).
fn regions(board: &PlayoutBoard) -> Option<Vec<Region>> {
    let mut seen = vec![false; MAX_POINTS];
    let mut regions = Vec::new();
    for v in Vertex::all(board.size()) {
        let start = board.point(v);
        if board.color_at(start).is_some() || seen[start as usize] {
            continue;
        }
        seen[start as usize] = true;
        let (mut points, mut stack) = (Vec::new(), vec![start]);
        let (mut colors, mut strings) = (Vec::new(), Vec::new());
        while let Some(p) = stack.pop() {
            points.push(p);
            for q in board.adjacent(p) {
                if !board.is_on_board(q) {
                    continue;
                }
                match board.color_at(q) {
                    None if !seen[q as usize] => {
                        seen[q as usize] = true;
                        stack.push(q);
                    }
                    None => {}
                    Some(color) => {
                        colors.push(color);
                        strings.push(board.string_id(q));
                    }
                }
            }
        }
        colors.dedup();
        let color = match colors[..] {
            [] => return None,
            [first, ..] if colors.iter().any(|&c| c != first) => return None,
            [first, ..] => first,
        };
        strings.sort_unstable();
        strings.dedup();
        let strings = strings
            .into_iter()
            .map(|s| (s, points.iter().all(|&p| touches(board, p, s))))
            .collect();
        regions.push(Region {
            color,
            points,
            strings,
        });
    }
    Some(regions)
}

/// Whether a stone of the string `s` is next to `p`.
fn touches(board: &PlayoutBoard, p: Point, s: Point) -> bool {
    board
        .adjacent(p)
        .into_iter()
        .any(|q| board.is_on_board(q) && board.color_at(q).is_some() && board.string_id(q) == s)
}

/// Benson's test for `color`: strings with fewer than two healthy vital
/// regions fall, and so does every region touching a fallen string, until
/// nothing changes. True when no string fell and every region of
/// `color` stayed healthy, vital to one of them.
fn all_pass_alive(board: &PlayoutBoard, color: Color, regions: &[Region]) -> bool {
    let mut strings: Vec<Point> = Vertex::all(board.size())
        .map(|v| board.point(v))
        .filter(|&p| board.color_at(p) == Some(color))
        .map(|p| board.string_id(p))
        .collect();
    strings.sort_unstable();
    strings.dedup();
    let mine: Vec<&Region> = regions.iter().filter(|r| r.color == color).collect();
    let mut healthy = vec![true; mine.len()];
    let mut alive = strings.clone();
    loop {
        let before = alive.len();
        alive.retain(|&s| {
            let vital = mine.iter().zip(&healthy).filter(|(region, &ok)| {
                ok && region.strings.iter().any(|&(id, vital)| id == s && vital)
            });
            vital.count() >= 2
        });
        for (region, ok) in mine.iter().zip(healthy.iter_mut()) {
            *ok = *ok && region.strings.iter().all(|(id, _)| alive.contains(id));
        }
        if alive.len() == before {
            break;
        }
    }
    alive.len() == strings.len()
        && !strings.is_empty()
        && mine.iter().zip(&healthy).all(|(region, &ok)| {
            ok && !region.points.is_empty() && region.strings.iter().any(|&(_, vital)| vital)
        })
}

/// A `size` x `size` board (odd) filled to the end, for tests: Black on
/// the left half, the middle column included, White on the right, each
/// one string with two one-point eyes, so settled, Black's by `size`
/// points of area; `change` edits the rows (top first, `X` Black, `O`
/// White, `.` empty) first.
#[cfg(test)]
pub fn filled_board(size: usize, change: impl FnOnce(&mut Vec<Vec<u8>>)) -> PlayoutBoard {
    let edge = [1, size - 2];
    let mut rows: Vec<Vec<u8>> = (0..size)
        .map(|y| {
            (0..size)
                .map(|x| {
                    let eye = edge.contains(&x) && edge.contains(&y);
                    match (eye, x < size.div_ceil(2)) {
                        (true, _) => b'.',
                        (false, true) => b'X',
                        (false, false) => b'O',
                    }
                })
                .collect()
        })
        .collect();
    change(&mut rows);
    let text: Vec<String> = rows
        .iter()
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect();
    let rows: Vec<&str> = text.iter().map(String::as_str).collect();
    PlayoutBoard::from_rows(&rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_filled_to_the_end_is_settled_at_its_count() {
        assert_eq!(settled_count(&filled_board(9, |_| {})), Some(9.0));
    }

    #[test]
    fn one_eye_a_shared_point_or_room_to_live_is_not_settled() {
        // White fills one of its eyes: one left, not pass-alive.
        assert_eq!(
            settled_count(&filled_board(9, |rows| rows[1][7] = b'O')),
            None
        );
        // A point between the two colours.
        assert_eq!(
            settled_count(&filled_board(9, |rows| rows[4][4] = b'.')),
            None
        );
        // A Black region of a point with no Black stone beside it: the
        // opponent could play there with room around it.
        let roomy = filled_board(9, |rows| {
            for row in rows.iter_mut().take(4) {
                row[0..4].copy_from_slice(b"....");
            }
        });
        assert_eq!(settled_count(&roomy), None);
        assert_eq!(settled_count(&PlayoutBoard::new(9)), None);
    }
}
