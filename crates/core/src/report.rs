//! The text of `perft` and `bench` figures, written the same way by every engine binary's
//! subcommands and by the protocols that offer them as commands ([`crate::perft::Divide::lines`],
//! [`crate::bench::BenchReport::lines`]).
//!
//! The lines follow Stockfish's (`Nodes searched: N`), which scripts and GUIs already read; the
//! bench ends with the signature line `Bench: N` that commits changing the search quote.

use std::time::Duration;

use crate::info::nodes_per_second;

/// `Nodes searched: N`: the total of a perft or a search.
#[must_use]
pub fn nodes_line(nodes: u64) -> String {
    format!("Nodes searched: {nodes}")
}

/// `Time (ms): T` and `Nodes/second: S`.
#[must_use]
pub fn speed_lines(nodes: u64, time: Duration) -> [String; 2] {
    [format!("Time (ms): {}", time.as_millis()), format!("Nodes/second: {}", nodes_per_second(nodes, time))]
}

/// The `bench` text: total nodes, time, speed, and the signature line `Bench: N` (the node count
/// itself for alpha-beta games).
#[must_use]
pub fn bench_lines(nodes: u64, time: Duration, signature: u64) -> Vec<String> {
    let mut lines = vec![nodes_line(nodes)];
    lines.extend(speed_lines(nodes, time));
    lines.push(format!("Bench: {signature}"));
    lines
}

/// Prints `lines` on stdout. A reader that goes away early (`| head`) ends the printing quietly.
pub fn print_lines<I>(lines: I)
where
    I: IntoIterator,
    I::Item: std::fmt::Display,
{
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    for line in lines {
        if writeln!(stdout, "{line}").is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_and_bench_read_like_stockfish() {
        let moves = vec![("e2e4".into(), 2), ("d2d4".into(), 3)];
        let lines = crate::perft::Divide { moves, total: 5, time: Duration::from_millis(10) }.lines();
        assert_eq!(&lines[..4], ["e2e4: 2", "d2d4: 3", "", "Nodes searched: 5"]);
        assert_eq!(lines[4], "Time (ms): 10");
        assert_eq!(lines[5], "Nodes/second: 500");
        let bench = bench_lines(1000, Duration::from_secs(2), 1000);
        assert_eq!(bench, ["Nodes searched: 1000", "Time (ms): 2000", "Nodes/second: 500", "Bench: 1000"]);
    }
}
