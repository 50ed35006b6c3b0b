use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::game::color::Color;
use crate::game::vertex::{BoardSize, Move, Vertex};

/// A vertex from GTP text, for readable expectations.
fn v(gtp: &str) -> Vertex {
    Vertex::parse_gtp(gtp).unwrap()
}

fn play(color: Color, gtp: &str) -> SgfAction {
    SgfAction::Play(color, Move::Play(v(gtp)))
}

const B: Color = Color::Black;
const W: Color = Color::White;

fn error_text(text: &[u8]) -> String {
    parse(text).unwrap_err().to_string()
}

#[test]
fn gogui_file() {
    let game =
        parse(b"(;FF[4]CA[UTF-8]AP[GoGui:1.5.1]SZ[9]KM[6.5]PL[B]AB[cc][gg]AW[ee];B[dd];W[];B[tt])")
            .unwrap();
    assert_eq!(game.size, BoardSize::square(9));
    assert_eq!(game.komi, Some(6.5));
    assert_eq!(game.handicap, None);
    assert_eq!(
        game.actions,
        vec![
            SgfAction::Setup(vec![
                (v("C7"), Some(B)),
                (v("G3"), Some(B)),
                (v("E5"), Some(W)),
            ]),
            SgfAction::ToMove(B),
            play(B, "D6"),
            SgfAction::Play(W, Move::Pass),
            SgfAction::Play(B, Move::Pass),
        ]
    );
}

#[test]
fn sabaki_file() {
    let text = b"(;GM[1]FF[4]CA[UTF-8]AP[Sabaki:0.52.2]KM[0.5]SZ[19]DT[2024-03-01]\n\
        HA[2]RU[Japanese]PB[Black]PW[White]AB[dp][pd]\n\
        ;W[pp]C[a comment with \\] and a fake ;B[aa\\] inside]\n\
        ;B[dd]\n\
        ;W[qf]\n\
        )\n";
    let game = parse(text).unwrap();
    assert_eq!(game.size, BoardSize::square(19));
    assert_eq!(game.komi, Some(0.5));
    assert_eq!(game.handicap, Some(2));
    assert_eq!(game.rules.as_deref(), Some("Japanese"));
    assert_eq!(
        game.actions,
        vec![
            SgfAction::Setup(vec![(v("D4"), Some(B)), (v("Q16"), Some(B))]),
            play(W, "Q4"),
            play(B, "D16"),
            play(W, "R14"),
        ]
    );
}

#[test]
fn main_line_takes_the_first_variation_everywhere() {
    let text = b"(;SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee];B[ff]))(;W[gg](;B[hh])))";
    let game = parse(text).unwrap();
    assert_eq!(
        game.actions,
        vec![play(B, "A9"), play(W, "B8"), play(B, "C7"), play(W, "D6")]
    );
}

#[test]
fn only_the_first_game_of_a_collection_is_read() {
    let game = parse(b"junk before (;SZ[5];B[aa])(;SZ[9];B[bb]) junk after").unwrap();
    assert_eq!(game.size, BoardSize::square(5));
    assert_eq!(game.actions, vec![play(B, "A5")]);
}

#[test]
fn escapes_soft_line_breaks_and_simple_text() {
    let text = b"(;RE[W+\\]R\\\\]RU[Tromp\\\n-Taylor\r\nnew]C[x\\];B[aa\\]])";
    let game = parse(text).unwrap();
    assert_eq!(game.result.as_deref(), Some("W+]R\\"));
    assert_eq!(game.rules.as_deref(), Some("Tromp-Taylor new"));
    assert!(game.actions.is_empty());
}

#[test]
fn text_need_not_be_utf8() {
    let game = parse(b"(;RE[B+\xff\xfe];B[aa])").unwrap();
    assert_eq!(game.result.as_deref(), Some("B+\u{fffd}\u{fffd}"));
}

#[test]
fn compressed_point_lists_are_spelled_out() {
    let game = parse(b"(;SZ[9]AB[aa:bc]AW[ii]AE[hh:gi])").unwrap();
    let expected: Vec<(Vertex, Option<Color>)> = vec![
        (v("A9"), Some(B)),
        (v("B9"), Some(B)),
        (v("A8"), Some(B)),
        (v("B8"), Some(B)),
        (v("A7"), Some(B)),
        (v("B7"), Some(B)),
        (v("J1"), Some(W)),
        (v("G2"), None),
        (v("H2"), None),
        (v("G1"), None),
        (v("H1"), None),
    ];
    assert_eq!(game.actions, vec![SgfAction::Setup(expected)]);
}

