use super::*;

const DEFAULTS: Defaults = Defaults {
    max_visits: 100,
    max_time: None,
    report_as: ReportAs::Black,
};

fn query(line: &str) -> Query {
    let read = read(line, DEFAULTS);
    match read.request {
        Some(JsonRequest::Analyze(query)) => query,
        other => panic!("{other:?} {:?}", read.messages),
    }
}

fn error(line: &str) -> Value {
    let read = read(line, DEFAULTS);
    assert!(read.request.is_none(), "{:?}", read.request);
    assert_eq!(read.messages.len(), 1);
    read.messages[0].clone()
}

#[test]
fn katago_s_example_query() {
    let q = query(
        r#"{"id":"foo","initialStones":[["B","Q4"],["B","C4"]],"moves":[["W","P5"],["B","P6"]],"rules":"tromp-taylor","komi":7.5,"boardXSize":19,"boardYSize":19,"analyzeTurns":[0,1,2]}"#,
    );
    assert_eq!(q.id, "foo");
    assert_eq!(q.turns, vec![(0, 0), (1, 0), (2, 0)]);
    assert_eq!(q.max_visits, 100);
    // Turn 0 is the first move's player's.
    assert_eq!(q.setup.game_at(0).expect("turn 0").to_move(), Color::White);
    let game = q.setup.game_at(2).expect("turn 2");
    assert_eq!(game.to_move(), Color::White);
    assert_eq!(game.board().stones(Color::Black).len(), 3);
}

#[test]
fn locations_as_katago_reads_them() {
    let size = BoardSize::square(19);
    assert_eq!(
        location("(0,0)", size),
        Some(Move::Play(Vertex::new(0, 18)))
    );
    assert_eq!(location("a19", size), location("(0,0)", size));
    assert_eq!(location("PASS", size), Some(Move::Pass));
    assert_eq!(location("Z1", size), None);
    assert_eq!(location("(19,0)", size), None);
}

