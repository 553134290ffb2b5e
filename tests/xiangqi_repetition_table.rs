//! Issue 67's repetition table, `data/xiangqi/repetition-cases.tsv`, under test: every row's moves
//! are legal from its FEN, the game still goes on before the last move, and our rules' verdict and
//! reason after it are the row's `ours` and `reason`. When Fairy-Stockfish is installed its
//! verdict must be the row's `fairy_11_1` column, read from the score it gives the last move
//! (`go depth 1 searchmoves <last move>` after the others): a change in the installed engine's
//! rules shows up here. The other peers' columns are measurements documented in docs/xiangqi.md.

mod support;

use std::time::Duration;

use support::Driven;
use tessera_core::{Game, Outcome, Side};
use tessera_xiangqi::{position_after, Position};

const TABLE: &str = "data/xiangqi/repetition-cases.tsv";
const COLUMNS: [&str; 9] =
    ["name", "fen", "moves", "ours", "reason", "fairy_11_1", "fairy_current", "pikafish_hce", "note"];
const VERDICTS: [&str; 4] = ["red", "black", "draw", "ongoing"];
const TIMEOUT: Duration = Duration::from_secs(20);

/// One row of the table.
struct Case {
    name: String,
    fen: String,
    moves: Vec<String>,
    ours: String,
    reason: String,
    fairy: String,
    peers: [String; 2],
}

fn cases() -> Vec<Case> {
    let path = support::workspace_root().join(TABLE);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let mut lines = text.lines().filter(|line| !line.starts_with('#') && !line.trim().is_empty());
    let header: Vec<&str> = lines.next().expect("a header line").split('\t').collect();
    assert_eq!(header, COLUMNS, "{TABLE}: the column names");
    lines
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), COLUMNS.len(), "{TABLE}: {line}");
            Case {
                name: fields[0].to_owned(),
                fen: fields[1].to_owned(),
                moves: fields[2].split_whitespace().map(str::to_owned).collect(),
                ours: fields[3].to_owned(),
                reason: fields[4].to_owned(),
                fairy: fields[5].to_owned(),
                peers: [fields[6].to_owned(), fields[7].to_owned()],
            }
        })
        .collect()
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "red",
        Side::Second => "black",
    }
}

fn verdict(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => "ongoing",
        Some(Outcome::Draw) => "draw",
        Some(Outcome::Win(side)) => side_name(side),
    }
}

fn position(case: &Case, plies: usize) -> Position {
    position_after(Some(&case.fen), &case.moves[..plies]).unwrap_or_else(|error| panic!("{}: {error}", case.name))
}

#[test]
fn the_table_is_well_formed() {
    let cases = cases();
    assert!(cases.len() >= 12, "{TABLE}: only {} cases", cases.len());
    let mut names: Vec<&str> = cases.iter().map(|case| case.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), cases.len(), "{TABLE}: a name is used twice");
    for case in &cases {
        assert!(case.moves.len() >= 4, "{}: too few moves for a repetition", case.name);
        for column in [&case.ours, &case.fairy, &case.peers[0], &case.peers[1]] {
            assert!(VERDICTS.contains(&column.as_str()), "{}: verdict {column:?} is none of {VERDICTS:?}", case.name);
        }
        assert_eq!(case.ours == "ongoing", case.reason == "-", "{}: a reason goes with a verdict", case.name);
    }
    for wanted in VERDICTS {
        assert!(cases.iter().any(|case| case.ours == wanted), "{TABLE}: no case where our verdict is {wanted}");
    }
}

#[test]
fn our_rules_give_each_rows_verdict() {
    let mut wrong = Vec::new();
    for case in cases() {
        let before = position(&case, case.moves.len() - 1);
        if before.rule_outcome(None).is_some() {
            wrong.push(format!("{}: already decided before the last move", case.name));
        }
        let after = position(&case, case.moves.len());
        let got = verdict(after.outcome());
        let reason = after.repetition_verdict().unwrap_or("-");
        if got != case.ours || reason != case.reason {
            wrong.push(format!("{}: ours {got} ({reason}), the table {} ({})", case.name, case.ours, case.reason));
        }
        if matches!(after.rule_outcome(None), Some(Outcome::Win(_))) {
            let mut moves = tessera_xiangqi::Moves::new();
            after.generate_legal_moves(&mut moves);
            if !moves.is_empty() {
                wrong.push(format!("{}: the loser still has {} legal moves", case.name, moves.len()));
            }
        }
    }
    assert!(wrong.is_empty(), "{TABLE}:\n{}", wrong.join("\n"));
}

/// ICCS `a0a9` as Fairy-Stockfish's UCI writes it for xiangqi, ranks 1–10: `a1a10`.
fn fairy_move(iccs: &str) -> String {
    let bytes = iccs.as_bytes();
    let square = |file: u8, rank: u8| format!("{}{}", char::from(file), rank - b'0' + 1);
    format!("{}{}", square(bytes[0], bytes[1]), square(bytes[2], bytes[3]))
}

/// The verdict a peer's score for the last move stands for: a mate is a decided game (for the
/// side that moved last when positive), a score within two centipawns of zero a draw, anything
/// else an evaluation (the game goes on). Every row's final position is far from level.
fn verdict_from_score(lines: &[String], last_mover: Side) -> String {
    let Some(line) = lines.iter().rev().find(|line| line.contains(" score ")) else {
        return format!("no score in {lines:?}");
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&word| word == "score").expect("a score");
    let value: i32 = words[at + 2].parse().unwrap_or_else(|_| panic!("a score value in {line}"));
    match words[at + 1] {
        "mate" if value > 0 => side_name(last_mover).to_owned(),
        "mate" => side_name(last_mover.opponent()).to_owned(),
        "cp" if value.abs() <= 2 => "draw".to_owned(),
        _ => "ongoing".to_owned(),
    }
}

#[test]
fn fairy_stockfish_gives_its_column() {
    let Some(program) = support::peer("fairy-stockfish", "apt-get install fairy-stockfish") else { return };
    let mut fairy = Driven::start(&program, &[]);
    fairy.send("uci");
    fairy.read_until(TIMEOUT, |line| line == "uciok");
    fairy.send("setoption name UCI_Variant value xiangqi");
    let mut wrong = Vec::new();
    for case in cases() {
        let (last, played) = case.moves.split_last().expect("moves");
        let moves: Vec<String> = played.iter().map(|mv| fairy_move(mv)).collect();
        let last_mover = position(&case, played.len()).side_to_move();
        // A new game each time: the hash table must not carry a value from another row's history.
        fairy.send("ucinewgame");
        fairy.send("isready");
        fairy.read_until(TIMEOUT, |line| line == "readyok");
        fairy.send(&format!("position fen {} moves {}", case.fen, moves.join(" ")));
        fairy.send(&format!("go depth 1 searchmoves {}", fairy_move(last)));
        let lines = fairy.read_until(TIMEOUT, |line| line.starts_with("bestmove"));
        let got = verdict_from_score(&lines, last_mover);
        if got != case.fairy {
            wrong.push(format!("{}: Fairy-Stockfish says {got}, the table {}", case.name, case.fairy));
        }
    }
    fairy.send("quit");
    assert!(wrong.is_empty(), "{TABLE}:\n{}", wrong.join("\n"));
}
