//! `tessera datagen`: games land in the training-data file whole, a second run resumes where the
//! first stopped, and a file of another kind is refused by name without being touched.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tessera_chess::{Board, Chess, Color, Rules};
use tessera_nnue::data::{read_header, DataReader, PackedPosition, HEADER_BYTES};

/// `tessera datagen` of chess: 400 nodes per move, two threads.
fn datagen(out: &Path, games: u32) -> Output {
    datagen_of("chess", "400", "2", &[], out, games)
}

/// `tessera datagen` of xiangqi: 300 nodes per move, one thread.
fn xiangqi_datagen(out: &Path, games: u32) -> Output {
    datagen_of("xiangqi", "300", "1", &[], out, games)
}

fn datagen_of(game: &str, nodes: &str, threads: &str, extra: &[&str], out: &Path, games: u32) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["datagen", "--game", game, "--nodes", nodes, "--random-plies", "6", "--threads", threads])
        .args(extra)
        .args(["--games", &games.to_string(), "--out"])
        .arg(out)
        .output()
        .expect("running tessera datagen")
}

/// Writes at `path` the header of a training file of `game` (positions of `bytes` bytes), runs
/// `run` on it, and checks that it is refused by name and the file left as it was.
fn refuses_other_game(path: &Path, game: &str, bytes: u16, wanted: &str, run: fn(&Path, u32) -> Output) {
    let mut header = Vec::from(*b"TSRDATA\0");
    header.extend_from_slice(&1u16.to_le_bytes());
    header.extend_from_slice(&bytes.to_le_bytes());
    let mut name = [0u8; 20];
    name[..game.len()].copy_from_slice(game.as_bytes());
    header.extend_from_slice(&name);
    std::fs::write(path, &header).unwrap();
    let output = run(path, 1);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&format!("training data for {game}, not {wanted}")), "{stderr}");
    assert_eq!(std::fs::read(path).unwrap(), header);
}

