//! GUI → engine commands: parsed by the engine, printed by a client (the arena). `Display` writes
//! the canonical form, and parsing that form gives the command back.

use std::fmt;
use std::str::FromStr;

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `startpos`.
    StartPos,
    /// `fen <fields>` (the FEN text as given, fields joined by single spaces).
    Fen(String),
}

/// The tokens of a `go` command; everything is optional.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Go {
    /// `searchmoves m…`: only these root moves.
    pub search_moves: Vec<String>,
    /// `ponder`: search on the opponent's time.
    pub ponder: bool,
    /// `wtime` in ms.
    pub wtime: Option<u64>,
    /// `btime` in ms.
    pub btime: Option<u64>,
    /// `winc` in ms.
    pub winc: Option<u64>,
    /// `binc` in ms.
    pub binc: Option<u64>,
    /// `movestogo`.
    pub moves_to_go: Option<u32>,
    /// `depth` in plies.
    pub depth: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `mate` in moves.
    pub mate: Option<u32>,
    /// `movetime` in ms.
    pub move_time: Option<u64>,
    /// `infinite`.
    pub infinite: bool,
    /// `perft <depth>` (a common extension): count the move tree instead of searching.
    pub perft: Option<u32>,
    /// Tokens that could not be read, each with the reason. They were skipped, as Stockfish does:
    /// the engine reports them and runs the rest of the command, so every `go` ends in a move.
    pub problems: Vec<String>,
}

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`.
    IsReady,
    /// `setoption name <id> [value <x>]`.
    SetOption {
        /// The option's name (may contain spaces).
        name: String,
        /// Its value, absent for buttons.
        value: Option<String>,
    },
    /// `register …` (accepted, ignored).
    Register,
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen … [moves …]`.
    Position {
        /// The starting position.
        start: Start,
        /// Moves played from it, in UCI notation.
        moves: Vec<String>,
    },
    /// `go …`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: show the board and FEN (a common extension).
    Display,
    /// `bench [depth]` (a common extension).
    Bench(Option<u32>),
}

/// Why a line is not a command we understand.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// An empty line (ignored silently).
    #[error("empty line")]
    Empty,
    /// The first token names no command.
    #[error("unknown command: {0}")]
    Unknown(String),
    /// A known command with bad arguments.
    #[error("malformed {command}: {reason}")]
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

impl FromStr for Command {
    type Err = CommandError;

    fn from_str(line: &str) -> Result<Command, CommandError> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&word, rest)) = tokens.split_first() else { return Err(CommandError::Empty) };
        Ok(match word {
            "uci" => Command::Uci,
            "isready" => Command::IsReady,
            "ucinewgame" => Command::UciNewGame,
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "quit" => Command::Quit,
            "d" => Command::Display,
            "register" => Command::Register,
            "debug" => match rest.first() {
                Some(&"on") | None => Command::Debug(true),
                Some(&"off") => Command::Debug(false),
                Some(other) => return Err(malformed("debug", format!("expected on or off, not {other}"))),
            },
            "bench" => Command::Bench(match rest.first() {
                Some(depth) => Some(depth.parse().map_err(|_| malformed("bench", format!("bad depth {depth}")))?),
                None => None,
            }),
            "setoption" => parse_setoption(rest)?,
            "position" => parse_position(rest)?,
            "go" => Command::Go(parse_go(rest)),
            other => return Err(CommandError::Unknown(other.to_owned())),
        })
    }
}

fn parse_setoption(tokens: &[&str]) -> Result<Command, CommandError> {
    if tokens.first() != Some(&"name") {
        return Err(malformed("setoption", "expected 'name'"));
    }
    let value_at = tokens.iter().position(|&token| token == "value");
    let name_end = value_at.unwrap_or(tokens.len());
    let name = tokens[1..name_end].join(" ");
    if name.is_empty() {
        return Err(malformed("setoption", "empty option name"));
    }
    let value = value_at.map(|at| tokens[at + 1..].join(" "));
    Ok(Command::SetOption { name, value })
}

