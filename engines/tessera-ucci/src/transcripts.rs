//! Transcript tests: input lines → output lines, run in-process on a captured output with the
//! real xiangqi rules. Every command of ucci.md, the league manager's and XQWizard's sequences,
//! the UCI dialect, and bad input; the opening book in `book`.

use std::time::{Duration, Instant};

use tessera_core::harness::TempFile;
use tessera_core::io::{Capture, Output};
use tessera_core::{Flow, Game, GameExt, LineSession};
use tessera_ucci_protocol::{Options, Response};
use tessera_xiangqi::{iccs, parse_iccs, Move, Position};

use crate::dialect::Xiangqi;

mod book;

const MATED: &str = "4k4/9/9/9/3r5/9/9/9/9/3K5 w - - 0 1";

/// The session under test: UCCI, or UCI as the binary chooses it when the first line is `uci`.
enum Either {
    Ucci(tessera_ucci_protocol::Session<Xiangqi>),
    Uci(tessera_uci_protocol::Session<Xiangqi>),
}

struct Transcript {
    session: Either,
    capture: Capture,
    read: usize,
}

impl Transcript {
    fn new() -> Transcript {
        let capture = Capture::new();
        let session = tessera_ucci_protocol::Session::new(Xiangqi, Output::new(capture.clone()), Options::default());
        Transcript { session: Either::Ucci(session), capture, read: 0 }
    }

    fn uci() -> Transcript {
        let capture = Capture::new();
        let settings = tessera_uci_protocol::Settings::default();
        let session = tessera_uci_protocol::Session::new(Xiangqi, Output::new(capture.clone()), settings);
        Transcript { session: Either::Uci(session), capture, read: 0 }
    }

    fn wait(&self) {
        match &self.session {
            Either::Ucci(session) => session.wait(),
            Either::Uci(session) => session.wait(),
        }
    }

    /// Sends each line, waiting for any search to end after each; returns the new output lines.
    fn send(&mut self, lines: &[&str]) -> Vec<String> {
        for line in lines {
            assert!(self.send_now(line), "session ended at {line}");
            self.wait();
        }
        self.take()
    }

    /// Sends one line without waiting for the search; `false` when the session quits.
    fn send_now(&mut self, line: &str) -> bool {
        let flow = match &mut self.session {
            Either::Ucci(session) => session.handle_alone(line),
            Either::Uci(session) => session.handle_alone(line),
        };
        flow == Flow::Continue
    }

    fn take(&mut self) -> Vec<String> {
        let lines = self.capture.lines();
        let new = lines[self.read..].to_vec();
        self.read = lines.len();
        new
    }
}

fn last(lines: &[String]) -> &str {
    lines.last().map_or("", String::as_str)
}

/// Every UCI line reads back as a UCI response and prints as it came.
fn assert_every_uci_line_parses(lines: &[String]) {
    for line in lines {
        let response: tessera_uci_protocol::Response = line.parse().unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(&response.to_string(), line);
    }
}

fn assert_every_line_parses(lines: &[String]) {
    for line in lines {
        let response: Response = line.parse().unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(&response.to_string(), line);
    }
}

/// The score of the last `info depth … score s` line.
fn root_score(lines: &[String]) -> i32 {
    let line = lines.iter().rev().find(|line| line.contains(" score ")).expect("a score line");
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let at = tokens.iter().position(|&token| token == "score").expect("score");
    tokens[at + 1].parse().expect("a number")
}

fn best_move_of(line: &str) -> Move {
    let text = line.split_whitespace().nth(1).unwrap_or_else(|| panic!("no move in '{line}'"));
    parse_iccs(text).unwrap_or_else(|error| panic!("{line}: {error}"))
}

#[test]
fn ucci_boot_answer_lists_ids_and_every_starred_option() {
    let mut transcript = Transcript::new();
    let lines = transcript.send(&["ucci"]);
    let name = concat!("id name Tessera ", env!("CARGO_PKG_VERSION"));
    assert_eq!(
        &lines[..4],
        [name, "id copyright MIT OR Apache-2.0", "id author The Tessera developers", "id user Tessera"]
    );
    for option in ["usemillisec", "batch", "debug", "ponder", "usebook", "hashsize", "threads", "randomness", "newgame"]
    {
        assert!(lines.iter().any(|line| line.starts_with(&format!("option {option} type"))), "{option}");
    }
    assert_eq!(last(&lines), "ucciok");
    assert_every_line_parses(&lines);
    assert_eq!(transcript.send(&["isready"]), ["readyok"]);
    assert_eq!(transcript.send(&["stop"]), ["nobestmove"], "stop while idle");
}

