//! Transcripts against the release `tessera-uci` over real pipes: the handshake, searches,
//! stop/isready/ponderhit/quit while searching, bad input, CR LF, illegal moves, Chess960
//! notation, `go perft` in Stockfish's format, positions without a legal move, and `bench` searching
//! with the embedded network (the default evaluation).

mod support;

use std::time::{Duration, Instant};

use support::Driven;

const LONG: Duration = Duration::from_secs(20);

fn engine() -> Driven {
    let mut engine = Driven::start(&support::engine_binary("tessera-uci"), &[]);
    engine.send("uci");
    let lines = engine.read_until(LONG, |line| line == "uciok");
    assert!(lines[0].starts_with("id name Tessera"), "{lines:?}");
    for option in ["Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "Clear Hash", "UCI_Chess960", "UCI_Elo"] {
        assert!(lines.iter().any(|line| line.starts_with(&format!("option name {option} type"))), "{option}");
    }
    engine
}

fn ready(engine: &mut Driven) {
    engine.send("isready");
    engine.read_until(LONG, |line| line == "readyok");
}

fn best_move(lines: &[String]) -> String {
    let last = lines.last().expect("a line");
    last.split_whitespace().nth(1).expect("bestmove <move>").to_owned()
}

#[test]
fn search_reports_infos_in_order_then_a_legal_bestmove() {
    let mut engine = engine();
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go depth 6");
    let lines = engine.read_until(LONG, |line| line.starts_with("bestmove"));
    let info = lines.iter().rev().find(|line| line.starts_with("info depth 6")).expect("a depth 6 info");
    let order = ["depth", "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv"];
    let positions: Vec<usize> = order.iter().map(|token| info.find(&format!(" {token} ")).expect(token)).collect();
    assert!(positions.windows(2).all(|pair| pair[0] < pair[1]), "field order in {info}");
    let best = best_move(&lines);
    assert!(best.len() == 4 || best.len() == 5, "{best}");
    engine.send("quit");
    assert!(engine.wait_exit(Duration::from_secs(5)));
}

#[test]
fn isready_and_stop_answer_at_once_while_searching() {
    let mut engine = engine();
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    engine.send("isready");
    let lines = engine.read_until(LONG, |line| line == "readyok");
    assert!(asked.elapsed() < Duration::from_millis(500), "readyok took {:?}", asked.elapsed());
    assert!(!lines.iter().any(|line| line.starts_with("bestmove")), "isready must not stop the search");
    let stopped = Instant::now();
    engine.send("stop");
    engine.read_until(LONG, |line| line.starts_with("bestmove"));
    assert!(stopped.elapsed() < Duration::from_millis(500), "bestmove took {:?}", stopped.elapsed());
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut engine = engine();
    engine.send("position startpos moves e2e4");
    engine.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
    let early = engine.read_available(Duration::from_millis(600));
    assert!(!early.iter().any(|line| line.starts_with("bestmove")), "bestmove while pondering: {early:?}");
    engine.send("ponderhit");
    let lines = engine.read_until(LONG, |line| line.starts_with("bestmove"));
    assert!(!best_move(&lines).is_empty());
}

#[test]
fn quit_exits_mid_search() {
    let mut engine = engine();
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    engine.send("quit");
    assert!(engine.wait_exit(Duration::from_secs(2)), "quit must end the process at once");
}

#[test]
fn garbage_crlf_and_illegal_moves_keep_the_engine_answering() {
    let mut engine = engine();
    engine.send("xyzzy plugh");
    engine.send("go depth banana");
    engine.send("setoption name NoSuchOption value 3");
    engine.send("setoption name Hash value 999999");
    engine.send_raw("position fen this is not a fen\r\n");
    engine.send_raw("isready\r\n");
    let lines = engine.read_until(LONG, |line| line == "readyok");
    let strings = lines.iter().filter(|line| line.starts_with("info string")).count();
    assert!(strings >= 5, "every bad line is reported: {lines:?}");
    engine.send("position startpos moves e2e4 e7e5 e1e3 d2d4");
    engine.send("d");
    let lines = engine.read_until(LONG, |line| line.starts_with("Key:"));
    assert!(lines.iter().any(|line| line.starts_with("info string illegal move e1e3")), "{lines:?}");
    assert!(lines.iter().any(|line| line == "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"));
    ready(&mut engine);
}

