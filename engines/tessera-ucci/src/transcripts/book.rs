//! The opening book over both protocols: the built-in book answers at once, a search is asked for
//! by `depth` or by turning the book off, book files of our own are read, bad ones are refused by
//! name while the engine plays on, and no book move is one the rules or the GUI forbid.

use std::path::Path;
use std::time::{Duration, Instant};

use tessera_core::book::{Book, BookEntry, BookFormat};
use tessera_core::harness::TempFile;
use tessera_core::{Game, Outcome, PackedMove, Side};
use tessera_xiangqi::{book_format, iccs, parse_iccs, Move, Position};

use super::{best_move_of, last, Transcript};
use crate::dialect::BUILT_IN_BOOK;

/// Time a book answer may take on a loaded machine; the clocks given would let a search think
/// for many seconds.
const AT_ONCE: Duration = Duration::from_secs(2);

fn built_in() -> Book {
    Book::from_bytes(BUILT_IN_BOOK, book_format(), Path::new("<built-in>")).expect("the built-in book reads")
}

/// The built-in book's moves at the start.
fn start_moves() -> Vec<Move> {
    built_in().moves(&Position::start(), |_| true).into_iter().map(|(mv, _)| mv).collect()
}

/// A book of one position's moves with their weights, as a file.
fn book_file(name: &str, position: &Position, moves: &[(&str, u16)]) -> TempFile {
    let key = position.hash();
    let entries = moves.iter().map(|&(mv, weight)| BookEntry { key, code: parse_iccs(mv).unwrap().to_bits(), weight });
    TempFile::new(name, &Book::new(entries.collect()).to_bytes(book_format())).unwrap()
}

#[test]
fn the_built_in_book_reads_and_holds_the_start_with_several_moves() {
    let book = built_in();
    assert!(book.positions() >= 100, "{} positions", book.positions());
    assert!(start_moves().len() >= 2, "the start has {:?}", start_moves());
}

#[test]
fn ucci_plays_a_booked_position_at_once_and_searches_when_asked_or_when_the_book_is_off() {
    let mut transcript = Transcript::new();
    transcript.send(&["ucci", "setoption usemillisec true", "setoption usebook true", "position startpos"]);
    let started = Instant::now();
    let lines = transcript.send(&["go time 600000 increment 0"]);
    assert!(started.elapsed() < AT_ONCE, "{:?}", started.elapsed());
    assert_eq!(lines.len(), 2, "{lines:?}");
    let mv = best_move_of(last(&lines));
    assert!(start_moves().contains(&mv), "{lines:?}");
    // No score: a weight is not an evaluation.
    assert!(lines[0].starts_with(&format!("info message book move {}, weight ", iccs(mv))), "{lines:?}");
    // A depth is an analysis: it searches.
    let lines = transcript.send(&["go depth 2"]);
    assert!(lines.iter().any(|line| line.starts_with("info depth 2 score")), "{lines:?}");
    assert!(!lines.iter().any(|line| line.contains("book move")), "{lines:?}");
    // Banned moves are never played from the book: with all but one banned, that one.
    let (kept, banned) =
        start_moves().split_first().map(|(&kept, banned)| (kept, banned.to_vec())).expect("book moves");
    let banmoves = format!("banmoves {}", banned.iter().map(|&mv| iccs(mv)).collect::<Vec<_>>().join(" "));
    for _ in 0..4 {
        let lines = transcript.send(&["position startpos", &banmoves, "go time 600000 increment 0"]);
        assert_eq!(best_move_of(last(&lines)), kept, "{lines:?}");
    }
    transcript.send(&["setoption usebook false", "position startpos"]);
    let lines = transcript.send(&["go time 2000 increment 0"]);
    assert!(!lines.iter().any(|line| line.contains("book move")), "{lines:?}");
    assert!(lines.iter().any(|line| line.starts_with("info depth 1 score")), "{lines:?}");
}

