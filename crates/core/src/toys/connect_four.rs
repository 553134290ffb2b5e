//! Connect four on the standard 6×7 board: drop discs into columns, four in a line wins.

use crate::game::{Game, Outcome, Side};
use crate::moves::{MoveBuffer, MoveList};
use crate::rng::Rng;
use crate::search::{Evaluate, NullMove, Playout, PlayoutResult, Refined, Tactical};
use crate::zobrist::zobrist_keys;
use std::sync::atomic::{AtomicU64, Ordering};

const COLUMNS: u8 = 7;
const ROWS: u8 = 6;
/// Bits per column: six cells and one empty sentinel bit so that shifts never wrap into a line.
const HEIGHT: u8 = ROWS + 1;
const BOTTOM: u64 = {
    let mut bits = 0;
    let mut column = 0;
    while column < COLUMNS {
        bits |= 1 << (column * HEIGHT);
        column += 1;
    }
    bits
};
const FULL: u64 = BOTTOM * ((1 << ROWS) - 1);
static KEYS: [u64; 2 * 49 + 1] = zobrist_keys(0xC0_44EC_7F0B);

/// A connect-four position; a move is a column 0–6, left to right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectFour {
    discs: [u64; 2],
    heights: [u8; COLUMNS as usize],
    history: Vec<u8>,
    hash: u64,
    /// The column [`Playout::refined_priors`] favours, if any (tests of prior refinement).
    refined_column: Option<u8>,
    /// The column whose drop [`Playout::refined_priors`] values as won for the player who
    /// dropped it, if any (tests of value estimates; every other position is valued even).
    valued_column: Option<u8>,
}

/// How often [`Playout::refined_priors`] answered for a position with a favoured column.
static REFINEMENTS: AtomicU64 = AtomicU64::new(0);
/// How often [`Playout::refined_priors`] was asked for a value, for a position with a valued column.
static VALUE_REQUESTS: AtomicU64 = AtomicU64::new(0);

impl Default for ConnectFour {
    fn default() -> Self {
        Self::new()
    }
}

impl ConnectFour {
    /// The empty board, first player to move.
    #[must_use]
    pub fn new() -> Self {
        ConnectFour {
            discs: [0; 2],
            heights: [0; COLUMNS as usize],
            history: Vec::with_capacity(42),
            hash: 0,
            refined_column: None,
            valued_column: None,
        }
    }

    /// The position after dropping discs in `columns` from the empty board.
    ///
    /// # Panics
    /// Panics on an illegal column (for tests and examples).
    #[must_use]
    pub fn from_moves(columns: &[u8]) -> Self {
        let mut game = Self::new();
        for &column in columns {
            assert!(game.is_legal(column), "illegal column {column}");
            game.play(column);
        }
        game
    }

    fn has_four(discs: u64) -> bool {
        [1, HEIGHT - 1, HEIGHT, HEIGHT + 1].into_iter().any(|shift| {
            let pairs = discs & (discs >> shift);
            pairs & (pairs >> (2 * shift)) != 0
        })
    }

    fn cell(column: u8, row: u8) -> u32 {
        u32::from(column * HEIGHT + row)
    }
}

impl Game for ConnectFour {
    type Move = u8;
    type Rules = ();
    type Moves = MoveList<u8, { COLUMNS as usize }>;

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
        // Centre columns first: a free ordering win for every searcher.
        for column in [3, 2, 4, 1, 5, 0, 6] {
            if self.heights[usize::from(column)] < ROWS {
                moves.push(column);
            }
        }
    }

    fn is_legal(&self, mv: u8) -> bool {
        mv < COLUMNS && self.heights[usize::from(mv)] < ROWS && self.rule_outcome(None).is_none()
    }

    fn play(&mut self, mv: u8) {
        let side = self.side_to_move().index();
        let cell = Self::cell(mv, self.heights[usize::from(mv)]);
        self.discs[side] |= 1 << cell;
        self.heights[usize::from(mv)] += 1;
        self.hash ^= KEYS[side * 49 + cell as usize] ^ KEYS[98];
        self.history.push(mv);
    }

    fn undo(&mut self) {
        let mv = self.history.pop().expect("undo needs a move to take back");
        let side = self.side_to_move().index();
        self.heights[usize::from(mv)] -= 1;
        let cell = Self::cell(mv, self.heights[usize::from(mv)]);
        self.discs[side] &= !(1 << cell);
        self.hash ^= KEYS[side * 49 + cell as usize] ^ KEYS[98];
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
        let mut hash = if self.history.len() % 2 == 1 { KEYS[98] } else { 0 };
        for side in 0..2 {
            let mut discs = self.discs[side];
            while discs != 0 {
                hash ^= KEYS[side * 49 + discs.trailing_zeros() as usize];
                discs &= discs - 1;
            }
        }
        hash
    }

    fn rule_outcome(&self, _search_root: Option<usize>) -> Option<Outcome> {
        let mover = self.side_to_move().opponent();
        Self::has_four(self.discs[mover.index()]).then_some(Outcome::Win(mover))
    }

    fn no_move_outcome(&self) -> Outcome {
        Outcome::Draw
    }
}

