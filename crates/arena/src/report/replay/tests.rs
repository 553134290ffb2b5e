//! Records written by the match, replayed: the boards after the moves match the positions our
//! rules reach (read from their FEN, or listed), and bad records give errors.

use std::time::Duration;

use tessera_core::{Game, Outcome, Score, Side};

use super::*;
use crate::game::{GameRecord, MoveNote, Termination};
use crate::record;

fn record<G: Game>(start: G, moves: Vec<G::Move>, outcome: Outcome) -> GameRecord<G> {
    let notes = (0..moves.len())
        .map(|index| MoveNote {
            score: Some(Score::Centipawns(10 * index as i32)),
            depth: Some(5),
            time: Duration::from_millis(100),
        })
        .collect();
    GameRecord {
        start,
        moves,
        notes,
        outcome,
        termination: Termination::Rules,
        names: ["One".into(), "Two".into()],
        time_used: [Duration::ZERO; 2],
    }
}

/// The board after every move of a replay.
fn final_cells(replay: &Replay) -> Vec<char> {
    let mut cells = replay.start.clone();
    for mv in &replay.moves {
        for &(cell, piece) in &mv.changes {
            cells[cell] = piece;
        }
    }
    cells
}

/// A FEN's piece placement as cells, row by row from the top (`width` columns).
fn fen_cells(fen: &str, width: usize) -> Vec<char> {
    let placement = fen.split(' ').next().unwrap();
    let mut cells = Vec::new();
    for row in placement.split('/') {
        for c in row.chars() {
            match c.to_digit(10) {
                Some(empty) => cells.extend(std::iter::repeat_n('.', empty as usize)),
                None => cells.push(c),
            }
        }
        assert_eq!(cells.len() % width, 0, "{fen}");
    }
    cells
}

fn only_game(text: &str) -> Replay {
    let mut games = read_games(text);
    assert_eq!(games.len(), 1, "{text}");
    games.remove(0).unwrap_or_else(|error| panic!("{error}\n{text}"))
}

#[test]
fn chess_castling_en_passant_and_promotion_replay_to_the_final_position() {
    // The opening takes en passant (a book move), then the engines castle both ways, promote and
    // take the new queen.
    let fen = "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1";
    let mut opening = Chess::from_fen(fen, ChessRules::STANDARD).unwrap();
    opening.play(parse_san(&opening, "exd6").unwrap());
    let mut position = opening.clone();
    let (mut moves, mut texts) = (Vec::new(), vec!["exd6".to_string()]);
    for san in ["O-O", "b8=Q", "Raxb8", "O-O-O"] {
        let mv = parse_san(&position, san).unwrap_or_else(|error| panic!("{san}: {error}"));
        texts.push(tessera_chess::to_san(&position, mv));
        position.play(mv);
        moves.push(mv);
    }
    let written = record::pgn::chess(4, &record(opening, moves, Outcome::Win(Side::First)));
    let replay = only_game(&written);
    assert_eq!((replay.kind, replay.round, replay.first_mover), (Kind::Chess, Some(5), Side::First));
    assert_eq!(replay.players, ["One", "Two"]);
    assert_eq!(replay.outcome, Some(Outcome::Win(Side::First)));
    assert_eq!(replay.start, fen_cells(fen, 8));
    assert_eq!(replay.book_moves(), 1);
    assert_eq!(final_cells(&replay), fen_cells(&position.fen(), 8));
    assert_eq!(replay.moves.iter().map(|mv| mv.text.clone()).collect::<Vec<_>>(), texts);
    // En passant empties d5 (row 3, file 3 = cell 27) as well as e5 (28).
    assert!(replay.moves[0].changes.contains(&(27, '.')) && replay.moves[0].changes.contains(&(28, '.')));
    // The last move's comment: 10 × 3 centipawns at depth 5 in 0.1 s; the book move has none.
    assert_eq!(replay.moves[4].note.score, Some(Score::Centipawns(30)));
    assert_eq!(replay.moves[4].note.time, Some(Duration::from_millis(100)));
    assert!(replay.moves[0].note.book && replay.moves[0].note.score.is_none());
    // b7-b8=Q: from cell 9 to cell 1, where a queen now stands.
    assert_eq!(replay.moves[2].marks, [9, 1]);
    assert!(replay.moves[2].changes.contains(&(1, 'Q')) && replay.moves[2].changes.contains(&(9, '.')));
}

