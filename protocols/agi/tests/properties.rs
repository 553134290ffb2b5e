//! Property tests of the AGI session on core's tic-tac-toe (the 3×3 corner of the 15×15 board):
//! random command sequences (SEARCH lists with repeated, off-board and occupied points, bad TIME
//! values, every rule) never panic, every `GO` that can be answered gets exactly one `BESTMOVE`
//! (none when no point is playable), and every point answered is legal where it was asked and
//! inside `SEARCH` when one was given. Bounded for CI.

mod toy;

use proptest::prelude::*;
use tessera_agi_protocol::{Best, Command, Flow, Response, Session};
use tessera_core::harness::count_panics;
use tessera_core::io::{Capture, Output};
use tessera_core::toys::TicTacToe;
use tessera_core::{EngineOptions, Game};
use toy::{square, Toy};

/// Points of the corner mostly, some elsewhere on the board, some not points at all.
fn points() -> impl Strategy<Value = String> {
    let point = prop_oneof![
        6 => (0u8..3, 1u8..4).prop_map(|(row, column)| format!("{row}{column}")),
        1 => Just("78".to_string()),
        1 => Just("F1".to_string()),
        1 => Just("0".to_string()),
    ];
    prop::collection::vec(point, 0..6).prop_map(|points| points.concat())
}

fn go() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        points().prop_map(|p| format!("SEARCH {p}")),
        (0u64..3000).prop_map(|ms| format!("TIME {ms}")),
        prop_oneof![
            Just("TIME -1"),
            Just("TIME 1.5"),
            Just("TIME"),
            Just("TIME 99999999999999999999999"),
            Just("FROB")
        ]
        .prop_map(String::from),
        Just("TIME 10".to_string()),
    ];
    let unbounded = prop_oneof![Just(""), Just(" INFINITE"), Just(" PONDER"), Just(" TIME INFINITE")];
    (prop::collection::vec(part, 0..3), unbounded).prop_map(|(parts, tail)| format!("GO {}{tail}", parts.join(" ")))
}

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => go(),
        4 => (points(), points()).prop_map(|(statu, moves)| format!("POSITION STATU {statu} MOVES {moves}")),
        2 => points().prop_map(|p| format!("DOMOVE {p}")),
        2 => prop_oneof![
            Just("SETRULE FORBIDDEN"), Just("SETRULE UNFORBIDDEN FIRSTCHANGE"), Just("SETRULE FORBIDDEN THIRDCHANGE"),
            Just("SETRULE UNFORBIDDEN FIVETWINE"), Just("SETRULE FIVEMULITY 3"), Just("SETRULE BOGUS"),
        ].prop_map(String::from),
        3 => prop_oneof![Just("STOP"), Just("ISREADY"), Just("AGI"), Just("SETOPTION PONDER ON"), Just("POSITION"), Just("")]
            .prop_map(String::from),
        1 => "[ -~]{0,20}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_answerable_go_gets_one_bestmove_inside_search(lines in prop::collection::vec(line(), 1..25)) {
        count_panics();
        let capture = Capture::new();
        let options = EngineOptions { hash_mb: 1, ..EngineOptions::default() };
        let mut session = Session::new(Toy, options, Output::new(capture.clone()));
        // Root and allowed moves of each GO that must be answered.
        let mut asked: Vec<(TicTacToe, Vec<u8>)> = Vec::new();
        for line in &lines {
            let command: Command = line.parse().unwrap_or_else(|never| match never {});
            let go = if let Command::Go(go) = &command { Some(go.clone()) } else { None };
            prop_assert_eq!(session.handle(command), Flow::Continue);
            let Some(go) = go else { continue };
            let root = session.position().clone();
            let mut legal = <TicTacToe as Game>::Moves::default();
            root.generate_legal_moves(&mut legal);
            let allowed: Vec<u8> = if go.restricted {
                go.search.iter().filter_map(|&point| square(point)).filter(|&mv| root.is_legal(mv)).collect()
            } else {
                legal.to_vec()
            };
            if !allowed.is_empty() {
                asked.push((root, allowed));
            }
        }
        session.handle(Command::Stop);
        session.wait();
        let output = capture.lines();
        let answers: Vec<Response> = output
            .iter()
            .filter_map(|line| line.parse::<Response>().ok())
            .filter(|response| matches!(response, Response::BestMove { .. }))
            .collect();
        prop_assert_eq!(answers.len(), asked.len(), "{:?}", output);
        for ((root, allowed), answer) in asked.iter().zip(&answers) {
            let Response::BestMove { best, .. } = answer else { unreachable!("filtered") };
            if let Best::Points(points) = best {
                prop_assert!(!points.is_empty());
                for &point in points {
                    let mv = square(point);
                    prop_assert!(mv.is_some_and(|mv| allowed.contains(&mv)), "{} not in {:?} for {:?}", point, allowed, root);
                }
            }
        }
        prop_assert_eq!(count_panics(), 0);
    }
}
