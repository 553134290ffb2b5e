//! `GomokuSearcher`: threat-space search first (a five, a VCF, then a VCT), then the core
//! alpha-beta over the pattern candidates. Two weaker styles serve as fixed references in
//! strength measurements: `Plain` (alpha-beta without the threat solver) and `Greedy` (the
//! best-valued point, no search).

use std::str::FromStr;
use std::time::Instant;

use tessera_core::score::mate_in;
use tessera_core::{
    AlphaBeta, EngineOptions, Evaluate, Game, Info, InfoSink, Limits, Report, Score, SearchControl, SearchResult,
    Searcher,
};

use crate::board::Board;
use crate::eval::WIDE_QUIET_CANDIDATES;
use crate::game::Moves;
use crate::point::Point;
use crate::threat::{ThreatKind, ThreatSolver};

/// How the engine chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Style {
    /// Threat solver plus alpha-beta (the real engine).
    #[default]
    Full,
    /// Alpha-beta alone, to a fixed depth when the limits give none (a reference opponent).
    Plain,
    /// The best-valued candidate, no search (a reference opponent).
    Greedy,
}

/// A style name that is none of `full`, `plain`, `greedy`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown style {0:?} (full, plain, greedy)")]
pub struct UnknownStyle(pub String);

impl FromStr for Style {
    type Err = UnknownStyle;
    fn from_str(text: &str) -> Result<Style, UnknownStyle> {
        match text {
            "full" => Ok(Style::Full),
            "plain" => Ok(Style::Plain),
            "greedy" => Ok(Style::Greedy),
            _ => Err(UnknownStyle(text.into())),
        }
    }
}

/// Depth of the `Plain` reference when the limits set none.
pub const PLAIN_DEPTH: u32 = 4;
/// Deepest alpha-beta iteration.
const MAX_DEPTH: u32 = 40;
/// Node budget of the opponent's VCF/VCT after each root candidate.
const REFUTATION_NODES: u64 = 3_000;
/// Node budget of the root VCF.
const VCF_NODES: u64 = 60_000;
/// Node budget of the root VCT per second of thinking time (and when untimed).
const VCT_NODES: u64 = 40_000;

/// The gomoku searcher (see the module docs).
pub struct GomokuSearcher {
    alpha_beta: AlphaBeta<Board>,
    style: Style,
}

impl GomokuSearcher {
    /// A searcher of `style` with `options` (threads, table size).
    #[must_use]
    pub fn new(options: &EngineOptions, style: Style) -> Self {
        GomokuSearcher { alpha_beta: AlphaBeta::new(options, 25), style }
    }

    /// The style in use.
    #[must_use]
    pub fn style(&self) -> Style {
        self.style
    }
}

fn result(best: Point, score: Score, depth: u32, nodes: u64, start: Instant, pv: Vec<Point>) -> SearchResult<Point> {
    SearchResult { best: Some(best), ponder: pv.get(1).copied(), score, depth, nodes, time: start.elapsed(), pv }
}

