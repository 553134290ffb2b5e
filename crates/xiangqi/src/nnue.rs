//! Xiangqi features for `tessera-nnue` networks, and the accumulators a [`Position`] keeps when a
//! network evaluates it.
//!
//! Feature set `xiangqi-kf3`: for each perspective, one input per (file of the perspective's own
//! king: left, centre or right palace file) × (piece owner relative to the perspective) × (kind) ×
//! (point seen from the perspective), `3 × 2 × 7 × 90` inputs. Black's perspective reverses the
//! ranks, so both players see their own pieces at the bottom. The king's file is a bucket because
//! where the king stands changes what every attacker is worth: when a king steps to another file,
//! its player's accumulator is recomputed.

use std::sync::Arc;

use tessera_core::Side;
use tessera_nnue::accumulator::{AccumulatorStack, Change};
pub use tessera_nnue::{EmbeddedNetwork, Network, NetworkChoice, NetworkError, Quantisation};

use crate::board::Board;
use crate::types::{file_of, kind_of, rank_of, side_of, Kind, Move, PieceId, FILES, RANKS};

/// The name of the feature set, written into network files.
pub const FEATURE_SET: &str = "xiangqi-kf3";
/// Points on the board.
const POINTS: usize = FILES * RANKS;
/// Inputs of one king bucket: owner × kind × point.
const BUCKET_INPUTS: usize = 2 * 7 * POINTS;
/// Inputs per perspective.
pub const INPUTS: usize = 3 * BUCKET_INPUTS;
/// The king's files (d, e, f) are the palace's.
const PALACE_FIRST_FILE: usize = 3;
/// Most pieces on a board.
const MAX_PIECES: usize = 32;
/// Pairs of accumulators reserved per position: the deepest line a search follows, and more.
const RESERVED_PLIES: usize = 256;

/// The network the engine plays with unless told otherwise (`tessera train` on our own self-play
/// data; docs/xiangqi.md says how it was made). Checked by `the_default_network_loads_and_knows_material`.
pub static DEFAULT_NETWORK: EmbeddedNetwork = EmbeddedNetwork::new(include_bytes!("../nets/default.nnue"), FEATURE_SET);
/// How the default network is named in messages and the `EvalFile` option.
pub const DEFAULT_NETWORK_NAME: &str = tessera_nnue::EMBEDDED_NAME;

/// The embedded default network, decoded once.
#[must_use]
pub fn default_network() -> Arc<Network> {
    DEFAULT_NETWORK.get()
}

/// The feature of a piece of `owner` (0 Red, 1 Black) and `kind` on (`file`, `rank`), seen by
/// `perspective` whose king stands on `king_file`.
#[inline]
fn feature(perspective: usize, king_file: usize, owner: usize, kind: Kind, file: usize, rank: usize) -> usize {
    let bucket = king_file - PALACE_FIRST_FILE;
    let relative_owner = usize::from(owner != perspective);
    let rank = if perspective == 0 { rank } else { RANKS - 1 - rank };
    bucket * BUCKET_INPUTS + (relative_owner * 7 + kind as usize) * POINTS + rank * FILES + file
}

/// The feature of piece `id` on `square`, seen by `perspective` with its king on `king_file`.
#[inline]
fn piece_feature(perspective: usize, king_file: usize, id: PieceId, square: u8) -> usize {
    feature(perspective, king_file, side_of(id).index(), kind_of(id), file_of(square), rank_of(square))
}

/// The active features of `board` for `perspective` (0 Red, 1 Black), written into `out`;
/// returns how many there are. No allocation: the search recomputes these when a king changes file.
fn active(board: &Board, perspective: usize, out: &mut [usize; MAX_PIECES]) -> usize {
    let king_file = file_of(board.king_square(Side::BOTH[perspective]));
    let mut count = 0;
    for id in 16..48u8 {
        let square = board.squares[usize::from(id)];
        if square != 0 {
            out[count] = piece_feature(perspective, king_file, id, square);
            count += 1;
        }
    }
    count
}