#[test]
fn size_is_read_before_root_setup_whatever_the_order() {
    let game = parse(b"(;AB[ee]SZ[5])").unwrap();
    assert_eq!(
        game.actions,
        vec![SgfAction::Setup(vec![(v("E1"), Some(B))])]
    );
}

#[test]
fn root_moves_and_later_setup_are_actions_in_order() {
    let text = b"(;SZ[5]B[aa];W[bb];AW[cc]AE[aa]AB[dd]PL[w];W[ee])";
    let game = parse(text).unwrap();
    assert_eq!(
        game.actions,
        vec![
            play(B, "A5"),
            play(W, "B4"),
            SgfAction::Setup(vec![
                (v("D2"), Some(B)),
                (v("C3"), Some(W)),
                (v("A5"), None),
            ]),
            SgfAction::ToMove(W),
            play(W, "E1"),
        ]
    );
}

#[test]
fn tt_is_a_pass_only_up_to_19x19() {
    let small = parse(b"(;SZ[19];B[tt];W[ ])").unwrap();
    assert_eq!(
        small.actions,
        vec![
            SgfAction::Play(B, Move::Pass),
            SgfAction::Play(W, Move::Pass)
        ]
    );
    let large = parse(b"(;SZ[21];B[tt];W[])").unwrap();
    assert_eq!(
        large.actions,
        vec![
            SgfAction::Play(B, Move::Play(Vertex::new(19, 1))),
            SgfAction::Play(W, Move::Pass)
        ]
    );
    // In a setup list `tt` is a point, and off a 19x19 board.
    assert_eq!(error_text(b"(;AB[tt])"), "bad point 'tt' for size 19");
}

#[test]
fn a_decimal_comma_komi_is_read_as_its_number() {
    assert_eq!(parse(b"(;KM[6,5])").unwrap().komi, Some(6.5));
    assert_eq!(parse(b"(;KM[ -0,5 ])").unwrap().komi, Some(-0.5));
    assert_eq!(parse(b"(;KM[7])").unwrap().komi, Some(7.0));
}

#[test]
fn ff3_identifiers_and_empty_values_are_tolerated() {
    let game = parse(b"(;SiZe[5]AddBlack[aa]KM[]HA[]RE[]GM[1]FF[3];B[bb])").unwrap();
    assert_eq!(game.size, BoardSize::square(5));
    assert_eq!(game.komi, None);
    assert_eq!(game.handicap, None);
    assert_eq!(game.result, None);
    assert_eq!(
        game.actions,
        vec![SgfAction::Setup(vec![(v("A5"), Some(B))]), play(B, "B4")]
    );
}

#[test]
fn syntax_errors_say_what_and_where() {
    assert_eq!(error_text(b""), "malformed SGF: no game tree");
    assert_eq!(error_text(b"just some text"), "malformed SGF: no game tree");
    assert_eq!(error_text(b"()"), "malformed SGF: unexpected ')' at byte 1");
    assert_eq!(
        error_text(b"(;B[aa]"),
        "malformed SGF: unexpected end of file at byte 7"
    );
    assert_eq!(
        error_text(b"(;B[aa](;W[bb]);B[cc])"),
        "malformed SGF: unexpected ';' at byte 15"
    );
    assert_eq!(
        error_text(b"(;B[aa] 42)"),
        "malformed SGF: unexpected character at byte 8"
    );
    assert_eq!(
        error_text(b"(;C"),
        "malformed SGF: unexpected end of file at byte 3"
    );
    assert_eq!(
        error_text(b"(\xff\xfe"),
        "malformed SGF: unexpected character at byte 1"
    );
    assert_eq!(
        parse(b"(;B[aa]))"),
        Ok(SgfGame {
            actions: vec![play(B, "A19")],
            ..SgfGame::default()
        }),
        "text after the first game tree is ignored"
    );
}

