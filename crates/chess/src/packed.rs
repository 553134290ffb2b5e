//! Chess positions in training-data files (`tessera-nnue`'s [`PackedPosition`]): 28 bytes.
//!
//! | bytes | field |
//! |---|---|
//! | 8 | occupied squares, a bitboard (`u64`, little-endian) |
//! | 16 | one nibble per occupied square, in square order, low nibble first: 0–5 white pawn, knight, bishop, rook, queen, king; 6–11 the black ones; 12 a white rook that may still castle, 13 a black one |
//! | 1 | bit 7: Black to move; bits 0–6: the en passant square, or 64 for none |
//! | 1 | half-move clock (saturating at 255) |
//! | 2 | full-move number (`u16`, little-endian) |
//!
//! Castling rooks are marked on the board itself, which covers Chess960 as well.

use tessera_nnue::PackedPosition;

use crate::board::Board;
use crate::fen::FenError;
use crate::types::{file_of, Color, Kind, Piece, Squares};

/// Nibble of a white rook with a castling right; the black one is this plus one.
const CASTLING_ROOK: u8 = 12;
/// The en passant byte's value when there is no en passant square.
const NO_EN_PASSANT: u8 = 64;
const BLACK_TO_MOVE: u8 = 0x80;

/// Why packed bytes are not a chess position.
#[derive(Debug, thiserror::Error)]
pub enum UnpackError {
    /// The byte slice has the wrong length.
    #[error("a packed chess position has {expected} bytes, not {found}", expected = Board::BYTES)]
    Length {
        /// The length given.
        found: usize,
    },
    /// More than 32 pieces, or a nibble that names no piece.
    #[error("packed chess position: bad piece code")]
    BadPiece,
    /// The position the bytes describe breaks the rules (no king, side not to move in check, …).
    #[error("packed chess position: {0}")]
    Illegal(#[from] FenError),
}

fn nibble(piece: Piece, castling_rook: bool) -> u8 {
    let color = piece.color.index() as u8;
    if castling_rook {
        CASTLING_ROOK + color
    } else {
        color * 6 + piece.kind.index() as u8
    }
}

impl PackedPosition for Board {
    const GAME: &'static str = "chess";
    const BYTES: usize = 28;
    type Error = UnpackError;

    fn pack(&self, out: &mut [u8]) {
        out.fill(0);
        let occupied = self.occupied();
        out[..8].copy_from_slice(&occupied.to_le_bytes());
        for (index, square) in Squares(occupied).enumerate() {
            // A legal position has at most 32 pieces (the FEN reader refuses more).
            let piece = self.piece_at(square).expect("occupied squares hold a piece");
            let castling_rook =
                piece.kind == Kind::Rook && self.castle_rooks.iter().flatten().any(|&rook| rook == square);
            let code = nibble(piece, castling_rook);
            out[8 + index / 2] |= code << (4 * (index % 2));
        }
        let side = if self.side_to_move() == Color::Black { BLACK_TO_MOVE } else { 0 };
        out[24] = side | self.en_passant().unwrap_or(NO_EN_PASSANT);
        out[25] = self.halfmove_clock().min(255) as u8;
        out[26..28].copy_from_slice(&self.fullmove_number().to_le_bytes());
    }

    fn unpack(bytes: &[u8]) -> Result<Board, UnpackError> {
        if bytes.len() != Self::BYTES {
            return Err(UnpackError::Length { found: bytes.len() });
        }
        let occupied = u64::from_le_bytes(bytes[..8].try_into().expect("the length was checked"));
        if occupied.count_ones() > 32 {
            return Err(UnpackError::BadPiece);
        }
        let mut mailbox = [None; 64];
        let mut castling = String::new();
        for (index, square) in Squares(occupied).enumerate() {
            let code = (bytes[8 + index / 2] >> (4 * (index % 2))) & 0xF;
            let (color, kind) = match code {
                0..=11 => (if code < 6 { Color::White } else { Color::Black }, Kind::ALL[usize::from(code % 6)]),
                12 | 13 => {
                    let color = if code == 12 { Color::White } else { Color::Black };
                    let file = char::from(b'a' + file_of(square));
                    castling.push(if color == Color::White { file.to_ascii_uppercase() } else { file });
                    (color, Kind::Rook)
                }
                _ => return Err(UnpackError::BadPiece),
            };
            mailbox[usize::from(square)] = Some(Piece { color, kind });
        }
        let mut fen = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match mailbox[rank * 8 + file] {
                    Some(piece) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(piece.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            fen.push(if rank > 0 { '/' } else { ' ' });
        }
        fen.push(if bytes[24] & BLACK_TO_MOVE != 0 { 'b' } else { 'w' });
        fen.push(' ');
        fen.push_str(if castling.is_empty() { "-" } else { &castling });
        fen.push(' ');
        match bytes[24] & !BLACK_TO_MOVE {
            NO_EN_PASSANT => fen.push('-'),
            square if square < 64 => fen.push_str(&crate::types::square_name(square)),
            _ => return Err(UnpackError::BadPiece),
        }
        let fullmove = u16::from_le_bytes([bytes[26], bytes[27]]);
        fen.push_str(&format!(" {} {fullmove}", bytes[25]));
        Ok(Board::from_fen(&fen)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(fen: &str) {
        let board = Board::from_fen(fen).unwrap();
        let mut bytes = [0u8; Board::BYTES];
        board.pack(&mut bytes);
        let back = Board::unpack(&bytes).unwrap();
        assert_eq!(back, board, "{fen}");
        assert_eq!(back.to_fen(), board.to_fen());
    }

    #[test]
    fn positions_round_trip() {
        round_trip(crate::START_FEN);
        round_trip("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        round_trip("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        round_trip("8/2k5/8/8/8/8/5K2/8 b - - 87 120");
        // Chess960: rooks on b and g files keep their castling rights.
        round_trip("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1");
        round_trip("rk5r/8/8/8/8/8/8/RK5R b Ha - 5 40");
    }

    #[test]
    fn bad_bytes_are_refused() {
        assert!(matches!(Board::unpack(&[0; 5]), Err(UnpackError::Length { found: 5 })));
        // No kings on an otherwise empty board.
        let mut bytes = [0u8; Board::BYTES];
        bytes[24] = NO_EN_PASSANT;
        assert!(matches!(Board::unpack(&bytes), Err(UnpackError::Illegal(_))));
        // A nibble past the castling-rook codes.
        bytes[0] = 1;
        bytes[8] = 15;
        assert!(matches!(Board::unpack(&bytes), Err(UnpackError::BadPiece)));
    }
}