#[test]
fn quit_says_bye() {
    let mut transcript = Transcript::new();
    transcript.send(&["ucci"]);
    assert!(!transcript.send_now("quit"));
    assert_eq!(transcript.take(), ["bye"]);
}

#[test]
fn go_depth_zero_prints_the_static_eval_and_nobestmove() {
    let mut transcript = Transcript::new();
    transcript.send(&["ucci"]);
    let lines = transcript.send(&["position startpos", "go depth 0"]);
    let eval = start_evaluation(Some(tessera_xiangqi::nnue::default_network()));
    assert_eq!(lines, [format!("info depth 0 score {eval}"), "nobestmove".to_owned()]);
}

#[test]
fn go_depth_searches_and_answers_a_legal_bestmove_with_ucci_info() {
    let mut transcript = Transcript::new();
    transcript.send(&["ucci"]);
    let lines = transcript.send(&["position startpos moves h2e2", "go depth 4"]);
    assert_every_line_parses(&lines);
    assert!(lines.iter().any(|line| line.starts_with("info depth 4 score ") && line.contains(" pv ")), "{lines:?}");
    assert!(lines.iter().all(|line| !line.contains(" cp ")), "UCCI scores have no cp");
    let mut position = Position::start();
    position.try_play(parse_iccs("h2e2").unwrap()).unwrap();
    assert!(last(&lines).starts_with("bestmove "));
    assert!(position.is_legal(best_move_of(last(&lines))));
    let lines = transcript.send(&["go nodes 3000"]);
    assert!(position.is_legal(best_move_of(last(&lines))), "{lines:?}");
    let lines = transcript.send(&["go"]);
    assert!(lines.iter().any(|line| line.starts_with("info depth 12 ")), "a bare go searches to depth 12");
}

#[test]
fn go_perft_divides_and_ends_with_the_total() {
    let mut transcript = Transcript::new();
    transcript.send(&["ucci"]);
    let lines = transcript.send(&["position startpos", "go perft 2"]);
    assert_eq!(lines.len(), 45);
    assert_eq!(last(&lines), "Nodes searched: 1920");
    assert!(lines.iter().any(|line| line.starts_with("h2e2: ")));
    assert_every_line_parses(&lines);
}

#[test]
fn banmoves_forbid_moves_until_the_next_position() {
    let mut transcript = Transcript::new();
    transcript.send(&["ucci"]);
    let start = Position::start();
    let mut moves = tessera_xiangqi::Moves::new();
    start.generate_legal_moves(&mut moves);
    let keep = parse_iccs("a3a4").unwrap();
    let banned: Vec<String> = moves.iter().filter(|&&mv| mv != keep).map(|&mv| iccs(mv)).collect();
    let lines = transcript.send(&["position startpos", &format!("banmoves {}", banned.join(" ")), "go depth 3"]);
    assert_eq!(best_move_of(last(&lines)), keep, "{lines:?}");
    let lines = transcript.send(&["position startpos", "go depth 3"]);
    assert_ne!(best_move_of(last(&lines)), keep, "banmoves are cleared by position");
}

#[test]
fn usemillisec_changes_the_time_unit() {
    let mut transcript = Transcript::new();
    transcript.send(&["ucci", "setoption usemillisec true", "position startpos"]);
    let started = Instant::now();
    let lines = transcript.send(&["go time 300 increment 0"]);
    assert!(started.elapsed() < Duration::from_secs(3), "300 ms, not 300 s");
    assert!(last(&lines).starts_with("bestmove "));
    transcript.send(&["setoption usemillisec false"]);
    let started = Instant::now();
    let lines = transcript.send(&["go time 3 movestogo 1"]);
    assert!(started.elapsed() >= Duration::from_millis(500), "3 s with one move to go: {:?}", started.elapsed());
    assert!(last(&lines).starts_with("bestmove "));
}

