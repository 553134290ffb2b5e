//! UCCI transcripts on core's tic-tac-toe: the protocol's state machine alone, input lines →
//! exact output lines. The xiangqi transcripts live beside the xiangqi dialect in
//! `engines/tessera-ucci`.

mod toy;

use tessera_core::io::{Capture, Output};
use tessera_core::toys::TicTacToe;
use tessera_core::{Evaluate, Flow, LineSession};
use tessera_ucci_protocol::{Options, Session};
use toy::Toy;

/// Lines of `input`, each handled after the previous search ended; progress lines dropped.
fn transcript(input: &[&str]) -> Vec<String> {
    let capture = Capture::new();
    let mut session = Session::new(Toy, Output::new(capture.clone()), Options::default());
    for line in input {
        if session.handle_alone(line) == Flow::Quit {
            break;
        }
        session.wait();
    }
    capture.lines().into_iter().filter(|line| !line.starts_with("info time")).collect()
}

#[test]
fn boot_idle_stop_and_quit() {
    let lines = transcript(&["ucci", "isready", "stop", "quit", "isready"]);
    assert_eq!(&lines[..4], ["id name Toy", "id copyright MIT OR Apache-2.0", "id author tests", "id user Toy"]);
    assert_eq!(&lines[lines.len() - 4..], ["ucciok", "readyok", "nobestmove", "bye"]);
}

#[test]
fn searches_perft_and_evaluation() {
    let lines = transcript(&["ucci", "position startpos moves 4", "go depth 0", "go perft 1", "go depth 9"]);
    let searched = &lines[lines.iter().position(|line| line == "ucciok").unwrap() + 1..];
    let eval = TicTacToe::from_moves(&[4]).evaluate();
    assert_eq!(searched[0], format!("info depth 0 score {eval}"));
    assert_eq!(searched[1], "nobestmove");
    assert_eq!(searched[10], "Nodes searched: 8");
    assert!(searched.last().unwrap().starts_with("bestmove "), "{searched:?}");
}

#[test]
fn no_legal_move_and_bad_input() {
    let lines = transcript(&["ucci", "position fen 0,3,1,4,2", "go depth 3", "flurb", "position startpos moves 4 4"]);
    let after = &lines[lines.iter().position(|line| line == "ucciok").unwrap() + 1..];
    assert_eq!(after[..2], ["info depth 0 score -10000", "nobestmove"]);
    assert_eq!(after[2], "info message unknown command 'flurb'");
    assert!(after[3].starts_with("info message illegal move '4'"), "{after:?}");
}
