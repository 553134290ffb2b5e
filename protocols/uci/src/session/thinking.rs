//! The thinking half of the UCI session: `go` turned into limits, and the search's `info` and
//! `bestmove` lines.

use std::sync::Arc;
use std::time::Duration;

use tessera_core::{
    memory, Clock, Game, Info, Limits, Notation, Report, Score, SearchResult, SearchRoot, Searcher, Side,
};

use super::Session;
use crate::command::Go;
use crate::response::{BoundText, InfoLine, Response, ScoreText};
use crate::Dialect;

impl<D: Dialect> Session<D> {
    fn limits(&self, go: &Go, root: &D::Game) -> Limits<<D::Game as Game>::Move> {
        let white = root.side_to_move() == Side::First;
        let (ours, theirs, increment) =
            if white { (go.wtime, go.btime, go.winc) } else { (go.btime, go.wtime, go.binc) };
        let millis = Duration::from_millis;
        let clock = ours.map(|ours| Clock {
            ours: millis(ours),
            theirs: theirs.map(millis),
            increment: millis(increment.unwrap_or(0)),
            moves_to_go: go.moves_to_go.filter(|&moves| moves > 0),
            byo_yomi: None,
        });
        let mut search_moves = Vec::new();
        let notation = D::Notation::default();
        for text in &go.search_moves {
            match notation.parse_move(root, text).ok().filter(|&mv| root.is_legal(mv)) {
                Some(mv) => search_moves.push(mv),
                None => self.say(format!("searchmoves: {text} is not legal here; ignored")),
            }
        }
        Limits {
            depth: go.depth.map(|depth| depth.max(1)),
            nodes: go.nodes,
            move_time: go.move_time.map(millis),
            clock,
            infinite: go.infinite,
            ponder: go.ponder,
            mate: go.mate.filter(|&moves| moves > 0),
            search_moves,
            report_interval: None,
            ownership: false,
        }
    }

    pub(crate) fn go(&mut self, go: Go) {
        self.stop_and_wait();
        for problem in &go.problems {
            self.say(problem.clone());
        }
        if let Some(depth) = go.perft {
            self.perft(depth);
            return;
        }
        if self.options_pending {
            let options = self.options.engine.clone();
            let asked = options.hash_mb;
            let strength = self.options.strength();
            let granted = self.engine.call(move |searcher| {
                searcher.set_options(&options);
                D::set_strength(searcher, strength);
                searcher.memory_mb()
            });
            if let Some(note) = granted.and_then(|granted| memory::clamp_note(asked, granted)) {
                self.say(note);
            }
            self.options_pending = false;
        }
        let SearchRoot { position: root, note } = self.dialect.search_root(&self.position);
        if let Some(note) = note {
            self.say(note);
        }
        let limits = self.limits(&go, &root);
        if self.play_from_book(&go, &root, &limits.search_moves) {
            return;
        }
        let show_wdl = self.options.show_wdl;
        let dialect = Arc::clone(&self.dialect);
        let sink_root = root.clone();
        let output = self.output.clone();
        let sink = move |report: Report<<D::Game as Game>::Move>| {
            if let Some(line) = report_line(dialect.as_ref(), &sink_root, report, show_wdl) {
                output.line(line);
            }
        };
        let done_root = root.clone();
        let output = self.output.clone();
        let done = move |result: SearchResult<<D::Game as Game>::Move>| {
            output.lines(best_move_lines::<D>(&done_root, &result));
        };
        let mut position = root;
        self.game_options.prepare(&mut position);
        self.engine.go(position, limits, sink, done);
    }

    /// Answers from the opening book when `OwnBook` is on, the book holds a move of `root`
    /// among `search_moves` (all when empty), and `go` asks for a move to play (a clock, a move
    /// time or nothing; not `depth`, `nodes`, `mate`, `infinite` or `ponder`, which ask for a
    /// search).
    fn play_from_book(&mut self, go: &Go, root: &D::Game, search_moves: &[<D::Game as Game>::Move]) -> bool {
        let analysis = go.infinite || go.ponder || go.depth.is_some() || go.nodes.is_some() || go.mate.is_some();
        let Some(book) = self.book.as_mut().filter(|_| !analysis) else { return false };
        let allowed = |mv| search_moves.is_empty() || search_moves.contains(&mv);
        let Some(choice) = book.choose(root, allowed) else { return false };
        let best = D::Notation::default().format_move(root, choice.mv);
        let note = format!("book move {best}, weight {} of {}", choice.weight, choice.total);
        self.output.lines([Response::text(note), Response::BestMove { best, ponder: None }]);
        true
    }
}

