//! Syzygy tablebases in `tessera-uci`: checked against python-chess's own prober (root moves in
//! random 3–4 piece positions, a won KRvK and KQvKR converted, a drawn KRvKR held against
//! Stockfish: tests/python/syzygy_check.py), and bad `SyzygyPath` values answered with an
//! `info string` while the engine plays on. The tables come from scripts/fetch-syzygy-tables.sh
//! (`TESSERA_SYZYGY_DIR`, default ~/.cache/tessera/syzygy), never from the repository.

mod support;

use std::path::PathBuf;
use std::time::Duration;

use support::Driven;

const WAIT: Duration = Duration::from_secs(20);

/// The folder of test tables, or `None` (skipped, or failed when peers are required).
fn tables() -> Option<PathBuf> {
    let folder = std::env::var_os("TESSERA_SYZYGY_DIR").map_or_else(
        || PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/tessera/syzygy"),
        PathBuf::from,
    );
    if folder.join("KRvK.rtbw").is_file() {
        return Some(folder);
    }
    let hint = "scripts/fetch-syzygy-tables.sh";
    assert!(!support::peers_required(), "Syzygy test tables are required but missing in {}: {hint}", folder.display());
    support::skipped(&format!("no Syzygy test tables in {} ({hint})", folder.display()));
    None
}

#[test]
fn the_tablebases_agree_with_python_chess_and_convert_and_hold() {
    let Some(folder) = tables() else { return };
    if !support::python_module("chess", "python3 -m pip install chess") {
        return;
    }
    let Some(stockfish) = support::peer("stockfish", "apt-get install stockfish") else { return };
    let args = [support::engine_binary("tessera-uci"), folder, stockfish];
    support::run_python_check("syzygy_check.py", &args, "all Syzygy checks passed");
}

/// Sends `setoption name SyzygyPath value <path>` and returns the `info string` it answers.
fn set_path(engine: &mut Driven, path: &str) -> String {
    engine.send(&format!("setoption name SyzygyPath value {path}"));
    engine.send("isready");
    let lines = engine.read_until(WAIT, |line| line == "readyok");
    assert_eq!(lines.last().map(String::as_str), Some("readyok"), "{:?}", engine.transcript);
    lines.iter().find(|line| line.starts_with("info string")).cloned().unwrap_or_default()
}

/// A search still ends in a legal move.
fn still_plays(engine: &mut Driven) {
    engine.send("position fen 8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
    engine.send("go depth 6");
    let lines = engine.read_until(WAIT, |line| line.starts_with("bestmove"));
    let best = lines.last().cloned().unwrap_or_default();
    assert!(best.starts_with("bestmove ") && best != "bestmove 0000", "{:?}", engine.transcript);
}

#[test]
fn bad_folders_are_said_and_the_engine_plays_on() {
    let mut engine = Driven::start(&support::engine_binary("tessera-uci"), &[]);
    engine.send("uci");
    let options = engine.read_until(WAIT, |line| line == "uciok");
    for declared in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    ] {
        assert!(options.iter().any(|line| line == declared), "{declared} not in {options:?}");
    }

    let missing = set_path(&mut engine, "/no/such/tablebase/folder");
    assert!(missing.contains("no such folder: /no/such/tablebase/folder"), "{missing}");
    still_plays(&mut engine);

    let folder = tempfile_folder("empty");
    let empty = set_path(&mut engine, folder.to_str().unwrap());
    assert!(empty.contains("no Syzygy tables found"), "{empty}");

    // A cut file: Fathom would print about it on stdout, so it never gets the folder.
    std::fs::write(folder.join("KRvK.rtbw"), [0u8; 100]).unwrap();
    let cut = set_path(&mut engine, folder.to_str().unwrap());
    assert!(cut.contains("incomplete tablebase file") && cut.contains("KRvK.rtbw"), "{cut}");
    still_plays(&mut engine);

    // A file of a table's size but not a table: loaded, its probes fail, the search goes on.
    std::fs::write(folder.join("KRvK.rtbw"), [0u8; 16 + 64]).unwrap();
    set_path(&mut engine, folder.to_str().unwrap());
    still_plays(&mut engine);
    let _ = std::fs::remove_dir_all(folder);

    engine.send("setoption name SyzygyProbeDepth value x");
    engine.send("isready");
    let lines = engine.read_until(WAIT, |line| line == "readyok");
    assert!(lines.iter().any(|line| line.contains("SyzygyProbeDepth") && line.contains("not a number")), "{lines:?}");
    engine.send("quit");
    assert!(engine.wait_exit(WAIT));
}

/// A new empty folder under the system's temporary folder.
fn tempfile_folder(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("tessera-syzygy-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    folder
}
