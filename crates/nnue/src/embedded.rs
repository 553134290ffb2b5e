//! An engine's built-in network, and the choice its options make between that network, a network
//! file and the game's hand-crafted evaluation.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::network::{Network, NetworkError};

/// How an engine's embedded default network is named in messages and `EvalFile` options.
pub const EMBEDDED_NAME: &str = "<embedded>";

/// A network file compiled into an engine, decoded on first use and shared from then on.
pub struct EmbeddedNetwork {
    bytes: &'static [u8],
    feature_set: &'static str,
    decoded: OnceLock<Arc<Network>>,
}

impl EmbeddedNetwork {
    /// The network in `bytes` (a network file, e.g. from `include_bytes!`) of `feature_set`.
    #[must_use]
    pub const fn new(bytes: &'static [u8], feature_set: &'static str) -> EmbeddedNetwork {
        EmbeddedNetwork { bytes, feature_set, decoded: OnceLock::new() }
    }

    /// The decoded network.
    ///
    /// # Panics
    /// When the embedded bytes are not a network of the feature set: a build error, which each
    /// game's test of its default network catches.
    pub fn get(&self) -> Arc<Network> {
        let network = self.decoded.get_or_init(|| {
            Arc::new(
                Network::from_bytes(self.bytes, EMBEDDED_NAME, self.feature_set)
                    .expect("the embedded network is valid"),
            )
        });
        Arc::clone(network)
    }

    /// The network `path` stands for: this one for [`EMBEDDED_NAME`], else the file there (which
    /// must hold a network of the same features and input count).
    ///
    /// # Errors
    /// When the file cannot be read or is not a network of these features.
    pub fn or_file(&self, path: &Path) -> Result<Arc<Network>, NetworkError> {
        if path == Path::new(EMBEDDED_NAME) {
            return Ok(self.get());
        }
        let network = Network::load(path, self.feature_set)?;
        let inputs = self.get().inputs();
        if network.inputs() != inputs {
            let problem = format!("{} inputs, {} has {inputs}", network.inputs(), self.feature_set);
            return Err(NetworkError::Shape { path: path.display().to_string(), problem });
        }
        Ok(Arc::new(network))
    }
}

/// What an engine's evaluation options (`EvalFile`, `Use NNUE`) hold: a network, built in or read
/// from a file, and whether it evaluates or the game's hand-crafted evaluation does.
pub struct NetworkChoice {
    embedded: &'static EmbeddedNetwork,
    enabled: bool,
    file: String,
    network: Arc<Network>,
}

impl NetworkChoice {
    /// The embedded network, evaluating when `enabled`.
    #[must_use]
    pub fn new(embedded: &'static EmbeddedNetwork, enabled: bool) -> NetworkChoice {
        NetworkChoice { embedded, enabled, file: EMBEDDED_NAME.into(), network: embedded.get() }
    }

    /// The file the network came from ([`EMBEDDED_NAME`] for the built-in one).
    #[must_use]
    pub fn file(&self) -> &str {
        &self.file
    }

    /// Switches to the network in `file` (empty or [`EMBEDDED_NAME`]: the built-in one); returns
    /// the note for the GUI.
    ///
    /// # Errors
    /// When the file cannot be used; the current network is kept.
    pub fn load(&mut self, file: &str) -> Result<String, NetworkError> {
        let file = match file.trim() {
            "" => EMBEDDED_NAME,
            file => file,
        };
        self.network = self.embedded.or_file(Path::new(file))?;
        self.file = file.to_owned();
        Ok(format!(
            "EvalFile {file} loaded ({} features, {} hidden)",
            self.network.feature_set(),
            self.network.hidden()
        ))
    }

    /// Whether the network evaluates (else the hand-crafted evaluation does).
    pub fn enable(&mut self, enabled: bool) {
        self.enabled = enabled;
    }

    /// The network a search should evaluate with: `None` when the hand-crafted evaluation does.
    #[must_use]
    pub fn active(&self) -> Option<Arc<Network>> {
        self.enabled.then(|| Arc::clone(&self.network))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A built-in network of made-up features (leaked: an embedded network lives for the program).
    fn embedded() -> &'static EmbeddedNetwork {
        let bytes = Network::random("test-features", 32, 16, 3).to_bytes();
        Box::leak(Box::new(EmbeddedNetwork::new(Box::leak(bytes.into_boxed_slice()), "test-features")))
    }

    #[test]
    fn a_choice_loads_files_keeps_its_network_on_errors_and_returns_to_the_built_in_one() {
        let embedded = embedded();
        let mut choice = NetworkChoice::new(embedded, true);
        assert!(Arc::ptr_eq(&choice.active().unwrap(), &embedded.get()));

        let path = std::env::temp_dir().join(format!("tessera-choice-{}.nnue", std::process::id()));
        Network::random("test-features", 32, 32, 4).save(&path).unwrap();
        let name = path.display().to_string();
        assert_eq!(choice.load(&name).unwrap(), format!("EvalFile {name} loaded (test-features features, 32 hidden)"));
        assert_eq!((choice.file(), choice.active().unwrap().hidden()), (name.as_str(), 32));
        // Another game's network, one of the wrong input count and a missing file are refused, and
        // the file's network is kept.
        Network::random("other-features", 32, 16, 5).save(&path).unwrap();
        assert!(choice.load(&name).is_err());
        Network::random("test-features", 33, 16, 5).save(&path).unwrap();
        assert!(choice.load(&name).unwrap_err().to_string().contains("33 inputs"));
        assert!(choice.load("/no/such/network.nnue").is_err());
        assert_eq!((choice.file(), choice.active().unwrap().hidden()), (name.as_str(), 32));
        std::fs::remove_file(&path).unwrap();

        choice.enable(false);
        assert!(choice.active().is_none(), "the hand-crafted evaluation");
        choice.enable(true);
        choice.load(" ").unwrap();
        assert_eq!(choice.file(), EMBEDDED_NAME);
        assert!(Arc::ptr_eq(&choice.active().unwrap(), &embedded.get()));
    }
}