fn score_text(score: Score) -> ScoreText {
    match score {
        Score::Centipawns(cp) => ScoreText::Cp(cp),
        Score::Mate(moves) => ScoreText::Mate(moves),
        Score::WinRate(rate) => {
            let rate = f64::from(rate.clamp(0.001, 0.999));
            ScoreText::Cp((200.0 * (rate / (1.0 - rate)).ln()).round() as i32)
        }
    }
}

fn wdl_of<D: Dialect>(dialect: &D, score: ScoreText) -> (u32, u32, u32) {
    match score {
        ScoreText::Cp(cp) => dialect.wdl(cp),
        ScoreText::Mate(moves) if moves > 0 => (1000, 0, 0),
        ScoreText::Mate(_) => (0, 0, 1000),
    }
}

fn info_line<D: Dialect>(dialect: &D, root: &D::Game, info: &Info<<D::Game as Game>::Move>, wdl: bool) -> InfoLine {
    let score = score_text(info.score);
    let bound = match info.bound {
        tessera_core::Bound::Exact => BoundText::Exact,
        tessera_core::Bound::Lower => BoundText::Lower,
        tessera_core::Bound::Upper => BoundText::Upper,
    };
    InfoLine {
        depth: Some(info.depth),
        seldepth: Some(info.seldepth),
        multipv: Some(info.multipv),
        score: Some((score, bound)),
        wdl: wdl.then(|| wdl_of(dialect, score)),
        nodes: Some(info.nodes),
        nps: Some(info.nps()),
        hashfull: info.hashfull,
        // Said only once a tablebase has answered, as Stockfish does with tables loaded.
        tbhits: (info.tablebase_hits > 0).then_some(info.tablebase_hits),
        time: Some(info.time.as_millis() as u64),
        pv: D::Notation::default().format_line(root, &info.pv),
        ..InfoLine::default()
    }
}

fn report_line<D: Dialect>(
    dialect: &D,
    root: &D::Game,
    report: Report<<D::Game as Game>::Move>,
    wdl: bool,
) -> Option<Response> {
    Some(Response::Info(match report {
        Report::Info(info) => info_line(dialect, root, &info, wdl),
        Report::CurrentMove { mv, number, depth } => InfoLine {
            depth: Some(depth),
            currmove: Some(D::Notation::default().format_move(root, mv)),
            currmovenumber: Some(number),
            ..InfoLine::default()
        },
        Report::Text(text) => InfoLine { string: Some(text), ..InfoLine::default() },
        Report::Analysis { .. } => return None,
    }))
}

/// `bestmove` (and, with no legal move, Stockfish's `info depth 0 score …` before it).
fn best_move_lines<D: Dialect>(root: &D::Game, result: &SearchResult<<D::Game as Game>::Move>) -> Vec<Response> {
    let notation = D::Notation::default();
    let Some(best) = result.best.filter(|&mv| root.is_legal(mv)) else {
        let mated = root.outcome().is_some_and(|outcome| outcome != tessera_core::Outcome::Draw);
        let score = if mated { ScoreText::Mate(0) } else { ScoreText::Cp(0) };
        return vec![
            Response::Info(InfoLine { depth: Some(0), score: Some((score, BoundText::Exact)), ..InfoLine::default() }),
            Response::BestMove { best: D::NO_MOVE.into(), ponder: None },
        ];
    };
    let mut after = root.clone();
    after.play(best);
    let ponder = result.ponder.filter(|&mv| after.is_legal(mv)).map(|mv| notation.format_move(&after, mv));
    vec![Response::BestMove { best: notation.format_move(root, best), ponder }]
}
