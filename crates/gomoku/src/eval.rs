//! The pattern evaluation and the candidate moves the alpha-beta searcher tries.
//!
//! Candidates narrow with the threats on the board: a five is played at once, a five threat
//! is blocked, an open-four threat is met by a defence or a counter-four, and otherwise the
//! best-valued points near stones are tried.

mod weights;

use tessera_core::{Evaluate, Game, MoveBuffer, NullMove, Pruning, Tactical};

use crate::board::Board;
use crate::game::Moves;
use crate::shape::{Shape, Threat, ATTACK_VALUE, DEFENCE_VALUE, SHAPES};
use weights::{LINE_MOVER_WEIGHT, LINE_WAITER_WEIGHT, MOVER_WEIGHT, THREAT_WEIGHT, WAITER_WEIGHT};

/// Near-win evaluation (a five or an unstoppable four next move), kept below mate values.
pub const WIN_SOON: i32 = 20_000;
/// Quiet candidates kept per node, best first.
const QUIET_CANDIDATES: usize = 20;
/// Quiet candidates at the root and (except in renju) at nodes with [`WIDE_NODE_DEPTH`] plies or
/// more left: a good move the point values rank low costs the whole game there (Rapfi's deep wins
/// open with such quiet moves), while such nodes are too few for ten more moves to cost much depth.
/// In renju the deep nodes' longer lists scored less against Rapfi (see the strength log).
pub(crate) const WIDE_QUIET_CANDIDATES: usize = 30;
/// The plies left from which a node gets [`WIDE_QUIET_CANDIDATES`].
const WIDE_NODE_DEPTH: i32 = 6;
/// The weakest own threat quiescence plays anywhere: a four-three (every four multiplies the
/// horizon's nodes and measured weaker; see the strength log). Fours with a two or a blocked three
/// it plays only near the mover's previous stone ([`Board::continuing_fours`]).
const QUIESCENCE_THREAT: Threat = Threat::FourThree;

/// Where an attack that goes on from a stone plays next, as (dx, dy) from it, row by row (the
/// board's order): within two cells, or four along one of its lines (Rapfi's "square 2, line 4").
const NEAR_OFFSETS: [(i32, i32); 40] = {
    let mut offsets = [(0, 0); 40];
    let mut count = 0;
    let mut dy: i32 = -4;
    while dy <= 4 {
        let mut dx: i32 = -4;
        while dx <= 4 {
            let distance = if dx.abs() > dy.abs() { dx.abs() } else { dy.abs() };
            let on_a_line = dx == 0 || dy == 0 || dx.abs() == dy.abs();
            if distance > 0 && (distance <= 2 || on_a_line) {
                offsets[count] = (dx, dy);
                count += 1;
            }
            dx += 1;
        }
        dy += 1;
    }
    assert!(count == offsets.len());
    offsets
};

/// Where each weight of the evaluation sits in [`WEIGHTS`] (the tuner's order): a mover and a
/// waiter weight per shape, the two sides' line-sum weights, then one weight per threat mask.
pub(crate) const MOVER: usize = 0;
pub(crate) const WAITER: usize = SHAPES;
pub(crate) const LINE_MOVER: usize = 2 * SHAPES;
pub(crate) const LINE_WAITER: usize = 2 * SHAPES + 1;
pub(crate) const THREAT: usize = 2 * SHAPES + 2;
/// The bits of [`Board::threat_mask`], lowest first: whether the side to move (`true`) or the
/// opponent has an empty cell of any of these shapes.
const THREAT_BITS: [(bool, &[Shape]); 11] = [
    (false, &[Shape::Five]),
    (true, &[Shape::FlexFour]),
    (false, &[Shape::FlexFour]),
    (true, &[Shape::BlockFourPlus, Shape::BlockFourFlexThree]),
    (true, &[Shape::BlockFour]),
    (true, &[Shape::FlexThreePlus, Shape::DoubleFlexThree]),
    (true, &[Shape::FlexThree]),
    (false, &[Shape::BlockFourPlus, Shape::BlockFourFlexThree]),
    (false, &[Shape::BlockFour]),
    (false, &[Shape::FlexThreePlus, Shape::DoubleFlexThree]),
    (false, &[Shape::FlexThree]),
];
/// Number of threat masks.
pub(crate) const THREAT_MASKS: usize = 1 << THREAT_BITS.len();
/// Number of weights.
pub(crate) const WEIGHT_COUNT: usize = THREAT + THREAT_MASKS;
/// The weights of `weights.rs` in one array, indexed as [`Board::linear_terms`] names them.
pub(crate) const WEIGHTS: [i32; WEIGHT_COUNT] = {
    let mut weights = [0; WEIGHT_COUNT];
    let mut shape = 0;
    while shape < SHAPES {
        weights[MOVER + shape] = MOVER_WEIGHT[shape];
        weights[WAITER + shape] = WAITER_WEIGHT[shape];
        shape += 1;
    }
    weights[LINE_MOVER] = LINE_MOVER_WEIGHT;
    weights[LINE_WAITER] = LINE_WAITER_WEIGHT;
    let mut mask = 0;
    while mask < THREAT_MASKS {
        weights[THREAT + mask] = THREAT_WEIGHT[mask];
        mask += 1;
    }
    weights
};

