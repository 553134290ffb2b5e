//! The engine side of AGI: the position and the opening rules; searches are in `thinking`.
//!
//! `GO` starts the search and returns; `BESTMOVE` is printed by the search's `done` callback
//! (after `STOP` for `INFINITE` and `PONDER` searches). `POSITION` and `DOMOVE` stop a running
//! search first. Lines that are not AGI are ignored (the draft has no error reply) and logged.
//! Opening rules: `CHANGE` after black's first stone near the centre (FIRSTCHANGE) or when the
//! third stone leaves white worse (THIRDCHANGE); fifth-move proposals are the n best points.

mod thinking;

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tessera_core::io::{LineEnds, Output};
use tessera_core::{memory, serve, Engine, EngineOptions, Flow, GridNotation, Input, LineSession, MoveOf, Searcher};

use crate::command::{Change, Command, Fifth};
use crate::dialect::Dialect;
use crate::response::Response;
use tessera_core::HexPoint;

/// Runs an AGI session of `dialect` on `input` until `QUIT` or the end of input.
pub fn run<D: Dialect>(dialect: D, options: EngineOptions, input: impl Read + Send + 'static, output: Output) {
    serve(&mut Session::new(dialect, options, output), input);
}

/// Why a stone of `POSITION` or `DOMOVE` could not be placed.
#[derive(Debug, thiserror::Error)]
enum StoneError<G> {
    #[error("not a point of this board")]
    OffBoard,
    /// The game refused it (occupied).
    #[error(transparent)]
    Game(G),
}

/// The AGI session over dialect `D`.
pub struct Session<D: Dialect> {
    pub(crate) dialect: Arc<D>,
    pub(crate) engine: Engine<D::Game, D::Searcher>,
    pub(crate) out: Output,
    pub(crate) options: EngineOptions,
    pub(crate) forbidden: bool,
    pub(crate) change: Change,
    pub(crate) fifth: Fifth,
    pub(crate) stones: Vec<HexPoint>,
    pub(crate) game: D::Game,
    pub(crate) quitting: Arc<AtomicBool>,
}

impl<D: Dialect> LineSession for Session<D> {
    fn handle_line(&mut self, line: &str, _input: &mut Input) -> Flow {
        let command = line.parse().unwrap_or_else(|never| match never {});
        self.handle(command)
    }

    /// The GUI closed the input: stop the search; no `BESTMOVE` is owed to anyone.
    fn finish(&mut self) {
        self.quitting.store(true, Ordering::SeqCst);
        self.engine.stop();
    }

    /// A GUI that ends its lines in CR LF (a Windows one) gets CR LF back.
    fn follow_line_ends(&mut self, line_ends: &LineEnds) {
        self.out.follow(line_ends);
    }
}

/// The move at `point` on `game`, through the game's notation (`None` off the board).
pub(crate) fn move_at<D: Dialect>(game: &D::Game, point: HexPoint) -> Option<MoveOf<D>> {
    D::Notation::default().move_at(game, point.grid()).ok()
}

/// `mv` as an AGI point, through the game's notation.
pub(crate) fn point_of<D: Dialect>(game: &D::Game, mv: MoveOf<D>) -> Option<HexPoint> {
    let grid = D::Notation::default().point_of(game, mv);
    let point = grid.and_then(HexPoint::from_grid);
    if point.is_none() {
        tracing::error!("the notation put the move at {grid:?}, which is not an AGI point");
    }
    point
}

impl<D: Dialect> Session<D> {
    /// A session writing to `out`.
    pub fn new(dialect: D, options: EngineOptions, out: Output) -> Self {
        let searcher = dialect.new_searcher(&options);
        if let Some(note) = searcher.memory_mb().and_then(|granted| memory::clamp_note(options.hash_mb, granted)) {
            // Said in the log: nothing may come before the manager's first command is answered.
            tracing::warn!("{note}");
        }
        let game = dialect.new_game(true);
        Session {
            dialect: Arc::new(dialect),
            engine: Engine::new(searcher),
            out,
            options,
            forbidden: true,
            change: Change::None,
            fifth: Fifth::Single,
            stones: Vec::new(),
            game,
            quitting: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The current position (what the next `GO` searches).
    #[must_use]
    pub fn position(&self) -> &D::Game {
        &self.game
    }

    /// Blocks until no search runs.
    pub fn wait(&self) {
        self.engine.wait();
    }

    /// Handles one command.
    pub fn handle(&mut self, command: Command) -> Flow {
        match command {
            Command::Agi => {
                let identity = self.dialect.identity();
                self.out.lines([
                    Response::IdName(identity.full_name()),
                    Response::IdAuthor(identity.author),
                    Response::Options { ownbook: false, ponder: true },
                    Response::AgiOk,
                ]);
            }
            Command::IsReady => self.out.line(Response::ReadyOk),
            Command::Stop => self.engine.stop(),
            Command::Quit => {
                self.quitting.store(true, Ordering::SeqCst);
                self.engine.stop();
                self.engine.wait();
                self.out.line(Response::Bye);
                return Flow::Quit;
            }
            Command::SetOption { .. } => {}
            Command::SetRule { forbidden, change, fifth } => {
                self.halt();
                self.forbidden = forbidden;
                self.change = change;
                self.fifth = fifth;
                self.rebuild();
            }
            Command::Position { statu, moves } => {
                self.halt();
                self.stones = statu.into_iter().chain(moves).collect();
                self.rebuild();
            }
            Command::DoMove(point) => {
                self.halt();
                let mut game = self.game.clone();
                match self.place(&mut game, point) {
                    Ok(()) => {
                        self.game = game;
                        self.stones.push(point);
                    }
                    Err(message) => tracing::warn!("DOMOVE {point}: {message}"),
                }
            }
            Command::Go(params) => {
                self.halt();
                self.go(params);
            }
            Command::Malformed(line) => tracing::warn!("malformed AGI command ignored: {line}"),
            Command::Unknown(line) if !line.is_empty() => tracing::warn!("unknown AGI command ignored: {line}"),
            Command::Unknown(_) => {}
        }
        Flow::Continue
    }

    pub(crate) fn halt(&mut self) {
        self.engine.stop();
        self.engine.wait();
    }

    /// Places the stone at `point` on `game` for the side to move.
    fn place(&self, game: &mut D::Game, point: HexPoint) -> Result<(), StoneError<D::Error>> {
        let mv = move_at::<D>(game, point).ok_or(StoneError::OffBoard)?;
        self.dialect.place(game, mv).map_err(StoneError::Game)
    }

    fn rebuild(&mut self) {
        let mut game = self.dialect.new_game(self.forbidden);
        let mut kept = Vec::new();
        for &point in &self.stones {
            match self.place(&mut game, point) {
                Ok(()) => kept.push(point),
                Err(error) => tracing::warn!("position stone {point} ignored: {error}"),
            }
        }
        self.stones = kept;
        self.game = game;
    }
}
