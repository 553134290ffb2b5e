//! The client side of AGI (Amoyman Gobang Interface): a 15×15 gomoku or renju engine as a
//! [`Contestant`]. A fixed time per move is imposed with `GO INFINITE` and `STOP`, since AGI's
//! `TIME` is the time left for the whole game.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use tessera_agi_protocol::{Best, Command, GoParams, HexPoint, Response};
use tessera_core::{Game, GridPoint, Limits, Score, Side};
use tessera_gomoku::{Board, Point, Variant};

use crate::game::{Contestant, Reply};
use crate::process::{ClientError, EngineProcess, EngineSpec};

const SETUP_TIME: Duration = Duration::from_secs(20);
/// Thinking time per move when the match gives no time (depth or node controls).
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// A gomoku engine speaking AGI.
pub struct AgiContestant {
    name: String,
    process: EngineProcess,
}

impl AgiContestant {
    /// Starts the engine and completes the `AGI` handshake.
    ///
    /// # Errors
    /// When it cannot start or does not answer `AGIOK`.
    pub fn start(spec: &EngineSpec, log: Option<&PathBuf>) -> Result<Self, ClientError> {
        let mut contestant = AgiContestant { name: spec.name.clone(), process: EngineProcess::start(spec, log)? };
        contestant.send(&Command::Agi)?;
        contestant
            .process
            .receive_until(Instant::now() + SETUP_TIME, |line| line.trim().eq_ignore_ascii_case("AGIOK"))?;
        Ok(contestant)
    }

    fn send(&mut self, command: &Command) -> Result<(), ClientError> {
        self.process.send(&command.to_string())
    }

    fn protocol_error(&self, line: &str, reason: &str) -> ClientError {
        ClientError::Protocol { name: self.name.clone(), line: line.to_string(), reason: reason.to_string() }
    }

    /// Waits for `BESTMOVE` until `until`; `None` when that time passes first. `evaluation` keeps
    /// the last reported score with its depth.
    fn best_move(
        &mut self,
        until: Instant,
        evaluation: &mut Option<(Score, Option<u32>)>,
    ) -> Result<Option<(String, Best)>, ClientError> {
        loop {
            let line = match self.process.receive(until) {
                Ok(line) => line,
                Err(ClientError::Stalled(_)) => return Ok(None),
                Err(error) => return Err(error),
            };
            match line.parse::<Response>() {
                Ok(Response::BestMove { best, .. }) => return Ok(Some((line, best))),
                Ok(Response::Info(info)) => {
                    if let Some(value) = info.score {
                        let centipawns = i32::try_from(value).unwrap_or(if value > 0 { i32::MAX } else { -i32::MAX });
                        *evaluation = Some((Score::Centipawns(centipawns), info.depth));
                    }
                }
                _ => {}
            }
        }
    }
}

/// `point` as AGI writes it, `None` beyond 15×15.
fn hex_point(point: Point) -> Option<HexPoint> {
    HexPoint::from_grid(GridPoint { column: u32::from(point.x()), row: u32::from(point.y()) })
}

impl Contestant<Board> for AgiContestant {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, start: &Board, _side: Side) -> Result<(), ClientError> {
        let rules = start.rules();
        let forbidden = match rules.variant {
            Variant::Renju => true,
            Variant::Freestyle => false,
            other => return Err(self.protocol_error("SETRULE", &format!("AGI has no {other} rule"))),
        };
        if (rules.width, rules.height) != (15, 15) {
            return Err(self.protocol_error("POSITION", "AGI plays on 15x15 only"));
        }
        self.send(&Command::SetRule { forbidden, change: Default::default(), fifth: Default::default() })?;
        self.send(&Command::IsReady)?;
        self.process
            .receive_until(Instant::now() + SETUP_TIME, |line| line.trim().eq_ignore_ascii_case("READYOK"))
            .map(drop)
    }

    fn choose_move(
        &mut self,
        position: &Board,
        limits: &Limits<Point>,
        deadline: Instant,
    ) -> Result<Reply<Point>, ClientError> {
        let moves: Option<Vec<HexPoint>> =
            (0..position.ply()).filter_map(|index| position.move_played(index)).map(hex_point).collect();
        let moves = moves.ok_or_else(|| self.protocol_error("POSITION", "AGI plays on 15x15 only"))?;
        self.send(&Command::Position { statu: Vec::new(), moves })?;
        let started = Instant::now();
        let mut evaluation = None;
        let answer = if let Some(clock) = limits.clock {
            let time_ms = Some(clock.ours.as_millis() as u64);
            self.send(&Command::Go(GoParams { time_ms, ..GoParams::default() }))?;
            self.best_move(deadline, &mut evaluation)?
        } else {
            self.send(&Command::Go(GoParams { infinite: true, ..GoParams::default() }))?;
            let think = limits.move_time.unwrap_or(DEFAULT_MOVE_TIME);
            match self.best_move(started + think, &mut evaluation)? {
                Some(answer) => Some(answer),
                None => {
                    self.send(&Command::Stop)?;
                    self.best_move(deadline, &mut evaluation)?
                }
            }
        };
        let Some((line, best)) = answer else { return Err(ClientError::Stalled(self.name.clone())) };
        let point = match best {
            Best::Points(points) if points.len() == 1 => {
                let grid = points[0].grid();
                // An AGI point lies on 15×15, so both casts keep their value.
                Point::new(grid.column as u8, grid.row as u8)
            }
            _ => return Err(ClientError::IllegalMove { name: self.name.clone(), text: line }),
        };
        if !position.is_legal(point) {
            return Err(ClientError::IllegalMove { name: self.name.clone(), text: line });
        }
        let (score, depth) = evaluation.map_or((None, None), |(score, depth)| (Some(score), depth));
        Ok(Reply::Move { mv: point, score, depth })
    }
}

impl Drop for AgiContestant {
    fn drop(&mut self) {
        let _ = self.send(&Command::Quit);
        self.process.shut_down(Duration::from_millis(500));
    }
}
