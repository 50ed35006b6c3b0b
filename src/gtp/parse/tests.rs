use super::*;
use std::time::{Duration, Instant};

fn parse(line: &str) -> Option<GtpRequest> {
    parse_line(line.as_bytes())
}

/// The command of a line that must not be ignored.
fn command(line: &str) -> Result<Command, ParseError> {
    match parse(line) {
        Some(request) => request.command,
        None => panic!("line {line:?} was ignored"),
    }
}

fn ok(line: &str) -> Command {
    match command(line) {
        Ok(command) => command,
        Err(error) => panic!("line {line:?} gave {error}"),
    }
}

fn syntax_error(line: &str) -> String {
    match command(line) {
        Err(ParseError::Syntax(detail)) => detail,
        other => panic!("line {line:?} gave {other:?}, expected a syntax error"),
    }
}

fn v(text: &str) -> Vertex {
    Vertex::parse_gtp(text).expect("test vertex")
}

// --- every command with good arguments ---------------------------------

#[test]
fn commands_without_arguments() {
    assert_eq!(ok("protocol_version"), Command::ProtocolVersion);
    assert_eq!(ok("name"), Command::Name);
    assert_eq!(ok("version"), Command::Version);
    assert_eq!(ok("list_commands"), Command::ListCommands);
    assert_eq!(ok("quit"), Command::Quit);
    assert_eq!(ok("clear_board"), Command::ClearBoard);
    assert_eq!(ok("undo"), Command::Undo);
    assert_eq!(ok("showboard"), Command::Showboard);
    assert_eq!(ok("final_score"), Command::FinalScore);
    assert_eq!(ok("gogui-analyze_commands"), Command::GoguiAnalyzeCommands);
    assert_eq!(ok("gogui-interrupt"), Command::GoguiInterrupt);
}

#[test]
fn commands_with_numbers() {
    assert_eq!(ok("boardsize 19"), Command::Boardsize(19, 19));
    assert_eq!(ok("boardsize 007"), Command::Boardsize(7, 7));
    assert_eq!(ok("boardsize 9 7"), Command::Boardsize(9, 7));
    assert_eq!(ok("rectangular_boardsize 5 3"), Command::Boardsize(5, 3));
    assert_eq!(ok("rectangular_boardsize 13"), Command::Boardsize(13, 13));
    assert_eq!(ok("komi 6.5"), Command::Komi(6.5));
    assert_eq!(ok("komi -7"), Command::Komi(-7.0));
    assert_eq!(ok("komi +0.5"), Command::Komi(0.5));
    assert_eq!(ok("komi 1e1"), Command::Komi(10.0));
    assert_eq!(ok("komi .5"), Command::Komi(0.5));
    assert_eq!(ok("fixed_handicap 4"), Command::FixedHandicap(4));
    assert_eq!(ok("place_free_handicap 9"), Command::PlaceFreeHandicap(9));
}

#[test]
fn commands_with_colors_and_moves() {
    assert_eq!(
        ok("play b D4"),
        Command::Play(Color::Black, Move::Play(v("D4")))
    );
    assert_eq!(
        ok("play WHITE q16"),
        Command::Play(Color::White, Move::Play(v("Q16")))
    );
    assert_eq!(
        ok("play Black PASS"),
        Command::Play(Color::Black, Move::Pass)
    );
    assert_eq!(ok("play w Pass"), Command::Play(Color::White, Move::Pass));
    assert_eq!(
        ok("play B z25"),
        Command::Play(Color::Black, Move::Play(v("Z25")))
    );
    assert_eq!(ok("genmove w"), Command::Genmove(Color::White));
    assert_eq!(ok("genmove B"), Command::Genmove(Color::Black));
    assert_eq!(ok("reg_genmove black"), Command::RegGenmove(Color::Black));
    assert_eq!(
        ok("kgs-genmove_cleanup W"),
        Command::KgsGenmoveCleanup(Color::White)
    );
    assert_eq!(
        ok("is_legal w a1"),
        Command::IsLegal(Color::White, Move::Play(v("A1")))
    );
    assert_eq!(
        ok("is_legal b pass"),
        Command::IsLegal(Color::Black, Move::Pass)
    );
    assert_eq!(ok("all_legal white"), Command::AllLegal(Color::White));
    assert_eq!(ok("list_stones b"), Command::ListStones(Color::Black));
    assert_eq!(ok("captures WHITE"), Command::Captures(Color::White));
    assert_eq!(ok("color k10"), Command::ColorAt(v("K10")));
    assert_eq!(ok("countlib T19"), Command::Countlib(v("T19")));
}

