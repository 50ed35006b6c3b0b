//! The command line's grammar (clap): the engine's options, the
//! subcommands and their arguments, each value's parser, and the refusals
//! of what the grammar alone cannot say (an option given before a tool that
//! does not take it, or both before and after it).

use std::path::PathBuf;

use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, Parser};

use hane::{ReportAs, Superko};

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
pub struct Cli {
    #[command(subcommand)]
    pub tool: Option<Tool>,
    /// Search threads, 1 to 1024 (default: every core).
    #[arg(short = 't', long, value_parser = thread_count)]
    pub threads: Option<usize>,
    /// Playouts per move, shared out among the threads; with no clock set
    /// the search is then deterministic for one thread and a given --seed.
    #[arg(short = 'p', long, value_parser = at_least_one::<u64>)]
    pub playouts: Option<u64>,
    /// Seconds per move when the client sets no time control, more than 0
    /// and at most 3600 (default: the board size / 9, at least 0.5: about
    /// 1 s on 9x9, 2.1 s on 19x19).
    #[arg(long, value_parser = seconds, allow_negative_numbers = true)]
    pub time: Option<f64>,
    /// Seed for the random number generator (default: from the system).
    #[arg(long, global = true)]
    pub seed: Option<u64>,
    /// Also write the log to this file (appended); logs always go to stderr.
    #[arg(long, global = true, value_name = "FILE")]
    pub log_file: Option<PathBuf>,
    /// Log more: -v information, -vv debug, -vvv trace (default: warnings
    /// and errors only; RUST_LOG, when set, decides instead).
    #[arg(short = 'v', long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    /// Resign below this winning chance on two moves running (0: never).
    #[arg(long, default_value_t = 0.05, value_parser = probability)]
    pub resign: f64,
    /// Bound on the search tree, in nodes, 1000 to 1000000000 (one tree,
    /// shared by all threads; `hane analysis`: each position's).
    #[arg(long, default_value_t = 8_000_000, global = true, value_parser = tree_nodes)]
    pub max_nodes: usize,
    /// Bound on the memory of the search tree (one tree, shared by all
    /// threads; `hane analysis`: each position's), in MiB; lowers
    /// --max-nodes to fit. The peak can briefly reach twice this while the
    /// tree is copied for reuse after a move.
    #[arg(long, global = true)]
    pub max_tree_mb: Option<usize>,
    /// Never play a suicide (legal under Tromp-Taylor for two or more
    /// stones); for matches against engines that forbid it, like GNU Go.
    #[arg(long)]
    pub no_suicide: bool,
    /// Superko rule: positional (no move recreates an earlier colouring;
    /// Tromp-Taylor's usual formulation) or situational (no move recreates
    /// a colouring with the same side to move; the newsgroup text's rule 4).
    #[arg(
        long,
        default_value = "positional",
        value_name = "positional|situational"
    )]
    pub superko: Superko,
    /// Keep searching on the opponent's time after genmove, until the next
    /// command arrives (off by default: it takes every core meanwhile).
    #[arg(long)]
    pub ponder: bool,
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
    pub gogui_live_gfx: Option<f64>,
    /// The policy network's weights, in place of the built-in network
    /// (scripts/hane_train writes them: docs/network.md); `none` plays
    /// without a network, on the pattern prior alone (much weaker). A file
    /// that cannot be read stops hane with the reason and exit status 1.
    #[arg(long, global = true, value_name = "FILE")]
    pub network: Option<PathBuf>,
    /// The network's backend: fp32 (the reference, every CPU), winograd
    /// (fp32, its blocks' convolutions by Winograd's transform; every
    /// CPU), bf16 (its trunk in bf16 on Intel AMX tiles) or auto, the
    /// fastest that runs here (default; the HANE_BACKEND environment
    /// variable sets it too).
    /// A backend this CPU cannot run is refused, naming what it lacks.
    #[arg(long, global = true, value_name = "fp32|winograd|bf16|auto")]
    pub backend: Option<String>,
    /// A search parameter, NAME=VALUE, for tuning experiments
    /// (docs/strength.md); may be repeated. `hane params` lists them.
    #[arg(long = "param", value_name = "NAME=VALUE", global = true)]
    pub params: Vec<String>,
}

#[derive(clap::Subcommand, Debug)]
pub enum Tool {
    /// Measure light playouts (one thread), tree search and the network's
    /// evaluations on each backend, on one thread and on every core at
    /// once (not GTP); the same on every run, with --seed 1 unless given.
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
        /// Measure the tree search with this many threads, sharing its
        /// tree and its playouts (1 to 1024), and nothing else. Without
        /// it, the tree search is measured on one thread, then at 1, 2, 4,
        /// ... threads up to every core, and the bench recommends one of
        /// those.
        #[arg(short = 't', long, value_parser = thread_count)]
        threads: Option<usize>,
    },
    /// List the search parameters that --param sets: name, kind, default,
    /// range and what each does.
    Params,
    /// Review a game: search every position of its main line and write the
    /// game with Black's win rate on each node (Sabaki's SBKV), on each
    /// move a comment with its win rate and points lost, and hane's
    /// variation where it prefers another move.
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
pub struct KataArgs {
    /// A KataGo config file (`key = value` lines); may be repeated, later
    /// files winning. Each tool's help names the keys it reads
    /// (`command`).
    #[arg(long, value_name = "FILE")]
    pub config: Vec<PathBuf>,
    /// KataGo's neural network: accepted and not read (a KataGo network is
    /// not hane's format; hane's own is built in, and --network FILE replaces
    /// it).
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,
    /// KataGo's human-style network: accepted and not read.
    #[arg(long, value_name = "FILE")]
    pub human_model: Option<PathBuf>,
    /// Settings over the config files': `key=value, key=value`; may be
    /// repeated.
    #[arg(long, value_name = "KEY=VALUE,...")]
    pub override_config: Vec<String>,
}

