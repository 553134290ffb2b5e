//! FEN reading and writing, with X-FEN (`KQkq` meaning the outermost rook) and Shredder-FEN
//! (`HAha`, rook files) castling fields, and precise errors for every way a FEN can be wrong.

use crate::board::Board;
use crate::types::{
    bit, file_of, parse_square, rank_of, square_at, square_name, CastleSide, Color, Kind, Piece, Squares,
};

/// The standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// A FEN has 4 to 6 space-separated fields.
    #[error("a FEN has 4 to 6 fields (board, side, castling, en passant, clocks), found {0}")]
    FieldCount(usize),
    /// The board does not have 8 ranks.
    #[error("the board has {0} ranks instead of 8")]
    RankCount(usize),
    /// A rank does not describe exactly 8 squares.
    #[error("rank {rank} describes {squares} squares instead of 8")]
    RankLength {
        /// The rank as written in chess notation (1..8).
        rank: u8,
        /// How many squares it described.
        squares: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–8.
    #[error("'{0}' is not a piece")]
    BadPiece(char),
    /// Not exactly one king of a colour.
    #[error("{color:?} has {count} kings; exactly one is needed")]
    KingCount {
        /// The colour.
        color: Color,
        /// How many kings it has.
        count: u32,
    },
    /// A pawn on the first or last rank.
    #[error("a pawn stands on {0}, on the first or last rank")]
    PawnOnBackRank(String),
    /// More than 16 pieces of one colour, or more than 8 pawns.
    #[error("{0:?} has too many pieces")]
    TooManyPieces(Color),
    /// The side field is not `w` or `b`.
    #[error("the side to move must be 'w' or 'b', not '{0}'")]
    BadSide(String),
    /// The side that is not to move is in check (the side to move could take the king).
    #[error("the side not to move is in check")]
    OpponentInCheck,
    /// The castling field has a character that is not `KQkq`, a file letter or `-`.
    #[error("bad castling field '{0}'")]
    BadCastling(String),
    /// A castling right the position cannot have (no king on the back rank, no rook there).
    #[error("impossible castling right '{0}'")]
    ImpossibleCastling(char),
    /// The en passant field is not a square or `-`.
    #[error("bad en passant field '{0}'")]
    BadEnPassant(String),
    /// An en passant square that no double pawn push just made.
    #[error("impossible en passant square '{0}'")]
    ImpossibleEnPassant(String),
    /// A clock field is not a number in range.
    #[error("bad move counter '{0}'")]
    BadCounter(String),
}

