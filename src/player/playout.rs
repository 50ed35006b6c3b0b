//! The light playout: each move uniformly random among the legal moves of
//! the side to move that do not fill one of its own eyes (the usual
//! light-playout eye rule); a pass when none is left; two passes in a row,
//! or 3·N² moves, end it. Simple ko only (the tree and the real move apply
//! positional superko); no suicide (see `board`).

use super::playout_board::{self, PlayoutBoard, Point};
use super::reply::Replies;
use super::rng::FastRng;
use super::selfatari::is_bad_self_atari;
use super::tactics::Reader;
use crate::game::Color;

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutEnd {
    /// Moves played, passes included (the two final passes too).
    pub moves: u32,
    /// The side the mercy rule gave the game to, when it cut the playout
    /// short; None when the playout was played out.
    pub mercy: Option<Color>,
}

/// The all-moves-as-first map records who played a point first in the
/// board's own colour codes: `FIRST_NONE` (the empty code) where nobody did.
pub const FIRST_NONE: u8 = playout_board::EMPTY;

/// The code of `color` in the all-moves-as-first map.
pub fn first_code(color: Color) -> u8 {
    playout_board::code(color)
}

/// Plays a light playout from `board` with `to_move` to play. When given,
/// `first_mover` (indexed by point) records who played each point first,
/// where nobody had yet.
pub fn light_playout(
    board: &mut PlayoutBoard,
    to_move: Color,
    rng: &mut FastRng,
    first_mover: Option<&mut [u8]>,
) -> PlayoutEnd {
    play_out(
        board,
        to_move,
        None,
        first_mover,
        None,
        None,
        |board, color, _, _| choose_move(board, color, rng),
    )
}

/// The mercy rule of a playout: the capture lead that decides it, and the
/// komi the lead is counted against.
#[derive(Clone, Copy, Debug)]
struct Mercy {
    threshold: u32,
    komi: f32,
}

impl Mercy {
    /// The side that has won, with `capture_lead` the stones Black has
    /// captured in the playout less White's: a side whose captures lead by
    /// the threshold and still do once the komi against it is paid. The
    /// komi alone decides nothing (the captures say nothing of the
    /// territory the board may still give).
    fn leader(self, capture_lead: i64) -> Option<Color> {
        let lead = capture_lead as f32;
        let threshold = self.threshold as f32;
        if lead >= threshold + self.komi.max(0.0) {
            Some(Color::Black)
        } else if -lead >= threshold + (-self.komi).max(0.0) {
            Some(Color::White)
        } else {
            None
        }
    }
}

