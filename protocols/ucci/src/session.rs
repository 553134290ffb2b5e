//! The engine side of a session: boot, idle and thinking states, one handler per command.
//!
//! The reader thread never waits on the search: `go` returns at once and the result is written
//! by the search thread (`done`). `stop`, `ponderhit`, `isready`, `probe` and `quit` act while
//! thinking; any other command first stops the search and waits for its `bestmove`.

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use tessera_core::io::Output;
use tessera_core::{
    memory, serve, Bound, Clock, Engine, Flow, Game, Info, Input, Limits, LineSession, Notation, PackedMove, Report,
    Rng, Score, SearchResult, Searcher,
};

use crate::command::{Command, Go, PositionSpec, Start};
use crate::options::{OptionEffect, Options, Randomness};
use crate::report::{message, ucci_score, VerdictPolicy};
use crate::response::{InfoLine, Response, ScoreText};
use crate::{Dialect, SearchRoot};

/// ElephantEye's answer to a bare `go`: a deep fixed depth.
const BARE_GO_DEPTH: u32 = 12;

type MoveOf<D> = <<D as Dialect>::Game as Game>::Move;

/// The latest score and first move of each principal variation (for `randomness`).
type Candidates<D> = Arc<Mutex<Vec<(i32, MoveOf<D>)>>>;

/// Runs a UCCI session of `dialect` on `input` until `quit` or the end of input.
pub fn run<D: Dialect>(dialect: D, input: impl Read + Send + 'static, output: Output, options: Options) {
    serve(&mut Session::new(dialect, output, options), input);
}

/// One engine session over stdin/stdout (or any reader and [`Output`]).
pub struct Session<D: Dialect> {
    dialect: Arc<D>,
    output: Output,
    engine: Engine<D::Game, D::Searcher>,
    position: D::Game,
    banned: Vec<MoveOf<D>>,
    options: Options,
    verdicts: Arc<Mutex<VerdictPolicy>>,
    draw_offered: Arc<AtomicBool>,
    /// The last finished search: its root key and its answer as `pophash` would give it (the
    /// searcher keeps the positions below the root in its table, not the root itself).
    last_root: Arc<Mutex<Option<(u64, Response)>>>,
}

impl<D: Dialect> Session<D> {
    /// A session in the boot state, writing to `output`, with `options` (threads and hash from
    /// the command line) as the starting values.
    pub fn new(dialect: D, output: Output, mut options: Options) -> Self {
        options.hash_mb = options.hash_mb.clamp(1, options.hash_max_mb);
        let searcher = dialect.new_searcher(&options.engine_options());
        if let Some(note) = searcher.memory_mb().and_then(|granted| memory::clamp_note(options.hash_mb, granted)) {
            // Nothing may precede the GUI's `ucci` on stdout: the log says it.
            tracing::warn!("{note}");
        }
        let position = dialect.start_position();
        Session {
            dialect: Arc::new(dialect),
            output,
            engine: Engine::new(searcher),
            position,
            banned: Vec::new(),
            options,
            verdicts: Arc::new(Mutex::new(VerdictPolicy::default())),
            draw_offered: Arc::new(AtomicBool::new(false)),
            last_root: Arc::default(),
        }
    }

    /// The current position (what the next `go` searches).
    #[must_use]
    pub fn position(&self) -> &D::Game {
        &self.position
    }

    /// Blocks until no search runs (tests use it to make transcripts deterministic).
    pub fn wait(&self) {
        self.engine.wait();
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        match line.parse::<Command>() {
            Ok(command) => self.handle(command),
            Err(error) => {
                self.report_error(error.to_string());
                Flow::Continue
            }
        }
    }

    /// Handles one command.
    pub fn handle(&mut self, command: Command) -> Flow {
        let thinking = self.engine.is_searching();
        let acts_while_thinking = matches!(
            command,
            Command::Stop
                | Command::PonderHit { .. }
                | Command::IsReady
                | Command::Probe(_)
                | Command::Quit
                | Command::Empty
        );
        if thinking && !acts_while_thinking {
            self.engine.stop();
            self.engine.wait();
        }
        match command {
            Command::Ucci => self.boot(),
            Command::IsReady => self.output.line(Response::ReadyOk),
            Command::SetOption { name, value, .. } => self.set_option(&name, value.as_deref()),
            Command::Position(spec) => match self.build_position(&spec) {
                Ok(position) => {
                    self.position = position;
                    self.banned.clear();
                }
                Err(error) => self.report_error(error),
            },
            Command::BanMoves(moves) => self.ban(&moves),
            Command::Go(go) => self.go(&go),
            Command::PonderHit { draw } => {
                if draw {
                    self.draw_offered.store(true, Ordering::SeqCst);
                }
                self.engine.ponderhit();
            }
            Command::Stop if thinking => self.engine.stop(),
            Command::Stop => self.output.line(Response::NoBestMove),
            Command::Probe(spec) => self.probe(&spec, thinking),
            Command::Quit => {
                self.engine.stop();
                self.engine.wait();
                self.output.line(Response::Bye);
                return Flow::Quit;
            }
            Command::Empty => {}
        }
        Flow::Continue
    }

    fn boot(&mut self) {
        let identity = self.dialect.identity();
        let id = |key: &str, value: String| Response::Id { key: key.into(), value };
        let mut lines = vec![
            id("name", identity.full_name()),
            id("copyright", identity.license),
            id("author", identity.author),
            id("user", identity.name),
        ];
        lines.extend(self.options.ucci_declarations().into_iter().map(Response::Option));
        lines.push(Response::UcciOk);
        self.output.lines(lines);
    }

