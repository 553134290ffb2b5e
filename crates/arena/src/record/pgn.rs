//! PGN records: chess games with SAN moves, xiangqi games with ICCS moves (as cutechess writes
//! xiangqi, with a `Variant` tag and the start `FEN`), each move followed by its comment
//! ([`super::comment`]); and a reader of the PGN subset such files hold.

use tessera_chess::{to_san, Chess, START_FEN};
use tessera_core::{Game, Outcome, Side};
use tessera_xiangqi::{iccs, Position};

use super::{annotated_moves, escape_pgn, result_text, Cursor, RecordError};
use crate::game::GameRecord;

/// Movetext lines are wrapped before this width, as PGN's export format asks.
const LINE_WIDTH: usize = 79;

/// The `Variant` tag of a xiangqi record (cutechess's name).
pub const XIANGQI_VARIANT: &str = "xiangqi";

/// Game `index` of a match (from 0) as PGN with SAN moves, the opening's moves included.
#[must_use]
pub fn chess(index: u32, record: &GameRecord<Chess>) -> String {
    let (mut position, moves) = annotated_moves(record);
    let mut tags = vec![
        ("Event", "tessera match".to_string()),
        ("Round", (index + 1).to_string()),
        ("White", record.names[0].clone()),
        ("Black", record.names[1].clone()),
        ("Result", result_text(record.outcome).to_string()),
        ("Termination", record.termination.to_string()),
    ];
    if position.rules().chess960 {
        tags.push(("Variant", "Chess960".to_string()));
    }
    let fen = position.fen();
    if fen != START_FEN {
        tags.push(("SetUp", "1".to_string()));
        tags.push(("FEN", fen));
    }
    let black_first = position.side_to_move() == Side::Second;
    let texts = moves
        .iter()
        .map(|(mv, comment)| {
            let text = to_san(&position, *mv);
            position.play(*mv);
            (text, comment.clone())
        })
        .collect::<Vec<_>>();
    write(&tags, black_first, &texts, result_text(record.outcome))
}

/// Game `index` of a match as a PGN-like record: tags with the start FEN, then numbered ICCS moves.
#[must_use]
pub fn xiangqi(index: u32, record: &GameRecord<Position>) -> String {
    let (start, moves) = annotated_moves(record);
    let tags = [
        ("Event", "tessera match".to_string()),
        ("Round", (index + 1).to_string()),
        ("Red", record.names[0].clone()),
        ("Black", record.names[1].clone()),
        ("Result", result_text(record.outcome).to_string()),
        ("Variant", XIANGQI_VARIANT.to_string()),
        ("FEN", start.to_fen()),
        ("Termination", record.termination.to_string()),
    ];
    let texts: Vec<_> = moves.iter().map(|(mv, comment)| (iccs(*mv), comment.clone())).collect();
    write(&tags, start.side_to_move() == Side::Second, &texts, result_text(record.outcome))
}

/// One game: the tags, then the numbered moves with their comments, wrapped, and the result.
fn write(tags: &[(&str, String)], black_first: bool, moves: &[(String, Option<String>)], result: &str) -> String {
    let mut text: String = tags.iter().map(|(name, value)| format!("[{name} \"{}\"]\n", escape_pgn(value))).collect();
    text.push('\n');
    let mut words = Vec::with_capacity(3 * moves.len() + 1);
    for (ply, (san, comment)) in moves.iter().enumerate() {
        let counted = ply + usize::from(black_first);
        if ply == 0 && black_first {
            words.push(format!("{}...", counted / 2 + 1));
        } else if counted.is_multiple_of(2) {
            words.push(format!("{}.", counted / 2 + 1));
        }
        words.push(san.clone());
        if let Some(comment) = comment {
            words.push(format!("{{{comment}}}"));
        }
    }
    words.push(result.to_string());
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > LINE_WIDTH {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    text.push_str(&line);
    text.push_str("\n\n");
    text
}

/// A game read from PGN: its tags, its main line of moves with their comments, and the result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PgnGame {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// The moves of the main line (variations are skipped), each with the comment after it.
    pub moves: Vec<PgnMove>,
    /// The game termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// A move of a [`PgnGame`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PgnMove {
    /// The move as written (SAN, ICCS…).
    pub text: String,
    /// The comment that follows it, if any (several are joined by a space).
    pub comment: Option<String>,
}

impl PgnGame {
    /// The value of tag `name`, if present.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(tag, _)| tag == name).map(|(_, value)| value.as_str())
    }

    /// The result read (`1-0` a win for the first side, White or Red), when it is one.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        match self.result.as_str() {
            "1-0" => Some(Outcome::Win(Side::First)),
            "0-1" => Some(Outcome::Win(Side::Second)),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }
}

/// Reads every game of a PGN text. A game that cannot be read gives an error in its place, and
/// reading goes on with the next game (the next tag section).
#[must_use]
pub fn read(text: &str) -> Vec<Result<PgnGame, RecordError>> {
    let mut reader = Cursor::new(text);
    let mut games = Vec::new();
    loop {
        reader.skip_space();
        if reader.at >= text.len() {
            return games;
        }
        let number = games.len() + 1;
        let game = reader.game(number);
        if game.is_err() {
            reader.skip_to_next_game();
        }
        games.push(game);
    }
}

impl<'a> Cursor<'a> {
    /// Moves past the current line and on to the next line that opens a tag section.
    fn skip_to_next_game(&mut self) {
        let mut lines = self.rest().split_inclusive('\n');
        let mut skipped = lines.next().map_or(0, str::len);
        for line in lines {
            if line.starts_with('[') {
                break;
            }
            skipped += line.len();
        }
        self.at += skipped;
    }

