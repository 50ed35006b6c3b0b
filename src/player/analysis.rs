//! What a search knows about a position, as one `Analysis` value with two
//! formatters: GoGui's gfx directives (INFLUENCE, LABEL, VAR, TEXT) and the
//! `info` lines of Leela Zero's `lz-analyze` and KataGo's `kata-analyze`
//! that Sabaki reads.
//!
//! Win rates and score leads are from the point of view of the side to
//! move, as both analysis dialects define them; ownership is Black-positive
//! for GoGui and side-to-move-positive for KataGo's `ownership` field.

use std::fmt::Write;

use super::{side_sign, SearchReport};
use crate::game::{Color, Move, Vertex};

/// Which `info` dialect to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Leela Zero: win rate, prior and lcb as integers in 1/10000.
    LeelaZero,
    /// KataGo: floats in 0..1, and the score lead in points.
    KataGo,
}

/// The z value of the lower confidence bound (95%, one-sided 97.5%).
const LCB_Z: f32 = 1.96;
/// GoGui labels moves with at least this share of the visits (and the best).
const MIN_LABEL_SHARE: f32 = 0.01;
/// GoGui labels at most this many moves, to keep the board readable.
const MAX_LABELS: usize = 12;

/// One candidate move.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub mv: Move,
    pub visits: u32,
    /// The side to move's winning chance after this move.
    pub win_rate: f32,
    pub prior: f32,
    /// Lower bound of the win rate's 95% confidence interval.
    pub lcb: f32,
    /// Points the side to move leads by after this move, as the playouts
    /// through it ended (the position's estimate when there were none).
    pub score_lead: f32,
    /// Principal variation starting with this move.
    pub pv: Vec<Move>,
}

/// A snapshot of the search at one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub size: usize,
    pub to_move: Color,
    /// Most visited first; only moves the search has played out.
    pub candidates: Vec<Candidate>,
    /// Per vertex, row-major from A1: +1 Black owns it, -1 White.
    pub ownership: Vec<f32>,
    /// Black's expected final margin (komi included).
    pub black_margin: f32,
    pub playouts: u64,
}

impl Analysis {
    pub fn new(report: &SearchReport, size: usize, to_move: Color) -> Analysis {
        let sign = side_sign(to_move);
        let candidates = report
            .moves
            .iter()
            .filter(|m| m.visits > 0)
            .map(|m| Candidate {
                mv: m.mv,
                visits: m.visits,
                win_rate: m.win_rate.clamp(0.0, 1.0),
                prior: m.prior,
                lcb: lower_confidence_bound(m.win_rate, m.visits),
                score_lead: sign * m.black_margin.unwrap_or(report.black_margin),
                pv: m.pv.clone(),
            })
            .collect();
        Analysis {
            size,
            to_move,
            candidates,
            ownership: report.ownership.clone(),
            black_margin: report.black_margin,
            playouts: report.playouts,
        }
    }

    /// The candidates that may appear in an `info` line: moves on the board
    /// only, because Sabaki's parser drops (older versions choke on) a
    /// `move pass` block. Pass still shows inside the PVs.
    fn board_candidates(&self, max_moves: Option<usize>) -> impl Iterator<Item = &Candidate> {
        self.candidates
            .iter()
            .filter(|c| c.mv != Move::Pass)
            .take(max_moves.unwrap_or(usize::MAX))
    }

