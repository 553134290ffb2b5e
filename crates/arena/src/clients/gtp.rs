//! The client side of GTP: a go engine as a [`Contestant`], and a GTP engine as a referee that
//! scores finished games.

use std::time::{Duration, Instant};

use tessera_core::{Game, Limits, Outcome, Score, Side};
use tessera_go::{lettered_point, parse_vertex, Move, Position};
use tessera_gtp_protocol::analysis::{Analyze, AnalyzeKind};
use tessera_gtp_protocol::{Color, Command, Response, Vertex};

use crate::game::{Contestant, Reply};
use crate::process::{ClientError, EngineProcess, EngineSpec};

/// How long setup commands may take.
const SETUP_TIME: Duration = Duration::from_secs(20);

/// A GTP conversation with one engine process.
pub struct GtpClient {
    process: EngineProcess,
}

impl GtpClient {
    /// Starts the engine and checks it answers `protocol_version`.
    ///
    /// # Errors
    /// When it cannot start or does not speak GTP.
    pub fn start(spec: &EngineSpec, log: Option<&std::path::PathBuf>) -> Result<Self, ClientError> {
        let mut client = GtpClient { process: EngineProcess::start(spec, log)? };
        client.expect_success(&Command::ProtocolVersion, Instant::now() + SETUP_TIME)?;
        Ok(client)
    }

    /// Sends `command` and returns the engine's response, read up to its closing empty line.
    ///
    /// # Errors
    /// On a stall, a crash, or a reply that is not a GTP response.
    pub fn request(&mut self, command: &Command, deadline: Instant) -> Result<Response, ClientError> {
        self.process.send(&command.to_string())?;
        // Skip anything before the response (some engines print a banner), then read to the empty line.
        let mut text = loop {
            let line = self.process.receive(deadline)?;
            if line.starts_with('=') || line.starts_with('?') {
                break line;
            }
        };
        loop {
            let line = self.process.receive(deadline)?;
            if line.trim().is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(&line);
        }
        text.parse::<Response>().map_err(|error| self.protocol_error(&text, &error.to_string()))
    }

    /// Sends `command` and returns the text of a successful response.
    ///
    /// # Errors
    /// As [`GtpClient::request`], and a protocol error for a `?` answer.
    pub fn expect_success(&mut self, command: &Command, deadline: Instant) -> Result<String, ClientError> {
        match self.request(command, deadline)? {
            Response::Success { text, .. } => Ok(text),
            Response::Failure { message, .. } => Err(self.protocol_error(&command.to_string(), &message)),
        }
    }

    pub(crate) fn protocol_error(&self, line: &str, reason: &str) -> ClientError {
        ClientError::Protocol {
            name: self.process.name().to_string(),
            line: line.to_string(),
            reason: reason.to_string(),
        }
    }

    /// Sets up an empty board like `position`'s start and replays `position`'s moves.
    ///
    /// # Errors
    /// When the engine refuses the size, komi or a move.
    pub fn load(&mut self, position: &Position) -> Result<(), ClientError> {
        let deadline = Instant::now() + SETUP_TIME;
        let size = i64::try_from(position.size()).unwrap_or(19);
        self.expect_success(&Command::BoardSize(size), deadline)?;
        self.expect_success(&Command::ClearBoard, deadline)?;
        self.expect_success(&Command::Komi(position.rules().komi), deadline)?;
        for index in 0..position.ply() {
            let replay = replayed_to(position, index);
            let mv = position.move_played(index).expect("index < ply");
            self.play(&replay, mv, deadline)?;
        }
        Ok(())
    }

    /// Tells the engine that the side to move in `before` played `mv`.
    ///
    /// # Errors
    /// When the engine refuses the move.
    pub fn play(&mut self, before: &Position, mv: Move, deadline: Instant) -> Result<(), ClientError> {
        let vertex = vertex_of(before, mv);
        self.expect_success(&Command::Play(color_of(before.side_to_move()), vertex), deadline).map(drop)
    }

    /// Ends the conversation politely.
    pub fn quit(&mut self) {
        let _ = self.request(&Command::Quit, Instant::now() + Duration::from_secs(2));
        self.process.shut_down(Duration::from_millis(500));
    }
}

