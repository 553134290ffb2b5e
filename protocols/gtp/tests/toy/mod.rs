//! Tic-tac-toe (from core's toys) as a go board of size 3, row 1 at the bottom: `A3` is square
//! 0, `C1` square 8. There is no pass move. The notation remembers every move it names.

use std::sync::Mutex;
use std::time::Duration;

use tessera_core::harness::Watched;
use tessera_core::toys::TicTacToe;
use tessera_core::{
    EngineOptions, Game, GridNotation, GridPoint, Identity, IllegalMove, Mcts, MctsConfig, Notation, Player, Side,
};
use tessera_gtp_protocol::command::Status;
use tessera_gtp_protocol::{Dialect, Genmove, Handicap};

/// Each move the session turned into text, with whether it was legal there.
pub static NAMED: Mutex<Vec<(u8, bool)>> = Mutex::new(Vec::new());

/// Our time left on the clock of each search (`None` without a clock), in order.
pub static CLOCKS: Mutex<Vec<Option<Duration>>> = Mutex::new(Vec::new());

/// Vertices of the 3×3 board.
#[derive(Clone, Copy, Debug, Default)]
pub struct Vertices;

impl Notation for Vertices {
    type Game = TicTacToe;
    type Error = IllegalMove;

    fn parse_move(&self, _position: &TicTacToe, text: &str) -> Result<u8, IllegalMove> {
        let bad = || IllegalMove(text.to_owned());
        let bytes = text.to_ascii_uppercase().into_bytes();
        let [column @ b'A'..=b'C', row @ b'1'..=b'3'] = bytes[..] else { return Err(bad()) };
        Ok(3 * (3 - (row - b'0')) + (column - b'A'))
    }

    fn format_move(&self, position: &TicTacToe, mv: u8) -> String {
        NAMED.lock().expect("not poisoned").push((mv, position.is_legal(mv)));
        format!("{}{}", char::from(b'A' + mv % 3), 3 - mv / 3)
    }
}

impl GridNotation for Vertices {
    fn move_at(&self, _position: &TicTacToe, point: GridPoint) -> Result<u8, IllegalMove> {
        if point.column >= 3 || point.row >= 3 {
            return Err(IllegalMove(format!("{point:?}")));
        }
        // Both are below 3.
        Ok(3 * point.row as u8 + point.column as u8)
    }

    fn point_of(&self, _position: &TicTacToe, mv: u8) -> Option<GridPoint> {
        Some(GridPoint { column: u32::from(mv % 3), row: u32::from(mv / 3) })
    }
}

/// Tic-tac-toe over GTP.
#[derive(Clone, Default)]
pub struct Toy;

impl Player for Toy {
    type Game = TicTacToe;
    type Searcher = Watched<TicTacToe, Mcts<TicTacToe>>;
    type Notation = Vertices;

    fn identity(&self) -> Identity {
        Identity { name: "Toy".into(), version: "1".into(), ..Identity::tessera("") }
    }
    fn new_searcher(&self, options: &EngineOptions) -> Self::Searcher {
        let record = |_: &TicTacToe, limits: &tessera_core::Limits<u8>| {
            CLOCKS.lock().expect("not poisoned").push(limits.clock.map(|clock| clock.ours));
        };
        Watched::new(Mcts::new(MctsConfig::default(), options), record)
    }
}

impl Dialect for Toy {
    type Error = IllegalMove;

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
    fn set_rules(&self, _game: &mut TicTacToe, name: &str) -> Result<(), IllegalMove> {
        if name == "chinese" {
            Ok(())
        } else {
            Err(IllegalMove(name.to_owned()))
        }
    }
    fn set_side_to_move(&self, _game: &mut TicTacToe, _side: Side) {}
    fn resume(&self, _game: &mut TicTacToe) {}
    fn place_handicap(&self, _game: &mut TicTacToe, _kind: Handicap, _stones: usize) -> Result<Vec<u8>, IllegalMove> {
        Err(IllegalMove("invalid handicap".into()))
    }
    fn set_handicap(&self, _game: &mut TicTacToe, _stones: &[u8]) -> Result<(), IllegalMove> {
        Err(IllegalMove("invalid handicap".into()))
    }
    fn showboard(&self, game: &TicTacToe) -> Vec<String> {
        vec![format!("{} stones", game.ply())]
    }
    fn final_score(&self, _game: &TicTacToe) -> String {
        "0".into()
    }
    fn stones_with_status(&self, _game: &TicTacToe, _status: Status) -> Vec<u8> {
        Vec::new()
    }
    fn load_sgf(&self, text: &str, _move_number: Option<usize>) -> Result<TicTacToe, IllegalMove> {
        Err(IllegalMove(text.to_owned()))
    }
    fn save_sgf(&self, _game: &TicTacToe) -> String {
        "(;GM[1]SZ[3])".into()
    }
    fn root_moves(&self, _game: &TicTacToe, _cleanup: bool) -> Vec<u8> {
        Vec::new()
    }
    fn genmove_answer(&self, search: &Genmove<'_, u8>) -> Option<u8> {
        search.result.best
    }
}
