//! pbrain command lines: parsing never fails (bad lines become `Malformed`/`Unknown`) and a
//! command prints a line that parses to the same command.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tessera_pbrain_protocol::Command;

fuzz_target!(|line: &str| {
    let command: Command = line.parse().unwrap_or_else(|never| match never {});
    let printed = command.to_string();
    let _: Command = printed.parse().unwrap_or_else(|never| match never {});
});
