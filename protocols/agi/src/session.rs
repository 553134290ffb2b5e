//! The engine side of AGI.
//!
//! `GO` starts the search and returns; `BESTMOVE` is printed by the search's `done` callback
//! (after `STOP` for `INFINITE` and `PONDER` searches). `POSITION` and `DOMOVE` stop a running
//! search first. Lines that are not AGI are ignored (the draft has no error reply) and logged.
//! Opening rules: `CHANGE` after black's first stone near the centre (FIRSTCHANGE) or when the
//! third stone leaves white worse (THIRDCHANGE); fifth-move proposals are the n best points.

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use tessera_core::io::Output;
use tessera_core::{
    memory, serve, Engine, EngineOptions, Flow, Game, Input, Limits, LineSession, Notation, Report, Score,
    SearchResult, Searcher,
};

use crate::command::{Change, Command, Fifth, GoParams};
use crate::dialect::Dialect;
use crate::point::AgiPoint;
use crate::response::{Best, InfoLine, Response};

/// Runs an AGI session of `dialect` on `input` until `QUIT` or the end of input.
pub fn run<D: Dialect>(dialect: D, options: EngineOptions, input: impl Read + Send + 'static, output: Output) {
    serve(&mut Session::new(dialect, options, output), input);
}

/// What the finished search answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Move,
    /// THIRDCHANGE decision: `CHANGE` when the side to move (white) stands worse.
    ChangeIfWorse,
    /// Black's fifth-move proposals: the best `n` points.
    Proposals(usize),
    /// White's pick among the proposals: the one worst for black.
    WorstProposal,
}

/// Default thinking time when `GO` gives no clock.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);
/// Share of the game time left spent on one move.
const MOVES_TO_PLAN: u32 = 15;

/// Best root lines by MultiPV index: (first move, value).
type Lines<M> = Arc<Mutex<Vec<(M, i64)>>>;

/// The AGI session over dialect `D`.
pub struct Session<D: Dialect> {
    dialect: Arc<D>,
    engine: Engine<D::Game, D::Searcher>,
    out: Output,
    options: EngineOptions,
    forbidden: bool,
    change: Change,
    fifth: Fifth,
    stones: Vec<AgiPoint>,
    game: D::Game,
    quitting: Arc<AtomicBool>,
}

type Move<D> = <<D as Dialect>::Game as Game>::Move;

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
}

/// The move at `point` on `game`, through the game's notation (`None` off the board).
fn move_at<D: Dialect>(game: &D::Game, point: AgiPoint) -> Option<Move<D>> {
    D::Notation::default().parse_move(game, &point.to_string()).ok()
}