fn temp_file(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("tessera-datagen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// Every record of a file of game `P`: (position, score, result value, first of game).
fn records<P: PackedPosition>(path: &Path) -> Vec<(P, i16, f32, bool)> {
    let mut reader = DataReader::open::<P>(path).unwrap();
    let mut out = Vec::new();
    while let Some(record) = reader.next_record().unwrap() {
        let position = P::unpack(record.position).unwrap();
        out.push((position, record.score, record.result.value(), record.first_of_game));
    }
    out
}

#[test]
fn games_are_written_whole_and_resumed() {
    let path = temp_file("resume");
    let output = datagen(&path, 3);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(read_header(&path).unwrap().game, "chess");
    let first = records::<Board>(&path);
    let games = first.iter().filter(|record| record.3).count();
    assert_eq!(games, 3);
    assert!(first[0].3, "the file starts with a game");
    for (board, score, result, _) in &first {
        // Kept positions are quiet and live: not in check, with legal moves, scores not mates.
        assert!(!board.in_check(), "{}", board.to_fen());
        let game = Chess::from_board(*board, Rules::STANDARD);
        assert!(game.count_legal_moves() > 0);
        assert!(score.abs() < 20_000);
        assert!([0.0, 0.5, 1.0].contains(result));
    }
    // Within a game, results seen from alternating sides agree: a win for one side is a loss for
    // the other.
    let starts: Vec<usize> = (0..first.len()).filter(|&index| first[index].3).chain([first.len()]).collect();
    for game in starts.windows(2) {
        let white_results: Vec<f32> = first[game[0]..game[1]]
            .iter()
            .map(|(board, _, result, _)| if board.side_to_move() == Color::White { *result } else { 1.0 - result })
            .collect();
        assert!(white_results.iter().all(|&result| result == white_results[0]), "{white_results:?}");
    }

    let output = datagen(&path, 5);
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("holds 3 games"), "{stderr}");
    let second = records::<Board>(&path);
    assert_eq!(second.iter().filter(|record| record.3).count(), 5);
    assert_eq!(&second[..first.len()], &first[..], "earlier games are kept as they were");

    // Asking for no more games than the file holds plays nothing.
    let output = datagen(&path, 4);
    assert!(output.status.success());
    assert_eq!(records::<Board>(&path).len(), second.len());
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn an_interrupted_file_is_trimmed_and_continued() {
    let path = temp_file("interrupted");
    assert!(datagen(&path, 1).status.success());
    let whole = std::fs::metadata(&path).unwrap().len();
    // Cut the last record in half, as a killed run might leave it.
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(whole - 10).unwrap();
    drop(file);
    let output = datagen(&path, 2);
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cut 22 bytes"), "{stderr}");
    let records = records::<Board>(&path);
    assert_eq!(records.iter().filter(|record| record.3).count(), 2);
    let record_bytes = (Board::BYTES + 4) as u64;
    assert_eq!((std::fs::metadata(&path).unwrap().len() - HEADER_BYTES as u64) % record_bytes, 0);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_foreign_file_is_refused_and_left_alone() {
    let path = temp_file("foreign");
    std::fs::write(&path, "[Event \"a PGN, not training data\"]\n").unwrap();
    let output = datagen(&path, 1);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&path.display().to_string()) && stderr.contains("not a Tessera training-data file"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "[Event \"a PGN, not training data\"]\n");

    // A training file of another game is refused by name.
    refuses_other_game(&path, "xiangqi", 36, "chess", datagen);
    std::fs::remove_file(&path).unwrap();
}

/// Reads every record of a file of game `P`, checks each position with `check`, and checks that
/// every game's positions share one result (seen from the first player); returns the game count.
fn check_games<P: PackedPosition + tessera_core::Game>(path: &Path, check: impl Fn(&P, i16)) -> usize {
    let mut games: Vec<Vec<f32>> = Vec::new();
    for (position, score, result, first_of_game) in records::<P>(path) {
        check(&position, score);
        if first_of_game {
            games.push(Vec::new());
        }
        let first_player_result =
            if position.side_to_move() == tessera_core::Side::First { result } else { 1.0 - result };
        games.last_mut().expect("the file starts with a game").push(first_player_result);
    }
    for results in &games {
        assert!(results.iter().all(|&result| result == results[0]), "{results:?}");
    }
    games.len()
}

#[test]
fn xiangqi_games_are_written_and_read_back() {
    use tessera_core::Game;
    use tessera_xiangqi::Position;

    let path = temp_file("xiangqi");
    let output = xiangqi_datagen(&path, 2);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(read_header(&path).unwrap().game, "xiangqi");
    let games = check_games(&path, |position: &Position, score| {
        // Kept positions are quiet and live: not in check, with legal moves, scores not mates.
        assert!(!position.in_check(), "{}", position.to_fen());
        assert!(position.outcome().is_none(), "{}", position.to_fen());
        assert!(score.abs() < 20_000);
    });
    assert_eq!(games, 2);

    // A chess file is refused by name and left alone.
    refuses_other_game(&path, "chess", 32, "xiangqi", xiangqi_datagen);
    std::fs::remove_file(&path).unwrap();
}

/// `--network` labels xiangqi self-play with a network: the embedded one scores the same game's
/// positions otherwise than the hand-crafted evaluation; a missing file is refused by name.
#[test]
fn xiangqi_datagen_plays_with_a_network() {
    // The game's scores, not its first score alone: two evaluations can agree on one position
    // (the fifth network and the hand-crafted evaluation both score the first one −94).
    let scores = |extra: &[&str], name: &str| {
        let path = temp_file(name);
        let output = datagen_of("xiangqi", "300", "1", extra, &path, 1);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let scores: Vec<i16> =
            records::<tessera_xiangqi::Position>(&path).into_iter().map(|(_, score, _, _)| score).collect();
        std::fs::remove_file(&path).unwrap();
        assert!(!scores.is_empty(), "a game of positions");
        scores
    };
    assert_ne!(scores(&[], "xiangqi-hand-crafted"), scores(&["--network", "embedded"], "xiangqi-network"));

    let path = temp_file("xiangqi-missing-network");
    let output = datagen_of("xiangqi", "300", "1", &["--network", "/no/such/net.nnue"], &path, 1);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("/no/such/net.nnue"));
    let _ = std::fs::remove_file(&path);
}

/// A xiangqi data file of 60 random games of 12 positions each, scored by the hand-crafted
/// evaluation (trainers and tuners hold one game in 50 out for validation).
fn write_random_xiangqi_data(path: &Path) {
    use tessera_core::{Game, Rng};
    use tessera_nnue::data::{encode_record, DataWriter, WdlResult};
    use tessera_xiangqi::{Moves, Position};

    let (mut writer, _) = DataWriter::append::<Position>(path).unwrap();
    let mut rng = Rng::new(11);
    let mut moves = Moves::new();
    let mut packed = [0u8; Position::BYTES];
    for _ in 0..60 {
        let mut position = Position::start();
        let mut records = Vec::new();
        for ply in 0..12 {
            position.generate_legal_moves(&mut moves);
            position.play(moves[rng.below(moves.len())]);
            position.pack(&mut packed);
            let score = position.static_evaluation() as i16;
            encode_record(&packed, score, WdlResult::Draw, ply == 0, &mut records);
        }
        writer.write_game(&records).unwrap();
    }
}

/// Runs `tessera ARGS --data DATA --out OUT` (a tuner or trainer) and checks that it succeeded.
fn fit_on(args: &[&str], data: &Path, out: &Path) {
    let output = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .arg("--data")
        .arg(data)
        .arg("--out")
        .arg(out)
        .output()
        .expect("running tessera");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

/// `tessera tune --game xiangqi` runs one epoch on a small file and writes a weights module of
/// the same shape as the one in force (the fit need not improve anything).
#[test]
fn xiangqi_tuning_runs_and_writes_the_weights_module() {
    let data = temp_file("xiangqi-tune.data");
    write_random_xiangqi_data(&data);
    let in_force = include_str!("../crates/xiangqi/src/eval/weights.rs");
    tune_one_epoch("xiangqi", &data, in_force, "pub(super) const PIECE_SQUARE: [[[S; 5]; 10]; 7]");
}

/// Runs one epoch of `tessera tune --game GAME` on `data` and checks that the module written has
/// as many lines as `in_force` and holds `declaration`; removes the data and the module.
fn tune_one_epoch(game: &str, data: &Path, in_force: &str, declaration: &str) {
    let out = temp_file(&format!("{game}-weights.rs"));
    fit_on(&["tune", "--game", game, "--epochs", "1"], data, &out);
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written.lines().count(), in_force.lines().count());
    assert!(written.contains(declaration), "{written}");
    std::fs::remove_file(data).unwrap();
    std::fs::remove_file(&out).unwrap();
}

/// `tessera train --game xiangqi` writes a network of xiangqi features that the engine loads,
/// carrying xiangqi's score scale (130: its output is in xiangqi units, 100 = a horse).
#[test]
fn xiangqi_training_writes_a_network_in_xiangqi_units() {
    let data = temp_file("xiangqi-train.data");
    let out = temp_file("xiangqi.nnue");
    write_random_xiangqi_data(&data);
    fit_on(&["train", "--game", "xiangqi", "--epochs", "1", "--hidden", "16", "--threads", "1"], &data, &out);
    let network = tessera_xiangqi::nnue::DEFAULT_NETWORK.or_file(&out).unwrap();
    assert_eq!((network.feature_set(), network.hidden()), ("xiangqi-kf3", 16));
    assert_eq!(network.quantisation().scale, 130);

    // Fine-tuning that network: its hidden size is the run's unless `--hidden` says otherwise.
    let tuned = temp_file("xiangqi-tuned.nnue");
    let initial = out.to_str().unwrap();
    fit_on(
        &["train", "--game", "xiangqi", "--epochs", "1", "--threads", "1", "--initial-network", initial],
        &data,
        &tuned,
    );
    assert_eq!(tessera_xiangqi::nnue::DEFAULT_NETWORK.or_file(&tuned).unwrap().hidden(), 16);
    // A network of other features (chess's) is refused by name before any training.
    let chess = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/chess/nets/default.nnue");
    let output = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["train", "--game", "xiangqi", "--epochs", "1", "--initial-network"])
        .arg(&chess)
        .arg("--data")
        .arg(&data)
        .arg("--out")
        .arg(temp_file("xiangqi-refused.nnue"))
        .output()
        .expect("running tessera");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success() && stderr.contains("chess-768") && stderr.contains("xiangqi-kf3"), "{stderr}");
    for path in [&out, &tuned] {
        std::fs::remove_file(format!("{}.checkpoint", path.display())).unwrap();
    }
    for path in [data, out, tuned] {
        std::fs::remove_file(path).unwrap();
    }
}

