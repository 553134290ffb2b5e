//! Threat-space search: VCF (victory by continuous fours) and VCT (by threes and fours).
//!
//! The attacker plays fours (VCF) or fours and open threes (VCT); the defender answers every
//! four at its five point and every three at any point that stops the open four, or with a
//! counter-four. Renju-aware: black never plays a forbidden point, so a five point that black
//! may not block is a win for white. The search is bounded in depth and nodes and polls a stop flag.

use tessera_core::{Game, MoveBuffer, SearchControl, Side};

use crate::board::Board;
use crate::game::Moves;
use crate::point::Point;
use crate::shape::Threat;

/// Most attacking moves tried at one VCT node.
const VCT_WIDTH: usize = 12;

/// Which threats the attacker may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreatKind {
    /// Fours only.
    Vcf,
    /// Open threes and fours.
    Vct,
}

/// A bounded threat-space solver.
#[derive(Debug)]
pub struct ThreatSolver<'a> {
    kind: ThreatKind,
    node_limit: u64,
    /// Nodes visited so far.
    pub nodes: u64,
    stop: Option<&'a SearchControl>,
    line: Vec<Point>,
}

impl<'a> ThreatSolver<'a> {
    /// A solver of `kind` that gives up after `node_limit` nodes or when `stop` says so.
    #[must_use]
    pub fn new(kind: ThreatKind, node_limit: u64, stop: Option<&'a SearchControl>) -> Self {
        ThreatSolver { kind, node_limit, nodes: 0, stop, line: Vec::new() }
    }

    /// A forced win for the side to move within `depth` attacking moves: the winning line
    /// (attacker's move first, defences in between), or `None` if none was found.
    pub fn solve(&mut self, board: &mut Board, depth: u32) -> Option<Vec<Point>> {
        self.line.clear();
        let attacker = board.side_to_move();
        self.attack(board, attacker, depth).then(|| std::mem::take(&mut self.line))
    }

    fn out_of_budget(&self) -> bool {
        self.nodes >= self.node_limit || self.stop.is_some_and(SearchControl::is_stopped)
    }

    fn attack(&mut self, board: &mut Board, attacker: Side, depth: u32) -> bool {
        self.nodes += 1;
        let defender = attacker.opponent();
        if let Some(five) = board.five_point(attacker) {
            self.line.push(five);
            return true;
        }
        if self.out_of_budget() {
            return false;
        }
        let mut moves = Moves::new();
        match board.threat_count(defender, Threat::Five) {
            0 => {
                if depth == 0 {
                    return false;
                }
                let level = if self.kind == ThreatKind::Vcf { Threat::Four } else { Threat::Three };
                board.threat_moves(attacker, level, &mut moves);
                // Strongest threats first, then the best-valued.
                let mut scored: Vec<(Threat, i32, Point)> = moves
                    .iter()
                    .map(|&point| (board.threat_at(attacker, point), board.point_value(point), point))
                    .collect();
                scored.sort_unstable_by(|a, b| b.cmp(a));
                scored.truncate(if self.kind == ThreatKind::Vct { VCT_WIDTH } else { usize::MAX });
                moves.clear();
                for (_, _, point) in scored {
                    moves.push(point);
                }
            }
            1 => {
                // Forced to block; it keeps the attack only if the block is itself a threat or the
                // attacker's pending threat survives (checked by the defence node).
                let block = board.five_point(defender).filter(|&point| board.is_legal(point));
                let Some(block) = block else { return false };
                moves.push(block);
            }
            _ => return false,
        }
        for &point in moves.iter() {
            board.play(point);
            self.line.push(point);
            let won = self.defend(board, attacker, depth.saturating_sub(1));
            board.undo();
            if won {
                return true;
            }
            self.line.pop();
        }
        false
    }

