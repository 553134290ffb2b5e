//! `tessera-xiangqi`: xiangqi (Chinese chess) for the Tessera engines.
//!
//! - [`Position`]: a 16×16 mailbox board with piece identities, legal move generation (palace,
//!   river, horse leg, elephant eye, cannon screen, flying general), incremental Zobrist keys, and
//!   the rules outcome: no legal move loses, 60 moves without capture draw, and repetitions judged
//!   as the Asian computer rules do ([`Rules`]).
//! - FEN read/write with typed [`FenError`]s; ICCS move text ([`iccs`], [`parse_iccs`], [`Iccs`]).
//! - Evaluation and the alpha-beta hooks (`Evaluate`, `Tactical`, `NullMove`); [`perft`] and [`bench`].
//! - Training data: positions packed for `tessera-nnue`'s files (`PackedPosition`, 32 bytes), and
//!   the network features ([`nnue`]) a learned evaluation reads.
//!
//! Modules, bottom-up: types → board → movegen → safety → eval → nnue → rules → position → fen →
//! notation → packed → search → perft → tuning → bench.
//! Each uses only modules before it: no import circle (checked by scripts/check-module-circles.py).

pub mod bench;
mod board;
pub mod eval;
mod fen;
mod movegen;
pub mod nnue;
mod notation;
mod packed;
mod perft;
mod position;
mod rules;
mod safety;
mod search;
pub mod tuning;
mod types;

pub use board::Board;
pub use eval::{piece_square, S, VALUES};
pub use fen::FenError;
pub use movegen::{Moves, MAX_MOVES};
pub use notation::{iccs, parse_iccs, Iccs, NotationError};
pub use packed::UnpackError;
pub use perft::{perft, perft_divide};
pub use position::{Position, START_FEN};
pub use rules::Rules;
pub use search::MOVES_LEFT;
pub use types::{file_of, piece_letter, rank_of, square, Kind, Move, Square};

/// Moves of `position` the searcher may choose from: every legal move not in `banned` (UCCI
/// `banmoves`, for perpetual chase rulings made by the GUI). When every legal move is banned the
/// legal moves are returned anyway: a banned move is better than no move.
#[must_use]
pub fn allowed_moves(position: &Position, banned: &[Move]) -> Vec<Move> {
    use tessera_core::Game;
    let mut moves = Moves::new();
    position.generate_legal_moves(&mut moves);
    let allowed: Vec<Move> = moves.iter().copied().filter(|mv| !banned.contains(mv)).collect();
    if allowed.is_empty() {
        moves.to_vec()
    } else {
        allowed
    }
}

/// Why [`position_after`] could not set a position up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The FEN is not valid.
    #[error("bad FEN: {0}")]
    Fen(#[from] FenError),
    /// A move is not ICCS text.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// A move is not legal where it is played.
    #[error("illegal move {0}")]
    Illegal(String),
}

/// The position after `moves` (ICCS) from `fen` (or the start position).
///
/// # Errors
/// [`SetupError`] for the bad FEN or the first bad move.
pub fn position_after(fen: Option<&str>, moves: &[String]) -> Result<Position, SetupError> {
    use tessera_core::GameExt;
    let mut position: Position = fen.map_or(Ok(Position::start()), str::parse)?;
    for text in moves {
        position.try_play(parse_iccs(text)?).map_err(|_| SetupError::Illegal(text.clone()))?;
    }
    Ok(position)
}

