//! Issue 18's reproducers against the release `tessera-ucci` over real pipes: `hashsize` at and
//! beyond its advertised maximum under a virtual-memory limit, and refused search threads. The
//! engine says what it did (`info message` in UCCI, `info string` in UCI) and keeps answering.

mod support;

use std::time::Duration;

use support::Driven;

const TIMEOUT: Duration = Duration::from_secs(30);

fn limited() -> Option<Driven> {
    Driven::start_limited(&support::engine_binary("tessera-ucci"), &[], "-v 2000000")
}

fn advertised_max(lines: &[String], prefix: &str) -> usize {
    let line = lines.iter().find(|line| line.starts_with(prefix)).unwrap_or_else(|| panic!("{prefix}: {lines:?}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&word| word == "max").expect("a max");
    words[at + 1].parse().expect("a number")
}

#[test]
fn ucci_hashsize_at_its_maximum_is_clamped_and_said() {
    let Some(mut engine) = limited() else { return };
    engine.send("ucci");
    let boot = engine.read_until(TIMEOUT, |line| line == "ucciok");
    let max = advertised_max(&boot, "option hashsize ");
    if let Some(total) = tessera_core::memory::total_mb() {
        assert!(max <= total, "hashsize max {max} on a machine of {total} MiB");
    }
    engine.send(&format!("setoption hashsize {max}"));
    engine.send("isready");
    let lines = engine.read_until(TIMEOUT, |line| line == "readyok");
    if max > 1024 {
        assert!(lines.iter().any(|line| line.starts_with("info message Hash clamped to ")), "{lines:?}");
    }
    engine.send("setoption hashsize 99999999");
    engine.send("go depth 5");
    engine.read_until(TIMEOUT, |line| line.starts_with("bestmove "));
    engine.send("quit");
    engine.read_until(TIMEOUT, |line| line == "bye");
}

#[test]
fn uci_dialect_hash_and_threads_under_a_memory_limit() {
    let Some(mut engine) = limited() else { return };
    engine.send("uci");
    let boot = engine.read_until(TIMEOUT, |line| line == "uciok");
    let max = advertised_max(&boot, "option name Hash ");
    engine.send(&format!("setoption name Hash value {max}"));
    engine.send("setoption name Threads value 64");
    engine.send("go movetime 300");
    let lines = engine.read_until(TIMEOUT, |line| line.starts_with("bestmove "));
    if max > 1024 {
        assert!(lines.iter().any(|line| line.starts_with("info string Hash clamped to ")), "{lines:?}");
    }
    assert!(lines.iter().any(|line| line.contains(" of 64 search threads could be started")), "{lines:?}");
    engine.send("isready");
    engine.read_until(TIMEOUT, |line| line == "readyok");
}