/// Writes 60 games of 10 random plies near the stones, scored by the pattern evaluation, to `path`.
fn write_random_gomoku_data(path: &Path) {
    use tessera_core::{Evaluate, Game, Rng};
    use tessera_gomoku::{Board as GomokuBoard, Moves, Rules as GomokuRules};
    use tessera_nnue::data::{encode_record, DataWriter, WdlResult};

    let (mut writer, _) = DataWriter::append::<GomokuBoard>(path).unwrap();
    let (mut rng, mut moves, mut packed) = (Rng::new(3), Moves::new(), [0u8; GomokuBoard::BYTES]);
    for _ in 0..60 {
        let mut board = GomokuBoard::new(GomokuRules::FREESTYLE_15);
        let mut records = Vec::new();
        for ply in 0..10 {
            board.generate_search_moves(0, &mut moves);
            board.play(moves[rng.below(moves.len())]);
            board.pack(&mut packed);
            let score = board.evaluate().clamp(-9_000, 9_000) as i16;
            encode_record(&packed, score, WdlResult::Draw, ply == 0, &mut records);
        }
        writer.write_game(&records).unwrap();
    }
}

/// `tessera train --game gomoku` writes a network the engines load (`gomoku-shapes`), in the
/// pattern evaluation's units (score scale 1000).
#[test]
fn gomoku_training_writes_a_network_the_engines_load() {
    let data = temp_file("gomoku-train.data");
    let out = temp_file("gomoku.nnue");
    write_random_gomoku_data(&data);
    fit_on(&["train", "--game", "gomoku", "--epochs", "1", "--hidden", "16", "--threads", "1"], &data, &out);
    let network = tessera_gomoku::nnue::load(&out).unwrap();
    assert_eq!((network.feature_set(), network.hidden()), ("gomoku-shapes", 16));
    assert_eq!(network.quantisation().scale, 1000);
    let checkpoint = format!("{}.checkpoint", out.display());
    for path in [data, out, checkpoint.into()] {
        std::fs::remove_file(path).unwrap();
    }
}

