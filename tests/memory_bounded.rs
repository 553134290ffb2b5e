//! Memory stays bounded over long analyses (issue 18): the peak resident memory of each engine
//! stays within its table setting (`Hash`, `hashsize`, pbrain `max_memory`, GTP `--hash`) plus
//! 64 MB, however many positions it analyses. Linux only (reads `/proc/PID/status`).

mod support;

use std::time::Duration;

use support::Driven;

const READ: Duration = Duration::from_secs(30);
/// What the program itself may take beyond its table: code, network, stacks, buffers.
const OVERHEAD_MB: u64 = 64;
/// Searches per engine: a long analysis, kept short enough for `cargo test` on two cores.
/// `TESSERA_MEMORY_SEARCHES=1000` runs the 1,000-move analysis (about a minute).
fn searches() -> usize {
    std::env::var("TESSERA_MEMORY_SEARCHES").ok().and_then(|text| text.parse().ok()).unwrap_or(150)
}

fn check(engine: &Driven, name: &str, table_mb: u64) {
    let Some(peak) = engine.peak_resident_mb() else {
        return support::skipped(&format!("{name}: no /proc to read resident memory from"));
    };
    eprintln!("{name}: peak resident {peak} MiB with a {table_mb} MiB table");
    assert!(peak <= table_mb + OVERHEAD_MB, "{name}: peak resident {peak} MiB > {table_mb} + {OVERHEAD_MB} MiB");
}

#[test]
fn uci_analysis_stays_within_hash() {
    let mut engine = Driven::start(&support::engine_binary("tessera-uci"), &["--hash", "32"]);
    engine.send("uci");
    engine.read_until(READ, |line| line == "uciok");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..searches() {
        engine.send(&format!("position startpos moves {}", moves.join(" ")));
        engine.send("go movetime 20");
        let best = engine.read_until(READ, |line| line.starts_with("bestmove ")).pop().unwrap_or_default();
        match best.split_whitespace().nth(1) {
            Some(mv) if mv != "0000" && moves.len() < 120 => moves.push(mv.to_string()),
            _ => moves.clear(),
        }
    }
    check(&engine, "tessera-uci", 32);
}

#[test]
fn gtp_analysis_stays_within_its_tree_memory() {
    let mut engine = Driven::start(&support::engine_binary("tessera-gtp"), &["--hash", "64", "--move-time", "0.03"]);
    for search in 0..searches() {
        // Both colours in turn, a new game every 80 moves: positions keep changing.
        if search % 80 == 0 {
            engine.send("clear_board");
            engine.read_until(READ, str::is_empty);
        }
        engine.send(if search % 2 == 0 { "genmove b" } else { "genmove w" });
        engine.read_until(READ, str::is_empty);
    }
    check(&engine, "tessera-gtp", 64);
}

#[test]
fn pbrain_analysis_stays_within_max_memory() {
    let mut engine = Driven::start(&support::engine_binary("pbrain-tessera"), &[]);
    engine.send("START 20");
    engine.read_until(READ, |line| line == "OK");
    engine.send("INFO max_memory 104857600");
    engine.send("INFO timeout_turn 30");
    let (mut done, wanted) = (0, searches());
    let mut point = 0u32;
    while done < wanted {
        if done % 40 == 0 {
            engine.send("RESTART");
            engine.read_until(READ, |line| line == "OK");
        }
        // Points spread over the board by a fixed stride; occupied ones are answered ERROR.
        point = (point + 137) % 400;
        engine.send(&format!("TURN {},{}", point % 20, point / 20));
        let answer = engine.read_until(READ, |line| !line.starts_with("MESSAGE")).pop().unwrap_or_default();
        if !answer.starts_with("ERROR") {
            done += 1;
        }
    }
    // max_memory bounds the whole process: 100 MB.
    check(&engine, "pbrain-tessera", 100);
}
