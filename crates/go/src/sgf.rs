//! A small SGF (`FF[4]`) reader and writer for go records: `SZ`, `KM`, `HA`, `AB`/`AW`, `PL`, `RE`
//! and the main line of `B`/`W` moves (variations after the first are skipped).

use std::fmt::Write as _;

use tessera_core::{Game, GameExt};

use crate::board::{coordinates, point, Board, Cell, MAX_SIZE, MIN_SIZE, STRIDE};
use crate::position::{Move, Position};
use crate::rules::Rules;

/// Why an SGF text could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SgfError {
    /// The text is not SGF.
    #[error("malformed SGF: {0}")]
    Syntax(String),
    /// A property value is out of range (board size, coordinates).
    #[error("bad SGF value {0}")]
    Value(String),
    /// A move of the record is illegal.
    #[error("illegal move in SGF at move {0}")]
    IllegalMove(usize),
}

/// One game record, main line only.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SgfRecord {
    /// Board size (`SZ`, 19 when absent).
    pub size: usize,
    /// Komi (`KM`).
    pub komi: Option<f32>,
    /// Handicap (`HA`).
    pub handicap: usize,
    /// Setup stones (`AB`, `AW`) as (colour, point).
    pub setup: Vec<(Cell, usize)>,
    /// Player to move first (`PL`).
    pub player: Option<Cell>,
    /// Moves (`B`, `W`) in order.
    pub moves: Vec<(Cell, Move)>,
    /// Result (`RE`).
    pub result: Option<String>,
}

type Node = Vec<(String, Vec<String>)>;

/// Reads the main line of the first game of `text`.
///
/// # Errors
/// [`SgfError`] on malformed text or values.
pub fn parse(text: &str) -> Result<SgfRecord, SgfError> {
    let nodes = main_line(text)?;
    let mut record = SgfRecord { size: 19, ..SgfRecord::default() };
    if let Some(text) = nodes.first().and_then(|node| property(node, "SZ")) {
        let bad = || SgfError::Value(format!("SZ[{text}]"));
        // `SZ[columns:rows]`: only square boards are played (docs/go.md says why).
        let (columns, rows) = text.split_once(':').unwrap_or((text, text));
        let columns: usize = columns.trim().parse().map_err(|_| bad())?;
        let rows: usize = rows.trim().parse().map_err(|_| bad())?;
        if columns != rows || !(MIN_SIZE..=MAX_SIZE).contains(&columns) {
            return Err(bad());
        }
        record.size = columns;
    }
    for node in &nodes {
        for (name, values) in node {
            let first = values.first().map(String::as_str).unwrap_or_default();
            match name.as_str() {
                "KM" => record.komi = first.trim().parse().ok(),
                "HA" => record.handicap = first.trim().parse().unwrap_or(0),
                "RE" => record.result = Some(first.to_string()),
                "PL" => record.player = color(first),
                "AB" | "AW" => {
                    let stone = if name == "AB" { Cell::Black } else { Cell::White };
                    for value in values {
                        for p in points(record.size, value)? {
                            record.setup.push((stone, p));
                        }
                    }
                }
                "B" | "W" => {
                    let stone = if name == "B" { Cell::Black } else { Cell::White };
                    let mv = match coordinate(record.size, first)? {
                        Some(p) => Move::at(p),
                        None => Move::PASS,
                    };
                    record.moves.push((stone, mv));
                }
                _ => {}
            }
        }
    }
    Ok(record)
}

impl SgfRecord {
    /// The position before move `move_number` (1-based; `None` = after every move) under `rules`
    /// (the record's komi wins). A move out of turn is preceded by a pass of the other colour.
    ///
    /// # Errors
    /// [`SgfError::IllegalMove`] when a move is illegal.
    pub fn to_position(&self, rules: Rules, move_number: Option<usize>) -> Result<Position, SgfError> {
        let mut board = Board::new(self.size);
        for &(stone, p) in &self.setup {
            if board.cell(p) == Cell::Empty {
                board.place_setup_stone(p, stone);
            }
        }
        let first = self.player.or_else(|| self.moves.first().map(|&(c, _)| c));
        let first = first.unwrap_or(if self.handicap > 1 { Cell::White } else { Cell::Black });
        board.set_to_move(first);
        let rules = rules.with_komi(self.komi.unwrap_or(rules.komi));
        let mut position = Position::from_board(board, rules);
        let limit = move_number.map_or(self.moves.len(), |n| n.saturating_sub(1).min(self.moves.len()));
        for (index, &(stone, mv)) in self.moves[..limit].iter().enumerate() {
            if position.to_move() != stone {
                position.try_play(Move::PASS).map_err(|_| SgfError::IllegalMove(index + 1))?;
            }
            if position.is_over() {
                // Play after two passes goes on, as GTP `play` does (a record of a disputed end).
                position.resume();
            }
            position.try_play(mv).map_err(|_| SgfError::IllegalMove(index + 1))?;
        }
        Ok(position)
    }
}

