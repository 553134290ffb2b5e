//! Shard arithmetic: the shards of a match played one by one and merged give the standings of
//! the whole match played at once, on connect four between two deterministic toy players.

use std::time::{Duration, Instant};

use tessera_core::toys::ConnectFour;
use tessera_core::{Game, Limits, Side};

use super::*;
use crate::game::{Adjudication, Contestant, GameSettings, Reply};
use crate::process::ClientError;
use crate::schedule::{result_of_first, run_match, run_match_shard, MatchSettings};

/// Plays the legal move a hash of the position and its own salt picks: a fixed game for each
/// opening and colour, with wins for either side and some draws, wherever and whenever it runs.
struct Hashing {
    name: String,
    salt: u64,
}

impl Contestant<ConnectFour> for Hashing {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _start: &ConnectFour, _side: Side) -> Result<(), ClientError> {
        Ok(())
    }

    fn choose_move(
        &mut self,
        position: &ConnectFour,
        _limits: &Limits<u8>,
        _deadline: Instant,
    ) -> Result<Reply<u8>, ClientError> {
        let mut moves = <ConnectFour as Game>::Moves::default();
        position.generate_legal_moves(&mut moves);
        let pick = (position.hash() ^ self.salt).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
        let index = usize::try_from(pick).unwrap_or(0) % moves.len().max(1);
        // The arena asks only in live games, which have a legal move.
        Ok(Reply::Move { mv: moves[index], score: None, depth: None })
    }
}

fn openings() -> Vec<ConnectFour> {
    [vec![], vec![3], vec![0, 6], vec![2, 4, 3], vec![6]]
        .into_iter()
        .map(|moves| {
            let mut position = ConnectFour::new();
            for mv in moves {
                position.play(mv);
            }
            position
        })
        .collect()
}

fn settings() -> MatchSettings {
    MatchSettings {
        games: 30,
        concurrency: 2,
        game: GameSettings {
            time_control: "depth=1".parse().unwrap_or_else(|_| unreachable!("a valid time control")),
            time_margin: Duration::from_secs(5),
            adjudication: Adjudication::default(),
        },
        sprt: None,
    }
}

fn make(engine: usize) -> Result<Box<dyn Contestant<ConnectFour>>, ClientError> {
    let (name, salt) = if engine == 0 { ("first", 0x1234) } else { ("second", 0xBEEF) };
    Ok(Box::new(Hashing { name: name.into(), salt }))
}

#[test]
fn shards_merged_equal_one_unsharded_run() {
    // Bounds far apart: the test never decides early, so both runs play every game.
    let sprt: Sprt = "elo0=-500 elo1=500 alpha=0.001 beta=0.001".parse().unwrap_or_else(|_| unreachable!("valid"));
    let settings = MatchSettings { sprt: Some(sprt), ..settings() };
    let whole = run_match(&openings(), &settings, &make, None, |_, _, _| {});
    assert_eq!(whole.results.games(), 30);
    assert!(whole.results.wins > 0 && whole.results.losses > 0, "a varied match: {whole:?}");

    let count = 4;
    let names = ["first".to_string(), "second".to_string()];
    let files: Vec<String> = (0..count)
        .map(|index| {
            let shard = Shard { index, count };
            let mut results = BTreeMap::new();
            // A shard plays without the SPRT: only the merged results may stop a test.
            let alone = MatchSettings { sprt: None, ..settings.clone() };
            run_match_shard(&openings(), &alone, shard, &make, None, |game, record, _| {
                assert!(shard.plays(game));
                results.insert(game, result_of_first(game, record));
            });
            ShardResults { names: names.clone(), games: 30, shard, sprt: Some(sprt), results }.to_string()
        })
        .collect();
    let read: Vec<ShardResults> =
        files.iter().rev().map(|text| text.parse().unwrap_or_else(|error| panic!("{error}: {text}"))).collect();
    let merged = merge(&read).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(merged.results.len(), 30);
    assert_eq!(merged.sprt, Some(sprt), "the SPRT travels in the files");
    assert_eq!(standings(&merged.results, merged.sprt.as_ref()), whole);
}

#[test]
fn shards_split_pairs_and_merging_checks_the_set() {
    assert_eq!("1/3".parse(), Ok(Shard { index: 1, count: 3 }));
    for bad in ["3/3", "1", "a/2", "0/0", "-1/2"] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
    let shard = Shard { index: 1, count: 3 };
    assert_eq!(shard.games(16), [2, 3, 8, 9, 14, 15]);
    let all: Vec<u32> = (0..3).flat_map(|index| Shard { index, count: 3 }.games(16)).collect();
    assert_eq!(all.len(), 16, "every game in exactly one shard");

    let names = ["a".to_string(), "b b".to_string()];
    let part = |index| ShardResults {
        names: names.clone(),
        games: 4,
        shard: Shard { index, count: 2 },
        sprt: None,
        results: Shard { index, count: 2 }.games(4).into_iter().map(|game| (game, GameResult::Draw)).collect(),
    };
    let text = part(1).to_string();
    assert_eq!(text.parse(), Ok(part(1)), "{text}");
    assert_eq!(merge(&[part(0)]), Err(MergeError::MissingShards(vec![1], 2)));
    assert_eq!(merge(&[part(0), part(0)]), Err(MergeError::DuplicateShard(Shard { index: 0, count: 2 })));
    let other = ShardResults { games: 6, ..part(1) };
    assert_eq!(merge(&[part(0), other]), Err(MergeError::Mismatch("the number of games")));
    assert_eq!(
        text.replace("game 2", "game 0").parse::<ShardResults>(),
        Err(MergeError::StrayGame(0, Shard { index: 1, count: 2 }))
    );
    assert_eq!("hello".parse::<ShardResults>(), Err(MergeError::NotAResultFile));
    let merged = merge(&[part(1), part(0)]).unwrap_or_else(|error| panic!("{error}"));
    let table = standings(&merged.results, None);
    assert_eq!((table.results.draws, table.pairs.counts), (4, [0, 0, 2, 0, 0]));
}