#[test]
fn batch_mode_answers_the_search_before_reading_on() {
    let mut transcript = Transcript::new();
    transcript.send(&["ucci", "setoption batch true", "position startpos"]);
    assert!(transcript.send_now("go depth 4"));
    assert!(transcript.send_now("isready"));
    let lines = transcript.take();
    let best = lines.iter().position(|line| line.starts_with("bestmove")).expect("bestmove");
    let ready = lines.iter().position(|line| line == "readyok").expect("readyok");
    assert!(best < ready, "{lines:?}");
}

#[test]
fn infinite_search_answers_isready_and_ends_on_stop() {
    let mut transcript = Transcript::new();
    transcript.send(&["ucci", "position startpos"]);
    assert!(transcript.send_now("go infinite"));
    assert!(transcript.send_now("isready"));
    std::thread::sleep(Duration::from_millis(100));
    let lines = transcript.take();
    assert!(lines.contains(&"readyok".to_owned()));
    assert!(!lines.iter().any(|line| line.starts_with("bestmove")), "no bestmove before stop");
    assert!(transcript.send_now("probe startpos"));
    assert!(transcript.send_now("stop"));
    transcript.wait();
    let lines = transcript.take();
    assert!(lines.contains(&"pophash".to_owned()), "probe while thinking answers at once: {lines:?}");
    assert!(last(&lines).starts_with("bestmove "), "{lines:?}");
}

#[test]
fn ponder_waits_for_ponderhit_and_draw_offers_are_judged() {
    let mut transcript = Transcript::new();
    transcript.send(&["ucci", "position startpos moves h2e2"]);
    assert!(transcript.send_now("go ponder time 1 increment 0"));
    std::thread::sleep(Duration::from_millis(200));
    assert!(!transcript.take().iter().any(|line| line.starts_with("bestmove")));
    assert!(transcript.send_now("ponderhit draw"));
    transcript.wait();
    let lines = transcript.take();
    let best = last(&lines);
    assert!(best.starts_with("bestmove "), "{lines:?}");
    // An even position near the start: the offered draw is accepted.
    assert!(best.ends_with(" draw"), "{best}");
}

#[test]
fn probe_reads_the_hash_table_after_a_search() {
    let mut transcript = Transcript::new();
    let search = transcript.send(&["ucci", "position startpos", "go depth 5"]);
    // The searcher stores the positions below the root: probe the one after our best move.
    let best = last(&search).split_whitespace().nth(1).unwrap().to_owned();
    let lines = transcript.send(&[&format!("probe startpos moves {best}")]);
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with("pophash bestmove "), "{lines:?}");
    assert!(lines[0].contains(" depth "), "{lines:?}");
    let lines = transcript.send(&["probe fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"]);
    assert_eq!(lines, ["pophash"]);
    // The searched root itself is answered from the last search.
    let lines = transcript.send(&["probe startpos"]);
    assert_eq!(
        lines,
        [format!("pophash bestmove {best} lowerbound {0} depth 5 upperbound {0} depth 5", root_score(&search))]
    );
}

#[test]
fn no_legal_move_means_nobestmove_in_ucci_and_none_in_uci() {
    let mut transcript = Transcript::new();
    transcript.send(&["ucci"]);
    let lines = transcript.send(&[&format!("position fen {MATED}"), "go depth 5"]);
    assert_eq!(lines, ["info depth 0 score -10000", "nobestmove"]);
    let mut transcript = Transcript::uci();
    transcript.send(&["uci"]);
    let lines = transcript.send(&[&format!("position fen {MATED}"), "go depth 5"]);
    assert_eq!(lines, ["info depth 0 score mate 0", "bestmove (none)"]);
}

#[test]
fn resigns_when_mated_soon() {
    let mut transcript = Transcript::new();
    transcript.send(&["ucci"]);
    // Black can only push its pawn; then b7b9 mates (the h8 rook and the facing kings hold the king).
    let lines = transcript.send(&["position fen 3k5/7R1/1R7/9/9/9/p8/9/9/4K4 b - - 0 1", "go depth 4"]);
    assert!(last(&lines).ends_with(" resign"), "{lines:?}");
}

