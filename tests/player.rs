//! The player seen through GTP: deterministic when seeded with a fixed
//! playout count, legal moves only, and the pass rule.

mod common;

use common::Gtp;

fn moves_of_a_seeded_game(seed: &str) -> Vec<String> {
    let mut gtp = Gtp::start_with(&["--threads", "1", "--playouts", "300", "--seed", seed]);
    gtp.ok("boardsize 9");
    gtp.ok("clear_board");
    (0..12)
        .map(|i| gtp.ok(if i % 2 == 0 { "genmove b" } else { "genmove w" }))
        .collect()
}

#[test]
fn fixed_playouts_and_a_seed_repeat_the_same_game() {
    let first = moves_of_a_seeded_game("11");
    assert_eq!(first, moves_of_a_seeded_game("11"));
    assert!(
        first.iter().all(|m| m != "pass" && m != "resign"),
        "{first:?}"
    );
}

#[test]
fn generated_moves_are_legal_and_played() {
    let mut gtp = Gtp::start_with(&["--threads", "2", "--playouts", "200", "--seed", "5"]);
    gtp.ok("boardsize 7");
    gtp.ok("clear_board");
    let mut passes = 0;
    for turn in 0..200 {
        let color = if turn % 2 == 0 { "b" } else { "w" };
        let legal = gtp.ok(&format!("all_legal {color}"));
        let legal: Vec<&str> = legal.split_whitespace().collect();
        let played = gtp.ok(&format!("genmove {color}"));
        match played.as_str() {
            "resign" => break,
            "pass" => {
                passes += 1;
                if passes == 2 {
                    break;
                }
            }
            // A multi-stone suicide is legal and leaves the point empty,
            // so legality is checked against the list from before the move.
            mv => {
                passes = 0;
                assert!(legal.contains(&mv), "turn {turn}: {mv} not in {legal:?}");
            }
        }
    }
    // However it ended, the count of the final board is well formed.
    let score = gtp.ok("final_score");
    assert!(
        score == "0" || score.starts_with("B+") || score.starts_with("W+"),
        "{score}"
    );
}
