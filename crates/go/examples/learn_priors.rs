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
/// Pseudo-count pulling rare features towards chance.
const SMOOTHING: f64 = 20.0;
/// Shapes seen fewer times than this as candidates stay at chance (1.0).
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

#[derive(Default)]
struct Counts {
    seen: u64,
    chosen: u64,
}

fn learn(text: &str) {
    let mut shapes: HashMap<u16, Counts> = HashMap::new();
    let mut last = [(); MAX_DISTANCE + 1].map(|()| Counts::default());
    let mut own = [(); MAX_DISTANCE + 1].map(|()| Counts::default());
    let mut lines = [(); MAX_LINE + 1].map(|()| Counts::default());
    let mut samples = 0u64;
    for_each_sample(text, |sample| {
        samples += 1;
        let board = sample.position.board();
        let (last_point, own_point) = recent_points(sample.position);
        for &p in sample.candidates {
            let hit = u64::from(p == sample.chosen);
            let shape = shapes.entry(canonical_code(shape_code(board, p, sample.color))).or_default();
            let by_line = &mut lines[line(board, p)];
            for counts in [shape, &mut last[distance(p, last_point)], &mut own[distance(p, own_point)], by_line] {
                counts.seen += 1;
                counts.chosen += hit;
            }
        }
    });
    let seen: u64 = last.iter().map(|counts| counts.seen).sum();
    let rate = samples as f64 / seen as f64;
    let weight = |counts: &Counts| (counts.chosen as f64 + SMOOTHING * rate) / (counts.seen as f64 + SMOOTHING) / rate;
    println!("# Go move priors learned by examples/learn_priors.rs from {samples} moves of GNU Go self-play");
    println!("# (scripts/go-selfplay-gnugo.py); weight 1 = chosen as often as a random legal point.");
    for (name, table) in [("last", &last[..]), ("own", &own[..]), ("line", &lines[..])] {
        for (d, counts) in table.iter().enumerate() {
            println!("{name} {d} {:.4}", weight(counts));
        }
    }
    let mut codes: Vec<_> = shapes.iter().filter(|(_, counts)| counts.seen >= MIN_SEEN).collect();
    codes.sort_by_key(|(code, _)| **code);
    for (code, counts) in codes {
        println!("shape {code} {:.4}", weight(counts));
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