#[derive(clap::Args, Debug)]
pub struct AnalysisArgs {
    /// Playouts per position for a query without `maxVisits` (default 1000).
    #[arg(short = 'p', long, value_parser = at_least_one::<u64>)]
    pub playouts: Option<u64>,
    /// Search threads per position, 1 to 1024 (default 1).
    #[arg(short = 't', long, value_parser = thread_count)]
    pub threads: Option<usize>,
    /// Positions searched at once, 1 to 1024 (default: every core, shared
    /// out among the --threads of each); with --threads, at most 1024
    /// search threads in all.
    #[arg(long, value_parser = thread_count)]
    pub analysis_threads: Option<usize>,
    /// Whose point of view win rates, scores and ownership are given from
    /// (KataGo's reportAnalysisWinratesAs; default black).
    #[arg(long, value_name = "black|white|side-to-move")]
    pub report_as: Option<ReportAs>,
    /// At the end of the input, stop at once rather than finish the queued
    /// queries.
    #[arg(long)]
    pub quit_without_waiting: bool,
    #[command(flatten)]
    pub kata: KataArgs,
}

#[derive(clap::Args, Debug)]
pub struct ReviewArgs {
    /// The game (SGF); it is read, never changed.
    pub game: PathBuf,
    /// Where to write the reviewed game; not the game's own file (default:
    /// beside it, GAME-reviewed.sgf).
    #[arg(short, long, value_name = "OUT.sgf")]
    pub output: Option<PathBuf>,
    /// Playouts per position, shared out among the threads; with one thread
    /// and a --seed the review is the same on every run.
    #[arg(short = 'p', long, value_parser = at_least_one::<u64>, conflicts_with = "time")]
    pub playouts: Option<u64>,
    /// Seconds per position, more than 0 and at most 3600 (default: the
    /// board size / 9, at least 0.5).
    #[arg(long, value_parser = seconds, allow_negative_numbers = true)]
    pub time: Option<f64>,
    /// Search threads, 1 to 1024 (default: every core).
    #[arg(short = 't', long, value_parser = thread_count)]
    pub threads: Option<usize>,
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

/// The command line's grammar as `hane --help` and each tool's `--help`
/// show it: the global options are propagated to every tool by clap, and
/// each tool's help then hides those it does not read (`hane params`
/// reads none of the search's: it refuses them), and gives the KataGo
/// config keys that the tool itself reads.
pub fn command() -> clap::Command {
    let mut command = Cli::command().mut_subcommand("params", |params| {
        // clap propagates a global option to a tool only where the tool
        // has no argument of that id: a hidden one of its own keeps it out
        // of the help, and `hane params` refuses it when given.
        PARAMS_REFUSES.iter().fold(params, |params, (id, flag)| {
            params.arg(
                clap::Arg::new(*id)
                    .long(&flag[2..])
                    .num_args(1)
                    .action(clap::ArgAction::Append)
                    .hide(true),
            )
        })
    });
    for (tool, help) in [("analysis", ANALYSIS_CONFIG), ("gtp", GTP_CONFIG)] {
        command = command.mut_subcommand(tool, |tool| tool.mut_arg("config", |arg| arg.help(help)));
    }
    command
}

/// The engine's options `hane params` takes no part of, by clap's id and
/// as written.
pub const PARAMS_REFUSES: [(&str, &str); 5] = [
    ("seed", "--seed"),
    ("max_nodes", "--max-nodes"),
    ("max_tree_mb", "--max-tree-mb"),
    ("network", "--network"),
    ("params", "--param"),
];

/// `-config`'s help for `hane analysis`: the keys it reads.
const ANALYSIS_CONFIG: &str = "A KataGo config file (`key = value` lines); may be repeated, \
later files winning. hane analysis reads numSearchThreads, numAnalysisThreads, maxVisits, \
maxPlayouts, maxTime, reportAnalysisWinratesAs, logFile and hane's --param names; stderr names \
the others and why they are not used. hane's own options win over the file";

/// `-config`'s help for `hane gtp`: the keys it reads.
const GTP_CONFIG: &str = "A KataGo config file (`key = value` lines); may be repeated, \
later files winning. hane gtp reads numSearchThreads, maxVisits, maxPlayouts, maxTime, rules, \
ponderingEnabled, allowResignation, resignThreshold, logFile and hane's --param names; stderr \
names the others and why they are not used. hane's own options win over the file";

/// Whether the command line gave the option `id` (not its default).
pub fn given(matches: &ArgMatches, id: &str) -> bool {
    matches.value_source(id) == Some(ValueSource::CommandLine)
}

/// Ends the process with `message` as clap's refusals do: status 2.
pub fn refuse(message: String) -> ! {
    command().error(ErrorKind::ArgumentConflict, message).exit()
}

/// Refuses the engine's options given before `tool` other than `taken`.
pub fn refuse_engine_options(matches: &ArgMatches, tool: &str, taken: &[&str]) {
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
pub fn before_or_after<T>(
    before: Option<T>,
    after: Option<T>,
    flag: &str,
    tool: &str,
) -> Option<T> {
    match (before, after) {
        (Some(_), Some(_)) => refuse(format!(
            "{flag} given both before and after `{tool}`: give it once"
        )),
        (before, after) => after.or(before),
    }
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
pub const MAX_THREADS: usize = hane::MAX_THREADS;

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
