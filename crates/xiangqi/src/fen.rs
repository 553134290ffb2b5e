//! FEN reading and writing, with a precise error for every way a FEN can be wrong.

use std::str::FromStr;

use tessera_core::Side;

use crate::board::Board;
use crate::position::Position;
use crate::types::{piece_letter, side_tag, square, Kind, FILES, IN_PALACE, RANKS};

/// Why a FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing but spaces.
    #[error("empty FEN")]
    Empty,
    /// The placement does not have 10 ranks.
    #[error("the board has {0} ranks, expected 10")]
    RankCount(usize),
    /// A rank does not add up to 9 files.
    #[error("rank {rank} covers {files} files, expected 9")]
    RankWidth {
        /// The rank (0 = Red's back rank).
        rank: usize,
        /// How many files it covered.
        files: usize,
    },
    /// A character that is no piece letter or digit.
    #[error("unknown piece letter '{0}'")]
    UnknownPiece(char),
    /// The side to move is not `w`, `r` or `b`.
    #[error("side to move must be w, r or b, not '{0}'")]
    BadSide(String),
    /// More pieces of a kind than a side has.
    #[error("too many pieces '{0}'")]
    TooMany(char),
    /// A side without a king.
    #[error("{0} has no king")]
    MissingKing(&'static str),
    /// A king, advisor, elephant or pawn on a square it can never reach.
    #[error("piece '{piece}' cannot stand on {square}")]
    Unreachable {
        /// The piece letter.
        piece: char,
        /// The square in ICCS (`e4`).
        square: String,
    },
    /// The side that just moved is in check: its king could be taken.
    #[error("the side not to move is in check")]
    OpponentInCheck,
    /// A move counter that is not a number.
    #[error("bad move counter '{0}'")]
    BadCounter(String),
}

fn kind_of_letter(letter: char) -> Option<Kind> {
    Some(match letter.to_ascii_uppercase() {
        'K' => Kind::King,
        'A' => Kind::Advisor,
        'B' | 'E' => Kind::Elephant,
        'N' | 'H' => Kind::Horse,
        'R' => Kind::Rook,
        'C' => Kind::Cannon,
        'P' => Kind::Pawn,
        _ => return None,
    })
}

/// Whether a piece of `kind` owned by `side` may ever stand on (`file`, `rank`).
fn reachable(kind: Kind, side: Side, file: usize, rank: usize) -> bool {
    // Seen from the owner's side: rank 0 is its back rank.
    let own_rank = if side == Side::First { rank } else { 9 - rank };
    match kind {
        Kind::King => IN_PALACE[side.index()][square(file, rank) as usize],
        Kind::Advisor => IN_PALACE[side.index()][square(file, rank) as usize] && (file + own_rank) % 2 == 1,
        Kind::Elephant => matches!((file, own_rank), (2 | 6, 0 | 4) | (0 | 4 | 8, 2)),
        Kind::Pawn => own_rank >= 3 && (own_rank >= 5 || file.is_multiple_of(2)),
        Kind::Horse | Kind::Rook | Kind::Cannon => true,
    }
}

impl FromStr for Position {
    type Err = FenError;

    /// Reads a FEN: placement, side (`w`/`r`/`b`, default Red), two ignored fields, the plies
    /// without capture and the move number (both optional).
    fn from_str(text: &str) -> Result<Position, FenError> {
        let mut fields = text.split_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let board = parse_placement(placement)?;
        let side = match fields.next() {
            None | Some("w" | "r" | "W" | "R") => Side::First,
            Some("b" | "B") => Side::Second,
            Some(other) => return Err(FenError::BadSide(other.to_owned())),
        };
        let _castling = fields.next();
        let _en_passant = fields.next();
        let quiet_plies = parse_counter(fields.next(), 0)?;
        let fullmove = parse_counter(fields.next(), 1)?.max(1);
        if board.in_check(side.opponent()) {
            return Err(FenError::OpponentInCheck);
        }
        Ok(Position::from_parts(board, side, u16::try_from(quiet_plies).unwrap_or(u16::MAX), fullmove))
    }
}

