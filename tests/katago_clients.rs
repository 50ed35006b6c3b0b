//! hane started and driven as tools written for KataGo start and drive it:
//! KaTrain's command line (`analysis -model M -config C -override-config
//! ...`) and its queries with `overrideSettings`, KataGo's `gtp -config`,
//! and the start-up exchanges of Lizzie, q5Go and Sabaki, each checked as
//! that client's own source reads the answers.

mod common;

use std::time::{Duration, Instant};

use common::json_analysis::{warnings, Client};
use common::{Gtp, TempDir};
use serde_json::Value;

/// The root's scoreLead of a KaTrain-style 19x19 query (Black's view), one
/// thread, `seed`.
fn root_lead(seed: &str, moves: &str, visits: u64) -> f64 {
    let mut client = Client {
        engine: Gtp::start_with(&["analysis", "--threads", "1", "--seed", seed]),
    };
    client.send(&format!(
        r#"{{"id":"q","moves":{moves},"rules":"chinese","komi":7.5,"boardXSize":19,"boardYSize":19,"maxVisits":{visits},"overrideSettings":{{"reportAnalysisWinratesAs":"BLACK"}}}}"#
    ));
    let lines = client.answer_to("q");
    number(&answer(&lines)["rootInfo"], "scoreLead")
}

#[test]
fn the_lead_hardly_moves_from_one_seed_to_the_next() {
    // A reviewer's points lost are differences of leads: a lead that moved
    // by 4.75 points between two seeds of the same position (the random
    // playouts' median margin) made strong moves read as mistakes. The
    // network's ownership head judges the positions of the tree instead.
    // The middle game: the first 60 moves of data/selfplay/19x19/game-0000.sgf.
    let middle_game = r#"[["B","M3"],["W","C9"],["B","O4"],["W","P3"],["B","P17"],["W","C17"],["B","L16"],["W","E3"],["B","R16"],["W","D5"],["B","R3"],["W","O3"],["B","R6"],["W","J17"],["B","J15"],["W","F17"],["B","R10"],["W","J4"],["B","J2"],["W","M5"],["B","G14"],["W","N8"],["B","J3"],["W","H4"],["B","F12"],["W","P10"],["B","P12"],["W","F10"],["B","H11"],["W","H10"],["B","J10"],["W","H9"],["B","L10"],["W","O11"],["B","L8"],["W","P8"],["B","O12"],["W","R9"],["B","S9"],["W","L17"],["B","M17"],["W","L18"],["B","Q9"],["W","N11"],["B","M13"],["W","L11"],["B","M11"],["W","N10"],["B","M10"],["W","M9"],["B","L9"],["W","O19"],["B","R8"],["W","J7"],["B","D12"],["W","C14"],["B","E14"],["W","L7"],["B","E10"],["W","E9"]]"#;
    let leads: Vec<f64> = ["1", "2", "3"]
        .iter()
        .map(|seed| root_lead(seed, middle_game, 400))
        .collect();
    let spread = leads.iter().fold(f64::MIN, |a, &b| a.max(b))
        - leads.iter().fold(f64::MAX, |a, &b| a.min(b));
    assert!(spread <= 1.5, "{leads:?}");
    // The empty board at KaTrain's first 25 visits: within 5 points of
    // even (the playouts' median read +17.5 for seed 1).
    for seed in ["1", "2", "3"] {
        let lead = root_lead(seed, "[]", 25);
        assert!(lead.abs() <= 5.0, "seed {seed}: {lead}");
    }
}

/// KaTrain's analysis config (katrain/KataGo/analysis_config.cfg), its
/// keys and values, with KataGo's comment style.
const KATRAIN_CONFIG: &str = "# Config for KataGo analysis, as KaTrain ships it
logDir = analysis_logs
reportAnalysisWinratesAs = BLACK
conservativePass = true
maxVisits = 500
numAnalysisThreads = 2
numSearchThreads = 1
nnMaxBatchSize = 96
nnCacheSizePowerOfTwo = 20
nnMutexPoolSizePowerOfTwo = 16
nnRandomize = true
";

