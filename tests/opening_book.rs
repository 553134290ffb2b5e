//! `tessera book` builds books from PGN records that the engines then play from over real pipes:
//! xiangqi over UCCI (`usebook`, `bookfiles`) and chess over UCI (`OwnBook`, `BookFile`); games it
//! cannot read are reported and skipped, bad settings refused.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use support::{engine_binary, path_for_engine, tool_binary, Driven, Folder};

const WAIT: Duration = Duration::from_secs(30);

/// Xiangqi records: the central cannon three times (won twice by Red, once drawn), the horse
/// opening once (lost); a game in WXF notation, which the builder does not read.
const XIANGQI_GAMES: &str = r#"
[Variant "xiangqi"]
[Result "1-0"]

1. h2e2 h9g7 2. h0g2 i9h9 1-0

[Variant "xiangqi"]
[Result "1/2-1/2"]

1. H2-E2 H9-G7 2. b0c2 1/2-1/2

[Variant "xiangqi"]
[Result "1-0"]

1. h2e2 h9g7 1-0

[Variant "xiangqi"]
[Result "0-1"]

1. b0c2 h9g7 0-1

[Variant "xiangqi"]
[Result "1-0"]

1. C2.5 H8+7 1-0
"#;

const CHESS_GAMES: &str = r#"
[Result "1-0"]

1. e4 e5 2. Nf3 1-0

[Result "1/2-1/2"]

1. e4 c5 1/2-1/2
"#;

/// Writes `text` to `name` in `folder`.
fn write(folder: &Folder, name: &str, text: &str) -> PathBuf {
    let path = folder.0.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs `tessera book ARGS`: success, stdout, stderr.
fn tessera_book(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(tool_binary()).arg("book").args(args).output().expect("running tessera book");
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.success(), text(&output.stdout), text(&output.stderr))
}

fn build(game: &str, records: &Path, book: &Path) -> String {
    let (book, records) = (book.to_str().unwrap(), records.to_str().unwrap());
    let (ok, stdout, stderr) =
        tessera_book(&["--game", game, "--min-count", "2", "--min-score", "0.5", "-o", book, records]);
    assert!(ok, "{stderr}");
    format!("{stdout}{stderr}")
}

/// The engine's answer to `go` in the position after `moves` (none: the start).
fn answer(engine: &mut Driven, set_up: &str, go: &str) -> Vec<String> {
    engine.send(set_up);
    engine.send(go);
    engine.read_until(WAIT, |line| line.starts_with("bestmove"))
}

#[test]
fn a_xiangqi_book_from_records_is_played_over_ucci() {
    let folder = Folder::new("book xiangqi");
    let records = write(&folder, "games.pgn", XIANGQI_GAMES);
    let book = folder.0.join("xiangqi.book");
    let said = build("xiangqi", &records, &book);
    // The central cannon: 3 games, 5 half points of 6 for Red (weight 5); its reply h9g7 made 1
    // of 6 for Black, below the least score; the horse opening was played once, below the count.
    assert!(said.contains("game 5: move 1 (C2.5) not read"), "{said}");
    assert!(said.contains("5 games with a result (1 with problems, see above)"), "{said}");
    assert!(said.contains(": 1 positions, 1 moves"), "{said}");
    let mut engine = Driven::start(&engine_binary("tessera-ucci"), &[]);
    engine.send("ucci");
    engine.read_until(WAIT, |line| line == "ucciok");
    engine.send("setoption usebook true");
    engine.send(&format!("setoption bookfiles {}", path_for_engine(&book)));
    let lines = answer(&mut engine, "position startpos", "go time 60 increment 0");
    assert!(lines.iter().any(|line| line.ends_with(", 1 positions")), "{lines:?}");
    assert!(lines.iter().any(|line| line == "info message book move h2e2, weight 5 of 5"), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove h2e2"));
    // Out of the book: a search.
    let lines = answer(&mut engine, "position startpos moves h2e2", "go time 1 increment 0");
    assert!(lines.iter().any(|line| line.starts_with("info depth 1 ")), "{lines:?}");
    engine.send("quit");
    assert!(engine.wait_exit(WAIT));
}

#[test]
fn a_chess_book_from_records_is_played_over_uci() {
    let folder = Folder::new("book chess");
    let records = write(&folder, "games.pgn", CHESS_GAMES);
    let book = folder.0.join("chess.book");
    let said = build("chess", &records, &book);
    assert!(said.contains(": 1 positions, 1 moves"), "e4 twice, 1.5 points: {said}");
    let mut engine = Driven::start(&engine_binary("tessera-uci"), &[]);
    engine.send("uci");
    engine.read_until(WAIT, |line| line == "uciok");
    engine.send("setoption name OwnBook value true");
    engine.send(&format!("setoption name BookFile value {}", path_for_engine(&book)));
    let lines = answer(&mut engine, "position startpos", "go wtime 60000 btime 60000");
    assert!(lines.iter().any(|line| line.starts_with("info string book move e2e4, weight 3 of 3")), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove e2e4"));
    // A xiangqi book is refused by name; the chess book stays.
    let xiangqi = folder.0.join("xiangqi.book");
    build("xiangqi", &write(&folder, "xiangqi.pgn", XIANGQI_GAMES), &xiangqi);
    engine.send(&format!("setoption name BookFile value {}", path_for_engine(&xiangqi)));
    let lines = answer(&mut engine, "position startpos", "go wtime 60000 btime 60000");
    assert!(lines.iter().any(|line| line.contains("a xiangqi book, not chess; keeping ")), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove e2e4"));
    engine.send("quit");
    assert!(engine.wait_exit(WAIT));
}

#[test]
fn bad_settings_and_missing_records_fail_with_a_message() {
    let (ok, _, stderr) = tessera_book(&["--game", "xiangqi", "--min-score", "2", "-o", "/tmp/x.book", "a.pgn"]);
    assert!(!ok && stderr.contains("--min-score 2 is not within 0 to 1"), "{stderr}");
    let (ok, _, stderr) = tessera_book(&["--game", "xiangqi", "-o", "/tmp/x.book", "/no/such/records.pgn"]);
    assert!(!ok && stderr.contains("/no/such/records.pgn: "), "{stderr}");
}
