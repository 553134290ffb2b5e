//! One game between two contestants, refereed by our own rules.

use std::fmt;
use std::time::{Duration, Instant};

use tessera_core::{Game, Limits, Outcome, Score, Side};

use crate::process::ClientError;
use crate::time_control::{GameClocks, TimeControl};

/// An engine seen as a player of game `G`, whatever protocol it speaks.
///
/// Implementations translate positions and limits into their protocol, and the answer back into
/// a move of `G`, checking it is legal.
pub trait Contestant<G: Game>: Send {
    /// The name used in tables and records.
    fn name(&self) -> &str;

    /// Prepares for a new game from `start`, playing `side`.
    ///
    /// # Errors
    /// When the engine does not answer as its protocol requires.
    fn new_game(&mut self, start: &G, side: Side) -> Result<(), ClientError>;

    /// Asks for a move in `position` (reached from the game's start by the moves in its history),
    /// under `limits`, answered before `deadline`.
    ///
    /// # Errors
    /// [`ClientError::IllegalMove`] for an illegal or unreadable move, or a stall/crash/protocol error.
    fn choose_move(
        &mut self,
        position: &G,
        limits: &Limits<G::Move>,
        deadline: Instant,
    ) -> Result<Reply<G::Move>, ClientError>;

    /// The game ended (some protocols want to hear it; the default does nothing).
    fn game_over(&mut self, _outcome: Outcome) {}
}

/// A contestant's answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reply<M> {
    /// A legal move, with the engine's last reported score (side to move's view) if any.
    Move {
        /// The move.
        mv: M,
        /// The engine's evaluation when it chose the move.
        score: Option<Score>,
        /// The depth of the search that gave `score`, when the protocol tells it.
        depth: Option<u32>,
    },
    /// The engine gave up.
    Resign,
}

/// Optional adjudication by the engines' own scores.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Adjudication {
    /// Resign a game for a side once both engines agree for this many moves in a row that it is
    /// losing by at least `resign_score` centipawns (or by mate).
    pub resign_moves: Option<u32>,
    /// The centipawn margin for resignation.
    pub resign_score: i32,
    /// Declare a draw after `draw_after_ply` plies once both engines scored within `draw_score`
    /// centipawns of zero for `draw_moves` moves in a row.
    pub draw_moves: Option<u32>,
    /// The centipawn window for draw adjudication.
    pub draw_score: i32,
    /// The first ply at which draw adjudication may apply.
    pub draw_after_ply: usize,
    /// A hard ply limit: the game is drawn when reached.
    pub max_plies: Option<usize>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Termination {
    /// By the rules of the game (mate, five, repetition, passes…).
    Rules,
    /// A side resigned.
    Resignation(Side),
    /// A side used more time than it had.
    TimeForfeit(Side),
    /// A side played an illegal or unreadable move.
    IllegalMove(Side, String),
    /// A side's engine crashed, stalled or broke its protocol.
    Failure(Side, String),
    /// Adjudicated from both engines' scores.
    Adjudicated(&'static str),
    /// Scored by a referee engine, with its score text.
    Referee(String),
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Rules => write!(f, "by the rules"),
            Termination::Resignation(side) => write!(f, "{side:?} resigns"),
            Termination::TimeForfeit(side) => write!(f, "{side:?} loses on time"),
            Termination::IllegalMove(side, text) => write!(f, "{side:?} played an illegal move: {text}"),
            Termination::Failure(side, reason) => write!(f, "{side:?} failed: {reason}"),
            Termination::Adjudicated(reason) => write!(f, "adjudication: {reason}"),
            Termination::Referee(text) => write!(f, "referee: {text}"),
        }
    }
}

/// What the record keeps of each move the engines played: the mover's last reported score and
/// search depth, and the wall time it took (written into PGN and SGF move comments).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveNote {
    /// The mover's evaluation, from its own side.
    pub score: Option<Score>,
    /// The depth of the search that gave `score`.
    pub depth: Option<u32>,
    /// Wall time from the request to the answer.
    pub time: Duration,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord<G: Game> {
    /// The position the game started from.
    pub start: G,
    /// The moves played, in order.
    pub moves: Vec<G::Move>,
    /// One note per move of `moves`, in the same order.
    pub notes: Vec<MoveNote>,
    /// The result.
    pub outcome: Outcome,
    /// Why it ended.
    pub termination: Termination,
    /// Names of the players of `Side::First` and `Side::Second` (White and Black in chess, Black
    /// and White in go and gomoku), whoever moved first from `start`.
    pub names: [String; 2],
    /// Wall time each side used, indexed like `names`.
    pub time_used: [Duration; 2],
}

impl<G: Game> GameRecord<G> {
    /// The final position.
    #[must_use]
    pub fn final_position(&self) -> G {
        let mut position = self.start.clone();
        for &mv in &self.moves {
            position.play(mv);
        }
        position
    }
}

/// Settings of every game of a match.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Thinking time.
    pub time_control: TimeControl,
    /// Extra time a move may take before it loses on time (pipes, scheduling).
    pub time_margin: Duration,
    /// Score-based adjudication.
    pub adjudication: Adjudication,
}

/// Tracks the run of scores that trigger adjudication.
#[derive(Default)]
struct ScoreRuns {
    losing: [u32; 2],
    drawish: u32,
}

