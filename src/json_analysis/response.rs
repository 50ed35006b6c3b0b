//! A search report written as one of KataGo's analysis responses: the
//! candidates (`moveInfos`), the position (`rootInfo`), and what the query
//! asked for besides (ownership, its spread, the policy). Values are from
//! the point of view the command line chose (`--report-as`, Black by
//! default as in KataGo's example configuration).

use serde::Serialize;

use super::query::Include;
use crate::game::zobrist::{size_key, stone_key, to_move_key};
use crate::game::{BoardSize, Color, Game, Move, Symmetry, Vertex};
use crate::player::{RootMove, SearchReport};

use super::settings::ReportAs;

/// One analysis response.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub(super) struct Analysis {
    pub id: String,
    pub is_during_search: bool,
    pub turn_number: usize,
    pub move_infos: Vec<MoveInfo>,
    pub root_info: RootInfo,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ownership: Option<Vec<f32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ownership_stdev: Option<Vec<f32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<Vec<f32>>,
}

/// One candidate move.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub(super) struct MoveInfo {
    #[serde(rename = "move")]
    pub mv: String,
    pub visits: u32,
    pub edge_visits: u32,
    pub winrate: f32,
    pub score_mean: f32,
    pub score_stdev: f32,
    pub score_lead: f32,
    pub score_selfplay: f32,
    pub prior: f32,
    pub lcb: f32,
    pub order: usize,
    pub pv: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv_visits: Option<Vec<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv_edge_visits: Option<Vec<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ownership: Option<Vec<f32>>,
}

/// The position itself.
#[derive(Serialize, Debug)]
#[serde(rename_all = "camelCase")]
pub(super) struct RootInfo {
    pub current_player: &'static str,
    pub visits: u64,
    pub winrate: f32,
    pub score_lead: f32,
    pub score_selfplay: f32,
    pub score_stdev: f32,
    pub this_hash: String,
    pub sym_hash: String,
}

/// What a response is made from besides the report.
pub(super) struct ResponseSpec<'a> {
    pub id: &'a str,
    pub turn: usize,
    pub game: &'a Game,
    pub include: Include,
    pub pv_len: Option<usize>,
    pub report_as: ReportAs,
    pub during_search: bool,
}

/// The response for `report`, the search of `context.game`'s position.
pub(super) fn analysis(report: &SearchReport, context: &ResponseSpec) -> Analysis {
    let to_move = report.to_move;
    let sign = context.report_as.sign(to_move);
    let owner_sign = context.report_as.ownership_sign(to_move);
    let include = context.include;
    let move_infos = report
        .played_out()
        .enumerate()
        .map(|(order, m)| move_info(report, m, order, context, sign, owner_sign))
        .collect();
    let lead = round(sign * report.root_score_lead(), 1e3);
    Analysis {
        id: context.id.to_string(),
        is_during_search: context.during_search,
        turn_number: context.turn,
        move_infos,
        root_info: RootInfo {
            current_player: if to_move == Color::Black { "B" } else { "W" },
            visits: report.root_visits(),
            winrate: reported_rate(report.root_shown_win_rate(), sign),
            score_lead: lead,
            score_selfplay: lead,
            score_stdev: round(report.score_stdev, 1e3),
            this_hash: format!("{:016X}", position_hash(context.game, to_move, false)),
            sym_hash: format!("{:016X}", position_hash(context.game, to_move, true)),
        },
        ownership: include
            .ownership
            .then(|| grid(report.size, &report.ownership, owner_sign)),
        ownership_stdev: include
            .ownership_stdev
            .then(|| grid(report.size, &report.ownership_stdev, 1.0)),
        policy: include.policy.then(|| policy(report, context.game)),
    }
}

fn move_info(
    report: &SearchReport,
    m: &RootMove,
    order: usize,
    context: &ResponseSpec,
    sign: f32,
    owner_sign: f32,
) -> MoveInfo {
    let lead = round(sign * report.score_lead(m), 1e3);
    let pv_len = context.pv_len.map_or(usize::MAX, |n| n.saturating_add(1));
    let pv: Vec<String> = m.pv.iter().take(pv_len).map(Move::to_string).collect();
    let pv_visits: Vec<u32> = m.pv_visits.iter().take(pv.len()).copied().collect();
    let include = context.include;
    MoveInfo {
        mv: m.mv.to_string(),
        visits: m.visits,
        edge_visits: m.visits,
        winrate: reported_rate(report.shown_win_rate(m), sign),
        score_mean: lead,
        score_stdev: round(report.score_stdev(m), 1e3),
        score_lead: lead,
        score_selfplay: lead,
        prior: round(m.prior, 1e6),
        lcb: reported_rate(m.lcb(), sign),
        order,
        pv,
        pv_visits: include.pv_visits.then(|| pv_visits.clone()),
        pv_edge_visits: include.pv_visits.then_some(pv_visits),
        ownership: include.moves_ownership.then(|| {
            let owners = m.ownership.as_deref().unwrap_or(&report.ownership);
            grid(report.size, owners, owner_sign)
        }),
    }
}

