//! `hane`: with no subcommand, a GTP engine on stdin/stdout.

mod bench_tool;
mod cli;
mod launch;

use std::sync::Arc;
use std::time::Duration;

use clap::{ArgMatches, FromArgMatches};

use hane::{
    AnalysisOptions, Engine, KataSettings, LiveGfx, PlayerConfig, ReviewOptions, Rules,
    SearchParams, SharedEvaluator,
};

use cli::{
    before_or_after, given, refuse, refuse_engine_options, AnalysisArgs, Cli, ReviewArgs, Tool,
    MAX_THREADS,
};

/// The allocator: see Cargo.toml's note on mimalloc (memory bounded over a
/// game driven by `play`, where glibc's arenas kept growing).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args = launch::katago_style(std::env::args_os().collect(), &cli::command());
    let matches = cli::command().get_matches_from(args);
    // Before the options are read into `Cli`: `hane params`'s own hidden
    // arguments hold text where the engine's hold numbers and paths.
    if let Some(after) = matches.subcommand_matches("params") {
        for (id, flag) in cli::PARAMS_REFUSES {
            if given(&matches, id) || given(after, id) {
                refuse(format!("`hane params` takes no options: {flag}"));
            }
        }
    }
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    // KataGo's settings are read before the logger starts: their logFile
    // is where the log goes. What they say about themselves waits for it.
    let kata = match &cli.tool {
        Some(Tool::Analysis(AnalysisArgs { kata, .. }) | Tool::Gtp(kata)) => {
            launch::katago_settings(&kata.config, &kata.override_config)
                .unwrap_or_else(|message| refuse_settings(message))
        }
        _ => Default::default(),
    };
    let (settings, not_used) = kata;
    let log_file = cli.log_file.as_deref().or(settings.log_file.as_deref());
    launch::start_logging(cli.verbose, log_file);
    for (key, why) in &not_used {
        log::warn!("config key {key} not used: {why}");
    }
    if let Some(Tool::Analysis(AnalysisArgs { kata, .. }) | Tool::Gtp(kata)) = &cli.tool {
        for model in [&kata.model, &kata.human_model].into_iter().flatten() {
            log::info!(
                "{}: not read: a KataGo model; hane's own policy network is built in (--network FILE replaces it)",
                model.display()
            );
        }
    }
    match cli.tool.take() {
        Some(Tool::Bench {
            sizes,
            playouts,
            search_playouts,
            threads,
        }) => {
            refuse_engine_options(&matches, "bench", &[]);
            bench_tool::run(&bench_tool::Bench {
                sizes: &sizes,
                playouts,
                search_playouts,
                threads: threads.unwrap_or(1),
                seed: cli.seed.unwrap_or(1),
                params: &search_params(&cli, &KataSettings::default()),
                evaluator: evaluator(&cli),
                // Asked for a thread count, the user has chosen one.
                advise: threads.is_none(),
                cores: threads_or_every_core(None),
            })
        }
        Some(Tool::Analyze(args)) => {
            refuse_engine_options(
                &matches,
                "analyze",
                &["threads", "playouts", "time", "superko", "no_suicide"],
            );
            review(&cli, args)
        }
        Some(Tool::Params) => {
            refuse_engine_options(&matches, "params", &[]);
            list_params()
        }
        Some(Tool::Analysis(args)) => {
            refuse_engine_options(&matches, "analysis", &["threads", "playouts"]);
            analysis(&cli, args, &settings)
        }
        Some(Tool::Gtp(_)) => play(&cli, &matches, &settings),
        None => play(&cli, &matches, &KataSettings::default()),
    }
}

/// Ends the process with status 2 on a config file or setting that cannot
/// be used: one line, as the error is in a file or a value, not in the
/// command line's grammar that clap's usage text would explain.
fn refuse_settings(message: String) -> ! {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "error: {message}");
    std::process::exit(2)
}

/// The GTP engine on stdin/stdout; `kata`, the settings of KataGo's
/// config, where the command line gives none.
fn play(cli: &Cli, matches: &ArgMatches, kata: &KataSettings) {
    let threads = threads_or_every_core(cli.threads.or_else(|| within_cores(kata.threads)));
    let search = search_params(cli, kata);
    let mut rules = rules(cli);
    if let Some((nearest, differs)) = &kata.rules {
        if !given(matches, "superko") && !given(matches, "no_suicide") {
            rules = Rules {
                komi: rules.komi,
                ..*nearest
            };
            if let Some(why) = differs {
                log::warn!("config rules: {why}; played as {rules}");
            }
        }
    }
    let resign = match kata.resign {
        Some(resign) if !given(matches, "resign") => resign,
        _ => cli.resign,
    };
    let (playouts, time) = match (cli.playouts, cli.time) {
        (None, None) => (kata.visit_limit(), kata.max_time),
        given => given,
    };
    let config = PlayerConfig {
        threads,
        playouts,
        seconds_per_move: time,
        seed: cli.seed,
        resign_threshold: resign,
        ponder: cli.ponder || kata.ponder == Some(true),
        search,
        evaluator: evaluator(cli),
    };
    log::info!(
        "hane {}: {} thread(s), {}, tree bound {} nodes; rules {}, \
komi 7.5 until the client sets one",
        env!("CARGO_PKG_VERSION"),
        config.threads,
        match (config.playouts, config.seconds_per_move) {
            (Some(n), _) => format!("{n} playouts a move"),
            (None, Some(t)) => format!("{t} s a move"),
            (None, None) => "about board size / 9 seconds a move".to_string(),
        },
        config.search.max_nodes,
        rules,
    );
    log::info!("search parameters: {}", config.search.summary());
    let mut engine = Engine::new(&config)
        .with_rules(rules)
        .with_move_time_cap(kata.max_time);
    say_ready_to_a_person();
    if let Some(seconds) = cli.gogui_live_gfx {
        engine = engine.with_live_gfx(LiveGfx {
            interval: Duration::from_secs_f64(seconds),
        });
    }
    // Exit status 1 when stdin could not be read or a response could not
    // be written (a closed pipe, the client gone, is not a failure); see
    // `serve`, and README.md's exit statuses.
    if let Err(e) = hane::serve(&mut engine) {
        log::error!("{e}");
        std::process::exit(1);
    }
}

