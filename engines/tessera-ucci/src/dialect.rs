//! Xiangqi seen by both protocols its GUIs speak: UCCI and the Pikafish-style UCI dialect. The
//! searcher (core's alpha-beta with xiangqi's hooks), the ICCS notation and the rule decisions
//! come from `tessera-xiangqi`, the strength limiter (UCI) and the draw and resign policy (UCCI)
//! from this engine; this file only connects them.

use std::sync::Arc;

use tessera_core::bench::{self, BenchReport};
use tessera_core::tt::TtEntry;
use tessera_core::{
    AlphaBeta, BookSetup, EngineOptions, Evaluate, EvaluationOptions, GameOptions, Identity, Player, SearchRoot,
};
use tessera_ucci_protocol as ucci;
use tessera_uci_protocol as uci;
use tessera_xiangqi::bench::{XiangqiBench, DEPTH};
use tessera_xiangqi::nnue::{self, Network, NetworkChoice, DEFAULT_NETWORK};
use tessera_xiangqi::{book_format, search_root, FenError, Iccs, Position, MOVES_LEFT};

use crate::evaluation::Evaluation;
use crate::limiter::{EloScale, Limited};
use crate::verdicts::VerdictPolicy;

/// Whether the network evaluates unless an option says otherwise: the embedded network beats the
/// tuned hand-crafted evaluation (docs/xiangqi.md, strength log), and `bench` searches with it.
const NNUE_BY_DEFAULT: bool = true;

/// The built-in opening book (UCCI `usebook` with no `bookfiles`; UCI `OwnBook`): from our own
/// self-play from the shipped suite's named lines (`scripts/build-xiangqi-book.sh`, docs/xiangqi.md).
pub const BUILT_IN_BOOK: &[u8] = include_bytes!("../../../data/books/xiangqi.book");

/// The network a search starts with before any option is set (what `bench` searches with).
pub fn default_network() -> Option<Arc<Network>> {
    NNUE_BY_DEFAULT.then(nnue::default_network)
}

/// The bench at `depth` on `threads` with the network a search starts with.
pub fn bench_report(depth: u32, threads: usize) -> BenchReport {
    let options = EngineOptions { threads: threads.max(1), ..EngineOptions::default() };
    bench::run(&XiangqiBench { depth, network: default_network() }, &options)
}

/// Xiangqi under the Asian rules, with ICCS move text in both protocols.
#[derive(Clone, Copy, Debug, Default)]
pub struct Xiangqi;

impl Player for Xiangqi {
    type Game = Position;
    type Searcher = Limited<AlphaBeta<Position>>;
    type Notation = Iccs;

    fn identity(&self) -> Identity {
        Identity::tessera(env!("CARGO_PKG_VERSION"))
    }

    /// The strength limiter stays at full strength unless UCI's `UCI_LimitStrength` asks.
    fn new_searcher(&self, options: &EngineOptions) -> Limited<AlphaBeta<Position>> {
        Limited::new(AlphaBeta::new(options, MOVES_LEFT), options, EloScale::UNCALIBRATED)
    }

    fn game_options(&self) -> Box<dyn GameOptions<Position>> {
        let choice = NetworkChoice::new(&DEFAULT_NETWORK, NNUE_BY_DEFAULT);
        Box::new(EvaluationOptions::new(Evaluation::new(choice, "hand-crafted evaluation", Position::set_network)))
    }

    fn search_root(&self, position: &Position) -> SearchRoot<Position> {
        let (position, note) = search_root(position);
        SearchRoot { position, note }
    }

    fn opening_book(&self) -> Option<BookSetup> {
        Some(BookSetup { format: book_format(), built_in: BUILT_IN_BOOK })
    }
}

impl ucci::Dialect for Xiangqi {
    type FenError = FenError;
    type Verdicts = VerdictPolicy;

    fn start_position(&self) -> Position {
        Position::start()
    }

    fn parse_fen(&self, fen: &str) -> Result<Position, FenError> {
        fen.parse()
    }

    fn static_eval(&self, position: &Position) -> i32 {
        position.evaluate()
    }

    fn probe(&self, searcher: &Limited<AlphaBeta<Position>>, key: u64) -> Option<TtEntry> {
        searcher.inner().table().probe(key, 0)
    }
}

impl uci::Dialect for Xiangqi {
    type FenError = FenError;

    /// Pikafish's answer when there is no move.
    const NO_MOVE: &'static str = "(none)";

    fn start_position(&self, _chess960: bool) -> Position {
        Position::start()
    }

    fn parse_fen(&self, fen: &str, _chess960: bool) -> Result<Position, FenError> {
        fen.parse()
    }

    fn fen(&self, position: &Position) -> String {
        position.to_fen()
    }

    fn diagram(&self, position: &Position) -> Vec<String> {
        position.to_string().lines().map(str::to_owned).collect()
    }

    fn elo_range(&self) -> std::ops::RangeInclusive<u32> {
        EloScale::UNCALIBRATED.range()
    }

    fn set_strength(searcher: &mut Limited<AlphaBeta<Position>>, elo: Option<u32>) {
        searcher.set_strength(elo);
    }

    /// The bench on the session's threads (and the bench's own table size, as `tessera-ucci bench`).
    fn bench(&self, depth: Option<u32>, options: &EngineOptions) -> BenchReport {
        bench_report(depth.unwrap_or(DEPTH), options.threads)
    }
}
