//! GUI → engine commands of UCCI, parsed from and written back to text. Moves and FENs stay text
//! here: the session reads them with the game's notation. (The UCI dialect of xiangqi GUIs is
//! UCI: `tessera-uci-protocol` speaks it.)

use std::fmt;
use std::str::FromStr;

/// Where a `position` or `probe` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The standard start position.
    StartPos,
    /// A FEN (all its fields, space-separated).
    Fen(String),
}

/// A position: a start and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    /// The start.
    pub start: Start,
    /// Moves from the start, as text.
    pub moves: Vec<String>,
}

/// The tokens of a `go` command (each field is absent unless given).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Go {
    /// `ponder`: think on the opponent's time.
    pub ponder: bool,
    /// `draw` (UCCI): the opponent offers a draw.
    pub draw: bool,
    /// `infinite`.
    pub infinite: bool,
    /// `depth d`.
    pub depth: Option<u32>,
    /// `nodes n`.
    pub nodes: Option<u64>,
    /// `time t` (UCCI: seconds, or milliseconds with `usemillisec`).
    pub time: Option<f64>,
    /// `movestogo m`.
    pub moves_to_go: Option<u32>,
    /// `increment i` (UCCI).
    pub increment: Option<f64>,
    /// `opptime t` (UCCI).
    pub opp_time: Option<f64>,
    /// `oppmovestogo m` (UCCI).
    pub opp_moves_to_go: Option<u32>,
    /// `oppincrement i` (UCCI).
    pub opp_increment: Option<f64>,
    /// Tokens that could not be read, each with the reason. They are skipped, as UCI engines do:
    /// the session reports them and runs the rest, so every `go` ends in a move. Not printed.
    pub problems: Vec<String>,
    /// `perft n`: count the move tree instead of searching.
    pub perft: Option<u32>,
}

/// A command from the GUI.
// One command lives per input line: boxing `Go` would only add an allocation to each `go`.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `ucci`: the boot command.
    Ucci,
    /// `isready`.
    IsReady,
    /// `setoption <name> [<value>]`.
    SetOption {
        /// The option's name (one word).
        name: String,
        /// Its value, if any.
        value: Option<String>,
    },
    /// `position …`.
    Position(PositionSpec),
    /// `banmoves m…`.
    BanMoves(Vec<String>),
    /// `go …`.
    Go(Go),
    /// `ponderhit [draw]`.
    PonderHit {
        /// The opponent offers a draw with its move.
        draw: bool,
    },
    /// `stop`.
    Stop,
    /// `probe …` (a position to look up in the hash table).
    Probe(PositionSpec),
    /// `quit`.
    Quit,
    /// An empty line.
    Empty,
}

/// Why a command line was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The first word is no command.
    #[error("unknown command '{0}'")]
    Unknown(String),
    /// A command with missing or malformed arguments.
    #[error("malformed '{command}': {reason}")]
    Malformed {
        /// The command word.
        command: &'static str,
        /// What was wrong.
        reason: String,
    },
}

fn malformed(command: &'static str, reason: impl Into<String>) -> CommandError {
    CommandError::Malformed { command, reason: reason.into() }
}

fn parse_position_spec(command: &'static str, tokens: &[&str]) -> Result<PositionSpec, CommandError> {
    let moves_at = tokens.iter().position(|&token| token == "moves").unwrap_or(tokens.len());
    let moves = tokens.get(moves_at + 1..).unwrap_or_default().iter().map(|&mv| mv.to_owned()).collect();
    let start = match tokens.first() {
        Some(&"startpos") => Start::StartPos,
        Some(&"fen") if moves_at > 1 => Start::Fen(tokens[1..moves_at].join(" ")),
        Some(&"fen") => return Err(malformed(command, "fen without a FEN")),
        Some(other) => return Err(malformed(command, format!("expected startpos or fen, not '{other}'"))),
        None => return Err(malformed(command, "expected startpos or fen")),
    };
    Ok(PositionSpec { start, moves })
}

fn number<T: FromStr>(command: &'static str, name: &str, token: Option<&&str>) -> Result<T, CommandError> {
    let token = token.ok_or_else(|| malformed(command, format!("{name} needs a value")))?;
    token.parse().map_err(|_| malformed(command, format!("{name} value '{token}' is not a number")))
}

