//! The playouts: the light one (each move uniformly random among the legal
//! moves of the side to move that do not fill one of its own eyes) and the
//! policy one of the search (local answers to the last move first, then a
//! random move that is mostly not a self-atari). A pass when no move is
//! left; two passes in a row, or 3·N² moves, end a playout. Simple ko only
//! (the tree and the real move apply superko); no suicide (see `board`).

use super::nakade::vital_points_near;
use super::race::race_answers;
use super::reply::Replies;
use crate::game::Color;
use crate::player::board::{self, is_bad_self_atari, PlayoutBoard, Point, TacticalReader, PASS};
use crate::player::knowledge::patterns;
use crate::player::rng::FastRng;

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutEnd {
    /// Moves played, passes included (the two final passes too).
    pub moves: u32,
}

/// The all-moves-as-first map records who played a point first in the
/// board's own colour codes: `FIRST_NONE` (the empty code) where nobody did.
pub const FIRST_NONE: u8 = board::EMPTY;

/// The code of `color` in the all-moves-as-first map.
pub fn first_code(color: Color) -> u8 {
    board::colour_code(color)
}

/// What a playout records as it goes, for the tree: who played each point
/// first (`first_mover`, indexed by point, where nobody had yet) and the
/// moves themselves (`record`, a pass as `PASS`, for the last good replies).
#[derive(Default)]
pub struct PlayoutRecords<'a> {
    pub first_mover: Option<&'a mut [u8]>,
    pub record: Option<&'a mut Vec<Point>>,
}

/// Plays a light playout from `board` with `to_move` to play, keeping
/// `records`.
pub fn light_playout(
    board: &mut PlayoutBoard,
    to_move: Color,
    rng: &mut FastRng,
    records: PlayoutRecords,
) -> PlayoutEnd {
    play_out(board, to_move, None, records, |board, color, _, _| {
        choose_move(board, color, rng)
    })
}

/// The playout loop both policies share: `choose` gives the move of the
/// side to move (None: pass) from the board, the last move and the moves
/// recorded so far; two passes in a row, or 3·N² moves, end the playout.
fn play_out(
    board: &mut PlayoutBoard,
    mut to_move: Color,
    mut last_move: Option<Point>,
    mut records: PlayoutRecords,
    mut choose: impl FnMut(&mut PlayoutBoard, Color, Option<Point>, &[Point]) -> Option<Point>,
) -> PlayoutEnd {
    let max_moves = 3 * board.size().points();
    let mut passes = 0;
    let mut moves = 0u32;
    while passes < 2 && (moves as usize) < max_moves {
        let chosen = choose(
            board,
            to_move,
            last_move,
            records.record.as_deref().map_or(&[], |r| r),
        );
        if let Some(record) = records.record.as_deref_mut() {
            record.push(chosen.unwrap_or(PASS));
        }
        match chosen {
            Some(p) => {
                board.play(p, to_move);
                passes = 0;
                last_move = Some(p);
                if let Some(first) = records.first_mover.as_deref_mut() {
                    if first[p as usize] == FIRST_NONE {
                        first[p as usize] = first_code(to_move);
                    }
                }
            }
            None => {
                board.pass();
                passes += 1;
                last_move = None;
            }
        }
        moves += 1;
        to_move = to_move.opponent();
    }
    PlayoutEnd { moves }
}

/// A uniformly random legal non-eye-filling move, by rejection from a
/// shrinking window of the empty-point list: a rejected point is swapped
/// out of the window, so every remaining candidate stays equally likely.
#[inline]
fn choose_move(board: &mut PlayoutBoard, color: Color, rng: &mut FastRng) -> Option<Point> {
    let mut window = board.empty_count();
    while window > 0 {
        let i = rng.below(window);
        let p = board.empty_at(i);
        if !board.is_eye(p, color) && board.is_playout_legal(p, color) {
            return Some(p);
        }
        window -= 1;
        board.swap_empties(i, window);
    }
    None
}

/// Captures smaller than this open no eye space with a vital point.
const MIN_NAKADE_CAPTURE: u16 = 3;

