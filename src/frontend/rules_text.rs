//! A ruleset read from the text a KataGo client writes, in each of the
//! forms KataGo's rules parser takes (docs/GTP_Extensions.md and the
//! analysis protocol's `rules` field): a shorthand name in any of its
//! spellings (`new-zealand`, `new zealand`, `NewZealand`, `nz`), a JSON
//! object with any of the fields, `score` for `scoring` and, where a komi
//! may come with the rules, `komi`; or the compact form KataGo writes in
//! its logs, `koPOSITIONALscoreAREAtaxNONEsui1komi7.5`. With the rules
//! comes their komi: the one given, or KataGo's guess for the rules (6.5
//! under territory scoring, 7 with a button or under New Zealand rules,
//! else 7.5).

use serde_json::{Map, Value};

use super::rules_object::{HandicapBonus, Ko, RulesObject, Scoring, Tax};

/// A ruleset and the komi it gives or implies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RulesText {
    pub rules: RulesObject,
    pub komi: f64,
}

/// Whether the text may carry a komi: an analysis query's rules may, a
/// GTP `kata-set-rules` may not (the game keeps its komi), as in KataGo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KomiInRules {
    Allowed,
    Refused,
}

/// One shorthand: its spellings once lower-cased with spaces, `-` and `_`
/// taken out (the first is the name the docs use), the rules and komi.
struct Shorthand {
    names: &'static [&'static str],
    rules: RulesObject,
    komi: f64,
}

const fn rules(
    ko: Ko,
    scoring: Scoring,
    tax: Tax,
    suicide: bool,
    white_handicap_bonus: HandicapBonus,
    friendly_pass_ok: bool,
) -> RulesObject {
    RulesObject {
        has_button: false,
        ko,
        scoring,
        suicide,
        tax,
        white_handicap_bonus,
        friendly_pass_ok,
    }
}

/// KataGo's shorthands, with the objects its GTP extensions document for
/// them and the komi its parser gives each.
const SHORTHANDS: [Shorthand; 12] = {
    use HandicapBonus::{NMinusOne, Zero, N};
    use Ko::{Positional, Simple, Situational};
    use Scoring::{Area, Territory};
    [
        Shorthand {
            names: &["tromptaylor"],
            rules: rules(Positional, Area, Tax::None, true, Zero, false),
            komi: 7.5,
        },
        Shorthand {
            names: &["chinese"],
            rules: rules(Simple, Area, Tax::None, false, N, true),
            komi: 7.5,
        },
        Shorthand {
            names: &["chineseogs"],
            rules: rules(Positional, Area, Tax::None, false, N, true),
            komi: 7.5,
        },
        Shorthand {
            names: &["chinesekgs"],
            rules: rules(Positional, Area, Tax::None, false, N, true),
            komi: 7.5,
        },
        Shorthand {
            names: &["japanese"],
            rules: rules(Simple, Territory, Tax::Seki, false, Zero, true),
            komi: 6.5,
        },
        Shorthand {
            names: &["korean"],
            rules: rules(Simple, Territory, Tax::Seki, false, Zero, true),
            komi: 6.5,
        },
        Shorthand {
            names: &["stonescoring", "ancientarea"],
            rules: rules(Simple, Area, Tax::All, false, Zero, true),
            komi: 7.5,
        },
        Shorthand {
            names: &["ancientterritory"],
            rules: rules(Simple, Territory, Tax::All, false, Zero, false),
            komi: 6.5,
        },
        Shorthand {
            names: &["aga", "bga", "french"],
            rules: rules(Situational, Area, Tax::None, false, NMinusOne, true),
            komi: 7.5,
        },
        Shorthand {
            names: &["newzealand", "nz"],
            rules: rules(Situational, Area, Tax::None, true, Zero, true),
            komi: 7.0,
        },
        Shorthand {
            names: &["agabutton"],
            rules: RulesObject {
                has_button: true,
                ..rules(Situational, Area, Tax::None, false, NMinusOne, true)
            },
            komi: 7.0,
        },
        Shorthand {
            names: &["goe", "ing"],
            rules: rules(Positional, Area, Tax::None, true, Zero, true),
            komi: 7.5,
        },
    ]
};

