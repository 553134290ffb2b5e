//! GUI → engine commands (case-insensitive), parsed and printed.

use std::fmt;
use std::str::FromStr;

use tessera_core::HexPoint;

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
    /// `SEARCH p…`: choose among these (each point once, all on the board).
    pub search: Vec<HexPoint>,
    /// Whether `SEARCH` was given, even if none of its points could be read: then no point is
    /// allowed and the GO cannot be answered.
    pub restricted: bool,
    /// `PONDER`: think on the opponent's time.
    pub ponder: bool,
    /// `TIME ms`: our time left for the game.
    pub time_ms: Option<u64>,
    /// `INFINITE`: until `STOP`.
    pub infinite: bool,
    /// What could not be read, each with the reason. Bad words and points are skipped, as UCI
    /// engines do with `go`: the session reports them and runs the rest, so every `GO` ends in a
    /// move. Not part of the printed command.
    pub problems: Vec<String>,
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
        statu: Vec<HexPoint>,
        /// Moves in played order after them.
        moves: Vec<HexPoint>,
    },
    /// `GO …`.
    Go(GoParams),
    /// `STOP`.
    Stop,
    /// `DOMOVE p`.
    DoMove(HexPoint),
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

/// The words that start a part of `GO`.
const GO_KEYWORDS: [&str; 4] = ["SEARCH", "PONDER", "TIME", "INFINITE"];

/// `TIME` values above this (about 49 days) are clamped: larger ones mean "no limit" in practice.
const GO_TIME_MAX: u64 = u32::MAX as u64;

/// At most this many bad points are named in one report.
const POINTS_NAMED: usize = 8;

/// Reads the points after `SEARCH` (packed, possibly over several words): points off the board
/// and repeated points are skipped and reported in `problems`.
fn search_points(words: &[&str], problems: &mut Vec<String>) -> Vec<HexPoint> {
    let mut points: Vec<HexPoint> = Vec::new();
    let mut bad: Vec<String> = Vec::new();
    let mut repeated = 0usize;
    for word in words {
        let chars: Vec<char> = word.chars().collect();
        for pair in chars.chunks(2) {
            let text: String = pair.iter().collect();
            match text.parse::<HexPoint>().ok() {
                Some(point) if points.contains(&point) => repeated += 1,
                Some(point) => points.push(point),
                None => bad.push(text),
            }
        }
    }
    if !bad.is_empty() {
        let named: Vec<&str> = bad.iter().take(POINTS_NAMED).map(String::as_str).collect();
        let more =
            if bad.len() > POINTS_NAMED { format!(" and {} more", bad.len() - POINTS_NAMED) } else { String::new() };
        problems.push(format!("GO SEARCH: {}{more} not on the 15x15 board; ignored", named.join(" ")));
    }
    if repeated > 0 {
        problems.push(format!("GO SEARCH: {repeated} repeated point(s) ignored"));
    }
    points
}

/// Reads `GO`'s words. Never fails: what cannot be read is skipped and noted in
/// [`GoParams::problems`].
fn parse_go(words: &[String]) -> GoParams {
    let mut params = GoParams::default();
    let mut index = 0;
    while index < words.len() {
        let word = words[index].as_str();
        index += 1;
        match word {
            "SEARCH" => {
                let mut texts: Vec<&str> = Vec::new();
                while let Some(text) = words.get(index).filter(|text| !GO_KEYWORDS.contains(&text.as_str())) {
                    index += 1;
                    // The draft's example glues INFINITE to the points: `67596A6BINFINITE`.
                    match text.strip_suffix("INFINITE") {
                        Some(points) => {
                            params.infinite = true;
                            texts.push(points);
                        }
                        None => texts.push(text),
                    }
                }
                params.restricted = true;
                params.search = search_points(&texts, &mut params.problems);
            }
            "PONDER" => params.ponder = true,
            "INFINITE" => params.infinite = true,
            "TIME" => match words.get(index).map(String::as_str) {
                Some("INFINITE") => {
                    index += 1;
                    params.infinite = true;
                }
                Some(text) if !GO_KEYWORDS.contains(&text) => {
                    index += 1;
                    match text.parse::<i128>() {
                        Ok(ms) if ms >= 0 => params.time_ms = Some(ms.min(i128::from(GO_TIME_MAX)) as u64),
                        Ok(_) => params.problems.push(format!("GO TIME {text} is negative; ignored")),
                        Err(_) => {
                            params
                                .problems
                                .push(format!("GO TIME {text} is not a whole number of milliseconds; ignored"));
                        }
                    }
                }
                _ => params.problems.push("GO TIME without a value; ignored".into()),
            },
            other => params.problems.push(format!("GO: unknown word {other}; ignored")),
        }
    }
    params
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
                [point] => point.parse::<HexPoint>().ok().map_or_else(malformed, Command::DoMove),
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
                        match HexPoint::parse_list(points) {
                            Some(points) => *target = points,
                            None => return Ok(malformed()),
                        }
                        index += 1;
                    }
                    index += 1;
                }
                Command::Position { statu, moves }
            }
            "GO" => Command::Go(parse_go(rest)),
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
                    write!(f, " STATU {}", HexPoint::format_list(statu))?;
                }
                if !moves.is_empty() {
                    write!(f, " MOVES {}", HexPoint::format_list(moves))?;
                }
                Ok(())
            }
            Command::Go(params) => {
                f.write_str("GO")?;
                if !params.search.is_empty() {
                    write!(f, " SEARCH {}", HexPoint::format_list(&params.search))?;
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
