//! A real client: `tests/python/chess_client.py` drives the release `tessera-uci` through
//! python-chess's `chess.engine` (as lichess-bot does): MultiPV, clock play, mate scores,
//! Chess960, ponder + ponderhit, move legality, and two short games against Stockfish.

mod support;

#[test]
fn python_chess_drives_the_engine() {
    if !support::python_module("chess", "python3 -m pip install chess") {
        return;
    }
    let mut args = vec![support::engine_binary("tessera-uci")];
    args.extend(support::peer("stockfish", "apt-get install stockfish"));
    support::run_python_check("chess_client.py", &args, "all python-chess checks passed");
}
