//! The search's tunable parameters, and the one table that names them.
//!
//! `SearchParams` is the plain struct the search reads on every playout;
//! `PARAMS` lists each of its fields once, with its name, kind, range,
//! default and a line of doc. Setting by name (`--param`, and the
//! `kata-set-param` of KataGo-minded clients), reading by name, the listing
//! of `hane params` and the log line of the effective values all go
//! through the table, so a field cannot be tunable in one and missing in
//! another: a test checks that every field is in the table.

use std::fmt;

use crate::game::BoardSize;
use crate::player::knowledge::LARGE_FROM;
use crate::player::playout::Policy;

/// Tuning of the search. The defaults are what the matches were played with
/// (docs/strength.md).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// RAVE weight: the number of real visits at which RAVE and real
    /// statistics weigh the same (Michi's RAVE_EQUIV).
    pub rave_equiv: f32,
    /// A leaf is expanded on its this-many-th visit.
    pub expand_visits: u32,
    /// Virtual even playouts every new child starts with.
    pub prior_even: u32,
    /// Extra virtual wins for moves near the last move, on the small
    /// boards (shorter side under `LARGE_FROM`). None by default: there
    /// the learned prior's wins form says it (docs/strength.md).
    pub prior_near_last_small: u32,
    /// The same on the large boards.
    pub prior_near_last_large: u32,
    /// Virtual losses for moves on the first two lines far from any stone.
    pub prior_empty_edge: u32,
    /// Virtual playouts of the learned prior (`knowledge::Gammas`; 0: off),
    /// won at a rate that says how the move's strength compares with the
    /// others'. The default, 20, is the one measured.
    pub prior_learned: u32,
    /// How far from 50% the learned prior's rate goes: 0.5 takes a move
    /// n times stronger than the average of n candidates to 100%.
    pub prior_learned_slope: f32,
    /// Virtual wins of the learned prior in the manner of progressive
    /// bias with large patterns (Pachi's pattern prior): a move the model
    /// gives probability q gets sqrt(q) times this many playouts, all won
    /// (0: off), on the small boards.
    pub prior_learned_wins_small: u32,
    /// The same on the large boards: off, where the rate form alone was
    /// measured (the wins form was not shown to help there).
    pub prior_learned_wins_large: u32,
    /// Virtual wins of the policy network (`network::Network`): a
    /// move it gives probability p gets sqrt(p) times this many playouts,
    /// all won (Pachi's form for its network; 0: off).
    pub prior_network: u32,
    /// A node's children get the network's prior once the node has this
    /// many playouts; the root's at once.
    pub network_visits: u32,
    /// The same where the tree backs up the value head's judgement
    /// (`value_share` above 0, on the board and komi the value was taught:
    /// 19x19), where judged nodes pay for their cost sooner.
    pub network_visits_valued: u32,
    /// The share, in percent, of each playout's result backed up the tree
    /// that is the value head's judgement instead: of the deepest position
    /// on the playout's way that the network judged (AlphaGo's mixed leaf
    /// evaluation, 1 - lambda); the rest is the playout's own result. 0:
    /// the playouts alone.
    pub value_share: u32,
    /// The share, in percent, of the reported score lead that comes from
    /// the network's ownership head (its expected area over the tree,
    /// `network_score.rs`), the rest from the median of the playouts'
    /// margins; where the network has no ownership head, or judged no
    /// node, the playouts give it all. The report only: no move changes.
    pub score_network: u32,
    /// Virtual wins for moves that make a good 3x3 shape.
    pub prior_pattern: u32,
    /// Virtual wins for capturing or saving a string in atari.
    pub prior_capture: u32,
    /// Virtual losses for self-ataris.
    pub prior_self_atari: u32,
    /// Virtual losses for multi-stone suicides (where the rules allow them).
    pub prior_suicide: u32,
    /// Lost visits a thread adds to each node it descends through, taken
    /// back by the iteration's result, so that threads sharing the tree
    /// spread out (0: none). One thread never sees its own.
    pub virtual_loss: u32,
    /// Playouts with the capture and shape rules (true) or light ones.
    pub heavy_playouts: bool,
    /// Policy playouts try the last good reply (LGRF-2) to the last moves.
    pub last_good_reply: bool,
    /// Handicap stones count for Black's searches, fading over the game
    /// (linear dynamic komi, `search::handicap_extra`). Off until 19x19
    /// handicap games decide it.
    pub handicap_komi: bool,
    /// The policy playout's probabilities; its two-liberty rule's is the
    /// small boards' (`policy_for` gives a board's own).
    pub policy: Policy,
    /// The two-liberty rule's probability on the large boards, which keep
    /// the rule they were measured with: a lower one lost there.
    pub policy_two_liberties_large: f32,
    /// Bound on the number of tree nodes (the one tree of all threads).
    pub max_nodes: usize,
    /// Tests only: the search panics, to check what the client is told.
    #[cfg(test)]
    pub panic_in_search: bool,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            rave_equiv: 3500.0,
            expand_visits: 8,
            prior_even: 10,
            prior_near_last_small: 0,
            prior_near_last_large: 10,
            prior_empty_edge: 10,
            prior_learned: 20,
            prior_learned_slope: 0.5,
            prior_learned_wins_small: 200,
            prior_learned_wins_large: 0,
            prior_network: 500,
            network_visits: 50,
            network_visits_valued: 25,
            value_share: 50,
            score_network: 100,
            prior_pattern: 10,
            prior_capture: 20,
            prior_self_atari: 10,
            prior_suicide: 40,
            virtual_loss: 1,
            heavy_playouts: true,
            last_good_reply: true,
            handicap_komi: false,
            policy: Policy::default(),
            policy_two_liberties_large: 0.9,
            // 256 MB when full: what two threads' trees of 4,000,000 took
            // before they shared one, which fills twice as fast.
            max_nodes: 8_000_000,
            #[cfg(test)]
            panic_in_search: false,
        }
    }
}

