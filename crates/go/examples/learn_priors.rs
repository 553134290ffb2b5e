//! Learns the go move priors (`data/priors.txt`) from game records, and measures how well priors
//! predict the moves of other records.
//!
//! ```text
//! learn_priors learn GAMES > crates/go/data/priors.txt
//! SIZE=9 learn_priors learn GAMES > crates/go/data/priors9.txt
//! [SIZE=9] learn_priors evaluate GAMES [TABLE]
//! ```
//! GAMES holds one game per line, `B Q16 W D4 …` in GTP vertices on 19×19 (or `SIZE`)
//! (`scripts/go-selfplay.py` writes them). The first `OPENING` moves of each game are
//! random corner points and are skipped.

use std::collections::HashMap;
use std::ops::Range;

use tessera_go::learned::{canonical_code, distance, line, shape_code, LearnedPriors, MAX_DISTANCE, MAX_LINE};
use tessera_go::priors::PriorContext;
use tessera_go::{parse_vertex, Cell, Position, Rules};

use tessera_core::Game;

/// Board size of the records unless the command line names another.
const DEFAULT_SIZE: usize = 19;

/// Random opening stones of the records (`opening_stones` of the self-play script).
fn opening_moves(size: usize) -> usize {
    if size >= 13 {
        4
    } else {
        2
    }
}
/// Shapes seen fewer times than this as candidates share one weight (read as 1.0).
const MIN_SEEN: u64 = 10;

/// One position of a record: the side to move, its legal non-eye points and the point played.
struct Sample<'a> {
    position: &'a Position,
    color: Cell,
    candidates: &'a [usize],
    chosen: usize,
}