fn parse_position(tokens: &[&str]) -> Result<Command, CommandError> {
    let moves_at = tokens.iter().position(|&token| token == "moves");
    let head = &tokens[..moves_at.unwrap_or(tokens.len())];
    let start = match head.split_first() {
        Some((&"startpos", [])) => Start::StartPos,
        Some((&"startpos", extra)) => return Err(malformed("position", format!("unexpected {}", extra.join(" ")))),
        Some((&"fen", fields)) if !fields.is_empty() => Start::Fen(fields.join(" ")),
        Some((&"fen", _)) => return Err(malformed("position", "fen without fields")),
        _ => return Err(malformed("position", "expected startpos or fen")),
    };
    let moves = moves_at.map(|at| tokens[at + 1..].iter().map(|&mv| mv.to_owned()).collect()).unwrap_or_default();
    Ok(Command::Position { start, moves })
}

const GO_KEYWORDS: [&str; 14] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
    "",
];

/// Times and counts above this are clamped (about 49 days in milliseconds): larger values mean
/// "no limit" in practice, and keep every later sum free of overflow.
const GO_VALUE_MAX: u64 = u32::MAX as u64;

/// Reads `go`'s tokens. Never fails: a bad token is skipped and noted in [`Go::problems`].
fn parse_go(tokens: &[&str]) -> Go {
    let mut go = Go::default();
    let mut index = 0;
    while index < tokens.len() {
        let token = tokens[index];
        index += 1;
        let mut number = |name: &str, problems: &mut Vec<String>| -> Option<u64> {
            let Some(&text) = tokens.get(index).filter(|text| !GO_KEYWORDS.contains(text)) else {
                problems.push(format!("go: {name} needs a value; ignored"));
                return None;
            };
            index += 1;
            // Negative clock values (seen from some GUIs when flagging) count as zero; huge ones clamp.
            match text.parse::<i128>() {
                Ok(value) => Some(value.clamp(0, i128::from(GO_VALUE_MAX)) as u64),
                Err(_) => {
                    problems.push(format!("go: {name} {text} is not a whole number; ignored"));
                    None
                }
            }
        };
        let problems = &mut go.problems;
        match token {
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "wtime" => go.wtime = number("wtime", problems).or(go.wtime),
            "btime" => go.btime = number("btime", problems).or(go.btime),
            "winc" => go.winc = number("winc", problems).or(go.winc),
            "binc" => go.binc = number("binc", problems).or(go.binc),
            "movestogo" => go.moves_to_go = number("movestogo", problems).map(|value| value as u32).or(go.moves_to_go),
            "depth" => go.depth = number("depth", problems).map(|value| value.min(1000) as u32).or(go.depth),
            "nodes" => go.nodes = number("nodes", problems).or(go.nodes),
            "mate" => go.mate = number("mate", problems).map(|value| value.min(1000) as u32).or(go.mate),
            "movetime" => go.move_time = number("movetime", problems).or(go.move_time),
            "perft" => go.perft = number("perft", problems).map(|value| value.min(64) as u32).or(go.perft),
            "searchmoves" => {
                while index < tokens.len() && !GO_KEYWORDS.contains(&tokens[index]) {
                    go.search_moves.push(tokens[index].to_owned());
                    index += 1;
                }
            }
            other => go.problems.push(format!("go: unknown token {other}; ignored")),
        }
    }
    go
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "go")?;
        if let Some(depth) = self.perft {
            return write!(f, " perft {depth}");
        }
        if self.ponder {
            write!(f, " ponder")?;
        }
        let numbers = [
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
            ("movestogo", self.moves_to_go.map(u64::from)),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("mate", self.mate.map(u64::from)),
            ("movetime", self.move_time),
        ];
        for (name, value) in numbers {
            if let Some(value) = value {
                write!(f, " {name} {value}")?;
            }
        }
        if self.infinite {
            write!(f, " infinite")?;
        }
        if !self.search_moves.is_empty() {
            write!(f, " searchmoves {}", self.search_moves.join(" "))?;
        }
        Ok(())
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uci => write!(f, "uci"),
            Command::Debug(on) => write!(f, "debug {}", if *on { "on" } else { "off" }),
            Command::IsReady => write!(f, "isready"),
            Command::SetOption { name, value: Some(value) } => write!(f, "setoption name {name} value {value}"),
            Command::SetOption { name, value: None } => write!(f, "setoption name {name}"),
            Command::Register => write!(f, "register later"),
            Command::UciNewGame => write!(f, "ucinewgame"),
            Command::Position { start, moves } => {
                match start {
                    Start::StartPos => write!(f, "position startpos")?,
                    Start::Fen(fen) => write!(f, "position fen {fen}")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::Go(go) => write!(f, "{go}"),
            Command::Stop => write!(f, "stop"),
            Command::PonderHit => write!(f, "ponderhit"),
            Command::Quit => write!(f, "quit"),
            Command::Display => write!(f, "d"),
            Command::Bench(Some(depth)) => write!(f, "bench {depth}"),
            Command::Bench(None) => write!(f, "bench"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_round_trip() {
        for line in [
            "uci",
            "isready",
            "setoption name Move Overhead value 100",
            "setoption name Clear Hash",
            "position startpos moves e2e4 e7e5",
            "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            "go ponder wtime 1000 btime 900 winc 10 binc 10 movestogo 5",
            "go depth 3 searchmoves e2e4 d2d4",
            "go nodes 100 mate 2 movetime 50 infinite",
            "go perft 3",
            "debug off",
            "d",
        ] {
            let command: Command = line.parse().unwrap();
            assert_eq!(command.to_string(), line);
        }
    }

    #[test]
    fn tolerant_spacing_and_errors() {
        let command: Command = "  go\twtime  5  searchmoves e2e4 e7e5 depth 2 ".parse().unwrap();
        let Command::Go(go) = command else { panic!("not go") };
        assert_eq!((go.wtime, go.depth, go.search_moves.len()), (Some(5), Some(2), 2));
        assert_eq!("".parse::<Command>(), Err(CommandError::Empty));
        assert!(matches!("xyzzy".parse::<Command>(), Err(CommandError::Unknown(_))));
        assert!(matches!("position".parse::<Command>(), Err(CommandError::Malformed { .. })));
        assert!(matches!("setoption value 3".parse::<Command>(), Err(CommandError::Malformed { .. })));
        let Ok(Command::Go(go)) = "go wtime -30".parse() else { panic!() };
        assert_eq!(go.wtime, Some(0));
    }

    #[test]
    fn bad_go_tokens_are_skipped_and_reported() {
        let go = |line: &str| match line.parse::<Command>() {
            Ok(Command::Go(go)) => go,
            other => panic!("{line}: {other:?}"),
        };
        let depth = go("go depth abc");
        assert_eq!(depth.depth, None);
        assert_eq!(depth.problems, ["go: depth abc is not a whole number; ignored"]);
        let huge = go("go wtime 18446744073709551615 btime 99999999999999999999999 winc 10");
        assert_eq!((huge.wtime, huge.btime, huge.winc), (Some(GO_VALUE_MAX), Some(GO_VALUE_MAX), Some(10)));
        assert!(huge.problems.is_empty());
        let mixed = go("go movetime 1.5 frobnicate depth 3 nodes");
        assert_eq!((mixed.move_time, mixed.depth, mixed.nodes), (None, Some(3), None));
        assert_eq!(
            mixed.problems,
            [
                "go: movetime 1.5 is not a whole number; ignored",
                "go: unknown token frobnicate; ignored",
                "go: nodes needs a value; ignored"
            ]
        );
        let keyword = go("go depth infinite");
        assert!(keyword.infinite && keyword.depth.is_none(), "a keyword is not taken as a value");
    }
}