/// The kind of a parameter's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A whole number within the parameter's range.
    Integer,
    /// A real number within the parameter's range.
    Real,
    /// `true` or `false`.
    Flag,
}

impl fmt::Display for ParamKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParamKind::Integer => "integer",
            ParamKind::Real => "real",
            ParamKind::Flag => "flag",
        })
    }
}

/// A parameter's value, as the table reads and writes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamValue {
    Integer(u64),
    Real(f32),
    Flag(bool),
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Integer(n) => write!(f, "{n}"),
            ParamValue::Real(x) => write!(f, "{x}"),
            ParamValue::Flag(b) => write!(f, "{b}"),
        }
    }
}

/// One row of the table: a field of `SearchParams` by name.
pub struct Param {
    pub name: &'static str,
    pub kind: ParamKind,
    /// The smallest and largest values accepted (flags: 0 and 1).
    pub range: (f64, f64),
    pub doc: &'static str,
    get: fn(&SearchParams) -> ParamValue,
    put: fn(&mut SearchParams, ParamValue),
}

impl Param {
    /// This parameter's value in `params`.
    pub fn get(&self, params: &SearchParams) -> ParamValue {
        (self.get)(params)
    }

    /// The value the engine starts with.
    pub fn default_value(&self) -> ParamValue {
        self.get(&SearchParams::default())
    }

    /// `text` read as this parameter's value, or why not.
    pub fn parse(&self, text: &str) -> Result<ParamValue, ParamError> {
        let bad = || ParamError::BadValue {
            name: self.name,
            value: text.to_string(),
            expected: self.expected(),
        };
        let (low, high) = self.range;
        let value = match self.kind {
            ParamKind::Integer => {
                let n: u64 = text.trim().parse().map_err(|_| bad())?;
                if !(low..=high).contains(&(n as f64)) {
                    return Err(bad());
                }
                ParamValue::Integer(n)
            }
            ParamKind::Real => {
                let x: f32 = text.trim().parse().map_err(|_| bad())?;
                if !x.is_finite() || !(low..=high).contains(&(x as f64)) {
                    return Err(bad());
                }
                ParamValue::Real(x)
            }
            ParamKind::Flag => match text.trim() {
                "true" | "1" => ParamValue::Flag(true),
                "false" | "0" => ParamValue::Flag(false),
                _ => return Err(bad()),
            },
        };
        Ok(value)
    }