/// `tessera datagen --game gomoku` writes renju games whose positions are undecided, carry the
/// rules they were played under, hold stones near one another (the random plies come from the
/// candidate moves) and share one result per game; a network file of gomoku features plays them,
/// `embedded` and other games' networks are refused.
#[test]
fn gomoku_games_are_written_and_read_back() {
    use tessera_core::Game;
    use tessera_gomoku::{Board as GomokuBoard, Rules as GomokuRules};

    let path = temp_file("gomoku");
    let output = datagen_of("gomoku", "300", "1", &["--rules", "renju 15x15"], &path, 3);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(read_header(&path).unwrap().game, "gomoku");
    let games = check_games(&path, |board: &GomokuBoard, _| {
        assert_eq!(*board.game_rules(), GomokuRules::RENJU_15);
        assert!(board.outcome().is_none(), "{board:?}");
        let stones: Vec<_> = (0..15)
            .flat_map(|y| (0..15).map(move |x| tessera_gomoku::Point::new(x, y)))
            .filter(|&point| board.stone(point).is_some())
            .collect();
        let spread = |coordinate: fn(tessera_gomoku::Point) -> u8| {
            let values = || stones.iter().map(|&point| coordinate(point));
            values().max().unwrap() - values().min().unwrap()
        };
        assert!(spread(tessera_gomoku::Point::x) < 12 && spread(tessera_gomoku::Point::y) < 12, "{board:?}");
    });
    // A game of threats only keeps no position.
    assert!((1..=3).contains(&games), "{games} games");
    std::fs::remove_file(&path).unwrap();

    // The embedded network plays the games, and so does a network file of gomoku features (a chess
    // one is refused).
    let output = datagen_of("gomoku", "300", "1", &["--network", "embedded"], &path, 1);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(check_games(&path, |board: &GomokuBoard, _| assert!(board.outcome().is_none())) <= 1);
    std::fs::remove_file(&path).unwrap();
    let network = temp_file("gomoku-random.nnue");
    tessera_nnue::Network::random(tessera_gomoku::nnue::FEATURE_SET, tessera_gomoku::nnue::INPUTS, 16, 2)
        .save(&network)
        .unwrap();
    let with_network = ["--rules", "renju 15x15", "--network", network.to_str().unwrap()];
    let output = datagen_of("gomoku", "300", "1", &with_network, &path, 2);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(check_games(&path, |board: &GomokuBoard, _| assert!(board.outcome().is_none())) <= 2);
    std::fs::remove_file(&path).unwrap();
    tessera_nnue::Network::random("chess-768", 768, 16, 2).save(&network).unwrap();
    let output = datagen_of("gomoku", "300", "1", &["--network", network.to_str().unwrap()], &path, 1);
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("chess-768"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!output.status.success() && !path.exists());
    std::fs::remove_file(&network).unwrap();
}

