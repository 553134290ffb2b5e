//! Chess FEN (standard and Chess960 castling letters): any text gives a position or an error, and
//! a position read writes a FEN that reads back to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tessera_chess::{Chess, Rules};
use tessera_core::Game;

fuzz_target!(|text: &str| {
    for rules in [Rules::STANDARD, Rules::CHESS960] {
        if let Ok(position) = Chess::from_fen(text, rules) {
            let mut moves = <Chess as Game>::Moves::default();
            position.generate_legal_moves(&mut moves);
            let again = Chess::from_fen(&position.fen(), rules).expect("our own FEN reads back");
            assert_eq!(again.fen(), position.fen());
        }
    }
});