impl Board {
    /// The weighted terms of an evaluation not decided by threats, from the side to move's view:
    /// `add(weight index, count)` for each, the evaluation being `Σ WEIGHTS[index] × count` (the
    /// one definition the evaluation and the tuner's coefficients share).
    pub(crate) fn linear_terms(&self, mut add: impl FnMut(usize, i32)) {
        let us = self.to_move();
        let them = us.opponent();
        for (shape, (&mine, &theirs)) in self.shape_counts(us).iter().zip(self.shape_counts(them)).enumerate() {
            add(MOVER + shape, i32::from(mine));
            add(WAITER + shape, -i32::from(theirs));
        }
        add(LINE_MOVER, self.value_total(us));
        add(LINE_WAITER, -self.value_total(them));
        add(THREAT + self.threat_mask(), 1);
    }

    /// Which threats each side holds, one bit per entry of [`THREAT_BITS`] (after Rapfi's threat
    /// evaluation): the shape counts are linear, but a four with a three to follow, or a three
    /// against a three, is worth what no sum of its parts says.
    pub(crate) fn threat_mask(&self) -> usize {
        let us = self.shape_counts(self.to_move());
        let them = self.shape_counts(self.to_move().opponent());
        THREAT_BITS.iter().enumerate().fold(0, |mask, (bit, &(mover, shapes))| {
            let counts = if mover { us } else { them };
            let held = shapes.iter().any(|&shape| counts[shape as usize] > 0);
            mask | usize::from(held) << bit
        })
    }

    /// Writes the empty cells where `side` reaches at least `level` (above `Threat::None`) into
    /// `moves` (legal only), in board order.
    pub(crate) fn threat_moves(&self, side: tessera_core::Side, level: Threat, moves: &mut Moves) {
        debug_assert!(level > Threat::None, "every empty cell reaches Threat::None");
        // Most nodes have no such threat: the shape counts say so without looking at cells.
        if self.threat_count(side, level) == 0 {
            return;
        }
        for cell in self.threat_cells(side, level) {
            let point = self.point(cell);
            if side != self.to_move() || self.is_legal(point) {
                moves.push(point);
            }
        }
    }

    /// The first empty cell where `side` makes five, if any.
    pub(crate) fn five_point(&self, side: tessera_core::Side) -> Option<crate::Point> {
        if self.threat_count(side, Threat::Five) == 0 {
            return None;
        }
        self.threat_cells(side, Threat::Five).next().map(|cell| self.point(cell))
    }

    /// The evaluation of a position decided by its threats (a five to play, two fives to meet, an
    /// unanswered straight four); `None` when the weighted shape counts decide.
    pub(crate) fn decisive_score(&self) -> Option<i32> {
        let us = self.to_move();
        let them = us.opponent();
        let their_fives = self.shape_count(them, Shape::Five);
        if self.shape_count(us, Shape::Five) > 0 {
            Some(WIN_SOON)
        } else if their_fives >= 2 {
            Some(-WIN_SOON)
        } else if their_fives == 0 && self.shape_count(us, Shape::FlexFour) > 0 {
            Some(WIN_SOON - 100)
        } else {
            None
        }
    }

