//! The helpers that the opening-suite scripts share (`scripts/suites.py`: the board's symmetries
//! and re-rating a suite in place; `scripts/gtp_engine.py`: GTP questions, errors raised), checked
//! by `tests/python/opening_scripts_check.py` against the release `tessera-gtp`.

mod support;

use std::process::Command;

#[test]
fn the_opening_scripts_helpers_work() {
    let engine = support::engine_binary("tessera-gtp");
    let script = support::workspace_root().join("tests/python/opening_scripts_check.py");
    let output = Command::new("python3").arg(&script).arg(&engine).output().expect("running python3");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "opening-script checks failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("all opening-script checks passed"), "{stdout}");
}
