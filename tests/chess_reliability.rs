//! Issue 18's reproducers against the release `tessera-uci` over real pipes: search threads the
//! system refuses (`Threads 256` under a virtual-memory limit, the search thread itself under a
//! tighter one), `Hash` at and beyond its advertised
//! maximum, and `go` commands with bad or huge values. Each time the engine must say what it did
//! and keep answering: every `go` ends in a `bestmove`.

mod support;

use std::time::{Duration, Instant};

use support::Driven;

const LONG: Duration = Duration::from_secs(30);

/// A virtual-memory limit (KiB) that leaves room for the engine and a table of about 1 GiB but
/// not for 256 search threads of 64 MiB stack each.
const VIRTUAL_LIMIT: &str = "-v 2000000";

fn handshake(engine: &mut Driven) -> Vec<String> {
    engine.send("uci");
    engine.read_until(LONG, |line| line == "uciok")
}

fn ready(engine: &mut Driven) {
    engine.send("isready");
    engine.read_until(LONG, |line| line == "readyok");
}

fn search(engine: &mut Driven, go: &str) -> Vec<String> {
    engine.send(go);
    engine.read_until(LONG, |line| line.starts_with("bestmove "))
}

fn strings(lines: &[String]) -> Vec<&str> {
    lines.iter().filter_map(|line| line.strip_prefix("info string ")).collect()
}

#[test]
fn refused_threads_are_reported_once_and_the_search_answers() {
    let Some(mut engine) = Driven::start_limited(&support::engine_binary("tessera-uci"), &[], VIRTUAL_LIMIT) else {
        return;
    };
    handshake(&mut engine);
    engine.send("setoption name Threads value 256");
    ready(&mut engine);
    let lines = search(&mut engine, "go movetime 300");
    let notes = strings(&lines);
    let shortfall = notes.iter().find(|note| note.starts_with("only ")).unwrap_or_else(|| panic!("{lines:?}"));
    assert!(shortfall.contains(" of 256 search threads could be started"), "{shortfall}");
    assert!(lines.last().is_some_and(|line| line.len() > "bestmove ".len()), "{lines:?}");
    ready(&mut engine);
    // Said once per setting: the next search is quiet about it.
    let again = search(&mut engine, "go movetime 100");
    assert!(!strings(&again).iter().any(|note| note.starts_with("only ")), "{again:?}");
    engine.send("quit");
    assert!(engine.wait_exit(Duration::from_secs(5)));
}

#[test]
fn a_search_thread_under_a_tight_address_space_starts_with_a_smaller_stack_and_answers() {
    // 80 MB: room for the engine and its default table, not for a 64 MiB search stack beside
    // them (the engine used to panic at start: "starting the search thread").
    let Some(mut engine) = Driven::start_limited(&support::engine_binary("tessera-uci"), &[], "-v 80000") else {
        return;
    };
    let options = handshake(&mut engine);
    assert!(options.iter().all(|line| line.starts_with("id ") || line.starts_with("option ") || line == "uciok"));
    ready(&mut engine);
    let lines = search(&mut engine, "go depth 8");
    assert!(lines.last().is_some_and(|line| line.len() > "bestmove ".len()), "{lines:?}");
    engine.send("quit");
    assert!(engine.wait_exit(Duration::from_secs(5)));
}

#[test]
fn hash_at_its_advertised_maximum_is_clamped_and_the_engine_keeps_running() {
    let Some(mut engine) = Driven::start_limited(&support::engine_binary("tessera-uci"), &[], VIRTUAL_LIMIT) else {
        return;
    };
    let options = handshake(&mut engine);
    let declaration = options.iter().find(|line| line.starts_with("option name Hash ")).expect("a Hash option");
    let max: usize = declaration.rsplit(' ').next().and_then(|max| max.parse().ok()).expect("max N last");
    // Never more than the machine has (the engine advertised 65536 and aborted).
    if let Some(total) = tessera_core::memory::total_mb() {
        assert!(max <= total, "{declaration} on a machine of {total} MiB");
    }
    engine.send(&format!("setoption name Hash value {max}"));
    ready(&mut engine);
    let lines = search(&mut engine, "go depth 6");
    let clamped = strings(&lines).iter().find_map(|note| note.strip_prefix("Hash clamped to ")).map(str::to_owned);
    if max > 1024 {
        // Under a 2 GB address space the table cannot have more than that.
        let granted: usize =
            clamped.as_deref().and_then(|text| text.strip_suffix(" MB")?.parse().ok()).expect("a note");
        assert!((1..max).contains(&granted), "{lines:?}");
    }
    // Beyond the maximum: clamped to it, said, and still searching.
    engine.send("setoption name Hash value 99999999");
    let note = engine.read_line(LONG).unwrap_or_default();
    assert_eq!(note, format!("info string option Hash: 99999999 clamped to {max}"));
    search(&mut engine, "go depth 4");
    ready(&mut engine);
}

#[test]
fn a_large_table_does_not_hold_up_the_search() {
    let mut engine = Driven::start(&support::engine_binary("tessera-uci"), &[]);
    let options = handshake(&mut engine);
    let declaration = options.iter().find(|line| line.starts_with("option name Hash ")).expect("a Hash option");
    let max = declaration.rsplit(' ').next().unwrap_or("16").to_owned();
    engine.send(&format!("setoption name Hash value {max}"));
    ready(&mut engine);
    let started = Instant::now();
    engine.send("go depth 1");
    engine.read_until(LONG, |line| line.starts_with("bestmove "));
    // Zeroing many GiB up front took 12 s on the 24 GB machine; lazy pages take no time. Generous.
    assert!(started.elapsed() < Duration::from_secs(5), "go after Hash {max} took {:?}", started.elapsed());
    engine.send("ucinewgame");
    ready(&mut engine);
    assert!(started.elapsed() < Duration::from_secs(10), "ucinewgame after Hash {max} took {:?}", started.elapsed());
}

#[test]
fn bad_and_huge_go_values_are_reported_and_every_go_ends_in_a_move() {
    let mut engine = Driven::start(&support::engine_binary("tessera-uci"), &[]);
    handshake(&mut engine);
    let bad =
        ["go depth abc", "go depth 3 nodes x5", "go movetime 1.5 depth 2", "go wtime", "go searchmoves e2e5 depth 2"];
    for go in bad {
        engine.send(go);
        // Whatever limits remain (maybe none): `stop` must bring the move.
        std::thread::sleep(Duration::from_millis(50));
        let lines = search(&mut engine, "stop");
        assert!(!strings(&lines).is_empty(), "{go}: the bad token is reported: {lines:?}");
        assert_ne!(lines.last().map(String::as_str), Some("bestmove 0000"), "{go}: {lines:?}");
    }
    // Huge clock values clamp instead of refusing the command: the search runs until stopped.
    for go in ["go wtime 18446744073709551615 btime 18446744073709551615", "go wtime 99999999999999999999999 btime 1"] {
        engine.send(go);
        std::thread::sleep(Duration::from_millis(100));
        let lines = search(&mut engine, "stop");
        assert!(!strings(&lines).iter().any(|note| note.contains("malformed")), "{go}: {lines:?}");
    }
    ready(&mut engine);
}
