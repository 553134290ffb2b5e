//! Chess features for `tessera-nnue` networks, and the accumulators a [`Chess`] position keeps
//! when a network evaluates it.
//!
//! Feature set `chess-768`: one input per (piece colour relative to the perspective, piece kind,
//! square seen from the perspective), `2 × 6 × 64` inputs. Black's perspective flips the board
//! vertically, so both players see their own pieces moving up the board.

use std::sync::Arc;

use tessera_nnue::accumulator::{AccumulatorStack, Change};
use tessera_nnue::TrainingFeatures;
pub use tessera_nnue::{EmbeddedNetwork, Network, NetworkChoice, NetworkError};

use crate::board::{Board, NO_PIECE};
use crate::moves::{Move, MoveKind};
use crate::types::Squares;

/// The name of the feature set, written into network files.
pub const FEATURE_SET: &str = "chess-768";
/// Inputs per perspective.
pub const INPUTS: usize = 768;
/// Pairs of accumulators reserved per position: the deepest line a search follows, and more.
const RESERVED_PLIES: usize = 256;
/// The network the engine plays with unless told otherwise (`tessera train` on our own self-play
/// data; docs/chess.md says how it was made). Checked by `the_default_network_loads`.
pub static DEFAULT_NETWORK: EmbeddedNetwork = EmbeddedNetwork::new(include_bytes!("../nets/default.nnue"), FEATURE_SET);
/// How the default network is named in messages and the `EvalFile` option.
pub const DEFAULT_NETWORK_NAME: &str = tessera_nnue::EMBEDDED_NAME;

/// The embedded default network, decoded once.
#[must_use]
pub fn default_network() -> Arc<Network> {
    DEFAULT_NETWORK.get()
}

/// The feature of a piece (mailbox code: colour × 6 + kind) on `square`, seen by `perspective`.
#[inline]
fn feature(perspective: usize, code: u8, square: u8) -> usize {
    let relative_color = usize::from(code / 6 != perspective as u8);
    let kind = usize::from(code % 6);
    let square = if perspective == 0 { square } else { square ^ 56 };
    relative_color * 384 + kind * 64 + usize::from(square)
}

/// Every active feature of `board` for `perspective` (0 White, 1 Black).
fn active(board: &Board, perspective: usize) -> Vec<usize> {
    Squares(board.occupied()).map(|square| feature(perspective, board.mailbox[usize::from(square)], square)).collect()
}

/// The pieces a move puts down and picks up: (mailbox code, square) pairs, at most two each.
struct PieceChanges {
    added: [(u8, u8); 2],
    added_count: usize,
    removed: [(u8, u8); 2],
    removed_count: usize,
}

impl PieceChanges {
    fn of(board: &Board, mv: Move) -> PieceChanges {
        let (from, to) = (mv.from(), mv.to());
        let code = board.mailbox[usize::from(from)];
        let mut changes = PieceChanges { added: [(0, 0); 2], added_count: 0, removed: [(0, 0); 2], removed_count: 0 };
        match mv.kind() {
            Some(MoveKind::Castle) => {
                let rook = board.mailbox[usize::from(to)];
                let (king_to, rook_to) = Board::castle_targets(board.side_to_move(), from, to);
                changes.remove(code, from);
                changes.remove(rook, to);
                changes.add(code, king_to);
                changes.add(rook, rook_to);
            }
            Some(MoveKind::EnPassant) => {
                let captured = to ^ 8;
                changes.remove(code, from);
                changes.remove(board.mailbox[usize::from(captured)], captured);
                changes.add(code, to);
            }
            kind => {
                let captured = board.mailbox[usize::from(to)];
                changes.remove(code, from);
                if captured != NO_PIECE {
                    changes.remove(captured, to);
                }
                let placed = match kind {
                    Some(MoveKind::Promotion(kind)) => code / 6 * 6 + kind.index() as u8,
                    _ => code,
                };
                changes.add(placed, to);
            }
        }
        changes
    }

    fn add(&mut self, code: u8, square: u8) {
        self.added[self.added_count] = (code, square);
        self.added_count += 1;
    }

    fn remove(&mut self, code: u8, square: u8) {
        self.removed[self.removed_count] = (code, square);
        self.removed_count += 1;
    }
}

