//! Issue 18's reproducers against the release `tessera-gtp` over real pipes: a `time_left` far
//! beyond the time system, SGF records with passes and non-square sizes, `printsgf FILE`, and
//! refused search threads. (A controller closing the pipes during `genmove`: tests/go_scripts.rs,
//! since a closed stdin alone is a script piped in, whose commands are all answered in full.)

mod support;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use support::Driven;

const READ: Duration = Duration::from_secs(30);

/// Sends one command and returns its response (the lines up to the empty line that ends it,
/// trailing spaces off: `= ` reads `=`).
fn ask(engine: &mut Driven, command: &str) -> String {
    engine.send(command);
    let mut lines = engine.read_until(READ, str::is_empty);
    lines.pop();
    lines.iter().map(|line| line.trim_end()).collect::<Vec<_>>().join("\n")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-go-reliability-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir.join(name)
}

#[test]
fn time_left_beyond_the_time_system_gets_a_sane_share() {
    let mut engine = Driven::start(&support::engine_binary("tessera-gtp"), &[]);
    assert_eq!(ask(&mut engine, "boardsize 9"), "=");
    assert_eq!(ask(&mut engine, "time_settings 60 0 0"), "=");
    assert_eq!(ask(&mut engine, "time_left b 99999999 0"), "=");
    let started = Instant::now();
    let answer = ask(&mut engine, "genmove b");
    assert!(answer.starts_with("= "), "{answer}");
    // A share of the 60 s of main time (1.5 s, at most 24 s hard), not of 99999999 s.
    assert!(started.elapsed() < Duration::from_secs(25), "genmove took {:?}", started.elapsed());
    assert_eq!(ask(&mut engine, "quit"), "=");
}

#[test]
fn sgf_records_with_passes_load_and_non_square_boards_fail() {
    let mut engine = Driven::start(&support::engine_binary("tessera-gtp"), &[]);
    let passes = scratch("passes.sgf");
    std::fs::write(&passes, "(;GM[1]SZ[9];B[];W[];B[ee])").expect("writing the record");
    assert_eq!(ask(&mut engine, &format!("loadsgf {}", passes.display())), "= white");
    let board = ask(&mut engine, "showboard");
    let stones: usize = board.lines().map(|row| row.split_whitespace().filter(|&cell| cell == "X").count()).sum();
    assert_eq!(stones, 1, "{board}");
    let oblong = scratch("oblong.sgf");
    std::fs::write(&oblong, "(;GM[1]SZ[9:13];B[aa])").expect("writing the record");
    assert_eq!(ask(&mut engine, &format!("loadsgf {}", oblong.display())), "? cannot load file");
    // The board is still the one loaded before.
    assert_eq!(ask(&mut engine, "showboard"), board);
}

#[test]
fn printsgf_writes_where_the_controller_asks() {
    let mut engine = Driven::start(&support::engine_binary("tessera-gtp"), &[]);
    assert_eq!(ask(&mut engine, "boardsize 9"), "=");
    assert_eq!(ask(&mut engine, "play b E5"), "=");
    let file = scratch("printed.sgf");
    let _ = std::fs::remove_file(&file);
    assert_eq!(ask(&mut engine, &format!("printsgf {}", file.display())), "=");
    let written = std::fs::read_to_string(&file).expect("the file the controller named");
    assert!(
        written.starts_with("(;FF[4]GM[1]") && written.contains("SZ[9]") && written.contains(";B[ee]"),
        "{written}"
    );
    let printed = ask(&mut engine, "printsgf");
    assert_eq!(printed.trim_start_matches("= "), written.trim_end());
    let unwritable = scratch("no-such-dir").join("x.sgf");
    assert_eq!(ask(&mut engine, &format!("printsgf {}", unwritable.display())), "? cannot write file");
}

#[test]
fn refused_search_threads_still_give_a_move() {
    let binary = support::engine_binary("tessera-gtp");
    let Some(mut engine) = Driven::start_limited(&binary, &["--threads", "256", "--move-time", "0.3"], "-v 2000000")
    else {
        return;
    };
    assert_eq!(ask(&mut engine, "boardsize 9"), "=");
    let answer = ask(&mut engine, "genmove b");
    assert!(answer.starts_with("= ") && answer.len() > 2, "{answer}");
    let log = engine.stderr_text(Duration::from_millis(300));
    assert!(log.contains("could not start a search thread"), "{log}");
    assert!(ask(&mut engine, "genmove w").starts_with("= "));
}
