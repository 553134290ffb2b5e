//! The `tessera` command line: help, version and the engine guide work from a fresh build.

mod support;

use std::process::Command;

fn tessera(args: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_tessera")).args(args).output().expect("running tessera");
    (output.status.success(), String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn help_and_version() {
    let (ok, help) = tessera(&["--help"]);
    assert!(ok);
    assert!(help.contains("Usage: tessera"), "{help}");
    assert!(help.contains("engines"), "{help}");
    let (ok, version) = tessera(&["--version"]);
    assert!(ok);
    // The version and the commit the binary was built from (engines/build.rs).
    let expected = format!("tessera {} (commit ", env!("CARGO_PKG_VERSION"));
    assert!(version.starts_with(&expected) && version.trim_end().ends_with(')'), "{version}");
}

#[test]
fn engines_guide_names_every_protocol() {
    let (ok, guide) = tessera(&["engines"]);
    assert!(ok);
    for name in ["tessera-uci", "tessera-ucci", "pbrain-tessera", "tessera-agi", "tessera-gtp"] {
        assert!(guide.contains(name), "{name} missing from:\n{guide}");
    }
    assert!(support::workspace_root().join("Cargo.toml").exists());
}

#[test]
fn bad_arguments_fail_cleanly() {
    let output = Command::new(env!("CARGO_BIN_EXE_tessera")).arg("--no-such-flag").output().unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--no-such-flag"));
}
