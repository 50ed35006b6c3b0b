//! The analysis commands: Leela Zero's `lz-analyze` and KataGo's
//! `kata-analyze`, whose `info` lines Sabaki reads while the search runs,
//! and GoGui's gfx views (INFLUENCE, LABEL, VAR, TEXT). The player hands
//! over numbers (a `SearchReport`); this file writes them as text.
//!
//! Win rates and score leads are from the point of view of the side to
//! move, as both analysis dialects define them; ownership is Black-positive
//! for GoGui and side-to-move-positive for KataGo's `ownership` and
//! `movesOwnership` fields.
//!
//! KataGo's optional outputs, as its GTP extensions document them: after
//! each candidate's `pv`, `pvVisits` and `pvEdgeVisits` (one count per PV
//! move: the playouts of the position it leads to; hane's tree has no
//! transpositions, so the two agree) and `movesOwnership` (the ownership
//! over the playouts that began with that move, H*W values from the top
//! left); after the last candidate, `rootInfo` (the position's visits, win
//! rate and score), `ownership` and `ownershipStdev` (each point's owner's
//! standard deviation over the playouts, 0 to 1).

use std::fmt::Write;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use log::info;

use super::command::{AnalyzeArgs, Dialect, GfxView};
use super::response::{Reply, ResponseStream};
use super::signals::Signals;
use crate::game::{Color, Game, Move, Vertex};
use crate::player::{Budget, Player, RootMove, SearchReport, SearchRequest, Watch};

/// Info lines every second when the client gives no interval.
const DEFAULT_INTERVAL_CS: f64 = 100.0;
/// Shortest interval between info lines: 10 ms.
const MIN_INTERVAL_CS: f64 = 1.0;
/// Longest interval between info lines: a day.
const MAX_INTERVAL_CS: f64 = 24.0 * 3600.0 * 100.0;
/// GoGui labels moves with at least this share of the visits (and the best).
const MIN_LABEL_SHARE: f32 = 0.01;
/// GoGui labels at most this many moves, to keep the board readable.
const MAX_LABELS: usize = 12;

/// `lz-analyze` / `kata-analyze`: info lines every interval until the next
/// input line, which then runs as the next command. The game is not
/// touched; the tree is kept for the next search.
pub(super) fn analyze(
    player: &mut Player,
    game: &Game,
    dialect: Dialect,
    args: &AnalyzeArgs,
    signals: &Signals,
    stream: &mut dyn ResponseStream,
) -> Reply {
    let color = args.color.unwrap_or(game.to_move());
    let _until_input = signals.stop_on_next_line();
    if !stream.open() {
        return Ok(String::new());
    }
    let send = |report: &SearchReport| send_info_line(&mut *stream, report, game, dialect, args);
    let watch = Watch::every(interval(args), send);
    let request = SearchRequest::new(game, color, Budget::UNLIMITED, &signals.stop)
        .filtered(&args.filter)
        .with_moves_ownership(args.moves_ownership)
        .judging_moves(true)
        .watched(Some(watch));
    let report = player.search(request);
    info!("analysis for {color}: {} playouts", report.playouts);
    Ok(String::new())
}

/// The time between info lines the client asked for.
pub(super) fn interval(args: &AnalyzeArgs) -> Duration {
    let centiseconds = args
        .interval
        .unwrap_or(DEFAULT_INTERVAL_CS)
        .clamp(MIN_INTERVAL_CS, MAX_INTERVAL_CS);
    Duration::from_secs_f64(centiseconds / 100.0)
}

/// Writes the search's candidates at `game`'s position as one info line;
/// false once the output is gone, which ends the search.
pub(super) fn send_info_line(
    stream: &mut dyn ResponseStream,
    report: &SearchReport,
    game: &Game,
    dialect: Dialect,
    args: &AnalyzeArgs,
) -> bool {
    let count = |n: u64| n.min(usize::MAX as u64) as usize;
    let candidates = candidates(
        report,
        game,
        args.min_moves.map_or(0, count),
        args.max_moves.map_or(usize::MAX, count),
    );
    match info_line(report, &candidates, dialect, args) {
        Some(line) => stream.line(&line),
        None => true,
    }
}

