//! The board: piece bitboards, a mailbox, castling rights, en passant, clocks and the Zobrist key,
//! with copy-make move application (the game keeps the previous boards for undo and repetition).

use tessera_core::zobrist::zobrist_keys;

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::moves::{Move, MoveKind};
use crate::types::{bit, file_of, lsb, rank_of, square_at, Bitboard, CastleSide, Color, Kind, Piece, Square};

/// The mailbox value of an empty square.
pub(crate) const NO_PIECE: u8 = 12;
/// "No square" in the castling and en passant fields.
pub(crate) const NO_SQUARE: u8 = 64;

const PIECE_KEYS: usize = 0;
const CASTLE_KEYS: usize = 12 * 64;
const EP_KEYS: usize = CASTLE_KEYS + 4;
const SIDE_KEY: usize = EP_KEYS + 8;
static KEYS: [u64; SIDE_KEY + 1] = zobrist_keys(0xC4E5_5EED);

#[inline]
fn piece_key(piece: u8, square: Square) -> u64 {
    KEYS[PIECE_KEYS + piece as usize * 64 + square as usize]
}

#[inline]
fn castle_key(color: Color, side: CastleSide) -> u64 {
    KEYS[CASTLE_KEYS + color.index() * 2 + side.index()]
}

/// A chess position without history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub(crate) kinds: [Bitboard; 6],
    pub(crate) colors: [Bitboard; 2],
    pub(crate) mailbox: [u8; 64],
    pub(crate) side: Color,
    /// The castling rook of `[colour][castle side]`, or `NO_SQUARE` without that right.
    pub(crate) castle_rooks: [[u8; 2]; 2],
    /// The en passant target square, kept only when a pawn could capture there.
    pub(crate) ep: u8,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    /// Plies since the last irreversible move or null move: how far back repetitions may lie.
    pub(crate) reversible: u16,
    pub(crate) hash: u64,
}

impl Board {
    /// An empty board, White to move, no rights.
    pub(crate) fn empty() -> Board {
        Board {
            kinds: [0; 6],
            colors: [0; 2],
            mailbox: [NO_PIECE; 64],
            side: Color::White,
            castle_rooks: [[NO_SQUARE; 2]; 2],
            ep: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            reversible: 0,
            hash: 0,
        }
    }

