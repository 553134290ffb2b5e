//! Every position of the xiangqi perft suite at every listed depth, counted by the release
//! binary's `perft` subcommand (`tessera-ucci perft <depth> --fen <FEN>`).

mod support;

use std::process::Command;

fn perft_total(fen: &str, depth: u32) -> u64 {
    let output = Command::new(support::engine_binary("tessera-ucci"))
        .args(["perft", &depth.to_string(), "--fen", fen])
        .output()
        .expect("running tessera-ucci perft");
    assert!(output.status.success(), "perft failed on {fen}");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.lines().any(|line| line.starts_with("Nodes/second: ")), "{text}");
    let total = text.lines().find_map(|line| line.strip_prefix("Nodes searched: ")).expect("a total line");
    let split: u64 = text
        .lines()
        .filter_map(|line| line.split_once(": ").filter(|(mv, _)| mv.len() == 4))
        .map(|(_, count)| count.parse::<u64>().expect("a count"))
        .sum();
    let total: u64 = total.parse().expect("a number");
    assert_eq!(split, total, "per-move counts must add up for {fen}");
    total
}

#[test]
fn every_reference_position_at_every_depth() {
    let suite = std::fs::read_to_string(support::reference_file("xiangqi-perft.epd")).expect("the perft suite");
    let mut checked = 0;
    for line in suite.lines().filter(|line| !line.trim().is_empty()) {
        let mut fields = line.split(';');
        let fen = fields.next().expect("a FEN").trim();
        for field in fields {
            let (depth, count) = field.trim().split_once(' ').expect("D<depth> <count>");
            let depth: u32 = depth.trim_start_matches('D').parse().expect("a depth");
            let count: u64 = count.parse().expect("a count");
            assert_eq!(perft_total(fen, depth), count, "{fen} at depth {depth}");
            checked += 1;
        }
    }
    assert!(checked >= 70, "only {checked} counts in the suite");
}
