//! KataGo's settings as hane reads them: the keys of its config files
//! (`-config`), of `-override-config` and of a query's `overrideSettings`.
//! Tools written for KataGo start hane with KataGo's command line and send
//! KataGo's settings; each key that has a meaning here is honoured, the
//! others are named back with the reason they are not (no GPU backend,
//! or no such setting).

use std::path::{Path, PathBuf};

use crate::frontend::{read_regular_file, RulesObject, Unreadable};
use crate::game::Rules;
use crate::game::DEFAULT_KOMI;
use crate::player::SearchParams;

use crate::game::Color;

/// Whose point of view win rates, scores and ownership are given from
/// (KataGo's `reportAnalysisWinratesAs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ReportAs {
    #[default]
    Black,
    White,
    SideToMove,
}

impl std::str::FromStr for ReportAs {
    type Err = String;

    /// `black`, `white` or `side-to-move` (KataGo's `SIDETOMOVE` too), in
    /// any case.
    fn from_str(text: &str) -> Result<ReportAs, String> {
        match text.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
            "black" | "b" => Ok(ReportAs::Black),
            "white" | "w" => Ok(ReportAs::White),
            "sidetomove" => Ok(ReportAs::SideToMove),
            _ => Err("expected black, white or side-to-move".to_string()),
        }
    }
}

impl ReportAs {
    /// +1 where the side to move's view is kept, -1 where it is turned.
    pub(super) fn sign(self, to_move: Color) -> f32 {
        match (self, to_move) {
            (ReportAs::SideToMove, _)
            | (ReportAs::Black, Color::Black)
            | (ReportAs::White, Color::White) => 1.0,
            _ => -1.0,
        }
    }

    /// +1 where Black-positive ownership is kept, -1 where it is turned.
    pub(super) fn ownership_sign(self, to_move: Color) -> f32 {
        match self {
            ReportAs::Black => 1.0,
            ReportAs::White => -1.0,
            ReportAs::SideToMove => to_move.sign(),
        }
    }
}

/// The settings read so far; None where none was given.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KataSettings {
    /// `numSearchThreads`, `numSearchThreadsPerAnalysisThread`.
    pub threads: Option<usize>,
    /// `numAnalysisThreads`.
    pub analysis_threads: Option<usize>,
    /// `maxVisits`: the last value given wins, as in KataGo (a later
    /// config file over an earlier one, `-override-config` over files).
    pub max_visits: Option<u64>,
    /// `maxPlayouts`, its own limit beside `maxVisits` as in KataGo.
    pub max_playouts: Option<u64>,
    /// `maxTime`, in seconds.
    pub max_time: Option<f64>,
    /// `reportAnalysisWinratesAs`.
    pub report_as: Option<ReportAs>,
    /// `rules` (GTP): the nearest rules hane plays, and what differs from
    /// those asked for when they are not played exactly.
    pub rules: Option<(Rules, Option<String>)>,
    /// KataGo's single rule keys (`koRule`, `multiStoneSuicideLegal`...),
    /// as the fields of a rules object, for `rules` above.
    pub single_rules: serde_json::Map<String, serde_json::Value>,
    /// Whether `rules` itself was given: KataGo refuses it beside the
    /// single rule keys.
    pub rules_named: bool,
    /// `ponderingEnabled` (GTP).
    pub ponder: Option<bool>,
    /// `allowResignation` and `resignThreshold` (GTP), as the winning
    /// chance below which hane resigns (0: never).
    pub resign: Option<f64>,
    /// `logFile`.
    pub log_file: Option<PathBuf>,
    /// hane's own search parameters (`hane params`), by their names.
    pub params: Vec<(String, String)>,
}