    /// What a value must be, in words.
    pub fn expected(&self) -> String {
        let (low, high) = self.range;
        match self.kind {
            ParamKind::Integer => format!("a whole number from {low} to {high}"),
            ParamKind::Real => format!("a number from {low} to {high}"),
            ParamKind::Flag => "true or false".to_string(),
        }
    }
}

/// Why a parameter could not be set.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamError {
    Unknown(String),
    BadValue {
        name: &'static str,
        value: String,
        expected: String,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::Unknown(name) => {
                let names: Vec<&str> = PARAMS.iter().map(|p| p.name).collect();
                write!(
                    f,
                    "unknown parameter '{name}'; the parameters are: {}",
                    names.join(", ")
                )
            }
            ParamError::BadValue {
                name,
                value,
                expected,
            } => write!(
                f,
                "bad value '{value}' for parameter {name}: expected {expected}"
            ),
        }
    }
}

impl std::error::Error for ParamError {}

fn integer(value: ParamValue) -> u64 {
    match value {
        ParamValue::Integer(n) => n,
        ParamValue::Real(x) => x as u64,
        ParamValue::Flag(b) => b as u64,
    }
}

fn real(value: ParamValue) -> f32 {
    match value {
        ParamValue::Integer(n) => n as f32,
        ParamValue::Real(x) => x,
        ParamValue::Flag(b) => b as u32 as f32,
    }
}

fn flag(value: ParamValue) -> bool {
    match value {
        ParamValue::Flag(b) => b,
        other => real(other) != 0.0,
    }
}

/// A whole number no larger than `u32::MAX` fits every `u32` field: the
/// table's ranges keep the values far below it.
fn small(value: ParamValue) -> u32 {
    integer(value).min(u32::MAX as u64) as u32
}

/// Virtual playouts a heuristic may add: far above any value tried, far
/// below what would overflow a node's counts.
const MAX_PRIOR: f64 = 10_000.0;
const PROBABILITY: (f64, f64) = (0.0, 1.0);
const FLAG: (f64, f64) = (0.0, 1.0);

