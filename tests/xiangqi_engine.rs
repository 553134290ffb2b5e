//! The release `tessera-ucci` binary over real pipes: UCCI and UCI handshakes, `go perft`,
//! `stop` latency (the UCCI league allows 0.2 s), `quit` → `bye`, CR LF input, `bench`.

mod support;

use std::time::{Duration, Instant};

use support::Driven;

const TIMEOUT: Duration = Duration::from_secs(10);

fn engine() -> Driven {
    Driven::start(&support::engine_binary("tessera-ucci"), &[])
}

#[test]
fn ucci_session_over_pipes() {
    let mut engine = engine();
    engine.send_raw("ucci\r\n");
    engine.read_until(TIMEOUT, |line| line == "ucciok");
    engine.send("setoption usemillisec true");
    engine.send("position startpos moves h2e2");
    engine.send("go perft 1");
    let lines = engine.read_until(TIMEOUT, |line| line.starts_with("Nodes searched:"));
    assert_eq!(lines.len() - 1, 45, "{lines:?}");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("isready");
    engine.read_until(TIMEOUT, |line| line == "readyok");
    let stopped = Instant::now();
    engine.send("stop");
    engine.read_until(TIMEOUT, |line| line.starts_with("bestmove "));
    assert!(stopped.elapsed() < Duration::from_millis(200), "stop took {:?}", stopped.elapsed());
    engine.send("go time 500 increment 0");
    engine.read_until(TIMEOUT, |line| line.starts_with("bestmove "));
    engine.send("quit");
    engine.read_until(TIMEOUT, |line| line == "bye");
    assert!(engine.wait_exit(TIMEOUT));
}

#[test]
fn uci_dialect_over_pipes() {
    let mut engine = engine();
    engine.send("uci");
    let boot = engine.read_until(TIMEOUT, |line| line == "uciok");
    assert!(boot.iter().any(|line| line.starts_with("option name Hash")));
    engine.send("isready");
    engine.read_until(TIMEOUT, |line| line == "readyok");
    engine.send("position fen 4k4/9/9/9/3r5/9/9/9/9/3K5 w - - 0 1");
    engine.send("go depth 3");
    engine.read_until(TIMEOUT, |line| line == "bestmove (none)");
    engine.send("position startpos");
    engine.send("go wtime 2000 btime 2000 winc 20 binc 20");
    let lines = engine.read_until(TIMEOUT, |line| line.starts_with("bestmove "));
    assert!(lines.iter().any(|line| line.contains(" score cp ")), "{lines:?}");
    engine.send("quit");
    assert!(engine.wait_exit(TIMEOUT));
}

#[test]
fn bench_prints_the_signature() {
    let output = std::process::Command::new(support::engine_binary("tessera-ucci"))
        .args(["bench"])
        .output()
        .expect("running bench");
    let text = String::from_utf8_lossy(&output.stdout);
    let nodes: u64 = text
        .lines()
        .find_map(|line| line.strip_prefix("Nodes searched: "))
        .and_then(|nodes| nodes.parse().ok())
        .expect("a node count");
    let network = Some(tessera_xiangqi::nnue::default_network());
    let bench = tessera_xiangqi::bench::XiangqiBench { depth: tessera_xiangqi::bench::DEPTH, network };
    let expected = tessera_core::bench::run(&bench, &tessera_core::EngineOptions::default()).nodes;
    assert_eq!(nodes, expected, "the binary's bench equals the library's");
}
