//! GTP transcripts against the release `tessera-gtp` binary over real pipes: every command we list,
//! bad input (garbage, missing arguments, bad sizes, occupied points, suicide, ko), analysis
//! streaming stopped by an empty line, and the exact framing (`=`/`?`, ids, one empty line).

mod support;

use std::time::Duration;

use support::{engine_binary, Driven};

const TIMEOUT: Duration = Duration::from_secs(30);

fn start() -> Driven {
    Driven::start(&engine_binary("tessera-gtp"), &["--playouts", "300", "--resign-threshold", "0"])
}

/// Sends `command` and returns the response lines without the closing empty line.
fn ask(engine: &mut Driven, command: &str) -> Vec<String> {
    engine.send(command);
    let mut lines = engine.read_until(TIMEOUT, str::is_empty);
    lines.pop();
    lines
}

fn ask_one(engine: &mut Driven, command: &str) -> String {
    let lines = ask(engine, command);
    assert_eq!(lines.len(), 1, "{command}: {lines:?}");
    lines[0].clone()
}

#[test]
fn required_commands_and_framing() {
    let mut engine = start();
    assert_eq!(ask_one(&mut engine, "protocol_version"), "= 2");
    assert_eq!(ask_one(&mut engine, "7 name"), "=7 Tessera");
    assert!(ask_one(&mut engine, "version").starts_with("= 0."));
    assert_eq!(ask_one(&mut engine, "known_command kata-analyze"), "= true");
    assert_eq!(ask_one(&mut engine, "known_command frobnicate"), "= false");
    let commands = ask(&mut engine, "list_commands");
    for name in ["lz-analyze", "kata-analyze", "kata-genmove_analyze", "final_status_list", "kgs-genmove_cleanup"] {
        assert!(commands.iter().any(|line| line.trim_start_matches("= ") == name), "{name} missing");
    }
    // Pre-processing: comments, tabs, control characters, blank lines.
    engine.send("   # a comment only");
    engine.send("");
    assert_eq!(ask_one(&mut engine, "3\tboardsize\t9 # nine"), "=3 ");
    assert_eq!(ask_one(&mut engine, "komi\u{7} 6.5"), "= ");
    assert_eq!(ask_one(&mut engine, "clear_board"), "= ");
    assert_eq!(ask_one(&mut engine, "play black E5"), "= ");
    let reply = ask_one(&mut engine, "11 genmove w");
    assert!(reply.starts_with("=11 ") && reply.len() > 5, "{reply}");
    assert_eq!(ask_one(&mut engine, "quit"), "= ");
    assert!(engine.wait_exit(Duration::from_secs(5)));
}

#[test]
fn bad_input_gets_the_usual_errors() {
    let mut engine = start();
    assert_eq!(ask_one(&mut engine, "garbage in"), "? unknown command");
    assert_eq!(ask_one(&mut engine, "5 garbage"), "?5 unknown command");
    assert_eq!(ask_one(&mut engine, "play b"), "? syntax error");
    assert_eq!(ask_one(&mut engine, "play b Z99"), "? syntax error");
    assert_eq!(ask_one(&mut engine, "genmove"), "? syntax error");
    assert_eq!(ask_one(&mut engine, "komi many"), "? syntax error");
    for size in ["0", "1", "26", "1000", "-3"] {
        assert_eq!(ask_one(&mut engine, &format!("boardsize {size}")), "? unacceptable size");
    }
    assert_eq!(ask_one(&mut engine, "boardsize 5"), "= ");
    assert_eq!(ask_one(&mut engine, "undo"), "? cannot undo");
    assert_eq!(ask_one(&mut engine, "play b T19"), "? illegal move");
    assert_eq!(ask_one(&mut engine, "play b C3"), "= ");
    assert_eq!(ask_one(&mut engine, "play w C3"), "? illegal move", "occupied point");
    // Suicide: White at A1 inside Black's B1/A2.
    for command in ["play b B1", "play b A2"] {
        assert_eq!(ask_one(&mut engine, command), "= ");
    }
    assert_eq!(ask_one(&mut engine, "play w A1"), "? illegal move", "suicide");
    // Ko: Black C4? Build the shape B: D4 C5 D6? -> on 5x5 use the corner ko at D2/E2.
    assert_eq!(ask_one(&mut engine, "clear_board"), "= ");
    for command in
        ["play b B2", "play w C2", "play b A3", "play w D3", "play b B4", "play w C4", "play b C3", "play w B3"]
    {
        assert_eq!(ask_one(&mut engine, command), "= ", "{command}");
    }
    assert_eq!(ask_one(&mut engine, "play b C3"), "? illegal move", "ko recapture");
    assert_eq!(ask_one(&mut engine, "undo"), "= ");
    assert_eq!(ask_one(&mut engine, "loadsgf /nonexistent/file.sgf"), "? cannot load file");
    assert_eq!(ask_one(&mut engine, "final_status_list maybe"), "? syntax error");
    assert_eq!(ask_one(&mut engine, "fixed_handicap 2"), "? board not empty");
    assert_eq!(ask_one(&mut engine, "quit"), "= ");
}