#[test]
fn league_manager_sequence() {
    let mut transcript = Transcript::new();
    let boot = transcript.send(&["ucci"]);
    assert_eq!(last(&boot), "ucciok");
    let lines = transcript.send(&[
        "setoption promotion false",
        "setoption ponder false",
        "setoption newgame",
        "setoption usemillisec true",
        "setoption hashsize 32",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7",
        "banmoves",
        "go draw time 2000 increment 0 opptime 2000 oppincrement 0",
    ]);
    assert!(last(&lines).starts_with("bestmove "), "{lines:?}");
    let mut position = Position::start();
    position.try_play(parse_iccs("h2e2").unwrap()).unwrap();
    position.try_play(parse_iccs("h9g7").unwrap()).unwrap();
    assert!(position.is_legal(best_move_of(last(&lines))));
    assert!(!transcript.send_now("quit"));
    assert_eq!(transcript.take(), ["bye"]);
}

#[test]
fn xqwizard_sequence_without_option_parsing() {
    let mut transcript = Transcript::new();
    transcript.send(&["ucci"]);
    let lines = transcript.send(&[
        "setoption batch false",
        "setoption hashsize 16",
        "setoption newgame",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1",
        "setoption newgame",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b2e2",
        "go time 1 increment 0",
    ]);
    assert!(last(&lines).starts_with("bestmove "), "{lines:?}");
}

#[test]
fn uci_dialect_speaks_pikafish_style() {
    let mut transcript = Transcript::uci();
    let lines = transcript.send(&["uci"]);
    let name = concat!("id name Tessera ", env!("CARGO_PKG_VERSION"));
    assert_eq!(&lines[..2], [name, "id author The Tessera developers"]);
    assert!(!lines.iter().any(|line| line.contains("UCI_Chess960")), "no Chess960 in xiangqi");
    for option in ["Hash", "Threads", "MultiPV", "Ponder", "Move Overhead"] {
        assert!(lines.iter().any(|line| line.starts_with(&format!("option name {option} type"))), "{option}");
    }
    assert_eq!(last(&lines), "uciok");
    let lines = transcript.send(&[
        "setoption name Hash value 8",
        "setoption name MultiPV value 2",
        "position startpos moves h2e2",
        "go depth 3",
    ]);
    assert_every_uci_line_parses(&lines);
    assert!(lines.iter().any(|line| line.contains(" multipv 2 ") && line.contains(" score cp ")), "{lines:?}");
    assert!(last(&lines).starts_with("bestmove "));
    let lines = transcript.send(&["setoption name MultiPV value 1", "go wtime 1000 btime 1000 winc 10 binc 10"]);
    assert!(last(&lines).starts_with("bestmove "));
    assert!(transcript.send_now("go ponder wtime 1000 btime 1000"));
    std::thread::sleep(Duration::from_millis(100));
    assert!(!transcript.take().iter().any(|line| line.starts_with("bestmove")), "no bestmove while pondering");
    assert!(transcript.send_now("ponderhit"));
    transcript.wait();
    assert!(last(&transcript.take()).starts_with("bestmove "));
    let lines = transcript.send(&["go movetime 100"]);
    assert!(last(&lines).starts_with("bestmove "));
    let lines = transcript.send(&["go nodes 5000"]);
    assert!(last(&lines).starts_with("bestmove "));
    let lines = transcript.send(&["go perft 1"]);
    // Stockfish's layout: the split, a blank line, the total, a blank line.
    assert_eq!(lines[lines.len() - 2], format!("Nodes searched: {}", lines.len() - 3));
    assert_eq!(transcript.send(&["stop"]), Vec::<String>::new()[..], "UCI ignores a stray stop");
    let lines = transcript.send(&["setoption name Nonsense value 3"]);
    assert_eq!(lines, ["info string unknown option Nonsense"]);
    assert!(!transcript.send_now("quit"));
    assert!(transcript.take().is_empty(), "no bye in UCI");
}

#[test]
fn bad_input_is_reported_and_the_engine_keeps_answering() {
    let mut transcript = Transcript::new();
    transcript.send(&["ucci"]);
    let lines = transcript.send(&[
        "flurb",
        "position fen rnbakabnr/9/1c5c1 w",
        "setoption batch maybe",
        "\u{fffd}\u{fffd}",
        "",
    ]);
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines.iter().all(|line| line.starts_with("info message ")), "{lines:?}");
    // A bad go token is reported and skipped; the search still answers.
    let lines = transcript.send(&["go depth x nodes 2000"]);
    assert!(lines[0].starts_with("info message malformed 'go': depth value 'x'"), "{lines:?}");
    assert!(last(&lines).starts_with("bestmove "), "{lines:?}");
    let lines = transcript.send(&["position startpos moves h2e2 z9z9 h9g7", "go perft 1"]);
    assert!(lines[0].starts_with("info message illegal move 'z9z9'"), "{lines:?}");
    let mut after = Position::start();
    after.try_play(parse_iccs("h2e2").unwrap()).unwrap();
    let mut moves = tessera_xiangqi::Moves::new();
    after.generate_legal_moves(&mut moves);
    assert_eq!(last(&lines), format!("Nodes searched: {}", moves.len()), "the moves stop before the bad one");
    assert_eq!(transcript.send(&["isready"]), ["readyok"]);
}

