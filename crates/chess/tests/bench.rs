//! The bench signature: the single-threaded node count of `bench` at the default depth. A change
//! to search, evaluation or move ordering changes it; update it with "Bench: N" in the commit.

use tessera_chess::bench::{ChessBench, DEPTH};
use tessera_chess::nnue::default_network;
use tessera_core::{bench, EngineOptions};

/// Nodes of the bench at the default depth with `network`, on one thread.
fn nodes(network: Option<std::sync::Arc<tessera_chess::nnue::Network>>) -> u64 {
    bench::run(&ChessBench { depth: DEPTH, network }, &EngineOptions::default()).nodes
}

/// With the embedded network (`Use NNUE` on, the default: what `tessera-uci bench` runs).
const SIGNATURE: u64 = 131_471;
/// With the hand-crafted evaluation (`Use NNUE` off).
const CLASSICAL_SIGNATURE: u64 = 185_047;

#[test]
fn bench_node_count_is_the_signature() {
    let network = default_network();
    assert_eq!(nodes(Some(network.clone())), SIGNATURE);
    // Deterministic: a second run gives the same count.
    assert_eq!(nodes(Some(network)), SIGNATURE);
    assert_eq!(nodes(None), CLASSICAL_SIGNATURE);
}
