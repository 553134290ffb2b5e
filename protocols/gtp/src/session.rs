//! The engine-side GTP session: owns the game and the engine controller, answers one command at a
//! time, streams analysis until the next input line, and ponders between commands if asked.

use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

use crossbeam_channel::bounded;
use tessera_core::io::Output;
use tessera_core::{
    memory, serve, Engine, EngineOptions, Flow, Game, Input, Limits, LineSession, Notation, Report, SearchResult,
    Searcher, Side,
};

use crate::analysis::info_line;
use crate::clock::TimeControl;
use crate::command::{preprocess, split_id, Analyze, AnalyzeKind, Color, Command, Vertex, COMMAND_NAMES};
use crate::dialect::{Dialect, Genmove, Handicap};
use crate::response::{header, Response};

/// Settings of the session beyond the engine options.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Threads, memory, move overhead.
    pub options: EngineOptions,
    /// Thinking time per move when no time system is set.
    pub move_time: Duration,
    /// A fixed playout budget per move instead of time (tests, reproducible games).
    pub playouts: Option<u64>,
    /// Search on the opponent's time between commands.
    pub ponder: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config { options: EngineOptions::default(), move_time: Duration::from_secs(1), playouts: None, ponder: false }
    }
}

/// Playouts for ownership in analysis lines and GoGui displays.
const OWNERSHIP_PLAYOUTS: usize = 100;

type MoveOf<D> = <<D as Dialect>::Game as Game>::Move;
type RootStats<D> = Vec<tessera_core::MoveStat<MoveOf<D>>>;

/// Runs a GTP session of `dialect` on `input` until `quit` or the end of input.
pub fn run<D: Dialect>(dialect: D, config: Config, input: impl Read + Send + 'static, output: Output) {
    serve(&mut Session::new(dialect, config, output), input);
}

/// One GTP session.
pub struct Session<D: Dialect> {
    dialect: Arc<D>,
    config: Config,
    game: D::Game,
    engine: Engine<D::Game, D::Searcher>,
    output: Output,
    time: TimeControl,
    pondering: bool,
}

impl<D: Dialect> LineSession for Session<D> {
    /// Answers one command. Once the input is closed, searches stop at once: the commands already
    /// sent are still answered (a script piped in gets every answer), then the session ends.
    fn handle_line(&mut self, line: &str, input: &mut Input) -> Flow {
        let text = preprocess(line);
        if text.is_empty() {
            return Flow::Continue;
        }
        self.stop_pondering();
        let (id, command_text) = split_id(&text);
        let flow = match command_text.parse::<Command>() {
            Ok(command) => self.handle(id, command, input),
            Err(error) => {
                self.respond(&Response::failure(id, error.to_string()));
                Flow::Continue
            }
        };
        if flow == Flow::Continue {
            self.start_pondering();
        }
        flow
    }

    fn finish(&mut self) {
        self.stop_pondering();
    }
}

impl<D: Dialect> Session<D> {
    /// A session on a 19×19 board with komi 7.5.
    pub fn new(dialect: D, config: Config, output: Output) -> Self {
        let searcher = dialect.new_searcher(&config.options);
        if let Some(note) = searcher.memory_mb().and_then(|granted| memory::clamp_note(config.options.hash_mb, granted))
        {
            // GTP has no unsolicited output: controllers show the engine's stderr.
            tracing::warn!("{note}");
        }
        let game = dialect.new_game(19, 7.5, None);
        Session {
            dialect: Arc::new(dialect),
            config,
            game,
            engine: Engine::new(searcher),
            output,
            time: TimeControl::default(),
            pondering: false,
        }
    }

    /// The move `vertex` names on the current board, if it is on it.
    fn move_at(&self, game: &D::Game, vertex: Vertex) -> Option<<D::Game as Game>::Move> {
        D::Notation::default().parse_move(game, &vertex.to_string()).ok()
    }

    /// `mv` as a vertex (`D4`, `pass`).
    fn vertex(game: &D::Game, mv: <D::Game as Game>::Move) -> String {
        D::Notation::default().format_move(game, mv)
    }

