//! The policy network as a client sees it: the priors that `kata-analyze`
//! reports at the root are the network's, and the heuristics' where it is
//! turned off (`--network none`); a weights file given with `--network`
//! that cannot be read stops hane.

mod common;

use common::Gtp;

/// The (move, prior) pairs of the first info line of `kata-analyze` on the
/// empty board of `size`, every legal move listed (`minmoves`).
fn root_priors(args: &[&str], size: usize) -> Vec<(String, f64)> {
    root_priors_of(&mut Gtp::start_with(args), size)
}

fn root_priors_of(gtp: &mut Gtp, size: usize) -> Vec<(String, f64)> {
    gtp.ok(&format!("boardsize {size}"));
    gtp.write_raw(b"kata-analyze b 1 minmoves 700\n");
    assert_eq!(gtp.read_line(), "= ");
    let line = gtp.read_line();
    gtp.write_raw(b"name\n");
    while !gtp.read_line().is_empty() {}
    assert_eq!(gtp.read_response(), "= hane");
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut priors = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if *w == "move" {
            let prior = words[i..]
                .iter()
                .position(|&k| k == "prior")
                .map(|j| words[i + j + 1].parse::<f64>().expect("a prior"))
                .expect("every move has a prior");
            priors.push((words[i + 1].to_string(), prior));
        }
    }
    priors
}

/// The line of a vertex (1 for the edge) on a square board of `size`.
fn line_of(vertex: &str, size: usize) -> usize {
    let col = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
        .find(&vertex[..1])
        .expect("a column");
    let row: usize = vertex[1..].parse().expect("a row");
    1 + col.min(size - 1 - col).min(row - 1).min(size - row)
}

#[test]
fn the_root_priors_are_the_network_s_on_19x19() {
    let priors = root_priors(&["--threads", "1", "--seed", "1"], 19);
    assert!(priors.len() >= 361, "every point: {}", priors.len());
    let total: f64 = priors.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 0.01, "{total}");
    let (best, p) = priors
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .expect("priors");
    // Strong players open on the third or fourth line, nearly always
    // in a corner: the network puts most of its weight there.
    assert!((3..=4).contains(&line_of(best, 19)), "{best} {p}");
    assert!(*p > 0.1, "{best} {p}");
    let edge: f64 = priors
        .iter()
        .filter(|(v, _)| v != "pass" && line_of(v, 19) <= 2)
        .map(|(_, p)| p)
        .sum();
    assert!(edge < 0.01, "the first two lines: {edge}");
}

#[test]
fn without_the_network_the_priors_are_the_heuristics() {
    let args = [
        "--threads",
        "1",
        "--seed",
        "1",
        "--param",
        "prior_network=0",
    ];
    let priors = root_priors(&args, 19);
    let best = best_prior(&priors);
    assert!(best < 0.05, "a flat prior: {best}");
}

fn best_prior(priors: &[(String, f64)]) -> f64 {
    priors.iter().map(|(_, p)| *p).fold(0.0, f64::max)
}

#[test]
fn a_weights_file_replaces_the_built_in_network() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/data/policy-net.bin");
    let mut gtp = Gtp::start_with(&["--threads", "1", "--network", file, "-v"]);
    assert!(best_prior(&root_priors_of(&mut gtp, 19)) > 0.1);
    let (status, stderr) = gtp.close();
    assert!(status.success());
    assert!(
        stderr.contains("residual blocks of 64 channels"),
        "{stderr}"
    );
}

/// A weights file (format version 1) of one channel, no block and a 1x1
/// first kernel, every weight 0 but the pass logit's bias: a network that
/// prefers pass by `pass_bias` over every point.
fn pass_loving_network(pass_bias: f32) -> Vec<u8> {
    let mut bytes = b"HANEPOL1".to_vec();
    for word in [1u32, 19, 1, 0, 1] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    // Stem (19 weights, 1 bias), head (1 weight, bias), pass (1 weight).
    for _ in 0..23 {
        bytes.extend_from_slice(&0f32.to_le_bytes());
    }
    bytes.extend_from_slice(&pass_bias.to_le_bytes());
    bytes
}

#[test]
fn a_network_that_prefers_pass_does_not_pass_on_an_open_board() {
    let dir = common::TempDir::new("pass-loving-network");
    for bias in [5.0, 20.0] {
        let file = dir.file(&format!("pass-{bias}.bin"), &pass_loving_network(bias));
        let file = file.to_string_lossy().to_string();
        let args = ["--threads", "1", "--playouts", "200", "--seed", "1"];
        let mut gtp = Gtp::start_with(&[&args[..], &["--network", &file]].concat());
        gtp.ok("boardsize 19");
        for turn in 0..8 {
            let color = ["b", "w"][turn % 2];
            let answer = gtp.ok(&format!("genmove {color}"));
            // Pass (bias 5, at move 3 or 4), or with every visit on pass
            // the first legal points in board order, A1 and T19 (bias 20).
            assert!(
                !["pass", "A1", "T19"].contains(&answer.as_str()),
                "pass bias {bias}, move {}: {color} {answer}",
                turn + 1
            );
        }
        let (status, stderr) = gtp.close();
        assert!(status.success(), "{stderr}");
        assert!(!stderr.contains("pattern prior alone"), "{stderr}");
    }
}

