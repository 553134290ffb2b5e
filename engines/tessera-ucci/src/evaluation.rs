//! The evaluation options of both protocols. `evalfile` (UCCI) / `EvalFile` (UCI) names a network
//! file (`tessera train --game xiangqi`); empty or `<embedded>` is the network built into the
//! engine. `usennue` / `Use NNUE` (on by default) chooses the network, off the hand-crafted
//! evaluation. A file that cannot be used is refused and the current network kept.

use std::path::Path;
use std::sync::Arc;

use tessera_ucci_protocol as ucci;
use tessera_uci_protocol as uci;
use tessera_xiangqi::nnue::{default_network, load_network, Network, NetworkError, DEFAULT_NETWORK_NAME};
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

/// The evaluation a search uses: the network (from `file`) when `use_nnue`, else hand-crafted.
pub struct Evaluation {
    use_nnue: bool,
    file: String,
    network: Arc<Network>,
}

impl Default for Evaluation {
    fn default() -> Self {
        Evaluation { use_nnue: NNUE_BY_DEFAULT, file: DEFAULT_NETWORK_NAME.into(), network: default_network() }
    }
}

impl Evaluation {
    /// Loads the network in `value` (empty or `<embedded>`: the built-in one); returns the note for
    /// the GUI. On an error nothing changes.
    fn load(&mut self, value: Option<&str>) -> Result<String, NetworkError> {
        let file = value.unwrap_or_default().trim();
        let file = if file.is_empty() { DEFAULT_NETWORK_NAME } else { file };
        self.network = if file == DEFAULT_NETWORK_NAME { default_network() } else { load_network(Path::new(file))? };
        self.file = file.to_owned();
        Ok(format!("{FILE} {file} loaded ({} features, {} hidden)", self.network.feature_set(), self.network.hidden()))
    }

    /// Turns the network on or off; returns the note for the GUI.
    fn switch(&mut self, use_nnue: bool) -> String {
        self.use_nnue = use_nnue;
        if use_nnue {
            format!("NNUE evaluation using {}", self.file)
        } else {
            "hand-crafted evaluation".into()
        }
    }

    fn prepare(&self, position: &mut Position) {
        position.set_network(self.use_nnue.then(|| Arc::clone(&self.network)));
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
                let kept = self.file.clone();
                self.load(value).map(Some).map_err(|error| format!("{error}; keeping {kept}"))
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
                let kept = self.file.clone();
                self.load(value).map(Some).map_err(|error| uci::OptionError::Unusable {
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
