//! The pattern evaluation and the candidate moves the alpha-beta searcher tries.
//!
//! Candidates narrow with the threats on the board: a five is played at once, a five threat
//! is blocked, an open-four threat is met by a defence or a counter-four, and otherwise the
//! best-valued points near stones are tried.

use tessera_core::{Evaluate, Game, MoveBuffer, NullMove, Pruning, Tactical};

use crate::board::{Board, Threat};
use crate::game::Moves;

/// Near-win evaluation (a five or an unstoppable four next move), kept below mate values.
pub const WIN_SOON: i32 = 20_000;
/// Quiet candidates kept per node, best first.
const QUIET_CANDIDATES: usize = 20;

impl Board {
    /// Writes the empty cells where `side` reaches at least `level` into `moves` (legal only).
    pub(crate) fn threat_moves(&self, side: tessera_core::Side, level: Threat, moves: &mut Moves) {
        for cell in self.board_cells() {
            if self.is_empty_cell(cell) && self.threat(side, cell) >= level {
                let point = self.point(cell);
                if side != self.to_move() || self.is_legal(point) {
                    moves.push(point);
                }
            }
        }
    }

    /// The first empty cell where `side` makes five, if any.
    pub(crate) fn five_point(&self, side: tessera_core::Side) -> Option<crate::Point> {
        if self.threat_count(side, Threat::Five) == 0 {
            return None;
        }
        self.board_cells()
            .find(|&cell| self.is_empty_cell(cell) && self.threat(side, cell) == Threat::Five)
            .map(|cell| self.point(cell))
    }

    /// Attack plus defence value of playing `point` for the side to move.
    #[must_use]
    pub fn point_value(&self, point: crate::Point) -> i32 {
        let cell = self.cell(point);
        let us = self.to_move();
        self.cell_value(us, cell) + self.cell_value(us.opponent(), cell) * 4 / 5
    }
}

impl Evaluate for Board {
    const PRUNING: Pruning = Pruning {
        reverse_futility_margin: 0,
        futility_margin: 0,
        razor_margin: 0,
        late_move_reductions: true,
        aspiration_window: 0,
        ..Pruning::NONE
    };

    fn evaluate(&self) -> i32 {
        let us = self.to_move();
        let them = us.opponent();
        if self.threat_count(us, Threat::Five) > 0 {
            return WIN_SOON;
        }
        let their_fives = self.threat_count(them, Threat::Five);
        if their_fives >= 2 {
            return -WIN_SOON;
        }
        if their_fives == 0 && self.threat_count(us, Threat::FlexFour) > 0 {
            return WIN_SOON - 100;
        }
        // The side to move is a tempo ahead.
        self.value_total(us) * 6 / 5 - self.value_total(them)
    }

    fn generate_search_moves(&self, moves: &mut Moves) {
        moves.clear();
        if self.winner().is_some() {
            return;
        }
        let us = self.to_move();
        let them = us.opponent();
        if let Some(five) = self.five_point(us) {
            moves.push(five);
            return;
        }
        if self.threat_count(them, Threat::Five) > 0 {
            self.threat_moves(them, Threat::Five, moves);
            // Renju black may be unable to block (a forbidden point): any legal move then.
            if moves.iter().any(|&point| self.is_legal(point)) {
                moves.retain(|point| self.is_legal(point));
                return;
            }
            moves.clear();
        } else if self.threat_count(them, Threat::FlexFour) > 0 {
            self.threat_moves(us, Threat::Four, moves);
            let own = moves.len();
            for cell in self.board_cells() {
                if self.is_empty_cell(cell) && self.threat(them, cell) >= Threat::Four {
                    let point = self.point(cell);
                    if !moves[..own].contains(&point) && self.is_legal(point) {
                        moves.push(point);
                    }
                }
            }
            if !moves.is_empty() {
                return;
            }
        }
        self.quiet_candidates(moves);
    }

    fn move_order_hint(&self, mv: crate::Point) -> i32 {
        self.point_value(mv)
    }
}

impl Board {
    /// Points within two cells of a stone (the centre on an empty board), best-valued first,
    /// at most [`QUIET_CANDIDATES`]; every legal move if none is near.
    fn quiet_candidates(&self, moves: &mut Moves) {
        moves.clear();
        if self.stone_count() == 0 {
            let centre = crate::Point::new(self.rules.width / 2, self.rules.height / 2);
            moves.push(centre);
            return;
        }
        let mut scored: [(i32, u16); crate::MAX_MOVES] = [(0, 0); crate::MAX_MOVES];
        let mut count = 0;
        let check_forbidden = self.rules.has_forbidden(self.to_move());
        for cell in self.board_cells() {
            if self.is_empty_cell(cell)
                && self.has_neighbour(cell, 2)
                && !(check_forbidden && self.is_forbidden_cell(cell))
            {
                let point = self.point(cell);
                scored[count] = (self.point_value(point), tessera_core::PackedMove::to_bits(point));
                count += 1;
            }
        }
        if count == 0 {
            self.generate_legal_moves(moves);
            return;
        }
        let scored = &mut scored[..count];
        scored.sort_unstable_by(|a, b| b.cmp(a));
        for &(_, bits) in scored.iter().take(QUIET_CANDIDATES) {
            moves.push(tessera_core::PackedMove::from_bits(bits));
        }
    }
}

impl Tactical for Board {}
impl NullMove for Board {}
