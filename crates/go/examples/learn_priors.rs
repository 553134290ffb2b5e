//! Learns the go move priors (`data/priors.txt`) from game records, and measures how well priors
//! predict the moves of other records.
//!
//! ```text
//! learn_priors learn GAMES > crates/go/data/priors.txt
//! learn_priors evaluate GAMES [TABLE]
//! ```
//! GAMES holds one game per line, `B Q16 W D4 …` in GTP vertices on 19×19
//! (`scripts/go-selfplay-gnugo.py` writes them). The first `OPENING` moves of each game are
//! random corner points and are skipped.

use std::collections::HashMap;

use tessera_go::learned::{canonical_code, distance, line, shape_code, LearnedPriors, MAX_DISTANCE, MAX_LINE};
use tessera_go::priors::PriorContext;
use tessera_go::{parse_vertex, Cell, Position, Rules};

use tessera_core::Game;

const SIZE: usize = 19;
const OPENING: usize = 4;
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
fn for_each_sample(text: &str, mut visit: impl FnMut(&Sample<'_>)) {
    let mut candidates = Vec::with_capacity(SIZE * SIZE);
    for line in text.lines() {
        let mut position = Position::new(SIZE, Rules::CHINESE);
        let words: Vec<&str> = line.split_whitespace().collect();
        for (index, pair) in words.chunks(2).enumerate() {
            let Some(mv) = pair.get(1).and_then(|vertex| parse_vertex(SIZE, vertex).ok()) else { break };
            if !position.is_legal(mv) {
                break;
            }
            if let (Some(chosen), true) = (mv.point(), index >= OPENING) {
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

/// The feature groups of a candidate point, in the order of [`FeatureSet::ids`].
const GROUPS: [&str; 4] = ["shape", "last", "own", "line"];
/// Virtual competitions against a gamma-1 opponent, one won and one lost, that keep rare features
/// near 1.
const PRIOR_GAMES: f64 = 1.0;
/// Minorization-maximization sweeps over all groups.
const SWEEPS: usize = 25;

/// Every candidate of every sample as dense feature ids, one per group, ready for the fit.
struct FeatureSet {
    /// Four ids per candidate: shape, last distance, own distance, line (offset per group).
    ids: Vec<u32>,
    /// Per sample: the first candidate's index and the chosen candidate's index.
    samples: Vec<(usize, usize)>,
    /// First id of each group, then the total count.
    group_start: [usize; 5],
    /// The canonical shape code of each shape id (the last shape id gathers the rare shapes).
    shape_codes: Vec<u16>,
}

impl FeatureSet {
    /// The features of every sample of the records in `text`.
    fn collect(text: &str) -> FeatureSet {
        let mut seen: HashMap<u16, u64> = HashMap::new();
        for_each_sample(text, |sample| {
            let board = sample.position.board();
            for &p in sample.candidates {
                *seen.entry(canonical_code(shape_code(board, p, sample.color))).or_default() += 1;
            }
        });
        let mut shape_codes: Vec<u16> =
            seen.iter().filter(|(_, &count)| count >= MIN_SEEN).map(|(&code, _)| code).collect();
        shape_codes.sort_unstable();
        let shape_ids: HashMap<u16, u32> =
            shape_codes.iter().enumerate().map(|(id, &code)| (code, id as u32)).collect();
        let rare = shape_codes.len() as u32;
        let shapes = shape_codes.len() + 1;
        let group_start = [
            0,
            shapes,
            shapes + MAX_DISTANCE + 1,
            shapes + 2 * (MAX_DISTANCE + 1),
            shapes + 2 * (MAX_DISTANCE + 1) + MAX_LINE + 1,
        ];
        let (mut ids, mut samples) = (Vec::new(), Vec::new());
        for_each_sample(text, |sample| {
            let board = sample.position.board();
            let (last_point, own_point) = recent_points(sample.position);
            let first = ids.len() / GROUPS.len();
            // GNU Go now and then fills its own eye, which is no candidate: such a move teaches nothing.
            let Some(chosen) = sample.candidates.iter().position(|&p| p == sample.chosen) else { return };
            samples.push((first, first + chosen));
            for &p in sample.candidates {
                let shape = shape_ids.get(&canonical_code(shape_code(board, p, sample.color))).copied().unwrap_or(rare);
                ids.extend([
                    shape,
                    (group_start[1] + distance(p, last_point)) as u32,
                    (group_start[2] + distance(p, own_point)) as u32,
                    (group_start[3] + line(board, p)) as u32,
                ]);
            }
        });
        FeatureSet { ids, samples, group_start, shape_codes }
    }

    fn candidate_count(&self) -> usize {
        self.ids.len() / GROUPS.len()
    }

    /// Coulom's minorization-maximization for the generalized Bradley-Terry model ("Computing
    /// Elo ratings of move patterns in the game of Go", 2007): each sample is a competition that
    /// the chosen candidate won, a candidate's strength is the product of its features' gammas.
    fn fit(&self) -> Vec<f64> {
        let total = self.group_start[GROUPS.len()];
        let mut gammas = vec![1.0f64; total];
        let mut wins = vec![0.0f64; total];
        for &(_, chosen) in &self.samples {
            for &id in &self.ids[chosen * GROUPS.len()..][..GROUPS.len()] {
                wins[id as usize] += 1.0;
            }
        }
        let mut strengths = vec![0.0f64; self.candidate_count()];
        let ends = self.samples.iter().skip(1).map(|&(first, _)| first).chain([self.candidate_count()]);
        let ranges: Vec<(usize, usize)> = self.samples.iter().map(|&(first, _)| first).zip(ends).collect();
        for sweep in 0..SWEEPS {
            for group in 0..GROUPS.len() {
                for (candidate, strength) in strengths.iter_mut().enumerate() {
                    *strength = self.ids[candidate * GROUPS.len()..][..GROUPS.len()]
                        .iter()
                        .map(|&id| gammas[id as usize])
                        .product();
                }
                let mut denominators = vec![0.0f64; total];
                for &(first, end) in &ranges {
                    let sum: f64 = strengths[first..end].iter().sum();
                    let features = self.ids[first * GROUPS.len()..end * GROUPS.len()].chunks(GROUPS.len());
                    for (strength, features) in strengths[first..end].iter().zip(features) {
                        let id = features[group] as usize;
                        denominators[id] += strength / gammas[id] / sum;
                    }
                }
                for id in self.group_start[group]..self.group_start[group + 1] {
                    gammas[id] = (wins[id] + PRIOR_GAMES) / (denominators[id] + 2.0 * PRIOR_GAMES / (gammas[id] + 1.0));
                }
            }
            eprintln!("sweep {sweep}: log-likelihood {:.1}", self.log_likelihood(&gammas, &ranges));
        }
        gammas
    }

    fn log_likelihood(&self, gammas: &[f64], ranges: &[(usize, usize)]) -> f64 {
        let strength = |candidate: usize| -> f64 {
            self.ids[candidate * GROUPS.len()..][..GROUPS.len()].iter().map(|&id| gammas[id as usize]).product()
        };
        self.samples
            .iter()
            .zip(ranges)
            .map(|(&(_, chosen), &(first, end))| (strength(chosen) / (first..end).map(strength).sum::<f64>()).ln())
            .sum()
    }
}

fn learn(text: &str) {
    let features = FeatureSet::collect(text);
    let mut gammas = features.fit();
    // Scale is free within a group: rare (unlisted) shapes read as 1.0, and each other group
    // averages 1.0 over the candidates, so a prior stays near "chance" in size.
    let start = features.group_start;
    let rare = gammas[start[1] - 1];
    gammas[..start[1]].iter_mut().for_each(|gamma| *gamma /= rare);
    for group in 1..GROUPS.len() {
        let mut counts = vec![0u64; start[group + 1] - start[group]];
        for chunk in features.ids.chunks(GROUPS.len()) {
            counts[chunk[group] as usize - start[group]] += 1;
        }
        let seen: u64 = counts.iter().sum();
        let mean: f64 =
            counts.iter().zip(&gammas[start[group]..]).map(|(&count, gamma)| count as f64 * gamma).sum::<f64>()
                / seen as f64;
        gammas[start[group]..start[group + 1]].iter_mut().for_each(|gamma| *gamma /= mean);
    }
    println!("# Go move priors learned by examples/learn_priors.rs (minorization-maximization over shape,");
    println!("# last- and own-move distance and line) from {} moves of GNU Go self-play", features.samples.len());
    println!("# (scripts/go-selfplay-gnugo.py); unlisted shapes weigh 1, other groups average 1 over the candidates.");
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
fn prediction_rate(text: &str, weigh: impl Fn(&Sample<'_>, usize) -> f32) -> (f64, f64, u64) {
    let (mut top1, mut top5, mut samples) = (0u64, 0u64, 0u64);
    for_each_sample(text, |sample| {
        samples += 1;
        let chosen = weigh(sample, sample.chosen);
        let better = sample.candidates.iter().filter(|&&p| p != sample.chosen && weigh(sample, p) >= chosen).count();
        top1 += u64::from(better == 0);
        top5 += u64::from(better < 5);
    });
    (top1 as f64 / samples as f64, top5 as f64 / samples as f64, samples)
}

fn evaluate(text: &str, table: Option<&str>) {
    let parsed = table.map(|table| LearnedPriors::parse(table).unwrap_or_else(|line| panic!("bad table line {line}")));
    let learned = parsed.as_ref().unwrap_or_else(|| LearnedPriors::shipped());
    let report = |name: &str, (top1, top5, samples): (f64, f64, u64)| {
        println!("{name:<28} top-1 {:5.1}%  top-5 {:5.1}%  ({samples} moves)", 100.0 * top1, 100.0 * top5);
    };
    report(
        "tree priors (PriorContext)",
        prediction_rate(text, |sample, p| {
            let (last, own) = recent_points(sample.position);
            PriorContext::new(sample.position.board(), last, own).point_prior(p)
        }),
    );
    report(
        "learned table alone",
        prediction_rate(text, |sample, p| {
            let (last, own) = recent_points(sample.position);
            learned.weight(sample.position.board(), p, sample.color, last, own)
        }),
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: learn_priors learn GAMES | learn_priors evaluate GAMES [TABLE]";
    let (Some(mode), Some(path)) = (args.get(1), args.get(2)) else { return eprintln!("{usage}") };
    let text = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("reading {path}: {error}"));
    match mode.as_str() {
        "learn" => learn(&text),
        "evaluate" => {
            let table = args.get(3).map(|path| std::fs::read_to_string(path).expect("reading the table"));
            evaluate(&text, table.as_deref());
        }
        _ => eprintln!("{usage}"),
    }
}
