//! Property tests of the UCCI session on core's tic-tac-toe: random command sequences never
//! panic, every `go` is answered exactly once (`bestmove`, or `nobestmove` when there is nothing
//! to play or `go depth 0` asks for an evaluation only), and every `bestmove` is legal in the
//! position it was asked for. Bounded for CI.

mod toy;

use proptest::prelude::*;
use tessera_core::harness::count_panics;
use tessera_core::io::{Capture, Output};
use tessera_core::toys::TicTacToe;
use tessera_core::{Flow, Game};
use tessera_ucci_protocol::{Command, Options, Session};
use toy::Toy;

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..12).prop_map(|n| n.to_string()),
        Just("-3".to_string()),
        Just("0.5".to_string()),
        Just("x".to_string()),
        Just("99999999999999999999".to_string()),
    ]
}

fn square() -> impl Strategy<Value = String> {
    prop_oneof![4 => (0u8..9).prop_map(|n| n.to_string()), 1 => Just("h2e2".to_string())]
}

/// A search that ends by itself (unbounded ones come with their `stop`, see [`line`]).
fn go() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        number().prop_map(|n| format!("depth {n}")),
        number().prop_map(|n| format!("nodes {n}")),
        number().prop_map(|n| format!("time {n} increment {n}")),
        number().prop_map(|n| format!("movestogo {n} opptime {n}")),
        (0u32..3).prop_map(|n| format!("perft {n}")),
        Just("draw".to_string()),
        Just("frob".to_string()),
    ];
    prop::collection::vec(token, 1..3).prop_map(|tokens| format!("go {}", tokens.join(" ")))
}

fn line() -> impl Strategy<Value = Vec<String>> {
    let one = |text: &'static str| Just(vec![text.to_string()]);
    prop_oneof![
        6 => go().prop_map(|go| vec![go]),
        2 => prop_oneof![Just("go infinite"), Just("go ponder time 1"), Just("go ponder draw")]
            .prop_map(|go| vec![go.to_string(), "isready".to_string(), "stop".to_string()]),
        4 => prop::collection::vec(square(), 0..6).prop_map(|moves| vec![format!("position startpos moves {}", moves.join(" "))]),
        1 => prop::collection::vec(square(), 0..5).prop_map(|squares| vec![format!("position fen {}", squares.join(","))]),
        1 => prop::collection::vec(square(), 0..3).prop_map(|moves| vec![format!("banmoves {}", moves.join(" "))]),
        2 => (prop_oneof![Just("hashsize"), Just("threads"), Just("batch"), Just("randomness"), Just("usemillisec"), Just("bogus")], number())
            .prop_map(|(name, value)| vec![format!("setoption {name} {value}")]),
        3 => prop_oneof![one("isready"), one("ucci"), one("setoption newgame"), one("probe startpos"), one("ponderhit"), one("")],
        1 => "[ -~]{0,30}".prop_map(|text| vec![text]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_go_gets_one_answer_and_moves_are_legal(groups in prop::collection::vec(line(), 1..25)) {
        count_panics();
        let capture = Capture::new();
        let options = Options { hash_mb: 1, ..Options::default() };
        let mut session = Session::new(Toy, Output::new(capture.clone()), options);
        // (root, whether `nobestmove` is a right answer) of each search asked for.
        let mut asked: Vec<(TicTacToe, bool)> = Vec::new();
        let mut last_root_finished = false;
        for line in groups.iter().flatten() {
            let command = line.parse::<Command>();
            prop_assert_eq!(session.handle_line(line), Flow::Continue);
            match command {
                Ok(Command::Go(go)) if go.perft.is_none() => {
                    let root = session.position().clone();
                    let mut legal = <TicTacToe as Game>::Moves::default();
                    root.generate_legal_moves(&mut legal);
                    last_root_finished = legal.is_empty();
                    let evaluation_only = go.depth == Some(0);
                    asked.push((root, legal.is_empty() || evaluation_only));
                }
                // `stop` always follows an unbounded `go`; when that one was answered at once (no
                // move to play), the stop finds no search and UCCI answers it with `nobestmove`.
                Ok(Command::Stop) if last_root_finished => {
                    asked.push((session.position().clone(), true));
                }
                _ => {}
            }
        }
        // A search still running now would never answer: a hang is a failure, not a stuck test.
        let (finished, waited) = std::sync::mpsc::channel();
        let waiter = std::thread::spawn(move || {
            session.wait();
            let _ = finished.send(());
        });
        let hung = waited.recv_timeout(std::time::Duration::from_secs(10)).is_err();
        prop_assert!(!hung, "a search never ended: {:?}", capture.lines());
        let _ = waiter.join();
        let output = capture.lines();
        let answers: Vec<&str> = output
            .iter()
            .filter_map(|line| if line == "nobestmove" { Some("-") } else { line.strip_prefix("bestmove ") })
            .map(|text| text.split_whitespace().next().unwrap_or("?"))
            .collect();
        prop_assert_eq!(answers.len(), asked.len(), "{:?}", output);
        for ((root, may_pass), answer) in asked.iter().zip(&answers) {
            if *answer == "-" {
                prop_assert!(*may_pass, "nobestmove in {:?}", root);
            } else {
                let square: u8 = answer.parse().map_err(|_| TestCaseError::fail(format!("bestmove {answer}")))?;
                prop_assert!(root.is_legal(square), "bestmove {} in {:?}", answer, root);
            }
        }
        prop_assert_eq!(count_panics(), 0);
    }
}
