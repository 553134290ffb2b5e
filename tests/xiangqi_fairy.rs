//! Real peer: short games between `tessera-ucci` and Fairy-Stockfish, both over UCCI. Every
//! position's legal move list must equal Fairy-Stockfish's own (`go perft 1`), and every move
//! either engine plays must be legal under our rules.

mod support;

use std::collections::BTreeSet;
use std::time::Duration;

use support::Driven;
use tessera_core::{Game, Side};
use tessera_xiangqi::{iccs, parse_iccs, Moves, Position};

const TIMEOUT: Duration = Duration::from_secs(20);
/// Plies per game: enough for a real middlegame, short enough for CI.
const MAX_PLIES: usize = 70;

fn boot(engine: &mut Driven) {
    engine.send("ucci");
    engine.read_until(TIMEOUT, |line| line == "ucciok");
}

fn position_command(moves: &[String]) -> String {
    if moves.is_empty() {
        "position startpos".to_owned()
    } else {
        format!("position startpos moves {}", moves.join(" "))
    }
}

fn fairy_moves(fairy: &mut Driven, moves: &[String]) -> BTreeSet<String> {
    fairy.send(&position_command(moves));
    fairy.send("go perft 1");
    let lines = fairy.read_until(TIMEOUT, |line| line.starts_with("Nodes searched"));
    lines
        .iter()
        .filter_map(|line| line.split_once(": "))
        .filter(|(mv, _)| mv.len() == 4)
        .map(|(mv, _)| mv.to_owned())
        .collect()
}

fn our_moves(position: &Position) -> BTreeSet<String> {
    let mut moves = Moves::new();
    position.generate_legal_moves(&mut moves);
    moves.iter().map(|&mv| iccs(mv)).collect()
}

/// Plays one game; returns the number of plies played.
fn play_game(ours: &mut Driven, fairy: &mut Driven, ours_red: bool) -> usize {
    let mut position = Position::start();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..MAX_PLIES {
        if position.rule_outcome(None).is_some() {
            // Decided by repetition or the move count: Fairy-Stockfish's perft ignores those rules.
            break;
        }
        let legal = our_moves(&position);
        let theirs = fairy_moves(fairy, &moves);
        let only_ours: Vec<&String> = legal.difference(&theirs).collect();
        let only_theirs: Vec<&String> = theirs.difference(&legal).collect();
        assert!(
            only_ours.is_empty() && only_theirs.is_empty(),
            "move lists differ after {moves:?}: only ours {only_ours:?}, only Fairy-Stockfish's {only_theirs:?}"
        );
        if legal.is_empty() {
            break;
        }
        let our_turn = (position.side_to_move() == Side::First) == ours_red;
        let (engine, go) = if our_turn {
            (&mut *ours, "go time 3000 increment 20 opptime 3000 oppincrement 20")
        } else {
            (&mut *fairy, "go time 1500 increment 0")
        };
        engine.send(&position_command(&moves));
        engine.send(go);
        let answer = engine.read_until(TIMEOUT, |line| line.starts_with("bestmove") || line == "nobestmove");
        let answer = answer.last().expect("an answer");
        let Some(text) = answer.strip_prefix("bestmove ").and_then(|rest| rest.split_whitespace().next()) else {
            assert!(legal.is_empty(), "no move answered with legal moves left: {answer}");
            break;
        };
        if text == "(none)" {
            assert!(legal.is_empty(), "Fairy-Stockfish found no move after {moves:?}");
            break;
        }
        let mv = parse_iccs(text).unwrap_or_else(|error| panic!("{answer}: {error}"));
        assert!(position.is_legal(mv), "illegal {text} after {moves:?} (ours: {our_turn})");
        position.play(mv);
        moves.push(text.to_owned());
        if our_turn && answer.ends_with(" resign") {
            break;
        }
    }
    moves.len()
}

#[test]
fn short_games_against_fairy_stockfish() {
    let Some(fairy_path) = support::peer("fairy-stockfish", "apt-get install fairy-stockfish") else { return };
    let mut fairy = Driven::start(&fairy_path, &[]);
    boot(&mut fairy);
    let mut ours = Driven::start(&support::engine_binary("tessera-ucci"), &[]);
    boot(&mut ours);
    ours.send("setoption usemillisec true");
    ours.send("setoption newgame");
    let mut plies = 0;
    for game in 0..2 {
        plies += play_game(&mut ours, &mut fairy, game % 2 == 0);
        ours.send("setoption newgame");
    }
    assert!(plies >= 20, "the games were too short to test anything: {plies} plies");
    ours.send("quit");
    ours.read_until(TIMEOUT, |line| line == "bye");
    fairy.send("quit");
}