/// Replays every record of `text`, calling `visit` for each position after the opening where a
/// stone was played.
fn for_each_sample(text: &str, size: usize, mut visit: impl FnMut(&Sample<'_>)) {
    let mut candidates = Vec::with_capacity(size * size);
    for line in text.lines() {
        let mut position = Position::new(size, Rules::CHINESE);
        let words: Vec<&str> = line.split_whitespace().collect();
        for (index, pair) in words.chunks(2).enumerate() {
            let Some(mv) = pair.get(1).and_then(|vertex| parse_vertex(size, vertex).ok()) else { break };
            if !position.is_legal(mv) {
                break;
            }
            if let (Some(chosen), true) = (mv.point(), index >= opening_moves(size)) {
                let color = position.to_move();
                candidates.clear();
                candidates.extend(
                    position
                        .board()
                        .empty_points()
                        .iter()
                        .map(|&p| usize::from(p))
                        .filter(|&p| position.is_legal_point(p) && !position.board().is_eye(p, color)),
                );
                visit(&Sample { position: &position, color, candidates: &candidates, chosen });
            }
            position.play(mv);
        }
    }
}

/// The last move and the mover's own move before it.
fn recent_points(position: &Position) -> (Option<usize>, Option<usize>) {
    let moves = position.moves();
    let back = |n: usize| moves.len().checked_sub(n).and_then(|i| moves[i].point());
    (back(1), back(2))
}

/// The feature groups of a candidate point.
const GROUPS: [&str; 4] = ["shape", "last", "own", "line"];
/// Virtual competitions against a gamma-1 opponent, one won and one lost, that keep rare features
/// near 1.
const PRIOR_GAMES: f64 = 1.0;
/// Minorization-maximization sweeps over all groups.
const SWEEPS: usize = 25;

/// One sample as a competition: its candidates' indices and the winner's.
struct Competition {
    candidates: Range<usize>,
    chosen: usize,
}

/// Every candidate of every sample as dense feature ids, one per group, ready for the fit.
struct FeatureSet {
    /// One id per group and candidate, in the order of [`GROUPS`].
    ids: Vec<u32>,
    competitions: Vec<Competition>,
    /// First id of each group, then the total count.
    group_start: [usize; GROUPS.len() + 1],
    /// The canonical shape code of each shape id (the last shape id gathers the rare shapes).
    shape_codes: Vec<u16>,
}

impl FeatureSet {
    /// The features of every sample of the records in `text`, replayed once.
    fn collect(text: &str, size: usize) -> FeatureSet {
        // Shapes are gathered as canonical codes first and numbered once their counts are known.
        let (mut ids, mut competitions) = (Vec::new(), Vec::new());
        let mut seen: HashMap<u16, u64> = HashMap::new();
        for_each_sample(text, size, |sample| {
            // GNU Go now and then fills its own eye, which is no candidate: such a move teaches nothing.
            let Some(chosen) = sample.candidates.iter().position(|&p| p == sample.chosen) else { return };
            let board = sample.position.board();
            let (last_point, own_point) = recent_points(sample.position);
            let first = ids.len() / GROUPS.len();
            competitions
                .push(Competition { candidates: first..first + sample.candidates.len(), chosen: first + chosen });
            for &p in sample.candidates {
                let shape = canonical_code(shape_code(board, p, sample.color));
                *seen.entry(shape).or_default() += 1;
                let (last, own) = (distance(p, last_point), distance(p, own_point));
                ids.extend([u32::from(shape), last as u32, own as u32, line(board, p) as u32]);
            }
        });
        let mut shape_codes: Vec<u16> =
            seen.iter().filter(|(_, &count)| count >= MIN_SEEN).map(|(&code, _)| code).collect();
        shape_codes.sort_unstable();
        let shapes = shape_codes.len() + 1;
        let sizes = [shapes, MAX_DISTANCE + 1, MAX_DISTANCE + 1, MAX_LINE + 1];
        let mut group_start = [0; GROUPS.len() + 1];
        for (group, size) in sizes.into_iter().enumerate() {
            group_start[group + 1] = group_start[group] + size;
        }
        let rare = shape_codes.len() as u32;
        for features in ids.chunks_mut(GROUPS.len()) {
            features[0] = shape_codes.binary_search(&(features[0] as u16)).map_or(rare, |id| id as u32);
            for group in 1..GROUPS.len() {
                features[group] += group_start[group] as u32;
            }
        }
        FeatureSet { ids, competitions, group_start, shape_codes }
    }

    /// The feature ids of one candidate.
    fn features(&self, candidate: usize) -> &[u32] {
        &self.ids[candidate * GROUPS.len()..][..GROUPS.len()]
    }

    /// A candidate's strength: the product of its features' gammas.
    fn strength(&self, gammas: &[f64], candidate: usize) -> f64 {
        self.features(candidate).iter().map(|&id| gammas[id as usize]).product()
    }

    /// Coulom's minorization-maximization for the generalized Bradley-Terry model ("Computing
    /// Elo ratings of move patterns in the game of Go", 2007): each sample is a competition that
    /// the chosen candidate won, a candidate's strength is the product of its features' gammas.
    /// Each group is updated in turn against the strengths of the others.
    fn fit(&self, sweeps: usize) -> Vec<f64> {
        let total = self.group_start[GROUPS.len()];
        let mut gammas = vec![1.0f64; total];
        let mut wins = vec![0.0f64; total];
        for competition in &self.competitions {
            for &id in self.features(competition.chosen) {
                wins[id as usize] += 1.0;
            }
        }
        let mut strengths = vec![0.0f64; self.ids.len() / GROUPS.len()];
        let mut denominators = vec![0.0f64; total];
        for sweep in 0..sweeps {
            for group in 0..GROUPS.len() {
                for (candidate, strength) in strengths.iter_mut().enumerate() {
                    *strength = self.strength(&gammas, candidate);
                }
                denominators.fill(0.0);
                for competition in &self.competitions {
                    let sum: f64 = strengths[competition.candidates.clone()].iter().sum();
                    for candidate in competition.candidates.clone() {
                        let id = self.features(candidate)[group] as usize;
                        denominators[id] += strengths[candidate] / gammas[id] / sum;
                    }
                }
                for id in self.group_start[group]..self.group_start[group + 1] {
                    gammas[id] = (wins[id] + PRIOR_GAMES) / (denominators[id] + 2.0 * PRIOR_GAMES / (gammas[id] + 1.0));
                }
            }
            eprintln!("sweep {sweep}: log-likelihood {:.1}", self.log_likelihood(&gammas));
        }
        gammas
    }

    fn log_likelihood(&self, gammas: &[f64]) -> f64 {
        let strength = |candidate| self.strength(gammas, candidate);
        let chance = |c: &Competition| strength(c.chosen) / c.candidates.clone().map(strength).sum::<f64>();
        self.competitions.iter().map(|competition| chance(competition).ln()).sum()
    }

    /// How many candidates hold each feature id.
    fn feature_counts(&self) -> Vec<u64> {
        let mut counts = vec![0u64; self.group_start[GROUPS.len()]];
        for &id in &self.ids {
            counts[id as usize] += 1;
        }
        counts
    }
}

fn learn(text: &str, size: usize) {
    let features = FeatureSet::collect(text, size);
    let mut gammas = features.fit(SWEEPS);
    // Scale is free within a group: rare (unlisted) shapes read as 1.0, and each other group
    // averages 1.0 over the candidates, so a prior stays near "chance" in size.
    let start = features.group_start;
    let rare = gammas[start[1] - 1];
    gammas[..start[1]].iter_mut().for_each(|gamma| *gamma /= rare);
    let counts = features.feature_counts();
    for group in 1..GROUPS.len() {
        let ids = start[group]..start[group + 1];
        let seen: u64 = counts[ids.clone()].iter().sum();
        let mean = ids.clone().map(|id| counts[id] as f64 * gammas[id]).sum::<f64>() / seen as f64;
        gammas[ids].iter_mut().for_each(|gamma| *gamma /= mean);
    }
    println!("# Go move priors learned by examples/learn_priors.rs (minorization-maximization over shape,");
    println!("# last- and own-move distance and line) from {} moves of self-play records", features.competitions.len());
    println!("# (scripts/go-selfplay.py); unlisted shapes weigh 1, other groups average 1 over the candidates.");
    for (group, name) in GROUPS.iter().enumerate().skip(1) {
        for (index, gamma) in gammas[start[group]..start[group + 1]].iter().enumerate() {
            println!("{name} {index} {gamma:.4}");
        }
    }
    for (code, gamma) in features.shape_codes.iter().zip(&gammas) {
        println!("shape {code} {gamma:.4}");
    }
}

/// Top-1 and top-5 prediction rates of a weight function over the records.
fn prediction_rate(text: &str, size: usize, weigh: impl Fn(&Sample<'_>, usize) -> f32) -> (f64, f64, u64) {
    let (mut top1, mut top5, mut samples) = (0u64, 0u64, 0u64);
    for_each_sample(text, size, |sample| {
        samples += 1;
        let chosen = weigh(sample, sample.chosen);
        let better = sample.candidates.iter().filter(|&&p| p != sample.chosen && weigh(sample, p) >= chosen).count();
        top1 += u64::from(better == 0);
        top5 += u64::from(better < 5);
    });
    (top1 as f64 / samples as f64, top5 as f64 / samples as f64, samples)
}

fn evaluate(text: &str, size: usize, table: Option<&str>) {
    let parsed = table.map(|table| LearnedPriors::parse(table).unwrap_or_else(|error| panic!("{error}")));
    let learned = parsed.as_ref().unwrap_or_else(|| LearnedPriors::shipped());
    let report = |name: &str, (top1, top5, samples): (f64, f64, u64)| {
        println!("{name:<28} top-1 {:5.1}%  top-5 {:5.1}%  ({samples} moves)", 100.0 * top1, 100.0 * top5);
    };
    report(
        "tree priors (PriorContext)",
        prediction_rate(text, size, |sample, p| {
            let (last, own) = recent_points(sample.position);
            PriorContext::new(sample.position.board(), last, own).point_prior(p)
        }),
    );
    report(
        "learned table alone",
        prediction_rate(text, size, |sample, p| {
            let (last, own) = recent_points(sample.position);
            learned.weight(sample.position.board(), p, sample.color, last, own)
        }),
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: [SIZE=19] learn_priors learn GAMES | [SIZE=19] learn_priors evaluate GAMES [TABLE]";
    let (Some(mode), Some(path)) = (args.get(1), args.get(2)) else { return eprintln!("{usage}") };
    let text = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("reading {path}: {error}"));
    let size = std::env::var("SIZE").ok().and_then(|size| size.parse().ok()).unwrap_or(DEFAULT_SIZE);
    match mode.as_str() {
        "learn" => learn(&text, size),
        "evaluate" => {
            let table = args.get(3).map(|path| std::fs::read_to_string(path).expect("reading the table"));
            evaluate(&text, size, table.as_deref());
        }
        _ => eprintln!("{usage}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_how_much_stronger_a_feature_is() {
        // Two shapes (ids 0 and 1), the rest shared: shape 0 wins three competitions in four.
        let group_start = [0, 2, 3, 4, 5];
        let (mut ids, mut competitions) = (Vec::new(), Vec::new());
        for index in 0..400 {
            let first = ids.len() / GROUPS.len();
            ids.extend([0, 2, 3, 4, 1, 2, 3, 4]);
            competitions
                .push(Competition { candidates: first..first + 2, chosen: first + usize::from(index % 4 == 0) });
        }
        let features = FeatureSet { ids, competitions, group_start, shape_codes: vec![7] };
        let gammas = features.fit(50);
        let ratio = gammas[0] / gammas[1];
        assert!((2.9..3.1).contains(&ratio), "{ratio}");
        assert!(features.log_likelihood(&gammas) > features.log_likelihood(&[1.0; 5]));
    }

    #[test]
    fn records_become_one_competition_per_stone_after_the_opening() {
        let features = FeatureSet::collect("B D4 W Q16 B D16 W Q4 B C3 W R17\n", 19);
        assert_eq!(features.competitions.len(), 2);
        let first = &features.competitions[0];
        assert_eq!(first.candidates.len(), 19 * 19 - 4);
        // C3 answers Q4: the chosen candidate's last-move distance is theirs.
        let (c3, q4) = (parse_vertex(19, "C3").unwrap(), parse_vertex(19, "Q4").unwrap());
        let last_id = features.features(first.chosen)[1] as usize - features.group_start[1];
        assert_eq!(last_id, distance(c3.point().unwrap(), q4.point()));
        assert_eq!(features.feature_counts().iter().sum::<u64>() as usize, features.ids.len());
    }
}