/// The accumulators of `network` (which must read [`FEATURE_SET`]) for `board`.
pub(crate) fn accumulators(network: Arc<Network>, board: &Board) -> AccumulatorStack {
    let (mut red, mut black) = ([0; MAX_PIECES], [0; MAX_PIECES]);
    let (red_count, black_count) = (active(board, 0, &mut red), active(board, 1, &mut black));
    AccumulatorStack::new(network, [&red[..red_count], &black[..black_count]], RESERVED_PLIES)
}

/// Pushes the accumulators after `mv`, which moved `moving` and captured `captured` (0 for none);
/// `board` is the board after the move. A king that changed file recomputes its own side's
/// accumulator (all of that side's features changed bucket).
#[inline]
pub(crate) fn play(stack: &mut AccumulatorStack, board: &Board, mv: Move, moving: PieceId, captured: PieceId) {
    let mover = side_of(moving).index();
    let king_changed_file = kind_of(moving) == Kind::King && file_of(mv.from) != file_of(mv.to);
    let mut refreshed = [0; MAX_PIECES];
    let refreshed_count = if king_changed_file { active(board, mover, &mut refreshed) } else { 0 };
    let removed_count = 1 + usize::from(captured != 0);
    let mut added = [0usize; 2];
    let mut removed = [[0usize; 2]; 2];
    for perspective in 0..2 {
        let king_file = file_of(board.king_square(Side::BOTH[perspective]));
        added[perspective] = piece_feature(perspective, king_file, moving, mv.to);
        removed[perspective][0] = piece_feature(perspective, king_file, moving, mv.from);
        if captured != 0 {
            removed[perspective][1] = piece_feature(perspective, king_file, captured, mv.to);
        }
    }
    let change = |perspective: usize| {
        if king_changed_file && perspective == mover {
            Change::Refresh(&refreshed[..refreshed_count])
        } else {
            Change::Update {
                added: std::slice::from_ref(&added[perspective]),
                removed: &removed[perspective][..removed_count],
            }
        }
    };
    stack.push([change(0), change(1)]);
}

/// Takes back the last move; `board` is the board it restores.
pub(crate) fn undo(stack: &mut AccumulatorStack, board: &Board) {
    if !stack.pop() {
        // A move played before the network was attached: recompute the root.
        let mut features = [0; MAX_PIECES];
        for perspective in 0..2 {
            let count = active(board, perspective, &mut features);
            stack.refresh_top(perspective, &features[..count]);
        }
    }
}

/// The packed layout (see `packed.rs`): a 90-bit occupancy mask, then one nibble per occupied
/// point in point order (0–6 Red's kinds, 7–13 Black's), then the side byte.
const MASK_BYTES: usize = 12;
const SIDE_BYTE: usize = MASK_BYTES + 16;

/// The (owner, kind, point) of every piece of a packed position.
fn packed_pieces(packed: &[u8]) -> impl Iterator<Item = (usize, Kind, usize)> + '_ {
    (0..POINTS).filter(|&point| packed[point / 8] & (1 << (point % 8)) != 0).enumerate().map(|(index, point)| {
        let code = usize::from((packed[MASK_BYTES + index / 2] >> (4 * (index % 2))) & 0xF);
        // Data files are checked on reading (`DataReader`); a code past 13 would be a corrupt
        // record, read here as a pawn rather than a panic.
        (code / 7 % 2, Kind::ALL[code % 7], point)
    })
}

