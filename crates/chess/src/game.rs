//! `Chess`: a board plus the boards before each move, implementing the core's `Game` trait.

use tessera_core::{Game, MoveBuffer, MoveList, Outcome, Side};

use std::sync::Arc;

use tessera_nnue::{AccumulatorStack, Network};

use crate::board::Board;
use crate::fen::{FenError, START_FEN};
use crate::movegen::{Counter, Mode};
use crate::moves::Move;
use crate::types::Color;

/// The most legal moves any chess position has is 218; the buffer leaves room.
pub const MAX_MOVES: usize = 256;

/// A buffer for the moves of one position.
pub type Moves = MoveList<Move, MAX_MOVES>;

/// The rules variant: standard chess or Chess960 (Fischer random). The rules of play are the same
/// (castling is stored king-takes-rook either way); the variant decides how castling is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Rules {
    /// Chess960: castling is written king-takes-rook (`e1h1`) in UCI notation.
    pub chess960: bool,
}

impl Rules {
    /// Standard chess.
    pub const STANDARD: Rules = Rules { chess960: false };
    /// Chess960.
    pub const CHESS960: Rules = Rules { chess960: true };
}

/// A chess game: the current board and every board before it (for undo and repetitions).
///
/// With a network attached ([`Chess::set_network`]) it also keeps the network's accumulators
/// along the moves played, and its search evaluation is the network's.
#[derive(Clone, Debug)]
pub struct Chess {
    board: Board,
    /// The board before each move, with the move played on it (null moves hold `Move::default()`).
    history: Vec<(Board, Move)>,
    rules: Rules,
    nnue: Option<Box<AccumulatorStack>>,
}

impl PartialEq for Chess {
    /// Positions are equal when their boards, histories and rules are; how they are evaluated
    /// does not matter.
    fn eq(&self, other: &Chess) -> bool {
        self.board == other.board && self.history == other.history && self.rules == other.rules
    }
}

impl Eq for Chess {}

impl Chess {
    /// The standard starting position.
    #[must_use]
    pub fn new(rules: Rules) -> Chess {
        // The constant start FEN is valid: a failure here is a bug caught by every test.
        Chess::from_fen(START_FEN, rules).expect("the start FEN is valid")
    }

    /// A position from FEN.
    ///
    /// # Errors
    /// A [`FenError`] when the FEN is malformed or describes an impossible position.
    pub fn from_fen(fen: &str, rules: Rules) -> Result<Chess, FenError> {
        Ok(Chess::from_board(Board::from_fen(fen)?, rules))
    }

    /// A game starting from `board`.
    #[must_use]
    pub fn from_board(board: Board, rules: Rules) -> Chess {
        Chess { board, history: Vec::with_capacity(512), rules, nnue: None }
    }

    /// The current board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The position as FEN.
    #[must_use]
    pub fn fen(&self) -> String {
        self.board.to_fen()
    }

    /// Switches the rules variant (the UCI_Chess960 option).
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    /// The colour to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.board.side_to_move()
    }

    /// Generates only captures and promotions (every legal move when in check).
    pub fn generate_tactical(&self, moves: &mut Moves) {
        moves.clear();
        self.board.generate(moves, Mode::Tactical);
    }

    /// The number of legal moves, counted without storing them.
    #[must_use]
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = Counter(0);
        self.board.generate(&mut counter, Mode::All);
        counter.0
    }

    /// Passes the turn (for null-move pruning).
    pub fn play_null_move(&mut self) {
        if let Some(stack) = &mut self.nnue {
            stack.push_copy();
        }
        self.history.push((self.board, Move::default()));
        self.board.apply_null();
    }

    /// Attaches a network (which must read [`crate::nnue::FEATURE_SET`] features) to evaluate
    /// this position and the ones searched from it, or detaches it (`None`: the hand-crafted
    /// evaluation).
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.nnue = network.map(|network| Box::new(crate::nnue::accumulators(network, &self.board)));
    }

    /// The attached network's evaluation for the side to move, if a network is attached.
    #[must_use]
    pub fn nnue_evaluation(&self) -> Option<i32> {
        self.nnue.as_ref().map(|stack| stack.evaluate(self.board.side_to_move().index()))
    }

    /// Whether the position after `search_root` (or by exact rules) repeats an earlier one.
    fn is_repetition(&self, search_root: Option<usize>) -> bool {
        let current = self.board.hash;
        let plies = self.history.len();
        let window = usize::from(self.board.reversible).min(plies);
        let mut earlier = 0;
        let mut back = 4;
        while back <= window {
            let index = plies - back;
            if self.history[index].0.hash == current {
                if search_root.is_some_and(|root| index >= root) {
                    return true;
                }
                earlier += 1;
                if earlier >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }
}

impl Default for Chess {
    fn default() -> Self {
        Chess::new(Rules::STANDARD)
    }
}

impl Game for Chess {
    type Move = Move;
    type Rules = Rules;
    type Moves = Moves;

    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn side_to_move(&self) -> Side {
        self.board.side_to_move().side()
    }

    fn generate_legal_moves(&self, moves: &mut Moves) {
        moves.clear();
        self.board.generate(moves, Mode::All);
    }

    fn is_legal(&self, mv: Move) -> bool {
        if mv.kind().is_none() || self.board.color(self.board.side_to_move()) & (1 << mv.from()) == 0 {
            return false;
        }
        let mut moves = Moves::new();
        self.generate_legal_moves(&mut moves);
        moves.contains(&mv)
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        if let Some(stack) = &mut self.nnue {
            crate::nnue::play(stack, &self.board, mv);
        }
        self.history.push((self.board, mv));
        self.board.apply(mv);
    }

    fn undo(&mut self) {
        let (board, _) = self.history.pop().expect("undo needs a move played (see Game::undo)");
        self.board = board;
        if let Some(stack) = &mut self.nnue {
            crate::nnue::undo(stack, &self.board);
        }
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    fn move_played(&self, index: usize) -> Option<Move> {
        self.history.get(index).map(|&(_, mv)| mv)
    }

    fn hash(&self) -> u64 {
        self.board.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        self.board.hash_from_scratch()
    }

    #[inline]
    fn hash_after(&self, mv: Move) -> Option<u64> {
        self.board.hash_after(mv)
    }

    fn rule_outcome(&self, search_root: Option<usize>) -> Option<Outcome> {
        if self.board.halfmove >= 100 {
            // A mate delivered on the hundredth half-move still counts.
            let mated = self.board.in_check() && self.count_legal_moves() == 0;
            return (!mated).then_some(Outcome::Draw);
        }
        if self.board.insufficient_material() || self.is_repetition(search_root) {
            return Some(Outcome::Draw);
        }
        None
    }

    fn no_move_outcome(&self) -> Outcome {
        if self.board.in_check() {
            Outcome::Win(self.side_to_move().opponent())
        } else {
            Outcome::Draw
        }
    }
}
