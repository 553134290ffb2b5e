//! The bench signature: the single-threaded node count of `bench` at the default depth. A change
//! to search, evaluation or move ordering changes it; update it with "Bench: N" in the commit.

use tessera_chess::bench::{run_bench, BENCH_DEPTH};
use tessera_core::EngineOptions;

const SIGNATURE: u64 = 198_391;

#[test]
fn bench_node_count_is_the_signature() {
    let (nodes, _) = run_bench(BENCH_DEPTH, &EngineOptions::default());
    assert_eq!(nodes, SIGNATURE);
    // Deterministic: a second run gives the same count.
    assert_eq!(run_bench(BENCH_DEPTH, &EngineOptions::default()).0, SIGNATURE);
}
