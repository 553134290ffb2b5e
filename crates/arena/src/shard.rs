//! Matches spread over machines: shard `I/N` plays a fixed slice of the game pairs and writes a
//! result file; merging the files of all `N` shards gives the standings of one unsharded match.
//!
//! The unit is the game pair (one opening, colours swapped), so that no pair is split between
//! machines and the pentanomial counts are the same as in one run. Pair `p` (games `2p` and
//! `2p + 1`) belongs to shard `p mod N`; every shard builds the same opening list from the same
//! seeds, so game `i` plays the same opening with the same colours wherever it runs.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use crate::stats::{Sprt, Standings};

/// A slice of a match: shard `index` (from 0) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 0 (a Slurm array index or a Kubernetes completion index as it comes).
    pub index: u32,
    /// How many slices the match is cut into.
    pub count: u32,
}

impl Shard {
    /// The whole match as one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether game `game` (its pair, in fact) is played by this shard.
    #[must_use]
    pub fn plays(&self, game: u32) -> bool {
        (game / 2) % self.count == self.index
    }

    /// The games of a match of `games` games (whole pairs) that this shard plays, in order.
    #[must_use]
    pub fn games(&self, games: u32) -> Vec<u32> {
        (0..games).filter(|&game| self.plays(game)).collect()
    }
}

/// Why a shard specification did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad shard `{0}`: expected I/N with 0 <= I < N (e.g. 0/4)")]
pub struct ShardSpecError(String);

impl FromStr for Shard {
    type Err = ShardSpecError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || ShardSpecError(text.to_string());
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: u32 = index.trim().parse().map_err(|_| bad())?;
        let count: u32 = count.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A finished game's result for the first engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The first engine won.
    Win,
    /// A draw.
    Draw,
    /// The first engine lost.
    Loss,
}

impl GameResult {
    /// The first engine's points.
    #[must_use]
    pub fn points(self) -> f64 {
        match self {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        }
    }

    fn word(self) -> &'static str {
        match self {
            GameResult::Win => "win",
            GameResult::Draw => "draw",
            GameResult::Loss => "loss",
        }
    }
}

/// What one shard played: written by `tessera match --shard`, read by `tessera match-merge`.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardResults {
    /// The two engines (the figures are the first one's).
    pub names: [String; 2],
    /// Games in the whole match (all shards).
    pub games: u32,
    /// The slice played.
    pub shard: Shard,
    /// The match's SPRT, decided on the merged results (a shard never stops early).
    pub sprt: Option<Sprt>,
    /// Result of each game played, by game index.
    pub results: BTreeMap<u32, GameResult>,
}

/// The first line of a result file: names the format and its version.
const MAGIC: &str = "tessera-match-shard 1";

impl fmt::Display for ShardResults {
    /// One `key value` line each: the format, the shard, the match size, the engines, then a line
    /// `game <index> win|draw|loss` per game. Engine names keep their spaces (the rest of the line).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{MAGIC}")?;
        writeln!(f, "shard {}", self.shard)?;
        writeln!(f, "games {}", self.games)?;
        writeln!(f, "first {}", self.names[0])?;
        writeln!(f, "second {}", self.names[1])?;
        if let Some(sprt) = &self.sprt {
            writeln!(f, "sprt elo0={} elo1={} alpha={} beta={}", sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta)?;
        }
        for (game, result) in &self.results {
            writeln!(f, "game {game} {}", result.word())?;
        }
        Ok(())
    }
}