#[test]
fn run_reads_lines_from_a_stream_until_quit() {
    let capture = Capture::new();
    let output = Output::new(capture.clone());
    tessera_ucci_protocol::run(
        Xiangqi,
        &b"ucci\r\nisready\r\nposition startpos\ngo depth 2\nquit\nisready\n"[..],
        output,
        Options::default(),
    );
    let lines = capture.lines();
    assert!(lines.contains(&"readyok".to_owned()));
    assert_eq!(last(&lines), "bye");
    assert_eq!(lines.iter().filter(|line| *line == "readyok").count(), 1, "nothing after quit");
}

#[test]
fn a_game_over_by_rule_is_flagged_and_still_answered_with_a_move() {
    let mut transcript = Transcript::new();
    transcript.send(&["ucci"]);
    // Red's third perpetual check: Black wins by rule. A GUI that plays on still gets a move
    // (the league judges repetitions itself and scores `nobestmove` as resignation).
    let perpetual =
        "position fen 4k4/9/9/9/9/9/9/9/4A4/R2K5 w - - 0 1 moves a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9";
    let lines = transcript.send(&[perpetual, "go depth 3"]);
    assert_eq!(lines[0], "info message the rules say this game is won by Black");
    assert!(last(&lines).starts_with("bestmove e9e8"), "the only escape from the check: {lines:?}");
}

#[test]
fn debug_adds_a_search_summary() {
    let mut transcript = Transcript::new();
    transcript.send(&["ucci", "setoption debug true", "position startpos"]);
    let lines = transcript.send(&["go depth 2"]);
    assert!(lines[lines.len() - 2].starts_with("info message searched "), "{lines:?}");
    transcript.send(&["setoption debug false"]);
    let lines = transcript.send(&["go depth 2"]);
    assert!(!lines.iter().any(|line| line.starts_with("info message")), "{lines:?}");
}

#[test]
fn threads_and_randomness_still_answer_legal_moves() {
    let mut transcript = Transcript::new();
    transcript.send(&["ucci", "setoption threads 2", "setoption randomness large", "position startpos moves h2e2"]);
    let mut position = Position::start();
    position.try_play(parse_iccs("h2e2").unwrap()).unwrap();
    for _ in 0..3 {
        let lines = transcript.send(&["go depth 4"]);
        assert!(position.is_legal(best_move_of(last(&lines))), "{lines:?}");
        assert!(!lines.iter().any(|line| line.contains(" multipv ")), "UCCI shows only the main line");
    }
}

/// A xiangqi network with small random weights (the evaluation need only differ from the
/// hand-crafted one).
fn network_bytes() -> Vec<u8> {
    use tessera_xiangqi::nnue::{Network, Quantisation, FEATURE_SET, INPUTS};
    let hidden = 16;
    let mut rng = tessera_core::Rng::new(7);
    let mut values = |count: usize| -> Vec<i16> { (0..count).map(|_| rng.below(61) as i16 - 30).collect() };
    let (weights, biases, output) = (values(INPUTS * hidden), values(hidden), values(2 * hidden));
    Network::from_parts(FEATURE_SET, Quantisation::STANDARD, weights, biases, output, 7).to_bytes()
}

/// The start position's evaluation with `network` (`None`: the hand-crafted evaluation).
fn start_evaluation(network: Option<std::sync::Arc<tessera_xiangqi::nnue::Network>>) -> i32 {
    let mut position = Position::start();
    position.set_network(network);
    position.nnue_evaluation().unwrap_or_else(|| position.static_evaluation())
}

