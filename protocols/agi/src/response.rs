//! Engine → GUI lines, printed and parsed.

use std::fmt;
use std::str::FromStr;

use tessera_core::HexPoint;

/// What `BESTMOVE` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Best {
    /// One point, or several concatenated (fifth-move proposals).
    Points(Vec<HexPoint>),
    /// `CHANGE`: the engine swaps colours.
    Change,
}

/// The parts of an `INFO` line (any combination).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct InfoLine {
    /// `DEPTH d`.
    pub depth: Option<u32>,
    /// `SCORE s`.
    pub score: Option<i64>,
    /// `PV points`.
    pub pv: Vec<HexPoint>,
    /// `NPS n`.
    pub nps: Option<u64>,
    /// `SEARCH points`.
    pub search: Vec<HexPoint>,
    /// `WIN points`.
    pub win: Vec<HexPoint>,
    /// `LOSE points`.
    pub lose: Vec<HexPoint>,
}

/// One line the engine sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// `ID NAME name`.
    IdName(String),
    /// `ID AUTHOR author`.
    IdAuthor(String),
    /// `OPTION OWNBOOK TRUE|FALSE PONDER TRUE|FALSE`.
    Options {
        /// Whether we have an opening book.
        ownbook: bool,
        /// Whether we can ponder.
        ponder: bool,
    },
    /// `AGIOK`.
    AgiOk,
    /// `READYOK`.
    ReadyOk,
    /// `INFO …`.
    Info(InfoLine),
    /// `BESTMOVE …`.
    BestMove {
        /// The answer.
        best: Best,
        /// The expected reply.
        ponder: Option<HexPoint>,
    },
    /// `BYE`.
    Bye,
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bool_word = |on: bool| if on { "TRUE" } else { "FALSE" };
        match self {
            Response::IdName(name) => write!(f, "ID NAME {name}"),
            Response::IdAuthor(author) => write!(f, "ID AUTHOR {author}"),
            Response::Options { ownbook, ponder } => {
                write!(f, "OPTION OWNBOOK {} PONDER {}", bool_word(*ownbook), bool_word(*ponder))
            }
            Response::AgiOk => f.write_str("AGIOK"),
            Response::ReadyOk => f.write_str("READYOK"),
            Response::Info(info) => {
                f.write_str("INFO")?;
                if let Some(depth) = info.depth {
                    write!(f, " DEPTH {depth}")?;
                }
                if let Some(score) = info.score {
                    write!(f, " SCORE {score}")?;
                }
                for (word, points) in
                    [("PV", &info.pv), ("SEARCH", &info.search), ("WIN", &info.win), ("LOSE", &info.lose)]
                {
                    if !points.is_empty() {
                        write!(f, " {word} {}", HexPoint::format_list(points))?;
                    }
                }
                if let Some(nps) = info.nps {
                    write!(f, " NPS {nps}")?;
                }
                Ok(())
            }
            Response::BestMove { best, ponder } => {
                match best {
                    Best::Points(points) => write!(f, "BESTMOVE {}", HexPoint::format_list(points))?,
                    Best::Change => f.write_str("BESTMOVE CHANGE")?,
                }
                if let Some(ponder) = ponder {
                    write!(f, " PONDER {ponder}")?;
                }
                Ok(())
            }
            Response::Bye => f.write_str("BYE"),
        }
    }
}

/// A line that is not an AGI response.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not an AGI response: {0:?}")]
pub struct BadResponse(pub String);

impl FromStr for Response {
    type Err = BadResponse;
    fn from_str(line: &str) -> Result<Response, BadResponse> {
        let bad = || BadResponse(line.to_string());
        let words: Vec<&str> = line.split_whitespace().collect();
        let upper: Vec<String> = words.iter().map(|word| word.to_ascii_uppercase()).collect();
        let upper: Vec<&str> = upper.iter().map(String::as_str).collect();
        Ok(match upper.as_slice() {
            ["ID", "NAME", ..] => Response::IdName(words[2..].join(" ")),
            ["ID", "AUTHOR", ..] => Response::IdAuthor(words[2..].join(" ")),
            ["OPTION", "OWNBOOK", book, "PONDER", ponder] => {
                Response::Options { ownbook: *book == "TRUE", ponder: *ponder == "TRUE" }
            }
            ["AGIOK"] => Response::AgiOk,
            ["READYOK"] => Response::ReadyOk,
            ["BYE"] => Response::Bye,
            ["BESTMOVE", best, rest @ ..] => {
                let best = if *best == "CHANGE" {
                    Best::Change
                } else {
                    Best::Points(HexPoint::parse_list(best).ok_or_else(bad)?)
                };
                let ponder = match rest {
                    [] => None,
                    ["PONDER", point] => Some(point.parse::<HexPoint>().ok().ok_or_else(bad)?),
                    _ => return Err(bad()),
                };
                Response::BestMove { best, ponder }
            }
            ["INFO", rest @ ..] => {
                let mut info = InfoLine::default();
                for pair in rest.chunks(2) {
                    let value = *pair.get(1).ok_or_else(bad)?;
                    match pair[0] {
                        "DEPTH" => info.depth = Some(value.parse().map_err(|_| bad())?),
                        "SCORE" => info.score = Some(value.parse().map_err(|_| bad())?),
                        "NPS" => info.nps = Some(value.parse().map_err(|_| bad())?),
                        "PV" => info.pv = HexPoint::parse_list(value).ok_or_else(bad)?,
                        "SEARCH" => info.search = HexPoint::parse_list(value).ok_or_else(bad)?,
                        "WIN" => info.win = HexPoint::parse_list(value).ok_or_else(bad)?,
                        "LOSE" => info.lose = HexPoint::parse_list(value).ok_or_else(bad)?,
                        _ => return Err(bad()),
                    }
                }
                Response::Info(info)
            }
            _ => return Err(bad()),
        })
    }
}