/// A KaTrain query (katrain/core/engine.py request_analysis), its fields
/// as KaTrain fills them for a 9x9 game, with `settings` as its
/// overrideSettings.
fn katrain_query(id: &str, max_visits: Option<u64>, settings: &str) -> String {
    let visits = max_visits.map_or(String::new(), |n| format!(r#""maxVisits":{n},"#));
    format!(
        r#"{{"rules":"japanese","priority":0,"analyzeTurns":[2],{visits}"komi":6.5,"boardXSize":9,"boardYSize":9,"includeOwnership":true,"includeMovesOwnership":true,"includePolicy":true,"initialStones":[],"initialPlayer":"B","moves":[["B","E5"],["W","C3"]],"overrideSettings":{settings},"id":"{id}"}}"#
    )
}

fn number(value: &Value, key: &str) -> f64 {
    value[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is a number in {value}"))
}

/// The final answer among a query's lines.
fn answer(lines: &[Value]) -> &Value {
    lines
        .iter()
        .find(|l| l.get("rootInfo").is_some() && l["isDuringSearch"] == false)
        .unwrap_or_else(|| panic!("no answer in {lines:?}"))
}

#[test]
fn katrain_starts_hane_with_katagos_command_line_and_settings() {
    let dir = TempDir::new("katrain-cfg");
    let config = dir.file("analysis_config.cfg", KATRAIN_CONFIG.as_bytes());
    let config = config.to_string_lossy().to_string();
    let data = dir
        .path()
        .join("katrain-data")
        .to_string_lossy()
        .to_string();
    // The model is named, as KaTrain names KataGo's, and does not exist.
    let override_config = format!("homeDataDir={data}");
    let mut client = Client {
        engine: Gtp::start_with(&[
            "analysis",
            "-model",
            "/nowhere/kata1-b18c384nbt.bin.gz",
            "-config",
            &config,
            "-override-config",
            &override_config,
            "-quit-without-waiting",
            "--seed",
            "1",
        ]),
    };
    // The config's maxVisits (500) when the query gives none.
    client.send(&katrain_query(
        "QUERY:1",
        None,
        r#"{"reportAnalysisWinratesAs":"BLACK","wideRootNoise":0.04}"#,
    ));
    let lines = client.answer_to("QUERY:1");
    let first = answer(&lines);
    let visits = number(&first["rootInfo"], "visits");
    assert!((500.0..520.0).contains(&visits), "{visits} visits");
    // wideRootNoise is named once, with why; reportAnalysisWinratesAs is
    // used. (The rules' warning says japanese is played as Tromp-Taylor.)
    let warned: Vec<&Value> = warnings(&lines)
        .into_iter()
        .filter(|w| w["field"] == "overrideSettings")
        .collect();
    assert_eq!(warned.len(), 1, "{warned:?}");
    let text = warned[0]["warning"].as_str().unwrap_or_default();
    assert!(text.contains("wideRootNoise"), "{text}");
    assert!(!text.contains("reportAnalysisWinratesAs"), "{text}");

    // overrideSettings' maxVisits, and the query's own over it.
    client.send(&katrain_query("QUERY:2", None, r#"{"maxVisits":40}"#));
    let visits = number(&answer(&client.answer_to("QUERY:2"))["rootInfo"], "visits");
    assert!((40.0..60.0).contains(&visits), "{visits} visits");
    client.send(&katrain_query("QUERY:3", Some(30), r#"{"maxVisits":400}"#));
    let visits = number(&answer(&client.answer_to("QUERY:3"))["rootInfo"], "visits");
    assert!((30.0..50.0).contains(&visits), "{visits} visits");

    // KaTrain's time limit: maxTime bounds a search of ten million visits.
    let start = Instant::now();
    client.send(&katrain_query(
        "QUERY:4",
        Some(10_000_000),
        r#"{"maxTime":0.3,"wideRootNoise":0.04}"#,
    ));
    let lines = client.answer_to("QUERY:4");
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "maxTime 0.3 took {:?}",
        start.elapsed()
    );
    assert!(number(&answer(&lines)["rootInfo"], "visits") < 10_000_000.0);

    // The point of view, per query: the same search seen by either side.
    let white = katrain_query("W", Some(50), r#"{"reportAnalysisWinratesAs":"WHITE"}"#);
    let black = katrain_query("B", Some(50), r#"{"reportAnalysisWinratesAs":"BLACK"}"#);
    client.send(&white);
    let white = number(&answer(&client.answer_to("W"))["rootInfo"], "winrate");
    client.send(&black);
    let black = number(&answer(&client.answer_to("B"))["rootInfo"], "winrate");
    assert!((white + black - 1.0).abs() < 1e-3, "{white} + {black}");

    // A value a setting cannot take is the query's error, as in KataGo.
    client.send(&katrain_query("BAD", None, r#"{"maxVisits":0}"#));
    let lines = client.answer_to("BAD");
    assert_eq!(
        lines.last().map(|l| &l["field"]),
        Some(&Value::from("overrideSettings"))
    );

    let (status, stderr) = client.engine.close();
    assert!(status.success(), "{status}: {stderr}");
    // stderr says which config keys are not used, and why.
    for key in [
        "nnMaxBatchSize",
        "logDir",
        "homeDataDir",
        "conservativePass",
    ] {
        assert!(
            stderr.contains(&format!("config key {key} not used:")),
            "{key} in {stderr}"
        );
    }
    assert!(stderr.contains("runs on the CPU"), "{stderr}");
    assert!(!stderr.contains("maxVisits"), "{stderr}");
}

#[test]
fn katagos_gtp_command_line_starts_the_gtp_engine() {
    let dir = TempDir::new("katago-gtp-cfg");
    let config = dir.file(
        "gtp.cfg",
        b"maxVisits = 30\nnumSearchThreads = 1\nponderingEnabled = false\nrules = tromp-taylor\n\
nnCacheSizePowerOfTwo = 20\n",
    );
    let config = config.to_string_lossy().to_string();
    let mut gtp = Gtp::start_with(&[
        "--seed",
        "1",
        "-v",
        "gtp",
        "-model",
        "model.bin.gz",
        "-config",
        &config,
        "-override-config",
        "maxVisits=40",
    ]);
    assert_eq!(gtp.ok("name"), "hane");
    gtp.ok("boardsize 9");
    gtp.ok("clear_board");
    gtp.ok("genmove b");
    let (status, stderr) = gtp.close();
    assert!(status.success(), "{status}: {stderr}");
    // The override's 40 playouts over the file's 30, as in KataGo (the
    // smaller of the two was searched).
    assert!(stderr.contains("at most 40 playouts"), "{stderr}");
    assert!(
        stderr.contains("config key nnCacheSizePowerOfTwo not used"),
        "{stderr}"
    );
}

/// KataGo's gtp_example.cfg gives the rules either as `rules = ...` or as
/// single keys (koRule, scoringRule, taxRule, multiStoneSuicideLegal, ...),
/// never both. The single keys were "no setting of KataGo's or hane's" and
/// dropped; they set the rules as `rules` does.
#[test]
fn katagos_single_rule_keys_set_the_rules() {
    let dir = TempDir::new("katago-single-rules");
    let config = dir.file(
        "gtp.cfg",
        b"numSearchThreads = 1\nkoRule = SITUATIONAL\nmultiStoneSuicideLegal = false\n",
    );
    let config = config.to_string_lossy().to_string();
    let mut gtp = Gtp::start_with(&["gtp", "-config", &config]);
    let rules = gtp.ok("kata-get-rules");
    assert!(rules.contains(r#""ko":"SITUATIONAL""#), "{rules}");
    assert!(rules.contains(r#""suicide":false"#), "{rules}");
    let record = gtp.ok("printsgf");
    assert!(
        record.contains("RU[Tromp-Taylor, situational superko, suicide forbidden]"),
        "{record}"
    );
    let (status, stderr) = gtp.close();
    assert!(status.success(), "{status}: {stderr}");
    assert!(!stderr.contains("koRule"), "{stderr}");
    assert!(!stderr.contains("multiStoneSuicideLegal"), "{stderr}");
    // Both forms at once are refused, as KataGo refuses them.
    let output = common::start_up(&[
        "gtp",
        "-override-config",
        "rules=tromp-taylor,koRule=SIMPLE",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot both be given"), "{stderr}");
}

/// KataGo's maxTime caps every move, a clocked one too: with maxTime 0.3
/// and `time_settings 600 0 0`, 9x9 moves took 7-9 s.
#[test]
fn katagos_max_time_caps_a_clocked_move() {
    let mut gtp = Gtp::start_with(&["gtp", "-override-config", "maxTime=0.3,numSearchThreads=1"]);
    gtp.ok("boardsize 9");
    gtp.ok("time_settings 600 0 0");
    let start = std::time::Instant::now();
    gtp.ok("genmove b");
    let took = start.elapsed();
    assert!(took < std::time::Duration::from_secs(2), "{took:?}");
}

#[test]
fn katagos_misspelt_or_bad_settings_are_refused_at_start_up() {
    for (args, expected) in [
        (
            vec!["analysis", "-override-config", "maxVisits=0"],
            "maxVisits = 0",
        ),
        (
            vec!["analysis", "-config", "/nowhere/x.cfg"],
            "cannot read the config file",
        ),
        (
            vec!["gtp", "-override-config", "rules=nonsense"],
            "rules = nonsense",
        ),
        // Refused as --threads 100000 is, not capped at 1024 in silence.
        (
            vec!["analysis", "-override-config", "numSearchThreads=100000"],
            "numSearchThreads = 100000: expected a whole number from 1 to 1024",
        ),
        (
            vec!["gtp", "-override-config", "numAnalysisThreads=5000"],
            "numAnalysisThreads = 5000: expected a whole number from 1 to 1024",
        ),
    ] {
        let output = common::start_up(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

/// The root visits of `hane analysis` started with `args`, for a query
/// with `max_visits` and `settings` as its overrideSettings.
fn visits_searched(args: &[&str], max_visits: Option<u64>, settings: &str) -> f64 {
    let mut client = Client::start(args);
    client.send(&katrain_query("V", max_visits, settings));
    let visits = number(&answer(&client.answer_to("V"))["rootInfo"], "visits");
    client.finish();
    visits
}

#[test]
fn max_visits_follows_katagos_precedence() {
    let dir = TempDir::new("max-visits-precedence");
    let path = |name: &str, text: &str| {
        dir.file(name, text.as_bytes())
            .to_string_lossy()
            .to_string()
    };
    let fifty = path("fifty.cfg", "maxVisits = 50\n");
    let ninety = path("ninety.cfg", "maxVisits = 90\n");
    let near = |visits: f64, asked: f64| (asked..asked + 20.0).contains(&visits);
    // A later file over an earlier one (the smaller won: 50).
    let visits = visits_searched(&["-config", &fifty, "-config", &ninety], None, "{}");
    assert!(near(visits, 90.0), "{visits} visits");
    // -override-config over the files.
    let args = ["-config", &fifty, "-override-config", "maxVisits=70"];
    let visits = visits_searched(&args, None, "{}");
    assert!(near(visits, 70.0), "{visits} visits");
    // In a query, its own maxVisits over overrideSettings', which is over
    // the config's; an override's maxPlayouts bounds either.
    let visits = visits_searched(&["-config", &fifty], Some(80), r#"{"maxVisits":64}"#);
    assert!(near(visits, 80.0), "{visits} visits");
    let visits = visits_searched(&["-config", &fifty], None, r#"{"maxVisits":64}"#);
    assert!(near(visits, 64.0), "{visits} visits");
    let settings = r#"{"maxVisits":64,"maxPlayouts":30}"#;
    let visits = visits_searched(&["-config", &fifty], Some(80), settings);
    assert!(near(visits, 30.0), "{visits} visits");
}

#[test]
fn config_files_that_are_not_plain_files_are_refused_at_once() {
    use std::os::unix::ffi::OsStrExt;
    let dir = TempDir::new("config-not-a-file");
    let fifo = dir.path().join("fifo.cfg");
    let name = std::ffi::CString::new(fifo.as_os_str().as_bytes()).expect("a path");
    // SAFETY: a valid NUL-terminated path; mkfifo only creates the node.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    let fifo = fifo.to_string_lossy().to_string();
    let included = dir.file("includes.cfg", format!("@include {fifo}\n").as_bytes());
    let included = included.to_string_lossy().to_string();
    for (tool, path) in [
        ("analysis", "/dev/zero"),
        ("analysis", fifo.as_str()),
        ("gtp", "/dev/zero"),
        ("analysis", included.as_str()),
    ] {
        let mut child = common::spawn_hane(&[tool, "-config", path]);
        let status = common::wait_bounded(&mut child, Duration::from_secs(10), path);
        let stderr = common::stderr_of(&mut child);
        assert_eq!(status.code(), Some(2), "{path}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{path}: {stderr}");
        assert!(stderr.contains("not a file"), "{path}: {stderr}");
    }
}

#[test]
fn a_config_file_included_twice_is_refused() {
    let dir = TempDir::new("config-includes");
    // Four files of 64 @include lines of the next: 16.7 million reads.
    dir.file("level4.cfg", b"maxVisits = 10\n");
    for level in 1..4 {
        let line = format!("@include level{}.cfg\n", level + 1);
        dir.file(&format!("level{level}.cfg"), line.repeat(64).as_bytes());
    }
    let top = dir.path().join("level1.cfg").to_string_lossy().to_string();
    let started = Instant::now();
    let output = common::start_up(&["analysis", "-config", &top]);
    assert!(started.elapsed() < Duration::from_secs(10));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("level4.cfg: included twice"), "{stderr}");
    // A file that includes itself.
    let itself = dir.file("itself.cfg", b"@include itself.cfg\n");
    let output = common::start_up(&["gtp", "-config", &itself.to_string_lossy()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("itself.cfg: included twice"), "{stderr}");
    // One file included by two others is read once, refused the second time.
    dir.file("shared.cfg", b"maxVisits = 10\n");
    dir.file("a.cfg", b"@include shared.cfg\n");
    let both = dir.file("both.cfg", b"@include a.cfg\n@include shared.cfg\n");
    let output = common::start_up(&["gtp", "-config", &both.to_string_lossy()]);
    assert_eq!(output.status.code(), Some(2));
}

/// Lizzie's check (featurecat/lizzie, Leelaz.java parseLine): a `name`
/// starting with "KataGo" is KataGo; otherwise the `version` answer's
/// first word is split at dots, and its second part must be a whole
/// number of at least 15 (Leela Zero 0.15), else Lizzie says hane is too
/// old (and a version with no second part throws).
fn lizzie_accepts(name: &str, version: &str) -> bool {
    if name.starts_with("KataGo") {
        return true;
    }
    let word = version.split(' ').next().unwrap_or_default();
    word.split('.')
        .nth(1)
        .and_then(|minor| minor.parse::<i32>().ok())
        .is_some_and(|minor| minor >= 15)
}

#[test]
fn lizzie_q5go_and_sabaki_start_hane_without_a_message() {
    let mut gtp = Gtp::start();
    // Lizzie's start-up: numbered commands, then its analysis command
    // (Leela Zero's, which Lizzie sends to an engine that is not KataGo).
    for (i, command) in ["name", "version", "boardsize 19", "komi 7.5"]
        .iter()
        .enumerate()
    {
        gtp.write_raw(format!("{} {command}\n", i + 1).as_bytes());
    }
    let answers: Vec<String> = (0..4).map(|_| gtp.read_response()).collect();
    assert_eq!(answers[0], "=1 hane");
    let version = answers[1].strip_prefix("=2 ").expect("version answered");
    assert!(
        lizzie_accepts("hane", version),
        "Lizzie reads version {version} as a Leela Zero older than 0.15"
    );
    assert_eq!(answers[2].trim_end(), "=3");
    assert_eq!(answers[3].trim_end(), "=4");
    // The version is the crate's, as `hane --version` says.
    assert_eq!(version, env!("CARGO_PKG_VERSION"));

    // q5Go (qgtp.cpp startup_part2 to part8): protocol version "2", then
    // the analysis commands it looks for.
    assert_eq!(gtp.ok("protocol_version"), "2");
    gtp.ok("boardsize 9");
    gtp.ok("clear_board");
    gtp.ok("komi 7.5");
    for command in ["lz-analyze", "kata-analyze", "kata-set-rules"] {
        assert_eq!(gtp.ok(&format!("known_command {command}")), "true");
    }
    // Sabaki (enginesyncer.js): name, version, protocol_version and
    // list_commands, whose lines it keeps.
    let commands = gtp.ok("list_commands");
    for command in ["name", "version", "genmove", "lz-analyze", "kata-analyze"] {
        assert!(commands.lines().any(|l| l == command), "{command}");
    }
    let (status, stderr) = gtp.close();
    assert!(status.success(), "{status}: {stderr}");
}

#[test]
fn lizzies_version_check_reads_versions_as_lizzie_does() {
    assert!(!lizzie_accepts("hane", "0.1.0"));
    assert!(!lizzie_accepts("hane", "1.0.0"));
    assert!(lizzie_accepts("Leela Zero", "0.17"));
    assert!(lizzie_accepts("KataGo", "1.0"));
}

#[test]
fn katrains_thread_counts_give_every_visit_to_the_root() {
    // KaTrain's own settings search with 8 threads and 12 positions at
    // once; its first query asks for 25 visits. They reached the root as
    // 1 (KaTrain showed "B 100.0%, B+50.0" on the empty board).
    let dir = TempDir::new("katrain-threads");
    let config = KATRAIN_CONFIG
        .replace("numSearchThreads = 1", "numSearchThreads = 8")
        .replace("numAnalysisThreads = 2", "numAnalysisThreads = 12");
    let config = dir.file("analysis_config.cfg", config.as_bytes());
    let config = config.to_string_lossy().to_string();
    let mut client = Client {
        engine: Gtp::start_with(&["analysis", "-config", &config, "--seed", "1"]),
    };
    let middle_game = r#"[["B","Q16"],["W","D4"],["B","Q3"],["W","D16"],["B","R5"],["W","C14"],["B","K10"],["W","F3"]]"#;
    for (id, moves, visits) in [
        ("empty25", "[]", 25),
        ("empty200", "[]", 200),
        ("middle25", middle_game, 25),
        ("middle200", middle_game, 200),
    ] {
        client.send(&format!(
            r#"{{"id":"{id}","moves":{moves},"rules":"chinese","komi":7.5,"boardXSize":19,"boardYSize":19,"maxVisits":{visits}}}"#
        ));
        let lines = client.answer_to(id);
        let root = number(&answer(&lines)["rootInfo"], "visits");
        assert!(root >= 0.9 * visits as f64, "{id}: {root} of {visits}");
    }
    client.engine.close_stdin();
    let (status, stderr) = client.engine.close();
    assert!(status.success());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores < 8 {
        assert!(
            stderr.contains("numSearchThreads = 8")
                && stderr.contains(&format!("searching with {cores} threads")),
            "{stderr}"
        );
    }
}