    /// One `info` line holding every candidate, `info move D4 visits ...
    /// pv D4 Q16 info move ...`, with `pv` last in each block; for KataGo
    /// with `ownership` true, the owners of every point after the last
    /// block. None when no move on the board has been played out yet.
    pub fn info_line(
        &self,
        dialect: Dialect,
        max_moves: Option<usize>,
        ownership: bool,
    ) -> Option<String> {
        let mut line = String::new();
        for (order, c) in self.board_candidates(max_moves).enumerate() {
            if !line.is_empty() {
                line.push(' ');
            }
            let _ = write!(line, "info move {} visits {} ", c.mv, c.visits);
            match dialect {
                Dialect::LeelaZero => {
                    let _ = write!(
                        line,
                        "winrate {} prior {} lcb {}",
                        ten_thousandths(c.win_rate),
                        ten_thousandths(c.prior),
                        ten_thousandths(c.lcb)
                    );
                }
                Dialect::KataGo => {
                    let _ = write!(
                        line,
                        "winrate {:.6} scoreMean {:.3} scoreLead {:.3} prior {:.6} lcb {:.6}",
                        c.win_rate, c.score_lead, c.score_lead, c.prior, c.lcb
                    );
                }
            }
            let _ = write!(line, " order {order} pv {}", pv_text(&c.pv));
        }
        if line.is_empty() {
            return None;
        }
        if ownership && dialect == Dialect::KataGo {
            line.push_str(" ownership");
            let sign = side_sign(self.to_move);
            for row in (0..self.size).rev() {
                for col in 0..self.size {
                    let owner = self.ownership.get(row * self.size + col).copied();
                    let _ = write!(line, " {:.4}", sign * owner.unwrap_or(0.0));
                }
            }
        }
        Some(line)
    }

    /// GoGui: who owns each point at the end of the playouts.
    pub fn gfx_ownership(&self) -> String {
        let mut influence = String::from("INFLUENCE");
        for (i, v) in Vertex::all(self.size).enumerate() {
            let owner = self.ownership.get(i).copied().unwrap_or(0.0);
            let _ = write!(influence, " {v} {:.2}", owner.clamp(-1.0, 1.0));
        }
        format!("{influence}\nTEXT {}", self.summary())
    }

    /// GoGui: the candidate moves labelled `win rate:share of visits`, both
    /// in percent, the win rate for the side to move.
    pub fn gfx_candidates(&self) -> String {
        let total: u32 = self.candidates.iter().map(|c| c.visits).sum();
        let mut labels = String::new();
        for (i, c) in self.candidates.iter().enumerate().take(MAX_LABELS) {
            let share = c.visits as f32 / total.max(1) as f32;
            let Move::Play(v) = c.mv else { continue };
            if i > 0 && share < MIN_LABEL_SHARE {
                break;
            }
            let _ = write!(
                labels,
                " {v} {:.0}:{:.0}",
                c.win_rate * 100.0,
                share * 100.0
            );
        }
        let mut gfx = String::new();
        if !labels.is_empty() {
            let _ = writeln!(gfx, "LABEL{labels}");
        }
        let _ = write!(
            gfx,
            "TEXT labels: {} win rate % : share of visits %; {}",
            self.to_move,
            self.summary()
        );
        gfx
    }

    /// GoGui: the principal variation of the best move.
    pub fn gfx_pv(&self) -> String {
        let Some(best) = self.candidates.first() else {
            return format!("TEXT {}", self.summary());
        };
        let mut var = String::from("VAR");
        let mut color = self.to_move;
        for mv in &best.pv {
            let _ = write!(var, " {} {mv}", color.letter().to_ascii_lowercase());
            color = color.opponent();
        }
        format!("{var}\nTEXT {}", self.summary())
    }

    /// GoGui: the expected result.
    pub fn gfx_score(&self) -> String {
        format!("TEXT {}", self.summary())
    }

    /// `Black leads by 3.5; win rate 61% for White to move (1234 playouts)`.
    fn summary(&self) -> String {
        let margin = (self.black_margin * 2.0).round() / 2.0;
        let lead = if margin > 0.0 {
            format!("Black leads by {margin}")
        } else if margin < 0.0 {
            format!("White leads by {}", -margin)
        } else {
            "even game".to_string()
        };
        match self.candidates.first() {
            Some(best) => format!(
                "{lead}; win rate {:.0}% for {} to move ({} playouts)",
                best.win_rate * 100.0,
                self.to_move,
                self.playouts
            ),
            None => format!("{lead} ({} playouts)", self.playouts),
        }
    }
}

