//! Xiangqi positions in training-data files (`tessera-nnue`'s [`PackedPosition`], game name
//! `xiangqi`): 32 bytes.
//!
//! | bytes | field |
//! |---|---|
//! | 12 | occupied points, a 90-bit mask (little-endian; bit `rank × 9 + file`, rank 0 is Red's back rank; bits 90–95 zero) |
//! | 16 | one nibble per occupied point, in point order, low nibble first: 0–6 Red king, advisor, elephant, horse, rook, cannon, pawn; 7–13 the Black ones |
//! | 1 | bit 0: Black to move (other bits zero) |
//! | 1 | plies without capture (saturating at 255) |
//! | 2 | full-move number (`u16`, little-endian, saturating) |
//!
//! Piece identities (which of the two rooks is which) and the move history are not stored:
//! repetition verdicts need the history, the evaluation does not. Unpacking assigns identities
//! in point order, as reading a FEN does.

use tessera_core::Side;
use tessera_nnue::{PackedPosition, TrainingFeatures};

use crate::fen::FenError;
use crate::nnue;
use crate::position::Position;
use crate::types::{kind_of, side_of, square, Kind, FILES, RANKS};

/// Points on the board.
const POINTS: usize = FILES * RANKS;
/// Bytes of the occupancy mask.
const MASK_BYTES: usize = 12;
/// Where the side-to-move byte is.
const SIDE_BYTE: usize = MASK_BYTES + 16;
const BLACK_TO_MOVE: u8 = 1;
/// At most 16 pieces a side.
const MAX_PIECES: usize = 32;

/// Why packed bytes are not a xiangqi position.
#[derive(Debug, thiserror::Error)]
pub enum UnpackError {
    /// The byte slice has the wrong length.
    #[error("a packed xiangqi position has {expected} bytes, not {found}", expected = Position::BYTES)]
    Length {
        /// The length given.
        found: usize,
    },
    /// More than 32 pieces, a mask bit past the 90 points, a nibble that names no piece or a bad
    /// side byte.
    #[error("packed xiangqi position: bad piece code or side byte")]
    BadCode,
    /// The position the bytes describe breaks the rules (a missing king, a piece where it can
    /// never stand, the side not to move in check, …).
    #[error("packed xiangqi position: {0}")]
    Illegal(#[from] FenError),
}

/// The nibble of a piece of `kind` owned by `side`.
fn nibble(side: Side, kind: Kind) -> u8 {
    side.index() as u8 * 7 + kind as u8
}

/// The FEN letter of a nibble, `None` for the two codes that name no piece.
fn letter(code: u8) -> Option<char> {
    match code {
        0..=6 => Some(Kind::ALL[usize::from(code)].letter()),
        7..=13 => Some(Kind::ALL[usize::from(code - 7)].letter().to_ascii_lowercase()),
        _ => None,
    }
}

impl PackedPosition for Position {
    const GAME: &'static str = "xiangqi";
    const BYTES: usize = 32;
    type Error = UnpackError;

    fn pack(&self, out: &mut [u8]) {
        out.fill(0);
        let mut pieces = 0;
        for point in 0..POINTS {
            let id = self.board.piece_at(square(point % FILES, point / FILES));
            if id == 0 {
                continue;
            }
            out[point / 8] |= 1 << (point % 8);
            // A position holds at most 32 pieces (the FEN reader refuses more of any kind).
            out[MASK_BYTES + pieces / 2] |= nibble(side_of(id), kind_of(id)) << (4 * (pieces % 2));
            pieces += 1;
        }
        out[SIDE_BYTE] = if self.side == Side::Second { BLACK_TO_MOVE } else { 0 };
        out[SIDE_BYTE + 1] = self.quiet_plies.min(255) as u8;
        let fullmove = u16::try_from(self.fullmove).unwrap_or(u16::MAX);
        out[SIDE_BYTE + 2..SIDE_BYTE + 4].copy_from_slice(&fullmove.to_le_bytes());
    }

    fn unpack(bytes: &[u8]) -> Result<Position, UnpackError> {
        if bytes.len() != Self::BYTES {
            return Err(UnpackError::Length { found: bytes.len() });
        }
        let occupied = |point: usize| bytes[point / 8] & (1 << (point % 8)) != 0;
        let pieces = (0..MASK_BYTES * 8).filter(|&bit| occupied(bit)).count();
        if pieces > MAX_PIECES || (POINTS..MASK_BYTES * 8).any(occupied) || bytes[SIDE_BYTE] & !BLACK_TO_MOVE != 0 {
            return Err(UnpackError::BadCode);
        }
        // Pieces are numbered in point order (rank 0 first); FEN lists rank 9 first.
        let mut letters = [None; POINTS];
        for (index, point) in (0..POINTS).filter(|&point| occupied(point)).enumerate() {
            let code = (bytes[MASK_BYTES + index / 2] >> (4 * (index % 2))) & 0xF;
            letters[point] = Some(letter(code).ok_or(UnpackError::BadCode)?);
        }
        let mut fen = String::with_capacity(100);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                match letters[rank * FILES + file] {
                    Some(letter) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(letter);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            fen.push(if rank > 0 { '/' } else { ' ' });
        }
        fen.push(if bytes[SIDE_BYTE] & BLACK_TO_MOVE != 0 { 'b' } else { 'w' });
        let fullmove = u16::from_le_bytes([bytes[SIDE_BYTE + 2], bytes[SIDE_BYTE + 3]]);
        fen.push_str(&format!(" - - {} {fullmove}", bytes[SIDE_BYTE + 1]));
        Ok(fen.parse::<Position>()?)
    }
}

/// The network's features read straight from packed positions (the trainer's view). Here rather
/// than in `nnue`, which `Position` itself uses for its accumulators.
impl TrainingFeatures for Position {
    const FEATURE_SET: &'static str = nnue::FEATURE_SET;
    const INPUTS: usize = nnue::INPUTS;

