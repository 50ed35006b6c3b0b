//! A sequence of input lines against one engine, as the GTP loop runs them:
//! no panic, one well-formed response per command, and a command that fails
//! leaves everything a client can see of the game as it was.
#![no_main]

use hane::format_response;
use hane::{parse_line, Command, Engine};
use hane::{PlayerConfig, SearchParams};
use libfuzzer_sys::fuzz_target;

/// Enough lines to reach deep states, few enough to keep runs fast.
const MAX_LINES: usize = 64;

fn engine() -> Engine {
    Engine::new(&PlayerConfig {
        threads: 1,
        playouts: Some(16),
        seconds_per_move: None,
        seed: Some(1),
        resign_threshold: 0.05,
        ponder: false,
        search: SearchParams {
            max_nodes: 10_000,
            ..SearchParams::default()
        },
    })
}

/// What a client can see of the state: the record (moves, setup, komi,
/// handicap) and the board with captures and the side to move.
fn observe(engine: &mut Engine) -> (String, String) {
    let sgf = engine.execute_detached(Command::PrintSgf(None));
    let board = engine.execute_detached(Command::Showboard);
    (
        sgf.expect("printsgf answers"),
        board.expect("showboard answers"),
    )
}

/// Commands that touch the file system are left to the SGF target: a
/// fuzzer must not write files wherever its input says.
fn touches_files(command: &Command) -> bool {
    matches!(
        command,
        Command::LoadSgf { .. } | Command::PrintSgf(Some(_))
    )
}

fuzz_target!(|input: &[u8]| {
    let mut engine = engine();
    // Start small: genmove and the observations after every command cost
    // far less on 9x9, so many more sessions run; `boardsize` still moves on.
    let _ = engine.execute_detached(Command::Boardsize(9, 9));
    for line in input.split(|&byte| byte == b'\n').take(MAX_LINES) {
        let Some(request) = parse_line(line) else {
            continue;
        };
        let reply = match request.command {
            Ok(command) if touches_files(&command) => continue,
            Ok(command) => {
                let before = observe(&mut engine);
                let reply = engine.execute_detached(command.clone());
                if reply.is_err() {
                    assert_eq!(observe(&mut engine), before, "after {command:?}");
                }
                reply
            }
            Err(error) => Err(error.to_string()),
        };
        let response = format_response(request.id, &reply);
        assert!(response.ends_with("\n\n"));
        assert_eq!(response.matches("\n\n").count(), 1, "{response:?}");
        if engine.has_quit() {
            return;
        }
    }
});
