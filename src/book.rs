//! `tessera book`: an opening book of our own format (`tessera_core::book`) from game records,
//! for the engines' UCCI `bookfiles` and UCI `BookFile` options.
//!
//! Records are PGN: chess with SAN moves (as cutechess and `tessera match` write them), xiangqi
//! with ICCS moves (`h2e2` or `H2-E2`, as cutechess, Fairy-Stockfish's tools and `tessera match`
//! write them, with the `FEN` tag for a set-up start). WXF and Chinese move text are not read:
//! a game whose moves cannot be read is used up to its first unread move, and counted.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use tessera_arena::record::pgn::{self, PgnGame};
use tessera_chess::{parse_san, Chess, Rules as ChessRules};
use tessera_core::book::{BookBuilder, BookFilter, BookFormat};
use tessera_core::Game;
use tessera_xiangqi::{parse_iccs, Position as Xiangqi};

/// The games books are made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BookGame {
    /// Chess (tessera-uci's `OwnBook`/`BookFile`).
    Chess,
    /// Xiangqi (tessera-ucci's `usebook`/`bookfiles`, and `OwnBook`/`BookFile` over UCI).
    Xiangqi,
}

/// `tessera book`'s command line.
#[derive(Args, Debug)]
pub struct BookArgs {
    /// The game of the records.
    #[arg(long, value_enum)]
    game: BookGame,
    /// PGN files of games (chess: SAN moves; xiangqi: ICCS moves).
    #[arg(required = true)]
    records: Vec<PathBuf>,
    /// The book file to write.
    #[arg(long, short)]
    output: PathBuf,
    /// Moves (plies) of each game to take into the book.
    #[arg(long, default_value_t = 16)]
    plies: usize,
    /// Games a move must have been played in, in its position, to enter the book.
    #[arg(long, default_value_t = 3)]
    min_count: u32,
    /// The least score (0 to 1, a draw 0.5) the side playing a move made with it.
    #[arg(long, default_value_t = 0.4)]
    min_score: f64,
}

/// Why no book was written.
#[derive(Debug, thiserror::Error)]
pub enum BookCommandError {
    /// A record file or the book could not be read or written.
    #[error("{path}: {source}")]
    File {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The least score is not within 0 to 1.
    #[error("--min-score {0} is not within 0 to 1")]
    MinScore(f64),
}

/// The format of `game`'s books: what the engines check a book file against.
fn format(game: BookGame) -> BookFormat {
    match game {
        BookGame::Chess => tessera_chess::book_format(),
        BookGame::Xiangqi => tessera_xiangqi::book_format(),
    }
}

/// The moves of `record` read from `start` (at most `plies`), or the index of the first move
/// that is not a legal move of `parse`'s notation with the moves read before it.
fn read_moves<G: Game>(
    start: &G,
    record: &PgnGame,
    plies: usize,
    parse: impl Fn(&G, &str) -> Option<G::Move>,
) -> (Vec<G::Move>, Option<usize>) {
    let mut position = start.clone();
    let mut moves = Vec::new();
    for (index, text) in record.moves.iter().take(plies).enumerate() {
        match parse(&position, &text.text).filter(|&mv| position.is_legal(mv)) {
            Some(mv) => {
                position.play(mv);
                moves.push(mv);
            }
            None => return (moves, Some(index)),
        }
    }
    (moves, None)
}

/// Adds `record` to `builder`; returns why it was not added whole.
fn add_record(builder: &mut BookBuilder, game: BookGame, record: &PgnGame, plies: usize) -> Option<String> {
    fn add<G: Game>(
        builder: &mut BookBuilder,
        start: Result<G, String>,
        record: &PgnGame,
        plies: usize,
        parse: impl Fn(&G, &str) -> Option<G::Move>,
    ) -> Option<String> {
        let start = match start {
            Ok(start) => start,
            Err(error) => return Some(format!("bad FEN: {error}")),
        };
        let (moves, unread) = read_moves(&start, record, plies, parse);
        // Legal by construction: each move was checked in its position above.
        builder.add_game(&start, &moves, record.outcome(), plies).expect("moves replayed legally");
        unread.map(|index| {
            format!("move {} ({}) not read; its moves before it were", index + 1, record.moves[index].text)
        })
    }
    let fen = record.tag("FEN");
    match game {
        BookGame::Chess => {
            let rules = ChessRules::STANDARD;
            let start =
                fen.map_or_else(|| Ok(Chess::new(rules)), |fen| Chess::from_fen(fen, rules).map_err(|e| e.to_string()));
            add(builder, start, record, plies, |position, text| parse_san(position, text).ok())
        }
        BookGame::Xiangqi => {
            let start =
                fen.map_or_else(|| Ok(Xiangqi::start()), |fen| fen.parse::<Xiangqi>().map_err(|e| e.to_string()));
            add(builder, start, record, plies, |_, text| parse_iccs(text).ok())
        }
    }
}

/// Builds the book and writes it; problems with single games go to stderr.
///
/// # Errors
/// A file that cannot be read or written, or a least score outside 0 to 1.
pub fn run(args: &BookArgs) -> Result<(), BookCommandError> {
    if !(0.0..=1.0).contains(&args.min_score) {
        return Err(BookCommandError::MinScore(args.min_score));
    }
    let mut builder = BookBuilder::default();
    let mut problems = 0;
    for path in &args.records {
        let text =
            std::fs::read_to_string(path).map_err(|source| BookCommandError::File { path: path.clone(), source })?;
        for (number, record) in pgn::read(&text).into_iter().enumerate() {
            let problem = match record {
                Ok(record) => add_record(&mut builder, args.game, &record, args.plies),
                Err(error) => Some(error.to_string()),
            };
            if let Some(problem) = problem {
                problems += 1;
                eprintln!("{}: game {}: {problem}", path.display(), number + 1);
            }
        }
    }
    let book = builder.build(BookFilter { min_count: args.min_count, min_score: args.min_score });
    let bytes = book.to_bytes(format(args.game));
    std::fs::write(&args.output, bytes)
        .map_err(|source| BookCommandError::File { path: args.output.clone(), source })?;
    println!(
        "{} games with a result ({problems} with problems, see above); book {}: {} positions, {} moves",
        builder.games(),
        args.output.display(),
        book.positions(),
        book.entries().len()
    );
    Ok(())
}
