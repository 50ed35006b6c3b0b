//! Memory over long play: a game driven the way GoGui, Sabaki and
//! gogui-twogtp drive an engine (its own moves by `genmove`, the
//! opponent's by `play`, some taken back by `undo`) must not grow the
//! process game after game. Linux only: it reads the resident size from
//! /proc.
#![cfg(target_os = "linux")]

mod common;

use common::Gtp;

const MOVES_A_GAME: usize = 100;

/// One game of `MOVES_A_GAME` moves between `hane` (Black) and
/// `opponent`, each move reaching the other side by `play`; where
/// `with_undo`, every twentieth move is taken back on both sides and
/// searched again, as a client's takeback does.
fn play_game(hane: &mut Gtp, opponent: &mut Gtp, with_undo: bool) {
    for gtp in [&mut *hane, &mut *opponent] {
        gtp.ok("boardsize 19");
        gtp.ok("clear_board");
        gtp.ok("komi 7.5");
    }
    let mut to_move = "b";
    let mut moves = 0;
    while moves < MOVES_A_GAME {
        let (mover, other) = if to_move == "b" {
            (&mut *hane, &mut *opponent)
        } else {
            (&mut *opponent, &mut *hane)
        };
        let vertex = mover.ok(&format!("genmove {to_move}"));
        if vertex.eq_ignore_ascii_case("resign") {
            return;
        }
        other.ok(&format!("play {to_move} {vertex}"));
        moves += 1;
        if with_undo && moves % 20 == 0 {
            hane.ok("undo");
            opponent.ok("undo");
            continue;
        }
        to_move = if to_move == "b" { "w" } else { "b" };
    }
}

/// With glibc's allocator each search's threads left freed trees pinned in
/// its arenas: 122 MiB after a first such game, then about 40 MiB more a
/// game (docs/robustness.md, "Memory"). The tree is bounded (here by
/// `--max-tree-mb`) and the network cache by its slot count, so after the
/// first game, which fills the cache, the resident size must stay put.
#[test]
fn resident_memory_stays_bounded_over_games_played_through_play_and_undo() {
    let mut hane = Gtp::start_with(&[
        "--threads",
        "2",
        "--playouts",
        "500",
        "--seed",
        "1",
        "--max-tree-mb",
        "64",
    ]);
    let mut opponent = Gtp::start_with(&["--threads", "1", "--playouts", "30", "--seed", "2"]);
    play_game(&mut hane, &mut opponent, false);
    let after_first = hane.resident_mib();
    play_game(&mut hane, &mut opponent, true);
    play_game(&mut hane, &mut opponent, false);
    let after_third = hane.resident_mib();
    assert!(
        after_third <= after_first + 24,
        "resident memory grew from {after_first} MiB after the first game \
         to {after_third} MiB after the third"
    );
}
