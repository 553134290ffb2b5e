//! The chess dialect of UCI: `tessera-chess` positions, notation and search behind the protocol
//! crate's `Dialect` trait, plus the `bench` and `perft` subcommands.

use tessera_chess::bench::{ChessBench, DEPTH};
use tessera_chess::nnue::{default_network, NetworkChoice, DEFAULT_NETWORK};
use tessera_chess::{book_format, Board, Chess as Position, FenError, Rules, Uci};
use tessera_core::bench::{self, BenchReport};
use tessera_core::perft::perft_lines;
use tessera_core::{report, AlphaBeta, BookSetup, EngineOptions, EvaluationOptions, GameOptions, Identity, Player};
use tessera_uci_protocol::{Dialect, Settings};

use crate::evaluation::Evaluation;
use crate::limiter::{EloScale, Limited};
use crate::tablebases::Tablebases;

/// Chess over UCI.
pub struct Chess;

fn rules(chess960: bool) -> Rules {
    Rules { chess960 }
}

/// Whether `Use NNUE` starts on: the embedded network beats the tuned hand-crafted evaluation
/// (docs/chess.md, strength log), so it is the default, and `bench` searches with it.
const NNUE_BY_DEFAULT: bool = true;

/// `UCI_Elo` as measured: the rating each strength level played at against Stockfish 15.1's own
/// limiter at 2000 or below (higher settings do not reach their depth at this clock), 100 games
/// a point at 5 s + 0.05 s (`scripts/calibrate-chess-elo.sh`; the table in docs/chess.md). Level
/// 800 lost all its games to Stockfish's weakest setting (1350) and so has no rating: the lowest
/// level measured bounds the range.
const ELO_SCALE: EloScale = EloScale(&[
    (1074, 1000),
    (1154, 1500),
    (1358, 1806),
    (1556, 2000),
    (1700, 2250),
    (1751, 2313),
    (1844, 2500),
    (1993, 2800),
]);

impl Player for Chess {
    type Game = Position;
    type Searcher = Limited<AlphaBeta<Position>>;
    type Notation = Uci;

    fn identity(&self) -> Identity {
        Identity::tessera(env!("CARGO_PKG_VERSION"))
    }

    fn new_searcher(&self, options: &EngineOptions) -> Limited<AlphaBeta<Position>> {
        Limited::new(AlphaBeta::new(options, 30), options, ELO_SCALE)
    }

    fn game_options(&self) -> Box<dyn GameOptions<Position>> {
        let choice = NetworkChoice::new(&DEFAULT_NETWORK, NNUE_BY_DEFAULT);
        let evaluation = EvaluationOptions::new(Evaluation::new(choice, "classical evaluation", Position::set_network));
        Box::new((evaluation, Tablebases::default()))
    }

    /// Books a user builds with `tessera book --game chess` (`OwnBook`, `BookFile`); none is
    /// built in: chess GUIs and managers bring their own.
    fn opening_book(&self) -> Option<BookSetup> {
        Some(BookSetup { format: book_format(), built_in: &[] })
    }
}

impl Dialect for Chess {
    type FenError = FenError;

    const CHESS960: bool = true;

    fn start_position(&self, chess960: bool) -> Position {
        Position::new(rules(chess960))
    }

    fn parse_fen(&self, fen: &str, chess960: bool) -> Result<Position, FenError> {
        Position::from_fen(fen, rules(chess960))
    }

    fn fen(&self, position: &Position) -> String {
        position.fen()
    }

    fn set_chess960(&self, position: &mut Position, chess960: bool) {
        position.set_rules(rules(chess960));
    }

    fn diagram(&self, position: &Position) -> Vec<String> {
        diagram(position.board())
    }

    fn elo_range(&self) -> std::ops::RangeInclusive<u32> {
        ELO_SCALE.range()
    }

    fn set_strength(searcher: &mut Limited<AlphaBeta<Position>>, elo: Option<u32>) {
        searcher.set_strength(elo);
    }

    fn bench(&self, depth: Option<u32>, options: &EngineOptions) -> BenchReport {
        let network = NNUE_BY_DEFAULT.then(default_network);
        bench::run(&ChessBench { depth: depth.unwrap_or(DEPTH), network }, options)
    }
}

/// Stockfish's `d` picture: ranks 8 to 1, files a to h.
fn diagram(board: &Board) -> Vec<String> {
    let rule = " +---+---+---+---+---+---+---+---+".to_owned();
    let mut lines = vec![String::new(), rule.clone()];
    for rank in (0..8u8).rev() {
        let mut line = String::from(" |");
        for file in 0..8u8 {
            let piece = board.piece_at(rank * 8 + file).map_or(' ', |piece| piece.letter());
            line.push_str(&format!(" {piece} |"));
        }
        line.push_str(&format!(" {}", rank + 1));
        lines.push(line);
        lines.push(rule.clone());
    }
    lines.push("   a   b   c   d   e   f   g   h".into());
    lines
}

/// `tessera-uci bench [depth]`.
pub fn print_bench(depth: Option<u32>, settings: Settings) {
    let options = EngineOptions { threads: settings.threads, hash_mb: settings.hash_mb, ..EngineOptions::default() };
    report::print_lines(Chess.bench(depth, &options).lines());
}

/// `tessera-uci perft <depth> [--fen F]`: Chess960 castling letters select king-takes-rook notation.
///
/// # Errors
/// When the FEN is not valid.
pub fn print_perft(depth: u32, fen: Option<&str>) -> Result<(), FenError> {
    let fen = fen.unwrap_or(tessera_chess::START_FEN);
    let chess960 = fen.split_whitespace().nth(2).is_some_and(|field| field.chars().any(|c| !"KQkq-".contains(c)));
    let position = Position::from_fen(fen, rules(chess960))?;
    report::print_lines(perft_lines(&position, depth, &Uci { chess960 }));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_measured_scale_is_usable() {
        assert!(ELO_SCALE.is_valid());
        // The default `UCI_Elo` lies inside the range.
        assert!(ELO_SCALE.range().contains(&1500));
    }
}
