//! The third-party peers the workspace tests talk to, listed in the README's test command output.
//!
//! A peer test whose program is missing passes without playing (unless `TESSERA_REQUIRE_PEERS=1`,
//! as in CI), and the test harness prints it as `ok`. So this binary writes, past the harness's
//! output capture, one `peers:` line per peer (present or missing, and which tests skip without
//! it), and each skipping test writes its own `SKIPPED:` line (`support::skipped`).

mod support;

use std::io::Write;

use support::{find_program, has_python_module, peers_required, workspace_root};

/// One peer: its name, how to install it, and the tests that need it.
struct Peer {
    name: &'static str,
    install: &'static str,
    tests: &'static str,
    present: fn() -> bool,
}

const PEERS: [Peer; 10] = [
    Peer {
        name: "stockfish",
        install: "apt install stockfish",
        tests: "arena_match, chess_python",
        present: || find_program("stockfish").is_some(),
    },
    Peer {
        name: "fairy-stockfish",
        install: "apt install fairy-stockfish",
        tests: "arena_match, xiangqi_fairy, xiangqi_repetition_table",
        present: || find_program("fairy-stockfish").is_some(),
    },
    Peer {
        name: "gnugo",
        install: "apt install gnugo",
        tests: "arena_match",
        present: || find_program("gnugo").is_some(),
    },
    Peer {
        name: "phalanx",
        install: "apt install phalanx",
        tests: "arena_match",
        present: || find_program("phalanx").is_some(),
    },
    Peer {
        name: "python-chess",
        install: "pip install chess",
        tests: "chess_python, match_report",
        present: || has_python_module("chess"),
    },
    Peer {
        name: "chromium",
        install: "apt install chromium",
        tests: "match_report",
        present: || find_program("chromium").is_some(),
    },
    Peer {
        name: "chromedriver",
        install: "apt install chromium-driver",
        tests: "match_report",
        present: || find_program("chromedriver").is_some(),
    },
    Peer {
        name: "selenium",
        install: "pip install selenium",
        tests: "match_report",
        present: || has_python_module("selenium"),
    },
    Peer {
        name: "node",
        install: "install Node.js 20",
        tests: "go_sabaki",
        present: || find_program("node").is_some(),
    },
    Peer {
        name: "@sabaki/gtp",
        install: "npm install in tests/node",
        tests: "go_sabaki",
        present: || workspace_root().join("tests/node/node_modules/@sabaki/gtp").is_dir(),
    },
];

#[test]
fn list_the_peers_past_the_output_capture() {
    let mut lines = Vec::new();
    let mut missing = Vec::new();
    for peer in &PEERS {
        if (peer.present)() {
            lines.push(format!("peers: {:<16} present\n", peer.name));
        } else {
            lines.push(format!(
                "peers: {:<16} MISSING ({}): tests in {} are SKIPPED, not passed\n",
                peer.name, peer.install, peer.tests
            ));
            missing.push(peer.name);
        }
    }
    if !missing.is_empty() {
        lines.push(format!(
            "peers: {} of {} missing; TESSERA_REQUIRE_PEERS=1 (as in .ci/run) makes that a failure\n",
            missing.len(),
            PEERS.len()
        ));
    }
    // Straight to stderr, not through `eprintln!`: the harness would swallow a passing test's output.
    let _ = std::io::stderr().lock().write_all(lines.concat().as_bytes());
    assert!(
        !peers_required() || missing.is_empty(),
        "peers required (TESSERA_REQUIRE_PEERS=1) but missing: {missing:?}"
    );
}