/// Why result files could not be read or merged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// Not a result file of this version.
    #[error("not a tessera match result file (first line must be `{MAGIC}`)")]
    NotAResultFile,
    /// A line that does not belong in a result file.
    #[error("line {line}: cannot read `{text}`")]
    BadLine {
        /// Line number, from 1.
        line: usize,
        /// The line.
        text: String,
    },
    /// A header line is missing.
    #[error("the `{0}` line is missing")]
    Missing(&'static str),
    /// The files come from different matches.
    #[error("the files disagree on {0}: they are not shards of one match")]
    Mismatch(&'static str),
    /// The same shard twice.
    #[error("shard {0} is given twice")]
    DuplicateShard(Shard),
    /// Shards missing from the merge.
    #[error("shards {0:?} of {1} are missing")]
    MissingShards(Vec<u32>, u32),
    /// A game that is not this shard's, or played twice.
    #[error("game {0} is not shard {1}'s, or is listed twice")]
    StrayGame(u32, Shard),
    /// No file at all.
    #[error("no result files to merge")]
    Empty,
}

impl FromStr for ShardResults {
    type Err = MergeError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut lines = text.lines().enumerate().map(|(number, line)| (number + 1, line.trim_end()));
        if lines.next().map(|(_, line)| line) != Some(MAGIC) {
            return Err(MergeError::NotAResultFile);
        }
        let (mut shard, mut games, mut first, mut second, mut sprt) = (None, None, None, None, None);
        let mut results = BTreeMap::new();
        for (number, line) in lines.filter(|(_, line)| !line.is_empty()) {
            let bad = || MergeError::BadLine { line: number, text: line.to_string() };
            let (key, value) = line.split_once(' ').ok_or_else(bad)?;
            match key {
                "shard" => shard = Some(value.parse::<Shard>().map_err(|_| bad())?),
                "games" => games = Some(value.parse::<u32>().map_err(|_| bad())?),
                "first" => first = Some(value.to_string()),
                "second" => second = Some(value.to_string()),
                "sprt" => sprt = Some(value.parse::<Sprt>().map_err(|_| bad())?),
                "game" => {
                    let (game, word) = value.split_once(' ').ok_or_else(bad)?;
                    let game: u32 = game.parse().map_err(|_| bad())?;
                    let result = match word {
                        "win" => GameResult::Win,
                        "draw" => GameResult::Draw,
                        "loss" => GameResult::Loss,
                        _ => return Err(bad()),
                    };
                    if results.insert(game, result).is_some() {
                        return Err(bad());
                    }
                }
                _ => return Err(bad()),
            }
        }
        let shard = shard.ok_or(MergeError::Missing("shard"))?;
        let parsed = ShardResults {
            names: [first.ok_or(MergeError::Missing("first"))?, second.ok_or(MergeError::Missing("second"))?],
            games: games.ok_or(MergeError::Missing("games"))?,
            shard,
            sprt,
            results,
        };
        if let Some(&stray) = parsed.results.keys().find(|&&game| !shard.plays(game) || game >= parsed.games) {
            return Err(MergeError::StrayGame(stray, shard));
        }
        Ok(parsed)
    }
}

/// The results of all shards of one match, checked: same engines, same size, every shard once.
///
/// # Errors
/// [`MergeError`] when the files are not the complete set of shards of one match.
pub fn merge(shards: &[ShardResults]) -> Result<ShardResults, MergeError> {
    let first = shards.first().ok_or(MergeError::Empty)?;
    let count = first.shard.count;
    let mut seen = vec![false; count as usize];
    let mut results = BTreeMap::new();
    for shard in shards {
        if shard.names != first.names {
            return Err(MergeError::Mismatch("the engines"));
        }
        if shard.games != first.games {
            return Err(MergeError::Mismatch("the number of games"));
        }
        if shard.shard.count != count {
            return Err(MergeError::Mismatch("the number of shards"));
        }
        if shard.sprt != first.sprt {
            return Err(MergeError::Mismatch("the SPRT"));
        }
        let slot = &mut seen[shard.shard.index as usize];
        if std::mem::replace(slot, true) {
            return Err(MergeError::DuplicateShard(shard.shard));
        }
        results.extend(&shard.results);
    }
    let missing: Vec<u32> = (0..count).filter(|&index| !seen[index as usize]).collect();
    if !missing.is_empty() {
        return Err(MergeError::MissingShards(missing, count));
    }
    Ok(ShardResults { names: first.names.clone(), games: first.games, shard: Shard::WHOLE, sprt: first.sprt, results })
}

/// The standings of these results: the counts, the pentanomial table of complete pairs, and the
/// SPRT state on them (as one run would have it after its last game).
#[must_use]
pub fn standings(results: &BTreeMap<u32, GameResult>, sprt: Option<&Sprt>) -> Standings {
    let mut standings = Standings::default();
    for (&game, &result) in results {
        match result {
            GameResult::Win => standings.results.wins += 1,
            GameResult::Draw => standings.results.draws += 1,
            GameResult::Loss => standings.results.losses += 1,
        }
        if game % 2 == 1 {
            if let Some(first) = results.get(&(game - 1)) {
                standings.pairs.add_pair(first.points() + result.points());
            }
        }
    }
    if let Some(sprt) = sprt {
        let llr = sprt.llr_pairs(&standings.pairs);
        standings.sprt = Some((llr, sprt.decide(llr)));
    }
    standings
}

#[cfg(test)]
mod tests;
