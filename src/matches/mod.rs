//! `tessera match`: plays two engines of one game against each other through their protocols.

mod chess;
pub mod cutechess;
mod go;
mod gomoku;
mod report;
mod xiangqi;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, ValueEnum};
use tessera_arena::report::{RecordText, ReportInput};
use tessera_arena::shard::{merge, standings, MergeError};
use tessera_arena::{
    result_of_first, run_match_shard, Adjudication, ContestantFactory, EngineSpec, GameRecord, GameSettings,
    MatchSettings, Referee, Shard, ShardResults, Sprt, Standings, TimeControl,
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

/// The order an `--openings` file is played in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum OpeningOrder {
    /// File order.
    #[default]
    Sequential,
    /// Shuffled once by `--openings-seed` (the same order in every run and every shard).
    Random,
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
    /// Opening file: EPD/FEN lines (chess, xiangqi) or move lists (gomoku, go), played in file
    /// order. Without it, the game's shipped balanced suite (`data/openings/`) is played.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Random openings of N plies (stones in gomoku) instead of the shipped suite. Random lines
    /// are often unbalanced: use them for testing, not to measure strength.
    #[arg(long, value_name = "N", conflicts_with = "openings")]
    pub random_openings: Option<usize>,
    /// Order of the `--openings` file: sequential (file order) or random.
    #[arg(long, value_enum, default_value_t = OpeningOrder::Sequential)]
    pub openings_order: OpeningOrder,
    /// Seed of the openings: the order of a shuffled `--openings` file or of the shipped suite, or
    /// the lines of `--random-openings`.
    #[arg(long, default_value_t = SUITE_ORDER_SEED)]
    pub openings_seed: u64,
    /// Play only shard I of N (from 0) of the game pairs and write their results to `--results`,
    /// for `tessera match-merge`. Give every shard the same options.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// The shard's result file (default: tessera-shard-I-of-N.txt).
    #[arg(long, requires = "shard")]
    pub results: Option<PathBuf>,
    /// Record file: PGN for chess and xiangqi, SGF for go and gomoku.
    #[arg(long, alias = "pgn", alias = "sgf")]
    pub record: Option<PathBuf>,
    /// Write a report into this folder when the match ends: a page that opens from disk in any
    /// browser, with the score and SPRT charts, the tables and a viewer of every game.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Stop early by SPRT on game pairs (pentanomial): "elo0=0 elo1=5 alpha=0.05 beta=0.05".
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
    /// The report could not be written.
    #[error("report: {0}")]
    Report(#[from] tessera_arena::report::ReportError),
    /// Shard result files that do not make one match.
    #[error("{}{source}", .path.as_ref().map(|path| format!("{}: ", path.display())).unwrap_or_default())]
    Merge {
        /// The file at fault, when one is.
        path: Option<PathBuf>,
        /// What is wrong.
        source: MergeError,
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
    /// The slice of the match to play, and where its results go.
    pub shard: Option<(Shard, PathBuf)>,
    /// The SPRT of a sharded match, for the merge (a shard itself never stops early).
    pub shard_sprt: Option<Sprt>,
    /// The report's folder, and the lines that describe the match in it.
    pub report: Option<(PathBuf, Vec<String>)>,
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
        if matches!(time_control, TimeControl::Gomocup { .. }) && self.game != GameKind::Gomoku {
            return Err(usage(format!("--tc {}: a Gomocup clock is for gomoku's pbrain engines", self.tc)));
        }
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
        let shard = self.shard.map(|shard| {
            let path = self
                .results
                .clone()
                .unwrap_or_else(|| PathBuf::from(format!("tessera-shard-{}-of-{}.txt", shard.index, shard.count)));
            (shard, path)
        });
        // A shard plays its slice whole: an early stop would leave the merge a biased sample.
        let (sprt, shard_sprt) = if shard.is_some() { (None, sprt) } else { (sprt, None) };
        let settings = MatchSettings {
            games: self.games.max(1),
            concurrency: self.concurrency.max(1),
            game: GameSettings { time_control, time_margin: Duration::from_millis(self.margin), adjudication },
            sprt,
        };
        let report = self.report.clone().map(|dir| (dir, self.description()));
        Ok(Common {
            engines,
            settings,
            log_dir: self.log_dir.clone(),
            record: self.record.clone(),
            shard,
            shard_sprt,
            report,
        })
    }

    /// The match in a few words for its report: the game, the time control, the games.
    fn description(&self) -> Vec<String> {
        let game = match self.game {
            GameKind::Chess => "chess".to_string(),
            GameKind::Xiangqi => "xiangqi".to_string(),
            GameKind::Gomoku => {
                format!("gomoku, {} rule, {}×{}", self.rule, self.size.unwrap_or(15), self.size.unwrap_or(15))
            }
            GameKind::Go => format!("go, {}×{}, komi {}", self.size.unwrap_or(9), self.size.unwrap_or(9), self.komi),
        };
        let mut line = format!("{game}; time control {}; {} games", self.tc, self.games.div_ceil(2) * 2);
        if let Some(shard) = self.shard {
            line.push_str(&format!("; shard {shard} of the pairs"));
        }
        if let Some(sprt) = &self.sprt {
            line.push_str(&format!("; SPRT {sprt}"));
        }
        vec![line]
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

/// Where the openings of a match come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// Opening lines to parse, in the order they are played: the `--openings` file in file order,
    /// or the game's shipped suite in a fixed shuffled order (so that a short match still spreads
    /// over many openings, and two runs play the same ones).
    Lines(Vec<String>),
    /// Random openings of `plies` plies (stones in gomoku; 0 is the start position), drawn with
    /// `seed`.
    Random {
        /// Plies (stones) per opening.
        plies: usize,
        /// The game's own seed XOR `--openings-seed`'s difference from its default, so that a run
        /// without it keeps the openings of earlier runs and another seed draws other lines.
        seed: u64,
    },
}

/// The seed of the shipped suites' playing order.
const SUITE_ORDER_SEED: u64 = 0x005E_ED0F_0BE1;

impl MatchArgs {
    /// The openings to play: `--openings FILE`, `--random-openings N`, or else the game's
    /// `shipped` suite (the text of its `data/openings/` file); a game without a suite plays
    /// random openings of `default_plies`. Random openings are drawn with the game's own
    /// `random_seed`, changed by `--openings-seed` when it is given.
    ///
    /// # Errors
    /// [`MatchError::File`] when the opening file cannot be read.
    pub fn opening_source(
        &self,
        shipped: Option<&'static str>,
        default_plies: usize,
        random_seed: u64,
    ) -> Result<OpeningSource, MatchError> {
        if let Some(path) = &self.openings {
            let text =
                std::fs::read_to_string(path).map_err(|source| MatchError::File { path: path.clone(), source })?;
            let mut lines = suite_lines(&text);
            if self.openings_order == OpeningOrder::Random {
                shuffle(&mut lines, self.openings_seed);
            }
            return Ok(OpeningSource::Lines(lines));
        }
        let seed = random_seed ^ self.openings_seed ^ SUITE_ORDER_SEED;
        if let Some(plies) = self.random_openings {
            return Ok(OpeningSource::Random { plies, seed });
        }
        Ok(shipped.map_or(OpeningSource::Random { plies: default_plies, seed }, |text| {
            let mut lines = suite_lines(text);
            shuffle(&mut lines, self.openings_seed);
            OpeningSource::Lines(lines)
        }))
    }
}

/// Shuffles `lines` in a fixed order for `seed` (Fisher–Yates).
fn shuffle(lines: &mut [String], seed: u64) {
    let mut rng = tessera_core::Rng::new(seed);
    for index in (1..lines.len()).rev() {
        lines.swap(index, rng.below(index + 1));
    }
}

/// The opening itself of a suite line: the text before its first `;`, after which come notes
/// (names, balance figures) or EPD operations.
#[must_use]
pub fn opening_text(line: &str) -> &str {
    line.split_once(';').map_or(line, |(opening, _)| opening)
}

/// The non-empty, non-comment lines of an opening file or suite.
#[must_use]
pub fn suite_lines(text: &str) -> Vec<String> {
    text.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#')).map(str::to_owned).collect()
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
    let games = common.settings.games.div_ceil(2) * 2;
    let shard = common.shard.as_ref().map_or(Shard::WHOLE, |(shard, _)| *shard);
    let total = shard.games(games).len() as u64;
    let progress = report::Progress::new(total, names.clone());
    let mut results = BTreeMap::new();
    let mut texts = String::new();
    let standings = run_match_shard(openings, &common.settings, shard, make, referee, |index, record, standings| {
        results.insert(index, result_of_first(index, record));
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
        let text = format_record(index, record);
        if let Some(file) = records.as_mut() {
            if let Err(error) = file.write_all(text.as_bytes()) {
                eprintln!("tessera match: cannot write the record: {error}");
            }
        }
        if common.report.is_some() {
            texts.push_str(&text);
        }
        progress.game_finished(&line, standings);
    });
    progress.finish();
    print!("{}", report::final_table(&names, &standings));
    if let Some((dir, details)) = &common.report {
        let name =
            common.record.as_ref().map_or_else(|| "the match's records".to_string(), |path| path.display().to_string());
        let input = ReportInput {
            title: format!("{} vs {}", names[0], names[1]),
            details: details.clone(),
            names: names.clone(),
            results: results.clone(),
            sprt: common.settings.sprt.or(common.shard_sprt),
            records: vec![RecordText { name, text: texts }],
        };
        write_report(dir, &input, "tessera match")?;
    }
    if let Some((shard, path)) = &common.shard {
        let file = ShardResults { names, games, shard: *shard, sprt: common.shard_sprt, results };
        std::fs::write(path, file.to_string()).map_err(|source| MatchError::File { path: path.clone(), source })?;
        println!("Shard {shard}: results in {} (tessera match-merge sums the shards)", path.display());
    }
    Ok(standings)
}

/// Writes a report and says where, with every problem of its records on stderr.
fn write_report(dir: &Path, input: &ReportInput, command: &str) -> Result<(), MatchError> {
    let written = tessera_arena::report::write(dir, input)?;
    for problem in &written.problems {
        eprintln!("{command}: report: {problem}");
    }
    println!(
        "Report: {} ({} games, {} in the viewer{})",
        written.page.display(),
        written.games,
        written.replayed,
        if written.problems.is_empty() { String::new() } else { format!(", {} problems", written.problems.len()) }
    );
    Ok(())
}

/// The report of a merged match: its charts from the merged results, its viewer from the shards'
/// `records`.
fn write_merged_report(
    dir: &Path,
    records: &[PathBuf],
    merged: &ShardResults,
    shards: usize,
) -> Result<(), MatchError> {
    let records = records
        .iter()
        .map(|path| {
            let text =
                std::fs::read_to_string(path).map_err(|source| MatchError::File { path: path.clone(), source })?;
            Ok(RecordText { name: path.display().to_string(), text })
        })
        .collect::<Result<Vec<_>, MatchError>>()?;
    let mut details = format!("{} games of {}, merged from {shards} shards", merged.results.len(), merged.games);
    if let Some(sprt) = &merged.sprt {
        details.push_str(&format!("; SPRT {sprt}"));
    }
    let input = ReportInput {
        title: format!("{} vs {}", merged.names[0], merged.names[1]),
        details: vec![details],
        names: merged.names.clone(),
        results: merged.results.clone(),
        sprt: merged.sprt,
        records,
    };
    write_report(dir, &input, "tessera match-merge")
}

/// `tessera match-merge`: the result files of every shard of one match.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The files written by `tessera match --shard I/N`, one per shard, in any order.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Write the merged match's report into this folder (see `tessera match --report`).
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// A shard's record file (its `--record`), for the report's game viewer; once per shard.
    #[arg(long = "record", value_name = "FILE", requires = "report")]
    pub records: Vec<PathBuf>,
}

/// Sums the shards' result files and prints the match's table, Elo and SPRT as one run would.
///
/// # Errors
/// [`MatchError::File`] when a file cannot be read, [`MatchError::Merge`] when the files are not
/// every shard of one match.
pub fn merge_shards(args: &MergeArgs) -> Result<Standings, MatchError> {
    let read = |path: &Path| -> Result<ShardResults, MatchError> {
        let text = std::fs::read_to_string(path).map_err(|source| MatchError::File { path: path.into(), source })?;
        text.parse().map_err(|source| MatchError::Merge { path: Some(path.into()), source })
    };
    let shards = args.files.iter().map(|path| read(path)).collect::<Result<Vec<_>, _>>()?;
    let merged = merge(&shards).map_err(|source| MatchError::Merge { path: None, source })?;
    let standings = standings(&merged.results, merged.sprt.as_ref());
    println!("{} games from {} shards", merged.results.len(), shards.len());
    print!("{}", report::final_table(&merged.names, &standings));
    if let Some(dir) = &args.report {
        write_merged_report(dir, &args.records, &merged, shards.len())?;
    }
    Ok(standings)
}

#[cfg(test)]
mod tests {
    use super::{opening_text, MatchArgs, OpeningSource};
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: MatchArgs,
    }

    fn args(extra: &[&str]) -> MatchArgs {
        let base = ["tessera", "--game", "chess", "--engine", "cmd=a", "--engine", "cmd=b"];
        Cli::try_parse_from(base.iter().chain(extra)).unwrap().args
    }

    const SUITE: &str = "# a suite\none\ntwo\n\nthree\nfour\nfive\n";

    #[test]
    fn the_shipped_suite_is_the_default_in_a_fixed_shuffled_order() {
        let OpeningSource::Lines(lines) = args(&[]).opening_source(Some(SUITE), 4, 9).unwrap() else {
            panic!("the suite is the default")
        };
        let mut sorted = lines.clone();
        sorted.sort();
        assert_eq!(sorted, ["five", "four", "one", "three", "two"]);
        assert_ne!(lines, ["one", "two", "three", "four", "five"], "shuffled");
        assert_eq!(args(&[]).opening_source(Some(SUITE), 4, 9).unwrap(), OpeningSource::Lines(lines), "reproducible");
    }

    #[test]
    fn notes_and_operations_after_a_semicolon_are_not_the_opening() {
        assert_eq!(opening_text("E5 G5 ; N01 ; tessera 50000 B 51%").trim(), "E5 G5");
        assert_eq!(opening_text("7,7 7,6 7,5"), "7,7 7,6 7,5");
    }

    #[test]
    fn random_openings_only_when_asked_or_without_a_suite() {
        let random = |extra: &[&str], shipped| args(extra).opening_source(shipped, 4, 9).unwrap();
        assert_eq!(random(&["--random-openings", "6"], Some(SUITE)), OpeningSource::Random { plies: 6, seed: 9 });
        assert_eq!(random(&[], None), OpeningSource::Random { plies: 4, seed: 9 });
        let OpeningSource::Random { seed, .. } = random(&["--random-openings", "6", "--openings-seed", "7"], None)
        else {
            panic!("random openings were asked for")
        };
        assert_ne!(seed, 9, "another --openings-seed draws other random openings");
        let both = ["tessera", "--game", "chess", "--engine", "cmd=a", "--engine", "cmd=b"].into_iter().chain([
            "--openings",
            "x.epd",
            "--random-openings",
            "4",
        ]);
        assert!(Cli::try_parse_from(both).is_err(), "a file and random openings exclude each other");
    }

    #[test]
    fn an_opening_file_is_played_in_file_order() {
        let path = std::env::temp_dir().join(format!("tessera-openings-{}.txt", std::process::id()));
        std::fs::write(&path, "b\n# comment\na\n").unwrap();
        let source = args(&["--openings", path.to_str().unwrap()]).opening_source(Some(SUITE), 4, 9).unwrap();
        assert_eq!(source, OpeningSource::Lines(vec!["b".into(), "a".into()]));
        std::fs::remove_file(&path).unwrap();
    }
}
