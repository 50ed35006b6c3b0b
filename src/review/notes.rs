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
use crate::game::{Game, Move};
use crate::player::{RootMove, SearchReport};

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

/// The comment on the game's move `played`, from the search of the
/// position it was played in: the move hane prefers for the side to move,
/// its winning chance and score lead for that side, and the played move's
/// chance when hane prefers another and searched it. Visits go with each
/// rate: a rate from a few visits is a guess.
pub(super) fn comment(report: &SearchReport, best: &RootMove, played: Move) -> String {
    let color = report.to_move;
    let mut text = format!("hane prefers {} for {color}", best.mv);
    if best.mv == played {
        text.push_str(", as played");
    }
    text.push_str(&format!(
        ": win rate {}",
        percent(report.shown_win_rate(best))
    ));
    if best.black_margin.is_some() {
        text.push_str(&format!(", score lead {:.1}", report.score_lead(best)));
    }
    // The search goes on from the tree kept from the position before, so
    // a move's visits may pass this search's playouts: both are named.
    text.push_str(&format!(
        " ({} visits, the kept tree's included)",
        best.visits
    ));
    let searched = report.played_out().find(|m| m.mv == played);
    if let Some(game_move) = searched.filter(|_| best.mv != played) {
        text.push_str(&format!(
            "; {played} as played: win rate {} ({} visits)",
            percent(report.shown_win_rate(game_move)),
            game_move.visits
        ));
    }
    text.push_str(&format!(". {} playouts in this search.", report.playouts));
    text
}

fn percent(rate: f32) -> String {
    format!("{:.1}%", 100.0 * rate.clamp(0.0, 1.0))
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

    #[test]
    fn the_comment_names_the_preferred_move_and_the_played_one() {
        let report = sample_report();
        let best = &report.moves[0];
        assert_eq!(
            comment(&report, best, Move::Pass),
            "hane prefers B2 for white: win rate 60.0%, score lead 2.5 (300 visits, the kept \
tree's included); pass as played: win rate 30.0% (50 visits). 350 playouts in this search."
        );
        assert_eq!(
            comment(&report, best, best.mv),
            "hane prefers B2 for white, as played: win rate 60.0%, score lead 2.5 (300 visits, \
the kept tree's included). 350 playouts in this search."
        );
    }
}