impl Board {
    /// Reads a FEN (4 to 6 fields; missing clocks default to `0 1`).
    ///
    /// # Errors
    /// A [`FenError`] naming the first problem found.
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut board = Board::empty();
        parse_placement(&mut board, fields[0])?;
        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::BadSide(other.to_owned())),
        };
        for color in [Color::White, Color::Black] {
            let count = board.pieces(color, Kind::King).count_ones();
            if count != 1 {
                return Err(FenError::KingCount { color, count });
            }
        }
        parse_castling(&mut board, fields[2])?;
        let ep = parse_en_passant(&board, fields[3], side)?;
        board.set_side_and_en_passant(side, ep);
        let counter = |index: usize, default: u16| -> Result<u16, FenError> {
            fields.get(index).map_or(Ok(default), |text| text.parse().map_err(|_| FenError::BadCounter((*text).into())))
        };
        board.halfmove = counter(4, 0)?;
        board.fullmove = counter(5, 1)?.max(1);
        board.reversible = board.halfmove;
        let them = side.flip();
        if board.is_attacked(board.king(them), side, board.occupied()) {
            return Err(FenError::OpponentInCheck);
        }
        Ok(board)
    }

    /// Writes the position as FEN; castling uses `KQkq` for outermost rooks, file letters otherwise.
    #[must_use]
    pub fn to_fen(&self) -> String {
        let mut text = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(square_at(file, rank)) {
                    Some(piece) => {
                        if empty > 0 {
                            text.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        text.push(piece.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                text.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                text.push('/');
            }
        }
        let side = if self.side == Color::White { 'w' } else { 'b' };
        let ep = self.en_passant().map_or_else(|| "-".to_owned(), square_name);
        format!("{text} {side} {} {ep} {} {}", self.castling_field(), self.halfmove, self.fullmove)
    }

    fn castling_field(&self) -> String {
        let mut field = String::new();
        for color in [Color::White, Color::Black] {
            for side in CastleSide::BOTH {
                let Some(rook) = self.castle_rook(color, side) else { continue };
                let letter = if self.is_outermost_rook(color, side, rook) {
                    match side {
                        CastleSide::King => 'k',
                        CastleSide::Queen => 'q',
                    }
                } else {
                    char::from(b'a' + file_of(rook))
                };
                field.push(if color == Color::White { letter.to_ascii_uppercase() } else { letter });
            }
        }
        if field.is_empty() {
            field.push('-');
        }
        field
    }

    /// Whether `rook` is the rook furthest from the king on `side` of the back rank.
    fn is_outermost_rook(&self, color: Color, side: CastleSide, rook: u8) -> bool {
        outermost_rook(self, color, side) == Some(rook)
    }
}

fn outermost_rook(board: &Board, color: Color, side: CastleSide) -> Option<u8> {
    let king = board.king(color);
    let rank = color.back_rank();
    if rank_of(king) != rank {
        return None;
    }
    let rooks = board.pieces(color, Kind::Rook);
    let files: Vec<u8> = match side {
        CastleSide::King => (file_of(king) + 1..8).rev().collect(),
        CastleSide::Queen => (0..file_of(king)).collect(),
    };
    files.into_iter().map(|file| square_at(file, rank)).find(|&square| rooks & bit(square) != 0)
}

fn parse_placement(board: &mut Board, placement: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (index, text) in ranks.iter().enumerate() {
        let rank = 7 - index as u8;
        let mut file = 0usize;
        for letter in text.chars() {
            if let Some(skip) = letter.to_digit(10).filter(|digit| (1..=8).contains(digit)) {
                file += skip as usize;
                continue;
            }
            let kind = Kind::from_letter(letter).ok_or(FenError::BadPiece(letter))?;
            if file >= 8 {
                return Err(FenError::RankLength { rank: rank + 1, squares: file + 1 });
            }
            let color = if letter.is_ascii_uppercase() { Color::White } else { Color::Black };
            let square = square_at(file as u8, rank);
            if kind == Kind::Pawn && (rank == 0 || rank == 7) {
                return Err(FenError::PawnOnBackRank(square_name(square)));
            }
            board.put(Piece { color, kind }, square);
            file += 1;
        }
        if file != 8 {
            return Err(FenError::RankLength { rank: rank + 1, squares: file });
        }
    }
    for color in [Color::White, Color::Black] {
        if board.color(color).count_ones() > 16 || board.pieces(color, Kind::Pawn).count_ones() > 8 {
            return Err(FenError::TooManyPieces(color));
        }
    }
    Ok(())
}

fn parse_castling(board: &mut Board, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    for letter in field.chars() {
        let color = if letter.is_ascii_uppercase() { Color::White } else { Color::Black };
        let king = board.king(color);
        let rank = color.back_rank();
        let lower = letter.to_ascii_lowercase();
        let rook = match lower {
            'k' => outermost_rook(board, color, CastleSide::King),
            'q' => outermost_rook(board, color, CastleSide::Queen),
            'a'..='h' => {
                let square = square_at(lower as u8 - b'a', rank);
                (board.pieces(color, Kind::Rook) & bit(square) != 0).then_some(square)
            }
            _ => return Err(FenError::BadCastling(field.to_owned())),
        };
        let rook = rook.ok_or(FenError::ImpossibleCastling(letter))?;
        if rank_of(king) != rank || file_of(king) == file_of(rook) {
            return Err(FenError::ImpossibleCastling(letter));
        }
        let side = CastleSide::of(king, rook);
        if board.castle_rook(color, side).is_some() {
            return Err(FenError::ImpossibleCastling(letter));
        }
        board.grant_castling(color, side, rook);
    }
    Ok(())
}

fn parse_en_passant(board: &Board, field: &str, side: Color) -> Result<Option<u8>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let square = parse_square(field).ok_or_else(|| FenError::BadEnPassant(field.to_owned()))?;
    // The pawn that just made a double step stands in front of the square, and both the square
    // and the one it came from are empty.
    let (ep_rank, pawn_square, origin) = match side {
        Color::White => (5, square.wrapping_sub(8), square.wrapping_add(8)),
        Color::Black => (2, square.wrapping_add(8), square.wrapping_sub(8)),
    };
    let possible = rank_of(square) == ep_rank
        && board.pieces(side.flip(), Kind::Pawn) & bit(pawn_square) != 0
        && board.occupied() & (bit(square) | bit(origin)) == 0;
    if !possible {
        return Err(FenError::ImpossibleEnPassant(field.to_owned()));
    }
    Ok(Some(square))
}

