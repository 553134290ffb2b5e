//! SGF records (`FF[4]`): gomoku and renju as `GM[4]`, go as `GM[1]`, one game per line, with
//! the players, result (`RE`), round (`RO`, the game's number in the match), how the game ended
//! (`GC`) and each move's comment in `C[…]`; and a reader of the main line of such files.

use std::fmt::Write as _;

use tessera_core::{Game, Outcome, Side};
use tessera_go::board::{coordinates, Cell};
use tessera_gomoku::{Board, Point};

use super::{annotated_moves, Cursor, RecordError};
use crate::game::{GameRecord, Termination};

/// SGF's game type of go.
pub const GAME_GO: &str = "1";

/// SGF's game type of gomoku and renju.
pub const GAME_GOMOKU: &str = "4";

/// Game `index` of a match (from 0) as SGF for gomoku and renju (`GM[4]`): points as two letters
/// from the top-left corner.
#[must_use]
pub fn gomoku(index: u32, record: &GameRecord<Board>) -> String {
    let rules = record.start.rules();
    let result = match record.outcome {
        Outcome::Win(Side::First) => "B+",
        Outcome::Win(Side::Second) => "W+",
        Outcome::Draw => "0",
    };
    let size =
        if rules.width == rules.height { rules.width.to_string() } else { format!("{}:{}", rules.width, rules.height) };
    let root = [("SZ", size), ("RU", rules.variant.to_string())];
    let (_, moves) = annotated_moves(record);
    let point = |point: Point| format!("{}{}", letter(usize::from(point.x())), letter(usize::from(point.y())));
    let moves = moves.into_iter().map(|(mv, comment)| (point(mv), comment));
    write(GAME_GOMOKU, &root, index, record, result, Side::First, moves)
}

/// Game `index` of a match as SGF for go (`GM[1]`), with komi, Chinese rules, any stones on the
/// board before the first move, and the result as a referee or our count gave it.
#[must_use]
pub fn go(index: u32, record: &GameRecord<tessera_go::Position>) -> String {
    let (initial, moves) = annotated_moves(record);
    let start = initial.start_board();
    let mut root = vec![
        ("SZ", initial.size().to_string()),
        ("KM", initial.rules().komi.to_string()),
        ("RU", "Chinese".to_string()),
    ];
    for (name, colour) in [("AB", Cell::Black), ("AW", Cell::White)] {
        let stones: Vec<String> = start.points().filter(|&p| start.cell(p) == colour).map(go_point).collect();
        if !stones.is_empty() {
            // The values follow one another: `AB[dd][pp]`.
            root.push((name, stones.join("][")));
        }
    }
    let first = if start.to_move() == Cell::White { Side::Second } else { Side::First };
    if first == Side::Second {
        root.push(("PL", "W".to_string()));
    }
    let moves = moves.into_iter().map(|(mv, comment)| (mv.point().map(go_point).unwrap_or_default(), comment));
    write(GAME_GO, &root, index, record, &go_result(record), first, moves)
}

/// The `RE` of a go game: a referee's verdict as it gave it, else the winner and how (`B+R`,
/// `W+T`, our area count `B+3.5`, `W+F` for a failure), or `0`.
fn go_result(record: &GameRecord<tessera_go::Position>) -> String {
    let winner = match record.outcome {
        Outcome::Win(Side::First) => "B+",
        Outcome::Win(Side::Second) => "W+",
        Outcome::Draw => "0",
    };
    match &record.termination {
        Termination::Referee(text) => text.clone(),
        Termination::Resignation(_) => format!("{winner}R"),
        Termination::TimeForfeit(_) => format!("{winner}T"),
        Termination::Rules => {
            let score = record.final_position().tromp_taylor_score();
            if score == 0.0 {
                "0".to_string()
            } else {
                format!("{winner}{}", score.abs())
            }
        }
        _ => format!("{winner}F"),
    }
}

fn letter(value: usize) -> char {
    // Boards are at most 25 wide (go) or 22 (gomoku): always a lower-case letter.
    char::from(b'a' + value as u8)
}

fn go_point(p: usize) -> String {
    let (x, y) = coordinates(p);
    format!("{}{}", letter(x), letter(y))
}

/// One game on one line: the root node, then a node per move with its comment. `first` is the
/// colour of the first move (Black unless the record says otherwise).
fn write<G: Game>(
    game_type: &str,
    root: &[(&str, String)],
    index: u32,
    record: &GameRecord<G>,
    result: &str,
    first: Side,
    moves: impl Iterator<Item = (String, Option<String>)>,
) -> String {
    let mut text = format!("(;FF[4]GM[{game_type}]CA[UTF-8]AP[tessera]");
    for (name, value) in root {
        // Point lists are written joined already; only free text needs escaping.
        let _ = write!(text, "{name}[{value}]");
    }
    let [black, white] = &record.names;
    let _ = write!(
        text,
        "PB[{}]PW[{}]RE[{}]RO[{}]GC[{}]",
        escape(black),
        escape(white),
        escape(result),
        index + 1,
        escape(&record.termination.to_string())
    );
    let mut mover = first;
    for (point, comment) in moves {
        let colour = if mover == Side::First { 'B' } else { 'W' };
        let _ = write!(text, ";{colour}[{point}]");
        if let Some(comment) = comment {
            let _ = write!(text, "C[{}]", escape(&comment));
        }
        mover = mover.opponent();
    }
    text.push_str(")\n");
    text
}