/// The accumulators of `network` (which must read [`FEATURE_SET`]) for `board`.
pub(crate) fn accumulators(network: Arc<Network>, board: &Board) -> AccumulatorStack {
    let (white, black) = (active(board, 0), active(board, 1));
    AccumulatorStack::new(network, [&white, &black], RESERVED_PLIES)
}

/// Pushes the accumulators after `mv`, played on `board` (the board before the move).
#[inline]
pub(crate) fn play(stack: &mut AccumulatorStack, board: &Board, mv: Move) {
    let changes = PieceChanges::of(board, mv);
    let mut added = [[0usize; 2]; 2];
    let mut removed = [[0usize; 2]; 2];
    for perspective in 0..2 {
        for (slot, &(code, square)) in added[perspective].iter_mut().zip(&changes.added[..changes.added_count]) {
            *slot = feature(perspective, code, square);
        }
        for (slot, &(code, square)) in removed[perspective].iter_mut().zip(&changes.removed[..changes.removed_count]) {
            *slot = feature(perspective, code, square);
        }
    }
    let change = |perspective: usize| Change::Update {
        added: &added[perspective][..changes.added_count],
        removed: &removed[perspective][..changes.removed_count],
    };
    stack.push([change(0), change(1)]);
}

/// Takes back the last move; `board` is the position it restores.
pub(crate) fn undo(stack: &mut AccumulatorStack, board: &Board) {
    if !stack.pop() {
        // A move played before the network was attached: recompute the root.
        for perspective in 0..2 {
            stack.refresh_top(perspective, &active(board, perspective));
        }
    }
}

impl TrainingFeatures for Board {
    const FEATURE_SET: &'static str = FEATURE_SET;
    const INPUTS: usize = INPUTS;

    fn features(packed: &[u8], us: &mut Vec<usize>, them: &mut Vec<usize>) {
        packed_features(packed, 0, us, them);
    }

    fn mirrored_features(packed: &[u8], us: &mut Vec<usize>, them: &mut Vec<usize>) -> bool {
        // A castling right ties the value to the king's file; without one, reversing the files
        // (a to h) changes nothing (en passant stays on the mirrored file).
        let has_castling_rook = packed_pieces(packed).any(|(nibble, _)| nibble == 12 || nibble == 13);
        !has_castling_rook && {
            packed_features(packed, 7, us, them);
            true
        }
    }
}

/// The (nibble, square) pairs of a packed position (see `packed.rs`).
fn packed_pieces(packed: &[u8]) -> impl Iterator<Item = (u8, u8)> + '_ {
    let occupied = u64::from_le_bytes(packed[..8].try_into().expect("packed chess positions have 28 bytes"));
    Squares(occupied).enumerate().map(|(index, square)| ((packed[8 + index / 2] >> (4 * (index % 2))) & 0xF, square))
}

