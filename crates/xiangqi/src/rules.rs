//! The rules beyond move generation: the move-count draw and repetitions judged as the Asian
//! computer rules do (perpetual check loses for the checker, perpetual chase loses for the chaser,
//! everything else is a draw). This module holds the rules as a value and what counts as a chase
//! on a board; the judge that reads a position's history is `position::repetition`.

use tessera_core::Side;

use crate::board::Board;
use crate::movegen::{Generate, Moves};
use crate::types::{kind_of, on_own_half, Kind, Move, Square};

/// The rules a game is played under: a value type with named presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Plies without capture after which the game is drawn (Chinese rules: 60 moves = 120 plies).
    pub move_limit_plies: u16,
    /// Checks by one side since the last capture that count towards `move_limit_plies`; each
    /// further check and its reply do not (Chinese rules: ten).
    pub counted_checks: u16,
    /// Whether perpetual chases lose (Asian rules); when off only perpetual checks lose.
    pub judge_chases: bool,
}

impl Rules {
    /// Asian computer rules: perpetual check and perpetual chase lose, 60 moves without capture draw.
    pub const ASIAN: Rules = Rules { move_limit_plies: 120, counted_checks: 10, judge_chases: true };
    /// Perpetual check loses; every other repetition is a draw.
    pub const CHECKS_ONLY: Rules = Rules { move_limit_plies: 120, counted_checks: 10, judge_chases: false };
}

impl Default for Rules {
    fn default() -> Self {
        Rules::ASIAN
    }
}

/// The points of the pieces giving check to one side's king: a set of board cells.
#[derive(Clone, Copy, Default)]
struct Checkers([u64; 4]);

impl Checkers {
    /// The pieces checking `side`'s king on `board`.
    fn of(board: &Board, side: Side) -> Checkers {
        let mut checkers = Checkers::default();
        board.king_attackers_after(side, Move::new(0, 0), |square| {
            checkers.0[usize::from(square >> 6)] |= 1 << (square & 63);
            false
        });
        checkers
    }

    fn contains(&self, square: Square) -> bool {
        self.0[usize::from(square >> 6)] & (1 << (square & 63)) != 0
    }
}

/// Whether `side` may play `mv` on `board` for the chase test: its king comes under no new
/// attack, a check already given (`checkers`) not counted. A check is answered on the next move;
/// it does not make a piece unprotected or a capture impossible for the chase rules (the two
/// peers judge it so: Pikafish's `chase_legal`, Fairy-Stockfish's pseudo-legal roots).
fn legal(board: &Board, mv: Move, side: Side, checkers: &Checkers) -> bool {
    !board.king_attackers_after(side, mv, |square| !checkers.contains(square))
}

/// Whether `side` (in check from `checkers`) could take back on the point `capture` (by the other
/// side) goes to.
fn retaken(board: &Board, capture: Move, side: Side, checkers: &Checkers) -> bool {
    let mut after = *board;
    after.make(capture);
    let mut replies = Moves::new();
    after.pseudo_legal_moves(side, Generate::Captures, &mut replies);
    replies.iter().any(|&reply| reply.to == capture.to && legal(&after, reply, side, checkers))
}

/// The pieces `side`'s pieces chase on `board`, as a mask of victim offsets for each attacker
/// offset. A piece chases an enemy piece it can legally take when the victim is worth more (a
/// rook attacked by a horse, cannon, elephant or advisor; a horse or cannon by an elephant or
/// advisor), or when the victim cannot be legally retaken and is not of the attacker's own kind
/// — or is, but cannot legally take the attacker back (a pinned piece, a horse whose leg is
/// blocked). Kings and pawns chase nothing; kings and pawns that have not crossed the river are
/// never chased. Legality counts throughout (a pinned piece protects nothing), checks already on
/// the board aside.
fn chases(board: &Board, side: Side) -> [u16; 16] {
    let enemy = side.opponent();
    let (our_checkers, their_checkers) = (Checkers::of(board, side), Checkers::of(board, enemy));
    let mut captures = Moves::new();
    board.pseudo_legal_moves(side, Generate::Captures, &mut captures);
    // The enemy's captures on this board, for the same-kind test: generated at most once, and
    // only if some candidate needs them.
    let replies = std::cell::OnceCell::new();
    let mut chased = [0u16; 16];
    for &capture in captures.iter() {
        let (attacker, victim) = (board.piece_at(capture.from), board.piece_at(capture.to));
        let (attacker_kind, victim_kind) = (kind_of(attacker), kind_of(victim));
        let uncrossed_pawn = victim_kind == Kind::Pawn && on_own_half(enemy.index(), capture.to);
        if matches!(attacker_kind, Kind::King | Kind::Pawn) || victim_kind == Kind::King || uncrossed_pawn {
            continue;
        }
        if !legal(board, capture, side, &our_checkers) {
            continue;
        }
        let worth_more = matches!(
            (attacker_kind, victim_kind),
            (Kind::Horse | Kind::Cannon | Kind::Elephant | Kind::Advisor, Kind::Rook)
                | (Kind::Elephant | Kind::Advisor, Kind::Horse | Kind::Cannon)
        );
        let takes_back = || {
            let back = Move::new(capture.to, capture.from);
            let replies = replies.get_or_init(|| {
                let mut replies = Moves::new();
                board.pseudo_legal_moves(enemy, Generate::Captures, &mut replies);
                replies
            });
            replies.contains(&back) && legal(board, back, enemy, &their_checkers)
        };
        if worth_more
            || (!retaken(board, capture, enemy, &their_checkers) && (attacker_kind != victim_kind || !takes_back()))
        {
            chased[usize::from(attacker & 15)] |= 1 << (victim & 15);
        }
    }
    chased
}

