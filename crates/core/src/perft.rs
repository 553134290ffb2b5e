//! Perft: the leaves of the legal move tree below a position, the standard check of a game's move
//! generation, and the one `perft` text every engine prints ([`perft_lines`]).

use std::time::{Duration, Instant};

use crate::game::{Game, GameExt, Notation};
use crate::report;

/// Counting the legal move tree. The provided methods play every move; a game with a faster count
/// (the last ply counted in bulk) overrides them with the same numbers.
pub trait Perft: Game {
    /// Leaves at `depth` below this position (1 at depth 0).
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Self::Moves::default();
        self.generate_legal_moves(&mut moves);
        let mut position = self.clone();
        moves.iter().map(|&mv| position.play_scoped(mv).perft(depth - 1)).sum()
    }

    /// Leaves at `depth` (≥ 1) below each legal move, in generation order ("divide").
    fn perft_divide(&self, depth: u32) -> Vec<(Self::Move, u64)> {
        let mut moves = Self::Moves::default();
        self.generate_legal_moves(&mut moves);
        let mut position = self.clone();
        moves.iter().map(|&mv| (mv, position.play_scoped(mv).perft(depth.saturating_sub(1)))).collect()
    }
}

/// A perft split in move text: what `perft` subcommands and protocols' `go perft` print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divide {
    /// Each legal root move in the notation, with its leaves, in generation order.
    pub moves: Vec<(String, u64)>,
    /// The leaves below all of them.
    pub total: u64,
    /// The time the count took.
    pub time: Duration,
}

impl Divide {
    /// Counts the leaves at `depth` (at least 1) below each legal move of `position`, written in
    /// `notation`.
    pub fn count<N: Notation<Game: Perft>>(position: &N::Game, depth: u32, notation: &N) -> Divide {
        let start = Instant::now();
        let split = position.perft_divide(depth.max(1));
        let time = start.elapsed();
        let total = split.iter().map(|(_, count)| count).sum();
        let moves = split.into_iter().map(|(mv, count)| (notation.format_move(position, mv), count)).collect();
        Divide { moves, total, time }
    }

    /// `<move>: <count>` for each root move.
    pub fn move_lines(&self) -> impl Iterator<Item = String> + '_ {
        self.moves.iter().map(|(mv, count)| format!("{mv}: {count}"))
    }

    /// The `perft` subcommand's text: the split, a blank line, the total, the time and the speed.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self.move_lines().collect();
        lines.push(String::new());
        lines.push(report::nodes_line(self.total));
        lines.extend(report::speed_lines(self.total, self.time));
        lines
    }
}

/// The `perft` text of `position` at `depth` (at least 1): each root move in `notation` with its
/// leaves, the total, the time and the speed.
pub fn perft_lines<N: Notation<Game: Perft>>(position: &N::Game, depth: u32, notation: &N) -> Vec<String> {
    Divide::count(position, depth, notation).lines()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toys::{Numbers, TicTacToe};

    #[test]
    fn tic_tac_toe_counts_like_the_known_tree() {
        let start = TicTacToe::new();
        // 9, 9·8 and 9·8·7: no game ends before the fifth ply.
        assert_eq!([1, 2, 3].map(|depth| start.perft(depth)), [9, 72, 504]);
        assert_eq!(start.perft_divide(2), (0..9).map(|square| (square, 8)).collect::<Vec<_>>());
        let lines = perft_lines(&start, 1, &Numbers::<TicTacToe>::default());
        assert_eq!(
            &lines[..11],
            ["0: 1", "1: 1", "2: 1", "3: 1", "4: 1", "5: 1", "6: 1", "7: 1", "8: 1", "", "Nodes searched: 9"]
        );
    }
}
