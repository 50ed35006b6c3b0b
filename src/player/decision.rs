//! From a search's statistics to the move genmove answers: the pass,
//! resign and dead-stone rules (`first_decision`), a pass checked against
//! the opponent's best reply (`pass_check` names the second search, which
//! the player runs; `after_pass_check` reads it), and the client's move
//! filter, which a pass from the rules may not break (`kept_to_filter`).
//!
//! The player passes only once the board is scored out: when the
//! Tromp-Taylor count of the board as it stands is what the playouts expect
//! from continued play (every point's owner now is its owner at the end of
//! the playouts), or when the opponent has just passed and the count as it
//! stands already wins; and then only after taking off the board any dead
//! opponent string it can capture at no cost.

use std::time::Instant;

use log::info;

use crate::game::{Action, Color, Game, Move, Vertex};
use crate::player::board::board_of;
use crate::player::clock::Budget;
use crate::player::knowledge::{features, Gammas, Recent};
use crate::player::playout::{light_playout, PlayoutRecords};
use crate::player::rng::FastRng;
use crate::player::search::{MoveFilter, RootMove, SearchReport};

/// Playouts the search of the opponent's reply to a pass gets at least
/// (`pass_check`).
const MIN_PASS_CHECK_PLAYOUTS: u64 = 200;

/// What the player answers to `genmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Vertex),
    Pass,
    Resign,
}

impl Decision {
    pub fn as_move(self) -> Option<Move> {
        match self {
            Decision::Play(v) => Some(Move::Play(v)),
            Decision::Pass => Some(Move::Pass),
            Decision::Resign => None,
        }
    }
}

impl From<Move> for Decision {
    fn from(mv: Move) -> Decision {
        match mv {
            Move::Pass => Decision::Pass,
            Move::Play(v) => Decision::Play(v),
        }
    }
}

/// The resign rule: resign when the best winning chance is below
/// `threshold` on two of our moves running, past the opening.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Resign {
    /// 0 never resigns.
    pub threshold: f32,
    /// The best winning chance at our previous genmove.
    pub last_win_rate: Option<f32>,
}

/// What genmove's decision is made from.
pub(super) struct Situation<'a> {
    pub game: &'a Game,
    pub color: Color,
    /// The search of the position.
    pub report: &'a SearchReport,
    pub resign: Resign,
    /// The client's avoid / allow rules for this genmove.
    pub filter: &'a MoveFilter,
    /// The search's budget, which bounds the pass check's.
    pub budget: &'a Budget,
}

/// genmove's move, in three steps that the player runs: the rules' first
/// choice (`first_decision`); where that is a pass the search did not
/// prefer, the opponent's reply to it searched (`pass_check` says which
/// search, `after_pass_check` what its report means); and the result kept
/// to the client's filter (`kept_to_filter`). The search stays the
/// player's: this module only reads reports.
pub(super) fn first_decision(situation: &Situation) -> Decision {
    let Situation {
        game,
        color,
        report,
        resign,
        ..
    } = *situation;
    first_choice(game, color, report, resign)
}

/// The search that checks a pass: the position after it, the opponent to
/// move, and that search's budget; and the search's best legal play, which
/// is played instead if the pass fails the check.
pub(super) struct PassCheck {
    pub after_pass: Game,
    pub opponent: Color,
    pub budget: Budget,
    pub best_play: RootMove,
}

/// A pass that the opponent has not made first, while the search's best
/// move is a play, is checked by searching the opponent's reply to it: the
/// ownership that called the board scored out came from playouts nearly
/// all of which began with our best move, and that move may be the one that
/// closes a boundary or saves a stone in atari (passing there lost games
/// to GNU Go). The check takes a quarter of the search's playouts and time,
/// within the clock's limit; with no time left on the clock, the pass
/// stands (None).
pub(super) fn pass_check(decision: Decision, situation: &Situation) -> Option<PassCheck> {
    let Situation {
        game,
        color,
        report,
        budget,
        ..
    } = *situation;
    let best = report.moves.first()?;
    if decision != Decision::Pass || game.consecutive_passes() > 0 || best.mv == Move::Pass {
        return None;
    }
    let best_play = report.best_play(game)?.clone();
    let now = Instant::now();
    let check_end = now + report.elapsed / 4;
    // A time per move with no clock sets no limit: the check runs a
    // little over it.
    let deadline = match (budget.deadline, budget.clock_limit()) {
        (None, _) => None,
        (Some(_), Some(limit)) if limit <= now => return None,
        (Some(_), Some(limit)) => Some(check_end.min(limit)),
        (Some(_), None) => Some(check_end),
    };
    let budget = Budget {
        deadline,
        playouts: (report.playouts / 4).max(MIN_PASS_CHECK_PLAYOUTS),
        latest: None,
        capped: budget.capped,
    };
    let mut after_pass = game.clone();
    after_pass.play(color, Move::Pass).ok()?;
    Some(PassCheck {
        after_pass,
        opponent: color.opponent(),
        budget,
        best_play,
    })
}

