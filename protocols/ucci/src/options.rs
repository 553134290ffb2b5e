//! The UCCI engine options: what the boot answer declares and what `setoption` changes. (A
//! xiangqi engine's UCI options are `tessera-uci-protocol`'s; the options a game adds are core's
//! `GameOptions`, declared by the session.)

use std::time::Duration;

use tessera_core::{memory, EngineOptions};

/// How much the engine varies its choice among nearly equal moves (UCCI `randomness`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Randomness {
    /// Always the best move.
    #[default]
    None,
    /// Moves within 5 units of the best.
    Small,
    /// Moves within 15 units.
    Medium,
    /// Moves within 30 units.
    Large,
}

impl Randomness {
    /// The largest score loss (100 = a horse) a varied move may have.
    #[must_use]
    pub fn margin(self) -> i32 {
        match self {
            Randomness::None => 0,
            Randomness::Small => 5,
            Randomness::Medium => 15,
            Randomness::Large => 30,
        }
    }
}

/// Every option the session keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// UCCI `usemillisec`: `go time` values are milliseconds instead of seconds.
    pub use_millisec: bool,
    /// UCCI `batch`: read nothing while thinking.
    pub batch: bool,
    /// `debug`: extra `info message` lines.
    pub debug: bool,
    /// `ponder`: the GUI may ask us to ponder (we also send `ponder` moves regardless).
    pub ponder: bool,
    /// Search threads.
    pub threads: usize,
    /// Hash table MiB.
    pub hash_mb: usize,
    /// Time kept back for the GUI and pipes.
    pub move_overhead: Duration,
    /// UCCI `randomness`.
    pub randomness: Randomness,
    /// The hash maximum advertised and enforced: what this machine can give
    /// ([`memory::max_table_mb`]), read once so that the boot answer and `setoption` agree.
    pub hash_max_mb: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            use_millisec: false,
            batch: false,
            debug: false,
            ponder: false,
            threads: 1,
            hash_mb: 16,
            move_overhead: Duration::from_millis(30),
            randomness: Randomness::None,
            hash_max_mb: memory::max_table_mb(),
        }
    }
}

/// What a `setoption` asks besides changing a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionEffect {
    /// A value changed (or an accepted option that has no effect here).
    Set,
    /// The search options changed: apply them to the searcher.
    Engine,
    /// `newgame`: forget the game.
    NewGame,
    /// The option is unknown (not an error in UCCI: logged only).
    Unknown,
    /// The value could not be read.
    BadValue(ValueError),
}

/// Why an option's value could not be read; the option keeps its value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// A check option given something else than true or false.
    #[error("'{0}' is not true or false")]
    NotABoolean(String),
    /// A spin option without a value.
    #[error("a number is needed")]
    NoNumber,
    /// A spin option given something else than a whole number.
    #[error("'{0}' is not a number")]
    NotANumber(String),
    /// A combo option given none of its choices.
    #[error("{name} '{given}'")]
    NoSuchChoice {
        /// The option.
        name: &'static str,
        /// What was given.
        given: String,
    },
}

/// The UCCI boot answer's option lines (without the leading `option `); `hashsize` is declared
/// apart, with the machine's maximum ([`Options::ucci_declarations`]).
pub const UCCI_OPTIONS: [&str; 15] = [
    "usemillisec type check default false",
    "batch type check default false",
    "debug type check default false",
    "ponder type check default false",
    "usebook type check default false",
    "useegtb type check default false",
    "bookfiles type string default <empty>",
    "egtbpaths type string default <empty>",
    "threads type spin min 0 max 64 default 1",
    "idle type combo var none var small var medium var large default none",
    "promotion type check default false",
    "pruning type combo var none var small var medium var large default large",
    "knowledge type combo var none var small var medium var large default large",
    "randomness type combo var none var small var medium var large default none",
    "newgame type button",
];

/// The value of a `check` option: `true`, `on` or `1` (or no value), `false`, `off` or `0`.
///
/// # Errors
/// [`ValueError::NotABoolean`] for any other value.
pub fn check_value(value: Option<&str>) -> Result<bool, ValueError> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        Some("true" | "on" | "1") | None => Ok(true),
        Some("false" | "off" | "0") => Ok(false),
        Some(other) => Err(ValueError::NotABoolean(other.to_owned())),
    }
}

