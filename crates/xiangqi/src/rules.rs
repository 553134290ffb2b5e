//! The rules beyond move generation: the move-count draw and repetitions judged as the Asian
//! computer rules do (perpetual check loses for the checker, perpetual chase loses for the chaser,
//! everything else is a draw). This module holds the rules as a value and what counts as a chase
//! on a board; the judge that reads a position's history is `position::repetition`.

use tessera_core::Side;

use crate::board::Board;
use crate::movegen::{Generate, Moves};
use crate::types::{kind_of, on_own_half, Kind, Move};

/// The rules a game is played under: a value type with named presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Plies without capture after which the game is drawn (Chinese rules: 60 moves = 120 plies).
    pub move_limit_plies: u16,
    /// Whether perpetual chases lose (Asian rules); when off only perpetual checks lose.
    pub judge_chases: bool,
}

impl Rules {
    /// Asian computer rules: perpetual check and perpetual chase lose, 60 moves without capture draw.
    pub const ASIAN: Rules = Rules { move_limit_plies: 120, judge_chases: true };
    /// Perpetual check loses; every other repetition is a draw.
    pub const CHECKS_ONLY: Rules = Rules { move_limit_plies: 120, judge_chases: false };
}

impl Default for Rules {
    fn default() -> Self {
        Rules::ASIAN
    }
}

/// The identities (as a mask of offsets) of enemy pieces the piece on `from` could take.
fn capturable_from(board: &Board, from: crate::types::Square, side: Side) -> u16 {
    let mut captures = Moves::new();
    board.pseudo_legal_moves(side, Generate::Captures, &mut captures);
    captures
        .iter()
        .filter(|capture| capture.from == from)
        .fold(0, |mask, capture| mask | 1 << (board.piece_at(capture.to) & 15))
}

/// The enemy pieces (as a mask of identity offsets) that `mv`, just played by `mover` on
/// `board` (capturing `captured`), chases: pieces the moved piece newly attacks and could legally
/// take, which are a rook attacked by a horse or cannon, or unprotected and not of the attacker's
/// own kind. Kings and pawns may chase freely, a pawn that has not crossed the river may be
/// chased, and a threat the piece already made before moving is not a new chase.
pub(crate) fn chased_pieces(board: &Board, mv: Move, captured: crate::types::PieceId, mover: Side) -> u16 {
    let attacker = board.piece_at(mv.to);
    let attacker_kind = kind_of(attacker);
    if matches!(attacker_kind, Kind::King | Kind::Pawn) {
        return 0;
    }
    let enemy = mover.opponent();
    let mut before = *board;
    before.unmake(mv, captured);
    let already_attacked = capturable_from(&before, mv.from, mover);
    let mut captures = Moves::new();
    board.pseudo_legal_moves(mover, Generate::Captures, &mut captures);
    let mut mask = 0u16;
    for &capture in captures.iter().filter(|capture| capture.from == mv.to) {
        let victim = board.piece_at(capture.to);
        let victim_kind = kind_of(victim);
        let uncrossed_pawn = victim_kind == Kind::Pawn && on_own_half(enemy.index(), capture.to);
        if victim_kind == Kind::King || uncrossed_pawn || already_attacked & (1 << (victim & 15)) != 0 {
            continue;
        }
        if board.king_attacked_after(mover, capture) {
            continue;
        }
        let chases = if victim_kind == Kind::Rook && matches!(attacker_kind, Kind::Horse | Kind::Cannon) {
            true
        } else if victim_kind == attacker_kind {
            false
        } else {
            let mut after = *board;
            after.make(capture);
            !after.attacked_by(capture.to, enemy)
        };
        if chases {
            mask |= 1 << (victim & 15);
        }
    }
    mask
}

#[cfg(test)]
mod tests {
    use tessera_core::{Game, GameExt, Outcome, Side};

    use crate::notation::parse_iccs;
    use crate::Position;

    fn play_line(position: &mut Position, line: &str) {
        for text in line.split_whitespace() {
            let mv = parse_iccs(text).unwrap_or_else(|error| panic!("{text}: {error}"));
            position.try_play(mv).unwrap_or_else(|error| panic!("{text} in {position:?}: {error}"));
        }
    }

    fn position(fen: &str) -> Position {
        fen.parse().unwrap_or_else(|error| panic!("{fen}: {error}"))
    }

    #[test]
    fn perpetual_check_loses_for_the_checker() {
        // Red's rook checks along ranks 9 and 8 while Black's king steps between e9 and e8.
        let mut game = position("4k4/9/9/9/9/9/9/9/4A4/R2K5 w - - 0 1");
        play_line(&mut game, "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9");
        assert_eq!(game.rule_outcome(None), None, "twice on the board is not yet judged");
        play_line(&mut game, "a8a9");
        assert_eq!(game.rule_outcome(None), Some(Outcome::Win(Side::Second)));
        assert_eq!(game.repetition_verdict(), Some("perpetual check"));
        let mut moves = crate::Moves::new();
        game.generate_legal_moves(&mut moves);
        assert!(moves.is_empty(), "the game is over");
    }

    #[test]
    fn search_judges_the_first_repetition_after_the_root() {
        let mut game = position("4k4/9/9/9/9/9/9/9/4A4/R2K5 w - - 0 1");
        play_line(&mut game, "a0a9 e9e8 a9a8 e8e9 a8a9");
        assert_eq!(game.rule_outcome(Some(0)), Some(Outcome::Win(Side::Second)));
        assert_eq!(game.rule_outcome(Some(2)), None);
    }

    #[test]
    fn idle_repetition_is_a_draw() {
        let mut game = position("3k5/9/9/9/9/9/9/9/9/4K1R2 w - - 0 1");
        play_line(&mut game, "g0g1 d9d8 g1g0 d8d9 g0g1 d9d8 g1g0 d8d9");
        assert_eq!(game.rule_outcome(None), Some(Outcome::Draw));
        assert_eq!(game.repetition_verdict(), Some("repetition"));
    }

    #[test]
    fn perpetual_chase_of_an_unprotected_piece_loses() {
        // Red's rook keeps attacking Black's lone horse, which flees between two squares.
        let mut game = position("3k5/9/9/9/9/9/9/n8/9/4K3R w - - 0 1");
        play_line(&mut game, "i0i2 a2c3 i2i3 c3a2 i3i2 a2c3 i2i3 c3a2 i3i2");
        assert_eq!(game.rule_outcome(None), Some(Outcome::Win(Side::Second)));
        assert_eq!(game.repetition_verdict(), Some("perpetual chase"));
    }

    #[test]
    fn keeping_up_an_old_threat_is_no_chase() {
        // The rook attacked the horse before each of its moves: no new threat, so a draw.
        let mut game = position("3k5/9/9/9/9/9/9/n7R/9/4K4 w - - 0 1");
        play_line(&mut game, "i2h2 d9d8 h2i2 d8d9 i2h2 d9d8 h2i2 d8d9");
        assert_eq!(game.rule_outcome(None), Some(Outcome::Draw));
        assert_eq!(game.repetition_verdict(), Some("repetition"));
    }

    #[test]
    fn sixty_moves_without_capture_draw() {
        let game = position("3k5/9/9/9/9/9/9/9/9/4K1R2 w - - 120 80");
        assert_eq!(game.rule_outcome(None), Some(Outcome::Draw));
        let game = position("3k5/9/9/9/9/9/9/9/9/4K1R2 w - - 119 80");
        assert_eq!(game.rule_outcome(None), None);
    }
}
