//! The client side of the xboard (CECP) protocol, for engines that speak only it: Phalanx (chess),
//! Sjaak II (xiangqi, `variant xiangqi`). Tessera's engines speak UCI/UCCI; this exists so the
//! arena can measure against them.
//!
//! A game: `new`, `variant V` (not for orthodox chess), `force`, `setboard FEN`, then, for an
//! engine that offers `ping`, `ping N` and every line up to `pong N` thrown away: a move the
//! engine sends after its game ended (Phalanx follows its mating move with a result line) must
//! not be read as its answer in the next game. Each move:
//! `force`, the moves the engine has not seen, the clock (`level`, `time`, `otim`) and `go`; the
//! answer is `move <m>` (or the old `My move is: <m>`). What differs between games (variant name,
//! FEN letters, move text) is the small [`XboardGame`] trait.

use std::marker::PhantomData;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use tessera_chess::{parse_san, Chess, Uci};
use tessera_core::{Game, Limits, Side};
use tessera_xiangqi::{iccs, parse_iccs, Position};

use crate::game::{Contestant, Reply};
use crate::process::{ClientError, EngineProcess, EngineSpec};

/// How long to wait for `feature done=1` (engines without protocol 2 never send it).
const FEATURE_TIME: Duration = Duration::from_secs(2);
/// How long an engine may take to answer `ping` at the start of a game (it may first have to
/// finish a search of the previous one).
const PING_TIME: Duration = Duration::from_secs(10);

/// What the xboard client needs to know about a game.
pub trait XboardGame: Game {
    /// The `variant` announced after `new`; `None` for orthodox chess.
    const VARIANT: Option<&'static str>;

    /// The `setboard` FEN of `start` (a position without history), or why the game cannot be
    /// played over xboard.
    ///
    /// # Errors
    /// The reason, for [`ClientError::Protocol`].
    fn setboard_fen(start: &Self) -> Result<String, &'static str>;

    /// `mv`, legal in `before`, as the engine expects to read it.
    fn move_text(before: &Self, mv: Self::Move) -> String;

    /// The engine's move text, when it names a legal move of `position`.
    fn parse_move(position: &Self, text: &str) -> Option<Self::Move>;
}

impl XboardGame for Chess {
    const VARIANT: Option<&'static str> = None;

    fn setboard_fen(start: &Self) -> Result<String, &'static str> {
        if start.rules().chess960 {
            return Err("Chess960 over xboard is not supported");
        }
        Ok(start.fen())
    }

    fn move_text(before: &Self, mv: Self::Move) -> String {
        Uci { chess960: false }.format(before.board(), mv)
    }

    fn parse_move(position: &Self, text: &str) -> Option<Self::Move> {
        // Old engines answer in SAN; coordinates are tried first since they cannot be ambiguous.
        Uci { chess960: false }
            .parse(position, text)
            .ok()
            .filter(|&mv| position.is_legal(mv))
            .or_else(|| parse_san(position, text).ok())
    }
}

impl XboardGame for Position {
    const VARIANT: Option<&'static str> = Some("xiangqi");

    fn setboard_fen(start: &Self) -> Result<String, &'static str> {
        // XBoard's xiangqi FEN names the horse H and the elephant E (Sjaak refuses N and B); the
        // rest of our FEN is already in xboard's form.
        let fen = start.to_fen();
        let (board, rest) = fen.split_once(' ').unwrap_or((fen.as_str(), ""));
        let board: String = board
            .chars()
            .map(|letter| match letter {
                'N' => 'H',
                'n' => 'h',
                'B' => 'E',
                'b' => 'e',
                other => other,
            })
            .collect();
        Ok(format!("{board} {rest}"))
    }

    fn move_text(_before: &Self, mv: Self::Move) -> String {
        // XBoard numbers the ranks of a ten-rank board 0–9, which is ICCS.
        iccs(mv)
    }

    fn parse_move(position: &Self, text: &str) -> Option<Self::Move> {
        parse_iccs(text).ok().filter(|&mv| position.is_legal(mv))
    }
}

/// An engine of game `G` speaking xboard.
pub struct XboardContestant<G> {
    name: String,
    process: EngineProcess,
    /// Moves of the current game the engine knows (its own included).
    synced: usize,
    /// Whether this game's `level` was sent: once, before the engine's first move, as a GUI does
    /// (sending it again would restart the engine's time control with the remaining time).
    level_sent: bool,
    /// Whether the engine announced `feature ping=1`.
    ping: bool,
    /// The last `ping` number sent.
    pings: u32,
    game: PhantomData<fn() -> G>,
}