/// Every tunable parameter, in the order `hane params` lists them.
pub const PARAMS: &[Param] = &[
    Param {
        name: "rave_equiv",
        kind: ParamKind::Real,
        range: (1.0, 1e7),
        doc: "visits at which RAVE and real statistics weigh the same",
        get: |p| ParamValue::Real(p.rave_equiv),
        put: |p, v| p.rave_equiv = real(v),
    },
    Param {
        name: "expand_visits",
        kind: ParamKind::Integer,
        range: (1.0, 10_000.0),
        doc: "a leaf is expanded on this visit",
        get: |p| ParamValue::Integer(p.expand_visits as u64),
        put: |p, v| p.expand_visits = small(v),
    },
    Param {
        name: "prior_even",
        kind: ParamKind::Integer,
        range: (0.0, MAX_PRIOR),
        doc: "virtual even playouts of every new move",
        get: |p| ParamValue::Integer(p.prior_even as u64),
        put: |p, v| p.prior_even = small(v),
    },
    Param {
        name: "prior_near_last_small",
        kind: ParamKind::Integer,
        range: (0.0, MAX_PRIOR),
        doc: "virtual wins for moves within two points of the last move (boards under 13x13)",
        get: |p| ParamValue::Integer(p.prior_near_last_small as u64),
        put: |p, v| p.prior_near_last_small = small(v),
    },
    Param {
        name: "prior_near_last_large",
        kind: ParamKind::Integer,
        range: (0.0, MAX_PRIOR),
        doc: "prior_near_last_small on boards of 13x13 and more",
        get: |p| ParamValue::Integer(p.prior_near_last_large as u64),
        put: |p, v| p.prior_near_last_large = small(v),
    },
    Param {
        name: "prior_empty_edge",
        kind: ParamKind::Integer,
        range: (0.0, MAX_PRIOR),
        doc: "virtual losses for first- and second-line moves far from any stone",
        get: |p| ParamValue::Integer(p.prior_empty_edge as u64),
        put: |p, v| p.prior_empty_edge = small(v),
    },
    Param {
        name: "prior_learned",
        kind: ParamKind::Integer,
        range: (0.0, MAX_PRIOR),
        doc: "virtual playouts of the learned move model (0: off)",
        get: |p| ParamValue::Integer(p.prior_learned as u64),
        put: |p, v| p.prior_learned = small(v),
    },
    Param {
        name: "prior_learned_slope",
        kind: ParamKind::Real,
        range: (0.0, 10.0),
        doc: "how far from 50% the learned prior's win rate goes",
        get: |p| ParamValue::Real(p.prior_learned_slope),
        put: |p, v| p.prior_learned_slope = real(v),
    },
    Param {
        name: "prior_learned_wins_small",
        kind: ParamKind::Integer,
        range: (0.0, MAX_PRIOR),
        doc: "virtual wins sqrt(q) x N of a move the learned model gives probability q (boards under 13x13; 0: off)",
        get: |p| ParamValue::Integer(p.prior_learned_wins_small as u64),
        put: |p, v| p.prior_learned_wins_small = small(v),
    },
    Param {
        name: "prior_learned_wins_large",
        kind: ParamKind::Integer,
        range: (0.0, MAX_PRIOR),
        doc: "prior_learned_wins_small on boards of 13x13 and more",
        get: |p| ParamValue::Integer(p.prior_learned_wins_large as u64),
        put: |p, v| p.prior_learned_wins_large = small(v),
    },
    Param {
        name: "prior_pattern",
        kind: ParamKind::Integer,
        range: (0.0, MAX_PRIOR),
        doc: "virtual wins for good 3x3 shapes",
        get: |p| ParamValue::Integer(p.prior_pattern as u64),
        put: |p, v| p.prior_pattern = small(v),
    },
    Param {
        name: "prior_capture",
        kind: ParamKind::Integer,
        range: (0.0, MAX_PRIOR),
        doc: "virtual wins for capturing or saving a string in atari",
        get: |p| ParamValue::Integer(p.prior_capture as u64),
        put: |p, v| p.prior_capture = small(v),
    },
    Param {
        name: "prior_self_atari",
        kind: ParamKind::Integer,
        range: (0.0, MAX_PRIOR),
        doc: "virtual losses for self-ataris and futile ladder escapes",
        get: |p| ParamValue::Integer(p.prior_self_atari as u64),
        put: |p, v| p.prior_self_atari = small(v),
    },
    Param {
        name: "prior_suicide",
        kind: ParamKind::Integer,
        range: (0.0, MAX_PRIOR),
        doc: "virtual losses for multi-stone suicides",
        get: |p| ParamValue::Integer(p.prior_suicide as u64),
        put: |p, v| p.prior_suicide = small(v),
    },
    Param {
        name: "prior_network",
        kind: ParamKind::Integer,
        range: (0.0, 10_000.0),
        doc: "virtual wins of the policy network: sqrt(p) times this (0: off)",
        get: |p| ParamValue::Integer(p.prior_network as u64),
        put: |p, v| p.prior_network = small(v),
    },
    Param {
        name: "network_visits",
        kind: ParamKind::Integer,
        range: (0.0, 1e6),
        doc: "a node's children get the network's prior at this many playouts (the root at once)",
        get: |p| ParamValue::Integer(p.network_visits as u64),
        put: |p, v| p.network_visits = small(v),
    },
    Param {
        name: "network_visits_valued",
        kind: ParamKind::Integer,
        range: (0.0, 1e6),
        doc: "network_visits where the tree backs up the value head's judgement (value_share above 0, 19x19)",
        get: |p| ParamValue::Integer(p.network_visits_valued as u64),
        put: |p, v| p.network_visits_valued = small(v),
    },
    Param {
        name: "value_share",
        kind: ParamKind::Integer,
        range: (0.0, 100.0),
        doc: "percent of each playout's backed-up result that is the value head's judgement of the deepest judged position on its way (0: playouts alone)",
        get: |p| ParamValue::Integer(p.value_share as u64),
        put: |p, v| p.value_share = small(v),
    },
    Param {
        name: "score_network",
        kind: ParamKind::Integer,
        range: (0.0, 100.0),
        doc: "percent of the score lead from the network's ownership head, the rest from the playouts' margins",
        get: |p| ParamValue::Integer(p.score_network as u64),
        put: |p, v| p.score_network = small(v),
    },
    Param {
        name: "virtual_loss",
        kind: ParamKind::Integer,
        range: (0.0, 1_000.0),
        doc: "lost visits a thread adds on its way down the shared tree",
        get: |p| ParamValue::Integer(p.virtual_loss as u64),
        put: |p, v| p.virtual_loss = small(v),
    },
    Param {
        name: "heavy_playouts",
        kind: ParamKind::Flag,
        range: FLAG,
        doc: "policy playouts (true) or light random ones",
        get: |p| ParamValue::Flag(p.heavy_playouts),
        put: |p, v| p.heavy_playouts = flag(v),
    },
    Param {
        name: "last_good_reply",
        kind: ParamKind::Flag,
        range: FLAG,
        doc: "policy playouts try the last good reply (LGRF-2)",
        get: |p| ParamValue::Flag(p.last_good_reply),
        put: |p, v| p.last_good_reply = flag(v),
    },
    Param {
        name: "handicap_komi",
        kind: ParamKind::Flag,
        range: FLAG,
        doc: "Black's searches count handicap stones as komi, fading over the game",
        get: |p| ParamValue::Flag(p.handicap_komi),
        put: |p, v| p.handicap_komi = flag(v),
    },
    Param {
        name: "max_nodes",
        kind: ParamKind::Integer,
        range: (1_000.0, 1e9),
        doc: "bound on the search tree's nodes (--max-nodes, --max-tree-mb)",
        get: |p| ParamValue::Integer(p.max_nodes as u64),
        put: |p, v| p.max_nodes = integer(v) as usize,
    },
    Param {
        name: "policy_capture",
        kind: ParamKind::Real,
        range: PROBABILITY,
        doc: "playouts try the atari answers around the last move",
        get: |p| ParamValue::Real(p.policy.capture),
        put: |p, v| p.policy.capture = real(v),
    },
    Param {
        name: "policy_two_liberties_small",
        kind: ParamKind::Real,
        range: PROBABILITY,
        doc: "playouts try the two-liberty answers around the last move (boards under 13x13)",
        get: |p| ParamValue::Real(p.policy.two_liberties),
        put: |p, v| p.policy.two_liberties = real(v),
    },
    Param {
        name: "policy_two_liberties_large",
        kind: ParamKind::Real,
        range: PROBABILITY,
        doc: "policy_two_liberties_small on boards of 13x13 and more",
        get: |p| ParamValue::Real(p.policy_two_liberties_large),
        put: |p, v| p.policy_two_liberties_large = real(v),
    },
    Param {
        name: "policy_nakade",
        kind: ParamKind::Real,
        range: PROBABILITY,
        doc: "playouts play the vital point of an eye space a capture opened",
        get: |p| ParamValue::Real(p.policy.nakade),
        put: |p, v| p.policy.nakade = real(v),
    },
    Param {
        name: "policy_race",
        kind: ParamKind::Real,
        range: PROBABILITY,
        doc: "playouts answer a liberty taken in a capturing race",
        get: |p| ParamValue::Real(p.policy.race),
        put: |p, v| p.policy.race = real(v),
    },
    Param {
        name: "policy_pattern",
        kind: ParamKind::Real,
        range: PROBABILITY,
        doc: "playouts try the 3x3 shape moves around the last move",
        get: |p| ParamValue::Real(p.policy.pattern),
        put: |p, v| p.policy.pattern = real(v),
    },
    Param {
        name: "policy_reject_self_atari",
        kind: ParamKind::Real,
        range: PROBABILITY,
        doc: "playouts refuse a self-atari chosen by shape or at random",
        get: |p| ParamValue::Real(p.policy.reject_self_atari),
        put: |p, v| p.policy.reject_self_atari = real(v),
    },
    Param {
        name: "policy_throw_ins",
        kind: ParamKind::Flag,
        range: FLAG,
        doc: "lone-stone throw-ins are not refused as self-ataris",
        get: |p| ParamValue::Flag(p.policy.throw_ins),
        put: |p, v| p.policy.throw_ins = flag(v),
    },
];

