//! UCCI (and its UCI dialect) command lines: any line parses to a command or an error, and a
//! command prints a line that parses again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tessera_ucci_protocol::Command;

fuzz_target!(|line: &str| {
    if let Ok(command) = line.parse::<Command>() {
        let _ = command.to_string().parse::<Command>();
    }
});