    fn respond(&self, response: &Response) {
        // `Response` ends with the empty line; `Output::raw` writes it as is.
        self.output.raw(&response.to_string());
    }

    fn ok(&self, id: Option<u32>, text: impl Into<String>) -> Flow {
        self.respond(&Response::success(id, text));
        Flow::Continue
    }

    fn fail(&self, id: Option<u32>, message: &str) -> Flow {
        self.respond(&Response::failure(id, message));
        Flow::Continue
    }

    fn handle(&mut self, id: Option<u32>, command: Command, input: &mut Input) -> Flow {
        let dialect = Arc::clone(&self.dialect);
        match command {
            Command::ProtocolVersion => self.ok(id, "2"),
            Command::Name => self.ok(id, dialect.identity().name),
            Command::Version => self.ok(id, dialect.identity().version),
            Command::KnownCommand(name) => self.ok(id, COMMAND_NAMES.contains(&name.as_str()).to_string()),
            Command::ListCommands => self.ok(id, COMMAND_NAMES.join("\n")),
            Command::Quit => {
                self.ok(id, "");
                Flow::Quit
            }
            Command::BoardSize(size) => {
                if !dialect.supports_size(size) {
                    return self.fail(id, "unacceptable size");
                }
                let size = usize::try_from(size).unwrap_or(19);
                self.new_game(size);
                self.ok(id, "")
            }
            Command::ClearBoard => {
                self.new_game(dialect.size(&self.game));
                self.ok(id, "")
            }
            Command::Komi(komi) => {
                dialect.set_komi(&mut self.game, komi);
                self.ok(id, "")
            }
            Command::Play(color, vertex) => {
                let Some(mv) = self.move_at(&self.game, vertex) else { return self.fail(id, "illegal move") };
                let mut next = self.game.clone();
                dialect.set_side_to_move(&mut next, side(color));
                if !next.is_legal(mv) && next.outcome().is_some() {
                    // Play after two passes resumes the game (KGS's clean-up phase, GTP editors).
                    dialect.resume(&mut next);
                }
                if !next.is_legal(mv) {
                    return self.fail(id, "illegal move");
                }
                next.play(mv);
                self.game = next;
                self.ok(id, "")
            }
            Command::Genmove(color) => self.genmove(id, color, GenmoveMode::Play, None, input),
            Command::RegGenmove(color) => self.genmove(id, color, GenmoveMode::Suggest, None, input),
            Command::KgsGenmoveCleanup(color) => self.genmove(id, color, GenmoveMode::Cleanup, None, input),
            Command::GenmoveAnalyze(analyze) => {
                let color = analyze.color.unwrap_or_else(|| color_of(self.game.side_to_move()));
                self.genmove(id, color, GenmoveMode::Play, Some(analyze), input)
            }
            Command::Undo => {
                if self.game.ply() == 0 {
                    return self.fail(id, "cannot undo");
                }
                self.game.undo();
                self.ok(id, "")
            }
            Command::FixedHandicap(stones) => self.handicap(id, Handicap::Fixed, stones),
            Command::PlaceFreeHandicap(stones) => self.handicap(id, Handicap::Free, stones),
            Command::SetFreeHandicap(vertices) => {
                let moves: Option<Vec<MoveOf<D>>> = vertices
                    .iter()
                    .map(|&vertex| if vertex == Vertex::Pass { None } else { self.move_at(&self.game, vertex) })
                    .collect();
                let Some(moves) = moves else { return self.fail(id, "invalid handicap") };
                let mut unique = moves.clone();
                unique.sort_unstable_by_key(|mv| tessera_core::PackedMove::to_bits(*mv));
                unique.dedup();
                if unique.len() != moves.len() || moves.len() < 2 {
                    return self.fail(id, "invalid handicap");
                }
                match dialect.set_handicap(&mut self.game, &moves) {
                    Ok(()) => self.ok(id, ""),
                    Err(error) => self.fail(id, &error.to_string()),
                }
            }
            Command::TimeSettings(main, byo, stones) => {
                self.time = TimeControl::from_gtp(main, byo, stones);
                self.ok(id, "")
            }
            Command::TimeLeft(color, seconds, stones) => {
                self.time.set_left(color, seconds, stones);
                self.ok(id, "")
            }
            Command::KgsTimeSettings(system) => {
                self.time = TimeControl::from_kgs(system);
                self.ok(id, "")
            }
            Command::KgsRules(name) => match dialect.set_rules(&mut self.game, &name) {
                Ok(()) => self.ok(id, ""),
                Err(error) => self.fail(id, &error.to_string()),
            },
            Command::KgsGameOver => {
                self.engine.call(Searcher::clear);
                self.ok(id, "")
            }
            Command::FinalScore => {
                let score = dialect.final_score(&self.game);
                self.ok(id, score)
            }
            Command::FinalStatusList(status) => {
                let stones = dialect.stones_with_status(&self.game, status);
                let text: Vec<String> = stones.iter().map(|&mv| Self::vertex(&self.game, mv)).collect();
                self.ok(id, text.join(" "))
            }
            Command::Showboard => {
                let board = dialect.showboard(&self.game);
                self.ok(id, format!("\n{}", board.join("\n")))
            }
            Command::LoadSgf(file, move_number) => {
                let Ok(text) = std::fs::read_to_string(&file) else { return self.fail(id, "cannot load file") };
                match dialect.load_sgf(&text, move_number) {
                    Ok(game) => {
                        self.game = game;
                        self.engine.call(Searcher::clear);
                        let to_move = color_of(self.game.side_to_move());
                        self.ok(id, if to_move == Color::Black { "black" } else { "white" })
                    }
                    Err(error) => {
                        tracing::warn!("loadsgf {file}: {error}");
                        self.fail(id, "cannot load file")
                    }
                }
            }
            Command::PrintSgf(file) => {
                let text = dialect.save_sgf(&self.game);
                match file {
                    None => self.ok(id, text.trim_end()),
                    Some(file) if file == "-" => self.ok(id, text.trim_end()),
                    Some(file) => match std::fs::write(&file, text) {
                        Ok(()) => self.ok(id, ""),
                        Err(_) => self.fail(id, "cannot write file"),
                    },
                }
            }
            Command::Analyze(analyze) => self.analyze(id, analyze, input),
            Command::GoguiAnalyzeCommands => self.ok(
                id,
                "dboard/Ownership/gogui-ownership\ngfx/Best moves/gogui-best_moves\nstring/Final score/final_score\nplist/Dead stones/final_status_list dead",
            ),
            Command::GoguiOwnership => {
                let size = dialect.size(&self.game);
                let values = dialect.ownership(&self.game, OWNERSHIP_PLAYOUTS * 4);
                let rows: Vec<String> = values
                    .chunks(size.max(1))
                    .map(|row| row.iter().map(|v| format!("{v:.2}")).collect::<Vec<_>>().join(" "))
                    .collect();
                self.ok(id, format!("\n{}", rows.join("\n")))
            }
            Command::GoguiBestMoves => {
                let result = self.search_now(Limits::nodes(self.config.playouts.unwrap_or(2000)), None, input);
                let Some(moves) = result.1 else { return self.ok(id, "") };
                let labels: Vec<String> = moves
                    .iter()
                    .take(8)
                    .map(|stat| format!("{} {:.0}%", Self::vertex(&self.game, stat.mv), stat.win_rate * 100.0))
                    .collect();
                let best: Vec<String> = moves.iter().take(1).map(|s| Self::vertex(&self.game, s.mv)).collect();
                self.ok(id, format!("LABEL {}\nCOLOR green {}", labels.join(" "), best.join(" ")))
            }
        }
    }

