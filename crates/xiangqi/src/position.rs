//! A xiangqi position with its history: the [`Game`] implementation.

mod move_limit;
mod repetition;

use std::fmt;
use std::sync::Arc;

use tessera_core::zobrist::zobrist_keys;
use tessera_core::{Game, MoveBuffer, Outcome, Side};

use crate::board::Board;
use crate::eval::{piece_square, S};
use crate::movegen::{Generate, Moves};
use tessera_nnue::{AccumulatorStack, Network};

use crate::rules::Rules;
use crate::types::{kind_of, side_of, Move, PieceId, Square};

const SIDE_KEY_INDEX: usize = 14 * 256;
static KEYS: [u64; SIDE_KEY_INDEX + 1] = zobrist_keys(0x7854_6971_2026_0004);

/// The Zobrist key of piece `id` on `square`.
#[inline(always)]
pub(crate) fn piece_key(id: PieceId, square: Square) -> u64 {
    let kind = side_of(id).index() * 7 + kind_of(id) as usize;
    KEYS[kind * 256 + square as usize]
}

/// The key toggled when the side to move changes.
#[inline(always)]
fn side_key() -> u64 {
    KEYS[SIDE_KEY_INDEX]
}

/// What `undo` needs to restore, one per move (or null move) played.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Entry {
    /// The move (`0 → 0` for a null move).
    pub mv: Move,
    /// The piece it captured (0 for none).
    pub captured: PieceId,
    /// The key before the move.
    pub hash: u64,
    /// Material and piece-square sums before the move.
    pub psq: [S; 2],
    /// Plies without capture before the move.
    pub quiet_plies: u16,
    /// Repetition window before the move.
    pub window: u16,
    /// Whether the side to move was in check before the move.
    pub checked: bool,
}

/// A xiangqi position: board, side to move, key, rule counters and the moves that led here.
///
/// # Examples
/// ```
/// use tessera_core::{Game, GameExt};
/// use tessera_xiangqi::{parse_iccs, Position};
/// let mut position = Position::start();
/// position.try_play(parse_iccs("h2e2").unwrap()).unwrap();
/// assert_eq!(position.to_fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
/// ```
///
/// With a network attached ([`Position::set_network`]) it also keeps the network's accumulators
/// along the moves played, and its search evaluation is the network's.
#[derive(Clone)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) side: Side,
    pub(crate) hash: u64,
    /// Material plus piece-square weights of each side, kept up to date by `play`.
    pub(crate) psq: [S; 2],
    /// Plies since the last capture (the 60-move rule counts these).
    pub(crate) quiet_plies: u16,
    /// How far back a repetition may be looked for: plies since a capture, a null move or the start.
    pub(crate) window: u16,
    pub(crate) fullmove: u32,
    /// Whether the side to move is in check (kept by `play`: the search asks at every node).
    pub(crate) checked: bool,
    pub(crate) history: Vec<Entry>,
    pub(crate) rules: Rules,
    nnue: Option<Box<AccumulatorStack>>,
}

impl PartialEq for Position {
    /// Positions are equal when their boards, counters, histories and rules are; how they are
    /// evaluated does not matter.
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.hash == other.hash
            && self.psq == other.psq
            && self.quiet_plies == other.quiet_plies
            && self.window == other.window
            && self.fullmove == other.fullmove
            && self.checked == other.checked
            && self.history == other.history
            && self.rules == other.rules
    }
}

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

impl Position {
    /// The start position under the default (Asian) rules.
    #[must_use]
    pub fn start() -> Position {
        // The start FEN is a constant that parses; a failure would be a bug caught by every test.
        START_FEN.parse().expect("the start FEN is valid")
    }

    /// A position from its parts; the key and evaluation sums are computed here.
    pub(crate) fn from_parts(board: Board, side: Side, quiet_plies: u16, fullmove: u32) -> Position {
        let mut position = Position {
            board,
            side,
            hash: 0,
            psq: [S(0, 0); 2],
            quiet_plies,
            window: 0,
            fullmove,
            checked: board.in_check(side),
            history: Vec::with_capacity(256),
            rules: Rules::default(),
            nnue: None,
        };
        position.hash = position.hash_from_scratch();
        position.psq = position.psq_from_scratch();
        position
    }

