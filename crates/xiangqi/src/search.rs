//! The hooks the generic alpha-beta searcher uses: evaluation, captures and checks, null move.

use tessera_core::{Evaluate, Game, NullMove, Pruning, Tactical};

use crate::eval::{attack_force, piece_square, VALUES};
use crate::movegen::Moves;
use crate::position::Position;
use crate::types::{file_of, kind_of, rank_of, side_of, FILES, RANKS};

/// Estimated moves still to play when the clock does not say (for the time manager).
pub const MOVES_LEFT: u32 = 30;

impl Evaluate for Position {
    // Margins in our units (100 = a horse).
    const PRUNING: Pruning = Pruning {
        reverse_futility_margin: 40,
        futility_margin: 45,
        late_move_scale: 1,
        quiet_exchange_margin: 30,
        probcut_margin: 30,
        null_move_divisor: 3,
        // Razoring at depth 3 (−34 Elo at fixed nodes) or with a margin of 200 (−33) measured worse.
        razor_margin: 150,
        // Deeper than chess's 225: xiangqi's many quiet moves (+19 Elo at fixed nodes).
        late_move_reduction_divisor: 200,
        // Narrower than chess's 30 (+45 Elo at fixed nodes).
        aspiration_window: 12,
        improving: true,
        internal_iterative_reductions: true,
        table_refinements: true,
        // One ply per 4,096 points rather than 8,192 (+17 Elo at fixed nodes).
        history_reduction_unit: 4096,
        // Sixteen times chess's bonus: recent cutoffs count for more (+35 Elo at fixed nodes).
        history_bonus_scale: 16,
        capture_history: true,
        cut_node_reductions: true,
        tactical_table_move_reductions: true,
        cutoff_count_reductions: true,
        prior_move_bonus: true,
        node_time_management: true,
        ..Pruning::NONE
    };

    /// Piece (side × kind) × destination point.
    const MOVE_CONTEXTS: usize = 2 * 7 * FILES * RANKS;

    fn move_context(&self, mv: Self::Move) -> usize {
        let piece = self.board.piece_at(mv.from);
        let code = side_of(piece).index() * 7 + kind_of(piece) as usize;
        code * FILES * RANKS + rank_of(mv.to) * FILES + file_of(mv.to)
    }

    fn evaluate(&self) -> i32 {
        self.nnue_evaluation().unwrap_or_else(|| self.static_evaluation())
    }

    fn generate_search_moves(&self, _depth: i32, moves: &mut Moves) {
        // The searcher has already asked `rule_outcome`, so the rule check of
        // `generate_legal_moves` would be wasted work here.
        self.board.legal_moves(self.side, crate::movegen::Generate::All, moves);
    }

    fn move_order_hint(&self, mv: Self::Move) -> i32 {
        let victim = self.board.piece_at(mv.to);
        let attacker = self.board.piece_at(mv.from);
        if victim == 0 {
            // Quiet moves: towards better squares first (by the middlegame half), until history
            // knows better.
            return (piece_square(attacker, mv.to) - piece_square(attacker, mv.from)).0;
        }
        VALUES[kind_of(victim) as usize] * 16 - VALUES[kind_of(attacker) as usize] / 8
    }
}

impl Tactical for Position {
    const ENABLED: bool = true;

    fn generate_tactical_moves(&self, moves: &mut Moves) {
        self.generate_captures(moves);
    }

    fn generate_quiet_checks(&self, moves: &mut Moves) {
        Position::generate_quiet_checks(self, moves);
    }

    fn is_tactical(&self, mv: Self::Move) -> bool {
        self.is_capture(mv)
    }

    fn gives_check(&self, mv: Self::Move) -> bool {
        Position::gives_check(self, mv)
    }

    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    fn static_exchange_at_least(&self, mv: Self::Move, threshold: i32) -> bool {
        let victim = self.board.piece_at(mv.to);
        let gain = if victim == 0 { 0 } else { VALUES[kind_of(victim) as usize] };
        let attacker = VALUES[kind_of(self.board.piece_at(mv.from)) as usize];
        if gain - attacker >= threshold {
            return true; // even if the capturer is lost, the exchange pays
        }
        if gain < threshold {
            return false;
        }
        let mut after = self.board;
        after.make(mv);
        !after.attacked_by(mv.to, self.side.opponent())
    }
}

