//! The GTP dialect of Tessera's go crate: how the protocol session sees `tessera-go`.

use tessera_core::{EngineOptions, Game, Mcts, Side};
use tessera_go::board::{point, STRIDE};
use tessera_go::handicap::{fixed_handicap_points, free_handicap_points, place_handicap};
use tessera_go::life::{judge, REFEREE_SEED};
use tessera_go::position::color_of;
use tessera_go::score::ownership;
use tessera_go::{display, search, sgf, Board, Cell, Move, Position, Rules};
use tessera_gtp_protocol::command::Status;
use tessera_gtp_protocol::{Dialect, Handicap, Vertex};

/// Tessera's go over GTP.
#[derive(Clone, Copy, Debug, Default)]
pub struct TesseraGo;

impl Dialect for TesseraGo {
    type Game = Position;

    fn name(&self) -> &str {
        "Tessera"
    }

    fn version(&self) -> &str {
        env!("CARGO_PKG_VERSION")
    }

    fn supports_size(&self, size: i64) -> bool {
        (2..=25).contains(&size)
    }

    fn new_game(&self, size: usize, komi: f32, like: Option<&Position>) -> Position {
        let rules = like.map_or(Rules::CHINESE.with_komi(komi), |game| *game.rules());
        Position::new(size, rules)
    }

    fn size(&self, game: &Position) -> usize {
        game.size()
    }

    fn set_komi(&self, game: &mut Position, komi: f32) {
        game.set_komi(komi);
    }

    fn set_rules(&self, game: &mut Position, name: &str) -> Result<(), String> {
        let komi = game.rules().komi;
        let rules = match name.to_ascii_lowercase().as_str() {
            // Territory rule sets are played by area here; only the superko and suicide rules change.
            "japanese" | "aga" | "chinese" => Rules::CHINESE,
            other => other.parse::<Rules>().map_err(|_| "unknown rules".to_string())?,
        };
        game.set_rules(rules.with_komi(komi));
        Ok(())
    }

    fn to_move(&self, game: &Position, vertex: Vertex) -> Option<Move> {
        match vertex {
            Vertex::Pass => Some(Move::PASS),
            Vertex::Point { column, row } => {
                let (column, row, size) = (usize::from(column), usize::from(row), game.size());
                (column < size && (1..=size).contains(&row)).then(|| Move::at(point(column, size - row)))
            }
        }
    }

    fn to_vertex(&self, game: &Position, mv: Move) -> Vertex {
        match mv.point() {
            None => Vertex::Pass,
            Some(p) => {
                let (x, y) = (p % STRIDE - 1, p / STRIDE - 1);
                Vertex::Point { column: x as u8, row: (game.size() - y) as u8 }
            }
        }
    }

    fn set_side_to_move(&self, game: &mut Position, side: Side) {
        game.set_to_move(color_of(side));
    }

    fn resume(&self, game: &mut Position) {
        game.resume();
    }

    fn place_handicap(&self, game: &mut Position, kind: Handicap, stones: usize) -> Result<Vec<Move>, String> {
        if game.board().points().any(|p| game.board().cell(p) != Cell::Empty) {
            return Err("board not empty".into());
        }
        let points = match kind {
            Handicap::Fixed => fixed_handicap_points(game.size(), stones),
            Handicap::Free => free_handicap_points(game.board(), stones),
        }
        .map_err(|error| error.to_string())?;
        self.set_handicap(game, &points.iter().map(|&p| Move::at(p)).collect::<Vec<_>>())?;
        Ok(points.into_iter().map(Move::at).collect())
    }

    fn set_handicap(&self, game: &mut Position, stones: &[Move]) -> Result<(), String> {
        if stones.len() >= game.size() * game.size() {
            return Err("invalid handicap".into());
        }
        let mut board = Board::new(game.size());
        if game.board().points().any(|p| game.board().cell(p) != Cell::Empty) || game.ply() > 0 {
            return Err("board not empty".into());
        }
        let points: Vec<usize> = stones.iter().filter_map(|mv| mv.point()).collect();
        place_handicap(&mut board, &points).map_err(|error| error.to_string())?;
        *game = Position::from_board(board, *game.rules());
        Ok(())
    }

