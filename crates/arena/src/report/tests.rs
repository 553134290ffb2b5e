//! Reports written from records of real games between toy moves, with bad records among them.

use std::time::Duration;

use tessera_chess::{parse_san, Chess, Rules};
use tessera_core::{Game, Outcome, Score, Side};

use super::*;
use crate::game::{GameRecord, MoveNote, Termination};
use crate::record;

/// A short chess game with White (`white`) playing the sequence, scored by the mover.
fn chess_record(white: &str, black: &str, sans: &[&str], outcome: Outcome) -> GameRecord<Chess> {
    let mut position = Chess::new(Rules::STANDARD);
    let moves: Vec<_> = sans
        .iter()
        .map(|san| {
            let mv = parse_san(&position, san).unwrap();
            position.play(mv);
            mv
        })
        .collect();
    let notes = moves
        .iter()
        .map(|_| MoveNote { score: Some(Score::Centipawns(20)), depth: Some(3), time: Duration::from_millis(30) })
        .collect();
    GameRecord {
        start: Chess::new(Rules::STANDARD),
        moves,
        notes,
        outcome,
        termination: Termination::Rules,
        names: [white.into(), black.into()],
        time_used: [Duration::ZERO; 2],
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-report-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_report_shows_the_good_records_and_names_the_bad_ones() {
    let mate = ["f3", "e5", "g4", "Qh4#"];
    let games = [
        record::pgn::chess(0, &chess_record("A", "B", &mate, Outcome::Win(Side::Second))),
        record::pgn::chess(1, &chess_record("B", "A", &mate, Outcome::Win(Side::Second))),
        record::pgn::chess(2, &chess_record("A", "B", &["e4", "e5"], Outcome::Draw)),
    ];
    let truncated = &games[2][..games[2].len() - 20];
    let results =
        BTreeMap::from([(0, GameResult::Loss), (1, GameResult::Win), (2, GameResult::Draw), (3, GameResult::Draw)]);
    let input = ReportInput {
        title: "A vs B".into(),
        details: vec!["chess".into()],
        names: ["A".into(), "B".into()],
        results,
        sprt: Some(Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 }),
        records: vec![
            RecordText { name: "one.pgn".into(), text: format!("{}{}{truncated}", games[0], games[1]) },
            RecordText { name: "two.sgf".into(), text: "(;FF[4]GM[7]SZ[9]RO[4];B[aa])\n".into() },
        ],
    };
    let dir = scratch("bad-records");
    let written = write(&dir, &input).unwrap();
    assert_eq!((written.games, written.replayed), (4, 2));
    assert_eq!(written.problems.len(), 2, "{:?}", written.problems);
    assert!(written.problems[0].starts_with("one.pgn: game 3: the record is cut short"), "{:?}", written.problems);
    assert!(written.problems[1].contains("two.sgf: game 1: unknown game SGF GM[7]"), "{:?}", written.problems);
    let page = std::fs::read_to_string(&written.page).unwrap();
    assert!(page.contains("<section id=\"problems\">") && page.contains("unknown game SGF GM[7]"));
    assert!(page.contains(r#"class="score-line" data-points="2""#), "two complete pairs");
    assert!(page.contains(r#"class="llr-line" data-points="2""#));
    assert!(page.contains("A as White: B won") && page.contains("A as Black: A won"), "the openings table");
    assert_eq!(page.matches(r#"{"round":"#).count(), 2, "the viewer holds the two good games");
    for file in ["score.svg", "sprt.svg", "games.pgn", "games.sgf"] {
        assert!(dir.join(file).is_file(), "{file}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn records_that_disagree_with_the_results_are_named() {
    let game = record::pgn::chess(0, &chess_record("A", "C", &["e4"], Outcome::Win(Side::First)));
    let other = record::pgn::chess(1, &chess_record("B", "A", &["e4"], Outcome::Win(Side::First)));
    let input = ReportInput {
        title: "A vs B".into(),
        details: Vec::new(),
        names: ["A".into(), "B".into()],
        results: BTreeMap::from([(0, GameResult::Win), (1, GameResult::Win)]),
        sprt: None,
        records: vec![RecordText { name: "games.pgn".into(), text: format!("{game}{other}{game}") }],
    };
    let dir = scratch("disagree");
    let written = write(&dir, &input).unwrap();
    assert_eq!(
        written.problems,
        [
            "game 1 is recorded twice: the first record is shown",
            "game 2: the record says 1-0 but the results give A 1 points",
        ],
    );
    assert!(!dir.join("sprt.svg").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
