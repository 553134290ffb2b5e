//! Engine → GUI responses: printed by the engine, parsed by a client (the arena).

use std::fmt;
use std::str::FromStr;

use tessera_core::GameOption;

/// A score as UCI writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreText {
    /// `cp <centipawns>`.
    Cp(i32),
    /// `mate <moves>` (negative: getting mated).
    Mate(i32),
}

/// Whether a reported score is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BoundText {
    /// No bound token.
    #[default]
    Exact,
    /// `lowerbound`.
    Lower,
    /// `upperbound`.
    Upper,
}

/// One `info` line; fields print in Stockfish's order, absent fields are left out.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct InfoLine {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `multipv`.
    pub multipv: Option<u32>,
    /// `score …` with its bound.
    pub score: Option<(ScoreText, BoundText)>,
    /// `wdl w d l` in per mille.
    pub wdl: Option<(u32, u32, u32)>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `hashfull` per mille.
    pub hashfull: Option<u32>,
    /// `tbhits`: positions a tablebase answered.
    pub tbhits: Option<u64>,
    /// `time` in ms.
    pub time: Option<u64>,
    /// `currmove`.
    pub currmove: Option<String>,
    /// `currmovenumber`.
    pub currmovenumber: Option<u32>,
    /// `pv …`.
    pub pv: Vec<String>,
    /// `string …` (the rest of the line).
    pub string: Option<String>,
}

/// How an option is declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check default <bool>`.
    Check(bool),
    /// `type spin default d min a max b`.
    Spin {
        /// Default.
        default: i64,
        /// Minimum.
        min: i64,
        /// Maximum.
        max: i64,
    },
    /// `type button`.
    Button,
    /// `type string default <text>` (`<empty>` for "").
    Text(String),
}

/// One `option` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// The option name.
    pub name: String,
    /// Its type and bounds.
    pub kind: OptionKind,
}

/// A game's option declared in UCI's words.
impl From<GameOption> for OptionDecl {
    fn from(option: GameOption) -> OptionDecl {
        let kind = match option.kind {
            tessera_core::OptionKind::Check(default) => OptionKind::Check(default),
            tessera_core::OptionKind::Text(default) => OptionKind::Text(default),
            tessera_core::OptionKind::Spin { default, min, max } => OptionKind::Spin { default, min, max },
        };
        OptionDecl { name: option.name.into(), kind }
    }
}

/// One response line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// `id name …`.
    IdName(String),
    /// `id author …`.
    IdAuthor(String),
    /// `option …`.
    Option(OptionDecl),
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `bestmove <m> [ponder <m>]`.
    BestMove {
        /// The move (`0000` when there is none).
        best: String,
        /// The expected reply.
        ponder: Option<String>,
    },
    /// `info …`.
    Info(InfoLine),
}

impl Response {
    /// `info string <text>`.
    #[must_use]
    pub fn text(text: impl Into<String>) -> Response {
        Response::Info(InfoLine { string: Some(text.into()), ..InfoLine::default() })
    }
}

impl fmt::Display for InfoLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "info")?;
        let leading = [("depth", self.depth), ("seldepth", self.seldepth), ("multipv", self.multipv)];
        for (name, value) in leading {
            if let Some(value) = value {
                write!(f, " {name} {value}")?;
            }
        }
        if let Some((score, bound)) = self.score {
            match score {
                ScoreText::Cp(cp) => write!(f, " score cp {cp}")?,
                ScoreText::Mate(moves) => write!(f, " score mate {moves}")?,
            }
            match bound {
                BoundText::Exact => {}
                BoundText::Lower => write!(f, " lowerbound")?,
                BoundText::Upper => write!(f, " upperbound")?,
            }
        }
        if let Some((win, draw, loss)) = self.wdl {
            write!(f, " wdl {win} {draw} {loss}")?;
        }
        if let Some(nodes) = self.nodes {
            write!(f, " nodes {nodes}")?;
        }
        if let Some(nps) = self.nps {
            write!(f, " nps {nps}")?;
        }
        if let Some(hashfull) = self.hashfull {
            write!(f, " hashfull {hashfull}")?;
        }
        if let Some(tbhits) = self.tbhits {
            write!(f, " tbhits {tbhits}")?;
        }
        if let Some(time) = self.time {
            write!(f, " time {time}")?;
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
        if let Some(text) = &self.string {
            write!(f, " string {text}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::IdName(name) => write!(f, "id name {name}"),
            Response::IdAuthor(author) => write!(f, "id author {author}"),
            Response::Option(OptionDecl { name, kind }) => {
                write!(f, "option name {name} type ")?;
                match kind {
                    OptionKind::Check(default) => write!(f, "check default {default}"),
                    OptionKind::Spin { default, min, max } => write!(f, "spin default {default} min {min} max {max}"),
                    OptionKind::Button => write!(f, "button"),
                    OptionKind::Text(default) if default.is_empty() => write!(f, "string default <empty>"),
                    OptionKind::Text(default) => write!(f, "string default {default}"),
                }
            }
            Response::UciOk => write!(f, "uciok"),
            Response::ReadyOk => write!(f, "readyok"),
            Response::BestMove { best, ponder: Some(ponder) } => write!(f, "bestmove {best} ponder {ponder}"),
            Response::BestMove { best, ponder: None } => write!(f, "bestmove {best}"),
            Response::Info(info) => write!(f, "{info}"),
        }
    }
}

