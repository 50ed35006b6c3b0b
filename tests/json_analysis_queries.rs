//! How `hane analysis` reads a query's game: the rules it names (every name
//! and form KataGo accepts, the suicide rule they hold, the komi they
//! imply), the side to move at the start, and a history replayed as given.

mod common;

use common::json_analysis::{final_answer, warnings, Client};
use serde_json::Value;

/// White's wall around Black's A1 in the corner of a 3x3 board, Black to
/// move: B1 would take Black's own two stones off the board, a suicide.
const SUICIDE_CORNER: &str = r#""initialStones":[["W","A2"],["W","B2"],["W","C1"],["B","A1"]],"moves":[],"initialPlayer":"B","boardXSize":3,"boardYSize":3,"maxVisits":200,"includePolicy":true"#;

/// B1 in KataGo's order (row by row from the top left) on 3x3.
const B1: usize = 2 * 3 + 1;

fn query(id: &str, rules: &str, rest: &str) -> String {
    format!(r#"{{"id":"{id}","rules":{rules},{rest}}}"#)
}

fn moves(answer: &Value) -> Vec<&str> {
    answer["moveInfos"]
        .as_array()
        .expect("moveInfos")
        .iter()
        .map(|info| info["move"].as_str().expect("a move"))
        .collect()
}

/// Rules that forbid suicide are played: the search never tries one, and
/// the policy marks it as no move. Tromp-Taylor allows it.
#[test]
fn rules_that_forbid_suicide_keep_the_search_from_it() {
    let mut client = Client::start(&["--threads", "1"]);
    for (id, rules) in [
        ("object", r#"{"suicide":false}"#),
        ("chinese", r#""chinese""#),
        ("japanese", r#""japanese""#),
        ("aga", r#""aga""#),
        ("compact", r#""koPOSITIONALscoreAREAtaxNONEsui0""#),
    ] {
        client.send(&query(id, rules, SUICIDE_CORNER));
        let lines = client.answer_to(id);
        let answer = final_answer(&lines);
        assert!(!moves(answer).contains(&"B1"), "{id}: {answer}");
        assert_eq!(answer["policy"][B1], -1.0, "{id}: {answer}");
        for warning in warnings(&lines) {
            let text = warning["warning"].as_str().expect("a warning");
            assert!(!text.contains("suicide false"), "{id}: {text}");
        }
    }
    client.send(&query("tt", r#""tromp-taylor""#, SUICIDE_CORNER));
    let lines = client.answer_to("tt");
    assert!(warnings(&lines).is_empty(), "{lines:?}");
    let policy = final_answer(&lines)["policy"][B1]
        .as_f64()
        .expect("a number");
    assert!(policy >= 0.0, "B1 is legal under Tromp-Taylor: {policy}");
}

/// A 2x2 board whose two black stones own it whatever is played: White has
/// no legal move, and Black's only moves keep the four points, so every
/// playout ends with Black's 4 points against the komi.
const OWNED_BY_BLACK: &str = r#""initialStones":[["B","A1"],["B","B2"]],"moves":[],"boardXSize":2,"boardYSize":2,"maxVisits":50"#;

/// Black's lead at OWNED_BY_BLACK under `rules` (and `extra` fields).
fn lead_under(client: &mut Client, id: &str, rules: &str, extra: &str) -> f64 {
    client.send(&query(id, rules, &format!("{OWNED_BY_BLACK}{extra}")));
    let lines = client.answer_to(id);
    final_answer(&lines)["rootInfo"]["scoreLead"]
        .as_f64()
        .expect("scoreLead")
}

/// Every name and form of rules KataGo's analysis engine accepts is
/// accepted: the shorthands with their spellings (KaTrain sends "new
/// zealand"), the compact form KataGo logs, and objects with any of the
/// fields, `score` and `komi` included. Rules hane plays exactly are not
/// warned about; the others are analysed under the nearest rules hane
/// plays with a warning naming what differs.
#[test]
fn every_rules_name_katago_accepts_is_read() {
    let mut client = Client::start(&["--threads", "1"]);
    let exact = [
        r#""tromp-taylor""#,
        r#""tromp taylor""#,
        r#""TrompTaylor""#,
        r#""tromp_taylor""#,
        r#""koPOSITIONALscoreAREAtaxNONEsui1""#,
        r#""koPOSITIONALscoringAREAtaxNONEsui1komi6.5""#,
        r#"{"score":"AREA"}"#,
        r#"{"komi":6.5}"#,
        r#"{"ko":"SITUATIONAL","suicide":false}"#,
    ];
    let nearest = [
        r#""new zealand""#,
        r#""nz""#,
        r#""NewZealand""#,
        r#""new_zealand""#,
        r#""goe""#,
        r#""ing""#,
        r#""chineseogs""#,
        r#""chinese_kgs""#,
        r#""Chinese""#,
        r#""japanese""#,
        r#""korean""#,
        r#""aga""#,
        r#""bga""#,
        r#""french""#,
        r#""aga button""#,
        r#""stone scoring""#,
        r#""ancient-area""#,
        r#""ancient_territory""#,
        r#""koSIMPLEscoreTERRITORYtaxSEKIsui0""#,
        r#""koSPIGHTscoreAREAtaxALLsui1button1whbN-1fpok1""#,
        r#"{"scoring":"TERRITORY"}"#,
        r#"{"ko":"SIMPLE","komi":7}"#,
    ];
    for (i, rules) in exact.iter().chain(&nearest).enumerate() {
        let id = format!("r{i}");
        client.send(&query(&id, rules, OWNED_BY_BLACK));
        let lines = client.answer_to(&id);
        assert!(
            lines.iter().all(|l| l.get("error").is_none()),
            "{rules}: {lines:?}"
        );
        final_answer(&lines);
        let warned = warnings(&lines);
        if exact.contains(rules) {
            assert!(warned.is_empty(), "{rules}: {warned:?}");
        } else {
            assert_eq!(warned.len(), 1, "{rules}: {lines:?}");
            assert_eq!(warned[0]["field"], "rules");
        }
    }
    // Still refused: what KataGo refuses too.
    for (i, rules) in [
        r#""go""#,
        r#""""#,
        r#""koPOSITIONALscoreMAYBE""#,
        r#"{"ko":"SUPER"}"#,
        r#"{"color":"blue"}"#,
        r#"{"suicide":"maybe"}"#,
        "3",
    ]
    .iter()
    .enumerate()
    {
        let id = format!("bad{i}");
        client.send(&query(&id, rules, OWNED_BY_BLACK));
        let lines = client.answer_to(&id);
        assert_eq!(lines.len(), 1, "{rules}: {lines:?}");
        assert_eq!(lines[0]["field"], "rules", "{rules}");
        assert!(lines[0]["error"].is_string(), "{rules}");
    }
}

/// The warning names what hane does not play and what it plays instead.
#[test]
fn the_rules_warning_names_the_fields_that_differ() {
    let mut client = Client::start(&["--threads", "1"]);
    client.send(&query("jp", r#""japanese""#, OWNED_BY_BLACK));
    let lines = client.answer_to("jp");
    let text = warnings(&lines)[0]["warning"]
        .as_str()
        .expect("a warning")
        .to_string();
    for words in [
        r#"ko "SIMPLE""#,
        r#"scoring "TERRITORY""#,
        r#"tax "SEKI""#,
        "positional superko",
        "suicide forbidden",
    ] {
        assert!(text.contains(words), "{words:?} in {text}");
    }
    // The query's whiteHandicapBonus overrides the rules' (and hane does
    // not add the bonus, so it is a difference).
    let extra = format!(r#"{OWNED_BY_BLACK},"whiteHandicapBonus":"N""#);
    client.send(&query("whb", r#""tromp-taylor""#, &extra));
    let lines = client.answer_to("whb");
    let text = warnings(&lines)[0]["warning"].as_str().expect("a warning");
    assert!(text.contains(r#"whiteHandicapBonus "N""#), "{text}");
    let extra = format!(r#"{OWNED_BY_BLACK},"whiteHandicapBonus":"X""#);
    client.send(&query("bad", r#""tromp-taylor""#, &extra));
    assert_eq!(client.answer_to("bad")[0]["field"], "whiteHandicapBonus");
}

/// The komi is the query's; without one, the rules' (an object's `komi`,
/// or the shorthand's as KataGo guesses it: 6.5 for territory scoring, 7
/// with a button, else 7.5).
#[test]
fn the_komi_comes_from_the_query_or_else_from_the_rules() {
    let mut client = Client::start(&["--threads", "1"]);
    let cases = [
        (r#""tromp-taylor""#, "", 4.0 - 7.5),
        (r#""japanese""#, "", 4.0 - 6.5),
        (r#"{"scoring":"TERRITORY"}"#, "", 4.0 - 6.5),
        (r#""aga-button""#, "", 4.0 - 7.0),
        (r#"{"komi":6.5}"#, "", 4.0 - 6.5),
        (
            r#""koPOSITIONALscoreAREAtaxNONEsui1komi5.5""#,
            "",
            4.0 - 5.5,
        ),
        (r#"{"komi":6.5}"#, r#","komi":0.5"#, 4.0 - 0.5),
        (r#""japanese""#, r#","komi":-2"#, 4.0 + 2.0),
    ];
    for (i, (rules, extra, lead)) in cases.into_iter().enumerate() {
        let got = lead_under(&mut client, &format!("k{i}"), rules, extra);
        assert_eq!(got, lead, "{rules}{extra}");
    }
}

/// Two or more black stones to start and no white one are a handicap:
/// White moves first, as in KataGo. Otherwise Black does, unless
/// `initialPlayer` or the first move says.
#[test]
fn a_handicap_start_has_white_to_move() {
    let mut client = Client::start(&["--threads", "1", "--playouts", "20"]);
    let start = |stones: &str, extra: &str| {
        format!(r#""initialStones":[{stones}],"moves":[],"boardXSize":9,"boardYSize":9{extra}"#)
    };
    for (i, (stones, extra, to_move)) in [
        (r#"["B","C3"],["B","G7"]"#, "", "W"),
        (r#"["B","C3"],["B","G7"],["B","E5"]"#, "", "W"),
        (r#"["B","C3"]"#, "", "B"),
        (r#"["B","C3"],["B","G7"],["W","E5"]"#, "", "B"),
        ("", "", "B"),
        (r#"["B","C3"],["B","G7"]"#, r#","initialPlayer":"B""#, "B"),
    ]
    .into_iter()
    .enumerate()
    {
        let id = format!("h{i}");
        client.send(&query(&id, r#""tromp-taylor""#, &start(stones, extra)));
        let lines = client.answer_to(&id);
        let answer = final_answer(&lines);
        assert_eq!(
            answer["rootInfo"]["currentPlayer"], to_move,
            "{stones} {extra}"
        );
    }
}

/// On 2x2: Black's A1 at move 6 takes White's three stones and gives back
/// the board after move 0, which positional superko forbids; under simple
/// ko (Japanese rules, the query's own) it is legal.
const REPEATING: &str = r#""moves":[["B","A1"],["W","B1"],["B","A2"],["W","B2"],["B","A1"],["W","A2"],["B","A1"]],"boardXSize":2,"boardYSize":2,"maxVisits":50"#;

/// A query's history is replayed as given, as KataGo replays it: a move
/// that breaks hane's superko or the rules' ban on suicide is a warning,
/// not the end of the query, and the positions after it are analysed.
#[test]
fn a_history_is_replayed_as_given() {
    // One position at a time: turn 6's answer, then turn 7's.
    let mut client = Client::start(&["--threads", "1", "--analysis-threads", "1"]);
    for (id, rules) in [
        ("simple", r#""japanese""#),
        ("object", r#"{"ko":"SIMPLE"}"#),
        ("tt", r#""tromp-taylor""#),
    ] {
        let extra = r#","analyzeTurns":[6,7]"#;
        client.send(&query(id, rules, &format!("{REPEATING}{extra}")));
        let lines = client.receive_until(|r| r["turnNumber"] == 7 || r.get("error").is_some());
        assert!(
            lines.iter().all(|l| l.get("error").is_none()),
            "{id}: {lines:?}"
        );
        let history: Vec<&Value> = warnings(&lines)
            .into_iter()
            .filter(|w| w["field"] == "moves")
            .collect();
        assert_eq!(history.len(), 1, "{id}: {lines:?}");
        let text = history[0]["warning"].as_str().expect("a warning");
        assert!(text.contains("6") && text.contains("A1"), "{text}");
        let turn_7 = lines
            .iter()
            .find(|l| l["turnNumber"] == 7)
            .expect("turn 7 analysed");
        assert_eq!(turn_7["rootInfo"]["currentPlayer"], "W");
        assert!(lines.iter().any(|l| l["turnNumber"] == 6));
    }
    // A suicide in the history, under rules that forbid it.
    client.send(&query(
        "suicide",
        r#""chinese""#,
        r#""initialStones":[["W","A2"],["W","B2"],["W","C1"],["B","A1"]],"moves":[["B","B1"]],"boardXSize":3,"boardYSize":3,"maxVisits":50"#,
    ));
    let lines = client.answer_to("suicide");
    let answer = final_answer(&lines);
    assert_eq!(answer["rootInfo"]["currentPlayer"], "W");
    assert!(
        warnings(&lines).iter().any(|w| w["field"] == "moves"),
        "{lines:?}"
    );
    // A move onto a stone is still refused.
    client.send(&query(
        "occupied",
        r#""japanese""#,
        r#""moves":[["B","A1"],["W","A1"]],"boardXSize":2,"boardYSize":2"#,
    ));
    let lines = client.answer_to("occupied");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["error"], "Illegal move 1: A1");
}

/// A one-stone suicide is no move under any rules KataGo names
/// (multiStoneSuicideLegal speaks of several stones only), situational
/// superko included: a query's history holding one is an illegal move, as
/// a move onto a stone is.
#[test]
fn a_one_stone_suicide_in_the_history_is_an_illegal_move_under_situational_ko() {
    let mut client = Client::start(&["--threads", "1"]);
    for (id, rules) in [
        ("situational", r#"{"ko":"SITUATIONAL"}"#),
        ("nz", r#""new zealand""#),
        ("positional", r#""tromp-taylor""#),
    ] {
        client.send(&query(
            id,
            rules,
            r#""initialStones":[["W","A2"],["W","B1"]],"moves":[["B","A1"]],"boardXSize":5,"boardYSize":5,"maxVisits":20"#,
        ));
        let lines = client.answer_to(id);
        assert_eq!(lines.len(), 1, "{id}: {lines:?}");
        assert_eq!(lines[0]["error"], "Illegal move 0: A1", "{id}");
    }
}

/// KataGo's Analysis_Engine.md: `policy` is -1 for illegal moves, so -1
/// exactly where a move is illegal. White's own eye at A1 (behind A2, B1
/// and B2) is legal, as GTP's is_legal says, and the search never takes it
/// up: its prior is 0, not -1. Only the four stones are -1 on this 3x3.
#[test]
fn the_policy_marks_only_illegal_moves_with_minus_one() {
    let mut client = Client::start(&["--threads", "1"]);
    client.send(&query(
        "eye",
        r#""tromp-taylor""#,
        r#""initialStones":[["W","A2"],["W","B1"],["W","B2"],["B","C3"]],"moves":[],"initialPlayer":"W","boardXSize":3,"boardYSize":3,"maxVisits":30,"includePolicy":true"#,
    ));
    let lines = client.answer_to("eye");
    let policy: Vec<f64> = final_answer(&lines)["policy"]
        .as_array()
        .expect("policy")
        .iter()
        .map(|p| p.as_f64().expect("a number"))
        .collect();
    // Row by row from the top: A1 is row 2, column 0.
    const A1: usize = 2 * 3;
    assert_eq!(policy[A1], 0.0, "{policy:?}");
    let illegal: Vec<usize> = (0..policy.len()).filter(|&i| policy[i] == -1.0).collect();
    // C3, A2, B2, B1 in KataGo's order.
    assert_eq!(illegal, [2, 3, 4, 7], "{policy:?}");
}
