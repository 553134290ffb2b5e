//! AGI command lines: parsing never fails, `GO` keeps each SEARCH point once (so no list of any
//! length can overflow a move list), and a command prints a line that parses again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tessera_agi_protocol::Command;

fuzz_target!(|line: &str| {
    let command: Command = line.parse().unwrap_or_else(|never| match never {});
    if let Command::Go(go) = &command {
        let mut points = go.search.clone();
        points.sort_by_key(|point| (point.grid().row, point.grid().column));
        points.dedup();
        assert_eq!(points.len(), go.search.len(), "repeated SEARCH points: {line:?}");
        assert!(go.search.len() <= 225);
    }
    let _: Command = command.to_string().parse().unwrap_or_else(|never| match never {});
});
