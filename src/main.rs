//! `hane`: with no subcommand, a GTP engine on stdin/stdout.

use clap::Parser;

use hane::gtp::{self, Engine};
use hane::player::PlayerConfig;

#[derive(Parser, Debug)]
#[command(
    name = "hane",
    version,
    about = "A Go engine: GTP v2, Tromp-Taylor rules, Monte Carlo tree search"
)]
struct Cli {
    /// Seed for the random number generator (default: from the system).
    #[arg(long)]
    seed: Option<u64>,
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let config = PlayerConfig { seed: cli.seed };
    let mut engine = Engine::new(&config);
    gtp::io::run(&mut engine);
}