/// The pass `decision` after the check's search (`reply`, the opponent's
/// at the position after the pass): when the opponent's best reply does
/// better against our pass than against our best move, the best move is
/// played instead. A check stopped too early to judge leaves the pass.
pub(super) fn after_pass_check(
    decision: Decision,
    situation: &Situation,
    check: &PassCheck,
    reply: &SearchReport,
) -> Decision {
    let Situation { color, report, .. } = *situation;
    let Some(best) = report.moves.first() else {
        return decision;
    };
    let play = &check.best_play;
    let opponent = color.opponent();
    let Some(opponent_best) = reply.moves.first() else {
        return decision;
    };
    if reply.playouts < MIN_PASS_CHECK_PLAYOUTS / 2 {
        return decision;
    }
    let after_pass_rate = 1.0 - opponent_best.win_rate;
    if after_pass_rate >= best.win_rate - NO_WORSE {
        info!(
            "checked the pass: {opponent}'s best reply {} leaves {color} {:.1}%",
            opponent_best.describe(opponent),
            100.0 * after_pass_rate
        );
        return decision;
    }
    info!(
        "not passing: {opponent} would answer {}, leaving {color} {:.1}% against {:.1}% after {}",
        opponent_best.describe(opponent),
        100.0 * after_pass_rate,
        100.0 * best.win_rate,
        play.describe(color)
    );
    play.mv.into()
}

/// The decision kept to the client's filter. The rules choose moves of
/// their own, outside the tree that the filter made: a pass (a scored-out
/// board, the opponent's pass), the capture of a dead string, the learned
/// prior's play where the tree has none to give. Where the filter forbids
/// the move chosen, the search's most visited legal board move stands in
/// for it, else the learned prior's best allowed play, else a pass (no
/// play is allowed: the client forbade every point, or the one it allowed
/// is illegal).
pub(super) fn kept_to_filter(decision: Decision, situation: &Situation) -> Decision {
    let Situation {
        game,
        color,
        report,
        filter,
        ..
    } = *situation;
    let allowed = |mv: Move| filter.allows(color, mv, 0);
    if decision.as_move().is_none_or(allowed) {
        return decision;
    }
    if let Some(play) = report.best_play(game).filter(|play| allowed(play.mv)) {
        return play.mv.into();
    }
    prior_choice(game, color, |v| allowed(Move::Play(v))).map_or(Decision::Pass, Decision::Play)
}