fn centipawns(score: Score) -> i32 {
    match score {
        Score::Centipawns(cp) => cp,
        Score::Mate(moves) if moves > 0 => 100_000,
        Score::Mate(_) => -100_000,
        // A win rate maps onto a centipawn-like scale (logistic, 400 per factor of ten).
        Score::WinRate(rate) => {
            let rate = f64::from(rate).clamp(1e-4, 1.0 - 1e-4);
            (-400.0 * (1.0 / rate - 1.0).log10()) as i32
        }
    }
}

/// Plays one game from `start`; `players[0]` plays the side to move first in the game.
pub fn play_game<G: Game>(start: &G, players: [&mut dyn Contestant<G>; 2], settings: &GameSettings) -> GameRecord<G> {
    play_game_observed(start, players, settings, &mut |_, _| {})
}

/// [`play_game`], calling `observe(position, move)` after each move is played (to draw the board).
pub fn play_game_observed<G: Game>(
    start: &G,
    players: [&mut dyn Contestant<G>; 2],
    settings: &GameSettings,
    observe: &mut dyn FnMut(&G, G::Move),
) -> GameRecord<G> {
    let [first, second] = players;
    let mut players: [&mut dyn Contestant<G>; 2] = [first, second];
    let first_side = start.side_to_move();
    let player_of = |side: Side| usize::from(side != first_side);
    let names = Side::BOTH.map(|side| players[player_of(side)].name().to_string());
    let mut position = start.clone();
    let mut moves = Vec::new();
    let mut clocks = GameClocks::new(settings.time_control);
    let mut time_used = [Duration::ZERO; 2];
    let mut runs = ScoreRuns::default();
    let mut notes = Vec::new();
    let finish = |outcome: Outcome, termination: Termination, moves: Vec<G::Move>, notes, time_used| GameRecord {
        start: start.clone(),
        moves,
        notes,
        outcome,
        termination,
        names: names.clone(),
        time_used,
    };
    for side in [first_side, first_side.opponent()] {
        if let Err(error) = players[player_of(side)].new_game(start, side) {
            return finish(
                Outcome::Win(side.opponent()),
                Termination::Failure(side, error.to_string()),
                moves,
                notes,
                time_used,
            );
        }
    }
    let (outcome, termination) = loop {
        if let Some(outcome) = position.outcome() {
            break (outcome, Termination::Rules);
        }
        if settings.adjudication.max_plies.is_some_and(|limit| moves.len() >= limit) {
            break (Outcome::Draw, Termination::Adjudicated("move limit"));
        }
        let side = position.side_to_move();
        let limits = clocks.limits(side);
        let started = Instant::now();
        let deadline = started + clocks.allowance(side, settings.time_margin) + Duration::from_millis(500);
        let reply = players[player_of(side)].choose_move(&position, &limits, deadline);
        let used = started.elapsed();
        time_used[side.index()] += used;
        let (mv, score, depth) = match reply {
            Ok(Reply::Move { mv, score, depth }) => (mv, score, depth),
            Ok(Reply::Resign) => break (Outcome::Win(side.opponent()), Termination::Resignation(side)),
            Err(ClientError::IllegalMove { text, .. }) => {
                break (Outcome::Win(side.opponent()), Termination::IllegalMove(side, text));
            }
            Err(ClientError::Stalled(_)) => break (Outcome::Win(side.opponent()), Termination::TimeForfeit(side)),
            Err(error) => break (Outcome::Win(side.opponent()), Termination::Failure(side, error.to_string())),
        };
        if !position.is_legal(mv) {
            break (Outcome::Win(side.opponent()), Termination::IllegalMove(side, format!("{mv:?}")));
        }
        if clocks.charge(side, used, settings.time_margin).is_err() {
            break (Outcome::Win(side.opponent()), Termination::TimeForfeit(side));
        }
        position.play(mv);
        moves.push(mv);
        notes.push(MoveNote { score, depth, time: used });
        observe(&position, mv);
        if let Some(verdict) = adjudicate(&mut runs, side, score, moves.len(), &settings.adjudication) {
            break verdict;
        }
    };
    for player in &mut players {
        player.game_over(outcome);
    }
    finish(outcome, termination, moves, notes, time_used)
}

/// Updates the score runs after `side` moved with `score`; returns a verdict when one is due.
fn adjudicate(
    runs: &mut ScoreRuns,
    side: Side,
    score: Option<Score>,
    plies: usize,
    rules: &Adjudication,
) -> Option<(Outcome, Termination)> {
    let Some(score) = score.map(centipawns) else {
        *runs = ScoreRuns::default();
        return None;
    };
    // `losing[s]`: consecutive moves on which the engine of side `s` saw itself lost, or its
    // opponent saw `s` lost.
    if score <= -rules.resign_score {
        runs.losing[side.index()] += 1;
    } else if score >= rules.resign_score {
        runs.losing[side.opponent().index()] += 1;
    } else {
        runs.losing = [0; 2];
    }
    if let Some(needed) = rules.resign_moves {
        for loser in Side::BOTH {
            if runs.losing[loser.index()] >= 2 * needed {
                return Some((Outcome::Win(loser.opponent()), Termination::Adjudicated("score resignation")));
            }
        }
    }
    runs.drawish = if score.abs() <= rules.draw_score { runs.drawish + 1 } else { 0 };
    match rules.draw_moves {
        Some(needed) if plies >= rules.draw_after_ply && runs.drawish >= 2 * needed => {
            Some((Outcome::Draw, Termination::Adjudicated("score draw")))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