impl<G: XboardGame> XboardContestant<G> {
    /// Starts the engine, asks for protocol 2 and sets the options of `spec` (`option.NAME=V`,
    /// `_` in the name standing for a space, becomes `option NAME=V`).
    ///
    /// # Errors
    /// When it cannot start.
    pub fn start(spec: &EngineSpec, log: Option<&PathBuf>) -> Result<Self, ClientError> {
        let mut process = EngineProcess::start(spec, log)?;
        process.send("xboard")?;
        process.send("protover 2")?;
        let deadline = Instant::now() + FEATURE_TIME;
        let features = match process.receive_until(deadline, |line| line.contains("done=1")) {
            Ok(lines) => lines,
            Err(ClientError::Stalled(_)) => Vec::new(),
            Err(error) => return Err(error),
        };
        let ping = features.iter().any(|line| line.starts_with("feature") && line.contains("ping=1"));
        for (name, value) in &spec.options {
            process.send(&format!("option {}={value}", name.replace('_', " ")))?;
        }
        Ok(XboardContestant {
            name: spec.name.clone(),
            process,
            synced: 0,
            level_sent: false,
            ping,
            pings: 0,
            game: PhantomData,
        })
    }

    fn protocol_error(&self, line: &str, reason: &str) -> ClientError {
        ClientError::Protocol { name: self.name.clone(), line: line.to_string(), reason: reason.to_string() }
    }
}

/// Reads the move of a `move …` or `My move is: …` line.
fn move_text(line: &str) -> Option<&str> {
    let line = line.trim();
    line.strip_prefix("move ").or_else(|| line.strip_prefix("My move is:")).map(str::trim)
}

/// What a line that is not a move says about the game, if anything.
#[derive(Debug, PartialEq, Eq)]
enum Claim {
    /// `resign`, or a result line giving the game to the opponent.
    Resign,
    /// A draw claim or another result line: the engine will not move again.
    Result,
}

/// Reads a `resign` or result (`1-0 {…}`, `0-1 {…}`, `1/2-1/2 {…}`) line; `engine_first` says
/// whether the engine plays the first side (White, Red).
fn claim(line: &str, engine_first: bool) -> Option<Claim> {
    let line = line.trim();
    let result = line.split_whitespace().next()?;
    match result {
        "resign" => Some(Claim::Resign),
        "1-0" | "0-1" if line.contains("resign") || (result == "0-1") == engine_first => Some(Claim::Resign),
        "1-0" | "0-1" | "1/2-1/2" => Some(Claim::Result),
        _ => None,
    }
}

impl<G: XboardGame> Contestant<G> for XboardContestant<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, start: &G, _side: Side) -> Result<(), ClientError> {
        let mut first = start.clone();
        while first.ply() > 0 {
            first.undo();
        }
        let fen = G::setboard_fen(&first).map_err(|reason| self.protocol_error("setboard", reason))?;
        self.process.send("new")?;
        if let Some(variant) = G::VARIANT {
            // After `new`, since `new` returns an engine to orthodox chess.
            self.process.send(&format!("variant {variant}"))?;
        }
        for line in ["random", "easy", "post", "force"] {
            self.process.send(line)?;
        }
        self.process.send(&format!("setboard {fen}"))?;
        self.synced = 0;
        self.level_sent = false;
        if self.ping {
            self.pings += 1;
            let pong = format!("pong {}", self.pings);
            self.process.send(&format!("ping {}", self.pings))?;
            // What comes before the `pong` belongs to the previous game.
            self.process.receive_until(Instant::now() + PING_TIME, |line| line.trim() == pong)?;
        }
        Ok(())
    }

    fn choose_move(
        &mut self,
        position: &G,
        limits: &Limits<G::Move>,
        deadline: Instant,
    ) -> Result<Reply<G::Move>, ClientError> {
        self.process.send("force")?;
        let mut replay = position.clone();
        let mut unseen = Vec::new();
        while replay.ply() > self.synced {
            let Some(mv) = position.move_played(replay.ply() - 1) else { break };
            replay.undo();
            unseen.push(G::move_text(&replay, mv));
        }
        for text in unseen.iter().rev() {
            self.process.send(text)?;
        }
        if let Some(clock) = limits.clock {
            if !self.level_sent {
                // The engine's clock is still whole before its first move: that is the base time.
                let seconds = clock.ours.as_secs().max(1);
                self.process.send(&format!(
                    "level {} {}:{:02} {}",
                    clock.moves_to_go.unwrap_or(0),
                    seconds / 60,
                    seconds % 60,
                    clock.increment.as_secs_f64()
                ))?;
                self.level_sent = true;
            }
            self.process.send(&format!("time {}", clock.ours.as_millis() / 10))?;
            self.process.send(&format!("otim {}", clock.theirs.unwrap_or(clock.ours).as_millis() / 10))?;
        } else if let Some(time) = limits.move_time {
            self.process.send(&format!("st {}", time.as_secs_f64()))?;
        } else if let Some(depth) = limits.depth {
            self.process.send(&format!("sd {depth}"))?;
        }
        self.process.send("go")?;
        let engine_first = position.side_to_move() == Side::First;
        loop {
            let line = self.process.receive(deadline)?;
            match claim(&line, engine_first) {
                Some(Claim::Resign) => return Ok(Reply::Resign),
                // Our referee, not the engine, ends games: a claim it did not make is an error,
                // reported now rather than as a stall at the deadline.
                Some(Claim::Result) => return Err(self.protocol_error(&line, "a move (the referee judges results)")),
                None => {}
            }
            let Some(text) = move_text(&line) else { continue };
            return match G::parse_move(position, text) {
                Some(mv) => {
                    self.synced = position.ply() + 1;
                    Ok(Reply::Move { mv, score: None, depth: None })
                }
                None => Err(ClientError::IllegalMove { name: self.name.clone(), text: text.to_string() }),
            };
        }
    }
}