    fn report_error(&self, text: impl Into<String>) {
        let text = text.into();
        tracing::warn!("{text}");
        self.output.line(Response::Info(message(text)));
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.options.set(name, value) {
            OptionEffect::Set if name.eq_ignore_ascii_case("randomness") => self.apply_engine_options(),
            OptionEffect::Set => {}
            OptionEffect::Engine => self.apply_engine_options(),
            OptionEffect::NewGame => self.new_game(),
            OptionEffect::Unknown => tracing::debug!("ignoring unknown option {name}"),
            OptionEffect::BadValue(reason) => self.report_error(format!("option {name}: {reason}")),
        }
    }

    fn apply_engine_options(&mut self) {
        let mut options = self.options.engine_options();
        if self.options.randomness != Randomness::None {
            // Varying the move needs the scores of a few good moves.
            options.multipv = options.multipv.max(4);
        }
        let asked = options.hash_mb;
        let granted = self.engine.call(move |searcher| {
            searcher.set_options(&options);
            searcher.memory_mb()
        });
        if let Some(note) = granted.and_then(|granted| memory::clamp_note(asked, granted)) {
            self.output.line(Response::Info(message(note)));
        }
    }

    fn new_game(&mut self) {
        self.engine.call(|searcher| searcher.clear());
        self.verdicts.lock().clear();
        self.position = self.dialect.start_position();
        self.banned.clear();
    }

    /// The position a `position` or `probe` command describes. An illegal or unreadable move
    /// ends the list there (the position up to it is kept) and is reported.
    fn build_position(&self, spec: &PositionSpec) -> Result<D::Game, String> {
        let mut position = match &spec.start {
            Start::StartPos => self.dialect.start_position(),
            Start::Fen(fen) => self.dialect.parse_fen(fen).map_err(|error| format!("bad FEN '{fen}': {error}"))?,
        };
        let notation = D::Notation::default();
        for text in &spec.moves {
            match notation.parse_move(&position, text).ok() {
                Some(mv) if position.is_legal(mv) => position.play(mv),
                _ => {
                    self.report_error(format!("illegal move '{text}': the moves stop before it"));
                    break;
                }
            }
        }
        Ok(position)
    }

    fn ban(&mut self, moves: &[String]) {
        self.banned.clear();
        let notation = D::Notation::default();
        for text in moves {
            match notation.parse_move(&self.position, text).ok() {
                Some(mv) if self.position.is_legal(mv) => self.banned.push(mv),
                _ => self.report_error(format!("banmoves: '{text}' is not a legal move here")),
            }
        }
    }

    fn probe(&mut self, spec: &PositionSpec, thinking: bool) {
        let position = match self.build_position(spec) {
            Ok(position) => position,
            Err(error) => return self.report_error(error),
        };
        if thinking {
            // The table belongs to the running search thread; answer "not found" rather than wait.
            self.output.line(Response::PopHash { best: None, lower: None, upper: None });
            return;
        }
        let key = position.hash();
        let dialect = Arc::clone(&self.dialect);
        let entry = self.engine.call(move |searcher| dialect.probe(searcher, key));
        let last_root = self.last_root.lock().clone().filter(|(root_key, _)| *root_key == key);
        let response = match (entry, last_root) {
            (None, Some((_, answer))) => answer,
            (None, None) => Response::PopHash { best: None, lower: None, upper: None },
            (Some(entry), _) => {
                let best = entry
                    .move_bits
                    .map(MoveOf::<D>::from_bits)
                    .filter(|&mv| position.is_legal(mv))
                    .map(|mv| D::Notation::default().format_move(&position, mv));
                let value = ucci_score(Score::from_value(entry.value));
                let depth = u32::try_from(entry.depth).unwrap_or(0);
                let lower = matches!(entry.bound, Bound::Exact | Bound::Lower).then_some((value, depth));
                let upper = matches!(entry.bound, Bound::Exact | Bound::Upper).then_some((value, depth));
                Response::PopHash { best, lower, upper }
            }
        };
        self.output.line(response);
    }

    fn perft(&self, depth: u32) {
        let start = Instant::now();
        let split = self.dialect.perft_divide(&self.position, depth.max(1));
        let total: u64 = split.iter().map(|(_, nodes)| nodes).sum();
        let notation = D::Notation::default();
        let mut lines: Vec<Response> = split
            .iter()
            .map(|&(mv, nodes)| Response::PerftMove { mv: notation.format_move(&self.position, mv), nodes })
            .collect();
        lines.push(Response::NodesSearched(total));
        self.output.lines(lines);
        tracing::info!("perft {depth}: {total} nodes in {:?}", start.elapsed());
    }

    fn go(&mut self, go: &Go) {
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

impl<D: Dialect> LineSession for Session<D> {
    fn handle_line(&mut self, line: &str, _input: &mut Input) -> Flow {
        Session::handle_line(self, line)
    }

    fn finish(&mut self) {
        self.engine.stop();
        self.engine.wait();
    }
}

/// Writes a line of moves played from `root`, stopping at the first move that is not legal.
fn line_text<D: Dialect>(root: &D::Game, line: &[MoveOf<D>]) -> Vec<String> {
    let notation = D::Notation::default();
    let mut position = root.clone();
    let mut text = Vec::with_capacity(line.len());
    for &mv in line {
        if !position.is_legal(mv) {
            break;
        }
        text.push(notation.format_move(&position, mv));
        position.play(mv);
    }
    text
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
        pv: line_text::<D>(root, &info.pv),
        ..InfoLine::default()
    };
    output.lines([Response::Info(progress), Response::Info(line)]);
}
