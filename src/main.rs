//! `hane`: with no subcommand, a GTP engine on stdin/stdout.

mod bench_tool;
mod launch;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser};

use hane::{
    AnalysisOptions, Engine, KataSettings, LiveGfx, PlayerConfig, ReportAs, ReviewOptions, Rules,
    SearchParams, SharedEvaluator, Superko,
};

/// The allocator: see Cargo.toml's note on mimalloc (memory bounded over a
/// game driven by `play`, where glibc's arenas kept growing).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser, Debug)]
#[command(
    name = "hane",
    version,
    about = "A Go engine: GTP v2, Tromp-Taylor rules, Monte Carlo tree search",
    after_help = "With no subcommand (or `gtp`) hane speaks GTP on stdin/stdout. Logs go to \
stderr, and to --log-file when given: -v for more (or RUST_LOG=debug). Before a subcommand, \
the engine's options are taken where the subcommand has the same setting and refused where \
it has none; --seed, --max-nodes, --max-tree-mb, --param, --log-file and -v go before or \
after it. `hane gtp` and `hane analysis` also take KataGo's command line: -config FILE \
-model FILE -override-config KEY=VALUE,..."
)]
struct Cli {
    #[command(subcommand)]
    tool: Option<Tool>,
    /// Search threads, 1 to 1024 (default: every core).
    #[arg(short = 't', long, value_parser = thread_count)]
    threads: Option<usize>,
    /// Playouts per move, shared out among the threads; with no clock set
    /// the search is then deterministic for one thread and a given --seed.
    #[arg(short = 'p', long, value_parser = at_least_one::<u64>)]
    playouts: Option<u64>,
    /// Seconds per move when the client sets no time control, more than 0
    /// and at most 3600 (default: the board size / 9, at least 0.5: about
    /// 1 s on 9x9, 2.1 s on 19x19).
    #[arg(long, value_parser = seconds, allow_negative_numbers = true)]
    time: Option<f64>,
    /// Seed for the random number generator (default: from the system).
    #[arg(long, global = true)]
    seed: Option<u64>,
    /// Also write the log to this file (appended); logs always go to stderr.
    #[arg(long, global = true, value_name = "FILE")]
    log_file: Option<PathBuf>,
    /// Log more: -v information, -vv debug, -vvv trace (default: warnings
    /// and errors only; RUST_LOG, when set, decides instead).
    #[arg(short = 'v', long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    /// Resign below this winning chance on two moves running (0: never).
    #[arg(long, default_value_t = 0.05, value_parser = probability)]
    resign: f64,
    /// Bound on the search tree, in nodes, 1000 to 1000000000 (one tree,
    /// shared by all threads; `hane analysis`: each position's).
    #[arg(long, default_value_t = 8_000_000, global = true, value_parser = tree_nodes)]
    max_nodes: usize,
    /// Bound on the memory of the search tree (one tree, shared by all
    /// threads; `hane analysis`: each position's), in MiB; lowers
    /// --max-nodes to fit. The peak can briefly reach twice this while the
    /// tree is copied for reuse after a move.
    #[arg(long, global = true)]
    max_tree_mb: Option<usize>,
    /// Never play a suicide (legal under Tromp-Taylor for two or more
    /// stones); for matches against engines that forbid it, like GNU Go.
    #[arg(long)]
    no_suicide: bool,
    /// Superko rule: positional (no move recreates an earlier colouring;
    /// Tromp-Taylor's usual formulation) or situational (no move recreates
    /// a colouring with the same side to move; the newsgroup text's rule 4).
    #[arg(
        long,
        default_value = "positional",
        value_name = "positional|situational"
    )]
    superko: Superko,
    /// Keep searching on the opponent's time after genmove, until the next
    /// command arrives (off by default: it takes every core meanwhile).
    #[arg(long)]
    ponder: bool,
    /// Draw the search on GoGui's board while genmove thinks (GoGui's live
    /// graphics, `gogui-gfx:` lines on stderr), every SECONDS (default 0.5):
    /// `--gogui-live-gfx`, `--gogui-live-gfx 0.2` or `--gogui-live-gfx=0.2`.
    #[arg(
        long,
        value_name = "SECONDS",
        num_args = 0..=1,
        default_missing_value = "0.5",
        value_parser = drawing_interval
    )]
    gogui_live_gfx: Option<f64>,
    /// The policy network's weights, in place of the built-in network
    /// (scripts/hane_train writes them: docs/network.md). A file that
    /// cannot be read is named on stderr, and hane plays on with its
    /// pattern prior alone.
    #[arg(long, global = true, value_name = "FILE")]
    network: Option<PathBuf>,
    /// A search parameter, NAME=VALUE, for tuning experiments
    /// (docs/strength.md); may be repeated. `hane params` lists them.
    #[arg(long = "param", value_name = "NAME=VALUE", global = true)]
    params: Vec<String>,
}

