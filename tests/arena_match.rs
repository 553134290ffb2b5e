//! `tessera match` end to end: our engines against real third-party engines over every protocol,
//! result lines checked against the record files, crashed or hung engines losing cleanly, and the
//! openings seed.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Runs `tessera match` with `args`; returns its standard output.
fn tessera_match(args: &[&str]) -> String {
    let output = Command::new(support::tool_binary()).arg("match").args(args).output().expect("running tessera match");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "tessera match failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    stdout
}

/// `(round, white/first name, black/second name, result)` of each `Game N (A vs B): R {…}` line.
fn result_lines(stdout: &str) -> Vec<(u32, String, String, String)> {
    let mut games: Vec<_> = stdout
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("Game ")?;
            let (round, rest) = rest.split_once(" (")?;
            let (players, rest) = rest.split_once("): ")?;
            let (first, second) = players.split_once(" vs ")?;
            let result = rest.split_whitespace().next()?;
            Some((round.parse().ok()?, first.to_string(), second.to_string(), result.to_string()))
        })
        .collect();
    games.sort();
    games
}

/// The same from a PGN file with `[Round]`, first/second player tags and `[Result]`.
fn pgn_games(path: &Path, first_tag: &str, second_tag: &str) -> Vec<(u32, String, String, String)> {
    let text = std::fs::read_to_string(path).expect("the record file");
    let tag = |game: &str, name: &str| {
        game.lines().find_map(|line| line.strip_prefix(&format!("[{name} \""))?.strip_suffix("\"]").map(str::to_string))
    };
    let mut games: Vec<_> = text
        .split("[Event ")
        .filter(|game| !game.trim().is_empty())
        .map(|game| {
            let round = tag(game, "Round").and_then(|round| round.parse().ok()).expect("a Round tag");
            (round, tag(game, first_tag).unwrap(), tag(game, second_tag).unwrap(), tag(game, "Result").unwrap())
        })
        .collect();
    games.sort();
    games
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-arena-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `tessera match --game GAME` between two engine specs for `games` games at `tc`, with more
/// options in `extra`; returns its standard output.
fn play(game: &str, engines: [&str; 2], tc: &str, games: u32, extra: &[&str]) -> String {
    let games = games.to_string();
    let mut args = vec!["--game", game, "--engine", engines[0], "--engine", engines[1], "--tc", tc, "--games", &games];
    args.extend_from_slice(extra);
    tessera_match(&args)
}

/// Two games at 1+0.05 recorded as PGN in scratch folder `name`: both are played, none ends in an
/// illegal move or a failure, and the result lines agree with the record (`tags`: the PGN's
/// first- and second-player tags). Returns the match's output.
fn two_games_agreeing_with_pgn(name: &str, game: &str, engines: [&str; 2], max_plies: &str, tags: [&str; 2]) -> String {
    let pgn = scratch(name).join("games.pgn");
    let stdout = play(game, engines, "1+0.05", 2, &["--max-plies", max_plies, "--record", pgn.to_str().unwrap()]);
    let lines = result_lines(&stdout);
    assert_eq!(lines.len(), 2, "{name}: {stdout}");
    assert!(
        stdout.lines().filter(|line| line.starts_with("Game ")).all(|line| !line.contains("illegal")),
        "{name}: {stdout}"
    );
    assert!(!stdout.contains("failed"), "{name}: {stdout}");
    assert_eq!(lines, pgn_games(&pgn, tags[0], tags[1]), "{name}: result lines must agree with the record");
    stdout
}

#[test]
fn chess_against_stockfish_with_a_pgn_that_agrees() {
    let Some(stockfish) = support::peer("stockfish", "apt-get install stockfish") else { return };
    let ours = format!("cmd={} name=Tessera", support::engine_binary("tessera-uci").display());
    let theirs = format!("cmd={} name=Stockfish option.Skill_Level=0 option.Hash=16", stockfish.display());
    let stdout = two_games_agreeing_with_pgn("chess", "chess", [&ours, &theirs], "160", ["White", "Black"]);
    assert!(stdout.contains("Score of Tessera vs Stockfish"), "{stdout}");
}

#[test]
fn xiangqi_against_fairy_stockfish_over_ucci_and_uci() {
    let Some(fairy) = support::peer("fairy-stockfish", "apt-get install fairy-stockfish") else { return };
    let ours = support::engine_binary("tessera-ucci");
    for protocol in ["ucci", "uci"] {
        let engines = [
            format!("cmd={} name=Tessera proto={protocol}", ours.display()),
            format!("cmd={} name=Fairy proto={protocol}", fairy.display()),
        ];
        let name = format!("xiangqi-{protocol}");
        two_games_agreeing_with_pgn(&name, "xiangqi", [&engines[0], &engines[1]], "200", ["Red", "Black"]);
    }
}

#[test]
fn go_against_gnu_go_refereed_by_gnu_go() {
    let Some(gnugo) = support::peer("gnugo", "apt-get install gnugo") else { return };
    let ours = support::engine_binary("tessera-gtp");
    let sgf = scratch("go").join("games.sgf");
    let gnugo_gtp = format!("cmd={} arg=--mode arg=gtp arg=--level arg=1 arg=--chinese-rules", gnugo.display());
    // Node-count controls send GTP engines no time system: each thinks by its own settings.
    let engines =
        [format!("cmd={} name=Tessera arg=--playouts arg=400", ours.display()), format!("{gnugo_gtp} name=GNU")];
    let referee = format!("{gnugo_gtp} name=referee");
    let extra = ["--size", "9", "--komi", "7.5", "--referee", &referee, "--record", sgf.to_str().unwrap()];
    let stdout = play("go", [&engines[0], &engines[1]], "nodes=1", 2, &extra);
    let lines = result_lines(&stdout);
    assert_eq!(lines.len(), 2, "{stdout}");
    let records = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(records.matches("(;FF[4]").count(), 2);
    for (round, first, second, result) in lines {
        let game = records.split("(;FF[4]").nth(round as usize).unwrap();
        assert!(game.contains(&format!("PB[{first}]PW[{second}]")), "{game}");
        let winner = if result == "1-0" {
            "RE[B+"
        } else if result == "0-1" {
            "RE[W+"
        } else {
            "RE[0"
        };
        assert!(game.contains(winner), "game {round}: {result} but {game}");
    }
    assert!(stdout.contains("referee: ") || stdout.contains("resigns"), "GNU Go scores finished games:\n{stdout}");
}

/// `--openings-seed` draws the random openings: the same seed plays the same lines again, another
/// seed other lines (our own engine on both sides, no peer needed).
#[test]
fn the_openings_seed_draws_the_random_openings() {
    let ours = support::engine_binary("tessera-gtp");
    let engines = ["A", "B"].map(|name| format!("cmd={} name={name} arg=--playouts arg=1", ours.display()));
    let openings = |run: &str, seed: &str| -> Vec<String> {
        let sgf = scratch(&format!("openings-seed-{run}")).join("games.sgf");
        let _ = std::fs::remove_file(&sgf);
        let extra = ["--size", "9", "--random-openings", "2", "--max-plies", "4", "--openings-seed", seed];
        let stdout = play(
            "go",
            [&engines[0], &engines[1]],
            "nodes=1",
            4,
            &[&extra[..], &["--record", sgf.to_str().unwrap()]].concat(),
        );
        let records = std::fs::read_to_string(&sgf).unwrap();
        assert_eq!(records.matches("(;FF[4]").count(), 4, "{stdout}");
        // The first two moves of each game (after the header node) are its opening.
        records
            .split("(;FF[4]")
            .skip(1)
            .map(|game| game.split(';').skip(1).take(2).collect::<Vec<_>>().join(";"))
            .collect()
    };
    let first = openings("first", "1");
    assert_eq!(first, openings("again", "1"), "the same seed, the same openings");
    assert_ne!(first, openings("other", "2"), "another seed, other openings");
}

/// Writes an executable shell script that speaks just enough UCI, then misbehaves on `go`.
fn fake_uci_engine(dir: &Path, name: &str, on_go: &str) -> PathBuf {
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name {name}'; echo uciok ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    let mut permissions = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&path, permissions).unwrap();
    path
}

#[test]
fn crashed_and_hung_engines_lose_and_the_match_goes_on() {
    let dir = scratch("faults");
    let ours = support::engine_binary("tessera-uci");
    let crasher = fake_uci_engine(&dir, "crasher", "exit 3");
    let ours = format!("cmd={} name=Tessera", ours.display());
    let stdout = play("chess", [&ours, &format!("cmd={}", crasher.display())], "st=0.05", 4, &[]);
    let lines = result_lines(&stdout);
    assert_eq!(lines.len(), 4, "every game is played, the crasher restarted each time:\n{stdout}");
    assert!(stdout.contains("Score of Tessera vs crasher: 4 - 0 - 0"), "{stdout}");
    assert!(stdout.contains("failed"), "crashes are reported:\n{stdout}");

    let sleeper = fake_uci_engine(&dir, "sleeper", "sleep 60");
    let started = Instant::now();
    let stdout = play("chess", [&ours, &format!("cmd={}", sleeper.display())], "st=0.1", 2, &["--margin", "100"]);
    assert!(stdout.contains("Score of Tessera vs sleeper: 2 - 0 - 0"), "{stdout}");
    assert!(stdout.contains("loses on time"), "{stdout}");
    // Two hung moves, each caught after the move time, the margin and the arena's grace.
    assert!(started.elapsed() < Duration::from_secs(20), "hung engines are detected promptly: {:?}", started.elapsed());
}

#[test]
fn renju_between_pbrain_and_agi_with_an_sgf_that_agrees() {
    let pbrain = support::engine_binary("pbrain-tessera");
    let agi = support::engine_binary("tessera-agi");
    let sgf = scratch("renju").join("games.sgf");
    let engines =
        [format!("cmd={} name=Pbrain", pbrain.display()), format!("cmd={} name=Agi proto=agi", agi.display())];
    let extra = ["--rule", "renju", "--size", "15", "--record", sgf.to_str().unwrap()];
    let stdout = play("gomoku", [&engines[0], &engines[1]], "st=0.2", 2, &extra);
    let lines = result_lines(&stdout);
    assert_eq!(lines.len(), 2, "{stdout}");
    // From a 3-stone opening White moves first: the lines still name Black first, and the score
    // line counts the same wins.
    let pbrain_wins = lines
        .iter()
        .filter(|(_, first, _, result)| (result == "1-0") == (first == "Pbrain") && result != "1/2-1/2")
        .count();
    let draws = lines.iter().filter(|(_, _, _, result)| result == "1/2-1/2").count();
    let score = format!("Score of Pbrain vs Agi: {pbrain_wins} - {} - {draws}", 2 - pbrain_wins - draws);
    assert!(stdout.contains(&score), "{score} not in\n{stdout}");
    let records = std::fs::read_to_string(&sgf).unwrap();
    let games: Vec<&str> = records.lines().filter(|line| line.starts_with("(;FF[4]GM[4]")).collect();
    assert_eq!(games.len(), 2);
    // Records are written in finishing order: find each game by its players and result.
    for (_, first, second, result) in lines {
        let winner = match result.as_str() {
            "1-0" => "RE[B+]",
            "0-1" => "RE[W+]",
            _ => "RE[0]",
        };
        let players = format!("PB[{first}]PW[{second}]");
        assert!(
            games.iter().any(|game| game.contains(&players) && game.contains(winner) && game.contains("RU[renju]")),
            "{players} {winner} not in\n{records}"
        );
    }
}

#[test]
fn chess_against_phalanx_over_xboard() {
    let Some(phalanx) = support::peer("phalanx", "apt-get install phalanx") else { return };
    let ours = format!("cmd={} name=Tessera", support::engine_binary("tessera-uci").display());
    let theirs = format!("cmd={} name=Phalanx proto=xboard", phalanx.display());
    two_games_agreeing_with_pgn("xboard", "chess", [&ours, &theirs], "160", ["White", "Black"]);
}

#[test]
fn xiangqi_against_sjaak_over_xboard() {
    let Some(sjaak) = support::peer("sjaakii", "apt-get install sjaakii") else { return };
    let ours = format!("cmd={} name=Tessera", support::engine_binary("tessera-ucci").display());
    // Sjaak claims repetitions by its own rules unless told not to; our referee judges them.
    let theirs = format!("cmd={} name=Sjaak proto=xboard option.Claim_repetitions=0", sjaak.display());
    two_games_agreeing_with_pgn("xiangqi-xboard", "xiangqi", [&ours, &theirs], "160", ["Red", "Black"]);
}
