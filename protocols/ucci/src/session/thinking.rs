//! The thinking half of the UCCI session: `go` turned into limits, the search's `info` lines and
//! its answer (`bestmove`, `nobestmove`, a draw offer or a resignation, varied by `randomness`).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use tessera_core::io::Output;
use tessera_core::{Bound, Clock, Game, Info, Limits, MoveOf, Notation, Report, Rng, Score, SearchResult, SearchRoot};

use super::Session;
use crate::command::Go;
use crate::report::{message, ucci_score, Verdicts};
use crate::response::{InfoLine, Response, ScoreText};
use crate::Dialect;

/// ElephantEye's answer to a bare `go`: a deep fixed depth.
const BARE_GO_DEPTH: u32 = 12;

/// The latest score and first move of each principal variation (for `randomness`).
type Candidates<D> = Arc<Mutex<Vec<(i32, MoveOf<D>)>>>;

impl<D: Dialect> Session<D> {
    pub(crate) fn go(&mut self, go: &Go) {
        for problem in &go.problems {
            self.report_error(problem.clone());
        }
        if let Some(depth) = go.perft {
            return self.perft(depth);
        }
        let SearchRoot { position, note } = self.dialect.search_root(&self.position);
        if let Some(note) = note {
            self.output.line(Response::Info(message(note)));
        }
        self.position = position;
        self.game_options.prepare(&mut self.position);
        let mut legal = <D::Game as Game>::Moves::default();
        self.position.generate_legal_moves(&mut legal);
        if legal.is_empty() {
            return self.answer_no_move();
        }
        if go.depth == Some(0) {
            let eval = self.dialect.static_eval(&self.position);
            let info = InfoLine { depth: Some(0), score: Some(ScoreText::Plain(eval)), ..InfoLine::default() };
            self.output.lines([Response::Info(info), Response::NoBestMove]);
            return;
        }
        if self.play_from_book(go) {
            return;
        }
        let limits = self.limits(go, &legal);
        self.draw_offered.store(go.draw, Ordering::SeqCst);
        let candidates: Candidates<D> = Arc::default();
        let sink = self.sink(Arc::clone(&candidates));
        let done = self.done(candidates);
        self.engine.go(self.position.clone(), limits, sink, done);
        if self.options.batch && !go.infinite && !go.ponder {
            // Batch mode reads nothing while thinking. Infinite and ponder searches end only on
            // a command, so they are not waited for.
            self.engine.wait();
        }
    }

    /// Answers from the opening book when it is on, holds a move here that is not banned, and
    /// `go` asks for a move to play (a clock or a bare `go`; not an analysis: `depth`, `nodes`,
    /// `infinite` or `ponder`). The move comes with an `info message`, not ElephantEye's `info
    /// depth 0 score <weight>`: GUIs and managers read a score as an evaluation, and a weight is
    /// none (a heavy one would even look like a won position to a resign adjudication).
    fn play_from_book(&mut self, go: &Go) -> bool {
        let analysis = go.infinite || go.ponder || go.depth.is_some() || go.nodes.is_some();
        let Some(book) = self.book.as_mut().filter(|_| !analysis) else { return false };
        let banned = &self.banned;
        let Some(choice) = book.choose(&self.position, |mv| !banned.contains(&mv)) else { return false };
        let mv = D::Notation::default().format_move(&self.position, choice.mv);
        let note = message(format!("book move {mv}, weight {} of {}", choice.weight, choice.total));
        self.output.lines([Response::Info(note), Response::BestMove { mv, ponder: None, draw: false, resign: false }]);
        true
    }

    /// No legal move: usually the side to move has lost (checkmate or stalemate both lose in
    /// xiangqi); a win by rule (the opponent's perpetual check) also leaves no move, and then the
    /// side to move has won.
    fn answer_no_move(&self) {
        let score = match self.position.outcome() {
            Some(tessera_core::Outcome::Win(side)) if side == self.position.side_to_move() => {
                -ucci_score(Score::Mate(0))
            }
            Some(tessera_core::Outcome::Win(_)) => ucci_score(Score::Mate(0)),
            _ => 0,
        };
        let info = InfoLine { depth: Some(0), score: Some(ScoreText::Plain(score)), ..InfoLine::default() };
        self.output.lines([Response::Info(info), Response::NoBestMove]);
    }