/// From the search's statistics to a move, with the pass, resign and
/// dead-stone rules.
fn first_choice(game: &Game, color: Color, report: &SearchReport, resign: Resign) -> Decision {
    let Some(best) = report.moves.first() else {
        return Decision::Pass;
    };
    // The opponent passed and the count as it stands wins: end the game,
    // unless a dead opponent string still stands on the board. Capturing
    // it inside our own area costs nothing under area scoring, and
    // leaving it makes the count differ from the one any referee who
    // removes dead stones would give.
    if game.consecutive_passes() >= 1 && wins_as_it_stands(game, color) {
        let capture = capture_of_dead_string(game, color, report).or_else(|| {
            only_the_pass_searched(report)
                .then(|| capture_of_string_dead_in_playouts(game, color))
                .flatten()
        });
        return match capture {
            Some(vertex) => {
                info!("opponent passed, the count wins for {color}; capturing dead stones first");
                Decision::Play(vertex)
            }
            None => {
                info!("opponent passed and the count wins for {color}: passing");
                Decision::Pass
            }
        };
    }
    if should_resign(resign, game, report) {
        return Decision::Resign;
    }
    let best_play = report.best_play(game);
    let scored_out = is_scored_out(game, &report.ownership);
    let pass = report.moves.iter().find(|m| m.mv == Move::Pass);
    // `best D4 (...); passing: 12 visits, 41.0%`, not `pass pass (...)`.
    let passing = pass.map_or("not searched".to_string(), |m| {
        format!("{} visits, {:.1}%", m.visits, 100.0 * m.win_rate)
    });
    info!(
        "scored out: {scored_out}; best {}; passing: {passing}",
        best.describe(color)
    );
    if log::log_enabled!(log::Level::Debug) {
        let size = game.size();
        for row in (0..size.height).rev() {
            let line: Vec<String> = (0..size.width)
                .map(|col| format!("{:+.2}", report.ownership[row * size.width + col]))
                .collect();
            log::debug!("ownership row {}: {}", row + 1, line.join(" "));
        }
    }
    if too_small_to_judge(report) {
        // Too few playouts for visits or win rates to mean anything (no
        // time at all): pass only where the board itself allows it, else
        // play the learned prior's choice, the cheapest sensible move.
        if scored_out && wins_as_it_stands(game, color) {
            return Decision::Pass;
        }
        if let Some(choice) = prior_choice(game, color, |_| true) {
            info!(
                "{} playouts, too few to judge: the prior's choice {choice}",
                report.playouts
            );
            return Decision::Play(choice);
        }
    }
    // Scored out: the count as it stands is what play would give, so
    // passing gives it too; unless the count loses and the search has
    // found a move that wins, which means the count was misread.
    if scored_out && (wins_as_it_stands(game, color) || best.win_rate < 0.5) {
        return Decision::Pass;
    }
    if scored_out && best.mv == Move::Pass {
        return Decision::Pass;
    }
    // Not scored out, but nearly every point settled (a seki the playouts
    // keep breaking, say): the pass stays where every play searched does
    // clearly worse, as filling a seki's shared liberty gives the group
    // away. With no play searched nothing says so: every visit on the
    // pass, each ended at once by the opponent's pass in the tree, reads
    // an open board as settled (its count as it stands).
    if best.mv == Move::Pass
        && settled_share(game, &report.ownership) >= NEARLY_SETTLED
        && best_play.is_some_and(|play| play.win_rate < best.win_rate - NO_WORSE)
    {
        return Decision::Pass;
    }
    // Elsewhere the game goes on until the board can be counted as it
    // stands, whatever the search thought of passing. A network whose
    // prior prefers pass sends most visits there, and the pass then looks
    // no worse than the few playouts of each play (hane passed at move 3
    // on an open 19x19 board); with every visit on pass, no play was
    // searched at all, and the learned prior chooses one.
    match best_play {
        Some(play) => play.mv.into(),
        None => prior_choice(game, color, |_| true).map_or(Decision::Pass, Decision::Play),
    }
}

/// Playouts a search needs before its visit counts choose the move.
/// genmove with no time at all (`time_settings 0 0 0`) makes one playout a
/// thread; the move it tried, ranked by the one playout's result, was
/// answered, a pass as often as not (conceding an open board on the count).
const MIN_JUDGED_PLAYOUTS: u64 = 32;

/// Whether the search is too small to choose by: fewer than
/// MIN_JUDGED_PLAYOUTS playouts, or no move played out twice (as many
/// threads as playouts, each trying a move of its own).
fn too_small_to_judge(report: &SearchReport) -> bool {
    report.playouts < MIN_JUDGED_PLAYOUTS || report.moves.first().is_none_or(|m| m.visits < 2)
}

/// The play the learned prior (the shipped gammas: shape, captures,
/// ataris, self-ataris, distances to the last two moves, line) rates
/// strongest among those `allowed`, the first of equals in board order;
/// never a suicide, an own eye or a move the game's superko forbids. None
/// when there is no such play. A few microseconds a point: the cheapest sensible move. (The
/// tree's own prior is flat on an open small board, where it chose first
/// line moves.)
fn prior_choice(game: &Game, color: Color, allowed: impl Fn(Vertex) -> bool) -> Option<Vertex> {
    let size = game.size();
    let board = board_of(game);
    // The last two moves, back to the last setup, as the search sees them.
    let mut moves = game.actions().iter().rev().map_while(|a| match a {
        Action::Move(_, mv) => Some(mv.vertex()),
        Action::Setup(_) => None,
    });
    let recent = Recent {
        last: moves.next().flatten(),
        last2: moves.next().flatten(),
    };
    let gammas = Gammas::shipped();
    let mut best: Option<(f32, Vertex)> = None;
    for vertex in Vertex::all(size) {
        if game.board().get(vertex).is_some() || !allowed(vertex) {
            continue;
        }
        let point = board.point(vertex);
        if board.is_eye(point, color)
            || !board.is_playout_legal(point, color)
            || !game.is_legal(color, Move::Play(vertex))
        {
            continue;
        }
        let strength = gammas.strength(&features(&board, point, color, recent));
        if best.is_none_or(|(most, _)| strength > most) {
            best = Some((strength, vertex));
        }
    }
    best.map(|(_, vertex)| vertex)
}

