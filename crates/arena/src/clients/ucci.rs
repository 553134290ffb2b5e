//! The client side of xiangqi engines, over UCCI or UCI (Pikafish-style): a xiangqi engine as a
//! [`Contestant`]. Each protocol's lines are written and read with its own crate's grammar.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use tessera_core::{Game, Limits, Score, Side};
use tessera_ucci_protocol::{Command, Go, PositionSpec, Response, ScoreText, Start};
use tessera_uci_protocol as uci;
use tessera_xiangqi::{iccs, parse_iccs, Move, Position};

use crate::game::{Contestant, Reply};
use crate::process::{ClientError, EngineProcess, EngineSpec};

const HANDSHAKE_TIME: Duration = Duration::from_secs(20);

/// Which of the two dialects the engine is spoken to in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dialect {
    /// UCCI, with `usemillisec` when the engine offers it.
    Ucci { milliseconds: bool },
    /// UCI; `ranks_from_one` for engines (Fairy-Stockfish) that number ranks 1–10 in UCI.
    Uci { ranks_from_one: bool },
}

/// A xiangqi engine speaking UCCI (`proto=ucci`, the default) or UCI (`proto=uci`).
pub struct UcciContestant {
    name: String,
    process: EngineProcess,
    dialect: Dialect,
    start: Option<Position>,
}

impl UcciContestant {
    /// Starts the engine, handshakes and sets the options of `spec`.
    ///
    /// # Errors
    /// When it cannot start or does not complete the handshake.
    pub fn start(spec: &EngineSpec, log: Option<&PathBuf>) -> Result<Self, ClientError> {
        let mut process = EngineProcess::start(spec, log)?;
        let uci = spec.protocol.as_deref() == Some("uci");
        let deadline = Instant::now() + HANDSHAKE_TIME;
        let boot = if uci { uci::Command::Uci.to_string() } else { Command::Ucci.to_string() };
        process.send(&boot)?;
        let lines = process.receive_until(deadline, |line| matches!(line.trim(), "ucciok" | "uciok"))?;
        // Both grammars write `id name …` and `option …` lines alike; UCCI's reads them all.
        let responses: Vec<Response> = lines.iter().filter_map(|line| line.parse().ok()).collect();
        let offers = |option: &str| {
            responses.iter().any(|r| matches!(r, Response::Option(text) if text.split_whitespace().any(|w| w.eq_ignore_ascii_case(option))))
        };
        let engine_name = responses.iter().find_map(|r| match r {
            Response::Id { key, value } if key == "name" => Some(value.clone()),
            _ => None,
        });
        // Fairy-Stockfish numbers ranks 1–10 in UCI and reads UCCI times as milliseconds
        // without offering `usemillisec`: known deviations, recognised by name.
        let fairy = engine_name.is_some_and(|name| name.contains("Fairy-Stockfish"));
        let dialect = if uci {
            Dialect::Uci { ranks_from_one: fairy }
        } else {
            Dialect::Ucci { milliseconds: offers("usemillisec") || fairy }
        };
        let mut contestant = UcciContestant { name: spec.name.clone(), process, dialect, start: None };
        if uci && offers("UCI_Variant") {
            contestant.set_option("UCI_Variant", "xiangqi")?;
        }
        if !fairy && matches!(dialect, Dialect::Ucci { milliseconds: true }) {
            contestant.set_option("usemillisec", "true")?;
        }
        for (name, value) in &spec.options {
            contestant.set_option(&name.replace('_', " "), value)?;
        }
        contestant.sync(deadline)?;
        Ok(contestant)
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), ClientError> {
        let value = Some(value.to_string());
        let line = match self.dialect {
            Dialect::Uci { .. } => uci::Command::SetOption { name: name.to_string(), value }.to_string(),
            Dialect::Ucci { .. } => Command::SetOption { name: name.replace(' ', ""), value }.to_string(),
        };
        self.process.send(&line)
    }

    fn sync(&mut self, deadline: Instant) -> Result<(), ClientError> {
        self.process.send(&Command::IsReady.to_string())?;
        self.process.receive_until(deadline, |line| line.trim() == "readyok").map(drop)
    }

    fn move_text(&self, mv: Move) -> String {
        let text = iccs(mv);
        match self.dialect {
            Dialect::Uci { ranks_from_one: true } => shift_ranks(&text, 1),
            _ => text,
        }
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        let text = match self.dialect {
            Dialect::Uci { ranks_from_one: true } => shift_ranks(text, -1),
            _ => text.to_string(),
        };
        parse_iccs(&text).ok()
    }

    /// The `go` line for `limits`, in the engine's protocol.
    fn go_command(&self, position: &Position, limits: &Limits<Move>) -> String {
        match self.dialect {
            Dialect::Ucci { milliseconds } => {
                let mut go = Go { depth: limits.depth, nodes: limits.nodes, ..Go::default() };
                let unit =
                    |time: Duration| if milliseconds { time.as_millis() as f64 } else { time.as_secs_f64().floor() };
                if let Some(clock) = limits.clock {
                    go.time = Some(unit(clock.ours));
                    go.increment = Some(unit(clock.increment));
                    go.moves_to_go = clock.moves_to_go;
                    go.opp_time = clock.theirs.map(unit);
                } else if let Some(time) = limits.move_time {
                    go.time = Some(unit(time));
                    go.moves_to_go = Some(1);
                }
                Command::Go(go).to_string()
            }
            Dialect::Uci { .. } => {
                uci::Command::Go(super::uci::go_command(position.side_to_move(), limits)).to_string()
            }
        }
    }
}