/// `tessera tune --game gomoku` runs one epoch on 60 random games and writes a weights module of
/// the same shape as the one in force.
#[test]
fn gomoku_tuning_runs_and_writes_the_weights_module() {
    let data = temp_file("gomoku-tune.data");
    write_random_gomoku_data(&data);
    let in_force = include_str!("../crates/gomoku/src/eval/weights.rs");
    tune_one_epoch("gomoku", &data, in_force, "pub(crate) const WAITER_WEIGHT: [i32; SHAPES]");
}

/// The games of a file, each as its records' raw bytes (position and labels).
fn raw_games(path: &Path) -> Vec<Vec<u8>> {
    let mut reader = DataReader::open::<tessera_xiangqi::Position>(path).unwrap();
    let mut games: Vec<Vec<u8>> = Vec::new();
    while let Some(record) = reader.next_record().unwrap() {
        if record.first_of_game {
            games.push(Vec::new());
        }
        record.encode(games.last_mut().expect("a file starts with a game"));
    }
    games
}

fn merge(out: &Path, inputs: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["datagen-merge", "--out"])
        .arg(out)
        .args(inputs)
        .output()
        .expect("running tessera datagen-merge")
}

#[test]
fn shards_play_the_games_of_one_run_between_them_and_merge_with_each_position_once() {
    let [whole, first, second, merged, doubled] = ["whole", "shard0", "shard1", "merged", "doubled"].map(temp_file);
    assert!(xiangqi_datagen(&whole, 4).status.success());
    for (shard, path) in [("0/2", &first), ("1/2", &second)] {
        let output = datagen_of("xiangqi", "300", "1", &["--shard", shard], path, 2);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let said = String::from_utf8_lossy(&output.stdout);
        assert!(said.contains(" positions/s, ") && said.contains(" per thread; "), "{said}");
    }
    // Game g of shard I/N is game I + N·g of the whole: shard 0 played games 0 and 2, shard 1 games 1 and 3.
    let (all, zero, one) = (raw_games(&whole), raw_games(&first), raw_games(&second));
    assert_eq!([&all[0], &all[2]], [&zero[0], &zero[1]]);
    assert_eq!([&all[1], &all[3]], [&one[0], &one[1]]);
    let output = merge(&merged, &[&first, &second]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let said = String::from_utf8_lossy(&output.stdout);
    let positions: usize = all.iter().map(|game| game.len()).sum::<usize>() / (tessera_xiangqi::Position::BYTES + 4);
    assert!(said.starts_with(&format!("2 files, {positions} positions read, ")), "{said}");
    let kept = raw_games(&merged).concat().len();
    // A shard merged with itself: the second copy is all duplicates.
    assert!(merge(&doubled, &[&first, &second, &first]).status.success());
    assert_eq!(raw_games(&doubled).concat().len(), kept);
    let again = merge(&merged, &[&first]);
    assert!(!again.status.success() && String::from_utf8_lossy(&again.stderr).contains("exists"));
    for path in [whole, first, second, merged, doubled] {
        std::fs::remove_file(path).unwrap();
    }
}
