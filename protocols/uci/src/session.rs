//! The engine side of UCI: one handler per command, a search running on the engine thread, and
//! output through one flushed writer. The session loop never blocks on the search: `isready`,
//! `stop`, `ponderhit` and `quit` are answered while it runs; a position change or a new `go`
//! first stops the running search and waits for its `bestmove`.

use std::io::Read;
use std::time::{Duration, Instant};

use tessera_core::info::nodes_per_second;
use tessera_core::io::{spawn_reader, Output};
use tessera_core::{
    memory, Clock, Engine, EngineOptions, Game, Info, Limits, Report, Score, SearchResult, Searcher, Side,
};

use crate::command::{Command, CommandError, Go, Start};
use crate::limiter::Limited;
use crate::options::{Change, Options};
use crate::response::{BoundText, InfoLine, Response, ScoreText};
use crate::{Dialect, GameOptions};

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

/// Whether the session goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit` was received.
    Quit,
}

/// The engine-side UCI state machine.
pub struct Session<D: Dialect> {
    output: Output,
    position: D::Game,
    options: Options,
    game_options: D::Options,
    /// Options changed since the searcher last heard of them.
    options_pending: bool,
    engine: Engine<D::Game, Limited<D::Searcher>>,
    debug: bool,
}

/// Runs a UCI session on `input` until `quit` or the end of input.
pub fn run<D: Dialect>(input: impl Read + Send + 'static, output: Output, settings: Settings) {
    let lines = spawn_reader(input, Some, None);
    let mut session = Session::<D>::new(output, settings);
    for line in lines {
        let Some(line) = line else { break };
        if session.handle_line(&line) == Flow::Quit {
            break;
        }
    }
    session.engine.stop();
}