/// The keys not used, each with why.
pub type NotUsed = Vec<(String, &'static str)>;

/// What became of one key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// Honoured.
    Used,
    /// A key of KataGo's that means nothing here, and why.
    Ignored(&'static str),
    /// No key of KataGo's or hane's.
    Unknown,
}

/// Keys of KataGo's that have no meaning for hane, by prefix, and why.
const IGNORED: [(&str, &str); 16] = [
    (
        "nn",
        "hane's small network runs on the CPU in the search threads",
    ),
    (
        "cuda",
        "hane's small network runs on the CPU in the search threads",
    ),
    (
        "openCL",
        "hane's small network runs on the CPU in the search threads",
    ),
    (
        "trt",
        "hane's small network runs on the CPU in the search threads",
    ),
    (
        "metal",
        "hane's small network runs on the CPU in the search threads",
    ),
    (
        "numNNServerThreads",
        "hane's small network runs on the CPU in the search threads",
    ),
    ("homeDataDir", "hane's network needs no tuning to cache"),
    ("human", "hane has no human-style model"),
    ("wideRootNoise", "hane's search has no root noise"),
    (
        "rootPolicyTemperature",
        "hane's network prior has no temperature",
    ),
    ("playoutDoublingAdvantage", "hane's search has no such bias"),
    ("logDir", "hane logs to stderr, or to logFile / --log-file"),
    (
        "logSearchInfo",
        "hane logs to stderr, or to logFile / --log-file",
    ),
    (
        "logAllRequests",
        "hane logs to stderr, or to logFile / --log-file",
    ),
    (
        "logAllResponses",
        "hane logs to stderr, or to logFile / --log-file",
    ),
    (
        "conservativePass",
        "hane scores by Tromp-Taylor, where a pass is never a blunder",
    ),
];

impl KataSettings {
    /// Reads one key. An error is a value the key cannot take.
    pub fn set(&mut self, key: &str, value: &str) -> Result<Setting, String> {
        let value = value.trim();
        let bad = |what: &str| format!("{key} = {value}: expected {what}");
        match key {
            "numSearchThreads" | "numSearchThreadsPerAnalysisThread" => {
                self.threads = Some(thread_count(value).ok_or_else(|| bad(THREADS))?)
            }
            "numAnalysisThreads" => {
                self.analysis_threads = Some(thread_count(value).ok_or_else(|| bad(THREADS))?)
            }
            "maxVisits" => {
                self.max_visits =
                    Some(whole(value).ok_or_else(|| bad("a whole number from 1"))? as u64)
            }
            "maxPlayouts" => {
                self.max_playouts =
                    Some(whole(value).ok_or_else(|| bad("a whole number from 1"))? as u64)
            }
            "maxTime" => {
                let seconds = value
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| bad("a number of seconds more than 0"))?;
                self.max_time = Some(seconds.min(crate::player::MAX_THINK_SECONDS));
            }
            "reportAnalysisWinratesAs" => {
                self.report_as = Some(
                    value
                        .parse()
                        .map_err(|_| bad("BLACK, WHITE or SIDETOMOVE"))?,
                )
            }
            "rules" => {
                if let Some(single) = self.single_rules.keys().next() {
                    return Err(format!("rules = {value}: {BOTH_RULES} ({single} given)"));
                }
                // The client sets the komi; the rules give superko and suicide.
                let asked = RulesObject::parse(value).map_err(|_| bad("rules KataGo reads"))?;
                self.rules_named = true;
                self.set_rules(asked);
            }
            _ if single_rule_field(key).is_some() => self.set_single_rule(key, value)?,
            "ponderingEnabled" => {
                self.ponder = Some(boolean(value).ok_or_else(|| bad("true or false"))?)
            }
            "allowResignation" => {
                if !boolean(value).ok_or_else(|| bad("true or false"))? {
                    self.resign = Some(0.0);
                }
            }
            "resignThreshold" => {
                // KataGo's threshold is on the utility from -1 (a sure loss)
                // to 1: the winning chance is its image on 0 to 1.
                let utility = value
                    .parse::<f64>()
                    .ok()
                    .filter(|u| (-1.0..=1.0).contains(u))
                    .ok_or_else(|| bad("a number from -1 to 1"))?;
                if self.resign != Some(0.0) {
                    self.resign = Some((utility + 1.0) / 2.0);
                }
            }
            "logFile" => self.log_file = Some(PathBuf::from(value)),
            _ if crate::player::param(key).is_some() => {
                // Checked now, so a bad value is refused where it was given.
                SearchParams::default()
                    .set(key, value)
                    .map_err(|e| e.to_string())?;
                self.params.push((key.to_string(), value.to_string()));
            }
            _ => {
                return Ok(IGNORED
                    .iter()
                    .find(|(prefix, _)| key.starts_with(prefix))
                    .map_or(Setting::Unknown, |&(_, why)| Setting::Ignored(why)))
            }
        }
        Ok(Setting::Used)
    }

    /// The rules asked for, as the nearest hane plays and what differs.
    fn set_rules(&mut self, asked: RulesObject) {
        let nearest = asked.nearest(DEFAULT_KOMI);
        self.rules = Some((nearest, asked.played(DEFAULT_KOMI).err()));
    }

    /// One of KataGo's single rule keys (its setup's loadSingleRules reads
    /// them where no `rules` is given): Tromp-Taylor's rules with each
    /// field given so far, read as a rules object's field.
    fn set_single_rule(&mut self, key: &str, value: &str) -> Result<(), String> {
        if self.rules_named {
            return Err(format!("{key} = {value}: {BOTH_RULES}"));
        }
        let field = single_rule_field(key).unwrap_or(key);
        let json = match boolean(value) {
            Some(flag) => serde_json::Value::Bool(flag),
            None => serde_json::Value::String(value.to_string()),
        };
        let mut fields = self.single_rules.clone();
        fields.insert(field.to_string(), json);
        let text = serde_json::Value::Object(fields.clone()).to_string();
        let asked = RulesObject::parse(&text).map_err(|why| format!("{key} = {value}: {why}"))?;
        self.single_rules = fields;
        self.set_rules(asked);
        Ok(())
    }

    /// Sets every pair; the keys not used, each with why, in their order.
    pub fn set_all(&mut self, pairs: &[(String, String)]) -> Result<NotUsed, String> {
        let mut not_used = Vec::new();
        for (key, value) in pairs {
            match self.set(key, value)? {
                Setting::Used => {}
                Setting::Ignored(why) => not_used.push((key.clone(), why)),
                Setting::Unknown => {
                    not_used.push((key.clone(), "no setting of KataGo's or hane's"))
                }
            }
        }
        Ok(not_used)
    }

    /// The playouts a search may make: hane's tree has one visit per
    /// playout, so where both `maxVisits` and `maxPlayouts` are given the
    /// smaller bounds the search (KataGo stops at whichever comes first).
    pub fn visit_limit(&self) -> Option<u64> {
        match (self.max_visits, self.max_playouts) {
            (Some(v), Some(p)) => Some(v.min(p)),
            (v, p) => v.or(p),
        }
    }

    /// `search` with hane's parameters among these set on it.
    pub fn search_params(&self, search: &SearchParams) -> Result<SearchParams, String> {
        let mut search = search.clone();
        for (name, value) in &self.params {
            search.set(name, value).map_err(|e| e.to_string())?;
        }
        Ok(search)
    }
}

