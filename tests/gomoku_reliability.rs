//! Issue 18's reproducers for the gomoku engines over real pipes: AGI `GO SEARCH` with repeated
//! and off-board points (more than a move list holds), `GO TIME` with bad values, pbrain
//! `SWAP2BOARD` in the Gomocup and Yixin forms, pbrain memory limits beyond the machine, and the
//! arena's pbrain client giving a real per-move limit under a clock.

mod support;

use std::process::Command;
use std::time::Duration;

use support::Driven;

const READ: Duration = Duration::from_secs(15);

fn agi() -> Driven {
    let mut engine = Driven::start_capturing_stderr(&support::engine_binary("tessera-agi"), &[]);
    engine.send("AGI");
    engine.read_until(READ, |line| line == "AGIOK");
    engine
}

fn best_point(line: &str) -> String {
    line.split_whitespace().nth(1).unwrap_or_else(|| panic!("BESTMOVE <point>: {line}")).to_ascii_uppercase()
}

#[test]
fn agi_search_lists_keep_each_board_point_once_and_bestmove_stays_inside() {
    let mut engine = agi();
    engine.send("SETRULE UNFORBIDDEN");
    engine.send("POSITION MOVES 7868");
    // 600 entries: repeats of two open points, an occupied one, and points off the board.
    let search = format!("{}78F1G50010", "6779".repeat(300));
    engine.send(&format!("GO SEARCH {search} TIME 3000"));
    let lines = engine.read_until(READ, |line| line.starts_with("BESTMOVE"));
    assert_eq!(lines[0], "INFO SEARCH 6779", "{lines:?}");
    let best = best_point(lines.last().unwrap());
    assert!(["67", "79"].contains(&best.as_str()), "{lines:?}");
    // Nothing playable in the list: refused, said on stderr, and the engine answers on.
    engine.send("GO SEARCH 7868FF TIME 1000");
    engine.send("ISREADY");
    assert_eq!(engine.read_line(READ).as_deref(), Some("READYOK"), "no BESTMOVE may come for an empty choice");
    let log = engine.stderr_text(Duration::from_millis(300));
    for said in ["repeated point", "not on the 15x15 board", "cannot be played here", "no BESTMOVE"] {
        assert!(log.contains(said), "stderr does not say '{said}':\n{log}");
    }
    engine.send("QUIT");
    engine.read_until(READ, |line| line == "BYE");
}

#[test]
fn agi_bad_time_values_are_reported_and_every_go_ends_in_a_move() {
    let mut engine = agi();
    engine.send("POSITION MOVES 78");
    // A skipped TIME leaves the default move time (5 s): the move still comes.
    engine.send("GO TIME 1.5");
    engine.read_until(READ, |line| line.starts_with("BESTMOVE"));
    for go in ["GO TIME -1", "GO TIME", "GO FROB TIME 99999999999999999999999"] {
        engine.send(go);
        std::thread::sleep(Duration::from_millis(100));
        engine.send("STOP");
        engine.read_until(READ, |line| line.starts_with("BESTMOVE"));
    }
    let log = engine.stderr_text(Duration::from_millis(300));
    for said in ["GO TIME 1.5 is not a whole number", "GO TIME -1 is negative", "GO TIME without a value", "FROB"] {
        assert!(log.contains(said), "stderr does not say '{said}':\n{log}");
    }
}

fn pbrain(args: &[&str]) -> Driven {
    let mut engine = Driven::start(&support::engine_binary("pbrain-tessera"), args);
    engine.send_raw("START 15\r\nINFO timeout_turn 300\r\nINFO rule 1\r\n");
    assert_eq!(engine.read_line(READ).as_deref(), Some("OK"));
    engine
}

fn answer(engine: &mut Driven) -> String {
    engine.read_until(READ, |line| !line.starts_with("MESSAGE")).pop().unwrap_or_default()
}

fn is_point(text: &str) -> bool {
    text.split_once(',').is_some_and(|(x, y)| x.parse::<u32>().is_ok() && y.parse::<u32>().is_ok())
}