/// `mv` as an AGI point, through the game's notation.
fn point_of<D: Dialect>(game: &D::Game, mv: Move<D>) -> Option<AgiPoint> {
    let text = D::Notation::default().format_move(game, mv);
    let point = AgiPoint::parse(&text);
    if point.is_none() {
        tracing::error!("the notation wrote {text}, which is not an AGI point");
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

    fn halt(&mut self) {
        self.engine.stop();
        self.engine.wait();
    }

    /// Places the stone at `point` on `game` for the side to move.
    fn place(&self, game: &mut D::Game, point: AgiPoint) -> Result<(), String> {
        let mv = move_at::<D>(game, point).ok_or_else(|| "not a point of this board".to_string())?;
        self.dialect.place(game, mv).map_err(|error| error.to_string())
    }

    fn rebuild(&mut self) {
        let mut game = self.dialect.new_game(self.forbidden);
        let mut kept = Vec::new();
        for &point in &self.stones {
            match self.place(&mut game, point) {
                Ok(()) => kept.push(point),
                Err(message) => tracing::warn!("position stone {point} ignored: {message}"),
            }
        }
        self.stones = kept;
        self.game = game;
    }

    fn go(&mut self, mut params: GoParams) {
        for problem in &params.problems {
            tracing::warn!("{problem}");
        }
        if params.restricted {
            // BESTMOVE must be one of the points: keep those open on this board (and, in renju,
            // not forbidden to black).
            let (open, closed): (Vec<AgiPoint>, Vec<AgiPoint>) = params
                .search
                .iter()
                .partition(|&&point| move_at::<D>(&self.game, point).is_some_and(|mv| self.game.is_legal(mv)));
            if !closed.is_empty() {
                tracing::warn!("GO SEARCH: {} cannot be played here; ignored", crate::point::format_points(&closed));
            }
            if open.is_empty() {
                tracing::warn!("GO SEARCH: none of the points can be played here; no BESTMOVE");
                return;
            }
            params.search = open;
        }
        let stones = self.stones.len();
        let answer = match (self.change, self.fifth, stones) {
            (Change::First, _, 1) if !params.ponder => {
                // Black's first stone near the centre is worth taking over.
                let first = move_at::<D>(&self.game, self.stones[0]);
                if first.is_some_and(|stone| self.dialect.takes_first_stone(&self.game, stone)) {
                    self.out.line(Response::BestMove { best: Best::Change, ponder: None });
                    return;
                }
                Answer::Move
            }
            (Change::Third, _, 3) => Answer::ChangeIfWorse,
            (_, Fifth::Two | Fifth::Many(_), 4) if params.search.len() >= 2 => Answer::WorstProposal,
            (_, fifth @ (Fifth::Two | Fifth::Many(_)), 4) => Answer::Proposals(fifth.proposals()),
            _ => Answer::Move,
        };
        let search_moves: Vec<Move<D>> =
            params.search.iter().filter_map(|&point| move_at::<D>(&self.game, point)).collect();
        let multipv = match answer {
            Answer::Proposals(count) => count,
            Answer::WorstProposal => search_moves.len(),
            _ => 1,
        };
        let mut options = self.options.clone();
        options.multipv = multipv;
        self.engine.call(move |searcher| searcher.set_options(&options));
        let untimed = params.infinite || params.ponder;
        let move_time = params
            .time_ms
            .map_or(DEFAULT_MOVE_TIME, |ms| (Duration::from_millis(ms) / MOVES_TO_PLAN).max(Duration::from_millis(10)));
        let limits =
            Limits { move_time: (!untimed).then_some(move_time), infinite: untimed, search_moves, ..Limits::none() };
        if !params.search.is_empty() {
            self.out.line(Response::Info(InfoLine { search: params.search.clone(), ..InfoLine::default() }));
        }
        let lines: Lines<Move<D>> = Arc::new(Mutex::new(Vec::new()));
        let sink = {
            let out = self.out.clone();
            let root = self.game.clone();
            let lines = Arc::clone(&lines);
            move |report: Report<Move<D>>| {
                if let Report::Info(info) = report {
                    let score = agi_score(info.score);
                    let pv: Vec<AgiPoint> = info.pv.iter().filter_map(|&mv| point_of::<D>(&root, mv)).collect();
                    if let Some(&first) = info.pv.first() {
                        let mut lines = lines.lock();
                        let index = info.multipv.max(1) as usize - 1;
                        if lines.len() <= index {
                            lines.resize(index + 1, (first, score));
                        }
                        lines[index] = (first, score);
                    }
                    let mut line = InfoLine {
                        depth: Some(info.depth),
                        score: Some(score),
                        pv,
                        nps: Some(info.nps()),
                        ..InfoLine::default()
                    };
                    if let (Score::Mate(moves), Some(&first)) = (info.score, line.pv.first()) {
                        if moves > 0 {
                            line.win = vec![first];
                        } else {
                            line.lose = vec![first];
                        }
                    }
                    out.line(Response::Info(line));
                }
            }
        };
        let allowed = limits.search_moves.clone();
        let done = {
            let out = self.out.clone();
            let dialect = Arc::clone(&self.dialect);
            let root = self.game.clone();
            let quitting = Arc::clone(&self.quitting);
            move |result: SearchResult<Move<D>>| {
                if quitting.load(Ordering::SeqCst) {
                    return;
                }
                let Some(mut best) = result.best else {
                    tracing::warn!("GO on a finished or full board: no BESTMOVE");
                    return;
                };
                if !allowed.is_empty() && !allowed.contains(&best) {
                    // A searcher's fallback (a panic caught by the engine) may name any legal point.
                    tracing::error!("the search answered {best:?} outside SEARCH");
                    best = allowed[0];
                }
                let point = |mv| point_of::<D>(&root, mv);
                let ponder = result.ponder.and_then(point);
                let lines = lines.lock().clone();
                let best = match answer {
                    Answer::ChangeIfWorse if dialect.prefers_change(result.score) => Best::Change,
                    Answer::Proposals(count) if lines.len() >= 2 => {
                        Best::Points(lines.iter().take(count).filter_map(|&(mv, _)| point(mv)).collect())
                    }
                    Answer::WorstProposal if !lines.is_empty() => {
                        // The lines are valued for black (to move): white lets black keep the lowest.
                        let keep = lines.iter().min_by_key(|&&(_, value)| value).map_or(best, |&(mv, _)| mv);
                        Best::Points(point(keep).into_iter().collect())
                    }
                    _ => Best::Points(point(best).into_iter().collect()),
                };
                out.line(Response::BestMove { best, ponder });
            }
        };
        self.engine.go(self.game.clone(), limits, sink, done);
    }
}

/// AGI scores are bare integers: evaluations as they are, wins and losses as ±(10000 − moves).
fn agi_score(score: Score) -> i64 {
    match score {
        Score::Centipawns(cp) => i64::from(cp),
        Score::Mate(moves) if moves > 0 => 10_000 - i64::from(moves),
        Score::Mate(moves) => -10_000 - i64::from(moves),
        Score::WinRate(rate) => ((f64::from(rate) - 0.5) * 2000.0) as i64,
    }
}
