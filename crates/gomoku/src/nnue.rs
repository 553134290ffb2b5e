//! Gomoku features for `tessera-nnue` networks, and the network evaluation of a [`Board`].
//!
//! Feature set `gomoku-shapes`: what the board already keeps, seen from one player (the
//! perspective, "own") and the other, counted over the empty cells that carry a line pattern:
//! - the pair (own shape, other's shape) of each such cell, `14 × 14` inputs;
//! - the pair (own line pattern, other's line pattern) of each of its four lines, `10 × 10`;
//! - which shapes each player holds somewhere (presence, not count), `2 × 14`;
//! - the rule variant and the perspective's colour, one input always active, `4 × 2`.
//!
//! A feature is active as many times as it occurs, so the accumulator sums its column that often.
//! The counts change with every stone in up to forty cells, so the evaluation gathers them afresh
//! (no accumulator stack): one pass over the valued cells, then one weighted column per distinct
//! feature. Where the linear evaluation sums weights of the same counts, the network's hidden layer
//! can value them together (a four beside an open three of the other side, say).

use std::sync::Arc;

use tessera_core::Side;
use tessera_nnue::TrainingFeatures;
pub use tessera_nnue::{EmbeddedNetwork, Network, NetworkError};

use crate::board::Board;
use crate::pattern::LinePattern;
use crate::rules::Variant;
use crate::shape::SHAPES;

/// The name of the feature set, written into network files.
pub const FEATURE_SET: &str = "gomoku-shapes";
const LINE_CODES: usize = LinePattern::ALL.len();
const SHAPE_PAIRS: usize = 0;
const LINE_PAIRS: usize = SHAPE_PAIRS + SHAPES * SHAPES;
const HELD: usize = LINE_PAIRS + LINE_CODES * LINE_CODES;
const CONTEXT: usize = HELD + 2 * SHAPES;
/// Rules the network tells apart: one context input pair each.
const CONTEXTS: usize = 4;
/// Inputs per perspective.
pub const INPUTS: usize = CONTEXT + CONTEXTS * 2;

/// The context input pair of a variant. Caro with overlines, added after the network's layout was
/// fixed, reads as caro: the nearest rule, the same blocked-five test.
const fn context_slot(variant: Variant) -> usize {
    match variant {
        Variant::CaroOverlines => Variant::Caro.index(),
        other => other.index(),
    }
}
/// The largest accumulator the evaluation keeps on its stack (networks with more are refused).
pub const MAX_HIDDEN: usize = 256;
/// The network the engines play with unless told otherwise (`tessera train --game gomoku` on our
/// own self-play data; docs/gomoku.md says how it was made). Checked by `the_default_network_loads_and_fears_an_open_three`.
pub static DEFAULT_NETWORK: EmbeddedNetwork = EmbeddedNetwork::new(include_bytes!("../nets/default.nnue"), FEATURE_SET);
/// How the default network is named in messages and `--eval-file`.
pub const DEFAULT_NETWORK_NAME: &str = tessera_nnue::EMBEDDED_NAME;

/// The embedded default network, decoded once.
#[must_use]
pub fn default_network() -> Arc<Network> {
    DEFAULT_NETWORK.get()
}

/// The same feature seen from the other player: own and other swapped, the colour flipped.
static OTHER_VIEW: [u16; INPUTS] = {
    let mut table = [0u16; INPUTS];
    let mut index = 0;
    while index < INPUTS {
        table[index] = if index < LINE_PAIRS {
            let pair = index - SHAPE_PAIRS;
            SHAPE_PAIRS + pair % SHAPES * SHAPES + pair / SHAPES
        } else if index < HELD {
            let pair = index - LINE_PAIRS;
            LINE_PAIRS + pair % LINE_CODES * LINE_CODES + pair / LINE_CODES
        } else if index < CONTEXT {
            HELD + (index - HELD + SHAPES) % (2 * SHAPES)
        } else {
            CONTEXT + ((index - CONTEXT) ^ 1)
        } as u16;
        index += 1;
    }
    table
};

/// The active features of a board seen from black, with how often each occurs.
pub(crate) struct FeatureCounts {
    counts: [u16; INPUTS],
    /// The distinct active features, in the order first met.
    active: [u16; INPUTS],
    len: usize,
}