fn color_of(side: Side) -> Color {
    if side == Side::First {
        Color::Black
    } else {
        Color::White
    }
}

fn vertex_of(position: &Position, mv: Move) -> Vertex {
    lettered_point(position.size(), mv).map_or(Vertex::Pass, Vertex::Point)
}

/// `position`'s start with its first `plies` moves played.
fn replayed_to(position: &Position, plies: usize) -> Position {
    let mut replay = position.clone();
    while replay.ply() > plies {
        replay.undo();
    }
    replay
}

/// A go engine speaking GTP, as a match contestant.
pub struct GtpContestant {
    name: String,
    client: GtpClient,
    /// Moves of the current game the engine already knows.
    synced: usize,
    /// Whether the engine lists `kata-genmove_analyze`, which gives its win rate with the move.
    reports_win_rates: bool,
}

/// Centiseconds between the analysis lines of `kata-genmove_analyze`: only the last line before
/// the move is read, so they may be rare (our engine adds a last line when its search ends).
const ANALYSIS_INTERVAL: u32 = 50;

impl GtpContestant {
    /// Starts the engine of `spec`.
    ///
    /// # Errors
    /// When it cannot start or does not answer GTP.
    pub fn start(spec: &EngineSpec, log: Option<&std::path::PathBuf>) -> Result<Self, ClientError> {
        let mut client = GtpClient::start(spec, log)?;
        let commands = client.expect_success(&Command::ListCommands, Instant::now() + SETUP_TIME)?;
        let reports_win_rates = commands.lines().any(|line| line.trim() == "kata-genmove_analyze");
        Ok(GtpContestant { name: spec.name.clone(), client, synced: 0, reports_win_rates })
    }

    /// Asks for a move: the move's text and, from `kata-genmove_analyze`, the win rate (side to
    /// move's) and visits of the best move in the last analysis line.
    fn generate(&mut self, color: Color, deadline: Instant) -> Result<(String, Option<(f32, u32)>), ClientError> {
        if !self.reports_win_rates {
            return Ok((self.client.expect_success(&Command::Genmove(color), deadline)?, None));
        }
        let analyze = Analyze {
            kind: AnalyzeKind::Kata,
            color: Some(color),
            interval: Some(ANALYSIS_INTERVAL),
            ownership: false,
        };
        let text = self.client.expect_success(&Command::GenmoveAnalyze(analyze), deadline)?;
        let played = text.lines().rev().find_map(|line| line.trim().strip_prefix("play "));
        let played = played.ok_or_else(|| self.client.protocol_error(&text, "no `play` line"))?.trim().to_string();
        let last_analysis = text.lines().rev().find(|line| line.trim_start().starts_with("info move"));
        Ok((played, last_analysis.and_then(best_win_rate)))
    }
}

/// The win rate and visits of the first (best) move of a KataGo analysis line.
fn best_win_rate(line: &str) -> Option<(f32, u32)> {
    let first_move = line.split("info move").nth(1)?;
    let words: Vec<&str> = first_move.split_whitespace().collect();
    let value = |key: &str| words.windows(2).find(|pair| pair[0] == key).map(|pair| pair[1]);
    Some((value("winrate")?.parse().ok()?, value("visits")?.parse().ok()?))
}

