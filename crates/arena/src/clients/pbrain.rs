//! The client side of the Gomocup pbrain protocol, driven the way Piskvork does: `START`, `INFO`
//! limits (with `time_left` before every move), `BEGIN`/`TURN`, and `BOARD` to resynchronise.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use tessera_core::{Clock, Game, Limits, Score, Side};
use tessera_gomoku::{Board, Point, Variant};
use tessera_pbrain_protocol::{Command, Field, Response};

use crate::game::{Contestant, Reply};
use crate::process::{ClientError, EngineProcess, EngineSpec};

const SETUP_TIME: Duration = Duration::from_secs(20);

/// Gomocup's `INFO rule` number for a variant.
#[must_use]
pub fn rule_number(variant: Variant) -> u32 {
    match variant {
        Variant::Freestyle => 0,
        Variant::Standard => 1,
        Variant::Renju => 4,
        Variant::Caro => 9,
        Variant::CaroOverlines => 8,
    }
}

/// The per-move limit sent with a depth or node limit: long enough never to cut a fixed-effort
/// search short on a loaded machine, short enough to stay inside the arena's stall allowance.
const FIXED_EFFORT_TURN_MS: u128 = 30_000;

/// Moves a pbrain engine is expected to still play when a clock does not say, for the per-move
/// limit derived from the clock.
const MOVES_TO_PLAN: u32 = 10;

/// The `INFO timeout_turn` of a move under `clock`, in milliseconds: a share of the time left
/// plus the increment, never more than is left and never 0 (which Gomocup reads as "play as fast
/// as possible").
#[must_use]
pub fn turn_limit_ms(clock: &Clock) -> u128 {
    let moves = clock.moves_to_go.filter(|&moves| moves > 0).unwrap_or(MOVES_TO_PLAN);
    let share = clock.ours / moves + clock.increment;
    share.min(clock.ours).as_millis().max(1)
}

/// A gomoku engine speaking pbrain.
pub struct PbrainContestant {
    name: String,
    process: EngineProcess,
    /// Plies of the current game the engine has seen (its own moves included).
    synced: Option<usize>,
    /// The last score (and depth) the engine's messages reported while it thought.
    evaluation: Option<(Score, Option<u32>)>,
    /// The game's `timeout_match` under a clock: the time on the clock at the engine's first
    /// move of the game, so that `time_left` later says how much of it is gone.
    match_ms: Option<u128>,
}

/// The score and depth of a thinking message such as ours (`depth 8 eval 35 nodes … pv …`, the
/// eval in centipawns, `+M3`/`-M3` or a win rate `55.0%`) or Rapfi's (`depth 5-9 ev 32 …`).
/// pbrain has no standard for them: other messages give `None`.
#[must_use]
pub fn message_evaluation(text: &str) -> Option<(Score, Option<u32>)> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let value_after = |keys: &[&str]| words.windows(2).find(|pair| keys.contains(&pair[0])).map(|pair| pair[1]);
    let score_text = value_after(&["eval", "ev"])?;
    let score = if let Some(rate) = score_text.strip_suffix('%') {
        Score::WinRate(rate.parse::<f32>().ok()? / 100.0)
    } else if let Some(moves) = score_text.strip_prefix("+M").or_else(|| score_text.strip_prefix('M')) {
        Score::Mate(moves.parse().ok()?)
    } else if let Some(moves) = score_text.strip_prefix("-M") {
        Score::Mate(-moves.parse::<i32>().ok()?)
    } else {
        Score::Centipawns(score_text.parse().ok()?)
    };
    // Rapfi writes its depth as `selective-full`; the first number is the nominal depth.
    let depth = value_after(&["depth"]).and_then(|text| text.split('-').next()?.parse().ok());
    Some((score, depth))
}

impl PbrainContestant {
    /// Starts the engine process (the board size is sent with each new game).
    ///
    /// # Errors
    /// When it cannot start.
    pub fn start(spec: &EngineSpec, log: Option<&PathBuf>) -> Result<Self, ClientError> {
        let process = EngineProcess::start(spec, log)?;
        Ok(PbrainContestant { name: spec.name.clone(), process, synced: None, evaluation: None, match_ms: None })
    }

    fn send(&mut self, command: &Command) -> Result<(), ClientError> {
        self.process.send(&command.to_string())
    }

    /// The next answer that is not a message, before `deadline`.
    fn answer(&mut self, deadline: Instant) -> Result<(String, Response), ClientError> {
        loop {
            let line = self.process.receive(deadline)?;
            match line.parse::<Response>() {
                Ok(Response::Message(text)) => {
                    if let Some(evaluation) = message_evaluation(&text) {
                        self.evaluation = Some(evaluation);
                    }
                }
                Ok(Response::Debug(_)) => {}
                Ok(response) => return Ok((line, response)),
                Err(_) => {
                    return Err(ClientError::Protocol {
                        name: self.name.clone(),
                        line,
                        reason: "not a pbrain answer".into(),
                    })
                }
            }
        }
    }
}

