//! Games and matches between in-process toy contestants on connect four.

use std::time::{Duration, Instant};

use tessera_core::toys::ConnectFour;
use tessera_core::{AlphaBeta, EngineOptions, Game, Limits, Outcome, SearchControl, Searcher, Side, Silent};

use super::*;
use crate::schedule::{run_match, MatchSettings};
use crate::stats::Sprt;

/// What a toy contestant does when asked for a move.
#[derive(Clone, Copy)]
enum Style {
    /// Alpha-beta to a fixed depth.
    Search(u32),
    /// The first legal move.
    Naive,
    /// Column 9 (never legal).
    Illegal,
    /// An error as if the process died.
    Crash,
    /// Sleeps past any deadline.
    Hang,
    /// Resigns at once.
    Resign,
}

struct Toy {
    name: String,
    style: Style,
    search: AlphaBeta<ConnectFour>,
}

impl Toy {
    fn new(name: &str, style: Style) -> Box<Self> {
        Box::new(Toy { name: name.into(), style, search: AlphaBeta::new(&EngineOptions::default(), 20) })
    }
}

impl Contestant<ConnectFour> for Toy {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _start: &ConnectFour, _side: Side) -> Result<(), ClientError> {
        self.search.clear();
        Ok(())
    }

    fn choose_move(
        &mut self,
        position: &ConnectFour,
        _limits: &Limits<u8>,
        deadline: Instant,
    ) -> Result<Reply<u8>, ClientError> {
        match self.style {
            Style::Search(depth) => {
                let result = self.search.search(position, &Limits::depth(depth), &SearchControl::new(), &mut Silent);
                Ok(Reply::Move {
                    mv: result.best.expect("a live game"),
                    score: Some(result.score),
                    depth: Some(result.depth),
                })
            }
            Style::Naive => {
                let mut moves = <ConnectFour as Game>::Moves::default();
                position.generate_legal_moves(&mut moves);
                Ok(Reply::Move { mv: *moves.last().expect("a live game"), score: None, depth: None })
            }
            Style::Illegal => Ok(Reply::Move { mv: 9, score: None, depth: None }),
            Style::Crash => Err(ClientError::Crashed(self.name.clone())),
            Style::Hang => {
                std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
                Err(ClientError::Stalled(self.name.clone()))
            }
            Style::Resign => Ok(Reply::Resign),
        }
    }
}

fn settings(time_control: &str) -> GameSettings {
    GameSettings {
        time_control: time_control.parse().unwrap(),
        time_margin: Duration::from_millis(100),
        adjudication: Adjudication::default(),
    }
}

fn play(first: Style, second: Style, time_control: &str) -> GameRecord<ConnectFour> {
    let (mut a, mut b) = (Toy::new("A", first), Toy::new("B", second));
    play_game(&ConnectFour::new(), [a.as_mut(), b.as_mut()], &settings(time_control))
}

#[test]
fn a_real_game_ends_by_the_rules_and_replays() {
    let record = play(Style::Search(6), Style::Naive, "depth=6");
    assert_eq!(record.termination, Termination::Rules);
    assert_eq!(record.outcome, Outcome::Win(Side::First), "{record:?}");
    assert_eq!(record.final_position().outcome(), Some(record.outcome));
    assert_eq!(record.names, ["A".to_string(), "B".to_string()]);
}

#[test]
fn names_and_times_follow_the_sides_when_the_opening_leaves_the_second_side_to_move() {
    // After one opening move the second side moves first in the game: players[0] (A) plays it.
    let mut start = ConnectFour::new();
    start.play(3);
    let (mut a, mut b) = (Toy::new("A", Style::Search(6)), Toy::new("B", Style::Resign));
    let record = play_game(&start, [a.as_mut(), b.as_mut()], &settings("depth=6"));
    assert_eq!(record.names, ["B".to_string(), "A".to_string()], "names are indexed by side");
    assert_eq!(record.outcome, Outcome::Win(Side::Second), "B plays the first side and resigns at once");
    let [first_time, second_time] = record.time_used;
    assert!(second_time > first_time, "A searched, B resigned at once: {:?}", record.time_used);
}

