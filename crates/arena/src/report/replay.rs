//! Records replayed by our rules into what the game viewer draws: the board before the first
//! move and, for each move, the cells it changes (captures, castling and promotions included),
//! the cells to highlight and the move's comment.
//!
//! A board is a grid of cells read row by row from the top-left corner as the viewer draws it:
//! chess from a8 to h1, xiangqi from Black's back rank (a9) to Red's (i0), gomoku and go from
//! the SGF point `aa`. A cell is `.` when empty, a FEN letter for a piece (upper case for White
//! and Red), `B` or `W` for a stone.

use tessera_chess::types::{file_of, rank_of};
use tessera_chess::{parse_san, Chess, Rules as ChessRules};
use tessera_core::{Game, GameExt, Outcome, Side};
use tessera_go::board::{coordinates, point, Cell, MAX_SIZE, MIN_SIZE};
use tessera_gomoku::{Board as GomokuBoard, Point, Rules as GomokuRules, Variant};
use tessera_xiangqi::{parse_iccs, piece_letter, Position as Xiangqi};

use crate::record::comment::{self, ReadNote};
use crate::record::pgn::{self, PgnGame, XIANGQI_VARIANT};
use crate::record::sgf::{self, SgfGame, GAME_GO, GAME_GOMOKU};
use crate::record::RecordError;

/// The games the viewer draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Chess and Chess960.
    Chess,
    /// Xiangqi.
    Xiangqi,
    /// Gomoku and renju.
    Gomoku,
    /// Go.
    Go,
}

impl Kind {
    /// The name the page and its script use.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kind::Chess => "chess",
            Kind::Xiangqi => "xiangqi",
            Kind::Gomoku => "gomoku",
            Kind::Go => "go",
        }
    }

    /// The colour names of the first and second side.
    #[must_use]
    pub fn sides(self) -> [&'static str; 2] {
        match self {
            Kind::Chess => ["White", "Black"],
            Kind::Xiangqi => ["Red", "Black"],
            Kind::Gomoku | Kind::Go => ["Black", "White"],
        }
    }
}

/// A recorded game, replayed.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    /// Which game.
    pub kind: Kind,
    /// The game's number in its match (from 1), when the record says it.
    pub round: Option<u32>,
    /// Players of the first side (White, Red, Black in go and gomoku) and of the second.
    pub players: [String; 2],
    /// The side that made the first move.
    pub first_mover: Side,
    /// The result as the record writes it.
    pub result: String,
    /// The result read, when it is one.
    pub outcome: Option<Outcome>,
    /// How the game ended, in the record's words.
    pub termination: String,
    /// The position the game was set up in, when it is not the game's start (a FEN).
    pub setup: Option<String>,
    /// Columns of the board.
    pub width: usize,
    /// Rows of the board.
    pub height: usize,
    /// The cells before the first move.
    pub start: Vec<char>,
    /// Every move from there.
    pub moves: Vec<ReplayedMove>,
}

/// One move of a [`Replay`].
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayedMove {
    /// The move as people read it: SAN, ICCS, `h8`, `D4`.
    pub text: String,
    /// The cells it changes, with what they hold after it.
    pub changes: Vec<(usize, char)>,
    /// The cells to highlight (where a piece came from and went).
    pub marks: Vec<usize>,
    /// What its comment says.
    pub note: ReadNote,
}

/// The cells before the first move, and the moves replayed.
type Replayed = (Vec<char>, Vec<ReplayedMove>);

impl Replay {
    /// The side that made move `index` (from 0).
    #[must_use]
    pub fn mover(&self, index: usize) -> Side {
        mover(self.first_mover, index)
    }

    /// The moves played from the opening book, before the engines took over.
    #[must_use]
    pub fn book_moves(&self) -> usize {
        self.moves.iter().take_while(|mv| mv.note.book).count()
    }
}

/// The side that makes move `index` (from 0) when `first` makes the first and the sides alternate.
fn mover(first: Side, index: usize) -> Side {
    if index.is_multiple_of(2) {
        first
    } else {
        first.opponent()
    }
}

/// Every game of a PGN or SGF text, replayed; a game that cannot be gives its error instead.
#[must_use]
pub fn read_games(text: &str) -> Vec<Result<Replay, RecordError>> {
    match text.trim_start().chars().next() {
        Some('[') => pgn::read(text)
            .into_iter()
            .enumerate()
            .map(|(index, game)| game.and_then(|game| from_pgn(index + 1, &game)))
            .collect(),
        Some('(') => sgf::read(text)
            .into_iter()
            .enumerate()
            .map(|(index, game)| game.and_then(|game| from_sgf(index + 1, &game)))
            .collect(),
        None => Vec::new(),
        Some(_) => vec![Err(RecordError::Syntax { game: 1, what: "neither PGN nor SGF".into() })],
    }
}