/// Playouts a search needs before its win rates can resign: below this,
/// a rate under a few percent is a handful of playouts (a 19x19 move near
/// the end of a short clock).
const MIN_RESIGN_PLAYOUTS: u64 = 64;

/// Whether to resign after the search of `report`. The best move's win
/// rate is its playouts' own, the prior left out: the prior's even virtual
/// playouts held a move with tens of lost playouts above 5%, so that hane
/// never resigned a lost 19x19 game on a short clock.
fn should_resign(resign: Resign, game: &Game, report: &SearchReport) -> bool {
    let threshold = resign.threshold;
    let Some(best) = report.moves.first() else {
        return false;
    };
    if threshold <= 0.0 || report.playouts < MIN_RESIGN_PLAYOUTS {
        return false;
    }
    // Early in a game on a large board low values are noise.
    let size = game.size();
    let early = game.moves().count() < size.points() / 4;
    !early && best.win_rate < threshold && resign.last_win_rate.is_some_and(|w| w < threshold)
}

/// Whether `color` wins by the Tromp-Taylor count of the board as it stands.
fn wins_as_it_stands(game: &Game, color: Color) -> bool {
    let score = game.score();
    match color {
        Color::Black => score > 0.0,
        Color::White => score < 0.0,
    }
}

/// Where `color` should play to take off the board an opponent string the
/// playouts say is dead (its points end as `color`'s in nearly all of
/// them): the liberty of such a string that the search rates highest, as
/// long as the search rates it no worse than passing. None when there is no
/// dead opponent string or no such liberty.
fn capture_of_dead_string(game: &Game, color: Color, report: &SearchReport) -> Option<Vertex> {
    let board = game.board();
    let ours = |i: usize| report.ownership.get(i).copied().unwrap_or(0.0) * color.sign();
    let liberties_of_dead: Vec<Vertex> = Vertex::all(game.size())
        .enumerate()
        .filter(|&(i, v)| board.get(v) == Some(color.opponent()) && ours(i) > SURE_OWNER)
        .flat_map(|(_, v)| board.neighbours(v).filter(|&n| board.get(n).is_none()))
        .collect();
    if liberties_of_dead.is_empty() {
        return None;
    }
    let pass_rate = report
        .moves
        .iter()
        .find(|m| m.mv == Move::Pass)
        .map_or(0.0, |m| m.win_rate);
    report.moves.iter().find_map(|m| match m.mv {
        Move::Play(v)
            if liberties_of_dead.contains(&v)
                && m.win_rate >= pass_rate - NO_WORSE
                && game.is_legal(color, m.mv) =>
        {
            Some(v)
        }
        _ => None,
    })
}

/// Whether the pass took most of the search's visits: where it ends the
/// game, each of its visits counts the board as it stands, and the
/// search's ownership then says little of which stones are dead.
fn only_the_pass_searched(report: &SearchReport) -> bool {
    let visits = |pass: bool| -> u64 {
        report
            .moves
            .iter()
            .filter(|m| (m.mv == Move::Pass) == pass)
            .map(|m| u64::from(m.visits))
            .sum()
    };
    visits(true) >= visits(false)
}

/// Light playouts that judge which stones are dead where the search
/// cannot: a few milliseconds on 19x19.
const CLEANUP_PLAYOUTS: u32 = 128;

/// Where `color` should play to take off the board an opponent string that
/// light playouts from the position, `color` to move, nearly always
/// capture, when the search cannot say: with the opponent's pass just made,
/// our pass ends the game, the search's visits go to it, and its ownership
/// is the board as it stands. KGS's kgs-genmove_cleanup asks for no pass
/// while dead stones remain (README: dead stones are taken first); a dead
/// White stone in Black's area was left standing, Black passing. The
/// learned prior's best liberty of such a string; None when there is none.
/// Only where the pass took the search (`only_the_pass_searched`): a
/// search that rated the liberties is the better judge.
fn capture_of_string_dead_in_playouts(game: &Game, color: Color) -> Option<Vertex> {
    let start = board_of(game);
    let mut ours = vec![0u32; game.size().points()];
    let mut rng = FastRng::new(start.hash());
    for _ in 0..CLEANUP_PLAYOUTS {
        let mut board = start.clone();
        light_playout(&mut board, color, &mut rng, PlayoutRecords::default());
        for (i, v) in Vertex::all(game.size()).enumerate() {
            ours[i] += u32::from(board.owner(board.point(v)) == Some(color));
        }
    }
    let board = game.board();
    let dead = |i: usize| ours[i] as f32 > SURE_OWNER * CLEANUP_PLAYOUTS as f32;
    let liberties: Vec<Vertex> = Vertex::all(game.size())
        .enumerate()
        .filter(|&(i, v)| board.get(v) == Some(color.opponent()) && dead(i))
        .flat_map(|(_, v)| board.neighbours(v).filter(|&n| board.get(n).is_none()))
        .collect();
    prior_choice(game, color, |v| liberties.contains(&v))
}