/// The names the docs give the shorthands, for an error message.
const DOCUMENTED: &str = "tromp-taylor, chinese, chinese-ogs, chinese-kgs, japanese, korean, \
stone-scoring, aga, bga, new-zealand, aga-button";

impl RulesObject {
    /// The rules of a `kata-set-rules` line: a shorthand, a JSON object or
    /// the compact form, without a komi.
    pub fn parse(text: &str) -> Result<RulesObject, String> {
        RulesText::parse(text, KomiInRules::Refused).map(|read| read.rules)
    }
}

impl RulesText {
    /// A shorthand, a JSON object, or the compact form.
    pub fn parse(text: &str, komi: KomiInRules) -> Result<RulesText, String> {
        let text = text.trim();
        if let Some(read) = RulesText::named(text) {
            return Ok(read);
        }
        if text.starts_with('{') {
            return match serde_json::from_str::<Value>(text) {
                Ok(Value::Object(map)) => RulesText::object(&map, komi),
                Ok(_) => Err("not a rules object".to_string()),
                Err(e) => Err(format!("not a rules object: {e}")),
            };
        }
        RulesText::compact(text, komi).map_err(|why| {
            format!(
                "expected a JSON rules object or one of {DOCUMENTED}, \
or KataGo's compact form such as koPOSITIONALscoreAREAtaxNONEsui1 ({why})"
            )
        })
    }

    /// The ruleset a shorthand stands for, in any case and with spaces,
    /// `-` or `_` between its words or not.
    fn named(name: &str) -> Option<RulesText> {
        let key: String = name
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_'))
            .map(|c| c.to_ascii_lowercase())
            .collect();
        SHORTHANDS
            .iter()
            .find(|s| s.names.contains(&key.as_str()))
            .map(|s| RulesText {
                rules: s.rules,
                komi: s.komi,
            })
    }

    /// A JSON object: Tromp-Taylor's rules with the fields it gives.
    pub fn object(map: &Map<String, Value>, komi: KomiInRules) -> Result<RulesText, String> {
        let mut read = Reading::default();
        for (key, value) in map {
            let text = || {
                value
                    .as_str()
                    .ok_or_else(|| format!("{key} must be a string"))
            };
            let flag = || {
                value
                    .as_bool()
                    .ok_or_else(|| format!("{key} must be true or false"))
            };
            match key.as_str() {
                "ko" => read.rules.ko = ko(text()?).ok_or_else(|| bad(key, value))?,
                "score" | "scoring" => {
                    read.rules.scoring = scoring(text()?).ok_or_else(|| bad(key, value))?
                }
                "tax" => read.tax = Some(tax(text()?).ok_or_else(|| bad(key, value))?),
                "suicide" => read.rules.suicide = flag()?,
                "hasButton" => read.rules.has_button = flag()?,
                "whiteHandicapBonus" => {
                    read.rules.white_handicap_bonus =
                        HandicapBonus::parse(text()?).ok_or_else(|| bad(key, value))?
                }
                "friendlyPassOk" => read.rules.friendly_pass_ok = flag()?,
                "komi" if komi == KomiInRules::Allowed => {
                    read.komi = Some(
                        value
                            .as_f64()
                            .filter(|k| k.is_finite())
                            .ok_or_else(|| bad(key, value))?,
                    )
                }
                _ => return Err(format!("unknown rules option: {key}")),
            }
        }
        Ok(read.finish())
    }