    /// The same position under other rules.
    #[must_use]
    pub fn with_rules(mut self, rules: Rules) -> Position {
        self.rules = rules;
        self
    }

    /// Attaches a network (which must read [`crate::nnue::FEATURE_SET`] features) to evaluate this
    /// position and the ones searched from it, or detaches it (`None`: the hand-crafted evaluation).
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.nnue = network.map(|network| Box::new(crate::nnue::accumulators(network, &self.board)));
    }

    /// The attached network's evaluation for the side to move, if a network is attached.
    #[must_use]
    pub fn nnue_evaluation(&self) -> Option<i32> {
        self.nnue.as_ref().map(|stack| stack.evaluate(self.side.index()))
    }

    /// The piece placement.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Plies played since the last capture (including those counted by the FEN).
    #[must_use]
    pub fn quiet_plies(&self) -> u16 {
        self.quiet_plies
    }

    /// The full-move number (starts at 1, grows after Black's move).
    #[must_use]
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// Whether the side to move is in check.
    #[must_use]
    pub fn in_check(&self) -> bool {
        self.checked
    }

    /// Whether `mv` captures.
    #[must_use]
    pub fn is_capture(&self, mv: Move) -> bool {
        self.board.piece_at(mv.to) != 0
    }

    /// Legal captures of the side to move.
    pub fn generate_captures(&self, moves: &mut Moves) {
        self.board.legal_moves(self.side, Generate::Captures, moves);
    }

    /// Appends the legal quiet moves of the side to move that give check (king moves left out).
    pub fn generate_quiet_checks(&self, moves: &mut Moves) {
        self.board.quiet_checks(self.side, moves);
    }

    /// Whether the legal move `mv` of the side to move checks the enemy king.
    #[must_use]
    pub fn gives_check(&self, mv: Move) -> bool {
        self.board.gives_check(self.side, mv)
    }

    /// The static evaluation from the side to move (the hand-crafted one, whatever network is
    /// attached).
    #[must_use]
    pub fn static_evaluation(&self) -> i32 {
        crate::eval::static_evaluation(&self.board, self.side, &self.psq)
    }

    pub(crate) fn psq_from_scratch(&self) -> [S; 2] {
        let mut psq = [S(0, 0); 2];
        for id in 16..48u8 {
            let square = self.board.squares[id as usize];
            if square != 0 {
                psq[side_of(id).index()] += piece_square(id, square);
            }
        }
        psq
    }

    /// Saves what `undo` restores before `mv` (capturing `captured`) is played.
    #[inline(always)]
    fn push_entry(&mut self, mv: Move, captured: PieceId) {
        self.history.push(Entry {
            mv,
            captured,
            hash: self.hash,
            psq: self.psq,
            quiet_plies: self.quiet_plies,
            window: self.window,
            checked: self.checked,
        });
    }

    /// Passes the turn (for null-move pruning); [`Game::undo`] takes it back.
    pub fn play_null_move(&mut self) {
        self.push_entry(Move::new(0, 0), 0);
        if let Some(stack) = &mut self.nnue {
            stack.push_copy();
        }
        // A legal position never leaves the side that just moved in check, so the passer's
        // opponent cannot be in check either.
        self.checked = false;
        self.hash ^= side_key();
        self.window = 0;
        self.quiet_plies = self.quiet_plies.saturating_add(1);
        if self.side == Side::Second {
            self.fullmove += 1;
        }
        self.side = self.side.opponent();
    }

    /// Whether a decisive rule result (perpetual check or chase) already ended the game, which
    /// leaves the loser without legal moves. Cheap when no repetition is possible.
    fn won_by_rule(&self) -> bool {
        self.window >= 8 && matches!(self.rule_outcome(None), Some(Outcome::Win(_)))
    }

    /// The same board, side to move and counters without the moves that led here.
    #[must_use]
    pub fn without_history(&self) -> Position {
        let mut position = Position::from_parts(self.board, self.side, self.quiet_plies, self.fullmove);
        position.rules = self.rules;
        position.set_network(self.nnue.as_ref().map(|stack| Arc::clone(stack.network())));
        position
    }

    /// Why the game is over by repetition ("perpetual check", "perpetual chase", "repetition"…),
    /// judged by the exact rules, or `None` when no repetition decides it.
    #[must_use]
    pub fn repetition_verdict(&self) -> Option<&'static str> {
        repetition::judge_repetition(self, None).map(|(_, reason)| reason)
    }

    /// Whether the move-count rule (60 moves without capture, checks beyond the rules' allowance
    /// not counted) draws the game now.
    #[must_use]
    pub fn move_limit_draw(&self) -> bool {
        move_limit::draws(self)
    }

    /// The entries of the history (for the repetition and move-count judges).
    pub(crate) fn entries(&self) -> &[Entry] {
        &self.history
    }
}

