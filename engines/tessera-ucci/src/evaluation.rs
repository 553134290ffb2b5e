//! The evaluation options of both protocols. `evalfile` (UCCI) / `EvalFile` (UCI) names a network
//! file (`tessera train --game xiangqi`); empty or `<embedded>` is the network built into the
//! engine. `usennue` / `Use NNUE` (on by default) chooses the network, off the hand-crafted
//! evaluation. A file that cannot be used is refused and the current network kept.

use std::sync::Arc;

use tessera_ucci_protocol as ucci;
use tessera_uci_protocol as uci;
use tessera_xiangqi::nnue::{default_network, Network, NetworkChoice, DEFAULT_NETWORK, DEFAULT_NETWORK_NAME};
use tessera_xiangqi::Position;

/// Whether the network evaluates unless told otherwise: the embedded network beats the tuned
/// hand-crafted evaluation (docs/xiangqi.md, strength log), and `bench` searches with it.
const NNUE_BY_DEFAULT: bool = true;
/// The file option's name in UCI; UCCI spells it in lower case.
const FILE: &str = "EvalFile";
/// The switch's name in UCI; UCCI's is the same without space and case (`usennue`).
const SWITCH: &str = "Use NNUE";

/// The network a search starts with before any option is set (what `bench` searches with).
pub fn default_choice() -> Option<Arc<Network>> {
    NNUE_BY_DEFAULT.then(default_network)
}

/// Which of the two options a `setoption` name is (any case, spaces ignored).
enum Setting {
    File,
    Switch,
}

impl Setting {
    fn of(name: &str) -> Option<Setting> {
        let key: String = name.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
        match key.as_str() {
            "evalfile" => Some(Setting::File),
            "usennue" => Some(Setting::Switch),
            _ => None,
        }
    }
}

/// The evaluation a search uses: the chosen network, or the hand-crafted evaluation when it is off.
pub struct Evaluation(NetworkChoice);

impl Default for Evaluation {
    fn default() -> Self {
        Evaluation(NetworkChoice::new(&DEFAULT_NETWORK, NNUE_BY_DEFAULT))
    }
}

impl Evaluation {
    /// Turns the network on or off; returns the note for the GUI.
    fn switch(&mut self, use_nnue: bool) -> String {
        self.0.enable(use_nnue);
        if use_nnue {
            format!("NNUE evaluation using {}", self.0.file())
        } else {
            "hand-crafted evaluation".into()
        }
    }

    fn prepare(&self, position: &mut Position) {
        position.set_network(self.0.active());
    }
}

impl ucci::GameOptions<Position> for Evaluation {
    fn declarations(&self) -> Vec<String> {
        vec![
            format!("{} type string default {DEFAULT_NETWORK_NAME}", FILE.to_ascii_lowercase()),
            format!("usennue type check default {NNUE_BY_DEFAULT}"),
        ]
    }

    fn set(&mut self, name: &str, value: Option<&str>) -> Option<Result<Option<String>, String>> {
        Setting::of(name).map(|setting| match setting {
            Setting::File => {
                let kept = self.0.file().to_owned();
                self.0.load(value.unwrap_or_default()).map(Some).map_err(|error| format!("{error}; keeping {kept}"))
            }
            Setting::Switch => ucci::check_value(value).map(|on| Some(self.switch(on))),
        })
    }

    fn prepare(&self, position: &mut Position) {
        Evaluation::prepare(self, position);
    }
}

impl uci::GameOptions<Position> for Evaluation {
    fn declarations(&self) -> Vec<uci::OptionDecl> {
        vec![
            uci::OptionDecl { name: FILE.into(), kind: uci::OptionKind::Text(DEFAULT_NETWORK_NAME.into()) },
            uci::OptionDecl { name: SWITCH.into(), kind: uci::OptionKind::Check(NNUE_BY_DEFAULT) },
        ]
    }

    fn set(&mut self, name: &str, value: Option<&str>) -> Option<Result<Option<String>, uci::OptionError>> {
        Setting::of(name).map(|setting| match setting {
            Setting::File => {
                let kept = self.0.file().to_owned();
                self.0.load(value.unwrap_or_default()).map(Some).map_err(|error| uci::OptionError::Unusable {
                    name: FILE.into(),
                    kept,
                    source: error.into(),
                })
            }
            Setting::Switch => uci::check_value(SWITCH, value).map(|on| Some(self.switch(on))),
        })
    }

    fn prepare(&self, position: &mut Position) {
        Evaluation::prepare(self, position);
    }
}
