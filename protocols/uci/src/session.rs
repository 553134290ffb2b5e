//! The engine side of UCI: one handler per command, a search running on the engine thread, and
//! output through one flushed writer. The session loop never blocks on the search: `isready`,
//! `stop`, `ponderhit` and `quit` are answered while it runs; a position change or a new `go`
//! first stops the running search and waits for its `bestmove`.

use std::io::Read;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tessera_core::info::nodes_per_second;
use tessera_core::io::Output;
use tessera_core::{
    memory, report, serve, Clock, Engine, EngineOptions, Flow, Game, Info, Input, Limits, LineSession, Notation,
    Report, Score, SearchResult, Searcher, Side,
};

use crate::command::{Command, CommandError, Go, Start};
use crate::limiter::Limited;
use crate::options::{Change, Options};
use crate::response::{BoundText, InfoLine, Response, ScoreText};
use crate::{Dialect, GameOptions, SearchRoot};

/// Start-up settings from the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Initial `Hash` in MiB.
    pub hash_mb: usize,
    /// Initial `Threads`.
    pub threads: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { hash_mb: 16, threads: 1 }
    }
}

/// The engine-side UCI state machine.
pub struct Session<D: Dialect> {
    dialect: Arc<D>,
    output: Output,
    position: D::Game,
    options: Options,
    game_options: D::Options,
    /// Options changed since the searcher last heard of them.
    options_pending: bool,
    engine: Engine<D::Game, Limited<D::Searcher>>,
    debug: bool,
}

/// Runs a UCI session of `dialect` on `input` until `quit` or the end of input.
pub fn run<D: Dialect>(dialect: D, input: impl Read + Send + 'static, output: Output, settings: Settings) {
    serve(&mut Session::new(dialect, output, settings), input);
}

impl<D: Dialect> LineSession for Session<D> {
    fn handle_line(&mut self, line: &str, _input: &mut Input) -> Flow {
        Session::handle_line(self, line)
    }

    fn finish(&mut self) {
        self.engine.stop();
    }
}

impl<D: Dialect> Session<D> {
    /// A session of `dialect` writing to `output`.
    #[must_use]
    pub fn new(dialect: D, output: Output, settings: Settings) -> Self {
        let engine_options = EngineOptions {
            threads: settings.threads.max(1),
            hash_mb: settings.hash_mb.clamp(1, memory::max_table_mb()),
            ..EngineOptions::default()
        };
        let searcher = Limited::new(dialect.new_searcher(&engine_options), &engine_options);
        if let Some(note) = searcher.memory_mb().and_then(|granted| memory::clamp_note(engine_options.hash_mb, granted))
        {
            // Nothing may precede the GUI's `uci` on stdout: the log says it.
            tracing::warn!("{note}");
        }
        Session {
            position: dialect.start_position(false),
            options: Options::new(engine_options),
            game_options: dialect.new_options(),
            dialect: Arc::new(dialect),
            output,
            options_pending: false,
            engine: Engine::new(searcher),
            debug: false,
        }
    }

