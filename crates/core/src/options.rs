//! Options a game adds to those of the protocol that serves it, and the one implementation of the
//! evaluation options (a network file and a switch to the hand-crafted evaluation) that chess and
//! xiangqi offer over UCI and UCCI alike.
//!
//! A game describes its options ([`GameOption`]) and applies typed values ([`OptionValue`]); each
//! protocol declares them and reads their values in its own grammar (UCI
//! `option name EvalFile type string …`, UCCI `option evalfile type string …`, each with its own
//! words for true and false), so no game option is written once per protocol.

use std::error::Error;

/// What kind of value an option takes, with its default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// On or off.
    Check(bool),
    /// Free text (a file name).
    Text(String),
    /// A whole number within `min..=max`.
    Spin {
        /// The value at start.
        default: i64,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
}

/// One option a game adds to the protocol's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOption {
    /// The name as UCI writes it (`EvalFile`, `Use NNUE`); see [`GameOption::compact_name`].
    pub name: &'static str,
    /// Its kind and default.
    pub kind: OptionKind,
}

/// `name` in lower case without white space.
fn compact(name: &str) -> String {
    name.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase()
}

impl GameOption {
    /// Whether a GUI's `name` names this option: case and spaces do not count, since UCCI writes
    /// names without spaces and GUIs differ in case.
    #[must_use]
    pub fn is_named(&self, name: &str) -> bool {
        compact(name) == compact(self.name)
    }

    /// The name in lower case without spaces: UCCI's spelling (`usennue`).
    #[must_use]
    pub fn compact_name(&self) -> String {
        compact(self.name)
    }
}

/// A value for a game option, already read by the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionValue<'a> {
    /// For a [`OptionKind::Check`] option.
    Check(bool),
    /// For a [`OptionKind::Text`] option.
    Text(&'a str),
    /// For a [`OptionKind::Spin`] option, already within its bounds.
    Spin(i64),
}

/// Why a game refused a value; the option keeps its current value, which the message names.
#[derive(Debug, thiserror::Error)]
#[error("{reason}; keeping {kept}")]
pub struct OptionRefused {
    /// The value kept.
    pub kept: String,
    /// What was wrong with the new one, as the game found it.
    #[source]
    pub reason: Box<dyn Error + Send + Sync>,
}

/// The options a game adds, their values, and what they do to a position before a search.
pub trait GameOptions<G>: Send {
    /// The options, declared by the protocol after its own.
    fn options(&self) -> Vec<GameOption>;

    /// Applies `value` to `option`, one of [`GameOptions::options`] (a value of the option's
    /// kind); returns a note for the GUI.
    ///
    /// # Errors
    /// [`OptionRefused`] when the game cannot use the value; the option keeps its value.
    fn set(&mut self, option: &GameOption, value: OptionValue<'_>) -> Result<Option<String>, OptionRefused>;

    /// Readies a position a search starts from (e.g. attaches the chosen network).
    fn prepare(&self, position: &mut G);
}

/// No options: the game plays as it is.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoOptions;

impl<G> GameOptions<G> for NoOptions {
    fn options(&self) -> Vec<GameOption> {
        Vec::new()
    }

    /// Never called: no option is declared, so a protocol finds none to set.
    fn set(&mut self, _option: &GameOption, _value: OptionValue<'_>) -> Result<Option<String>, OptionRefused> {
        Ok(None)
    }

    fn prepare(&self, _position: &mut G) {}
}

/// Two sets of options side by side (chess: the evaluation's and the tablebases'): each value
/// goes to the set that declares the option.
impl<G, A: GameOptions<G>, B: GameOptions<G>> GameOptions<G> for (A, B) {
    fn options(&self) -> Vec<GameOption> {
        let mut options = self.0.options();
        options.extend(self.1.options());
        options
    }

    fn set(&mut self, option: &GameOption, value: OptionValue<'_>) -> Result<Option<String>, OptionRefused> {
        if self.0.options().iter().any(|own| own.name == option.name) {
            self.0.set(option, value)
        } else {
            self.1.set(option, value)
        }
    }

    fn prepare(&self, position: &mut G) {
        self.0.prepare(position);
        self.1.prepare(position);
    }
}

/// A game's choice between a learned network, built in or read from a file, and its hand-crafted
/// evaluation: what [`EvaluationOptions`] needs. The engines implement it once over
/// `tessera_nnue::NetworkChoice` (`engines/evaluation.rs`), which core, below the network crate,
/// cannot name.
pub trait EvaluationChoice: Send + 'static {
    /// The positions it evaluates.
    type Game;
    /// Why a network file could not be used.
    type Error: Error + Send + Sync + 'static;

    /// The network's file (`<embedded>` for the built-in one).
    fn file(&self) -> &str;

    /// Whether the network evaluates (else the hand-crafted evaluation does).
    fn enabled(&self) -> bool;

