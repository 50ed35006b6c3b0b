//! What README.md and the reference pages in docs/ show that a change can
//! make untrue is checked here: README's sample session (replayed with the
//! command line it gives), its headline strength figures against
//! docs/strength.md, its contents line against its sections and its length;
//! docs/analysis.md's `hane analysis` sample answer and its sample of the
//! protocol's actions (which names the network and its heads), and what it
//! says a move's `prior` is; the number of gogui-regress tests
//! docs/clients.md quotes; docs/architecture.md's Layout against the files
//! under src/.

mod common;

use std::path::Path;

use common::json_analysis::Client;
use common::Gtp;
use serde_json::Value;

fn readme() -> String {
    doc("README.md")
}

/// A page of the repository's documentation, by its path from the root.
fn doc(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The first fenced block after the line containing `marker`.
fn block_after<'a>(text: &'a str, marker: &str) -> &'a str {
    let start = text
        .find(marker)
        .unwrap_or_else(|| panic!("README has no {marker:?}"));
    let rest = &text[start..];
    let open = rest.find("\n```").expect("a fenced block") + 4;
    let body = &rest[open..];
    let body = &body[body.find('\n').expect("the fence's line") + 1..];
    &body[..body.find("```").expect("the block's end")]
}

#[test]
fn the_sample_session_is_what_hane_answers() {
    let text = readme();
    let marker = "A short session, as `";
    let line = &text[text.find(marker).expect("the session's introduction") + marker.len()..];
    let command = &line[..line.find('`').expect("the command's end")];
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    assert!(
        args.contains(&"--seed") && args.contains(&"--playouts"),
        "a session the same on every run: {command}"
    );
    let session = block_after(&text, marker);
    let mut gtp = Gtp::start_with(&args);
    let mut exchanges = 0;
    for exchange in session.split("\n\n").filter(|e| !e.trim().is_empty()) {
        let (command, expected) = exchange
            .trim_matches('\n')
            .split_once('\n')
            .unwrap_or_else(|| panic!("a command and its answer: {exchange:?}"));
        let answer = gtp.send(command);
        assert_eq!(
            answer.trim_end(),
            expected.trim_end(),
            "README's sample session, `{command}` (update README.md if the search changed)"
        );
        exchanges += 1;
    }
    assert!(exchanges >= 3, "{session}");
}

#[test]
fn the_regression_counts_are_those_of_gtp_tests() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/gtp-tests"));
    let mut files = 0;
    let mut tests = 0;
    for entry in std::fs::read_dir(dir).expect("gtp-tests") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "tst") {
            files += 1;
            let text = std::fs::read_to_string(&path).expect("a .tst file");
            // A numbered command is a test (gogui-regress's reading).
            tests += text
                .lines()
                .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
                .count();
        }
    }
    let text = doc("docs/clients.md");
    let claim = format!("The {tests} tests in {files} files");
    assert!(
        text.contains(&claim),
        "docs/clients.md should say {claim:?}"
    );
    // summary.dat's header, then its row.
    let header = text.find("#Tests\tFAIL").expect("the summary.dat sample");
    let row = text[header..].lines().nth(1).expect("the summary's row");
    let columns: Vec<&str> = row.split('\t').collect();
    assert_eq!(columns[0], tests.to_string(), "#Tests in {row:?}");
    assert_eq!(columns[4], tests.to_string(), "pass in {row:?}");
}

/// The paragraph that starts at `marker` in `text`, up to the blank line.
fn paragraph<'a>(text: &'a str, marker: &str, file: &str) -> &'a str {
    let start = text
        .find(marker)
        .unwrap_or_else(|| panic!("{file} has no {marker:?}"));
    let rest = &text[start..];
    &rest[..rest.find("\n\n").unwrap_or(rest.len())]
}

/// Every word with a digit in it, stripped of the punctuation around it:
/// `12.90`, `3k`, `19x19`, `2,000`, `63`.
fn figures(paragraph: &str) -> Vec<&str> {
    paragraph
        .split(|c: char| c.is_whitespace() || "()[]:;".contains(c))
        .map(|w| w.trim_end_matches(['.', ',']))
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
        .collect()
}