    /// Attack plus defence value of playing `point` for the side to move.
    #[must_use]
    pub fn point_value(&self, point: crate::Point) -> i32 {
        self.cell_point_value(self.cell(point))
    }

    /// [`Board::point_value`] of empty array cell `cell`.
    fn cell_point_value(&self, cell: usize) -> i32 {
        let us = self.to_move();
        let them = us.opponent();
        self.cell_value(us, cell)
            + ATTACK_VALUE[self.shape(us, cell) as usize]
            + self.cell_value(them, cell) * 4 / 5
            + DEFENCE_VALUE[self.shape(them, cell) as usize]
    }
}

/// How far outside the search window the pattern evaluation must lie to answer for the network
/// (see [`Board::evaluate_within`]). A margin of 200 leaves the network a fifth of the evaluations,
/// 400 two fifths; 250 won most at equal time (strength log).
pub(crate) const LAZY_MARGIN: i32 = 250;

/// The pattern evaluation mapped to the network's scale: over the bench's searches the embedded
/// network's value is close to `patterns × 5/4 + 85` (correlation 0.91, residual deviation 260).
const fn network_estimate(patterns: i32) -> i32 {
    patterns * 5 / 4 + 85
}

impl Evaluate for Board {
    /// The core's pruning, each part switched on by an SPRT against the step before (strength log).
    /// Moves making an open three or more are tactical, so never pruned nor reduced, and a four
    /// against the side to move is check, where nothing is pruned: what futility and move-count
    /// pruning drop are quiet shape-building moves. Reverse futility may still cut a node whose
    /// evaluation misjudges an open three of the opponent; the games said it pays, and more so at
    /// 100 per ply than at 200 or 150 once the network evaluated (60 was no better).
    const PRUNING: Pruning = Pruning {
        reverse_futility_margin: 100,
        futility_margin: 150,
        late_move_scale: 2,
        razor_margin: 0,
        late_move_reduction_divisor: 225,
        aspiration_window: 60,
        improving: true,
        internal_iterative_reductions: true,
        history_reduction_unit: 8192,
        ..Pruning::NONE
    };

    /// [`Board::decisive_score`]'s claims: a five to play, two fives to meet, a straight four
    /// the opponent cannot answer with a five.
    const DECISIVE: i32 = WIN_SOON - 1000;

    fn evaluate(&self) -> i32 {
        self.evaluate_within(i32::MIN, i32::MAX)
    }

    /// With a network, the pattern evaluation (mapped to the network's scale) answers alone where
    /// it lies more than [`LAZY_MARGIN`] outside the window: most nodes' evaluations only decide a
    /// cut-off that far from the window, and the network costs several times the patterns.
    fn evaluate_within(&self, alpha: i32, beta: i32) -> i32 {
        if let Some(score) = self.decisive_score() {
            return score;
        }
        let mut patterns = 0;
        self.linear_terms(|weight, count| patterns += WEIGHTS[weight] * count);
        let value = match &self.network {
            None => patterns,
            Some(network) => {
                let estimate = network_estimate(patterns);
                if estimate >= beta.saturating_add(LAZY_MARGIN) || estimate <= alpha.saturating_sub(LAZY_MARGIN) {
                    estimate
                } else {
                    crate::nnue::evaluate(network, self)
                }
            }
        };
        // Only the decisive claims reach DECISIVE (far beyond any weighed position).
        value.clamp(1 - Self::DECISIVE, Self::DECISIVE - 1)
    }

    fn generate_search_moves(&self, depth: i32, moves: &mut Moves) {
        let wide = depth >= WIDE_NODE_DEPTH && self.rules.variant != crate::Variant::Renju;
        let quiet_limit = if wide { WIDE_QUIET_CANDIDATES } else { QUIET_CANDIDATES };
        self.candidate_moves(quiet_limit, moves);
    }

    /// The quiet candidates past the limit, where the list was a choice and not a forced reply
    /// (a five or an open three to meet).
    fn generate_more_search_moves(&self, moves: &mut Moves) {
        if self.winner().is_some() || self.forced_replies(moves) {
            moves.clear();
        } else {
            self.quiet_candidates(usize::MAX, moves);
        }
    }

    fn move_order_hint(&self, mv: crate::Point) -> i32 {
        self.point_value(mv)
    }
}

