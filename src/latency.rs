//! `tessera latency`: how long a running search takes to hand back its move after `stop`.
//!
//! This is a benchmark that prints figures; the unit tests only check a generous bound.

use std::time::{Duration, Instant};

use crossbeam_channel::bounded;
use tessera_core::toys::ConnectFour;
use tessera_core::{AlphaBeta, Engine, EngineOptions, Limits, Silent};

/// Starts `trials` infinite searches, stops each after a short while, and prints the latency spread.
pub fn measure(trials: u32, threads: usize) {
    let options = EngineOptions { threads, ..EngineOptions::default() };
    let engine = Engine::new(AlphaBeta::<ConnectFour>::new(&options, 20));
    let mut latencies = Vec::with_capacity(trials as usize);
    for trial in 0..trials.max(1) {
        let (sender, receiver) = bounded(1);
        let limits = Limits { infinite: true, ..Limits::none() };
        engine.go(ConnectFour::new(), limits, Silent, move |_| {
            let _ = sender.send(Instant::now());
        });
        std::thread::sleep(Duration::from_millis(20 + u64::from(trial % 7) * 3));
        let stopped = Instant::now();
        engine.stop();
        let answered = receiver.recv().expect("the engine answers every search");
        latencies.push(answered.saturating_duration_since(stopped));
        engine.wait();
    }
    latencies.sort();
    let at = |fraction: f64| latencies[((latencies.len() - 1) as f64 * fraction) as usize];
    println!(
        "stop latency over {} searches ({threads} thread(s)): median {:?}, 95th percentile {:?}, max {:?} (target <= 5 ms)",
        latencies.len(),
        at(0.5),
        at(0.95),
        at(1.0)
    );
}