/// A move whose win rate is within this of passing's is taken as no worse
/// than passing: the two are within the search's noise.
const NO_WORSE: f32 = 0.05;

/// How sure the playouts must be of a point's owner for the board to count
/// as scored out, or for a stone to count as dead.
const SURE_OWNER: f32 = 0.8;

/// The settled share of the board (`settled_share`) from which a pass
/// that every play does clearly worse than is kept, though the board is
/// not scored out: an open board is far below it.
const NEARLY_SETTLED: f32 = 0.8;

/// Whether the count of the board as it stands is what play would give:
/// every point a colour owns now (its stone, or an empty point reaching only
/// that colour) is owned by that colour at the end of nearly all playouts,
/// and every point nobody owns now is dame, an empty point between stones of
/// both colours. An open area (an empty point with no stone beside it, say
/// on the empty board) is never scored out, however the playouts split it.
fn is_scored_out(game: &Game, ownership: &[f32]) -> bool {
    Vertex::all(game.size())
        .enumerate()
        .all(|(i, v)| is_settled(game, ownership, i, v))
}

/// The share of points where the count as it stands is what the playouts
/// expect: the settled part of a board that `is_scored_out` wants whole.
fn settled_share(game: &Game, ownership: &[f32]) -> f32 {
    let points = game.size().points().max(1);
    let settled = Vertex::all(game.size())
        .enumerate()
        .filter(|&(i, v)| is_settled(game, ownership, i, v))
        .count();
    settled as f32 / points as f32
}