impl Contestant<Position> for GtpContestant {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, start: &Position, _side: Side) -> Result<(), ClientError> {
        self.client.load(start)?;
        self.synced = start.ply();
        Ok(())
    }

    fn choose_move(
        &mut self,
        position: &Position,
        limits: &Limits<Move>,
        deadline: Instant,
    ) -> Result<Reply<Move>, ClientError> {
        for index in self.synced..position.ply() {
            let before = replayed_to(position, index);
            self.client.play(&before, position.move_played(index).expect("index < ply"), deadline)?;
        }
        self.synced = position.ply();
        let color = color_of(position.side_to_move());
        // GTP has no "think this long" command: absolute time or one-stone byo-yomi says it.
        // GTP times are whole seconds (GNU Go refuses fractions).
        if let Some(clock) = limits.clock {
            let main = clock.ours.as_secs_f64().ceil().max(1.0);
            self.client.expect_success(&Command::TimeSettings(main, 0.0, 0), deadline)?;
            self.client.expect_success(&Command::TimeLeft(color, clock.ours.as_secs_f64().floor(), 0), deadline)?;
        } else if let Some(time) = limits.move_time {
            self.client
                .expect_success(&Command::TimeSettings(0.0, time.as_secs_f64().round().max(1.0), 1), deadline)?;
        }
        let (text, analysis) = self.generate(color, deadline)?;
        let text = text.trim();
        if text.eq_ignore_ascii_case("resign") {
            return Ok(Reply::Resign);
        }
        let illegal = || ClientError::IllegalMove { name: self.name.clone(), text: text.to_string() };
        let mv = parse_vertex(position.size(), text).map_err(|_| illegal())?;
        if !position.is_legal(mv) {
            return Err(illegal());
        }
        // The engine played its own move on its board.
        self.synced += 1;
        // Visits stand for the depth of a tree search: both say how much the score is worth.
        let (score, depth) = analysis.map_or((None, None), |(rate, visits)| (Some(Score::WinRate(rate)), Some(visits)));
        Ok(Reply::Move { mv, score, depth })
    }

    fn game_over(&mut self, _outcome: Outcome) {}
}

impl Drop for GtpContestant {
    fn drop(&mut self) {
        self.client.quit();
    }
}

/// A GTP engine (such as GNU Go) that scores finished games with `final_score`.
pub struct GtpReferee {
    client: GtpClient,
}

impl GtpReferee {
    /// Starts the referee engine.
    ///
    /// # Errors
    /// When it cannot start or does not answer GTP.
    pub fn start(spec: &EngineSpec) -> Result<Self, ClientError> {
        Ok(GtpReferee { client: GtpClient::start(spec, None)? })
    }

    /// The referee's verdict on the final position of a game, and its score text (`B+3.5`, `0`).
    ///
    /// # Errors
    /// When the referee fails or answers something that is not a score.
    pub fn score(&mut self, final_position: &Position) -> Result<(Outcome, String), ClientError> {
        self.client.load(final_position)?;
        let text = self.client.expect_success(&Command::FinalScore, Instant::now() + SETUP_TIME)?;
        let verdict = parse_score(&text).ok_or_else(|| self.client.protocol_error(&text, "not a score"))?;
        Ok((verdict, text.trim().to_string()))
    }
}

/// Reads a GTP score: `B+3.5`, `W+0.5`, `0`.
#[must_use]
pub fn parse_score(text: &str) -> Option<Outcome> {
    let text = text.trim();
    if text == "0" {
        return Some(Outcome::Draw);
    }
    let (winner, margin) = text.split_once('+')?;
    let side = match winner.to_ascii_uppercase().as_str() {
        "B" => Side::First,
        "W" => Side::Second,
        _ => return None,
    };
    (margin.eq_ignore_ascii_case("resign") || margin.parse::<f32>().is_ok()).then_some(Outcome::Win(side))
}

#[cfg(test)]
mod tests {
    use super::{best_win_rate, parse_score};
    use tessera_core::{Outcome, Side};

    #[test]
    fn reads_the_best_move_of_an_analysis_line() {
        let line = "info move D4 visits 120 utility 0.1 winrate 0.550000 prior 0.2 lcb 0.5 order 0 pv D4 \
                    info move C3 visits 3 utility 0 winrate 0.1 order 1 pv C3";
        assert_eq!(best_win_rate(line), Some((0.55, 120)));
        assert_eq!(best_win_rate("info move D4 visits x"), None);
    }

    #[test]
    fn reads_gtp_scores() {
        assert_eq!(parse_score("B+3.5"), Some(Outcome::Win(Side::First)));
        assert_eq!(parse_score(" W+0.5 "), Some(Outcome::Win(Side::Second)));
        assert_eq!(parse_score("0"), Some(Outcome::Draw));
        assert_eq!(parse_score("X+1"), None);
        assert_eq!(parse_score("B+"), None);
    }
}