    fn showboard(&self, game: &Position) -> Vec<String> {
        display::showboard(game)
    }

    fn ownership(&self, game: &Position, playouts: usize) -> Vec<f32> {
        let owners = ownership(game, playouts, REFEREE_SEED);
        game.board().points().map(|p| owners[p]).collect()
    }

    fn final_score(&self, game: &Position) -> f32 {
        judge(game).score
    }

    fn stones_with_status(&self, game: &Position, status: Status) -> Vec<Move> {
        let judgement = judge(game);
        let board = game.board();
        let stones = board.points().filter(|&p| board.cell(p) != Cell::Empty);
        let listed: Vec<usize> = match status {
            Status::Dead => judgement.dead,
            Status::Seki => judgement.seki,
            Status::Alive => stones
                .filter(|p| judgement.dead.binary_search(p).is_err() && judgement.seki.binary_search(p).is_err())
                .collect(),
        };
        listed.into_iter().map(Move::at).collect()
    }

    fn is_unsettled(&self, game: &Position) -> bool {
        let judgement = judge(game);
        let board = game.board();
        // Dead stones still on the board, or stones (seki aside) whose fate playouts do not agree on.
        !judgement.dead.is_empty()
            || board.points().any(|p| {
                board.cell(p) != Cell::Empty
                    && judgement.ownership[p].abs() < 0.8
                    && judgement.seki.binary_search(&p).is_err()
            })
    }

    fn load_sgf(&self, text: &str, move_number: Option<usize>) -> Result<Position, String> {
        let record = sgf::parse(text).map_err(|error| error.to_string())?;
        record.to_position(Rules::CHINESE, move_number).map_err(|error| error.to_string())
    }

    fn save_sgf(&self, game: &Position) -> String {
        let result = game.is_over().then(|| tessera_gtp_protocol::session::format_score(judge(game).score));
        sgf::write(game, result.as_deref())
    }

    fn searcher(&self, options: &EngineOptions) -> Mcts<Position> {
        search::searcher(options)
    }
}

#[cfg(test)]
mod tests {
    //! In-process transcripts: input lines → exact output, through `io::Output::new(Capture)`.

    use tessera_core::io::{Capture, Output};
    use tessera_gtp_protocol::{Config, Session};

    use super::TesseraGo;

    fn transcript(input: &[&str]) -> String {
        transcript_with(Config { playouts: Some(200), resign_threshold: 0.0, ..Config::default() }, input)
    }

    fn transcript_with(config: Config, input: &[&str]) -> String {
        let capture = Capture::new();
        let mut session = Session::new(TesseraGo, config, Output::new(capture.clone()));
        let (sender, receiver) = crossbeam_channel::unbounded();
        for line in input {
            sender.send(Some((*line).to_string())).unwrap();
        }
        sender.send(None).unwrap();
        session.run(&receiver);
        capture.text()
    }

    #[test]
    fn framing_errors_and_board_commands() {
        let text = transcript(&[
            "1 protocol_version",
            "# comment",
            "",
            "boardsize 26",
            "2 boardsize 7",
            "play b D5",
            "play w C3",
            "play b E3",
            "play w E3",
            "bogus",
            "komi",
            "3 undo",
            "undo",
            "undo",
            "undo",
            "quit",
            "name",
        ]);
        let expected = "=1 2\n\n? unacceptable size\n\n=2 \n\n= \n\n= \n\n= \n\n? illegal move\n\n\
                        ? unknown command\n\n? syntax error\n\n=3 \n\n= \n\n= \n\n? cannot undo\n\n= \n\n";
        assert_eq!(text, expected);
    }

