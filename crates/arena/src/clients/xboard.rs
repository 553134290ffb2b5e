//! The client side of the xboard (CECP) protocol for chess engines that speak only it, such as
//! Phalanx. Tessera's engines speak UCI; this exists so the arena can measure against them.
//!
//! Each move: `force`, the moves the engine has not seen, `time`/`otim`, `go`; the answer is
//! `move <m>` (or the old `My move is: <m>`), in coordinate or SAN notation.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use tessera_chess::{parse_san, Chess, Move, Uci};
use tessera_core::{Game, Limits, Side};

use crate::game::{Contestant, Reply};
use crate::process::{ClientError, EngineProcess, EngineSpec};

/// How long to wait for `feature done=1` (engines without protocol 2 never send it).
const FEATURE_TIME: Duration = Duration::from_secs(2);

/// A chess engine speaking xboard.
pub struct XboardContestant {
    name: String,
    process: EngineProcess,
    /// Moves of the current game the engine knows (its own included).
    synced: usize,
    start_fen: String,
}

impl XboardContestant {
    /// Starts the engine and asks for protocol 2.
    ///
    /// # Errors
    /// When it cannot start.
    pub fn start(spec: &EngineSpec, log: Option<&PathBuf>) -> Result<Self, ClientError> {
        let mut process = EngineProcess::start(spec, log)?;
        process.send("xboard")?;
        process.send("protover 2")?;
        let deadline = Instant::now() + FEATURE_TIME;
        match process.receive_until(deadline, |line| line.contains("done=1")) {
            Ok(_) | Err(ClientError::Stalled(_)) => {}
            Err(error) => return Err(error),
        }
        Ok(XboardContestant { name: spec.name.clone(), process, synced: 0, start_fen: String::new() })
    }
}

/// Reads the move of a `move …` or `My move is: …` line.
fn move_text(line: &str) -> Option<&str> {
    let line = line.trim();
    line.strip_prefix("move ").or_else(|| line.strip_prefix("My move is:")).map(str::trim)
}

impl Contestant<Chess> for XboardContestant {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, start: &Chess, _side: Side) -> Result<(), ClientError> {
        if start.rules().chess960 {
            return Err(ClientError::Protocol {
                name: self.name.clone(),
                line: "variant fischerandom".into(),
                reason: "Chess960 over xboard is not supported".into(),
            });
        }
        let mut first = start.clone();
        while first.ply() > 0 {
            first.undo();
        }
        self.start_fen = first.fen();
        for line in ["new", "random", "easy", "post", "force"] {
            self.process.send(line)?;
        }
        self.process.send(&format!("setboard {}", self.start_fen))?;
        self.synced = 0;
        Ok(())
    }

    fn choose_move(
        &mut self,
        position: &Chess,
        limits: &Limits<Move>,
        deadline: Instant,
    ) -> Result<Reply<Move>, ClientError> {
        self.process.send("force")?;
        let notation = Uci { chess960: false };
        let mut replay = position.clone();
        let mut unseen = Vec::new();
        while replay.ply() > self.synced {
            let mv = position.move_played(replay.ply() - 1).expect("ply > 0");
            replay.undo();
            unseen.push(notation.format(replay.board(), mv));
        }
        for text in unseen.iter().rev() {
            self.process.send(text)?;
        }
        if let Some(clock) = limits.clock {
            let seconds = clock.ours.as_secs().max(1);
            self.process.send(&format!(
                "level 0 {}:{:02} {}",
                seconds / 60,
                seconds % 60,
                clock.increment.as_secs_f64()
            ))?;
            self.process.send(&format!("time {}", clock.ours.as_millis() / 10))?;
            self.process.send(&format!("otim {}", clock.theirs.unwrap_or(clock.ours).as_millis() / 10))?;
        } else if let Some(time) = limits.move_time {
            self.process.send(&format!("st {}", time.as_secs_f64()))?;
        } else if let Some(depth) = limits.depth {
            self.process.send(&format!("sd {depth}"))?;
        }
        self.process.send("go")?;
        loop {
            let line = self.process.receive(deadline)?;
            if line.trim() == "resign" || line.contains("resign") && line.starts_with(['0', '1']) {
                return Ok(Reply::Resign);
            }
            let Some(text) = move_text(&line) else { continue };
            let mv = notation
                .parse(position, text)
                .ok()
                .filter(|&mv| position.is_legal(mv))
                .or_else(|| parse_san(position, text).ok());
            return match mv {
                Some(mv) => {
                    self.synced = position.ply() + 1;
                    Ok(Reply::Move { mv, score: None })
                }
                None => Err(ClientError::IllegalMove { name: self.name.clone(), text: text.to_string() }),
            };
        }
    }
}

impl Drop for XboardContestant {
    fn drop(&mut self) {
        let _ = self.process.send("quit");
        self.process.shut_down(Duration::from_millis(500));
    }
}

#[cfg(test)]
mod tests {
    use super::move_text;

    #[test]
    fn reads_both_move_forms() {
        assert_eq!(move_text("move e7e5"), Some("e7e5"));
        assert_eq!(move_text("My move is: Nf6"), Some("Nf6"));
        assert_eq!(move_text("12 35 100 12345 e2e4 e7e5"), None);
    }
}