/// The probabilities of the policy playout's rules, tuned by matches
/// (docs/strength.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    /// Trying the atari answers around the last move.
    pub capture: f32,
    /// Trying the two-liberty answers around the last move.
    pub two_liberties: f32,
    /// Playing the vital point of an eye space next to the last move.
    pub nakade: f32,
    /// Taking a liberty of an opponent string racing ours when the last
    /// move took one of ours (`race`).
    pub race: f32,
    /// Trying the 3x3 shape moves around the last move.
    pub pattern: f32,
    /// Refusing a self-atari chosen by the shape or random rule.
    pub reject_self_atari: f32,
    /// Lone-stone throw-ins (snapbacks, liberty shortening) are not
    /// refused as self-ataris (`selfatari`).
    pub throw_ins: bool,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            capture: 0.9,
            // The small boards' value: as strong per playout as higher
            // ones there, for fewer instructions (the large boards keep
            // their own, `SearchParams::policy_two_liberties_large`).
            // Pachi runs its rule at 90% / 80%: hane's stands on its own
            // matches (docs/strength.md has each match of this file's
            // values).
            two_liberties: 0.1,
            nakade: 0.9,
            race: 0.9,
            pattern: 0.95,
            reject_self_atari: 0.9,
            throw_ins: true,
        }
    }
}

/// The playout of the search, in the manner of MoGo and Pachi: answer the
/// last move locally when there is a reason (capture a string it left in
/// atari, save our string it put in atari where the ladder does not work,
/// play the vital point of an eye space its capture opened, catch in a ladder a string it left with two liberties, make safe ours it
/// left with two, play a good shape next to it), else a uniformly random
/// move as in `light_playout`. Self-ataris are mostly refused. The rules are
/// the light playout's (no suicide, simple ko, own eyes never filled).
pub fn policy_playout(
    board: &mut PlayoutBoard,
    to_move: Color,
    last_move: Option<Point>,
    playout: &mut PolicyPlayout,
    records: PlayoutRecords,
) -> PlayoutEnd {
    let mut candidates = Vec::with_capacity(16);
    let policy = playout.policy;
    let replies = playout.replies;
    let mut answering = Answering {
        policy,
        rng: &mut *playout.rng,
        reader: &mut *playout.reader,
        candidates: &mut candidates,
    };
    play_out(
        board,
        to_move,
        last_move,
        records,
        |board, color, last, record| {
            let before = record.len().checked_sub(2).map_or(0, |i| record[i]);
            last.and_then(|last| {
                let reply = |board: &PlayoutBoard| {
                    replies.and_then(|r| {
                        good_reply(policy, board, color, r.reply(color, before, last)?)
                    })
                };
                local_answer(&mut answering, board, color, last, reply)
            })
            .or_else(|| choose_random_move(policy, board, color, answering.rng))
        },
    )
}

/// What a policy playout plays with: its rules' probabilities, one
/// thread's random stream and tactical reader, and the last good replies
/// when the search keeps them.
pub struct PolicyPlayout<'a> {
    pub policy: &'a Policy,
    pub rng: &'a mut FastRng,
    pub reader: &'a mut TacticalReader,
    pub replies: Option<&'a Replies>,
}

/// The local rules' working state within one playout.
struct Answering<'a> {
    policy: &'a Policy,
    rng: &'a mut FastRng,
    reader: &'a mut TacticalReader,
    /// The rule's moves, room kept from move to move.
    candidates: &'a mut Vec<Point>,
}

/// The stored reply when it is still a sensible move: legal, not an own
/// eye, not a self-atari.
fn good_reply(policy: &Policy, board: &PlayoutBoard, color: Color, reply: Point) -> Option<Point> {
    (board.color_at(reply).is_none()
        && board.is_on_board(reply)
        && !board.is_eye(reply, color)
        && board.is_playout_legal(reply, color)
        && !is_bad_self_atari(board, reply, color, policy.throw_ins))
    .then_some(reply)
}