impl NullMove for Position {
    const ENABLED: bool = true;

    fn null_move_allowed(&self) -> bool {
        // Endings with little attacking force are where zugzwang lives: no null move there.
        !Position::in_check(self) && attack_force(&self.board, self.side) >= 2
    }

    fn play_null(&mut self) {
        self.play_null_move();
    }

    fn undo_null(&mut self) {
        self.undo();
    }
}

#[cfg(test)]
mod tests {
    use tessera_core::{AlphaBeta, EngineOptions, Limits, Score, SearchControl, Searcher, Silent};

    use crate::{iccs, Position};

    fn best(fen: &str, depth: u32) -> (String, Score) {
        let position: Position = fen.parse().unwrap();
        let mut searcher = AlphaBeta::new(&EngineOptions::default(), super::MOVES_LEFT);
        let result = searcher.search(&position, &Limits::depth(depth), &SearchControl::new(), &mut Silent);
        (iccs(result.best.unwrap()), result.score)
    }

    #[test]
    fn null_move_only_with_attacking_force_and_never_in_check() {
        use tessera_core::{Game, NullMove};
        let mut start = Position::start();
        assert!(start.null_move_allowed());
        let before = start.clone();
        start.play_null();
        assert_ne!(start.hash(), before.hash());
        assert_eq!(start.hash(), start.hash_from_scratch());
        start.undo_null();
        assert_eq!(start, before);
        let pawn_ending: Position = "3k5/9/9/9/2p6/9/4P4/9/9/4K4 w - - 0 1".parse().unwrap();
        assert!(!pawn_ending.null_move_allowed(), "zugzwang-prone: no null move");
        let checked: Position = "4k4/9/9/9/9/9/9/9/4r4/3RKR3 w - - 0 1".parse().unwrap();
        assert!(checked.in_check());
        assert!(!checked.null_move_allowed());
    }

    #[test]
    fn move_contexts_name_piece_and_destination_within_range() {
        use std::collections::HashMap;
        use tessera_core::{Evaluate, Game};

        use crate::types::{kind_of, side_of};
        // Along a game, every (side, kind, destination) gets one context below MOVE_CONTEXTS, and
        // no two share one.
        let mut position = Position::start();
        let mut seen = HashMap::new();
        for _ in 0..40 {
            let mut moves = crate::Moves::new();
            position.generate_legal_moves(&mut moves);
            let Some(&last) = moves.last() else { break };
            for &mv in moves.iter() {
                let context = position.move_context(mv);
                assert!(context < Position::MOVE_CONTEXTS, "{context}");
                let piece = position.board.piece_at(mv.from);
                let what = (side_of(piece), kind_of(piece), mv.to);
                assert_eq!(*seen.entry(context).or_insert(what), what, "context {context} shared");
            }
            position.play(last);
        }
        assert!(seen.len() > 100, "{} contexts seen", seen.len());
    }

    #[test]
    fn captures_are_tactical_and_exchanges_are_judged() {
        use tessera_core::Tactical;
        // A red rook can take a defended pawn (bad) or an undefended horse (good).
        let position: Position = "3k5/9/9/9/9/2p6/2R3n2/9/9/4K4 w - - 0 1".parse().unwrap();
        let takes_pawn = crate::parse_iccs("c3c4").unwrap();
        let takes_horse = crate::parse_iccs("c3g3").unwrap();
        assert!(position.is_tactical(takes_pawn) && position.is_tactical(takes_horse));
        assert!(position.static_exchange_at_least(takes_horse, 0));
        let mut captures = crate::Moves::new();
        position.generate_tactical_moves(&mut captures);
        assert!(captures.contains(&takes_horse) && captures.contains(&takes_pawn));
        assert_eq!(captures.len(), 2);
    }

    #[test]
    fn finds_a_mate_in_one_and_a_free_rook() {
        // The h8 rook holds rank 8, the facing kings hold the d-file: b7b9 mates.
        let (mv, score) = best("4k4/7R1/1R7/9/9/9/9/9/9/3K5 w - - 0 1", 3);
        assert_eq!((mv.as_str(), score), ("b7b9", Score::Mate(1)));
        let (mv, _) = best("4k4/9/9/9/r8/9/9/9/9/R2K5 w - - 0 1", 4);
        assert_eq!(mv, "a0a5");
    }
}