fn flag(value: Option<&str>) -> Result<bool, OptionEffect> {
    check_value(value).map_err(OptionEffect::BadValue)
}

fn spin(value: Option<&str>, min: u64, max: u64) -> Result<u64, OptionEffect> {
    let text = value.ok_or(OptionEffect::BadValue(ValueError::NoNumber))?;
    let number: u64 = text.parse().map_err(|_| OptionEffect::BadValue(ValueError::NotANumber(text.to_owned())))?;
    Ok(number.clamp(min, max))
}

impl Options {
    /// The UCCI boot answer's option lines (without the leading `option `).
    #[must_use]
    pub fn ucci_declarations(&self) -> Vec<String> {
        let mut lines: Vec<String> = UCCI_OPTIONS.iter().map(|line| (*line).to_string()).collect();
        // After `egtbpaths`, where ElephantEye declares it.
        lines.insert(8, format!("hashsize type spin min 0 max {} default 16", self.hash_max_mb));
        lines
    }

    /// Applies `setoption <name> <value>` (names compared without case and spaces).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> OptionEffect {
        let key: String = name.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
        let result = match key.as_str() {
            "usemillisec" => flag(value).map(|on| self.use_millisec = on).map(|()| OptionEffect::Set),
            "batch" => flag(value).map(|on| self.batch = on).map(|()| OptionEffect::Set),
            "debug" => flag(value).map(|on| self.debug = on).map(|()| OptionEffect::Set),
            "ponder" => flag(value).map(|on| self.ponder = on).map(|()| OptionEffect::Set),
            // UCCI `hashsize 0` means "choose for me".
            "hashsize" => spin(value, 0, self.hash_max_mb as u64)
                .map(|mb| self.hash_mb = if mb == 0 { 16 } else { mb as usize })
                .map(|()| OptionEffect::Engine),
            // UCCI `threads 0` means "as many as there are cores".
            "threads" => spin(value, 0, 64)
                .map(|threads| {
                    let auto = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
                    self.threads = if threads == 0 { auto } else { threads as usize };
                })
                .map(|()| OptionEffect::Engine),
            "randomness" => match value.map(str::to_ascii_lowercase).as_deref() {
                Some("none") => Ok(Randomness::None),
                Some("small") => Ok(Randomness::Small),
                Some("medium") => Ok(Randomness::Medium),
                Some("large") => Ok(Randomness::Large),
                other => Err(OptionEffect::BadValue(ValueError::NoSuchChoice {
                    name: "randomness",
                    given: other.unwrap_or_default().to_owned(),
                })),
            }
            .map(|randomness| self.randomness = randomness)
            .map(|()| OptionEffect::Set),
            "newgame" => Ok(OptionEffect::NewGame),
            // Accepted with no effect: we have no book, no tablebases, no promotion variant,
            // and the search has one strength setting.
            "usebook" | "useegtb" | "bookfiles" | "egtbpaths" | "evalapi" | "idle" | "promotion" | "pruning"
            | "knowledge" | "style" => Ok(OptionEffect::Set),
            _ => Ok(OptionEffect::Unknown),
        };
        result.unwrap_or_else(|effect| effect)
    }

    /// The searcher's share of the options.
    #[must_use]
    pub fn engine_options(&self) -> EngineOptions {
        EngineOptions { threads: self.threads, hash_mb: self.hash_mb, multipv: 1, move_overhead: self.move_overhead }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_set_their_values() {
        let mut options = Options::default();
        assert_eq!(options.set("usemillisec", Some("true")), OptionEffect::Set);
        assert!(options.use_millisec);
        assert_eq!(options.set("hashsize", Some("64")), OptionEffect::Engine);
        assert_eq!(options.hash_mb, 64);
        assert_eq!(options.set("hashsize", Some("0")), OptionEffect::Engine);
        assert_eq!(options.hash_mb, 16);
        assert_eq!(options.set("randomness", Some("medium")), OptionEffect::Set);
        assert_eq!(options.randomness.margin(), 15);
        assert_eq!(options.set("newgame", None), OptionEffect::NewGame);
        assert_eq!(options.set("promotion", Some("false")), OptionEffect::Set);
        assert_eq!(options.set("whatever", Some("1")), OptionEffect::Unknown);
        assert!(matches!(options.set("batch", Some("maybe")), OptionEffect::BadValue(_)));
        assert!(matches!(options.set("threads", Some("x")), OptionEffect::BadValue(_)));
    }
}
