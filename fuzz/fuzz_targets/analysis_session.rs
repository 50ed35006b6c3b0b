//! Lines of KataGo's JSON analysis protocol through `hane analysis`, as its
//! reader and worker run them (`run_analysis` on the bytes, one worker, one
//! search thread): no panic; every output line one JSON object, an answer,
//! an error, a warning or an action's echo; every answer with its root.
//! A search that panicked would show as an error naming the panic (the
//! worker's guard), so none may. Searches are kept short: a `maxVisits`
//! over MAX_VISITS is cut to it, on the line as hane will read it.
#![no_main]

use std::sync::{Arc, OnceLock};

use hane::{
    run_analysis, shipped_evaluator, AnalysisOptions, Evaluator, SharedEvaluator, PlayerConfig, ReportAs,
    SearchParams,
};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// Enough lines for queries, actions and terminate between them.
const MAX_LINES: usize = 16;
/// Playouts a position at most: a query may ask for 10^18.
const MAX_VISITS: u64 = 16;
/// UTF-8's byte-order mark, which hane skips before the first line.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// The shipped network, made once for the whole run: making it reads the
/// weights and times an evaluation, which under the sanitizer cost most of
/// each input's time (one input a second). Its cache is exact, so what one
/// input leaves in it changes no answer to the next.
fn evaluator() -> Arc<SharedEvaluator> {
    static SHIPPED: OnceLock<Arc<SharedEvaluator>> = OnceLock::new();
    Arc::clone(SHIPPED.get_or_init(shipped_evaluator))
}

fn options() -> AnalysisOptions {
    AnalysisOptions {
        player: PlayerConfig {
            threads: 1,
            seed: Some(1),
            search: SearchParams {
                max_nodes: 10_000,
                ..SearchParams::default()
            },
            ..PlayerConfig::with_evaluator(Some(evaluator()))
        },
        max_visits: 8,
        max_time: None,
        analysis_threads: 1,
        report_as: ReportAs::Black,
        quit_without_waiting: false,
    }
}

/// The line with its `maxVisits` cut to MAX_VISITS (and set where
/// `overrideSettings` could set it) where hane would read one (hane reads a
/// line as UTF-8, lossily, trimmed); otherwise as it is.
fn capped(line: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(line);
    let Ok(Value::Object(mut map)) = serde_json::from_str::<Value>(text.trim()) else {
        return line.to_vec();
    };
    if map
        .get("maxVisits")
        .and_then(Value::as_u64)
        .is_some_and(|visits| visits > MAX_VISITS)
    {
        map.insert("maxVisits".to_string(), MAX_VISITS.into());
    }
    // overrideSettings may raise the search's visits; the query's own
    // maxVisits wins over it.
    if map.contains_key("overrideSettings") && !map.contains_key("maxVisits") {
        map.insert("maxVisits".to_string(), MAX_VISITS.into());
    }
    serde_json::to_vec(&Value::Object(map)).unwrap_or_default()
}

fuzz_target!(|input: &[u8]| {
    let input = input.strip_prefix(BYTE_ORDER_MARK).unwrap_or(input);
    let mut lines = Vec::new();
    for line in input.split(|&byte| byte == b'\n').take(MAX_LINES) {
        lines.extend_from_slice(&capped(line));
        lines.push(b'\n');
    }
    let mut output = Vec::new();
    run_analysis(&options(), lines.as_slice(), &mut output).expect("reading a slice");
    let text = String::from_utf8(output).expect("JSON is UTF-8");
    for line in text.lines() {
        let value: Value = serde_json::from_str(line).expect("a JSON line");
        let object = value.as_object().expect("a JSON object");
        if let Some(error) = object.get("error") {
            let error = error.as_str().expect("an error's text");
            assert!(!error.starts_with("internal error"), "{line}");
        } else if object.contains_key("moveInfos") {
            assert!(object.contains_key("rootInfo"), "{line}");
            assert!(object.contains_key("turnNumber"), "{line}");
        } else {
            assert!(
                object.contains_key("warning")
                    || object.contains_key("action")
                    || object.contains_key("noResults"),
                "{line}"
            );
        }
    }
});