/// The playout loop both policies share: `choose` gives the move of the
/// side to move (None: pass) from the board and the last move; two passes
/// in a row, or 3·N² moves, end the playout, and so does the mercy rule
/// when given: one side leads by the rule's threshold, counting the
/// stones each has captured in this playout and the komi.
#[allow(clippy::too_many_arguments)]
fn play_out(
    board: &mut PlayoutBoard,
    mut to_move: Color,
    mut last_move: Option<Point>,
    mut first_mover: Option<&mut [u8]>,
    mut record: Option<&mut Vec<Point>>,
    mercy: Option<Mercy>,
    mut choose: impl FnMut(&mut PlayoutBoard, Color, Option<Point>, &[Point]) -> Option<Point>,
) -> PlayoutEnd {
    let max_moves = 3 * board.size().points();
    let mut passes = 0;
    let mut moves = 0u32;
    // Stones captured by Black minus stones captured by White.
    let mut capture_lead = 0i64;
    while passes < 2 && (moves as usize) < max_moves {
        let chosen = choose(
            board,
            to_move,
            last_move,
            record.as_deref().map_or(&[], |r| r),
        );
        if let Some(record) = record.as_deref_mut() {
            record.push(chosen.unwrap_or(0));
        }
        match chosen {
            Some(p) => {
                let played = board.play(p, to_move);
                let taken = played.captured as i64 - played.suicided as i64;
                capture_lead += if to_move == Color::Black {
                    taken
                } else {
                    -taken
                };
                passes = 0;
                last_move = Some(p);
                if let Some(first) = first_mover.as_deref_mut() {
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
        if let Some(leader) = mercy.and_then(|m| m.leader(capture_lead)) {
            return PlayoutEnd {
                moves,
                mercy: Some(leader),
            };
        }
    }
    PlayoutEnd { moves, mercy: None }
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
    /// The mercy rule: a playout ends, won by the side ahead, once one
    /// side has captured this share of the board's points in stones more
    /// than the other (0: off). Such a playout is decided, and playing it
    /// out is slow: the loser's area is filled and taken again.
    pub mercy: f32,
}

impl Policy {
    /// The mercy rule on `board` at `komi`, None when it is off.
    fn mercy_rule(&self, board: &PlayoutBoard, komi: f32) -> Option<Mercy> {
        (self.mercy > 0.0).then(|| Mercy {
            threshold: ((self.mercy * board.size().points() as f32).ceil() as u32).max(1),
            komi,
        })
    }
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            capture: 0.9,
            two_liberties: 0.9,
            // After captures of three or more: 122 of 160 against 69 of 100
            // without (docs/strength.md). Fired after any move next to a
            // small region it scored 31 of 56.
            nakade: 0.9,
            // 169 of 199 (85%) against 83 of 100 without, on 9x9 at 5,000
            // playouts: no proof, no sign of harm, for 2% of the time; the
            // races it answers are a diagnosed blind spot (docs/strength.md).
            race: 0.9,
            pattern: 0.95,
            reject_self_atari: 0.9,
            // With the exact self-atari test: 81 of 100 against 45 of 60
            // without the exception (docs/strength.md).
            throw_ins: true,
            // Off: see docs/strength.md ("Mercy rule") for what it saves
            // and why it waits.
            mercy: 0.0,
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
#[allow(clippy::too_many_arguments)]
pub fn policy_playout(
    policy: &Policy,
    board: &mut PlayoutBoard,
    komi: f32,
    to_move: Color,
    last_move: Option<Point>,
    rng: &mut FastRng,
    reader: &mut Reader,
    first_mover: Option<&mut [u8]>,
    replies: Option<(&Replies, &mut Vec<Point>)>,
) -> PlayoutEnd {
    let mut candidates = Vec::with_capacity(16);
    let (replies, record) = match replies {
        Some((r, record)) => (Some(r), Some(record)),
        None => (None, None),
    };
    let mercy = policy.mercy_rule(board, komi);
    play_out(
        board,
        to_move,
        last_move,
        first_mover,
        record,
        mercy,
        |board, color, last, record| {
            let before = record.len().checked_sub(2).map_or(0, |i| record[i]);
            last.and_then(|last| {
                let reply = |board: &PlayoutBoard| {
                    replies.and_then(|r| {
                        good_reply(policy, board, color, r.reply(color, before, last)?)
                    })
                };
                local_answer(
                    policy,
                    board,
                    color,
                    last,
                    rng,
                    reader,
                    &mut candidates,
                    reply,
                )
            })
            .or_else(|| choose_random_move(policy, board, color, rng))
        },
    )
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
#[allow(clippy::too_many_arguments)]
fn local_answer(
    policy: &Policy,
    board: &PlayoutBoard,
    color: Color,
    last: Point,
    rng: &mut FastRng,
    reader: &mut Reader,
    candidates: &mut Vec<Point>,
    reply: impl FnOnce(&PlayoutBoard) -> Option<Point>,
) -> Option<Point> {
    if rng.chance(policy.capture) {
        candidates.clear();
        atari_answers(board, color, last, reader, candidates);
        if let Some(p) = pick(board, color, candidates, rng, None) {
            return Some(p);
        }
    }
    // An eye space a capture has just opened: who plays its vital point
    // first decides whether the group lives.
    if policy.nakade > 0.0
        && board.last_captured() >= MIN_NAKADE_CAPTURE
        && rng.chance(policy.nakade)
    {
        candidates.clear();
        super::nakade::vital_points_near(board, last, candidates);
        if let Some(p) = pick(board, color, candidates, rng, None) {
            return Some(p);
        }
    }
    if let Some(p) = reply(board) {
        return Some(p);
    }
    if rng.chance(policy.two_liberties) {
        candidates.clear();
        two_liberty_answers(board, color, last, reader, candidates);
        if let Some(p) = pick(board, color, candidates, rng, None) {
            return Some(p);
        }
    }
    if policy.race > 0.0 && rng.chance(policy.race) {
        candidates.clear();
        super::race::race_answers(board, color, last, candidates);
        if let Some(p) = pick(board, color, candidates, rng, Some(policy)) {
            return Some(p);
        }
    }
    if rng.chance(policy.pattern) {
        candidates.clear();
        for p in board.neighbourhood_points(last) {
            if board.color_at(p).is_none()
                && board.is_on_board(p)
                && super::patterns::matches(board.neighbourhood(p))
            {
                candidates.push(p);
            }
        }
        if let Some(p) = pick(board, color, candidates, rng, Some(policy)) {
            return Some(p);
        }
    }
    None
}

/// Answers to ataris around the last move, for `color` to play: capture an
/// opponent string it left in atari (or the last move's own string), and
/// save ours it put in atari where a capture next to it or the extension
/// works (a ladder that works is not run from).
pub fn atari_answers(
    board: &PlayoutBoard,
    color: Color,
    last: Point,
    reader: &mut Reader,
    out: &mut Vec<Point>,
) {
    let (strings, count) = board.strings_touching(last);
    for &q in &strings[..count] {
        let (liberties, liberty) = board.liberties_up_to_two(q);
        if liberties != 1 {
            continue;
        }
        if board.color_at(q) == Some(color) {
            reader.saving_moves(board, q, out);
        } else if !out.contains(&liberty) {
            out.push(liberty);
        }
    }
}

/// Answers to two-liberty strings around the last move, for `color` to
/// play: an atari that catches an opponent string, or a move that makes
/// safe one of ours the opponent could catch.
pub fn two_liberty_answers(
    board: &PlayoutBoard,
    color: Color,
    last: Point,
    reader: &mut Reader,
    out: &mut Vec<Point>,
) {
    let (strings, count) = board.strings_touching(last);
    for &q in &strings[..count] {
        let mut liberties = [0; 3];
        if board.liberties_into(q, &mut liberties) != 2 {
            continue;
        }
        if board.color_at(q) == Some(color) {
            reader.securing_moves(board, q, out);
        } else {
            reader.catching_ataris(board, q, out);
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
    use crate::player::playout_board::winner;

    #[test]
    fn light_playouts_on_9x9_look_like_the_standard_ones() {
        // The standard light playout averages about 111 moves on 9x9 and
        // Black wins about 43% at komi 7.
        let mut rng = FastRng::new(5);
        let (mut moves, mut black) = (0u64, 0.0);
        let n = 4000;
        for _ in 0..n {
            let mut board = PlayoutBoard::new(9);
            let end = light_playout(&mut board, Color::Black, &mut rng, None);
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
        let mut first = [FIRST_NONE; super::super::playout_board::MAX_POINTS];
        let mut record = Vec::new();
        play_out(
            &mut board,
            Color::Black,
            None,
            Some(&mut first),
            Some(&mut record),
            None,
            |board, color, _, _| choose_move(board, color, &mut rng),
        );
        let mut expected = [FIRST_NONE; super::super::playout_board::MAX_POINTS];
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
        let mut reader = Reader::new(super::super::tactics::PLAYOUT_BUDGET);
        let mut candidates = Vec::new();
        let mut answers = Vec::new();
        atari_answers(&board, Color::Black, c1, &mut reader, &mut answers);
        assert_eq!(answers, vec![d1]);
        let mut captured = 0;
        for _ in 0..100 {
            let answer = local_answer(
                &Policy::default(),
                &board,
                Color::Black,
                c1,
                &mut rng,
                &mut reader,
                &mut candidates,
                |_| None,
            );
            captured += (answer == Some(d1)) as u32;
        }
        // Tried with the policy's capture probability, 0.9.
        assert!((75..=100).contains(&captured), "{captured}");
    }

    /// A policy playout from the empty board of `size`, Black first, with
    /// its own random stream from `seed`.
    fn empty_board_playout(
        policy: &Policy,
        size: usize,
        seed: u64,
        reader: &mut Reader,
    ) -> (PlayoutBoard, PlayoutEnd) {
        let mut board = PlayoutBoard::new(size);
        let mut rng = FastRng::new(seed);
        let end = policy_playout(
            policy,
            &mut board,
            7.5,
            Color::Black,
            None,
            &mut rng,
            reader,
            None,
            None,
        );
        (board, end)
    }

    /// Paired playouts on an empty board of `size` at komi 7.5, each
    /// played from its own seed with the mercy rule off and with `policy`:
    /// the two are the same game up to the cut (the rule draws no random
    /// numbers), so the cut's winner can be checked against the full
    /// game's. Returns (playouts cut, cuts whose winner the full game
    /// agrees with, moves with the rule off, on).
    fn mercy_agreement(policy: &Policy, size: usize, n: u64) -> (u32, u32, u64, u64) {
        let mut reader = Reader::new(super::super::tactics::PLAYOUT_BUDGET);
        let (mut cut, mut agree, mut moves_off, mut moves_on) = (0, 0, 0, 0);
        let off = Policy {
            mercy: 0.0,
            ..*policy
        };
        for seed in 0..n {
            let (full, end_off) = empty_board_playout(&off, size, seed, &mut reader);
            let (_, end_on) = empty_board_playout(policy, size, seed, &mut reader);
            moves_off += end_off.moves as u64;
            moves_on += end_on.moves as u64;
            if let Some(leader) = end_on.mercy {
                cut += 1;
                agree += (winner(full.score(7.5)) == Some(leader)) as u32;
            }
        }
        (cut, agree, moves_off, moves_on)
    }

    #[test]
    fn the_mercy_rule_pays_the_komi_before_it_names_a_winner() {
        let rule = |komi| Mercy {
            threshold: 13,
            komi,
        };
        // At komi 7.5 Black needs 21 captured stones more, White 13.
        assert_eq!(rule(7.5).leader(20), None);
        assert_eq!(rule(7.5).leader(21), Some(Color::Black));
        assert_eq!(rule(7.5).leader(-12), None);
        assert_eq!(rule(7.5).leader(-13), Some(Color::White));
        // At komi 100 a 13-stone lead wins nothing for Black, and the
        // komi alone does not end a playout for White.
        assert_eq!(rule(100.0).leader(13), None);
        assert_eq!(rule(100.0).leader(0), None);
        assert_eq!(rule(-7.5).leader(-20), None);
        assert_eq!(rule(-7.5).leader(13), Some(Color::Black));
    }

    #[test]
    fn the_mercy_rule_cuts_playouts_short_and_names_their_winner() {
        let mercy = Policy {
            mercy: 0.15,
            ..Policy::default()
        };
        let (cut, agree, moves_off, moves_on) = mercy_agreement(&mercy, 9, 400);
        assert!(cut > 100, "the rule fired {cut} times in 400");
        assert!(
            moves_on < moves_off * 9 / 10,
            "{moves_on} moves against {moves_off}"
        );
        // 99.2% in the 2,000 pairs of docs/strength.md.
        assert!(agree * 100 >= cut * 97, "{agree} of {cut} cuts agree");
    }

    #[test]
    #[ignore = "an experiment (34 s): the table in docs/strength.md"]
    fn mercy_rule_agreement_by_threshold() {
        for (size, n) in [(9, 2000), (19, 300)] {
            for share in [0.05, 0.1, 0.15, 0.2, 0.3] {
                let policy = Policy {
                    mercy: share,
                    ..Policy::default()
                };
                let (cut, agree, off, on) = mercy_agreement(&policy, size, n);
                eprintln!("{size}x{size} mercy {share}: {:?}", (cut, agree, off, on));
                assert!(agree * 10 >= cut * 8, "{size}x{size} at {share}");
            }
        }
    }
}