impl Contestant<Board> for PbrainContestant {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, start: &Board, _side: Side) -> Result<(), ClientError> {
        let rules = start.rules();
        let (width, height) = (u32::from(rules.width), u32::from(rules.height));
        // Piskvork uses START for square boards and RECTSTART otherwise.
        let command = if width == height { Command::Start(width, height) } else { Command::RectStart(width, height) };
        self.send(&command)?;
        match self.answer(Instant::now() + SETUP_TIME)? {
            (_, Response::Ok) => {}
            (line, _) => {
                return Err(ClientError::Protocol {
                    name: self.name.clone(),
                    line,
                    reason: "expected OK after START".into(),
                })
            }
        }
        self.send(&Command::Info("rule".into(), rule_number(rules.variant).to_string()))?;
        self.synced = None;
        self.match_ms = None;
        Ok(())
    }

    fn choose_move(
        &mut self,
        position: &Board,
        limits: &Limits<Point>,
        deadline: Instant,
    ) -> Result<Reply<Point>, ClientError> {
        let (turn, game) = match (limits.clock, limits.move_time) {
            (Some(clock), cap) => {
                // A Gomocup clock caps every move; other clocks give a move a share of what is left.
                let turn = cap.map_or_else(|| turn_limit_ms(&clock), |cap| cap.as_millis());
                (turn, *self.match_ms.get_or_insert(clock.ours.as_millis()))
            }
            (None, Some(time)) => (time.as_millis(), 0),
            // Depth and node limits are Yixin-Board's `max_depth`/`max_node` (sent below): the turn
            // limit is then only a guard well inside the arena's stall allowance of a minute.
            (None, None) if limits.depth.is_some() || limits.nodes.is_some() => (FIXED_EFFORT_TURN_MS, 0),
            (None, None) => (1000, 0),
        };
        if let Some(nodes) = limits.nodes {
            self.send(&Command::Info("max_node".into(), nodes.to_string()))?;
        }
        if let Some(depth) = limits.depth {
            self.send(&Command::Info("max_depth".into(), depth.to_string()))?;
        }
        self.send(&Command::Info("timeout_turn".into(), turn.to_string()))?;
        self.send(&Command::Info("timeout_match".into(), game.to_string()))?;
        if let Some(clock) = limits.clock {
            self.send(&Command::Info("time_left".into(), clock.ours.as_millis().to_string()))?;
        }
        let ply = position.ply();
        self.evaluation = None;
        match self.synced {
            // The opponent made exactly one move since our last one.
            Some(seen) if seen + 1 == ply => {
                let last = position.move_played(ply - 1).expect("ply > 0");
                self.send(&Command::Turn(u32::from(last.x()), u32::from(last.y())))?;
            }
            _ if ply == 0 => self.send(&Command::Begin)?,
            _ => {
                // The whole game so far, in move order, as the manager sends openings.
                self.send(&Command::Board)?;
                let me = position.side_to_move();
                for index in 0..ply {
                    let point = position.move_played(index).expect("index < ply");
                    let mover = if index % 2 == ply % 2 { me } else { me.opponent() };
                    let field = if mover == me { Field::Own } else { Field::Opponent };
                    self.send(&Command::Stone(u32::from(point.x()), u32::from(point.y()), field))?;
                }
                self.send(&Command::Done)?;
            }
        }
        let (line, answer) = self.answer(deadline)?;
        let Response::Move(x, y) = answer else {
            return Err(ClientError::Protocol { name: self.name.clone(), line, reason: "expected a move x,y".into() });
        };
        let point = u8::try_from(x).ok().zip(u8::try_from(y).ok()).map(|(x, y)| Point::new(x, y));
        match point.filter(|&point| {
            position.is_legal(point) && point.x() < position.rules().width && point.y() < position.rules().height
        }) {
            Some(point) => {
                self.synced = Some(ply + 1);
                let (score, depth) = self.evaluation.map_or((None, None), |(score, depth)| (Some(score), depth));
                Ok(Reply::Move { mv: point, score, depth })
            }
            None => Err(ClientError::IllegalMove { name: self.name.clone(), text: line }),
        }
    }
}

impl Drop for PbrainContestant {
    fn drop(&mut self) {
        let _ = self.send(&Command::End);
        self.process.shut_down(Duration::from_millis(500));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinking_messages_give_the_score_and_depth() {
        let ours = "depth 8 eval 35 nodes 1200 nps 50000 pv 7,7 8,8";
        assert_eq!(message_evaluation(ours), Some((Score::Centipawns(35), Some(8))));
        assert_eq!(message_evaluation("depth 3 eval -M2 nodes 10 pv 1,1"), Some((Score::Mate(-2), Some(3))));
        assert_eq!(message_evaluation("depth 12 eval 62.5% nodes 1"), Some((Score::WinRate(0.625), Some(12))));
        assert_eq!(message_evaluation("depth 5-9 ev 32 n 1K"), Some((Score::Centipawns(32), Some(5))));
        assert_eq!(message_evaluation("REALTIME BEST 7,7"), None);
        assert_eq!(message_evaluation("eval"), None);
    }

    #[test]
    fn clocks_give_a_real_per_move_limit() {
        let ms = Duration::from_millis;
        let clock = |ours, increment| Clock { ours: ms(ours), increment: ms(increment), ..Clock::default() };
        assert_eq!(turn_limit_ms(&clock(1000, 10)), 110);
        assert_eq!(turn_limit_ms(&clock(50, 100)), 50, "never more than is left");
        assert_eq!(turn_limit_ms(&clock(0, 0)), 1, "never 0, which means 'as fast as possible'");
        let period = Clock { moves_to_go: Some(2), ..clock(3000, 0) };
        assert_eq!(turn_limit_ms(&period), 1500);
    }
}
