//! GUI → engine commands (case-insensitive), parsed and printed.

use std::fmt;
use std::str::FromStr;

use crate::point::{format_points, parse_points, AgiPoint};

/// The swap rule of `SETRULE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Change {
    /// No swap.
    #[default]
    None,
    /// `FIRSTCHANGE`: the side to move after black's first stone may take black.
    First,
    /// `THIRDCHANGE`: the same after the third stone.
    Third,
}

/// The fifth-move rule of `SETRULE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Fifth {
    /// A single fifth move.
    #[default]
    Single,
    /// `FIVETWINE` (also the draft's `TIVETWINE`): black proposes two points.
    Two,
    /// `FIVEMULITY [n]`: black proposes `n` points (default 2).
    Many(u32),
}

impl Fifth {
    /// How many fifth-move points black proposes.
    #[must_use]
    pub fn proposals(self) -> usize {
        match self {
            Fifth::Single => 1,
            Fifth::Two => 2,
            Fifth::Many(n) => n.max(1) as usize,
        }
    }
}

/// The parts of `GO`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GoParams {
    /// `SEARCH p…`: choose among these.
    pub search: Vec<AgiPoint>,
    /// `PONDER`: think on the opponent's time.
    pub ponder: bool,
    /// `TIME ms`: our time left for the game.
    pub time_ms: Option<u64>,
    /// `INFINITE`: until `STOP`.
    pub infinite: bool,
}

/// One command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `AGI`.
    Agi,
    /// `SETRULE FORBIDDEN|UNFORBIDDEN [FIRSTCHANGE|THIRDCHANGE] [FIVETWINE|FIVEMULITY [n]]`.
    SetRule {
        /// Renju (true) or freestyle.
        forbidden: bool,
        /// Swap rule.
        change: Change,
        /// Fifth-move rule.
        fifth: Fifth,
    },
    /// `SETOPTION OWNBOOK ON|OFF [PONDER ON|OFF]` (either part may be missing).
    SetOption {
        /// Own book on/off.
        ownbook: Option<bool>,
        /// Pondering on/off.
        ponder: Option<bool>,
    },
    /// `ISREADY`.
    IsReady,
    /// `POSITION [STATU pts] [MOVES pts]`.
    Position {
        /// Stones black, white, black, … (order within a colour free).
        statu: Vec<AgiPoint>,
        /// Moves in played order after them.
        moves: Vec<AgiPoint>,
    },
    /// `GO …`.
    Go(GoParams),
    /// `STOP`.
    Stop,
    /// `DOMOVE p`.
    DoMove(AgiPoint),
    /// `QUIT`.
    Quit,
    /// A known command with bad arguments.
    Malformed(String),
    /// Anything else.
    Unknown(String),
}

fn on_off(word: Option<&str>) -> Option<bool> {
    match word?.to_ascii_uppercase().as_str() {
        "ON" | "TRUE" => Some(true),
        "OFF" | "FALSE" => Some(false),
        _ => None,
    }
}

fn parse_go(words: &[String]) -> Option<GoParams> {
    let mut params = GoParams::default();
    let mut index = 0;
    while index < words.len() {
        match words[index].as_str() {
            "SEARCH" => {
                index += 1;
                let mut text = words.get(index)?.clone();
                // The draft's example glues INFINITE to the points: `67596A6BINFINITE`.
                if let Some(points) = text.strip_suffix("INFINITE") {
                    params.infinite = true;
                    text = points.to_string();
                }
                params.search = parse_points(&text)?;
            }
            "PONDER" => params.ponder = true,
            "INFINITE" => params.infinite = true,
            "TIME" => {
                index += 1;
                match words.get(index)?.as_str() {
                    "INFINITE" => params.infinite = true,
                    ms => params.time_ms = Some(ms.parse().ok()?),
                }
            }
            _ => return None,
        }
        index += 1;
    }
    Some(params)
}

impl FromStr for Command {
    type Err = std::convert::Infallible;