#[test]
fn handicap_scoring_sgf_and_time_commands() {
    let mut engine = start();
    assert_eq!(ask_one(&mut engine, "boardsize 19"), "= ");
    assert_eq!(ask_one(&mut engine, "fixed_handicap 9"), "= D16 K16 Q16 D10 K10 Q10 D4 K4 Q4");
    assert_eq!(ask_one(&mut engine, "clear_board"), "= ");
    assert_eq!(ask_one(&mut engine, "fixed_handicap 10"), "? invalid handicap");
    let free = ask_one(&mut engine, "place_free_handicap 3");
    assert_eq!(free.split_whitespace().count(), 4, "{free}");
    assert_eq!(ask_one(&mut engine, "clear_board"), "= ");
    assert_eq!(ask_one(&mut engine, "set_free_handicap D4 Q16 Q4"), "= ");
    assert_eq!(ask_one(&mut engine, "time_settings 300 30 5"), "= ");
    assert_eq!(ask_one(&mut engine, "time_left white 290 0"), "= ");
    assert_eq!(ask_one(&mut engine, "kgs-time_settings byoyomi 60 10 3"), "= ");
    assert_eq!(ask_one(&mut engine, "kgs-time_settings canadian 60 30 5"), "= ");
    assert_eq!(ask_one(&mut engine, "kgs-time_settings none"), "= ");
    assert_eq!(ask_one(&mut engine, "kgs-time_settings sometimes"), "? syntax error");
    assert_eq!(ask_one(&mut engine, "kgs-rules chinese"), "= ");
    assert_eq!(ask_one(&mut engine, "kgs-rules tromp-taylor"), "= ");
    assert_eq!(ask_one(&mut engine, "kgs-rules backgammon"), "? unknown rules");
    let printed = ask(&mut engine, "printsgf");
    assert!(printed[0].starts_with("= (;FF[4]") && printed[0].contains("AB[pd][dp][pp]"), "{printed:?}");
    let saved = std::env::temp_dir().join(format!("tessera-gtp-saved-{}.sgf", std::process::id()));
    assert_eq!(ask_one(&mut engine, &format!("printsgf {}", saved.display())), "= ");
    assert!(std::fs::read_to_string(&saved).unwrap().contains("HA[3]"));
    std::fs::remove_file(&saved).ok();
    let file = std::env::temp_dir().join(format!("tessera-gtp-{}.sgf", std::process::id()));
    std::fs::write(&file, "(;FF[4]GM[1]SZ[9]KM[7.5];B[ee];W[cc];B[gg])").unwrap();
    assert_eq!(ask_one(&mut engine, &format!("loadsgf {} 3", file.display())), "= black");
    let board = ask(&mut engine, "showboard");
    assert_eq!(board[0], "= ");
    assert_eq!(board[1], "   A B C D E F G H J");
    assert_eq!(board[3], " 8 . . . . . . . . . 8");
    assert_eq!(board[5], " 6 . . . . . . . . . 6");
    assert_eq!(board[4], " 7 . . O . . . + . . 7");
    assert_eq!(board[6], " 5 . . . . X . . . . 5");
    assert_eq!(ask_one(&mut engine, &format!("loadsgf {}", file.display())), "= white");
    std::fs::remove_file(&file).ok();
    // A finished 5×5 game: Black walls off column C; score by area.
    assert_eq!(ask_one(&mut engine, "boardsize 5"), "= ");
    assert_eq!(ask_one(&mut engine, "komi 0.5"), "= ");
    for row in 1..=5 {
        assert_eq!(ask_one(&mut engine, &format!("play b C{row}")), "= ");
        assert_eq!(ask_one(&mut engine, &format!("play w D{row}")), "= ");
    }
    assert_eq!(ask_one(&mut engine, "play b pass"), "= ");
    assert_eq!(ask_one(&mut engine, "play w pass"), "= ");
    assert_eq!(ask_one(&mut engine, "final_score"), "= B+4.5");
    assert_eq!(ask_one(&mut engine, "final_status_list dead"), "= ");
    assert_eq!(ask_one(&mut engine, "final_status_list alive").split_whitespace().count(), 11);
    assert_eq!(ask_one(&mut engine, "final_status_list seki"), "= ");
    assert_eq!(ask_one(&mut engine, "genmove b"), "= pass", "the game is over");
    assert_eq!(ask_one(&mut engine, "kgs-game_over"), "= ");
    // A seki: Black's top string and White's string each have one eye and share C5.
    assert_eq!(ask_one(&mut engine, "clear_board"), "= ");
    let seki = ["b B5", "w D5", "b A4", "b B4", "b C4", "w D4", "w E4", "w A3", "w B3", "w C3", "w D3", "w E3"];
    let wall = ["b A2", "b B2", "b C2", "b D2", "b E2"];
    for stone in seki.iter().chain(&wall) {
        assert_eq!(ask_one(&mut engine, &format!("play {stone}")), "= ", "{stone}");
    }
    let listed = |engine: &mut Driven, status: &str| {
        let mut vertices: Vec<String> = ask_one(engine, &format!("final_status_list {status}"))
            .split_whitespace()
            .skip(1)
            .map(String::from)
            .collect();
        vertices.sort();
        vertices
    };
    let sorted = |stones: &[&str]| {
        let mut vertices: Vec<String> = stones.iter().map(|stone| stone[2..].to_string()).collect();
        vertices.sort();
        vertices
    };
    assert_eq!(listed(&mut engine, "seki"), sorted(&seki));
    assert_eq!(listed(&mut engine, "alive"), sorted(&wall));
    assert_eq!(ask_one(&mut engine, "final_status_list dead"), "= ");
    assert_eq!(ask_one(&mut engine, "quit"), "= ");
}