#[test]
fn errors_name_the_field_and_the_id() {
    let base = r#""id":"q","rules":"tromp-taylor","boardXSize":9,"boardYSize":9"#;
    let e = error(&format!(r#"{{{base},"moves":[["B","E5"],["W","E5"]]}}"#));
    assert_eq!(
        e,
        json!({"error":"Illegal move 1: E5","field":"moves","id":"q"})
    );
    let e = error(&format!(r#"{{{base}}}"#));
    assert_eq!(e["field"], "moves");
    let e = error(&format!(r#"{{{base},"moves":[],"analyzeTurns":[1]}}"#));
    assert_eq!(e["error"], "Invalid turn number: 1");
    let e = error(&format!(r#"{{{base},"moves":[["X","E5"]]}}"#));
    assert_eq!(e["error"], "Could not parse player: \"X\"");
    let e = error(r#"{"id":"q","moves":[],"rules":"tromp-taylor","boardXSize":30,"boardYSize":9}"#);
    assert_eq!(e["field"], "boardXSize");
    let e = error(r#"{"id":"q","moves":[],"rules":"go","boardXSize":9,"boardYSize":9}"#);
    assert_eq!(e["error"], "Could not parse rules: go");
    assert_eq!(
        error(r#"{"moves":[]}"#),
        json!({"error":"Request must have a string \"id\" field"})
    );
    assert!(error("{not json").get("error").is_some());
    assert!(error("[1,2]")["error"]
        .as_str()
        .is_some_and(|e| e.starts_with("Request line was valid json but was not an object")));
    let e = error(r#"{"id":"a","action":"fly"}"#);
    assert!(e.get("field").is_none());
}

#[test]
fn other_rules_and_unknown_fields_are_warnings() {
    let read = read(
        r#"{"id":"w","moves":[],"rules":"chinese","boardXSize":9,"boardYSize":9,"maxVisit":5,"overrideSettings":{"wideRootNoise":0.04,"maxTime":2}}"#,
        DEFAULTS,
    );
    assert!(matches!(read.request, Some(JsonRequest::Analyze(_))));
    let fields: Vec<&str> = read
        .messages
        .iter()
        .map(|m| m["field"].as_str().expect("a field"))
        .collect();
    assert_eq!(fields, ["rules", "overrideSettings", "maxVisit"]);
    assert!(read.messages.iter().all(|m| m.get("warning").is_some()));
    // The override hane uses is not named; the one it does not use is.
    let named = read.messages[1]["warning"].as_str().unwrap_or_default();
    assert!(named.contains("wideRootNoise") && !named.contains("maxTime"));
}

#[test]
fn avoid_allow_and_priorities() {
    let q = query(
        r#"{"id":"f","moves":[["B","E5"]],"rules":{"ko":"SITUATIONAL"},"boardXSize":9,"boardYSize":9,"analyzeTurns":[1,0],"priorities":[5,-2],"avoidMoves":[{"player":"W","moves":["D4","pass"],"untilDepth":1}]}"#,
    );
    assert_eq!(q.turns, vec![(0, -2), (1, 5)]);
    // A set of turns: each once, in the game's order, the last priority.
    let twice = query(
        r#"{"id":"f","moves":[["B","E5"]],"rules":"tromp-taylor","boardXSize":9,"boardYSize":9,"analyzeTurns":[1,1,0,1],"priorities":[1,2,3,4]}"#,
    );
    assert_eq!(twice.turns, vec![(0, 3), (1, 4)]);
    assert_eq!(q.setup.rules.superko, crate::game::Superko::Situational);
    assert!(!q.filter.allows(Color::White, Move::Pass, 0));
    assert!(q.filter.allows(Color::White, Move::Pass, 1));
    let e = error(
        r#"{"id":"f","moves":[],"rules":"tromp-taylor","boardXSize":9,"boardYSize":9,"avoidMoves":[],"allowMoves":[]}"#,
    );
    assert_eq!(e["error"], "Cannot specify both allowMoves and avoidMoves");
}

#[test]
fn actions() {
    match read(
        r#"{"id":"t","action":"terminate","terminateId":"foo","turnNumbers":[1,2]}"#,
        DEFAULTS,
    )
    .request
    {
        Some(JsonRequest::Terminate { id, turns, .. }) => {
            assert_eq!(id.as_deref(), Some("foo"));
            assert_eq!(turns, Some(vec![1, 2]));
        }
        other => panic!("{other:?}"),
    }
    let e = error(r#"{"id":"t","action":"terminate"}"#);
    assert_eq!(e["field"], "terminateId");
    assert!(matches!(
        read(r#"{"id":"v","action":"query_version"}"#, DEFAULTS).request,
        Some(JsonRequest::Echo(_))
    ));
}

#[test]
fn a_query_reads_into_its_typed_fields_whatever_their_types() {
    let text: QueryText = serde_json::from_str(
        r#"{"id":"q","boardXSize":19,"boardYSize":"19","komi":6,"includePolicy":true,"moves":[["B","Q4"]],"rules":{"ko":"SIMPLE"},"turnNumbers":[1]}"#,
    )
    .expect("reading a query never fails");
    assert!(matches!(text.board_x_size, Given::Typed(19)));
    // A field of another type is kept as given, for the error naming it.
    assert!(matches!(&text.board_y_size, Given::Mistyped(Value::String(s)) if s == "19"));
    assert!(matches!(text.komi, Given::Typed(k) if k == 6.0));
    assert!(matches!(text.include_policy, Given::Typed(true)));
    assert!(matches!(text.include_ownership, Given::Absent));
    assert!(matches!(&text.moves, Given::Typed(moves) if moves.len() == 1));
    assert!(matches!(text.rules, Given::Typed(RulesGiven::Object(_))));
    // What no field names is left for the warnings.
    assert_eq!(text.other.keys().collect::<Vec<_>>(), ["turnNumbers"]);
    let e = error(r#"{"id":"q","boardXSize":19,"boardYSize":"19","moves":[],"rules":"chinese"}"#);
    assert_eq!(e["field"], "boardYSize");
}
