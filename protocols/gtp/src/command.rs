//! GTP commands: input pre-processing, the typed command enum, and its text both ways.

use std::fmt;
use std::str::FromStr;

use crate::analysis::{analyze_text, parse_analyze, Analyze, AnalyzeKind};
use crate::error::CommandError;
use crate::vertex::{Color, Vertex};

/// `final_status_list` classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Stones that stay on the board.
    Alive,
    /// Stones to be removed.
    Dead,
    /// Stones alive in seki.
    Seki,
}

/// `kgs-time_settings` systems.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KgsTime {
    /// No time limit.
    None,
    /// Main time only (seconds).
    Absolute(f64),
    /// Main time, then `periods` periods of `period` seconds, one move each.
    Byoyomi {
        /// Main time in seconds.
        main: f64,
        /// Seconds per period.
        period: f64,
        /// Number of periods.
        periods: u32,
    },
    /// Main time, then `stones` moves in every `period` seconds.
    Canadian {
        /// Main time in seconds.
        main: f64,
        /// Seconds per block of stones.
        period: f64,
        /// Stones per block.
        stones: u32,
    },
}

/// One GTP command (without its id).
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)] // each variant is the GTP command of the same name
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    /// `boardsize n` (kept as given: the session refuses sizes it cannot play).
    BoardSize(i64),
    ClearBoard,
    Komi(f32),
    Play(Color, Vertex),
    Genmove(Color),
    RegGenmove(Color),
    Undo,
    FixedHandicap(u32),
    PlaceFreeHandicap(u32),
    SetFreeHandicap(Vec<Vertex>),
    /// Main time, byo-yomi time (seconds), byo-yomi stones.
    TimeSettings(f64, f64, u32),
    /// Colour, time left (seconds), stones left (0 = main time).
    TimeLeft(Color, f64, u32),
    KgsTimeSettings(KgsTime),
    KgsRules(String),
    KgsGameOver,
    KgsGenmoveCleanup(Color),
    FinalScore,
    FinalStatusList(Status),
    Showboard,
    LoadSgf(String, Option<usize>),
    PrintSgf(Option<String>),
    Analyze(Analyze),
    GenmoveAnalyze(Analyze),
    GoguiAnalyzeCommands,
    GoguiOwnership,
    GoguiBestMoves,
}

/// Every command name we answer, in `list_commands` order.
pub const COMMAND_NAMES: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "kgs-rules",
    "kgs-game_over",
    "kgs-genmove_cleanup",
    "final_score",
    "final_status_list",
    "showboard",
    "loadsgf",
    "printsgf",
    "lz-analyze",
    "kata-analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "gogui-analyze_commands",
    "gogui-ownership",
    "gogui-best_moves",
];

/// GTP input pre-processing: control characters other than HT and LF removed, HT turned into a
/// space, everything from `#` dropped, surrounding white space trimmed.
#[must_use]
pub fn preprocess(line: &str) -> String {
    let mut text: String = line
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() && c != '\n' => None,
            c => Some(c),
        })
        .collect();
    if let Some(hash) = text.find('#') {
        text.truncate(hash);
    }
    text.trim().to_string()
}

/// A pre-processed, non-empty line split into its optional id and the command text.
#[must_use]
pub fn split_id(line: &str) -> (Option<u32>, &str) {
    let mut parts = line.splitn(2, ' ');
    let first = parts.next().unwrap_or_default();
    if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(id) = first.parse() {
            return (Some(id), parts.next().unwrap_or_default().trim());
        }
    }
    (None, line)
}

/// Whether an input line is a `quit` command (with or without an id, as sent).
pub fn is_quit(line: &str) -> bool {
    let text = preprocess(line);
    split_id(&text).1 == "quit"
}

fn number<T: FromStr>(word: Option<&&str>) -> Result<T, CommandError> {
    word.ok_or(CommandError::Syntax)?.parse().map_err(|_| CommandError::Syntax)
}

impl FromStr for Command {
    type Err = CommandError;

