//! The thinking half of the AGI session: `GO` turned into limits (restricted to `SEARCH`), and the
//! answer printed when the search ends (a move, `CHANGE`, or fifth-move proposals).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use tessera_core::{Game, Limits, MoveOf, Report, Score, SearchResult, Searcher};

use super::{move_at, point_of, Session};
use crate::command::{Change, Fifth, GoParams};
use crate::dialect::Dialect;
use crate::response::{Best, InfoLine, Response};
use tessera_core::HexPoint;

/// What the finished search answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    Move,
    /// THIRDCHANGE decision: `CHANGE` when the side to move (white) stands worse.
    ChangeIfWorse,
    /// Black's fifth-move proposals: the best `n` points.
    Proposals(usize),
    /// White's pick among the proposals: the one worst for black.
    WorstProposal,
}

/// Default thinking time when `GO` gives no clock.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);
/// Share of the game time left spent on one move.
const MOVES_TO_PLAN: u32 = 15;

/// Best root lines by MultiPV index: (first move, value).
type Lines<M> = Arc<Mutex<Vec<(M, i64)>>>;

impl<D: Dialect> Session<D> {
    pub(crate) fn go(&mut self, mut params: GoParams) {
        for problem in &params.problems {
            tracing::warn!("{problem}");
        }
        if params.restricted {
            // BESTMOVE must be one of the points: keep those open on this board (and, in renju,
            // not forbidden to black).
            let (open, closed): (Vec<HexPoint>, Vec<HexPoint>) = params
                .search
                .iter()
                .partition(|&&point| move_at::<D>(&self.game, point).is_some_and(|mv| self.game.is_legal(mv)));
            if !closed.is_empty() {
                tracing::warn!("GO SEARCH: {} cannot be played here; ignored", HexPoint::format_list(&closed));
            }
            if open.is_empty() {
                tracing::warn!("GO SEARCH: none of the points can be played here; no BESTMOVE");
                return;
            }
            params.search = open;
        }
        let stones = self.stones.len();
        let answer = match (self.change, self.fifth, stones) {
            (Change::First, _, 1) if !params.ponder => {
                // Black's first stone near the centre is worth taking over.
                let first = move_at::<D>(&self.game, self.stones[0]);
                if first.is_some_and(|stone| self.dialect.takes_first_stone(&self.game, stone)) {
                    self.out.line(Response::BestMove { best: Best::Change, ponder: None });
                    return;
                }
                Answer::Move
            }
            (Change::Third, _, 3) => Answer::ChangeIfWorse,
            (_, Fifth::Two | Fifth::Many(_), 4) if params.search.len() >= 2 => Answer::WorstProposal,
            (_, fifth @ (Fifth::Two | Fifth::Many(_)), 4) => Answer::Proposals(fifth.proposals()),
            _ => Answer::Move,
        };
        let search_moves: Vec<MoveOf<D>> =
            params.search.iter().filter_map(|&point| move_at::<D>(&self.game, point)).collect();
        let multipv = match answer {
            Answer::Proposals(count) => count,
            Answer::WorstProposal => search_moves.len(),
            _ => 1,
        };
        let mut options = self.options.clone();
        options.multipv = multipv;
        self.engine.call(move |searcher| searcher.set_options(&options));
        let untimed = params.infinite || params.ponder;
        let move_time = params
            .time_ms
            .map_or(DEFAULT_MOVE_TIME, |ms| (Duration::from_millis(ms) / MOVES_TO_PLAN).max(Duration::from_millis(10)));
        let limits =
            Limits { move_time: (!untimed).then_some(move_time), infinite: untimed, search_moves, ..Limits::none() };
        if !params.search.is_empty() {
            self.out.line(Response::Info(InfoLine { search: params.search.clone(), ..InfoLine::default() }));
        }
        let lines: Lines<MoveOf<D>> = Arc::new(Mutex::new(Vec::new()));
        let sink = {
            let out = self.out.clone();
            let root = self.game.clone();
            let lines = Arc::clone(&lines);
            move |report: Report<MoveOf<D>>| {
                if let Report::Info(info) = report {
                    let score = agi_score(info.score);
                    let pv: Vec<HexPoint> = info.pv.iter().filter_map(|&mv| point_of::<D>(&root, mv)).collect();
                    if let Some(&first) = info.pv.first() {
                        let mut lines = lines.lock();
                        let index = info.multipv.max(1) as usize - 1;
                        if lines.len() <= index {
                            lines.resize(index + 1, (first, score));
                        }
                        lines[index] = (first, score);
                    }
                    let mut line = InfoLine {
                        depth: Some(info.depth),
                        score: Some(score),
                        pv,
                        nps: Some(info.nps()),
                        ..InfoLine::default()
                    };
                    if let (Score::Mate(moves), Some(&first)) = (info.score, line.pv.first()) {
                        if moves > 0 {
                            line.win = vec![first];
                        } else {
                            line.lose = vec![first];
                        }
                    }
                    out.line(Response::Info(line));
                }
            }
        };
        let allowed = limits.search_moves.clone();
        let done = {
            let out = self.out.clone();
            let dialect = Arc::clone(&self.dialect);
            let root = self.game.clone();
            let quitting = Arc::clone(&self.quitting);
            move |result: SearchResult<MoveOf<D>>| {
                if quitting.load(Ordering::SeqCst) {
                    return;
                }
                let Some(mut best) = result.best else {
                    tracing::warn!("GO on a finished or full board: no BESTMOVE");
                    return;
                };
                if !allowed.is_empty() && !allowed.contains(&best) {
                    // A searcher's fallback (a panic caught by the engine) may name any legal point.
                    tracing::error!("the search answered {best:?} outside SEARCH");
                    best = allowed[0];
                }
                let point = |mv| point_of::<D>(&root, mv);
                let ponder = result.ponder.and_then(point);
                let lines = lines.lock().clone();
                let best = match answer {
                    Answer::ChangeIfWorse if dialect.prefers_change(result.score) => Best::Change,
                    Answer::Proposals(count) if lines.len() >= 2 => {
                        Best::Points(lines.iter().take(count).filter_map(|&(mv, _)| point(mv)).collect())
                    }
                    Answer::WorstProposal if !lines.is_empty() => {
                        // The lines are valued for black (to move): white lets black keep the lowest.
                        let keep = lines.iter().min_by_key(|&&(_, value)| value).map_or(best, |&(mv, _)| mv);
                        Best::Points(point(keep).into_iter().collect())
                    }
                    _ => Best::Points(point(best).into_iter().collect()),
                };
                out.line(Response::BestMove { best, ponder });
            }
        };
        self.engine.go(self.game.clone(), limits, sink, done);
    }
}

/// AGI scores are bare integers: evaluations as they are, wins and losses as ±(10000 − moves).
fn agi_score(score: Score) -> i64 {
    match score {
        Score::Centipawns(cp) => i64::from(cp),
        Score::Mate(moves) if moves > 0 => 10_000 - i64::from(moves),
        Score::Mate(moves) => -10_000 - i64::from(moves),
        Score::WinRate(rate) => ((f64::from(rate) - 0.5) * 2000.0) as i64,
    }
}
