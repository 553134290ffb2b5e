//! The engine side of pbrain: board state and `INFO` settings; searches are in `thinking`.
//!
//! The session never blocks on a search: `go` returns at once and the answer is printed by the
//! search's `done` callback, which also queues our move; the queue is applied before the next
//! command changes the board. `END` and `STOP` act while thinking.

mod settings;
mod thinking;

use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use tessera_core::io::{LineEnds, Output};
use tessera_core::{
    memory, serve, Engine, EngineOptions, Flow, GridNotation, GridPoint, Identity, Input, LineSession, MoveOf,
    Notation, Player, Searcher,
};

use crate::command::{Command, Field};
use crate::dialect::{Dialect, RuleCode};
use crate::info::TimeSettings;
use crate::response::Response;
use thinking::Answer;

/// Runs a pbrain session of `dialect` on `input` until `END` or the end of input.
pub fn run<D: Dialect>(dialect: D, options: EngineOptions, input: impl Read + Send + 'static, output: Output) {
    serve(&mut Session::new(dialect, options, output), input);
}

/// What a board block (`BOARD`, `YXBOARD`, `SWAP2BOARD` … `DONE`) is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    Board,
    YxBoard,
    Swap2,
}

/// Why the board could not be set as asked; its text goes out after `ERROR`.
#[derive(Debug, thiserror::Error)]
pub(crate) enum BoardError<N, G> {
    /// No `START` yet.
    #[error("no board: send START first")]
    NoBoard,
    /// The game's notation did not read the point.
    #[error(transparent)]
    Point(N),
    /// The game refused the board or the stone.
    #[error(transparent)]
    Game(G),
}

/// [`BoardError`] for dialect `D`.
pub(crate) type BoardErrorOf<D> = BoardError<<<D as Player>::Notation as Notation>::Error, <D as Dialect>::Error>;

/// Stones of an open board block.
type BlockStones = Vec<(u32, u32, Field)>;

/// A finished search's chosen moves waiting to be put on the board.
type Queue<M> = Arc<Mutex<Vec<M>>>;

/// The pbrain session over dialect `D`.
pub struct Session<D: Dialect> {
    pub(crate) dialect: Arc<D>,
    pub(crate) engine: Engine<D::Game, D::Searcher>,
    pub(crate) out: Output,
    pub(crate) size: Option<(u32, u32)>,
    pub(crate) rule: RuleCode,
    pub(crate) game: Option<D::Game>,
    /// Stones in play order, to rebuild the board when the rule changes or on `TAKEBACK`.
    pub(crate) stones: Vec<(u32, u32)>,
    block: Option<(Block, BlockStones)>,
    pub(crate) time: TimeSettings,
    pub(crate) options: EngineOptions,
    pub(crate) applied_options: Option<EngineOptions>,
    pub(crate) show_detail: bool,
    pub(crate) max_depth: Option<u32>,
    pub(crate) max_nodes: Option<u64>,
    /// Our moves chosen by finished searches, not yet put on `game`.
    pub(crate) ours: Queue<MoveOf<D>>,
    /// Whether `INFO time_left` came since our last search (then it measures that move's cost).
    pub(crate) clock_sent: bool,
    /// Our last move's search: the `time_left` it started from and the time it took (written when
    /// the search ends), to measure what the manager charged beyond it.
    pub(crate) last_search: Arc<Mutex<Option<(i64, Duration)>>>,
    /// A note from before the first `START` (a table smaller than asked for), said with its `OK`:
    /// nothing may come before the manager's first command is answered, and managers such as
    /// Piskvork read the engine's stderr as protocol lines.
    startup_note: Option<String>,
}

impl<D: Dialect> LineSession for Session<D> {
    fn handle_line(&mut self, line: &str, _input: &mut Input) -> Flow {
        let command = line.parse().unwrap_or_else(|never| match never {});
        self.handle(command)
    }

    /// Managers kill the engine soon after `END`: the search is stopped, not waited for.
    fn finish(&mut self) {
        self.engine.stop();
    }

    /// A GUI that ends its lines in CR LF (a Windows one) gets CR LF back.
    fn follow_line_ends(&mut self, line_ends: &LineEnds) {
        self.out.follow(line_ends);
    }
}

/// The `ABOUT` line's fields.
fn about(identity: &Identity) -> String {
    format!(
        "name=\"{}\", version=\"{}\", author=\"{}\", country=\"-\", www=\"{}\", email=\"-\"",
        identity.name, identity.version, identity.author, identity.url
    )
}

/// `mv` as the protocol's `(x, y)`, through the game's notation.
pub(crate) fn coordinates<D: Dialect>(game: &D::Game, mv: MoveOf<D>) -> Option<(u32, u32)> {
    let point = D::Notation::default().point_of(game, mv);
    if point.is_none() {
        tracing::error!("the notation puts no stone for a move");
    }
    point.map(|point| (point.column, point.row))
}