/// A GoGui gfx command: a search for `color` (the side to move by default)
/// within a genmove-sized `budget`, shown one way.
pub(super) fn gfx(
    player: &mut Player,
    game: &Game,
    view: GfxView,
    color: Option<Color>,
    budget: Budget,
    stop: &AtomicBool,
) -> String {
    let color = color.unwrap_or(game.to_move());
    let report = player.search(SearchRequest::new(game, color, budget, stop).judging_moves(true));
    gfx_text(&report, view)
}

/// The moves an info line shows: the moves played out, pass among them,
/// most visited first, as KataGo and Leela Zero write them (`info move
/// pass ...`; left out, a finished board, where only pass is searched,
/// had no info line at all, and a pass the search preferred was hidden
/// behind a board move shown as order 0); then, up to `min_moves`, legal
/// board moves not searched yet, by prior (KataGo's `minmoves`, which
/// shows them with 0 visits); at most `max_moves` in all.
fn candidates<'a>(
    report: &'a SearchReport,
    game: &Game,
    min_moves: usize,
    max_moves: usize,
) -> Vec<&'a RootMove> {
    let mut shown: Vec<&RootMove> = report.played_out().collect();
    if shown.len() < min_moves {
        let mut unsearched: Vec<&RootMove> = report
            .moves
            .iter()
            .filter(|m| m.visits == 0 && m.mv != Move::Pass)
            .collect();
        unsearched.sort_by(|a, b| b.prior.total_cmp(&a.prior));
        let wanted = min_moves - shown.len();
        // The tree learns of a superko repetition only when it tries the
        // move: ask the game about the ones it has not tried.
        shown.extend(
            unsearched
                .into_iter()
                .filter(|m| game.is_legal(report.to_move, m.mv))
                .take(wanted),
        );
    }
    shown.truncate(max_moves);
    shown
}