/// Plays the `moves` (text and comment) from `start`: each is read by `parse` and must be legal;
/// `cells` draws a position and `marks` the cells of a move.
fn replay<G: Game>(
    number: usize,
    start: &G,
    moves: impl IntoIterator<Item = (String, Option<String>)>,
    parse: impl Fn(&G, &str) -> Option<G::Move>,
    cells: impl Fn(&G) -> Vec<char>,
    marks: impl Fn(&G, G::Move) -> Vec<usize>,
) -> Result<Replayed, RecordError> {
    let mut position = start.clone();
    let initial = cells(&position);
    let mut before = initial.clone();
    let mut replayed = Vec::new();
    for (index, (text, note)) in moves.into_iter().enumerate() {
        let bad =
            |why: &str| RecordError::BadMove { game: number, ply: index + 1, text: text.clone(), why: why.into() };
        if position.outcome().is_some() {
            return Err(bad("the game is already over"));
        }
        let mv = parse(&position, &text).ok_or_else(|| bad("not a move here"))?;
        let marked = marks(&position, mv);
        position.try_play(mv).map_err(|_| bad("illegal"))?;
        let after = cells(&position);
        let changes =
            (0..after.len()).filter(|&cell| after[cell] != before[cell]).map(|cell| (cell, after[cell])).collect();
        let note = note.as_deref().map(comment::parse).unwrap_or_default();
        replayed.push(ReplayedMove { text, changes, marks: marked, note });
        before = after;
    }
    Ok((initial, replayed))
}

fn from_pgn(number: usize, game: &PgnGame) -> Result<Replay, RecordError> {
    let variant = game.tag("Variant").unwrap_or("standard").to_ascii_lowercase();
    // Records from before the `Variant` tag name Red instead of White.
    let (kind, (first_mover, (start, moves))) = if variant == XIANGQI_VARIANT || game.tag("Red").is_some() {
        (Kind::Xiangqi, replay_xiangqi(number, game)?)
    } else {
        let rules = match variant.as_str() {
            "standard" | "chess" => ChessRules::STANDARD,
            "chess960" | "fischerandom" => ChessRules::CHESS960,
            _ => return Err(RecordError::UnknownGame { game: number, what: format!("PGN variant `{variant}`") }),
        };
        (Kind::Chess, replay_chess(number, game, rules)?)
    };
    let (width, height) = if kind == Kind::Xiangqi { (9, 10) } else { (8, 8) };
    let standard_start = if kind == Kind::Xiangqi { tessera_xiangqi::START_FEN } else { tessera_chess::START_FEN };
    let first_tag = if game.tag("Red").is_some() { "Red" } else { "White" };
    let player = |tag: &str| game.tag(tag).unwrap_or_default().to_string();
    Ok(Replay {
        kind,
        round: game.tag("Round").and_then(|round| round.parse().ok()),
        players: [player(first_tag), player("Black")],
        first_mover,
        result: game.result.clone(),
        outcome: game.outcome(),
        termination: game.tag("Termination").unwrap_or_default().to_string(),
        setup: game.tag("FEN").filter(|&fen| fen != standard_start).map(str::to_string),
        width,
        height,
        start,
        moves,
    })
}

/// The moves of a PGN game with their comments.
fn pgn_moves(game: &PgnGame) -> impl Iterator<Item = (String, Option<String>)> + '_ {
    game.moves.iter().map(|mv| (mv.text.clone(), mv.comment.clone()))
}

fn bad_fen(number: usize, error: impl std::fmt::Display) -> RecordError {
    RecordError::Syntax { game: number, what: format!("FEN: {error}") }
}

fn replay_chess(number: usize, game: &PgnGame, rules: ChessRules) -> Result<(Side, Replayed), RecordError> {
    let start = match game.tag("FEN") {
        Some(fen) => Chess::from_fen(fen, rules).map_err(|error| bad_fen(number, error))?,
        None => Chess::new(rules),
    };
    let parse = |position: &Chess, text: &str| parse_san(position, text).ok();
    let cell = |square: u8| usize::from(7 - rank_of(square)) * 8 + usize::from(file_of(square));
    let cells = |position: &Chess| {
        (0..64u8)
            .map(|cell| tessera_chess::types::square_at(cell % 8, 7 - cell / 8))
            .map(|square| position.board().piece_at(square).map_or('.', |piece| piece.letter()))
            .collect()
    };
    let marks = |_: &Chess, mv: tessera_chess::Move| vec![cell(mv.from()), cell(mv.to())];
    Ok((start.side_to_move(), replay(number, &start, pgn_moves(game), parse, cells, marks)?))
}