impl Searcher<Board> for GomokuSearcher {
    fn search(
        &mut self,
        root: &Board,
        limits: &Limits<Point>,
        control: &SearchControl,
        sink: &mut dyn InfoSink<Point>,
    ) -> SearchResult<Point> {
        let start = Instant::now();
        let mut candidates = Moves::new();
        if limits.search_moves.is_empty() {
            root.candidate_moves(WIDE_QUIET_CANDIDATES, &mut candidates);
        } else {
            // A protocol may pass repeated points: the list holds each legal point once.
            for &mv in &limits.search_moves {
                if root.is_legal(mv) && !candidates.contains(&mv) {
                    candidates.push(mv);
                }
            }
        }
        let Some(&first) = candidates.first() else {
            return self.alpha_beta.search(root, limits, control, sink);
        };
        if candidates.len() == 1 || self.style == Style::Greedy {
            let best = candidates
                .iter()
                .copied()
                .max_by_key(|&mv| {
                    (root.threat_at(root.side_to_move(), mv) == crate::Threat::Five, root.point_value(mv))
                })
                .unwrap_or(first);
            return result(best, Score::Centipawns(root.evaluate()), 1, 1, start, vec![best]);
        }
        let mut threat_nodes = 0;
        // Threat searches scale with the move's time (1 s = the base budgets; untimed = 1 s).
        let budget = limits.move_time.map_or(1.0, |time| time.as_secs_f64().clamp(0.01, 4.0));
        let scaled = |nodes: u64| ((nodes as f64 * budget) as u64).max(50);
        if self.style == Style::Full {
            let mut position = root.clone();
            for (kind, nodes, depth) in
                [(ThreatKind::Vcf, scaled(VCF_NODES), 30), (ThreatKind::Vct, scaled(VCT_NODES), 8)]
            {
                let mut solver = ThreatSolver::new(kind, nodes, Some(control));
                let line = solver.solve(&mut position, depth);
                threat_nodes += solver.nodes;
                if let Some(line) = line.filter(|line| {
                    candidates.contains(&line[0]) || limits.search_moves.is_empty() && root.is_legal(line[0])
                }) {
                    let value = mate_in(line.len());
                    sink.report(Report::Text(format!("{kind:?} found, {} plies", line.len())));
                    sink.report(Report::Info(Info {
                        depth: line.len() as u32,
                        seldepth: line.len() as u32,
                        multipv: 1,
                        score: Score::from_value(value),
                        bound: tessera_core::Bound::Exact,
                        nodes: threat_nodes,
                        time: start.elapsed(),
                        hashfull: None,
                        tablebase_hits: 0,
                        pv: line.clone(),
                    }));
                    return result(line[0], Score::from_value(value), line.len() as u32, threat_nodes, start, line);
                }
            }
        }
        if self.style == Style::Full && limits.search_moves.is_empty() {
            // Keep only the candidates after which the opponent has no VCF. (A VCT filter after it
            // cost more time than it saved at short time controls: see the strength log.)
            let mut position = root.clone();
            let mut safe = Moves::new();
            for &mv in candidates.iter() {
                position.play(mv);
                let mut solver = ThreatSolver::new(ThreatKind::Vcf, scaled(REFUTATION_NODES), Some(control));
                let loses = solver.solve(&mut position, 20).is_some();
                threat_nodes += solver.nodes;
                position.undo();
                if !loses {
                    safe.push(mv);
                }
            }
            if !safe.is_empty() {
                candidates = safe;
            }
            if candidates.len() == 1 {
                let best = candidates[0];
                return result(best, Score::Centipawns(root.evaluate()), 1, threat_nodes, start, vec![best]);
            }
        }
        let mut inner = limits.clone();
        inner.search_moves = candidates.to_vec();
        if self.style == Style::Plain && inner.depth.is_none() {
            inner.depth = Some(PLAIN_DEPTH);
        }
        // Past this the candidate tree is all forced lines: deeper iterations only repeat a proven result.
        inner.depth = Some(inner.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH));
        // The move time needs no cut for the threat searches above: the budget runs on the
        // control's clock, which started with the whole search.
        let mut found = self.alpha_beta.search(root, &inner, control, sink);
        found.nodes += threat_nodes;
        found.time = start.elapsed();
        found
    }

    fn clear(&mut self) {
        self.alpha_beta.clear();
    }

    fn set_options(&mut self, options: &EngineOptions) {
        self.alpha_beta.set_options(options);
    }

    fn memory_mb(&self) -> Option<usize> {
        self.alpha_beta.memory_mb()
    }
}

#[cfg(test)]
mod tests {
    use tessera_core::Silent;

    use super::*;
    use crate::Rules;

    use crate::tests::board_from as board;

    fn best(position: &Board, style: Style, depth: u32) -> Point {
        let mut searcher = GomokuSearcher::new(&EngineOptions::default(), style);
        searcher.search(position, &Limits::depth(depth), &SearchControl::new(), &mut Silent).best.unwrap()
    }