/// The enemy pieces (as a mask of identity offsets) that `mv`, just played by `mover` on `board`
/// (capturing `captured`), chases: the attacks of [`chases`] that are new after the move — made by
/// the moved piece or uncovered by it, or made a chase by what it took — pairing each attacker with
/// its victim, so that a threat kept up, by the same piece on the same victim, is not a new chase.
pub(crate) fn chased_pieces(board: &Board, mv: Move, captured: crate::types::PieceId, mover: Side) -> u16 {
    let mut before = *board;
    before.unmake(mv, captured);
    let (old, new) = (chases(&before, mover), chases(board, mover));
    old.iter().zip(new).fold(0, |mask, (&old, new)| mask | (new & !old))
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

    /// Whether Red's pieces chase anything in `fen`.
    fn red_chases(fen: &str) -> bool {
        super::chases(position(fen).board(), Side::First).iter().any(|&victims| victims != 0)
    }

    #[test]
    fn a_chase_needs_a_victim_worth_more_or_one_no_legal_move_retakes() {
        // An elephant attacking a protected horse: worth more, chased.
        assert!(red_chases("2r1k4/9/9/9/9/2n6/9/4B4/9/3K5 w - - 0 1"));
        // A rook attacking a horse the c7 rook protects: no chase.
        assert!(!red_chases("9/9/2rk5/9/9/2n6/9/2R6/9/4K4 w - - 0 1"));
        // The same with the protector pinned to its king by the a7 rook: it protects nothing.
        assert!(red_chases("9/9/R1rk5/9/9/2n6/9/2R6/9/4K4 w - - 0 1"));
        // Without the c2 rook: the pinning rook attacks a rook that can take it back, no chase.
        assert!(!red_chases("9/9/R1rk5/9/9/2n6/9/9/9/4K4 w - - 0 1"));
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

    #[test]
    fn a_third_repetition_is_judged_over_all_moves_since_the_first() {
        // From a match game: the position stands for the third time after a cycle of Red checks,
        // but Red's moves between its first and second appearance were not all checks. Both peers
        // call it a draw; judging the last cycle alone would give Black the win.
        let mut game = position("8R/4ak3/4ba3/9/7rp/9/9/9/4A4/4KA3 w - - 66 107");
        play_line(
            &mut game,
            "e1d0 e8d7 d0e1 h5g5 i9i7 d7e8 i7i9 e7c5 i9i8 f8f9 i8i9 f9f8 i9i7 c5e7 i7i9 g5f5 i9i8 f8f9 \
             i8i9 f9f8 i9i6 f5h5 i6i8 f8f9 i8i9 f9f8 i9i8 f8f9 i8i9 f9f8",
        );
        assert_eq!(game.rule_outcome(None), Some(Outcome::Draw));
    }

    /// Thirteen rook checks in a row, no position a third time: the three beyond ten do not count,
    /// each with its reply, so the count ends six plies later than the plies alone would.
    const THIRTEEN_CHECKS: &str = "a1e1 e9f9 e1f1 f9e9 f1e1 e9f9 e1f1 f9e9 f1f9 e9e8 f9f8 e8e7 f8f7 \
        e7e8 f7e7 e8f8 e7f7 f8e8 f7e7 e8f8 e7e8 f8f7 e8f8 f7e7 f8e8 e7f7";

    #[test]
    fn checks_beyond_ten_do_not_count_towards_sixty_moves() {
        for (plies_before, drawn) in [(99, false), (100, true)] {
            let mut game = position(&format!("4k4/9/9/9/9/9/9/9/R8/3K5 w - - {plies_before} 1"));
            play_line(&mut game, THIRTEEN_CHECKS);
            assert_eq!(game.quiet_plies(), plies_before + 26);
            assert_eq!(game.move_limit_draw(), drawn, "{plies_before} plies before the checks");
            assert_eq!(game.rule_outcome(None), drawn.then_some(Outcome::Draw));
        }
    }

    #[test]
    fn a_mate_on_the_last_counted_ply_wins() {
        let mut game = position("3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 119 80");
        play_line(&mut game, "b0b9");
        assert_eq!(game.quiet_plies(), 120);
        assert_eq!(game.outcome(), Some(Outcome::Win(Side::First)));
        // Any other move on that ply draws.
        let mut game = position("3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 119 80");
        play_line(&mut game, "b0b1");
        assert_eq!(game.outcome(), Some(Outcome::Draw));
    }
}