/// Adds `by` to both rank numbers of a coordinate move (`h2e2` ↔ `h3e3`, `a9a8` ↔ `a10a9`).
fn shift_ranks(text: &str, by: i32) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        if let Ok(rank) = digits.parse::<i32>() {
            out.push_str(&(rank + by).to_string());
        }
        digits.clear();
    };
    for character in text.chars() {
        if character.is_ascii_digit() {
            digits.push(character);
        } else {
            flush(&mut digits, &mut out);
            out.push(character);
        }
    }
    flush(&mut digits, &mut out);
    out
}

fn score_of(text: ScoreText) -> Score {
    match text {
        // UCCI mates are ±(10000 − plies); anything beyond ±9000 is treated as a mate.
        ScoreText::Plain(value) if value.abs() >= 9000 => {
            let plies = 10_000 - value.abs();
            Score::Mate(value.signum() * (plies + 1) / 2)
        }
        ScoreText::Plain(value) | ScoreText::Centipawns(value) => Score::Centipawns(value),
        ScoreText::Mate(moves) => Score::Mate(moves),
    }
}

fn uci_score_of(text: uci::ScoreText) -> Score {
    match text {
        uci::ScoreText::Cp(cp) => Score::Centipawns(cp),
        uci::ScoreText::Mate(moves) => Score::Mate(moves),
    }
}

impl Contestant<Position> for UcciContestant {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, start: &Position, _side: Side) -> Result<(), ClientError> {
        let mut start = start.clone();
        while start.ply() > 0 {
            start.undo();
        }
        self.start = Some(start);
        match self.dialect {
            Dialect::Uci { .. } => self.process.send(&uci::Command::UciNewGame.to_string())?,
            Dialect::Ucci { .. } => {
                self.process.send(&Command::SetOption { name: "newgame".into(), value: None }.to_string())?;
            }
        }
        self.sync(Instant::now() + HANDSHAKE_TIME)
    }

    fn choose_move(
        &mut self,
        position: &Position,
        limits: &Limits<Move>,
        deadline: Instant,
    ) -> Result<Reply<Move>, ClientError> {
        let start = self.start.as_ref().map_or_else(|| position.to_fen(), Position::to_fen);
        let moves =
            (0..position.ply()).filter_map(|index| position.move_played(index)).map(|mv| self.move_text(mv)).collect();
        let position_line = match self.dialect {
            Dialect::Uci { .. } => uci::Command::Position { start: uci::Start::Fen(start), moves }.to_string(),
            Dialect::Ucci { .. } => Command::Position(PositionSpec { start: Start::Fen(start), moves }).to_string(),
        };
        self.process.send(&position_line)?;
        self.process.send(&self.go_command(position, limits))?;
        let (mut score, mut depth) = (None, None);
        loop {
            let line = self.process.receive(deadline)?;
            let answer = match self.dialect {
                Dialect::Uci { .. } => match line.parse::<uci::Response>() {
                    Ok(uci::Response::Info(info)) => {
                        if let Some((text, _)) = info.score {
                            (score, depth) = (Some(uci_score_of(text)), info.depth);
                        }
                        continue;
                    }
                    Ok(uci::Response::BestMove { best, .. }) => Some(best),
                    _ => continue,
                },
                Dialect::Ucci { .. } => match line.parse::<Response>() {
                    Ok(Response::Info(info)) => {
                        if let Some(text) = info.score {
                            (score, depth) = (Some(score_of(text)), info.depth);
                        }
                        continue;
                    }
                    Ok(Response::BestMove { resign: true, .. } | Response::NoBestMove) => None,
                    Ok(Response::BestMove { mv, .. }) => Some(mv),
                    _ => continue,
                },
            };
            let Some(text) = answer else { return Ok(Reply::Resign) };
            return match self.parse_move(&text).filter(|&parsed| position.is_legal(parsed)) {
                Some(mv) => Ok(Reply::Move { mv, score, depth }),
                None => Err(ClientError::IllegalMove { name: self.name.clone(), text }),
            };
        }
    }
}

impl Drop for UcciContestant {
    fn drop(&mut self) {
        let _ = self.process.send(&Command::Quit.to_string());
        self.process.shut_down(Duration::from_millis(500));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_shift_both_ways() {
        assert_eq!(shift_ranks("h2e2", 1), "h3e3");
        assert_eq!(shift_ranks("a9a8", 1), "a10a9");
        assert_eq!(shift_ranks("a10a9", -1), "a9a8");
    }

    #[test]
    fn ucci_scores_become_scores() {
        assert_eq!(score_of(ScoreText::Plain(120)), Score::Centipawns(120));
        assert_eq!(score_of(ScoreText::Plain(9997)), Score::Mate(2));
        assert_eq!(score_of(ScoreText::Plain(-9996)), Score::Mate(-2));
        assert_eq!(score_of(ScoreText::Mate(-3)), Score::Mate(-3));
    }
}