/// Forced replies and fours at the horizon: a five threat is met (in quiescence, by the
/// candidates only), and the side to move may go on with its four-threes, and with fours that
/// carry a two or a three near its previous stone (a VCF in quiescence, after Rapfi's).
impl Tactical for Board {
    const ENABLED: bool = true;

    fn generate_tactical_moves(&self, moves: &mut Moves) {
        moves.clear();
        if self.winner().is_some() {
            return;
        }
        let us = self.to_move();
        if let Some(five) = self.five_point(us) {
            moves.push(five);
            return;
        }
        self.threat_moves(us, QUIESCENCE_THREAT, moves);
        self.continuing_fours(moves);
    }

    fn generate_evasions(&self, moves: &mut Moves) {
        self.candidate_moves(QUIET_CANDIDATES, moves);
    }

    fn is_tactical(&self, mv: crate::Point) -> bool {
        self.shape(self.to_move(), self.cell(mv)) >= Shape::FlexThree
    }

    fn in_check(&self) -> bool {
        self.shape_count(self.to_move().opponent(), Shape::Five) > 0
    }
}

impl Board {
    /// The moves worth searching: the forced ones when a threat forces the reply, else at most
    /// `quiet_limit` quiet candidates (see [`Board::quiet_candidates`]). Legal moves only, and at
    /// least one whenever a legal move exists.
    pub(crate) fn candidate_moves(&self, quiet_limit: usize, moves: &mut Moves) {
        if self.winner().is_some() {
            moves.clear();
        } else if !self.forced_replies(moves) {
            self.quiet_candidates(quiet_limit, moves);
        }
    }

    /// Puts the forced replies in `moves` and answers true when a threat forces the reply: our
    /// five, a block of the opponent's five, an answer to its open three (see
    /// [`Board::open_three_defences`]).
    fn forced_replies(&self, moves: &mut Moves) -> bool {
        moves.clear();
        let us = self.to_move();
        let them = us.opponent();
        if let Some(five) = self.five_point(us) {
            moves.push(five);
            return true;
        }
        if self.shape_count(them, Shape::Five) > 0 {
            self.threat_moves(them, Threat::Five, moves);
            // Renju black may be unable to block (a forbidden point): any legal move then.
            if moves.iter().any(|&point| self.is_legal(point)) {
                moves.retain(|point| self.is_legal(point));
                return true;
            }
            moves.clear();
        } else if self.shape_count(them, Shape::FlexFour) > 0 {
            self.open_three_defences(moves);
            return !moves.is_empty();
        }
        false
    }

    /// Appends the answers to an open three of the opponent (legal only): the side to move's own
    /// fours, then the points where the opponent would make a four, which are where the three is
    /// blocked.
    pub(crate) fn open_three_defences(&self, moves: &mut Moves) {
        let us = self.to_move();
        let start = moves.len();
        self.threat_moves(us, Threat::Four, moves);
        let own = moves.len();
        for cell in self.cells_with(us.opponent(), Shape::is_four) {
            let point = self.point(cell);
            if !moves[start..own].contains(&point) && self.is_legal(point) {
                moves.push(point);
            }
        }
    }

    /// Adds the empty cells where the side to move makes a four with a two or a blocked three
    /// ([`Shape::BlockFourPlus`]) near its previous stone: quiescence follows an attack where it
    /// goes on, as Rapfi's quiescence VCF does, rather than every such four on the board.
    fn continuing_fours(&self, moves: &mut Moves) {
        let us = self.to_move();
        if self.shape_count(us, Shape::BlockFourPlus) == 0 {
            return;
        }
        // Stones alternate in the history, so the one before last is the mover's own.
        let Some(previous) = self.history.len().checked_sub(2).map(|index| usize::from(self.history[index].cell))
        else {
            return;
        };
        for (dx, dy) in NEAR_OFFSETS {
            // The wall around the board is five cells wide: every offset lands on it or on the board.
            let cell = (previous as i32 + dy * self.stride + dx) as usize;
            if self.is_empty_cell(cell) && self.shape(us, cell) == Shape::BlockFourPlus {
                let point = self.point(cell);
                if self.is_legal(point) {
                    moves.push(point);
                }
            }
        }
    }

