//! `tessera datagen`: self-play games whose quiet positions are labelled with our own search score
//! and the game's final result, appended to a training-data file (`tessera_nnue::data`).
//!
//! Each game starts from a few random plies (legal moves; in gomoku, candidate moves near the
//! stones), seeded by the game's index so that a resumed run plays new games; then both sides
//! search a fixed number of nodes per move. Kept positions are those a static evaluation should
//! judge by itself: not in check (in gomoku, no five to block), the best move not a capture or
//! promotion (in gomoku, not an open three or more), the score not a mate. The game's rules end a
//! game (mate, and in xiangqi the 60-move rule and repetition verdicts); besides, each game's
//! [`Adjudication`] wins a game once the score stays beyond a margin for a few plies, and draws it
//! after a ply cap or when the score stays near zero after the opening.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use tessera_arena::Shard;
use tessera_core::{
    AlphaBeta, EngineOptions, Evaluate, Game, Limits, NullMove, Outcome, Rng, Score, SearchControl, Searcher, Silent,
    Tactical,
};
use tessera_nnue::data::{encode_record, DataError, DataWriter, PackedPosition, WdlResult};
use tessera_nnue::merge::merge as merge_files;
use tessera_nnue::{Network, NetworkError, EMBEDDED_NAME};

/// When the scores decide a game, in the game's evaluation units.
#[derive(Clone, Copy, Debug)]
struct Adjudication {
    /// A score that stays beyond this for `win_plies` plies decides the game.
    win_score: i32,
    /// See `win_score`.
    win_plies: u32,
    /// A score this close to zero for `draw_plies` plies after ply `draw_after_ply` draws the game.
    draw_score: i32,
    /// See `draw_score`.
    draw_plies: u32,
    /// See `draw_score`.
    draw_after_ply: usize,
    /// Games still running after this many plies are drawn.
    max_game_plies: usize,
    /// An opening whose first search scores beyond this is thrown away (too lopsided to teach much).
    max_opening_score: i32,
}

/// Chess, in centipawns.
const CHESS: Adjudication = Adjudication {
    win_score: 1_200,
    win_plies: 6,
    draw_score: 8,
    draw_plies: 16,
    draw_after_ply: 80,
    max_game_plies: 400,
    max_opening_score: 400,
};

/// Xiangqi, where 100 is a horse (about three chess pawns): the chess margins scaled to match.
/// Games rarely reach the ply cap, since 60 moves without a capture draw by the rules.
const XIANGQI: Adjudication = Adjudication {
    win_score: 400,
    win_plies: 6,
    draw_score: 3,
    draw_plies: 16,
    draw_after_ply: 80,
    max_game_plies: 300,
    max_opening_score: 130,
};

/// Gomoku and renju, in the pattern evaluation's units (an open three is worth about 60 to the
/// side to move): forced wins mostly end as mate scores from the threat search first. The board's
/// filling ends a game by the rules.
const GOMOKU: Adjudication = Adjudication {
    win_score: 1_500,
    win_plies: 4,
    draw_score: 5,
    draw_plies: 30,
    draw_after_ply: 150,
    max_game_plies: 484,
    max_opening_score: 300,
};

/// How often a line of progress is printed when stderr is not a terminal.
const LOG_INTERVAL: Duration = Duration::from_secs(60);

/// The games `tessera datagen` can play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DatagenGame {
    /// Standard chess.
    Chess,
    /// Xiangqi (Chinese chess) from the standard start position.
    Xiangqi,
    /// Gomoku or renju under `--rules`, its random plies among the candidate moves near the stones.
    Gomoku,
}

/// Everything `tessera datagen` accepts.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// The game to play.
    #[arg(long, value_enum)]
    pub game: DatagenGame,
    /// Games the output file should hold when done (games already in it count).
    #[arg(long)]
    pub games: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5_000)]
    pub nodes: u64,
    /// The training-data file to create or append to (keep it outside the repository, e.g. under
    /// `$TESSERA_DATA`).
    #[arg(long)]
    pub out: PathBuf,
    /// Games played at once, one search thread each.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Random plies before the searched moves start (one more on odd-numbered games).
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Seed of the random openings; game `i` uses a generator derived from this and `i`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Gomoku's rules and board (`freestyle 15x15`, `standard 15x15`, `renju 15x15`, `caro 15x15`, …).
    #[arg(long, default_value = "freestyle 15x15")]
    pub rules: tessera_gomoku::Rules,
    /// Evaluate with this network file (`embedded`: the engine's default network) instead of the
    /// hand-crafted evaluation.
    #[arg(long, value_name = "FILE")]
    pub network: Option<PathBuf>,
    /// Play shard I of N (from 0): game `g` of this run is game `I + N·g` of the whole, so the
    /// shards (a Slurm array, a Kubernetes indexed Job) play different games with the same seed;
    /// each writes its own `--out`, holding `--games` games; `tessera datagen-merge` joins them.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
}