#[test]
fn commands_with_words_and_lists() {
    assert_eq!(
        ok("known_command play"),
        Command::KnownCommand("play".into())
    );
    assert_eq!(
        ok("known_command frobnicate"),
        Command::KnownCommand("frobnicate".into())
    );
    assert_eq!(
        ok("final_status_list dead"),
        Command::FinalStatusList(StoneStatus::Dead)
    );
    assert_eq!(
        ok("final_status_list ALIVE"),
        Command::FinalStatusList(StoneStatus::Alive)
    );
    assert_eq!(
        ok("final_status_list Seki"),
        Command::FinalStatusList(StoneStatus::Seki)
    );
    assert_eq!(
        ok("set_free_handicap D4"),
        Command::SetFreeHandicap(vec![v("D4")])
    );
    assert_eq!(
        ok("set_free_handicap d4 Q16  k10 "),
        Command::SetFreeHandicap(vec![v("D4"), v("Q16"), v("K10")])
    );
    assert_eq!(
        ok("loadsgf games/a.sgf"),
        Command::LoadSgf {
            path: "games/a.sgf".into(),
            move_number: None
        }
    );
    assert_eq!(
        ok("loadsgf партия.sgf 12"),
        Command::LoadSgf {
            path: "партия.sgf".into(),
            move_number: Some(12)
        }
    );
    assert_eq!(ok("printsgf"), Command::PrintSgf(None));
    assert_eq!(
        ok("printsgf out.sgf"),
        Command::PrintSgf(Some("out.sgf".into()))
    );
}

#[test]
fn time_commands() {
    assert_eq!(
        ok("time_settings 300 30 5"),
        Command::TimeSettings {
            main_time: 300.0,
            byo_yomi_time: 30.0,
            byo_yomi_stones: 5
        }
    );
    assert_eq!(
        ok("time_settings 0 2.5 0"),
        Command::TimeSettings {
            main_time: 0.0,
            byo_yomi_time: 2.5,
            byo_yomi_stones: 0
        }
    );
    assert_eq!(
        ok("time_left b 12.25 3"),
        Command::TimeLeft {
            color: Color::Black,
            time: 12.25,
            stones: 3
        }
    );
    assert_eq!(
        ok("time_left white 0 0"),
        Command::TimeLeft {
            color: Color::White,
            time: 0.0,
            stones: 0
        }
    );
    assert_eq!(
        ok("kgs-time_settings none"),
        Command::KgsTimeSettings(KgsTimeSystem::None)
    );
    assert_eq!(
        ok("kgs-time_settings Absolute 600"),
        Command::KgsTimeSettings(KgsTimeSystem::Absolute { main_time: 600.0 })
    );
    assert_eq!(
        ok("kgs-time_settings byoyomi 600 30 5"),
        Command::KgsTimeSettings(KgsTimeSystem::Byoyomi {
            main_time: 600.0,
            period_time: 30.0,
            periods: 5
        })
    );
    assert_eq!(
        ok("kgs-time_settings CANADIAN 0.5 300 25"),
        Command::KgsTimeSettings(KgsTimeSystem::Canadian {
            main_time: 0.5,
            period_time: 300.0,
            stones: 25
        })
    );
    // -0 is not negative; it is stored as +0.
    match ok("time_left b -0 0") {
        Command::TimeLeft { time, .. } => assert!(time == 0.0 && time.is_sign_positive()),
        other => panic!("unexpected {other:?}"),
    }
}