    /// Points within two cells of a stone (the centre on an empty board), best-valued first,
    /// at most `limit`; every legal move if none is near.
    fn quiet_candidates(&self, limit: usize, moves: &mut Moves) {
        moves.clear();
        if self.stone_count() == 0 {
            let centre = crate::Point::new(self.rules.width / 2, self.rules.height / 2);
            moves.push(centre);
            return;
        }
        let mut scored: [(i32, u16); crate::MAX_MOVES] = [(0, 0); crate::MAX_MOVES];
        let mut count = 0;
        let us = self.to_move();
        let check_forbidden = self.rules.has_forbidden(us);
        // A cell with no line pattern for either side is too far from the stones to matter.
        for cell in self.valued_cells() {
            if !(check_forbidden && self.is_forbidden_cell(cell)) {
                scored[count] = (self.cell_point_value(cell), cell as u16);
                count += 1;
            }
        }
        if count == 0 {
            self.generate_legal_moves(moves);
            return;
        }
        let mut scored = &mut scored[..count];
        // Best first; the (value, cell) pairs are distinct, so the order is total (and cells run
        // in the order of the points).
        if count > limit {
            scored.select_nth_unstable_by(limit - 1, |a, b| b.cmp(a));
            scored = &mut scored[..limit];
        }
        scored.sort_unstable_by(|a, b| b.cmp(a));
        for &(_, cell) in scored.iter() {
            moves.push(self.point(usize::from(cell)));
        }
    }
}

impl NullMove for Board {}

#[cfg(test)]
mod tests {
    use tessera_core::Tactical;

    use super::*;
    use crate::{Point, Rules};

    fn board(moves: &[(u8, u8)]) -> Board {
        crate::tests::board_from(Rules::FREESTYLE_15, moves)
    }

    /// The core prunes and reduces only what `is_tactical` and `in_check` leave to it: every move
    /// making an open three or more must be tactical, and a four against the mover must be check.
    #[test]
    fn forcing_moves_are_tactical_and_a_four_is_check() {
        // Black (to move) has an open two on row 7; white's stones are far away.
        let two = board(&[(5, 7), (0, 0), (6, 7), (0, 14)]);
        assert!(two.is_tactical(Point::new(7, 7)), "an open three");
        assert!(!two.is_tactical(Point::new(6, 9)), "a quiet point");
        assert!(!two.in_check());
        // Black (to move) has an open three: the open four is tactical too.
        let three = board(&[(5, 7), (0, 0), (6, 7), (0, 14), (7, 7), (14, 0)]);
        assert!(three.is_tactical(Point::new(8, 7)), "an open four");
        // White to move faces black's four blocked at 4,7 (five at 9,7): check.
        let four = board(&[(5, 7), (0, 0), (6, 7), (0, 14), (7, 7), (4, 7), (8, 7)]);
        assert!(four.in_check());
    }

    /// An open three is met at the four points that block it, after the mover's own fours.
    #[test]
    fn an_open_three_is_met_by_its_blocks_after_an_own_four() {
        let blocks = [3, 4, 8, 9].map(|x| Point::new(x, 7));
        let sorted = |points: &[Point]| {
            let mut points = points.to_vec();
            points.sort_by_key(|point| (point.y(), point.x()));
            points
        };
        // Black's open three on row 7, white (to move) far away with nothing of its own.
        let mut moves = Moves::new();
        board(&[(5, 7), (0, 0), (6, 7), (0, 14), (7, 7)]).open_three_defences(&mut moves);
        assert_eq!(sorted(&moves), blocks);
        // White's three against the edge of column 14 makes fours at 14,3 and 14,4: they come first.
        moves.clear();
        board(&[(5, 7), (14, 0), (6, 7), (14, 1), (12, 12), (14, 2), (7, 7)]).open_three_defences(&mut moves);
        assert_eq!(sorted(&moves[..2]), [Point::new(14, 3), Point::new(14, 4)]);
        assert_eq!(sorted(&moves[2..]), blocks);
    }

