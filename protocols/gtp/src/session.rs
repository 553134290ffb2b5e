//! The engine-side GTP session: owns the game and the engine controller and answers one command
//! at a time. Searching (genmove, analysis, pondering) is in `thinking`.

mod thinking;

use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

use tessera_core::io::Output;
use tessera_core::{
    memory, serve, Engine, EngineOptions, Flow, Game, GridNotation, Input, Limits, LineSession, MoveOf, Notation,
    Searcher,
};

use crate::clock::TimeControl;
use crate::command::{preprocess, split_id, Command, COMMAND_NAMES};
use crate::dialect::{Dialect, Handicap};
use crate::response::Response;
use crate::vertex::{Color, Vertex};
use thinking::GenmoveMode;

/// Settings of the session beyond the engine options.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Threads, memory, move overhead.
    pub options: EngineOptions,
    /// Thinking time per move when no time system is set.
    pub move_time: Duration,
    /// With no time system set: `Some(n)` keeps a Canadian clock of `n` moves in `n` move times
    /// instead of giving every move exactly `move_time`, so a move whose choice is settled early
    /// leaves its time to the later moves of its block. `None` (or 1): every move gets `move_time`.
    pub move_block: Option<u32>,
    /// A fixed playout budget per move instead of time (tests, reproducible games).
    pub playouts: Option<u64>,
    /// Search on the opponent's time between commands.
    pub ponder: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            options: EngineOptions::default(),
            move_time: Duration::from_secs(1),
            move_block: None,
            playouts: None,
            ponder: false,
        }
    }
}

impl Config {
    /// The time system before the controller sets one: none (a fixed `move_time` a move), or
    /// the Canadian blocks of `move_block`.
    fn default_time(&self) -> TimeControl {
        match self.move_block {
            Some(moves) if moves > 1 => {
                TimeControl::from_gtp(0.0, self.move_time.as_secs_f64() * f64::from(moves), moves)
            }
            _ => TimeControl::default(),
        }
    }
}

/// Runs a GTP session of `dialect` on `input` until `quit` or the end of input.
pub fn run<D: Dialect>(dialect: D, config: Config, input: impl Read + Send + 'static, output: Output) {
    serve(&mut Session::new(dialect, config, output), input);
}

/// One GTP session.
pub struct Session<D: Dialect> {
    pub(crate) dialect: Arc<D>,
    pub(crate) config: Config,
    pub(crate) game: D::Game,
    pub(crate) engine: Engine<D::Game, D::Searcher>,
    pub(crate) output: Output,
    pub(crate) time: TimeControl,
    pub(crate) pondering: bool,
}

impl<D: Dialect> LineSession for Session<D> {
    /// Answers one command. Every command read is answered in full, also after the input has
    /// ended (a script piped in gets every answer, then the session ends); once the input has
    /// ended and nobody reads the output any more, the rest is dropped.
    fn handle_line(&mut self, line: &str, input: &mut Input) -> Flow {
        let text = preprocess(line);
        if text.is_empty() {
            return Flow::Continue;
        }
        if input.is_closed() && self.output.is_gone() {
            tracing::info!("the output is gone: {} and what follows it are not answered", text);
            return Flow::Quit;
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
        let time = config.default_time();
        Session {
            dialect: Arc::new(dialect),
            config,
            game,
            engine: Engine::new(searcher),
            output,
            time,
            pondering: false,
        }
    }

    /// The move `vertex` names on the current board, if it is on it.
    pub(crate) fn move_at(&self, game: &D::Game, vertex: Vertex) -> Option<<D::Game as Game>::Move> {
        let notation = D::Notation::default();
        match vertex.grid_point(self.dialect.size(game)) {
            Some(point) => notation.move_at(game, point).ok(),
            None if vertex == Vertex::Pass => notation.pass_move(game),
            None => None,
        }
    }

    /// `mv` as a vertex (`D4`, `pass`).
    pub(crate) fn vertex(game: &D::Game, mv: <D::Game as Game>::Move) -> String {
        D::Notation::default().format_move(game, mv)
    }

    pub(crate) fn respond(&self, response: &Response) {
        // `Response` ends with the empty line; `Output::raw` writes it as is.
        self.output.raw(&response.to_string());
    }

    pub(crate) fn ok(&self, id: Option<u32>, text: impl Into<String>) -> Flow {
        self.respond(&Response::success(id, text));
        Flow::Continue
    }

    pub(crate) fn fail(&self, id: Option<u32>, message: &str) -> Flow {
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
                dialect.set_side_to_move(&mut next, color.into());
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
                let color = analyze.color.unwrap_or_else(|| Color::from(self.game.side_to_move()));
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
                        let to_move = Color::from(self.game.side_to_move());
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
            Command::GoguiOwnership => self.gogui_ownership(id, input),
            Command::GoguiBestMoves => {
                // An interval no search reaches: only the final statistics are reported.
                let limits = Limits { report_interval: Some(Duration::MAX), ..Limits::nodes(self.short_search_playouts()) };
                let result = self.search_now(self.game.clone(), limits, None, input);
                let Some(moves) = result.1.map(|analysis| analysis.moves) else { return self.ok(id, "") };
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
        self.time.restart();
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
}