/// `tessera datagen-merge`'s command line.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The merged file to write (it must not exist).
    #[arg(long)]
    pub out: PathBuf,
    /// Training-data files of one game (the shards of a `tessera datagen --shard I/N`).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
}

/// Why `tessera datagen` stopped.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    /// The output file could not be opened or written.
    #[error(transparent)]
    Data(#[from] DataError),
    /// The network file could not be used.
    #[error(transparent)]
    Network(#[from] NetworkError),
    /// Files to merge hold a game datagen does not play.
    #[error("{path}: training data of `{game}`, not of a game datagen plays")]
    UnknownGame {
        /// The file.
        path: PathBuf,
        /// The game its header names.
        game: String,
    },
}

/// Merges the training-data files of a sharded datagen into one, each position once; prints
/// what it read and wrote.
///
/// # Errors
/// When the output exists or an input cannot be read, belongs to another game than the first, or
/// to a game datagen does not play.
pub fn merge(args: &MergeArgs) -> Result<(), DatagenError> {
    let first = &args.inputs[0];
    let game = tessera_nnue::data::read_header(first)?.game;
    let count = match game.as_str() {
        tessera_chess::Board::GAME => merge_files::<tessera_chess::Board>(&args.inputs, &args.out)?,
        tessera_xiangqi::Position::GAME => merge_files::<tessera_xiangqi::Position>(&args.inputs, &args.out)?,
        tessera_gomoku::Board::GAME => merge_files::<tessera_gomoku::Board>(&args.inputs, &args.out)?,
        _ => return Err(DatagenError::UnknownGame { path: first.clone(), game }),
    };
    println!(
        "{} files, {} positions read, {} duplicates dropped: {} positions of {} games in {}",
        args.inputs.len(),
        count.read,
        count.duplicates,
        count.written,
        count.games,
        args.out.display()
    );
    Ok(())
}

/// Runs `tessera datagen` with the arguments given.
///
/// # Errors
/// When the output file cannot be used.
pub fn run(args: &DatagenArgs) -> Result<(), DatagenError> {
    let choice = args.network.as_deref();
    match args.game {
        DatagenGame::Chess => {
            let mut start = tessera_chess::Chess::new(tessera_chess::Rules::STANDARD);
            let nnue = network(choice, |path| tessera_chess::nnue::DEFAULT_NETWORK.or_file(path))?;
            start.set_network(nnue);
            generate(args, CHESS, &start, Game::generate_legal_moves, |position: &tessera_chess::Chess| {
                *position.board()
            })
        }
        DatagenGame::Xiangqi => {
            let mut start = tessera_xiangqi::Position::start();
            let nnue = network(choice, |path| tessera_xiangqi::nnue::DEFAULT_NETWORK.or_file(path))?;
            start.set_network(nnue);
            // A record keeps the board only: neither the history nor the network's accumulators.
            generate(args, XIANGQI, &start, Game::generate_legal_moves, |position: &tessera_xiangqi::Position| {
                let mut board = position.without_history();
                board.set_network(None);
                board
            })
        }
        DatagenGame::Gomoku => {
            let mut start = tessera_gomoku::Board::new(args.rules);
            start.set_network(network(choice, tessera_gomoku::nnue::load)?);
            // Random legal points would scatter stones over the whole board: the random plies choose
            // among a shallow node's candidates.
            generate(
                args,
                GOMOKU,
                &start,
                |board, moves| board.generate_search_moves(0, moves),
                tessera_gomoku::Board::clone,
            )
        }
    }
}

/// The network `--network` names: none (the hand-crafted evaluation), `embedded` (the game's
/// built-in network) or a file of the game's features; `load` reads the last two as an engine's
/// `EvalFile` would.
fn network(
    choice: Option<&Path>,
    load: impl Fn(&Path) -> Result<Arc<Network>, NetworkError>,
) -> Result<Option<Arc<Network>>, NetworkError> {
    choice.map(|path| load(if path.as_os_str() == "embedded" { Path::new(EMBEDDED_NAME) } else { path })).transpose()
}

/// What the worker threads share.
struct Progress {
    next_game: AtomicU64,
    positions: AtomicU64,
    games_done: AtomicU64,
    failed: AtomicBool,
}

/// Plays the games and writes them; the random plies pick among the moves `random_moves` lists,
/// and `packed` turns a position into the game's stored form.
fn generate<G, P>(
    args: &DatagenArgs,
    adjudication: Adjudication,
    start: &G,
    random_moves: fn(&G, &mut G::Moves),
    packed: fn(&G) -> P,
) -> Result<(), DatagenError>
where
    G: Evaluate + Tactical + NullMove,
    P: PackedPosition,
{
    let (mut writer, resume) = DataWriter::append::<P>(&args.out)?;
    if resume.trimmed_bytes > 0 {
        eprintln!(
            "tessera datagen: {}: cut {} bytes of an interrupted record from the end",
            args.out.display(),
            resume.trimmed_bytes
        );
    }
    if resume.games >= args.games {
        eprintln!("tessera datagen: {} already holds {} games", args.out.display(), resume.games);
        return Ok(());
    }
    eprintln!(
        "tessera datagen: {} holds {} games ({} positions){}; playing {} more at {} nodes per move on {} threads",
        args.out.display(),
        resume.games,
        resume.records,
        args.shard.map(|shard| format!(" of shard {shard}")).unwrap_or_default(),
        args.games - resume.games,
        args.nodes,
        args.threads.max(1)
    );
    let progress = Progress {
        next_game: AtomicU64::new(resume.games),
        positions: AtomicU64::new(0),
        games_done: AtomicU64::new(0),
        failed: AtomicBool::new(false),
    };
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let bar = progress_bar(args.games - resume.games);
    let started = Instant::now();
    let (sender, receiver) = crossbeam_channel::bounded::<Vec<u8>>(64);
    let result = std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            let sender = sender.clone();
            let progress = &progress;
            scope.spawn(move || {
                let mut player = SelfPlay::new(args, adjudication, start.clone(), random_moves);
                loop {
                    let index = progress.next_game.fetch_add(1, Ordering::Relaxed);
                    if index >= args.games || progress.failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let records = player.play_game(shard.index as u64 + shard.count as u64 * index, packed);
                    if sender.send(records).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut last_log = Instant::now();
        for records in receiver {
            if let Err(error) = writer.write_game(&records) {
                progress.failed.store(true, Ordering::Relaxed);
                return Err(error);
            }
            let games = progress.games_done.fetch_add(1, Ordering::Relaxed) + 1;
            let positions = progress.positions.fetch_add((records.len() / (P::BYTES + 4)) as u64, Ordering::Relaxed)
                + (records.len() / (P::BYTES + 4)) as u64;
            let rate = positions as f64 / started.elapsed().as_secs_f64().max(1e-3);
            bar.set_position(games);
            bar.set_message(format!("{positions} positions, {rate:.0} positions/s"));
            if bar.is_hidden() && last_log.elapsed() >= LOG_INTERVAL {
                last_log = Instant::now();
                eprintln!(
                    "tessera datagen: {} of {} games, {positions} positions, {rate:.0} positions/s",
                    resume.games + games,
                    args.games
                );
            }
        }
        Ok(())
    });
    bar.finish_and_clear();
    result?;
    let positions = progress.positions.load(Ordering::Relaxed);
    let seconds = started.elapsed().as_secs_f64();
    let rate = positions as f64 / seconds.max(1e-3);
    println!(
        "{} games, {positions} positions in {seconds:.0} s: {rate:.0} positions/s, {:.0} per thread; {} now holds {} games",
        progress.games_done.load(Ordering::Relaxed),
        rate / args.threads.max(1) as f64,
        args.out.display(),
        resume.games + progress.games_done.load(Ordering::Relaxed)
    );
    Ok(())
}

fn progress_bar(games: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(games);
    let style = ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed} / ~{eta}]")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

/// One thread's self-play: a searcher and the settings of every game it plays.
struct SelfPlay<'a, G: Evaluate + Tactical + NullMove> {
    args: &'a DatagenArgs,
    adjudication: Adjudication,
    start: G,
    random_moves: fn(&G, &mut G::Moves),
    searcher: AlphaBeta<G>,
    control: SearchControl,
}