/// The number after a `go` token; one that does not read is noted in `problems` and skipped.
fn go_value(token: &str, value: Option<&&str>, problems: &mut Vec<String>) -> Option<f64> {
    match number::<f64>("go", token, value) {
        Ok(number) if number.is_finite() => Some(number.max(0.0)),
        Ok(_) => {
            problems.push(format!("go: {token} must be a finite number; ignored"));
            None
        }
        Err(error) => {
            problems.push(format!("{error}; ignored"));
            None
        }
    }
}

/// Reads `go`'s tokens. Never fails: a bad token is skipped and noted in [`Go::problems`], and
/// huge values saturate.
fn parse_go(tokens: &[&str]) -> Go {
    let mut go = Go::default();
    let mut problems = Vec::new();
    let mut index = 0;
    while index < tokens.len() {
        let token = tokens[index];
        let value = tokens.get(index + 1);
        let mut takes_value = true;
        match token {
            "ponder" => (go.ponder, takes_value) = (true, false),
            "draw" => (go.draw, takes_value) = (true, false),
            "infinite" => (go.infinite, takes_value) = (true, false),
            "depth" => {
                // UCCI: `go depth infinite` is an infinite search.
                if value == Some(&"infinite") {
                    go.infinite = true;
                } else {
                    go.depth = go_value(token, value, &mut problems).map(|depth| depth.min(1000.0) as u32).or(go.depth);
                }
            }
            "nodes" => go.nodes = go_value(token, value, &mut problems).map(|value| value as _).or(go.nodes),
            "time" => go.time = go_value(token, value, &mut problems).map(|value| value as _).or(go.time),
            "movestogo" => {
                go.moves_to_go = go_value(token, value, &mut problems).map(|value| value as _).or(go.moves_to_go)
            }
            "increment" => {
                go.increment = go_value(token, value, &mut problems).map(|value| value as _).or(go.increment)
            }
            "opptime" => go.opp_time = go_value(token, value, &mut problems).map(|value| value as _).or(go.opp_time),
            "oppmovestogo" => {
                go.opp_moves_to_go =
                    go_value(token, value, &mut problems).map(|value| value as _).or(go.opp_moves_to_go)
            }
            "oppincrement" => {
                go.opp_increment = go_value(token, value, &mut problems).map(|value| value as _).or(go.opp_increment)
            }
            "perft" => {
                go.perft = go_value(token, value, &mut problems).map(|depth| depth.min(64.0) as u32).or(go.perft)
            }
            other => {
                problems.push(format!("go: unknown token '{other}'; ignored"));
                takes_value = false;
            }
        }
        index += if takes_value { 2 } else { 1 };
    }
    go.problems = problems;
    go
}

fn parse_setoption(tokens: &[&str]) -> Result<Command, CommandError> {
    let (name, rest) = tokens.split_first().ok_or_else(|| malformed("setoption", "no option name"))?;
    let value = (!rest.is_empty()).then(|| rest.join(" "));
    Ok(Command::SetOption { name: (*name).to_owned(), value })
}

impl FromStr for Command {
    type Err = CommandError;

    fn from_str(line: &str) -> Result<Command, CommandError> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&word, rest)) = tokens.split_first() else {
            return Ok(Command::Empty);
        };
        Ok(match word {
            "ucci" => Command::Ucci,
            "isready" => Command::IsReady,
            "setoption" => parse_setoption(rest)?,
            "position" => Command::Position(parse_position_spec("position", rest)?),
            "banmoves" => Command::BanMoves(rest.iter().map(|&mv| mv.to_owned()).collect()),
            "go" => Command::Go(parse_go(rest)),
            "ponderhit" => Command::PonderHit { draw: rest.first() == Some(&"draw") },
            "stop" => Command::Stop,
            "probe" => Command::Probe(parse_position_spec("probe", rest)?),
            "quit" => Command::Quit,
            other => return Err(CommandError::Unknown(other.to_owned())),
        })
    }
}