impl<D: Dialect> Session<D> {
    /// A session writing to `out`.
    pub fn new(dialect: D, options: EngineOptions, out: Output) -> Self {
        let searcher = dialect.new_searcher(&options);
        let startup_note = searcher.memory_mb().and_then(|granted| memory::clamp_note(options.hash_mb, granted));
        Session {
            dialect: Arc::new(dialect),
            engine: Engine::new(searcher),
            out,
            size: None,
            rule: RuleCode::Freestyle,
            game: None,
            stones: Vec::new(),
            block: None,
            time: TimeSettings::default(),
            options,
            applied_options: None,
            show_detail: false,
            max_depth: None,
            max_nodes: None,
            ours: Arc::new(Mutex::new(Vec::new())),
            clock_sent: false,
            last_search: Arc::new(Mutex::new(None)),
            startup_note,
        }
    }

    /// The board, once `START` made one (without our last move until the next command).
    #[must_use]
    pub fn game(&self) -> Option<&D::Game> {
        self.game.as_ref()
    }

    /// Blocks until no search runs (tests and shutdown).
    pub fn wait(&self) {
        self.engine.wait();
    }

    /// Handles one command.
    pub fn handle(&mut self, command: Command) -> Flow {
        match command {
            Command::End => {
                self.engine.stop();
                return Flow::Quit;
            }
            Command::Stop => {
                self.engine.stop();
                return Flow::Continue;
            }
            Command::Info(key, value) => {
                self.info(&key, &value);
                return Flow::Continue;
            }
            Command::About => {
                self.out.line(Response::About(about(&self.dialect.identity())));
                return Flow::Continue;
            }
            // Managers may send empty lines; they mean nothing.
            Command::Unknown(line) if line.is_empty() => return Flow::Continue,
            _ => {}
        }
        // Everything else reads or changes the board: let a running search finish first.
        self.engine.stop();
        self.engine.wait();
        self.apply_our_moves();
        if let Some((block, stones)) = &mut self.block {
            match command {
                Command::Stone(x, y, field) => {
                    stones.push((x, y, field));
                    return Flow::Continue;
                }
                // Gomocup's SWAP2BOARD gives bare points, coloured by their order.
                Command::Coordinates(x, y) if *block == Block::Swap2 => {
                    stones.push((x, y, Field::Own));
                    return Flow::Continue;
                }
                Command::Coordinates(x, y) => {
                    // A board block needs to know whose stone it is: the line is dropped.
                    self.error(&format!("{x},{y}: a BOARD stone needs a field (x,y,1 or x,y,2)"));
                    return Flow::Continue;
                }
                Command::Done => {
                    let (block, stones) = (*block, std::mem::take(stones));
                    self.block = None;
                    self.board_done(block, &stones);
                    return Flow::Continue;
                }
                _ => {
                    self.block = None;
                    self.error("board block ended without DONE");
                }
            }
        }
        match command {
            Command::Start(width, height) | Command::RectStart(width, height) => self.start(width, height),
            Command::Restart => match self.size {
                Some((width, height)) => self.start(width, height),
                None => self.error("RESTART before START"),
            },
            Command::Turn(x, y) => {
                if self.place(x, y) {
                    self.think(Answer::Move, None);
                }
            }
            Command::Begin => {
                if self.ready() {
                    self.think(Answer::Move, None);
                }
            }
            Command::Play(x, y) => {
                if self.place(x, y) {
                    self.out.line(Response::Move(x, y));
                }
            }
            Command::Board => self.open_block(Block::Board),
            Command::YxBoard => self.open_block(Block::YxBoard),
            Command::Swap2Board => self.open_block(Block::Swap2),
            Command::TakeBack(x, y) => self.take_back(x, y),
            Command::YxNBest(count) => {
                if self.ready() {
                    self.think(Answer::Analysis, Some(count.max(1) as usize));
                }
            }
            Command::YxShowForbid => {
                let points = self.game.as_ref().map_or_else(Vec::new, |game| {
                    let moves = self.dialect.forbidden_points(game);
                    moves.into_iter().filter_map(|mv| coordinates::<D>(game, mv)).collect()
                });
                self.out.line(Response::Forbid(points));
            }
            Command::YxShowInfo => {
                self.out.line(Response::Message("INFO MAX_THREAD_NUM 64".into()));
                // In KiB, as Yixin-Board's `hash_size`.
                self.out.line(Response::Message(format!("INFO MAX_HASH_SIZE {}", memory::max_table_mb() * 1024)));
            }
            Command::Stone(..) | Command::Done => self.error("stone line outside a BOARD block"),
            Command::Coordinates(x, y) => {
                self.error(&format!("{x},{y}: a point without a field is only read in SWAP2BOARD"))
            }
            Command::Malformed(line) => self.error(&format!("bad arguments: {line}")),
            Command::Unknown(line) => self.out.line(Response::Unknown(format!("command not supported: {line}"))),
            Command::End | Command::Stop | Command::Info(..) | Command::About => {}
        }
        Flow::Continue
    }

    pub(crate) fn error(&self, message: &str) {
        self.out.line(Response::Error(message.to_string()));
    }

    fn ready(&self) -> bool {
        if self.game.is_none() {
            self.error(&BoardErrorOf::<D>::NoBoard.to_string());
        }
        self.game.is_some()
    }

