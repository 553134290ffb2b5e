//! The hooks the core's alpha-beta searcher uses: evaluation, move-ordering hints, pruning
//! margins, quiescence moves, static exchange evaluation and null moves.

use tessera_core::{Evaluate, Game, NullMove, Pruning, TablebaseResult, Tactical};

use crate::attacks::{bishop_attacks, rook_attacks};
use crate::board::Board;
use crate::eval::evaluate;
use crate::game::{Chess, Moves};
use crate::moves::Move;
use crate::syzygy;
use crate::types::{bit, lsb, Color, Kind};

/// Piece values for exchanges and ordering: pawn, knight, bishop, rook, queen, king.
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

impl Evaluate for Chess {
    /// Margins for centipawn evaluations of this scale (a pawn near 100), set by hand and refined
    /// by SPRT (the strength log in docs/chess.md).
    const PRUNING: Pruning = Pruning {
        reverse_futility_margin: 85,
        // Against 110 at fixed nodes 90 lost 16 Elo and 130 gained 17.5; 150 then lost 7.
        futility_margin: 130,
        // Two plies deeper than xiangqi's 6 (+14.5 Elo at fixed nodes; reverse futility at 8 lost 19).
        futility_depth: 8,
        // Xiangqi's 1 and 3 (fewer late moves, a null move reduced more with depth) measured worse here.
        late_move_scale: 2,
        null_move_divisor: 4,
        // A pass searched one ply shallower than the core's 3 (+21 Elo at fixed nodes).
        null_move_reduction: 4,
        // A ply more per 150 cp above beta rather than per 200 (+15 Elo at fixed nodes).
        null_move_eval_unit: 150,
        quiet_exchange_margin: 20,
        correction_limit: 64,
        // 250 rather than 300 (+24 Elo at fixed nodes).
        razor_margin: 250,
        // One ply deeper than the core's 2 (+27.7 Elo at fixed nodes).
        razor_depth: 3,
        // Shallower than 2.25 (+29 Elo at fixed nodes; 2.0 lost 16).
        late_move_reduction_divisor: 250,
        // Quiet checks reduced as well, a ply less (+38 Elo at fixed nodes).
        check_reductions: true,
        aspiration_window: 30,
        improving: true,
        internal_iterative_reductions: true,
        table_refinements: true,
        // With a bonus of d² a cutoff a quiet history seldom reached 8,192 and the reductions it
        // guides slept: 2,048 then 1,024 gained (+31, +24 Elo). A bonus of 4 × d² with the unit
        // scaled alike keeps that weight but saturates sooner, so recent cutoffs count more (+10).
        history_bonus_scale: 4,
        history_reduction_unit: 4096,
        // Time by the best move's share of the nodes, as xiangqi (+22.7 Elo at 5+0.05).
        node_time_management: true,
        ..Pruning::NONE
    };

    /// Piece (colour × kind) × destination square.
    const MOVE_CONTEXTS: usize = 768;

    fn move_context(&self, mv: Move) -> usize {
        usize::from(self.board().mailbox[usize::from(mv.from())]) * 64 + usize::from(mv.to())
    }

    /// The pawns of both sides: structures the evaluation misjudges alike share a correction.
    fn correction_key(&self) -> u64 {
        let board = self.board();
        // Multiplying by odd constants spreads every pawn into the top bits the searcher reads.
        board.pieces(Color::White, Kind::Pawn).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ board.pieces(Color::Black, Kind::Pawn).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
    }

    fn evaluate(&self) -> i32 {
        match self.nnue_evaluation() {
            Some(_) if self.board().insufficient_material() => 0,
            Some(value) => value,
            None => evaluate(self.board()),
        }
    }

    fn move_order_hint(&self, mv: Move) -> i32 {
        let board = self.board();
        let victim = if mv.is_en_passant() {
            Some(Kind::Pawn)
        } else if mv.is_castle() {
            None
        } else {
            board.piece_at(mv.to()).map(|piece| piece.kind)
        };
        let attacker = board.piece_at(mv.from()).map_or(0, |piece| piece.kind.index() as i32);
        let promotion = mv.promotion().map_or(0, |kind| SEE_VALUES[kind.index()]);
        // Most valuable victim first, least valuable attacker breaking ties.
        victim.map_or(0, |kind| SEE_VALUES[kind.index()] * 10 - attacker) + promotion
    }

    fn probe_tablebase(&self, depth: i32) -> Option<TablebaseResult> {
        syzygy::probe_wdl(self.board(), depth)
    }

    fn tablebase_root_moves(&self, moves: &[Move]) -> Option<Vec<Move>> {
        syzygy::root_moves(self.board(), moves)
    }
}

