//! scripts/match.py builds a fair match's commands: GNU Go with area
//! scoring at the level asked for, hane with --no-suicide against every
//! opponent but another hane, and the opponent named in the plot's title.
//! Skipped where python3 is not installed.

use std::process::Command;

/// The script's `--print-commands` lines: hane's command, the opponent's,
/// the plot's title; None without python3.
fn commands(args: &[&str]) -> Option<(String, String, String, String)> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/match.py");
    let output = match Command::new("python3")
        .arg(script)
        .arg("--print-commands")
        .args(args)
        .output()
    {
        Ok(output) => output,
        Err(e) => {
            eprintln!("python3 not found ({e}): skipped");
            return None;
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stdout}{stderr}");
    let line = |key: &str| {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .unwrap_or_else(|| panic!("no {key} in {stdout}"))
            .to_string()
    };
    Some((line("hane: "), line("opponent: "), line("title: "), stderr))
}

#[test]
fn against_gnu_go_the_match_is_fair_by_default() {
    let Some((hane, opponent, title, _)) = commands(&["--hane-args", "--threads 1 --time 1"])
    else {
        return;
    };
    assert!(
        hane.ends_with(" --no-suicide --threads 1 --time 1"),
        "{hane}"
    );
    for flag in [
        "--mode gtp",
        "--chinese-rules",
        "--capture-all-dead",
        "--level 10",
    ] {
        assert!(opponent.contains(flag), "{flag} in {opponent}");
    }
    assert_eq!(title, "hane against GNU Go level 10");
}

#[test]
fn the_gnu_go_level_builds_its_whole_command() {
    let Some((hane, opponent, title, _)) = commands(&["--gnugo-level", "3", "--hane-suicide"])
    else {
        return;
    };
    assert!(!hane.contains("--no-suicide"), "{hane}");
    assert!(
        opponent.ends_with("--chinese-rules --capture-all-dead --level 3"),
        "{opponent}"
    );
    assert_eq!(title, "hane against GNU Go level 3");
}

#[test]
fn suicide_is_forbidden_against_all_but_hane_and_gnu_go_without_area_scoring_is_warned_about() {
    let Some((hane, opponent, title, _)) = commands(&["--opponent", "pachi -t =5000"]) else {
        return;
    };
    // Pachi forbids every suicide, as GNU Go does.
    assert!(hane.contains("--no-suicide"), "{hane}");
    assert_eq!(opponent, "pachi -t =5000");
    assert_eq!(title, "hane against pachi -t =5000");
    // Another hane plays by the same rules: suicide stays legal for both.
    let Some((hane, _, _, _)) = commands(&["--opponent", "/tmp/hane-old --playouts 100"]) else {
        return;
    };
    assert!(!hane.contains("--no-suicide"), "{hane}");
    let Some((_, _, title, warning)) = commands(&["--opponent", "gnugo --mode gtp --level 4"])
    else {
        return;
    };
    assert_eq!(title, "hane against GNU Go level 4");
    assert!(warning.contains("without --chinese-rules"), "{warning}");
}