impl FeatureCounts {
    /// Gathers the features of `board` from black's perspective.
    pub(crate) fn of(board: &Board) -> FeatureCounts {
        let mut features = FeatureCounts { counts: [0; INPUTS], active: [0; INPUTS], len: 0 };
        let (black, white) = (Side::First, Side::Second);
        for cell in board.valued_cells() {
            let shapes = (board.shape(black, cell) as usize, board.shape(white, cell) as usize);
            if shapes != (0, 0) {
                features.add(SHAPE_PAIRS + shapes.0 * SHAPES + shapes.1);
            }
            for dir in 0..4 {
                let lines = (board.pattern(black, cell, dir) as usize, board.pattern(white, cell, dir) as usize);
                if lines != (0, 0) {
                    features.add(LINE_PAIRS + lines.0 * LINE_CODES + lines.1);
                }
            }
        }
        // Presence and context, read off the shape counts and the rules.
        for (offset, side) in [(0, black), (SHAPES, white)] {
            for (shape, &count) in board.shape_counts(side).iter().enumerate().skip(1) {
                if count > 0 {
                    features.add(HELD + offset + shape);
                }
            }
        }
        features.add(CONTEXT + 2 * context_slot(board.game_rules().variant));
        features
    }

    #[inline]
    fn add(&mut self, feature: usize) {
        if self.counts[feature] == 0 {
            self.active[self.len] = feature as u16;
            self.len += 1;
        }
        self.counts[feature] += 1;
    }

    /// Each distinct feature seen by `side` (black's view as gathered, white's mapped) and its count.
    fn seen_by(&self, side: Side) -> impl Iterator<Item = (usize, i32)> + '_ {
        self.active[..self.len].iter().map(move |&feature| {
            let count = i32::from(self.counts[usize::from(feature)]);
            let seen = if side == Side::First { feature } else { OTHER_VIEW[usize::from(feature)] };
            (usize::from(seen), count)
        })
    }
}

/// The network an engine's `--eval-file` names: the embedded one for [`DEFAULT_NETWORK_NAME`],
/// else the `gomoku-shapes` network in the file there.
///
/// # Errors
/// When the file cannot be read, is not a network for these features and inputs, or its
/// accumulator is larger than [`MAX_HIDDEN`] (the evaluation keeps it on the stack).
pub fn load(path: &std::path::Path) -> Result<Arc<Network>, NetworkError> {
    let network = DEFAULT_NETWORK.or_file(path)?;
    if network.hidden() > MAX_HIDDEN {
        let problem = format!("{} accumulator values, at most {MAX_HIDDEN} are supported", network.hidden());
        return Err(NetworkError::Shape { path: path.display().to_string(), problem });
    }
    Ok(network)
}

/// The network's evaluation of `board` for the side to move, in the network's unit.
pub(crate) fn evaluate(network: &Network, board: &Board) -> i32 {
    let features = FeatureCounts::of(board);
    let hidden = network.hidden();
    let mut accumulators = [[0i16; MAX_HIDDEN]; 2];
    for (accumulator, side) in accumulators.iter_mut().zip([board.to_move(), board.to_move().opponent()]) {
        let mut sums = [0i32; MAX_HIDDEN];
        let sums = &mut sums[..hidden];
        for (sum, &bias) in sums.iter_mut().zip(network.biases()) {
            *sum = i32::from(bias);
        }
        for (feature, count) in features.seen_by(side) {
            for (sum, &weight) in sums.iter_mut().zip(network.column(feature)) {
                *sum += count * i32::from(weight);
            }
        }
        for (value, &sum) in accumulator.iter_mut().zip(sums.iter()) {
            // The activation clips at the quantised 1.0 (far below i16::MAX): saturating first changes nothing.
            *value = sum.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        }
    }
    network.evaluate(&accumulators[0][..hidden], &accumulators[1][..hidden])
}

/// Attaching a network sits here, beside the features it must read, rather than in `board`, which
/// this module reads.
impl Board {
    /// Lets `network` (a [`FEATURE_SET`] network, as [`load`] reads it) evaluate this board and
    /// the positions searched from it; `None` restores the pattern evaluation. Threats that decide
    /// the game are scored as before either way.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        debug_assert!(network.as_ref().is_none_or(|network| network.inputs() == INPUTS));
        self.network = network;
    }
}

