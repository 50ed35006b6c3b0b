//! The moves a client keeps the search from, or confines it to: the
//! `avoid` and `allow` keys of `lz-analyze` / `kata-analyze` and their
//! genmove forms, as Lizzie, q5Go and KaTrain-style tools send them.
//!
//! A rule names a colour, some moves (pass among them if the client likes)
//! and a depth: it binds that colour's moves within that many plies of the
//! root, depth 1 being the root's own moves. `avoid` takes its moves out of
//! the tree; `allow` takes out every other move. The tree applies the
//! filter where it creates a node's children (`Search::iterate`), so the
//! search neither plays out nor reports a filtered move; the playouts
//! beyond the tree are not filtered. A node the filter would leave with no
//! move at all keeps pass, the one move always legal.

use crate::player::board::{PlayoutBoard, Point};

use super::tree::{Candidate, PASS};
use crate::game::{Color, Move, Vertex};

/// Whether a rule keeps the search from its moves or to them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilterKind {
    Avoid,
    Allow,
}

/// One `avoid` or `allow` key: `avoid b D4,Q16 3`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRule {
    pub kind: FilterKind,
    pub color: Color,
    pub moves: Vec<Move>,
    /// The rule binds moves at fewer than this many plies from the root:
    /// 1 is the root's moves only.
    pub until_depth: u32,
}

/// Every rule of one command; empty, it lets every move through.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveFilter {
    rules: Vec<MoveRule>,
}

impl MoveFilter {
    /// Adds a rule. As KataGo reads them, `avoid` may be given any number
    /// of times, `allow` once for each colour and not beside an `avoid` of
    /// that colour (what one allows, the other would contradict).
    pub fn add(&mut self, rule: MoveRule) -> Result<(), &'static str> {
        let mut same_color = self.rules.iter().filter(|r| r.color == rule.color);
        let clash = match rule.kind {
            FilterKind::Allow => same_color.next().is_some(),
            FilterKind::Avoid => same_color.any(|r| r.kind == FilterKind::Allow),
        };
        if clash {
            return Err("allow is given once for a colour, and not with avoid");
        }
        self.rules.push(rule);
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The rules in the order given, for writing them back.
    pub fn rules(&self) -> &[MoveRule] {
        &self.rules
    }

    /// The vertices the rules name, for checking them against the board.
    pub fn vertices(&self) -> impl Iterator<Item = Vertex> + '_ {
        self.rules
            .iter()
            .flat_map(|r| r.moves.iter().filter_map(|m| m.vertex()))
    }

    /// Whether `color` may play `mv` at `depth` plies from the root (0 is
    /// the root).
    pub fn allows(&self, color: Color, mv: Move, depth: usize) -> bool {
        self.rules
            .iter()
            .filter(|r| r.color == color && depth < r.until_depth as usize)
            .all(|r| match r.kind {
                FilterKind::Avoid => !r.moves.contains(&mv),
                FilterKind::Allow => r.moves.contains(&mv),
            })
    }

    /// Whether an `allow` rule confines `color`'s moves at `depth`, so
    /// that only the moves it names may be played there.
    pub(super) fn confines(&self, color: Color, depth: usize) -> bool {
        self.rules.iter().any(|r| {
            r.kind == FilterKind::Allow && r.color == color && depth < r.until_depth as usize
        })
    }

    /// Keeps the candidates `color` may play at `depth`; pass alone when
    /// none is left, so that every node has a move. No rules: every one.
    pub(super) fn retain(
        &self,
        candidates: &mut Vec<Candidate>,
        board: &PlayoutBoard,
        color: Color,
        depth: usize,
    ) {
        if self.rules.is_empty() {
            return;
        }
        let as_move = |point: Point| {
            if point == PASS {
                Move::Pass
            } else {
                Move::Play(board.vertex(point))
            }
        };
        let pass = candidates.iter().find(|c| c.mv == PASS).copied();
        candidates.retain(|c| self.allows(color, as_move(c.mv), depth));
        if candidates.is_empty() {
            candidates.extend(pass);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(kind: FilterKind, color: Color, moves: &[&str], until_depth: u32) -> MoveRule {
        let moves = moves
            .iter()
            .map(|m| match *m {
                "pass" => Move::Pass,
                v => Move::Play(Vertex::parse_gtp(v).expect("vertex")),
            })
            .collect();
        MoveRule {
            kind,
            color,
            moves,
            until_depth,
        }
    }

    fn mv(text: &str) -> Move {
        Move::Play(Vertex::parse_gtp(text).expect("vertex"))
    }

    #[test]
    fn avoid_and_allow_bind_their_colour_within_their_depth() {
        use Color::{Black as B, White as W};
        let mut filter = MoveFilter::default();
        filter
            .add(rule(FilterKind::Avoid, B, &["D4", "pass"], 1))
            .expect("avoid");
        filter
            .add(rule(FilterKind::Avoid, B, &["E5"], 3))
            .expect("a second avoid");
        filter
            .add(rule(FilterKind::Allow, W, &["C3"], 2))
            .expect("allow");
        assert!(!filter.allows(B, mv("D4"), 0));
        assert!(!filter.allows(B, Move::Pass, 0));
        assert!(filter.allows(B, mv("D4"), 2));
        assert!(!filter.allows(B, mv("E5"), 2));
        assert!(filter.allows(B, mv("E5"), 3));
        assert!(filter.allows(W, mv("C3"), 1));
        assert!(!filter.allows(W, mv("D4"), 1));
        assert!(filter.allows(W, mv("D4"), 2));
        assert!(filter.add(rule(FilterKind::Allow, W, &["D4"], 1)).is_err());
        assert!(filter.add(rule(FilterKind::Avoid, W, &["D4"], 1)).is_err());
        assert!(filter.add(rule(FilterKind::Allow, B, &["D4"], 1)).is_err());
    }
}
