//! What a Gomocup manager's clock asks of the session, on the tic-tac-toe toy: Piskvork charges
//! every move its own cost (pipes, a byte at a time, its logs) beyond the engine's search, so the
//! session measures that cost from `time_left` and leaves room for it; and managers get one
//! `MESSAGE` line a move, not one per depth (each line costs time on the manager's clock).

mod toy;

use std::time::Duration;

use tessera_core::io::{Capture, Output};
use tessera_core::EngineOptions;
use tessera_pbrain_protocol::{Command, Session};
use toy::Toy;

fn send(session: &mut Session<Toy>, line: &str) {
    session.handle(line.parse::<Command>().unwrap_or_else(|never| match never {}));
    session.wait();
}

#[test]
fn the_managers_cost_per_move_is_measured_and_left_room_for() {
    let capture = Capture::new();
    let toy = Toy::default();
    let move_times = std::sync::Arc::clone(&toy.move_times);
    let mut session =
        Session::new(toy, EngineOptions { hash_mb: 1, ..EngineOptions::default() }, Output::new(capture.clone()));
    // Depth 2: searches of a few milliseconds, whatever the budget.
    let opening = ["START 3", "INFO max_depth 2", "INFO timeout_turn 1000", "INFO timeout_match 20000"];
    for line in opening.into_iter().chain(["INFO time_left 20000", "BEGIN"]) {
        send(&mut session, line);
    }
    // The manager took 500 ms off our clock for a move our search made in a few milliseconds.
    for line in ["INFO time_left 19500", "TURN 0,0"] {
        send(&mut session, line);
    }
    let times = move_times.lock().expect("not poisoned").clone();
    let [Some(first), Some(second)] = times[..] else { panic!("two searches with move times: {times:?}") };
    assert!(first >= Duration::from_millis(900), "before any measurement the turn is the limit: {first:?}");
    assert!(second <= Duration::from_millis(500), "the turn less the manager's ~500 ms: {second:?}");
    // One MESSAGE line before each move, though each search went through two depths.
    let lines = capture.lines();
    let messages_before_moves: Vec<usize> = lines
        .split(|line| line.contains(',') && !line.contains(' '))
        .take(2)
        .map(|before| before.iter().filter(|line| line.starts_with("MESSAGE")).count())
        .collect();
    assert_eq!(messages_before_moves, [1, 1], "{lines:?}");
}

#[test]
fn show_detail_says_every_depth_as_it_comes() {
    let capture = Capture::new();
    let mut session = Session::new(Toy::default(), EngineOptions::default(), Output::new(capture.clone()));
    for line in ["START 3", "INFO show_detail 1", "BEGIN"] {
        send(&mut session, line);
    }
    let depths = capture.lines().iter().filter(|line| line.starts_with("MESSAGE depth")).count();
    assert!(depths > 1, "{:?}", capture.lines());
}
