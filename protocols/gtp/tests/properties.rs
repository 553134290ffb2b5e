//! Property tests of the GTP session on core's tic-tac-toe (a 3×3 board; no pass move): random
//! command sequences (ids, comments, bad arguments, analysis streams, time systems) never panic,
//! every command gets exactly one response (`=` or `?`), and every move the engine names (in
//! `genmove` or in analysis) is legal in the position it names it for. Bounded for CI.

mod toy;

use std::time::Duration;

use proptest::prelude::*;
use tessera_core::harness::count_panics;
use tessera_core::io::{Capture, Output};
use tessera_core::EngineOptions;
use tessera_gtp_protocol::command::preprocess;
use tessera_gtp_protocol::{run, Config};
use toy::{Toy, CLOCKS, NAMED};

fn vertex() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (prop_oneof![Just('A'), Just('B'), Just('C')], 1u8..4).prop_map(|(c, r)| format!("{c}{r}")),
        1 => Just("pass".to_string()),
        1 => Just("D4".to_string()),
        1 => Just("I1".to_string()),
        1 => Just("zz".to_string()),
    ]
}

fn command() -> impl Strategy<Value = String> {
    let color = prop_oneof![Just("b"), Just("w"), Just("black"), Just("x")];
    let plain = prop_oneof![
        Just("protocol_version"),
        Just("name"),
        Just("version"),
        Just("known_command genmove"),
        Just("list_commands"),
        Just("boardsize 3"),
        Just("boardsize 19"),
        Just("boardsize x"),
        Just("clear_board"),
        Just("komi 6.5"),
        Just("komi nan"),
        Just("undo"),
        Just("fixed_handicap 2"),
        Just("place_free_handicap 3"),
        Just("set_free_handicap A1 B2"),
        Just("time_settings 10 0 0"),
        Just("time_settings 0 5 1"),
        Just("time_left b 99999999 0"),
        Just("time_left w -5 0"),
        Just("kgs-time_settings byoyomi 0 1 3"),
        Just("kgs-rules chinese"),
        Just("kgs-rules bogus"),
        Just("kgs-game_over"),
        Just("final_score"),
        Just("final_status_list dead"),
        Just("showboard"),
        Just("loadsgf /nonexistent/x.sgf"),
        Just("printsgf"),
        Just("printsgf -"),
        Just("lz-analyze 1"),
        Just("kata-analyze b 1 ownership true"),
        Just("gogui-best_moves"),
        Just("gogui-ownership"),
        Just("gogui-analyze_commands"),
        Just("# a comment"),
        Just("\tname"),
        Just(""),
    ]
    .prop_map(String::from);
    prop_oneof![
        4 => (color.clone(), vertex()).prop_map(|(c, v)| format!("play {c} {v}")),
        3 => color.clone().prop_map(|c| format!("genmove {c}")),
        1 => color.clone().prop_map(|c| format!("reg_genmove {c}")),
        1 => color.prop_map(|c| format!("kata-genmove_analyze {c} 1")),
        5 => plain,
        1 => "[ -~]{0,20}",
    ]
}

fn line() -> impl Strategy<Value = String> {
    (prop::option::of(0u32..100), command()).prop_map(|(id, text)| match id {
        Some(id) if !text.is_empty() => format!("{id} {text}"),
        _ => text,
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_command_gets_one_response_and_moves_are_legal(lines in prop::collection::vec(line(), 1..25)) {
        count_panics();
        let capture = Capture::new();
        let config = Config {
            options: EngineOptions { hash_mb: 1, ..EngineOptions::default() },
            move_time: Duration::from_millis(5),
            move_block: None,
            playouts: Some(64),
            ponder: false,
        };
        NAMED.lock().expect("not poisoned").clear();
        let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
        run(Toy, config, std::io::Cursor::new(text.into_bytes()), Output::new(capture.clone()));
        let output = capture.lines();
        let responses = output.iter().filter(|line| line.starts_with('=') || line.starts_with('?')).count();
        let commands = lines.iter().filter(|line| !preprocess(line).is_empty()).count();
        prop_assert_eq!(responses, commands, "{:?}", output);
        let named = NAMED.lock().expect("not poisoned").clone();
        prop_assert!(named.iter().all(|&(_, legal)| legal), "{:?}\n{:?}", named, output);
        prop_assert_eq!(count_panics(), 0);
    }
}

/// Runs `script` on the toy with `config`; returns the clocks its searches saw that lie within a
/// minute below `full` (a clock no other test uses tells this script's searches apart, since the
/// tests of this file run at once and share the record).
fn clocks_below(full: Duration, config: Config, script: &str) -> Vec<Duration> {
    run(Toy, config, std::io::Cursor::new(script.as_bytes().to_vec()), Output::new(Capture::new()));
    let near = |left: &Duration| *left <= full && *left > full.saturating_sub(Duration::from_secs(60));
    CLOCKS.lock().expect("not poisoned").iter().flatten().copied().filter(near).collect()
}

#[test]
fn a_clock_runs_down_without_time_left_and_starts_full_in_a_new_game() {
    // A controller that sets a time system and never sends `time_left`: the session counts the
    // time its moves take.
    // A script's searches get their full budget (a share of 97 s each; no other test's clock lies
    // within a minute below 97 s).
    let main = Duration::from_secs(97);
    let script = "boardsize 3\ntime_settings 97 0 0\ngenmove b\ngenmove b\nclear_board\ngenmove b\n";
    let ours = clocks_below(main, Config::default(), script);
    assert_eq!(ours.len(), 3, "{ours:?}");
    assert_eq!(ours[0], main);
    assert!(ours[1] < main, "the first move's time is off the clock: {ours:?}");
    assert_eq!(ours[2], main, "clear_board starts a full clock");
}

#[test]
fn a_move_block_keeps_a_canadian_clock() {
    // Blocks of 10 moves in 10 move times of 3.7 s: after the first move the clock shows what is
    // left of the 37 s block (without a block every move gets a fixed time and no clock).
    let config = Config { move_time: Duration::from_millis(3700), move_block: Some(10), ..Config::default() };
    let ours = clocks_below(Duration::from_secs(37), config, "boardsize 3\ngenmove b\ngenmove b\n");
    assert_eq!(ours.len(), 1, "the second move's clock only: {ours:?}");
    assert!(ours[0] < Duration::from_secs(37), "the first move's time came off the block: {ours:?}");
}
