//! The engine side of UCI: one handler per command, a search running on the engine thread
//! (started in `thinking`), and output through one flushed writer. The session loop never blocks on the search: `isready`,
//! `stop`, `ponderhit` and `quit` are answered while it runs; a position change or a new `go`
//! first stops the running search and waits for its `bestmove`.

mod thinking;

use std::io::Read;
use std::sync::Arc;

use tessera_core::info::nodes_per_second;
use tessera_core::io::{LineEnds, Output};
use tessera_core::perft::Divide;
use tessera_core::{
    memory, report, serve, Engine, EngineOptions, Flow, Game, GameOption, GameOptions, Input, LineSession, Notation,
    OpeningBook, OptionKind, OptionValue, Searcher,
};

use crate::command::{Command, CommandError, Start};
use crate::options::{check_value, spin_value, Change, OptionError, Options};
use crate::response::Response;
use crate::Dialect;

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
    pub(crate) dialect: Arc<D>,
    pub(crate) output: Output,
    pub(crate) position: D::Game,
    pub(crate) options: Options,
    pub(crate) game_options: Box<dyn GameOptions<D::Game>>,
    /// Options changed since the searcher last heard of them.
    pub(crate) options_pending: bool,
    pub(crate) engine: Engine<D::Game, D::Searcher>,
    pub(crate) debug: bool,
    /// The game's opening books (`OwnBook`, `BookFile`), when it has a book format.
    pub(crate) book: Option<OpeningBook>,
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

    /// A GUI that ends its lines in CR LF (a Windows one) gets CR LF back.
    fn follow_line_ends(&mut self, line_ends: &LineEnds) {
        self.output.follow(line_ends);
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
        let searcher = dialect.new_searcher(&engine_options);
        if let Some(note) = searcher.memory_mb().and_then(|granted| memory::clamp_note(engine_options.hash_mb, granted))
        {
            // Nothing may precede the GUI's `uci` on stdout: the log says it.
            tracing::warn!("{note}");
        }
        Session {
            position: dialect.start_position(false),
            options: Options::new(engine_options, dialect.elo_range()),
            game_options: dialect.game_options(),
            book: dialect.opening_book().map(OpeningBook::new),
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

    pub(crate) fn say(&self, text: impl Into<String>) {
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

    pub(crate) fn stop_and_wait(&self) {
        self.engine.stop();
        self.engine.wait();
    }

    fn uci(&self) {
        let identity = self.dialect.identity();
        let mut lines = vec![Response::IdName(identity.full_name()), Response::IdAuthor(identity.author)];
        lines.extend(self.options.declarations(D::CHESS960).into_iter().map(Response::Option));
        lines.extend(self.game_options.options().into_iter().map(|option| Response::Option(option.into())));
        if self.book.is_some() {
            lines.extend(book_options().map(|option| Response::Option(option.into())));
        }
        lines.push(Response::UciOk);
        self.output.lines(lines);
    }

    /// Sets one of the game's options if `name` is one: `None` when it is not.
    fn set_game_option(&mut self, name: &str, value: Option<&str>) -> Option<Result<Option<String>, OptionError>> {
        let option = self.game_options.options().into_iter().find(|option| option.is_named(name))?;
        let value = match option.kind {
            OptionKind::Check(_) => match check_value(option.name, value) {
                Ok(on) => OptionValue::Check(on),
                Err(error) => return Some(Err(error)),
            },
            OptionKind::Text(_) => OptionValue::Text(value.unwrap_or_default()),
            OptionKind::Spin { min, max, .. } => match spin_value(option.name, value, min, max) {
                Ok((number, clamped)) => {
                    clamped.into_iter().for_each(|note| self.say(note));
                    OptionValue::Spin(number)
                }
                Err(error) => return Some(Err(error)),
            },
        };
        let applied = self.game_options.set(&option, value);
        Some(applied.map_err(|refused| OptionError::Refused { name: option.name.into(), refused }))
    }

    /// Sets `OwnBook` or `BookFile` if `name` is one and the game has books (false otherwise).
    fn set_book_option(&mut self, name: &str, value: Option<&str>) -> bool {
        let Some(book) = self.book.as_mut() else { return false };
        let [own_book, book_file] = book_options();
        let note = if own_book.is_named(name) {
            check_value(own_book.name, value)
                .map(|on| book.set_enabled(on))
                .map(|()| None)
                .map_err(|error| error.to_string())
        } else if book_file.is_named(name) {
            book.set_files(value.unwrap_or_default())
                .map(Some)
                .map_err(|error| format!("{error}; keeping {}", book.in_use()))
        } else {
            return false;
        };
        match note {
            Ok(note) => note.into_iter().for_each(|note| self.say(note)),
            Err(error) => self.say(error),
        }
        true
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if self.set_book_option(name, value) {
            return;
        }
        if let Some(applied) = self.set_game_option(name, value) {
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
            Err(error) => self.say(error.to_string()),
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

    pub(crate) fn perft(&self, depth: u32) {
        let divide = Divide::count(&self.position, depth, &D::Notation::default());
        // Stockfish's layout: the split, a blank line, the total, a blank line.
        let mut lines: Vec<String> = divide.move_lines().collect();
        lines.extend([String::new(), report::nodes_line(divide.total), String::new()]);
        self.output.lines(lines);
        if self.debug {
            self.say(format!("perft {depth}: {} nodes/s", nodes_per_second(divide.total, divide.time)));
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
        self.output.lines(self.dialect.bench(depth, &self.options.engine).lines());
    }
}

/// The book options, with the names GUIs give them: `OwnBook` (UCI's own) and `BookFile` (the
/// engine's book file; empty: the built-in book).
fn book_options() -> [GameOption; 2] {
    [
        GameOption { name: "OwnBook", kind: OptionKind::Check(false) },
        GameOption { name: "BookFile", kind: OptionKind::Text(String::new()) },
    ]
}
