//! The evaluation option of both protocols: `evalfile` (UCCI) / `EvalFile` (UCI) names a network
//! file (`tessera train --game xiangqi`) to evaluate with; empty or `<empty>` is the hand-crafted
//! evaluation, the default. A file that cannot be used is refused and the current choice kept.

use std::path::Path;
use std::sync::Arc;

use tessera_ucci_protocol as ucci;
use tessera_uci_protocol as uci;
use tessera_xiangqi::nnue::{load_network, Network, NetworkError};
use tessera_xiangqi::Position;

/// The option's name in UCI; UCCI spells it in lower case.
const NAME: &str = "EvalFile";
/// The option's value for "no network", as both protocols write an empty string.
const NONE: &str = "<empty>";

/// The network the engine evaluates with, if any, and the file it came from.
#[derive(Default)]
pub struct Evaluation {
    choice: Option<(String, Arc<Network>)>,
}

impl Evaluation {
    /// What the option holds now.
    fn current(&self) -> &str {
        self.choice.as_ref().map_or(NONE, |(file, _)| file)
    }

    /// Switches to the network in `file` (or to the hand-crafted evaluation for an empty value);
    /// returns the note for the GUI. On an error nothing changes.
    fn choose(&mut self, value: Option<&str>) -> Result<String, NetworkError> {
        let file = value.unwrap_or_default().trim();
        if file.is_empty() || file == NONE {
            self.choice = None;
            return Ok("hand-crafted evaluation".into());
        }
        let network = load_network(Path::new(file))?;
        let note = format!("{NAME} {file} loaded ({} features, {} hidden)", network.feature_set(), network.hidden());
        self.choice = Some((file.to_owned(), network));
        Ok(note)
    }

    fn prepare(&self, position: &mut Position) {
        position.set_network(self.choice.as_ref().map(|(_, network)| Arc::clone(network)));
    }
}

impl ucci::GameOptions<Position> for Evaluation {
    fn declarations(&self) -> Vec<String> {
        vec![format!("{} type string default {NONE}", NAME.to_ascii_lowercase())]
    }

    fn set(&mut self, name: &str, value: Option<&str>) -> Option<Result<Option<String>, String>> {
        name.eq_ignore_ascii_case(NAME).then(|| {
            let kept = self.current().to_owned();
            self.choose(value).map(Some).map_err(|error| format!("{error}; keeping {kept}"))
        })
    }

    fn prepare(&self, position: &mut Position) {
        Evaluation::prepare(self, position);
    }
}

impl uci::GameOptions<Position> for Evaluation {
    fn declarations(&self) -> Vec<uci::OptionDecl> {
        vec![uci::OptionDecl { name: NAME.into(), kind: uci::OptionKind::Text(NONE.into()) }]
    }

    fn set(&mut self, name: &str, value: Option<&str>) -> Option<Result<Option<String>, uci::OptionError>> {
        name.eq_ignore_ascii_case(NAME).then(|| {
            let kept = self.current().to_owned();
            self.choose(value).map(Some).map_err(|error| uci::OptionError::Unusable {
                name: NAME.into(),
                kept,
                source: error.into(),
            })
        })
    }

    fn prepare(&self, position: &mut Position) {
        Evaluation::prepare(self, position);
    }
}
