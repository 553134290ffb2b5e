//! Engine processes: start one from a command line, write lines to it, read its lines with a
//! deadline, and notice when it stalls or dies.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Instant;

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError};
use parking_lot::Mutex;

/// How to start one engine, as given on the `tessera match` command line:
/// `cmd=./engine name=A arg=--threads arg=2 dir=/tmp option.Hash=64 proto=uci`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program to run.
    pub command: PathBuf,
    /// Arguments, in order.
    pub args: Vec<String>,
    /// Working directory (default: the current one).
    pub dir: Option<PathBuf>,
    /// The name used in tables and records (default: the program's file name).
    pub name: String,
    /// Engine options to set after the handshake, in order (`option.Hash=64`).
    pub options: Vec<(String, String)>,
    /// The protocol, when the game allows several (`uci` or `ucci`; `pbrain` or `agi`).
    pub protocol: Option<String>,
}

/// Why an engine specification did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineSpecError {
    /// An item is not `key=value` or names no known key.
    #[error("bad engine item `{0}` (use cmd=, name=, arg=, dir=, proto=, option.NAME=)")]
    BadItem(String),
    /// No `cmd=`.
    #[error("an engine needs cmd=PROGRAM")]
    NoCommand,
}

impl FromStr for EngineSpec {
    type Err = EngineSpecError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut spec = EngineSpec::default();
        for item in text.split_whitespace() {
            let (key, value) = item.split_once('=').ok_or_else(|| EngineSpecError::BadItem(item.to_string()))?;
            match key {
                "cmd" => spec.command = PathBuf::from(value),
                "name" => spec.name = value.to_string(),
                "arg" => spec.args.push(value.to_string()),
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "proto" => spec.protocol = Some(value.to_ascii_lowercase()),
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => spec.options.push((option.to_string(), value.to_string())),
                    _ => return Err(EngineSpecError::BadItem(item.to_string())),
                },
            }
        }
        if spec.command.as_os_str().is_empty() {
            return Err(EngineSpecError::NoCommand);
        }
        if spec.name.is_empty() {
            spec.name = spec.command.file_name().map_or_else(String::new, |name| name.to_string_lossy().into_owned());
        }
        Ok(spec)
    }
}

/// What went wrong talking to an engine.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The process could not be started.
    #[error("cannot start {name}: {source}")]
    Start {
        /// The engine's name.
        name: String,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// No expected answer before the deadline.
    #[error("{0} stalled (no answer in time)")]
    Stalled(String),
    /// The process closed its output or exited.
    #[error("{0} crashed or exited")]
    Crashed(String),
    /// The engine answered something the protocol does not allow here.
    #[error("{name} answered `{line}`: {reason}")]
    Protocol {
        /// The engine's name.
        name: String,
        /// The offending line.
        line: String,
        /// What was expected.
        reason: String,
    },
    /// The engine played a move that is not legal.
    #[error("{name} played an illegal move `{text}`")]
    IllegalMove {
        /// The engine's name.
        name: String,
        /// The move as the engine wrote it.
        text: String,
    },
}

/// A running engine process.
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    log: Option<Arc<Mutex<File>>>,
}