    /// The defender is to move after an attacking move: true if every defence still loses.
    fn defend(&mut self, board: &mut Board, attacker: Side, depth: u32) -> bool {
        self.nodes += 1;
        let defender = attacker.opponent();
        if board.threat_count(defender, Threat::Five) > 0 || self.out_of_budget() {
            return false;
        }
        let fives = board.threat_count(attacker, Threat::Five);
        let mut defences = Moves::new();
        if fives >= 2 {
            // The defender blocks one five point; the attacker plays another.
            let mut points = board.threat_cells(attacker, Threat::Five);
            let (Some(block), Some(five)) = (points.next(), points.next()) else { return false };
            self.line.push(board.point(block));
            self.line.push(board.point(five));
            return true;
        } else if fives == 1 {
            defences.push(board.five_point(attacker).expect("counted above"));
        } else if self.kind == ThreatKind::Vct && board.threat_count(attacker, Threat::FlexFour) > 0 {
            // An open three: the defender's own VCF refutes it.
            let mut counter =
                ThreatSolver::new(ThreatKind::Vcf, (self.node_limit - self.nodes.min(self.node_limit)) / 4, self.stop);
            let refuted = counter.attack(board, defender, 10);
            self.nodes += counter.nodes;
            if refuted {
                return false;
            }
            board.open_three_defences(&mut defences);
        } else {
            return false;
        }
        let mark = self.line.len();
        for &point in defences.iter() {
            // A renju-forbidden point is no defence for black.
            if !board.is_legal(point) {
                continue;
            }
            board.play(point);
            self.line.truncate(mark);
            self.line.push(point);
            let won = self.attack(board, attacker, depth);
            board.undo();
            if !won {
                self.line.truncate(mark);
                return false;
            }
        }
        // Keep the line of the first defence only (it is the principal one shown).
        true
    }
}

impl Board {
    /// The threat `side` makes by playing `point`.
    #[must_use]
    pub fn threat_at(&self, side: Side, point: Point) -> Threat {
        self.threat(side, self.cell(point))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    use crate::tests::board_from as board;

    #[test]
    fn vcf_finds_a_four_four_and_a_chain_of_fours() {
        // Black: a broken three on row 7 and a broken three on column 9 meeting nowhere; white far.
        let mut position = board(
            Rules::FREESTYLE_15,
            &[(5, 7), (0, 0), (6, 7), (0, 2), (7, 7), (0, 4), (9, 4), (14, 0), (9, 5), (14, 2), (9, 6), (14, 4)],
        );
        // Black to move: (4,7)/(8,7) make an open four, so even a VCF of one move wins.
        let line = ThreatSolver::new(ThreatKind::Vcf, 10_000, None).solve(&mut position, 5).expect("a VCF");
        assert!(position.threat_at(Side::First, line[0]) >= Threat::Four);
        // A chain: blocked threes only, each four forcing the next.
        let mut chain = board(
            Rules::FREESTYLE_15,
            &[(7, 7), (6, 7), (8, 7), (11, 7), (9, 8), (0, 0), (9, 9), (9, 11), (9, 10), (0, 2), (10, 10), (14, 14)],
        );
        let line = ThreatSolver::new(ThreatKind::Vcf, 100_000, None).solve(&mut chain, 10).expect("a VCF");
        let mut replay = chain.clone();
        for &point in &line {
            assert!(replay.is_legal(point), "{point} in {line:?}");
            replay.play(point);
        }
        assert_eq!(replay.winner(), Some(Side::First));
    }

    #[test]
    fn no_vcf_without_fours_but_vct_with_threes() {
        // Two open twos crossing: no four anywhere, but threes win (VCT).
        let mut position =
            board(Rules::FREESTYLE_15, &[(7, 7), (0, 0), (8, 7), (0, 14), (10, 5), (14, 0), (10, 6), (14, 14)]);
        assert!(ThreatSolver::new(ThreatKind::Vcf, 100_000, None).solve(&mut position, 10).is_none());
        let line = ThreatSolver::new(ThreatKind::Vct, 200_000, None).solve(&mut position, 6).expect("a VCT");
        assert!(!line.is_empty());
    }

    #[test]
    fn white_wins_on_blacks_forbidden_block() {
        // Black's 8,7 is a double three; white's 12,11 makes a four whose only five point is 8,7.
        let moves = [(6, 7), (9, 8), (7, 7), (10, 9), (8, 5), (11, 10), (8, 6), (0, 14), (7, 6), (14, 0), (13, 12)];
        let mut renju = board(Rules::RENJU_15, &moves);
        assert!(renju.is_forbidden(Point::new(8, 7)));
        let line = ThreatSolver::new(ThreatKind::Vcf, 10_000, None).solve(&mut renju, 1).expect("a renju VCF");
        assert_eq!(line[0], Point::new(12, 11));
        let mut freestyle = board(Rules::FREESTYLE_15, &moves);
        assert!(ThreatSolver::new(ThreatKind::Vcf, 10_000, None).solve(&mut freestyle, 1).is_none());
    }
}