/// `list_commands` promises exactly the names the parser knows.
#[test]
fn every_listed_name_is_parsed_and_no_other() {
    for name in command_names() {
        assert_ne!(command(name), Err(ParseError::UnknownCommand), "{name}");
    }
    for name in ["genmove_black", "analyze", "genmove_analyze", "kgs-chat"] {
        assert!(!command_names().any(|known| known == name));
        assert_eq!(command(name), Err(ParseError::UnknownCommand), "{name}");
    }
}

#[test]
fn analysis_arguments_in_every_form() {
    let lz = |args: AnalyzeArgs| Command::Analyze(Dialect::LeelaZero, args);
    let kata = |args: AnalyzeArgs| Command::Analyze(Dialect::KataGo, args);
    assert_eq!(ok("lz-analyze"), lz(AnalyzeArgs::default()));
    let sabaki = AnalyzeArgs {
        color: Some(Color::Black),
        interval: Some(50.0),
        ..AnalyzeArgs::default()
    };
    assert_eq!(ok("lz-analyze B 50"), lz(sabaki.clone()));
    assert_eq!(ok("lz-analyze b interval 50"), lz(sabaki.clone()));
    assert_eq!(
        ok("kata-analyze 25 maxmoves 3 ownership true"),
        kata(AnalyzeArgs {
            interval: Some(25.0),
            max_moves: Some(3),
            ownership: true,
            ..AnalyzeArgs::default()
        })
    );
    assert_eq!(
        ok("kata-genmove_analyze W 10"),
        Command::GenmoveAnalyze(
            Dialect::KataGo,
            AnalyzeArgs {
                color: Some(Color::White),
                interval: Some(10.0),
                ..AnalyzeArgs::default()
            }
        )
    );
    assert_eq!(
        ok("hane-pv w"),
        Command::Gfx(GfxView::Variation, Some(Color::White))
    );
    assert_eq!(ok("hane-score"), Command::Gfx(GfxView::Score, None));
    assert_eq!(
        ok(
            "kata-analyze b 50 rootInfo true pvVisits true pvEdgeVisits true \
ownershipStdev true movesOwnership true ownership false"
        ),
        kata(AnalyzeArgs {
            color: Some(Color::Black),
            interval: Some(50.0),
            root_info: true,
            pv_visits: true,
            pv_edge_visits: true,
            ownership_stdev: true,
            moves_ownership: true,
            ..AnalyzeArgs::default()
        })
    );
    // KataGo's interval is a number of centiseconds, fractions included;
    // noResultValue is KataGo's too.
    assert_eq!(
        ok("kata-analyze b 50.5 interval 20.25 noResultValue true"),
        kata(AnalyzeArgs {
            color: Some(Color::Black),
            interval: Some(20.25),
            no_result_value: true,
            ..AnalyzeArgs::default()
        })
    );
    assert_eq!(
        ok("lz-analyze 0.5"),
        lz(AnalyzeArgs {
            interval: Some(0.5),
            ..AnalyzeArgs::default()
        })
    );
    assert_eq!(syntax_error("kata-analyze interval -1"), EXPECTED_TIME);
    assert_eq!(
        syntax_error("lz-analyze b 50 noResultValue true"),
        KATAGO_ONLY_OPTION
    );
    // Leela Zero's own refusal names no key; hane's says where they live.
    for key in ["ownership", "rootInfo", "pvVisits", "movesOwnership"] {
        assert_eq!(
            syntax_error(&format!("lz-analyze b 50 {key} true")),
            KATAGO_ONLY_OPTION
        );
    }
    assert_eq!(
        syntax_error("lz-analyze b 50 scoreLead true"),
        EXPECTED_LZ_OPTION
    );
    assert_eq!(
        syntax_error("kata-analyze b 50 ownership maybe"),
        EXPECTED_BOOLEAN
    );
    assert_eq!(syntax_error("kata-analyze b 50 interval"), EXPECTED_TIME);
    assert_eq!(syntax_error("kata-analyze b -5"), EXPECTED_ANALYZE_OPTION);
    assert_eq!(syntax_error("kata-analyze 50 b"), EXPECTED_ANALYZE_OPTION);
    assert_eq!(syntax_error("hane-ownership purple"), EXPECTED_COLOR);
    assert_eq!(syntax_error("hane-candidates b w"), TOO_MANY);
}

