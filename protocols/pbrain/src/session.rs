//! The engine side of pbrain: board state, `INFO` settings, searches and answers.
//!
//! The session never blocks on a search: `go` returns at once and the answer is printed by the
//! search's `done` callback, which also queues our move; the queue is applied before the next
//! command changes the board. `END` and `STOP` act while thinking.

use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use tessera_core::io::Output;
use tessera_core::{memory, Engine, EngineOptions, Game, Limits, Report, Score, SearchResult, Searcher};

use crate::command::{Command, Field};
use crate::dialect::{Dialect, RuleCode};
use crate::response::Response;
use crate::time::{hash_mb_for, hash_mb_for_size, move_budget, TimeSettings};

/// Whether the session goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `END`: exit now.
    Quit,
}

/// What a board block (`BOARD`, `YXBOARD`, `SWAP2BOARD` … `DONE`) is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    Board,
    YxBoard,
    Swap2,
}

/// What a finished search answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    /// Print and play the best move.
    Move,
    /// `YXNBEST`: print the move, do not play it.
    Analysis,
    /// Swap2 with 3 stones (white to move): `SWAP` if white is worse, else a move.
    SwapOrMove,
}

/// Stones of an open board block.
type BlockStones = Vec<(u32, u32, Field)>;

/// A finished search's chosen moves waiting to be put on the board.
type Queue<M> = Arc<Mutex<Vec<M>>>;

type Move<D> = <<D as Dialect>::Game as Game>::Move;

/// The pbrain session over dialect `D` and searcher `S`.
pub struct Session<D: Dialect, S: Searcher<D::Game>> {
    dialect: Arc<D>,
    engine: Engine<D::Game, S>,
    out: Output,
    size: Option<(u32, u32)>,
    rule: RuleCode,
    game: Option<D::Game>,
    /// Stones in play order, to rebuild the board when the rule changes or on `TAKEBACK`.
    stones: Vec<(u32, u32)>,
    block: Option<(Block, BlockStones)>,
    time: TimeSettings,
    options: EngineOptions,
    applied_options: Option<EngineOptions>,
    show_detail: bool,
    max_depth: Option<u32>,
    max_nodes: Option<u64>,
    /// Our moves chosen by finished searches, not yet put on `game`.
    ours: Queue<Move<D>>,
}

impl<D: Dialect, S: Searcher<D::Game>> Session<D, S> {
    /// A session writing to `out`, searching with `searcher`.
    pub fn new(dialect: D, searcher: S, options: EngineOptions, out: Output) -> Self {
        if let Some(note) = searcher.memory_mb().and_then(|granted| memory::clamp_note(options.hash_mb, granted)) {
            // Said in the log: nothing may come before the manager's first command is answered.
            tracing::warn!("{note}");
        }
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
                self.out.line(Response::About(self.dialect.about()));
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
                let points = self.game.as_ref().map(|game| self.dialect.forbidden_points(game)).unwrap_or_default();
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

    fn error(&self, message: &str) {
        self.out.line(Response::Error(message.to_string()));
    }

    fn ready(&self) -> bool {
        if self.game.is_none() {
            self.error("no board: send START first");
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
                self.out.line(Response::Ok);
            }
            Err(message) => {
                self.game = None;
                self.error(&message);
            }
        }
    }

    fn rebuild(&mut self) -> Result<(), String> {
        let (width, height) = self.size.ok_or("no board: send START first")?;
        let mut game = self.dialect.new_game(width, height, self.rule)?;
        for &(x, y) in &self.stones {
            self.dialect.place(&mut game, x, y)?;
        }
        self.game = Some(game);
        Ok(())
    }

    /// Places a stone for the side to move; prints `ERROR` and returns false if it cannot.
    fn place(&mut self, x: u32, y: u32) -> bool {
        let Some(game) = self.game.as_mut() else {
            self.error("no board: send START first");
            return false;
        };
        match self.dialect.place(game, x, y) {
            Ok(()) => {
                self.stones.push((x, y));
                true
            }
            Err(message) => {
                self.error(&message);
                false
            }
        }
    }

