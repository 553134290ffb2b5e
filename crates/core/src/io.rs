//! Line-protocol I/O: a reader thread turning input lines into commands over a channel, one
//! locked and flushed writer for protocol output, and logging to stderr (never stdout).

use std::fmt::Display;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::sync::Arc;

use crossbeam_channel::{unbounded, Receiver};
use parking_lot::Mutex;

use crate::threads::refuse_thread;

/// Longest line kept; the rest of a longer line is dropped (and logged), never a crash.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Starts a thread that reads `input` line by line and sends `parse(line)` for each line, then
/// `closed` when the input ends or fails. Lines end at `\n`, `\r\n` or `\r`; the end marker is
/// not part of the line. Bytes that are not UTF-8 become U+FFFD.
///
/// When the system cannot start the thread the process exits with a message on stderr.
pub fn spawn_reader<R, T, F>(input: R, mut parse: F, closed: T) -> Receiver<T>
where
    R: Read + Send + 'static,
    T: Send + 'static,
    F: FnMut(String) -> T + Send + 'static,
{
    let (sender, receiver) = unbounded();
    std::thread::Builder::new()
        .name("input".into())
        // Reading lines needs little stack; a small one still starts under a tight memory limit.
        .stack_size(512 * 1024)
        .spawn(move || {
            let mut reader = LineReader::new(input);
            while let Some(line) = reader.next_line() {
                if sender.send(parse(line)).is_err() {
                    return; // the session is gone
                }
            }
            let _ = sender.send(closed);
        })
        .unwrap_or_else(|error| refuse_thread("input", &error));
    receiver
}

/// Splits a byte stream into lines at `\n`, `\r\n` and `\r`, bounded in length.
pub struct LineReader<R> {
    input: BufReader<R>,
    after_cr: bool,
    line: Vec<u8>,
}

impl<R: Read> LineReader<R> {
    /// A reader over `input`.
    pub fn new(input: R) -> Self {
        LineReader { input: BufReader::new(input), after_cr: false, line: Vec::new() }
    }

    /// The next line, or `None` at the end of input (a last line without an end marker is returned).
    pub fn next_line(&mut self) -> Option<String> {
        self.line.clear();
        let mut dropped = 0usize;
        loop {
            let buffer = match self.input.fill_buf() {
                Ok(buffer) => buffer,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(error) => {
                    tracing::warn!("input failed: {error}");
                    return None;
                }
            };
            if buffer.is_empty() {
                return (!self.line.is_empty() || dropped > 0).then(|| self.finish(dropped));
            }
            let mut used = 0;
            let mut ended = false;
            for &byte in buffer {
                used += 1;
                if std::mem::take(&mut self.after_cr) && byte == b'\n' {
                    continue; // the LF of a CR LF pair
                }
                match byte {
                    b'\n' => ended = true,
                    b'\r' => {
                        self.after_cr = true;
                        ended = true;
                    }
                    _ if self.line.len() < MAX_LINE_BYTES => self.line.push(byte),
                    _ => dropped += 1,
                }
                if ended {
                    break;
                }
            }
            self.input.consume(used);
            if ended {
                return Some(self.finish(dropped));
            }
        }
    }

    fn finish(&mut self, dropped: usize) -> String {
        if dropped > 0 {
            tracing::warn!("input line longer than {MAX_LINE_BYTES} bytes: dropped {dropped} bytes");
        }
        String::from_utf8_lossy(&self.line).into_owned()
    }
}