/// Lizzie's and KataGo's keys: avoid (repeatable), allow, minmoves, in any
/// order among the others.
#[test]
fn analysis_move_filters_and_minmoves() {
    let rule = |kind, color, moves: Vec<Move>, until_depth| MoveRule {
        kind,
        color,
        moves,
        until_depth,
    };
    let mut filter = crate::player::MoveFilter::default();
    filter
        .add(rule(
            FilterKind::Avoid,
            Color::Black,
            vec![Move::Play(v("D4")), Move::Play(v("Q16")), Move::Pass],
            2,
        ))
        .expect("avoid");
    filter
        .add(rule(
            FilterKind::Avoid,
            Color::White,
            vec![Move::Play(v("E5"))],
            1,
        ))
        .expect("avoid");
    assert_eq!(
        ok("lz-analyze b 50 avoid b D4,q16,PASS 2 minmoves 5 avoid white E5, 1 maxmoves 10"),
        Command::Analyze(
            Dialect::LeelaZero,
            AnalyzeArgs {
                color: Some(Color::Black),
                interval: Some(50.0),
                max_moves: Some(10),
                min_moves: Some(5),
                filter,
                ..AnalyzeArgs::default()
            }
        )
    );
    let mut filter = crate::player::MoveFilter::default();
    filter
        .add(rule(
            FilterKind::Allow,
            Color::White,
            vec![Move::Play(v("C3"))],
            1,
        ))
        .expect("allow");
    assert_eq!(
        ok("kata-genmove_analyze w allow w C3 1 ownership true interval 10"),
        Command::GenmoveAnalyze(
            Dialect::KataGo,
            AnalyzeArgs {
                color: Some(Color::White),
                interval: Some(10.0),
                ownership: true,
                filter,
                ..AnalyzeArgs::default()
            }
        )
    );
    for (line, expected) in [
        ("lz-analyze avoid b D4", EXPECTED_DEPTH),
        ("lz-analyze avoid b D4 0", EXPECTED_DEPTH),
        ("lz-analyze avoid b D4 x", EXPECTED_DEPTH),
        ("lz-analyze avoid b", EXPECTED_MOVE_LIST),
        ("lz-analyze avoid b D4;E5 1", EXPECTED_MOVE_LIST),
        ("lz-analyze avoid b D4,I5 1", EXPECTED_MOVE_LIST),
        ("kata-analyze allow purple D4 1", EXPECTED_COLOR),
        ("kata-analyze minmoves", EXPECTED_INTEGER),
        ("kata-analyze minmoves -1", EXPECTED_INTEGER),
        (
            "kata-analyze allow b D4 1 allow b E5 1",
            "allow is given once for a colour, and not with avoid",
        ),
        (
            "lz-analyze allow b D4 1 avoid b E5 1",
            "allow is given once for a colour, and not with avoid",
        ),
        (
            "lz-genmove_analyze avoid w E5 1 allow w D4 1",
            "allow is given once for a colour, and not with avoid",
        ),
    ] {
        assert_eq!(syntax_error(line), expected, "{line}");
    }
    // One allow for each colour is fine.
    ok("kata-analyze allow b D4 1 allow w E5 3");
}

// --- failure classes ---------------------------------------------------

#[test]
fn unknown_commands() {
    assert_eq!(command("frobnicate"), Err(ParseError::UnknownCommand));
    assert_eq!(command("PLAY b D4"), Err(ParseError::UnknownCommand));
    assert_eq!(command("Genmove b"), Err(ParseError::UnknownCommand));
    assert_eq!(command("play_ b D4"), Err(ParseError::UnknownCommand));
    assert_eq!(command("12abc"), Err(ParseError::UnknownCommand));
}