/// A line that is not a UCI response.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a UCI response: {0}")]
pub struct ResponseError(pub String);

impl FromStr for Response {
    type Err = ResponseError;

    fn from_str(line: &str) -> Result<Response, ResponseError> {
        let error = || ResponseError(line.to_owned());
        let tokens: Vec<&str> = line.split_whitespace().collect();
        match tokens.as_slice() {
            ["uciok"] => Ok(Response::UciOk),
            ["readyok"] => Ok(Response::ReadyOk),
            ["id", "name", rest @ ..] => Ok(Response::IdName(rest.join(" "))),
            ["id", "author", rest @ ..] => Ok(Response::IdAuthor(rest.join(" "))),
            ["bestmove", best] => Ok(Response::BestMove { best: (*best).to_owned(), ponder: None }),
            ["bestmove", best, "ponder", ponder] => {
                Ok(Response::BestMove { best: (*best).to_owned(), ponder: Some((*ponder).to_owned()) })
            }
            ["option", "name", rest @ ..] => parse_option(rest).ok_or_else(error),
            ["info", rest @ ..] => parse_info(rest).map(Response::Info).ok_or_else(error),
            _ => Err(error()),
        }
    }
}

fn parse_option(tokens: &[&str]) -> Option<Response> {
    let type_at = tokens.iter().position(|&token| token == "type")?;
    let name = tokens[..type_at].join(" ");
    let rest = &tokens[type_at + 1..];
    let after = |key: &str| rest.iter().position(|&token| token == key).and_then(|at| rest.get(at + 1));
    let kind = match *rest.first()? {
        "check" => OptionKind::Check(*after("default")? == "true"),
        "spin" => OptionKind::Spin {
            default: after("default")?.parse().ok()?,
            min: after("min")?.parse().ok()?,
            max: after("max")?.parse().ok()?,
        },
        "button" => OptionKind::Button,
        "string" => {
            let default = after("default").map_or("", |text| *text);
            OptionKind::Text(if default == "<empty>" { String::new() } else { default.to_owned() })
        }
        _ => return None,
    };
    Some(Response::Option(OptionDecl { name, kind }))
}

fn parse_info(tokens: &[&str]) -> Option<InfoLine> {
    let mut info = InfoLine::default();
    let mut index = 0;
    while index < tokens.len() {
        let token = tokens[index];
        index += 1;
        let next = |index: &mut usize| -> Option<&str> {
            let value = tokens.get(*index).copied();
            *index += 1;
            value
        };
        match token {
            "depth" => info.depth = next(&mut index)?.parse().ok(),
            "seldepth" => info.seldepth = next(&mut index)?.parse().ok(),
            "multipv" => info.multipv = next(&mut index)?.parse().ok(),
            "nodes" => info.nodes = next(&mut index)?.parse().ok(),
            "nps" => info.nps = next(&mut index)?.parse().ok(),
            "hashfull" => info.hashfull = next(&mut index)?.parse().ok(),
            "tbhits" => info.tbhits = next(&mut index)?.parse().ok(),
            "time" => info.time = next(&mut index)?.parse().ok(),
            "currmove" => info.currmove = Some(next(&mut index)?.to_owned()),
            "currmovenumber" => info.currmovenumber = next(&mut index)?.parse().ok(),
            "score" => {
                let kind = next(&mut index)?;
                let value: i32 = next(&mut index)?.parse().ok()?;
                let score = if kind == "mate" { ScoreText::Mate(value) } else { ScoreText::Cp(value) };
                let bound = match tokens.get(index) {
                    Some(&"lowerbound") => BoundText::Lower,
                    Some(&"upperbound") => BoundText::Upper,
                    _ => BoundText::Exact,
                };
                if bound != BoundText::Exact {
                    index += 1;
                }
                info.score = Some((score, bound));
            }
            "wdl" => {
                let mut value = || next(&mut index).and_then(|text| text.parse().ok());
                info.wdl = Some((value()?, value()?, value()?));
            }
            "pv" => {
                info.pv = tokens[index..].iter().map(|&mv| mv.to_owned()).collect();
                index = tokens.len();
            }
            "string" => {
                info.string = Some(tokens[index..].join(" "));
                index = tokens.len();
            }
            _ => {} // tbhits, cpuload, refutation… are skipped
        }
    }
    Some(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_round_trip() {
        for line in [
            "id name Tessera",
            "uciok",
            "readyok",
            "bestmove e2e4 ponder e7e5",
            "bestmove 0000",
            "option name Hash type spin default 16 min 1 max 65536",
            "option name Ponder type check default false",
            "option name Clear Hash type button",
            "info depth 5 seldepth 7 multipv 1 score cp 23 wdl 100 850 50 nodes 1234 nps 5000 hashfull 3 time 246 pv e2e4 e7e5",
            "info depth 9 seldepth 9 multipv 2 score mate -3 upperbound nodes 1 nps 1 time 1 pv a2a3",
            "info depth 12 currmove e2e4 currmovenumber 1",
            "info string hello world",
        ] {
            let response: Response = line.parse().unwrap();
            assert_eq!(response.to_string(), line);
        }
        assert!("nonsense".parse::<Response>().is_err());
    }
}
