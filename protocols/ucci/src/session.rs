//! The engine side of a session: boot, idle and thinking states, one handler per command
//! (searching is in `thinking`).
//!
//! The reader thread never waits on the search: `go` returns at once and the result is written
//! by the search thread (`done`). `stop`, `ponderhit`, `isready`, `probe` and `quit` act while
//! thinking; any other command first stops the search and waits for its `bestmove`.

mod thinking;

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use parking_lot::Mutex;
use tessera_core::io::{LineEnds, Output};
use tessera_core::perft::Divide;
use tessera_core::{
    memory, serve, Bound, Engine, Flow, Game, GameOptions, Input, LineSession, MoveOf, Notation, OpeningBook,
    OptionKind, OptionValue, PackedMove, Score, Searcher,
};

use crate::command::{Command, PositionSpec, Start};
use crate::options::{check_value, OptionEffect, Options, Randomness};
use crate::report::{message, ucci_score, Verdicts};
use crate::response::Response;
use crate::Dialect;

/// Runs a UCCI session of `dialect` on `input` until `quit` or the end of input.
pub fn run<D: Dialect>(dialect: D, input: impl Read + Send + 'static, output: Output, options: Options) {
    serve(&mut Session::new(dialect, output, options), input);
}

/// A `position` or `probe` whose FEN the game refused.
#[derive(Debug, thiserror::Error)]
#[error("bad FEN '{fen}': {source}")]
struct FenError<E: std::error::Error + 'static> {
    fen: String,
    source: E,
}

/// One engine session over stdin/stdout (or any reader and [`Output`]).
pub struct Session<D: Dialect> {
    pub(crate) dialect: Arc<D>,
    pub(crate) output: Output,
    pub(crate) engine: Engine<D::Game, D::Searcher>,
    pub(crate) position: D::Game,
    pub(crate) banned: Vec<MoveOf<D>>,
    pub(crate) options: Options,
    pub(crate) game_options: Box<dyn GameOptions<D::Game>>,
    pub(crate) verdicts: Arc<Mutex<D::Verdicts>>,
    pub(crate) draw_offered: Arc<AtomicBool>,
    /// The last finished search: its root key and its answer as `pophash` would give it (the
    /// searcher keeps the positions below the root in its table, not the root itself).
    pub(crate) last_root: Arc<Mutex<Option<(u64, Response)>>>,
    /// The game's opening books (`usebook`, `bookfiles`), when it has a book format.
    pub(crate) book: Option<OpeningBook>,
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
        let game_options = dialect.game_options();
        let book = dialect.opening_book().map(OpeningBook::new);
        Session {
            dialect: Arc::new(dialect),
            output,
            engine: Engine::new(searcher),
            position,
            banned: Vec::new(),
            options,
            game_options,
            verdicts: Arc::new(Mutex::new(D::Verdicts::default())),
            draw_offered: Arc::new(AtomicBool::new(false)),
            last_root: Arc::default(),
            book,
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
                Err(error) => self.report_error(error.to_string()),
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
        lines.extend(self.game_options.options().into_iter().map(|option| {
            let name = option.compact_name();
            Response::Option(match option.kind {
                OptionKind::Check(default) => format!("{name} type check default {default}"),
                OptionKind::Text(default) => format!("{name} type string default {default}"),
                OptionKind::Spin { default, min, max } => {
                    format!("{name} type spin min {min} max {max} default {default}")
                }
            })
        }));
        lines.push(Response::UcciOk);
        self.output.lines(lines);
    }

    pub(crate) fn report_error(&self, text: impl Into<String>) {
        let text = text.into();
        tracing::warn!("{text}");
        self.output.line(Response::Info(message(text)));
    }

    /// Sets one of the game's options if `name` is one (false when it is not).
    fn set_game_option(&mut self, name: &str, value: Option<&str>) -> bool {
        let Some(option) = self.game_options.options().into_iter().find(|option| option.is_named(name)) else {
            return false;
        };
        let value = match option.kind {
            OptionKind::Check(_) => match check_value(value) {
                Ok(on) => OptionValue::Check(on),
                Err(error) => {
                    self.report_error(format!("option {name}: {error}"));
                    return true;
                }
            },
            OptionKind::Text(_) => OptionValue::Text(value.unwrap_or_default()),
            OptionKind::Spin { min, max, .. } => match value.and_then(|text| text.trim().parse::<i64>().ok()) {
                Some(number) => OptionValue::Spin(number.clamp(min, max)),
                None => {
                    self.report_error(format!("option {name}: {} is not a number", value.unwrap_or("nothing")));
                    return true;
                }
            },
        };
        match self.game_options.set(&option, value) {
            Ok(note) => self.output.lines(note.map(|note| Response::Info(message(note)))),
            Err(refused) => self.report_error(format!("option {name}: {refused}")),
        }
        true
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if self.set_game_option(name, value) || self.set_book_option(name, value) {
            return;
        }
        match self.options.set(name, value) {
            OptionEffect::Set if name.eq_ignore_ascii_case("randomness") => self.apply_engine_options(),
            OptionEffect::Set => {}
            OptionEffect::Engine => self.apply_engine_options(),
            OptionEffect::NewGame => self.new_game(),
            OptionEffect::Unknown => tracing::debug!("ignoring unknown option {name}"),
            OptionEffect::BadValue(reason) => self.report_error(format!("option {name}: {reason}")),
        }
    }

    /// Sets `usebook` or `bookfiles` if `name` is one and the game has books (false otherwise:
    /// the option is the protocol's, declared and ignored as before).
    fn set_book_option(&mut self, name: &str, value: Option<&str>) -> bool {
        let Some(book) = self.book.as_mut() else { return false };
        let outcome = match name.trim().to_ascii_lowercase().as_str() {
            "usebook" => {
                check_value(value).map(|on| book.set_enabled(on)).map(|()| None).map_err(|error| error.to_string())
            }
            "bookfiles" => book
                .set_files(value.unwrap_or_default())
                .map(Some)
                .map_err(|error| format!("{error}; keeping {}", book.in_use())),
            _ => return false,
        };
        match outcome {
            Ok(note) => self.output.lines(note.map(|note| Response::Info(message(note)))),
            Err(error) => self.report_error(format!("option {name}: {error}")),
        }
        true
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
    fn build_position(&self, spec: &PositionSpec) -> Result<D::Game, FenError<D::FenError>> {
        let mut position = match &spec.start {
            Start::StartPos => self.dialect.start_position(),
            Start::Fen(fen) => self.dialect.parse_fen(fen).map_err(|source| FenError { fen: fen.clone(), source })?,
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
            Err(error) => return self.report_error(error.to_string()),
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

    pub(crate) fn perft(&self, depth: u32) {
        let divide = Divide::count(&self.position, depth, &D::Notation::default());
        let mut lines: Vec<Response> =
            divide.moves.into_iter().map(|(mv, nodes)| Response::PerftMove { mv, nodes }).collect();
        lines.push(Response::NodesSearched(divide.total));
        self.output.lines(lines);
        tracing::info!("perft {depth}: {} nodes in {:?}", divide.total, divide.time);
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

    /// A GUI that ends its lines in CR LF (a Windows one) gets CR LF back.
    fn follow_line_ends(&mut self, line_ends: &LineEnds) {
        self.output.follow(line_ends);
    }
}
