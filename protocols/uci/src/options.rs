//! The options the engine offers, their values, and `setoption` handling.

use std::ops::RangeInclusive;
use std::time::Duration;

use tessera_core::{memory, EngineOptions, OptionRefused};

use crate::response::{OptionDecl, OptionKind};

/// Every option value of a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Threads, Hash, MultiPV, Move Overhead.
    pub engine: EngineOptions,
    /// `Ponder` (the GUI's business; stored only).
    pub ponder: bool,
    /// `UCI_Chess960`.
    pub chess960: bool,
    /// `UCI_ShowWDL`.
    pub show_wdl: bool,
    /// `UCI_LimitStrength`.
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub elo: u32,
    /// The range `UCI_Elo` offers (the engine's strength limiter's).
    pub elo_range: RangeInclusive<u32>,
    /// `UCI_AnalyseMode` (stored; the search is the same in analysis).
    pub analyse_mode: bool,
    /// The `Hash` maximum advertised and enforced: what this machine can give
    /// ([`memory::max_table_mb`]), read once so that `uci` and `setoption` agree.
    pub hash_max_mb: usize,
}

/// Why a `setoption` was refused (the option keeps its value); the text goes out as `info string`.
#[derive(Debug, thiserror::Error)]
pub enum OptionError {
    /// No option of that name.
    #[error("unknown option {0}")]
    Unknown(String),
    /// A spin or text option without `value`.
    #[error("option {0} needs a value")]
    NoValue(String),
    /// A check option given something else than `true` or `false`.
    #[error("option {name} needs true or false, not {given}")]
    NotABoolean {
        /// The option.
        name: String,
        /// What was given (`nothing` when no value).
        given: String,
    },
    /// A spin option given something else than a whole number.
    #[error("option {name}: '{given}' is not a number")]
    NotANumber {
        /// The option.
        name: String,
        /// What was given.
        given: String,
    },
    /// The game could not use the value (e.g. an unreadable network file).
    #[error("{name} {refused}")]
    Refused {
        /// The option.
        name: String,
        /// Why, and the value kept.
        #[source]
        refused: OptionRefused,
    },
}

/// Reads a check option's value: `true` or `false` in any case.
///
/// # Errors
/// [`OptionError::NotABoolean`] for anything else.
pub fn check_value(name: &str, value: Option<&str>) -> Result<bool, OptionError> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        other => Err(OptionError::NotABoolean { name: name.into(), given: other.unwrap_or("nothing").into() }),
    }
}

/// A spin option's `value`: a whole number, clamped into `min..=max` with a note saying so.
///
/// # Errors
/// [`OptionError::NoValue`] or [`OptionError::NotANumber`].
pub fn spin_value(name: &str, value: Option<&str>, min: i64, max: i64) -> Result<(i64, Option<String>), OptionError> {
    let text = value.ok_or_else(|| OptionError::NoValue(name.into()))?;
    let number: i64 =
        text.trim().parse().map_err(|_| OptionError::NotANumber { name: name.into(), given: text.into() })?;
    let clamped = number.clamp(min, max);
    let note = (clamped != number).then(|| format!("option {name}: {number} clamped to {clamped}"));
    Ok((clamped, note))
}

/// What a `setoption` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A value changed; the searcher must hear of it before the next search.
    Engine,
    /// A session-level value changed (notation, reporting).
    Session,
    /// `Clear Hash` was pressed.
    ClearHash,
}

impl Options {
    /// Defaults, with the hash size and thread count from the command line and the engine's
    /// `UCI_Elo` range.
    #[must_use]
    pub fn new(engine: EngineOptions, elo_range: RangeInclusive<u32>) -> Options {
        Options {
            engine,
            ponder: false,
            chess960: false,
            show_wdl: false,
            limit_strength: false,
            elo: 1500,
            elo_range,
            analyse_mode: false,
            hash_max_mb: memory::max_table_mb(),
        }
    }

    /// The `option` lines of `uci`; `UCI_Chess960` only for a game that has a Chess960 form.
    #[must_use]
    pub fn declarations(&self, chess960: bool) -> Vec<OptionDecl> {
        let spin = |name: &str, default: usize, min: i64, max: i64| OptionDecl {
            name: name.into(),
            kind: OptionKind::Spin { default: default as i64, min, max },
        };
        let check = |name: &str, default: bool| OptionDecl { name: name.into(), kind: OptionKind::Check(default) };
        let declarations = vec![
            spin("Threads", self.engine.threads, 1, 256),
            spin("Hash", self.engine.hash_mb.min(self.hash_max_mb), 1, self.hash_max_mb as i64),
            OptionDecl { name: "Clear Hash".into(), kind: OptionKind::Button },
            check("Ponder", false),
            spin("MultiPV", 1, 1, 500),
            spin("Move Overhead", 30, 0, 5_000),
            check("UCI_Chess960", false),
            check("UCI_ShowWDL", false),
            check("UCI_LimitStrength", false),
            spin("UCI_Elo", 1500, i64::from(*self.elo_range.start()), i64::from(*self.elo_range.end())),
            check("UCI_AnalyseMode", false),
        ];
        declarations.into_iter().filter(|option| chess960 || option.name != "UCI_Chess960").collect()
    }

    /// Applies `setoption name <name> value <value>`.
    ///
    /// # Errors
    /// An unknown option or a bad value. Spin values out of range are clamped and reported
    /// through the `Ok` note.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(Change, Option<String>), OptionError> {
        let key = name.to_ascii_lowercase();
        let flag = || check_value(name, value);
        let spin = |min: i64, max: i64| spin_value(name, value, min, max);
        let (change, note) = match key.as_str() {
            "threads" => {
                let (threads, note) = spin(1, 256)?;
                self.engine.threads = threads as usize;
                (Change::Engine, note)
            }
            "hash" => {
                let (hash, note) = spin(1, self.hash_max_mb as i64)?;
                self.engine.hash_mb = hash as usize;
                (Change::Engine, note)
            }
            "multipv" => {
                let (lines, note) = spin(1, 500)?;
                self.engine.multipv = lines as usize;
                (Change::Engine, note)
            }
            "move overhead" => {
                let (millis, note) = spin(0, 5_000)?;
                self.engine.move_overhead = Duration::from_millis(millis as u64);
                (Change::Engine, note)
            }
            "uci_elo" => {
                let (elo, note) = spin(i64::from(*self.elo_range.start()), i64::from(*self.elo_range.end()))?;
                self.elo = elo as u32;
                (Change::Engine, note)
            }
            "uci_limitstrength" => {
                self.limit_strength = flag()?;
                (Change::Engine, None)
            }
            "clear hash" => (Change::ClearHash, None),
            "ponder" => {
                self.ponder = flag()?;
                (Change::Session, None)
            }
            "uci_chess960" => {
                self.chess960 = flag()?;
                (Change::Session, None)
            }
            "uci_showwdl" => {
                self.show_wdl = flag()?;
                (Change::Session, None)
            }
            "uci_analysemode" => {
                self.analyse_mode = flag()?;
                (Change::Session, None)
            }
            _ if key.starts_with("uci_") => (Change::Session, None), // reserved names we do not offer
            _ => return Err(OptionError::Unknown(name.into())),
        };
        Ok((change, note))
    }

    /// The strength the searcher should play at.
    #[must_use]
    pub fn strength(&self) -> Option<u32> {
        self.limit_strength.then_some(self.elo)
    }
}
