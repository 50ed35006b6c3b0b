//! One input line of the analysis protocol read into a typed request: a
//! query (the game, the turns to analyse, what to report) or an action. A
//! query is checked whole before anything is queued, the game replayed
//! once; what is wrong is one of KataGo's error objects naming the field,
//! what hane reads but does not use is a warning, and the query goes on.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::frontend::{HandicapBonus, KomiInRules, RulesText};
use crate::game::{BoardSize, Color, Game, IllegalMove, Move, Rules, Vertex, MAX_RECORD_ACTIONS};
use crate::player::{FilterKind, MoveFilter, MoveRule};

use super::query_text::{ActionText, Given, QueryText, RulesGiven};
use super::settings::{KataSettings, ReportAs, Setting};

/// KataGo supports komi in this range.
const MAX_KOMI: f64 = 400.0;
/// The shortest interval between reports during a search.
const MIN_REPORT_SECONDS: f64 = 0.01;
/// A request's text as quoted back in an error, at most.
const MAX_QUOTED: usize = 200;

/// What the engine does with one line.
#[derive(Debug)]
pub(super) enum JsonRequest {
    Analyze(Query),
    /// `query_version`, `clear_cache`, `query_models`: answered at once.
    Echo(Map<String, Value>),
    /// `terminate` (one id) or `terminate_all` (no id), optionally only
    /// some turns; the request itself is echoed.
    Terminate {
        request: Map<String, Value>,
        id: Option<String>,
        turns: Option<Vec<usize>>,
    },
}

/// A checked query: the game and what to search and report at each turn.
#[derive(Debug)]
pub(super) struct Query {
    pub id: String,
    pub setup: Setup,
    /// (turn number, priority), each turn once, in the game's order.
    pub turns: Vec<(usize, i64)>,
    pub max_visits: u64,
    /// The search's bound in time (`maxTime`), if any.
    pub max_time: Option<Duration>,
    /// Whose view the answer gives.
    pub report_as: ReportAs,
    /// hane's search parameters that `overrideSettings` sets.
    pub params: Vec<(String, String)>,
    pub filter: MoveFilter,
    /// Moves of each PV after the first, at most.
    pub pv_len: Option<usize>,
    pub report_every: Option<Duration>,
    pub include: Include,
}

/// The optional parts of a response that the query asks for.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Include {
    pub ownership: bool,
    pub ownership_stdev: bool,
    pub moves_ownership: bool,
    pub policy: bool,
    pub pv_visits: bool,
}

/// The game of a query, from which each turn's position is replayed.
#[derive(Clone, Debug)]
pub(super) struct Setup {
    pub size: BoardSize,
    /// Superko, suicide and komi: the search keeps to them too.
    pub rules: Rules,
    pub initial_stones: Vec<(Vertex, Color)>,
    pub initial_player: Color,
    pub moves: Vec<(Color, Move)>,
}

impl Setup {
    /// The position before `moves[turn]` (after all of them for the last
    /// turn) and the side to move there: the colour of the move just played
    /// hands the turn to its opponent; at turn 0, `initialPlayer`.
    pub fn game_at(&self, turn: usize) -> Result<Game, String> {
        self.replay(turn).map(|(game, _)| game)
    }

    /// The game up to `turn`, its moves replayed as given, as KataGo
    /// replays a query's history: a move that breaks the rules in force (a
    /// repetition, a suicide) is played all the same and named in the
    /// notes; one the board cannot take (onto a stone, a one-stone
    /// suicide) is the error.
    pub fn replay(&self, turn: usize) -> Result<(Game, Vec<String>), String> {
        let mut game = Game::new(self.size, self.rules.komi).with_rules(self.rules);
        if !self.initial_stones.is_empty() {
            let stones: Vec<(Vertex, Option<Color>)> = self
                .initial_stones
                .iter()
                .map(|&(v, color)| (v, Some(color)))
                .collect();
            game.setup(&stones).map_err(|e| e.to_string())?;
        }
        game.set_to_move(self.initial_player);
        let mut notes = Vec::new();
        for (number, &(color, mv)) in self.moves.iter().take(turn).enumerate() {
            match game.play_as_given(color, mv) {
                Ok(None) => {}
                Ok(Some(IllegalMove::Suicide)) => notes.push(format!(
                    "Move {number}: {mv} is a suicide, which the rules forbid; replayed as given"
                )),
                Ok(Some(_)) => notes.push(format!(
                    "Move {number}: {mv} repeats an earlier position, which {} superko forbids; replayed as given",
                    self.rules.superko
                )),
                Err(_) => return Err(format!("Illegal move {number}: {mv}")),
            }
        }
        Ok((game, notes))
    }
}

