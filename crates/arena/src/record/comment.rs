//! The move comments of our records, in cutechess-cli's words so that tools reading its PGN read
//! ours: `{book}` for an opening move, `{+0.25/12 0.512s}` for an engine's move (its score in
//! pawns from its own side, `/` the search depth, then the time it took), `{0.512s}` when it said
//! no score. A mate is `+M5`/`-M4`, counted in plies as cutechess does (mate in 3 moves is 5
//! plies away, mated in 2 is 4). A win rate, which cutechess never writes (go engines report
//! one), is `55.0%`. SGF records carry the same text in each move's `C[…]`.

use std::time::Duration;

use tessera_core::Score;

use crate::game::MoveNote;

/// The comment of an opening move, played from the book before the engines took over.
pub const BOOK: &str = "book";

/// The comment text of an engine's move.
#[must_use]
pub fn format(note: &MoveNote) -> String {
    ReadNote { book: false, score: note.score, depth: note.depth, time: Some(note.time) }.text()
}

/// A score as cutechess writes it (see the module documentation).
fn score_text(score: Score) -> String {
    match score {
        Score::Centipawns(cp) if cp > 0 => format!("+{:.2}", f64::from(cp) / 100.0),
        Score::Centipawns(cp) => format!("{:.2}", f64::from(cp) / 100.0),
        Score::Mate(moves) if moves > 0 => format!("+M{}", 2 * moves - 1),
        Score::Mate(moves) => format!("-M{}", -2 * moves),
        Score::WinRate(rate) => format!("{:.1}%", rate * 100.0),
    }
}

/// What a move comment says, read back. Words it does not know (another tool's notes) are
/// skipped, so any comment reads, if only as nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ReadNote {
    /// The move came from the opening book.
    pub book: bool,
    /// The mover's score, from its own side.
    pub score: Option<Score>,
    /// The depth of the search behind the score.
    pub depth: Option<u32>,
    /// The time the move took.
    pub time: Option<Duration>,
}

impl ReadNote {
    /// The note written back as a comment: `book`, `+0.25/12 0.512s`, or less when it says less.
    #[must_use]
    pub fn text(&self) -> String {
        if self.book {
            return BOOK.to_string();
        }
        let mut words = Vec::new();
        if let Some(score) = self.score {
            words.push(match self.depth {
                Some(depth) => format!("{}/{depth}", score_text(score)),
                None => score_text(score),
            });
        }
        if let Some(time) = self.time {
            words.push(format!("{:.3}s", time.as_secs_f64()));
        }
        words.join(" ")
    }
}

/// Reads a move comment (without its braces).
#[must_use]
pub fn parse(text: &str) -> ReadNote {
    let mut note = ReadNote::default();
    for word in text.split_whitespace() {
        if word == BOOK {
            note.book = true;
        } else if let Some(seconds) = word.strip_suffix('s').and_then(|number| number.parse::<f64>().ok()) {
            note.time = Duration::try_from_secs_f64(seconds).ok();
        } else if let Some((score, depth)) = parse_score(word) {
            (note.score, note.depth) = (Some(score), depth);
        }
    }
    note
}

/// `+0.25/12`, `-M4`, `55.0%/400`: the score and the depth after it, if any.
fn parse_score(word: &str) -> Option<(Score, Option<u32>)> {
    let (score, depth) = match word.split_once('/') {
        Some((score, depth)) => (score, Some(depth.parse().ok()?)),
        None => (word, None),
    };
    let score = if let Some(percent) = score.strip_suffix('%') {
        Score::WinRate(percent.parse::<f32>().ok()? / 100.0)
    } else if let Some(plies) = score.strip_prefix("+M").or_else(|| score.strip_prefix('M')) {
        Score::Mate((plies.parse::<i32>().ok()? + 1) / 2)
    } else if let Some(plies) = score.strip_prefix("-M") {
        Score::Mate(-(plies.parse::<i32>().ok()? / 2))
    } else {
        // Only a number with a decimal point is a score: a bare integer is some other tool's word.
        if !score.contains('.') {
            return None;
        }
        Score::Centipawns((score.parse::<f64>().ok()? * 100.0).round() as i32)
    };
    Some((score, depth))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(score: Option<Score>, depth: Option<u32>, millis: u64) -> MoveNote {
        MoveNote { score, depth, time: Duration::from_millis(millis) }
    }

    #[test]
    fn comments_read_like_cutechess_and_round_trip() {
        let cases = [
            (note(Some(Score::Centipawns(25)), Some(12), 512), "+0.25/12 0.512s"),
            (note(Some(Score::Centipawns(-130)), Some(7), 1500), "-1.30/7 1.500s"),
            (note(Some(Score::Centipawns(0)), Some(1), 0), "0.00/1 0.000s"),
            (note(Some(Score::Mate(3)), Some(20), 10), "+M5/20 0.010s"),
            (note(Some(Score::Mate(-2)), None, 10), "-M4 0.010s"),
            (note(Some(Score::WinRate(0.55)), Some(400), 1002), "55.0%/400 1.002s"),
            (note(None, None, 40), "0.040s"),
        ];
        for (note, text) in cases {
            assert_eq!(format(&note), text);
            let read = parse(text);
            assert_eq!((read.score, read.depth, read.time), (note.score, note.depth, Some(note.time)), "{text}");
            assert_eq!(read.text(), text);
            assert!(!read.book);
        }
    }

    #[test]
    fn book_moves_and_foreign_comments() {
        assert!(parse(BOOK).book);
        assert_eq!(parse(BOOK).text(), BOOK);
        let foreign = parse("White loses on time, 3 moves");
        assert_eq!(foreign, ReadNote::default());
        assert_eq!(parse("+0.31/9 1s").time, Some(Duration::from_secs(1)), "cutechess's whole seconds");
    }
}