impl TrainingFeatures for Board {
    const FEATURE_SET: &'static str = FEATURE_SET;
    const INPUTS: usize = INPUTS;

    fn features(packed: &[u8], us: &mut Vec<usize>, them: &mut Vec<usize>) {
        us.clear();
        them.clear();
        // Trainers read files whose records were checked as they were written.
        let Ok(board) = <Board as tessera_nnue::PackedPosition>::unpack(packed) else { return };
        let features = FeatureCounts::of(&board);
        for (out, side) in [(us, board.to_move()), (them, board.to_move().opponent())] {
            for (feature, count) in features.seen_by(side) {
                out.extend(std::iter::repeat_n(feature, count as usize));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use tessera_core::{Evaluate, Game, Limits, Rng, SearchControl, Searcher, Silent};
    use tessera_nnue::PackedPosition;

    use super::*;
    use crate::eval::LAZY_MARGIN;
    use crate::tests::board_from;
    use crate::{GomokuSearcher, Point, Rules, Style};

    fn random_network(seed: u64) -> Arc<Network> {
        Arc::new(Network::random(FEATURE_SET, INPUTS, 32, seed))
    }

    /// A board after `plies` random moves near the centre (no five on it).
    fn random_board(rules: Rules, plies: usize, rng: &mut Rng) -> Board {
        let mut board = Board::new(rules);
        let mut moves = crate::Moves::new();
        while board.ply() < plies {
            board.candidate_moves(20, &mut moves);
            let mv = moves[rng.below(moves.len())];
            board.play(mv);
            if board.outcome().is_some() {
                board.undo();
                break;
            }
        }
        board
    }

    #[test]
    fn the_other_view_swaps_the_players_back_and_forth() {
        for (feature, &other) in OTHER_VIEW.iter().enumerate() {
            let other = usize::from(other);
            assert!(other < INPUTS);
            assert_eq!(usize::from(OTHER_VIEW[other]), feature);
        }
        // An own open three facing nothing is the other player's nothing facing an open three.
        let own = SHAPE_PAIRS + crate::shape::Shape::FlexThree as usize * SHAPES;
        assert_eq!(usize::from(OTHER_VIEW[own]), SHAPE_PAIRS + crate::shape::Shape::FlexThree as usize);
    }

    #[test]
    fn training_reads_the_features_the_evaluation_counts() {
        let mut rng = Rng::new(3);
        let (mut us, mut them) = (Vec::new(), Vec::new());
        let mut bytes = [0u8; Board::BYTES];
        for rules in [Rules::FREESTYLE_15, Rules::RENJU_15] {
            let board = random_board(rules, 24, &mut rng);
            board.pack(&mut bytes);
            <Board as TrainingFeatures>::features(&bytes, &mut us, &mut them);
            let counts = FeatureCounts::of(&board);
            for (list, side) in [(&us, board.to_move()), (&them, board.to_move().opponent())] {
                let mut expected: Vec<usize> = counts
                    .seen_by(side)
                    .flat_map(|(feature, count)| std::iter::repeat_n(feature, count as usize))
                    .collect();
                let mut found = list.clone();
                expected.sort_unstable();
                found.sort_unstable();
                assert_eq!(found, expected);
            }
            // One context input per perspective, of the variant and the perspective's colour.
            let context = |list: &Vec<usize>| list.iter().filter(|&&feature| feature >= CONTEXT).count();
            assert_eq!((context(&us), context(&them)), (1, 1));
            assert!(us.len() > 20, "a 24-stone position has many patterns");
        }
    }

    #[test]
    fn the_network_evaluation_keeps_the_board_symmetries_and_the_decisive_scores() {
        let network = random_network(5);
        let mut rng = Rng::new(9);
        for _ in 0..20 {
            let mut board = random_board(Rules::STANDARD_15, 20, &mut rng);
            let mut mirrored = Board::new(Rules::STANDARD_15);
            for record in board.history.clone() {
                mirrored.play(Point::new(14 - record.point.x(), record.point.y()));
            }
            let pattern_evaluation = board.evaluate();
            board.set_network(Some(Arc::clone(&network)));
            mirrored.set_network(Some(Arc::clone(&network)));
            assert_eq!(board.evaluate(), mirrored.evaluate());
            if board.decisive_score().is_none() {
                assert_eq!(board.evaluate(), evaluate(&network, &board));
            } else {
                assert_eq!(board.evaluate(), pattern_evaluation, "threats decide as before");
            }
        }
    }

    #[test]
    fn the_default_network_loads_and_fears_an_open_three() {
        let network = default_network();
        assert_eq!((network.feature_set(), network.inputs()), (FEATURE_SET, INPUTS));
        assert!(network.hidden() <= MAX_HIDDEN);
        // An open three of the side that just moved, the other's stones in corners: bad for the
        // side to move, whichever colour it has.
        let black_three: &[(u8, u8)] = &[(5, 7), (0, 0), (6, 7), (14, 14), (7, 7)];
        let white_three: &[(u8, u8)] = &[(0, 0), (5, 7), (14, 14), (6, 7), (0, 14), (7, 7)];
        for moves in [black_three, white_three] {
            let mut board = board_from(Rules::FREESTYLE_15, moves);
            board.set_network(Some(Arc::clone(&network)));
            assert!(board.decisive_score().is_none());
            assert!(board.evaluate() < -100, "{}", board.evaluate());
        }
    }

    #[test]
    fn the_network_answers_near_the_window_and_the_patterns_far_outside_it() {
        let network = default_network();
        let mut rng = Rng::new(13);
        let mut estimated = 0;
        for _ in 0..30 {
            let mut board = random_board(Rules::FREESTYLE_15, 16, &mut rng);
            if board.decisive_score().is_some() {
                continue;
            }
            board.set_network(Some(Arc::clone(&network)));
            let exact = board.evaluate();
            assert_eq!(exact, evaluate(&network, &board));
            // Far from the window the estimate answers, on the side of it where the network's value lies.
            let far = 100_000;
            let estimate = board.evaluate_within(far, far + 1);
            assert!(estimate <= far - LAZY_MARGIN, "{estimate}");
            assert_eq!(board.evaluate_within(-far - 1, -far), estimate);
            estimated += usize::from(estimate != exact);
            // A window around the estimate asks the network.
            assert_eq!(board.evaluate_within(estimate - 1, estimate + 1), exact);
        }
        assert!(estimated > 20, "the estimate is not the network's value");
    }

    #[test]
    fn a_searcher_with_a_network_still_wins_and_defends() {
        // Black's four at 4,7 wins at once; then white must block black's four.
        let win = board_from(Rules::FREESTYLE_15, &[(0, 7), (0, 9), (1, 7), (1, 9), (2, 7), (2, 9), (3, 7), (14, 9)]);
        let block = board_from(Rules::FREESTYLE_15, &[(0, 7), (0, 9), (1, 7), (1, 9), (2, 7), (14, 14), (3, 7)]);
        let mut searcher = GomokuSearcher::new(&tessera_core::EngineOptions::default(), Style::Full);
        for mut board in [win, block] {
            board.set_network(Some(random_network(7)));
            let best = searcher.search(&board, &Limits::depth(4), &SearchControl::new(), &mut Silent).best;
            assert_eq!(best, Some(Point::new(4, 7)));
        }
    }

    #[test]
    fn load_refuses_networks_for_other_features_or_sizes() {
        let folder = std::env::temp_dir().join(format!("tessera-gomoku-nnue-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let good = folder.join("good.nnue");
        random_network(1).save(&good).unwrap();
        assert_eq!(load(&good).unwrap().inputs(), INPUTS);
        let other = folder.join("chess.nnue");
        Network::random("chess-768", 768, 32, 1).save(&other).unwrap();
        assert!(matches!(load(&other), Err(NetworkError::FeatureSet { .. })));
        let narrow = folder.join("narrow.nnue");
        Network::random(FEATURE_SET, INPUTS - 1, 32, 1).save(&narrow).unwrap();
        assert!(matches!(load(&narrow), Err(NetworkError::Shape { .. })));
        let wide = folder.join("wide.nnue");
        Network::random(FEATURE_SET, INPUTS, MAX_HIDDEN + 16, 1).save(&wide).unwrap();
        assert!(matches!(load(&wide), Err(NetworkError::Shape { .. })));
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
