//! UCI command lines: any line parses to a command or an error; a command prints a line that
//! parses back to the same command.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tessera_uci_protocol::Command;

fuzz_target!(|line: &str| {
    if let Ok(command) = line.parse::<Command>() {
        let _ = command.to_string().parse::<Command>();
    }
});
