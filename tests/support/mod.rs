//! Shared helpers for the workspace tests: find the release engine binaries and third-party
//! peers, and drive a child process over real pipes with timeouts.
#![allow(dead_code)] // each test file uses its own part of this module

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError};

/// The workspace root (where the root `Cargo.toml` is).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `tests/reference/<file>`: the project's copy of the shared reference data (`../shared/reference`),
/// kept in the repository so that a bare clone tests itself; `tests/reference.rs` checks the copy.
pub fn reference_file(file: &str) -> PathBuf {
    workspace_root().join("tests/reference").join(file)
}

/// The release build of one of our engine binaries, or the program of that name in
/// `TESSERA_ENGINE_DIR` when it is set: scripts/test-windows.sh puts there one launcher per engine
/// that runs its Windows build under Wine, so the same tests check the `.exe` files.
///
/// # Panics
/// When it is not built: the README's test command builds the release binaries first.
pub fn engine_binary(name: &str) -> PathBuf {
    match std::env::var_os("TESSERA_ENGINE_DIR") {
        Some(folder) => existing(PathBuf::from(folder).join(name)),
        None => release_binary(name),
    }
}

/// The release build of the `tessera` tool (always this platform's: it drives the engines that
/// [`engine_binary`] names, whichever build they are).
pub fn tool_binary() -> PathBuf {
    release_binary("tessera")
}

fn release_binary(name: &str) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace_root().join("target"), PathBuf::from);
    existing(target.join("release").join(name))
}

fn existing(path: PathBuf) -> PathBuf {
    assert!(path.exists(), "{} is missing: run `cargo build --release --workspace` first", path.display());
    path
}

/// Whether the engines under test are Windows builds run under Wine (scripts/test-windows.sh
/// sets `TESSERA_ENGINE_PLATFORM=windows`): Linux-only means of a test (a shell `ulimit`) do not
/// apply to them.
pub fn engines_run_under_wine() -> bool {
    std::env::var("TESSERA_ENGINE_PLATFORM").is_ok_and(|platform| platform == "windows")
}

/// `path` as the engine under test expects it: the Linux path, or for a Windows build the same
/// file as Windows writes it (`Z:` is Wine's drive for `/`).
pub fn path_for_engine(path: &Path) -> String {
    let path = path.display().to_string();
    if engines_run_under_wine() {
        format!("Z:{}", path.replace('/', "\\"))
    } else {
        path
    }
}

/// A fresh folder in the temporary folder whose name has a space (GUIs' paths often do),
/// removed when dropped.
pub struct Folder(pub PathBuf);

