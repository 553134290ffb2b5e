//! The go searcher settings on core's MCTS, and the `bench` that measures playouts per second.

use std::time::{Duration, Instant};

use tessera_core::bench::{Bench, BenchSearch};
use tessera_core::info::nodes_per_second;
use tessera_core::{EngineOptions, Game, Limits, Mcts, MctsConfig, Selection, Widening};

use crate::notation::parse_vertex;
use crate::position::{Move, Position};
use crate::rules::Rules;

/// The MCTS settings tuned for go: PUCT over the heuristic priors, blended with RAVE, widened
/// progressively.
#[must_use]
pub fn mcts_config() -> MctsConfig {
    MctsConfig {
        selection: Selection::Puct { exploration: 1.0, first_play_reduction: 0.1 },
        // RAVE fades after about 20 visits. Before the network, 60 won 87 of 139 self-play games
        // on 9×9 against 200, and 20 measured no better; with the network's priors (which tell
        // the tree what AMAF statistics guessed at) 20 won against 60 in 9×9 self-play at 0.3 s
        // a move (docs/go.md, strength log 2026-12-07).
        rave_equivalence: Some(20.0),
        expand_after: 2,
        reuse_tree: true,
        // A go game lasts long; a move takes about this share of the remaining main time.
        moves_left: 40,
        // Progressive widening over the children in order of prior: at 3000 playouts a move it
        // won 66/100 self-play games on 9×9 against opening every child at once.
        widening: Some(Widening { scale: 4.0, exponent: 0.5 }),
        // A move is settled once the runner-up would need more than 30% of the playouts left to
        // overtake it. At equal time against Pachi on 9×9 the saved time bought 70,000-playout
        // budgets where an exact stop (1) allowed 38,000 and none 24,000: 65, 58 and 46 of the
        // same 128 games (0.5 at 50,000: 63; docs/go.md, strength log 2026-11-30).
        stop_when_settled: Some(0.3),
        // The network costs about ten playouts on 19×19: asking it at 40 visits spends a tenth
        // of a node's playouts on it; 40 and 16 each won their first nine games against GNU Go
        // level 10 at 1 s/move (docs/go.md, strength log 2026-12-01), so the cheaper one stays.
        refine_after: Some(40),
        value_weight: VALUE_WEIGHT,
        ..MctsConfig::default()
    }
}

/// Playouts that the network's value of a refined node counts as in its mean
/// ([`MctsConfig::value_weight`]); `tessera-gtp --value-weight` sets another.
pub const VALUE_WEIGHT: f32 = 0.0;

/// A go searcher with [`mcts_config`], `options` and the network's value weighed as
/// `value_weight` playouts ([`VALUE_WEIGHT`] by default).
#[must_use]
pub fn searcher(options: &EngineOptions, value_weight: f32) -> Mcts<Position> {
    Mcts::new(MctsConfig { value_weight, ..mcts_config() }, options)
}

/// Positions of the bench: an empty board and a short opening, on 9×9 and 19×19.
const BENCH_POSITIONS: [(usize, &[&str]); 4] =
    [(9, &[]), (9, &["E5", "C4", "G4", "D6"]), (19, &[]), (19, &["Q16", "D4", "Q3", "D16", "R5", "K10"])];

/// The playouts of each bench search unless the command line says otherwise.
pub const BENCH_PLAYOUTS: u64 = 5000;

/// The position after the bench line `line` on a board of `size`.
///
/// # Panics
/// Panics only if a bench move were illegal (they are fixed and checked by a test).
fn bench_position(size: usize, line: &[&str]) -> Position {
    let mut position = Position::new(size, Rules::CHINESE);
    for vertex in line {
        let mv = parse_vertex(size, vertex).expect("bench vertices are valid");
        assert!(position.is_legal(mv), "bench move {vertex} is legal");
        position.play(mv);
    }
    position
}

/// The bench: each position searched for `playouts` playouts on one thread ([`GoBench::OPTIONS`]),
/// every playout searched however early the move is settled (it measures speed). Core's
/// [`tessera_core::bench::run`] searches it.
#[derive(Clone, Copy, Debug)]
pub struct GoBench {
    /// Playouts per position.
    pub playouts: u64,
}

impl GoBench {
    /// One thread and a 64 MiB tree: what the bench runs with.
    pub const OPTIONS: EngineOptions =
        EngineOptions { threads: 1, hash_mb: 64, multipv: 1, move_overhead: Duration::from_millis(30) };
}

impl Bench for GoBench {
    type Game = Position;
    type Searcher = Mcts<Position>;

    fn positions(&self) -> Vec<Position> {
        BENCH_POSITIONS.iter().map(|&(size, line)| bench_position(size, line)).collect()
    }

    fn searcher(&self, options: &EngineOptions) -> Mcts<Position> {
        Mcts::new(MctsConfig { stop_when_settled: None, ..mcts_config() }, options)
    }

    fn limits(&self) -> Limits<Move> {
        Limits::nodes(self.playouts)
    }

    /// The playouts are fixed: the best moves and the lengths of their lines make the signature.
    fn signature(&self, searches: &[BenchSearch<Move>]) -> u64 {
        searches
            .iter()
            .map(|search| {
                let best_move = search.result.best.map_or(0, tessera_core::PackedMove::to_bits);
                search.result.nodes + u64::from(best_move) * 7 + u64::from(search.result.depth) * 1009
            })
            .sum()
    }

