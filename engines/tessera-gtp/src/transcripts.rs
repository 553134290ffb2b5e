//! In-process transcripts: GTP input lines → exact output, through the real session and go
//! dialect, written into a `Capture` instead of stdout.

use tessera_core::io::{Capture, Output};
use tessera_go::policy::Policy;
use tessera_go::search::VALUE_WEIGHT;
use tessera_gtp_protocol::{run, Config};

use crate::dialect::TesseraGo;

fn transcript(input: &[&str]) -> String {
    transcript_with(Config { playouts: Some(200), ..Config::default() }, 0.0, input)
}

fn transcript_with(config: Config, resign_threshold: f32, input: &[&str]) -> String {
    let capture = Capture::new();
    let dialect = TesseraGo { policy: Policy { resign_threshold }, value_weight: VALUE_WEIGHT };
    let text: String = input.iter().map(|line| format!("{line}\n")).collect();
    run(dialect, config, std::io::Cursor::new(text.into_bytes()), Output::new(capture.clone()));
    capture.text()
}

#[test]
fn framing_errors_and_board_commands() {
    let text = transcript(&[
        "1 protocol_version",
        "# comment",
        "",
        "boardsize 26",
        "2 boardsize 7",
        "play b D5",
        "play w C3",
        "play b E3",
        "play w E3",
        "bogus",
        "komi",
        "3 undo",
        "undo",
        "undo",
        "undo",
        "quit",
        "name",
    ]);
    let expected = "=1 2\n\n? unacceptable size\n\n=2 \n\n= \n\n= \n\n= \n\n? illegal move\n\n\
                    ? unknown command\n\n? syntax error\n\n=3 \n\n= \n\n= \n\n? cannot undo\n\n= \n\n";
    assert_eq!(text, expected);
}

#[test]
fn showboard_handicap_and_score() {
    let text = transcript(&["boardsize 7", "play b D5", "play w C3", "play b E3", "showboard"]);
    let board = [
        "= ",
        "   A B C D E F G",
        " 7 . . . . . . . 7",
        " 6 . . . . . . . 6",
        " 5 . . + X + . . 5",
        " 4 . . . + . . . 4",
        " 3 . . O . X . . 3",
        " 2 . . . . . . . 2     WHITE (O) has captured 0 stones",
        " 1 . . . . . . . 1     BLACK (X) has captured 0 stones",
        "   A B C D E F G",
    ];
    assert!(text.ends_with(&format!("{}\n\n", board.join("\n"))), "{text}");
    let text = transcript(&["boardsize 9", "fixed_handicap 5", "fixed_handicap 2", "genmove w"]);
    assert!(text.starts_with("= \n\n= C7 G7 E5 C3 G3\n\n? board not empty\n\n= "), "{text}");
    let text = transcript(&["boardsize 2", "komi 0.5", "play b A1", "play w pass", "play b pass", "final_score"]);
    assert!(text.ends_with("= B+3.5\n\n"), "{text}");
}

#[test]
fn random_input_never_breaks_the_session() {
    // Command names with random arguments, and raw garbage: every line gets `=` or `?`.
    let words = [
        "play",
        "genmove",
        "boardsize",
        "komi",
        "undo",
        "fixed_handicap",
        "place_free_handicap",
        "set_free_handicap",
        "final_score",
        "final_status_list",
        "showboard",
        "time_left",
        "kgs-time_settings",
        "kata-analyze",
        "lz-genmove_analyze",
        "reg_genmove",
        "loadsgf",
        "kgs-genmove_cleanup",
        "clear_board",
        "b",
        "w",
        "pass",
        "A1",
        "T19",
        "Z25",
        "3",
        "-1",
        "0",
        "1000",
        "9",
        "dead",
        "byoyomi",
        "ownership",
        "true",
        "\u{1}",
        "#",
        "I9",
        "J10",
    ];
    let mut rng = tessera_core::Rng::new(11);
    let mut lines = vec!["boardsize 5".to_string()];
    for _ in 0..400 {
        let count = 1 + rng.below(4);
        let line: Vec<&str> = (0..count).map(|_| words[rng.below(words.len())]).collect();
        lines.push(line.join(" "));
    }
    let input: Vec<&str> = lines.iter().map(String::as_str).collect();
    let text = transcript(&input);
    for response in text.split("\n\n").filter(|r| !r.is_empty()) {
        let first = response.trim_start_matches('\n');
        assert!(first.starts_with('=') || first.starts_with('?') || first.starts_with("info"), "{response:?}");
    }
}

#[test]
fn handicap_stones_give_the_playouts_a_dynamic_komi() {
    use tessera_go::komi::{extra_komi, HANDICAP_STONE_VALUE};
    use tessera_gtp_protocol::{Dialect, Handicap};
    let go = TesseraGo { policy: Policy { resign_threshold: 0.0 }, value_weight: VALUE_WEIGHT };
    // fixed_handicap and place_free_handicap set up the position the komi is read from.
    for kind in [Handicap::Fixed, Handicap::Free] {
        let mut game = go.new_game(9, 0.5, None);
        assert_eq!(extra_komi(&game), 0.0);
        go.place_handicap(&mut game, kind, 3).expect("3 stones fit on 9x9");
        assert_eq!(extra_komi(&game), 3.0 * HANDICAP_STONE_VALUE, "{kind:?}");
    }
    // Six stones on 9x9 and komi 0.5: nearly every playout is Black's, and without the
    // dynamic komi White resigns at once (below 0.08 after 500 playouts); with it White plays.
    let config = Config { playouts: Some(600), ..Config::default() };
    let text = transcript_with(config, 0.08, &["boardsize 9", "komi 0.5", "fixed_handicap 6", "genmove w"]);
    assert!(!text.contains("resign"), "{text}");
}

#[test]
fn the_value_weight_flag_reaches_the_searcher_and_refuses_bad_weights() {
    use clap::Parser;
    use tessera_core::{EngineOptions, Player};
    let weight = |arguments: &[&str]| {
        let cli = crate::cli::Cli::try_parse_from(arguments)?;
        let go = TesseraGo { policy: Policy::default(), value_weight: cli.value_weight as f32 };
        Ok::<f32, clap::Error>(go.new_searcher(&EngineOptions::default()).config().value_weight)
    };
    assert_eq!(weight(&["tessera-gtp"]).unwrap(), VALUE_WEIGHT);
    assert_eq!(weight(&["tessera-gtp", "--value-weight", "40"]).unwrap(), 40.0);
    for bad in ["-1", "nan", "inf", "forty"] {
        let argument = format!("--value-weight={bad}");
        let error = weight(&["tessera-gtp", &argument]).expect_err(bad).to_string();
        assert!(error.contains("is not a weight"), "{bad}: {error}");
    }
}