#[test]
fn missing_arguments() {
    assert_eq!(syntax_error("play"), EXPECTED_COLOR);
    assert_eq!(syntax_error("play b"), EXPECTED_MOVE);
    assert_eq!(syntax_error("genmove"), EXPECTED_COLOR);
    assert_eq!(syntax_error("boardsize"), EXPECTED_INTEGER);
    assert_eq!(syntax_error("komi   "), EXPECTED_NUMBER);
    assert_eq!(syntax_error("known_command"), EXPECTED_NAME);
    assert_eq!(syntax_error("final_status_list"), EXPECTED_STATUS);
    assert_eq!(syntax_error("set_free_handicap"), EXPECTED_VERTEX);
    assert_eq!(syntax_error("loadsgf"), EXPECTED_FILE);
    assert_eq!(syntax_error("time_settings 1 2"), EXPECTED_INTEGER);
    assert_eq!(syntax_error("time_left b 10"), EXPECTED_INTEGER);
    assert_eq!(syntax_error("kgs-time_settings"), EXPECTED_KGS_SYSTEM);
    assert_eq!(syntax_error("kgs-time_settings absolute"), EXPECTED_TIME);
    assert_eq!(
        syntax_error("kgs-time_settings byoyomi 1 2"),
        EXPECTED_INTEGER
    );
    assert_eq!(syntax_error("color"), EXPECTED_VERTEX);
    assert_eq!(syntax_error("countlib"), EXPECTED_VERTEX);
}

#[test]
fn extra_arguments() {
    for line in [
        "name x",
        "quit now",
        "boardsize 19 19 19",
        "rectangular_boardsize 9 7 5",
        "komi 6.5 7",
        "play b D4 D5",
        "genmove b w",
        "known_command play genmove",
        "final_status_list dead alive",
        "loadsgf a.sgf 3 4",
        "printsgf a.sgf b.sgf",
        "time_settings 1 2 3 4",
        "kgs-time_settings none 5",
        "kgs-time_settings absolute 1 2",
        "kgs-time_settings canadian 1 2 3 4",
        "color D4 D5",
        "captures b b",
    ] {
        assert_eq!(syntax_error(line), TOO_MANY, "{line}");
    }
}

#[test]
fn bad_colors() {
    for line in [
        "genmove x",
        "genmove bl",
        "genmove blackx",
        "play bw D4",
        "genmove 1",
    ] {
        assert_eq!(syntax_error(line), EXPECTED_COLOR, "{line}");
    }
}

#[test]
fn bad_vertices() {
    for line in [
        "play b Z26",
        "play b I5",
        "play b A0",
        "play b A",
        "play b 4D",
        "play b D4x",
        "play b passx",
        "play b -pass",
        "is_legal w A100",
    ] {
        assert_eq!(syntax_error(line), EXPECTED_MOVE, "{line}");
    }
    assert_eq!(syntax_error("color I5"), EXPECTED_VERTEX);
    assert_eq!(syntax_error("set_free_handicap D4 A0"), EXPECTED_VERTEX);
}

#[test]
fn pass_where_a_vertex_is_required() {
    assert_eq!(syntax_error("color pass"), EXPECTED_VERTEX);
    assert_eq!(syntax_error("countlib PASS"), EXPECTED_VERTEX);
    assert_eq!(syntax_error("set_free_handicap D4 pass"), EXPECTED_VERTEX);
}

#[test]
fn bad_numbers() {
    for line in [
        "komi nan",
        "komi NaN",
        "komi inf",
        "komi -inf",
        "komi infinity",
        "komi 1e400",
        "komi -1e400",
        "komi 6.5.5",
        "komi 1e",
        "komi 0x10",
        "komi six",
    ] {
        assert_eq!(syntax_error(line), EXPECTED_NUMBER, "{line}");
    }
    for line in [
        "boardsize -19",
        "boardsize +19",
        "boardsize 19.0",
        "boardsize 1e2",
    ] {
        assert_eq!(syntax_error(line), EXPECTED_INTEGER, "{line}");
    }
    assert_eq!(syntax_error("loadsgf a.sgf -1"), EXPECTED_INTEGER);
    assert_eq!(syntax_error("final_status_list unknown"), EXPECTED_STATUS);
    assert_eq!(
        syntax_error("kgs-time_settings fischer 1 2"),
        EXPECTED_KGS_SYSTEM
    );
}