/// What an engine searches when asked to move in `position`, and a note for the GUI.
///
/// When our rules end the game (a perpetual check lost, a repetition drawn) the note says so. If
/// that leaves no legal move, the board as it stands is searched instead, without the history
/// that decided the game: our repetition verdict need not be the GUI's (the UCCI league judges
/// chases itself and scores a missing move as a resignation), so the GUI still gets a move.
#[must_use]
pub fn search_root(position: &Position) -> (Position, Option<String>) {
    use tessera_core::{Game, Outcome, Side};
    let Some(outcome) = position.rule_outcome(None) else { return (position.clone(), None) };
    let verdict = match outcome {
        Outcome::Draw => "a draw",
        Outcome::Win(Side::First) => "won by Red",
        Outcome::Win(Side::Second) => "won by Black",
    };
    let note = Some(format!("the rules say this game is {verdict}"));
    let mut moves = Moves::new();
    position.generate_legal_moves(&mut moves);
    if moves.is_empty() {
        let board_only = position.without_history();
        board_only.generate_legal_moves(&mut moves);
        if !moves.is_empty() {
            return (board_only, note);
        }
    }
    (position.clone(), note)
}

/// The format of xiangqi opening books (`tessera book --game xiangqi`, UCCI `bookfiles`): what
/// a book file is checked against before the engine plays from it.
#[must_use]
pub fn book_format() -> tessera_core::BookFormat {
    tessera_core::BookFormat::of("xiangqi", &Position::start())
}

/// The verdict of our rules on `position` in text, for scripts that referee games: a line
/// `result ongoing|draw|red|black` (with the reason), then `legal <moves…>`.
#[must_use]
pub fn judge_report(position: &Position) -> Vec<String> {
    use tessera_core::{Game, Outcome, Side};
    let mut moves = Moves::new();
    position.generate_legal_moves(&mut moves);
    let result = match position.outcome() {
        None => "result ongoing".to_owned(),
        Some(outcome) => {
            let reason = if moves.is_empty() && position.rule_outcome(None).is_none() {
                "no legal move"
            } else if position.move_limit_draw() {
                "60 moves without capture"
            } else {
                position.repetition_verdict().unwrap_or("repetition")
            };
            let winner = match outcome {
                Outcome::Draw => "draw",
                Outcome::Win(Side::First) => "red",
                Outcome::Win(Side::Second) => "black",
            };
            format!("result {winner} ({reason})")
        }
    };
    let legal: Vec<String> = moves.iter().map(|&mv| iccs(mv)).collect();
    vec![result, format!("legal {}", legal.join(" ")).trim_end().to_owned()]
}

#[cfg(test)]
mod tests {
    use tessera_core::harness::check_game_invariants;

    use super::*;

    #[test]
    fn passes_the_game_harness_from_several_positions() {
        assert!(check_game_invariants(&Position::start(), 30, 200, 7) > 2000);
        for fen in [
            "1n1aka3/6r2/1c4n1b/p1p3p2/2b1p4/2c1P3p/P1P3P2/2R1B1RC1/5N3/1N1AKA3 w - - 4 21",
            "4k4/9/9/9/4C4/9/9/9/9/3K5 b - - 0 1",
            "2bak4/4a4/4b4/9/2n6/9/9/4B4/4A4/3AK1B2 w - - 0 1",
            "3k5/9/9/9/9/9/9/9/9/4K1R2 w - - 0 1",
        ] {
            let position: Position = fen.parse().unwrap();
            assert!(check_game_invariants(&position, 10, 300, 11) > 100, "{fen}");
        }
    }

    #[test]
    fn judge_reports_results_and_legal_moves() {
        let mated: Position = "4k4/9/9/9/3r5/9/9/9/9/3K5 w - - 0 1".parse().unwrap();
        assert_eq!(judge_report(&mated), ["result black (no legal move)", "legal"]);
        let start = judge_report(&Position::start());
        assert_eq!(start[0], "result ongoing");
        assert_eq!(start[1].split_whitespace().count(), 45);
    }

    #[test]
    fn banned_moves_are_left_out_unless_nothing_remains() {
        let start = Position::start();
        let banned = [parse_iccs("h2e2").unwrap()];
        let allowed = allowed_moves(&start, &banned);
        assert_eq!(allowed.len(), 43);
        assert!(!allowed.contains(&banned[0]));
    }
}
