//! Gomoku positions in training-data files (`tessera-nnue`'s [`PackedPosition`]): 124 bytes.
//!
//! | bytes | field |
//! |---|---|
//! | 1 | variant: 0 freestyle, 1 standard, 2 renju, 3 caro, 4 caro with overlines |
//! | 1 | width (5–22) |
//! | 1 | height (5–22) |
//! | 121 | two bits per point, row by row from the top left, low bits first: 0 empty, 1 black, 2 white |
//!
//! The side to move follows from the stones (black when both have as many). The order the stones
//! were played in is not kept: an unpacked board places them black, white, black, … in point order,
//! so a renju foul or a five of the past is not recorded, only the stones.

use tessera_core::Side;
use tessera_nnue::PackedPosition;

use crate::board::Board;
use crate::point::Point;
use crate::rules::{Rules, RulesError, Variant, MAX_SIDE};

const HEADER: usize = 3;

/// Why packed bytes are not a gomoku position.
#[derive(Debug, thiserror::Error)]
pub enum UnpackError {
    /// The byte slice has the wrong length.
    #[error("a packed gomoku position has {expected} bytes, not {found}", expected = Board::BYTES)]
    Length {
        /// The length given.
        found: usize,
    },
    /// The variant byte names no variant.
    #[error("packed gomoku position: unknown variant {0}")]
    Variant(u8),
    /// The board size is out of range.
    #[error("packed gomoku position: {0}")]
    Size(#[from] RulesError),
    /// A point code that names no stone, or a stone off the board.
    #[error("packed gomoku position: bad point code")]
    BadPoint,
    /// Black must have as many stones as white or one more.
    #[error("packed gomoku position: {black} black and {white} white stones")]
    StoneCounts {
        /// Black stones.
        black: usize,
        /// White stones.
        white: usize,
    },
}

impl PackedPosition for Board {
    const GAME: &'static str = "gomoku";
    const BYTES: usize = HEADER + (MAX_SIDE as usize * MAX_SIDE as usize).div_ceil(4);
    type Error = UnpackError;

    fn pack(&self, out: &mut [u8]) {
        out.fill(0);
        let rules = self.game_rules();
        out[0] = rules.variant.index() as u8;
        out[1] = rules.width;
        out[2] = rules.height;
        for (index, point) in points(rules).enumerate() {
            let code = match self.stone(point) {
                None => 0,
                Some(Side::First) => 1,
                Some(Side::Second) => 2,
            };
            out[HEADER + index / 4] |= code << (2 * (index % 4));
        }
    }

    fn unpack(bytes: &[u8]) -> Result<Board, UnpackError> {
        if bytes.len() != Self::BYTES {
            return Err(UnpackError::Length { found: bytes.len() });
        }
        let variant = *Variant::ALL.get(usize::from(bytes[0])).ok_or(UnpackError::Variant(bytes[0]))?;
        let rules = Rules::new(variant, u32::from(bytes[1]), u32::from(bytes[2]))?;
        let code = |index: usize| (bytes[HEADER + index / 4] >> (2 * (index % 4))) & 3;
        let area = usize::from(rules.width) * usize::from(rules.height);
        if (area..4 * (Self::BYTES - HEADER)).any(|index| code(index) != 0) {
            return Err(UnpackError::BadPoint);
        }
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for (index, point) in points(&rules).enumerate() {
            match code(index) {
                0 => {}
                1 => black.push(point),
                2 => white.push(point),
                _ => return Err(UnpackError::BadPoint),
            }
        }
        if black.len() != white.len() && black.len() != white.len() + 1 {
            return Err(UnpackError::StoneCounts { black: black.len(), white: white.len() });
        }
        let mut board = Board::new(rules);
        for (index, point) in black.iter().enumerate() {
            board.put(board.cell(*point), Side::First);
            if let Some(&point) = white.get(index) {
                board.put(board.cell(point), Side::Second);
            }
        }
        Ok(board)
    }
}

/// The points of a board in packing order.
fn points(rules: &Rules) -> impl Iterator<Item = Point> {
    let (width, height) = (rules.width, rules.height);
    (0..height).flat_map(move |y| (0..width).map(move |x| Point::new(x, y)))
}

#[cfg(test)]
mod tests {
    use tessera_core::Game;

    use super::*;

    #[test]
    fn positions_survive_packing_with_their_tables() {
        let mut rng = tessera_core::Rng::new(5);
        let mut moves = crate::Moves::new();
        let mut bytes = [0u8; Board::BYTES];
        for rules in [Rules::FREESTYLE_15, Rules::RENJU_15, Rules::new(Variant::Caro, 22, 7).unwrap()] {
            let mut board = Board::new(rules);
            while board.outcome().is_none() && board.ply() < 60 {
                board.pack(&mut bytes);
                let unpacked = Board::unpack(&bytes).unwrap();
                assert_eq!(unpacked.game_rules(), board.game_rules());
                assert_eq!(unpacked.to_move(), board.to_move());
                assert_eq!(unpacked.key(), board.key(), "{board:?}");
                assert_eq!(
                    tessera_core::search::Evaluate::evaluate(&unpacked),
                    tessera_core::search::Evaluate::evaluate(&board)
                );
                board.generate_legal_moves(&mut moves);
                board.play(moves[rng.below(moves.len())]);
            }
        }
    }

    #[test]
    fn damaged_bytes_are_refused() {
        let mut bytes = [0u8; Board::BYTES];
        Board::new(Rules::FREESTYLE_15).pack(&mut bytes);
        assert!(matches!(Board::unpack(&bytes[1..]), Err(UnpackError::Length { .. })));
        let mut bad = bytes;
        bad[0] = 9;
        assert!(matches!(Board::unpack(&bad), Err(UnpackError::Variant(9))));
        let mut bad = bytes;
        bad[1] = 30;
        assert!(matches!(Board::unpack(&bad), Err(UnpackError::Size(_))));
        let mut bad = bytes;
        bad[HEADER] = 3;
        assert!(matches!(Board::unpack(&bad), Err(UnpackError::BadPoint)));
        let mut bad = bytes;
        bad[Board::BYTES - 1] = 1;
        assert!(matches!(Board::unpack(&bad), Err(UnpackError::BadPoint)), "a stone beyond the board");
        let mut bad = bytes;
        bad[HEADER] = 2;
        assert!(matches!(Board::unpack(&bad), Err(UnpackError::StoneCounts { black: 0, white: 1 })));
    }
}