#[test]
fn analysis_streams_until_the_next_line() {
    let mut engine = start();
    assert_eq!(ask_one(&mut engine, "boardsize 9"), "= ");
    engine.send("kata-analyze B 10 ownership true");
    assert_eq!(engine.read_line(TIMEOUT).as_deref(), Some("="), "KataGo opens analysis with a bare =");
    let first = engine.read_line(TIMEOUT).expect("an info line");
    assert!(first.starts_with("info move ") && first.contains(" visits ") && first.contains(" winrate "));
    let field = |name: &str| -> f32 {
        let value = first.split_whitespace().skip_while(|word| *word != name).nth(1);
        value.unwrap_or_else(|| panic!("no {name} in {first}")).parse().unwrap()
    };
    assert!(field("scoreLead").abs() <= 81.0 + 7.5 && field("scoreStdev") >= 0.0, "{first}");
    assert_eq!(field("scoreLead"), field("scoreMean"));
    let ownership = first.split(" ownership ").nth(1).expect("ownership values");
    assert_eq!(ownership.split_whitespace().count(), 81);
    engine.send(""); // Sabaki stops analysis with an empty line.
    engine.read_until(TIMEOUT, str::is_empty);
    engine.send("lz-analyze 20");
    assert_eq!(engine.read_line(TIMEOUT).as_deref(), Some("="), "KataGo opens analysis with a bare =");
    let line = engine.read_line(TIMEOUT).expect("an lz info line");
    let winrate: u32 = line.split_whitespace().skip_while(|w| *w != "winrate").nth(1).unwrap().parse().unwrap();
    assert!(winrate <= 10_000);
    // Another command ends the stream and is answered after the empty line.
    engine.send("12 name");
    let rest = engine.read_until(TIMEOUT, |line| line.starts_with("=12"));
    assert_eq!(rest[rest.len() - 2], "", "the analysis response ends with an empty line: {rest:?}");
    engine.read_until(TIMEOUT, str::is_empty);
    engine.send("kata-genmove_analyze W 10");
    let lines = engine.read_until(TIMEOUT, |line| line.starts_with("play "));
    assert_eq!(lines[0], "=");
    assert!(lines[1].starts_with("info move "));
    assert_eq!(engine.read_line(TIMEOUT).as_deref(), Some(""));
    engine.send("lz-genmove_analyze B 10");
    let lines = engine.read_until(TIMEOUT, |line| line.starts_with("play "));
    assert!(lines[1].starts_with("info move ") && lines[1].contains(" lcb "), "{lines:?}");
    assert_eq!(engine.read_line(TIMEOUT).as_deref(), Some(""));
    let gogui = ask(&mut engine, "gogui-analyze_commands");
    assert!(gogui.iter().any(|line| line.contains("dboard/Ownership/gogui-ownership")));
    let ownership = ask(&mut engine, "gogui-ownership");
    assert_eq!(ownership.len(), 10);
    let best = ask(&mut engine, "gogui-best_moves");
    assert!(best[0].starts_with("= LABEL "));
    let suggestion = ask_one(&mut engine, "reg_genmove b");
    assert!(suggestion.starts_with("= "));
    let cleanup = ask_one(&mut engine, "kgs-genmove_cleanup b");
    assert!(cleanup.starts_with("= "));
    assert_eq!(ask_one(&mut engine, "quit"), "= ");
}