#[test]
fn value_errors() {
    assert_eq!(error_text(b"(;KM[abc])"), "malformed SGF: bad KM 'abc'");
    assert_eq!(error_text(b"(;KM[inf])"), "malformed SGF: bad KM 'inf'");
    assert_eq!(error_text(b"(;KM[6,5,0])"), "malformed SGF: bad KM '6,5,0'");
    assert_eq!(error_text(b"(;KM[6,5.0])"), "malformed SGF: bad KM '6,5.0'");
    // A komi past GTP's bound for `komi` (±1251) is refused alike: one of
    // 10^41 loaded and made kata-analyze print `scoreLead NaN`.
    assert_eq!(
        error_text(b"(;KM[1251.5])"),
        "malformed SGF: bad KM '1251.5'"
    );
    assert_eq!(error_text(b"(;KM[-1252])"), "malformed SGF: bad KM '-1252'");
    let huge = format!("(;KM[1{}])", "0".repeat(41));
    assert_eq!(
        error_text(huge.as_bytes()),
        format!("malformed SGF: bad KM '1{}...'", "0".repeat(19))
    );
    assert_eq!(parse(b"(;KM[-1251])").unwrap().komi, Some(-1251.0));
    assert_eq!(error_text(b"(;HA[-1])"), "malformed SGF: bad HA '-1'");
    assert_eq!(error_text(b"(;SZ[abc])"), "malformed SGF: bad SZ 'abc'");
    assert_eq!(error_text(b"(;SZ[])"), "malformed SGF: bad SZ ''");
    assert_eq!(error_text(b"(;PL[X])"), "malformed SGF: bad PL 'X'");
    assert_eq!(error_text(b"(;B[aa][bb])"), "malformed SGF: bad B 'aa][bb'");
    let long = format!("(;KM[{}])", "x".repeat(1000));
    assert_eq!(
        error_text(long.as_bytes()),
        format!("malformed SGF: bad KM '{}...'", "x".repeat(20))
    );
}

#[test]
fn size_errors() {
    assert_eq!(error_text(b"(;SZ[30])"), "unsupported board size 30");
    assert_eq!(error_text(b"(;SZ[1])"), "unsupported board size 1");
    assert_eq!(error_text(b"(;SZ[26:9])"), "unsupported board size 26:9");
    assert_eq!(error_text(b"(;SZ[9:1])"), "unsupported board size 9:1");
    assert_eq!(
        parse(b"(;SZ[19:9])").map(|g| g.size),
        Ok(BoardSize {
            width: 19,
            height: 9
        })
    );
    assert_eq!(
        parse(b"(;SZ[13:13])").map(|g| g.size),
        Ok(BoardSize::square(13))
    );
    assert_eq!(
        parse(b"(;SZ[25])").map(|g| g.size),
        Ok(BoardSize::square(25))
    );
}

#[test]
fn point_errors() {
    assert_eq!(error_text(b"(;SZ[9];B[zz])"), "bad point 'zz' for size 9");
    assert_eq!(error_text(b"(;SZ[9];W[ja])"), "bad point 'ja' for size 9");
    assert_eq!(error_text(b"(;SZ[9];B[Aa])"), "bad point 'Aa' for size 9");
    assert_eq!(error_text(b"(;SZ[9];B[abc])"), "bad point 'abc' for size 9");
    assert_eq!(
        error_text(b"(;SZ[9];B[aa:bb])"),
        "bad point 'aa:bb' for size 9"
    );
    assert_eq!(
        error_text(b"(;SZ[9]AB[aa:jj])"),
        "bad point 'jj' for size 9"
    );
    // The last row and column are on the board.
    assert!(parse(b"(;SZ[9];B[ii])").is_ok());
}

#[test]
fn other_games_are_refused() {
    assert_eq!(error_text(b"(;GM[3]SZ[8])"), "not a Go game: GM[3]");
}

#[test]
fn rectangles_cannot_blow_up_memory() {
    // 9 bytes a value, 625 points each: 3 MB of text would mean 200 M points.
    let mut text = b"(;SZ[25]AB".to_vec();
    for _ in 0..(MAX_SETUP_POINTS / 625 + 1) {
        text.extend_from_slice(b"[aa:yy]");
    }
    text.push(b')');
    assert_eq!(
        error_text(&text),
        format!("malformed SGF: more than {MAX_SETUP_POINTS} setup points")
    );
    // Exactly the limit, spread over nodes, is still read.
    let mut text = b"(;SZ[25]".to_vec();
    for _ in 0..(MAX_SETUP_POINTS / 625) {
        text.extend_from_slice(b";AW[aa:yy]");
    }
    text.push(b')');
    assert_eq!(
        parse(&text).map(|g| g.actions.len()),
        Ok(MAX_SETUP_POINTS / 625)
    );
}