#[test]
fn negative_or_non_finite_times() {
    for line in [
        "time_settings -1 30 5",
        "time_settings 300 -0.5 5",
        "time_left b -3 0",
        "time_left b inf 0",
        "kgs-time_settings absolute -600",
        "kgs-time_settings byoyomi 600 -30 5",
        "kgs-time_settings canadian -1e-3 300 25",
    ] {
        assert_eq!(syntax_error(line), EXPECTED_TIME, "{line}");
    }
    assert_eq!(syntax_error("time_settings 300 30 -5"), EXPECTED_INTEGER);
}

#[test]
fn huge_integers_saturate() {
    assert_eq!(
        ok("boardsize 1000000000000000000000000000000"),
        Command::Boardsize(u64::MAX, u64::MAX)
    );
    assert_eq!(
        ok("boardsize 18446744073709551615"),
        Command::Boardsize(u64::MAX, u64::MAX)
    );
    assert_eq!(
        ok("boardsize 18446744073709551616"),
        Command::Boardsize(u64::MAX, u64::MAX)
    );
    assert_eq!(
        ok("fixed_handicap 99999999999999999999"),
        Command::FixedHandicap(u64::MAX)
    );
    assert_eq!(
        ok("time_left w 1 99999999999999999999999"),
        Command::TimeLeft {
            color: Color::White,
            time: 1.0,
            stones: u64::MAX
        }
    );
}

// --- preprocessing -----------------------------------------------------

#[test]
fn empty_blank_and_comment_lines_are_ignored() {
    for line in [
        "",
        " ",
        "   \t ",
        "\r",
        "\t\r",
        "# a comment",
        "   # indented",
        "# interrupt",
    ] {
        assert_eq!(parse(line), None, "{line:?}");
    }
    assert_eq!(parse_line(b"\x00\x01\x7f\x1b"), None);
    assert_eq!(parse_line(b"\x00 # \x00 comment"), None);
}

#[test]
fn comments_are_cut() {
    assert_eq!(ok("genmove b # what else"), Command::Genmove(Color::Black));
    assert_eq!(
        ok("genmove b#no space needed"),
        Command::Genmove(Color::Black)
    );
    assert_eq!(
        ok("play b pass #D4"),
        Command::Play(Color::Black, Move::Pass)
    );
    assert_eq!(syntax_error("play b #D4"), EXPECTED_MOVE);
    assert_eq!(ok("komi 5#.5"), Command::Komi(5.0));
}

#[test]
fn control_characters_are_removed_and_tabs_separate() {
    assert_eq!(ok("genmove b\r"), Command::Genmove(Color::Black));
    assert_eq!(
        ok("play\tb\t\tD4\r"),
        Command::Play(Color::Black, Move::Play(v("D4")))
    );
    assert_eq!(
        parse_line(b"na\x00me"),
        Some(GtpRequest {
            id: None,
            command: Ok(Command::Name)
        })
    );
    assert_eq!(
        parse_line(b"ge\x01nmove \x1bw\x7f\r"),
        Some(GtpRequest {
            id: None,
            command: Ok(Command::Genmove(Color::White))
        })
    );
    assert_eq!(
        parse_line(b"1\x002 pla\x08y b D\x004"),
        Some(GtpRequest {
            id: Some(12),
            command: Ok(Command::Play(Color::Black, Move::Play(v("D4"))))
        })
    );
    assert_eq!(ok("  \t  name  \t "), Command::Name);
}

// --- ids ---------------------------------------------------------------

