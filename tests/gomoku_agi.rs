//! `tessera-agi` over real pipes: the draft's example session, bad input, and a short freestyle
//! game between `pbrain-tessera` (black) and `tessera-agi` (white) checked by our rules.

mod support;

use std::time::Duration;

use support::{engine_binary, Driven};
use tessera_gomoku::{notation, Board, Point, Rules};

const READ: Duration = Duration::from_secs(10);

#[test]
fn example_session_and_bad_input() {
    let mut engine = Driven::start(&engine_binary("tessera-agi"), &[]);
    engine.send("AGI");
    let hello = engine.read_until(READ, |line| line == "AGIOK");
    assert!(hello[0].starts_with("ID NAME Tessera"));
    for line in
        ["SETOPTION OWNBOOK ON", "SETOPTION PONDER OFF", "SETRULE FORBIDDEN", "bogus", "POSITION MOVES 7", "ISREADY"]
    {
        engine.send(line);
    }
    assert_eq!(engine.read_line(READ).as_deref(), Some("READYOK"));
    engine.send("POSITION MOVES 78685A69");
    engine.send("GO SEARCH 67596A6BINFINITE");
    assert_eq!(engine.read_line(READ).as_deref(), Some("INFO SEARCH 67596A6B"));
    std::thread::sleep(Duration::from_millis(200));
    engine.send("isready");
    engine.read_until(READ, |line| line == "READYOK");
    engine.send("STOP");
    let best = engine.read_until(READ, |line| line.starts_with("BESTMOVE")).pop().unwrap();
    assert!(["67", "59", "6A", "6B"].contains(&&best[9..11]), "{best}");
    engine.send("DOMOVE 67");
    engine.send("GO TIME 3000");
    engine.read_until(READ, |line| line.starts_with("BESTMOVE"));
    engine.send("QUIT");
    engine.read_until(READ, |line| line == "BYE");
    assert!(engine.wait_exit(Duration::from_secs(1)));
}

#[test]
fn pbrain_against_agi() {
    let mut black = Driven::start(&engine_binary("pbrain-tessera"), &[]);
    let mut white = Driven::start(&engine_binary("tessera-agi"), &[]);
    black.send("START 15");
    black.send("INFO rule 0");
    black.send("INFO timeout_turn 100");
    assert_eq!(black.read_until(READ, |line| line == "OK").len(), 1);
    white.send("AGI");
    white.read_until(READ, |line| line == "AGIOK");
    white.send("SETRULE UNFORBIDDEN");
    let mut board = Board::new(Rules::FREESTYLE_15);
    black.send("BEGIN");
    for _ in 0..30 {
        let line = black.read_until(READ, |line| !line.starts_with("MESSAGE")).pop().unwrap();
        let (x, y) = line.split_once(',').expect("a pbrain move");
        let mv = Point::new(x.parse().unwrap(), y.parse().unwrap());
        board.place(mv).unwrap_or_else(|error| panic!("black: {error}"));
        if board.winner().is_some() {
            break;
        }
        let moves: Vec<Point> = board.moves().collect();
        white.send(&format!("POSITION MOVES {}", notation::format_agi_list(&moves)));
        white.send("GO TIME 1500");
        let best = white.read_until(READ, |line| line.starts_with("BESTMOVE")).pop().unwrap();
        let reply = notation::parse_agi(best.split_whitespace().nth(1).unwrap()).unwrap();
        board.place(reply).unwrap_or_else(|error| panic!("white: {error}"));
        if board.winner().is_some() {
            break;
        }
        black.send(&format!("TURN {},{}", reply.x(), reply.y()));
    }
    assert!(board.stone_count() >= 9, "a real game was played: {board:?}");
    black.send("END");
    white.send("QUIT");
    assert!(black.wait_exit(Duration::from_millis(500)) && white.wait_exit(Duration::from_secs(1)));
}

#[test]
fn eval_file_networks_evaluate_and_bad_files_are_refused() {
    support::gomoku_eval_file_is_used_or_refused("tessera-agi");
}