#[test]
fn deep_nesting_costs_no_stack() {
    const DEPTH: usize = 100_000;
    let nested = |depth: usize, closed: bool| {
        let mut text = Vec::with_capacity(depth * 9);
        for i in 0..depth {
            text.extend_from_slice(if i % 2 == 0 { b"(;B[aa]" } else { b"(;W[bb]" });
        }
        if closed {
            text.extend(std::iter::repeat_n(b')', depth));
        }
        text
    };
    // On the main line, nesting as deep as the longest line allowed is read.
    let game = parse(&nested(MAX_MAIN_LINE_ACTIONS, true)).unwrap();
    assert_eq!(game.actions.len(), MAX_MAIN_LINE_ACTIONS);
    assert_eq!(game.actions.last(), Some(&play(W, "B18")));
    assert_eq!(parse(&nested(DEPTH, true)), Err(SgfError::MainLineTooLong));

    // In a side variation the whole depth is walked and skipped.
    let in_side_variation = |tree: Vec<u8>| {
        let mut text = b"(;B[cc](;W[dd])".to_vec();
        text.extend_from_slice(&tree);
        text.push(b')');
        text
    };
    let game = parse(&in_side_variation(nested(DEPTH, true))).unwrap();
    assert_eq!(game.actions, vec![play(B, "C17"), play(W, "D16")]);
    // Unbalanced: every variation is left open.
    let open = in_side_variation(nested(DEPTH, false));
    assert_eq!(
        parse(&open),
        Err(SgfError::Syntax {
            unexpected: "end of file".to_string(),
            offset: open.len()
        })
    );
}

#[test]
fn garbage_gives_errors_not_panics() {
    let mut rng = SmallRng::seed_from_u64(7);
    // Bytes weighted toward SGF punctuation, so the parser gets deep inside.
    const ALPHABET: &[u8] = b"();[]\\:ABWKMSZ aaddtt\n\x00\xff19";
    for round in 0..2_000 {
        let len = rng.gen_range(0..200);
        let text: Vec<u8> = (0..len)
            .map(|_| {
                if round % 2 == 0 {
                    ALPHABET[rng.gen_range(0..ALPHABET.len())]
                } else {
                    rng.gen()
                }
            })
            .collect();
        if let Ok(game) = parse(&text) {
            assert!(game.size.is_playable());
        }
    }
}

/// A main line of `pairs` black and white moves, about 12 bytes a pair.
fn long_game(pairs: usize) -> Vec<u8> {
    let mut text = b"(;FF[4]SZ[19]KM[7.5]".to_vec();
    for i in 0..pairs {
        let x = b'a' + (i % 19) as u8;
        let y = b'a' + (i / 19 % 19) as u8;
        text.extend_from_slice(&[b';', b'B', b'[', x, y, b']', b';', b'W', b'[', b']']);
        text.push(b'\n');
    }
    text.push(b')');
    text
}

#[test]
fn ten_megabytes_parse_quickly() {
    // A main line that long is refused as soon as it passes the bound, so
    // the ten megabytes go in a side variation, which is read to the end.
    let mut text = b"(;SZ[19];B[cc](;W[dd])".to_vec();
    text.extend_from_slice(&long_game(10_000_000 / 11));
    text.push(b')');
    assert!(text.len() >= 10_000_000);
    let start = Instant::now();
    let game = parse(&text).unwrap();
    let elapsed = start.elapsed();
    eprintln!("parsed {} bytes in {elapsed:?}", text.len());
    assert_eq!(game.actions.len(), 2);
    assert_eq!(
        parse(&long_game(10_000_000 / 11)),
        Err(SgfError::MainLineTooLong)
    );
    // Generous: the test profile is opt-level 2 and the machine is shared.
    assert!(elapsed < Duration::from_secs(5), "took {elapsed:?}");
}

#[test]
fn written_games_read_back_equal() {
    let gogui =
        b"(;FF[4]CA[UTF-8]AP[GoGui:1.5.1]SZ[9]KM[6.5]PL[B]AB[cc][gg]AW[ee];B[dd];W[];B[tt])";
    let game = parse(gogui).unwrap();
    let text = write(&game);
    assert!(text.starts_with("(;FF[4]GM[1]CA[UTF-8]AP[hane:"), "{text}");
    assert!(text.contains("SZ[9]KM[6.5]"), "{text}");
    assert!(
        text.contains("AB[cc][gg]AW[ee]PL[B]\n;B[dd];W[];B[]"),
        "{text}"
    );
    assert_eq!(parse(text.as_bytes()), Ok(game));

    let game = SgfGame {
        size: BoardSize::square(25),
        komi: Some(-3.5),
        handicap: Some(0),
        rules: Some("odd ] rules \\ here".to_string()),
        result: Some("W+3.5".to_string()),
        actions: vec![
            SgfAction::ToMove(W),
            SgfAction::Play(W, Move::Play(Vertex::new(19, 5))),
            SgfAction::Play(B, Move::Pass),
            SgfAction::Setup(vec![
                (Vertex::new(24, 24), Some(W)),
                (Vertex::new(0, 0), None),
            ]),
            SgfAction::Setup(vec![(Vertex::new(3, 3), Some(B))]),
            SgfAction::ToMove(B),
            SgfAction::ToMove(W),
            SgfAction::Play(W, Move::Play(Vertex::new(0, 24))),
        ],
    };
    let text = write(&game);
    assert!(text.contains("KM[-3.5]"), "{text}");
    assert!(text.contains("RU[odd \\] rules \\\\ here]"), "{text}");
    assert!(text.contains(";W[tt]"), "{text}");
    assert_eq!(parse(text.as_bytes()), Ok(game));
}