#[test]
fn go_perft_prints_like_stockfish() {
    let mut engine = engine();
    engine.send("position startpos");
    engine.send("go perft 3");
    let lines = engine.read_until(LONG, |line| line.starts_with("Nodes searched"));
    assert_eq!(lines.len(), 22, "{lines:?}");
    assert!(lines[..20].iter().all(|line| line.split_once(": ").is_some()));
    assert_eq!(lines[20], "");
    assert_eq!(lines[21], "Nodes searched: 8902");
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let mut engine = engine();
    engine.send("setoption name UCI_Chess960 value true");
    engine.send("position fen 4k3/8/8/8/8/8/8/RK6 w A - 0 1 moves b1a1");
    engine.send("d");
    let lines = engine.read_until(LONG, |line| line.starts_with("Key:"));
    assert!(lines.iter().any(|line| line == "Fen: 4k3/8/8/8/8/8/8/2KR4 b - - 1 1"), "{lines:?}");
    engine.send("go depth 1 searchmoves e8f8");
    let lines = engine.read_until(LONG, |line| line.starts_with("bestmove"));
    assert_eq!(best_move(&lines), "e8f8");
    engine.send("position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    engine.send("go perft 1");
    let lines = engine.read_until(LONG, |line| line.starts_with("Nodes searched"));
    // g1h1 would put the h-rook on f1, where the other rook stands: not legal here.
    assert!(!lines.iter().any(|line| line.starts_with("g1h1") || line.starts_with("g1g1")), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 21"));
}

#[test]
fn no_legal_move_gives_bestmove_0000() {
    let mut engine = engine();
    engine.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    engine.send("go depth 3");
    let lines = engine.read_until(LONG, |line| line.starts_with("bestmove"));
    assert_eq!(lines, ["info depth 0 score mate 0", "bestmove 0000"]);
    engine.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    engine.send("go movetime 100");
    let lines = engine.read_until(LONG, |line| line.starts_with("bestmove"));
    assert_eq!(lines, ["info depth 0 score cp 0", "bestmove 0000"]);
}

#[test]
fn fast_clock_moves_quickly_and_mate_is_found() {
    let mut engine = engine();
    engine.send("position startpos");
    let asked = Instant::now();
    engine.send("go wtime 1000 btime 1000 winc 10 binc 10");
    engine.read_until(LONG, |line| line.starts_with("bestmove"));
    assert!(asked.elapsed() < Duration::from_millis(500), "took {:?} of a 1 s clock", asked.elapsed());
    // A back-rank mate in one.
    engine.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    engine.send("go mate 1");
    let lines = engine.read_until(LONG, |line| line.starts_with("bestmove"));
    assert_eq!(best_move(&lines), "a1a8");
    assert!(lines.iter().any(|line| line.contains("score mate 1")), "{lines:?}");
}

#[test]
fn bench_searches_with_the_embedded_network_by_default() {
    let output = std::process::Command::new(support::engine_binary("tessera-uci")).arg("bench").output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    let nodes: u64 = text
        .lines()
        .find_map(|line| line.strip_prefix("Bench: "))
        .and_then(|nodes| nodes.parse().ok())
        .unwrap_or_else(|| panic!("a signature line: {text}"));
    let library = |network| {
        let bench = tessera_chess::bench::ChessBench { depth: tessera_chess::bench::DEPTH, network };
        tessera_core::bench::run(&bench, &tessera_core::EngineOptions::default()).nodes
    };
    let network = tessera_chess::nnue::default_network();
    assert_eq!(nodes, library(Some(network)), "{text}");
    assert_ne!(nodes, library(None), "not the hand-crafted evaluation");
}
