//! What every protocol session shares: who owns the read loop, how a session says it is done,
//! and who the engine says it is.
//!
//! [`serve`] owns the read loop: a reader thread turns stdin into lines ([`crate::io::spawn_reader`])
//! and the calling thread hands each one to the session, which parses it into its protocol's
//! command and answers. Each session owns one [`crate::Engine`], whose thread runs the searcher the
//! engine binary chose; the session never blocks on a search except where its protocol says so.

use std::io::Read;

use crate::input::Input;
use crate::io::{spawn_reader, LineEnds};

/// Whether a session reads on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// The GUI said `quit` (or its protocol's word for it).
    Quit,
}

/// Who the engine says it is. Each protocol writes it its own way: UCI `id name`, UCCI
/// `id copyright`, pbrain `ABOUT`, AGI `ID NAME`, GTP `name` and `version`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The engine's name without the version (`Tessera`).
    pub name: String,
    /// Its version (`0.1.0`).
    pub version: String,
    /// Its authors.
    pub author: String,
    /// Its licence (UCCI's `id copyright`).
    pub license: String,
    /// Its home page (pbrain's `www`).
    pub url: String,
}

impl Identity {
    /// Tessera at `version` (an engine crate passes its `CARGO_PKG_VERSION`).
    #[must_use]
    pub fn tessera(version: &str) -> Identity {
        Identity {
            name: "Tessera".into(),
            version: version.into(),
            author: "The Tessera developers".into(),
            license: "MIT OR Apache-2.0".into(),
            url: "https://example.invalid/tessera".into(),
        }
    }

    /// Name and version in one (`Tessera 0.1.0`), as UCI-like protocols show it.
    #[must_use]
    pub fn full_name(&self) -> String {
        if self.version.is_empty() {
            self.name.clone()
        } else {
            format!("{} {}", self.name, self.version)
        }
    }
}

/// The engine side of one line protocol, as [`serve`] drives it.
pub trait LineSession {
    /// Handles one input line. `input` holds the lines that follow, for commands that wait for
    /// the next line (analysis until interrupted) or must notice that the GUI went away.
    fn handle_line(&mut self, line: &str, input: &mut Input) -> Flow;

    /// The input ended or the GUI quit: stop any search. Answers already due are still written.
    fn finish(&mut self);

    /// The input's line ends as the reader sees them, given once before the first line: a session
    /// whose protocol lets it answer a CR LF GUI in CR LF has its output follow them
    /// ([`crate::io::Output::follow`]); by default every answer ends in LF.
    fn follow_line_ends(&mut self, _line_ends: &LineEnds) {}

    /// Handles one line with no more input to come: for tests and in-process callers.
    fn handle_alone(&mut self, line: &str) -> Flow {
        self.handle_line(line, &mut Input::idle())
    }
}

impl<S: LineSession + ?Sized> LineSession for Box<S> {
    fn handle_line(&mut self, line: &str, input: &mut Input) -> Flow {
        (**self).handle_line(line, input)
    }

    fn finish(&mut self) {
        (**self).finish();
    }

    fn follow_line_ends(&mut self, line_ends: &LineEnds) {
        (**self).follow_line_ends(line_ends);
    }
}

/// Runs `session` on the lines of `input` until it quits or the input ends, then finishes it.
pub fn serve(session: &mut impl LineSession, input: impl Read + Send + 'static) {
    let line_ends = LineEnds::new();
    session.follow_line_ends(&line_ends);
    let mut input = Input::new(spawn_reader(input, Some, None, line_ends));
    serve_lines(session, &mut input);
}

/// Runs `session` on the lines of `input` (already split), then finishes it.
pub fn serve_lines(session: &mut impl LineSession, input: &mut Input) {
    while let Some(line) = input.next_line() {
        if session.handle_line(&line, input) == Flow::Quit {
            break;
        }
    }
    session.finish();
}

/// Like [`serve`], for a binary that speaks more than one protocol: the first line that is not
/// blank chooses the session (`choose` gets it trimmed), which then handles that line and the rest.
pub fn serve_chosen(input: impl Read + Send + 'static, choose: impl FnOnce(&str) -> Box<dyn LineSession>) {
    let line_ends = LineEnds::new();
    let mut input = Input::new(spawn_reader(input, Some, None, line_ends.clone()));
    let first = loop {
        match input.next_line() {
            Some(line) if line.trim().is_empty() => {}
            Some(line) => break line,
            None => return,
        }
    };
    let mut session = choose(first.trim());
    session.follow_line_ends(&line_ends);
    if session.handle_line(&first, &mut input) == Flow::Quit {
        session.finish();
    } else {
        serve_lines(&mut session, &mut input);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    /// Records lines; `quit` quits.
    struct Recorder {
        name: &'static str,
        lines: Arc<Mutex<Vec<String>>>,
    }

    impl LineSession for Recorder {
        fn handle_line(&mut self, line: &str, _input: &mut Input) -> Flow {
            self.lines.lock().unwrap().push(format!("{}:{line}", self.name));
            if line == "quit" {
                Flow::Quit
            } else {
                Flow::Continue
            }
        }

        fn finish(&mut self) {
            self.lines.lock().unwrap().push(format!("{}:finished", self.name));
        }
    }

    #[test]
    fn serve_stops_at_quit_and_finishes() {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let mut session = Recorder { name: "a", lines: Arc::clone(&lines) };
        serve(&mut session, &b"one\ntwo\nquit\nthree\n"[..]);
        assert_eq!(*lines.lock().unwrap(), ["a:one", "a:two", "a:quit", "a:finished"]);
    }

    #[test]
    fn the_first_line_chooses_the_session() {
        for (text, expected) in [
            (&b"\n  \nuci\nisready\n"[..], vec!["uci:uci", "uci:isready", "uci:finished"]),
            (&b"ucci\nquit\nx\n"[..], vec!["other:ucci", "other:quit", "other:finished"]),
            (&b"\n"[..], vec![]),
        ] {
            let lines = Arc::new(Mutex::new(Vec::new()));
            let shared = Arc::clone(&lines);
            serve_chosen(text, move |first| {
                Box::new(Recorder { name: if first == "uci" { "uci" } else { "other" }, lines: shared })
            });
            assert_eq!(*lines.lock().unwrap(), expected);
        }
    }

    #[test]
    fn identity_reads_as_name_and_version() {
        let identity = Identity::tessera("1.2.3");
        assert_eq!(identity.full_name(), "Tessera 1.2.3");
        assert_eq!(Identity { version: String::new(), ..identity }.full_name(), "Tessera");
    }
}