impl<G> Drop for XboardContestant<G> {
    fn drop(&mut self) {
        let _ = self.process.send("quit");
        self.process.shut_down(Duration::from_millis(500));
    }
}

#[cfg(test)]
mod tests {
    use super::{claim, move_text, Claim, XboardGame};
    use tessera_core::Game;
    use tessera_xiangqi::{parse_iccs, Position};

    #[test]
    fn reads_both_move_forms() {
        assert_eq!(move_text("move e7e5"), Some("e7e5"));
        assert_eq!(move_text("My move is: Nf6"), Some("Nf6"));
        assert_eq!(move_text("12 35 100 12345 e2e4 e7e5"), None);
    }

    #[test]
    fn reads_resignations_and_result_claims() {
        assert_eq!(claim("resign", true), Some(Claim::Resign));
        assert_eq!(claim("0-1 {White resigns}", true), Some(Claim::Resign));
        assert_eq!(claim("0-1 {Black mates}", true), Some(Claim::Resign), "the engine, first, says it lost");
        assert_eq!(claim("0-1 {Black mates}", false), Some(Claim::Result));
        assert_eq!(claim("1/2-1/2 {Draw by repetition}", false), Some(Claim::Result));
        assert_eq!(claim("  7     2     35     90793  1. ... Hc7", true), None);
    }

    #[test]
    fn xiangqi_speaks_xboard_letters_and_iccs() {
        let start = Position::start();
        let fen = Position::setboard_fen(&start).unwrap();
        assert_eq!(fen, "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1");
        let mv = Position::parse_move(&start, "h2e2").unwrap();
        assert_eq!(Some(mv), parse_iccs("h2e2").ok());
        assert_eq!(Position::move_text(&start, mv), "h2e2");
        assert_eq!(Position::parse_move(&start, "h2h8"), None, "illegal");
        assert!(start.is_legal(mv));
    }

    /// An engine that follows its mating move with a result line, as Phalanx does: the game ends
    /// by the rules on the move, and the result line, still unread, must not be taken as the
    /// engine's answer in the next game (each game would then read the previous game's answer).
    #[test]
    fn a_move_sent_after_its_game_ended_is_not_read_in_the_next_game() {
        use std::time::{Duration, Instant};

        use tessera_chess::{Chess, Uci};
        use tessera_core::{Limits, Side};

        use super::XboardContestant;
        use crate::game::{Contestant, Reply};
        use crate::process::EngineSpec;

        let dir = std::env::temp_dir().join(format!("tessera-xboard-claims-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let script = dir.join("claiming-engine");
        std::fs::write(
            &script,
            "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    protover*) echo 'feature ping=1 setboard=1 done=1' ;;\n    ping*) echo \"pong ${line#ping }\" ;;\n    go) echo 'move e7e5'; echo '0-1 {Black mates}' ;;\n    quit) exit 0 ;;\n  esac\ndone\n",
        )
        .unwrap();
        let mut permissions = std::fs::metadata(&script).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
        std::fs::set_permissions(&script, permissions).unwrap();

        let spec: EngineSpec = format!("cmd={} name=claiming", script.display()).parse().unwrap();
        let mut engine = XboardContestant::<Chess>::start(&spec, None).unwrap();
        let start = Chess::default();
        let mut after_e4 = start.clone();
        after_e4.play(Uci { chess960: false }.parse(&start, "e2e4").unwrap());
        let limits = Limits::move_time(Duration::from_millis(50));

        let e5 = Uci { chess960: false }.parse(&after_e4, "e7e5").unwrap();
        for game in 1..=2 {
            engine.new_game(&start, Side::Second).unwrap();
            let reply = engine.choose_move(&after_e4, &limits, Instant::now() + Duration::from_secs(5));
            assert!(matches!(reply, Ok(Reply::Move { mv, .. }) if mv == e5), "game {game}: {reply:?}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
