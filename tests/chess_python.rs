//! A real client: `tests/python/chess_client.py` drives the release `tessera-uci` through
//! python-chess's `chess.engine` (as lichess-bot does): MultiPV, clock play, mate scores,
//! Chess960, ponder + ponderhit, move legality, and two short games against Stockfish.

mod support;

use std::process::Command;

#[test]
fn python_chess_drives_the_engine() {
    if !support::python_module("chess", "python3 -m pip install chess") {
        return;
    }
    let engine = support::engine_binary("tessera-uci");
    let script = support::workspace_root().join("tests/python/chess_client.py");
    let mut command = Command::new("python3");
    command.arg(&script).arg(&engine);
    if let Some(stockfish) = support::peer("stockfish", "apt-get install stockfish") {
        command.arg(stockfish);
    }
    let output = command.output().expect("running python3");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "python-chess client failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("all python-chess checks passed"), "{stdout}");
}
