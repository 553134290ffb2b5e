//! Sabaki's client library, `@sabaki/gtp` (npm, 3.x), drives the release `tessera-gtp`: see
//! `tests/node/sabaki.js`. CI runs `npm install` in `tests/node`; without it the test is skipped
//! (and fails under TESSERA_REQUIRE_PEERS=1).

mod support;

use std::process::Command;

use support::{engine_binary, peers_required, workspace_root};

#[test]
fn sabaki_gtp_controller_drives_the_engine() {
    let node_dir = workspace_root().join("tests/node");
    if !node_dir.join("node_modules/@sabaki/gtp").is_dir() {
        assert!(!peers_required(), "@sabaki/gtp is required: run `npm install` in tests/node");
        support::skipped("@sabaki/gtp is not installed (run `npm install` in tests/node)");
        return;
    }
    let Some(node) = support::peer("node", "install Node.js 20") else { return };
    let output = Command::new(node)
        .arg(node_dir.join("sabaki.js"))
        .arg(engine_binary("tessera-gtp"))
        .current_dir(&node_dir)
        .output()
        .expect("running node");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "sabaki.js failed:\n{stdout}\n{stderr}");
    assert!(stdout.starts_with("ok: "), "{stdout}");
}