    /// Reads up to and including `close`; `None` if the text ends first.
    fn until(&mut self, close: char) -> Option<&'a str> {
        let end = self.rest().find(close)?;
        let found = &self.rest()[..end];
        self.at += end + close.len_utf8();
        Some(found)
    }

    fn game(&mut self, number: usize) -> Result<PgnGame, RecordError> {
        let truncated = |what: &'static str| RecordError::Truncated { game: number, what };
        let syntax = |what: String| RecordError::Syntax { game: number, what };
        let mut game = PgnGame::default();
        while self.rest().starts_with('[') {
            self.at += 1;
            let name_end = self.rest().find(|c: char| c.is_whitespace() || c == '"' || c == ']').unwrap_or(0);
            let name = self.rest()[..name_end].to_string();
            self.at += name_end;
            self.skip_space();
            if !self.rest().starts_with('"') {
                return Err(syntax(format!("tag `{name}` has no quoted value")));
            }
            self.at += 1;
            let value = self.escaped('"', "").ok_or_else(|| truncated("a tag value is not closed"))?;
            self.skip_space();
            if !self.rest().starts_with(']') {
                return Err(truncated("a tag is not closed"));
            }
            self.at += 1;
            game.tags.push((name, value));
            self.skip_space();
        }
        let mut depth = 0;
        loop {
            self.skip_space();
            let Some(next) = self.rest().chars().next() else { return Err(truncated("no result at the end")) };
            match next {
                '{' => {
                    let open = self.at;
                    self.at += 1;
                    let comment = self.until('}').ok_or_else(|| truncated("a comment is not closed"))?;
                    if comment.contains("\n[") {
                        // A tag line inside a comment: the comment was cut off and another game
                        // began, which is read from its tags on.
                        self.at = open;
                        return Err(truncated("a comment is not closed"));
                    }
                    let comment = comment.split_whitespace().collect::<Vec<_>>().join(" ");
                    if let (0, Some(last)) = (depth, game.moves.last_mut()) {
                        last.comment = Some(match last.comment.take() {
                            Some(before) => format!("{before} {comment}"),
                            None => comment,
                        });
                    }
                }
                ';' => {
                    self.until('\n');
                }
                '(' => {
                    self.at += 1;
                    depth += 1;
                }
                ')' if depth > 0 => {
                    self.at += 1;
                    depth -= 1;
                }
                '[' => return Err(truncated("a new game starts before this one's result")),
                _ => {
                    let rest = self.rest();
                    let word =
                        &rest[..rest.find(|c: char| c.is_whitespace() || "{}();[".contains(c)).unwrap_or(rest.len())];
                    if word.is_empty() {
                        return Err(syntax(format!("unexpected `{next}`")));
                    }
                    self.at += word.len();
                    if ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
                        if depth > 0 {
                            return Err(syntax("a variation is not closed".into()));
                        }
                        game.result = word.to_string();
                        return Ok(game);
                    }
                    // A move number (`12.`, `12...`) may stand alone or stick to its move.
                    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                    let word = if digits > 0 && word[digits..].starts_with('.') {
                        word[digits..].trim_start_matches('.')
                    } else {
                        word
                    };
                    if depth == 0 && !word.is_empty() && !word.starts_with('$') {
                        game.moves.push(PgnMove { text: word.to_string(), comment: None });
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_moves_comments_and_results_skipping_variations() {
        let text = "[Event \"x\"]\n[White \"A \\\"the\\\" engine\"]\n\n1. e4 {book} e5 {book} 2. Nf3 {+0.25/12\n0.5s} \
                    (2. f4 exf4 {a line}) Nc6 $1 {-0.10/11 0.4s} ; rest of line\n3. Bb5 1-0\n\n\
                    [Event \"y\"]\n\n1... h9g7 {0.1s} 2. h2e2 *\n";
        let games: Vec<PgnGame> = read(text).into_iter().map(Result::unwrap).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("White"), Some("A \"the\" engine"));
        let moves: Vec<(&str, Option<&str>)> =
            games[0].moves.iter().map(|mv| (mv.text.as_str(), mv.comment.as_deref())).collect();
        assert_eq!(
            moves,
            [
                ("e4", Some("book")),
                ("e5", Some("book")),
                ("Nf3", Some("+0.25/12 0.5s")),
                ("Nc6", Some("-0.10/11 0.4s")),
                ("Bb5", None)
            ]
        );
        assert_eq!(games[0].result, "1-0");
        assert_eq!(games[1].moves.len(), 2);
        assert_eq!(games[1].result, "*");
    }

    #[test]
    fn a_truncated_game_is_an_error_and_the_next_game_still_reads() {
        let text = "[Event \"a\"]\n\n1. e4 {+0.2/3 0.1s} e5 {book\n\n[Event \"b\"]\n\n1. d4 {0.1s} 1-0\n\n[Event \"c\"]\n\n1. c4 c5";
        let games = read(text);
        assert_eq!(games.len(), 3);
        assert!(matches!(games[0], Err(RecordError::Truncated { game: 1, .. })), "{:?}", games[0]);
        assert_eq!(games[1].as_ref().unwrap().moves[0].text, "d4");
        assert!(matches!(games[2], Err(RecordError::Truncated { game: 3, .. })), "{:?}", games[2]);
        assert!(matches!(read("[Event \"a")[0], Err(RecordError::Truncated { .. })));
        assert!(matches!(read("1. e4 } e5 1-0")[0], Err(RecordError::Syntax { .. })), "a stray brace");
    }
}
