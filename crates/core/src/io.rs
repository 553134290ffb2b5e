//! Line-protocol I/O: a reader thread turning input lines into commands over a channel, one
//! locked and flushed writer for protocol output, and logging to stderr (never stdout).

use std::fmt::Display;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crossbeam_channel::{unbounded, Receiver};
use parking_lot::Mutex;

use crate::threads::refuse_thread;

/// Longest line kept; the rest of a longer line is dropped (and logged), never a crash.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The line end the GUI's input uses, as the reader saw it last. An [`Output`] that follows it
/// answers a GUI that ends its lines in CR LF (a Windows manager: Piskvork, Arena, the xiangqi
/// GUIs) in CR LF, as the C engines there do, and every other GUI in LF.
#[derive(Clone, Debug, Default)]
pub struct LineEnds {
    carriage_return: Arc<AtomicBool>,
}

impl LineEnds {
    /// A fresh watch: LF until a line ends in CR LF (or a lone CR, which only such GUIs send).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The end to write after each output line: CR LF when the last line read ended in one.
    #[must_use]
    pub fn end(&self) -> &'static str {
        if self.carriage_return.load(Ordering::Relaxed) {
            "\r\n"
        } else {
            "\n"
        }
    }

    fn saw(&self, carriage_return: bool) {
        self.carriage_return.store(carriage_return, Ordering::Relaxed);
    }
}

/// Starts a thread that reads `input` line by line and sends `parse(line)` for each line, then
/// `closed` when the input ends or fails. Lines end at `\n`, `\r\n` or `\r`; the end marker is
/// not part of the line, and `line_ends` learns which one the input uses. Bytes that are not
/// UTF-8 become U+FFFD.
///
/// When the system cannot start the thread the process exits with a message on stderr.
pub fn spawn_reader<R, T, F>(input: R, mut parse: F, closed: T, line_ends: LineEnds) -> Receiver<T>
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
                if let Some(carriage_return) = reader.ended_with_carriage_return() {
                    line_ends.saw(carriage_return);
                }
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
    /// How the last line ended: `Some(true)` at CR (LF), `Some(false)` at LF, `None` at the end of input.
    ended_with_cr: Option<bool>,
    line: Vec<u8>,
}

impl<R: Read> LineReader<R> {
    /// A reader over `input`.
    pub fn new(input: R) -> Self {
        LineReader { input: BufReader::new(input), after_cr: false, ended_with_cr: None, line: Vec::new() }
    }

    /// How the line [`LineReader::next_line`] returned last ended: `Some(true)` at a CR (of a
    /// CR LF pair, or alone), `Some(false)` at an LF, `None` when the input ended it.
    #[must_use]
    pub fn ended_with_carriage_return(&self) -> Option<bool> {
        self.ended_with_cr
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
                self.ended_with_cr = None;
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
                self.ended_with_cr = Some(self.after_cr);
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

/// The one writer of protocol output. Cloneable (the clones share the writer and its line end);
/// every line is written whole and flushed.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Sink>>,
}

struct Sink {
    writer: Box<dyn Write + Send>,
    /// The input's line ends, once [`Output::follow`] was called; LF until then.
    line_ends: Option<LineEnds>,
    /// A write has failed: the reader is gone.
    failed: bool,
    /// Asks the system whether the reader is gone without writing (the process's stdout).
    reader_gone: Option<fn() -> bool>,
}

impl Sink {
    fn note(&mut self, result: std::io::Result<()>) {
        if let Err(error) = result {
            // A closed stdout means the GUI went away; the session notices through `is_gone`.
            tracing::debug!("output failed: {error}");
            self.failed = true;
        }
    }
}

impl Output {
    /// Protocol output on the process's stdout.
    #[must_use]
    pub fn stdout() -> Self {
        Self::with_probe(Box::new(std::io::stdout()), Some(stdout_reader_gone))
    }

    /// Protocol output into any writer (tests use [`Capture`]).
    pub fn new(writer: impl Write + Send + 'static) -> Self {
        Self::with_probe(Box::new(writer), None)
    }

