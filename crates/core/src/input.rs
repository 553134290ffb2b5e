//! A session's view of its input: lines from the reader thread, queued while a command runs.
//!
//! Most commands are answered at once, but some wait (a GTP `genmove`, an analysis that runs until
//! the next line): meanwhile the GUI may send the next lines, which stay queued in order, and it
//! may go away (close the pipe), and then the engine stops at once rather than finish thinking for
//! nobody (after answering what was already sent).

use std::collections::VecDeque;

use crossbeam_channel::{select, unbounded, Receiver, Sender};

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

    /// Waits for `result`, queueing the input lines that arrive meanwhile. Returns `None` as soon
    /// as the input closes: the caller stops its work, nobody is left to answer.
    pub fn wait_for<T>(&mut self, result: &Receiver<T>) -> Option<T> {
        loop {
            if self.closed {
                return result.try_recv().ok();
            }
            select! {
                recv(result) -> value => return value.ok(),
                recv(&self.lines) -> line => match line {
                    Ok(Some(line)) => self.queue.push_back(line),
                    Ok(None) | Err(_) => self.closed = true,
                },
            }
        }
    }
}

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
        assert_eq!(input.wait_for(&results), Some(7));
        lines.send(None).unwrap();
        assert_eq!(input.next_line().as_deref(), Some("a"));
        assert_eq!(input.next_line().as_deref(), Some("b"));
        assert_eq!(input.next_line(), None);
        assert!(input.is_closed());
    }

    #[test]
    fn a_closed_input_ends_the_wait() {
        let (lines, receiver) = unbounded::<Option<String>>();
        let (_result, results) = bounded::<u32>(1);
        let mut input = Input::new(receiver);
        lines.send(None).unwrap();
        assert_eq!(input.wait_for(&results), None);
        assert!(input.is_closed());
    }
}
