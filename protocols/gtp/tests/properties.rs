//! Property tests of the GTP session on core's tic-tac-toe (a 3×3 board; no pass move): random
//! command sequences (ids, comments, bad arguments, analysis streams, time systems) never panic,
//! every command gets exactly one response (`=` or `?`), and every move the engine names (in
//! `genmove` or in analysis) is legal in the position it names it for. Bounded for CI.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::Duration;

use proptest::prelude::*;
use tessera_core::io::{Capture, Output};
use tessera_core::toys::TicTacToe;
use tessera_core::{EngineOptions, Game, Mcts, MctsConfig, Side};
use tessera_gtp_protocol::command::{preprocess, Status};
use tessera_gtp_protocol::{Config, Dialect, Handicap, Session, Vertex};

/// Tic-tac-toe as a go board of size 3 (row 1 at the bottom); it remembers every move it names.
#[derive(Clone, Default)]
struct Toy {
    /// Each move the session turned into text, with whether it was legal there.
    named: Arc<Mutex<Vec<(u8, bool)>>>,
}

impl Dialect for Toy {
    type Game = TicTacToe;
    fn name(&self) -> &str {
        "Toy"
    }
    fn version(&self) -> &str {
        "1"
    }
    fn supports_size(&self, size: i64) -> bool {
        size == 3
    }
    fn new_game(&self, _size: usize, _komi: f32, _like: Option<&TicTacToe>) -> TicTacToe {
        TicTacToe::new()
    }
    fn size(&self, _game: &TicTacToe) -> usize {
        3
    }
    fn set_komi(&self, _game: &mut TicTacToe, _komi: f32) {}
    fn set_rules(&self, _game: &mut TicTacToe, name: &str) -> Result<(), String> {
        if name == "chinese" {
            Ok(())
        } else {
            Err("unknown rules".into())
        }
    }
    fn to_move(&self, _game: &TicTacToe, vertex: Vertex) -> Option<u8> {
        match vertex {
            Vertex::Point { column, row } if column < 3 && (1..=3).contains(&row) => Some(3 * (3 - row) + column),
            _ => None,
        }
    }
    fn to_vertex(&self, game: &TicTacToe, mv: u8) -> Vertex {
        self.named.lock().expect("not poisoned").push((mv, game.is_legal(mv)));
        Vertex::Point { column: mv % 3, row: 3 - mv / 3 }
    }
    fn set_side_to_move(&self, _game: &mut TicTacToe, _side: Side) {}
    fn resume(&self, _game: &mut TicTacToe) {}
    fn place_handicap(&self, _game: &mut TicTacToe, _kind: Handicap, _stones: usize) -> Result<Vec<u8>, String> {
        Err("invalid handicap".into())
    }
    fn set_handicap(&self, _game: &mut TicTacToe, _stones: &[u8]) -> Result<(), String> {
        Err("invalid handicap".into())
    }
    fn showboard(&self, game: &TicTacToe) -> Vec<String> {
        vec![format!("{} stones", game.ply())]
    }
    fn ownership(&self, _game: &TicTacToe, _playouts: usize) -> Vec<f32> {
        vec![0.0; 9]
    }
    fn final_score(&self, _game: &TicTacToe) -> f32 {
        0.0
    }
    fn stones_with_status(&self, _game: &TicTacToe, _status: Status) -> Vec<u8> {
        Vec::new()
    }
    fn is_unsettled(&self, _game: &TicTacToe) -> bool {
        false
    }
    fn load_sgf(&self, _text: &str, _move_number: Option<usize>) -> Result<TicTacToe, String> {
        Err("no records of tic-tac-toe".into())
    }
    fn save_sgf(&self, _game: &TicTacToe) -> String {
        "(;GM[1]SZ[3])".into()
    }
    fn searcher(&self, options: &EngineOptions) -> Mcts<TicTacToe> {
        Mcts::new(MctsConfig::default(), options)
    }
}

