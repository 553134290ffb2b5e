//! The thinking half of the pbrain session: one search per request and the answer (a move, `SWAP`,
//! or a `YXNBEST` suggestion) printed when it ends, after one `MESSAGE` line with the search's
//! last depth, score and line. Yixin-Board's `show_detail` asks for every depth as it comes and
//! the realtime markers; managers get the one line only, since Piskvork reads a byte at a time
//! and charges the reading to the engine's clock (with thirty lines a move, a quarter second).

use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;

use tessera_core::{memory, Limits, MoveOf, Notation, Report, Score, SearchResult, Searcher};

use super::{coordinates, Session};
use crate::dialect::Dialect;
use crate::info::move_budget;
use crate::response::Response;

/// What a finished search answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// Print and play the best move.
    Move,
    /// `YXNBEST`: print the move, do not play it.
    Analysis,
    /// Swap2 with 3 stones (white to move): `SWAP` if white is worse, else a move.
    SwapOrMove,
}

impl<D: Dialect> Session<D> {
    pub(crate) fn think(&mut self, answer: Answer, multipv: Option<usize>) {
        let Some(game) = self.game.clone() else { return };
        let mut options = self.options.clone();
        options.multipv = multipv.unwrap_or(1);
        if self.applied_options.as_ref() != Some(&options) {
            let applied = options.clone();
            let granted = self.engine.call(move |searcher| {
                searcher.set_options(&applied);
                searcher.memory_mb()
            });
            if let Some(note) = granted.and_then(|granted| memory::clamp_note(options.hash_mb, granted)) {
                self.out.line(Response::Message(note));
            }
            self.applied_options = Some(options);
        }
        self.measure_the_managers_cost();
        let (width, height) = self.size.unwrap_or_default();
        let empty = i64::from(width * height).saturating_sub(self.stones.len() as i64);
        let budget = move_budget(&self.time, (empty + 1) / 2);
        let limits = Limits {
            move_time: Some(budget),
            depth: self.max_depth,
            nodes: self.max_nodes,
            report_interval: Some(Duration::from_millis(500)),
            ..Limits::none()
        };
        // The last depth's line, said with the move unless every depth is said as it comes.
        let summary = Arc::new(Mutex::new(None::<Response>));
        let sink = {
            let out = self.out.clone();
            let root = game.clone();
            let show_detail = self.show_detail;
            let summary = Arc::clone(&summary);
            move |report: Report<MoveOf<D>>| match report {
                Report::Info(info) => {
                    let notation = D::Notation::default();
                    let pv = notation.format_line(&root, &info.pv);
                    let line = Response::Message(format!(
                        "depth {} eval {} nodes {} nps {} pv {}",
                        info.depth,
                        score_text(info.score),
                        info.nodes,
                        info.nps(),
                        pv.join(" ")
                    ));
                    if !show_detail {
                        *summary.lock() = Some(line);
                        return;
                    }
                    let mut lines = vec![line];
                    if let Some(&best) = info.pv.first() {
                        lines.push(Response::Message(format!("REALTIME BEST {}", notation.format_move(&root, best))));
                    }
                    out.lines(lines);
                }
                Report::CurrentMove { mv, .. } if show_detail => {
                    let text = D::Notation::default().format_move(&root, mv);
                    out.line(Response::Message(format!("REALTIME POS {text}")));
                }
                Report::Text(text) => out.line(Response::Message(text)),
                _ => {}
            }
        };
        let done = {
            let out = self.out.clone();
            let dialect = Arc::clone(&self.dialect);
            let ours = Arc::clone(&self.ours);
            let root = game.clone();
            let last_search = Arc::clone(&self.last_search);
            let left_before = self.time.left_ms;
            move |result: SearchResult<MoveOf<D>>| {
                let Some((best, (x, y))) = result.best.and_then(|mv| Some((mv, coordinates::<D>(&root, mv)?))) else {
                    out.line(Response::Error("no legal move".into()));
                    return;
                };
                *last_search.lock() = left_before.map(|left| (left, result.time));
                let summary = summary.lock().take();
                let answer = match answer {
                    Answer::SwapOrMove if dialect.prefers_swap(result.score) => Response::Swap,
                    Answer::Analysis => Response::Move(x, y),
                    Answer::Move | Answer::SwapOrMove => {
                        // Queue the move before printing it: the manager's next command may come at once.
                        ours.lock().push(best);
                        Response::Move(x, y)
                    }
                };
                out.lines(summary.into_iter().chain([answer]));
            }
        };
        if self.show_detail {
            self.out.line(Response::Message("REALTIME REFRESH".into()));
        }
        self.engine.go(game, limits, sink, done);
    }

    /// Our last move cost the manager's clock the `time_left` it lost since; what our search did
    /// not take of it is the manager's cost of a move, which later budgets leave room for.
    fn measure_the_managers_cost(&mut self) {
        let last = self.last_search.lock().take();
        if let (Some((left_before, searched)), Some(left_now), true) = (last, self.time.left_ms, self.clock_sent) {
            let searched_ms = i64::try_from(searched.as_millis()).unwrap_or(i64::MAX);
            self.time.observe_overhead(left_before.saturating_sub(left_now).saturating_sub(searched_ms));
        }
        self.clock_sent = false;
    }
}

fn score_text(score: Score) -> String {
    match score {
        Score::Centipawns(cp) => cp.to_string(),
        Score::Mate(moves) if moves > 0 => format!("+M{moves}"),
        Score::Mate(moves) => format!("-M{}", -moves),
        Score::WinRate(rate) => format!("{:.1}%", rate * 100.0),
    }
}