#[test]
fn failures_lose_the_game() {
    let record = play(Style::Illegal, Style::Naive, "depth=1");
    assert_eq!(record.termination, Termination::IllegalMove(Side::First, "9".into()));
    assert_eq!(record.outcome, Outcome::Win(Side::Second));
    let record = play(Style::Naive, Style::Crash, "depth=1");
    assert!(matches!(record.termination, Termination::Failure(Side::Second, _)));
    assert_eq!(record.outcome, Outcome::Win(Side::First));
    let record = play(Style::Naive, Style::Resign, "depth=1");
    assert_eq!(record.termination, Termination::Resignation(Side::Second));
    let started = Instant::now();
    let record = play(Style::Hang, Style::Naive, "st=0.05");
    assert_eq!(record.termination, Termination::TimeForfeit(Side::First));
    assert!(started.elapsed() < Duration::from_secs(5), "a hung engine is detected within the margin");
}

#[test]
fn score_adjudication_resigns_a_lost_game() {
    let (mut a, mut b) = (Toy::new("A", Style::Search(6)), Toy::new("B", Style::Search(2)));
    let mut settings = settings("depth=6");
    settings.adjudication = Adjudication { resign_moves: Some(1), resign_score: 50, ..Adjudication::default() };
    let record = play_game(&ConnectFour::new(), [a.as_mut(), b.as_mut()], &settings);
    assert!(matches!(record.termination, Termination::Adjudicated(_) | Termination::Rules), "{record:?}");
    let limit = Adjudication { max_plies: Some(4), ..Adjudication::default() };
    settings.adjudication = limit;
    let record = play_game(&ConnectFour::new(), [a.as_mut(), b.as_mut()], &settings);
    assert_eq!((record.outcome, record.moves.len()), (Outcome::Draw, 4));
}

#[test]
fn a_match_alternates_colours_and_counts_pairs() {
    let openings = [ConnectFour::new(), ConnectFour::from_moves(&[0])];
    let make = |engine: usize| -> Result<Box<dyn Contestant<ConnectFour>>, ClientError> {
        Ok(if engine == 0 { Toy::new("strong", Style::Search(6)) } else { Toy::new("naive", Style::Naive) })
    };
    let settings = MatchSettings { games: 8, concurrency: 2, game: settings("depth=6"), sprt: None };
    let mut seen = Vec::new();
    let standings = run_match(&openings, &settings, &make, None, |index, record, _| {
        // The first engine takes the opening's side to move in even games, the other side in odd ones.
        let to_move = record.start.side_to_move();
        let strong_side = if index % 2 == 0 { to_move } else { to_move.opponent() };
        assert_eq!(record.names[strong_side.index()], "strong");
        assert_eq!(record.names[strong_side.opponent().index()], "naive");
        seen.push(index);
    });
    seen.sort_unstable();
    assert_eq!(seen, (0..8).collect::<Vec<_>>());
    assert_eq!(standings.results.games(), 8);
    assert_eq!(standings.results.wins, 8, "{standings:?}");
    assert_eq!(standings.pairs.counts, [0, 0, 0, 0, 4]);
    // The same match under an SPRT stops as soon as it decides.
    let sprt: Sprt = "elo0=0 elo1=400 alpha=0.1 beta=0.1".parse().unwrap();
    let settings = MatchSettings { games: 200, concurrency: 1, sprt: Some(sprt), ..settings };
    let standings = run_match(&openings, &settings, &make, None, |_, _, _| {});
    assert!(standings.results.games() < 200, "{standings:?}");
    assert_eq!(standings.sprt.unwrap().1, crate::stats::SprtDecision::AcceptH1);
}