/// The ownership values of the first `info` line of `kata-analyze <color> 10 ownership true`.
fn kata_ownership(engine: &mut Driven, color: &str) -> Vec<f32> {
    engine.send(&format!("kata-analyze {color} 10 ownership true"));
    assert_eq!(engine.read_line(TIMEOUT).as_deref(), Some("="));
    let line = engine.read_line(TIMEOUT).expect("an info line");
    engine.send("");
    engine.read_until(TIMEOUT, str::is_empty);
    let values = line.split(" ownership ").nth(1).unwrap_or_else(|| panic!("no ownership in {line}"));
    values.split_whitespace().map(|value| value.parse().expect("a number")).collect()
}

#[test]
fn gogui_ownership_and_kata_analyze_give_each_wall_its_side() {
    let mut engine = start();
    assert_eq!(ask_one(&mut engine, "boardsize 9"), "= ");
    // Black's wall on D, White's on F: A–C are Black's, G–J White's.
    for row in 1..=9 {
        assert_eq!(ask_one(&mut engine, &format!("play b D{row}")), "= ");
        assert_eq!(ask_one(&mut engine, &format!("play w F{row}")), "= ");
    }
    let gogui = ask(&mut engine, "gogui-ownership");
    assert_eq!(gogui.len(), 10, "{gogui:?}");
    let gogui: Vec<f32> =
        gogui[1..].iter().flat_map(|row| row.split_whitespace().map(|v| v.parse().unwrap())).collect();
    // KataGo's values are for the side analysed: Black's are positive for B, negative for W.
    let for_black = kata_ownership(&mut engine, "B");
    let for_white = kata_ownership(&mut engine, "W");
    for values in [&gogui, &for_black, &for_white] {
        assert_eq!(values.len(), 81);
        assert!(values.iter().all(|value| (-1.0..=1.0).contains(value)), "{values:?}");
    }
    for point in 0..81 {
        let black_side = match point % 9 {
            0..=2 => 1.0,
            6..=8 => -1.0,
            _ => continue,
        };
        let signs = [gogui[point], for_black[point], -for_white[point]].map(|value| value * black_side > 0.0);
        assert_eq!(signs, [true; 3], "point {point}: {} {} {}", gogui[point], for_black[point], for_white[point]);
    }
    assert_eq!(ask_one(&mut engine, "quit"), "= ");
}