/// A kept position waiting for the game's result.
struct Pending<P> {
    position: P,
    score: i16,
    side: tessera_core::Side,
}

impl<'a, G: Evaluate + Tactical + NullMove> SelfPlay<'a, G> {
    fn new(args: &'a DatagenArgs, adjudication: Adjudication, start: G, random_moves: fn(&G, &mut G::Moves)) -> Self {
        let options = EngineOptions { threads: 1, hash_mb: 16, multipv: 1, ..EngineOptions::default() };
        let searcher = AlphaBeta::new(&options, 40);
        SelfPlay { args, adjudication, start, random_moves, searcher, control: SearchControl::new() }
    }

    /// Plays game `index` and returns its records, encoded.
    fn play_game<P: PackedPosition>(&mut self, index: u64, packed: fn(&G) -> P) -> Vec<u8> {
        let mut rng = Rng::new(self.args.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let limits = Limits::nodes(self.args.nodes);
        let (mut pending, outcome) = loop {
            let position = self.random_opening(&mut rng, index);
            self.searcher.clear();
            if let Some(played) = self.play_out(position, &limits, packed) {
                break played;
            }
        };
        let mut bytes = Vec::with_capacity(pending.len() * (P::BYTES + 4));
        let mut packed_bytes = vec![0u8; P::BYTES];
        for (number, record) in pending.drain(..).enumerate() {
            let result = match outcome {
                Outcome::Draw => WdlResult::Draw,
                Outcome::Win(side) if side == record.side => WdlResult::Win,
                Outcome::Win(_) => WdlResult::Loss,
            };
            record.position.pack(&mut packed_bytes);
            encode_record(&packed_bytes, record.score, result, number == 0, &mut bytes);
        }
        bytes
    }

    /// The start position after the random plies of game `index`, still undecided.
    fn random_opening(&self, rng: &mut Rng, index: u64) -> G {
        let plies = self.args.random_plies + usize::from(index % 2 == 1);
        let mut moves = G::Moves::default();
        'retry: loop {
            let mut position = self.start.clone();
            for _ in 0..plies {
                (self.random_moves)(&position, &mut moves);
                if moves.is_empty() {
                    continue 'retry;
                }
                position.play(moves[rng.below(moves.len())]);
            }
            if position.outcome().is_none() {
                return position;
            }
        }
    }

