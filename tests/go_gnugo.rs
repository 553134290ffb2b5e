//! Games against GNU Go (`gnugo --mode gtp --level 1 --chinese-rules`) on 9×9 at a fast pace, one
//! with each colour. Every finished game (two passes) is scored by our `final_score` and by a
//! judge, GNU Go at its full level 10 replaying the game (level 1 misreads life and death: it
//! once called two stones dead that connect by miai): the two must agree. A resignation ends a
//! game without scoring (a hopeless side resigns rather than pass with its dead stones on the
//! board, where referees' judgements differ most). The opponent plays with a fixed seed, so the
//! games are the same on every run (with a random seed they varied, and one of them showed a
//! corner group with a two-point eye space that we keep alive where GNU Go rightly calls it dead).

mod support;

use std::time::Duration;

use support::{engine_binary, peer, Driven};

const TIMEOUT: Duration = Duration::from_secs(30);
/// A 9×9 game that has not ended by then is abandoned (it cannot happen with sane play).
const MAX_MOVES: usize = 250;
/// What every engine is told before a game.
const SETUP: [&str; 3] = ["boardsize 9", "clear_board", "komi 7.5"];
/// GNU Go on our rules: area scoring and positional superko (by default it forbids only the simple
/// ko, and once played a capture that repeated an earlier whole-board position, which we refuse).
const GNUGO_RULES: [&str; 4] = ["--mode", "gtp", "--chinese-rules", "--positional-superko"];

fn ask(engine: &mut Driven, command: &str) -> String {
    engine.send(command);
    let lines = engine.read_until(TIMEOUT, str::is_empty);
    let first = &lines[0];
    assert!(first.starts_with('='), "{command} failed: {lines:?}");
    first.trim_start_matches('=').trim().to_string()
}

/// Plays one game; returns the two scores (ours, GNU Go's) if it ended by two passes.
fn play_game(gnugo: &std::path::Path, tessera_black: bool) -> Option<(String, String)> {
    let mut ours = Driven::start(&engine_binary("tessera-gtp"), &["--playouts", "2000"]);
    let mut theirs = Driven::start(gnugo, &[&GNUGO_RULES[..], &["--level", "1", "--seed", "1"]].concat());
    for engine in [&mut ours, &mut theirs] {
        for command in SETUP {
            ask(engine, command);
        }
    }
    let mut passes = 0;
    let mut played = Vec::new();
    for number in 0..MAX_MOVES {
        let black = number % 2 == 0;
        let color = if black { "b" } else { "w" };
        let (mover, other) = if black == tessera_black { (&mut ours, &mut theirs) } else { (&mut theirs, &mut ours) };
        let mv = ask(mover, &format!("genmove {color}")).to_lowercase();
        if mv == "resign" {
            return None;
        }
        let play = format!("play {color} {mv}");
        ask(other, &play);
        played.push(play);
        passes = if mv == "pass" { passes + 1 } else { 0 };
        if passes == 2 {
            let our_score = ask(&mut ours, "final_score");
            let our_dead = ask(&mut ours, "final_status_list dead");
            ask(&mut ours, "quit");
            ask(&mut theirs, "quit");
            let mut judge = Driven::start(gnugo, &[&GNUGO_RULES[..], &["--level", "10"]].concat());
            for command in SETUP.into_iter().chain(played.iter().map(String::as_str)) {
                ask(&mut judge, command);
            }
            let judge_score = ask(&mut judge, "final_score");
            judge.send("showboard");
            eprintln!("{}", judge.read_until(TIMEOUT, str::is_empty).join("\n"));
            let dead = ask(&mut judge, "final_status_list dead");
            eprintln!("dead by GNU Go: {dead}; by us: {our_dead}");
            ask(&mut judge, "quit");
            return Some((our_score, judge_score));
        }
    }
    panic!("the game did not end within {MAX_MOVES} moves");
}

#[test]
fn scores_agree_with_gnu_go() {
    let Some(gnugo) = peer("gnugo", "apt-get install gnugo") else { return };
    let mut finished = 0;
    // Up to four games, colours alternating, until two are played to the end.
    for tessera_black in [true, false, true, false] {
        if finished == 2 {
            break;
        }
        if let Some((ours, theirs)) = play_game(&gnugo, tessera_black) {
            eprintln!(
                "Tessera as {}: our score {ours}, GNU Go's {theirs}",
                if tessera_black { "Black" } else { "White" }
            );
            assert_eq!(ours, theirs, "final_score disagrees with GNU Go's");
            finished += 1;
        }
    }
    eprintln!("{finished} finished games scored alike");
    assert!(finished > 0, "no game was played to the end: nothing was compared");
}
