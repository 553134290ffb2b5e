//! The bench signature: the single-threaded node count of `bench` at the default depth. A change
//! to search, evaluation or move ordering changes it; update it with "Bench: N" in the commit.

use tessera_chess::bench::{run_bench, BENCH_DEPTH};
use tessera_chess::nnue::default_network;
use tessera_core::EngineOptions;

/// With the embedded network (`Use NNUE` on, the default: what `tessera-uci bench` runs).
const SIGNATURE: u64 = 52_942;
/// With the hand-crafted evaluation (`Use NNUE` off).
const CLASSICAL_SIGNATURE: u64 = 62_695;

#[test]
fn bench_node_count_is_the_signature() {
    let network = default_network();
    let (nodes, _) = run_bench(BENCH_DEPTH, &EngineOptions::default(), Some(&network));
    assert_eq!(nodes, SIGNATURE);
    // Deterministic: a second run gives the same count.
    assert_eq!(run_bench(BENCH_DEPTH, &EngineOptions::default(), Some(&network)).0, SIGNATURE);
    assert_eq!(run_bench(BENCH_DEPTH, &EngineOptions::default(), None).0, CLASSICAL_SIGNATURE);
}
