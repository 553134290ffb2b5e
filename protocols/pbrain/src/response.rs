//! Engine → manager lines, printed and parsed (`Display` + `FromStr`).

use std::fmt;
use std::str::FromStr;

use crate::command::pair;

/// One line the engine sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// `OK`.
    Ok,
    /// Our move `x,y`.
    Move(u32, u32),
    /// Several stones on one line (`SWAP2BOARD` openings): `x1,y1 x2,y2 …`.
    Stones(Vec<(u32, u32)>),
    /// `SWAP`: we take the other colour.
    Swap,
    /// `ERROR message`.
    Error(String),
    /// `UNKNOWN message`.
    Unknown(String),
    /// `MESSAGE text`.
    Message(String),
    /// `DEBUG text`.
    Debug(String),
    /// `SUGGEST x,y`.
    Suggest(u32, u32),
    /// `FORBID XXYY….` (Yixin-Board).
    Forbid(Vec<(u32, u32)>),
    /// The `ABOUT` line.
    About(String),
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::Ok => f.write_str("OK"),
            Response::Move(x, y) => write!(f, "{x},{y}"),
            Response::Stones(stones) => {
                let text: Vec<String> = stones.iter().map(|(x, y)| format!("{x},{y}")).collect();
                f.write_str(&text.join(" "))
            }
            Response::Swap => f.write_str("SWAP"),
            Response::Error(message) => write!(f, "ERROR {message}"),
            Response::Unknown(message) => write!(f, "UNKNOWN {message}"),
            Response::Message(text) => write!(f, "MESSAGE {text}"),
            Response::Debug(text) => write!(f, "DEBUG {text}"),
            Response::Suggest(x, y) => write!(f, "SUGGEST {x},{y}"),
            Response::Forbid(points) => {
                f.write_str("FORBID ")?;
                for (x, y) in points {
                    write!(f, "{x:02}{y:02}")?;
                }
                f.write_str(".")
            }
            Response::About(text) => f.write_str(text),
        }
    }
}

/// A line that is not a response.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a pbrain response: {0:?}")]
pub struct BadResponse(pub String);

impl FromStr for Response {
    type Err = BadResponse;
    fn from_str(line: &str) -> Result<Response, BadResponse> {
        let line = line.trim();
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let bad = || BadResponse(line.to_string());
        Ok(match word {
            "OK" => Response::Ok,
            "SWAP" => Response::Swap,
            "ERROR" => Response::Error(rest.to_string()),
            "UNKNOWN" => Response::Unknown(rest.to_string()),
            "MESSAGE" => Response::Message(rest.to_string()),
            "DEBUG" => Response::Debug(rest.to_string()),
            "SUGGEST" => pair(rest).map(|(x, y)| Response::Suggest(x, y)).ok_or_else(bad)?,
            "FORBID" => {
                let digits = rest.trim_end_matches('.');
                if digits.len() % 4 != 0 || !digits.is_ascii() {
                    return Err(bad());
                }
                let mut points = Vec::new();
                for at in (0..digits.len()).step_by(4) {
                    let x = digits[at..at + 2].parse().map_err(|_| bad())?;
                    let y = digits[at + 2..at + 4].parse().map_err(|_| bad())?;
                    points.push((x, y));
                }
                Response::Forbid(points)
            }
            _ if line.starts_with("name=") => Response::About(line.to_string()),
            _ => {
                let stones: Option<Vec<(u32, u32)>> = line.split_whitespace().map(pair).collect();
                match stones.ok_or_else(bad)?.as_slice() {
                    [(x, y)] => Response::Move(*x, *y),
                    [] => return Err(bad()),
                    many => Response::Stones(many.to_vec()),
                }
            }
        })
    }
}