    fn features(packed: &[u8], us: &mut Vec<usize>, them: &mut Vec<usize>) {
        nnue::packed_features(packed, false, us, them);
    }

    fn mirrored_features(packed: &[u8], us: &mut Vec<usize>, them: &mut Vec<usize>) -> bool {
        // Xiangqi's board, pieces and rules are symmetric left to right: every position is worth
        // what its mirror image is.
        nnue::packed_features(packed, true, us, them);
        true
    }
}

#[cfg(test)]
mod tests {
    use tessera_core::{Game, Rng};
    use tessera_nnue::data::{DataError, DataReader, DataWriter, HEADER_BYTES};

    use super::*;
    use crate::Moves;

    /// The positions of the perft suite.
    pub(crate) fn suite() -> Vec<Position> {
        let suite = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/reference/xiangqi-perft.epd"));
        suite
            .lines()
            .filter(|line| !line.trim().is_empty())
            .map(|line| line.split(';').next().unwrap().trim().parse().unwrap())
            .collect()
    }

    fn round_trip(position: &Position) {
        let mut bytes = [0u8; Position::BYTES];
        position.pack(&mut bytes);
        let back = Position::unpack(&bytes).unwrap();
        assert_eq!(back.to_fen(), position.to_fen());
        assert_eq!(back.static_evaluation(), position.static_evaluation(), "{}", position.to_fen());
        let mut again = [0u8; Position::BYTES];
        back.pack(&mut again);
        assert_eq!(again, bytes);
    }

    #[test]
    fn suite_and_playout_positions_round_trip() {
        for position in suite() {
            round_trip(&position);
        }
        let mut rng = Rng::new(0x5851);
        let mut moves = Moves::new();
        let mut checked = 0;
        for _ in 0..40 {
            let mut position = Position::start();
            for _ in 0..150 {
                round_trip(&position);
                checked += 1;
                position.generate_legal_moves(&mut moves);
                if moves.is_empty() || position.outcome().is_some() {
                    break;
                }
                position.play(moves[rng.below(moves.len())]);
            }
        }
        assert!(checked > 2000, "{checked}");
    }

    #[test]
    fn bad_bytes_are_refused() {
        assert!(matches!(Position::unpack(&[0; 5]), Err(UnpackError::Length { found: 5 })));
        // An empty board has no kings.
        let bytes = [0u8; Position::BYTES];
        assert!(matches!(Position::unpack(&bytes), Err(UnpackError::Illegal(FenError::MissingKing(_)))));
        let mut start = [0u8; Position::BYTES];
        Position::start().pack(&mut start);
        let mut bad = start;
        bad[MASK_BYTES] = 0xFF; // the first piece's nibble: 15 names no piece
        assert!(matches!(Position::unpack(&bad), Err(UnpackError::BadCode)));
        let mut bad = start;
        bad[11] |= 0x80; // bit 95: past the board
        assert!(matches!(Position::unpack(&bad), Err(UnpackError::BadCode)));
        let mut bad = start;
        bad[SIDE_BYTE] = 2;
        assert!(matches!(Position::unpack(&bad), Err(UnpackError::BadCode)));
    }

    #[test]
    fn data_files_name_the_game_and_refuse_chess() {
        let path = std::env::temp_dir().join(format!("tessera-xiangqi-packed-{}.data", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let (mut writer, _) = DataWriter::append::<Position>(&path).unwrap();
        let mut records = Vec::new();
        let mut packed = [0u8; Position::BYTES];
        Position::start().pack(&mut packed);
        tessera_nnue::data::encode_record(&packed, 4, tessera_nnue::WdlResult::Draw, true, &mut records);
        writer.write_game(&records).unwrap();
        drop(writer);
        let mut reader = DataReader::open::<Position>(&path).unwrap();
        let record = reader.next_record().unwrap().unwrap();
        assert_eq!(Position::unpack(record.position).unwrap().to_fen(), crate::START_FEN);

        // A chess file (as `tessera datagen --game chess` writes its header) is refused.
        let mut header = Vec::from(*b"TSRDATA\0");
        header.extend_from_slice(&1u16.to_le_bytes());
        header.extend_from_slice(&32u16.to_le_bytes());
        header.extend_from_slice(b"chess\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0");
        assert_eq!(header.len(), HEADER_BYTES);
        std::fs::write(&path, &header).unwrap();
        let error = DataReader::open::<Position>(&path).err().unwrap();
        assert!(matches!(error, DataError::WrongGame { expected: "xiangqi", .. }), "{error}");
        assert!(DataWriter::append::<Position>(&path).is_err());
        std::fs::remove_file(&path).unwrap();
    }
}