impl EngineProcess {
    /// Starts the engine of `spec`; with `log`, both directions of the conversation and the
    /// engine's stderr are appended to that file.
    ///
    /// # Errors
    /// [`ClientError::Start`] when the program cannot be run or the log cannot be opened.
    pub fn start(spec: &EngineSpec, log: Option<&PathBuf>) -> Result<Self, ClientError> {
        let start_error = |source| ClientError::Start { name: spec.name.clone(), source };
        let log = match log {
            Some(path) => Some(Arc::new(Mutex::new(
                std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(start_error)?,
            ))),
            None => None,
        };
        let mut command = Command::new(&spec.command);
        command.args(&spec.args).stdin(Stdio::piped()).stdout(Stdio::piped());
        command.stderr(if log.is_some() { Stdio::piped() } else { Stdio::null() });
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn().map_err(start_error)?;
        let stdout = child.stdout.take().expect("stdout was piped above");
        let (sender, lines) = unbounded();
        let out_log = log.clone();
        let name = spec.name.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let line = line.trim_end_matches('\r').to_string();
                if let Some(log) = &out_log {
                    let _ = writeln!(log.lock(), "{name} > {line}");
                }
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        if let (Some(stderr), Some(log)) = (child.stderr.take(), log.clone()) {
            let name = spec.name.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                    let _ = writeln!(log.lock(), "{name} ! {line}");
                }
            });
        }
        let stdin = child.stdin.take();
        Ok(EngineProcess { name: spec.name.clone(), child, stdin, lines, log })
    }

    /// The engine's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends one line (a `\n` is added).
    ///
    /// # Errors
    /// [`ClientError::Crashed`] when the engine no longer reads its input.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        if let Some(log) = &self.log {
            let _ = writeln!(log.lock(), "{} < {line}", self.name);
        }
        let crashed = || ClientError::Crashed(self.name.clone());
        let stdin = self.stdin.as_mut().ok_or_else(crashed)?;
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .map_err(|_| crashed())
    }

    /// The next line the engine writes, waiting until `deadline`.
    ///
    /// # Errors
    /// [`ClientError::Stalled`] past the deadline, [`ClientError::Crashed`] if the output closed.
    pub fn receive(&mut self, deadline: Instant) -> Result<String, ClientError> {
        match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Stalled(self.name.clone())),
            Err(RecvTimeoutError::Disconnected) => Err(ClientError::Crashed(self.name.clone())),
        }
    }

    /// Lines until one satisfies `done` (returned last), before `deadline`.
    ///
    /// # Errors
    /// As [`EngineProcess::receive`].
    pub fn receive_until(
        &mut self,
        deadline: Instant,
        done: impl Fn(&str) -> bool,
    ) -> Result<Vec<String>, ClientError> {
        let mut lines = Vec::new();
        loop {
            let line = self.receive(deadline)?;
            let finished = done(&line);
            lines.push(line);
            if finished {
                return Ok(lines);
            }
        }
    }

    /// Whether the process has exited.
    pub fn has_exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// Closes the engine's input and waits briefly for it to exit, then kills it.
    pub fn shut_down(&mut self, grace: std::time::Duration) {
        self.stdin = None;
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if self.has_exited() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn parses_engine_specifications() {
        let spec: EngineSpec =
            "cmd=/usr/games/stockfish arg=-q option.Hash=64 option.Skill_Level=3 proto=UCI".parse().unwrap();
        assert_eq!(spec.name, "stockfish");
        assert_eq!(spec.args, ["-q"]);
        assert_eq!(
            spec.options,
            [("Hash".to_string(), "64".to_string()), ("Skill_Level".to_string(), "3".to_string())]
        );
        assert_eq!(spec.protocol.as_deref(), Some("uci"));
        assert_eq!("name=x".parse::<EngineSpec>(), Err(EngineSpecError::NoCommand));
        assert!(matches!("cmd=a bogus".parse::<EngineSpec>(), Err(EngineSpecError::BadItem(_))));
    }

    #[test]
    fn talks_to_a_process_and_notices_its_death() {
        let spec = EngineSpec {
            command: "sh".into(),
            args: vec!["-c".into(), "read x; echo got $x; read y".into()],
            name: "sh".into(),
            ..EngineSpec::default()
        };
        let mut engine = EngineProcess::start(&spec, None).unwrap();
        engine.send("hello").unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        assert_eq!(engine.receive(deadline).unwrap(), "got hello");
        assert!(matches!(engine.receive(Instant::now() + Duration::from_millis(50)), Err(ClientError::Stalled(_))));
        engine.send("bye").unwrap();
        assert!(matches!(engine.receive(deadline), Err(ClientError::Crashed(_))));
        engine.shut_down(Duration::from_secs(1));
        assert!(engine.has_exited());
    }
}