/// Whether a board takes the large boards' values (`*_large`): a shorter
/// side of `LARGE_FROM` or more, where the learned prior's classes part.
fn is_large(size: BoardSize) -> bool {
    size.shorter_side() >= LARGE_FROM
}

/// The table's row for `name`.
pub fn param(name: &str) -> Option<&'static Param> {
    PARAMS.iter().find(|p| p.name == name)
}

impl SearchParams {
    /// Sets one parameter by name from its text (`--param NAME=VALUE`,
    /// `kata-set-param`); on error nothing changes.
    pub fn set(&mut self, name: &str, text: &str) -> Result<(), ParamError> {
        let row = param(name).ok_or_else(|| ParamError::Unknown(name.to_string()))?;
        let value = row.parse(text)?;
        (row.put)(self, value);
        Ok(())
    }

    /// One parameter's value by name.
    pub fn get(&self, name: &str) -> Option<ParamValue> {
        param(name).map(|row| row.get(self))
    }

    /// The playout policy on a board of `size`: the large boards' own
    /// two-liberty probability from `LARGE_FROM` on.
    pub fn policy_for(&self, size: BoardSize) -> Policy {
        let mut policy = self.policy;
        if is_large(size) {
            policy.two_liberties = self.policy_two_liberties_large;
        }
        policy
    }