    /// Plays `position` to its end; `None` when the opening proves too lopsided to keep.
    fn play_out<P: PackedPosition>(
        &mut self,
        mut position: G,
        limits: &Limits<G::Move>,
        packed: fn(&G) -> P,
    ) -> Option<(Vec<Pending<P>>, Outcome)> {
        let mut pending = Vec::new();
        let opening_ply = position.ply();
        let mut winner = None;
        let mut winning_plies = 0;
        let mut quiet_plies = 0;
        let mut first_search = true;
        let adjudge = self.adjudication;
        let outcome = loop {
            if let Some(outcome) = position.outcome() {
                break outcome;
            }
            let played = position.ply() - opening_ply;
            if played >= adjudge.max_game_plies {
                break Outcome::Draw;
            }
            self.control.reset(false);
            let result = self.searcher.search(&position, limits, &self.control, &mut Silent);
            // A legal move exists (the outcome above was undecided), so the search returns one.
            let best = result.best.expect("an undecided position has a legal move");
            let side = position.side_to_move();
            let value = match result.score {
                Score::Centipawns(value) => value,
                Score::Mate(moves) if moves > 0 => tessera_core::score::MATE,
                _ => -tessera_core::score::MATE,
            };
            if first_search && value.abs() > adjudge.max_opening_score {
                return None;
            }
            first_search = false;
            // Both players must keep agreeing on the same winner.
            let leader = (value.abs() >= adjudge.win_score).then(|| if value > 0 { side } else { side.opponent() });
            winning_plies = if leader.is_some() && leader == winner { winning_plies + 1 } else { 1 };
            winner = leader;
            if let (Some(side), true) = (winner, winning_plies >= adjudge.win_plies) {
                break Outcome::Win(side);
            }
            quiet_plies = if value.abs() <= adjudge.draw_score { quiet_plies + 1 } else { 0 };
            if played >= adjudge.draw_after_ply && quiet_plies >= adjudge.draw_plies {
                break Outcome::Draw;
            }
            let quiet = !position.in_check() && !position.is_tactical(best);
            if let (true, Score::Centipawns(score)) = (quiet, result.score) {
                let score = score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
                pending.push(Pending { position: packed(&position), score, side });
            }
            position.play(best);
        };
        Some((pending, outcome))
    }
}