#[test]
fn the_headline_strength_figures_are_those_of_docs_strength() {
    let marker = "**How strong is it.**";
    let text = readme();
    let strength =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/strength.md"))
            .expect("docs/strength.md");
    let ours = figures(paragraph(&text, marker, "README.md"));
    let theirs = figures(paragraph(&strength, marker, "docs/strength.md"));
    // The headline gives match results ("N of M" games): several of them.
    let results = regex::Regex::new(r"\d+ of \d+").expect("regex");
    let headline = paragraph(&text, marker, "README.md");
    assert!(
        results.find_iter(headline).count() >= 4,
        "README's headline gives its match results: {headline}"
    );
    assert_eq!(
        ours, theirs,
        "README.md's \"How strong is it\" and docs/strength.md's (its \"In short\") \
         give the same figures in the same order: change both together"
    );
}

/// The fields of `shown` (README's sample, shortened) with what hane
/// answered in `real`: every value shown is the one answered, and a list
/// shown whole or cut short (`moveInfos`) is compared item by item.
fn assert_shown(shown: &Value, real: &Value, path: &str) {
    match (shown, real) {
        (Value::Object(shown), Value::Object(real)) => {
            for (key, value) in shown {
                let answered = real
                    .get(key)
                    .unwrap_or_else(|| panic!("hane's answer has no {path}.{key}"));
                assert_shown(value, answered, &format!("{path}.{key}"));
            }
        }
        (Value::Array(shown), Value::Array(real)) if path.ends_with("moveInfos") => {
            assert!(shown.len() <= real.len(), "{path}: {shown:?}");
            for (i, (s, r)) in shown.iter().zip(real).enumerate() {
                assert_shown(s, r, &format!("{path}[{i}]"));
            }
        }
        _ => assert_eq!(
            shown, real,
            "README's `hane analysis` sample, {path} (update README.md if the search changed)"
        ),
    }
}

#[test]
fn the_json_analysis_sample_is_what_hane_answers() {
    let text = doc("docs/analysis.md");
    // The sample command: `echo 'QUERY' \` and `  | hane analysis ARGS`.
    let start = text.find("echo '{").expect("the sample query's `echo`");
    let command = &text[start..start + text[start..].find("\n```").expect("its block's end")];
    let query = command
        .split('\'')
        .nth(1)
        .expect("the query between quotes");
    let line = command.lines().nth(1).expect("the command's second line");
    let args: Vec<&str> = line
        .trim_start_matches([' ', '|'])
        .split_whitespace()
        .collect();
    assert_eq!(args[..2], ["hane", "analysis"], "{line}");
    let args = &args[1..];
    assert!(
        args.contains(&"--seed") && args.contains(&"--playouts"),
        "an answer the same on every run: {line}"
    );
    let shown: Value =
        serde_json::from_str(block_after(&text, "answers three lines, one for each turn").trim())
            .expect("the sample answer is JSON");
    let mut client = Client {
        engine: Gtp::start_with(args),
    };
    client.send(query);
    let answers = client.finish();
    let turn = shown["turnNumber"].clone();
    let real = answers
        .iter()
        .find(|a| a["turnNumber"] == turn)
        .unwrap_or_else(|| panic!("no answer for turn {turn}: {answers:?}"));
    assert_shown(&shown, real, "");
}

/// GitHub's anchor for a heading: lower case, spaces as hyphens, other
/// punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

#[test]
fn the_contents_line_links_every_section_in_order() {
    let text = readme();
    let mut in_fence = false;
    let mut sections = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence && line.starts_with("## ") {
            sections.push(anchor(&line[3..]));
        }
    }
    let contents = paragraph(&text, "Contents: ", "README.md");
    let links: Vec<String> = contents
        .split("](#")
        .skip(1)
        .map(|rest| rest[..rest.find(')').expect("a link's end")].to_string())
        .collect();
    assert_eq!(
        links, sections,
        "README's contents line links every `##` section, in order"
    );
}

/// Every `.rs` file under `dir`, as paths relative to `src/`.
fn sources(dir: &Path, relative: &str, files: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let here = if relative.is_empty() {
            name.clone()
        } else {
            format!("{relative}/{name}")
        };
        if path.is_dir() {
            sources(&path, &here, files);
        } else if name.ends_with(".rs") {
            files.push(here);
        }
    }
}