/// What a line yields: the request, if it is one, and the error and
/// warning objects to write (an error means no request).
#[derive(Debug, Default)]
pub(super) struct Read {
    pub request: Option<JsonRequest>,
    pub messages: Vec<Value>,
}

/// Defaults from the command line.
#[derive(Clone, Copy, Debug)]
pub(super) struct Defaults {
    pub max_visits: u64,
    pub max_time: Option<f64>,
    pub report_as: ReportAs,
}

/// Reads one line (not blank).
pub(super) fn read(line: &str, defaults: Defaults) -> Read {
    let value: Value = match serde_json::from_str(line) {
        Ok(value) => value,
        Err(e) => {
            return error_only(json!({
                "error": format!("{e} - could not parse input line as json request: {}", quoted(line))
            }))
        }
    };
    let Value::Object(map) = value else {
        return error_only(json!({
            "error": format!("Request line was valid json but was not an object, ignoring: {}", quoted(line))
        }));
    };
    let Some(id) = map.get("id").and_then(Value::as_str).map(str::to_string) else {
        return error_only(json!({"error": "Request must have a string \"id\" field"}));
    };
    let mut fields = Fields {
        id: &id,
        messages: Vec::new(),
    };
    let request = if map.contains_key("action") {
        fields.action(&map)
    } else {
        fields.query(&map, defaults).map(JsonRequest::Analyze)
    };
    match request {
        Ok(request) => Read {
            request: Some(request),
            messages: fields.messages,
        },
        // Warnings about a query that is refused are noise.
        Err(error) => error_only(error),
    }
}

fn error_only(error: Value) -> Read {
    Read {
        request: None,
        messages: vec![error],
    }
}

/// The start of a long line, for quoting it back.
fn quoted(line: &str) -> String {
    match line.char_indices().nth(MAX_QUOTED) {
        Some((end, _)) => format!("{}...", &line[..end]),
        None => line.to_string(),
    }
}

/// The fields of one request, read with KataGo's errors.
struct Fields<'a> {
    id: &'a str,
    /// Warnings so far.
    messages: Vec<Value>,
}

/// Fields hane reads but does not use (warned about).
const UNUSED_FIELDS: [&str; 5] = [
    "rootPolicyTemperature",
    "rootFpuReductionMax",
    "includeNoResultValue",
    "includeMovesOwnershipStdev",
    "humanSLProfile",
];
/// Settings that hane reads from the command line's config only.
const START_UP_ONLY: [&str; 8] = [
    "numSearchThreads",
    "numSearchThreadsPerAnalysisThread",
    "numAnalysisThreads",
    "rules",
    "ponderingEnabled",
    "allowResignation",
    "resignThreshold",
    "logFile",
];

type Checked<T> = Result<T, Value>;

