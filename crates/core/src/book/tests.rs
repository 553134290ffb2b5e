use super::*;
use crate::game::Side;
use crate::harness::TempFile;
use crate::toys::TicTacToe;

const FORMAT: BookFormat = BookFormat { game: "tictactoe", start_key: 0 };

/// A book of the empty board: the centre (weight 3) and a corner (weight 1).
fn opening_book() -> Book {
    let start = TicTacToe::new();
    let mut builder = BookBuilder::default();
    for _ in 0..3 {
        builder.add_game(&start, &[4, 0], Some(Outcome::Win(Side::First)), 8).unwrap();
        builder.add_game(&start, &[4, 0], Some(Outcome::Win(Side::Second)), 8).unwrap();
    }
    builder.add_game(&start, &[0], Some(Outcome::Draw), 8).unwrap();
    builder.add_game(&start, &[0], Some(Outcome::Draw), 8).unwrap();
    builder.build(BookFilter { min_count: 2, min_score: 0.0 })
}

#[test]
fn a_built_book_weighs_moves_by_their_results_and_keeps_those_the_filter_keeps() {
    let book = opening_book();
    let start = TicTacToe::new();
    // The centre: 6 games, 3 won for its side (6 half points); the corner: 2 draws (2).
    assert_eq!(book.moves(&start, |_| true), vec![(4, 6), (0, 2)]);
    // After the centre, the corner reply scored 3 wins of 6 for the second player.
    let mut after = start.clone();
    after.play(4);
    assert_eq!(book.moves(&after, |_| true), vec![(0, 6)]);
    assert_eq!(book.positions(), 2);
    let start = TicTacToe::new();
    let mut builder = BookBuilder::default();
    builder.add_game(&start, &[4, 0], Some(Outcome::Win(Side::Second)), 8).unwrap();
    builder.add_game(&start, &[4, 0], None, 8).unwrap();
    assert_eq!(builder.games(), 1, "a game without a result is not counted");
    assert_eq!(builder.add_game(&start, &[4, 4], Some(Outcome::Draw), 8), Err(1), "the illegal move's index");
    let strict = builder.build(BookFilter { min_count: 1, min_score: 0.5 });
    assert_eq!(strict.moves(&start, |_| true), vec![], "the centre lost its only game: below the least score");
    let mut only_first = BookBuilder::default();
    only_first.add_game(&start, &[4, 0, 1], Some(Outcome::Win(Side::First)), 1).unwrap();
    assert_eq!(only_first.build(BookFilter { min_count: 1, min_score: 0.0 }).positions(), 1, "plies limit");
}

#[test]
fn a_book_reads_back_what_it_wrote_and_refuses_what_is_not_its_own() {
    let book = opening_book();
    let bytes = book.to_bytes(FORMAT);
    let here = Path::new("x.book");
    assert_eq!(Book::from_bytes(&bytes, FORMAT, here).unwrap(), book);
    let refused = |bytes: &[u8], format: BookFormat| Book::from_bytes(bytes, format, here).unwrap_err().to_string();
    assert_eq!(refused(b"[Event \"x\"]", FORMAT), "book x.book: not a Tessera book");
    assert_eq!(refused(&bytes, BookFormat { game: "chess", ..FORMAT }), "book x.book: a tictactoe book, not chess");
    assert!(refused(&bytes, BookFormat { start_key: 1, ..FORMAT }).contains("other position keys"));
    assert_eq!(refused(&bytes[..bytes.len() - 1], FORMAT), "book x.book: damaged (cut short or out of order)");
    let mut newer = bytes.clone();
    newer[8] = 2;
    assert_eq!(refused(&newer, FORMAT), "book x.book: format version 2, this build reads 1");
    let mut unordered = bytes.clone();
    let first = HEADER_BYTES..HEADER_BYTES + ENTRY_BYTES;
    let last = bytes.len() - ENTRY_BYTES..bytes.len();
    unordered[first.clone()].copy_from_slice(&bytes[last.clone()]);
    unordered[last].copy_from_slice(&bytes[first]);
    assert!(refused(&unordered, FORMAT).contains("damaged"));
    let missing = Book::load(Path::new("/no/such/book"), FORMAT).unwrap_err();
    assert!(matches!(missing, BookError::Read { .. }) && missing.to_string().starts_with("book /no/such/book: "));
}

#[test]
fn only_legal_allowed_moves_are_played_and_each_as_often_as_its_weight_says() {
    let start = TicTacToe::new();
    let mut taken = start.clone();
    taken.play(4);
    // Square 4 is taken and 9 is no square: entries that match no legal move are passed over.
    let entries = [(4, 5), (9, 5), (2, 1)].map(|(code, weight)| BookEntry { key: taken.hash(), code, weight });
    let book = Book::new(entries.to_vec());
    assert_eq!(book.moves(&taken, |_| true), vec![(2, 1)]);
    assert_eq!(book.moves(&taken, |mv| mv != 2), vec![]);
    let book = opening_book();
    let mut rng = Rng::new(7);
    let centre = (0..4000).filter(|_| book.choose(&start, |_| true, &mut rng).unwrap().mv == 4).count();
    assert!((2800..3200).contains(&centre), "weights 6 and 2: the centre about 3 times in 4, got {centre} of 4000");
    let choice = book.choose(&start, |mv| mv == 0, &mut rng).unwrap();
    assert_eq!(choice, BookChoice { mv: 0, weight: 2, total: 2 });
    let mut elsewhere = start.clone();
    elsewhere.play(8);
    assert_eq!(book.choose(&elsewhere, |_| true, &mut rng), None, "a position not in the book");
}

#[test]
fn a_sessions_book_is_off_until_asked_and_keeps_its_books_when_a_file_is_refused() {
    let bytes: &'static [u8] = Box::leak(opening_book().to_bytes(FORMAT).into_boxed_slice());
    let mut books = OpeningBook::new(BookSetup { format: FORMAT, built_in: bytes });
    let start = TicTacToe::new();
    assert_eq!(books.choose(&start, |_| true), None, "off by default");
    books.set_enabled(true);
    assert!(books.choose(&start, |_| true).is_some());
    assert_eq!(books.set_files("<embedded>").unwrap(), "built-in book, 2 positions");
    // A book of its own holding only the corner.
    let corner = Book::new(vec![BookEntry { key: start.hash(), code: 8, weight: 1 }]);
    let corner_file = TempFile::new("corner.book", &corner.to_bytes(FORMAT)).unwrap();
    let empty_file = TempFile::new("empty.book", &Book::default().to_bytes(FORMAT)).unwrap();
    let named = format!("{};{}", empty_file.path().display(), corner_file.path().display());
    assert_eq!(books.set_files(&named).unwrap(), format!("book {named}, 1 positions"));
    assert_eq!(books.choose(&start, |_| true).unwrap().mv, 8, "the first book holding the position answers");
    let refused = books.set_files(&format!("{};/no/such/book", corner_file.path().display())).unwrap_err();
    assert!(refused.to_string().contains("/no/such/book"));
    assert_eq!(books.in_use(), named, "the books in use stay");
    assert_eq!(books.choose(&start, |_| true).unwrap().mv, 8);
    books.set_enabled(false);
    assert_eq!(books.choose(&start, |_| true), None);
    let without = OpeningBook::new(BookSetup { format: FORMAT, built_in: &[] });
    assert_eq!(without.in_use(), "the built-in book");
    let mut without = without;
    assert_eq!(without.set_files("").unwrap(), "no built-in book");
}