#[test]
fn bench_signature_is_fixed() {
    // Changing the search or the playouts changes this number: update it and say "Bench: N".
    let output = std::process::Command::new(engine_binary("tessera-gtp")).args(["bench", "2000"]).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("playouts/s"), "{text}");
    assert_eq!(text.lines().last(), Some("Bench: 45844"), "{text}");
}

#[test]
fn play_after_two_passes_resumes_the_game() {
    let mut engine = start();
    assert_eq!(ask_one(&mut engine, "boardsize 7"), "= ");
    for command in ["play b D4", "play w pass", "play b pass"] {
        assert_eq!(ask_one(&mut engine, command), "= ");
    }
    assert_eq!(ask_one(&mut engine, "genmove w"), "= pass", "a passed-out game has nothing to play");
    // KGS's clean-up phase: the server resumes the game with plays and kgs-genmove_cleanup.
    assert_eq!(ask_one(&mut engine, "play w C3"), "= ");
    let cleanup = ask_one(&mut engine, "kgs-genmove_cleanup b");
    assert!(cleanup.starts_with("= ") && cleanup != "= resign", "{cleanup}");
    assert_eq!(ask_one(&mut engine, "quit"), "= ");
}

#[test]
fn after_a_pass_the_search_leaves_the_pass_out_while_dead_stones_remain() {
    let mut engine = start();
    assert_eq!(ask_one(&mut engine, "boardsize 9"), "= ");
    assert_eq!(ask_one(&mut engine, "komi 0.5"), "= ");
    // Black's wall on E, White's on F, and a white stone at B5 that cannot live in Black's area.
    for row in 1..=9 {
        assert_eq!(ask_one(&mut engine, &format!("play b E{row}")), "= ");
        assert_eq!(ask_one(&mut engine, &format!("play w F{row}")), "= ");
    }
    for command in ["play b pass", "play w B5", "play b A9", "play w pass"] {
        assert_eq!(ask_one(&mut engine, command), "= ");
    }
    // Passing back would end the game at the count of the board as it stands, B5 included: the
    // search plays on, and spends no playout on the pass.
    engine.send("kata-genmove_analyze B 10");
    let lines = engine.read_until(TIMEOUT, |line| line.starts_with("play "));
    assert!(lines.iter().all(|line| !line.contains("move pass ")), "{lines:?}");
    assert_ne!(lines.last().map(String::as_str), Some("play pass"));
    assert_eq!(engine.read_line(TIMEOUT).as_deref(), Some(""));
    assert_eq!(ask_one(&mut engine, "quit"), "= ");
}

#[test]
fn pondering_and_threads_keep_answering() {
    let mut engine = Driven::start(
        &engine_binary("tessera-gtp"),
        &["--ponder", "--threads", "2", "--move-time", "0.2", "--resign-threshold", "0"],
    );
    assert_eq!(ask_one(&mut engine, "boardsize 9"), "= ");
    let first = ask_one(&mut engine, "genmove b");
    assert!(first.len() > 2, "{first}");
    // The engine ponders now; a command must still be answered at once.
    std::thread::sleep(Duration::from_millis(300));
    let started = std::time::Instant::now();
    let reply = if first == "= A1" { "J9" } else { "A1" };
    assert_eq!(ask_one(&mut engine, &format!("play w {reply}")), "= ");
    assert!(started.elapsed() < Duration::from_secs(2), "pondering delayed the answer");
    let second = ask_one(&mut engine, "genmove b");
    assert!(second.len() > 2, "{second}");
    assert_eq!(ask_one(&mut engine, "time_settings 10 0 0"), "= ");
    assert_eq!(ask_one(&mut engine, "time_left w 1 0"), "= ");
    let started = std::time::Instant::now();
    let third = ask_one(&mut engine, "genmove w");
    assert!(third.len() > 2 && started.elapsed() < Duration::from_secs(1), "{third} in {:?}", started.elapsed());
    assert_eq!(ask_one(&mut engine, "quit"), "= ");
    assert!(engine.wait_exit(Duration::from_secs(5)));
}