#[test]
fn komi_is_written_plainly() {
    for (komi, written) in [
        (7.5, "KM[7.5]"),
        (7.0, "KM[7]"),
        (-3.5, "KM[-3.5]"),
        (0.0, "KM[0]"),
    ] {
        let game = SgfGame {
            komi: Some(komi),
            ..SgfGame::default()
        };
        let text = write(&game);
        assert!(text.contains(written), "{text}");
        assert_eq!(parse(text.as_bytes()).map(|g| g.komi), Ok(Some(komi)));
    }
    let text = write(&SgfGame::default());
    assert!(!text.contains("KM["), "{text}");
    assert!(!text.contains("RE["), "{text}");
}

#[test]
fn long_games_round_trip() {
    let game = parse(&long_game(2_000)).unwrap();
    assert_eq!(parse(write(&game).as_bytes()), Ok(game));
}

#[test]
fn example_files_parse() {
    let capture = parse(include_bytes!("../../../gtp-tests/sgf/capture-9x9.sgf")).unwrap();
    assert_eq!(capture.size, BoardSize::square(9));
    assert_eq!(capture.komi, Some(7.0));
    assert_eq!(capture.actions.len(), 11);
    assert_eq!(capture.actions[6], play(B, "E4"));

    let setup = parse(include_bytes!("../../../gtp-tests/sgf/setup-5x5.sgf")).unwrap();
    assert_eq!(setup.size, BoardSize::square(5));
    assert_eq!(
        setup.actions,
        vec![
            SgfAction::Setup(vec![
                (v("B4"), Some(B)),
                (v("C3"), Some(B)),
                (v("C2"), Some(B)),
                (v("D2"), Some(W)),
                (v("D4"), Some(W)),
            ]),
            SgfAction::ToMove(W),
            play(W, "C5"),
            play(B, "B1"),
        ]
    );

    let handicap = parse(include_bytes!("../../../gtp-tests/sgf/handicap-19x19.sgf")).unwrap();
    assert_eq!(handicap.size, BoardSize::square(19));
    assert_eq!(handicap.handicap, Some(2));
    assert_eq!(handicap.komi, Some(0.5));
    assert_eq!(
        handicap.actions,
        vec![
            SgfAction::Setup(vec![(v("D4"), Some(B)), (v("Q16"), Some(B))]),
            SgfAction::ToMove(W),
            play(W, "Q4"),
            play(B, "D16"),
            play(W, "R14"),
            play(B, "O17"),
        ]
    );
}

#[test]
fn main_line_length_is_bounded() {
    // Passes are the cheapest moves to write and each one costs a whole
    // position when replayed: the reader stops a long line early.
    let line = |moves: usize| {
        let mut text = b"(;SZ[19]".to_vec();
        for i in 0..moves {
            text.extend_from_slice(if i % 2 == 0 { b";B[]" } else { b";W[]" });
        }
        text.push(b')');
        text
    };
    assert_eq!(
        parse(&line(MAX_MAIN_LINE_ACTIONS)).map(|g| g.actions.len()),
        Ok(MAX_MAIN_LINE_ACTIONS)
    );
    assert_eq!(
        error_text(&line(MAX_MAIN_LINE_ACTIONS + 1)),
        format!("main line longer than {MAX_MAIN_LINE_ACTIONS} moves and setups")
    );
    // Variations off the main line are skipped, not counted: the first
    // variation is the main line's second move, the others are ignored.
    let mut text = b"(;SZ[19];B[aa]".to_vec();
    for _ in 0..2 * MAX_MAIN_LINE_ACTIONS {
        text.extend_from_slice(b"(;W[bb])");
    }
    text.push(b')');
    assert_eq!(parse(&text).map(|g| g.actions.len()), Ok(2));
}
