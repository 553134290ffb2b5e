//! Every position of the chess and Chess960 perft suites at every listed depth, counted by the
//! release binary's `perft` subcommand (the debug-build tests in `crates/chess` stop earlier).

mod support;

use std::process::Command;

fn perft(fen: &str, depth: u32) -> u64 {
    let output = Command::new(support::engine_binary("tessera-uci"))
        .args(["perft", &depth.to_string(), "--fen", fen])
        .output()
        .expect("running tessera-uci perft");
    assert!(output.status.success(), "perft failed on {fen}: {}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8_lossy(&output.stdout);
    let total = text
        .lines()
        .find_map(|line| line.strip_prefix("Nodes searched: "))
        .unwrap_or_else(|| panic!("no total in:\n{text}"));
    let per_move: u64 = text
        .lines()
        .filter_map(|line| line.split_once(": "))
        .filter(|(mv, _)| mv.len() >= 4 && mv.len() <= 5 && mv.chars().all(|c| c.is_ascii_alphanumeric()))
        .map(|(_, count)| count.trim().parse::<u64>().expect("a count"))
        .sum();
    let total: u64 = total.trim().parse().expect("a total");
    assert_eq!(per_move, total, "per-move counts must add up for {fen}");
    assert!(text.contains("Nodes/second: "), "{text}");
    total
}

fn run_suite(file: &str) {
    let text = std::fs::read_to_string(support::reference_file(file)).expect("reading the perft suite");
    let mut checked = 0;
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let mut parts = line.split(';');
        let fen = parts.next().expect("a FEN").trim();
        for part in parts {
            let (depth, expected) = part.trim().split_once(' ').expect("D<depth> <count>");
            let depth: u32 = depth.trim_start_matches('D').parse().expect("a depth");
            let expected: u64 = expected.trim().parse().expect("a count");
            assert_eq!(perft(fen, depth), expected, "{fen} at depth {depth}");
            checked += 1;
        }
    }
    assert!(checked > 30, "{file}: only {checked} entries");
}

#[test]
fn standard_suite_every_depth() {
    run_suite("chess-perft.epd");
}

#[test]
fn chess960_suite_every_depth() {
    run_suite("chess960-perft.epd");
}
