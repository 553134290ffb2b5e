//! `tessera demo`: one short game of each game between Tessera's own engines, through the real
//! binaries and protocols, with the board drawn as the games go; then how to use each engine.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tessera_arena::clients::agi::AgiContestant;
use tessera_arena::clients::gtp::GtpContestant;
use tessera_arena::clients::pbrain::PbrainContestant;
use tessera_arena::clients::ucci::UcciContestant;
use tessera_arena::clients::uci::UciContestant;
use tessera_arena::{
    play_game_observed, Adjudication, ClientError, Contestant, EngineSpec, GameRecord, GameSettings, TimeControl,
};
use tessera_core::{Game, Outcome, Side};

/// Why the demo could not run.
#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    /// An engine binary is not built next to `tessera`.
    #[error("{0} is missing: build everything first with `cargo build --release --workspace`")]
    Missing(PathBuf),
    /// An engine failed to start.
    #[error(transparent)]
    Engine(#[from] ClientError),
}

/// Plays the four demo games and prints the engine guide.
///
/// # Errors
/// When an engine binary is missing or does not start.
pub fn run() -> Result<(), DemoError> {
    let folder = std::env::current_exe().ok().and_then(|exe| exe.parent().map(Path::to_path_buf)).unwrap_or_default();
    let spec = |binary: &str, name: &str, args: &[&str]| -> Result<EngineSpec, DemoError> {
        let command = folder.join(format!("{binary}{}", std::env::consts::EXE_SUFFIX));
        if !command.exists() {
            return Err(DemoError::Missing(command));
        }
        Ok(EngineSpec {
            command,
            name: name.into(),
            args: args.iter().map(|a| a.to_string()).collect(),
            ..EngineSpec::default()
        })
    };
    let started = Instant::now();
    let live = std::io::stdout().is_terminal();

    let white = UciContestant::start(&spec("tessera-uci", "Tessera White", &[])?, None)?;
    let black = UciContestant::start(&spec("tessera-uci", "Tessera Black", &[])?, None)?;
    let chess = tessera_chess::Chess::new(tessera_chess::Rules::STANDARD);
    show_game("Chess (UCI)", &chess, (white, black), "st=0.1", 120, live, draw_chess);

    let red = UcciContestant::start(&spec("tessera-ucci", "Tessera Red", &[])?, None)?;
    let black = UcciContestant::start(&spec("tessera-ucci", "Tessera Black", &[])?, None)?;
    show_game("Xiangqi (UCCI)", &tessera_xiangqi::Position::start(), (red, black), "st=0.1", 120, live, |p| {
        p.to_string()
    });

    let rules = tessera_gomoku::Rules::new(tessera_gomoku::Variant::Freestyle, 15, 15).expect("15x15 is supported");
    let first = PbrainContestant::start(&spec("pbrain-tessera", "Tessera Black", &[])?, None)?;
    let second = AgiContestant::start(&spec("tessera-agi", "Tessera White", &[])?, None)?;
    show_game(
        "Gomoku, freestyle 15x15 (pbrain vs AGI)",
        &tessera_gomoku::Board::new(rules),
        (first, second),
        "st=0.1",
        225,
        live,
        draw_gomoku,
    );

    // GTP has no per-move node limit: the engines think by their own --playouts.
    let args = ["--playouts", "300"];
    let first = GtpContestant::start(&spec("tessera-gtp", "Tessera Black", &args)?, None)?;
    let second = GtpContestant::start(&spec("tessera-gtp", "Tessera White", &args)?, None)?;
    let go = tessera_go::Position::new(9, tessera_go::Rules::CHINESE);
    show_game("Go 9x9, area scoring, komi 7.5 (GTP)", &go, (first, second), "nodes=1", 200, live, |p| {
        tessera_go::display::showboard(p).join("\n")
    });

    println!("\nFour games in {:.1} s.\n", started.elapsed().as_secs_f64());
    crate::guide::print_engines();
    Ok(())
}

/// Plays one game, drawing the board after each move (redrawn in place on a terminal).
fn show_game<G: Game, A: Contestant<G>, B: Contestant<G>>(
    title: &str,
    start: &G,
    players: (A, B),
    time_control: &str,
    max_plies: usize,
    live: bool,
    draw: impl Fn(&G) -> String,
) {
    let (mut first, mut second) = players;
    let settings = GameSettings {
        time_control: time_control.parse::<TimeControl>().expect("the demo's time controls parse"),
        time_margin: Duration::from_millis(500),
        adjudication: Adjudication { max_plies: Some(max_plies), ..Adjudication::default() },
    };
    println!("\n=== {title}: {} vs {} ===", first.name(), second.name());
    let mut observe = |position: &G, _mv: G::Move| {
        let ply = position.ply();
        if live {
            // Home the cursor and clear the screen, then draw.
            print!("\x1b[H\x1b[2J=== {title} === ply {ply}\n{}\n", draw(position));
        } else if ply.is_multiple_of(20) {
            println!("--- ply {ply}\n{}", draw(position));
        }
    };
    let record = play_game_observed(start, [&mut first, &mut second], &settings, &mut observe);
    println!("--- final position after {} plies\n{}", record.moves.len(), draw(&record.final_position()));
    println!("{}", verdict(&record));
}

fn verdict<G: Game>(record: &GameRecord<G>) -> String {
    let who = match record.outcome {
        Outcome::Win(Side::First) => format!("{} wins", record.names[0]),
        Outcome::Win(Side::Second) => format!("{} wins", record.names[1]),
        Outcome::Draw => "Draw".to_string(),
    };
    format!("Result: {who} ({})", record.termination)
}

fn draw_chess(position: &tessera_chess::Chess) -> String {
    let board = position.board();
    let mut text = String::new();
    for rank in (0..8u8).rev() {
        text.push_str(&format!("{} ", rank + 1));
        for file in 0..8u8 {
            let piece = board.piece_at(rank * 8 + file).map_or('.', |piece| piece.letter());
            text.push(' ');
            text.push(piece);
        }
        text.push('\n');
    }
    text.push_str("   a b c d e f g h");
    text
}

fn draw_gomoku(board: &tessera_gomoku::Board) -> String {
    let rules = board.rules();
    let mut text = String::new();
    for y in 0..rules.height {
        for x in 0..rules.width {
            let stone = board.stone(tessera_gomoku::Point::new(x, y));
            text.push_str(match stone {
                Some(Side::First) => " X",
                Some(Side::Second) => " O",
                None => " .",
            });
        }
        text.push('\n');
    }
    text.pop();
    text
}