/// A move answering the last one, or None.
fn local_answer(
    a: &mut Answering,
    board: &mut PlayoutBoard,
    color: Color,
    last: Point,
    reply: impl FnOnce(&PlayoutBoard) -> Option<Point>,
) -> Option<Point> {
    let policy = a.policy;
    let (strings, count) = board.strings_touching(last);
    let touching = &strings[..count];
    if a.rng.chance(policy.capture) {
        a.candidates.clear();
        atari_answers(board, color, touching, Some(&mut *a.reader), a.candidates);
        if let Some(p) = pick(board, color, a.candidates, a.rng, None) {
            return Some(p);
        }
    }
    // An eye space a capture has just opened: who plays its vital point
    // first decides whether the group lives.
    if policy.nakade > 0.0
        && board.last_captured() >= MIN_NAKADE_CAPTURE
        && a.rng.chance(policy.nakade)
    {
        a.candidates.clear();
        vital_points_near(board, last, a.candidates);
        if let Some(p) = pick(board, color, a.candidates, a.rng, None) {
            return Some(p);
        }
    }
    if let Some(p) = reply(board) {
        return Some(p);
    }
    if a.rng.chance(policy.two_liberties) {
        a.candidates.clear();
        a.reader
            .two_liberty_answers(board, color, touching, a.candidates);
        if let Some(p) = pick(board, color, a.candidates, a.rng, None) {
            return Some(p);
        }
    }
    if policy.race > 0.0 && a.rng.chance(policy.race) {
        a.candidates.clear();
        race_answers(board, color, touching, a.candidates);
        if let Some(p) = pick(board, color, a.candidates, a.rng, Some(policy)) {
            return Some(p);
        }
    }
    if a.rng.chance(policy.pattern) {
        a.candidates.clear();
        for p in board.neighbourhood_points(last) {
            if board.color_at(p).is_none()
                && board.is_on_board(p)
                && patterns::matches(board.neighbourhood(p))
            {
                a.candidates.push(p);
            }
        }
        if let Some(p) = pick(board, color, a.candidates, a.rng, Some(policy)) {
            return Some(p);
        }
    }
    None
}

/// Answers to ataris around the last move, for `color` to play: capture an
/// opponent string it left in atari (or the last move's own string), and
/// save ours it put in atari where a capture next to it or the extension
/// works (a ladder that works is not run from), when a `reader` is given.
/// `touching` holds the strings at and next to the last move
/// (`PlayoutBoard::strings_touching`).
pub fn atari_answers(
    board: &mut PlayoutBoard,
    color: Color,
    touching: &[Point],
    mut reader: Option<&mut TacticalReader>,
    out: &mut Vec<Point>,
) {
    for &q in touching {
        let (liberties, liberty) = board.liberties_up_to_two(q);
        if liberties != 1 {
            continue;
        }
        if board.color_at(q) == Some(color) {
            if let Some(reader) = reader.as_deref_mut() {
                reader.saving_moves(board, q, out);
            }
        } else if !out.contains(&liberty) {
            out.push(liberty);
        }
    }
}

/// A random acceptable point of `candidates`: legal, not an own eye, and,
/// when a policy is given, bad self-ataris refused with its probability
/// (tactical answers come with none: reading chose them).
fn pick(
    board: &PlayoutBoard,
    color: Color,
    candidates: &mut Vec<Point>,
    rng: &mut FastRng,
    refusing: Option<&Policy>,
) -> Option<Point> {
    while !candidates.is_empty() {
        let i = rng.below(candidates.len());
        let p = candidates.swap_remove(i);
        if board.is_eye(p, color) || !board.is_playout_legal(p, color) {
            continue;
        }
        if let Some(policy) = refusing {
            if policy.reject_self_atari > 0.0
                && is_bad_self_atari(board, p, color, policy.throw_ins)
                && rng.chance(policy.reject_self_atari)
            {
                continue;
            }
        }
        return Some(p);
    }
    None
}