/// One line on stderr when stdin is a terminal, as KataGo prints: a person
/// who typed `hane` sees that it waits for GTP, not that it hangs. A client
/// reading from a pipe gets nothing, and stdout stays GTP's alone.
fn say_ready_to_a_person() {
    use std::io::{IsTerminal, Write};
    if std::io::stdin().is_terminal() {
        let _ = writeln!(
            std::io::stderr(),
            "hane {} ready for GTP commands: try `genmove b`, `quit` to end, hane --help",
            env!("CARGO_PKG_VERSION")
        );
    }
}

/// `hane analyze`: a tool, so its errors end the process with a message
/// and status 1; its closing line goes to stderr beside the progress bar.
fn review(cli: &Cli, args: ReviewArgs) {
    let threads = before_or_after(cli.threads, args.threads, "--threads", "analyze");
    let threads = threads_or_every_core(threads);
    let playouts = before_or_after(cli.playouts, args.playouts, "--playouts", "analyze");
    let time = before_or_after(cli.time, args.time, "--time", "analyze");
    if playouts.is_some() && time.is_some() {
        refuse("--playouts and --time: a review takes one or the other".to_string());
    }
    let output = args
        .output
        .unwrap_or_else(|| ReviewOptions::default_output(&args.game));
    let options = ReviewOptions {
        input: args.game,
        output,
        rules: rules(cli),
        player: PlayerConfig {
            threads,
            playouts,
            seconds_per_move: time,
            seed: cli.seed,
            search: search_params(cli, &KataSettings::default()),
            ..PlayerConfig::with_evaluator(evaluator(cli))
        },
    };
    // The closing line on stderr, which may be gone (SIGHUP: the terminal
    // closed): a failed write must not turn into a panic.
    let say = |text: std::fmt::Arguments| {
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "hane analyze: {text}");
    };
    match hane::review_file(&options) {
        Ok(summary) => match summary.stopped_by {
            Some(signal) => {
                if summary.positions == 0 {
                    say(format_args!(
                        "interrupted before the first position: nothing written"
                    ));
                } else {
                    say(format_args!(
                        "interrupted: the first {} of {} positions written to {}",
                        summary.positions,
                        summary.planned,
                        options.output.display()
                    ));
                }
                // As a process that the signal ended.
                std::process::exit(128 + signal);
            }
            None => say(format_args!(
                "{} positions searched, {} moves judged, in {:.1} s; written to {}",
                summary.positions,
                summary.moves_judged,
                summary.seconds,
                options.output.display()
            )),
        },
        Err(error) => {
            say(format_args!("{error}"));
            std::process::exit(1);
        }
    }
}

/// `hane analysis`: KataGo's JSON analysis protocol on stdin/stdout; `kata`,
/// the settings of KataGo's config, where the command line gives none.
fn analysis(cli: &Cli, args: AnalysisArgs, kata: &KataSettings) {
    let cores = threads_or_every_core(None);
    let threads = before_or_after(cli.threads, args.threads, "--threads", "analysis")
        .or_else(|| within_cores(kata.threads))
        .unwrap_or(1)
        .clamp(1, MAX_THREADS);
    let playouts = before_or_after(cli.playouts, args.playouts, "--playouts", "analysis")
        .or(kata.visit_limit())
        .unwrap_or(1000);
    let analysis_threads = args
        .analysis_threads
        .or(kata.analysis_threads)
        .unwrap_or((cores / threads).max(1));
    if threads.saturating_mul(analysis_threads) > MAX_THREADS {
        refuse(format!(
            "--threads {threads} for each of --analysis-threads {analysis_threads} positions is \
more than {MAX_THREADS} search threads"
        ));
    }
    let options = AnalysisOptions {
        player: PlayerConfig {
            threads,
            seed: cli.seed,
            search: search_params(cli, kata),
            ..PlayerConfig::with_evaluator(evaluator(cli))
        },
        max_visits: playouts,
        max_time: kata.max_time,
        analysis_threads,
        report_as: args.report_as.or(kata.report_as).unwrap_or_default(),
        quit_without_waiting: args.quit_without_waiting,
    };
    if let Err(e) = hane::serve_analysis(&options) {
        log::error!("hane analysis: cannot read standard input: {e}");
        std::process::exit(1);
    }
}