#[derive(clap::Subcommand, Debug)]
enum Tool {
    /// Measure light playouts (one thread) and tree search (not GTP); the
    /// same on every run, with --seed 1 unless given.
    Bench {
        /// Board sizes to measure, 2 to 25, separated by commas: 9,13,19.
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "9,19",
            value_name = "SIZE,...",
            value_parser = board_side
        )]
        sizes: Vec<usize>,
        /// Light playouts per size (at least 1: a rate of none is no
        /// measurement).
        #[arg(long, default_value_t = 200_000, value_parser = at_least_one::<u64>)]
        playouts: u64,
        /// Tree-search playouts per size (at least 1).
        #[arg(long, default_value_t = 100_000, value_parser = at_least_one::<u64>)]
        search_playouts: u64,
        /// Threads of the tree search, sharing its tree and its playouts
        /// (1 to 1024). Without it, the bench also measures 1, 2, 4, ...
        /// threads up to every core and recommends a --threads.
        #[arg(short = 't', long, default_value_t = 1, value_parser = thread_count)]
        threads: usize,
    },
    /// List the search parameters that --param sets: name, kind, default,
    /// range and what each does.
    Params,
    /// Review a game: search every position of its main line and write the
    /// game with Black's win rate on each node (Sabaki's SBKV), a comment on
    /// each move and hane's variation where it prefers another move.
    Analyze(ReviewArgs),
    /// KataGo's JSON analysis protocol: one JSON query a line on stdin, one
    /// JSON response a line on stdout per turn analysed (not GTP).
    Analysis(AnalysisArgs),
    /// The GTP engine, as with no subcommand, started with KataGo's command
    /// line (`hane gtp -config gtp.cfg -model net.bin.gz`); the engine's
    /// options go before `gtp`.
    Gtp(KataArgs),
}

/// KataGo's command line, for tools that start hane as they start KataGo;
/// KataGo's single-dash spelling (`-config`) is read too.
#[derive(clap::Args, Debug, Default)]
struct KataArgs {
    /// A KataGo config file (`key = value` lines); may be repeated, later
    /// files winning. The keys with a meaning for hane are read
    /// (numSearchThreads, numAnalysisThreads, maxVisits, maxPlayouts,
    /// maxTime, reportAnalysisWinratesAs, rules, ponderingEnabled,
    /// allowResignation, resignThreshold, logFile, and hane's --param
    /// names); stderr names the others and why they are not used. hane's
    /// own options win over the file.
    #[arg(long, value_name = "FILE")]
    config: Vec<PathBuf>,
    /// KataGo's neural network: accepted and not read (a KataGo network is
    /// not hane's format; hane's own is built in, and --network FILE replaces
    /// it).
    #[arg(long, value_name = "FILE")]
    model: Option<PathBuf>,
    /// KataGo's human-style network: accepted and not read.
    #[arg(long, value_name = "FILE")]
    human_model: Option<PathBuf>,
    /// Settings over the config files': `key=value, key=value`; may be
    /// repeated.
    #[arg(long, value_name = "KEY=VALUE,...")]
    override_config: Vec<String>,
}

#[derive(clap::Args, Debug)]
struct AnalysisArgs {
    /// Playouts per position for a query without `maxVisits` (default 1000).
    #[arg(short = 'p', long, value_parser = at_least_one::<u64>)]
    playouts: Option<u64>,
    /// Search threads per position, 1 to 1024 (default 1).
    #[arg(short = 't', long, value_parser = thread_count)]
    threads: Option<usize>,
    /// Positions searched at once, 1 to 1024 (default: every core, shared
    /// out among the --threads of each); with --threads, at most 1024
    /// search threads in all.
    #[arg(long, value_parser = thread_count)]
    analysis_threads: Option<usize>,
    /// Whose point of view win rates, scores and ownership are given from
    /// (KataGo's reportAnalysisWinratesAs; default black).
    #[arg(long, value_name = "black|white|side-to-move")]
    report_as: Option<ReportAs>,
    /// At the end of the input, stop at once rather than finish the queued
    /// queries.
    #[arg(long)]
    quit_without_waiting: bool,
    #[command(flatten)]
    kata: KataArgs,
}

