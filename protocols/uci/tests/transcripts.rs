//! Session transcripts with a toy dialect (tic-tac-toe from the core): the protocol's state
//! machine alone, input lines → exact output lines, in-process through `Output::new(Capture)`.
//! The chess transcripts live beside the chess dialect in `engines/tessera-uci`.

use std::time::Duration;

use tessera_core::io::{Capture, Output};
use tessera_core::toys::TicTacToe;
use tessera_core::Game;
use tessera_uci_protocol::{Flow, Session, Settings};

mod toy;

use toy::Toy;

fn session() -> (Session<Toy>, Capture) {
    let capture = Capture::new();
    (Session::new(Toy, Output::new(capture.clone()), Settings::default()), capture)
}

/// Lines of `input`, each handled after the previous search ended; timing lines dropped.
fn transcript(input: &[&str]) -> Vec<String> {
    let (mut session, capture) = session();
    for line in input {
        if session.handle_line(line) == Flow::Quit {
            break;
        }
        session.wait();
    }
    capture.lines().into_iter().filter(|line| !line.starts_with("info depth") || line.contains("depth 0")).collect()
}

#[test]
fn handshake_and_readiness() {
    let lines = transcript(&["uci", "isready", "", "   ", "debug on", "register later"]);
    assert_eq!(lines.first().map(String::as_str), Some("id name Toy"));
    assert_eq!(&lines[lines.len() - 2..], ["uciok", "readyok"]);
}

#[test]
fn finished_game_answers_bestmove_0000() {
    // X takes the top row: O has no move and has lost.
    assert_eq!(transcript(&["position fen 0,3,1,4,2", "go depth 3"]), ["info depth 0 score mate 0", "bestmove 0000"]);
    // A full board without a line is a draw.
    // …and an infinite search still waits for `stop` before answering.
    let (mut session, capture) = session();
    session.handle_line("position startpos moves 0 4 8 2 6 3 5 7 1");
    session.handle_line("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    assert!(capture.lines().is_empty(), "no answer before stop");
    session.handle_line("stop");
    session.wait();
    assert_eq!(capture.lines(), ["info depth 0 score cp 0", "bestmove 0000"]);
}

#[test]
fn perft_output_matches_stockfish_layout() {
    let lines = transcript(&["position startpos", "go perft 2"]);
    assert_eq!(lines.len(), 12);
    assert_eq!(lines[0], "0: 8");
    assert_eq!(&lines[9..], ["", "Nodes searched: 72", ""]);
}

#[test]
fn bad_lines_are_reported_and_the_session_goes_on() {
    let lines = transcript(&[
        "position fen 0,0",
        "position startpos moves 4 4 2",
        "go wtime",
        "setoption name Threads value 0",
        "bench",
        "d",
        "quit",
        "isready",
    ]);
    assert_eq!(
        lines,
        [
            "info string invalid FEN '0,0': illegal move 0; position unchanged",
            "info string illegal move 4 in 4; later moves ignored",
            "info string go: wtime needs a value; ignored",
            // The rest of `go` (nothing) runs: tic-tac-toe is solved at once.
            "bestmove 0 ponder 5",
            "info string option Threads: 0 clamped to 1",
            "Nodes searched: 42",
            "Time (ms): 1",
            "Nodes/second: 42000",
            "Bench: 42",
            "1 stones",
            "",
            "Fen: 4",
            &format!("Key: {:016X}", TicTacToe::from_moves(&[4]).hash()),
        ]
    );
}

#[test]
fn isready_does_not_stop_an_infinite_search_and_stop_does() {
    let (mut session, capture) = session();
    session.handle_line("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    session.handle_line("isready");
    assert!(capture.lines().iter().any(|line| line == "readyok"));
    assert!(!capture.lines().iter().any(|line| line.starts_with("bestmove")), "no bestmove before stop");
    session.handle_line("stop");
    session.wait();
    let lines = capture.lines();
    assert!(lines.last().is_some_and(|line| line.starts_with("bestmove ")), "{lines:?}");
}

#[test]
fn ponderhit_turns_pondering_into_a_timed_search() {
    let (mut session, capture) = session();
    session.handle_line("position startpos moves 4");
    session.handle_line("go ponder wtime 100 btime 100");
    std::thread::sleep(Duration::from_millis(50));
    assert!(!capture.lines().iter().any(|line| line.starts_with("bestmove")));
    session.handle_line("ponderhit");
    session.wait();
    let best =
        capture.lines().into_iter().rfind(|line| line.starts_with("bestmove")).expect("bestmove after ponderhit");
    let mv: u8 = best.split_whitespace().nth(1).and_then(|mv| mv.parse().ok()).expect("a square");
    assert!(TicTacToe::from_moves(&[4]).is_legal(mv));
}