    /// The side to move.
    #[inline]
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `square`, if any.
    #[inline]
    #[must_use]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let code = self.mailbox[square as usize];
        (code != NO_PIECE).then(|| Piece {
            color: if code < 6 { Color::White } else { Color::Black },
            kind: Kind::from_index(code as usize % 6),
        })
    }

    /// The squares of `color`'s pieces of `kind`.
    #[inline]
    #[must_use]
    pub fn pieces(&self, color: Color, kind: Kind) -> Bitboard {
        self.colors[color.index()] & self.kinds[kind.index()]
    }

    /// The squares of all of `color`'s pieces.
    #[inline]
    #[must_use]
    pub fn color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// The squares of all pieces of `kind`, both colours.
    #[inline]
    #[must_use]
    pub fn kind(&self, kind: Kind) -> Bitboard {
        self.kinds[kind.index()]
    }

    /// Every occupied square.
    #[inline]
    #[must_use]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The square of `color`'s king. Every board built from FEN has exactly one king per colour.
    #[inline]
    #[must_use]
    pub fn king(&self, color: Color) -> Square {
        lsb(self.pieces(color, Kind::King))
    }

    /// The en passant target square, if a capture there is possible.
    #[must_use]
    pub fn en_passant(&self) -> Option<Square> {
        (self.ep != NO_SQUARE).then_some(self.ep)
    }

    /// The castling rook of `color` on `side`, if the right remains.
    #[must_use]
    pub fn castle_rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        let square = self.castle_rooks[color.index()][side.index()];
        (square != NO_SQUARE).then_some(square)
    }

    /// Half-moves since the last capture or pawn move.
    #[must_use]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The full-move number.
    #[must_use]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The Zobrist key.
    #[inline]
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub(crate) fn put(&mut self, piece: Piece, square: Square) {
        let code = piece.index() as u8;
        self.mailbox[square as usize] = code;
        self.kinds[piece.kind.index()] |= bit(square);
        self.colors[piece.color.index()] |= bit(square);
        self.hash ^= piece_key(code, square);
    }

    #[inline]
    fn put_code(&mut self, code: u8, square: Square) {
        self.mailbox[square as usize] = code;
        self.kinds[code as usize % 6] |= bit(square);
        self.colors[code as usize / 6] |= bit(square);
        self.hash ^= piece_key(code, square);
    }

    #[inline]
    fn remove_code(&mut self, code: u8, square: Square) {
        self.mailbox[square as usize] = NO_PIECE;
        self.kinds[code as usize % 6] ^= bit(square);
        self.colors[code as usize / 6] ^= bit(square);
        self.hash ^= piece_key(code, square);
    }

    /// Every piece of either colour attacking `square` when `occupied` squares block.
    #[inline]
    #[must_use]
    pub fn attackers_to(&self, square: Square, occupied: Bitboard) -> Bitboard {
        let rooks = self.kinds[Kind::Rook.index()] | self.kinds[Kind::Queen.index()];
        let bishops = self.kinds[Kind::Bishop.index()] | self.kinds[Kind::Queen.index()];
        (pawn_attacks(Color::White, square) & self.pieces(Color::Black, Kind::Pawn))
            | (pawn_attacks(Color::Black, square) & self.pieces(Color::White, Kind::Pawn))
            | (knight_attacks(square) & self.kinds[Kind::Knight.index()])
            | (king_attacks(square) & self.kinds[Kind::King.index()])
            | (rook_attacks(square, occupied) & rooks)
            | (bishop_attacks(square, occupied) & bishops)
    }

    /// Whether `by` attacks `square` when `occupied` squares block.
    #[inline]
    #[must_use]
    pub fn is_attacked(&self, square: Square, by: Color, occupied: Bitboard) -> bool {
        let them = self.colors[by.index()];
        if pawn_attacks(by.flip(), square) & self.kinds[0] & them != 0
            || knight_attacks(square) & self.kinds[1] & them != 0
            || king_attacks(square) & self.kinds[5] & them != 0
        {
            return true;
        }
        let queens = self.kinds[4];
        rook_attacks(square, occupied) & (self.kinds[3] | queens) & them != 0
            || bishop_attacks(square, occupied) & (self.kinds[2] | queens) & them != 0
    }

    /// The enemy pieces giving check to the side to move.
    #[inline]
    #[must_use]
    pub fn checkers(&self) -> Bitboard {
        let us = self.side;
        self.attackers_to(self.king(us), self.occupied()) & self.colors[us.flip().index()]
    }

    /// Whether the side to move is in check.
    #[inline]
    #[must_use]
    pub fn in_check(&self) -> bool {
        self.is_attacked(self.king(self.side), self.side.flip(), self.occupied())
    }

    /// The king and rook destinations of castling with the rook on `rook` for `color`.
    #[inline]
    #[must_use]
    pub fn castle_targets(color: Color, king: Square, rook: Square) -> (Square, Square) {
        let rank = color.back_rank();
        if file_of(rook) > file_of(king) {
            (square_at(6, rank), square_at(5, rank))
        } else {
            (square_at(2, rank), square_at(3, rank))
        }
    }

    fn set_castle_rook(&mut self, color: Color, side: CastleSide, square: u8) {
        let right = &mut self.castle_rooks[color.index()][side.index()];
        if *right != NO_SQUARE {
            self.hash ^= castle_key(color, side);
        }
        *right = square;
        if square != NO_SQUARE {
            self.hash ^= castle_key(color, side);
        }
    }

    #[inline]
    fn clear_rights_at(&mut self, square: Square) {
        for color in Color::BOTH {
            for side in CastleSide::BOTH {
                if self.castle_rooks[color.index()][side.index()] == square {
                    self.set_castle_rook(color, side, NO_SQUARE);
                }
            }
        }
    }

    /// Sets the en passant square after a double push to `ep` if an enemy pawn could take there.
    fn set_en_passant_if_capturable(&mut self, ep: Square, capturer: Color) {
        if pawn_attacks(capturer.flip(), ep) & self.pieces(capturer, Kind::Pawn) != 0 {
            self.ep = ep;
            self.hash ^= KEYS[EP_KEYS + file_of(ep) as usize];
        }
    }

    pub(crate) fn clear_en_passant(&mut self) {
        if self.ep != NO_SQUARE {
            self.hash ^= KEYS[EP_KEYS + file_of(self.ep) as usize];
            self.ep = NO_SQUARE;
        }
    }

    /// Plays a legal move on this board (copy-make callers copy first).
    pub(crate) fn apply(&mut self, mv: Move) {
        let us = self.side;
        let from = mv.from();
        let to = mv.to();
        let code = self.mailbox[from as usize];
        self.clear_en_passant();
        // Saturating: a FEN may start the clocks anywhere in their range.
        self.halfmove = self.halfmove.saturating_add(1);
        self.reversible = self.reversible.saturating_add(1);
        match mv.kind() {
            Some(MoveKind::Castle) => {
                let rook_code = self.mailbox[to as usize];
                let (king_to, rook_to) = Board::castle_targets(us, from, to);
                self.remove_code(code, from);
                self.remove_code(rook_code, to);
                self.put_code(code, king_to);
                self.put_code(rook_code, rook_to);
                self.clear_castling(us);
            }
            Some(MoveKind::EnPassant) => {
                let captured_square = to ^ 8;
                self.remove_code(self.mailbox[captured_square as usize], captured_square);
                self.remove_code(code, from);
                self.put_code(code, to);
                self.halfmove = 0;
                self.reversible = 0;
            }
            _ => {
                let captured = self.mailbox[to as usize];
                if captured != NO_PIECE {
                    self.remove_code(captured, to);
                    self.halfmove = 0;
                    self.reversible = 0;
                    if captured % 6 == Kind::Rook as u8 {
                        self.clear_rights_at(to);
                    }
                }
                self.remove_code(code, from);
                self.put_code(self.placed_code(code, mv), to);
                match code % 6 {
                    0 => {
                        self.halfmove = 0;
                        self.reversible = 0;
                        if from ^ to == 16 {
                            self.set_en_passant_if_capturable((from + to) / 2, us.flip());
                        }
                    }
                    3 => self.clear_rights_at(from),
                    5 => self.clear_castling(us),
                    _ => {}
                }
            }
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = us.flip();
        self.hash ^= KEYS[SIDE_KEY];
    }

    /// The key after `mv` (legal here) where it is cheap to tell: `None` for castling, en passant,
    /// double pushes (they may open an en passant square) and moves that change castling rights.
    #[inline]
    #[must_use]
    pub(crate) fn hash_after(&self, mv: Move) -> Option<u64> {
        let (from, to) = (mv.from(), mv.to());
        let code = self.mailbox[from as usize];
        let touches_rights = self.castle_rooks.iter().flatten().any(|&rook| rook == from || rook == to)
            || (code % 6 == Kind::King as u8 && self.castle_rooks[self.side.index()] != [NO_SQUARE; 2]);
        let double_push = code % 6 == Kind::Pawn as u8 && from ^ to == 16;
        if matches!(mv.kind(), Some(MoveKind::Castle | MoveKind::EnPassant)) || touches_rights || double_push {
            return None;
        }
        let mut hash = self.hash ^ KEYS[SIDE_KEY] ^ piece_key(code, from);
        if self.ep != NO_SQUARE {
            hash ^= KEYS[EP_KEYS + file_of(self.ep) as usize];
        }
        let captured = self.mailbox[to as usize];
        if captured != NO_PIECE {
            hash ^= piece_key(captured, to);
        }
        Some(hash ^ piece_key(self.placed_code(code, mv), to))
    }

    /// The code of the piece `mv` (by the side to move) leaves on its target square: the moving
    /// piece's `code`, or the piece it promotes to.
    #[inline]
    fn placed_code(&self, code: u8, mv: Move) -> u8 {
        match mv.kind() {
            Some(MoveKind::Promotion(kind)) => self.side.index() as u8 * 6 + kind.index() as u8,
            _ => code,
        }
    }

    fn clear_castling(&mut self, color: Color) {
        for side in CastleSide::BOTH {
            self.set_castle_rook(color, side, NO_SQUARE);
        }
    }

    /// Passes the turn (null move): the en passant chance lapses and repetitions restart.
    pub(crate) fn apply_null(&mut self) {
        self.clear_en_passant();
        self.halfmove = self.halfmove.saturating_add(1);
        self.reversible = 0;
        self.side = self.side.flip();
        self.hash ^= KEYS[SIDE_KEY];
    }

    /// Grants a castling right (used while reading FEN; updates the key).
    pub(crate) fn grant_castling(&mut self, color: Color, side: CastleSide, rook: Square) {
        self.set_castle_rook(color, side, rook);
    }

    /// Sets the side to move and en passant square from FEN (the key follows).
    pub(crate) fn set_side_and_en_passant(&mut self, side: Color, ep: Option<Square>) {
        if side != self.side {
            self.side = side;
            self.hash ^= KEYS[SIDE_KEY];
        }
        self.clear_en_passant();
        if let Some(ep) = ep {
            self.set_en_passant_if_capturable(ep, side);
        }
    }

    /// The key computed from the board alone.
    #[must_use]
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = 0;
        for square in 0..64u8 {
            let code = self.mailbox[square as usize];
            if code != NO_PIECE {
                hash ^= piece_key(code, square);
            }
        }
        for color in Color::BOTH {
            for side in CastleSide::BOTH {
                if self.castle_rook(color, side).is_some() {
                    hash ^= castle_key(color, side);
                }
            }
        }
        if self.ep != NO_SQUARE {
            hash ^= KEYS[EP_KEYS + file_of(self.ep) as usize];
        }
        if self.side == Color::Black {
            hash ^= KEYS[SIDE_KEY];
        }
        hash
    }

    /// Whether neither side can ever mate: bare kings, one minor piece, or bishops all on one colour.
    #[must_use]
    pub fn insufficient_material(&self) -> bool {
        let heavy = self.kinds[Kind::Pawn.index()] | self.kinds[Kind::Rook.index()] | self.kinds[Kind::Queen.index()];
        if heavy != 0 {
            return false;
        }
        let knights = self.kinds[Kind::Knight.index()];
        let bishops = self.kinds[Kind::Bishop.index()];
        if (knights | bishops).count_ones() <= 1 {
            return true;
        }
        const DARK: Bitboard = 0xAA55_AA55_AA55_AA55;
        knights == 0 && (bishops & DARK == 0 || bishops & !DARK == 0)
    }

    /// The square a pawn of `color` reaches by one step from `square`.
    #[inline]
    pub(crate) fn forward(color: Color, square: Square) -> Square {
        match color {
            Color::White => square + 8,
            Color::Black => square - 8,
        }
    }

    /// Rank index as seen by `color` (0 = its back rank).
    #[inline]
    pub(crate) fn relative_rank(color: Color, square: Square) -> u8 {
        match color {
            Color::White => rank_of(square),
            Color::Black => 7 - rank_of(square),
        }
    }
}