#[derive(clap::Args, Debug)]
struct ReviewArgs {
    /// The game (SGF); it is read, never changed.
    game: PathBuf,
    /// Where to write the reviewed game; not the game's own file (default:
    /// beside it, GAME-reviewed.sgf).
    #[arg(short, long, value_name = "OUT.sgf")]
    output: Option<PathBuf>,
    /// Playouts per position, shared out among the threads; with one thread
    /// and a --seed the review is the same on every run.
    #[arg(short = 'p', long, value_parser = at_least_one::<u64>, conflicts_with = "time")]
    playouts: Option<u64>,
    /// Seconds per position, more than 0 and at most 3600 (default: the
    /// board size / 9, at least 0.5).
    #[arg(long, value_parser = seconds, allow_negative_numbers = true)]
    time: Option<f64>,
    /// Search threads, 1 to 1024 (default: every core).
    #[arg(short = 't', long, value_parser = thread_count)]
    threads: Option<usize>,
}

fn main() {
    let args = launch::katago_style(std::env::args_os().collect(), &Cli::command());
    let matches = Cli::command().get_matches_from(args);
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
                threads,
                seed: cli.seed.unwrap_or(1),
                params: &search_params(&cli, &KataSettings::default()),
                evaluator: evaluator(&cli),
                // Asked for a thread count, the user has chosen one.
                advise: !given_in_subcommand(&matches, "bench", "threads"),
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
            for (id, flag) in [
                ("seed", "--seed"),
                ("max_nodes", "--max-nodes"),
                ("max_tree_mb", "--max-tree-mb"),
                ("params", "--param"),
            ] {
                if given(&matches, id) {
                    refuse(format!("`hane params` takes no options: {flag}"));
                }
            }
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

/// The engine's options, by clap's id and as written: before a subcommand
/// each is taken where the subcommand has the same setting, else refused
/// rather than dropped without a word.
const ENGINE_OPTIONS: [(&str, &str); 8] = [
    ("threads", "--threads"),
    ("playouts", "--playouts"),
    ("time", "--time"),
    ("resign", "--resign"),
    ("superko", "--superko"),
    ("no_suicide", "--no-suicide"),
    ("ponder", "--ponder"),
    ("gogui_live_gfx", "--gogui-live-gfx"),
];

/// Whether the command line gave the option `id` (not its default).
fn given(matches: &ArgMatches, id: &str) -> bool {
    matches.value_source(id) == Some(ValueSource::CommandLine)
}

/// Whether the command line gave the option `id` after `tool`.
fn given_in_subcommand(matches: &ArgMatches, tool: &str, id: &str) -> bool {
    matches
        .subcommand_matches(tool)
        .is_some_and(|m| given(m, id))
}

/// Ends the process with `message` as clap's refusals do: status 2.
fn refuse(message: String) -> ! {
    Cli::command()
        .error(ErrorKind::ArgumentConflict, message)
        .exit()
}

/// Ends the process with status 2 on a config file or setting that cannot
/// be used: one line, as the error is in a file or a value, not in the
/// command line's grammar that clap's usage text would explain.
fn refuse_settings(message: String) -> ! {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "error: {message}");
    std::process::exit(2)
}

/// Refuses the engine's options given before `tool` other than `taken`.
fn refuse_engine_options(matches: &ArgMatches, tool: &str, taken: &[&str]) {
    for (id, flag) in ENGINE_OPTIONS {
        if given(matches, id) && !taken.contains(&id) {
            refuse(format!(
                "{flag} is the GTP engine's option, which `hane {tool}` does not take"
            ));
        }
    }
}

