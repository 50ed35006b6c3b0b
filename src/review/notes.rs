//! What the review writes into the game: Sabaki's win-rate and score
//! properties and the comment on a move.
//!
//! Sabaki (src/modules/sabaki.js) stores the analysis of a node's position
//! on that node as `SBKV`, Black's winning chance in percent, and `SBKS`,
//! Black's score lead, each rounded to two decimals and written by
//! JavaScript's number-to-text (`63.2`, `50`, `-0.5`), and reads them back
//! with `+value`. The same form is written here, so a file reviewed by hane
//! and one analysed in Sabaki read alike.

use crate::game::sgf::{NodeId, SgfTree};
use crate::game::{Color, Game, Move};
use crate::player::SearchReport;

/// A position's value from Black's side, as Sabaki keeps it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Verdict {
    /// Black's winning chance, 0 to 1.
    black_win: f64,
    /// Black's expected final margin, komi included, when known.
    black_lead: Option<f64>,
}

impl Verdict {
    /// The position's value, turned to Black's side: the win rate over
    /// every playout of the search (the root's, KataGo's rootInfo winrate)
    /// and the mean final margin over them.
    ///
    /// Not the preferred move's win rate: that is the best of several
    /// noisy estimates, so it overrates the side to move, and since the
    /// side to move alternates, a graph of it zigzags from move to move
    /// (54 49 56 48 55 40 on a 9x9 game at 300 playouts, the direction
    /// changing at 75 to 88% of the moves of three games). The root's
    /// rate, in which the exploration of weaker moves offsets that bias,
    /// changed direction at 50 to 63% (a random walk's 50%), its mean step
    /// 3.5 to 5 points against 5 to 10 (issue 28).
    pub(super) fn new(report: &SearchReport) -> Verdict {
        Verdict {
            black_win: f64::from(report.root_black_win_rate()).clamp(0.0, 1.0),
            black_lead: (report.root_visits() > 0).then_some(f64::from(report.black_margin)),
        }
    }

    /// A game that two passes ended: the count decides, with certainty.
    pub(super) fn over(game: &Game) -> Verdict {
        let margin = game.score();
        Verdict {
            black_win: if margin > 0.0 {
                1.0
            } else if margin < 0.0 {
                0.0
            } else {
                0.5
            },
            black_lead: Some(margin),
        }
    }
}

/// Sets the node's `SBKV` and, when the score is known, `SBKS`.
pub(super) fn write_value(tree: &mut SgfTree, node: NodeId, verdict: &Verdict) {
    tree.set_property(node, "SBKV", &sabaki_number(100.0 * verdict.black_win));
    if let Some(lead) = verdict.black_lead.filter(|l| l.is_finite()) {
        tree.set_property(node, "SBKS", &sabaki_number(lead));
    }
}

/// `x` as Sabaki writes it: `Math.round(x * 100) / 100` and then the
/// shortest text that reads back as that number, which Rust's `Display`
/// gives for an `f64` as JavaScript's `toString` does (no exponent in this
/// range). `Math.round` rounds halves up, hence `floor(x + 0.5)`.
pub(super) fn sabaki_number(x: f64) -> String {
    // Adding 0.0 turns -0 into 0, which JavaScript writes as `0`.
    let rounded = (x * 100.0 + 0.5).floor() / 100.0 + 0.0;
    format!("{rounded}")
}

/// What the review knows of one move of the game: the search of the
/// position before it and the value of the position after it.
pub(super) struct Judged<'a> {
    /// The search of the position the move was played in.
    pub(super) before: &'a SearchReport,
    /// That position's value, from Black's side (the node's SBKV).
    pub(super) value_before: Verdict,
    /// The position after the move: its value from Black's side and the
    /// playouts of its search, none where two passes ended the game and
    /// the count decided.
    pub(super) value_after: Verdict,
    pub(super) playouts_after: Option<u64>,
}