    fn start(&mut self, width: u32, height: u32) {
        match self.dialect.new_game(width, height, self.rule) {
            Ok(game) => {
                self.size = Some((width, height));
                self.game = Some(game);
                self.stones.clear();
                self.engine.call(|searcher| searcher.clear());
                *self.last_search.lock() = None;
                self.out.line(Response::Ok);
                if let Some(note) = self.startup_note.take() {
                    self.out.line(Response::Message(note));
                }
            }
            Err(error) => {
                self.game = None;
                self.error(&error.to_string());
            }
        }
    }

    /// The board again from `stones` under the current rule.
    pub(crate) fn rebuild(&mut self) -> Result<(), BoardErrorOf<D>> {
        let (width, height) = self.size.ok_or(BoardError::NoBoard)?;
        let mut game = self.dialect.new_game(width, height, self.rule).map_err(BoardError::Game)?;
        for &(x, y) in &self.stones {
            self.place_on(&mut game, x, y)?;
        }
        self.game = Some(game);
        Ok(())
    }

    /// Places the stone at `(x, y)` on `game` for the side to move.
    fn place_on(&self, game: &mut D::Game, x: u32, y: u32) -> Result<(), BoardErrorOf<D>> {
        let point = GridPoint { column: x, row: y };
        let mv = D::Notation::default().move_at(game, point).map_err(BoardError::Point)?;
        self.dialect.place(game, mv).map_err(BoardError::Game)
    }

    /// Places a stone for the side to move; prints `ERROR` and returns false if it cannot.
    fn place(&mut self, x: u32, y: u32) -> bool {
        let Some(mut game) = self.game.take() else {
            self.error(&BoardErrorOf::<D>::NoBoard.to_string());
            return false;
        };
        let placed = self.place_on(&mut game, x, y);
        self.game = Some(game);
        match placed {
            Ok(()) => {
                self.stones.push((x, y));
                true
            }
            Err(error) => {
                self.error(&error.to_string());
                false
            }
        }
    }

    pub(crate) fn apply_our_moves(&mut self) {
        let moves: Vec<MoveOf<D>> = std::mem::take(&mut *self.ours.lock());
        for mv in moves {
            let Some(game) = self.game.as_ref() else { return };
            if let Some((x, y)) = coordinates::<D>(game, mv) {
                self.place(x, y);
            }
        }
    }

    fn open_block(&mut self, block: Block) {
        if self.ready() {
            self.block = Some((block, Vec::new()));
        }
    }

    fn take_back(&mut self, x: u32, y: u32) {
        let Some(index) = self.stones.iter().rposition(|&stone| stone == (x, y)) else {
            return self.error(&format!("no stone at {x},{y}"));
        };
        self.stones.remove(index);
        match self.rebuild() {
            Ok(()) => self.out.line(Response::Ok),
            Err(error) => self.error(&error.to_string()),
        }
    }

    /// Sets the board from a block: black first, our stones and the opponent's interleaved in
    /// the order given (real move order for renju, any order for gomoku).
    fn board_done(&mut self, block: Block, stones: &[(u32, u32, Field)]) {
        let own: Vec<(u32, u32)> = stones.iter().filter(|s| s.2 == Field::Own).map(|s| (s.0, s.1)).collect();
        let theirs: Vec<(u32, u32)> = stones.iter().filter(|s| s.2 == Field::Opponent).map(|s| (s.0, s.1)).collect();
        // In a swap2 block the stones are just black/white by order; field 1 and 2 mean the same sides.
        let (first, second) =
            if block == Block::Swap2 || own.len() == theirs.len() { (&own, &theirs) } else { (&theirs, &own) };
        let balanced = first.len() == second.len() || first.len() == second.len() + 1;
        if !balanced && block != Block::Swap2 {
            return self.error("inconsistent BOARD: stone counts differ by more than one");
        }
        let mut order = Vec::new();
        for index in 0..first.len().max(second.len()) {
            order.extend(first.get(index));
            order.extend(second.get(index));
        }
        if block == Block::Swap2 {
            order = stones.iter().map(|s| (s.0, s.1)).collect();
        }
        self.stones = order;
        if let Err(error) = self.rebuild() {
            self.stones.clear();
            let _ = self.rebuild();
            return self.error(&error.to_string());
        }
        match block {
            Block::Board => self.think(Answer::Move, None),
            Block::YxBoard => {}
            Block::Swap2 => self.swap2(),
        }
    }

    fn swap2(&mut self) {
        let (Some((width, height)), Some(game)) = (self.size, self.game.as_ref()) else { return };
        match self.stones.len() {
            0 => {
                let stones = self.dialect.swap2_opening(game, width, height);
                let points = stones.into_iter().filter_map(|mv| coordinates::<D>(game, mv)).collect();
                self.out.line(Response::Stones(points));
            }
            3 => self.think(Answer::SwapOrMove, None),
            5 => self.think(Answer::SwapOrMove, None),
            _ => self.error("SWAP2BOARD expects 0, 3 or 5 stones"),
        }
    }
}
