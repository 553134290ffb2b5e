//! `tessera match --report` and `tessera match-merge --report` end to end: short real matches of
//! each game between our own engines write reports, which headless Chromium opens and checks
//! against the records beside them (`tests/python/report_check.py`); a merge given a cut record
//! and a record of an unknown game names both and writes the rest of its report.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tessera(args: &[String]) -> Output {
    Command::new(support::tool_binary()).args(args).output().expect("running tessera")
}

/// Runs `tessera ARGS…` and fails the test unless it succeeds.
fn succeed(args: &[String]) -> Output {
    let output = tessera(args);
    assert!(
        output.status.success(),
        "tessera {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-report-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// `tessera match --game GAME` between engines `first` and `second` (specs without `cmd=`, the
/// binary being `binary`), with `options`.
fn play(game: &str, binary: &str, engines: [&str; 2], options: &str) -> Vec<String> {
    let binary = support::engine_binary(binary);
    let mut args = words(&format!("match --game {game} {options}"));
    for engine in engines {
        args.push("--engine".into());
        args.push(format!("cmd={} {engine}", binary.display()));
    }
    args
}

/// Chess between the network (A) and the hand-crafted evaluation (B) at a fixed node count, so
/// that the games differ and the charts move.
fn chess(options: &str) -> Vec<String> {
    play(
        "chess",
        "tessera-uci",
        ["name=A", "name=B option.Use_NNUE=false"],
        &format!("--tc nodes=1500 --max-plies 70 {options}"),
    )
}

/// A match sharded in two and played shard by shard, each with its record: the result files and
/// the records.
fn sharded_chess(dir: &Path, games: u32) -> (Vec<String>, Vec<String>) {
    let (mut results, mut records) = (Vec::new(), Vec::new());
    for index in 0..2 {
        let result = dir.join(format!("shard-{index}.txt")).display().to_string();
        let record = dir.join(format!("shard-{index}.pgn")).display().to_string();
        let mut args = chess(&format!("--games {games} --shard {index}/2 --results {result} --record {record}"));
        args.extend(["--sprt".to_string(), "elo0=-100 elo1=100".to_string()]);
        succeed(&args);
        results.push(result);
        records.push(record);
    }
    (results, records)
}

#[test]
fn reports_of_every_game_and_of_a_merged_match_show_their_records_in_chromium() {
    let Some(chromium) = support::peer("chromium", "apt-get install chromium") else { return };
    let Some(driver) = support::peer("chromedriver", "apt-get install chromium-driver") else { return };
    if !support::python_module("selenium", "pip install selenium")
        || !support::python_module("chess", "pip install chess")
    {
        return;
    }
    let dir = scratch("browser");
    let report = |name: &str| dir.join(name).display().to_string();
    let playouts = ["name=A arg=--playouts arg=120", "name=B arg=--playouts arg=60"];
    let matches = [
        ("chess", chess("--games 4 --sprt elo0=-100,elo1=100")),
        ("xiangqi", play("xiangqi", "tessera-ucci", ["name=A", "name=B"], "--tc depth=2 --games 4 --max-plies 60")),
        ("gomoku", play("gomoku", "pbrain-tessera", ["name=A", "name=B"], "--rule renju --tc depth=2 --games 4")),
        ("go", play("go", "tessera-gtp", playouts, "--tc nodes=1 --games 4 --max-plies 70")),
    ];
    for (name, mut args) in matches {
        args.extend(["--report".to_string(), report(name)]);
        let stdout = String::from_utf8_lossy(&succeed(&args).stdout).into_owned();
        assert!(stdout.contains("Report: ") && stdout.contains("4 in the viewer)"), "{stdout}");
    }
    let (results, records) = sharded_chess(&dir, 8);
    let mut merge = vec!["match-merge".to_string(), "--report".to_string(), report("merged")];
    for record in &records {
        merge.extend(["--record".to_string(), record.clone()]);
    }
    merge.extend(results);
    let stdout = String::from_utf8_lossy(&succeed(&merge).stdout).into_owned();
    assert!(stdout.contains("8 in the viewer)"), "{stdout}");
    let mut check =
        vec![chromium.display().to_string(), driver.display().to_string(), "--sprt".into(), report("chess")];
    check.extend(["xiangqi", "gomoku", "go"].map(report));
    check.extend(["--sprt".to_string(), report("merged")]);
    support::run_python_check("report_check.py", &check, "report check passed");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_records_are_named_and_the_rest_of_the_report_is_written() {
    let dir = scratch("bad-records");
    let (results, records) = sharded_chess(&dir, 4);
    // Shard 1's record is cut in the middle of its last game; a third file is of another game.
    let cut = std::fs::read_to_string(&records[1]).unwrap();
    let games_in_cut = cut.matches("[Event ").count();
    std::fs::write(&records[1], &cut[..cut.trim_end().len() - 30]).unwrap();
    let unknown = dir.join("unknown.sgf");
    std::fs::write(&unknown, "(;FF[4]GM[11]SZ[9]RO[1];B[aa])\n").unwrap();
    let mut merge = words(&format!("match-merge --report {}", dir.join("report").display()));
    for record in records.iter().map(String::as_str).chain([unknown.to_str().unwrap()]) {
        merge.extend(["--record".to_string(), record.to_string()]);
    }
    merge.extend(results);
    let output = succeed(&merge);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&format!("shard-1.pgn: game {games_in_cut}: the record is cut short")), "{stderr}");
    assert!(stderr.contains("unknown.sgf: game 1: unknown game SGF GM[11]"), "{stderr}");
    let page = std::fs::read_to_string(dir.join("report/index.html")).unwrap();
    assert!(page.contains(r#"<section id="problems">"#) && page.contains("unknown game SGF GM[11]"), "{page}");
    assert_eq!(page.matches(r#"{"round":"#).count(), 3, "the three whole games are in the viewer");
    assert!(page.contains(r#"class="score-line" data-points="2""#), "the charts come from the results: both pairs");
    assert!(dir.join("report/score.svg").is_file() && dir.join("report/sprt.svg").is_file());
    std::fs::remove_dir_all(&dir).ok();
}