    /// KataGo's compact form: `ko`, `score` (or `scoring`), `tax`, `sui`,
    /// `button`, `whb`, `fpok` and, where allowed, `komi`, each followed by
    /// its value, in any order, spaces between them or not.
    fn compact(text: &str, komi: KomiInRules) -> Result<RulesText, String> {
        if text.is_empty() {
            return Err("no rules given".to_string());
        }
        let mut read = Reading::default();
        let mut rest = text;
        while !rest.is_empty() {
            let at = rest;
            let fail = || format!("cannot read the rules at {at:?}");
            if let Some(value) = take_field(&mut rest, &["komi"]) {
                let number = value
                    .parse::<f64>()
                    .ok()
                    .filter(|k| k.is_finite() && komi == KomiInRules::Allowed);
                read.komi = Some(number.ok_or_else(fail)?);
            } else if let Some(value) = take_field(&mut rest, &["ko"]) {
                read.rules.ko = ko(&value).ok_or_else(fail)?;
            } else if let Some(value) = take_field(&mut rest, &["scoring", "score"]) {
                read.rules.scoring = scoring(&value).ok_or_else(fail)?;
            } else if let Some(value) = take_field(&mut rest, &["tax"]) {
                read.tax = Some(tax(&value).ok_or_else(fail)?);
            } else if let Some(value) = take_field(&mut rest, &["sui"]) {
                read.rules.suicide = digit_flag(&value).ok_or_else(fail)?;
            } else if let Some(value) = take_field(&mut rest, &["button"]) {
                read.rules.has_button = digit_flag(&value).ok_or_else(fail)?;
            } else if let Some(value) = take_field(&mut rest, &["whb"]) {
                read.rules.white_handicap_bonus = HandicapBonus::parse(&value).ok_or_else(fail)?;
            } else if let Some(value) = take_field(&mut rest, &["fpok"]) {
                read.rules.friendly_pass_ok = digit_flag(&value).ok_or_else(fail)?;
            } else {
                return Err(fail());
            }
        }
        Ok(read.finish())
    }
}

/// The value after the first of `names` that starts `rest`, and `rest`
/// moved past it. Spaces may stand between a name and its value, as in
/// KataGo. A value runs up to a lower-case letter or a space: values are
/// upper-case words, digits and `-` (`N-1`, `-3.5`), and every field name
/// is lower-case, so the next name ends it.
fn take_field(rest: &mut &str, names: &[&str]) -> Option<String> {
    let after = names
        .iter()
        .find_map(|name| rest.strip_prefix(name))?
        .trim_start();
    let end = after
        .find(|c: char| c.is_ascii_lowercase() || c.is_whitespace())
        .unwrap_or(after.len());
    let (value, next) = after.split_at(end);
    *rest = next.trim_start();
    Some(value.to_string())
}

/// A ruleset being read from an object or the compact form.
#[derive(Default)]
struct Reading {
    rules: RulesObject,
    tax: Option<Tax>,
    komi: Option<f64>,
}

impl Reading {
    /// The tax and komi not given, as KataGo fills them in: territory
    /// scoring taxes seki, and its komi is 6.5; a button's is 7.
    fn finish(self) -> RulesText {
        let territory = self.rules.scoring == Scoring::Territory;
        let tax = self
            .tax
            .unwrap_or(if territory { Tax::Seki } else { Tax::None });
        let komi = self.komi.unwrap_or(if territory {
            6.5
        } else if self.rules.has_button {
            7.0
        } else {
            7.5
        });
        RulesText {
            rules: RulesObject { tax, ..self.rules },
            komi,
        }
    }
}

fn bad(key: &str, value: &Value) -> String {
    format!("bad value for {key}: {value}")
}

fn ko(text: &str) -> Option<Ko> {
    match text.to_ascii_uppercase().as_str() {
        "SIMPLE" => Some(Ko::Simple),
        "POSITIONAL" => Some(Ko::Positional),
        "SITUATIONAL" => Some(Ko::Situational),
        "SPIGHT" => Some(Ko::Spight),
        _ => None,
    }
}

fn scoring(text: &str) -> Option<Scoring> {
    match text.to_ascii_uppercase().as_str() {
        "AREA" => Some(Scoring::Area),
        "TERRITORY" => Some(Scoring::Territory),
        _ => None,
    }
}

fn tax(text: &str) -> Option<Tax> {
    match text.to_ascii_uppercase().as_str() {
        "NONE" => Some(Tax::None),
        "SEKI" => Some(Tax::Seki),
        "ALL" => Some(Tax::All),
        _ => None,
    }
}

impl HandicapBonus {
    /// `0`, `N-1` or `N` (the analysis protocol's `whiteHandicapBonus`).
    pub fn parse(text: &str) -> Option<HandicapBonus> {
        match text.to_ascii_uppercase().as_str() {
            "0" => Some(HandicapBonus::Zero),
            "N-1" => Some(HandicapBonus::NMinusOne),
            "N" => Some(HandicapBonus::N),
            _ => None,
        }
    }
}