/// Writes `position` (setup stones, moves, komi, handicap) as SGF, with `result` as `RE` and
/// `application` (the program writing the record) as `AP`.
#[must_use]
pub fn write(position: &Position, result: Option<&str>, application: &str) -> String {
    let size = position.size();
    let start = position.start_board();
    let komi = position.rules().komi;
    let mut text = format!("(;FF[4]GM[1]CA[UTF-8]AP[{application}]SZ[{size}]KM[{komi}]RU[Chinese]");
    let stones = |color: Cell| start.points().filter(move |&p| start.cell(p) == color);
    let black: Vec<usize> = stones(Cell::Black).collect();
    let white: Vec<usize> = stones(Cell::White).collect();
    if !black.is_empty() && white.is_empty() && start.to_move() == Cell::White {
        let _ = write!(text, "HA[{}]", black.len());
    }
    if let Some(result) = result {
        let _ = write!(text, "RE[{result}]");
    }
    for (name, list) in [("AB", &black), ("AW", &white)] {
        if !list.is_empty() {
            text.push_str(name);
            for &p in list {
                let _ = write!(text, "[{}]", sgf_point(p));
            }
        }
    }
    if start.to_move() == Cell::White {
        text.push_str("PL[W]");
    }
    let mut mover = start.to_move();
    for index in 0..position.ply() {
        let mv = position.move_played(index).unwrap_or(Move::PASS);
        let name = if mover == Cell::Black { "B" } else { "W" };
        let value = mv.point().map(sgf_point).unwrap_or_default();
        let _ = write!(text, ";{name}[{value}]");
        mover = mover.opponent();
    }
    text.push_str(")\n");
    text
}

fn sgf_point(p: usize) -> String {
    let (x, y) = coordinates(p);
    format!("{}{}", char::from(b'a' + x as u8), char::from(b'a' + y as u8))
}

fn color(text: &str) -> Option<Cell> {
    match text.trim().to_ascii_uppercase().as_str() {
        "B" => Some(Cell::Black),
        "W" => Some(Cell::White),
        _ => None,
    }
}

/// A point `ab`, or `None` for a pass (`[]`, or `tt` on boards up to 19).
fn coordinate(size: usize, text: &str) -> Result<Option<usize>, SgfError> {
    let text = text.trim();
    if text.is_empty() || (size <= 19 && text == "tt") {
        return Ok(None);
    }
    let bytes = text.as_bytes();
    let bad = || SgfError::Value(format!("[{text}]"));
    if bytes.len() != 2 {
        return Err(bad());
    }
    let (x, y) = (bytes[0].wrapping_sub(b'a') as usize, bytes[1].wrapping_sub(b'a') as usize);
    if x >= size || y >= size {
        return Err(bad());
    }
    Ok(Some(point(x, y)))
}

/// The points of a value `ab` or a compressed rectangle `ab:cd`.
fn points(size: usize, text: &str) -> Result<Vec<usize>, SgfError> {
    match text.split_once(':') {
        None => Ok(coordinate(size, text)?.into_iter().collect()),
        Some((from, to)) => {
            let bad = || SgfError::Value(text.to_string());
            let (a, b) = (coordinate(size, from)?.ok_or_else(bad)?, coordinate(size, to)?.ok_or_else(bad)?);
            let (x0, y0, x1, y1) = (a % STRIDE, a / STRIDE, b % STRIDE, b / STRIDE);
            let mut list = Vec::new();
            for y in y0.min(y1)..=y0.max(y1) {
                for x in x0.min(x1)..=x0.max(x1) {
                    list.push(y * STRIDE + x);
                }
            }
            Ok(list)
        }
    }
}

fn property<'a>(node: &'a Node, name: &str) -> Option<&'a str> {
    node.iter().find(|(key, _)| key == name).and_then(|(_, values)| values.first()).map(String::as_str)
}

