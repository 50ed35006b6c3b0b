//! What `main` does before the engine starts: KataGo's command line read
//! as hane's, KataGo's config files read into settings, and the logger.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use clap::Command;

use hane::{open_for_appending, parse_overrides, read_config_file, KataSettings, NotUsed};

/// The subcommands that take KataGo's command line.
const KATAGO_TOOLS: [&str; 2] = ["analysis", "gtp"];

/// KataGo's command line as clap reads hane's: after `analysis` or `gtp`,
/// KataGo writes its long options with one dash (`-config`, `-model`,
/// `-override-config`, `-quit-without-waiting`), which become `--config`,
/// ... when the subcommand has that option. Everything else is as given,
/// so a short option (`-t 4`) or a negative number is not touched.
pub fn katago_style(args: Vec<OsString>, command: &Command) -> Vec<OsString> {
    let Some(at) = args
        .iter()
        .position(|a| a.to_str().is_some_and(|a| KATAGO_TOOLS.contains(&a)))
    else {
        return args;
    };
    let Some(tool) = args[at]
        .to_str()
        .and_then(|name| command.find_subcommand(name))
    else {
        return args;
    };
    let longs: Vec<&str> = tool
        .get_arguments()
        .chain(command.get_arguments().filter(|a| a.is_global_set()))
        .filter_map(|a| a.get_long())
        .collect();
    let mut out = args[..=at].to_vec();
    let mut rest = args[at + 1..].iter();
    while let Some(arg) = rest.next() {
        let rewritten = arg.to_str().and_then(|text| {
            let name = text.strip_prefix('-')?;
            let bare = name.split('=').next().unwrap_or(name);
            (!name.starts_with('-') && bare.len() > 1 && longs.contains(&bare))
                .then(|| OsString::from(format!("-{text}")))
        });
        if arg.to_str() == Some("--") {
            out.push(arg.clone());
            out.extend(rest.cloned());
            break;
        }
        out.push(rewritten.unwrap_or_else(|| arg.clone()));
    }
    out
}

/// KataGo's settings from `-config` files (in order, later keys winning)
/// and then `-override-config` texts; the keys hane does not use, each
/// with why. An error ends the process (status 2).
pub fn katago_settings(
    configs: &[PathBuf],
    overrides: &[String],
) -> Result<(KataSettings, NotUsed), String> {
    let mut pairs = Vec::new();
    for path in configs {
        pairs.extend(read_config_file(path)?);
    }
    for text in overrides {
        pairs.extend(parse_overrides(text)?);
    }
    let mut settings = KataSettings::default();
    let not_used = settings.set_all(&pairs)?;
    Ok((settings, not_used))
}

/// Logs to stderr and, when a file is named, to it too (appended): the
/// level is --verbose's (warnings; -v info, -vv debug, -vvv trace) unless
/// RUST_LOG sets one. A leading `~/` is the home folder. A file that
/// cannot be opened (a missing folder, no permission, a FIFO no one reads)
/// is set aside with a warning and the engine starts, as KataGo does: a
/// client's config naming a log path on another machine (KaTrain's
/// `~/.katrain/...`) must not stop the engine it starts.
pub fn start_logging(verbose: u8, log_file: Option<&Path>) {
    let level = match verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    let mut builder =
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level));
    let (file, set_aside) = match log_file.map(home_expanded) {
        None => (None, None),
        Some(path) => match open_for_appending(&path) {
            Ok(file) => (Some(file), None),
            Err(e) => (None, Some(format!("{}: {e}", path.display()))),
        },
    };
    match file {
        Some(file) => builder.target(env_logger::Target::Pipe(Box::new(Tee {
            file: Mutex::new(file),
        }))),
        None => builder.target(env_logger::Target::Stderr),
    };
    builder.init();
    if let Some(why) = set_aside {
        log::warn!("cannot open the log file {why}; logging to stderr alone");
    }
}

/// `path` with a leading `~/` read as the home folder ($HOME), where there
/// is one.
fn home_expanded(path: &Path) -> PathBuf {
    match (path.strip_prefix("~"), std::env::var_os("HOME")) {
        (Ok(rest), Some(home)) => Path::new(&home).join(rest),
        _ => path.to_path_buf(),
    }
}

/// Each log line to stderr and to the log file. A write that fails (the
/// disk full, stderr closed) loses that line, never the engine.
struct Tee {
    file: Mutex<File>,
}

impl Write for Tee {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let _ = io::stderr().write_all(bytes);
        if let Ok(mut file) = self.file.lock() {
            let _ = file.write_all(bytes);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let _ = io::stderr().flush();
        if let Ok(mut file) = self.file.lock() {
            let _ = file.flush();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Arg, ArgAction};

    fn command() -> Command {
        Command::new("hane")
            .arg(Arg::new("seed").long("seed").global(true))
            .subcommand(
                Command::new("analysis")
                    .arg(Arg::new("config").long("config"))
                    .arg(
                        Arg::new("q")
                            .long("quit-without-waiting")
                            .action(ArgAction::SetTrue),
                    )
                    .arg(Arg::new("t").short('t').long("threads")),
            )
    }

    fn rewrite(args: &[&str]) -> Vec<String> {
        let args = args.iter().map(OsString::from).collect();
        katago_style(args, &command())
            .into_iter()
            .map(|a| a.into_string().unwrap_or_default())
            .collect()
    }

    #[test]
    fn katago_long_options_take_two_dashes() {
        assert_eq!(
            rewrite(&[
                "hane",
                "analysis",
                "-config",
                "a.cfg",
                "-quit-without-waiting",
                "-seed=3"
            ]),
            [
                "hane",
                "analysis",
                "--config",
                "a.cfg",
                "--quit-without-waiting",
                "--seed=3"
            ]
        );
        // Short options, unknown words, negative numbers, and all after --.
        assert_eq!(
            rewrite(&[
                "hane",
                "analysis",
                "-t",
                "2",
                "-nonsense",
                "-1",
                "--",
                "-config"
            ]),
            [
                "hane",
                "analysis",
                "-t",
                "2",
                "-nonsense",
                "-1",
                "--",
                "-config"
            ]
        );
        assert_eq!(rewrite(&["hane", "-config"]), ["hane", "-config"]);
    }
}
