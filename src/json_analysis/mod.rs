//! `hane analysis`: KataGo's JSON analysis protocol (its
//! docs/Analysis_Engine.md), so that tools written for KataGo's analysis
//! engine (batch game reviews, analysis servers) can use hane. One JSON
//! query a line on stdin; one JSON response a line on stdout for each turn
//! analysed, written as each search finishes, in any order.
//!
//! A tool beside the protocol, on top of the two lower layers: it replays
//! each query's game with `game/` and searches with `player/`; it writes
//! JSON, never GTP.
//!
//! The reader (this thread) checks each query whole (`query`), then queues
//! one task per turn; `analysis_threads` workers take the tasks, highest
//! `priority` first and the earliest among equals, each searching one
//! position with a fresh `Player` (so a query's answer does not depend on
//! what ran before it: with one search thread and `--seed`, the same on
//! every run). `terminate` and `terminate_all` drop queued tasks (answered
//! `noResults`) and stop running ones, which answer with what they found.
//! At the end of the input the queued tasks are still analysed, unless
//! `quit_without_waiting`.

mod query;
mod query_text;
mod response;
mod settings;

use std::cmp::Ordering as CmpOrdering;
use std::collections::BinaryHeap;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

use log::{debug, error, info, warn};
use serde::Serialize;
use serde_json::{json, Value};

use crate::frontend::{panic_message, BoundedLines, LineEnd, MAX_LINE_BYTES};
use crate::player::{Budget, Player, PlayerConfig, SearchReport, SearchRequest, Watch};
use query::{Defaults, JsonRequest, Query};
use response::{analysis, ResponseSpec};

pub use settings::{
    parse_overrides, read_config_file, KataSettings, NotUsed, ReportAs, Setting, MAX_THREADS,
};

/// What `hane analysis` is asked to do.
#[derive(Clone, Debug)]
pub struct AnalysisOptions {
    /// Search threads per position (`threads`), seed and search settings.
    pub player: PlayerConfig,
    /// Playouts per position of a query that gives no `maxVisits`.
    pub max_visits: u64,
    /// Seconds per position at most (`maxTime`), unless the query says.
    pub max_time: Option<f64>,
    /// Positions searched at once.
    pub analysis_threads: usize,
    pub report_as: ReportAs,
    /// At the end of the input, stop at once instead of finishing the
    /// queued queries.
    pub quit_without_waiting: bool,
}

/// Serves the protocol on stdin and stdout until the input ends and every
/// query is answered.
/// Once stdout cannot be written the process exits, as GTP mode does: 0
/// where the client closed its end, 1 on any other write error. The
/// reading thread may wait on stdin for ever (a client that closes stdout
/// may keep stdin open), and no one is left to read an answer.
pub fn serve_analysis(options: &AnalysisOptions) -> io::Result<()> {
    serve(
        options,
        io::stdin().lock(),
        io::stdout(),
        WhenOutputGone::Exit,
    )
}

/// Serves the protocol on `input` and `output` until the input ends.
pub fn run_analysis(
    options: &AnalysisOptions,
    input: impl BufRead,
    output: impl Write + Send,
) -> io::Result<()> {
    serve(options, input, output, WhenOutputGone::ReadOn)
}

/// What becomes of the process once the output cannot be written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum WhenOutputGone {
    /// The searches stop and the input is read to its end, unanswered.
    ReadOn,
    /// The process exits.
    Exit,
}

fn serve(
    options: &AnalysisOptions,
    input: impl BufRead,
    output: impl Write + Send,
    when_gone: WhenOutputGone,
) -> io::Result<()> {
    let shared = Shared {
        options: options.clone(),
        state: Mutex::new(State::default()),
        wake: Condvar::new(),
        out: Mutex::new(Output {
            writer: output,
            broken: false,
        }),
        when_gone,
    };
    let defaults = Defaults {
        max_visits: options.max_visits,
        max_time: options.max_time,
        report_as: options.report_as,
    };
    info!(
        "hane analysis: {} position(s) at once, {} search thread(s) and a tree of at most {} nodes each, {} playouts a position unless maxVisits says",
        options.analysis_threads.max(1),
        options.player.threads.max(1),
        options.player.search.max_nodes,
        options.max_visits
    );
    std::thread::scope(|scope| {
        for _ in 0..options.analysis_threads.max(1) {
            scope.spawn(|| shared.work());
        }
        let result = shared.read_all(BoundedLines::new(input), defaults);
        shared.close();
        result
    })
}

/// One turn of one query, waiting or running.
struct QueuedTurn {
    query: Arc<Query>,
    turn: usize,
    priority: i64,
    /// Arrival order, for ties and for telling tasks apart.
    seq: u64,
}

impl PartialEq for QueuedTurn {
    fn eq(&self, other: &QueuedTurn) -> bool {
        self.seq == other.seq
    }
}

impl Eq for QueuedTurn {}

