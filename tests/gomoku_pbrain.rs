//! `pbrain-tessera` driven over real pipes the way Piskvork / GomocupJudge (CR LF, INFO right
//! after START without waiting, `time_left` before every move, BOARD openings, END → exit) and
//! Yixin-Board (stateless `start w h` + `board` every move) drive it; plus the bench signature.

mod support;

use std::time::{Duration, Instant};

use support::{engine_binary, Driven};
use tessera_gomoku::{Board, Point, Rules};

const READ: Duration = Duration::from_secs(10);

fn is_move(line: &str) -> Option<Point> {
    let (x, y) = line.trim().split_once(',')?;
    Some(Point::new(x.parse().ok()?, y.parse().ok()?))
}

fn read_move(engine: &mut Driven) -> Point {
    let lines = engine.read_until(READ, |line| is_move(line).is_some());
    is_move(lines.last().expect("a line")).expect("a move")
}

#[test]
fn gomocup_manager_session() {
    let mut engine = Driven::start(&engine_binary("pbrain-tessera"), &[]);
    // The manager does not wait for OK before its INFO lines.
    engine.send_raw("START 15\r\nINFO timeout_turn 300\r\nINFO timeout_match 60000\r\nINFO max_memory 83886080\r\nINFO game_type 1\r\nINFO rule 1\r\nINFO folder C:\\tmp\r\n");
    assert_eq!(engine.read_line(READ).as_deref(), Some("OK"));
    // A tournament opening as BOARD (3 stones, black = the opponent: we are white).
    let mut board = Board::new(Rules::STANDARD_15);
    for point in [Point::new(7, 7), Point::new(8, 8), Point::new(6, 8)] {
        board.place(point).unwrap();
    }
    engine.send_raw("INFO time_left 60000\r\nBOARD\r\n7,7,2\r\n8,8,1\r\n6,8,2\r\nDONE\r\n");
    let mut time_left = 60_000;
    for turn in 0..6 {
        let ours = read_move(&mut engine);
        board.place(ours).unwrap_or_else(|error| panic!("move {turn}: {error}\n{}", engine.transcript.join("\n")));
        if board.winner().is_some() {
            break;
        }
        // The manager's move: the first empty point scanning from the top-left.
        let theirs = (0..15u8)
            .flat_map(|y| (0..15u8).map(move |x| Point::new(x, y)))
            .find(|&p| board.stone(p).is_none())
            .unwrap();
        board.place(theirs).unwrap();
        time_left -= 300;
        engine.send_raw(&format!("INFO time_left {time_left}\r\nTURN {},{}\r\n", theirs.x(), theirs.y()));
    }
    engine.send_raw("ABOUT\r\n");
    let about = engine.read_until(READ, |line| line.starts_with("name="));
    assert!(about.last().unwrap().contains("Tessera"));
    engine.send_raw("INFO time_left 2147483647\r\nINFO timeout_turn 100000\r\nTURN 14,14\r\n");
    std::thread::sleep(Duration::from_millis(100));
    let ended = Instant::now();
    engine.send_raw("END\r\n");
    assert!(engine.wait_exit(Duration::from_millis(500)), "END must exit within 0.5 s while thinking");
    assert!(ended.elapsed() < Duration::from_millis(500));
}

#[test]
fn errors_and_unknown_commands_keep_the_engine_alive() {
    let mut engine = Driven::start(&engine_binary("pbrain-tessera"), &[]);
    engine.send_raw("START 30\r\n");
    assert!(engine.read_line(READ).unwrap().starts_with("ERROR"));
    engine.send_raw("START 20\r\nINFO timeout_turn 100\r\nFOO bar\r\nTURN 25,3\r\nTURN 10,10\r\n");
    assert_eq!(engine.read_line(READ).as_deref(), Some("OK"));
    assert!(engine.read_line(READ).unwrap().starts_with("UNKNOWN"));
    assert!(engine.read_line(READ).unwrap().starts_with("ERROR"));
    assert!(is_move(&read_move_line(&mut engine)).is_some());
    engine.send_raw("TURN 10,10\r\n");
    assert!(engine.read_until(READ, |line| !line.starts_with("MESSAGE")).last().unwrap().starts_with("ERROR"));
    engine.send_raw("END\r\n");
    assert!(engine.wait_exit(Duration::from_millis(500)));
}

fn read_move_line(engine: &mut Driven) -> String {
    engine.read_until(READ, |line| is_move(line).is_some()).pop().unwrap()
}

#[test]
fn yixin_board_is_stateless_per_move() {
    let mut engine = Driven::start(&engine_binary("pbrain-tessera"), &[]);
    let mut board = Board::new(Rules::RENJU_15);
    engine.send("INFO rule 2");
    engine.send("INFO show_detail 1");
    for _ in 0..4 {
        // Yixin-Board sends the whole game every move: who is "own" is the side to move.
        let mine = board.stone_count() % 2;
        let mut text = String::from("INFO timeout_turn 200\nINFO time_left 100000\nstart 15 15\nboard\n");
        for (index, point) in board.moves().enumerate() {
            let field = if index % 2 == mine { 1 } else { 2 };
            text.push_str(&format!("{},{},{field}\n", point.x(), point.y()));
        }
        text.push_str("done\n");
        engine.send_raw(&text);
        assert_eq!(engine.read_line(READ).as_deref(), Some("OK"));
        let mv = read_move(&mut engine);
        assert!(!board.is_forbidden(mv), "black must not play a forbidden point");
        board.place(mv).unwrap();
    }
    engine.send("yxshowforbid");
    assert!(engine.read_until(READ, |line| line.starts_with("FORBID")).last().unwrap().ends_with('.'));
    assert!(engine.transcript.iter().any(|line| line.starts_with("MESSAGE REALTIME")));
    engine.send("END");
    assert!(engine.wait_exit(Duration::from_millis(500)));
}

#[test]
fn bench_signature_of_the_release_binary() {
    let bench = |args: &[&str]| {
        let output = std::process::Command::new(engine_binary("pbrain-tessera")).args(args).output().unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    // Stockfish's lines (core's `report`), ending with the signature: the embedded network's by
    // default (called lazily: the core's search passes its window to the evaluation), the pattern
    // evaluation's with `--patterns`. The values themselves are asserted once, by the gomoku
    // crate's `bench_signature`.
    let network = tessera_gomoku::nnue::default_network();
    for (args, network) in [(&["bench"][..], Some(network)), (&["--patterns", "bench"][..], None)] {
        let library = tessera_gomoku::bench::GomokuBench { depth: tessera_gomoku::bench::DEPTH, network };
        let expected = tessera_core::bench::run(&library, &tessera_core::EngineOptions::default()).nodes;
        let text = bench(args);
        assert_eq!(text.lines().last(), Some(format!("Bench: {expected}").as_str()), "{text}");
    }
}

#[test]
fn eval_file_networks_evaluate_and_bad_files_are_refused() {
    support::gomoku_eval_file_is_used_or_refused("pbrain-tessera");
}