    /// Never fails: bad lines become [`Command::Malformed`] or [`Command::Unknown`].
    fn from_str(line: &str) -> Result<Command, Self::Err> {
        let words: Vec<String> = line.split_whitespace().map(str::to_ascii_uppercase).collect();
        let malformed = || Command::Malformed(line.trim().to_string());
        let Some(first) = words.first() else { return Ok(Command::Unknown(String::new())) };
        let rest = &words[1..];
        Ok(match first.as_str() {
            "AGI" => Command::Agi,
            "ISREADY" => Command::IsReady,
            "STOP" => Command::Stop,
            "QUIT" => Command::Quit,
            "DOMOVE" => match rest {
                [point] => AgiPoint::parse(point).map_or_else(malformed, Command::DoMove),
                _ => malformed(),
            },
            "SETRULE" => {
                let mut forbidden = true;
                let mut change = Change::None;
                let mut fifth = Fifth::Single;
                let mut index = 0;
                while index < rest.len() {
                    match rest[index].as_str() {
                        "FORBIDDEN" => forbidden = true,
                        "UNFORBIDDEN" => forbidden = false,
                        "FIRSTCHANGE" => change = Change::First,
                        "THIRDCHANGE" => change = Change::Third,
                        "FIVETWINE" | "TIVETWINE" => fifth = Fifth::Two,
                        "FIVEMULITY" => {
                            let count = rest.get(index + 1).and_then(|n| n.parse().ok());
                            if count.is_some() {
                                index += 1;
                            }
                            fifth = Fifth::Many(count.unwrap_or(2));
                        }
                        _ => return Ok(malformed()),
                    }
                    index += 1;
                }
                Command::SetRule { forbidden, change, fifth }
            }
            "SETOPTION" => {
                let mut ownbook = None;
                let mut ponder = None;
                for pair in rest.chunks(2) {
                    match (pair[0].as_str(), on_off(pair.get(1).map(String::as_str))) {
                        ("OWNBOOK", Some(on)) => ownbook = Some(on),
                        ("PONDER", Some(on)) => ponder = Some(on),
                        _ => return Ok(malformed()),
                    }
                }
                Command::SetOption { ownbook, ponder }
            }
            "POSITION" => {
                let mut statu = Vec::new();
                let mut moves = Vec::new();
                let mut index = 0;
                while index < rest.len() {
                    let target = match rest[index].as_str() {
                        "STATU" => &mut statu,
                        "MOVES" => &mut moves,
                        _ => return Ok(malformed()),
                    };
                    // A keyword may stand with no points after it.
                    if let Some(points) = rest.get(index + 1).filter(|word| *word != "STATU" && *word != "MOVES") {
                        match parse_points(points) {
                            Some(points) => *target = points,
                            None => return Ok(malformed()),
                        }
                        index += 1;
                    }
                    index += 1;
                }
                Command::Position { statu, moves }
            }
            "GO" => parse_go(rest).map_or_else(malformed, Command::Go),
            _ => Command::Unknown(line.trim().to_string()),
        })
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Agi => f.write_str("AGI"),
            Command::SetRule { forbidden, change, fifth } => {
                f.write_str(if *forbidden { "SETRULE FORBIDDEN" } else { "SETRULE UNFORBIDDEN" })?;
                match change {
                    Change::None => {}
                    Change::First => f.write_str(" FIRSTCHANGE")?,
                    Change::Third => f.write_str(" THIRDCHANGE")?,
                }
                match fifth {
                    Fifth::Single => Ok(()),
                    Fifth::Two => f.write_str(" FIVETWINE"),
                    Fifth::Many(n) => write!(f, " FIVEMULITY {n}"),
                }
            }
            Command::SetOption { ownbook, ponder } => {
                f.write_str("SETOPTION")?;
                let word = |on: bool| if on { "ON" } else { "OFF" };
                if let Some(on) = ownbook {
                    write!(f, " OWNBOOK {}", word(*on))?;
                }
                if let Some(on) = ponder {
                    write!(f, " PONDER {}", word(*on))?;
                }
                Ok(())
            }
            Command::IsReady => f.write_str("ISREADY"),
            Command::Position { statu, moves } => {
                f.write_str("POSITION")?;
                if !statu.is_empty() {
                    write!(f, " STATU {}", format_points(statu))?;
                }
                if !moves.is_empty() {
                    write!(f, " MOVES {}", format_points(moves))?;
                }
                Ok(())
            }
            Command::Go(params) => {
                f.write_str("GO")?;
                if !params.search.is_empty() {
                    write!(f, " SEARCH {}", format_points(&params.search))?;
                }
                if params.ponder {
                    f.write_str(" PONDER")?;
                }
                if let Some(ms) = params.time_ms {
                    write!(f, " TIME {ms}")?;
                }
                if params.infinite {
                    f.write_str(" INFINITE")?;
                }
                Ok(())
            }
            Command::Stop => f.write_str("STOP"),
            Command::DoMove(point) => write!(f, "DOMOVE {point}"),
            Command::Quit => f.write_str("QUIT"),
            Command::Malformed(line) | Command::Unknown(line) => f.write_str(line),
        }
    }
}