#[test]
fn pbrain_swap2board_in_the_gomocup_and_yixin_forms() {
    let mut engine = pbrain(&[]);
    engine.send_raw("SWAP2BOARD\r\nDONE\r\n");
    let opening = answer(&mut engine);
    assert_eq!(opening.split(' ').filter(|point| is_point(point)).count(), 3, "{opening}");
    // Gomocup: bare points, coloured by their order.
    for stones in [&["7,7", "8,7", "9,9"][..], &["7,7", "8,7", "9,9", "8,8", "8,6"]] {
        engine.send_raw("RESTART\r\n");
        assert_eq!(engine.read_line(READ).as_deref(), Some("OK"));
        engine.send_raw(&format!("SWAP2BOARD\r\n{}\r\nDONE\r\n", stones.join("\r\n")));
        let reply = answer(&mut engine);
        assert!(reply == "SWAP" || is_point(&reply), "{} stones: {reply}", stones.len());
        assert!(!stones.contains(&reply.as_str()), "an occupied point: {reply}");
    }
    // Yixin-Board: fields given.
    engine.send_raw("RESTART\r\nSWAP2BOARD\r\n7,7,1\r\n8,7,2\r\n9,9,1\r\nDONE\r\n");
    assert_eq!(engine.read_line(READ).as_deref(), Some("OK"));
    let reply = answer(&mut engine);
    assert!(reply == "SWAP" || is_point(&reply), "{reply}");
    // A bare point in a BOARD block cannot be coloured: an error, and the block goes on.
    engine.send_raw("RESTART\r\nBOARD\r\n7,7\r\n7,7,2\r\nDONE\r\n");
    assert_eq!(engine.read_line(READ).as_deref(), Some("OK"));
    assert!(engine.read_line(READ).is_some_and(|line| line.starts_with("ERROR")));
    assert!(is_point(&answer(&mut engine)));
    engine.send("END");
    assert!(engine.wait_exit(Duration::from_secs(1)));
}

#[test]
fn pbrain_memory_limits_beyond_the_machine_are_clamped_and_said() {
    let binary = support::engine_binary("pbrain-tessera");
    let Some(mut engine) = Driven::start_limited(&binary, &[], "-v 2000000") else { return };
    engine.send_raw("START 15\r\n");
    assert_eq!(engine.read_line(READ).as_deref(), Some("OK"));
    engine.send_raw("YXSHOWINFO\r\n");
    let info = engine.read_until(READ, |line| line.starts_with("MESSAGE INFO MAX_HASH_SIZE"));
    let max_kb: usize = info.last().and_then(|line| line.rsplit(' ').next()?.parse().ok()).expect("a size");
    if let Some(total) = tessera_core::memory::total_mb() {
        assert!(max_kb / 1024 <= total, "MAX_HASH_SIZE {max_kb} KB on a machine of {total} MiB");
    }
    engine.send_raw("INFO max_memory 4611686018427387904\r\nINFO timeout_turn 200\r\nBEGIN\r\n");
    let lines = engine.read_until(READ, |line| !line.starts_with("MESSAGE"));
    if max_kb > 1024 * 1024 {
        assert!(lines.iter().any(|line| line.starts_with("MESSAGE Hash clamped to ")), "{lines:?}");
    }
    assert!(is_point(lines.last().unwrap()), "{lines:?}");
    engine.send_raw(&format!("INFO hash_size {}\r\nTURN 0,0\r\n", max_kb * 4));
    assert!(is_point(&answer(&mut engine)));
    engine.send("END");
    assert!(engine.wait_exit(Duration::from_secs(1)));
}

/// A table the machine cannot give, asked for on the command line: the note waits for the first
/// `START`'s `OK` (nothing may come before the manager's first command is answered), and nothing
/// goes to stderr, which Piskvork would read as the brain's answers.
#[test]
fn pbrain_says_a_clamped_command_line_table_after_its_first_ok_and_nothing_on_stderr() {
    let binary = support::engine_binary("pbrain-tessera");
    let Some(mut engine) = Driven::start_limited(&binary, &["--hash", "100000"], "-v 2000000") else { return };
    engine.send_raw("START 15\r\n");
    assert_eq!(engine.read_line(READ).as_deref(), Some("OK"));
    let note = engine.read_line(READ).unwrap_or_default();
    assert!(note.starts_with("MESSAGE Hash clamped to "), "{note}");
    engine.send_raw("INFO timeout_turn 200\r\nBEGIN\r\n");
    assert!(is_point(&answer(&mut engine)));
    engine.send("END");
    assert!(engine.wait_exit(Duration::from_secs(1)));
    assert_eq!(engine.stderr_text(Duration::from_millis(100)), "");
}