/// The most threads hane runs, searching (`--threads`,
/// `numSearchThreads`) or analysing positions (`--analysis-threads`,
/// `numAnalysisThreads`): 100000 took 5.9 GB and then failed to spawn a
/// thread. A bigger number is refused where it is given, on the command
/// line or in a config, never capped in silence.
pub const MAX_THREADS: usize = 1024;

const THREADS: &str = "a whole number from 1 to 1024";

/// KataGo's refusal of both forms at once.
const BOTH_RULES: &str = "rules and the single rule keys (koRule, scoringRule, taxRule, \
multiStoneSuicideLegal, hasButton, whiteHandicapBonus, friendlyPassOk) cannot both be given";

/// The field of a rules object that one of KataGo's single rule config
/// keys sets (KataGo's gtp_example.cfg: koRule, scoringRule, taxRule,
/// multiStoneSuicideLegal, hasButton, whiteHandicapBonus, friendlyPassOk).
fn single_rule_field(key: &str) -> Option<&'static str> {
    Some(match key {
        "koRule" => "ko",
        "scoringRule" => "scoring",
        "taxRule" => "tax",
        "multiStoneSuicideLegal" => "suicide",
        "hasButton" => "hasButton",
        "whiteHandicapBonus" => "whiteHandicapBonus",
        "friendlyPassOk" => "friendlyPassOk",
        _ => return None,
    })
}

fn thread_count(text: &str) -> Option<usize> {
    whole(text).filter(|&n| n <= MAX_THREADS)
}

fn whole(text: &str) -> Option<usize> {
    text.parse::<usize>().ok().filter(|&n| n >= 1)
}

fn boolean(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// The `key = value` lines of a KataGo config file, in order: `#` starts a
/// comment, blank lines are skipped, and `@include FILE` reads another file
/// (relative to this one's folder) in its place. A file included twice is
/// refused, as KataGo refuses it: without that memory, four files of 64
/// `@include` lines each made 16.7 million reads.
pub fn read_config_file(path: &Path) -> Result<Vec<(String, String)>, String> {
    let mut seen = Vec::new();
    read_config(path, 0, &mut seen)
}

/// Files included within files, at most: a file that includes itself is
/// refused rather than read for ever.
const MAX_INCLUDE_DEPTH: usize = 16;

/// Files one config reads in all, itself and every `@include`.
const MAX_CONFIG_FILES: usize = 64;

/// The most bytes read from one config file (KataGo's own are a few tens
/// of kilobytes): a device such as `/dev/zero` reports no size, so the read
/// itself is bounded.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

fn read_config(
    path: &Path,
    depth: usize,
    seen: &mut Vec<PathBuf>,
) -> Result<Vec<(String, String)>, String> {
    if depth > MAX_INCLUDE_DEPTH {
        return Err(format!(
            "{}: @include nested more than {MAX_INCLUDE_DEPTH} deep",
            path.display()
        ));
    }
    let identity = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    if seen.contains(&identity) {
        return Err(format!(
            "{}: included twice (@include may name a file once)",
            path.display()
        ));
    }
    if seen.len() == MAX_CONFIG_FILES {
        return Err(format!(
            "{}: more than {MAX_CONFIG_FILES} config files included",
            path.display()
        ));
    }
    seen.push(identity);
    let text = config_text(path)
        .map_err(|e| format!("cannot read the config file {}: {e}", path.display()))?;
    let mut pairs = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(included) = line.strip_prefix("@include") {
            let included = included.trim().trim_matches('"');
            let base = path.parent().unwrap_or(Path::new("."));
            pairs.extend(read_config(&base.join(included), depth + 1, seen)?);
            continue;
        }
        let (key, value) = line.split_once('=').ok_or_else(|| {
            format!(
                "{} line {}: expected key = value: {line}",
                path.display(),
                number + 1
            )
        })?;
        pairs.push((key.trim().to_string(), unquote(value.trim())));
    }
    Ok(pairs)
}

