//! GTP input lines: pre-processing, the command id and the command parse; a command prints text
//! that parses again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tessera_gtp_protocol::command::{preprocess, split_id};
use tessera_gtp_protocol::Command;

fuzz_target!(|line: &str| {
    let text = preprocess(line);
    let (_id, command_text) = split_id(&text);
    if let Ok(command) = command_text.parse::<Command>() {
        let _ = command.to_string().parse::<Command>();
    }
});