fn parse_counter(field: Option<&str>, default: u32) -> Result<u32, FenError> {
    match field {
        None | Some("-") => Ok(default),
        Some(text) => text.parse().map_err(|_| FenError::BadCounter(text.to_owned())),
    }
}

fn parse_placement(placement: &str) -> Result<Board, FenError> {
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != RANKS {
        return Err(FenError::RankCount(rows.len()));
    }
    let mut board = Board::empty();
    for (row_index, row) in rows.iter().enumerate() {
        let rank = RANKS - 1 - row_index;
        let mut file = 0;
        for letter in row.chars() {
            if let Some(digit) = letter.to_digit(10) {
                file += digit as usize;
                continue;
            }
            let kind = kind_of_letter(letter).ok_or(FenError::UnknownPiece(letter))?;
            let side = if letter.is_ascii_uppercase() { Side::First } else { Side::Second };
            if file >= FILES {
                return Err(FenError::RankWidth { rank, files: file + 1 });
            }
            if !reachable(kind, side, file, rank) {
                return Err(FenError::Unreachable {
                    piece: letter,
                    square: format!("{}{rank}", char::from(b'a' + file as u8)),
                });
            }
            let (first, end) = kind.slots();
            let tag = side_tag(side);
            let id = (tag + first..tag + end)
                .find(|&id| board.squares[id as usize] == 0)
                .ok_or(FenError::TooMany(letter))?;
            let at = square(file, rank);
            board.cells[at as usize] = id;
            board.squares[id as usize] = at;
            file += 1;
        }
        if file != FILES {
            return Err(FenError::RankWidth { rank, files: file });
        }
    }
    if board.squares[16] == 0 {
        return Err(FenError::MissingKing("Red"));
    }
    if board.squares[32] == 0 {
        return Err(FenError::MissingKing("Black"));
    }
    Ok(board)
}

impl Position {
    /// Writes the position as FEN (`w`/`b`, `- -`, plies without capture, move number).
    #[must_use]
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(90);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let id = self.board.piece_at(square(file, rank));
                if id == 0 {
                    empty += 1;
                } else {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(piece_letter(id));
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let side = if self.side == Side::First { 'w' } else { 'b' };
        format!("{fen} {side} - - {} {}", self.quiet_plies, self.fullmove)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::START_FEN;

    #[test]
    fn start_position_round_trips() {
        let position: Position = START_FEN.parse().unwrap();
        assert_eq!(position.to_fen(), START_FEN);
        let aliases: Position = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r".parse().unwrap();
        assert_eq!(aliases.to_fen(), START_FEN);
    }

    #[test]
    fn bad_fens_get_precise_errors() {
        let cases: [(&str, FenError); 10] = [
            ("", FenError::Empty),
            ("9/9 w", FenError::RankCount(2)),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", FenError::RankWidth { rank: 0, files: 8 }),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
                FenError::RankWidth { rank: 0, files: 10 },
            ),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w", FenError::UnknownPiece('X')),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", FenError::BadSide("x".into())),
            ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w", FenError::TooMany('R')),
            ("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", FenError::MissingKing("Black")),
            ("4k4/9/9/9/9/9/9/9/9/K8 w", FenError::Unreachable { piece: 'K', square: "a0".into() }),
            ("4k4/9/9/9/9/9/9/9/9/4K4 w", FenError::OpponentInCheck),
        ];
        for (fen, expected) in cases {
            assert_eq!(fen.parse::<Position>().unwrap_err(), expected, "{fen}");
        }
        assert_eq!(
            START_FEN.replace(" 0 1", " x 1").parse::<Position>().unwrap_err(),
            FenError::BadCounter("x".into())
        );
    }
}