/// A setting that both the engine's options (`before` the subcommand) and
/// the subcommand's own (`after`) may give: either, not both.
fn before_or_after<T>(before: Option<T>, after: Option<T>, flag: &str, tool: &str) -> Option<T> {
    match (before, after) {
        (Some(_), Some(_)) => refuse(format!(
            "{flag} given both before and after `{tool}`: give it once"
        )),
        (before, after) => after.or(before),
    }
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
    let mut engine = Engine::new(&config).with_rules(rules);
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
                "{} positions searched in {:.1} s; written to {}",
                summary.positions,
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

/// The network the searches use: `--network FILE`'s, or the shipped one.
/// A file that cannot be used is named on stderr with the reason, and the
/// engine plays on with its pattern prior alone rather than refuse to
/// start under a GUI that would show nothing of why.
fn evaluator(cli: &Cli) -> Option<Arc<SharedEvaluator>> {
    let Some(path) = &cli.network else {
        return Some(hane::shipped_evaluator());
    };
    match hane::evaluator_from_file(path) {
        Ok(evaluator) => Some(evaluator),
        Err(message) => {
            log::warn!("network {message}: playing with the pattern prior alone");
            None
        }
    }
}

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

/// The most search threads hane starts. More than the hardware threads of
/// the largest machines (two 192-core EPYC sockets have 768); each thread
/// costs its worker (readers, replies, sums) and its stack, measured at
/// about 0.5 MB on 19x19 and 1.1 MB on 25x25 (a genmove of 1 s with 1024
/// threads peaked at 495 MB and 1.15 GB, most of it the last-good-reply
/// tables, two entries for every pair of points), so the bound keeps them
/// near a gigabyte at most.
/// A number past it is a typing error, not a machine, and once took all the
/// memory at the first genmove (4294967296 aborted the allocation, 100000
/// took 5.9 GB and then failed to spawn a thread), after the engine had
/// answered its first commands. Refused at start-up, like --threads 0,
/// rather than capped: the user sees the message where the setting is
/// made, and no engine runs on a number it was not given.
const MAX_THREADS: usize = hane::MAX_THREADS;

fn thread_count(text: &str) -> Result<usize, String> {
    match text.parse::<u64>() {
        Ok(n) if (1..=MAX_THREADS as u64).contains(&n) => Ok(n as usize),
        _ => Err(format!("expected a whole number from 1 to {MAX_THREADS}")),
    }
}

/// A bound on the tree's nodes: the range `--param max_nodes` takes, so
/// that neither spelling quietly becomes another number.
fn tree_nodes(text: &str) -> Result<usize, String> {
    let (low, high) = hane::param("max_nodes").map_or((1000.0, 1e9), |p| p.range);
    match text.parse::<u64>() {
        Ok(n) if (low..=high).contains(&(n as f64)) => Ok(n as usize),
        _ => Err(format!(
            "expected a whole number of nodes from {low} to {high}"
        )),
    }
}

/// A board side hane plays.
fn board_side(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (2..=25).contains(&n) => Ok(n),
        _ => Err("expected board sizes from 2 to 25".to_string()),
    }
}

fn at_least_one<N: std::str::FromStr + PartialOrd + From<u8>>(text: &str) -> Result<N, String> {
    match text.parse::<N>() {
        Ok(n) if n >= N::from(1) => Ok(n),
        _ => Err("expected a whole number of at least 1".to_string()),
    }
}

/// A time per move: more than 0 and at most the clock's cap on thinking
/// time (an hour, `MAX_THINK_SECONDS`); every other number, 0, NaN and
/// infinity included, is refused with the same message, as --playouts 0 is.
/// A time under the clock's floor of a millisecond is raised to it.
fn seconds(text: &str) -> Result<f64, String> {
    let most = hane::MAX_THINK_SECONDS;
    match text.parse::<f64>() {
        Ok(t) if t > 0.0 && t <= most => Ok(t),
        _ => Err(format!(
            "expected a number of seconds, more than 0 and at most {most}"
        )),
    }
}

/// The time between two live drawings: each one restarts the search
/// threads and repaints GoGui's board, so not under 0.05 s; at most an hour.
fn drawing_interval(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(t) if (0.05..=3600.0).contains(&t) => Ok(t),
        _ => Err("expected a number of seconds from 0.05 to 3600".to_string()),
    }
}

fn probability(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err("expected a number from 0 to 1".to_string()),
    }
}
