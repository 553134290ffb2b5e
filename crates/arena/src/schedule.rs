//! A match: many games between two engines over a set of openings, played by worker threads,
//! with colours alternating over each opening and statistics kept as games finish.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use crossbeam_channel::unbounded;
use tessera_core::{Game, Outcome, Side};

use crate::game::{play_game, Contestant, GameRecord, GameSettings, Termination};
use crate::process::ClientError;
use crate::shard::{GameResult, Shard};
use crate::stats::{Sprt, SprtDecision, Standings};

/// Settings of a whole match.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// Games to play (rounded up to whole pairs).
    pub games: u32,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Settings of each game.
    pub game: GameSettings,
    /// Stop early when this test decides.
    pub sprt: Option<Sprt>,
}

/// Makes a contestant for engine 0 (the first engine) or 1; called again after a failure.
pub type ContestantFactory<'a, G> = dyn Fn(usize) -> Result<Box<dyn Contestant<G>>, ClientError> + Sync + 'a;

/// Scores the final position of a game that ended by the rules (a GTP referee such as GNU Go):
/// the verdict and its text, or why it could not score.
pub type Referee<'a, G> = dyn Fn(&G) -> Result<(Outcome, String), ClientError> + Sync + 'a;

/// The first engine's result in game `index` of a match.
#[must_use]
pub fn result_of_first<G: Game>(index: u32, record: &GameRecord<G>) -> GameResult {
    let first_engine_side = first_engine_side(opening_side(record), index);
    match record.outcome {
        Outcome::Draw => GameResult::Draw,
        Outcome::Win(side) if side == first_engine_side => GameResult::Win,
        Outcome::Win(_) => GameResult::Loss,
    }
}

/// Plays the match. Game `i` uses opening `(i / 2) % openings.len()`; the first engine moves first
/// in even games. `on_game` sees every finished game (in finishing order) with the standings.
///
/// # Panics
/// Panics if `openings` is empty.
pub fn run_match<G: Game>(
    openings: &[G],
    settings: &MatchSettings,
    make: &ContestantFactory<'_, G>,
    referee: Option<&Referee<'_, G>>,
    on_game: impl FnMut(u32, &GameRecord<G>, &Standings),
) -> Standings {
    run_match_shard(openings, settings, Shard::WHOLE, make, referee, on_game)
}

/// Plays the games of `shard` of the match (see [`crate::shard`]): the same games, openings and
/// colours as in the whole match, only fewer of them. The standings count this shard's games.
///
/// # Panics
/// Panics if `openings` is empty.
pub fn run_match_shard<G: Game>(
    openings: &[G],
    settings: &MatchSettings,
    shard: Shard,
    make: &ContestantFactory<'_, G>,
    referee: Option<&Referee<'_, G>>,
    mut on_game: impl FnMut(u32, &GameRecord<G>, &Standings),
) -> Standings {
    assert!(!openings.is_empty(), "a match needs at least one opening");
    let games = shard.games(settings.games.div_ceil(2) * 2);
    let next_game = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = unbounded::<(u32, GameRecord<G>)>();
    let mut standings = Standings::default();
    std::thread::scope(|scope| {
        for _ in 0..settings.concurrency.max(1) {
            let sender = sender.clone();
            let (next_game, stop, games) = (&next_game, &stop, &games);
            scope.spawn(move || {
                let mut contestants: [Option<Box<dyn Contestant<G>>>; 2] = [None, None];
                loop {
                    let slot = next_game.fetch_add(1, Ordering::SeqCst) as usize;
                    let Some(&index) = games.get(slot) else { return };
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let opening = &openings[(index as usize / 2) % openings.len()];
                    let mut record = play_one(opening, index, &mut contestants, make, &settings.game);
                    if let (Some(referee), Termination::Rules) = (referee, &record.termination) {
                        match referee(&record.final_position()) {
                            Ok((outcome, text)) => {
                                record.outcome = outcome;
                                record.termination = Termination::Referee(text);
                            }
                            Err(error) => note_referee_failure(&mut record, &error),
                        }
                    }
                    if sender.send((index, record)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(sender);
        let mut pair_points: BTreeMap<u32, f64> = BTreeMap::new();
        for (index, record) in receiver {
            let result = result_of_first(index, &record);
            let points = result.points();
            match result {
                GameResult::Draw => standings.results.draws += 1,
                GameResult::Win => standings.results.wins += 1,
                GameResult::Loss => standings.results.losses += 1,
            }
            if let Some(other) = pair_points.remove(&(index ^ 1)) {
                standings.pairs.add_pair(points + other);
            } else {
                pair_points.insert(index, points);
            }
            if let Some(sprt) = &settings.sprt {
                // Pairs of games over one opening, as fishtest and OpenBench count them: the
                // colour bias of each opening cancels within a pair.
                if standings.update_sprt(sprt) != SprtDecision::Continue {
                    stop.store(true, Ordering::SeqCst);
                }
            }
            on_game(index, &record, &standings);
        }
    });
    standings
}

/// Keeps our own verdict when the referee fails, and says so in the termination.
fn note_referee_failure<G: Game>(record: &mut GameRecord<G>, error: &ClientError) {
    record.termination = Termination::Referee(format!("referee failed ({error}); scored by our rules"));
}

fn opening_side<G: Game>(record: &GameRecord<G>) -> Side {
    record.start.side_to_move()
}

/// The side the first engine plays in game `index` of an opening whose side to move is `to_move`.
fn first_engine_side(to_move: Side, index: u32) -> Side {
    if index.is_multiple_of(2) {
        to_move
    } else {
        to_move.opponent()
    }
}

/// Plays game `index`, making contestants as needed and dropping one that failed.
fn play_one<G: Game>(
    opening: &G,
    index: u32,
    contestants: &mut [Option<Box<dyn Contestant<G>>>; 2],
    make: &ContestantFactory<'_, G>,
    settings: &GameSettings,
) -> GameRecord<G> {
    for (engine, slot) in contestants.iter_mut().enumerate() {
        if slot.is_none() {
            match make(engine) {
                Ok(contestant) => *slot = Some(contestant),
                Err(error) => {
                    // The engine cannot even start: it loses this game without a move.
                    let side = first_engine_side(opening.side_to_move(), index);
                    let loser = if engine == 0 { side } else { side.opponent() };
                    return GameRecord {
                        start: opening.clone(),
                        moves: Vec::new(),
                        notes: Vec::new(),
                        outcome: Outcome::Win(loser.opponent()),
                        termination: Termination::Failure(loser, error.to_string()),
                        names: [String::new(), String::new()],
                        time_used: Default::default(),
                    };
                }
            }
        }
    }
    let [first, second] = contestants;
    let (first, second) = (first.as_deref_mut().expect("made above"), second.as_deref_mut().expect("made above"));
    let players: [&mut dyn Contestant<G>; 2] = if index.is_multiple_of(2) { [first, second] } else { [second, first] };
    let record = play_game(opening, players, settings);
    if let Termination::Failure(side, _) | Termination::TimeForfeit(side) = record.termination {
        // A failed or hung engine is restarted before its next game.
        let failed_player = usize::from(side != opening.side_to_move());
        let failed_engine = if index.is_multiple_of(2) { failed_player } else { 1 - failed_player };
        contestants[failed_engine] = None;
    }
    record
}