/// hane started with `args` and nothing on stdin: its exit status and
/// stderr. A start-up that refuses must end by itself.
fn refused_start(args: &[&str]) -> (std::process::ExitStatus, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_hane"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("hane runs");
    (
        output.status,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn an_unreadable_weights_file_stops_hane_with_the_reason() {
    // It once warned on stderr and played on with the pattern prior, exit
    // status 0: under a GUI the warning was hidden and the user played a
    // weaker engine than asked. Now GTP, `hane analysis` and `hane
    // analyze` stop at once, as KataGo and Leela Zero do.
    let dir = std::env::temp_dir().join(format!("hane-network-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let not_weights = dir.join("notes.txt");
    std::fs::write(&not_weights, "not weights").expect("a file");
    let missing = dir.join("missing.bin");
    let game = dir.join("game.sgf");
    std::fs::write(&game, "(;GM[1]SZ[9];B[ee])").expect("a file");
    let game = game.to_str().expect("a UTF-8 path");
    for (path, reason) in [
        (&missing, "No such file"),
        (&not_weights, "not a hane policy network file"),
    ] {
        let path = path.to_str().expect("a UTF-8 path");
        let tools: [&[&str]; 4] = [&[], &["gtp"], &["analysis"], &["analyze", game]];
        for tool in tools {
            let args = [&["--network", path][..], tool].concat();
            let (status, stderr) = refused_start(&args);
            assert_eq!(status.code(), Some(1), "{args:?}: {stderr}");
            assert!(
                stderr.contains(&format!("hane: cannot use the network {path}: "))
                    && stderr.contains(reason)
                    && stderr.contains("--network none"),
                "{args:?}: {stderr}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn network_none_plays_on_the_pattern_prior_by_choice() {
    let mut gtp = Gtp::start_with(&["--threads", "1", "--network", "none"]);
    assert!(best_prior(&root_priors_of(&mut gtp, 19)) < 0.05);
    assert!(gtp.send("genmove b").starts_with("= "));
    let (status, _) = gtp.close();
    assert!(status.success());
}

/// The figures of the log's "network cache: H of L evaluations reused"
/// lines.
fn cache_lines(stderr: &str) -> Vec<(u64, u64)> {
    stderr
        .lines()
        .filter_map(|line| {
            let rest = &line[line.find("network cache: ")? + "network cache: ".len()..];
            let words: Vec<&str> = rest.split_whitespace().collect();
            Some((words.first()?.parse().ok()?, words.get(2)?.parse().ok()?))
        })
        .collect()
}

#[test]
fn a_genmove_on_19x19_reuses_cached_evaluations() {
    // The root is evaluated for the tree's prior and again for the
    // report's priors, and the next genmove's tree reaches positions the
    // first evaluated: the player's cache answers those.
    let mut gtp = Gtp::start_with(&["--threads", "1", "--seed", "1", "--playouts", "400", "-v"]);
    gtp.ok("boardsize 19");
    for color in ["b", "w"] {
        assert!(gtp.send(&format!("genmove {color}")).starts_with("= "));
    }
    let (status, stderr) = gtp.close();
    assert!(status.success());
    let lines = cache_lines(&stderr);
    assert_eq!(lines.len(), 2, "{stderr}");
    for (hits, lookups) in lines {
        assert!(hits >= 1 && hits < lookups, "{hits} of {lookups}");
    }
}

#[cfg(unix)]
#[test]
fn a_network_path_that_is_no_regular_file_is_refused_at_once() {
    // A FIFO would block the start-up until a writer came, and /dev/zero
    // never ends: both are named and refused before a byte is read.
    let dir = std::env::temp_dir().join(format!("hane-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let fifo = dir.join("net.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut paths = vec!["/dev/zero".to_string()];
    if made {
        paths.push(fifo.to_str().expect("a UTF-8 path").to_string());
    }
    for path in &paths {
        let started = std::time::Instant::now();
        let (status, stderr) = refused_start(&["--threads", "1", "--network", path]);
        assert_eq!(status.code(), Some(1), "{stderr}");
        assert!(started.elapsed().as_secs() < 10);
        assert!(
            stderr.contains(path.as_str()) && stderr.contains("not a regular file"),
            "{stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_weights_file_with_a_weight_that_is_no_number_is_refused() {
    let shipped = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/data/policy-net.bin"))
        .expect("the shipped weights");
    let dir = std::env::temp_dir().join(format!("hane-nan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("nan.bin");
    let mut bytes = shipped.clone();
    let at = bytes.len() - 4;
    bytes[at..].copy_from_slice(&f32::NAN.to_le_bytes());
    std::fs::write(&path, &bytes).expect("a file");
    let path = path.to_str().expect("a UTF-8 path");
    let (status, stderr) = refused_start(&["--threads", "1", "--network", path]);
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(path) && stderr.contains("not a finite number"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