/// The one writer of protocol output. Cloneable; every line is written whole and flushed.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Protocol output on the process's stdout.
    #[must_use]
    pub fn stdout() -> Self {
        Self::new(std::io::stdout())
    }

    /// Protocol output into any writer (tests use [`Capture`]).
    pub fn new(writer: impl Write + Send + 'static) -> Self {
        Output { sink: Arc::new(Mutex::new(Box::new(writer))) }
    }

    /// Writes one line (a `\n` is added) and flushes.
    pub fn line(&self, text: impl Display) {
        self.lines(std::iter::once(text));
    }

    /// Writes several lines under one lock, so no other line lands between them, then flushes.
    pub fn lines<I>(&self, lines: I)
    where
        I: IntoIterator,
        I::Item: Display,
    {
        let mut sink = self.sink.lock();
        let mut result = Ok(());
        for line in lines {
            result = result.and_then(|()| writeln!(sink, "{line}"));
        }
        if let Err(error) = result.and_then(|()| sink.flush()) {
            // A closed stdout means the GUI went away; the session ends on input EOF.
            tracing::debug!("output failed: {error}");
        }
    }

    /// Writes `text` as is (no line end added) and flushes: for protocols with their own framing.
    pub fn raw(&self, text: &str) {
        let mut sink = self.sink.lock();
        if let Err(error) = sink.write_all(text.as_bytes()).and_then(|()| sink.flush()) {
            tracing::debug!("output failed: {error}");
        }
    }
}

/// An in-memory writer whose contents can be read while clones of it are written to.
#[derive(Clone, Default)]
pub struct Capture {
    bytes: Arc<Mutex<Vec<u8>>>,
}

impl Capture {
    /// An empty capture.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Everything written so far, as text.
    #[must_use]
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes.lock()).into_owned()
    }

    /// Everything written so far, split into lines.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        self.text().lines().map(str::to_owned).collect()
    }
}

impl Write for Capture {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.bytes.lock().extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Sends `tracing` logs to stderr, or to `file` when given, at `level` (`error`…`trace`, or any
/// `RUST_LOG`-style filter). Never to stdout, which belongs to the protocol.
///
/// # Errors
/// When the log file cannot be opened or the filter does not parse.
pub fn init_logging(level: &str, file: Option<&Path>) -> std::io::Result<()> {
    let filter = tracing_subscriber::EnvFilter::try_new(level)
        .map_err(|error| std::io::Error::new(std::io::ErrorKind::InvalidInput, error.to_string()))?;
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_target(false);
    let result = match file {
        Some(path) => {
            let file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
            builder.with_ansi(false).with_writer(std::sync::Mutex::new(file)).try_init()
        }
        None => builder.with_writer(std::io::stderr).try_init(),
    };
    // A second initialisation (tests) keeps the first subscriber; that is fine.
    let _ = result;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn splits_on_every_line_end() {
        let mut reader = LineReader::new(&b"uci\nisready\r\nquit\rlast"[..]);
        let lines: Vec<String> = std::iter::from_fn(|| reader.next_line()).collect();
        assert_eq!(lines, ["uci", "isready", "quit", "last"]);
        let mut reader = LineReader::new(&b"a\r\n\r\nb\n\n"[..]);
        let lines: Vec<String> = std::iter::from_fn(|| reader.next_line()).collect();
        assert_eq!(lines, ["a", "", "b", ""]);
    }

    #[test]
    fn survives_long_and_invalid_lines() {
        let mut input = vec![b'x'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(b"\n\xff\xfeok\nnext\n");
        let mut reader = LineReader::new(&input[..]);
        assert_eq!(reader.next_line().unwrap().len(), MAX_LINE_BYTES);
        assert_eq!(reader.next_line().unwrap(), "\u{fffd}\u{fffd}ok");
        assert_eq!(reader.next_line().unwrap(), "next");
        assert_eq!(reader.next_line(), None);
    }

    #[test]
    fn reader_thread_sends_commands_then_closed() {
        let receiver = spawn_reader(&b"go\nstop\n"[..], Some, None);
        let timeout = Duration::from_secs(5);
        assert_eq!(receiver.recv_timeout(timeout).unwrap().as_deref(), Some("go"));
        assert_eq!(receiver.recv_timeout(timeout).unwrap().as_deref(), Some("stop"));
        assert_eq!(receiver.recv_timeout(timeout).unwrap(), None);
    }

    #[test]
    fn output_writes_whole_lines() {
        let capture = Capture::new();
        let output = Output::new(capture.clone());
        output.line("readyok");
        output.lines(["a", "b"]);
        output.raw("= \n\n");
        assert_eq!(capture.text(), "readyok\na\nb\n= \n\n");
        assert_eq!(capture.lines(), ["readyok", "a", "b", "= ", ""]);
    }
}