    /// Switches to the network in `file` (empty or `<embedded>`: the built-in one); returns the
    /// note for the GUI.
    ///
    /// # Errors
    /// When the file cannot be used; the current network is kept.
    fn load(&mut self, file: &str) -> Result<String, Self::Error>;

    /// Turns the network on or off.
    fn enable(&mut self, enabled: bool);

    /// What the switch tells the GUI when it turns the network off (`classical evaluation`).
    fn hand_crafted(&self) -> &str;

    /// Attaches the chosen evaluation to a position a search starts from.
    fn prepare(&self, position: &mut Self::Game);
}

/// The evaluation options: `EvalFile` (a network file, `<embedded>` for the built-in one) and
/// `Use NNUE` (off: the hand-crafted evaluation). A file that cannot be used is refused and the
/// current network kept.
pub struct EvaluationOptions<C> {
    choice: C,
    /// The file and the switch as they started: the declared defaults.
    defaults: (String, bool),
}

/// The file option.
const FILE: &str = "EvalFile";
/// The switch.
const SWITCH: &str = "Use NNUE";

impl<C: EvaluationChoice> EvaluationOptions<C> {
    /// The options over `choice`, whose file and switch are the declared defaults.
    pub fn new(choice: C) -> Self {
        let defaults = (choice.file().to_owned(), choice.enabled());
        EvaluationOptions { choice, defaults }
    }
}

impl<C: EvaluationChoice> GameOptions<C::Game> for EvaluationOptions<C> {
    fn options(&self) -> Vec<GameOption> {
        vec![
            GameOption { name: FILE, kind: OptionKind::Text(self.defaults.0.clone()) },
            GameOption { name: SWITCH, kind: OptionKind::Check(self.defaults.1) },
        ]
    }

    fn set(&mut self, option: &GameOption, value: OptionValue<'_>) -> Result<Option<String>, OptionRefused> {
        match value {
            OptionValue::Text(file) if option.name == FILE => {
                let kept = self.choice.file().to_owned();
                self.choice.load(file).map(Some).map_err(|error| OptionRefused { kept, reason: error.into() })
            }
            OptionValue::Check(enabled) => {
                self.choice.enable(enabled);
                Ok(Some(if enabled {
                    format!("NNUE evaluation using {}", self.choice.file())
                } else {
                    self.choice.hand_crafted().to_owned()
                }))
            }
            // The protocol reads a value of the option's kind: the switch never gets text.
            OptionValue::Text(_) | OptionValue::Spin(_) => Ok(None),
        }
    }

    fn prepare(&self, position: &mut C::Game) {
        self.choice.prepare(position);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A choice whose files are the names of networks that exist (`a`, `b`), as numbers.
    struct Files {
        file: String,
        enabled: bool,
    }

    #[derive(Debug, thiserror::Error)]
    #[error("no network {0}")]
    struct Missing(String);

    impl EvaluationChoice for Files {
        type Game = Option<String>;
        type Error = Missing;

        fn file(&self) -> &str {
            &self.file
        }
        fn enabled(&self) -> bool {
            self.enabled
        }
        fn load(&mut self, file: &str) -> Result<String, Missing> {
            if !["a", "b"].contains(&file) {
                return Err(Missing(file.to_owned()));
            }
            self.file = file.to_owned();
            Ok(format!("EvalFile {file} loaded"))
        }
        fn enable(&mut self, enabled: bool) {
            self.enabled = enabled;
        }
        fn hand_crafted(&self) -> &str {
            "hand-crafted evaluation"
        }
        fn prepare(&self, position: &mut Option<String>) {
            *position = self.enabled.then(|| self.file.clone());
        }
    }

    #[test]
    fn the_evaluation_options_load_refuse_and_switch() {
        let mut options = EvaluationOptions::new(Files { file: "a".into(), enabled: true });
        let [file, switch] = <[GameOption; 2]>::try_from(options.options()).expect("two options");
        assert_eq!(file.kind, OptionKind::Text("a".into()));
        assert!(switch.is_named("usennue") && switch.is_named("use nnue") && !switch.is_named("nnue"));
        assert_eq!(switch.compact_name(), "usennue");
        assert_eq!(options.set(&file, OptionValue::Text("b")).unwrap().as_deref(), Some("EvalFile b loaded"));
        let refused = options.set(&file, OptionValue::Text("c")).unwrap_err();
        assert_eq!(refused.to_string(), "no network c; keeping b");
        assert_eq!(
            options.set(&switch, OptionValue::Check(false)).unwrap().as_deref(),
            Some("hand-crafted evaluation")
        );
        let mut position = Some("x".to_owned());
        options.prepare(&mut position);
        assert_eq!(position, None);
        assert_eq!(options.set(&switch, OptionValue::Check(true)).unwrap().as_deref(), Some("NNUE evaluation using b"));
        options.prepare(&mut position);
        assert_eq!(position.as_deref(), Some("b"));
        // The declared defaults stay those the options started with.
        assert_eq!(options.options()[0].kind, OptionKind::Text("a".into()));
    }
}