    /// The bonus near the last move on a board of `size`.
    pub fn near_last_for(&self, size: BoardSize) -> u32 {
        if is_large(size) {
            self.prior_near_last_large
        } else {
            self.prior_near_last_small
        }
    }

    /// The learned prior's virtual wins on a board of `size`.
    pub fn learned_wins_for(&self, size: BoardSize) -> u32 {
        if is_large(size) {
            self.prior_learned_wins_large
        } else {
            self.prior_learned_wins_small
        }
    }

    /// Every parameter as `name=value`, in the table's order: the log line
    /// that lets a tuning run be reproduced.
    pub fn summary(&self) -> String {
        PARAMS
            .iter()
            .map(|row| format!("{}={}", row.name, row.get(self)))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value of `row` other than its default, within its range.
    fn other_value(row: &Param) -> String {
        let (low, high) = row.range;
        match row.default_value() {
            ParamValue::Flag(b) => (!b).to_string(),
            ParamValue::Integer(n) if (n as f64) < high => (n + 1).to_string(),
            ParamValue::Integer(_) => low.to_string(),
            ParamValue::Real(x) if (x as f64) < high => {
                (((x as f64 + high) / 2.0) as f32).to_string()
            }
            ParamValue::Real(_) => low.to_string(),
        }
    }

    /// The fields of the struct as its Debug form names them, the nested
    /// policy's included and the test-only field left out.
    fn field_names(params: &SearchParams) -> Vec<String> {
        let text = format!("{params:?}");
        let field = regex::Regex::new(r"(\w+): ").expect("regex");
        field
            .captures_iter(&text)
            .map(|c| c[1].to_string())
            .filter(|name| name != "policy" && name != "panic_in_search")
            .collect()
    }

    #[test]
    fn every_field_is_in_the_table_and_each_row_sets_its_own_field() {
        let defaults = SearchParams::default();
        let fields = field_names(&defaults);
        assert_eq!(PARAMS.len(), fields.len(), "{fields:?}");
        let mut changed_fields = Vec::new();
        for row in PARAMS {
            let mut params = SearchParams::default();
            let text = other_value(row);
            params.set(row.name, &text).expect(row.name);
            assert_ne!(params, defaults, "{} = {text} changed nothing", row.name);
            assert_eq!(row.get(&params), row.parse(&text).expect("parses"));
            // Exactly one field differs from the defaults: this row's own.
            let before = format!("{defaults:?}");
            let after = format!("{params:?}");
            let differing: Vec<(String, String)> = fields
                .iter()
                .zip(field_values(&before).into_iter().zip(field_values(&after)))
                .filter(|(_, (b, a))| b != a)
                .map(|(name, (_, a))| (name.clone(), a))
                .collect();
            assert_eq!(differing.len(), 1, "{}: {differing:?}", row.name);
            changed_fields.push(differing[0].0.clone());
        }
        changed_fields.sort();
        changed_fields.dedup();
        assert_eq!(changed_fields.len(), PARAMS.len(), "two rows set one field");
    }

    /// The values of the fields in a Debug form, in order.
    fn field_values(text: &str) -> Vec<String> {
        let value = regex::Regex::new(r"(\w+): ([^,{} ]+)").expect("regex");
        value
            .captures_iter(text)
            .filter(|c| &c[1] != "panic_in_search" && &c[1] != "policy")
            .map(|c| c[2].to_string())
            .collect()
    }

    #[test]
    fn bad_names_and_values_are_refused_and_change_nothing() {
        let mut params = SearchParams::default();
        let unknown = params.set("prior_evn", "3").expect_err("unknown");
        let text = unknown.to_string();
        assert!(text.starts_with("unknown parameter 'prior_evn'"), "{text}");
        for row in PARAMS {
            assert!(text.contains(row.name), "{text} lacks {}", row.name);
        }
        for (name, value) in [
            ("expand_visits", "0"),
            ("expand_visits", "-1"),
            ("prior_even", "ten"),
            ("policy_capture", "1.5"),
            ("policy_capture", "nan"),
            ("rave_equiv", "inf"),
            ("heavy_playouts", "yes"),
            ("max_nodes", "10"),
        ] {
            let error = params.set(name, value).expect_err(value);
            assert!(
                error.to_string().starts_with(&format!(
                    "bad value '{value}' for parameter {name}: expected"
                )),
                "{error}"
            );
        }
        assert_eq!(params, SearchParams::default());
    }

    #[test]
    fn the_summary_names_every_parameter_with_its_value() {
        let mut params = SearchParams::default();
        params.set("prior_suicide", "7").expect("settable");
        let summary = params.summary();
        assert!(summary.contains("prior_suicide=7"), "{summary}");
        assert!(summary.contains("rave_equiv=3500"), "{summary}");
        assert_eq!(summary.split(' ').count(), PARAMS.len());
    }

    #[test]
    fn the_large_boards_keep_their_own_two_liberty_rule() {
        let mut params = SearchParams::default();
        params
            .set("policy_two_liberties_small", "0.3")
            .expect("settable");
        params
            .set("policy_two_liberties_large", "0.7")
            .expect("settable");
        for ((width, height), expected) in [
            ((9, 9), 0.3),
            ((19, 9), 0.3),
            ((13, 13), 0.7),
            ((19, 19), 0.7),
        ] {
            let size = BoardSize::new(width, height).expect("a board size");
            assert_eq!(params.policy_for(size).two_liberties, expected, "{size:?}");
            // The rule's probability is the only difference.
            let mut policy = params.policy_for(size);
            policy.two_liberties = params.policy.two_liberties;
            assert_eq!(policy, params.policy);
        }
    }
}