    fn with_probe(writer: Box<dyn Write + Send>, reader_gone: Option<fn() -> bool>) -> Self {
        let sink = Sink { writer, line_ends: None, failed: false, reader_gone };
        Output { sink: Arc::new(Mutex::new(sink)) }
    }

    /// Whether nobody reads this output any more: a write failed, or (for stdout, where the
    /// system can tell without writing) the reading end of its pipe is closed.
    #[must_use]
    pub fn is_gone(&self) -> bool {
        let sink = self.sink.lock();
        sink.failed || sink.reader_gone.is_some_and(|gone| gone())
    }

    /// From now on ends each line as the input does (see [`LineEnds`]), in this output and all
    /// its clones. [`Output::raw`] text is written as given.
    pub fn follow(&self, line_ends: &LineEnds) {
        self.sink.lock().line_ends = Some(line_ends.clone());
    }

    /// Writes one line (its end added: `\n`, or the input's, see [`Output::follow`]) and flushes.
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
        let end = sink.line_ends.as_ref().map_or("\n", LineEnds::end);
        let mut result = Ok(());
        for line in lines {
            result = result.and_then(|()| write!(sink.writer, "{line}{end}"));
        }
        let result = result.and_then(|()| sink.writer.flush());
        sink.note(result);
    }

    /// Writes `text` as is (no line end added) and flushes: for protocols with their own framing.
    pub fn raw(&self, text: &str) {
        let mut sink = self.sink.lock();
        let result = sink.writer.write_all(text.as_bytes()).and_then(|()| sink.writer.flush());
        sink.note(result);
    }
}

/// Whether the process's stdout is a pipe whose reading end is closed (Linux: `poll` reports an
/// error on it). Elsewhere `false`: the first failed write tells instead.
fn stdout_reader_gone() -> bool {
    #[cfg(target_os = "linux")]
    {
        let mut stdout = libc::pollfd { fd: libc::STDOUT_FILENO, events: 0, revents: 0 };
        // SAFETY: one valid pollfd and a count of one; a zero timeout returns at once.
        let ready = unsafe { libc::poll(&mut stdout, 1, 0) };
        ready > 0 && stdout.revents & (libc::POLLERR | libc::POLLHUP) != 0
    }
    #[cfg(not(target_os = "linux"))]
    false
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
        let receiver = spawn_reader(&b"go\nstop\n"[..], Some, None, LineEnds::new());
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

    #[test]
    fn output_that_follows_answers_in_the_input_line_end() {
        let capture = Capture::new();
        let output = Output::new(capture.clone());
        let line_ends = LineEnds::new();
        let lines = spawn_reader(&b"START 15\r\nBEGIN\r\n"[..], Some, None, line_ends.clone());
        let timeout = Duration::from_secs(5);
        assert_eq!(lines.recv_timeout(timeout).unwrap().as_deref(), Some("START 15"));
        output.clone().follow(&line_ends);
        output.line("OK");
        assert_eq!(lines.recv_timeout(timeout).unwrap().as_deref(), Some("BEGIN"));
        output.raw("raw\n");
        let unix = spawn_reader(&b"END\n"[..], Some, None, line_ends.clone());
        assert_eq!(unix.recv_timeout(timeout).unwrap().as_deref(), Some("END"));
        output.line("bye");
        assert_eq!(capture.text(), "OK\r\nraw\nbye\n");
    }

    #[test]
    fn a_failed_write_means_the_reader_is_gone() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let output = Output::new(Closed);
        assert!(!output.is_gone());
        output.line("= C3");
        assert!(output.is_gone());
        assert!(!Output::new(Capture::new()).is_gone());
    }

    #[test]
    fn reader_tells_each_line_end() {
        let mut reader = LineReader::new(&b"a\r\nb\nc\rd"[..]);
        let mut ends = Vec::new();
        while let Some(line) = reader.next_line() {
            ends.push((line, reader.ended_with_carriage_return()));
        }
        let expected = [("a", Some(true)), ("b", Some(false)), ("c", Some(true)), ("d", None)];
        assert_eq!(ends, expected.map(|(line, end)| (line.to_owned(), end)));
    }
}
