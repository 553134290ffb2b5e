//! Network files (`EvalFile`): any bytes give a network or an error, never a panic or an
//! allocation the header alone asks for.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tessera_nnue::Network;

fuzz_target!(|bytes: &[u8]| {
    for features in ["chess-768", "bogus"] {
        let _ = Network::from_bytes(bytes, "fuzz", features);
    }
});
