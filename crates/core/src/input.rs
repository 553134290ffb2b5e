//! A session's view of its input: lines from the reader thread, queued while a command runs.
//!
//! Most commands are answered at once, but some wait (a GTP `genmove`, an analysis that runs until
//! the next line): meanwhile the GUI may send the next lines, which stay queued in order, and the
//! input may end. What the end means is the protocol's to say: a UCI GUI always sends `quit`, so
//! there the end stops everything; GTP's first use is scripts piped in, so there every command
//! already read is answered in full and the engine stops early only on `quit` or when nobody
//! reads its output any more ([`Input::wait_for`]).

use std::collections::VecDeque;
use std::time::Duration;

use crossbeam_channel::{select, unbounded, Receiver, RecvTimeoutError, Sender};

/// Input lines (`None` from the reader = input closed) with the lines read ahead.
pub struct Input {
    lines: Receiver<Option<String>>,
    queue: VecDeque<String>,
    closed: bool,
    /// Keeps an [`Input::idle`] channel open.
    _open: Option<Sender<Option<String>>>,
}

impl Input {
    /// Lines from `lines`, as [`crate::io::spawn_reader`] sends them (`None`: the input closed).
    #[must_use]
    pub fn new(lines: Receiver<Option<String>>) -> Self {
        Input { lines, queue: VecDeque::new(), closed: false, _open: None }
    }

    /// An input that stays open and never gives a line: for callers that hand a session one line
    /// at a time (tests, in-process transcripts).
    #[must_use]
    pub fn idle() -> Self {
        let (sender, lines) = unbounded();
        Input { lines, queue: VecDeque::new(), closed: false, _open: Some(sender) }
    }

    /// The next line, waiting for it; `None` once the input is closed and nothing is queued.
    pub fn next_line(&mut self) -> Option<String> {
        if let Some(line) = self.queue.pop_front() {
            return Some(line);
        }
        if self.closed {
            return None;
        }
        match self.lines.recv() {
            Ok(Some(line)) => Some(line),
            Ok(None) | Err(_) => {
                self.closed = true;
                None
            }
        }
    }

    /// Waits until a line can be read (it stays queued for [`Input::next`]); `false` when the
    /// input closed first.
    pub fn wait_for_line(&mut self) -> bool {
        if !self.queue.is_empty() {
            return true;
        }
        if self.closed {
            return false;
        }
        match self.lines.recv() {
            Ok(Some(line)) => {
                self.queue.push_back(line);
                true
            }
            Ok(None) | Err(_) => {
                self.closed = true;
                false
            }
        }
    }

    /// Whether the controller closed the input (lines may still be queued).
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Waits for `result` whatever the input does: lines that arrive meanwhile are queued in order
    /// and the end of the input is noted, because a script piped in (`engine < script`) has ended
    /// long before its commands are answered, and each is owed a full answer. The wait ends early,
    /// with `None`, when a queued line satisfies `interrupts` (it stays queued; e.g. `quit`) or,
    /// once the input has ended, when `output_gone` says nobody is left to read the answer: then
    /// the caller stops its work.
    pub fn wait_for<T>(
        &mut self,
        result: &Receiver<T>,
        interrupts: impl Fn(&str) -> bool,
        output_gone: impl Fn() -> bool,
    ) -> Option<T> {
        if self.queue.iter().any(|line| interrupts(line)) {
            return None;
        }
        loop {
            if self.closed {
                // Nothing more can come in: look now and then whether the reader went away.
                if output_gone() {
                    return None;
                }
                match result.recv_timeout(OUTPUT_CHECK) {
                    Ok(value) => return Some(value),
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => return None,
                }
            }
            select! {
                recv(result) -> value => return value.ok(),
                recv(&self.lines) -> line => match line {
                    Ok(Some(line)) => {
                        let interrupted = interrupts(&line);
                        self.queue.push_back(line);
                        if interrupted {
                            return None;
                        }
                    }
                    Ok(None) | Err(_) => self.closed = true,
                },
            }
        }
    }
}

/// How often a wait after the end of the input checks whether the output is gone.
const OUTPUT_CHECK: Duration = Duration::from_millis(50);

#[cfg(test)]
mod tests {
    use super::Input;
    use crossbeam_channel::{bounded, unbounded};

    #[test]
    fn lines_read_while_waiting_are_kept_in_order() {
        let (lines, receiver) = unbounded();
        let (result, results) = bounded(1);
        let mut input = Input::new(receiver);
        lines.send(Some("a".to_string())).unwrap();
        lines.send(Some("b".to_string())).unwrap();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            result.send(7).unwrap();
        });
        assert_eq!(input.wait_for(&results, |_| false, || false), Some(7));
        lines.send(None).unwrap();
        assert_eq!(input.next_line().as_deref(), Some("a"));
        assert_eq!(input.next_line().as_deref(), Some("b"));
        assert_eq!(input.next_line(), None);
        assert!(input.is_closed());
    }

    #[test]
    fn the_end_of_the_input_does_not_end_the_wait() {
        let (lines, receiver) = unbounded::<Option<String>>();
        let (result, results) = bounded::<u32>(1);
        let mut input = Input::new(receiver);
        lines.send(Some("genmove b".to_string())).unwrap();
        lines.send(None).unwrap();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(200));
            result.send(7).unwrap();
        });
        assert_eq!(input.wait_for(&results, |line| line == "quit", || false), Some(7));
        assert!(input.is_closed());
        assert_eq!(input.next_line().as_deref(), Some("genmove b"));
    }

    #[test]
    fn an_interrupting_line_or_a_gone_output_ends_the_wait() {
        let (lines, receiver) = unbounded::<Option<String>>();
        let (_result, results) = bounded::<u32>(1);
        let mut input = Input::new(receiver);
        lines.send(Some("name".to_string())).unwrap();
        lines.send(Some("quit".to_string())).unwrap();
        assert_eq!(input.wait_for(&results, |line| line == "quit", || false), None);
        // Both lines stay queued for the session, and a second wait sees the queued `quit` at once.
        assert_eq!(input.wait_for(&results, |line| line == "quit", || false), None);
        assert_eq!(input.next_line().as_deref(), Some("name"));
        assert_eq!(input.next_line().as_deref(), Some("quit"));
        lines.send(None).unwrap();
        assert_eq!(input.wait_for(&results, |_| false, || true), None);
        assert!(input.is_closed());
    }
}