static PANICS: AtomicUsize = AtomicUsize::new(0);

fn count_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            previous(info);
        }));
    });
}

fn vertex() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (prop_oneof![Just('A'), Just('B'), Just('C')], 1u8..4).prop_map(|(c, r)| format!("{c}{r}")),
        1 => Just("pass".to_string()),
        1 => Just("D4".to_string()),
        1 => Just("I1".to_string()),
        1 => Just("zz".to_string()),
    ]
}

fn command() -> impl Strategy<Value = String> {
    let color = prop_oneof![Just("b"), Just("w"), Just("black"), Just("x")];
    let plain = prop_oneof![
        Just("protocol_version"),
        Just("name"),
        Just("version"),
        Just("known_command genmove"),
        Just("list_commands"),
        Just("boardsize 3"),
        Just("boardsize 19"),
        Just("boardsize x"),
        Just("clear_board"),
        Just("komi 6.5"),
        Just("komi nan"),
        Just("undo"),
        Just("fixed_handicap 2"),
        Just("place_free_handicap 3"),
        Just("set_free_handicap A1 B2"),
        Just("time_settings 10 0 0"),
        Just("time_settings 0 5 1"),
        Just("time_left b 99999999 0"),
        Just("time_left w -5 0"),
        Just("kgs-time_settings byoyomi 0 1 3"),
        Just("kgs-rules chinese"),
        Just("kgs-rules bogus"),
        Just("kgs-game_over"),
        Just("final_score"),
        Just("final_status_list dead"),
        Just("showboard"),
        Just("loadsgf /nonexistent/x.sgf"),
        Just("printsgf"),
        Just("printsgf -"),
        Just("lz-analyze 1"),
        Just("kata-analyze b 1 ownership true"),
        Just("gogui-best_moves"),
        Just("gogui-ownership"),
        Just("gogui-analyze_commands"),
        Just("# a comment"),
        Just("\tname"),
        Just(""),
    ]
    .prop_map(String::from);
    prop_oneof![
        4 => (color.clone(), vertex()).prop_map(|(c, v)| format!("play {c} {v}")),
        3 => color.clone().prop_map(|c| format!("genmove {c}")),
        1 => color.clone().prop_map(|c| format!("reg_genmove {c}")),
        1 => color.prop_map(|c| format!("kata-genmove_analyze {c} 1")),
        5 => plain,
        1 => "[ -~]{0,20}",
    ]
}

fn line() -> impl Strategy<Value = String> {
    (prop::option::of(0u32..100), command()).prop_map(|(id, text)| match id {
        Some(id) if !text.is_empty() => format!("{id} {text}"),
        _ => text,
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_command_gets_one_response_and_moves_are_legal(lines in prop::collection::vec(line(), 1..25)) {
        count_panics();
        let capture = Capture::new();
        let toy = Toy::default();
        let config = Config {
            options: EngineOptions { hash_mb: 1, ..EngineOptions::default() },
            resign_threshold: 0.0,
            move_time: Duration::from_millis(5),
            playouts: Some(64),
            ponder: false,
        };
        let (sender, receiver) = crossbeam_channel::unbounded();
        for line in &lines {
            sender.send(Some(line.clone())).expect("open channel");
        }
        sender.send(None).expect("open channel");
        Session::new(toy.clone(), config, Output::new(capture.clone())).run(&receiver);
        let output = capture.lines();
        let responses = output.iter().filter(|line| line.starts_with('=') || line.starts_with('?')).count();
        let commands = lines.iter().filter(|line| !preprocess(line).is_empty()).count();
        prop_assert_eq!(responses, commands, "{:?}", output);
        let named = toy.named.lock().expect("not poisoned").clone();
        prop_assert!(named.iter().all(|&(_, legal)| legal), "{:?}\n{:?}", named, output);
        prop_assert_eq!(PANICS.load(Ordering::SeqCst), 0);
    }
}