/// An SGF text value with `\` and `]` escaped.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace(']', "\\]")
}

/// One node: its properties in order, each with its values.
pub type SgfNode = Vec<(String, Vec<String>)>;

/// The main line of a game read from SGF: the root node first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SgfGame {
    /// The nodes from the root along the first variation.
    pub nodes: Vec<SgfNode>,
}

impl SgfGame {
    /// The first value of property `name` of the root node.
    #[must_use]
    pub fn root(&self, name: &str) -> Option<&str> {
        value(self.nodes.first()?, name)
    }
}

/// The first value of property `name` of `node`.
#[must_use]
pub fn value<'a>(node: &'a SgfNode, name: &str) -> Option<&'a str> {
    node.iter().find(|(id, _)| id == name).and_then(|(_, values)| values.first()).map(String::as_str)
}

/// Reads every game tree of an SGF collection. A tree that cannot be read gives an error in its
/// place, and reading goes on from the next `(;`.
#[must_use]
pub fn read(text: &str) -> Vec<Result<SgfGame, RecordError>> {
    let mut reader = Cursor::new(text);
    let mut games = Vec::new();
    while let Some(offset) = reader.rest().find('(') {
        let start = reader.at + offset;
        reader.at = start;
        let number = games.len() + 1;
        let mut game = SgfGame::default();
        let result = reader.tree(number, &mut game.nodes, true).map(|()| game);
        if result.is_err() {
            // Resume at the next game tree that starts a line (records hold one game a line).
            reader.at = text[start + 1..].find("\n(").map_or(text.len(), |next| start + 1 + next + 1);
        }
        games.push(result);
    }
    games
}

impl Cursor<'_> {
    /// A game tree from its `(`: its nodes go into `nodes` when `main` (the main line), and its
    /// first sub-tree continues the main line.
    fn tree(&mut self, number: usize, nodes: &mut Vec<SgfNode>, main: bool) -> Result<(), RecordError> {
        let truncated = |what| RecordError::Truncated { game: number, what };
        let syntax = |what: String| RecordError::Syntax { game: number, what };
        self.at += 1;
        let mut first_subtree = true;
        loop {
            self.skip_space();
            match self.rest().chars().next() {
                None => return Err(truncated("a game tree is not closed")),
                Some(')') => {
                    self.at += 1;
                    return Ok(());
                }
                Some('(') => {
                    self.tree(number, nodes, main && first_subtree)?;
                    first_subtree = false;
                }
                Some(';') => {
                    self.at += 1;
                    let node = self.node(number)?;
                    if main && first_subtree {
                        nodes.push(node);
                    }
                }
                Some(other) => return Err(syntax(format!("unexpected `{other}`"))),
            }
        }
    }

    fn node(&mut self, number: usize) -> Result<SgfNode, RecordError> {
        let mut node = SgfNode::new();
        loop {
            self.skip_space();
            let length = self.rest().len() - self.rest().trim_start_matches(|c: char| c.is_ascii_alphabetic()).len();
            if length == 0 {
                return Ok(node);
            }
            let name = self.rest()[..length].to_string();
            self.at += length;
            let mut values = Vec::new();
            loop {
                self.skip_space();
                if !self.rest().starts_with('[') {
                    break;
                }
                self.at += 1;
                // A game tree begins inside a value: the value was cut off.
                let value = self.escaped(']', "(;");
                values.push(
                    value.ok_or(RecordError::Truncated { game: number, what: "a property value is not closed" })?,
                );
            }
            if values.is_empty() {
                return Err(RecordError::Syntax { game: number, what: format!("property {name} has no value") });
            }
            node.push((name, values));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_main_line_with_escapes_and_skips_variations() {
        let text = "(;FF[4]GM[1]PB[A \\] B]C[two\\\nlines];B[dd]C[+0.1/3 0.1s](;W[pp];B[pd])(;W[dp]))\n(;GM[4];B[hh])";
        let games: Vec<SgfGame> = read(text).into_iter().map(Result::unwrap).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].root("PB"), Some("A ] B"));
        assert_eq!(games[0].root("C"), Some("twolines"));
        let moves: Vec<&str> =
            games[0].nodes[1..].iter().filter_map(|node| value(node, "B").or(value(node, "W"))).collect();
        assert_eq!(moves, ["dd", "pp", "pd"]);
        assert_eq!(value(&games[0].nodes[1], "C"), Some("+0.1/3 0.1s"));
        assert_eq!(games[1].root("GM"), Some("4"));
    }

    #[test]
    fn a_cut_game_is_an_error_and_the_next_one_still_reads() {
        let text = "(;GM[4]PB[a];B[hh];W[hi]C[0.1\n(;GM[4]PB[b];B[aa])\n(;GM[1];B[dd]";
        let games = read(text);
        assert_eq!(games.len(), 3, "{games:?}");
        assert!(matches!(games[0], Err(RecordError::Truncated { game: 1, .. })), "{:?}", games[0]);
        assert_eq!(games[1].as_ref().unwrap().root("PB"), Some("b"));
        assert!(matches!(games[2], Err(RecordError::Truncated { game: 3, .. })), "{:?}", games[2]);
    }
}