    #[test]
    fn showboard_handicap_and_score() {
        let text = transcript(&["boardsize 7", "play b D5", "play w C3", "play b E3", "showboard"]);
        let board = [
            "= ",
            "   A B C D E F G",
            " 7 . . . . . . . 7",
            " 6 . . . . . . . 6",
            " 5 . . + X + . . 5",
            " 4 . . . + . . . 4",
            " 3 . . O . X . . 3",
            " 2 . . . . . . . 2     WHITE (O) has captured 0 stones",
            " 1 . . . . . . . 1     BLACK (X) has captured 0 stones",
            "   A B C D E F G",
        ];
        assert!(text.ends_with(&format!("{}\n\n", board.join("\n"))), "{text}");
        let text = transcript(&["boardsize 9", "fixed_handicap 5", "fixed_handicap 2", "genmove w"]);
        assert!(text.starts_with("= \n\n= C7 G7 E5 C3 G3\n\n? board not empty\n\n= "), "{text}");
        let text = transcript(&["boardsize 2", "komi 0.5", "play b A1", "play w pass", "play b pass", "final_score"]);
        assert!(text.ends_with("= B+3.5\n\n"), "{text}");
    }

    #[test]
    fn handicap_stones_give_the_playouts_a_dynamic_komi() {
        use tessera_go::komi::{extra_komi, HANDICAP_STONE_VALUE};
        use tessera_gtp_protocol::{Dialect, Handicap};
        // fixed_handicap and place_free_handicap set up the position the komi is read from.
        for kind in [Handicap::Fixed, Handicap::Free] {
            let mut game = TesseraGo.new_game(9, 0.5, None);
            assert_eq!(extra_komi(&game), 0.0);
            TesseraGo.place_handicap(&mut game, kind, 3).expect("3 stones fit on 9x9");
            assert_eq!(extra_komi(&game), 3.0 * HANDICAP_STONE_VALUE, "{kind:?}");
        }
        // Six stones on 9x9 and komi 0.5: nearly every playout is Black's, and without the
        // dynamic komi White resigns at once (below 0.08 after 500 playouts); with it White plays.
        let config = Config { playouts: Some(600), resign_threshold: 0.08, ..Config::default() };
        let text = transcript_with(config, &["boardsize 9", "komi 0.5", "fixed_handicap 6", "genmove w"]);
        assert!(!text.contains("resign"), "{text}");
    }

    #[test]
    fn random_input_never_breaks_the_session() {
        // Command names with random arguments, and raw garbage: every line gets `=` or `?`.
        let words = [
            "play",
            "genmove",
            "boardsize",
            "komi",
            "undo",
            "fixed_handicap",
            "place_free_handicap",
            "set_free_handicap",
            "final_score",
            "final_status_list",
            "showboard",
            "time_left",
            "kgs-time_settings",
            "kata-analyze",
            "lz-genmove_analyze",
            "reg_genmove",
            "loadsgf",
            "kgs-genmove_cleanup",
            "clear_board",
            "b",
            "w",
            "pass",
            "A1",
            "T19",
            "Z25",
            "3",
            "-1",
            "0",
            "1000",
            "9",
            "dead",
            "byoyomi",
            "ownership",
            "true",
            "\u{1}",
            "#",
            "I9",
            "J10",
        ];
        let mut rng = tessera_core::Rng::new(11);
        let mut lines = vec!["boardsize 5".to_string()];
        for _ in 0..400 {
            let count = 1 + rng.below(4);
            let line: Vec<&str> = (0..count).map(|_| words[rng.below(words.len())]).collect();
            lines.push(line.join(" "));
        }
        let input: Vec<&str> = lines.iter().map(String::as_str).collect();
        let text = transcript(&input);
        for response in text.split("\n\n").filter(|r| !r.is_empty()) {
            let first = response.trim_start_matches('\n');
            assert!(first.starts_with('=') || first.starts_with('?') || first.starts_with("info"), "{response:?}");
        }
    }
}
