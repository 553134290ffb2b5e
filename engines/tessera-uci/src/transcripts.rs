//! In-process transcripts: UCI input lines → exact output lines, through the real session and
//! chess dialect, written into a `Capture` instead of stdout.

use tessera_core::harness::TempFile;
use tessera_core::io::{Capture, Output};
use tessera_uci_protocol::{Flow, Session, Settings};

use crate::dialect::Chess;

/// Feeds `input` to a fresh session (waiting for each search) and returns every output line
/// except search `info` lines with timing fields, which vary from run to run.
fn transcript(input: &[&str]) -> Vec<String> {
    let capture = Capture::new();
    let mut session = Session::new(Chess, Output::new(capture.clone()), Settings::default());
    for line in input {
        if session.handle_line(line) == Flow::Quit {
            break;
        }
        session.wait();
    }
    capture.lines().into_iter().filter(|line| !line.contains(" nps ")).collect()
}

#[test]
fn handshake_lists_every_option() {
    let lines = transcript(&["uci", "isready"]);
    assert_eq!(lines[0], concat!("id name Tessera ", env!("CARGO_PKG_VERSION")));
    assert_eq!(lines[1], "id author The Tessera developers");
    // The Hash maximum is what this machine can give.
    let hash = format!("option name Hash type spin default 16 min 1 max {}", tessera_core::memory::max_table_mb());
    assert_eq!(
        &lines[2..],
        [
            "option name Threads type spin default 1 min 1 max 256",
            hash.as_str(),
            "option name Clear Hash type button",
            "option name Ponder type check default false",
            "option name MultiPV type spin default 1 min 1 max 500",
            "option name Move Overhead type spin default 30 min 0 max 5000",
            "option name UCI_Chess960 type check default false",
            "option name UCI_ShowWDL type check default false",
            "option name UCI_LimitStrength type check default false",
            "option name UCI_Elo type spin default 1500 min 1074 max 1993",
            "option name UCI_AnalyseMode type check default false",
            "option name EvalFile type string default <embedded>",
            "option name Use NNUE type check default true",
            "option name SyzygyPath type string default <empty>",
            "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
            "option name Syzygy50MoveRule type check default true",
            "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
            "option name OwnBook type check default false",
            "option name BookFile type string default <empty>",
            "uciok",
            "readyok",
        ]
    );
}

#[test]
fn eval_file_loads_a_network_and_refuses_a_bad_one_keeping_the_current() {
    let network = tessera_chess::nnue::default_network().to_bytes();
    let good = TempFile::new("good.nnue", &network).unwrap();
    let truncated = TempFile::new("truncated.nnue", &network[..network.len() / 2]).unwrap();
    let text = TempFile::new("notes.txt", b"not a network").unwrap();
    let line = |name: &str, file: &TempFile| format!("setoption name {name} value {}", file.path().display());
    let lines = transcript(&[
        &line("EvalFile", &truncated),
        &line("EvalFile", &text),
        "setoption name EvalFile value /no/such/file.nnue",
        &line("EvalFile", &good),
        "setoption name Use NNUE value false",
        "setoption name Use NNUE value true",
        "setoption name EvalFile value <embedded>",
        "go depth 3",
    ]);
    let truncated_path = truncated.path().display().to_string();
    assert!(lines[0].starts_with(&format!("info string EvalFile {truncated_path}: ")), "{}", lines[0]);
    assert!(lines[0].ends_with("; keeping <embedded>"), "{}", lines[0]);
    assert!(lines[1].contains("not a Tessera network file"), "{}", lines[1]);
    assert!(lines[2].starts_with("info string EvalFile /no/such/file.nnue: "), "{}", lines[2]);
    assert_eq!(
        lines[3],
        format!("info string EvalFile {} loaded (chess-768 features, {} hidden)", good.path().display(), {
            tessera_chess::nnue::default_network().hidden()
        })
    );
    assert_eq!(lines[4], "info string classical evaluation");
    assert_eq!(lines[5], format!("info string NNUE evaluation using {}", good.path().display()));
    assert!(lines[6].starts_with("info string EvalFile <embedded> loaded"), "{}", lines[6]);
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
}

#[test]
fn options_are_checked_and_clamped() {
    let lines = transcript(&[
        "setoption name hash value 0",
        "setoption name MultiPV value many",
        "setoption name Ponder value maybe",
        "setoption name Unknown Thing value 1",
        "setoption name UCI_Opponent value GM 2800 human Someone",
        "setoption name Clear Hash",
        "isready",
    ]);
    assert_eq!(
        lines,
        [
            "info string option hash: 0 clamped to 1",
            "info string option MultiPV: 'many' is not a number",
            "info string option Ponder needs true or false, not maybe",
            "info string unknown option Unknown Thing",
            "readyok",
        ]
    );
}