#[test]
fn ids_are_returned() {
    assert_eq!(
        parse("12 name"),
        Some(GtpRequest {
            id: Some(12),
            command: Ok(Command::Name)
        })
    );
    assert_eq!(
        parse("0\tname"),
        Some(GtpRequest {
            id: Some(0),
            command: Ok(Command::Name)
        })
    );
    assert_eq!(
        parse(" 007  genmove b "),
        Some(GtpRequest {
            id: Some(7),
            command: Ok(Command::Genmove(Color::Black))
        })
    );
    assert_eq!(
        parse("18446744073709551615 quit"),
        Some(GtpRequest {
            id: Some(u64::MAX),
            command: Ok(Command::Quit)
        })
    );
    assert_eq!(
        parse("name"),
        Some(GtpRequest {
            id: None,
            command: Ok(Command::Name)
        })
    );
}

#[test]
fn ids_are_echoed_on_errors() {
    assert_eq!(
        parse("5 frobnicate"),
        Some(GtpRequest {
            id: Some(5),
            command: Err(ParseError::UnknownCommand)
        })
    );
    assert_eq!(
        parse("6 play b I5"),
        Some(GtpRequest {
            id: Some(6),
            command: Err(syntax(EXPECTED_MOVE))
        })
    );
    assert_eq!(
        parse("7 boardsize 19 19 19"),
        Some(GtpRequest {
            id: Some(7),
            command: Err(syntax(TOO_MANY))
        })
    );
    // An id-only line: the empty name is not a command.
    assert_eq!(
        parse("12"),
        Some(GtpRequest {
            id: Some(12),
            command: Err(ParseError::UnknownCommand)
        })
    );
    assert_eq!(
        parse("12 # c"),
        Some(GtpRequest {
            id: Some(12),
            command: Err(ParseError::UnknownCommand)
        })
    );
}

#[test]
fn overflowing_ids_are_not_ids() {
    assert_eq!(
        parse("18446744073709551616 name"),
        Some(GtpRequest {
            id: None,
            command: Err(syntax("id too large"))
        })
    );
    assert_eq!(
        parse("99999999999999999999999999"),
        Some(GtpRequest {
            id: None,
            command: Err(syntax("id too large"))
        })
    );
    // Signs and other characters make a word a (unknown) name, not an id.
    assert_eq!(
        parse("-1 name"),
        Some(GtpRequest {
            id: None,
            command: Err(ParseError::UnknownCommand)
        })
    );
    assert_eq!(
        parse("+1 name"),
        Some(GtpRequest {
            id: None,
            command: Err(ParseError::UnknownCommand)
        })
    );
}

// --- bytes that are not ASCII ------------------------------------------

#[test]
fn invalid_utf8_is_an_unknown_name_or_a_bad_argument() {
    assert_eq!(
        parse_line(b"3 n\xffame"),
        Some(GtpRequest {
            id: Some(3),
            command: Err(ParseError::UnknownCommand)
        })
    );
    assert_eq!(
        parse_line(b"\xff\xfe"),
        Some(GtpRequest {
            id: None,
            command: Err(ParseError::UnknownCommand)
        })
    );
    assert_eq!(
        parse_line(b"genmove \xff").map(|r| r.command),
        Some(Err(syntax(EXPECTED_COLOR)))
    );
    assert_eq!(
        parse_line(b"play b D\xc04").map(|r| r.command),
        Some(Err(syntax(EXPECTED_MOVE)))
    );
    assert_eq!(
        parse_line(b"komi 6.5\x80").map(|r| r.command),
        Some(Err(syntax(EXPECTED_NUMBER)))
    );
    assert_eq!(
        parse_line(b"loadsgf a\xff.sgf").map(|r| r.command),
        Some(Err(syntax(EXPECTED_FILE)))
    );
    // known_command takes any word; a lossy name is simply one hane does not know.
    assert_eq!(
        parse_line(b"known_command pl\xffay").map(|r| r.command),
        Some(Ok(Command::KnownCommand("pl\u{fffd}ay".into())))
    );
}

