//! SGF records (what `loadsgf` reads): any text gives a record or an error, and a record gives a
//! position or an error, at every move number.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tessera_go::{sgf, Rules};

fuzz_target!(|text: &str| {
    if let Ok(record) = sgf::parse(text) {
        for move_number in [None, Some(0), Some(1), Some(record.moves.len() / 2)] {
            if let Ok(position) = record.to_position(Rules::CHINESE, move_number) {
                let _ = sgf::write(&position, None, "tessera-fuzz");
            }
        }
    }
});