impl Evaluate for ConnectFour {
    fn evaluate(&self) -> i32 {
        // Count cells that would complete a four ("threats"); lower threats weigh more.
        let us = self.side_to_move().index();
        let empty = FULL & !(self.discs[0] | self.discs[1]);
        let threats = |side: usize| {
            let discs = self.discs[side];
            let mut winning = 0u64;
            for shift in [1, HEIGHT - 1, HEIGHT, HEIGHT + 1] {
                let s = u32::from(shift);
                let pairs = (discs << s) & (discs << (2 * s));
                winning |= pairs & (discs << (3 * s)) | pairs & (discs >> s);
                let pairs = (discs >> s) & (discs >> (2 * s));
                winning |= pairs & (discs >> (3 * s)) | pairs & (discs << s);
            }
            (winning & empty).count_ones() as i32
        };
        let centre = |side: usize| (self.discs[side] & (0x7F << (3 * HEIGHT))).count_ones() as i32;
        20 * (threats(us) - threats(1 - us)) + 3 * (centre(us) - centre(1 - us))
    }
}

impl Tactical for ConnectFour {}
impl NullMove for ConnectFour {}

impl ConnectFour {
    /// This position with refined priors ([`Playout::refined_priors`]) that give `column` thirty
    /// times the weight of every other column.
    #[must_use]
    pub fn with_refined_column(mut self, column: u8) -> Self {
        self.refined_column = Some(column);
        self
    }

    /// This position with refined priors that keep the priors and value a position as lost for
    /// the player to move after a drop in `column`, as even after any other.
    #[must_use]
    pub fn with_valued_column(mut self, column: u8) -> Self {
        self.valued_column = Some(column);
        self
    }

    /// How many times a value was asked of a position with a valued column so far.
    #[must_use]
    pub fn value_requests() -> u64 {
        VALUE_REQUESTS.load(Ordering::Relaxed)
    }

    /// How many times refined priors were given so far (by every position with a favoured column).
    #[must_use]
    pub fn refinements() -> u64 {
        REFINEMENTS.load(Ordering::Relaxed)
    }
}

impl Playout for ConnectFour {
    /// Gives its value whether asked for one or not (the search must ignore an unweighed one).
    fn refined_priors(&self, moves: &[u8], priors: &mut [f32], with_value: bool) -> Option<Refined> {
        if let Some(column) = self.valued_column {
            VALUE_REQUESTS.fetch_add(u64::from(with_value), Ordering::Relaxed);
            let lost = self.history.last() == Some(&column);
            return Some(Refined { value: Some(if lost { 0.0 } else { 0.5 }) });
        }
        let column = self.refined_column?;
        REFINEMENTS.fetch_add(1, Ordering::Relaxed);
        for (&mv, prior) in moves.iter().zip(priors.iter_mut()) {
            *prior = if mv == column { 30.0 } else { 1.0 };
        }
        Some(Refined::default())
    }

    fn playout(&self, rng: &mut Rng, played: &mut Vec<(Side, u8)>) -> PlayoutResult {
        let me = self.side_to_move();
        let mut game = self.clone();
        let mut moves = MoveList::<u8, 7>::new();
        loop {
            if let Some(outcome) = game.outcome() {
                return outcome.value_for(me).into();
            }
            game.generate_legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            played.push((game.side_to_move(), mv));
            game.play(mv);
        }
    }
}