/// `tessera match` between two copies of pbrain-tessera on 15×15 at `tc`: its standard output
/// and the text of each engine's conversation log.
fn pbrain_self_play(tc: &str, games: u32, max_plies: u32) -> (String, Vec<String>) {
    let binary = support::engine_binary("pbrain-tessera");
    let logs =
        std::env::temp_dir().join(format!("tessera-pbrain-{}-{}", tc.replace(['/', '='], "-"), std::process::id()));
    let _ = std::fs::remove_dir_all(&logs);
    let output = Command::new(support::tool_binary())
        .args(["match", "--game", "gomoku", "--size", "15", "--tc", tc])
        .args(["--games", &games.to_string(), "--max-plies", &max_plies.to_string()])
        .args(["--engine", &format!("cmd={} name=A", binary.display())])
        .args(["--engine", &format!("cmd={} name=B", binary.display())])
        .args(["--log-dir", logs.to_str().unwrap()])
        .output()
        .expect("running tessera match");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let texts = std::fs::read_dir(&logs)
        .expect("the log directory")
        .map(|entry| std::fs::read_to_string(entry.expect("a log").path()).unwrap_or_default())
        .collect();
    let _ = std::fs::remove_dir_all(&logs);
    (String::from_utf8_lossy(&output.stdout).into_owned(), texts)
}

#[test]
fn the_arena_gives_pbrain_engines_a_real_turn_limit_under_a_clock() {
    let (_, logs) = pbrain_self_play("2+0.05", 1, 12);
    let limits: Vec<u64> = logs
        .iter()
        .flat_map(|text| text.lines().filter_map(|line| line.split("INFO timeout_turn ").nth(1)?.trim().parse().ok()))
        .collect();
    assert!(!limits.is_empty(), "no INFO timeout_turn was sent");
    // Gomocup reads 0 as "play as fast as possible"; a 2 s clock gives a fraction of it per move.
    assert!(limits.iter().all(|&ms| (1..=2050).contains(&ms)), "{limits:?}");
    assert!(limits.iter().any(|&ms| ms >= 100), "{limits:?}");
}

#[test]
fn the_arena_plays_gomocup_clocks_as_the_manager_does() {
    // `gomocup=0.5/3`: every move told the same cap and the same game time, and before each move
    // the time left, which only falls; nobody loses on time.
    let (stdout, logs) = pbrain_self_play("gomocup=0.5/3", 2, 20);
    assert!(!stdout.contains("on time"), "{stdout}");
    let mut logs_read = 0;
    for text in &logs {
        // Each game of this engine: the lines from one START to the next.
        for game in text.split("START ").skip(1) {
            let values = |key: &str| -> Vec<u64> {
                game.lines().filter_map(|line| line.split(key).nth(1)?.trim().parse().ok()).collect()
            };
            let (turns, matches, left) =
                (values("INFO timeout_turn "), values("INFO timeout_match "), values("INFO time_left "));
            assert!(!left.is_empty() && turns.len() == left.len() && matches.len() == left.len(), "{game}");
            assert!(turns.iter().all(|&ms| ms == 500) && matches.iter().all(|&ms| ms == 3000), "{game}");
            assert!(left[0] == 3000 && left.windows(2).all(|pair| pair[1] <= pair[0]), "{left:?}");
            logs_read += 1;
        }
    }
    assert_eq!(logs_read, 4, "two engines, two games each");

    // Another game's engines cannot be given pbrain's clock.
    let uci = support::engine_binary("tessera-uci");
    let refused = Command::new(support::tool_binary())
        .args(["match", "--game", "chess", "--tc", "gomocup=0.5/3", "--games", "2"])
        .args(["--engine", &format!("cmd={} name=A", uci.display())])
        .args(["--engine", &format!("cmd={} name=B", uci.display())])
        .output()
        .expect("running tessera match");
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("gomocup"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}