/// The nodes of the first game's main line.
fn main_line(text: &str) -> Result<Vec<Node>, SgfError> {
    let bytes = text.as_bytes();
    let start = text.find('(').ok_or_else(|| SgfError::Syntax("no game tree".into()))?;
    let mut index = start + 1;
    let mut depth = 1usize;
    // Depth at which the main line continues; deeper branches after the first are skipped.
    let mut nodes: Vec<Node> = Vec::new();
    let mut skipping_from: Option<usize> = None;
    let mut branch_taken = vec![false; 1];
    while index < bytes.len() && depth > 0 {
        let byte = bytes[index];
        match byte {
            b'(' => {
                depth += 1;
                if branch_taken.len() < depth {
                    branch_taken.resize(depth, false);
                }
                if skipping_from.is_none() && branch_taken[depth - 2] {
                    skipping_from = Some(depth);
                }
                branch_taken[depth - 2] = true;
                index += 1;
            }
            b')' => {
                if skipping_from == Some(depth) {
                    skipping_from = None;
                }
                depth -= 1;
                index += 1;
            }
            b';' => {
                if skipping_from.is_none() {
                    nodes.push(Vec::new());
                }
                index += 1;
            }
            b'[' => return Err(SgfError::Syntax("value without a property".into())),
            b'A'..=b'Z' | b'a'..=b'z' => {
                let name_start = index;
                while index < bytes.len() && bytes[index].is_ascii_alphabetic() {
                    index += 1;
                }
                let name: String = text[name_start..index].chars().filter(char::is_ascii_uppercase).collect();
                let mut values = Vec::new();
                loop {
                    while index < bytes.len() && bytes[index].is_ascii_whitespace() {
                        index += 1;
                    }
                    if index >= bytes.len() || bytes[index] != b'[' {
                        break;
                    }
                    index += 1;
                    let mut value = Vec::new();
                    while index < bytes.len() && bytes[index] != b']' {
                        if bytes[index] == b'\\' && index + 1 < bytes.len() {
                            index += 1;
                        }
                        value.push(bytes[index]);
                        index += 1;
                    }
                    if index >= bytes.len() {
                        return Err(SgfError::Syntax("unterminated value".into()));
                    }
                    index += 1;
                    values.push(String::from_utf8_lossy(&value).into_owned());
                }
                if skipping_from.is_none() {
                    match nodes.last_mut() {
                        Some(node) => node.push((name, values)),
                        None => return Err(SgfError::Syntax("property before the first node".into())),
                    }
                }
            }
            _ => index += 1,
        }
    }
    if nodes.is_empty() {
        return Err(SgfError::Syntax("no node".into()));
    }
    Ok(nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handicap::{fixed_handicap_points, place_handicap};

    #[test]
    fn records_round_trip() {
        let mut board = Board::new(9);
        place_handicap(&mut board, &fixed_handicap_points(9, 2).unwrap()).unwrap();
        let mut position = Position::from_board(board, Rules::CHINESE.with_komi(0.5));
        for mv in [point(4, 4), point(2, 4)] {
            position.play(Move::at(mv));
        }
        position.play(Move::PASS);
        let text = write(&position, Some("W+0.5"), "tessera-test");
        assert!(text.contains("AP[tessera-test]"), "{text}");
        let record = parse(&text).unwrap();
        assert_eq!(record.handicap, 2);
        assert_eq!(record.result.as_deref(), Some("W+0.5"));
        let loaded = record.to_position(Rules::CHINESE, None).unwrap();
        assert_eq!(loaded, position);
        assert_eq!(record.to_position(Rules::CHINESE, Some(2)).unwrap().ply(), 1);
    }

    #[test]
    fn variations_and_escapes_are_handled() {
        let text = "(;GM[1]FF[4]SZ[5]C[a \\] b]KM[6.5];B[cc](;W[dd];B[bb])(;W[aa]))";
        let record = parse(text).unwrap();
        assert_eq!(record.size, 5);
        assert_eq!(record.komi, Some(6.5));
        assert_eq!(record.moves.len(), 3);
        assert_eq!(record.moves[1], (Cell::White, Move::at(point(3, 3))));
        assert!(parse("garbage").is_err());
        assert!(parse("(;SZ[40])").is_err());
        assert!(parse("(;SZ[5];B[zz])").is_err());
    }

    #[test]
    fn passes_resume_and_boards_are_square() {
        let record = parse("(;GM[1]SZ[9];B[];W[];B[ee])").unwrap();
        let position = record.to_position(Rules::CHINESE, None).unwrap();
        assert_eq!(position.ply(), 3);
        assert!(!position.is_over());
        assert!(parse("(;GM[1]SZ[9:13])").is_err());
        assert!(parse("(;GM[1]SZ[9:x])").is_err());
        assert_eq!(parse("(;GM[1]SZ[9:9])").unwrap().size, 9);
    }
}
