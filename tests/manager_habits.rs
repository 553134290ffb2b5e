//! What GUIs and tournament managers do around the protocol, above all on Windows, checked on every
//! engine binary over real pipes: CR LF line ends in and out, file paths with spaces (and, for the
//! Windows builds, backslashes and a drive letter), an engine started from another working folder,
//! a manager that closes the pipe or kills the engine. scripts/test-windows.sh runs the same tests
//! on the `.exe` files under Wine (`TESSERA_ENGINE_DIR`).

mod support;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::{engine_binary, Driven, Folder};

const READ: Duration = Duration::from_secs(30);

/// Runs `program args…` with `input` on its stdin, then closes it, and returns everything it
/// wrote on stdout, bytes as they came.
///
/// # Panics
/// When the program has not ended within 60 s.
fn run_script(program: &Path, args: &[&str], input: &str) -> Vec<u8> {
    let mut command = Command::new(program);
    command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
    let mut child = command.spawn().unwrap_or_else(|error| panic!("starting {}: {error}", program.display()));
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_owned();
    // Written from a thread so that a program that answers before reading everything never blocks us.
    std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut stdout = child.stdout.take().expect("piped stdout");
    let (sender, receiver) = crossbeam_channel::bounded(1);
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        let _ = sender.send(bytes);
    });
    let bytes = receiver.recv_timeout(Duration::from_secs(60));
    let _ = child.kill();
    let _ = child.wait();
    bytes.unwrap_or_else(|_| panic!("{} did not end within 60 s", program.display()))
}

/// The lines of `bytes`, each with the end it had.
fn raw_lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes).split_inclusive('\n').map(str::to_owned).collect()
}

/// A few commands of each line protocol, and the answers they must bring.
const SESSIONS: [(&str, &[&str], &[&str]); 4] = [
    ("pbrain-tessera", &["START 15", "ABOUT", "FROB", "END"], &["OK", "name=\"Tessera\"", "UNKNOWN"]),
    ("tessera-uci", &["uci", "isready", "quit"], &["id name Tessera", "uciok", "readyok"]),
    ("tessera-ucci", &["ucci", "isready", "quit"], &["id name Tessera", "ucciok", "readyok", "bye"]),
    ("tessera-agi", &["AGI", "ISREADY", "QUIT"], &["ID NAME Tessera", "AGIOK", "READYOK", "BYE"]),
];

#[test]
fn a_manager_that_ends_lines_in_cr_lf_gets_cr_lf_back_and_one_that_uses_lf_gets_lf() {
    for (binary, commands, answers) in SESSIONS {
        for end in ["\r\n", "\n"] {
            let input: String = commands.iter().map(|command| format!("{command}{end}")).collect();
            let lines = raw_lines(&run_script(&engine_binary(binary), &[], &input));
            for answer in answers {
                assert!(lines.iter().any(|line| line.starts_with(answer)), "{binary}: no {answer}: {lines:?}");
            }
            assert!(lines.iter().all(|line| line.ends_with(end)), "{binary}, lines sent with {end:?}: {lines:?}");
            assert!(end == "\r\n" || lines.iter().all(|line| !line.contains('\r')), "{binary}: {lines:?}");
        }
    }
    // GTP frames its answers with LF alone (an empty line ends each), whatever the controller sends.
    let answers = run_script(&engine_binary("tessera-gtp"), &[], "name\r\nprotocol_version\r\nquit\r\n");
    assert_eq!(String::from_utf8_lossy(&answers), "= Tessera\n\n= 2\n\n= \n\n");
}

#[test]
fn log_and_network_files_in_folders_with_spaces() {
    let folder = Folder::new("paths with spaces");
    // AGI logs the lines it does not understand: the log file must get them, stdout must not.
    let log = folder.path_for_engine("engine log.txt");
    let agi = run_script(&engine_binary("tessera-agi"), &["--log-file", &log], "AGI\nFROB 42\nQUIT\n");
    let logged = std::fs::read_to_string(folder.0.join("engine log.txt")).expect("the log file was written");
    assert!(logged.contains("FROB 42"), "{logged}");
    assert!(!String::from_utf8_lossy(&agi).contains("FROB"));
    // UCI's EvalFile takes the rest of the line as the path, spaces and all.
    let network = folder.path_for_engine("my network.nnue");
    tessera_gomoku::nnue::Network::random("chess-768", 768, 32, 4).save(&folder.0.join("my network.nnue")).unwrap();
    let uci = run_script(
        &engine_binary("tessera-uci"),
        &[],
        &format!("uci\nsetoption name EvalFile value {network}\nisready\nquit\n"),
    );
    let text = String::from_utf8_lossy(&uci);
    let loaded = format!("info string EvalFile {network} loaded (chess-768 features, 32 hidden)");
    assert!(text.lines().any(|line| line == loaded), "no `{loaded}` in:\n{text}");
}

