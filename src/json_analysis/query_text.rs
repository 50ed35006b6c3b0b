//! A request line's fields as serde reads them, each with the type KataGo
//! reads it as (`QueryText`, `ActionText`), a field of another type kept as
//! given (`Given`) so that `query.rs` can name it in KataGo's error.

use std::collections::BTreeMap;

use serde::de::{DeserializeOwned, Deserializer};
use serde::Deserialize;
use serde_json::{Map, Value};

/// A field of a request as given: absent, of the type it must have, or of
/// another, kept for the error that names the field in KataGo's words
/// (serde's own message would name neither). Reading one never fails.
#[derive(Debug, Default)]
pub(super) enum Given<T> {
    #[default]
    Absent,
    Typed(T),
    Mistyped(Value),
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Given<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Given<T>, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Ok(match T::deserialize(&value) {
            Ok(typed) => Given::Typed(typed),
            Err(_) => Given::Mistyped(value),
        })
    }
}

impl<T> Given<T> {
    pub(super) fn is_given(&self) -> bool {
        !matches!(self, Given::Absent)
    }

    /// The value when given with its type; `Err` with what was given
    /// otherwise.
    pub(super) fn typed(&self) -> Result<Option<&T>, &Value> {
        match self {
            Given::Absent => Ok(None),
            Given::Typed(value) => Ok(Some(value)),
            Given::Mistyped(value) => Err(value),
        }
    }
}

/// `rules`: a name (`"chinese"`, a compact form) or an object of KataGo's
/// detailed rules.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum RulesGiven {
    Text(String),
    Object(Map<String, Value>),
}

/// A query's fields, each with the type KataGo reads it as; the fields
/// whose items KataGo checks one by one (moves, turns, filters) are arrays
/// of values, checked here with KataGo's message for the item. What no
/// field names is in `other`, for the warnings.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(super) struct QueryText {
    pub(super) board_x_size: Given<u64>,
    pub(super) board_y_size: Given<u64>,
    pub(super) moves: Given<Vec<Value>>,
    pub(super) initial_stones: Given<Vec<Value>>,
    pub(super) initial_player: Given<String>,
    pub(super) rules: Given<RulesGiven>,
    pub(super) komi: Given<f64>,
    pub(super) white_handicap_bonus: Given<String>,
    pub(super) analyze_turns: Given<Vec<Value>>,
    pub(super) priority: Given<i64>,
    pub(super) priorities: Given<Vec<Value>>,
    pub(super) max_visits: Given<u64>,
    #[serde(rename = "analysisPVLen")]
    pub(super) analysis_pv_len: Given<u64>,
    pub(super) report_during_search_every: Given<f64>,
    pub(super) include_ownership: Given<bool>,
    pub(super) include_ownership_stdev: Given<bool>,
    pub(super) include_moves_ownership: Given<bool>,
    pub(super) include_policy: Given<bool>,
    #[serde(rename = "includePVVisits")]
    pub(super) include_pv_visits: Given<bool>,
    pub(super) avoid_moves: Given<Vec<Value>>,
    pub(super) allow_moves: Given<Vec<Value>>,
    pub(super) override_settings: Given<Map<String, Value>>,
    /// Read before the rest (`read`); named so that it is no other field.
    pub(super) id: Given<String>,
    #[serde(flatten)]
    pub(super) other: BTreeMap<String, Value>,
}

/// An action's fields.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(super) struct ActionText {
    pub(super) action: Given<String>,
    pub(super) terminate_id: Given<String>,
    pub(super) turn_numbers: Given<Vec<Value>>,
}
