//! `hane analysis` driven as a client of KataGo's JSON analysis engine
//! drives it: KataGo's documented example queries and actions
//! (docs/Analysis_Engine.md), the Python example's query (includePolicy,
//! rules "Chinese"), errors and warnings in KataGo's form, priorities,
//! terminate, the points of view, and the end of the input.

mod common;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use common::json_analysis::{final_answer, Client};
use serde_json::{json, Value};

/// KataGo's example query, word for word.
const EXAMPLE: &str = r#"{"id":"foo","initialStones":[["B","Q4"],["B","C4"]],"moves":[["W","P5"],["B","P6"]],"rules":"tromp-taylor","komi":7.5,"boardXSize":19,"boardYSize":19,"analyzeTurns":[0,1,2]}"#;

/// The lower bound of Wilson's 95% score interval for a rate `p` over `n`
/// trials.
fn wilson_lower_bound(p: f64, n: f64) -> f64 {
    let z2 = 1.96f64 * 1.96;
    let centre = p + z2 / (2.0 * n);
    let spread = 1.96 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    (centre - spread) / (1.0 + z2 / n)
}

fn number(value: &Value, key: &str) -> f64 {
    value[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is a number in {value}"))
}

/// The fields every analysis response has, checked.
fn check_analysis(response: &Value, size: usize) {
    assert_eq!(response["isDuringSearch"], json!(false), "{response}");
    let infos = response["moveInfos"].as_array().expect("moveInfos");
    assert!(!infos.is_empty());
    let vertex = regex::Regex::new("^(?:[A-HJ-T](?:1[0-9]|[1-9])|pass)$").expect("regex");
    let mut visits_sum = 0.0;
    for (i, info) in infos.iter().enumerate() {
        assert_eq!(info["order"], json!(i));
        let mv = info["move"].as_str().expect("move");
        assert!(vertex.is_match(mv), "{mv}");
        let pv: Vec<&str> = info["pv"]
            .as_array()
            .expect("pv")
            .iter()
            .map(|m| m.as_str().expect("a PV move"))
            .collect();
        assert_eq!(pv.first(), Some(&mv), "the PV starts with the move");
        for key in ["winrate", "prior"] {
            assert!((0.0..=1.0).contains(&number(info, key)), "{key} in {info}");
        }
        assert_eq!(info["scoreLead"], info["scoreMean"]);
        // The lcb is of the win rate it stands beside (one read 0.501448
        // beside a win rate forced to 0.5): its 95% bound, on the side to
        // move's losing side (above the rate where the rate is the
        // other side's, as KataGo flips both): Wilson's, so that a move
        // won in its one playout is not shown an lcb of 1. The lead and
        // the win rate are two measurements, each shown as it is.
        let (rate, lcb) = (number(info, "winrate"), number(info, "lcb"));
        let visits = number(info, "visits");
        let gap = |p: f64| p - wilson_lower_bound(p, visits);
        let shown_gap = (rate - lcb).abs();
        assert!(
            (shown_gap - gap(rate)).abs() <= 2e-6 || (shown_gap - gap(1.0 - rate)).abs() <= 2e-6,
            "{info}"
        );
        assert!(number(info, "scoreStdev") >= 0.0, "{info}");
        assert_eq!(info["visits"], info["edgeVisits"]);
        let visits = number(info, "visits");
        assert!(visits >= 1.0);
        if i > 0 {
            assert!(
                number(&infos[i - 1], "visits") >= visits,
                "most visited first"
            );
        }
        visits_sum += visits;
    }
    let root = &response["rootInfo"];
    assert!(number(root, "visits") >= visits_sum);
    assert!((0.0..=1.0).contains(&number(root, "winrate")));
    assert!(number(root, "scoreStdev") >= 0.0, "{root}");
    assert!(matches!(root["currentPlayer"].as_str(), Some("B" | "W")));
    assert_eq!(root["thisHash"].as_str().map(str::len), Some(16));
    if let Some(ownership) = response.get("ownership") {
        assert_eq!(ownership.as_array().map(Vec::len), Some(size * size));
    }
}

#[test]
fn katago_s_example_query_is_answered_once_per_turn() {
    let mut client = Client::start(&["--playouts", "200"]);
    client.send(EXAMPLE);
    let mut by_turn = HashMap::new();
    for _ in 0..3 {
        let response = client.receive();
        assert_eq!(response["id"], "foo", "{response}");
        check_analysis(&response, 19);
        let turn = response["turnNumber"].as_u64().expect("turnNumber");
        let root = &response["rootInfo"];
        // Every playout goes through one of the root's moves.
        assert_eq!(number(root, "visits"), 200.0, "{root}");
        by_turn.insert(turn, root["currentPlayer"].clone());
    }
    // Turn 0 is the first move's player's; each move hands the turn over.
    assert_eq!(by_turn.get(&0), Some(&json!("W")));
    assert_eq!(by_turn.get(&1), Some(&json!("B")));
    assert_eq!(by_turn.get(&2), Some(&json!("W")));
    // No ownership, policy or PV visits unless asked for.
    let (status, _) = client.engine.close();
    assert!(status.success());
}

/// KataGo's Python example sends `"rules":"Chinese"` and `includePolicy`;
/// here with every optional output on.
#[test]
fn the_python_example_s_query_with_every_output() {
    let mut client = Client::start(&[]);
    client.send(
        r#"{"id":"0","moves":[["b","E5"],["w","pass"]],"initialStones":[["b","C3"],["w","G7"]],"rules":"Chinese","komi":7.5,"boardXSize":9,"boardYSize":9,"includePolicy":true,"maxVisits":300,"includeOwnership":true,"includeOwnershipStdev":true,"includeMovesOwnership":true,"includePVVisits":true,"analysisPVLen":3}"#,
    );
    let warning = client.receive();
    assert_eq!(warning["field"], "rules", "{warning}");
    assert_eq!(warning["id"], "0");
    let text = warning["warning"].as_str().expect("a warning");
    assert!(
        text.contains("analysed under Tromp-Taylor with positional superko"),
        "{text}"
    );
    let response = client.receive();
    check_analysis(&response, 9);
    assert_eq!(response["turnNumber"], 2);
    assert_eq!(response["rootInfo"]["currentPlayer"], "B");
    let policy: Vec<f64> = response["policy"]
        .as_array()
        .expect("policy")
        .iter()
        .map(|p| p.as_f64().expect("a number"))
        .collect();
    assert_eq!(policy.len(), 82, "81 points and pass");
    // Row by row from A9: C3 is row 7 (from the top), column 2.
    for occupied in [6 * 9 + 2, 2 * 9 + 6, 4 * 9 + 4] {
        assert_eq!(policy[occupied], -1.0, "occupied point {occupied}");
    }
    let total: f64 = policy.iter().filter(|&&p| p >= 0.0).sum();
    assert!((total - 1.0).abs() < 1e-3, "{total}");
    let ownership = response["ownership"].as_array().expect("ownership");
    assert_eq!(ownership.len(), 81);
    // Black's stone at C3 is Black's (Black's point of view by default).
    assert!(ownership[6 * 9 + 2].as_f64().expect("a number") > 0.5);
    let stdev = response["ownershipStdev"]
        .as_array()
        .expect("ownershipStdev");
    assert_eq!(stdev.len(), 81);
    assert!(stdev
        .iter()
        .all(|s| (0.0..=1.0).contains(&s.as_f64().expect("a number"))));
    for info in response["moveInfos"].as_array().expect("moveInfos") {
        let pv = info["pv"].as_array().expect("pv");
        assert!(pv.len() <= 4, "analysisPVLen 3: the move and three more");
        assert_eq!(info["pvVisits"].as_array().map(Vec::len), Some(pv.len()));
        assert_eq!(info["pvVisits"], info["pvEdgeVisits"]);
        assert_eq!(info["pvVisits"][0], info["visits"]);
        assert_eq!(info["ownership"].as_array().map(Vec::len), Some(81));
    }
}

#[test]
fn actions_are_echoed_as_katago_echoes_them() {
    let mut client = Client::start(&[]);
    client.send(r#"{"id":"foo","action":"query_version"}"#);
    let version = client.receive();
    assert_eq!(version["id"], "foo");
    assert_eq!(version["action"], "query_version");
    assert_eq!(version["version"], env!("CARGO_PKG_VERSION"));
    assert!(version["git_hash"].is_string());
    client.send(r#"{"id":"foo","action":"clear_cache"}"#);
    assert_eq!(client.receive(), json!({"id":"foo","action":"clear_cache"}));
    client.send(r#"{"id":"foo","action":"query_models"}"#);
    // A tool reads models[0]: hane describes its own, as KataGo does a
    // network.
    let models = client.receive();
    let model = &models["models"][0];
    assert_eq!(model["name"], format!("hane-{}", env!("CARGO_PKG_VERSION")));
    assert_eq!(model["usesHumanSLProfile"], false);
    assert!(model["maxBatchSize"].is_u64() && model["version"].is_u64());
    client.send(r#"{"id":"bar","action":"terminate_all"}"#);
    assert_eq!(
        client.receive(),
        json!({"id":"bar","action":"terminate_all"})
    );
    client.send(r#"{"id":"bar","action":"fly"}"#);
    let error = client.receive();
    assert!(error["error"]
        .as_str()
        .expect("an error")
        .starts_with("'action' field must be"));
}

#[test]
fn errors_as_katago_reports_them_and_the_engine_goes_on() {
    let mut client = Client::start(&["--playouts", "50"]);
    client.send("{not json");
    let error = client.receive();
    assert!(error["error"]
        .as_str()
        .expect("an error")
        .contains("could not parse input line as json request: {not json"));
    client.send(r#"{"moves":[]}"#);
    assert_eq!(
        client.receive(),
        json!({"error":"Request must have a string \"id\" field"})
    );
    client.send(
        r#"{"id":"bad","moves":[["B","E5"],["W","E5"]],"rules":"tromp-taylor","boardXSize":9,"boardYSize":9}"#,
    );
    assert_eq!(
        client.receive(),
        json!({"error":"Illegal move 1: E5","field":"moves","id":"bad"})
    );
    client.send(
        r#"{"id":"bad","moves":[],"rules":"tromp-taylor","boardXSize":9,"boardYSize":9,"analyzeTurns":[3]}"#,
    );
    assert_eq!(
        client.receive(),
        json!({"error":"Invalid turn number: 3","field":"analyzeTurns","id":"bad"})
    );
    client.send(r#"{"id":"bad","moves":[],"rules":"japanese-ish","boardXSize":9,"boardYSize":9}"#);
    assert_eq!(client.receive()["field"], "rules");
    // A typo is a warning; the query still runs.
    client.send(r#"{"id":"ok","moves":[],"rules":"tromp-taylor","boardXSize":9,"boardYSize":9,"maxVisit":5}"#);
    let warning = client.receive();
    assert_eq!(warning["field"], "maxVisit");
    assert!(warning["warning"].is_string());
    let response = client.receive();
    assert_eq!(response["id"], "ok");
    check_analysis(&response, 9);
}

#[test]
fn priorities_order_the_queue_and_terminate_stops_and_drops() {
    let mut client = Client::start(&["--analysis-threads", "1"]);
    let query = |id: &str, extra: &str| {
        format!(
            r#"{{"id":"{id}","moves":[["B","E5"]],"rules":"tromp-taylor","boardXSize":9,"boardYSize":9{extra}}}"#
        )
    };
    // A search that runs until terminated, reporting as it goes.
    client.send(&query(
        "long",
        r#","maxVisits":1000000000,"reportDuringSearchEvery":0.05"#,
    ));
    let during = client.receive();
    assert_eq!(during["id"], "long");
    assert_eq!(during["isDuringSearch"], true);
    // Queued behind it: low's two turns, then high, which goes first.
    client.send(&query("low", r#","maxVisits":300,"analyzeTurns":[0,1]"#));
    client.send(&query("high", r#","maxVisits":300,"priority":10"#));
    client.send(r#"{"id":"t1","action":"terminate","terminateId":"low","turnNumbers":[1]}"#);
    client.send(r#"{"id":"t2","action":"terminate","terminateId":"long"}"#);
    let mut finals = Vec::new();
    let responses = client.receive_until(|r| {
        if r["isDuringSearch"] == false && r.get("id").is_some() && r.get("action").is_none() {
            finals.push((
                r["id"].as_str().expect("id").to_string(),
                r["turnNumber"].as_u64().expect("turn"),
                r.get("noResults").is_some(),
            ));
        }
        finals.len() == 4
    });
    let echoes: Vec<&Value> = responses
        .iter()
        .filter(|r| r.get("action").is_some())
        .collect();
    assert_eq!(echoes.len(), 2, "each terminate is echoed");
    assert_eq!(
        finals,
        [
            ("low".to_string(), 1, true),
            ("long".to_string(), 1, false),
            ("high".to_string(), 1, false),
            ("low".to_string(), 0, false),
        ]
    );
}

#[test]
fn points_of_view_turn_win_rates_scores_and_ownership() {
    // White to move: Black's view and White's (the side to move's) differ.
    let query = r#"{"id":"p","moves":[["B","E5"]],"rules":"tromp-taylor","boardXSize":9,"boardYSize":9,"maxVisits":200,"includeOwnership":true}"#;
    let answer = |report_as: &str| {
        let mut client = Client::start(&["--threads", "1", "--report-as", report_as]);
        client.send(query);
        client.receive()
    };
    let black = answer("black");
    let white = answer("side-to-move");
    let (b, w) = (&black["moveInfos"][0], &white["moveInfos"][0]);
    assert_eq!(b["move"], w["move"], "the same search");
    assert!((number(b, "winrate") + number(w, "winrate") - 1.0).abs() < 1e-5);
    assert_eq!(number(b, "scoreLead"), -number(w, "scoreLead"));
    // E5, the centre: the fifth row from the top, the fifth column.
    let e5 = |response: &Value| response["ownership"][4 * 9 + 4].as_f64().expect("a number");
    assert_eq!(e5(&black), -e5(&white));
    assert!(e5(&black) > 0.5, "E5 is Black's");
}

#[test]
fn the_end_of_the_input_finishes_the_queue_unless_told_not_to_wait() {
    let mut client = Client::start(&["--playouts", "100"]);
    // One turn each: the two answers may come in either order (two threads).
    let one_turn = EXAMPLE.replace("[0,1,2]", "[2]");
    client.send(&one_turn);
    client.send(&one_turn.replace("\"foo\"", "\"bar\""));
    client.engine.close_stdin();
    let mut ids: Vec<String> = (0..2)
        .map(|_| client.receive()["id"].as_str().expect("id").to_string())
        .collect();
    ids.sort();
    assert_eq!(ids, ["bar", "foo"]);
    let (status, _) = client.engine.close();
    assert!(status.success());

    let mut client = Client::start(&["--quit-without-waiting"]);
    client.send(&EXAMPLE.replace("\"komi\"", "\"maxVisits\":1000000000,\"komi\""));
    let sent = Instant::now();
    client.engine.close_stdin();
    let (status, _) = client.engine.close();
    assert!(status.success());
    assert!(sent.elapsed() < Duration::from_secs(20));
}

/// `analyzeTurns` is a set of turns, as KataGo reads it: a turn named more
/// than once is analysed once, and the turns are taken in the game's order.
#[test]
fn a_turn_named_twice_is_analysed_once() {
    let mut client = Client::start(&["--playouts", "20", "--analysis-threads", "1"]);
    client.send(
        r#"{"id":"twice","moves":[["B","E5"]],"rules":"tromp-taylor","boardXSize":9,"boardYSize":9,"analyzeTurns":[1,1,0,1]}"#,
    );
    let lines = client.finish();
    let turns: Vec<u64> = lines
        .iter()
        .map(|line| {
            assert_eq!(line["id"], "twice", "{line}");
            check_analysis(line, 9);
            line["turnNumber"].as_u64().expect("turnNumber")
        })
        .collect();
    assert_eq!(turns, [0, 1]);
}

/// Windows PowerShell writes a UTF-8 byte-order mark before what it pipes:
/// it is not part of the first query.
#[test]
fn a_byte_order_mark_before_the_first_query_is_skipped() {
    let mut client = Client::start(&["--playouts", "20"]);
    let query = r#"{"id":"bom","moves":[],"rules":"tromp-taylor","boardXSize":9,"boardYSize":9}"#;
    client
        .engine
        .write_raw(format!("\u{feff}{query}\n").as_bytes());
    let lines = client.finish();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["id"], "bom");
    check_analysis(&lines[0], 9);
}

#[test]
fn every_visit_asked_for_reaches_the_root_whatever_the_threads() {
    // KaTrain's own config searches with 8 threads; its first query asks
    // for 25 visits. The root's moves got 1 of them: the other threads
    // played out from the root while one expanded it.
    let mut client = Client::start(&["--threads", "8"]);
    for (id, visits) in [("a", 25), ("b", 200)] {
        client.send(&format!(
            r#"{{"id":"{id}","moves":[],"rules":"tromp-taylor","komi":7.5,"boardXSize":19,"boardYSize":19,"maxVisits":{visits}}}"#
        ));
        let answer = final_answer(&client.answer_to(id)).clone();
        let root = number(&answer["rootInfo"], "visits");
        let through_moves: f64 = answer["moveInfos"]
            .as_array()
            .expect("moveInfos")
            .iter()
            .map(|m| number(m, "visits"))
            .sum();
        assert!(root >= 0.9 * visits as f64, "{id}: {root} of {visits}");
        assert!(
            through_moves >= 0.9 * visits as f64,
            "{id}: {through_moves} of {visits}"
        );
    }
    client.finish();
}

#[test]
fn query_models_names_the_network_in_use() {
    // It always claimed "a 6x64 policy network", also when the network
    // file could not be used.
    let query = r#"{"id":"m","action":"query_models"}"#;
    let internal_name = |args: &[&str]| {
        let mut client = Client::start(args);
        client.send(query);
        let name = client.receive()["models"][0]["internalName"]
            .as_str()
            .expect("a name")
            .to_string();
        client.finish();
        name
    };
    let shipped = internal_name(&[]);
    assert!(
        shipped.contains("6 residual blocks of 64 channels"),
        "{shipped}"
    );
    let none = internal_name(&["--network", "none"]);
    assert!(none.contains("no network"), "{none}");
    assert!(!none.contains("64 channels"), "{none}");
}

/// A query with `common::filled_board` as its initial stones: at komi
/// 7.5 Black wins by the board's height less 7.5 (B+11.5 on 19x19).
fn filled_board_query(id: &str, width: usize, height: usize, visits: u32) -> String {
    let stones: Vec<Value> = common::filled_board(width, height)
        .into_iter()
        .map(|(color, vertex)| json!([color, vertex]))
        .collect();
    json!({
        "id": id, "initialStones": stones, "moves": [], "rules": "tromp-taylor",
        "komi": 7.5, "boardXSize": width, "boardYSize": height,
        "analyzeTurns": [0], "maxVisits": visits, "includeOwnership": true,
    })
    .to_string()
}

#[test]
fn the_lead_on_a_finished_board_is_its_count_on_every_size() {
    // The network had never seen a filled 19x19 board: the lead read
    // -121.9 where the count is B+11.5 (25x25: -342.8 for B+17.5; 19x9:
    // -14.4 for B+1.5), while the ownership beside it summed to the count.
    // A playout that ends the game in the tree counts at the exact count,
    // and a settled board (every string pass-alive) is judged by it.
    let mut client = Client::start(&[]);
    for (width, height) in [(9, 9), (19, 9), (19, 19), (25, 25)] {
        let id = format!("{width}x{height}");
        client.send(&filled_board_query(&id, width, height, 200));
        let lines = client.answer_to(&id);
        let answer = final_answer(&lines);
        let count =
            width.div_ceil(2) as f64 * height as f64 - (width / 2) as f64 * height as f64 - 7.5;
        let lead = number(&answer["rootInfo"], "scoreLead");
        assert!((lead - count).abs() <= 1.0, "{id}: {lead} for B+{count}");
        let owned: f64 = answer["ownership"]
            .as_array()
            .expect("ownership")
            .iter()
            .filter_map(Value::as_f64)
            .sum();
        assert!(
            (owned - 7.5 - count).abs() < 0.01,
            "{id}: ownership {owned}"
        );
    }
    client.finish();
}

#[test]
fn a_pass_that_ends_the_game_reads_the_count_not_the_network() {
    // 9x9, a Black wall on E and a White wall on F: B+1.5. After Black's
    // pass, White's pass ends the game; the analysis of White's turn and
    // of the finished game read -2.5 at 50% (the network's guess).
    let mut stones = Vec::new();
    for row in 1..=9 {
        stones.push(json!(["B", format!("E{row}")]));
        stones.push(json!(["W", format!("F{row}")]));
    }
    let query = json!({
        "id": "walls", "initialStones": stones, "moves": [["B", "pass"], ["W", "pass"]],
        "rules": "tromp-taylor", "komi": 7.5, "boardXSize": 9, "boardYSize": 9,
        "analyzeTurns": [1, 2], "maxVisits": 500,
    });
    let mut client = Client::start(&[]);
    client.send(&query.to_string());
    let answers = client.finish();
    assert_eq!(answers.len(), 2, "{answers:?}");
    for answer in &answers {
        let turn = answer["turnNumber"].as_u64().expect("turnNumber");
        let pass = answer["moveInfos"]
            .as_array()
            .expect("moveInfos")
            .iter()
            .find(|m| m["move"] == "pass")
            .unwrap_or_else(|| panic!("pass searched at turn {turn}: {answer}"));
        // Black's view: the count, a certain win, no spread.
        assert!((number(pass, "scoreLead") - 1.5).abs() < 0.01, "{pass}");
        assert_eq!(number(pass, "winrate"), 1.0, "{pass}");
        assert_eq!(number(pass, "scoreStdev"), 0.0, "{pass}");
        if turn == 2 {
            // 9x9: no network's value is believed there, so the playouts
            // alone, every one of which Black wins.
            let root = &answer["rootInfo"];
            assert!((number(root, "scoreLead") - 1.5).abs() < 0.1, "{root}");
            assert_eq!(number(root, "winrate"), 1.0, "{root}");
        }
    }
}