    /// Parses a pre-processed command text without its id.
    fn from_str(text: &str) -> Result<Command, CommandError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some((&name, args)) = words.split_first() else { return Err(CommandError::Unknown) };
        let color = || args.first().ok_or(CommandError::Syntax)?.parse::<Color>();
        let no_args = |command: Command| if args.is_empty() { Ok(command) } else { Err(CommandError::Syntax) };
        match name {
            "protocol_version" => no_args(Command::ProtocolVersion),
            "name" => no_args(Command::Name),
            "version" => no_args(Command::Version),
            "known_command" => match args {
                [command] => Ok(Command::KnownCommand((*command).to_string())),
                _ => Err(CommandError::Syntax),
            },
            "list_commands" => no_args(Command::ListCommands),
            "quit" => Ok(Command::Quit),
            "boardsize" => match args {
                [size] => Ok(Command::BoardSize(size.parse().map_err(|_| CommandError::Syntax)?)),
                _ => Err(CommandError::Syntax),
            },
            "clear_board" => no_args(Command::ClearBoard),
            "komi" => {
                let komi: f32 = number(args.first())?;
                if komi.is_finite() && args.len() == 1 {
                    Ok(Command::Komi(komi))
                } else {
                    Err(CommandError::Syntax)
                }
            }
            "play" => match args {
                [c, v] => Ok(Command::Play(c.parse()?, v.parse()?)),
                _ => Err(CommandError::Syntax),
            },
            "genmove" if args.len() == 1 => Ok(Command::Genmove(color()?)),
            "reg_genmove" if args.len() == 1 => Ok(Command::RegGenmove(color()?)),
            "kgs-genmove_cleanup" if args.len() == 1 => Ok(Command::KgsGenmoveCleanup(color()?)),
            "genmove" | "reg_genmove" | "kgs-genmove_cleanup" => Err(CommandError::Syntax),
            "undo" => no_args(Command::Undo),
            "fixed_handicap" if args.len() == 1 => Ok(Command::FixedHandicap(number(args.first())?)),
            "place_free_handicap" if args.len() == 1 => Ok(Command::PlaceFreeHandicap(number(args.first())?)),
            "fixed_handicap" | "place_free_handicap" => Err(CommandError::Syntax),
            "set_free_handicap" if !args.is_empty() => {
                Ok(Command::SetFreeHandicap(args.iter().map(|v| v.parse()).collect::<Result<_, _>>()?))
            }
            "set_free_handicap" => Err(CommandError::Syntax),
            "time_settings" if args.len() == 3 => {
                let (main, byo): (f64, f64) = (number(args.first())?, number(args.get(1))?);
                if main < 0.0 || byo < 0.0 || !main.is_finite() || !byo.is_finite() {
                    return Err(CommandError::Syntax);
                }
                Ok(Command::TimeSettings(main, byo, number(args.get(2))?))
            }
            "time_left" if args.len() == 3 => {
                let time: f64 = number(args.get(1))?;
                if !time.is_finite() {
                    return Err(CommandError::Syntax);
                }
                Ok(Command::TimeLeft(color()?, time.max(0.0), number(args.get(2))?))
            }
            "time_settings" | "time_left" => Err(CommandError::Syntax),
            "kgs-time_settings" => {
                let seconds = |index: usize| -> Result<f64, CommandError> {
                    let value: f64 = number(args.get(index))?;
                    if value.is_finite() && value >= 0.0 {
                        Ok(value)
                    } else {
                        Err(CommandError::Syntax)
                    }
                };
                let system = match (args.first().copied(), args.len()) {
                    (Some("none"), 1) => KgsTime::None,
                    (Some("absolute"), 2) => KgsTime::Absolute(seconds(1)?),
                    (Some("byoyomi"), 4) => {
                        KgsTime::Byoyomi { main: seconds(1)?, period: seconds(2)?, periods: number(args.get(3))? }
                    }
                    (Some("canadian"), 4) => {
                        KgsTime::Canadian { main: seconds(1)?, period: seconds(2)?, stones: number(args.get(3))? }
                    }
                    _ => return Err(CommandError::Syntax),
                };
                Ok(Command::KgsTimeSettings(system))
            }
            "kgs-rules" => match args {
                [rules] => Ok(Command::KgsRules((*rules).to_string())),
                _ => Err(CommandError::Syntax),
            },
            "kgs-game_over" => no_args(Command::KgsGameOver),
            "final_score" => no_args(Command::FinalScore),
            "final_status_list" => match args {
                ["alive"] => Ok(Command::FinalStatusList(Status::Alive)),
                ["dead"] => Ok(Command::FinalStatusList(Status::Dead)),
                ["seki"] => Ok(Command::FinalStatusList(Status::Seki)),
                _ => Err(CommandError::Syntax),
            },
            "showboard" => no_args(Command::Showboard),
            "loadsgf" => match args {
                [file] => Ok(Command::LoadSgf((*file).to_string(), None)),
                [file, number] => {
                    Ok(Command::LoadSgf((*file).to_string(), Some(number.parse().map_err(|_| CommandError::Syntax)?)))
                }
                _ => Err(CommandError::Syntax),
            },
            "printsgf" => match args {
                [] => Ok(Command::PrintSgf(None)),
                [file] => Ok(Command::PrintSgf(Some((*file).to_string()))),
                _ => Err(CommandError::Syntax),
            },
            "lz-analyze" => Ok(Command::Analyze(parse_analyze(AnalyzeKind::Lz, args)?)),
            "kata-analyze" => Ok(Command::Analyze(parse_analyze(AnalyzeKind::Kata, args)?)),
            "lz-genmove_analyze" => Ok(Command::GenmoveAnalyze(parse_analyze(AnalyzeKind::Lz, args)?)),
            "kata-genmove_analyze" => Ok(Command::GenmoveAnalyze(parse_analyze(AnalyzeKind::Kata, args)?)),
            "gogui-analyze_commands" => no_args(Command::GoguiAnalyzeCommands),
            "gogui-ownership" => no_args(Command::GoguiOwnership),
            "gogui-best_moves" => no_args(Command::GoguiBestMoves),
            _ => Err(CommandError::Unknown),
        }
    }
}

