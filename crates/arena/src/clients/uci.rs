//! The client side of UCI: a chess engine as a [`Contestant`].

use std::path::PathBuf;
use std::time::{Duration, Instant};

use tessera_chess::{Chess, Move, Uci};
use tessera_core::{Game, Limits, Score, Side};
use tessera_uci_protocol::{Command, Go, Response, ScoreText, Start};

use crate::game::{Contestant, Reply};
use crate::process::{ClientError, EngineProcess, EngineSpec};

const HANDSHAKE_TIME: Duration = Duration::from_secs(20);

/// A chess engine speaking UCI.
pub struct UciContestant {
    name: String,
    process: EngineProcess,
    /// Option names the engine declared, to match `option.Skill_Level` to `Skill Level`.
    declared: Vec<String>,
    chess960: bool,
    start_fen: String,
}

impl UciContestant {
    /// Starts the engine, handshakes and sets the options of `spec`.
    ///
    /// # Errors
    /// When it cannot start, does not answer `uciok`/`readyok`, or lacks an option given.
    pub fn start(spec: &EngineSpec, log: Option<&PathBuf>) -> Result<Self, ClientError> {
        let mut process = EngineProcess::start(spec, log)?;
        process.send(&Command::Uci.to_string())?;
        let lines = process.receive_until(Instant::now() + HANDSHAKE_TIME, |line| line.trim() == "uciok")?;
        let declared = lines
            .iter()
            .filter_map(|line| match line.parse::<Response>() {
                Ok(Response::Option(option)) => Some(option.name),
                _ => None,
            })
            .collect();
        let mut contestant =
            UciContestant { name: spec.name.clone(), process, declared, chess960: false, start_fen: String::new() };
        for (name, value) in &spec.options {
            contestant.set_option(name, value)?;
        }
        contestant.sync()?;
        Ok(contestant)
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), ClientError> {
        let wanted = name.replace('_', " ");
        let declared = self.declared.iter().find(|declared| declared.replace('_', " ").eq_ignore_ascii_case(&wanted));
        let Some(name) = declared.cloned() else {
            return Err(ClientError::Protocol {
                name: self.name.clone(),
                line: format!("option {name}"),
                reason: "the engine does not offer this option".into(),
            });
        };
        self.process.send(&Command::SetOption { name, value: Some(value.to_string()) }.to_string())
    }

    fn sync(&mut self) -> Result<(), ClientError> {
        self.process.send(&Command::IsReady.to_string())?;
        self.process.receive_until(Instant::now() + HANDSHAKE_TIME, |line| line.trim() == "readyok").map(drop)
    }
}

/// UCI's `go` for `limits`, with the clocks given to white or black by who is to move (`side`:
/// [`Side::First`] is white, or red in xiangqi's UCI dialect).
pub(crate) fn go_command<M>(side: Side, limits: &Limits<M>) -> Go {
    let mut go = Go { depth: limits.depth, nodes: limits.nodes, ..Go::default() };
    go.move_time = limits.move_time.map(|time| time.as_millis() as u64);
    if let Some(clock) = limits.clock {
        let ours = clock.ours.as_millis() as u64;
        let theirs = clock.theirs.unwrap_or(clock.ours).as_millis() as u64;
        let increment = clock.increment.as_millis() as u64;
        (go.wtime, go.btime) =
            if side == Side::First { (Some(ours), Some(theirs)) } else { (Some(theirs), Some(ours)) };
        (go.winc, go.binc) = (Some(increment), Some(increment));
        go.moves_to_go = clock.moves_to_go;
    }
    go
}

fn score_of(text: ScoreText) -> Score {
    match text {
        ScoreText::Cp(cp) => Score::Centipawns(cp),
        ScoreText::Mate(moves) => Score::Mate(moves),
    }
}

/// `position`'s start (before every move it holds).
fn start_of(position: &Chess) -> Chess {
    let mut start = position.clone();
    while start.ply() > 0 {
        start.undo();
    }
    start
}

impl Contestant<Chess> for UciContestant {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, start: &Chess, _side: Side) -> Result<(), ClientError> {
        let chess960 = start.rules().chess960;
        if chess960 != self.chess960 {
            self.set_option("UCI_Chess960", if chess960 { "true" } else { "false" })?;
            self.chess960 = chess960;
        }
        self.start_fen = start_of(start).fen();
        self.process.send(&Command::UciNewGame.to_string())?;
        self.sync()
    }

    fn choose_move(
        &mut self,
        position: &Chess,
        limits: &Limits<Move>,
        deadline: Instant,
    ) -> Result<Reply<Move>, ClientError> {
        let notation = Uci { chess960: self.chess960 };
        let mut replay = start_of(position);
        let mut moves = Vec::with_capacity(position.ply());
        for index in 0..position.ply() {
            let mv = position.move_played(index).expect("index < ply");
            moves.push(notation.format(replay.board(), mv));
            replay.play(mv);
        }
        self.process.send(&Command::Position { start: Start::Fen(self.start_fen.clone()), moves }.to_string())?;
        self.process.send(&Command::Go(go_command(position.side_to_move(), limits)).to_string())?;
        let (mut score, mut depth) = (None, None);
        loop {
            let line = self.process.receive(deadline)?;
            match line.parse::<Response>() {
                Ok(Response::Info(info)) if info.multipv.unwrap_or(1) == 1 => {
                    if let Some((text, _)) = info.score {
                        (score, depth) = (Some(score_of(text)), info.depth);
                    }
                }
                Ok(Response::BestMove { best, .. }) => {
                    let mv = notation.parse(position, &best).ok().filter(|&mv| position.is_legal(mv));
                    return match mv {
                        Some(mv) => Ok(Reply::Move { mv, score, depth }),
                        None => Err(ClientError::IllegalMove { name: self.name.clone(), text: best }),
                    };
                }
                _ => {}
            }
        }
    }
}

impl Drop for UciContestant {
    fn drop(&mut self) {
        let _ = self.process.send(&Command::Quit.to_string());
        self.process.shut_down(Duration::from_millis(500));
    }
}