fn replay_xiangqi(number: usize, game: &PgnGame) -> Result<(Side, Replayed), RecordError> {
    let start = match game.tag("FEN") {
        Some(fen) => fen.parse::<Xiangqi>().map_err(|error| bad_fen(number, error))?,
        None => Xiangqi::start(),
    };
    let parse = |position: &Xiangqi, text: &str| parse_iccs(text).ok().filter(|&mv| position.is_legal(mv));
    let cell = |square: u8| (9 - tessera_xiangqi::rank_of(square)) * 9 + tessera_xiangqi::file_of(square);
    let cells = |position: &Xiangqi| {
        (0..10)
            .rev()
            .flat_map(|rank| (0..9).map(move |file| (file, rank)))
            .map(|(file, rank)| match position.board().piece_at(tessera_xiangqi::square(file, rank)) {
                0 => '.',
                piece => piece_letter(piece),
            })
            .collect()
    };
    let marks = |_: &Xiangqi, mv: tessera_xiangqi::Move| vec![cell(mv.from), cell(mv.to)];
    Ok((start.side_to_move(), replay(number, &start, pgn_moves(game), parse, cells, marks)?))
}

/// The SGF point `ab` on a board `width` × `height`; `None` for a pass (`[]`, or `tt` on small boards).
fn sgf_point(text: &str, width: usize, height: usize) -> Result<Option<(usize, usize)>, String> {
    if text.is_empty() || (width <= 19 && height <= 19 && text == "tt") {
        return Ok(None);
    }
    match text.as_bytes() {
        &[x, y] if x.is_ascii_lowercase() && y.is_ascii_lowercase() => {
            let (x, y) = (usize::from(x - b'a'), usize::from(y - b'a'));
            if x < width && y < height {
                Ok(Some((x, y)))
            } else {
                Err(format!("[{text}] is off the board"))
            }
        }
        _ => Err(format!("[{text}] is not a point")),
    }
}

/// The moves of an SGF main line: text of the point, comment, colour (`B` is the first side).
fn sgf_moves(game: &SgfGame) -> Vec<(Side, String, Option<String>)> {
    game.nodes[1..]
        .iter()
        .filter_map(|node| {
            let (side, point) = match (sgf::value(node, "B"), sgf::value(node, "W")) {
                (Some(point), _) => (Side::First, point),
                (None, Some(point)) => (Side::Second, point),
                (None, None) => return None,
            };
            Some((side, point.to_string(), sgf::value(node, "C").map(str::to_string)))
        })
        .collect()
}

fn from_sgf(number: usize, game: &SgfGame) -> Result<Replay, RecordError> {
    let kind = match game.root("GM").unwrap_or(GAME_GO) {
        GAME_GO => Kind::Go,
        GAME_GOMOKU => Kind::Gomoku,
        other => return Err(RecordError::UnknownGame { game: number, what: format!("SGF GM[{other}]") }),
    };
    let size = game.root("SZ").unwrap_or("19");
    let (width, height) = match size.split_once(':') {
        Some((width, height)) => (width.trim().parse().ok(), height.trim().parse().ok()),
        None => (size.trim().parse().ok(), size.trim().parse().ok()),
    };
    let (Some(width), Some(height)) = (width, height) else {
        return Err(RecordError::Syntax { game: number, what: format!("SZ[{size}]") });
    };
    let moves = sgf_moves(game);
    let first_mover = moves.first().map_or(Side::First, |(side, _, _)| *side);
    if let Some(index) = moves.iter().enumerate().position(|(index, (side, _, _))| *side != mover(first_mover, index)) {
        let (_, text, _) = &moves[index];
        return Err(RecordError::BadMove {
            game: number,
            ply: index + 1,
            text: text.clone(),
            why: "out of turn".into(),
        });
    }
    let texts = moves.into_iter().map(|(_, text, comment)| (text, comment));
    let (start, moves) = match kind {
        Kind::Gomoku => replay_gomoku(number, game, texts, width, height)?,
        _ => replay_go(number, game, texts, width, height, first_mover)?,
    };
    let moves = moves
        .into_iter()
        .map(|mv| ReplayedMove { text: readable_point(kind, &mv.text, width, height), ..mv })
        .collect();
    let result = game.root("RE").unwrap_or_default().to_string();
    let outcome = match result.chars().next() {
        Some('B') => Some(Outcome::Win(Side::First)),
        Some('W') => Some(Outcome::Win(Side::Second)),
        Some('0' | 'D' | 'J') => Some(Outcome::Draw),
        _ => None,
    };
    let player = |name| game.root(name).unwrap_or_default().to_string();
    Ok(Replay {
        kind,
        round: game.root("RO").and_then(|round| round.trim().parse().ok()),
        players: [player("PB"), player("PW")],
        first_mover,
        result,
        outcome,
        termination: player("GC"),
        setup: start.iter().any(|&cell| cell != '.').then(|| "stones set up before the first move".to_string()),
        width,
        height,
        start,
        moves,
    })
}

