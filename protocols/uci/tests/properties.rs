//! Property tests of the UCI session on core's tic-tac-toe: random command sequences (good,
//! malformed and hostile lines) never panic, every `go` is answered by exactly one `bestmove`, and
//! every `bestmove` is legal in the position it was asked for (`0000` only when none is).
//! Bounded for CI: a few dozen short sequences.

mod toy;

use proptest::prelude::*;
use tessera_core::harness::count_panics;
use tessera_core::io::{Capture, Output};
use tessera_core::toys::TicTacToe;
use tessera_core::Game;
use tessera_uci_protocol::{Command, Flow, Session, Settings};
use toy::Toy;

/// Panics anywhere in the process (the search thread included, where the engine would hide them).
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..12).prop_map(|n| n.to_string()),
        (0u64..200).prop_map(|n| n.to_string()),
        Just("-5".to_string()),
        Just("1.5".to_string()),
        Just("abc".to_string()),
        Just("18446744073709551616".to_string()),
        Just(String::new()),
    ]
}

fn square() -> impl Strategy<Value = String> {
    prop_oneof![4 => (0u8..9).prop_map(|n| n.to_string()), 1 => Just("9".to_string()), 1 => Just("e2e4".to_string())]
}

fn go() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        number().prop_map(|n| format!("depth {n}")),
        number().prop_map(|n| format!("nodes {n}")),
        number().prop_map(|n| format!("movetime {n}")),
        number().prop_map(|n| format!("wtime {n} btime {n}")),
        number().prop_map(|n| format!("winc {n} movestogo {n}")),
        number().prop_map(|n| format!("mate {n}")),
        (0u32..3).prop_map(|n| format!("perft {n}")),
        Just("infinite".to_string()),
        Just("ponder".to_string()),
        prop::collection::vec(square(), 0..3).prop_map(|moves| format!("searchmoves {}", moves.join(" "))),
        Just("frob".to_string()),
    ];
    prop::collection::vec(token, 0..3).prop_map(|tokens| format!("go {}", tokens.join(" ")).trim_end().to_string())
}

fn line() -> impl Strategy<Value = String> {
    let option = prop_oneof![
        Just("Hash"),
        Just("Threads"),
        Just("MultiPV"),
        Just("Move Overhead"),
        Just("UCI_Elo"),
        Just("UCI_LimitStrength"),
        Just("Clear Hash"),
        Just("Bogus"),
    ];
    let value = prop_oneof![(1u64..4).prop_map(|n| n.to_string()), number(), Just("true".into()), Just("x".into())];
    prop_oneof![
        6 => go(),
        4 => prop::collection::vec(square(), 0..6).prop_map(|moves| format!("position startpos moves {}", moves.join(" "))),
        1 => prop::collection::vec(square(), 0..5).prop_map(|squares| format!("position fen {}", squares.join(","))),
        2 => (option, value).prop_map(|(name, value)| format!("setoption name {name} value {value}")),
        3 => prop_oneof![
            Just("stop"), Just("isready"), Just("ponderhit"), Just("ucinewgame"), Just("uci"), Just("d"),
            Just("debug on"), Just(""), Just("position"), Just("setoption"), Just("go perft x"),
        ].prop_map(String::from),
        1 => "[ -~]{0,30}",
    ]
}

/// Runs `lines`, then `stop`; returns each search's root (in asking order) and the output.
fn run(lines: &[String]) -> (Vec<TicTacToe>, Vec<String>) {
    let capture = Capture::new();
    let mut session = Session::new(Toy, Output::new(capture.clone()), Settings { hash_mb: 1, threads: 1 });
    let mut roots = Vec::new();
    for line in lines {
        let search = matches!(line.parse::<Command>(), Ok(Command::Go(go)) if go.perft.is_none());
        assert_eq!(session.handle_line(line), Flow::Continue);
        if search {
            roots.push(session.position().clone());
        }
    }
    session.handle_line("stop");
    session.wait();
    (roots, capture.lines())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_go_gets_one_legal_bestmove(lines in prop::collection::vec(line(), 1..30)) {
        count_panics();
        let (roots, output) = run(&lines);
        let answers: Vec<&str> = output.iter().filter_map(|line| line.strip_prefix("bestmove ")).collect();
        prop_assert_eq!(answers.len(), roots.len(), "{:?}", output);
        for (root, answer) in roots.iter().zip(answers) {
            let mut legal = <TicTacToe as Game>::Moves::default();
            root.generate_legal_moves(&mut legal);
            let best = answer.split_whitespace().next().unwrap_or_default();
            if legal.is_empty() {
                prop_assert_eq!(best, "0000");
            } else {
                let square: u8 = best.parse().map_err(|_| TestCaseError::fail(format!("bestmove {answer}")))?;
                prop_assert!(root.is_legal(square), "bestmove {} in {:?}", answer, root);
            }
        }
        prop_assert_eq!(count_panics(), 0);
    }
}