/// The comment on the game's move `played`: its win rate and points lost,
/// the side to move's value of the position after it against that of the
/// position before it, and the move hane's search of the position before
/// chose.
///
/// The two values compared are alike: each is the root's over a whole
/// search of the same budget (the one SBKV shows, so the comment reads as
/// the graph's step), whichever move was played; a move the search of
/// the position before hardly tried is judged by the full search after
/// it. The numbers are rounded as shown before they are compared, so the
/// loss is the difference of the two figures beside it, and whether hane
/// prefers its own move is said by that loss: where the search after the
/// game's move finds nothing lost, the comment says so rather than call
/// hane's choice the better.
pub(super) fn comment(judged: &Judged, played: Move) -> String {
    let report = judged.before;
    let color = report.to_move;
    let side = |verdict: &Verdict| SideView::of(verdict, color);
    let (before, after) = (side(&judged.value_before), side(&judged.value_after));
    let mut text = format!(
        "{played} for {color}: win rate {:.1}% after it, {:.1}% before",
        tenths(after.win),
        tenths(before.win)
    );
    let loss = match (before.lead, after.lead) {
        (Some(lead_before), Some(lead_after)) => {
            text.push_str(&format!(
                "; score lead {:+.1} after, {:+.1} before",
                rounded(lead_after),
                rounded(lead_before)
            ));
            let lost = rounded(rounded(lead_before) - rounded(lead_after));
            Loss {
                amount: lost,
                unit: "points",
            }
        }
        _ => Loss {
            amount: rounded(tenths(before.win) - tenths(after.win)),
            unit: "percentage points of win rate",
        },
    };
    text.push_str(&format!(": {}.", loss.describe()));
    text.push_str(&choice(report, played, &loss, after.win > before.win));
    match judged.playouts_after {
        Some(after) => text.push_str(&format!(
            " Searched with {} playouts before it and {after} after.",
            report.playouts
        )),
        None => text.push_str(&format!(
            " Searched with {} playouts before it; the count after it.",
            report.playouts
        )),
    }
    text
}

/// What hane's search of the position before chose, said as the loss
/// allows.
fn choice(report: &SearchReport, played: Move, loss: &Loss, win_rose: bool) -> String {
    let Some(best) = report.moves.first() else {
        return String::new();
    };
    let share = format!("{} of {} visits", best.visits, report.root_visits());
    if best.mv == played {
        format!(" hane's choice too ({share}).")
    } else if loss.amount > 0.0 {
        let by_score = if win_rose && loss.unit == "points" {
            " by the score alone (the win rate after the move is the higher)"
        } else {
            ""
        };
        format!(
            " hane prefers {} ({share}){by_score}: its line is the variation beside this move.",
            best.mv
        )
    } else {
        format!(
            " hane's search chose {} ({share}), but the search after {played} finds it lost \
nothing.",
            best.mv
        )
    }
}

/// The loss of a move, rounded as shown; negative where the position
/// after it was valued higher than the one before.
struct Loss {
    amount: f64,
    unit: &'static str,
}

impl Loss {
    fn describe(&self) -> String {
        if self.amount > 0.0 {
            format!("{:.1} {} lost", self.amount, self.unit)
        } else if self.amount == 0.0 {
            format!("no {} lost", self.unit)
        } else {
            format!("no {} lost ({:.1} more after it)", self.unit, -self.amount)
        }
    }
}

/// A position's value from the side of the player who moved.
struct SideView {
    /// Winning chance, 0 to 1.
    win: f64,
    lead: Option<f64>,
}

impl SideView {
    fn of(verdict: &Verdict, color: Color) -> SideView {
        let black = color == Color::Black;
        SideView {
            win: if black {
                verdict.black_win
            } else {
                1.0 - verdict.black_win
            },
            lead: verdict
                .black_lead
                .filter(|l| l.is_finite())
                .map(|l| if black { l } else { -l }),
        }
    }
}

/// A chance as the percentage shown, to a tenth.
fn tenths(chance: f64) -> f64 {
    rounded(100.0 * chance)
}