fn write_spec(f: &mut fmt::Formatter<'_>, spec: &PositionSpec) -> fmt::Result {
    match &spec.start {
        Start::StartPos => write!(f, "startpos")?,
        Start::Fen(fen) => write!(f, "fen {fen}")?,
    }
    if !spec.moves.is_empty() {
        write!(f, " moves {}", spec.moves.join(" "))?;
    }
    Ok(())
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "go")?;
        for (flag, word) in [(self.ponder, "ponder"), (self.draw, "draw"), (self.infinite, "infinite")] {
            if flag {
                write!(f, " {word}")?;
            }
        }
        let numbers: [(&str, Option<String>); 9] = [
            ("depth", self.depth.map(|v| v.to_string())),
            ("nodes", self.nodes.map(|v| v.to_string())),
            ("time", self.time.map(|v| v.to_string())),
            ("movestogo", self.moves_to_go.map(|v| v.to_string())),
            ("increment", self.increment.map(|v| v.to_string())),
            ("opptime", self.opp_time.map(|v| v.to_string())),
            ("oppmovestogo", self.opp_moves_to_go.map(|v| v.to_string())),
            ("oppincrement", self.opp_increment.map(|v| v.to_string())),
            ("perft", self.perft.map(|v| v.to_string())),
        ];
        for (word, value) in numbers {
            if let Some(value) = value {
                write!(f, " {word} {value}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Ucci => write!(f, "ucci"),
            Command::IsReady => write!(f, "isready"),
            Command::SetOption { name, value } => {
                write!(f, "setoption {name}")?;
                value.as_ref().map_or(Ok(()), |value| write!(f, " {value}"))
            }
            Command::Position(spec) => {
                write!(f, "position ")?;
                write_spec(f, spec)
            }
            Command::BanMoves(moves) => write!(f, "banmoves {}", moves.join(" ")),
            Command::Go(go) => write!(f, "{go}"),
            Command::PonderHit { draw } => write!(f, "ponderhit{}", if *draw { " draw" } else { "" }),
            Command::Stop => write!(f, "stop"),
            Command::Probe(spec) => {
                write!(f, "probe ")?;
                write_spec(f, spec)
            }
            Command::Quit => write!(f, "quit"),
            Command::Empty => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_round_trip_through_text() {
        for line in [
            "ucci",
            "isready",
            "setoption usemillisec true",
            "setoption newgame",
            "position startpos moves h2e2 h9g7",
            "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2",
            "banmoves h2e2 b0c2",
            "go ponder time 300 increment 2 opptime 300 oppincrement 2",
            "go draw time 60000 movestogo 40",
            "go depth 8",
            "go infinite",
            "go perft 3",
            "ponderhit draw",
            "ponderhit",
            "stop",
            "probe startpos moves h2e2",
            "quit",
        ] {
            let command: Command = line.parse().unwrap_or_else(|error| panic!("{line}: {error}"));
            assert_eq!(command.to_string(), line);
        }
    }

    #[test]
    fn malformed_commands_are_typed_errors() {
        assert_eq!("fly".parse::<Command>(), Err(CommandError::Unknown("fly".into())));
        // A bad `go` token is skipped and noted: the rest of the command still runs.
        for line in ["go depth x", "go bogus", "go time inf", "go depth"] {
            let Ok(Command::Go(go)) = line.parse::<Command>() else { panic!("{line} is still a go") };
            assert_eq!(go.problems.len(), 1, "{line}: {:?}", go.problems);
        }
        let Ok(Command::Go(go)) = "go time -1 depth 99999999999 nodes 1e30".parse::<Command>() else { panic!() };
        assert_eq!(
            (go.time, go.depth, go.nodes),
            (Some(0.0), Some(1000), Some(u64::MAX)),
            "negatives and huge values clamp"
        );
        assert!(matches!("position".parse::<Command>(), Err(CommandError::Malformed { .. })));
        assert!(matches!("position fen moves a0a1".parse::<Command>(), Err(CommandError::Malformed { .. })));
        assert!(matches!("setoption".parse::<Command>(), Err(CommandError::Malformed { .. })));
        assert_eq!("   ".parse::<Command>(), Ok(Command::Empty));
        assert_eq!("go depth infinite".parse::<Command>().map(|c| c.to_string()), Ok("go infinite".to_owned()));
    }
}