    fn apply_our_moves(&mut self) {
        let moves: Vec<Move<D>> = std::mem::take(&mut *self.ours.lock());
        for mv in moves {
            let (x, y) = self.dialect.coordinates(mv);
            self.place(x, y);
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
            Err(message) => self.error(&message),
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
        if let Err(message) = self.rebuild() {
            self.stones.clear();
            let _ = self.rebuild();
            return self.error(&message);
        }
        match block {
            Block::Board => self.think(Answer::Move, None),
            Block::YxBoard => {}
            Block::Swap2 => self.swap2(),
        }
    }

    fn swap2(&mut self) {
        let Some((width, height)) = self.size else { return };
        match self.stones.len() {
            0 => {
                let (cx, cy) = (width / 2, height / 2);
                self.out.line(Response::Stones(vec![(cx, cy), (cx + 1, cy + 1), (cx + 1, cy.saturating_sub(1))]));
            }
            3 => self.think(Answer::SwapOrMove, None),
            5 => self.think(Answer::SwapOrMove, None),
            _ => self.error("SWAP2BOARD expects 0, 3 or 5 stones"),
        }
    }

    fn info(&mut self, key: &str, value: &str) {
        let number = value.trim().parse::<i64>().ok();
        match (key, number) {
            ("timeout_turn", Some(ms)) => self.time.turn_ms = ms.max(0),
            ("timeout_match", Some(ms)) => self.time.match_ms = ms.max(0),
            ("time_left", Some(ms)) => self.time.left_ms = Some(ms),
            ("max_memory", Some(bytes)) => {
                self.time.max_memory = bytes.max(0);
                self.options.hash_mb = hash_mb_for(self.time.max_memory);
            }
            ("hash_size", Some(kb)) if kb > 0 => self.options.hash_mb = hash_mb_for_size(kb, self.time.max_memory),
            ("thread_num", Some(threads)) if threads > 0 => self.options.threads = (threads as usize).min(64),
            ("max_depth", Some(depth)) => self.max_depth = (depth > 0).then_some(depth as u32),
            ("max_node", Some(nodes)) => self.max_nodes = (nodes > 0).then_some(nodes as u64),
            ("show_detail", Some(level)) => self.show_detail = level != 0,
            ("rule", Some(rule)) => {
                let rule = RuleCode::from_number(rule);
                if rule != self.rule {
                    self.rule = rule;
                    if self.size.is_some() {
                        self.engine.stop();
                        self.engine.wait();
                        self.apply_our_moves();
                        if let Err(message) = self.rebuild() {
                            self.error(&message);
                        }
                    }
                }
            }
            // game_type, evaluate, folder, caution_factor, pondering and unknown keys need nothing.
            _ => tracing::debug!("INFO {key} {value} ignored"),
        }
    }

    fn think(&mut self, answer: Answer, multipv: Option<usize>) {
        let Some(game) = self.game.clone() else { return };
        let mut options = self.options.clone();
        options.multipv = multipv.unwrap_or(1);
        if self.applied_options.as_ref() != Some(&options) {
            let applied = options.clone();
            let granted = self.engine.call(move |searcher| {
                searcher.set_options(&applied);
                searcher.memory_mb()
            });
            if let Some(note) = granted.and_then(|granted| memory::clamp_note(options.hash_mb, granted)) {
                self.out.line(Response::Message(note));
            }
            self.applied_options = Some(options);
        }
        let budget = move_budget(&self.time);
        let limits = Limits {
            move_time: Some(budget),
            depth: self.max_depth,
            nodes: self.max_nodes,
            report_interval: Some(Duration::from_millis(500)),
            ..Limits::none()
        };
        let sink = {
            let out = self.out.clone();
            let dialect = Arc::clone(&self.dialect);
            let show_detail = self.show_detail;
            move |report: Report<Move<D>>| match report {
                Report::Info(info) => {
                    let pv: Vec<String> = info.pv.iter().map(|&mv| coordinate_text(dialect.as_ref(), mv)).collect();
                    let mut lines = vec![Response::Message(format!(
                        "depth {} eval {} nodes {} nps {} pv {}",
                        info.depth,
                        score_text(info.score),
                        info.nodes,
                        info.nps(),
                        pv.join(" ")
                    ))];
                    if show_detail {
                        if let Some(&best) = info.pv.first() {
                            lines.push(Response::Message(format!(
                                "REALTIME BEST {}",
                                coordinate_text(dialect.as_ref(), best)
                            )));
                        }
                    }
                    out.lines(lines);
                }
                Report::CurrentMove { mv, .. } if show_detail => {
                    out.line(Response::Message(format!("REALTIME POS {}", coordinate_text(dialect.as_ref(), mv))));
                }
                Report::Text(text) => out.line(Response::Message(text)),
                _ => {}
            }
        };
        let done = {
            let out = self.out.clone();
            let dialect = Arc::clone(&self.dialect);
            let ours = Arc::clone(&self.ours);
            move |result: SearchResult<Move<D>>| {
                let Some(best) = result.best else {
                    out.line(Response::Error("no legal move".into()));
                    return;
                };
                let (x, y) = dialect.coordinates(best);
                let white_is_worse = matches!(result.score, Score::Centipawns(cp) if cp < -30)
                    || matches!(result.score, Score::Mate(n) if n < 0);
                match answer {
                    Answer::SwapOrMove if white_is_worse => out.line(Response::Swap),
                    Answer::Analysis => out.line(Response::Move(x, y)),
                    Answer::Move | Answer::SwapOrMove => {
                        // Queue the move before printing it: the manager's next command may come at once.
                        ours.lock().push(best);
                        out.line(Response::Move(x, y));
                    }
                }
            }
        };
        if self.show_detail {
            self.out.line(Response::Message("REALTIME REFRESH".into()));
        }
        self.engine.go(game, limits, sink, done);
    }
}

fn coordinate_text<D: Dialect>(dialect: &D, mv: Move<D>) -> String {
    let (x, y) = dialect.coordinates(mv);
    format!("{x},{y}")
}

fn score_text(score: Score) -> String {
    match score {
        Score::Centipawns(cp) => cp.to_string(),
        Score::Mate(moves) if moves > 0 => format!("+M{moves}"),
        Score::Mate(moves) => format!("-M{}", -moves),
        Score::WinRate(rate) => format!("{:.1}%", rate * 100.0),
    }
}