fn replay_gomoku(
    number: usize,
    game: &SgfGame,
    moves: impl IntoIterator<Item = (String, Option<String>)>,
    width: usize,
    height: usize,
) -> Result<Replayed, RecordError> {
    let value_error = |what: String| RecordError::Syntax { game: number, what };
    let variant: Variant =
        game.root("RU").unwrap_or("freestyle").parse().map_err(|error| value_error(format!("{error}")))?;
    let rules =
        GomokuRules::new(variant, width as u32, height as u32).map_err(|error| value_error(error.to_string()))?;
    let parse = |board: &GomokuBoard, text: &str| {
        let (x, y) = sgf_point(text, width, height).ok()??;
        let point = Point::new(x as u8, y as u8);
        board.is_legal(point).then_some(point)
    };
    let cells = |board: &GomokuBoard| {
        (0..height * width)
            .map(|cell| match board.stone(Point::new((cell % width) as u8, (cell / width) as u8)) {
                Some(Side::First) => 'B',
                Some(Side::Second) => 'W',
                None => '.',
            })
            .collect()
    };
    let marks = |_: &GomokuBoard, point: Point| vec![usize::from(point.y()) * width + usize::from(point.x())];
    replay(number, &GomokuBoard::new(rules), moves, parse, cells, marks)
}

fn replay_go(
    number: usize,
    game: &SgfGame,
    moves: impl IntoIterator<Item = (String, Option<String>)>,
    width: usize,
    height: usize,
    first_mover: Side,
) -> Result<Replayed, RecordError> {
    let value_error = |what: String| RecordError::Syntax { game: number, what };
    if width != height || !(MIN_SIZE..=MAX_SIZE).contains(&width) {
        return Err(value_error(format!("SZ[{width}:{height}]: go is played on square boards of 2 to 25")));
    }
    let start = go_start(game, width, first_mover).map_err(value_error)?;
    let parse = |position: &tessera_go::Position, text: &str| match sgf_point(text, width, width).ok()? {
        Some((x, y)) => Some(tessera_go::Move::at(point(x, y))).filter(|&mv| position.is_legal(mv)),
        None => Some(tessera_go::Move::PASS),
    };
    let cells = |position: &tessera_go::Position| {
        let board = position.board();
        (0..width * width)
            .map(|cell| match board.cell(point(cell % width, cell / width)) {
                Cell::Black => 'B',
                Cell::White => 'W',
                _ => '.',
            })
            .collect()
    };
    let marks = |_: &tessera_go::Position, mv: tessera_go::Move| {
        mv.point().map(coordinates).map(|(x, y)| y * width + x).into_iter().collect()
    };
    replay(number, &start, moves, parse, cells, marks)
}

/// A go position from the root's komi and setup stones (`AB`, `AW`), `first` to move.
fn go_start(game: &SgfGame, size: usize, first: Side) -> Result<tessera_go::Position, String> {
    let komi = game.root("KM").and_then(|komi| komi.trim().parse().ok()).unwrap_or(7.5);
    let mut board = tessera_go::Board::new(size);
    for (name, colour) in [("AB", Cell::Black), ("AW", Cell::White)] {
        let values = game.nodes[0].iter().filter(|(id, _)| id == name).flat_map(|(_, values)| values);
        for value in values {
            if let Some((x, y)) = sgf_point(value, size, size)? {
                board.place_setup_stone(point(x, y), colour);
            }
        }
    }
    board.set_to_move(if first == Side::First { Cell::Black } else { Cell::White });
    Ok(tessera_go::Position::from_board(board, tessera_go::Rules::CHINESE.with_komi(komi)))
}

/// An SGF point as players write it: `h8` in gomoku (columns from the left, rows from the
/// bottom), `D4` in go (GTP's letters, without I), `pass`.
fn readable_point(kind: Kind, text: &str, width: usize, height: usize) -> String {
    match (kind, sgf_point(text, width, height)) {
        (_, Ok(None)) => "pass".to_string(),
        (Kind::Go, Ok(Some((x, y)))) => tessera_go::format_vertex(width, tessera_go::Move::at(point(x, y))),
        (_, Ok(Some((x, y)))) => format!("{}{}", char::from(b'a' + x as u8), height - y),
        (_, Err(_)) => text.to_string(),
    }
}

#[cfg(test)]
mod tests;
