//! `tessera match`: plays two engines of one game against each other through their protocols.

mod chess;
mod go;
mod gomoku;
mod report;
mod xiangqi;

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};
use tessera_arena::{
    run_match, Adjudication, ContestantFactory, EngineSpec, GameRecord, GameSettings, MatchSettings, Referee, Sprt,
    Standings, TimeControl,
};
use tessera_core::Game;

/// The games `tessera match` can referee.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameKind {
    /// Chess over UCI.
    Chess,
    /// Xiangqi over UCCI or UCI.
    Xiangqi,
    /// Gomoku and renju over pbrain or AGI.
    Gomoku,
    /// Go over GTP.
    Go,
}

/// Everything `tessera match` accepts.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The game to play.
    #[arg(long, value_enum)]
    pub game: GameKind,
    /// An engine, twice: "cmd=PATH [name=N] [arg=A]… [dir=D] [proto=P] [option.NAME=V]…".
    #[arg(long = "engine", required = true, num_args = 1)]
    pub engines: Vec<String>,
    /// Time control: 5+0.05, 40/60+0, st=0.5, depth=8 or nodes=10000.
    #[arg(long, default_value = "5+0.05")]
    pub tc: String,
    /// Games to play (rounded up to pairs: each opening is played with both colours).
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Opening file: EPD/FEN lines (chess, xiangqi) or move lists (gomoku, go).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Record file: PGN for chess and xiangqi, SGF for go and gomoku.
    #[arg(long, alias = "pgn", alias = "sgf")]
    pub record: Option<PathBuf>,
    /// Stop early by SPRT: "elo0=0 elo1=5 alpha=0.05 beta=0.05".
    #[arg(long)]
    pub sprt: Option<String>,
    /// Milliseconds a move may exceed the clock before it loses on time.
    #[arg(long, default_value_t = 100)]
    pub margin: u64,
    /// Adjudicate a loss after both engines agree for this many moves that a side is losing.
    #[arg(long)]
    pub resign_moves: Option<u32>,
    /// Centipawns for resign adjudication.
    #[arg(long, default_value_t = 1000)]
    pub resign_score: i32,
    /// Adjudicate a draw after both engines score near zero for this many moves.
    #[arg(long)]
    pub draw_moves: Option<u32>,
    /// Centipawns around zero for draw adjudication.
    #[arg(long, default_value_t = 10)]
    pub draw_score: i32,
    /// Plies before draw adjudication may apply.
    #[arg(long, default_value_t = 80)]
    pub draw_after: usize,
    /// Draw a game that reaches this many plies.
    #[arg(long)]
    pub max_plies: Option<usize>,
    /// Gomoku rule: freestyle, standard, renju or caro.
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// Board size (gomoku, go).
    #[arg(long)]
    pub size: Option<usize>,
    /// Komi (go).
    #[arg(long, default_value_t = 7.5)]
    pub komi: f32,
    /// A GTP engine that scores finished go games ("cmd=gnugo arg=--mode arg=gtp").
    #[arg(long)]
    pub referee: Option<String>,
    /// Folder for one conversation log per engine process (both directions and stderr).
    #[arg(long)]
    pub log_dir: Option<PathBuf>,
}

/// Why a match could not start.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A command-line value is wrong.
    #[error("{0}")]
    Usage(String),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

/// The parts of the arguments every game shares, checked.
pub struct Common {
    /// The two engines.
    pub engines: [EngineSpec; 2],
    /// Match settings.
    pub settings: MatchSettings,
    /// Where conversation logs go.
    pub log_dir: Option<PathBuf>,
    /// The record file.
    pub record: Option<PathBuf>,
}