/// A KataGo config's `numSearchThreads`, at most the machine's cores:
/// configs are written for other machines (KaTrain's asks for 8), and
/// search threads beyond the cores add no playouts a second, only a wider,
/// shallower tree. Said on stderr; `--threads` is taken as given.
fn within_cores(config_threads: Option<usize>) -> Option<usize> {
    let asked = config_threads?;
    let cores = threads_or_every_core(None);
    if asked <= cores {
        return Some(asked);
    }
    log::warn!(
        "numSearchThreads = {asked} in the config, more than this machine's {cores} cores: \
searching with {cores} threads (--threads sets another number)"
    );
    Some(cores)
}

fn threads_or_every_core(threads: Option<usize>) -> usize {
    threads
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
        .clamp(1, MAX_THREADS)
}

/// The rules of the command line (the komi is the client's to set).
fn rules(cli: &Cli) -> Rules {
    Rules {
        superko: cli.superko,
        allow_suicide: !cli.no_suicide,
        ..Rules::default()
    }
}

/// `hane params`: the table of search parameters, one a line.
fn list_params() {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let rows: Vec<[String; 5]> = hane::PARAMS
        .iter()
        .map(|param| {
            let (low, high) = param.range;
            let range = match param.kind {
                hane::ParamKind::Flag => "true, false".to_string(),
                _ => format!("{low} to {high}"),
            };
            [
                param.name.to_string(),
                param.kind.to_string(),
                param.default_value().to_string(),
                range,
                param.doc.to_string(),
            ]
        })
        .collect();
    // Each column as wide as its widest entry, so the columns line up
    // whatever names and ranges are added.
    let header = ["name", "kind", "default", "range", "meaning"].map(String::from);
    let width = |column: usize| {
        std::iter::once(&header)
            .chain(&rows)
            .map(|row| row[column].chars().count())
            .max()
            .unwrap_or(0)
    };
    let (name, kind, default, range) = (width(0), width(1), width(2), width(3));
    for row in std::iter::once(&header).chain(&rows) {
        let _ = writeln!(
            out,
            "{:<name$}  {:<kind$}  {:>default$}  {:<range$}  {}",
            row[0], row[1], row[2], row[3], row[4]
        );
    }
    let _ = writeln!(out, "\nSet one with --param NAME=VALUE (repeatable).");
}

/// The network the searches use: `--network FILE`'s, none for `--network
/// none`, or the shipped one. A file that cannot be used ends the process
/// with the reason and status 1, as KataGo and Leela Zero do: playing on
/// with the weaker pattern prior would hide the failure behind a GUI that
/// shows nothing of stderr, and the user would play an engine other than
/// the one asked for. The pattern prior alone is asked for by name.
fn evaluator(cli: &Cli) -> Option<Arc<SharedEvaluator>> {
    if let Some(backend) = &cli.backend {
        if let Err(why) = hane::choose_backend(backend) {
            refuse_settings(format!("--{why}"));
        }
    }
    let Some(path) = &cli.network else {
        return Some(hane::shipped_evaluator());
    };
    if path.as_os_str() == NO_NETWORK {
        log::info!("--network none: playing with the pattern prior alone");
        return None;
    }
    match hane::evaluator_from_file(path) {
        Ok(evaluator) => Some(evaluator),
        Err(message) => {
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "hane: cannot use the network {message} (--network none plays without one)"
            );
            std::process::exit(1);
        }
    }
}

/// `--network none`: no network, the pattern prior alone (a file named
/// `none` is `./none`).
const NO_NETWORK: &str = "none";

/// The search settings of the command line over those of KataGo's config;
/// a bad --param ends the process.
fn search_params(cli: &Cli, kata: &KataSettings) -> SearchParams {
    let base = SearchParams {
        max_nodes: max_nodes(cli.max_nodes, cli.max_tree_mb),
        ..SearchParams::default()
    };
    let mut search = kata.search_params(&base).unwrap_or_else(|m| refuse(m));
    for param in &cli.params {
        let set = param
            .split_once('=')
            .ok_or_else(|| format!("--param {param}: expected NAME=VALUE"))
            .and_then(|(name, value)| search.set(name, value).map_err(|e| e.to_string()));
        if let Err(message) = set {
            eprintln!("hane: {message}");
            std::process::exit(2);
        }
    }
    search
}

/// Nodes of the search tree, which all threads share: --max-nodes, lowered
/// to fit --max-tree-mb when given, and never below a thousand (a tree that
/// small still plays).
fn max_nodes(max_nodes: usize, max_tree_mb: Option<usize>) -> usize {
    let node_bytes = hane::TREE_NODE_BYTES;
    let fitting = max_tree_mb.map_or(usize::MAX, |mb| mb.saturating_mul(1 << 20) / node_bytes);
    max_nodes.min(fitting).max(1000)
}