/// A uniformly random legal non-eye move that is mostly not a self-atari.
fn choose_random_move(
    policy: &Policy,
    board: &mut PlayoutBoard,
    color: Color,
    rng: &mut FastRng,
) -> Option<Point> {
    let mut window = board.empty_count();
    // A refused self-atari is still better than passing when it is the
    // only move left.
    let mut refused = None;
    while window > 0 {
        let i = rng.below(window);
        let p = board.empty_at(i);
        if !board.is_eye(p, color) && board.is_playout_legal(p, color) {
            if !(is_bad_self_atari(board, p, color, policy.throw_ins)
                && rng.chance(policy.reject_self_atari))
            {
                return Some(p);
            }
            refused = Some(p);
        }
        window -= 1;
        board.swap_empties(i, window);
    }
    refused
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::board::winner;

    #[test]
    fn light_playouts_on_9x9_look_like_the_standard_ones() {
        // The standard light playout averages about 111 moves on 9x9 and
        // Black wins about 43% at komi 7.
        let mut rng = FastRng::new(5);
        let (mut moves, mut black) = (0u64, 0.0);
        let n = 4000;
        for _ in 0..n {
            let mut board = PlayoutBoard::new(9);
            let end = light_playout(
                &mut board,
                Color::Black,
                &mut rng,
                PlayoutRecords::default(),
            );
            moves += end.moves as u64;
            let score = board.score(7.0);
            black += match winner(score) {
                Some(Color::Black) => 1.0,
                Some(Color::White) => 0.0,
                None => 0.5,
            };
            // A finished light playout leaves only eyes: every empty point
            // is owned by one colour or is a lone point between both.
            assert!(board.empty_points().len() < 30);
        }
        let mean = moves as f64 / n as f64;
        let rate = black / n as f64;
        assert!((105.0..117.0).contains(&mean), "moves per playout {mean}");
        assert!((0.39..0.47).contains(&rate), "black win rate {rate}");
    }

    #[test]
    fn first_mover_map_records_the_first_player_only() {
        // Replay the playout's own record: the map must name, for every
        // point, the colour of the first move there and nothing elsewhere.
        let mut rng = FastRng::new(9);
        let mut board = PlayoutBoard::new(5);
        let mut first = [FIRST_NONE; crate::player::board::MAX_POINTS];
        let mut record = Vec::new();
        play_out(
            &mut board,
            Color::Black,
            None,
            PlayoutRecords {
                first_mover: Some(&mut first),
                record: Some(&mut record),
            },
            |board, color, _, _| choose_move(board, color, &mut rng),
        );
        let mut expected = [FIRST_NONE; crate::player::board::MAX_POINTS];
        let mut color = Color::Black;
        let mut replayed = false;
        for &p in &record {
            if p != 0 && expected[p as usize] == FIRST_NONE {
                expected[p as usize] = first_code(color);
            } else if p != 0 {
                replayed = true;
            }
            color = color.opponent();
        }
        assert!(
            replayed,
            "no point was played twice: the test shows nothing"
        );
        assert_eq!(first[..], expected[..]);
    }

    #[test]
    fn policy_playouts_capture_a_string_left_in_atari() {
        // Black to play; White's last move C1 left its string B1-C1 in
        // atari at D1.
        let mut board = PlayoutBoard::new(5);
        for (v, c) in [
            ("A1", Color::Black),
            ("B2", Color::Black),
            ("C2", Color::Black),
            ("B1", Color::White),
            ("C1", Color::White),
        ] {
            board.set_stone(crate::game::Vertex::parse_gtp(v).expect("vertex"), c);
        }
        let d1 = board.point(crate::game::Vertex::parse_gtp("D1").expect("vertex"));
        let c1 = board.point(crate::game::Vertex::parse_gtp("C1").expect("vertex"));
        let mut rng = FastRng::new(3);
        let mut reader = TacticalReader::new(crate::player::board::PLAYOUT_BUDGET);
        let mut candidates = Vec::new();
        let mut answers = Vec::new();
        let (strings, count) = board.strings_touching(c1);
        atari_answers(
            &mut board,
            Color::Black,
            &strings[..count],
            Some(&mut reader),
            &mut answers,
        );
        assert_eq!(answers, vec![d1]);
        let mut captured = 0;
        for _ in 0..100 {
            let mut answering = Answering {
                policy: &Policy::default(),
                rng: &mut rng,
                reader: &mut reader,
                candidates: &mut candidates,
            };
            let answer = local_answer(&mut answering, &mut board, Color::Black, c1, |_| None);
            captured += (answer == Some(d1)) as u32;
        }
        // Tried with the policy's capture probability, 0.9.
        assert!((75..=100).contains(&captured), "{captured}");
    }
}