#[test]
fn a_hopeless_side_resigns_unless_told_not_to() {
    // Black owns columns B and D of a 5×5 board: White has no room to live anywhere.
    let setup: Vec<String> =
        ["B", "D"].iter().flat_map(|column| (1..=5).map(move |row| format!("play b {column}{row}"))).collect();
    for (args, expected) in
        [(vec!["--playouts", "600"], "= resign"), (vec!["--playouts", "600", "--resign-threshold", "0"], "")]
    {
        let mut engine = Driven::start(&engine_binary("tessera-gtp"), &args);
        assert_eq!(ask_one(&mut engine, "boardsize 5"), "= ");
        for command in &setup {
            assert_eq!(ask_one(&mut engine, command), "= ");
        }
        let answer = ask_one(&mut engine, "genmove w");
        if expected.is_empty() {
            assert_ne!(answer, "= resign");
        } else {
            assert_eq!(answer, expected);
        }
        assert_eq!(ask_one(&mut engine, "quit"), "= ");
    }
}

#[test]
fn byo_yomi_and_canadian_moves_stay_inside_their_periods() {
    // No --playouts: the clock decides. Each move may use at most one byo-yomi period, and a
    // Canadian block must last for all its stones.
    let mut engine = Driven::start(&engine_binary("tessera-gtp"), &["--resign-threshold", "0"]);
    assert_eq!(ask_one(&mut engine, "boardsize 19"), "= ");
    assert_eq!(ask_one(&mut engine, "kgs-time_settings byoyomi 0 2 3"), "= ");
    for color in ["b", "w"] {
        let started = std::time::Instant::now();
        let reply = ask_one(&mut engine, &format!("genmove {color}"));
        let used = started.elapsed();
        assert!(reply.len() > 2 && used < Duration::from_secs(2), "{reply} in {used:?} with 2 s periods");
        // It thinks for a good part of the period, not a token instant.
        assert!(used > Duration::from_millis(300), "{reply} in {used:?}: most of the period unused");
    }
    assert_eq!(ask_one(&mut engine, "time_settings 0 4 4"), "= ");
    // Black's clock as a controller reports it: whole seconds left in the block, stones left.
    let started = std::time::Instant::now();
    for stones in (1..=4).rev() {
        let left = Duration::from_secs(4).saturating_sub(started.elapsed()).as_secs();
        assert_eq!(ask_one(&mut engine, &format!("time_left b {left} {stones}")), "= ");
        assert!(ask_one(&mut engine, "genmove b").len() > 2);
    }
    let used = started.elapsed();
    assert!(used < Duration::from_secs(4), "4 stones took {used:?} of a 4 s Canadian block");
    assert_eq!(ask_one(&mut engine, "quit"), "= ");
}

#[test]
fn a_lag_buffer_is_kept_back_from_every_period() {
    // Default buffer: a 2 s period gives a budget near 1.2 s. A 1.5 s buffer leaves 0.5 s of it.
    let mut engine = Driven::start(&engine_binary("tessera-gtp"), &["--resign-threshold", "0", "--lag-buffer", "1.5"]);
    assert_eq!(ask_one(&mut engine, "kgs-time_settings byoyomi 0 2 3"), "= ");
    let started = std::time::Instant::now();
    let reply = ask_one(&mut engine, "genmove b");
    let used = started.elapsed();
    assert!(reply.len() > 2 && used < Duration::from_secs(1), "{reply} in {used:?} with 0.5 s of a 2 s period");
    assert!(used > Duration::from_millis(200), "{reply} in {used:?}: the budget left unused");
    assert_eq!(ask_one(&mut engine, "quit"), "= ");

    let refused = std::process::Command::new(engine_binary("tessera-gtp"))
        .args(["--lag-buffer", "nan"])
        .output()
        .expect("tessera-gtp runs");
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && message.contains("is not a number of seconds"), "{message}");
}