fn digit_flag(text: &str) -> Option<bool> {
    match text {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> RulesText {
        RulesText::parse(text, KomiInRules::Allowed).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn every_spelling_of_a_shorthand() {
        let nz = read("new-zealand");
        for name in ["new zealand", "NewZealand", "new_zealand", "nz", " NZ "] {
            assert_eq!(read(name), nz, "{name}");
        }
        assert_eq!(nz.komi, 7.0);
        assert_eq!(nz.rules.ko, Ko::Situational);
        assert_eq!(read("tromp taylor"), read("tromp-taylor"));
        assert_eq!(read("tromp-taylor").rules, RulesObject::default());
        assert_eq!(read("chineseogs"), read("chinese-ogs"));
        assert_eq!(read("french"), read("aga"));
        assert_eq!(read("ancient area"), read("stone-scoring"));
        assert!(read("aga button").rules.has_button);
        assert!(read("goe").rules.friendly_pass_ok);
        assert_eq!(read("japanese").komi, 6.5);
    }

    #[test]
    fn objects_fill_in_the_tax_and_komi_as_katago_does() {
        let territory = read(r#"{"score":"TERRITORY"}"#);
        assert_eq!(territory.rules.scoring, Scoring::Territory);
        assert_eq!(territory.rules.tax, Tax::Seki);
        assert_eq!(territory.komi, 6.5);
        assert_eq!(read(r#"{"komi":6.5}"#).rules, RulesObject::default());
        assert_eq!(read(r#"{"komi":6.5}"#).komi, 6.5);
        assert_eq!(read(r#"{"hasButton":true}"#).komi, 7.0);
        assert_eq!(read(r#"{"ko":"SPIGHT"}"#).rules.ko, Ko::Spight);
        let refused = |text| RulesText::parse(text, KomiInRules::Refused);
        assert!(refused(r#"{"komi":6.5}"#).is_err());
        for bad in [
            r#"{"ko":"SUPER"}"#,
            r#"{"suicide":"false"}"#,
            r#"{"colour":"blue"}"#,
            r#"{"komi":"7"}"#,
            "[1]",
            "{",
        ] {
            assert!(
                RulesText::parse(bad, KomiInRules::Allowed).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_compact_form_katago_logs() {
        let tromp_taylor = read("koPOSITIONALscoreAREAtaxNONEsui1komi7.5");
        assert_eq!(tromp_taylor, read("tromp-taylor"));
        assert_eq!(read("koPOSITIONALscoreAREAtaxNONEsui1"), tromp_taylor);
        assert_eq!(read("koPOSITIONAL scoringAREA sui1"), tromp_taylor);
        assert_eq!(
            read("ko POSITIONAL score AREA sui 1 komi 7.5"),
            tromp_taylor
        );
        let all = read("koSPIGHTscoreTERRITORYtaxALLsui0button1whbN-1fpok1komi-3.5");
        assert_eq!(
            all.rules,
            RulesObject {
                has_button: true,
                ko: Ko::Spight,
                scoring: Scoring::Territory,
                suicide: false,
                tax: Tax::All,
                white_handicap_bonus: HandicapBonus::NMinusOne,
                friendly_pass_ok: true,
            }
        );
        assert_eq!(all.komi, -3.5);
        assert_eq!(read("scoreTERRITORY").rules.tax, Tax::Seki);
        assert_eq!(read("whbN").rules.white_handicap_bonus, HandicapBonus::N);
        for bad in [
            "",
            "go",
            "koPOSITIONALscoreMAYBE",
            "sui2",
            "komi",
            "komix",
            "koPOSITIONAL x",
        ] {
            assert!(
                RulesText::parse(bad, KomiInRules::Allowed).is_err(),
                "{bad:?}"
            );
        }
        assert!(RulesText::parse("komi7.5", KomiInRules::Refused).is_err());
        let why = RulesObject::parse("go").expect_err("not rules");
        assert!(why.contains("one of tromp-taylor"), "{why}");
    }
}
