//! Xiangqi FEN: any text gives a position or an error, and legal moves can be generated from it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tessera_core::Game;
use tessera_xiangqi::Position;

fuzz_target!(|text: &str| {
    if let Ok(position) = text.parse::<Position>() {
        let mut moves = <Position as Game>::Moves::default();
        position.generate_legal_moves(&mut moves);
        let _ = position.rule_outcome(None);
    }
});
