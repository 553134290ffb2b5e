//! Transcript tests: the draft's example session, opening rules and bad input, with real rules.

use std::time::Duration;

use tessera_core::io::{Capture, Output};
use tessera_core::EngineOptions;
use tessera_gomoku::Style;

use tessera_agi_protocol::{Best, Command, Flow, Response, Session};

use crate::dialect::Gomoku;

fn session() -> (Session<Gomoku>, Capture) {
    let capture = Capture::new();
    let options = EngineOptions { hash_mb: 4, ..EngineOptions::default() };
    (Session::new(Gomoku { style: Style::Full, network: None }, options, Output::new(capture.clone())), capture)
}

fn send(session: &mut Session<Gomoku>, line: &str) -> Flow {
    session.handle(line.parse().unwrap_or_else(|never| match never {}))
}

fn best_moves(capture: &Capture) -> Vec<Response> {
    capture
        .lines()
        .iter()
        .filter_map(|line| line.parse::<Response>().ok())
        .filter(|response| matches!(response, Response::BestMove { .. }))
        .collect()
}

#[test]
fn grammar_round_trips() {
    for line in [
        "AGI",
        "SETRULE FORBIDDEN THIRDCHANGE FIVEMULITY 3",
        "SETOPTION OWNBOOK ON PONDER OFF",
        "POSITION STATU 78695A MOVES 6879",
        "GO SEARCH 67596A6B PONDER TIME 5000",
        "GO INFINITE",
        "DOMOVE 3C",
        "QUIT",
    ] {
        assert_eq!(line.parse::<Command>().map(|command| command.to_string()), Ok(line.to_string()));
    }
    let glued: Command = "go search 67596a6binfinite".parse().unwrap_or_else(|never| match never {});
    assert_eq!(glued.to_string(), "GO SEARCH 67596A6B INFINITE");
    assert_eq!(
        "SETRULE FORBIDDEN TIVETWINE".parse::<Command>().map(|c| c.to_string()),
        Ok("SETRULE FORBIDDEN FIVETWINE".into())
    );
    for line in [
        "BESTMOVE 67 PONDER 89",
        "BESTMOVE CHANGE",
        "BESTMOVE 6779",
        "INFO DEPTH 1 SCORE 3 PV 6789",
        "INFO NPS 786000",
        "BYE",
    ] {
        assert_eq!(line.parse::<Response>().map(|response| response.to_string()), Ok(line.to_string()));
    }
}

#[test]
fn the_drafts_example_session() {
    let (mut session, capture) = session();
    for line in [
        "AGI",
        "SETOPTION OWNBOOK ON",
        "SETOPTION PONDER OFF",
        "SETRULE FORBIDDEN",
        "ISREADY",
        "POSITION MOVES 78685A69",
        "GO SEARCH 67596A6BINFINITE",
    ] {
        send(&mut session, line);
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(best_moves(&capture).is_empty(), "no BESTMOVE before STOP in an infinite search");
    send(&mut session, "isready");
    send(&mut session, "STOP");
    session.wait();
    let lines = capture.lines();
    assert_eq!(
        lines[..6],
        [
            format!("ID NAME Tessera {}", env!("CARGO_PKG_VERSION")).as_str(),
            "ID AUTHOR The Tessera developers",
            "OPTION OWNBOOK FALSE PONDER TRUE",
            "AGIOK",
            "READYOK",
            "INFO SEARCH 67596A6B"
        ]
    );
    assert!(lines.iter().any(|line| line.starts_with("INFO DEPTH")));
    let Response::BestMove { best: Best::Points(points), .. } = &best_moves(&capture)[0] else { panic!("{lines:?}") };
    assert!(["67", "59", "6A", "6B"].contains(&points[0].to_string().as_str()), "{points:?}");
    send(&mut session, "DOMOVE 67");
    send(&mut session, "GO INFINITE");
    std::thread::sleep(Duration::from_millis(200));
    send(&mut session, "STOP");
    session.wait();
    assert_eq!(best_moves(&capture).len(), 2);
    assert_eq!(send(&mut session, "QUIT"), Flow::Quit);
    assert_eq!(capture.lines().last().map(String::as_str), Some("BYE"));
}

#[test]
fn opening_rules_and_bad_input() {
    let (mut session, capture) = session();
    for line in ["agi", "setrule unforbidden firstchange", "position moves 78", "go time 10000"] {
        send(&mut session, line);
    }
    session.wait();
    assert_eq!(best_moves(&capture).last().map(ToString::to_string).as_deref(), Some("BESTMOVE CHANGE"));
    // Fifth move with two proposals: black (4 stones) answers two points.
    for line in ["setrule forbidden fivetwine", "position moves 78796A88", "go time 20000"] {
        send(&mut session, line);
    }
    session.wait();
    let Some(Response::BestMove { best: Best::Points(points), .. }) = best_moves(&capture).pop() else { panic!() };
    assert!(!points.is_empty() && points.len() <= 2);
    // Bad input is ignored: nothing printed, the session still answers.
    let before = capture.lines().len();
    for line in ["GO SEARCH ZZ", "DOMOVE 00", "POSITION MOVES 7", "FROB", "DOMOVE 78", ""] {
        send(&mut session, line);
    }
    assert_eq!(capture.lines().len(), before);
    send(&mut session, "ISREADY");
    assert_eq!(capture.lines().last().map(String::as_str), Some("READYOK"));
}