impl Tactical for Chess {
    const ENABLED: bool = true;

    fn generate_tactical_moves(&self, moves: &mut Moves) {
        self.generate_tactical(moves);
        // Under-promotions are not worth resolving at the horizon.
        moves.retain(|mv| mv.promotion().is_none_or(|kind| kind == Kind::Queen));
    }

    fn is_tactical(&self, mv: Move) -> bool {
        mv.promotion().is_some() || mv.is_en_passant() || (!mv.is_castle() && self.board().piece_at(mv.to()).is_some())
    }

    fn in_check(&self) -> bool {
        self.board().in_check()
    }

    fn static_exchange_at_least(&self, mv: Move, threshold: i32) -> bool {
        static_exchange_at_least(self.board(), mv, threshold)
    }
}

impl NullMove for Chess {
    const ENABLED: bool = true;

    fn null_move_allowed(&self) -> bool {
        // Zugzwang is common with only king and pawns: no null move there.
        let board = self.board();
        let us = board.side_to_move();
        let pieces = board.color(us) & !board.kind(Kind::Pawn) & !board.kind(Kind::King);
        pieces != 0 && !board.in_check()
    }

    fn play_null(&mut self) {
        self.play_null_move();
    }

    fn undo_null(&mut self) {
        self.undo();
    }
}

/// Whether the exchange sequence `mv` starts on its destination gains at least `threshold`
/// (swap algorithm with x-rays; pins are ignored, as usual).
#[must_use]
pub fn static_exchange_at_least(board: &Board, mv: Move, threshold: i32) -> bool {
    if mv.is_castle() || mv.kind().is_none() {
        return 0 >= threshold;
    }
    let from = mv.from();
    let to = mv.to();
    let Some(mover) = board.piece_at(from) else { return false };
    let captured = if mv.is_en_passant() { Some(Kind::Pawn) } else { board.piece_at(to).map(|piece| piece.kind) };
    let mut swap = captured.map_or(0, |kind| SEE_VALUES[kind.index()]) - threshold;
    let mut on_square = mover.kind;
    if let Some(promotion) = mv.promotion() {
        swap += SEE_VALUES[promotion.index()] - SEE_VALUES[0];
        on_square = promotion;
    }
    if swap < 0 {
        return false;
    }
    swap = SEE_VALUES[on_square.index()] - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = board.occupied() ^ bit(from) ^ bit(to);
    if mv.is_en_passant() {
        occupied ^= bit(to ^ 8);
    }
    let mut side = mover.color;
    let mut attackers = board.attackers_to(to, occupied) & occupied;
    let diagonal = board.kind(Kind::Bishop) | board.kind(Kind::Queen);
    let straight = board.kind(Kind::Rook) | board.kind(Kind::Queen);
    let mut result = true;
    loop {
        side = side.flip();
        attackers &= occupied;
        let ours = attackers & board.color(side);
        if ours == 0 {
            break;
        }
        result = !result;
        let Some(kind) = Kind::ALL.into_iter().find(|kind| ours & board.kind(*kind) != 0) else { break };
        if kind == Kind::King {
            // The king may only take last: if the other side still attacks, the capture is illegal.
            return if attackers & board.color(side.flip()) != 0 { !result } else { result };
        }
        swap = SEE_VALUES[kind.index()] - swap;
        if swap < i32::from(result) {
            break;
        }
        occupied ^= bit(lsb(ours & board.kind(kind)));
        if matches!(kind, Kind::Pawn | Kind::Bishop | Kind::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(kind, Kind::Rook | Kind::Queen) {
            attackers |= rook_attacks(to, occupied) & straight;
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::notation::parse_san;

    fn see(fen: &str, san: &str, threshold: i32) -> bool {
        let position = Chess::from_fen(fen, Rules::STANDARD).unwrap();
        let mv = parse_san(&position, san).unwrap();
        position.static_exchange_at_least(mv, threshold)
    }

    #[test]
    fn exchanges() {
        // Pawn takes a defended knight: wins about a knight minus a pawn.
        let fen = "4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1";
        assert!(see(fen, "dxe5", 200));
        assert!(!see(fen, "dxe5", 300));
        // Queen takes a pawn defended by a pawn: loses the queen.
        let fen = "4k3/8/3p4/4p3/8/8/4Q3/4K3 w - - 0 1";
        assert!(!see(fen, "Qxe5", 0));
        // Rook takes a rook defended by a rook, with our second rook behind (x-ray).
        let fen = "3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "Rxd7+", 0));
    }
}