#[test]
fn xiangqi_replays_from_its_fen_tag() {
    let mut opening = Xiangqi::start();
    opening.play(parse_iccs("h2e2").unwrap());
    let mut position = opening.clone();
    let mut moves = Vec::new();
    for text in ["h9g7", "e2e6", "g6g5", "e6a6"] {
        let mv = parse_iccs(text).unwrap();
        assert!(position.is_legal(mv), "{text}");
        position.play(mv);
        moves.push(mv);
    }
    let written = record::pgn::xiangqi(0, &record(opening, moves, Outcome::Draw));
    assert!(written.contains("[Variant \"xiangqi\"]"), "{written}");
    let replay = only_game(&written);
    assert_eq!((replay.kind, replay.width, replay.height), (Kind::Xiangqi, 9, 10));
    assert_eq!(replay.players, ["One", "Two"]);
    assert_eq!(replay.start, fen_cells(&Xiangqi::start().to_fen(), 9));
    assert_eq!(final_cells(&replay), fen_cells(&position.to_fen(), 9));
    // e6xa6 captures a pawn: from e6 (row 3, file 4) to a6 (row 3, file 0).
    assert_eq!(replay.moves[4].marks, [31, 27]);
}

#[test]
fn go_captures_remove_stones_and_passes_change_nothing() {
    // Black surrounds a white stone at B2 on 5×5 and takes it; White passes at the end.
    let start = tessera_go::Position::new(5, tessera_go::Rules::CHINESE);
    let vertex = |text: &str| tessera_go::parse_vertex(5, text).unwrap();
    let mut position = start.clone();
    let mut moves = Vec::new();
    for text in ["B1", "B2", "A2", "E5", "C2", "E4", "B3", "pass"] {
        position.play(vertex(text));
        moves.push(vertex(text));
    }
    let written = record::sgf::go(2, &record(start, moves, Outcome::Win(Side::First)));
    let replay = only_game(&written);
    assert_eq!((replay.kind, replay.round, replay.width), (Kind::Go, Some(3), 5));
    let texts: Vec<&str> = replay.moves.iter().map(|mv| mv.text.as_str()).collect();
    assert_eq!(texts, ["B1", "B2", "A2", "E5", "C2", "E4", "B3", "pass"]);
    let rows: Vec<String> = final_cells(&replay).chunks(5).map(|row| row.iter().collect()).collect();
    assert_eq!(rows, ["....W", "....W", ".B...", "B.B..", ".B..."]);
    assert!(replay.moves[6].changes.contains(&(16, '.')), "B3 takes B2");
    assert!(replay.moves[7].changes.is_empty() && replay.moves[7].marks.is_empty(), "a pass");
}

#[test]
fn gomoku_stones_and_renju_rules() {
    let rules = GomokuRules::new(Variant::Renju, 15, 15).unwrap();
    let mut opening = GomokuBoard::new(rules);
    opening.play(Point::new(7, 7));
    let mut board = opening.clone();
    let mut moves = Vec::new();
    for (x, y) in [(8, 8), (7, 8), (0, 14)] {
        board.play(Point::new(x, y));
        moves.push(Point::new(x, y));
    }
    let written = record::sgf::gomoku(0, &record(opening, moves, Outcome::Draw));
    let replay = only_game(&written);
    assert_eq!((replay.kind, replay.outcome), (Kind::Gomoku, Some(Outcome::Draw)));
    let texts: Vec<&str> = replay.moves.iter().map(|mv| mv.text.as_str()).collect();
    assert_eq!(texts, ["h8", "i7", "h7", "a1"]);
    let cells = final_cells(&replay);
    assert_eq!(cells.iter().filter(|&&cell| cell != '.').count(), 4);
    assert_eq!((cells[7 * 15 + 7], cells[8 * 15 + 8], cells[14 * 15]), ('B', 'W', 'W'));
}

#[test]
fn bad_records_give_clear_errors() {
    let unknown = read_games("(;FF[4]GM[7]SZ[8];B[aa])");
    assert!(matches!(&unknown[0], Err(RecordError::UnknownGame { what, .. }) if what == "SGF GM[7]"), "{unknown:?}");
    let shogi = read_games("[Variant \"shogi\"]\n\n1. P7g7f *\n");
    assert!(matches!(&shogi[0], Err(RecordError::UnknownGame { what, .. }) if what.contains("shogi")), "{shogi:?}");
    let illegal = read_games("[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n");
    assert!(matches!(&illegal[0], Err(RecordError::BadMove { ply: 3, .. })), "{illegal:?}");
    let out_of_turn = read_games("(;GM[1]SZ[9];B[aa];B[bb])");
    assert!(matches!(&out_of_turn[0], Err(RecordError::BadMove { ply: 2, .. })), "{out_of_turn:?}");
    assert!(read_games("hello")[0].is_err());
    assert!(read_games("  \n").is_empty());
}