#[test]
fn unicode_is_not_folded_into_ascii_keywords() {
    // U+212A KELVIN SIGN lower-cases to `k`; nom's tag_no_case on &str
    // would match it and then slice inside it. On bytes it is just a
    // foreign word.
    assert_eq!(
        syntax_error("kgs-time_settings none\u{212A}"),
        EXPECTED_KGS_SYSTEM
    );
    assert_eq!(
        syntax_error("kgs-time_settings \u{212A}"),
        EXPECTED_KGS_SYSTEM
    );
    assert_eq!(syntax_error("genmove blac\u{212A}"), EXPECTED_COLOR);
    assert_eq!(syntax_error("play b \u{0130}5"), EXPECTED_MOVE);
    // A non-breaking space is not a separator.
    assert_eq!(command("name\u{a0}"), Err(ParseError::UnknownCommand));
}

// --- long lines --------------------------------------------------------

const MEGABYTE: usize = 1 << 20;

/// Parses `line` and checks that it took well under a second: linear work
/// on a megabyte is milliseconds, quadratic work would be minutes.
fn parse_quickly(line: &[u8]) -> Option<GtpRequest> {
    let start = Instant::now();
    let request = parse_line(line);
    let elapsed = start.elapsed();
    assert!(elapsed < Duration::from_secs(1), "took {elapsed:?}");
    request
}

fn repeat(piece: &[u8], prefix: &[u8]) -> Vec<u8> {
    let mut line = prefix.to_vec();
    while line.len() < MEGABYTE {
        line.extend_from_slice(piece);
    }
    line
}

#[test]
fn megabyte_lines_are_handled_in_linear_time() {
    let vertices = repeat(b" D4", b"set_free_handicap");
    match parse_quickly(&vertices).map(|r| r.command) {
        Some(Ok(Command::SetFreeHandicap(list))) => {
            assert_eq!(list.len(), (vertices.len() - 17) / 3);
            assert!(list.iter().all(|&point| point == v("D4")));
        }
        other => panic!("unexpected {:?}", other.map(|c| c.map(|_| ()))),
    }
    let mut last_bad = vertices.clone();
    last_bad.extend_from_slice(b" pass");
    assert_eq!(
        parse_quickly(&last_bad).map(|r| r.command),
        Some(Err(syntax(EXPECTED_VERTEX)))
    );

    let digits = repeat(b"9", b"");
    assert_eq!(
        parse_quickly(&digits),
        Some(GtpRequest {
            id: None,
            command: Err(syntax("id too large"))
        })
    );
    let big_integer = repeat(b"9", b"boardsize ");
    assert_eq!(
        parse_quickly(&big_integer).map(|r| r.command),
        Some(Ok(Command::Boardsize(u64::MAX, u64::MAX)))
    );
    let long_komi = repeat(b"0", b"komi 0.");
    assert_eq!(
        parse_quickly(&long_komi).map(|r| r.command),
        Some(Ok(Command::Komi(0.0)))
    );

    let long_name = repeat(b"a", b"");
    assert_eq!(
        parse_quickly(&long_name).map(|r| r.command),
        Some(Err(ParseError::UnknownCommand))
    );
    let spaces = repeat(b" \t", b"");
    assert_eq!(parse_quickly(&spaces), None);
    let controls = repeat(b"\x00\r\x01", b"name");
    assert_eq!(
        parse_quickly(&controls).map(|r| r.command),
        Some(Ok(Command::Name))
    );
    let spaced_args = repeat(b" ", b"genmove");
    assert_eq!(
        parse_quickly(&spaced_args).map(|r| r.command),
        Some(Err(syntax(EXPECTED_COLOR)))
    );
    let many_args = repeat(b" b", b"genmove");
    assert_eq!(
        parse_quickly(&many_args).map(|r| r.command),
        Some(Err(syntax(TOO_MANY)))
    );
    let invalid = repeat(b"\xff\xc0", b"known_command ");
    assert!(matches!(
        parse_quickly(&invalid).map(|r| r.command),
        Some(Ok(Command::KnownCommand(_)))
    ));
}