/// To a tenth, as shown (and -0 as 0).
fn rounded(x: f64) -> f64 {
    (x * 10.0).round() / 10.0 + 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Color, Vertex};
    use crate::player::sample_report;

    #[test]
    fn numbers_are_written_as_sabaki_writes_them() {
        assert_eq!(sabaki_number(63.2), "63.2");
        assert_eq!(sabaki_number(50.0), "50");
        assert_eq!(sabaki_number(12.3456), "12.35");
        assert_eq!(sabaki_number(-0.5), "-0.5");
        assert_eq!(sabaki_number(-0.001), "0");
        // Math.round(-1250) / 100: halves go up, not away from zero.
        assert_eq!(sabaki_number(-12.125), "-12.12");
        assert_eq!(sabaki_number(100.0), "100");
    }

    #[test]
    fn values_are_from_blacks_side() {
        // White to move; B2 wins 60% for White with Black's margin -2.5.
        let report = sample_report();
        let verdict = Verdict::new(&report);
        // White's 300 visits at 60% and 50 at 30%: 55.7% for White.
        assert!((verdict.black_win - (1.0 - 195.0 / 350.0)).abs() < 1e-6);
        assert_eq!(verdict.black_lead, Some(-1.0));
    }

    #[test]
    fn a_finished_game_is_won_with_certainty() {
        let mut game = Game::new(5, 0.5);
        let black = Move::Play(Vertex::new(2, 2));
        assert!(game.play(Color::Black, black).is_ok());
        assert_eq!(Verdict::over(&game).black_win, 1.0);
        assert_eq!(Verdict::over(&Game::new(5, 0.0)).black_win, 0.5);
        assert_eq!(Verdict::over(&Game::new(5, 7.5)).black_lead, Some(-7.5));
    }

    /// The sample report (White to move, B2 preferred with 300 of 350
    /// visits) judged against a position after the move valued at
    /// `black_win` and `black_lead`.
    fn judged(report: &SearchReport, black_win: f64, black_lead: Option<f64>) -> Judged<'_> {
        Judged {
            before: report,
            value_before: Verdict::new(report),
            value_after: Verdict {
                black_win,
                black_lead,
            },
            playouts_after: Some(350),
        }
    }

    #[test]
    fn hane_s_own_move_is_judged_by_the_search_after_it_too() {
        let report = sample_report();
        // Before: White 55.7%, White leads by 1.0. After B2: White 60%,
        // White by 2.5: nothing lost.
        let text = comment(&judged(&report, 0.4, Some(-2.5)), report.moves[0].mv);
        assert_eq!(
            text,
            "B2 for white: win rate 60.0% after it, 55.7% before; score lead +2.5 after, +1.0 \
before: no points lost (1.5 more after it). hane's choice too (300 of 350 visits). Searched \
with 350 playouts before it and 350 after."
        );
    }

    #[test]
    fn a_move_hane_did_not_search_gets_its_loss_and_hane_s_choice() {
        let report = sample_report();
        // C3 was not played out before; the search after it finds White
        // behind by 3.4: 4.4 points lost.
        let c3 = Move::Play(Vertex::parse_gtp("C3").expect("vertex"));
        let text = comment(&judged(&report, 0.7, Some(3.44)), c3);
        assert_eq!(
            text,
            "C3 for white: win rate 30.0% after it, 55.7% before; score lead -3.4 after, +1.0 \
before: 4.4 points lost. hane prefers B2 (300 of 350 visits): its line is the variation beside \
this move. Searched with 350 playouts before it and 350 after."
        );
    }

    #[test]
    fn a_move_that_lost_nothing_is_never_called_the_worse() {
        let report = sample_report();
        // The game's pass, which hane did not choose, is valued after it
        // as the position was before (to the tenth): no loss, said so.
        let text = comment(&judged(&report, 1.0 - 0.557, Some(-1.04)), Move::Pass);
        assert!(
            text.contains(
                ": no points lost. hane's search chose B2 (300 of 350 visits), but \
the search after pass finds it lost nothing."
            ),
            "{text}"
        );
        assert!(!text.contains("prefers"), "{text}");
        // Points lost while the win rate rose: the score alone says so.
        let text = comment(&judged(&report, 0.3, Some(-0.5)), Move::Pass);
        assert!(
            text.contains(
                "0.5 points lost. hane prefers B2 (300 of 350 visits) by the score \
alone (the win rate after the move is the higher)"
            ),
            "{text}"
        );
    }

    #[test]
    fn without_a_lead_the_win_rate_is_the_loss() {
        let report = sample_report();
        let mut judged = judged(&report, 0.6, None);
        judged.playouts_after = None;
        let text = comment(&judged, Move::Pass);
        assert!(
            text.contains(
                "pass for white: win rate 40.0% after it, 55.7% before: 15.7 \
percentage points of win rate lost. hane prefers B2"
            ),
            "{text}"
        );
        assert!(text.ends_with("Searched with 350 playouts before it; the count after it."));
    }
}
