//! How `hane analysis` reads a query's game: the rules it names (every name
//! and form KataGo accepts, the suicide rule they hold, the komi they
//! imply), the side to move at the start, and a history replayed as given.

mod common;

use common::analysis::{final_answer, warnings, Client};
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