/// A config file's text: only a regular file is opened (a FIFO would
/// block, a device never end), and at most MAX_CONFIG_BYTES are read
/// whatever its metadata says.
fn config_text(path: &Path) -> Result<String, String> {
    let bytes = read_regular_file(path, MAX_CONFIG_BYTES).map_err(|refusal| match refusal {
        Unreadable::NotAFile => "not a file".to_string(),
        Unreadable::TooLarge => format!("larger than {MAX_CONFIG_BYTES} bytes"),
        Unreadable::Io(e) => e,
    })?;
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())
}

/// `-override-config`'s text: `key=value, key=value, ...`.
pub fn parse_overrides(text: &str) -> Result<Vec<(String, String)>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            pair.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), unquote(v.trim())))
                .ok_or_else(|| format!("-override-config: expected key=value, got {pair}"))
        })
        .collect()
}

fn unquote(value: &str) -> String {
    value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(value)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn katrain_config_keys_are_read_or_named_with_a_reason() {
        let mut settings = KataSettings::default();
        let pairs: Vec<(String, String)> = [
            ("reportAnalysisWinratesAs", "BLACK"),
            ("maxVisits", "500"),
            ("numAnalysisThreads", "12"),
            ("numSearchThreads", "8"),
            ("nnMaxBatchSize", "96"),
            ("wideRootNoise", "0.04"),
            ("someTypo", "1"),
            ("rave_equiv", "700"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let not_used = settings.set_all(&pairs).unwrap();
        assert_eq!(settings.max_visits, Some(500));
        assert_eq!(settings.analysis_threads, Some(12));
        assert_eq!(settings.threads, Some(8));
        assert_eq!(settings.report_as, Some(ReportAs::Black));
        let keys: Vec<&str> = not_used.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["nnMaxBatchSize", "wideRootNoise", "someTypo"]);
        let search = settings.search_params(&SearchParams::default()).unwrap();
        assert_ne!(search, SearchParams::default());
        assert!(settings.set("maxVisits", "0").is_err());
        let error = settings.set("numSearchThreads", "100000").unwrap_err();
        assert_eq!(
            error,
            "numSearchThreads = 100000: expected a whole number from 1 to 1024"
        );
        assert!(settings.set("numAnalysisThreads", "1025").is_err());
        assert_eq!(settings.threads, Some(8));
        assert!(settings.set("rave_equiv", "-5").is_err());
    }

    #[test]
    fn resignation_is_read_on_the_winning_chance_scale() {
        let mut settings = KataSettings::default();
        settings.set("resignThreshold", "-0.90").unwrap();
        assert!((settings.resign.unwrap() - 0.05).abs() < 1e-9);
        settings.set("allowResignation", "false").unwrap();
        assert_eq!(settings.resign, Some(0.0));
    }

    #[test]
    fn override_config_text_is_split_into_pairs() {
        assert_eq!(
            parse_overrides("homeDataDir=/tmp/x, maxVisits = 20").unwrap(),
            vec![
                ("homeDataDir".to_string(), "/tmp/x".to_string()),
                ("maxVisits".to_string(), "20".to_string())
            ]
        );
        assert!(parse_overrides("maxVisits").is_err());
    }

    #[test]
    fn the_last_max_visits_given_wins() {
        let mut settings = KataSettings::default();
        for (key, value) in [("maxVisits", "50"), ("maxVisits", "300")] {
            settings.set(key, value).unwrap();
        }
        assert_eq!(settings.visit_limit(), Some(300));
        settings.set("maxPlayouts", "200").unwrap();
        assert_eq!(settings.visit_limit(), Some(200));
        settings.set("maxPlayouts", "1000").unwrap();
        assert_eq!(settings.visit_limit(), Some(300));
    }
}
