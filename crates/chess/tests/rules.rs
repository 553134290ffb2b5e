//! Rules beyond move generation: the core's invariant harness, draws by rule, mates, and the
//! play/undo path of `Chess` (the perft tests use copy-make on boards).

use tessera_chess::{parse_san, Chess, Move, Rules, Uci};
use tessera_core::{harness::check_game_invariants, Game, GameExt, Outcome, PackedMove, Side};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const CHESS960: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";

#[test]
fn harness_from_start_kiwipete_and_960() {
    assert!(check_game_invariants(&Chess::default(), 40, 200, 1) > 2_000);
    assert!(check_game_invariants(&Chess::from_fen(KIWIPETE, Rules::STANDARD).unwrap(), 30, 150, 2) > 1_000);
    assert!(check_game_invariants(&Chess::from_fen(CHESS960, Rules::CHESS960).unwrap(), 30, 150, 3) > 1_000);
}

fn play_san(position: &mut Chess, moves: &str) {
    for san in moves.split_whitespace() {
        let mv = parse_san(position, san).unwrap_or_else(|error| panic!("{san}: {error}"));
        position.try_play(mv).unwrap();
    }
}

#[test]
fn threefold_repetition_and_twofold_after_the_search_root() {
    let mut position = Chess::default();
    play_san(&mut position, "Nf3 Nf6 Ng1 Ng8");
    assert_eq!(position.rule_outcome(None), None, "only the second occurrence");
    assert_eq!(position.rule_outcome(Some(0)), Some(Outcome::Draw), "repeated after the root");
    assert_eq!(position.rule_outcome(Some(1)), None, "the first occurrence is before the root");
    play_san(&mut position, "Nf3 Nf6 Ng1 Ng8");
    assert_eq!(position.rule_outcome(None), Some(Outcome::Draw), "threefold");
}

#[test]
fn fifty_moves_and_insufficient_material() {
    let fifty = Chess::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 100 80", Rules::STANDARD).unwrap();
    assert_eq!(fifty.rule_outcome(None), Some(Outcome::Draw));
    let mated_at_fifty = Chess::from_fen("R3k3/8/4K3/8/8/8/8/8 b - - 100 80", Rules::STANDARD).unwrap();
    assert_eq!(mated_at_fifty.rule_outcome(None), None);
    assert_eq!(mated_at_fifty.outcome(), Some(Outcome::Win(Side::First)));
    for fen in ["4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/2N1K3 w - - 0 1", "2b1k3/8/8/8/8/8/8/3BK3 w - - 0 1"]
    {
        let position = Chess::from_fen(fen, Rules::STANDARD).unwrap();
        assert_eq!(position.rule_outcome(None), Some(Outcome::Draw), "{fen}");
    }
    let opposite_bishops = Chess::from_fen("3bk3/8/8/8/8/8/8/3BK3 w - - 0 1", Rules::STANDARD).unwrap();
    assert_eq!(opposite_bishops.rule_outcome(None), None);
}

#[test]
fn mate_and_stalemate() {
    let mut fools = Chess::default();
    play_san(&mut fools, "f3 e5 g4 Qh4#");
    assert_eq!(fools.outcome(), Some(Outcome::Win(Side::Second)));
    let stalemate = Chess::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Rules::STANDARD).unwrap();
    assert_eq!(stalemate.outcome(), Some(Outcome::Draw));
}

#[test]
fn is_legal_refuses_every_decoded_garbage_code() {
    let position = Chess::from_fen(KIWIPETE, Rules::STANDARD).unwrap();
    let mut legal = tessera_chess::Moves::new();
    position.generate_legal_moves(&mut legal);
    let accepted = (0..0x8000u16).map(Move::from_bits).filter(|&mv| position.is_legal(mv)).count();
    assert_eq!(accepted, legal.len());
}

#[test]
fn chess960_castling_king_takes_rook() {
    // King on b1, rook on a1: queen-side castling puts the king on c1 and the rook on d1.
    let mut position = Chess::from_fen("1r2k3/8/8/8/8/8/8/RK6 w A - 0 1", Rules::CHESS960).unwrap();
    let notation = Uci { chess960: true };
    // The b8 rook gives check: no castling out of it.
    assert!(!position.is_legal(notation.parse(&position, "b1a1").unwrap()), "castling out of check");
    assert!(!position.is_legal(tessera_chess::Move::new(1, 0, tessera_chess::MoveKind::Castle)));
    position = Chess::from_fen("2r1k3/8/8/8/8/8/8/RK6 w A - 0 1", Rules::CHESS960).unwrap();
    assert!(!position.is_legal(notation.parse(&position, "b1a1").unwrap()), "c1 is attacked");
    position = Chess::from_fen("4k3/8/8/8/8/8/8/RK6 w A - 0 1", Rules::CHESS960).unwrap();
    assert!(position.is_legal(notation.parse(&position, "b1a1").unwrap()));
    position.try_play(notation.parse(&position, "b1a1").unwrap()).unwrap();
    assert_eq!(position.fen(), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
}

#[test]
fn clocks_at_their_limits_do_not_overflow() {
    let mut position = Chess::from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 65535 65535", Rules::STANDARD).unwrap();
    play_san(&mut position, "Kd7 Ra2");
    assert_eq!(position.rule_outcome(None), Some(Outcome::Draw));
    assert!(position.fen().ends_with("65535 65535"));
}
