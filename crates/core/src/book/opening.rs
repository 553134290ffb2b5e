//! The book a protocol session consults before it searches: the game's built-in book or the files
//! a GUI named, and whether to use one at all. Every protocol's book options (UCCI `usebook` and
//! `bookfiles`, UCI `OwnBook` and `BookFile`) set it; its choice is the session's answer.

use std::path::Path;

use super::{Book, BookChoice, BookError, BookFormat};
use crate::game::Game;
use crate::rng::Rng;

/// What a game offers for books: their format and the book built into the engine (empty: none).
#[derive(Clone, Copy, Debug)]
pub struct BookSetup {
    /// The game's book format.
    pub format: BookFormat,
    /// The built-in book's file form (a book of `format`), or no bytes.
    pub built_in: &'static [u8],
}

/// A session's books: off until a GUI turns them on; the built-in book unless files are named.
#[derive(Debug)]
pub struct OpeningBook {
    format: BookFormat,
    built_in: Book,
    /// The books of the files named, in order; empty: the built-in book is used.
    files: Vec<Book>,
    /// The files as the GUI named them (empty: the built-in book).
    named: String,
    enabled: bool,
    rng: Rng,
}

/// The names a GUI gives for "no file of my own": the built-in book.
fn names_built_in(files: &str) -> bool {
    matches!(files.trim(), "" | "<empty>" | "<embedded>")
}

impl OpeningBook {
    /// The books of `setup`, switched off. A built-in book that does not read (a build error the
    /// tests catch) leaves no built-in book.
    #[must_use]
    pub fn new(setup: BookSetup) -> Self {
        let built_in = if setup.built_in.is_empty() {
            Book::default()
        } else {
            Book::from_bytes(setup.built_in, setup.format, Path::new("<built-in>")).unwrap_or_else(|error| {
                tracing::error!("{error}");
                Book::default()
            })
        };
        let seed =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |time| time.as_nanos() as u64);
        OpeningBook {
            format: setup.format,
            built_in,
            files: Vec::new(),
            named: String::new(),
            enabled: false,
            rng: Rng::new(seed),
        }
    }

    /// Whether a search asks the book first.
    #[must_use]
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Turns the book on or off.
    pub fn set_enabled(&mut self, enabled: bool) {
        self.enabled = enabled;
    }

    /// The books in use, as a message names them: the files as the GUI named them, or `the
    /// built-in book`.
    #[must_use]
    pub fn in_use(&self) -> &str {
        if self.named.is_empty() {
            "the built-in book"
        } else {
            &self.named
        }
    }

    /// Uses the books in `files` (`;` between several: the first that holds a position answers
    /// for it), or the built-in book for an empty name, `<empty>` or `<embedded>`. Returns the
    /// note for the GUI.
    ///
    /// # Errors
    /// The first file that cannot be used; the books in use stay.
    pub fn set_files(&mut self, files: &str) -> Result<String, BookError> {
        if names_built_in(files) {
            self.files.clear();
            self.named.clear();
            return Ok(match self.built_in.positions() {
                0 => "no built-in book".to_owned(),
                positions => format!("built-in book, {positions} positions"),
            });
        }
        let names: Vec<&str> = files.split(';').map(str::trim).filter(|name| !name.is_empty()).collect();
        let books = names
            .iter()
            .map(|name| Book::load(Path::new(name), self.format))
            .collect::<Result<Vec<Book>, BookError>>()?;
        let positions: usize = books.iter().map(Book::positions).sum();
        self.files = books;
        self.named = names.join(";");
        Ok(format!("book {}, {positions} positions", self.named))
    }

    /// A book move for `position` when the book is on and holds one that `allowed` accepts (see
    /// [`Book::moves`]), drawn by weight.
    pub fn choose<G: Game>(&mut self, position: &G, allowed: impl Fn(G::Move) -> bool) -> Option<BookChoice<G::Move>> {
        if !self.enabled {
            return None;
        }
        let books = if self.files.is_empty() { std::slice::from_ref(&self.built_in) } else { &self.files };
        books.iter().find_map(|book| book.choose(position, &allowed, &mut self.rng))
    }
}