impl MatchArgs {
    /// Checks the arguments shared by all games.
    ///
    /// # Errors
    /// [`MatchError::Usage`] with the reason.
    pub fn common(&self) -> Result<Common, MatchError> {
        let usage = |text: String| MatchError::Usage(text);
        let [first, second] = self.engines.as_slice() else {
            return Err(usage(format!("a match needs exactly two --engine, got {}", self.engines.len())));
        };
        let parse = |text: &String| text.parse::<EngineSpec>().map_err(|error| usage(error.to_string()));
        let mut engines = [parse(first)?, parse(second)?];
        if engines[0].name == engines[1].name {
            engines[1].name.push_str("-2");
        }
        let time_control: TimeControl =
            self.tc.parse().map_err(|error: tessera_arena::time_control::TimeControlError| usage(error.to_string()))?;
        let sprt = match &self.sprt {
            Some(text) => Some(text.parse::<Sprt>().map_err(|error| usage(error.to_string()))?),
            None => None,
        };
        if let Some(dir) = &self.log_dir {
            std::fs::create_dir_all(dir).map_err(|source| MatchError::File { path: dir.clone(), source })?;
        }
        let adjudication = Adjudication {
            resign_moves: self.resign_moves,
            resign_score: self.resign_score,
            draw_moves: self.draw_moves,
            draw_score: self.draw_score,
            draw_after_ply: self.draw_after,
            max_plies: self.max_plies,
        };
        let settings = MatchSettings {
            games: self.games.max(1),
            concurrency: self.concurrency.max(1),
            game: GameSettings { time_control, time_margin: Duration::from_millis(self.margin), adjudication },
            sprt,
        };
        Ok(Common { engines, settings, log_dir: self.log_dir.clone(), record: self.record.clone() })
    }
}

impl Common {
    /// The conversation log of engine 0 or 1, when logs were asked for.
    #[must_use]
    pub fn log_path(&self, engine: usize) -> Option<PathBuf> {
        self.log_dir.as_ref().map(|dir| dir.join(format!("{}-{engine}.log", self.engines[engine].name)))
    }
}

/// Runs the match the arguments describe and prints its table.
///
/// # Errors
/// When the arguments are wrong or the match cannot start.
pub fn run(args: &MatchArgs) -> Result<Standings, MatchError> {
    match args.game {
        GameKind::Go => go::run(args),
        GameKind::Xiangqi => xiangqi::run(args),
        GameKind::Chess => chess::run(args),
        GameKind::Gomoku => gomoku::run(args),
    }
}

/// Opens (creates or appends to) the record file, if one was asked for.
fn record_file(path: Option<&PathBuf>) -> Result<Option<std::fs::File>, MatchError> {
    path.map(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|source| MatchError::File { path: path.clone(), source })
    })
    .transpose()
}

/// Reads the non-empty, non-comment lines of an opening file.
///
/// # Errors
/// [`MatchError::File`] when it cannot be read.
pub fn opening_lines(path: &PathBuf) -> Result<Vec<String>, MatchError> {
    let text = std::fs::read_to_string(path).map_err(|source| MatchError::File { path: path.clone(), source })?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_owned)
        .collect())
}

/// Plays the match, showing progress, appending each game as `format_record` writes it to the
/// record file (if any), and printing the final table. Returns the standings.
///
/// # Errors
/// [`MatchError::File`] when the record file cannot be opened.
pub fn play<G: Game>(
    common: &Common,
    openings: &[G],
    make: &ContestantFactory<'_, G>,
    referee: Option<&Referee<'_, G>>,
    format_record: impl Fn(u32, &GameRecord<G>) -> String,
) -> Result<Standings, MatchError> {
    let mut records = record_file(common.record.as_ref())?;
    let names = [common.engines[0].name.clone(), common.engines[1].name.clone()];
    let total = u64::from(common.settings.games.div_ceil(2) * 2);
    let progress = report::Progress::new(total, names.clone());
    let standings = run_match(openings, &common.settings, make, referee, |index, record, standings| {
        let result = match record.outcome {
            tessera_core::Outcome::Win(tessera_core::Side::First) => "1-0",
            tessera_core::Outcome::Win(tessera_core::Side::Second) => "0-1",
            tessera_core::Outcome::Draw => "1/2-1/2",
        };
        let line = format!(
            "Game {} ({} vs {}): {result} {{{}}}",
            index + 1,
            record.names[0],
            record.names[1],
            record.termination
        );
        if let Some(file) = records.as_mut() {
            if let Err(error) = file.write_all(format_record(index, record).as_bytes()) {
                eprintln!("tessera match: cannot write the record: {error}");
            }
        }
        progress.game_finished(&line, standings);
    });
    progress.finish();
    print!("{}", report::final_table(&names, &standings));
    Ok(standings)
}
