//! The rules as KataGo's rules object names them, for the clients that speak
//! of rules that way (`kata-get-rules` / `kata-set-rules` over GTP, the
//! `rules` field of `hane analysis`): ko, scoring, tax, suicide, button,
//! white's handicap bonus, and whether a pass may leave dead stones on the
//! board.
//!
//! hane plays one ruleset, Tromp-Taylor, under either superko rule and with
//! or without suicide (`game::Rules`):
//! `{"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":true,
//! "tax":"NONE","whiteHandicapBonus":"0","friendlyPassOk":false}`, or
//! `"ko":"SITUATIONAL"`, or `"suicide":false`. KataGo's shorthands
//! (`tromp-taylor`, `chinese`, `japanese`, `new-zealand`, ...) name
//! objects (`rules_text.rs` reads them); [`RulesObject::played`] says
//! whether hane plays the one asked for, and if not, how it differs;
//! [`RulesObject::nearest`] is what hane plays instead.

use serde::Serialize;

use crate::game::{Rules, Superko};

/// KataGo's `ko` field: how cycles are prevented.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Ko {
    Simple,
    Positional,
    Situational,
    /// Spight's rules: a cycle is judged by who passed in it.
    Spight,
}

/// KataGo's `scoring` field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Scoring {
    Area,
    Territory,
}

/// KataGo's `tax` field: which points a group's eyes cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Tax {
    None,
    Seki,
    All,
}

/// KataGo's `whiteHandicapBonus` field: the points White gets for Black's N
/// handicap stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum HandicapBonus {
    #[serde(rename = "0")]
    Zero,
    #[serde(rename = "N-1")]
    NMinusOne,
    #[serde(rename = "N")]
    N,
}

/// A ruleset in KataGo's terms, in the order of KataGo's own object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RulesObject {
    pub has_button: bool,
    pub ko: Ko,
    pub scoring: Scoring,
    pub suicide: bool,
    pub tax: Tax,
    pub white_handicap_bonus: HandicapBonus,
    pub friendly_pass_ok: bool,
}

impl Default for RulesObject {
    fn default() -> RulesObject {
        RulesObject::of(Rules::default())
    }
}

impl RulesObject {
    /// The rules hane plays (Tromp-Taylor under its superko rule, with or
    /// without suicide) as KataGo's object; the komi is not in it.
    pub fn of(rules: Rules) -> RulesObject {
        RulesObject {
            has_button: false,
            ko: match rules.superko {
                Superko::Positional => Ko::Positional,
                Superko::Situational => Ko::Situational,
            },
            scoring: Scoring::Area,
            suicide: rules.allow_suicide,
            tax: Tax::None,
            white_handicap_bonus: HandicapBonus::Zero,
            friendly_pass_ok: false,
        }
    }

    /// The rules hane plays nearest to these: Tromp-Taylor under the
    /// superko rule nearest the ko rule (positional for simple ko, whose
    /// long cycles hane cannot leave open; situational for Spight's, which
    /// like it looks at who is to move), with or without suicide as asked,
    /// and `komi`.
    pub fn nearest(&self, komi: f64) -> Rules {
        let superko = match self.ko {
            Ko::Situational | Ko::Spight => Superko::Situational,
            Ko::Simple | Ko::Positional => Superko::Positional,
        };
        Rules {
            superko,
            allow_suicide: self.suicide,
            komi,
        }
    }

    /// The rules hane plays for these (superko and suicide; the komi
    /// stays `komi`'s), or, when they are not Tromp-Taylor's, the fields
    /// that differ, as KataGo names them.
    pub fn played(&self, komi: f64) -> Result<Rules, String> {
        let rules = self.nearest(komi);
        let wanted = RulesObject::of(rules);
        let as_map = |rules: &RulesObject| match serde_json::to_value(rules) {
            Ok(serde_json::Value::Object(map)) => map,
            _ => serde_json::Map::new(),
        };
        let (asked, played) = (as_map(self), as_map(&wanted));
        let differences: Vec<String> = asked
            .iter()
            .filter(|&(name, value)| played.get(name) != Some(value))
            .map(|(name, value)| {
                let hane = played.get(name).map(|v| v.to_string()).unwrap_or_default();
                format!("{name} {value} (hane: {hane})")
            })
            .collect();
        if differences.is_empty() {
            Ok(rules)
        } else {
            Err(format!(
                "hane plays only Tromp-Taylor (ko POSITIONAL or SITUATIONAL, suicide or not): {}",
                differences.join(", ")
            ))
        }
    }

    /// The object as one line of JSON, KataGo's `kata-get-rules` answer.
    pub fn to_json(self) -> String {
        serde_json::to_string(&self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tromp_taylor_as_katago_writes_it() {
        assert_eq!(
            RulesObject::default().to_json(),
            r#"{"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":true,"tax":"NONE","whiteHandicapBonus":"0","friendlyPassOk":false}"#
        );
        assert_eq!(
            RulesObject::parse("tromp-taylor"),
            Ok(RulesObject::default())
        );
        assert_eq!(
            RulesObject::parse("Tromp_Taylor"),
            Ok(RulesObject::default())
        );
    }

    #[test]
    fn hane_plays_tromp_taylor_under_either_superko() {
        let situational = RulesObject::parse(r#"{"ko": "SITUATIONAL"}"#).expect("an object");
        let rules = situational.played(7.5).expect("played");
        assert_eq!(rules.superko, Superko::Situational);
        assert!(rules.allow_suicide);
        let whole = RulesObject::of(rules).to_json();
        assert_eq!(RulesObject::parse(&whole), Ok(situational));
        assert_eq!(
            RulesObject::parse("tromp-taylor").and_then(|r| r.played(0.5)),
            Ok(Rules::default().with_komi(0.5))
        );
        let no_suicide = RulesObject::parse(r#"{"suicide": false}"#).expect("an object");
        assert!(!no_suicide.played(7.5).expect("played").allow_suicide);
    }

    #[test]
    fn other_rules_are_refused_with_what_differs() {
        let japanese = RulesObject::parse("japanese").expect("a shorthand");
        let why = japanese.played(7.5).expect_err("not played");
        assert!(
            why.contains(r#"scoring "TERRITORY" (hane: "AREA")"#),
            "{why}"
        );
        assert!(why.contains(r#"ko "SIMPLE""#), "{why}");
        let chinese = RulesObject::parse("chinese").expect("a shorthand");
        assert!(chinese.played(7.5).is_err());
        let button = RulesObject::parse("aga-button").expect("a shorthand");
        assert!(button.has_button);
        assert!(RulesObject::parse("go").is_err());
        assert!(RulesObject::parse(r#"{"ko":"SUPER"}"#).is_err());
        assert!(RulesObject::parse(r#"{"komi":7.5}"#).is_err());
    }
}