    fn new_game(&mut self, size: usize) {
        self.game = self.dialect.new_game(size, 0.0, Some(&self.game));
        self.engine.call(Searcher::clear);
    }

    fn handicap(&mut self, id: Option<u32>, kind: Handicap, stones: u32) -> Flow {
        match self.dialect.place_handicap(&mut self.game, kind, stones as usize) {
            Ok(moves) => {
                let text: Vec<String> = moves.iter().map(|&mv| Self::vertex(&self.game, mv)).collect();
                self.ok(id, text.join(" "))
            }
            Err(error) => self.fail(id, &error.to_string()),
        }
    }

    /// The limits of our next move under the current time system.
    fn move_limits(&self, color: Color) -> Limits<MoveOf<D>> {
        if let Some(playouts) = self.config.playouts {
            return Limits::nodes(playouts);
        }
        match self.time.clock(color) {
            Some(clock) => Limits { clock: Some(clock), ..Limits::none() },
            None => Limits::move_time(self.config.move_time),
        }
    }

    /// Runs one search on the current game and waits for it; returns the result and the last
    /// root statistics.
    /// When the input closes meanwhile, the search is stopped at once (its result still comes).
    fn search_now(
        &mut self,
        limits: Limits<MoveOf<D>>,
        stream: Option<(Analyze, Option<u32>)>,
        input: &mut Input,
    ) -> (SearchResult<MoveOf<D>>, Option<RootStats<D>>) {
        let (sender, receiver) = bounded(1);
        let (stats_sender, stats_receiver) = crossbeam_channel::unbounded();
        let streamer = stream.map(|(analyze, _)| self.analysis_sink(self.game.clone(), analyze));
        let mut streamer = streamer;
        let sink = move |report: Report<MoveOf<D>>| {
            if let Report::Analysis { moves, .. } = report {
                if let Some(stream) = streamer.as_mut() {
                    stream(&moves);
                }
                let _ = stats_sender.send(moves);
            }
        };
        let limits =
            Limits { report_interval: Some(limits.report_interval.unwrap_or(Duration::from_millis(200))), ..limits };
        self.engine.go(self.game.clone(), limits, sink, move |result| {
            let _ = sender.send(result);
        });
        let result = match input.wait_for(&receiver) {
            Some(result) => result,
            None => {
                tracing::info!("input closed during a search: stopping");
                self.engine.stop();
                receiver.recv().expect("the engine always reports a result")
            }
        };
        self.engine.wait();
        let stats = stats_receiver.try_iter().last();
        (result, stats)
    }

