//! Property tests of the pbrain session on core's tic-tac-toe (a 3×3 board): random command
//! sequences (board blocks in every form, bad sizes, points and INFO values) never panic, every
//! search the session starts is answered by exactly one line (a move, `SWAP`, or `ERROR` when no
//! move is left), and every move answered is legal on the board it was searched on. Bounded for CI.

mod toy;

use proptest::prelude::*;
use tessera_core::harness::count_panics;
use tessera_core::io::{Capture, Output};
use tessera_core::toys::TicTacToe;
use tessera_core::{EngineOptions, Game};
use tessera_pbrain_protocol::{Command, Flow, Session};
use toy::Toy;

fn point() -> impl Strategy<Value = String> {
    prop_oneof![6 => (0u32..3, 0u32..3).prop_map(|(x, y)| format!("{x},{y}")), 1 => Just("5,1".into()), 1 => Just("a,b".into())]
}

fn block(head: &'static str, fields: bool) -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec((point(), 1u8..4), 0..6).prop_map(move |stones| {
        let mut lines = vec![head.to_string()];
        lines.extend(stones.iter().map(|(p, field)| if fields { format!("{p},{field}") } else { p.clone() }));
        lines.push("DONE".into());
        lines
    })
}

fn line() -> impl Strategy<Value = Vec<String>> {
    let one = |text: &'static str| Just(vec![text.to_string()]);
    let info = (
        prop_oneof![
            Just("timeout_turn"),
            Just("timeout_match"),
            Just("time_left"),
            Just("max_memory"),
            Just("hash_size"),
            Just("thread_num"),
            Just("max_depth"),
            Just("max_node"),
            Just("rule"),
            Just("show_detail"),
            Just("bogus"),
        ],
        prop_oneof![
            (0i64..5).prop_map(|n| n.to_string()),
            Just("-1".to_string()),
            Just("100".to_string()),
            Just("2147483647".to_string()),
            Just("x".to_string()),
            Just("99999999999999999999".to_string())
        ],
    )
        .prop_map(|(key, value)| vec![format!("INFO {key} {value}")]);
    prop_oneof![
        3 => prop_oneof![one("START 3"), one("START 15"), one("START 3 3"), one("RECTSTART 3,3"), one("RESTART"), one("START x")],
        5 => point().prop_map(|p| vec![format!("TURN {p}")]),
        2 => one("BEGIN"),
        2 => block("BOARD", true),
        1 => block("YXBOARD", true),
        2 => block("SWAP2BOARD", false),
        1 => block("SWAP2BOARD", true),
        1 => point().prop_map(|p| vec![format!("TAKEBACK {p}")]),
        3 => info,
        2 => prop_oneof![one("YXNBEST 2"), one("YXNBEST x"), one("STOP"), one("YXSHOWFORBID"), one("YXSHOWINFO"), one("ABOUT"), one("")],
        1 => "[ -~]{0,20}".prop_map(|text| vec![text]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_search_gets_one_answer_and_moves_are_legal(groups in prop::collection::vec(line(), 1..25)) {
        count_panics();
        let capture = Capture::new();
        let options = EngineOptions { hash_mb: 1, ..EngineOptions::default() };
        let toy = Toy::default();
        let roots = std::sync::Arc::clone(&toy.roots);
        let mut session = Session::new(toy, options, Output::new(capture.clone()));
        for line in groups.iter().flatten() {
            let command: Command = line.parse().unwrap_or_else(|never| match never {});
            prop_assert_eq!(session.handle(command), Flow::Continue);
        }
        session.handle(Command::Stop);
        session.wait();
        let output = capture.lines();
        let answers: Vec<&String> = output
            .iter()
            .filter(|line| {
                let point = line.split_once(',').is_some_and(|(x, y)| x.parse::<u32>().is_ok() && y.parse::<u32>().is_ok());
                point || line.as_str() == "SWAP" || line.as_str() == "ERROR no legal move"
            })
            .collect();
        let roots = roots.lock().expect("not poisoned").clone();
        prop_assert_eq!(answers.len(), roots.len(), "{:?}", output);
        for (root, answer) in roots.iter().zip(answers) {
            let mut legal = <TicTacToe as Game>::Moves::default();
            root.generate_legal_moves(&mut legal);
            if answer.starts_with("ERROR") {
                prop_assert!(legal.is_empty(), "{} in {:?}", answer, root);
            } else if let Some((x, y)) = answer.split_once(',') {
                let square = (3 * y.parse::<u32>().unwrap_or(9) + x.parse::<u32>().unwrap_or(9)) as u8;
                prop_assert!(root.is_legal(square), "{} in {:?}", answer, root);
            }
        }
        prop_assert_eq!(count_panics(), 0);
    }
}