/// The features of a packed position, with the files reversed when `mirrored`: the side to
/// move's perspective into `us`, the other's into `them`.
pub(crate) fn packed_features(packed: &[u8], mirrored: bool, us: &mut Vec<usize>, them: &mut Vec<usize>) {
    us.clear();
    them.clear();
    let side = usize::from(packed[SIDE_BYTE] & 1);
    let file_of_point = |point: usize| if mirrored { FILES - 1 - point % FILES } else { point % FILES };
    let mut king_files = [PALACE_FIRST_FILE + 1; 2];
    let mut pieces = [(0, Kind::King, 0); MAX_PIECES];
    let mut count = 0;
    // At most 32 pieces: a corrupt mask with more is cut short rather than read past.
    for (owner, kind, point) in packed_pieces(packed).take(MAX_PIECES) {
        if kind == Kind::King {
            king_files[owner] = file_of_point(point).clamp(PALACE_FIRST_FILE, PALACE_FIRST_FILE + 2);
        }
        pieces[count] = (owner, kind, point);
        count += 1;
    }
    for &(owner, kind, point) in &pieces[..count] {
        let (file, rank) = (file_of_point(point), point / FILES);
        us.push(feature(side, king_files[side], owner, kind, file, rank));
        them.push(feature(1 - side, king_files[1 - side], owner, kind, file, rank));
    }
}

#[cfg(test)]
mod tests {
    use tessera_nnue::TrainingFeatures;

    use super::*;
    use crate::{Moves, Position};
    use tessera_core::{Game, GameExt, Rng};
    use tessera_nnue::PackedPosition;

    /// A random network with the xiangqi shape and a small hidden layer.
    fn random_network(seed: u64) -> Arc<Network> {
        Arc::new(Network::random(FEATURE_SET, INPUTS, 32, seed))
    }

    /// Checks that the position's incremental evaluation is what fresh accumulators give.
    fn assert_evaluation_is_fresh(network: &Arc<Network>, position: &Position) {
        let fresh = accumulators(Arc::clone(network), position.board()).evaluate(position.side_to_move().index());
        assert_eq!(position.nnue_evaluation(), Some(fresh), "{}", position.to_fen());
    }

    /// Takes back every move, checking the evaluation after each.
    fn undo_to_the_start(network: &Arc<Network>, position: &mut Position) {
        while position.ply() > 0 {
            position.undo();
            assert_evaluation_is_fresh(network, position);
        }
    }

    /// Positions with kings off the centre file, captures and checks close at hand.
    const FENS: [&str; 3] = [
        crate::START_FEN,
        "1n1aka3/6r2/1c4n1b/p1p3p2/2b1p4/2c1P3p/P1P3P2/2R1B1RC1/5N3/1N1AKA3 w - - 4 21",
        "3k5/4a4/4b4/9/2n6/9/9/4B4/4A4/3AK1B2 w - - 0 1",
    ];

    #[test]
    fn incremental_accumulators_match_fresh_ones_through_random_games() {
        let network = random_network(3);
        let mut rng = Rng::new(11);
        let mut moves = Moves::new();
        for fen in FENS {
            for _ in 0..20 {
                let mut position: Position = fen.parse().unwrap();
                position.set_network(Some(Arc::clone(&network)));
                let mut plies = 0;
                while plies < 60 {
                    position.generate_legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    if rng.below(8) == 0 && !position.checked {
                        position.play_null_move();
                    } else {
                        position.play(moves[rng.below(moves.len())]);
                    }
                    plies += 1;
                    assert_evaluation_is_fresh(&network, &position);
                }
                undo_to_the_start(&network, &mut position);
            }
        }
    }