/// The win rate's lower 95% bound under a normal approximation of the
/// binomial; 0 with no visits.
fn lower_confidence_bound(win_rate: f32, visits: u32) -> f32 {
    if visits == 0 {
        return 0.0;
    }
    let p = win_rate.clamp(0.0, 1.0);
    let spread = LCB_Z * (p * (1.0 - p) / visits as f32).sqrt();
    (p - spread).clamp(0.0, 1.0)
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
    use crate::player::RootMove;
    use std::time::Duration;

    fn vertex(text: &str) -> Move {
        Move::Play(Vertex::parse_gtp(text).expect("vertex"))
    }

    fn report() -> SearchReport {
        let mut ownership = vec![0.5f32; 9];
        ownership[8] = -1.0; // C3
        SearchReport {
            moves: vec![
                RootMove {
                    mv: vertex("B2"),
                    visits: 300,
                    win_rate: 0.6,
                    prior: 0.2,
                    black_margin: Some(-2.5),
                    pv: vec![vertex("B2"), vertex("C2"), Move::Pass],
                },
                RootMove {
                    mv: Move::Pass,
                    visits: 50,
                    win_rate: 0.3,
                    prior: 0.1,
                    black_margin: None,
                    pv: vec![Move::Pass],
                },
                RootMove {
                    mv: vertex("A1"),
                    visits: 0,
                    win_rate: 0.5,
                    prior: 0.05,
                    black_margin: None,
                    pv: vec![vertex("A1")],
                },
            ],
            ownership,
            black_margin: -1.0,
            playouts: 350,
            elapsed: Duration::from_millis(10),
        }
    }

    #[test]
    fn values_are_from_the_side_to_move() {
        let analysis = Analysis::new(&report(), 3, Color::White);
        assert_eq!(analysis.candidates.len(), 2, "unvisited moves are left out");
        assert_eq!(analysis.candidates[0].score_lead, 2.5);
        // Pass has no margin of its own: the position's, seen by White.
        assert_eq!(analysis.candidates[1].score_lead, 1.0);
        assert!(analysis.candidates[0].lcb < 0.6 && analysis.candidates[0].lcb > 0.5);
    }

    #[test]
    fn leela_zero_info_line() {
        let analysis = Analysis::new(&report(), 3, Color::White);
        assert_eq!(
            analysis
                .info_line(Dialect::LeelaZero, None, false)
                .as_deref(),
            Some("info move B2 visits 300 winrate 6000 prior 2000 lcb 5446 order 0 pv B2 C2 pass")
        );
    }

    #[test]
    fn katago_info_line_with_ownership_from_the_top_row() {
        let analysis = Analysis::new(&report(), 3, Color::White);
        let line = analysis
            .info_line(Dialect::KataGo, Some(1), true)
            .expect("a line");
        assert!(line.starts_with(
            "info move B2 visits 300 winrate 0.600000 scoreMean 2.500 scoreLead 2.500 prior 0.200000 lcb 0.544"
        ));
        // C3 (top right, White's) comes third, seen by White as +1.
        assert!(line.ends_with(
            "order 0 pv B2 C2 pass ownership -0.5000 -0.5000 1.0000 -0.5000 -0.5000 -0.5000 -0.5000 -0.5000 -0.5000"
        ));
    }

    #[test]
    fn no_info_line_without_a_played_out_board_move() {
        let mut report = report();
        report.moves.remove(0);
        let analysis = Analysis::new(&report, 3, Color::Black);
        assert_eq!(analysis.info_line(Dialect::KataGo, None, false), None);
    }

    #[test]
    fn gogui_directives() {
        let analysis = Analysis::new(&report(), 3, Color::Black);
        let ownership = analysis.gfx_ownership();
        assert!(ownership.starts_with("INFLUENCE A1 0.50 B1 0.50 C1 0.50 A2 0.50"));
        assert!(ownership.contains("C3 -1.00\nTEXT White leads by 1"));
        let labels = analysis.gfx_candidates();
        assert!(labels.starts_with("LABEL B2 60:86\nTEXT labels: black win rate"));
        assert_eq!(
            analysis.gfx_pv().lines().next(),
            Some("VAR b B2 w C2 b pass")
        );
        assert!(analysis
            .gfx_score()
            .starts_with("TEXT White leads by 1; win rate 60%"));
    }
}