#[test]
fn engines_started_in_another_folder_play_and_leave_it_empty() {
    let folder = Folder::new("working folder");
    let plays: [(&str, &[&str], Answered); 5] = [
        ("tessera-uci", &["uci", "position startpos", "go depth 4"], |line| line.starts_with("bestmove ")),
        ("tessera-ucci", &["ucci", "position startpos", "go depth 4"], |line| line.starts_with("bestmove ")),
        ("pbrain-tessera", &["START 15", "INFO timeout_turn 200", "BEGIN"], |line| line.contains(',')),
        ("tessera-agi", &["AGI", "POSITION MOVES 78", "GO TIME 3000"], |line| line.starts_with("BESTMOVE ")),
        ("tessera-gtp", &["boardsize 9", "genmove b"], |line| line.starts_with("= ") && line.len() > 2),
    ];
    for (binary, commands, played) in plays {
        let mut engine = Driven::start_in(&folder.0, &engine_binary(binary), &["--threads", "2"]);
        for command in commands {
            engine.send(command);
        }
        engine.read_until(READ, played);
    }
    let left: Vec<_> = std::fs::read_dir(&folder.0).unwrap().map(|entry| entry.unwrap().file_name()).collect();
    assert!(left.is_empty(), "the engines wrote into their working folder: {left:?}");
}

/// Whether a line is the answer a test waits for.
type Answered = fn(&str) -> bool;

/// Each engine thinking for a long time, started with `args` (the marker among them).
fn start_thinking(binary: &str, args: &[&str]) -> Driven {
    let mut engine = Driven::start(&engine_binary(binary), args);
    let (script, thinking): (&[&str], Answered) = match binary {
        "tessera-uci" => (&["uci", "position startpos", "go infinite"], |line| line.starts_with("info depth")),
        "tessera-ucci" => (&["ucci", "position startpos", "go depth infinite"], |line| line.starts_with("info depth")),
        // An open position (BOARD: 1 = ours, 2 = theirs): the first stone would come without search.
        "pbrain-tessera" => (
            &[
                "START 19",
                "INFO show_detail 1",
                "INFO timeout_turn 60000",
                "BOARD",
                "9,9,2",
                "10,10,1",
                "9,10,2",
                "DONE",
            ],
            |line| line.starts_with("MESSAGE depth"),
        ),
        "tessera-agi" => (&["AGI", "POSITION MOVES 78", "GO INFINITE"], |line| line.starts_with("INFO DEPTH")),
        _ => unreachable!("only the four line protocols think until told otherwise"),
    };
    for line in script {
        engine.send(line);
    }
    engine.read_until(READ, thinking);
    engine
}

#[test]
fn a_manager_that_closes_the_pipe_ends_a_thinking_engine() {
    for binary in ["tessera-uci", "tessera-ucci", "pbrain-tessera", "tessera-agi"] {
        let mut engine = start_thinking(binary, &["--threads", "2"]);
        let closed = Instant::now();
        engine.close_input();
        assert!(engine.wait_exit(Duration::from_secs(5)), "{binary} still runs 5 s after its input closed");
        eprintln!("{binary}: exited {:?} after its input closed", closed.elapsed());
    }
}

/// The processes whose command line holds `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let command = std::fs::read(entry.path().join("cmdline")).ok()?;
            let command = String::from_utf8_lossy(&command).replace('\0', " ");
            command.contains(marker).then(|| format!("{}: {command}", entry.file_name().to_string_lossy()))
        })
        .collect()
}

#[test]
fn a_killed_engine_leaves_nothing_running() {
    if !Path::new("/proc/self/cmdline").exists() {
        return support::skipped("no /proc to look for processes in");
    }
    let folder = Folder::new("killed");
    for binary in ["tessera-uci", "tessera-ucci", "pbrain-tessera", "tessera-agi"] {
        // The log file's name marks this engine's process (and, under Wine, its helpers).
        let marker = format!("{binary}-killed-{}.log", std::process::id());
        let log = folder.path_for_engine(&marker);
        let engine = start_thinking(binary, &["--threads", "2", "--log-file", &log]);
        assert!(!processes_with(&marker).is_empty(), "{binary}: the marker is not in its command line");
        drop(engine); // kills it, as a manager does at a time-out
        let deadline = Instant::now() + Duration::from_secs(5);
        while !processes_with(&marker).is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert_eq!(processes_with(&marker), Vec::<String>::new(), "{binary} left processes behind");
    }
}