    /// Blocks until no search runs (tests use it to read complete transcripts).
    pub fn wait(&self) {
        self.engine.wait();
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &D::Game {
        &self.position
    }

    fn say(&self, text: impl Into<String>) {
        self.output.line(Response::text(text));
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        match line.parse::<Command>() {
            Ok(command) => self.handle(command),
            Err(CommandError::Empty) => Flow::Continue,
            Err(error) => {
                self.say(error.to_string());
                Flow::Continue
            }
        }
    }

    /// Handles one command.
    pub fn handle(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => self.uci(),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.output.line(Response::ReadyOk),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Register => {}
            Command::UciNewGame => {
                self.stop_and_wait();
                self.engine.call(|searcher| searcher.clear());
            }
            Command::Position { start, moves } => self.set_position(&start, &moves),
            Command::Go(go) => self.go(go),
            Command::Stop => self.engine.stop(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Quit => return Flow::Quit,
            Command::Display => self.display(),
            Command::Bench(depth) => self.bench(depth),
        }
        Flow::Continue
    }

    fn stop_and_wait(&self) {
        self.engine.stop();
        self.engine.wait();
    }

    fn uci(&self) {
        let identity = self.dialect.identity();
        let mut lines = vec![Response::IdName(identity.full_name()), Response::IdAuthor(identity.author)];
        lines.extend(self.options.declarations(D::CHESS960).into_iter().map(Response::Option));
        lines.extend(self.game_options.declarations().into_iter().map(Response::Option));
        lines.push(Response::UciOk);
        self.output.lines(lines);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if let Some(applied) = self.game_options.set(name, value) {
            match applied {
                Ok(note) => note.into_iter().for_each(|note| self.say(note)),
                Err(error) => self.say(error.to_string()),
            }
            return;
        }
        match self.options.set(name, value) {
            Ok((change, note)) => {
                if let Some(note) = note {
                    self.say(note);
                }
                match change {
                    Change::Engine => self.options_pending = true,
                    Change::Session => self.dialect.set_chess960(&mut self.position, self.options.chess960),
                    Change::ClearHash => {
                        if self.engine.is_searching() {
                            self.say("Clear Hash ignored while searching");
                        } else {
                            self.engine.call(|searcher| searcher.clear());
                        }
                    }
                }
            }
            Err(message) => self.say(message),
        }
    }

    fn set_position(&mut self, start: &Start, moves: &[String]) {
        self.stop_and_wait();
        let chess960 = self.options.chess960;
        let notation = D::Notation::default();
        let mut position = match start {
            Start::StartPos => self.dialect.start_position(chess960),
            Start::Fen(fen) => match self.dialect.parse_fen(fen, chess960) {
                Ok(position) => position,
                Err(error) => {
                    self.say(format!("invalid FEN '{fen}': {error}; position unchanged"));
                    return;
                }
            },
        };
        for text in moves {
            match notation.parse_move(&position, text).ok().filter(|&mv| position.is_legal(mv)) {
                Some(mv) => position.play(mv),
                None => {
                    let fen = self.dialect.fen(&position);
                    self.say(format!("illegal move {text} in {fen}; later moves ignored"));
                    break;
                }
            }
        }
        if self.debug {
            self.say(format!("position {}", self.dialect.fen(&position)));
        }
        self.position = position;
    }

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
        }
    }

    fn go(&mut self, go: Go) {
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
                searcher.set_strength(strength);
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

    fn perft(&self, depth: u32) {
        let start = Instant::now();
        let notation = D::Notation::default();
        let divide = self.dialect.perft_divide(&self.position, depth.max(1));
        let total: u64 = divide.iter().map(|(_, count)| count).sum();
        let texts = divide.into_iter().map(|(mv, count)| (notation.format_move(&self.position, mv), count));
        // Stockfish's layout: the split, a blank line, the total, a blank line.
        let mut lines: Vec<String> = report::divide_lines(texts).collect();
        lines.extend([String::new(), report::nodes_line(total), String::new()]);
        self.output.lines(lines);
        if self.debug {
            self.say(format!("perft {depth}: {} nodes/s", nodes_per_second(total, start.elapsed())));
        }
    }

    fn display(&self) {
        let mut lines = self.dialect.diagram(&self.position);
        lines.push(String::new());
        lines.push(format!("Fen: {}", self.dialect.fen(&self.position)));
        lines.push(format!("Key: {:016X}", self.position.hash()));
        self.output.lines(lines);
    }

    fn bench(&self, depth: Option<u32>) {
        self.stop_and_wait();
        let (nodes, time) = self.dialect.bench(depth, &self.options.engine);
        self.output.lines(report::bench_lines(nodes, time));
    }
}

/// The text of a PV: moves formatted one after another, stopping at anything illegal.
fn pv_text<D: Dialect>(root: &D::Game, pv: &[<D::Game as Game>::Move]) -> Vec<String> {
    let notation = D::Notation::default();
    let mut position = root.clone();
    let mut texts = Vec::with_capacity(pv.len());
    for &mv in pv {
        if !position.is_legal(mv) {
            break;
        }
        texts.push(notation.format_move(&position, mv));
        position.play(mv);
    }
    texts
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
        time: Some(info.time.as_millis() as u64),
        pv: pv_text::<D>(root, &info.pv),
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