impl PartialOrd for QueuedTurn {
    fn partial_cmp(&self, other: &QueuedTurn) -> Option<CmpOrdering> {
        Some(self.cmp(other))
    }
}

impl Ord for QueuedTurn {
    /// The greatest is taken first: the highest priority, then the oldest.
    fn cmp(&self, other: &QueuedTurn) -> CmpOrdering {
        self.priority
            .cmp(&other.priority)
            .then(other.seq.cmp(&self.seq))
    }
}

/// A task a worker is searching, and its stop flag.
struct Running {
    id: String,
    turn: usize,
    seq: u64,
    stop: Arc<AtomicBool>,
}

#[derive(Default)]
struct State {
    queue: BinaryHeap<QueuedTurn>,
    running: Vec<Running>,
    next_seq: u64,
    /// No more input: the workers end once the queue is empty.
    closed: bool,
}

struct Output<W> {
    writer: W,
    /// The output is gone: nothing more is written.
    broken: bool,
}

struct Shared<W> {
    options: AnalysisOptions,
    state: Mutex<State>,
    wake: Condvar,
    out: Mutex<Output<W>>,
    when_gone: WhenOutputGone,
}

/// A lock whose holder panicked is still good: every change under these
/// locks is a single push or pop.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<W: Write + Send> Shared<W> {
    /// Writes one response line, whole, and flushes it.
    fn emit(&self, value: &impl Serialize) {
        let Ok(mut line) = serde_json::to_string(value) else {
            return;
        };
        line.push('\n');
        let mut out = lock(&self.out);
        if out.broken {
            return;
        }
        let written = out
            .writer
            .write_all(line.as_bytes())
            .and_then(|()| out.writer.flush());
        if let Err(e) = written {
            warn!("hane analysis: cannot write the output ({e}); stopping");
            out.broken = true;
            drop(out);
            self.stop_everything();
            if self.when_gone == WhenOutputGone::Exit {
                let closed = e.kind() == io::ErrorKind::BrokenPipe;
                if !closed {
                    error!("hane analysis: cannot write standard output: {e}");
                }
                log::logger().flush();
                std::process::exit(if closed { 0 } else { 1 });
            }
        }
    }

    /// Reads queries until the end of the input.
    fn read_all(
        &self,
        mut input: BoundedLines<impl BufRead>,
        defaults: Defaults,
    ) -> io::Result<()> {
        let mut line = Vec::new();
        loop {
            let end = input.read_into(&mut line)?;
            if end == LineEnd::Eof || lock(&self.out).broken {
                break;
            }
            // A longer query is refused whole.
            if end == LineEnd::TooLong {
                self.emit(&json!({
                    "error": format!("Request line longer than {MAX_LINE_BYTES} bytes, ignored")
                }));
                continue;
            }
            let text = String::from_utf8_lossy(&line);
            let text = text.trim();
            if text.is_empty() {
                continue;
            }
            let read = query::read(text, defaults);
            for message in &read.messages {
                self.emit(message);
            }
            match read.request {
                Some(JsonRequest::Analyze(query)) => self.enqueue(query),
                Some(JsonRequest::Echo(mut request)) => {
                    match request.get("action").and_then(Value::as_str) {
                        Some("query_version") => {
                            request.insert("version".into(), env!("CARGO_PKG_VERSION").into());
                            request.insert("git_hash".into(), "<omitted>".into());
                        }
                        Some("query_models") => {
                            request.insert("models".into(), self.models());
                        }
                        Some("clear_cache") => {
                            if let Some(evaluator) = &self.options.player.evaluator {
                                evaluator.clear();
                            }
                        }
                        _ => {}
                    }
                    self.emit(&request);
                }
                Some(JsonRequest::Terminate { request, id, turns }) => {
                    self.terminate(id.as_deref(), turns.as_deref(), &request)
                }
                None => {}
            }
        }
        Ok(())
    }

    /// hane's own "model" in the fields KataGo gives a network: tools
    /// read models[0] and fail on an empty list. Version 0: not a KataGo
    /// network format. The name says what the searches really evaluate
    /// with: the network in use, or none.
    fn models(&self) -> Value {
        let evaluator = match &self.options.player.evaluator {
            Some(evaluator) => format!("a network of {}", evaluator.description()),
            None => "no network (the pattern prior alone)".to_string(),
        };
        json!([{
            "name": concat!("hane-", env!("CARGO_PKG_VERSION")),
            "internalName": format!(
                "hane: a tree search over playouts on the CPU, {evaluator}"
            ),
            "maxBatchSize": 1,
            "usesHumanSLProfile": false,
            "version": 0,
            "usingFP16": "false",
        }])
    }

    fn enqueue(&self, query: Query) {
        debug!(
            "query {}: {} turn(s), {} playouts each",
            query.id,
            query.turns.len(),
            query.max_visits
        );
        let query = Arc::new(query);
        let mut state = lock(&self.state);
        for &(turn, priority) in &query.turns {
            let seq = state.next_seq;
            state.next_seq += 1;
            state.queue.push(QueuedTurn {
                query: Arc::clone(&query),
                turn,
                priority,
                seq,
            });
        }
        drop(state);
        self.wake.notify_all();
    }

    /// Drops the queued tasks of `id` (every id when None), only those of
    /// `turns` when given, and stops the running ones; echoes the request.
    fn terminate(&self, id: Option<&str>, turns: Option<&[usize]>, request: &impl Serialize) {
        let matches = |task_id: &str, turn: usize| {
            id.is_none_or(|id| id == task_id) && turns.is_none_or(|turns| turns.contains(&turn))
        };
        let mut state = lock(&self.state);
        let (dropped, kept): (Vec<QueuedTurn>, Vec<QueuedTurn>) = std::mem::take(&mut state.queue)
            .into_iter()
            .partition(|task| matches(&task.query.id, task.turn));
        state.queue = kept.into_iter().collect();
        for running in &state.running {
            if matches(&running.id, running.turn) {
                running.stop.store(true, Ordering::Relaxed);
            }
        }
        drop(state);
        self.emit(request);
        let mut dropped = dropped;
        dropped.sort_by_key(|task| task.seq);
        for task in dropped {
            self.emit(&json!({
                "id": task.query.id,
                "isDuringSearch": false,
                "noResults": true,
                "turnNumber": task.turn,
            }));
        }
    }

    /// The input has ended: the workers finish the queue (or, told to quit
    /// without waiting, drop it and stop) and end.
    fn close(&self) {
        if self.options.quit_without_waiting {
            self.stop_everything();
        }
        lock(&self.state).closed = true;
        self.wake.notify_all();
    }

    fn stop_everything(&self) {
        let mut state = lock(&self.state);
        state.queue.clear();
        for running in &state.running {
            running.stop.store(true, Ordering::Relaxed);
        }
    }

    /// A worker: takes tasks until the input has ended and none is left.
    fn work(&self) {
        while let Some((task, stop)) = self.next_task() {
            self.search(&task, &stop);
            lock(&self.state).running.retain(|r| r.seq != task.seq);
        }
    }

    fn next_task(&self) -> Option<(QueuedTurn, Arc<AtomicBool>)> {
        let mut state = lock(&self.state);
        loop {
            if let Some(task) = state.queue.pop() {
                let stop = Arc::new(AtomicBool::new(false));
                state.running.push(Running {
                    id: task.query.id.clone(),
                    turn: task.turn,
                    seq: task.seq,
                    stop: Arc::clone(&stop),
                });
                return Some((task, stop));
            }
            if state.closed {
                return None;
            }
            state = self
                .wake
                .wait(state)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }

    /// Searches one turn and writes its response (and the reports during
    /// the search the query asked for).
    fn search(&self, task: &QueuedTurn, stop: &AtomicBool) {
        let query = &task.query;
        let game = match query.setup.game_at(task.turn) {
            Ok(game) => game,
            Err(why) => {
                // Checked when the query came: cannot happen.
                self.emit(&json!({"error": why, "field": "moves", "id": query.id}));
                return;
            }
        };
        let start = Instant::now();
        let context = |during_search| ResponseSpec {
            id: &query.id,
            turn: task.turn,
            game: &game,
            include: query.include,
            pv_len: query.pv_len,
            report_as: query.report_as,
            during_search,
        };
        let searched = panic::catch_unwind(AssertUnwindSafe(|| {
            let mut config = self.options.player.clone();
            for (name, value) in &query.params {
                // Checked when the query was read: a failure cannot happen.
                if let Err(e) = config.search.set(name, value) {
                    warn!("query {}: {name}={value}: {e}", query.id);
                }
            }
            let mut player = Player::new(&config);
            let budget = Budget::fixed(query.max_visits, query.max_time, start);
            let report_during = |report: &SearchReport| {
                self.emit(&analysis(report, &context(true)));
                !lock(&self.out).broken
            };
            let watch = query
                .report_every
                .map(|interval| Watch::every(interval, report_during));
            let request = SearchRequest::new(&game, game.to_move(), budget, stop)
                .filtered(&query.filter)
                .with_moves_ownership(query.include.moves_ownership)
                .judging_moves(true)
                .watched(watch);
            player.search(request)
        }));
        match searched {
            Ok(report) => {
                debug!(
                    "query {} turn {}: {} playouts in {:.2} s",
                    query.id,
                    task.turn,
                    report.playouts,
                    start.elapsed().as_secs_f64()
                );
                self.emit(&analysis(&report, &context(false)));
            }
            Err(payload) => {
                let message = panic_message(payload.as_ref());
                self.emit(&json!({
                    "error": format!("internal error in the search of turn {}: {message}", task.turn),
                    "id": query.id,
                }));
            }
        }
    }
}