/// Whether the point `v` (index `i`) counts as the playouts expect: an
/// owner they are sure of, or dame between the two colours.
fn is_settled(game: &Game, ownership: &[f32], i: usize, v: Vertex) -> bool {
    let board = game.board();
    let expected = ownership.get(i).copied().unwrap_or(0.0);
    match board.owner(v) {
        Some(Color::Black) => expected > SURE_OWNER,
        Some(Color::White) => expected < -SURE_OWNER,
        None => {
            let beside: Vec<Color> = board.neighbours(v).filter_map(|n| board.get(n)).collect();
            beside.contains(&Color::Black) && beside.contains(&Color::White)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use Color::{Black as B, White as W};

    fn v(text: &str) -> Vertex {
        Vertex::parse_gtp(text).expect("vertex")
    }

    fn game_with(size: usize, stones: &[(&str, Color)]) -> Game {
        let mut game = Game::new(size, 0.5);
        for &(text, color) in stones {
            game.play(color, mv(text)).expect("legal");
        }
        game
    }

    fn mv(text: &str) -> Move {
        match text {
            "pass" => Move::Pass,
            _ => Move::Play(v(text)),
        }
    }

    /// A report for `to_move` whose moves come most visited first, each
    /// with its win rate.
    fn report(
        game: &Game,
        to_move: Color,
        moves: &[(&str, f32)],
        ownership: Vec<f32>,
    ) -> SearchReport {
        let count = moves.len() as u32;
        SearchReport {
            size: game.size(),
            to_move,
            moves: moves
                .iter()
                .enumerate()
                .map(|(i, &(text, win_rate))| RootMove {
                    mv: mv(text),
                    visits: 100 * (count - i as u32),
                    win_rate,
                    prior: 0.1,
                    black_margin: None,
                    game_win_rate: None,
                    score_stdev: None,
                    pv: vec![mv(text)],
                    pv_visits: vec![100 * (count - i as u32)],
                    ownership: None,
                })
                .collect(),
            ownership_stdev: vec![0.0; ownership.len()],
            ownership,
            black_margin: 0.0,
            root_game_win_rate: None,
            score_stdev: 0.0,
            playouts: 1000,
            elapsed: Duration::from_millis(1),
        }
    }

    const NO_RESIGN: Resign = Resign {
        threshold: 0.0,
        last_win_rate: None,
    };

    /// 3x3: Black column A, White column C, dame column B. The count is
    /// 3 to 3, so at komi 0.5 White wins as it stands.
    fn walls() -> (Game, Vec<f32>) {
        let game = game_with(
            3,
            &[
                ("A1", B),
                ("C1", W),
                ("A2", B),
                ("C2", W),
                ("A3", B),
                ("C3", W),
            ],
        );
        let mut ownership = vec![0.0f32; 9];
        for row in 0..3 {
            ownership[row * 3] = 1.0;
            ownership[row * 3 + 2] = -1.0;
        }
        (game, ownership)
    }

    /// 5x5: a black ring around C3 and a lone white stone on A5 that the
    /// playouts say Black takes. Black's area is 9, White's 1.
    fn dead_white_stone() -> (Game, Vec<f32>) {
        let mut stones: Vec<(&str, Color)> = ["B2", "C2", "D2", "B3", "D3", "B4", "C4", "D4"]
            .iter()
            .map(|&s| (s, B))
            .collect();
        stones.push(("A5", W));
        let mut game = game_with(5, &stones);
        game.play(W, Move::Pass).expect("pass");
        (game, vec![1.0; 25])
    }

    #[test]
    fn an_open_board_is_never_scored_out() {
        let game = Game::new(9, 7.5);
        assert!(!is_scored_out(&game, &[0.0; 81]));
        assert!(!is_scored_out(&game, &[-1.0; 81]));
    }

    #[test]
    fn a_nearly_settled_board_keeps_a_pass_every_play_does_clearly_worse_than() {
        // One stone the playouts are unsure of (a seki they keep
        // breaking): not scored out, 8 of 9 points settled.
        let (game, mut ownership) = walls();
        ownership[0] = 0.5;
        assert!(!is_scored_out(&game, &ownership));
        let moves = [("pass", 0.6), ("B2", 0.4)];
        let report = report(&game, B, &moves, ownership.clone());
        assert_eq!(first_choice(&game, B, &report, NO_RESIGN), Decision::Pass);
        // A play no worse than the pass is played.
        let report = self::report(&game, B, &[("pass", 0.6), ("B2", 0.58)], ownership.clone());
        assert_eq!(
            first_choice(&game, B, &report, NO_RESIGN),
            Decision::Play(v("B2"))
        );
        // With no play searched, nothing says every play does worse.
        let report = self::report(&game, B, &[("pass", 0.6)], ownership);
        assert!(matches!(
            first_choice(&game, B, &report, NO_RESIGN),
            Decision::Play(_)
        ));
        // On an open board the same numbers play on.
        let open = Game::new(3, 0.5);
        let report = self::report(&open, B, &moves, vec![0.0; 9]);
        assert_eq!(
            first_choice(&open, B, &report, NO_RESIGN),
            Decision::Play(v("B2"))
        );
    }

    #[test]
    fn settled_walls_with_dame_are_scored_out() {
        let (game, mut ownership) = walls();
        assert!(is_scored_out(&game, &ownership));
        // A stone the playouts say dies is not scored out.
        ownership[0] = -0.5;
        assert!(!is_scored_out(&game, &ownership));
    }

    #[test]
    fn after_the_opponent_passes_a_winning_count_is_passed() {
        // Black's one stone owns the whole 3x3 board; White has passed.
        let mut game = game_with(3, &[("B2", B)]);
        game.play(W, Move::Pass).expect("pass");
        let report = report(&game, B, &[("A1", 0.99), ("pass", 0.9)], vec![0.0; 9]);
        assert_eq!(first_choice(&game, B, &report, NO_RESIGN), Decision::Pass);
        // The same count does not end the game for White, who loses by it.
        let report = self::report(&game, W, &[("A1", 0.2), ("pass", 0.1)], vec![0.0; 9]);
        assert_eq!(
            first_choice(&game, W, &report, NO_RESIGN),
            Decision::Play(v("A1"))
        );
    }

    #[test]
    fn after_the_opponent_passes_a_dead_string_is_captured_first() {
        let (game, ownership) = dead_white_stone();
        assert!(game.score() > 0.0);
        // A liberty of the dead stone rated no worse than passing is played,
        // whatever the move order; a poorer liberty is not.
        let moves = [("pass", 0.9), ("B5", 0.8), ("A4", 0.88), ("E1", 0.95)];
        let report = report(&game, B, &moves, ownership.clone());
        assert_eq!(
            first_choice(&game, B, &report, NO_RESIGN),
            Decision::Play(v("A4"))
        );
        let moves = [("pass", 0.9), ("B5", 0.8), ("A4", 0.84), ("E1", 0.95)];
        let report = self::report(&game, B, &moves, ownership.clone());
        assert_eq!(first_choice(&game, B, &report, NO_RESIGN), Decision::Pass);
        // A stone the playouts do not call dead is left standing.
        let mut unsure = ownership;
        unsure[20] = 0.5;
        let moves = [("A4", 0.9), ("pass", 0.9)];
        let report = self::report(&game, B, &moves, unsure);
        assert_eq!(first_choice(&game, B, &report, NO_RESIGN), Decision::Pass);
    }

    #[test]
    fn resigning_takes_two_low_moves_running_past_the_opening() {
        let game = game_with(3, &[("B2", B), ("A1", W)]);
        let report = report(&game, W, &[("C3", 0.01), ("pass", 0.0)], vec![0.0; 9]);
        let resign = Resign {
            threshold: 0.05,
            last_win_rate: Some(0.02),
        };
        assert_eq!(first_choice(&game, W, &report, resign), Decision::Resign);
        // Not on the first low move, not with resigning off.
        let first = Resign {
            last_win_rate: Some(0.3),
            ..resign
        };
        assert_eq!(
            first_choice(&game, W, &report, first),
            Decision::Play(v("C3"))
        );
        let off = Resign {
            threshold: 0.0,
            ..resign
        };
        assert_eq!(
            first_choice(&game, W, &report, off),
            Decision::Play(v("C3"))
        );
        // Not on a few playouts.
        let mut few = report.clone();
        few.playouts = MIN_RESIGN_PLAYOUTS - 1;
        assert_eq!(
            first_choice(&game, W, &few, resign),
            Decision::Play(v("C3"))
        );
        // Not in the opening: fewer moves than a quarter of the points.
        let opening = game_with(9, &[("E5", B), ("C3", W)]);
        let report = self::report(&opening, W, &[("G7", 0.01)], vec![0.0; 81]);
        assert_eq!(
            first_choice(&opening, W, &report, resign),
            Decision::Play(v("G7"))
        );
    }

    #[test]
    fn a_scored_out_board_is_passed_unless_the_search_found_a_win_against_the_count() {
        let (game, ownership) = walls();
        // White wins by the count: pass, whatever the search prefers.
        let report = report(&game, W, &[("B2", 0.9), ("pass", 0.8)], ownership.clone());
        assert_eq!(first_choice(&game, W, &report, NO_RESIGN), Decision::Pass);
        // Black loses by the count: a move the search rates as winning is
        // played (the count was misread), a losing one is not.
        let report = self::report(&game, B, &[("B2", 0.6), ("pass", 0.1)], ownership.clone());
        assert_eq!(
            first_choice(&game, B, &report, NO_RESIGN),
            Decision::Play(v("B2"))
        );
        let report = self::report(&game, B, &[("B2", 0.4), ("pass", 0.1)], ownership);
        assert_eq!(first_choice(&game, B, &report, NO_RESIGN), Decision::Pass);
    }

    #[test]
    fn a_pass_is_checked_by_the_opponents_reply_and_played_over_when_it_loses() {
        let (game, ownership) = walls();
        // White wins by the count and passes, though the search prefers B2.
        let report = report(&game, W, &[("B2", 0.9), ("pass", 0.8)], ownership.clone());
        let filter = MoveFilter::default();
        let budget = Budget::fixed(1000, None, Instant::now());
        let situation = Situation {
            game: &game,
            color: W,
            report: &report,
            resign: NO_RESIGN,
            filter: &filter,
            budget: &budget,
        };
        let decision = first_decision(&situation);
        assert_eq!(decision, Decision::Pass);
        let check = pass_check(decision, &situation).expect("a pass to check");
        assert_eq!(check.opponent, B);
        assert_eq!(check.after_pass.consecutive_passes(), 1);
        assert_eq!(check.best_play.mv, mv("B2"));
        assert_eq!(check.budget.playouts, 250, "a quarter of the search's");
        // Black's best answer to the pass leaves White 50%, against 90%
        // after B2: B2 is played instead.
        let reply = |win_rate, playouts| {
            let mut reply =
                self::report(&check.after_pass, B, &[("B2", win_rate)], ownership.clone());
            reply.playouts = playouts;
            reply
        };
        let check_with =
            |reply: &SearchReport| after_pass_check(decision, &situation, &check, reply);
        assert_eq!(check_with(&reply(0.5, 250)), Decision::Play(v("B2")));
        // Within NO_WORSE of the best move, or too few playouts to judge,
        // the pass stands.
        assert_eq!(check_with(&reply(0.12, 250)), Decision::Pass);
        assert_eq!(check_with(&reply(0.5, 50)), Decision::Pass);
        // Nothing to check when the search prefers the pass itself, or when
        // the opponent has passed first.
        let prefers_pass = self::report(&game, W, &[("pass", 0.9), ("B2", 0.8)], ownership);
        let situation = Situation {
            report: &prefers_pass,
            ..situation
        };
        assert!(pass_check(Decision::Pass, &situation).is_none());
        let mut passed = game.clone();
        passed.play(B, Move::Pass).expect("pass");
        let situation = Situation {
            game: &passed,
            report: &report,
            ..situation
        };
        assert!(pass_check(Decision::Pass, &situation).is_none());
    }

    #[test]
    fn on_a_board_not_scored_out_a_play_is_chosen_whatever_the_pass_rates() {
        let game = game_with(5, &[("C3", B), ("C4", W)]);
        let open = vec![0.0; 25];
        let report = report(&game, B, &[("pass", 0.6), ("D3", 0.56)], open.clone());
        assert_eq!(
            first_choice(&game, B, &report, NO_RESIGN),
            Decision::Play(v("D3"))
        );
        // A prior that prefers pass: pass most visited and rated higher
        // than the play's few playouts (hane passed at move 3 on 19x19).
        let report = self::report(&game, B, &[("pass", 0.6), ("D3", 0.5)], open.clone());
        assert_eq!(
            first_choice(&game, B, &report, NO_RESIGN),
            Decision::Play(v("D3"))
        );
        // Every visit on pass: no play was searched, and the first legal
        // point in board order (A1) is no choice; the learned prior's is.
        let mut starved = self::report(
            &game,
            B,
            &[("pass", 0.6), ("A1", 0.5), ("B1", 0.5)],
            open.clone(),
        );
        for m in starved.moves.iter_mut().skip(1) {
            m.visits = 0;
        }
        let choice = prior_choice(&game, B, |_| true).expect("a play");
        assert_ne!(choice, v("A1"));
        assert_eq!(
            first_choice(&game, B, &starved, NO_RESIGN),
            Decision::Play(choice)
        );
        // The best board move is played when it leads; an illegal one is
        // skipped for the next.
        let report = self::report(&game, B, &[("C4", 0.7), ("D3", 0.6), ("pass", 0.5)], open);
        assert_eq!(
            first_choice(&game, B, &report, NO_RESIGN),
            Decision::Play(v("D3"))
        );
    }

    #[test]
    fn a_search_too_small_to_judge_plays_the_prior_not_its_one_playout() {
        // One playout, through pass, which won it: that pass was answered.
        let game = game_with(5, &[("C3", B)]);
        let open = vec![0.0; 25];
        let mut tiny = report(&game, W, &[("pass", 1.0), ("B2", 0.5), ("D4", 0.5)], open);
        tiny.playouts = 1;
        for (m, visits) in tiny.moves.iter_mut().zip([1, 0, 0]) {
            m.visits = visits;
        }
        let choice = first_choice(&game, W, &tiny, NO_RESIGN);
        assert_eq!(
            choice,
            Decision::Play(prior_choice(&game, W, |_| true).expect("a play"))
        );
        // As many threads as playouts, none played out twice: the same.
        tiny.playouts = 100;
        assert_eq!(first_choice(&game, W, &tiny, NO_RESIGN), choice);
        // A board scored out and won is still passed.
        let (game, ownership) = walls();
        let mut tiny = report(&game, W, &[("pass", 0.0), ("B2", 0.5)], ownership);
        tiny.playouts = 1;
        assert_eq!(first_choice(&game, W, &tiny, NO_RESIGN), Decision::Pass);
    }

    #[test]
    fn the_prior_choice_captures_and_keeps_to_legal_plays() {
        // White C3 in atari: Black takes it.
        let game = game_with(
            5,
            &[
                ("B3", B),
                ("C3", W),
                ("C2", B),
                ("pass", W),
                ("D3", B),
                ("pass", W),
            ],
        );
        assert_eq!(prior_choice(&game, B, |_| true), Some(v("C4")));
        // Nothing but own eyes and suicides left: no play.
        let game = game_with(
            3,
            &[
                ("B1", B),
                ("pass", W),
                ("B2", B),
                ("pass", W),
                ("B3", B),
                ("pass", W),
            ],
        );
        let mut filled = game.clone();
        for point in ["A1", "A3", "C2"] {
            filled.play(B, mv(point)).expect("legal");
            filled.play(W, Move::Pass).expect("legal");
        }
        assert_eq!(prior_choice(&filled, B, |_| true), None);
        assert!(prior_choice(&game, B, |_| true).is_some());
    }
}