/// Values per point, row-major from A1 as the report keeps them, turned
/// into KataGo's order (row by row from the top left) and rounded to four
/// decimals.
fn grid(size: BoardSize, values: &[f32], sign: f32) -> Vec<f32> {
    let mut out = Vec::with_capacity(size.points());
    for row in (0..size.height).rev() {
        for col in 0..size.width {
            let value = values.get(size.index(Vertex::new(col, row))).copied();
            out.push(round(sign * value.unwrap_or(0.0), 1e4));
        }
    }
    out
}

/// The side to move's win rate `rate` from the point of view `sign`
/// names (+1 the side to move's, -1 the other side's), within 0 to 1, to
/// six decimals.
fn reported_rate(rate: f32, sign: f32) -> f32 {
    let rate = rate.clamp(0.0, 1.0);
    round(if sign > 0.0 { rate } else { 1.0 - rate }, 1e6)
}

/// `value` to the nearest multiple of `1 / scale`, so that the JSON
/// carries the digits that mean something (and -0 as 0).
fn round(value: f32, scale: f32) -> f32 {
    (value * scale).round() / scale + 0.0
}

/// The search's prior per point in KataGo's order, then pass. KataGo's
/// Analysis_Engine.md: "-1 for illegal moves", so -1 only where `game`
/// refuses the move; a legal move the tree never takes up (an own eye, a
/// move the client filtered out) has the prior the search gave it, 0.
fn policy(report: &SearchReport, game: &Game) -> Vec<f32> {
    let size = report.size;
    let prior = |mv: Move| match report.moves.iter().find(|m| m.mv == mv) {
        Some(m) => round(m.prior, 1e6),
        None if game.is_legal(report.to_move, mv) => 0.0,
        None => -1.0,
    };
    let mut out = Vec::with_capacity(size.points() + 1);
    for row in (0..size.height).rev() {
        for col in 0..size.width {
            out.push(prior(Move::Play(Vertex::new(col, row))));
        }
    }
    out.push(prior(Move::Pass));
    out
}

/// The position's Zobrist hash with the side to move; with `symmetric`,
/// the smallest over the board's symmetries (eight on a square, four on a
/// rectangle), the same for positions that are mirror images.
fn position_hash(game: &Game, to_move: Color, symmetric: bool) -> u64 {
    let size = game.size();
    let board = game.board();
    let symmetries = if symmetric {
        Symmetry::of(size)
    } else {
        &[Symmetry::IDENTITY]
    };
    symmetries
        .iter()
        .map(|s| {
            let mut hash = to_move_key(to_move) ^ size_key(size);
            for v in Vertex::all(size) {
                if let Some(color) = board.get(v) {
                    hash ^= stone_key(color, s.vertex(v, size));
                }
            }
            hash
        })
        .min()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_images_share_the_symmetric_hash_only() {
        let mut a = Game::new(9, 7.5);
        let mut b = Game::new(9, 7.5);
        let vertex = |text| Move::Play(Vertex::parse_gtp(text).expect("vertex"));
        a.play(Color::Black, vertex("C3")).expect("legal");
        b.play(Color::Black, vertex("G7")).expect("legal");
        assert_eq!(
            position_hash(&a, Color::White, true),
            position_hash(&b, Color::White, true)
        );
        assert_ne!(
            position_hash(&a, Color::White, false),
            position_hash(&b, Color::White, false)
        );
        assert_ne!(
            position_hash(&a, Color::White, false),
            position_hash(&a, Color::Black, false)
        );
    }

    #[test]
    fn boards_of_two_sizes_are_two_positions() {
        let empty = |width, height| {
            let game = Game::new(BoardSize::new(width, height).expect("size"), 7.5);
            position_hash(&game, Color::Black, false)
        };
        assert_ne!(empty(5, 5), empty(3, 4));
        assert_ne!(empty(9, 13), empty(13, 9));
        assert_eq!(empty(9, 9), empty(9, 9));
        let mut small = Game::new(9, 7.5);
        let mut large = Game::new(13, 7.5);
        for game in [&mut small, &mut large] {
            let c3 = Vertex::parse_gtp("C3").expect("vertex");
            game.play(Color::Black, Move::Play(c3)).expect("legal");
        }
        for symmetric in [false, true] {
            assert_ne!(
                position_hash(&small, Color::White, symmetric),
                position_hash(&large, Color::White, symmetric)
            );
        }
    }

    #[test]
    fn points_of_view() {
        assert_eq!(ReportAs::Black.sign(Color::White), -1.0);
        assert_eq!(ReportAs::SideToMove.sign(Color::White), 1.0);
        assert_eq!(ReportAs::SideToMove.ownership_sign(Color::White), -1.0);
        assert_eq!(ReportAs::White.ownership_sign(Color::Black), -1.0);
        let grid = grid(
            BoardSize::new(2, 3).expect("size"),
            &[1.0, 0.0, 0.0, 0.0, 0.0, -0.123456],
            -1.0,
        );
        // A3 B3, A2 B2, A1 B1.
        assert_eq!(grid, vec![0.0, 0.1235, 0.0, 0.0, -1.0, 0.0]);
    }
}