#[test]
fn bad_book_files_are_refused_by_name_and_the_built_in_book_plays_on() {
    let other_game = BookFormat { game: "chess", ..book_format() };
    let other_keys = BookFormat { start_key: book_format().start_key ^ 1, ..book_format() };
    let text = TempFile::new("notes.book", b"not a book").unwrap();
    let chess = TempFile::new("chess.book", &built_in().to_bytes(other_game)).unwrap();
    let keys = TempFile::new("keys.book", &built_in().to_bytes(other_keys)).unwrap();
    let cut = TempFile::new("cut.book", &BUILT_IN_BOOK[..BUILT_IN_BOOK.len() - 5]).unwrap();
    let mut transcript = Transcript::new();
    transcript.send(&["ucci", "setoption usebook true"]);
    let refusals = [
        ("/no/such/file.book", "No such file"),
        (&text.path().display().to_string(), "not a Tessera book"),
        (&chess.path().display().to_string(), "a chess book, not xiangqi"),
        (&keys.path().display().to_string(), "made with other position keys"),
        (&cut.path().display().to_string(), "damaged"),
    ];
    for (file, reason) in refusals {
        let lines = transcript.send(&[&format!("setoption bookfiles {file}")]);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with(&format!("info message option bookfiles: book {file}: ")), "{lines:?}");
        assert!(lines[0].contains(reason) && lines[0].ends_with("; keeping the built-in book"), "{lines:?}");
    }
    let lines = transcript.send(&["setoption usebook yes please"]);
    assert!(lines[0].starts_with("info message option usebook: "), "{lines:?}");
    let lines = transcript.send(&["position startpos", "go time 600 increment 0"]);
    assert!(start_moves().contains(&best_move_of(last(&lines))), "{lines:?}");
    assert!(lines.iter().any(|line| line.contains("book move")), "{lines:?}");
}

#[test]
fn a_book_of_our_own_never_plays_a_move_the_repetition_rules_forbid() {
    // Red's rook checks the king up and down the file: the third a8a9 would make Red lose by
    // perpetual check, so the book's favourite move must be passed over for the quiet one.
    let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
    let moves = "a0a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8 d8d9";
    let mut position: Position = fen.parse().unwrap();
    for mv in moves.split(' ') {
        position.play(parse_iccs(mv).unwrap());
    }
    let mut repeated = position.clone();
    repeated.play(parse_iccs("a8a9").unwrap());
    assert_eq!(repeated.rule_outcome(None), Some(Outcome::Win(Side::Second)), "the premise: a8a9 loses");
    let book = book_file("repeat.book", &position, &[("a8a9", 1000), ("a8a7", 1)]);
    let mut transcript = Transcript::new();
    let set_up = format!("position fen {fen} moves {moves}");
    transcript.send(&["ucci", "setoption usebook true", &format!("setoption bookfiles {}", book.path().display())]);
    for _ in 0..4 {
        let lines = transcript.send(&[&set_up, "go time 600 increment 0"]);
        assert_eq!(last(&lines), "bestmove a8a7", "{lines:?}");
    }
}

#[test]
fn uci_plays_from_own_book_and_book_file_when_own_book_is_on() {
    let mut transcript = Transcript::uci();
    let boot = transcript.send(&["uci"]);
    assert!(boot.contains(&"option name OwnBook type check default false".to_owned()), "{boot:?}");
    assert!(boot.contains(&"option name BookFile type string default <empty>".to_owned()), "{boot:?}");
    let clock = "go wtime 600000 btime 600000";
    let lines = transcript.send(&["position startpos", "go depth 1"]);
    assert!(!lines.iter().any(|line| line.contains("book move")), "off by default: {lines:?}");
    transcript.send(&["setoption name OwnBook value true"]);
    let started = Instant::now();
    let lines = transcript.send(&[clock]);
    assert!(started.elapsed() < AT_ONCE, "{:?}", started.elapsed());
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("info string book move "), "{lines:?}");
    assert!(start_moves().contains(&best_move_of(last(&lines))), "{lines:?}");
    let lines = transcript.send(&["setoption name BookFile value /no/such/file.book"]);
    assert!(lines[0].starts_with("info string book /no/such/file.book: ") && lines[0].contains("keeping"), "{lines:?}");
    let book = book_file("own.book", &Position::start(), &[("b0c2", 5)]);
    let lines = transcript.send(&[&format!("setoption name BookFile value {}", book.path().display())]);
    assert_eq!(lines, [format!("info string book {}, 1 positions", book.path().display())]);
    assert_eq!(last(&transcript.send(&[clock])), "bestmove b0c2");
    let lines = transcript.send(&["go depth 2"]);
    assert!(lines.iter().any(|line| line.starts_with("info depth 2 ")), "a depth searches: {lines:?}");
    let lines = transcript.send(&["go wtime 2000 btime 2000 searchmoves h2e2"]);
    assert_eq!(iccs(best_move_of(last(&lines))), "h2e2", "only the searchmoves are played: {lines:?}");
    transcript.send(&["setoption name BookFile value <empty>"]);
    assert!(start_moves().contains(&best_move_of(last(&transcript.send(&[clock])))));
}