/// One `info` line holding the `candidates`, `info move D4 visits ...
/// pv D4 Q16 info move ...`, with `pv` last in each block unless KataGo's
/// optional outputs follow it (which Sabaki never asks for); for KataGo,
/// those `args` asks for after the last block. None when there is no
/// candidate yet.
fn info_line(
    report: &SearchReport,
    candidates: &[&RootMove],
    dialect: Dialect,
    args: &AnalyzeArgs,
) -> Option<String> {
    let mut line = String::new();
    for (order, m) in candidates.iter().enumerate() {
        if !line.is_empty() {
            line.push(' ');
        }
        let _ = write!(line, "info move {} visits {} ", m.mv, m.visits);
        let win_rate = report.shown_win_rate(m).clamp(0.0, 1.0);
        match dialect {
            Dialect::LeelaZero => {
                let _ = write!(
                    line,
                    "winrate {} prior {} lcb {}",
                    ten_thousandths(win_rate),
                    ten_thousandths(m.prior),
                    ten_thousandths(m.lcb())
                );
            }
            Dialect::KataGo => {
                let lead = report.score_lead(m);
                let stdev = report.score_stdev(m);
                // Where KataGo writes it: after the scores, before prior.
                let no_result = if args.no_result_value {
                    " noResultValue 0"
                } else {
                    ""
                };
                let _ = write!(
                    line,
                    "winrate {win_rate:.6} scoreMean {lead:.3} scoreStdev {stdev:.3} scoreLead {lead:.3}{no_result} prior {:.6} lcb {:.6}",
                    m.prior,
                    m.lcb()
                );
            }
        }
        let _ = write!(line, " order {order} pv {}", pv_text(&m.pv));
        if dialect == Dialect::KataGo {
            let visits = || {
                m.pv_visits
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            if args.pv_visits {
                let _ = write!(line, " pvVisits {}", visits());
            }
            if args.pv_edge_visits {
                let _ = write!(line, " pvEdgeVisits {}", visits());
            }
            if args.moves_ownership {
                // A move not played out yet (minmoves) has no playouts of
                // its own: the position's ownership stands for it.
                let owners = m.ownership.as_deref().unwrap_or(&report.ownership);
                line.push_str(" movesOwnership");
                push_grid(&mut line, report, owners, report.to_move.sign());
            }
        }
    }
    if line.is_empty() {
        return None;
    }
    if dialect == Dialect::KataGo {
        if args.root_info {
            let lead = report.root_score_lead();
            let _ = write!(
                line,
                " rootInfo visits {} winrate {:.6} scoreMean {lead:.3} scoreStdev {:.3} scoreLead {lead:.3} scoreSelfplay {lead:.3}",
                report.root_visits(),
                report.root_shown_win_rate().clamp(0.0, 1.0),
                report.score_stdev,
            );
        }
        if args.ownership {
            line.push_str(" ownership");
            push_grid(&mut line, report, &report.ownership, report.to_move.sign());
        }
        if args.ownership_stdev {
            line.push_str(" ownershipStdev");
            push_grid(&mut line, report, &report.ownership_stdev, 1.0);
        }
    }
    Some(line)
}

/// One value per point of the board, times `sign`, row by row from the top
/// left as KataGo writes them: on a rectangle `height` rows of `width`
/// values. `values` is row-major from A1, as the report keeps it.
fn push_grid(line: &mut String, report: &SearchReport, values: &[f32], sign: f32) {
    let size = report.size;
    for row in (0..size.height).rev() {
        for col in 0..size.width {
            let value = values.get(size.index(Vertex::new(col, row))).copied();
            // `+ 0.0` writes -0 as 0.
            let _ = write!(line, " {:.4}", sign * value.unwrap_or(0.0) + 0.0);
        }
    }
}

/// The search shown as one of GoGui's gfx views.
fn gfx_text(report: &SearchReport, view: GfxView) -> String {
    match view {
        GfxView::Ownership => gfx_ownership(report),
        GfxView::Candidates => gfx_candidates(report),
        GfxView::Variation => gfx_pv(report),
        GfxView::Score => format!("TEXT {}", summary(report)),
    }
}

/// Who owns each point at the end of the playouts.
fn gfx_ownership(report: &SearchReport) -> String {
    let mut influence = String::from("INFLUENCE");
    for (i, v) in Vertex::all(report.size).enumerate() {
        let owner = report.ownership.get(i).copied().unwrap_or(0.0);
        let _ = write!(influence, " {v} {:.2}", owner.clamp(-1.0, 1.0));
    }
    format!("{influence}\nTEXT {}", summary(report))
}

/// The candidate moves labelled `win rate:share of visits`, both in
/// percent, the win rate for the side to move; the best one marked with a
/// square, and a status line short enough for GoGui's status bar.
fn gfx_candidates(report: &SearchReport) -> String {
    let mut gfx = String::new();
    let labels = candidate_labels(report, &[], "");
    if !labels.is_empty() {
        let _ = writeln!(gfx, "LABEL{labels}");
    }
    gfx.push_str(&best_mark_and_status(report, CANDIDATES_LEGEND));
    gfx
}

/// What GoGui draws while genmove thinks (`--gogui-live-gfx`): the best
/// move's principal variation as numbered ghost stones, the candidates
/// labelled with their win rate and a percent sign on a coloured point
/// (as Lizzie rings them), the best marked, a short status line. GoGui
/// writes a VAR's move numbers and a LABEL's text in one font, so a bare
/// `27` read either as the line's 27th move or a 27% win rate: the sign
/// and the colour tell a rate from a move number at a glance. The
/// variation comes first and its later points get no label, so its
/// numbers stay whole; the best move shows its rate where its `1` would be.
pub(super) fn gfx_live(report: &SearchReport) -> String {
    let mut gfx = String::new();
    let mut continuation = Vec::new();
    if let Some(best) = report.played_out().next() {
        let _ = writeln!(gfx, "{}", variation(report.to_move, &best.pv));
        continuation.extend(best.pv.iter().skip(1).filter_map(|mv| match mv {
            Move::Play(v) => Some(*v),
            Move::Pass => None,
        }));
    }
    let labels = candidate_labels(report, &continuation, "%");
    let points: Vec<&str> = labels.split_whitespace().step_by(2).collect();
    if !points.is_empty() {
        let _ = writeln!(gfx, "COLOR {CANDIDATE_COLOR} {}", points.join(" "));
        let _ = writeln!(gfx, "LABEL{labels}");
    }
    gfx.push_str(&best_mark_and_status(report, LIVE_LEGEND));
    gfx
}

/// The field colour of a candidate move in the live drawing. GoGui paints
/// a field colour at half strength over its wood (`#e0b870` or so), so a
/// light blue (`#a0c8ff`) came out a grey (about `#bbbbb7`, read off a
/// screenshot) that told nothing apart; a full blue comes out a steel blue
/// (about `#7084b8`) that the labels' black text and the board's lines
/// still read on.
const CANDIDATE_COLOR: &str = "#0064ff";

/// The status line's key to the live drawing.
const LIVE_LEGEND: &str = "numbered stones: its line; blue N%: win rates";

/// The status line's key to the Candidate moves view.
const CANDIDATES_LEGEND: &str = "labels: win %";

/// ` D4 60 C3 25 ...`: the most searched board moves (the best always)
/// with their win rate in percent, except at the points in `unlabelled`.
/// One number of at most two digits (99 for 99.5% and up): GoGui clips a
/// label to its point, which on 19x19 at its default window size holds
/// about four narrow characters, so `50:44` read `50:4` (issue 28); the
/// best move's share of the visits is in the status line. `unit` follows
/// each number (`%` in the live drawing: three characters still fit).
fn candidate_labels(report: &SearchReport, unlabelled: &[Vertex], unit: &str) -> String {
    let candidates: Vec<&RootMove> = report.played_out().collect();
    let total: u32 = candidates.iter().map(|m| m.visits).sum();
    let mut labels = String::new();
    for (i, m) in candidates.iter().enumerate().take(MAX_LABELS) {
        let share = m.visits as f32 / total.max(1) as f32;
        let Move::Play(v) = m.mv else { continue };
        if i > 0 && share < MIN_LABEL_SHARE {
            break;
        }
        if unlabelled.contains(&v) {
            continue;
        }
        let percent = (report.shown_win_rate(m).clamp(0.0, 1.0) * 100.0)
            .round()
            .min(99.0);
        let _ = write!(labels, " {v} {percent:.0}{unit}");
    }
    labels
}

/// `SQUARE C3` on the most visited move when it is a board move, then
/// `TEXT best C3 56.3% (812 visits, 86%); labels: win %` (`legend` after
/// the semicolon). GoGui shows the TEXT in its status bar (after the
/// command's title for an analyze command), which cuts a long text off:
/// the whole summary would not fit.
fn best_mark_and_status(report: &SearchReport, legend: &str) -> String {
    let Some(best) = report.played_out().next() else {
        return format!("TEXT no move searched yet ({} playouts)", report.playouts);
    };
    let mark = match best.mv {
        Move::Play(v) => format!("SQUARE {v}\n"),
        Move::Pass => String::new(),
    };
    let total: u32 = report.played_out().map(|m| m.visits).sum();
    format!(
        "{mark}TEXT best {} {:.1}% ({} visits, {:.0}%); {legend}",
        best.mv,
        report.shown_win_rate(best).clamp(0.0, 1.0) * 100.0,
        best.visits,
        100.0 * best.visits as f32 / total.max(1) as f32
    )
}

/// The principal variation of the best move.
fn gfx_pv(report: &SearchReport) -> String {
    let Some(best) = report.played_out().next() else {
        return format!("TEXT {}", summary(report));
    };
    format!(
        "{}\nTEXT {}",
        variation(report.to_move, &best.pv),
        summary(report)
    )
}

/// `VAR b D4 w C3 b pass`: `pv` played from `color` on, colours
/// alternating.
fn variation(color: Color, pv: &[Move]) -> String {
    let mut var = String::from("VAR");
    let mut color = color;
    for mv in pv {
        let _ = write!(var, " {} {mv}", color.letter().to_ascii_lowercase());
        color = color.opponent();
    }
    var
}

/// `White to move: win rate 61%, trails by 3.5 (1234 playouts)`: the win
/// rate and the score both from the side to move, so neither reads as the
/// other's.
fn summary(report: &SearchReport) -> String {
    let to_move = report.to_move;
    let best = report.played_out().next();
    // The best move's lead beside its win rate: two measurements (on
    // 19x19 the value head's rate and the ownership head's lead, elsewhere
    // the playouts' share won and median margin), shown as they are even
    // where they name different sides.
    let lead = best.map_or(report.root_score_lead(), |m| report.score_lead(m));
    let margin = (lead * 2.0).round() / 2.0;
    let lead = if margin > 0.0 {
        format!("leads by {margin}")
    } else if margin < 0.0 {
        format!("trails by {}", -margin)
    } else {
        "even score".to_string()
    };
    let side = match to_move {
        Color::Black => "Black",
        Color::White => "White",
    };
    match best {
        Some(best) => format!(
            "{side} to move: win rate {:.0}%, {lead} ({} playouts)",
            report.shown_win_rate(best).clamp(0.0, 1.0) * 100.0,
            report.playouts
        ),
        None => format!("{side} to move: {lead} ({} playouts)", report.playouts),
    }
}

/// Leela Zero's integers: a share of 1 in units of 1/10000.
fn ten_thousandths(value: f32) -> u32 {
    (value.clamp(0.0, 1.0) * 10000.0).round() as u32
}

/// The PV as GTP vertices with `pass` in lower case, which is how Sabaki
/// recognises (and cuts the display at) a pass.
fn pv_text(pv: &[Move]) -> String {
    pv.iter().map(Move::to_string).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::sample_report;

    /// The info line of `report` on an empty board of its size.
    fn line(
        report: &SearchReport,
        dialect: Dialect,
        min_moves: usize,
        max_moves: usize,
        ownership: bool,
    ) -> Option<String> {
        let args = AnalyzeArgs {
            ownership,
            ..AnalyzeArgs::default()
        };
        line_with(report, dialect, min_moves, max_moves, &args)
    }

    fn line_with(
        report: &SearchReport,
        dialect: Dialect,
        min_moves: usize,
        max_moves: usize,
        args: &AnalyzeArgs,
    ) -> Option<String> {
        let game = Game::new(report.size, 7.5);
        let shown = candidates(report, &game, min_moves, max_moves);
        info_line(report, &shown, dialect, args)
    }

    #[test]
    fn leela_zero_info_line() {
        assert_eq!(
            line(&sample_report(), Dialect::LeelaZero, 0, usize::MAX, false).as_deref(),
            Some(
                "info move B2 visits 300 winrate 6000 prior 2000 lcb 5436 order 0 pv B2 C2 pass \
info move pass visits 50 winrate 3000 prior 1000 lcb 1910 order 1 pv pass"
            )
        );
    }

    #[test]
    fn katago_info_line_with_ownership_from_the_top_row() {
        let line = line(&sample_report(), Dialect::KataGo, 0, 1, true).expect("a line");
        assert!(line.starts_with(
            "info move B2 visits 300 winrate 0.600000 scoreMean 2.500 scoreStdev 12.500 scoreLead 2.500 prior 0.200000 lcb 0.543"
        ));
        // C3 (top right, White's) comes third, seen by White as +1.
        assert!(line.ends_with(
            "order 0 pv B2 C2 pass ownership -0.5000 -0.5000 1.0000 -0.5000 -0.5000 -0.5000 -0.5000 -0.5000 -0.5000"
        ));
    }

    #[test]
    fn katago_optional_outputs_in_katago_order() {
        let args = AnalyzeArgs {
            root_info: true,
            pv_visits: true,
            pv_edge_visits: true,
            moves_ownership: true,
            ownership: true,
            ownership_stdev: true,
            ..AnalyzeArgs::default()
        };
        let line = line_with(&sample_report(), Dialect::KataGo, 0, 1, &args).expect("a line");
        let white = -0.25; // Black's +0.25 seen by White, who is to move.
        let moves_owners = format!(" {white:.4}").repeat(9);
        let expected_tail = format!(
            "order 0 pv B2 C2 pass pvVisits 300 120 40 pvEdgeVisits 300 120 40 \
movesOwnership{moves_owners} \
rootInfo visits 350 winrate 0.557143 scoreMean 1.000 scoreStdev 12.500 scoreLead 1.000 scoreSelfplay 1.000 \
ownership -0.5000 -0.5000 1.0000 -0.5000 -0.5000 -0.5000 -0.5000 -0.5000 -0.5000 \
ownershipStdev{}",
            " 0.5000".repeat(9)
        );
        assert!(line.ends_with(&expected_tail), "{line}");
        // Leela Zero's dialect never writes them.
        let lz = line_with(&sample_report(), Dialect::LeelaZero, 0, 1, &args).expect("a line");
        assert!(lz.ends_with("pv B2 C2 pass"), "{lz}");
    }

    #[test]
    fn a_move_not_played_out_shows_the_position_s_ownership() {
        let args = AnalyzeArgs {
            moves_ownership: true,
            ..AnalyzeArgs::default()
        };
        let line = line_with(&sample_report(), Dialect::KataGo, 3, 3, &args).expect("a line");
        let a1 = line.split(" info ").nth(2).expect("the A1 block");
        assert!(a1.starts_with("move A1 visits 0"), "{a1}");
        assert!(
            a1.ends_with("pv A1 movesOwnership -0.5000 -0.5000 1.0000 -0.5000 -0.5000 -0.5000 -0.5000 -0.5000 -0.5000"),
            "{a1}"
        );
    }

    #[test]
    fn minmoves_adds_unsearched_moves_and_maxmoves_still_bounds() {
        let report = sample_report();
        let padded = line(&report, Dialect::LeelaZero, 3, usize::MAX, false).expect("a line");
        // A1 has no visits: its block comes after the searched moves'.
        assert!(
            padded.ends_with(
                "order 1 pv pass info move A1 visits 0 winrate 5000 prior 500 lcb 0 order 2 pv A1"
            ),
            "{padded}"
        );
        assert_eq!(
            line(&report, Dialect::LeelaZero, 3, 2, false),
            line(&report, Dialect::LeelaZero, 0, usize::MAX, false)
        );
    }

    #[test]
    fn a_search_of_pass_alone_is_an_info_line_of_pass() {
        let mut report = sample_report();
        report.moves.remove(0);
        let args = AnalyzeArgs {
            root_info: true,
            ownership: true,
            ..AnalyzeArgs::default()
        };
        let kata = line_with(&report, Dialect::KataGo, 0, usize::MAX, &args).expect("a line");
        assert!(
            kata.starts_with("info move pass visits 50 winrate 0.300000"),
            "{kata}"
        );
        assert!(
            kata.contains(" order 0 pv pass rootInfo visits 50 "),
            "{kata}"
        );
        assert!(kata.contains(" ownership "), "{kata}");
        let lz = line(&report, Dialect::LeelaZero, 0, usize::MAX, false).expect("a line");
        assert!(
            lz.starts_with("info move pass visits 50 winrate 3000"),
            "{lz}"
        );
        // Nothing played out: no line.
        report.moves.remove(0);
        assert_eq!(line(&report, Dialect::KataGo, 0, usize::MAX, false), None);
    }

    #[test]
    fn gogui_directives() {
        let report = SearchReport {
            to_move: Color::Black,
            ..sample_report()
        };
        let ownership = gfx_text(&report, GfxView::Ownership);
        assert!(ownership.starts_with("INFLUENCE A1 0.50 B1 0.50 C1 0.50 A2 0.50"));
        // Black to move: B2 wins 60% of the playouts for Black, while its
        // lead (the network's) has Black 2.5 points behind: both shown as
        // measured (they read "win rate 50%" before, the rate forced).
        assert!(ownership.contains("C3 -1.00\nTEXT Black to move: win rate 60%, trails by 2.5"));
        assert_eq!(
            gfx_text(&report, GfxView::Candidates),
            "LABEL B2 60\nSQUARE B2\nTEXT best B2 60.0% (300 visits, 86%); labels: win %"
        );
        assert_eq!(
            gfx_text(&report, GfxView::Variation).lines().next(),
            Some("VAR b B2 w C2 b pass")
        );
        assert!(gfx_text(&report, GfxView::Score)
            .starts_with("TEXT Black to move: win rate 60%, trails by 2.5"));
        // White to move, the same numbers: 60% and a lead of 2.5 for White.
        assert!(gfx_text(&sample_report(), GfxView::Score)
            .starts_with("TEXT White to move: win rate 60%, leads by 2.5"));
    }

    /// The sample report with C2, the best move's answer in its variation,
    /// searched as a candidate too.
    fn report_with_c2_searched() -> SearchReport {
        let mut report = sample_report();
        let c2 = Move::Play(Vertex::parse_gtp("C2").expect("vertex"));
        report.moves.insert(
            1,
            RootMove {
                mv: c2,
                visits: 100,
                win_rate: 0.45,
                prior: 0.1,
                black_margin: Some(1.0),
                game_win_rate: None,
                score_stdev: None,
                pv: vec![c2],
                pv_visits: vec![100],
                ownership: None,
            },
        );
        report
    }

    #[test]
    fn the_candidates_status_line_fits_gogui_status_bar() {
        // GoGui writes `Candidate moves: ` before it; its status bar is
        // sized for a few words and cuts the rest off.
        let gfx = gfx_text(&report_with_c2_searched(), GfxView::Candidates);
        let text = gfx.lines().last().expect("a TEXT line");
        assert_eq!(text, "TEXT best B2 60.0% (300 visits, 67%); labels: win %");
        // Every label is one number of at most two digits: GoGui clips a
        // label to its point (on 19x19, about four narrow characters).
        let labels = gfx.lines().next().expect("a LABEL line");
        for pair in labels.split(' ').skip(1).collect::<Vec<_>>().chunks(2) {
            assert!(
                pair[1].len() <= 2 && pair[1].parse::<u8>().is_ok(),
                "{labels}"
            );
        }
        let mut sure = report_with_c2_searched();
        sure.moves[0].win_rate = 1.0;
        assert!(gfx_text(&sure, GfxView::Candidates).starts_with("LABEL B2 99 C2 45\n"));
        assert!(gfx.contains("\nSQUARE B2\n"), "{gfx}");
    }

    #[test]
    fn live_graphics_show_the_variation_then_labels_off_its_later_points() {
        // The line's move numbers are bare; a win rate has its percent
        // sign and a coloured point (issue 75: `27` read either way).
        assert_eq!(
            gfx_live(&report_with_c2_searched()),
            "VAR w B2 b C2 w pass\nCOLOR #0064ff B2\nLABEL B2 60%\nSQUARE B2\nTEXT best B2 60.0% \
(300 visits, 67%); numbered stones: its line; blue N%: win rates"
        );
        // Without C2 in the variation, C2 keeps its label.
        let mut report = report_with_c2_searched();
        report.moves[0].pv.truncate(1);
        let live = gfx_live(&report);
        let lines: Vec<&str> = live.lines().collect();
        assert_eq!(lines[1..3], ["COLOR #0064ff B2 C2", "LABEL B2 60% C2 45%"]);
    }

    #[test]
    fn nothing_searched_yet_is_a_status_line_alone() {
        let mut report = sample_report();
        for m in &mut report.moves {
            m.visits = 0;
        }
        assert_eq!(
            gfx_live(&report),
            "TEXT no move searched yet (350 playouts)"
        );
    }
}
