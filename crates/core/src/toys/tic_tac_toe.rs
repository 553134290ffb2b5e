//! Tic-tac-toe: 3×3, three in a row wins. Solved: a draw with best play.

use crate::game::{Game, Outcome, Side};
use crate::moves::{MoveBuffer, MoveList};
use crate::rng::Rng;
use crate::search::{Evaluate, NullMove, Playout, PlayoutResult, Tactical};
use crate::zobrist::zobrist_keys;

const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];
static KEYS: [u64; 19] = zobrist_keys(0x7117_7AC7_0E00);

/// A tic-tac-toe position; moves are squares 0–8, row by row from the top-left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    stones: [u16; 2],
    history: Vec<u8>,
    hash: u64,
    /// At nodes with fewer plies left than this, the searcher is offered only the lowest free
    /// square, the others only through [`Evaluate::generate_more_search_moves`] (a test of the
    /// candidate fallback, and of the plies left reaching the game); 0: never narrowed.
    narrowed_below: i32,
    /// The evaluation also claims the results it can prove without searching, at
    /// [`TicTacToe::STATIC_WIN`] (beyond [`Evaluate::DECISIVE`]): a line the side to move can
    /// complete, or two the opponent can (a test of the decisive bound, as gomoku's straight four).
    claims: bool,
}

impl Default for TicTacToe {
    fn default() -> Self {
        Self::new()
    }
}

impl TicTacToe {
    /// The empty board, first player (X) to move.
    #[must_use]
    pub fn new() -> Self {
        TicTacToe { stones: [0; 2], history: Vec::with_capacity(9), hash: 0, narrowed_below: 0, claims: false }
    }

    /// The same position with its search moves narrowed to one candidate below the root (see the
    /// field).
    #[must_use]
    pub fn narrowed(self) -> Self {
        self.narrowed_below(i32::MAX)
    }

    /// The same position with its search moves narrowed to one candidate at nodes with fewer
    /// than `depth` plies left.
    #[must_use]
    pub fn narrowed_below(self, depth: i32) -> Self {
        TicTacToe { narrowed_below: depth, ..self }
    }

    /// The same position with an evaluation that claims static wins (see the field).
    #[must_use]
    pub fn claiming(self) -> Self {
        TicTacToe { claims: true, ..self }
    }

    /// What the claiming evaluation answers for a statically proven win.
    pub const STATIC_WIN: i32 = 900;

    /// The squares that complete a line of `side`'s (free squares whose line holds two of its stones).
    fn completions(&self, side: usize) -> u16 {
        let free = !self.occupied() & 0o777;
        LINES
            .iter()
            .filter(|&&line| (self.stones[side] & line).count_ones() == 2 && free & line != 0)
            .fold(0, |squares, &line| squares | (free & line))
    }

    /// A position reached by playing `squares` from the empty board.
    ///
    /// # Panics
    /// Panics if a square is illegal at its turn (this is for tests and examples).
    #[must_use]
    pub fn from_moves(squares: &[u8]) -> Self {
        let mut game = Self::new();
        for &square in squares {
            assert!(game.is_legal(square), "illegal square {square}");
            game.play(square);
        }
        game
    }

    fn occupied(&self) -> u16 {
        self.stones[0] | self.stones[1]
    }

    // Clippy's `contains` suggestion would test `stones & line` against the wrong value.
    #[allow(clippy::manual_contains)]
    fn has_line(stones: u16) -> bool {
        LINES.iter().any(|&line| stones & line == line)
    }
}

impl Game for TicTacToe {
    type Move = u8;
    type Rules = ();
    type Moves = MoveList<u8, 9>;

    fn rules(&self) -> &() {
        &()
    }

    fn side_to_move(&self) -> Side {
        if self.history.len().is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    fn generate_legal_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        if self.rule_outcome(None).is_some() {
            return;
        }
        for square in 0..9u8 {
            if self.occupied() & (1 << square) == 0 {
                moves.push(square);
            }
        }
    }