#[test]
fn the_layout_names_every_source_file() {
    let src = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src"));
    let mut files = Vec::new();
    sources(src, "", &mut files);
    let text = doc("docs/architecture.md");
    let layout = block_after(&text, "## Layout");
    let layout = &layout[..layout.find("\ngtp-tests/").expect("the src/ lines")];
    let architecture =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/architecture.md"))
            .expect("docs/architecture.md");
    let architecture = &architecture[..architecture.find("## Layout").expect("the Layout")];
    let mut names = Vec::new();
    for file in &files {
        let parts: Vec<&str> = file.split('/').collect();
        let name = parts[parts.len() - 1];
        names.push(name);
        if parts.len() > 1 {
            let folder = format!("{}/", parts[parts.len() - 2]);
            assert!(layout.contains(&folder), "the Layout names {folder}");
        }
        if name == "mod.rs" || name == "tests.rs" {
            continue;
        }
        assert!(layout.contains(name), "the Layout names src/{file}");
        // In a layer's table: the path below the layer (search/search.rs).
        let below = if parts.len() > 2 {
            parts[1..].join("/")
        } else {
            name.to_string()
        };
        assert!(
            architecture.contains(&format!("{below}`")),
            "docs/architecture.md names src/{file} as `{below}`"
        );
    }
    for word in layout.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')) {
        if let Some(stem) = word.strip_suffix(".rs") {
            assert!(
                names.contains(&word),
                "the Layout names {stem}.rs, which src/ does not have"
            );
        }
    }
}

/// The actions' sample (`query_version`, `clear_cache`, `query_models`),
/// replayed: each request line followed by hane's answer, which names the
/// built-in network and its heads, so README cannot say hane has no
/// network, or a network without a value head, while it has one.
#[test]
fn the_actions_sample_is_what_hane_answers() {
    let text = doc("docs/analysis.md");
    let sample = block_after(&text, "The first three as `hane analysis` answers them");
    let lines: Vec<&str> = sample.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(
        lines.len() >= 6 && lines.len() % 2 == 0,
        "requests, each with its answer: {sample}"
    );
    let mut client = Client::start(&[]);
    for pair in lines.chunks(2) {
        let shown: Value = serde_json::from_str(pair[1]).expect("the answer is JSON");
        client.send(pair[0]);
        assert_eq!(
            client.receive(),
            shown,
            "README's answer to {} (update README.md if hane's changed)",
            pair[0]
        );
    }
    assert!(
        sample.contains("a value head") && sample.contains("an ownership head"),
        "the heads README's sample names"
    );
    assert!(
        text.contains("The built-in network has a value head and an ownership head"),
        "docs/analysis.md says which heads the built-in network has, as query_models names them"
    );
}

/// docs/gtp.md says a move's `prior` is the policy network's probability,
/// normalised over the moves the tree considers: in an answer with
/// `includePolicy`, each move's `prior` is the `policy` at its vertex.
#[test]
fn a_moves_prior_is_the_network_policy_as_docs_gtp_says() {
    let text = doc("docs/gtp.md");
    assert!(
        text.contains("`prior` is the policy network's probability of the move"),
        "docs/gtp.md's account of `prior`"
    );
    let mut client = Client::start(&["--threads", "1"]);
    client.send(
        r#"{"id":"p","moves":[["B","D4"],["W","Q16"]],"rules":"tromp-taylor","komi":7.5,"boardXSize":19,"boardYSize":19,"maxVisits":60,"includePolicy":true}"#,
    );
    let answer = client.receive();
    let policy = answer["policy"].as_array().expect("policy");
    let moves = answer["moveInfos"].as_array().expect("moveInfos");
    assert!(!moves.is_empty(), "{answer}");
    let columns = "ABCDEFGHJKLMNOPQRST";
    for info in moves {
        let vertex = info["move"].as_str().expect("move");
        let index = if vertex == "pass" {
            19 * 19
        } else {
            let column = columns.find(&vertex[..1]).expect("a column");
            let row: usize = vertex[1..].parse().expect("a row");
            (19 - row) * 19 + column
        };
        let prior = info["prior"].as_f64().expect("prior");
        let from_policy = policy[index].as_f64().expect("policy value");
        assert!(
            (prior - from_policy).abs() < 1e-4,
            "{vertex}: prior {prior}, policy {from_policy}"
        );
    }
}

/// README is for a player, read in a few minutes: under 350 lines, the
/// references and records in docs/. (It had grown to 1,159.)
#[test]
fn readme_stays_short() {
    let lines = readme().lines().count();
    assert!(
        lines <= 350,
        "README.md has {lines} lines: move the detail to docs/"
    );
}

/// Every page README links to in docs/ is there.
#[test]
fn readme_links_name_pages_that_exist() {
    let text = readme();
    let mut links = 0;
    for rest in text.split("](docs/").skip(1) {
        let target = &rest[..rest.find([')', '#']).expect("a link's end")];
        assert!(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("docs")
                .join(target)
                .exists(),
            "README links docs/{target}, which is not there"
        );
        links += 1;
    }
    assert!(links >= 10, "{links} links to docs/");
}