impl Fields<'_> {
    fn error(&self, field: &str, message: impl Into<String>) -> Value {
        json!({"error": message.into(), "field": field, "id": self.id})
    }

    fn warn(&mut self, field: &str, message: impl Into<String>) {
        let warning = json!({"warning": message.into(), "field": field, "id": self.id});
        self.messages.push(warning);
    }

    fn action(&mut self, map: &Map<String, Value>) -> Checked<JsonRequest> {
        let request = map.clone();
        let text: ActionText = ActionText::deserialize(Value::Object(request.clone()))
            .map_err(|e| json!({"error": e.to_string()}))?;
        let action = match &text.action {
            Given::Typed(action) => Some(action.as_str()),
            _ => None,
        };
        match action {
            Some("query_version" | "clear_cache" | "query_models") => {
                Ok(JsonRequest::Echo(request))
            }
            Some("terminate") => {
                let id = match &text.terminate_id {
                    Given::Typed(id) => id.clone(),
                    _ => return Err(self.error(
                        "terminateId",
                        "Requests for a terminate action must have a string \"terminateId\" field",
                    )),
                };
                let turns = self.terminate_turns(&text)?;
                Ok(JsonRequest::Terminate {
                    request,
                    id: Some(id),
                    turns,
                })
            }
            Some("terminate_all") => {
                let turns = self.terminate_turns(&text)?;
                Ok(JsonRequest::Terminate {
                    request,
                    id: None,
                    turns,
                })
            }
            _ => Err(json!({
                "error": "'action' field must be 'query_version' or 'query_models' or 'clear_cache' or 'terminate' or 'terminate_all'"
            })),
        }
    }

    fn terminate_turns(&self, text: &ActionText) -> Checked<Option<Vec<usize>>> {
        const WHY: &str = "If provided, must be an array of integers indicating turns to terminate";
        match text.turn_numbers.typed() {
            Ok(None) => Ok(None),
            Ok(Some(items)) => items
                .iter()
                .map(|item| {
                    item.as_u64()
                        .map(|n| n.min(usize::MAX as u64) as usize)
                        .ok_or_else(|| self.error("turnNumbers", WHY))
                })
                .collect::<Checked<Vec<usize>>>()
                .map(Some),
            Err(_) => Err(self.error("turnNumbers", WHY)),
        }
    }

    fn query(&mut self, map: &Map<String, Value>, defaults: Defaults) -> Checked<Query> {
        // Reading never fails: a field of another type is kept as given.
        let text = QueryText::deserialize(Value::Object(map.clone()))
            .map_err(|e| json!({"error": e.to_string()}))?;
        let width = self.board_side("boardXSize", &text.board_x_size)?;
        let height = self.board_side("boardYSize", &text.board_y_size)?;
        let size = BoardSize::new(width, height)
            .ok_or_else(|| self.error("boardXSize", "Board sizes from 2 to 25 are supported"))?;
        let moves = self.moves(&text, size)?;
        let initial_stones = self.initial_stones(&text, size)?;
        let initial_player = match text.initial_player.typed() {
            Ok(None) => match moves.first() {
                Some(&(color, _)) => color,
                None if is_handicap(&initial_stones) => Color::White,
                None => Color::Black,
            },
            Ok(Some(name)) => color_named(name)
                .ok_or_else(|| self.error("initialPlayer", "Must be \"b\" or \"w\""))?,
            Err(_) => return Err(self.error("initialPlayer", "Must be \"b\" or \"w\"")),
        };
        let komi = self.komi(&text)?;
        let rules = self.rules(&text, komi)?;
        let setup = Setup {
            size,
            rules,
            initial_stones,
            initial_player,
            moves,
        };
        // The whole game replays, or the query is refused.
        let (_, notes) = setup.replay(setup.moves.len()).map_err(|why| {
            let field = if why.starts_with("Illegal move") {
                "moves"
            } else {
                "initialStones"
            };
            self.error(field, why)
        })?;
        for note in notes {
            self.warn("moves", note);
        }
        let turns = self.turns(&text, setup.moves.len())?;
        let settings = self.override_settings(&text)?;
        // The query's own maxVisits before overrideSettings', as in KataGo
        // (which answers 2,000 visits to `"maxVisits": 2000` with an
        // override of 64); an override's maxPlayouts bounds either.
        let max_visits = match text.max_visits.typed() {
            Ok(None) => settings.max_visits,
            Ok(Some(&n)) if n >= 1 => Some(n),
            _ => return Err(self.error("maxVisits", "Must be an integer of at least 1")),
        };
        let max_visits = [max_visits, settings.max_playouts]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(defaults.max_visits);
        let pv_len = match text.analysis_pv_len.typed() {
            Ok(n) => n.map(|&n| n.min(1000) as usize),
            Err(_) => return Err(self.error("analysisPVLen", "Must be a non-negative integer")),
        };
        let report_every = match text.report_during_search_every.typed() {
            Ok(None) => None,
            Ok(Some(&s)) if s.is_finite() && s > 0.0 && s <= 1e6 => {
                Some(Duration::from_secs_f64(s.max(MIN_REPORT_SECONDS)))
            }
            _ => {
                return Err(self.error(
                    "reportDuringSearchEvery",
                    "Must be a positive number of seconds",
                ))
            }
        };
        let include = Include {
            ownership: self.boolean("includeOwnership", &text.include_ownership)?,
            ownership_stdev: self
                .boolean("includeOwnershipStdev", &text.include_ownership_stdev)?,
            moves_ownership: self
                .boolean("includeMovesOwnership", &text.include_moves_ownership)?,
            policy: self.boolean("includePolicy", &text.include_policy)?,
            pv_visits: self.boolean("includePVVisits", &text.include_pv_visits)?,
        };
        let filter = self.filter(&text, size)?;
        self.warn_about_other_fields(&text);
        Ok(Query {
            id: self.id.to_string(),
            setup,
            turns,
            max_visits,
            max_time: settings
                .max_time
                .or(defaults.max_time)
                .map(Duration::from_secs_f64),
            report_as: settings.report_as.unwrap_or(defaults.report_as),
            params: settings.params,
            filter,
            pv_len,
            report_every,
            include,
        })
    }

    /// `overrideSettings`: KataGo's settings for this query alone. Those
    /// with a meaning for one query are honoured (maxVisits, maxPlayouts,
    /// maxTime, reportAnalysisWinratesAs, hane's search parameters); one
    /// warning names the others and why each is not used.
    fn override_settings(&mut self, text: &QueryText) -> Checked<KataSettings> {
        let mut settings = KataSettings::default();
        let entries = match text.override_settings.typed() {
            Ok(None) => return Ok(settings),
            Ok(Some(entries)) => entries,
            Err(_) => return Err(self.error("overrideSettings", "Must be an object")),
        };
        let mut not_used = Vec::new();
        for (key, value) in entries {
            // KataGo reads every value as its text.
            let text = match value {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            let setting = settings
                .set(key, &text)
                .map_err(|why| self.error("overrideSettings", why))?;
            let why = match setting {
                Setting::Used if START_UP_ONLY.contains(&key.as_str()) => {
                    "set at start-up only (-config, -override-config)"
                }
                Setting::Used => continue,
                Setting::Ignored(why) => why,
                Setting::Unknown => "no setting of KataGo's or hane's",
            };
            not_used.push(format!("{key} ({why})"));
        }
        if !not_used.is_empty() {
            self.warn(
                "overrideSettings",
                format!("Not used by hane: {}", not_used.join(", ")),
            );
        }
        Ok(settings)
    }

    fn board_side(&self, field: &str, given: &Given<u64>) -> Checked<usize> {
        match given {
            Given::Typed(n) if (2..=25).contains(n) => Ok(*n as usize),
            _ => Err(self.error(field, "Must provide an integer from 2 to 25")),
        }
    }

    fn moves(&self, text: &QueryText, size: BoardSize) -> Checked<Vec<(Color, Move)>> {
        if !text.moves.is_given() {
            return Err(self.error("moves", "Must specify an array of [player,location] pairs"));
        }
        let moves = self.placements("moves", &text.moves, size, true)?;
        if moves.len() > MAX_RECORD_ACTIONS {
            return Err(self.error(
                "moves",
                format!("At most {MAX_RECORD_ACTIONS} moves are supported"),
            ));
        }
        Ok(moves)
    }

    fn initial_stones(&self, text: &QueryText, size: BoardSize) -> Checked<Vec<(Vertex, Color)>> {
        let stones = self.placements("initialStones", &text.initial_stones, size, false)?;
        let mut placed: Vec<(Vertex, Color)> = Vec::new();
        for (color, mv) in stones {
            let Move::Play(v) = mv else { continue };
            if placed.iter().any(|&(w, _)| w == v) {
                return Err(self.error("initialStones", format!("{v} is given twice")));
            }
            placed.push((v, color));
        }
        Ok(placed)
    }

    /// `[["B","Q4"],["W","pass"],...]`: a colour and a location each;
    /// none when not given.
    fn placements(
        &self,
        field: &str,
        given: &Given<Vec<Value>>,
        size: BoardSize,
        allow_pass: bool,
    ) -> Checked<Vec<(Color, Move)>> {
        const WHY: &str =
            "Must be an array of pairs of the form: [\"b\" or \"w\", GTP board vertex]";
        let items = match given.typed() {
            Ok(None) => return Ok(Vec::new()),
            Ok(Some(items)) => items,
            Err(_) => return Err(self.error(field, WHY)),
        };
        items
            .iter()
            .map(|item| {
                let pair = item.as_array().filter(|pair| pair.len() == 2);
                let Some(pair) = pair else {
                    return Err(self.error(field, WHY));
                };
                let player = color(&pair[0]).ok_or_else(|| {
                    self.error(field, format!("Could not parse player: {}", pair[0]))
                })?;
                let location = pair[1].as_str().and_then(|text| location(text, size));
                match location {
                    Some(Move::Pass) if !allow_pass => {
                        Err(self.error(field, "Could not parse board location: pass"))
                    }
                    Some(mv) => Ok((player, mv)),
                    None => Err(self.error(
                        field,
                        format!("Could not parse board location: {}", pair[1]),
                    )),
                }
            })
            .collect()
    }

    /// The rules the query is analysed under: those asked for where hane
    /// plays them (Tromp-Taylor under either superko rule, with or without
    /// suicide), else the nearest, with a warning naming what differs, as
    /// KataGo warns when its network lacks a rule. The komi is the query's,
    /// else the rules' (given with them, or KataGo's guess for them).
    fn rules(&mut self, text: &QueryText, komi: Option<f64>) -> Checked<Rules> {
        const WHY: &str = "Must specify rules string, such as \"chinese\" or \"tromp-taylor\", or a JSON object with detailed rules parameters.";
        // KataGo quotes the rules back whole, whatever was wrong in them.
        let could_not = |text: &str| self.error("rules", format!("Could not parse rules: {text}"));
        let read = match &text.rules {
            Given::Typed(RulesGiven::Text(name)) => {
                RulesText::parse(name, KomiInRules::Allowed).map_err(|_| could_not(name))?
            }
            Given::Typed(RulesGiven::Object(map)) => {
                RulesText::object(map, KomiInRules::Allowed)
                    .map_err(|_| could_not(&Value::Object(map.clone()).to_string()))?
            }
            _ => return Err(self.error("rules", WHY)),
        };
        let mut asked = read.rules;
        let bonus_why = || self.error("whiteHandicapBonus", "Must be \"0\", \"N\" or \"N-1\"");
        match text.white_handicap_bonus.typed() {
            Ok(None) => {}
            Ok(Some(bonus)) => {
                asked.white_handicap_bonus = HandicapBonus::parse(bonus).ok_or_else(bonus_why)?
            }
            Err(_) => return Err(bonus_why()),
        }
        let komi = komi.unwrap_or(read.komi);
        if komi.abs() > MAX_KOMI {
            return Err(self.error("rules", "The komi must be a number from -400 to 400"));
        }
        let rules = asked.nearest(komi);
        if let Err(why) = asked.played(komi) {
            let suicide = if rules.allow_suicide {
                "allowed"
            } else {
                "forbidden"
            };
            self.warn(
                "rules",
                format!(
                    "{why}; analysed under Tromp-Taylor with {} superko, suicide {suicide}",
                    rules.superko
                ),
            );
        }
        Ok(rules)
    }

    /// The query's `komi`, when it gives one.
    fn komi(&self, text: &QueryText) -> Checked<Option<f64>> {
        match text.komi.typed() {
            Ok(None) => Ok(None),
            Ok(Some(&k)) if k.is_finite() && k.abs() <= MAX_KOMI => Ok(Some(k)),
            _ => Err(self.error("komi", "Must be a number from -400 to 400")),
        }
    }

    /// `analyzeTurns` (the last turn by default) with their priorities.
    /// KataGo reads the list as a set: a turn named twice is analysed once
    /// (with the priority given last for it), and the turns are queued in
    /// the game's order, whatever the list's.
    fn turns(&self, text: &QueryText, moves: usize) -> Checked<Vec<(usize, i64)>> {
        let turns: Vec<usize> = match text.analyze_turns.typed() {
            Ok(None) => vec![moves],
            Ok(Some(items)) => items
                .iter()
                .map(|item| match item.as_u64() {
                    Some(turn) if turn as usize <= moves => Ok(turn as usize),
                    _ => Err(self.error("analyzeTurns", format!("Invalid turn number: {item}"))),
                })
                .collect::<Checked<_>>()?,
            Err(_) => {
                return Err(self.error(
                    "analyzeTurns",
                    "Must specify an array of integers indicating turns to analyze",
                ))
            }
        };
        let priority = |value: &Value, field: &str| {
            value
                .as_i64()
                .ok_or_else(|| self.error(field, format!("Invalid priority: {value}")))
        };
        let priorities: Vec<i64> = match (&text.priority, text.priorities.typed()) {
            (Given::Absent, Ok(None)) => vec![0; turns.len()],
            (Given::Typed(_) | Given::Mistyped(_), Ok(Some(_)) | Err(_)) => {
                return Err(self.error("priority", "Cannot specify both priority and priorities"))
            }
            (Given::Typed(p), Ok(None)) => vec![*p; turns.len()],
            (Given::Mistyped(value), Ok(None)) => vec![priority(value, "priority")?; turns.len()],
            (Given::Absent, Ok(Some(items))) => {
                if !text.analyze_turns.is_given() {
                    return Err(self.error(
                        "priorities",
                        "Can only specify when also specifying analyzeTurns",
                    ));
                }
                if items.len() != turns.len() {
                    return Err(
                        self.error("priorities", "Must be of matching length to analyzeTurns")
                    );
                }
                items
                    .iter()
                    .map(|item| priority(item, "priorities"))
                    .collect::<Checked<_>>()?
            }
            (Given::Absent, Err(_)) => {
                return Err(self.error(
                    "priorities",
                    "Must specify an array of integers indicating priorities",
                ))
            }
        };
        let set: BTreeMap<usize, i64> = turns.into_iter().zip(priorities).collect();
        Ok(set.into_iter().collect())
    }

    fn boolean(&self, field: &str, given: &Given<bool>) -> Checked<bool> {
        match given.typed() {
            Ok(value) => Ok(value.copied().unwrap_or(false)),
            Err(_) => Err(self.error(field, "Must be a boolean")),
        }
    }

    /// `avoidMoves` / `allowMoves`: `[{"player":"B","moves":["C3"],
    /// "untilDepth":1}, ...]`, as the analysis commands' avoid and allow.
    fn filter(&self, text: &QueryText, size: BoardSize) -> Checked<MoveFilter> {
        const WHY: &str = "Must be a list of dicts with subfields 'player', 'moves', 'untilDepth'";
        let mut filter = MoveFilter::default();
        let given = [
            ("avoidMoves", FilterKind::Avoid, &text.avoid_moves),
            ("allowMoves", FilterKind::Allow, &text.allow_moves),
        ]
        .into_iter()
        .filter(|(_, _, given)| given.is_given())
        .collect::<Vec<_>>();
        if given.len() == 2 {
            return Err(self.error(
                "allowMoves",
                "Cannot specify both allowMoves and avoidMoves",
            ));
        }
        for (field, kind, value) in given {
            let Ok(Some(items)) = value.typed() else {
                return Err(self.error(field, WHY));
            };
            for item in items {
                let dict = item.as_object().ok_or_else(|| self.error(field, WHY))?;
                let color = dict
                    .get("player")
                    .and_then(color)
                    .ok_or_else(|| self.error(field, WHY))?;
                let moves = dict
                    .get("moves")
                    .and_then(Value::as_array)
                    .ok_or_else(|| self.error(field, WHY))?
                    .iter()
                    .map(|m| {
                        m.as_str()
                            .and_then(|text| location(text, size))
                            .ok_or_else(|| {
                                self.error(field, format!("Could not parse board location: {m}"))
                            })
                    })
                    .collect::<Checked<Vec<Move>>>()?;
                let until_depth = dict
                    .get("untilDepth")
                    .and_then(Value::as_u64)
                    .filter(|&d| d >= 1)
                    .ok_or_else(|| self.error(field, WHY))?;
                let rule = MoveRule {
                    kind,
                    color,
                    moves,
                    until_depth: until_depth.min(u32::MAX as u64) as u32,
                };
                filter.add(rule).map_err(|_| {
                    self.error(
                        field,
                        "Cannot specify allowMoves more than once for the same player",
                    )
                })?;
            }
        }
        Ok(filter)
    }

    /// The fields no part of a query names: read but not used, or not
    /// KataGo's.
    fn warn_about_other_fields(&mut self, text: &QueryText) {
        for key in text.other.keys() {
            let key = key.as_str();
            if UNUSED_FIELDS.contains(&key) {
                self.warn(key, "hane reads but does not use this field");
            } else {
                self.warn(key, "Unexpected or unused field, do you have a typo?");
            }
        }
    }
}

/// Whether the stones to start are a handicap, as KataGo judges them: two
/// or more black stones and no white one. White moves first then.
fn is_handicap(stones: &[(Vertex, Color)]) -> bool {
    stones.iter().all(|&(_, color)| color == Color::Black) && stones.len() >= 2
}

/// `"B"`, `"b"`, `"black"`, `"W"`, ...
fn color(value: &Value) -> Option<Color> {
    color_named(value.as_str()?)
}

fn color_named(name: &str) -> Option<Color> {
    match name.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// A GTP vertex, `pass`, or KataGo's `(x,y)` with x from the left and y
/// from the top, both from 0; on the board.
fn location(text: &str, size: BoardSize) -> Option<Move> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("pass") {
        return Some(Move::Pass);
    }
    let vertex = match text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        Some(inner) => {
            let (x, y) = inner.split_once(',')?;
            let x: usize = x.trim().parse().ok()?;
            let y: usize = y.trim().parse().ok()?;
            if x >= size.width || y >= size.height {
                return None;
            }
            Vertex::new(x, size.height - 1 - y)
        }
        None => Vertex::parse_gtp(text)?,
    };
    vertex.is_on_board(size).then_some(Move::Play(vertex))
}

#[cfg(test)]
mod tests;