#[test]
fn bad_positions_and_moves_are_reported() {
    let lines = transcript(&[
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position startpos moves e2e5",
        "position",
        "frobnicate",
        "isready",
    ]);
    assert_eq!(
        lines,
        [
            "info string invalid FEN '8/8/8/8/8/8/8/8 w - - 0 1': White has 0 kings; exactly one is needed; position unchanged",
            "info string illegal move e2e5 in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1; later moves ignored",
            "info string malformed position: expected startpos or fen",
            "info string unknown command: frobnicate",
            "readyok",
        ]
    );
}

#[test]
fn bad_go_tokens_are_reported_and_the_search_still_ends_in_a_move() {
    let lines = transcript(&["go depth x nodes 300 frobnicate"]);
    assert_eq!(
        lines[..2],
        ["info string go: depth x is not a whole number; ignored", "info string go: unknown token frobnicate; ignored"]
    );
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    // Nothing left to bound the search: it runs until `stop`, as a bare `go` does, and answers then.
    let capture = Capture::new();
    let mut session = Session::new(Chess, Output::new(capture.clone()), Settings::default());
    session.handle_line("go depth abc");
    std::thread::sleep(std::time::Duration::from_millis(50));
    session.handle_line("stop");
    session.wait();
    let lines = capture.lines();
    assert_eq!(lines[0], "info string go: depth abc is not a whole number; ignored");
    assert_eq!(lines.iter().filter(|line| line.starts_with("bestmove ")).count(), 1, "{lines:?}");
}

#[test]
fn mate_and_stalemate_answers() {
    let lines = transcript(&["position startpos moves f2f3 e7e5 g2g4 d8h4", "go depth 2"]);
    assert_eq!(lines, ["info depth 0 score mate 0", "bestmove 0000"]);
    let lines = transcript(&["position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "go depth 3"]);
    assert_eq!(lines.last().map(String::as_str), Some("bestmove a1a8"));
}

#[test]
fn wdl_and_multipv_lines() {
    let capture = Capture::new();
    let mut session = Session::new(Chess, Output::new(capture.clone()), Settings::default());
    for line in ["setoption name UCI_ShowWDL value true", "setoption name MultiPV value 2", "go depth 3"] {
        session.handle_line(line);
    }
    session.wait();
    let lines = capture.lines();
    assert!(lines.iter().any(|line| line.starts_with("info depth 3 seldepth") && line.contains(" multipv 2 ")));
    assert!(lines.iter().filter(|line| line.starts_with("info depth")).all(|line| line.contains(" wdl ")));
}

#[test]
fn castling_notation_follows_uci_chess960() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let standard = transcript(&[&format!("position fen {fen} moves e1g1"), "d"]);
    assert!(standard.contains(&"Fen: r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1".to_owned()), "{standard:?}");
    let fischer = transcript(&["setoption name UCI_Chess960 value true", &format!("position fen {fen}"), "go perft 1"]);
    assert!(fischer.contains(&"e1h1: 1".to_owned()) && fischer.contains(&"e1a1: 1".to_owned()), "{fischer:?}");
    assert_eq!(&fischer[fischer.len() - 3..], ["", "Nodes searched: 26", ""]);
}

#[test]
fn limited_strength_still_plays_legal_moves() {
    let lines = transcript(&[
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 800",
        "position startpos moves e2e4",
        "go movetime 200",
    ]);
    let best = lines.last().expect("bestmove");
    assert!(best.starts_with("bestmove "), "{lines:?}");
}

#[test]
fn go_nodes_is_reproducible_after_ucinewgame() {
    let run = || {
        let capture = Capture::new();
        let mut session = Session::new(Chess, Output::new(capture.clone()), Settings::default());
        for line in ["ucinewgame", "position startpos moves e2e4 c7c5", "go nodes 20000"] {
            session.handle_line(line);
            session.wait();
        }
        // Keep everything but the clock-dependent fields.
        capture
            .lines()
            .into_iter()
            .map(|line| {
                let tokens: Vec<&str> = line.split_whitespace().collect();
                let mut kept = Vec::new();
                let mut index = 0;
                while index < tokens.len() {
                    if matches!(tokens[index], "nps" | "time") {
                        index += 2;
                        continue;
                    }
                    kept.push(tokens[index]);
                    index += 1;
                }
                kept.join(" ")
            })
            .collect::<Vec<_>>()
    };
    let first = run();
    assert!(first.last().is_some_and(|line| line.starts_with("bestmove")), "{first:?}");
    assert_eq!(first, run());
}