impl Folder {
    /// A new empty folder named after `purpose` and this process.
    pub fn new(purpose: &str) -> Folder {
        let path = std::env::temp_dir().join(format!("tessera {purpose} {}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Folder(path)
    }

    /// `name` inside, written as the engine under test expects a path.
    pub fn path_for_engine(&self, name: &str) -> String {
        path_for_engine(&self.0.join(name))
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Whether third-party peers must be present (CI sets `TESSERA_REQUIRE_PEERS=1`).
pub fn peers_required() -> bool {
    std::env::var("TESSERA_REQUIRE_PEERS").is_ok_and(|value| value == "1")
}

/// Says that the running test did not run for a missing peer (`SKIPPED: <test>: <reason>`).
///
/// The line is written straight to the process's stderr, not through `eprintln!`: the test
/// harness captures what the print macros write and shows it only for failing tests, so a skipped
/// test would otherwise read as passed in `cargo test`'s output. `tests/peers.rs` lists every
/// peer once more at the end of its own run.
pub fn skipped(reason: &str) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    let line = format!("SKIPPED: {test}: {reason}\n");
    // If stderr itself is gone there is nowhere left to say it; the test still passes.
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// Finds a third-party program on `PATH` or in `/usr/games` (where Debian puts chess engines).
/// Returns `None` with a [`skipped`] line when it is missing, unless peers are required, in
/// which case a missing peer fails the test.
pub fn peer(program: &str, install_hint: &str) -> Option<PathBuf> {
    let found = find_program(program);
    if found.is_none() {
        assert!(!peers_required(), "{program} is required (TESSERA_REQUIRE_PEERS=1) but missing: {install_hint}");
        skipped(&format!("{program} is not installed ({install_hint})"));
    }
    found
}

/// `program` on `PATH`, in `/usr/games` or in `/usr/local/bin`, without a word when it is missing.
pub fn find_program(program: &str) -> Option<PathBuf> {
    let path_dirs =
        std::env::var_os("PATH").map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>()).unwrap_or_default();
    path_dirs
        .into_iter()
        .chain([PathBuf::from("/usr/games"), PathBuf::from("/usr/local/bin")])
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// Whether `python3 -c "import <module>"` works; same skip/require policy as [`peer`].
pub fn python_module(module: &str, install_hint: &str) -> bool {
    let ok = has_python_module(module);
    if !ok {
        assert!(!peers_required(), "python module {module} is required but missing: {install_hint}");
        skipped(&format!("python module {module} is not installed ({install_hint})"));
    }
    ok
}

/// Whether `python3 -c "import <module>"` works, without a word when it does not.
pub fn has_python_module(module: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// Runs `python3 tests/python/<script> <args>…` and fails the test unless it exits cleanly and
/// prints `passed` (a script that stopped early, or printed nothing, does not pass).
pub fn run_python_check<I, S>(script: &str, args: I, passed: &str)
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let path = workspace_root().join("tests/python").join(script);
    let output = Command::new("python3").arg(&path).args(args).output().expect("running python3");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{script} failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains(passed), "{script} did not print `{passed}`:\n{stdout}");
}

/// A child process driven over its stdin/stdout, with every read bounded by a timeout.
pub struct Driven {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Stderr lines, when captured ([`Driven::start_capturing_stderr`]).
    errors: Option<Receiver<String>>,
    /// Every line read so far, for failure messages.
    pub transcript: Vec<String>,
}

/// Sends each line of `stream` over a new channel, from a thread of its own.
fn line_channel(stream: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (sender, lines) = unbounded();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

impl Driven {
    /// Starts `program` with `args`; stderr is discarded unless `TESSERA_TEST_STDERR` is set.
    pub fn start(program: &Path, args: &[&str]) -> Driven {
        let mut command = Command::new(program);
        command.args(args);
        Driven::launch(command, false)
    }

    /// Starts `program` with `args` in the working folder `folder`.
    pub fn start_in(folder: &Path, program: &Path, args: &[&str]) -> Driven {
        let mut command = Command::new(program);
        command.args(args).current_dir(folder);
        Driven::launch(command, false)
    }

    /// Starts `program` with `args` and keeps its stderr for [`Driven::stderr_text`].
    pub fn start_capturing_stderr(program: &Path, args: &[&str]) -> Driven {
        let mut command = Command::new(program);
        command.args(args);
        Driven::launch(command, true)
    }

    /// Starts `program` with `args` under a shell `ulimit` (`"-v 2000000"`: virtual memory in
    /// KiB), stderr kept: the limits a GUI's machine may impose, without a C library binding.
    /// `None`, with a [`skipped`] line, for Windows builds under Wine: there the limit would bound
    /// Wine's own address-space reservations, not what a Windows program may take.
    pub fn start_limited(program: &Path, args: &[&str], ulimit: &str) -> Option<Driven> {
        if engines_run_under_wine() {
            skipped("a Linux address-space limit (ulimit) says nothing about a Windows build under Wine");
            return None;
        }
        let mut command = Command::new("sh");
        command.arg("-c").arg(format!("ulimit {ulimit} && exec \"$0\" \"$@\"")).arg(program).args(args);
        Some(Driven::launch(command, true))
    }

    fn launch(mut command: Command, capture_stderr: bool) -> Driven {
        let stderr = if capture_stderr {
            Stdio::piped()
        } else if std::env::var_os("TESSERA_TEST_STDERR").is_some() {
            Stdio::inherit()
        } else {
            Stdio::null()
        };
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap_or_else(|error| panic!("starting {command:?}: {error}"));
        let lines = line_channel(child.stdout.take().expect("piped stdout"));
        let errors = child.stderr.take().map(line_channel);
        let stdin = child.stdin.take();
        Driven { child, stdin, lines, errors, transcript: Vec::new() }
    }

    /// The stderr lines written so far (waiting `quiet` for more), when stderr is captured.
    pub fn stderr_text(&mut self, quiet: Duration) -> String {
        let Some(errors) = &self.errors else { return String::new() };
        std::iter::from_fn(|| errors.recv_timeout(quiet).ok()).collect::<Vec<_>>().join("\n")
    }

    /// The child's process id (for reading `/proc/PID/status`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The child's peak resident memory so far in MiB (`VmHWM`), where `/proc` tells it.
    pub fn peak_resident_mb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
        Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
    }

    /// Writes `text` followed by `\n`.
    pub fn send(&mut self, text: &str) {
        self.send_raw(&format!("{text}\n"));
    }

    /// Writes `text` exactly (for CR LF and other line-end tests).
    pub fn send_raw(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(text.as_bytes()).and_then(|()| stdin.flush()).expect("writing to the engine");
    }

    /// Closes the child's stdin (end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout` or at end of output.
    pub fn read_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first for which `done` is true.
    ///
    /// # Panics
    /// If no such line comes within `timeout`.
    pub fn read_until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.read_line(left) {
                Some(line) => {
                    let finished = done(&line);
                    lines.push(line);
                    if finished {
                        return lines;
                    }
                }
                None => panic!("no expected line within {timeout:?}; transcript:\n{}", self.transcript.join("\n")),
            }
        }
    }

    /// Lines that arrive within `quiet` of each other, stopping at the first silence.
    pub fn read_available(&mut self, quiet: Duration) -> Vec<String> {
        std::iter::from_fn(|| self.read_line(quiet)).collect()
    }

    /// Waits up to `timeout` for the process to exit; returns whether it did.
    pub fn wait_exit(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }
}

impl Drop for Driven {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `BINARY --eval-file NET bench 3` (a gomoku engine) searches with the network, as the library's
/// bench does with it; another game's network, a truncated or an absent file: a message on stderr,
/// nothing on stdout, exit status 2.
pub fn gomoku_eval_file_is_used_or_refused(binary: &str) {
    use tessera_gomoku::nnue::{Network, FEATURE_SET, INPUTS};
    let folder = std::env::temp_dir().join(format!("tessera-{binary}-eval-file-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let bench = |network: &std::path::Path| {
        let output = std::process::Command::new(engine_binary(binary))
            .arg("--eval-file")
            .arg(network)
            .args(["bench", "3"])
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    // A network's bench is the library's bench with that network, not the pattern evaluation's.
    let network = Network::random(FEATURE_SET, INPUTS, 32, 4);
    let good = folder.join("good.nnue");
    network.save(&good).unwrap();
    let library = |network| {
        let bench = tessera_gomoku::bench::GomokuBench { depth: 3, network };
        tessera_core::bench::run(&bench, &tessera_core::EngineOptions::default()).nodes
    };
    let expected = library(Some(std::sync::Arc::new(network)));
    assert_ne!(expected, library(None));
    let (code, stdout, _) = bench(&good);
    assert_eq!(code, Some(0));
    assert_eq!(stdout.lines().last(), Some(format!("Bench: {expected}").as_str()), "{stdout}");
    // Another game's network, or a damaged file: a message on stderr, nothing on stdout, exit 2.
    let chess = folder.join("chess.nnue");
    Network::random("chess-768", 768, 32, 4).save(&chess).unwrap();
    let truncated = folder.join("truncated.nnue");
    std::fs::write(&truncated, &std::fs::read(&good).unwrap()[..100]).unwrap();
    for (file, message) in
        [(&chess, "chess-768"), (&truncated, "truncated.nnue"), (&folder.join("absent.nnue"), "absent")]
    {
        let (code, stdout, stderr) = bench(file);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(stderr.contains(message), "{stderr}");
    }
    std::fs::remove_dir_all(&folder).unwrap();
}