    /// The mask names each side's threats from the side to move's view, and changes with the turn.
    #[test]
    fn threat_mask_names_each_sides_threats() {
        let bit = |mover: bool, shape: Shape| {
            1 << THREAT_BITS.iter().position(|&(side, shapes)| side == mover && shapes.contains(&shape)).unwrap()
        };
        // Black's open three on row 7, white to move: black threatens an open four, white holds nothing.
        let mut position = board(&[(7, 7), (0, 0), (8, 7), (14, 14), (9, 7)]);
        let mask = position.threat_mask();
        assert_ne!(mask & bit(false, Shape::FlexFour), 0);
        assert_eq!(mask & bit(true, Shape::FlexFour), 0);
        // White blocks one end: now black moves, with a blocked four to make and no open four.
        position.play(Point::new(6, 7));
        let mask = position.threat_mask();
        assert_ne!(mask & bit(true, Shape::BlockFour), 0);
        assert_eq!(mask & (bit(true, Shape::FlexFour) | bit(false, Shape::FlexFour)), 0);
        assert!(mask < THREAT_MASKS);
    }

    /// Quiescence goes on with a four that carries a two near the mover's previous stone, and not
    /// with the same four once the mover has last played elsewhere.
    #[test]
    fn quiescence_follows_fours_near_the_movers_previous_stone() {
        assert!(NEAR_OFFSETS.contains(&(2, -1)) && NEAR_OFFSETS.contains(&(4, 4)));
        assert!(!NEAR_OFFSETS.contains(&(3, 1)) && !NEAR_OFFSETS.contains(&(5, 0)));
        // Black (to move) has a three on row 7 blocked at 4,7 and a stone at 8,8: 8,7 makes a
        // blocked four with an open two, and black's last stone is 7,7.
        let moves = [(5, 7), (4, 7), (6, 7), (0, 0), (8, 8), (0, 14), (7, 7), (14, 0)];
        let four_with_two = Point::new(8, 7);
        let near = board(&moves);
        assert_eq!(near.shape(near.to_move(), near.cell(four_with_two)), Shape::BlockFourPlus);
        let mut tactical = Moves::new();
        near.generate_tactical_moves(&mut tactical);
        assert!(tactical.contains(&four_with_two), "{tactical:?}");
        let far = board(&[&moves[..], &[(13, 13), (14, 14)]].concat());
        far.generate_tactical_moves(&mut tactical);
        assert!(!tactical.contains(&four_with_two), "{tactical:?}");
    }

    /// A node with much depth left gets the root's longer candidate list, which extends the
    /// shallow nodes' list, best first, so it only adds moves the shallow nodes leave out.
    #[test]
    fn deep_nodes_extend_the_shallow_candidates_and_more_extend_both() {
        let position = board(&[(7, 7), (8, 8), (6, 8), (8, 6), (9, 7), (5, 9), (7, 9), (10, 6)]);
        let (mut shallow, mut deep, mut root) = (Moves::new(), Moves::new(), Moves::new());
        position.generate_search_moves(WIDE_NODE_DEPTH - 1, &mut shallow);
        position.generate_search_moves(WIDE_NODE_DEPTH, &mut deep);
        position.candidate_moves(WIDE_QUIET_CANDIDATES, &mut root);
        assert_eq!(shallow.len(), QUIET_CANDIDATES);
        assert_eq!(deep.len(), WIDE_QUIET_CANDIDATES);
        assert_eq!(&deep[..], &root[..]);
        assert_eq!(&deep[..QUIET_CANDIDATES], &shallow[..]);
        // Past the limit the searcher may ask for every valued cell; a forced reply has no more.
        let mut more = Moves::new();
        position.generate_more_search_moves(&mut more);
        assert!(more.len() > WIDE_QUIET_CANDIDATES && deep.iter().all(|point| more.contains(point)));
        let open_three = board(&[(5, 7), (0, 0), (6, 7), (0, 14), (7, 7)]);
        open_three.generate_more_search_moves(&mut more);
        assert!(more.is_empty());
    }

    /// Renju keeps the shallow nodes' list at every depth below the root.
    #[test]
    fn renju_deep_nodes_keep_the_shallow_candidates() {
        let stones = [(7, 7), (8, 8), (6, 8), (8, 6), (9, 7), (5, 9), (7, 9), (10, 6)];
        let position = crate::tests::board_from(Rules::RENJU_15, &stones);
        let mut deep = Moves::new();
        position.generate_search_moves(WIDE_NODE_DEPTH, &mut deep);
        assert_eq!(deep.len(), QUIET_CANDIDATES);
    }
}