#[test]
fn evaluation_options_choose_the_embedded_network_a_file_or_the_hand_crafted_evaluation() {
    use tessera_xiangqi::nnue::{default_network, DEFAULT_NETWORK};
    let bytes = network_bytes();
    let good = TempFile::new("good.nnue", &bytes).unwrap();
    let truncated = TempFile::new("truncated.nnue", &bytes[..bytes.len() / 2]).unwrap();
    let (good_path, truncated_path) = (good.path().display().to_string(), truncated.path().display().to_string());
    let loaded = format!("EvalFile {good_path} loaded (xiangqi-kf3 features, 16 hidden)");
    let embedded = start_evaluation(Some(default_network()));
    let from_file = start_evaluation(Some(DEFAULT_NETWORK.or_file(good.path()).unwrap()));
    let handcrafted = start_evaluation(None);
    assert!(embedded != from_file && embedded != handcrafted, "the three evaluations differ");
    let score = |score: i32| format!("info depth 0 score {score}");

    let mut ucci = Transcript::new();
    let boot = ucci.send(&["ucci"]);
    assert!(boot.contains(&"option evalfile type string default <embedded>".to_owned()), "{boot:?}");
    assert!(boot.contains(&"option usennue type check default true".to_owned()), "{boot:?}");
    let lines = ucci.send(&[&format!("setoption evalfile {truncated_path}"), "position startpos", "go depth 0"]);
    assert!(lines[0].starts_with(&format!("info message option evalfile: {truncated_path}: ")), "{}", lines[0]);
    assert!(lines[0].ends_with("; keeping <embedded>"), "{}", lines[0]);
    assert_eq!(lines[1], score(embedded), "the embedded network evaluates and is kept");
    let lines = ucci.send(&[&format!("setoption evalfile {good_path}"), "go depth 0"]);
    assert_eq!(lines[..2], [format!("info message {loaded}"), score(from_file)]);
    let lines = ucci.send(&["setoption evalfile /no/such/file.nnue", "go depth 0"]);
    assert!(lines[0].ends_with(&format!("; keeping {good_path}")), "{}", lines[0]);
    assert_eq!(lines[1], score(from_file), "the network is kept");
    let lines = ucci.send(&["position startpos moves h2e2", "go depth 3"]);
    assert!(last(&lines).starts_with("bestmove "), "{lines:?}");
    let lines = ucci.send(&["setoption usennue false", "position startpos", "go depth 0"]);
    assert_eq!(lines, ["info message hand-crafted evaluation".to_owned(), score(handcrafted), "nobestmove".to_owned()]);
    let lines = ucci.send(&["setoption usennue maybe", "go depth 0"]);
    assert_eq!(lines[1], score(handcrafted), "a bad value changes nothing: {lines:?}");
    let lines = ucci.send(&["setoption usennue true", "go depth 0"]);
    assert_eq!(lines[..2], [format!("info message NNUE evaluation using {good_path}"), score(from_file)]);
    let lines = ucci.send(&["setoption evalfile <embedded>", "go depth 0"]);
    let hidden = default_network().hidden();
    assert_eq!(
        lines[..2],
        [format!("info message EvalFile <embedded> loaded (xiangqi-kf3 features, {hidden} hidden)"), score(embedded)]
    );

    let mut uci = Transcript::uci();
    let boot = uci.send(&["uci"]);
    assert!(boot.contains(&"option name EvalFile type string default <embedded>".to_owned()), "{boot:?}");
    assert!(boot.contains(&"option name Use NNUE type check default true".to_owned()), "{boot:?}");
    let lines = uci.send(&[&format!("setoption name EvalFile value {truncated_path}")]);
    assert!(lines[0].starts_with(&format!("info string EvalFile {truncated_path}: ")), "{}", lines[0]);
    assert!(lines[0].ends_with("; keeping <embedded>"), "{}", lines[0]);
    let lines = uci.send(&[&format!("setoption name EvalFile value {good_path}"), "position startpos", "go depth 3"]);
    assert_eq!(lines[0], format!("info string {loaded}"));
    assert!(last(&lines).starts_with("bestmove "), "{lines:?}");
    let lines = uci.send(&["setoption name Use NNUE value false"]);
    assert_eq!(lines, ["info string hand-crafted evaluation"]);
    let lines = uci.send(&["setoption name Use NNUE value maybe"]);
    assert_eq!(lines, ["info string option Use NNUE needs true or false, not maybe"]);
}