    #[test]
    fn never_misses_a_five_or_a_four_to_block() {
        // White to move with its own four (five at 4,9) while black threatens five at 4,7: white wins.
        let win =
            board(Rules::FREESTYLE_15, &[(0, 7), (0, 9), (1, 7), (1, 9), (2, 7), (2, 9), (3, 7), (3, 9), (14, 14)]);
        for style in [Style::Full, Style::Plain, Style::Greedy] {
            assert_eq!(best(&win, style, 3), Point::new(4, 9), "{style:?}");
        }
        // Black to move must block white's four at 10,3 (black has only threes).
        let block = board(
            Rules::FREESTYLE_15,
            &[(7, 7), (6, 3), (7, 8), (7, 3), (8, 7), (8, 3), (5, 3), (9, 3), (14, 14), (0, 0)],
        );
        for style in [Style::Full, Style::Plain, Style::Greedy] {
            // 5,3 is black: the only five point is 10,3.
            assert_eq!(best(&block, style, 3), Point::new(10, 3), "{style:?}");
        }
    }

    #[test]
    fn plays_a_vcf_and_renju_black_avoids_forbidden_points() {
        let position = board(
            Rules::FREESTYLE_15,
            &[(7, 7), (6, 7), (8, 7), (11, 7), (9, 8), (0, 0), (9, 9), (9, 11), (9, 10), (0, 2), (10, 10), (14, 14)],
        );
        let mv = best(&position, Style::Full, 2);
        assert!(position.threat_at(tessera_core::Side::First, mv) >= crate::Threat::Four);
        // Black's 8,7 is a double three: black must not play it even though it is the natural point.
        let renju = board(Rules::RENJU_15, &[(6, 7), (0, 0), (7, 7), (2, 0), (8, 5), (4, 0), (8, 6), (6, 0)]);
        for depth in 1..=3 {
            assert_ne!(best(&renju, Style::Full, depth), Point::new(8, 7));
        }
    }

    #[test]
    fn announces_no_win_that_an_unsearched_defence_refutes() {
        // White to move, from a game against Rapfi that white lost. Black's defences looked lost
        // to white's straight four as long as futility pruning dropped the others once the first
        // had failed: the search then announced a decisive score (19,900) within 10,000 to
        // 110,000 nodes, and played on it at 1 s a move.
        #[rustfmt::skip]
        let moves = [
            (7, 7), (8, 6), (4, 8), (8, 5), (6, 6), (7, 5), (6, 4), (9, 5), (6, 5), (6, 7), (8, 8), (5, 5), (7, 6),
            (8, 3), (8, 4), (9, 4), (6, 3), (6, 2), (10, 5), (9, 3), (9, 2), (11, 3), (10, 3), (10, 4), (12, 2),
            (11, 5), (12, 6), (11, 4), (11, 6), (11, 2), (11, 1), (12, 4), (13, 4), (9, 1), (13, 5), (8, 0), (10, 2),
        ];
        let mut position = board(Rules::FREESTYLE_15, &moves);
        position.set_network(Some(crate::nnue::default_network()));
        for nodes in [10_000, 20_000, 50_000, 60_000] {
            let mut searcher = GomokuSearcher::new(&EngineOptions::default(), Style::Full);
            let found = searcher.search(&position, &Limits::nodes(nodes), &SearchControl::new(), &mut Silent);
            let claims_a_win = found.score.proven(Board::DECISIVE) > 0;
            assert!(!claims_a_win, "{nodes} nodes: {:?} for {:?}", found.score, found.best);
        }
    }

    /// The one place the search's signatures are written down (the release binary's test checks
    /// that `bench` prints what [`crate::bench::GomokuBench`] counts).
    #[test]
    fn bench_signature() {
        // The default depth, where the pruning and the aspiration windows act (depth 3 ends first).
        let nodes = |network| {
            let bench = crate::bench::GomokuBench { depth: crate::bench::DEPTH, network };
            tessera_core::bench::run(&bench, &EngineOptions::default()).nodes
        };
        assert_eq!(nodes(None), 11_797, "the pattern evaluation's search changed");
        assert_eq!(nodes(Some(crate::nnue::default_network())), 8941, "the default network's search changed");
    }
}
