//! The build script every binary package shares (`build = "../build.rs"` in `engines/*`,
//! `build = "engines/build.rs"` in the root package): puts the version and the git commit the
//! binary is built from into `TESSERA_VERSION`, e.g. `0.1.0 (commit 9a74d00c1f2e)`, which
//! `--version` prints, so a user's bug report names the exact build.
//!
//! `TESSERA_COMMIT` in the environment wins (scripts/release.sh sets `git describe --dirty`; a
//! build from a source archive without `.git` may set it too); without it and without git the
//! commit reads `unknown`. Only the binaries rebuild when the commit moves: the libraries know
//! nothing of it.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=TESSERA_COMMIT");
    let commit = std::env::var("TESSERA_COMMIT")
        .ok()
        .filter(|commit| !commit.is_empty())
        .or_else(git_commit)
        .unwrap_or_else(|| "unknown".to_owned());
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    println!("cargo:rustc-env=TESSERA_VERSION={version} (commit {commit})");
}

/// `git <args>`'s first output line, run in the package's folder; `None` without git or a repository.
fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .args(args)
        .current_dir(std::env::var_os("CARGO_MANIFEST_DIR")?)
        .output()
        .ok()
        .filter(|output| output.status.success())?;
    let text = String::from_utf8(output.stdout).ok()?;
    text.lines().next().map(str::to_owned).filter(|line| !line.is_empty())
}

/// The checked-out commit, and a rerun of this script whenever it moves: `HEAD` changes on a
/// checkout, the branch's ref (loose or packed) on a commit.
fn git_commit() -> Option<String> {
    let commit = git(&["rev-parse", "--short=12", "HEAD"])?;
    let mut watched = Vec::new();
    if let Some(git_dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        watched.push(Path::new(&git_dir).join("HEAD"));
    }
    if let (Some(common), Some(branch)) =
        (git(&["rev-parse", "--path-format=absolute", "--git-common-dir"]), git(&["symbolic-ref", "--quiet", "HEAD"]))
    {
        watched.push(Path::new(&common).join(branch));
        watched.push(Path::new(&common).join("packed-refs"));
    }
    // A path that does not exist would make Cargo rerun the script on every build.
    for path in watched.iter().filter(|path| path.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    Some(commit)
}
