//! The evaluation a chess or xiangqi engine's options choose (`EvalFile` and `Use NNUE` in UCI,
//! `evalfile` and `usennue` in UCCI): tessera-nnue's network choice seen as core's
//! [`EvaluationChoice`]. Core cannot name the network crate, nor may one game crate serve another,
//! so this seam is written here once and included by both engines (`#[path]`, as `build.rs` is
//! shared), each naming its position type and how it attaches a network.

use std::sync::Arc;

use tessera_core::EvaluationChoice;
use tessera_nnue::{Network, NetworkChoice, NetworkError};

/// How a position takes the network it evaluates with (`None`: the hand-crafted evaluation).
pub type Attach<G> = fn(&mut G, Option<Arc<Network>>);

/// The chosen network of a game whose positions are `G`, or its hand-crafted evaluation.
pub struct Evaluation<G> {
    choice: NetworkChoice,
    /// What the GUI is told when the network is switched off.
    hand_crafted: &'static str,
    attach: Attach<G>,
}

impl<G> Evaluation<G> {
    /// `choice` attached to positions by `attach`; `hand_crafted` names the other evaluation.
    pub fn new(choice: NetworkChoice, hand_crafted: &'static str, attach: Attach<G>) -> Self {
        Evaluation { choice, hand_crafted, attach }
    }
}

impl<G: 'static> EvaluationChoice for Evaluation<G> {
    type Game = G;
    type Error = NetworkError;

    fn file(&self) -> &str {
        self.choice.file()
    }

    fn enabled(&self) -> bool {
        self.choice.active().is_some()
    }

    fn load(&mut self, file: &str) -> Result<String, NetworkError> {
        self.choice.load(file)
    }

    fn enable(&mut self, enabled: bool) {
        self.choice.enable(enabled);
    }

    fn hand_crafted(&self) -> &str {
        self.hand_crafted
    }

    fn prepare(&self, position: &mut G) {
        (self.attach)(position, self.choice.active());
    }
}