    /// Each search's speed, bare-playout speed on empty 9×9 and 19×19 boards, and the network's
    /// on both.
    fn figures(&self, searches: &[BenchSearch<Move>]) -> Vec<String> {
        let mut figures: Vec<String> = BENCH_POSITIONS
            .iter()
            .zip(searches)
            .map(|(&(size, _), search)| {
                let speed = nodes_per_second(search.result.nodes, search.time);
                format!("{size}x{size}: {} playouts, {speed} playouts/s (tree search)", search.result.nodes)
            })
            .collect();
        for size in [9, 19] {
            let speed = raw_playout_speed(size, Duration::from_secs(1));
            figures.push(format!("{size}x{size} empty board: {speed} playouts/s (bare playouts, 1 thread)"));
        }
        for (size, with_value, what) in
            [(9, false, "move priors"), (19, false, "move priors"), (19, true, "move priors and value")]
        {
            let speed = network_speed(size, Duration::from_secs(1), with_value);
            figures.push(format!("{size}x{size} network: {speed} evaluations/s ({what}, 1 thread)"));
        }
        figures
    }
}

/// Playouts per second of the bare playout policy on an empty `size` board, single thread.
#[must_use]
pub fn raw_playout_speed(size: usize, duration: Duration) -> u64 {
    use tessera_core::{Playout, Rng};
    let position = Position::new(size, Rules::CHINESE);
    let mut rng = Rng::new(1);
    let mut played = Vec::with_capacity(4 * size * size);
    let start = Instant::now();
    let mut count = 0u64;
    while start.elapsed() < duration {
        for _ in 0..16 {
            played.clear();
            let _ = position.playout(&mut rng, &mut played);
        }
        count += 16;
    }
    nodes_per_second(count, start.elapsed())
}

/// Evaluations per second of the network ([`crate::network`]) on the opened bench position of
/// `size` (9 or 19), single thread, with or without the value head (19×19 only).
///
/// # Panics
/// Panics if the bench has no opened position of `size`.
#[must_use]
pub fn network_speed(size: usize, duration: Duration, with_value: bool) -> u64 {
    let (_, line) = BENCH_POSITIONS
        .iter()
        .find(|(bench_size, line)| *bench_size == size && !line.is_empty())
        .expect("the bench opens a 9×9 and a 19×19 position");
    let position = bench_position(size, line);
    let mut moves = crate::position::Moves::default();
    position.generate_legal_moves(&mut moves);
    let mut priors = vec![0.0; moves.len()];
    let start = Instant::now();
    let mut count = 0u64;
    while start.elapsed() < duration {
        crate::network::evaluate(&position, &moves, &mut priors, with_value);
        count += 1;
    }
    nodes_per_second(count, start.elapsed())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::Searcher;

    /// The mean score of the best root move after a short search, for the side to move.
    fn best_move_score(position: &Position) -> tessera_core::ScoreEstimate {
        let mut searcher = searcher(&EngineOptions { threads: 1, ..EngineOptions::default() }, VALUE_WEIGHT);
        let limits = Limits { report_interval: Some(Duration::from_secs(60)), ..Limits::nodes(400) };
        let mut best_score = None;
        let mut sink = |report: tessera_core::Report<crate::Move>| {
            if let tessera_core::Report::Analysis { moves, .. } = report {
                best_score = moves[0].score;
            }
        };
        searcher.search(position, &limits, &tessera_core::SearchControl::new(), &mut sink);
        best_score.expect("the final analysis carries a score")
    }

    /// Black holds seven of the nine columns of a 9×9 board (37.5 points ahead), Black to move.
    fn seven_columns_for_black() -> Position {
        crate::test_positions::black_holds_columns(9, 7)
    }

    #[test]
    fn root_moves_carry_the_score_their_playouts_reached_for_the_side_to_move() {
        let mut position = seven_columns_for_black();
        let black = best_move_score(&position);
        assert!((30.0..=40.0).contains(&black.mean), "{black:?}");
        position.set_to_move(crate::Cell::White);
        let white = best_move_score(&position);
        assert!((-40.0..=-30.0).contains(&white.mean), "{white:?}");
    }

    #[test]
    fn the_search_reports_its_playouts_ownership_row_by_row_for_black() {
        let position = seven_columns_for_black();
        for threads in [1, 2] {
            let mut searcher = searcher(&EngineOptions { threads, ..EngineOptions::default() }, VALUE_WEIGHT);
            let limits =
                Limits { report_interval: Some(Duration::from_secs(60)), ownership: true, ..Limits::nodes(400) };
            let mut ownership = None;
            let mut sink = |report: tessera_core::Report<crate::Move>| {
                if let tessera_core::Report::Analysis { ownership: reported, .. } = report {
                    ownership = reported;
                }
            };
            searcher.search(&position, &limits, &tessera_core::SearchControl::new(), &mut sink);
            let ownership = ownership.expect("asked for, the ownership comes with the final analysis");
            assert_eq!(ownership.len(), 81);
            // Not ±1: the tree tries invasions of White's two columns (more often where the
            // network ranks them), and a playout from such a move can end with a Black stone alive.
            for (cell, &owner) in ownership.iter().enumerate() {
                let black_column = cell % 9 < 7;
                assert!(if black_column { owner > 0.8 } else { owner < -0.8 }, "{threads} threads: {cell}: {owner}");
            }
        }
    }

    #[test]
    fn bench_is_deterministic_on_one_thread() {
        let bench = GoBench { playouts: 300 };
        let first = tessera_core::bench::run(&bench, &GoBench::OPTIONS);
        let second = tessera_core::bench::run(&bench, &GoBench::OPTIONS);
        assert_eq!(first.signature, second.signature);
        assert_eq!(first.nodes, 4 * 300);
    }
}