impl fmt::Display for Command {
    /// The command as a client sends it (without id).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::ProtocolVersion => f.write_str("protocol_version"),
            Command::Name => f.write_str("name"),
            Command::Version => f.write_str("version"),
            Command::KnownCommand(name) => write!(f, "known_command {name}"),
            Command::ListCommands => f.write_str("list_commands"),
            Command::Quit => f.write_str("quit"),
            Command::BoardSize(size) => write!(f, "boardsize {size}"),
            Command::ClearBoard => f.write_str("clear_board"),
            Command::Komi(komi) => write!(f, "komi {komi}"),
            Command::Play(color, vertex) => write!(f, "play {color} {vertex}"),
            Command::Genmove(color) => write!(f, "genmove {color}"),
            Command::RegGenmove(color) => write!(f, "reg_genmove {color}"),
            Command::Undo => f.write_str("undo"),
            Command::FixedHandicap(n) => write!(f, "fixed_handicap {n}"),
            Command::PlaceFreeHandicap(n) => write!(f, "place_free_handicap {n}"),
            Command::SetFreeHandicap(vertices) => {
                f.write_str("set_free_handicap")?;
                vertices.iter().try_for_each(|v| write!(f, " {v}"))
            }
            Command::TimeSettings(main, byo, stones) => write!(f, "time_settings {main} {byo} {stones}"),
            Command::TimeLeft(color, time, stones) => write!(f, "time_left {color} {time} {stones}"),
            Command::KgsTimeSettings(system) => match system {
                KgsTime::None => f.write_str("kgs-time_settings none"),
                KgsTime::Absolute(main) => write!(f, "kgs-time_settings absolute {main}"),
                KgsTime::Byoyomi { main, period, periods } => {
                    write!(f, "kgs-time_settings byoyomi {main} {period} {periods}")
                }
                KgsTime::Canadian { main, period, stones } => {
                    write!(f, "kgs-time_settings canadian {main} {period} {stones}")
                }
            },
            Command::KgsRules(rules) => write!(f, "kgs-rules {rules}"),
            Command::KgsGameOver => f.write_str("kgs-game_over"),
            Command::KgsGenmoveCleanup(color) => write!(f, "kgs-genmove_cleanup {color}"),
            Command::FinalScore => f.write_str("final_score"),
            Command::FinalStatusList(status) => {
                let name = match status {
                    Status::Alive => "alive",
                    Status::Dead => "dead",
                    Status::Seki => "seki",
                };
                write!(f, "final_status_list {name}")
            }
            Command::Showboard => f.write_str("showboard"),
            Command::LoadSgf(file, None) => write!(f, "loadsgf {file}"),
            Command::LoadSgf(file, Some(number)) => write!(f, "loadsgf {file} {number}"),
            Command::PrintSgf(None) => f.write_str("printsgf"),
            Command::PrintSgf(Some(file)) => write!(f, "printsgf {file}"),
            Command::Analyze(analyze) => {
                let name = if analyze.kind == AnalyzeKind::Lz { "lz-analyze" } else { "kata-analyze" };
                f.write_str(&analyze_text(name, analyze))
            }
            Command::GenmoveAnalyze(analyze) => {
                let name = if analyze.kind == AnalyzeKind::Lz { "lz-genmove_analyze" } else { "kata-genmove_analyze" };
                f.write_str(&analyze_text(name, analyze))
            }
            Command::GoguiAnalyzeCommands => f.write_str("gogui-analyze_commands"),
            Command::GoguiOwnership => f.write_str("gogui-ownership"),
            Command::GoguiBestMoves => f.write_str("gogui-best_moves"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_round_trip_through_text() {
        for text in [
            "play B D4",
            "genmove W",
            "boardsize 19",
            "time_settings 300 30 5",
            "kgs-time_settings byoyomi 600 30 5",
            "kgs-time_settings canadian 600 300 25",
            "kata-analyze B 50 ownership true",
            "lz-genmove_analyze W 20",
            "set_free_handicap D4 Q16",
            "final_status_list dead",
            "loadsgf game.sgf 12",
        ] {
            assert_eq!(text.parse::<Command>().unwrap().to_string(), text);
        }
    }

    #[test]
    fn preprocessing_and_ids() {
        assert_eq!(preprocess("  12\tplay b d4 # comment\u{1}"), "12 play b d4");
        assert_eq!(split_id("12 play b d4"), (Some(12), "play b d4"));
        assert_eq!(split_id("play b d4"), (None, "play b d4"));
        assert!(is_quit("quit") && is_quit(" 7 quit # bye\r") && !is_quit("quitting") && !is_quit("name"));
        assert_eq!("frobnicate".parse::<Command>(), Err(CommandError::Unknown));
        assert_eq!("play b".parse::<Command>(), Err(CommandError::Syntax));
        assert_eq!("play x d4".parse::<Command>(), Err(CommandError::Syntax));
        assert_eq!("play b i4".parse::<Command>(), Err(CommandError::Syntax));
        assert_eq!("boardsize x".parse::<Command>(), Err(CommandError::Syntax));
        assert_eq!("komi nan".parse::<Command>(), Err(CommandError::Syntax));
    }
}