/// The features of a packed position with every square XORed by `flip` (0, or 7 for the files
/// reversed): the side to move's perspective into `us`, the other's into `them`.
fn packed_features(packed: &[u8], flip: u8, us: &mut Vec<usize>, them: &mut Vec<usize>) {
    us.clear();
    them.clear();
    let side = usize::from(packed[24] & 0x80 != 0);
    for (nibble, square) in packed_pieces(packed) {
        // Castling rooks (12, 13) are rooks of their colour.
        let code = match nibble {
            12 => 3,
            13 => 9,
            code => code,
        };
        us.push(feature(side, code, square ^ flip));
        them.push(feature(1 - side, code, square ^ flip));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Chess, Rules};
    use tessera_core::{Game, Rng};
    use tessera_nnue::PackedPosition;

    /// A random network with the chess shape and a small hidden layer.
    pub(crate) fn random_network(seed: u64) -> Arc<Network> {
        Arc::new(Network::random(FEATURE_SET, INPUTS, 32, seed))
    }

    fn fresh_evaluation(network: &Arc<Network>, board: &Board) -> i32 {
        accumulators(Arc::clone(network), board).evaluate(board.side_to_move().index())
    }

    #[test]
    fn incremental_accumulators_match_fresh_ones_through_random_games() {
        let network = random_network(3);
        let fens = [
            crate::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/P1k5/8/8/8/8/5Kp1/8 w - - 0 1",
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
        ];
        let mut rng = Rng::new(11);
        for fen in fens {
            for _ in 0..20 {
                let mut game = Chess::from_fen(fen, Rules::CHESS960).unwrap();
                game.set_network(Some(Arc::clone(&network)));
                let mut plies = 0;
                let mut moves = crate::Moves::new();
                while plies < 40 {
                    game.generate_legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    game.play(moves[rng.below(moves.len())]);
                    plies += 1;
                    assert_eq!(
                        game.nnue_evaluation(),
                        Some(fresh_evaluation(&network, game.board())),
                        "{}",
                        game.fen()
                    );
                }
                while game.ply() > 0 {
                    game.undo();
                    assert_eq!(game.nnue_evaluation(), Some(fresh_evaluation(&network, game.board())));
                }
            }
        }
    }

    #[test]
    fn moves_before_the_network_was_attached_undo_cleanly() {
        let network = random_network(5);
        let mut game = Chess::new(Rules::STANDARD);
        let mut moves = crate::Moves::new();
        for _ in 0..4 {
            game.generate_legal_moves(&mut moves);
            game.play(moves[0]);
        }
        game.set_network(Some(Arc::clone(&network)));
        game.play_null_move();
        game.undo();
        for _ in 0..4 {
            game.undo();
            assert_eq!(game.nnue_evaluation(), Some(fresh_evaluation(&network, game.board())));
        }
    }

    #[test]
    fn the_default_network_loads() {
        let network = default_network();
        assert_eq!(network.feature_set(), FEATURE_SET);
        let mut game = Chess::new(Rules::STANDARD);
        game.set_network(Some(network));
        // The start position is about equal for the side to move.
        assert!(game.nnue_evaluation().unwrap().abs() < 100, "{:?}", game.nnue_evaluation());
    }

    #[test]
    fn training_features_from_packed_bytes_match_the_board() {
        for fen in [crate::START_FEN, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 20", "8/8/3k4/8/2P5/8/8/4K3 b - - 0 1"] {
            let board = Board::from_fen(fen).unwrap();
            let mut packed = [0u8; 28];
            board.pack(&mut packed);
            let (mut us, mut them) = (Vec::new(), Vec::new());
            Board::features(&packed, &mut us, &mut them);
            let side = board.side_to_move().index();
            let (mut expected_us, mut expected_them) = (active(&board, side), active(&board, 1 - side));
            for list in [&mut us, &mut them, &mut expected_us, &mut expected_them] {
                list.sort_unstable();
            }
            assert_eq!((us, them), (expected_us, expected_them), "{fen}");
        }
    }

    #[test]
    fn mirrored_training_features_are_those_of_the_mirrored_board() {
        let packed_of = |fen: &str| {
            let mut packed = [0u8; 28];
            Board::from_fen(fen).unwrap().pack(&mut packed);
            packed
        };
        let sorted_features = |packed: &[u8], mirrored: bool| {
            let (mut us, mut them) = (Vec::new(), Vec::new());
            if mirrored {
                assert!(Board::mirrored_features(packed, &mut us, &mut them));
            } else {
                Board::features(packed, &mut us, &mut them);
            }
            us.sort_unstable();
            them.sort_unstable();
            (us, them)
        };
        // The same positions with the files reversed (a to h), without castling rights.
        let pairs = [
            (
                "r1bq1rk1/pp3ppp/2n1pn2/3p4/1bPP4/2N1PN2/PP3PPP/R2QKB1R b - - 2 8",
                "1kr1qb1r/ppp3pp/2np1n2/4p3/4PPb1/2NP1N2/PPP3PP/R1BKQ2R b - - 2 8",
            ),
            ("8/8/3k4/8/2P5/8/8/4K3 w - - 0 1", "8/8/4k3/8/5P2/8/8/3K4 w - - 0 1"),
        ];
        for (fen, mirrored_fen) in pairs {
            assert_eq!(
                sorted_features(&packed_of(fen), true),
                sorted_features(&packed_of(mirrored_fen), false),
                "{fen}"
            );
        }
        // A castling right has no mirror image.
        let (mut us, mut them) = (Vec::new(), Vec::new());
        assert!(!Board::mirrored_features(&packed_of(crate::START_FEN), &mut us, &mut them));
    }
}
