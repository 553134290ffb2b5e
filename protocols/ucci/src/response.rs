//! Engine → GUI lines of UCCI, written and parsed back. The parser also reads the UCI fields
//! (`score cp`, `seldepth`, `info string` …) that some UCCI engines write — Fairy-Stockfish, after
//! `ucci`, writes `info depth 1 seldepth 1 multipv 1 score cp 221 nodes 51 nps 25500 tbhits 0 …` —
//! so that the arena can follow them: that is UCCI as engines speak it, not a second dialect. This
//! engine writes UCCI's own forms only.

use std::fmt;
use std::str::FromStr;

/// A score as one dialect writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreText {
    /// UCCI: a bare number (100 = a horse), mates as ±(10000 − plies).
    Plain(i32),
    /// UCI: `cp x`.
    Centipawns(i32),
    /// UCI: `mate y` (moves; negative when getting mated).
    Mate(i32),
}

/// One `info` line; absent fields are not written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoLine {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth` (UCI's; Fairy-Stockfish writes it in UCCI).
    pub seldepth: Option<u32>,
    /// `multipv` (UCI's; Fairy-Stockfish writes it in UCCI).
    pub multipv: Option<u32>,
    /// `score`.
    pub score: Option<ScoreText>,
    /// `lowerbound` (true) or `upperbound` (false) after the score (UCI's; Fairy-Stockfish writes it in UCCI).
    pub bound: Option<bool>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps` (UCI's; Fairy-Stockfish writes it in UCCI).
    pub nps: Option<u64>,
    /// `hashfull` (UCI's; Fairy-Stockfish writes it in UCCI).
    pub hashfull: Option<u32>,
    /// `time` in milliseconds.
    pub time: Option<u64>,
    /// `currmove`.
    pub currmove: Option<String>,
    /// `currmovenumber`.
    pub currmovenumber: Option<u32>,
    /// `pv`.
    pub pv: Vec<String>,
    /// `message <text>` (UCCI) — the rest of the line.
    pub message: Option<String>,
    /// `string <text>` (UCI's; Fairy-Stockfish writes it in UCCI) — the rest of the line.
    pub string: Option<String>,
}

/// A line from the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// `id <key> <value>` (keys: name, copyright, author, user).
    Id {
        /// The key.
        key: String,
        /// The value (rest of the line).
        value: String,
    },
    /// `option …`, already in its dialect's form.
    Option(String),
    /// `ucciok`.
    UcciOk,
    /// `readyok`.
    ReadyOk,
    /// `info …`.
    Info(InfoLine),
    /// `bestmove m [ponder p] [draw|resign]` (UCI `bestmove (none)` when `mv` is `(none)`).
    BestMove {
        /// The move.
        mv: String,
        /// The expected reply.
        ponder: Option<String>,
        /// Offer or accept a draw (UCCI).
        draw: bool,
        /// Resign (UCCI).
        resign: bool,
    },
    /// `nobestmove` (UCCI).
    NoBestMove,
    /// `pophash [bestmove m] [lowerbound v depth d] [upperbound v depth d]` (UCCI).
    PopHash {
        /// The stored move.
        best: Option<String>,
        /// A lower bound and its depth.
        lower: Option<(i32, u32)>,
        /// An upper bound and its depth.
        upper: Option<(i32, u32)>,
    },
    /// `<move>: <count>` (perft).
    PerftMove {
        /// The root move.
        mv: String,
        /// Leaves below it.
        nodes: u64,
    },
    /// `Nodes searched: <n>` (perft total, Stockfish's form).
    NodesSearched(u64),
    /// `bye` (UCCI, after `quit`).
    Bye,
}

impl fmt::Display for ScoreText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScoreText::Plain(value) => write!(f, "score {value}"),
            ScoreText::Centipawns(value) => write!(f, "score cp {value}"),
            ScoreText::Mate(moves) => write!(f, "score mate {moves}"),
        }
    }
}

impl fmt::Display for InfoLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "info")?;
        let numbers = [("depth", self.depth.map(u64::from)), ("seldepth", self.seldepth.map(u64::from))];
        for (word, value) in numbers.into_iter().chain([("multipv", self.multipv.map(u64::from))]) {
            if let Some(value) = value {
                write!(f, " {word} {value}")?;
            }
        }
        if let Some(score) = self.score {
            write!(f, " {score}")?;
        }
        match self.bound {
            Some(true) => write!(f, " lowerbound")?,
            Some(false) => write!(f, " upperbound")?,
            None => {}
        }
        let numbers =
            [("nodes", self.nodes), ("nps", self.nps), ("hashfull", self.hashfull.map(u64::from)), ("time", self.time)];
        for (word, value) in numbers {
            if let Some(value) = value {
                write!(f, " {word} {value}")?;
            }
        }
        if let Some(mv) = &self.currmove {
            write!(f, " currmove {mv}")?;
        }
        if let Some(number) = self.currmovenumber {
            write!(f, " currmovenumber {number}")?;
        }
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        if let Some(message) = &self.message {
            write!(f, " message {message}")?;
        }
        if let Some(string) = &self.string {
            write!(f, " string {string}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::Id { key, value } => write!(f, "id {key} {value}"),
            Response::Option(text) => write!(f, "option {text}"),
            Response::UcciOk => write!(f, "ucciok"),
            Response::ReadyOk => write!(f, "readyok"),
            Response::Info(info) => write!(f, "{info}"),
            Response::BestMove { mv, ponder, draw, resign } => {
                write!(f, "bestmove {mv}")?;
                if let Some(ponder) = ponder {
                    write!(f, " ponder {ponder}")?;
                }
                if *draw {
                    write!(f, " draw")?;
                }
                if *resign {
                    write!(f, " resign")?;
                }
                Ok(())
            }
            Response::NoBestMove => write!(f, "nobestmove"),
            Response::PopHash { best, lower, upper } => {
                write!(f, "pophash")?;
                if let Some(best) = best {
                    write!(f, " bestmove {best}")?;
                }
                if let Some((value, depth)) = lower {
                    write!(f, " lowerbound {value} depth {depth}")?;
                }
                if let Some((value, depth)) = upper {
                    write!(f, " upperbound {value} depth {depth}")?;
                }
                Ok(())
            }
            Response::PerftMove { mv, nodes } => write!(f, "{mv}: {nodes}"),
            Response::NodesSearched(nodes) => write!(f, "Nodes searched: {nodes}"),
            Response::Bye => write!(f, "bye"),
        }
    }
}

/// Why an engine line was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unrecognised engine line '{0}'")]
pub struct ResponseError(pub String);

fn parse_info(tokens: &[&str]) -> Option<InfoLine> {
    let mut info = InfoLine::default();
    let mut index = 0;
    while index < tokens.len() {
        let value = tokens.get(index + 1).copied();
        let number = || value.and_then(|token| token.parse::<u64>().ok());
        let small = || number().and_then(|value| u32::try_from(value).ok());
        // Each arm stores its field and says how many tokens it used.
        let used = match tokens[index] {
            "depth" => {
                info.depth = Some(small()?);
                2
            }
            "seldepth" => {
                info.seldepth = Some(small()?);
                2
            }
            "multipv" => {
                info.multipv = Some(small()?);
                2
            }
            "score" => {
                let (score, used) = match value? {
                    "cp" => (ScoreText::Centipawns(tokens.get(index + 2)?.parse().ok()?), 3),
                    "mate" => (ScoreText::Mate(tokens.get(index + 2)?.parse().ok()?), 3),
                    plain => (ScoreText::Plain(plain.parse().ok()?), 2),
                };
                info.score = Some(score);
                used
            }
            "lowerbound" | "upperbound" => {
                info.bound = Some(tokens[index] == "lowerbound");
                1
            }
            "nodes" => {
                info.nodes = Some(number()?);
                2
            }
            "nps" => {
                info.nps = Some(number()?);
                2
            }
            "hashfull" => {
                info.hashfull = Some(small()?);
                2
            }
            "time" => {
                info.time = Some(number()?);
                2
            }
            "currmove" => {
                info.currmove = Some(value?.to_owned());
                2
            }
            "currmovenumber" => {
                info.currmovenumber = Some(small()?);
                2
            }
            "pv" => {
                let moves: Vec<String> = tokens[index + 1..]
                    .iter()
                    .take_while(|&&token| token != "message" && token != "string")
                    .map(|&mv| mv.to_owned())
                    .collect();
                let used = moves.len() + 1;
                info.pv = moves;
                used
            }
            // Free text runs to the end of the line.
            "message" => {
                info.message = Some(tokens[index + 1..].join(" "));
                tokens.len()
            }
            "string" => {
                info.string = Some(tokens[index + 1..].join(" "));
                tokens.len()
            }
            _ => return None,
        };
        index += used;
    }
    Some(info)
}

fn parse_bound(tokens: &[&str], word: &str) -> Option<(i32, u32)> {
    let at = tokens.iter().position(|&token| token == word)?;
    Some((tokens.get(at + 1)?.parse().ok()?, tokens.get(at + 3)?.parse().ok()?))
}

impl FromStr for Response {
    type Err = ResponseError;

    fn from_str(line: &str) -> Result<Response, ResponseError> {
        let error = || ResponseError(line.to_owned());
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let (&word, rest) = tokens.split_first().ok_or_else(error)?;
        let response = match word {
            "id" if !rest.is_empty() => Response::Id { key: rest[0].to_owned(), value: rest[1..].join(" ") },
            "option" => Response::Option(rest.join(" ")),
            "ucciok" => Response::UcciOk,
            "readyok" => Response::ReadyOk,
            "info" => Response::Info(parse_info(rest).ok_or_else(error)?),
            "bestmove" if !rest.is_empty() => {
                let ponder = rest.iter().position(|&token| token == "ponder").and_then(|at| rest.get(at + 1));
                Response::BestMove {
                    mv: rest[0].to_owned(),
                    ponder: ponder.map(|&mv| mv.to_owned()),
                    draw: rest.contains(&"draw"),
                    resign: rest.contains(&"resign"),
                }
            }
            "nobestmove" => Response::NoBestMove,
            "pophash" => Response::PopHash {
                best: rest
                    .iter()
                    .position(|&token| token == "bestmove")
                    .and_then(|at| rest.get(at + 1))
                    .map(|&mv| mv.to_owned()),
                lower: parse_bound(rest, "lowerbound"),
                upper: parse_bound(rest, "upperbound"),
            },
            "bye" => Response::Bye,
            "Nodes" if rest.first() == Some(&"searched:") => {
                Response::NodesSearched(rest.get(1).and_then(|n| n.parse().ok()).ok_or_else(error)?)
            }
            mv if mv.ends_with(':') && rest.len() == 1 => Response::PerftMove {
                mv: mv.trim_end_matches(':').to_owned(),
                nodes: rest[0].parse().map_err(|_| error())?,
            },
            _ => return Err(error()),
        };
        Ok(response)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_round_trip_through_text() {
        for line in [
            "id name Tessera",
            "option usemillisec type check default false",
            "ucciok",
            "readyok",
            "info depth 5 score 20 pv h2e2 h9g7",
            "info nodes 1234 time 56",
            "info depth 7 seldepth 9 multipv 1 score cp -35 lowerbound nodes 100 nps 2000 hashfull 3 time 50 pv h2e2",
            "info depth 3 score mate -2 pv a0a1",
            "info currmove h2e2 currmovenumber 3",
            "info message hello there",
            "info string bad move x9x9",
            "bestmove h2e2 ponder h9g7 draw",
            "bestmove h2e2 resign",
            "bestmove (none)",
            "nobestmove",
            "pophash bestmove h2e2 lowerbound 30 depth 8 upperbound 30 depth 8",
            "pophash",
            "h2e2: 1920",
            "Nodes searched: 79666",
            "bye",
        ] {
            let response: Response = line.parse().unwrap_or_else(|error| panic!("{line}: {error}"));
            assert_eq!(response.to_string(), line);
        }
        assert!("flurb".parse::<Response>().is_err());
        assert!("info depth x".parse::<Response>().is_err());
    }
}