    #[test]
    fn the_default_network_loads_and_knows_material() {
        let network = default_network();
        assert_eq!(network.feature_set(), FEATURE_SET);
        let evaluation = |fen: &str| {
            let mut position: Position = fen.parse().unwrap();
            position.set_network(Some(Arc::clone(&network)));
            position.nnue_evaluation().unwrap()
        };
        // The start is about equal (100 is a horse); Black without a rook is lost, for either
        // side to move.
        let start = evaluation(crate::position::START_FEN);
        assert!(start.abs() < 50, "start {start}");
        let red_to_move = evaluation("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        let black_to_move = evaluation("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
        assert!(red_to_move > 150 && black_to_move < -150, "{red_to_move} {black_to_move}");
    }

    #[test]
    fn a_king_changing_file_moves_its_side_to_another_bucket() {
        let network = random_network(9);
        // Red's king steps e0-d0 (another bucket), then d0-d1 (same file), and back.
        let mut position: Position = "3k5/9/3n5/9/9/9/9/9/4A4/4K4 w - - 0 1".parse().unwrap();
        position.set_network(Some(Arc::clone(&network)));
        for text in ["e0d0", "d9e9", "d0d1", "e9e8"] {
            position.try_play(crate::parse_iccs(text).unwrap()).unwrap();
            assert_evaluation_is_fresh(&network, &position);
        }
        undo_to_the_start(&network, &mut position);
    }

    #[test]
    fn moves_before_the_network_was_attached_undo_cleanly() {
        let network = random_network(5);
        let mut position = Position::start();
        let mut moves = Moves::new();
        for _ in 0..4 {
            position.generate_legal_moves(&mut moves);
            position.play(moves[0]);
        }
        position.set_network(Some(Arc::clone(&network)));
        undo_to_the_start(&network, &mut position);
    }

    fn sorted_training_features(position: &Position, mirrored: bool) -> (Vec<usize>, Vec<usize>) {
        let mut packed = [0u8; 32];
        position.pack(&mut packed);
        let (mut us, mut them) = (Vec::new(), Vec::new());
        if mirrored {
            assert!(Position::mirrored_features(&packed, &mut us, &mut them));
        } else {
            Position::features(&packed, &mut us, &mut them);
        }
        us.sort_unstable();
        them.sort_unstable();
        (us, them)
    }

    #[test]
    fn training_features_from_packed_bytes_match_the_board() {
        for fen in FENS.iter().chain(&["3k5/9/9/9/9/9/9/9/9/5K3 b - - 0 1"]) {
            let position: Position = fen.parse().unwrap();
            let side = position.side_to_move().index();
            let mut expected = [[0; MAX_PIECES]; 2];
            let counts = [
                active(position.board(), side, &mut expected[0]),
                active(position.board(), 1 - side, &mut expected[1]),
            ];
            let mut expected: Vec<Vec<usize>> = (0..2).map(|index| expected[index][..counts[index]].to_vec()).collect();
            expected.iter_mut().for_each(|list| list.sort_unstable());
            assert_eq!(sorted_training_features(&position, false), (expected[0].clone(), expected[1].clone()), "{fen}");
        }
    }

    /// The FEN of the position with the files reversed.
    fn mirror_fen(fen: &str) -> String {
        let (placement, rest) = fen.split_once(' ').unwrap();
        let ranks: Vec<String> = placement
            .split('/')
            .map(|rank| {
                let cells: String = rank
                    .chars()
                    .flat_map(|cell| match cell.to_digit(10) {
                        Some(empty) => vec!['1'; empty as usize],
                        None => vec![cell],
                    })
                    .collect();
                // Runs of empty points back into digits.
                let mut rank = String::new();
                let mut empty = 0;
                for cell in cells.chars().rev() {
                    if cell == '1' {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        rank.push_str(&empty.to_string());
                        empty = 0;
                    }
                    rank.push(cell);
                }
                if empty > 0 {
                    rank.push_str(&empty.to_string());
                }
                rank
            })
            .collect();
        format!("{} {rest}", ranks.join("/"))
    }

    #[test]
    fn mirrored_training_features_are_those_of_the_mirrored_board() {
        for fen in FENS.iter().chain(&["3k5/9/9/9/9/9/9/9/9/5K3 b - - 0 1"]) {
            let position: Position = fen.parse().unwrap();
            let mirrored: Position = mirror_fen(fen).parse().unwrap();
            assert_eq!(sorted_training_features(&position, true), sorted_training_features(&mirrored, false), "{fen}");
        }
    }
}