impl<D: Dialect> Session<D> {
    /// A session writing to `output`.
    #[must_use]
    pub fn new(output: Output, settings: Settings) -> Self {
        let engine_options = EngineOptions {
            threads: settings.threads.max(1),
            hash_mb: settings.hash_mb.clamp(1, memory::max_table_mb()),
            ..EngineOptions::default()
        };
        let searcher = Limited::new(D::new_searcher(&engine_options), &engine_options);
        if let Some(note) = searcher.memory_mb().and_then(|granted| memory::clamp_note(engine_options.hash_mb, granted))
        {
            // Nothing may precede the GUI's `uci` on stdout: the log says it.
            tracing::warn!("{note}");
        }
        Session {
            output,
            position: D::start_position(false),
            options: Options::new(engine_options),
            game_options: D::new_options(),
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
        let mut lines = vec![Response::IdName(D::NAME.into()), Response::IdAuthor(D::AUTHOR.into())];
        lines.extend(self.options.declarations().into_iter().map(Response::Option));
        lines.extend(self.game_options.declarations().into_iter().map(Response::Option));
        lines.push(Response::UciOk);
        self.output.lines(lines);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if let Some(applied) = self.game_options.set(name, value) {
            match applied {
                Ok(note) => note.into_iter().for_each(|note| self.say(note)),
                Err(message) => self.say(message),
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
                    Change::Session => D::set_chess960(&mut self.position, self.options.chess960),
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
        let mut position = match start {
            Start::StartPos => D::start_position(chess960),
            Start::Fen(fen) => match D::from_fen(fen, chess960) {
                Ok(position) => position,
                Err(error) => {
                    self.say(format!("invalid FEN '{fen}': {error}; position unchanged"));
                    return;
                }
            },
        };
        for text in moves {
            match D::parse_move(&position, text, chess960).filter(|&mv| position.is_legal(mv)) {
                Some(mv) => position.play(mv),
                None => {
                    self.say(format!("illegal move {text} in {}; later moves ignored", D::fen(&position)));
                    break;
                }
            }
        }
        if self.debug {
            self.say(format!("position {}", D::fen(&position)));
        }
        self.position = position;
    }

    fn limits(&self, go: &Go) -> Limits<<D::Game as Game>::Move> {
        let white = self.position.side_to_move() == Side::First;
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
        for text in &go.search_moves {
            match D::parse_move(&self.position, text, self.options.chess960).filter(|&mv| self.position.is_legal(mv)) {
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
        let limits = self.limits(&go);
        let chess960 = self.options.chess960;
        let show_wdl = self.options.show_wdl;
        let root = self.position.clone();
        let output = self.output.clone();
        let sink = move |report: Report<<D::Game as Game>::Move>| {
            if let Some(line) = report_line::<D>(&root, report, chess960, show_wdl) {
                output.line(line);
            }
        };
        let root = self.position.clone();
        let output = self.output.clone();
        let done = move |result: SearchResult<<D::Game as Game>::Move>| {
            output.lines(best_move_lines::<D>(&root, &result, chess960));
        };
        let mut position = self.position.clone();
        self.game_options.prepare(&mut position);
        self.engine.go(position, limits, sink, done);
    }

    fn perft(&self, depth: u32) {
        let start = Instant::now();
        let divide = D::perft_divide(&self.position, depth.max(1));
        let mut lines: Vec<String> = divide
            .iter()
            .map(|&(mv, count)| format!("{}: {count}", D::format_move(&self.position, mv, self.options.chess960)))
            .collect();
        let total: u64 = divide.iter().map(|(_, count)| count).sum();
        lines.push(String::new());
        lines.push(format!("Nodes searched: {total}"));
        lines.push(String::new());
        self.output.lines(lines);
        if self.debug {
            self.say(format!("perft {depth}: {} nodes/s", nodes_per_second(total, start.elapsed())));
        }
    }

    fn display(&self) {
        let mut lines = D::diagram(&self.position);
        lines.push(String::new());
        lines.push(format!("Fen: {}", D::fen(&self.position)));
        lines.push(format!("Key: {:016X}", self.position.hash()));
        self.output.lines(lines);
    }

    fn bench(&self, depth: Option<u32>) {
        self.stop_and_wait();
        let (nodes, time) = D::bench(depth, &self.options.engine);
        self.output.lines([
            format!("Total time (ms) : {}", time.as_millis()),
            format!("Nodes searched  : {nodes}"),
            format!("Nodes/second    : {}", nodes_per_second(nodes, time)),
        ]);
    }
}

/// The text of a PV: moves formatted one after another, stopping at anything illegal.
fn pv_text<D: Dialect>(root: &D::Game, pv: &[<D::Game as Game>::Move], chess960: bool) -> Vec<String> {
    let mut position = root.clone();
    let mut texts = Vec::with_capacity(pv.len());
    for &mv in pv {
        if !position.is_legal(mv) {
            break;
        }
        texts.push(D::format_move(&position, mv, chess960));
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

fn wdl_of<D: Dialect>(score: ScoreText) -> (u32, u32, u32) {
    match score {
        ScoreText::Cp(cp) => D::wdl(cp),
        ScoreText::Mate(moves) if moves > 0 => (1000, 0, 0),
        ScoreText::Mate(_) => (0, 0, 1000),
    }
}

fn info_line<D: Dialect>(root: &D::Game, info: &Info<<D::Game as Game>::Move>, chess960: bool, wdl: bool) -> InfoLine {
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
        wdl: wdl.then(|| wdl_of::<D>(score)),
        nodes: Some(info.nodes),
        nps: Some(info.nps()),
        hashfull: info.hashfull,
        time: Some(info.time.as_millis() as u64),
        pv: pv_text::<D>(root, &info.pv, chess960),
        ..InfoLine::default()
    }
}

fn report_line<D: Dialect>(
    root: &D::Game,
    report: Report<<D::Game as Game>::Move>,
    chess960: bool,
    wdl: bool,
) -> Option<Response> {
    Some(Response::Info(match report {
        Report::Info(info) => info_line::<D>(root, &info, chess960, wdl),
        Report::CurrentMove { mv, number, depth } => InfoLine {
            depth: Some(depth),
            currmove: Some(D::format_move(root, mv, chess960)),
            currmovenumber: Some(number),
            ..InfoLine::default()
        },
        Report::Text(text) => InfoLine { string: Some(text), ..InfoLine::default() },
        Report::Analysis { .. } => return None,
    }))
}

/// `bestmove` (and, with no legal move, Stockfish's `info depth 0 score …` before it).
fn best_move_lines<D: Dialect>(
    root: &D::Game,
    result: &SearchResult<<D::Game as Game>::Move>,
    chess960: bool,
) -> Vec<Response> {
    let Some(best) = result.best.filter(|&mv| root.is_legal(mv)) else {
        let mated = root.outcome().is_some_and(|outcome| outcome != tessera_core::Outcome::Draw);
        let score = if mated { ScoreText::Mate(0) } else { ScoreText::Cp(0) };
        return vec![
            Response::Info(InfoLine { depth: Some(0), score: Some((score, BoundText::Exact)), ..InfoLine::default() }),
            Response::BestMove { best: "0000".into(), ponder: None },
        ];
    };
    let mut after = root.clone();
    after.play(best);
    let ponder = result.ponder.filter(|&mv| after.is_legal(mv)).map(|mv| D::format_move(&after, mv, chess960));
    vec![Response::BestMove { best: D::format_move(root, best, chess960), ponder }]
}
