//! scripts/match.py builds a fair match's commands: GNU Go with area
//! scoring at the level asked for, hane with --no-suicide against every
//! opponent but another hane, and the opponent named in the plot's title;
//! a match cut short is played on where it stopped. Skipped where python3
//! is not installed.

use std::process::Command;

/// `python3 scripts/match.py`, for the caller to add its arguments.
fn match_script() -> Command {
    let mut command = Command::new("python3");
    command.arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/match.py"));
    command
}

/// Runs `command` (from `match_script`), which must succeed; its stdout
/// and stderr, or None without python3.
fn run(command: &mut Command) -> Option<(String, String)> {
    let output = match command.output() {
        Ok(output) => output,
        Err(e) => {
            eprintln!("python3 not found ({e}): skipped");
            return None;
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stdout}{stderr}");
    Some((stdout, stderr))
}

/// The script's `--print-commands` lines: hane's command, the opponent's,
/// the plot's title; None without python3.
fn commands(args: &[&str]) -> Option<(String, String, String, String)> {
    let (stdout, stderr) = run(match_script().arg("--print-commands").args(args))?;
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
fn suicide_is_forbidden_against_all_but_a_hane_allowing_it_and_gnu_go_without_area_scoring_is_warned_about(
) {
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
    // ... unless the other hane forbids it: then both do.
    let Some((hane, _, _, _)) = commands(&["--opponent", "/tmp/hane-old --no-suicide"]) else {
        return;
    };
    assert!(hane.contains("--no-suicide"), "{hane}");
    let Some((_, _, title, warning)) = commands(&["--opponent", "gnugo --mode gtp --level 4"])
    else {
        return;
    };
    assert_eq!(title, "hane against GNU Go level 4");
    assert!(warning.contains("without --chinese-rules"), "{warning}");
}

/// Run again on a finished gogui-twogtp match, the script redraws its
/// table and summary from game.dat instead of starting twogtp, which
/// refuses (`game.dat already contains 2 games`) and leaves game.lock
/// behind: the rerun stopped there. A stand-in for twogtp on PATH does
/// just that, so the test fails if the script calls it.
#[cfg(unix)]
#[test]
fn a_finished_match_is_redrawn_not_replayed() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("hane-match-redraw-{}", std::process::id()));
    let out = dir.join("out");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&out).expect("out dir");
    std::fs::create_dir_all(&bin).expect("bin dir");
    let twogtp = bin.join("gogui-twogtp");
    std::fs::write(
        &twogtp,
        "#!/bin/sh\ntouch game.lock out/game.lock 2>/dev/null\n\
echo 'game.dat already contains 2 games' >&2\nexit 1\n",
    )
    .expect("write the stand-in");
    std::fs::set_permissions(&twogtp, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let rows = "# BlackLabel: hane\n\
# GAME\tRES_B\tRES_W\tRES_R\tALT\tDUP\tLEN\tTIME_B\tTIME_W\tCPU_B\tCPU_W\tERR\tERR_MSG\n\
0\tB+7.5\tB+7.5\t?\t0\t-\t61\t30.1\t12.0\t29.9\t11.8\t0\t\n\
1\tW+2.5\tW+2.5\t?\t1\t-\t58\t28.4\t11.1\t28.0\t11.0\t0\t\n";
    std::fs::write(out.join("game.dat"), rows).expect("write game.dat");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let Some((stdout, _)) = run(match_script()
        .args([
            "--games",
            "2",
            "--opponent",
            "gnugo --mode gtp --chinese-rules",
        ])
        .arg("--out")
        .arg(&out)
        .current_dir(&dir)
        .env("PATH", path))
    else {
        return;
    };
    assert!(stdout.contains("the match is over"), "{stdout}");
    assert!(!out.join("game.lock").exists(), "a stale game.lock");
    let table = std::fs::read_to_string(out.join("results.tsv")).expect("results.tsv");
    assert_eq!(table.lines().count(), 3, "{table}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the script's own driver: hane against itself on 7x7 at 100
/// playouts (a game in about a second), `games` games into `out`; None
/// without python3.
fn own_match(out: &std::path::Path, games: &str, extra: &[&str]) -> Option<String> {
    let hane = env!("CARGO_BIN_EXE_hane");
    let (stdout, _) = run(match_script()
        .args([
            "--no-twogtp",
            "--size",
            "7",
            "--games",
            games,
            "--hane",
            hane,
        ])
        .args(["--hane-args", "--threads 1 --playouts 100 --seed 3"])
        .arg("--opponent")
        .arg(format!("{hane} --threads 1 --playouts 100 --seed 4"))
        .arg("--out")
        .arg(out)
        .args(extra))?;
    Some(stdout)
}

/// A long match outlives a session or a lent machine's call: the games in
/// results.tsv are kept, and a game saved in flight is played on from its
/// moves, in its colours, before the games not begun.
#[test]
fn a_match_cut_short_is_played_on_where_it_stopped() {
    let out = std::env::temp_dir().join(format!("hane-match-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).expect("out dir");
    // Game 1 finished in an earlier run (a row no engine here would write:
    // 9.87 s a move); game 0, hane Black, stopped after three moves.
    let header = "game\thane_colour\thane_outcome\thane_margin\tresult\ttt_score\t\
opponent_score\tscores_agree\tmoves\tended_by_passes\thane_passed_first\t\
hane_secs_per_move\topp_secs_per_move\terror\terror_by\n";
    let kept = "1\tW\twon\tresign\tW+R\t\t\tNone\t40\tFalse\tFalse\t9.87\t1.5\t\t\n";
    std::fs::write(out.join("results.tsv"), format!("{header}{kept}")).expect("table");
    std::fs::write(
        out.join("game-0000.partial.json"),
        r#"{"hane": "B", "moves": [["B", "D4"], ["W", "C3"], ["B", "pass"]],
            "think": {"hane": 1.0, "opponent": 0.5}, "count": {"hane": 2, "opponent": 1},
            "clock_left": {"hane": 0, "opponent": 0}}"#,
    )
    .expect("saved game");
    let Some(stdout) = own_match(&out, "3", &[]) else {
        return;
    };
    assert!(
        stdout.contains("resuming: 1 games kept, 1 in flight (0)"),
        "{stdout}"
    );
    let table = std::fs::read_to_string(out.join("results.tsv")).expect("results.tsv");
    let rows: Vec<&str> = table.lines().skip(1).collect();
    assert_eq!(rows.len(), 3, "{table}");
    assert!(rows.contains(&kept.trim_end_matches('\n')), "{table}");
    assert!(rows[0].starts_with("0\tB\t"), "{table}");
    assert!(rows[2].starts_with("2\tB\t"), "{table}");
    let record = std::fs::read_to_string(out.join("game-0000.sgf")).expect("game 0");
    assert!(record.contains("PB[hane]"), "{record}");
    assert!(record.contains(";B[dd];W[ce];B[]"), "{record}");
    assert!(!out.join("game-0000.partial.json").exists());
    // Cut short by --stop-after, played on by the same command: the two
    // runs together finish every game, and none is left in flight.
    let Some(first) = own_match(&out, "6", &["--parallel", "2", "--stop-after", "0.5"]) else {
        return;
    };
    let Some(second) = own_match(&out, "6", &["--parallel", "2"]) else {
        return;
    };
    let table = std::fs::read_to_string(out.join("results.tsv")).expect("results.tsv");
    assert_eq!(table.lines().count(), 7, "{first}{second}{table}");
    for game in 0..6 {
        assert!(
            table.lines().any(|l| l.starts_with(&format!("{game}\t"))),
            "{game}: {table}"
        );
        assert!(!out.join(format!("game-{game:04}.partial.json")).exists());
    }
    assert!(table.contains("\t9.87\t"), "{table}");
    let Some(third) = own_match(&out, "6", &[]) else {
        return;
    };
    assert!(third.contains("the match is over"), "{third}");
    let _ = std::fs::remove_dir_all(&out);
}