    fn is_legal(&self, mv: u8) -> bool {
        mv < 9 && self.occupied() & (1 << mv) == 0 && self.rule_outcome(None).is_none()
    }

    fn play(&mut self, mv: u8) {
        let side = self.side_to_move().index();
        self.stones[side] |= 1 << mv;
        self.hash ^= KEYS[side * 9 + usize::from(mv)] ^ KEYS[18];
        self.history.push(mv);
    }

    fn undo(&mut self) {
        let mv = self.history.pop().expect("undo needs a move to take back");
        let side = self.side_to_move().index();
        self.stones[side] &= !(1 << mv);
        self.hash ^= KEYS[side * 9 + usize::from(mv)] ^ KEYS[18];
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    fn move_played(&self, index: usize) -> Option<u8> {
        self.history.get(index).copied()
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut hash = if self.history.len() % 2 == 1 { KEYS[18] } else { 0 };
        for side in 0..2 {
            for square in 0..9 {
                if self.stones[side] & (1 << square) != 0 {
                    hash ^= KEYS[side * 9 + square];
                }
            }
        }
        hash
    }

    fn rule_outcome(&self, _search_root: Option<usize>) -> Option<Outcome> {
        // Only the player who just moved can have completed a line.
        let mover = self.side_to_move().opponent();
        Self::has_line(self.stones[mover.index()]).then_some(Outcome::Win(mover))
    }

    fn no_move_outcome(&self) -> Outcome {
        Outcome::Draw
    }
}

impl Evaluate for TicTacToe {
    const DECISIVE: i32 = 800;

    fn evaluate(&self) -> i32 {
        let us = self.side_to_move().index();
        if self.claims {
            if self.completions(us) != 0 {
                return Self::STATIC_WIN;
            }
            if self.completions(1 - us).count_ones() >= 2 {
                return -Self::STATIC_WIN;
            }
        }
        // Lines still open for us minus lines still open for them: enough to order a tiny search.
        let open = |side: usize| LINES.iter().filter(|&&line| self.stones[1 - side] & line == 0).count() as i32;
        open(us) - open(1 - us)
    }

    fn generate_search_moves(&self, depth: i32, moves: &mut Self::Moves) {
        self.generate_legal_moves(moves);
        if depth < self.narrowed_below && !moves.is_empty() {
            let first = moves[0];
            moves.clear();
            moves.push(first);
        }
    }

    fn generate_more_search_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        if self.narrowed_below > 0 {
            self.generate_legal_moves(moves);
        }
    }
}

impl Tactical for TicTacToe {}
impl NullMove for TicTacToe {}

impl TicTacToe {
    /// Random moves to the end of the game: the result for the side to move here, and the end.
    fn play_to_end(&self, rng: &mut Rng, played: &mut Vec<(Side, u8)>) -> (PlayoutResult, TicTacToe) {
        let me = self.side_to_move();
        let mut game = self.clone();
        let mut moves = MoveList::<u8, 9>::new();
        loop {
            if let Some(outcome) = game.outcome() {
                return (outcome.value_for(me).into(), game);
            }
            game.generate_legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            played.push((game.side_to_move(), mv));
            game.play(mv);
        }
    }
}

/// A square's owner is the player whose mark is on it (a toy ownership for the searcher's tests).
impl Playout for TicTacToe {
    fn playout(&self, rng: &mut Rng, played: &mut Vec<(Side, u8)>) -> PlayoutResult {
        self.play_to_end(rng, played).0
    }

    fn ownership_cells(&self) -> usize {
        9
    }

    fn playout_with_ownership(&self, rng: &mut Rng, played: &mut Vec<(Side, u8)>, owners: &mut [i8]) -> PlayoutResult {
        let (result, end) = self.play_to_end(rng, played);
        end.final_ownership(owners);
        result
    }

    fn final_ownership(&self, owners: &mut [i8]) {
        for (square, owner) in owners.iter_mut().enumerate().take(9) {
            let holds = |side: usize| i8::from(self.stones[side] & (1 << square) != 0);
            *owner = holds(0) - holds(1);
        }
    }
}
