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
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/match.py");
    let output = match std::process::Command::new("python3")
        .arg(script)
        .args([
            "--games",
            "2",
            "--opponent",
            "gnugo --mode gtp --chinese-rules",
        ])
        .arg("--out")
        .arg(&out)
        .current_dir(&dir)
        .env("PATH", path)
        .output()
    {
        Ok(output) => output,
        Err(e) => {
            eprintln!("python3 not found ({e}): skipped");
            return;
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("the match is over"), "{stdout}");
    assert!(!out.join("game.lock").exists(), "a stale game.lock");
    let table = std::fs::read_to_string(out.join("results.tsv")).expect("results.tsv");
    assert_eq!(table.lines().count(), 3, "{table}");
    let _ = std::fs::remove_dir_all(&dir);
}