    /// A closure printing analysis lines for `analyze` on the current game.
    fn analysis_sink(
        &self,
        game: D::Game,
        analyze: Analyze,
    ) -> impl FnMut(&[tessera_core::MoveStat<MoveOf<D>>]) + Send + 'static {
        let dialect = Arc::clone(&self.dialect);
        let output = self.output.clone();
        let to_move_is_white = game.side_to_move() == Side::Second;
        move |moves| {
            let ownership = (analyze.ownership && analyze.kind == AnalyzeKind::Kata).then(|| {
                let values = dialect.ownership(&game, OWNERSHIP_PLAYOUTS);
                // KataGo reports ownership for the side to move.
                values.into_iter().map(|v| if to_move_is_white { -v } else { v }).collect::<Vec<f32>>()
            });
            if !moves.is_empty() {
                output.line(info_line::<D>(&game, analyze.kind, moves, ownership.as_deref()));
            }
        }
    }

    fn genmove(
        &mut self,
        id: Option<u32>,
        color: Color,
        mode: GenmoveMode,
        analyze: Option<Analyze>,
        input: &mut Input,
    ) -> Flow {
        let dialect = Arc::clone(&self.dialect);
        let mut game = self.game.clone();
        dialect.set_side_to_move(&mut game, side(color));
        if game.outcome().is_some() && mode == GenmoveMode::Cleanup {
            // KGS resumes a passed-out game when the players disagree about dead stones.
            dialect.resume(&mut game);
        }
        if game.outcome().is_some() {
            // The game is over by two passes: nothing is left to play.
            if analyze.is_some() {
                self.output.lines([header(true, id), "play pass".to_string(), String::new()]);
                return Flow::Continue;
            }
            return self.ok(id, "pass");
        }
        self.game = game;
        let mut limits = self.move_limits(color);
        if mode == GenmoveMode::Cleanup {
            // The game decides what clean-up means (go: no pass while dead stones remain).
            limits.search_moves = dialect.cleanup_moves(&self.game);
        }
        let stream = analyze.map(|analyze| {
            let interval = analyze.interval.filter(|&cs| cs > 0).unwrap_or(50);
            limits.report_interval = Some(Duration::from_millis(u64::from(interval) * 10));
            self.output.line(header(true, id));
            (analyze, Some(interval))
        });
        let streaming = stream.is_some();
        let (result, stats) = self.search_now(limits, stream, input);
        let search = Genmove {
            result: &result,
            stats: stats.as_deref(),
            cleanup: mode == GenmoveMode::Cleanup,
            budget: self.config.playouts,
        };
        let answer = dialect.genmove_answer(&self.game, &search);
        let text = match answer {
            None => "resign".to_string(),
            Some(mv) => {
                let vertex = Self::vertex(&self.game, mv);
                if mode != GenmoveMode::Suggest {
                    self.game.play(mv);
                }
                vertex
            }
        };
        tracing::info!("genmove {color}: {text} ({} playouts, score {:?})", result.nodes, result.score);
        if streaming {
            self.output.lines([format!("play {text}"), String::new()]);
            Flow::Continue
        } else {
            self.ok(id, text)
        }
    }

    /// `lz-analyze` / `kata-analyze`: `=` at once, then a line every interval until the next input
    /// line (which is then handled as a command unless it is empty).
    fn analyze(&mut self, id: Option<u32>, analyze: Analyze, input: &mut Input) -> Flow {
        let mut game = self.game.clone();
        if let Some(color) = analyze.color {
            self.dialect.set_side_to_move(&mut game, side(color));
        }
        let interval = analyze.interval.filter(|&cs| cs > 0).unwrap_or(50);
        let limits = Limits {
            infinite: true,
            report_interval: Some(Duration::from_millis(u64::from(interval) * 10)),
            ..Limits::none()
        };
        self.output.line(header(true, id));
        let mut print = self.analysis_sink(game.clone(), analyze);
        let (done_sender, done_receiver) = bounded(1);
        let analysed = game;
        self.engine.go(
            analysed,
            limits,
            move |report: Report<MoveOf<D>>| {
                if let Report::Analysis { moves, .. } = report {
                    print(&moves);
                }
            },
            move |_| {
                let _ = done_sender.send(());
            },
        );
        // The next line ends the analysis (and is handled as a command: `next` keeps it queued).
        let flow = if input.wait_for_line() { Flow::Continue } else { Flow::Quit };
        self.engine.stop();
        let _ = done_receiver.recv();
        self.engine.wait();
        self.output.line("");
        flow
    }

    fn start_pondering(&mut self) {
        if !self.config.ponder || self.pondering || self.game.outcome().is_some() {
            return;
        }
        let limits = Limits { ponder: true, infinite: true, ..Limits::none() };
        self.engine.go(self.game.clone(), limits, tessera_core::Silent, |_| {});
        self.pondering = true;
    }

    fn stop_pondering(&mut self) {
        if self.pondering {
            self.engine.stop();
            self.engine.wait();
            self.pondering = false;
        }
    }
}

/// How `genmove` uses its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GenmoveMode {
    /// Play it.
    Play,
    /// Only suggest it (`reg_genmove`).
    Suggest,
    /// Play it, and do not pass while dead stones remain (`kgs-genmove_cleanup`).
    Cleanup,
}

fn side(color: Color) -> Side {
    match color {
        Color::Black => Side::First,
        Color::White => Side::Second,
    }
}

fn color_of(side: Side) -> Color {
    match side {
        Side::First => Color::Black,
        Side::Second => Color::White,
    }
}