    fn limits(&self, go: &Go, legal: &[MoveOf<D>]) -> Limits<MoveOf<D>> {
        let mut limits = Limits::none();
        limits.ponder = go.ponder;
        limits.infinite = go.infinite;
        limits.depth = go.depth.map(|depth| depth.max(1));
        limits.nodes = go.nodes;
        let unit = if self.options.use_millisec { 0.001 } else { 1.0 };
        let seconds = |value: f64| Duration::try_from_secs_f64(value * unit).unwrap_or_default();
        if let Some(time) = go.time {
            limits.clock = Some(Clock {
                ours: seconds(time),
                theirs: go.opp_time.map(seconds),
                increment: go.increment.map(seconds).unwrap_or_default(),
                moves_to_go: go.moves_to_go,
                byo_yomi: None,
            });
        }
        let bounded = limits.depth.is_some() || limits.nodes.is_some();
        if !bounded && limits.is_untimed() && !limits.infinite {
            limits.depth = Some(BARE_GO_DEPTH);
        }
        let allowed: Vec<MoveOf<D>> = legal.iter().copied().filter(|mv| !self.banned.contains(mv)).collect();
        // With every move banned a banned move beats no move at all.
        if !allowed.is_empty() && allowed.len() < legal.len() {
            limits.search_moves = allowed;
        }
        limits
    }

    fn sink(&self, candidates: Candidates<D>) -> impl FnMut(Report<MoveOf<D>>) + Send + 'static {
        let output = self.output.clone();
        let root = self.position.clone();
        move |report| match report {
            Report::Info(info) => {
                if info.bound == Bound::Exact {
                    record_candidate(&candidates, &info);
                }
                write_info::<D>(&output, &root, &info);
            }
            Report::CurrentMove { mv, number, .. } => {
                let info = InfoLine {
                    currmove: Some(D::Notation::default().format_move(&root, mv)),
                    currmovenumber: Some(number),
                    ..InfoLine::default()
                };
                output.line(Response::Info(info));
            }
            Report::Text(text) => output.line(Response::Info(message(text))),
            Report::Analysis { .. } => {}
        }
    }

    fn done(&self, candidates: Candidates<D>) -> impl FnOnce(SearchResult<MoveOf<D>>) + Send + 'static {
        let output = self.output.clone();
        let root = self.position.clone();
        let verdicts = Arc::clone(&self.verdicts);
        let draw_offered = Arc::clone(&self.draw_offered);
        let last_root = Arc::clone(&self.last_root);
        let margin = self.options.randomness.margin();
        let debug = self.options.debug;
        move |result| {
            let notation = D::Notation::default();
            if debug {
                let nps = tessera_core::info::nodes_per_second(result.nodes, result.time);
                let summary = format!(
                    "searched {} nodes in {} ms ({nps} nodes/s), depth {}",
                    result.nodes,
                    result.time.as_millis(),
                    result.depth
                );
                output.line(Response::Info(message(summary)));
            }
            let Some(best) = result.best else {
                return output.line(Response::NoBestMove);
            };
            let bound = Some((ucci_score(result.score), result.depth));
            let text = Some(notation.format_move(&root, best));
            *last_root.lock() = Some((root.hash(), Response::PopHash { best: text, lower: bound, upper: bound }));
            let chosen = if margin > 0 { pick_varied(&candidates.lock(), margin).unwrap_or(best) } else { best };
            let ponder = result.ponder.filter(|_| chosen == best).map(|mv| {
                let mut after = root.clone();
                after.play(chosen);
                notation.format_move(&after, mv)
            });
            let mv = notation.format_move(&root, chosen);
            let verdict = verdicts.lock().decide(result.score, draw_offered.swap(false, Ordering::SeqCst));
            output.line(Response::BestMove { mv, ponder, draw: verdict.draw, resign: verdict.resign });
        }
    }
}

/// Keeps the latest score of each principal variation's first move.
fn record_candidate<M: Copy + PartialEq>(candidates: &Mutex<Vec<(i32, M)>>, info: &Info<M>) {
    let Some(&first) = info.pv.first() else { return };
    let mut candidates = candidates.lock();
    if info.multipv == 1 {
        candidates.clear();
    }
    candidates.push((ucci_score(info.score), first));
}

/// A random move among those within `margin` of the best candidate.
fn pick_varied<M: Copy>(candidates: &[(i32, M)], margin: i32) -> Option<M> {
    let best = candidates.iter().map(|&(score, _)| score).max()?;
    let good: Vec<M> = candidates.iter().filter(|&&(score, _)| score >= best - margin).map(|&(_, mv)| mv).collect();
    let seed =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |time| time.as_nanos() as u64);
    good.get(Rng::new(seed).below(good.len())).copied()
}

/// UCCI shows the main line only, once its value is exact: progress, then depth, score and pv.
fn write_info<D: Dialect>(output: &Output, root: &D::Game, info: &Info<MoveOf<D>>) {
    if info.multipv != 1 || info.bound != Bound::Exact {
        return;
    }
    let time = u64::try_from(info.time.as_millis()).unwrap_or(u64::MAX);
    let progress = InfoLine { time: Some(time), nodes: Some(info.nodes), ..InfoLine::default() };
    let line = InfoLine {
        depth: Some(info.depth),
        score: Some(ScoreText::Plain(ucci_score(info.score))),
        pv: D::Notation::default().format_line(root, &info.pv),
        ..InfoLine::default()
    };
    output.lines([Response::Info(progress), Response::Info(line)]);
}
