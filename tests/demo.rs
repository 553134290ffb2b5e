//! `tessera demo`, the README's main job: four games through the real binaries in under a minute.

mod support;

use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn demo_plays_four_games_quickly_and_prints_the_guide() {
    let started = Instant::now();
    let output = Command::new(support::tool_binary()).arg("demo").output().expect("running tessera demo");
    let elapsed = started.elapsed();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    for title in ["=== Chess (UCI)", "=== Xiangqi (UCCI)", "=== Gomoku", "=== Go 9x9"] {
        assert!(stdout.contains(title), "{title} missing:\n{stdout}");
    }
    assert_eq!(stdout.matches("Result: ").count(), 4, "{stdout}");
    assert!(!stdout.contains("illegal move"), "{stdout}");
    assert!(stdout.contains("tessera-gtp") && stdout.contains("set-up:"), "the guide follows the games");
    assert!(elapsed < Duration::from_secs(60), "the demo took {elapsed:?}");
}
