//! Transcript tests: command lines in, exact response lines out, with the real gomoku rules.

use tessera_core::io::{Capture, Output};
use tessera_core::EngineOptions;
use tessera_gomoku::Style;
use tessera_pbrain_protocol::{Command, Flow, Response, Session};

use crate::dialect::Gomoku;

fn session() -> (Session<Gomoku>, Capture) {
    let capture = Capture::new();
    let options = EngineOptions { hash_mb: 4, ..EngineOptions::default() };
    (Session::new(Gomoku { style: Style::Full, network: None }, options, Output::new(capture.clone())), capture)
}

/// Runs `lines` through a fresh session (waiting for each search) and returns the output lines.
fn transcript(lines: &[&str]) -> Vec<String> {
    let (mut session, capture) = session();
    session.handle(Command::Info("timeout_turn".into(), "200".into()));
    for line in lines {
        let command: Command = line.parse().unwrap_or_else(|never| match never {});
        if session.handle(command) == Flow::Quit {
            break;
        }
        session.wait();
    }
    session.wait();
    capture.lines().into_iter().filter(|line| !line.starts_with("MESSAGE")).collect()
}

#[test]
fn commands_round_trip() {
    for line in [
        "START 20",
        "START 15 12",
        "RECTSTART 20,15",
        "TURN 3,4",
        "BOARD",
        "10,10,1",
        "DONE",
        "INFO timeout_turn 5000",
        "TAKEBACK 1,2",
        "YXNBEST 3",
        "SWAP2BOARD",
        "END",
    ] {
        assert_eq!(line.parse::<Command>().map(|c| c.to_string()), Ok(line.to_string()));
    }
    assert_eq!("foo".parse::<Command>(), Ok(Command::Unknown("foo".into())));
    assert_eq!("TURN a,b".parse::<Command>(), Ok(Command::Malformed("TURN a,b".into())));
    for line in ["OK", "7,7", "SWAP", "ERROR size", "FORBID 0807.", "7,7 8,8 9,9", "MESSAGE hi"] {
        assert_eq!(line.parse::<Response>().map(|r| r.to_string()), Ok(line.to_string()));
    }
}

#[test]
fn gomocup_game_flow() {
    let out = transcript(&["START 20", "INFO timeout_turn 200", "INFO time_left 100000", "BEGIN", "ABOUT"]);
    assert_eq!(out[0], "OK");
    assert_eq!(out[1], "10,10");
    assert!(out[2].starts_with("name=\"Tessera\""));
    // The opponent (black, one stone more) has a four on row 0 blocked by our 0,0: block 5,0.
    let out = transcript(&[
        "START 15",
        "INFO timeout_turn 300",
        "BOARD",
        "1,0,2",
        "2,0,2",
        "3,0,2",
        "0,0,1",
        "7,7,1",
        "4,0,2",
        "9,9,1",
        "DONE",
    ]);
    assert_eq!(out[0], "OK");
    assert_eq!(out[1], "5,0", "the four must be blocked: {out:?}");
}

#[test]
fn bad_input_never_crashes() {
    let out = transcript(&[
        "TURN 1,1",
        "START 40",
        "START 3",
        "START 15",
        "TURN 99,99",
        "TURN 7,7",
        "TURN 7,7",
        "FOO",
        "TURN x",
        "RECTSTART 22,9",
        "BEGIN",
    ]);
    assert_eq!(out[0], "ERROR no board: send START first");
    assert!(out[1].starts_with("ERROR unsupported board size"));
    assert!(out[2].starts_with("ERROR"));
    assert_eq!(out[3], "OK");
    assert!(out[4].starts_with("ERROR"), "{out:?}");
    assert!(out[5].contains(','), "{out:?}");
    assert!(out[6].starts_with("ERROR"), "occupied: {out:?}");
    assert!(out[7].starts_with("UNKNOWN"));
    assert!(out[8].starts_with("ERROR"));
    assert_eq!(out[9], "OK");
    assert!(out[10].contains(','));
}

#[test]
fn yixin_extensions() {
    let out = transcript(&[
        "INFO rule 2",
        "START 15 15",
        "YXBOARD",
        "6,7,1",
        "0,0,2",
        "7,7,1",
        "2,0,2",
        "8,5,1",
        "4,0,2",
        "8,6,1",
        "6,0,2",
        "DONE",
        "YXSHOWFORBID",
        "YXSHOWINFO",
        "RESTART",
        "INFO rule 1",
        "YXSHOWFORBID",
    ]);
    assert_eq!(
        out,
        [
            "OK",
            "FORBID 0807.",
            "MESSAGE INFO MAX_THREAD_NUM 64",
            format!("MESSAGE INFO MAX_HASH_SIZE {}", tessera_core::memory::max_table_mb() * 1024).as_str(),
            "OK",
            "FORBID ."
        ]
        .map(String::from)
        .to_vec()
        .into_iter()
        .filter(|line| !line.starts_with("MESSAGE"))
        .collect::<Vec<_>>()
    );
}

#[test]
fn takeback_swap2_and_play() {
    let out = transcript(&["START 15", "TURN 7,7", "TAKEBACK 7,7", "TAKEBACK 7,7", "PLAY 3,3", "SWAP2BOARD", "DONE"]);
    assert_eq!(out[0], "OK");
    assert!(out[1].contains(','));
    assert_eq!(out[2], "OK");
    assert!(out[3].starts_with("ERROR"));
    assert_eq!(out[4], "3,3");
    assert_eq!(out[5], "7,7 8,8 8,6");
    let out = transcript(&["START 15", "INFO timeout_turn 200", "SWAP2BOARD", "7,7,1", "8,8,2", "9,9,1", "DONE"]);
    assert!(out[1] == "SWAP" || out[1].parse::<Response>().is_ok_and(|r| matches!(r, Response::Move(..))), "{out:?}");
}

#[test]
fn end_quits_and_stop_answers_at_once() {
    let (mut session, capture) = session();
    for line in ["START 20", "INFO timeout_turn 60000", "INFO timeout_match 0", "TURN 10,10"] {
        session.handle(line.parse().unwrap_or_else(|never| match never {}));
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    let stopped = std::time::Instant::now();
    session.handle(Command::Stop);
    session.wait();
    assert!(stopped.elapsed() < std::time::Duration::from_secs(2));
    assert!(capture.lines().iter().any(|line| line.parse::<Response>().is_ok_and(|r| matches!(r, Response::Move(..)))));
    assert_eq!(session.handle(Command::End), Flow::Quit);
}