/// Every square of a set, as names (for messages and tests).
#[must_use]
pub fn square_names(squares: u64) -> Vec<String> {
    Squares(squares).map(square_name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let board = Board::from_fen(START_FEN).unwrap();
        assert_eq!(board.to_fen(), START_FEN);
        assert_eq!(board.hash(), board.hash_from_scratch());
    }

    #[test]
    fn shredder_and_x_fen_castling() {
        let shredder = Board::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9").unwrap();
        assert_eq!(shredder.castle_rook(Color::White, CastleSide::King), Some(7));
        assert_eq!(shredder.castle_rook(Color::White, CastleSide::Queen), Some(5));
        assert_eq!(shredder.to_fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    }

    #[test]
    fn every_error_is_typed() {
        let cases: [(&str, FenError); 12] = [
            ("8/8/8 w - -", FenError::RankCount(3)),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", FenError::FieldCount(2)),
            ("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenError::BadPiece('x')),
            ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenError::RankLength { rank: 7, squares: 7 }),
            ("4k3/8/8/8/8/8/8/4KK2 w - - 0 1", FenError::KingCount { color: Color::White, count: 2 }),
            ("8/8/8/8/8/8/8/4K3 w - - 0 1", FenError::KingCount { color: Color::Black, count: 0 }),
            ("4k3/8/8/8/8/8/8/4K2R x K - 0 1", FenError::BadSide("x".into())),
            ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", FenError::OpponentInCheck),
            ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", FenError::ImpossibleCastling('K')),
            ("4k3/8/8/8/8/8/8/4K2R w K? - 0 1", FenError::BadCastling("K?".into())),
            ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", FenError::ImpossibleEnPassant("e6".into())),
            ("4k3/8/8/8/8/8/8/4K3 w - - x 1", FenError::BadCounter("x".into())),
        ];
        for (fen, error) in cases {
            assert_eq!(Board::from_fen(fen), Err(error), "{fen}");
        }
        assert!(matches!(Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - z9 0 1"), Err(FenError::BadEnPassant(_))));
        assert!(matches!(Board::from_fen("P3k3/8/8/8/8/8/8/4K3 w - - 0 1"), Err(FenError::PawnOnBackRank(_))));
    }

    #[test]
    fn en_passant_kept_only_when_capturable() {
        let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
        assert_eq!(Board::from_fen(fen).unwrap().en_passant(), Some(43));
        let lone = Board::from_fen("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1").unwrap();
        assert_eq!(lone.en_passant(), None);
        assert!(lone.to_fen().contains(" - "));
    }

    #[test]
    fn mutated_fens_never_panic() {
        let mut rng = tessera_core::Rng::new(7);
        let alphabet: Vec<char> = "pnbrqkPNBRQK12345678/ wb-KQkqABCDEFGHabcdefgh09x".chars().collect();
        let seeds = [START_FEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"];
        for round in 0..20_000 {
            let mut text: Vec<char> = seeds[round % 2].chars().collect();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(text.len());
                match rng.below(3) {
                    0 => text[at] = alphabet[rng.below(alphabet.len())],
                    1 => {
                        text.remove(at);
                    }
                    _ => text.insert(at, alphabet[rng.below(alphabet.len())]),
                }
            }
            let text: String = text.into_iter().collect();
            if let Ok(board) = Board::from_fen(&text) {
                // Whatever is accepted is consistent and can be played from.
                assert_eq!(board.hash(), board.hash_from_scratch(), "{text}");
                let _ = crate::perft::perft_board(&board, 2);
                assert!(Board::from_fen(&board.to_fen()).is_ok(), "{text}");
            }
        }
    }
}
