//! Drives `hane analysis` as a client of KataGo's JSON analysis engine
//! does: one JSON query a line in, JSON lines out.

use std::time::Duration;

use serde_json::Value;

use super::Gtp;

/// How long to wait for the rest of the output once the input has ended.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(120);

/// A running `hane analysis` and the JSON lines it writes.
pub struct Client {
    pub engine: Gtp,
}

impl Client {
    /// `hane analysis --seed 1` with `args`.
    pub fn start(args: &[&str]) -> Client {
        let mut all = vec!["analysis", "--seed", "1"];
        all.extend_from_slice(args);
        Client {
            engine: Gtp::start_with(&all),
        }
    }

    pub fn send(&mut self, query: &str) {
        assert!(!query.contains('\n'), "one line a query");
        self.engine.write_raw(format!("{query}\n").as_bytes());
    }

    pub fn receive(&mut self) -> Value {
        let line = self.engine.read_line();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// Responses until `done` says the last one has come.
    pub fn receive_until(&mut self, mut done: impl FnMut(&Value) -> bool) -> Vec<Value> {
        let mut responses = Vec::new();
        loop {
            let response = self.receive();
            let finished = done(&response);
            responses.push(response);
            if finished {
                return responses;
            }
        }
    }

    /// The lines up to and including the final analysis of `id` (an error
    /// about `id` ends them too): its warnings, then its answer.
    pub fn answer_to(&mut self, id: &str) -> Vec<Value> {
        self.receive_until(|r| {
            r["id"] == id && (r["isDuringSearch"] == false || r.get("error").is_some())
        })
    }

    /// Ends the input and returns every line written until hane exits.
    pub fn finish(mut self) -> Vec<Value> {
        self.engine.close_stdin();
        let mut responses = Vec::new();
        while let Some(line) = self.engine.stray_output(DRAIN_TIMEOUT) {
            let value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
            responses.push(value);
        }
        let (status, stderr) = self.engine.close();
        assert!(status.success(), "{status}: {stderr}");
        responses
    }
}

/// A query's warnings (those that came before its answer).
pub fn warnings(lines: &[Value]) -> Vec<&Value> {
    lines
        .iter()
        .filter(|l| l.get("warning").is_some())
        .collect()
}

/// The final answer among `lines`, which must be an analysis.
pub fn final_answer(lines: &[Value]) -> &Value {
    let last = lines.last().expect("a line");
    assert!(
        last.get("moveInfos").is_some(),
        "not an analysis: {lines:?}"
    );
    last
}
