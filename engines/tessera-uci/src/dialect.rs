//! The chess dialect of UCI: `tessera-chess` positions, notation and search behind the protocol
//! crate's `Dialect` trait, plus the `bench` and `perft` subcommands.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use tessera_chess::bench::{run_bench, BENCH_DEPTH};
use tessera_chess::nnue::{default_network, load_network, Network, DEFAULT_NETWORK_NAME};
use tessera_chess::{perft_divide, Board, Chess as Position, Move, Rules, Uci};
use tessera_core::info::nodes_per_second;
use tessera_core::{AlphaBeta, EngineOptions};
use tessera_uci_protocol::{Dialect, GameOptions, OptionDecl, OptionKind, Settings};

/// Chess over UCI.
pub struct Chess;

fn rules(chess960: bool) -> Rules {
    Rules { chess960 }
}

/// Whether `Use NNUE` starts on. Off while the embedded network, trained on a few million
/// positions, loses to the tuned hand-crafted evaluation (docs/chess.md, strength log): the
/// default is the stronger evaluation, and `bench` searches with it.
const NNUE_BY_DEFAULT: bool = false;

/// The evaluation options: `EvalFile` (a network file, or `<embedded>`) and `Use NNUE` (off: the
/// hand-crafted evaluation).
pub struct Evaluation {
    use_nnue: bool,
    file: String,
    network: Arc<Network>,
}

impl Default for Evaluation {
    fn default() -> Self {
        Evaluation { use_nnue: NNUE_BY_DEFAULT, file: DEFAULT_NETWORK_NAME.into(), network: default_network() }
    }
}

impl GameOptions<Position> for Evaluation {
    fn declarations(&self) -> Vec<OptionDecl> {
        vec![
            OptionDecl { name: "EvalFile".into(), kind: OptionKind::Text(DEFAULT_NETWORK_NAME.into()) },
            OptionDecl { name: "Use NNUE".into(), kind: OptionKind::Check(NNUE_BY_DEFAULT) },
        ]
    }

    fn set(&mut self, name: &str, value: Option<&str>) -> Option<Result<Option<String>, String>> {
        match name.to_ascii_lowercase().as_str() {
            "evalfile" => Some(self.load(value.unwrap_or_default().trim())),
            "use nnue" => Some(match value.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => {
                    self.use_nnue = true;
                    Ok(Some(format!("NNUE evaluation using {}", self.file)))
                }
                Some("false") => {
                    self.use_nnue = false;
                    Ok(Some("classical evaluation".into()))
                }
                other => Err(format!("option Use NNUE needs true or false, not {}", other.unwrap_or("nothing"))),
            }),
            _ => None,
        }
    }

    fn prepare(&self, position: &mut Position) {
        position.set_network(self.use_nnue.then(|| Arc::clone(&self.network)));
    }
}

impl Evaluation {
    /// Loads `file` (`<embedded>` or empty: the default network); a bad file keeps the current one.
    fn load(&mut self, file: &str) -> Result<Option<String>, String> {
        let network = if file.is_empty() || file == DEFAULT_NETWORK_NAME {
            default_network()
        } else {
            load_network(Path::new(file)).map_err(|error| format!("EvalFile {error}; keeping {}", self.file))?
        };
        self.file = if file.is_empty() { DEFAULT_NETWORK_NAME.into() } else { file.into() };
        self.network = network;
        Ok(Some(format!(
            "EvalFile {} loaded ({} features, {} hidden)",
            self.file,
            self.network.feature_set(),
            self.network.hidden()
        )))
    }
}

impl Dialect for Chess {
    type Game = Position;
    type Searcher = AlphaBeta<Position>;
    type Options = Evaluation;

    const NAME: &'static str = concat!("Tessera ", env!("CARGO_PKG_VERSION"));
    const AUTHOR: &'static str = "the Tessera developers";

    fn start_position(chess960: bool) -> Position {
        Position::new(rules(chess960))
    }

    fn from_fen(fen: &str, chess960: bool) -> Result<Position, String> {
        Position::from_fen(fen, rules(chess960)).map_err(|error| error.to_string())
    }

    fn fen(position: &Position) -> String {
        position.fen()
    }

    fn set_chess960(position: &mut Position, chess960: bool) {
        position.set_rules(rules(chess960));
    }

    fn parse_move(position: &Position, text: &str, chess960: bool) -> Option<Move> {
        Uci { chess960 }.parse(position, text).ok()
    }

    fn format_move(position: &Position, mv: Move, chess960: bool) -> String {
        Uci { chess960 }.format(position.board(), mv)
    }

    fn diagram(position: &Position) -> Vec<String> {
        diagram(position.board())
    }

    fn perft_divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
        perft_divide(position, depth)
    }

    fn new_searcher(options: &EngineOptions) -> AlphaBeta<Position> {
        AlphaBeta::new(options, 30)
    }

    fn new_options() -> Evaluation {
        Evaluation::default()
    }

    fn bench(depth: Option<u32>, options: &EngineOptions) -> (u64, std::time::Duration) {
        run_bench(depth.unwrap_or(BENCH_DEPTH), options, NNUE_BY_DEFAULT.then(default_network).as_ref())
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
pub fn print_bench(depth: Option<u32>, settings: Settings) -> Result<(), String> {
    let options = EngineOptions { threads: settings.threads, hash_mb: settings.hash_mb, ..EngineOptions::default() };
    let (nodes, time) = <Chess as Dialect>::bench(depth, &options);
    println!("Total time (ms) : {}", time.as_millis());
    println!("Nodes searched  : {nodes}");
    println!("Nodes/second    : {}", nodes_per_second(nodes, time));
    Ok(())
}

/// `tessera-uci perft <depth> [--fen F]`: Chess960 castling letters select king-takes-rook notation.
pub fn print_perft(depth: u32, fen: Option<&str>) -> Result<(), String> {
    let fen = fen.unwrap_or(tessera_chess::START_FEN);
    let chess960 = fen.split_whitespace().nth(2).is_some_and(|field| field.chars().any(|c| !"KQkq-".contains(c)));
    let position = Position::from_fen(fen, rules(chess960)).map_err(|error| format!("invalid FEN: {error}"))?;
    let start = Instant::now();
    let divide = perft_divide(&position, depth.max(1));
    let elapsed = start.elapsed();
    let notation = Uci { chess960 };
    for (mv, count) in &divide {
        println!("{}: {count}", notation.format(position.board(), *mv));
    }
    let total: u64 = divide.iter().map(|(_, count)| count).sum();
    println!();
    println!("Nodes searched: {total}");
    println!("Time (ms): {}", elapsed.as_millis());
    println!("Nodes/second: {}", nodes_per_second(total, elapsed));
    Ok(())
}