impl Game for Position {
    type Move = Move;
    type Rules = Rules;
    type Moves = Moves;

    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn generate_legal_moves(&self, moves: &mut Moves) {
        if self.won_by_rule() {
            moves.clear();
            return;
        }
        self.board.legal_moves(self.side, Generate::All, moves);
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.board.is_legal_move(self.side, mv) && !self.won_by_rule()
    }

    fn play(&mut self, mv: Move) {
        let moving = self.board.piece_at(mv.from);
        self.push_entry(mv, self.board.piece_at(mv.to));
        let captured = self.board.make(mv);
        if let Some(stack) = &mut self.nnue {
            crate::nnue::play(stack, &self.board, mv, moving, captured);
        }
        let us = self.side.index();
        self.hash ^= piece_key(moving, mv.from) ^ piece_key(moving, mv.to) ^ side_key();
        self.psq[us] += piece_square(moving, mv.to) - piece_square(moving, mv.from);
        if captured != 0 {
            self.hash ^= piece_key(captured, mv.to);
            self.psq[us ^ 1] -= piece_square(captured, mv.to);
            self.quiet_plies = 0;
            self.window = 0;
        } else {
            self.quiet_plies = self.quiet_plies.saturating_add(1);
            self.window = self.window.saturating_add(1);
        }
        if self.side == Side::Second {
            self.fullmove += 1;
        }
        self.side = self.side.opponent();
        let king = self.board.king_square(self.side);
        self.checked = Board::move_may_check(king, mv, kind_of(moving)) && self.board.in_check(self.side);
        debug_assert_eq!(self.checked, self.board.in_check(self.side), "check detection after {mv:?}");
    }

    fn undo(&mut self) {
        let entry = self.history.pop().expect("undo needs a move played (Game::undo's contract)");
        self.side = self.side.opponent();
        if self.side == Side::Second {
            self.fullmove -= 1;
        }
        if entry.mv.from != 0 {
            self.board.unmake(entry.mv, entry.captured);
        }
        if let Some(stack) = &mut self.nnue {
            crate::nnue::undo(stack, &self.board);
        }
        self.hash = entry.hash;
        self.psq = entry.psq;
        self.quiet_plies = entry.quiet_plies;
        self.window = entry.window;
        self.checked = entry.checked;
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    fn move_played(&self, index: usize) -> Option<Move> {
        self.history.get(index).map(|entry| entry.mv)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut hash = if self.side == Side::Second { side_key() } else { 0 };
        for id in 16..48u8 {
            let square = self.board.squares[id as usize];
            if square != 0 {
                hash ^= piece_key(id, square);
            }
        }
        hash
    }

    fn rule_outcome(&self, search_root: Option<usize>) -> Option<Outcome> {
        if move_limit::draws(self) {
            return Some(Outcome::Draw);
        }
        repetition::judge_repetition(self, search_root).map(|(outcome, _)| outcome)
    }

    fn no_move_outcome(&self) -> Outcome {
        // Checkmated or stalemated: in xiangqi the side without a move loses either way.
        Outcome::Win(self.side.opponent())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} after {} plies)", self.to_fen(), self.history.len())
    }
}

impl fmt::Display for Position {
    /// The board as text, Black at the top, with file letters and rank numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..crate::types::RANKS).rev() {
            write!(f, "{rank} ")?;
            for file in 0..crate::types::FILES {
                let id = self.board.piece_at(crate::types::square(file, rank));
                let letter = if id == 0 { '.' } else { crate::types::piece_letter(id) };
                write!(f, " {letter}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h i")?;
        write!(f, "{}", self.to_fen())
    }
}
