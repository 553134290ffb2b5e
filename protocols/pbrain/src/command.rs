//! Manager → engine commands, parsed and printed (`FromStr` + `Display`).

use std::fmt;
use std::str::FromStr;

/// The third number of a `BOARD` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// 1: our stone.
    Own,
    /// 2: the opponent's stone.
    Opponent,
    /// 3: a winning-line or forbidden mark of a continuous game (ignored).
    Mark,
}

/// One command line from the manager or GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n` (square) or Yixin's `START w h`.
    Start(u32, u32),
    /// `RECTSTART w,h`.
    RectStart(u32, u32),
    /// `RESTART`.
    Restart,
    /// `TURN x,y`: the opponent's move.
    Turn(u32, u32),
    /// `BEGIN`: we play first.
    Begin,
    /// `BOARD`: stones follow, then `DONE`, then we move.
    Board,
    /// `YXBOARD`: stones follow, then `DONE`; no move expected.
    YxBoard,
    /// `SWAP2BOARD`: 0, 3 or 5 stones follow, then `DONE`.
    Swap2Board,
    /// `x,y,field` inside a board block.
    Stone(u32, u32, Field),
    /// `x,y` with no field: a stone of a `SWAP2BOARD` block in the Gomocup form, where the order
    /// gives the colours (Yixin-Board sends `x,y,field` instead).
    Coordinates(u32, u32),
    /// `DONE`: ends a board block.
    Done,
    /// `INFO key value`.
    Info(String, String),
    /// `END`: quit.
    End,
    /// `ABOUT`.
    About,
    /// `TAKEBACK x,y`.
    TakeBack(u32, u32),
    /// `PLAY x,y`: play exactly there (after our `SUGGEST`).
    Play(u32, u32),
    /// `STOP` or `YXSTOP`: move now.
    Stop,
    /// `YXNBEST n`: search the `n` best moves.
    YxNBest(u32),
    /// `YXSHOWFORBID`.
    YxShowForbid,
    /// `YXSHOWINFO`.
    YxShowInfo,
    /// A known command with bad arguments: answered with `ERROR`.
    Malformed(String),
    /// Anything else: answered with `UNKNOWN`.
    Unknown(String),
}

/// Reads `x,y` (spaces around the numbers allowed): the protocol's coordinate pair.
pub(crate) fn pair(text: &str) -> Option<(u32, u32)> {
    let (x, y) = text.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

impl FromStr for Command {
    type Err = std::convert::Infallible;

    /// Never fails: bad lines become [`Command::Malformed`] or [`Command::Unknown`].
    fn from_str(line: &str) -> Result<Command, Self::Err> {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let malformed = || Command::Malformed(line.to_string());
        let point = |build: fn(u32, u32) -> Command| pair(rest).map_or_else(malformed, |(x, y)| build(x, y));
        let command = match word.to_ascii_uppercase().as_str() {
            "START" => {
                let numbers: Vec<Option<u32>> = rest.split_whitespace().map(|n| n.parse().ok()).collect();
                match numbers[..] {
                    [Some(n)] => Command::Start(n, n),
                    [Some(w), Some(h)] => Command::Start(w, h),
                    _ => malformed(),
                }
            }
            "RECTSTART" => point(Command::RectStart),
            "RESTART" => Command::Restart,
            "TURN" => point(Command::Turn),
            "BEGIN" => Command::Begin,
            "BOARD" => Command::Board,
            "YXBOARD" => Command::YxBoard,
            "SWAP2BOARD" => Command::Swap2Board,
            "DONE" => Command::Done,
            "END" => Command::End,
            "ABOUT" => Command::About,
            "TAKEBACK" => point(Command::TakeBack),
            "PLAY" => point(Command::Play),
            "STOP" | "YXSTOP" => Command::Stop,
            "YXSHOWFORBID" => Command::YxShowForbid,
            "YXSHOWINFO" => Command::YxShowInfo,
            "YXNBEST" => rest.parse().map_or_else(|_| malformed(), Command::YxNBest),
            "INFO" => {
                let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                if key.is_empty() {
                    malformed()
                } else {
                    Command::Info(key.to_ascii_lowercase(), value.trim().to_string())
                }
            }
            _ => stone(line).unwrap_or_else(|| Command::Unknown(line.to_string())),
        };
        Ok(command)
    }
}

fn stone(line: &str) -> Option<Command> {
    let mut parts = line.split(',');
    let (x, y) = (parts.next()?, parts.next()?);
    let Some(field) = parts.next() else {
        return match (x.trim().parse(), y.trim().parse()) {
            (Ok(x), Ok(y)) => Some(Command::Coordinates(x, y)),
            _ => None,
        };
    };
    if parts.next().is_some() {
        return None;
    }
    let field = match field.trim() {
        "1" => Field::Own,
        "2" => Field::Opponent,
        "3" => Field::Mark,
        _ => return Some(Command::Malformed(line.to_string())),
    };
    match (x.trim().parse(), y.trim().parse()) {
        (Ok(x), Ok(y)) => Some(Command::Stone(x, y, field)),
        _ => Some(Command::Malformed(line.to_string())),
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Start(w, h) if w == h => write!(f, "START {w}"),
            Command::Start(w, h) => write!(f, "START {w} {h}"),
            Command::RectStart(w, h) => write!(f, "RECTSTART {w},{h}"),
            Command::Restart => f.write_str("RESTART"),
            Command::Turn(x, y) => write!(f, "TURN {x},{y}"),
            Command::Begin => f.write_str("BEGIN"),
            Command::Board => f.write_str("BOARD"),
            Command::YxBoard => f.write_str("YXBOARD"),
            Command::Swap2Board => f.write_str("SWAP2BOARD"),
            Command::Stone(x, y, field) => {
                let code = match field {
                    Field::Own => 1,
                    Field::Opponent => 2,
                    Field::Mark => 3,
                };
                write!(f, "{x},{y},{code}")
            }
            Command::Coordinates(x, y) => write!(f, "{x},{y}"),
            Command::Done => f.write_str("DONE"),
            Command::Info(key, value) => write!(f, "INFO {key} {value}"),
            Command::End => f.write_str("END"),
            Command::About => f.write_str("ABOUT"),
            Command::TakeBack(x, y) => write!(f, "TAKEBACK {x},{y}"),
            Command::Play(x, y) => write!(f, "PLAY {x},{y}"),
            Command::Stop => f.write_str("YXSTOP"),
            Command::YxNBest(n) => write!(f, "YXNBEST {n}"),
            Command::YxShowForbid => f.write_str("YXSHOWFORBID"),
            Command::YxShowInfo => f.write_str("YXSHOWINFO"),
            Command::Malformed(line) | Command::Unknown(line) => f.write_str(line),
        }
    }
}
