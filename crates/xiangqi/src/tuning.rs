//! The hand-crafted evaluation as the Texel tuner sees it: each position's coefficients, the
//! current weights as numbers, and fitted weights rendered back into `weights.rs`.

use std::fmt::Write;

use tessera_core::Side;
use tessera_nnue::texel::LinearEvaluation;
use tessera_nnue::PackedPosition;

use crate::eval::{at, dynamic_terms, piece_terms, Terms, PHASE_MAX, S, TABLE_FILES, WEIGHTS};
use crate::position::Position;
use crate::types::{Kind, RANKS};

/// Counts of every weight from one side's point of view.
struct Counts {
    us: Side,
    counts: Vec<i32>,
}

impl Terms for Counts {
    fn add(&mut self, side: Side, weight: usize, count: i32) {
        self.counts[weight] += if side == self.us { count } else { -count };
    }
}

impl LinearEvaluation for Position {
    const WEIGHTS: usize = at::COUNT;
    const PHASE_MAX: i32 = PHASE_MAX;

    fn coefficients(packed: &[u8], coefficients: &mut Vec<(u32, i32)>) -> Option<i32> {
        coefficients.clear();
        // Records come from our own writer; a damaged one is simply left out of the fit.
        let position = Position::unpack(packed).ok()?;
        let mut counts = Counts { us: position.side, counts: vec![0; at::COUNT] };
        piece_terms(&position.board, &mut counts);
        let phase = dynamic_terms(&position.board, position.side, &mut counts);
        coefficients.extend(
            counts
                .counts
                .iter()
                .enumerate()
                .filter(|(_, &count)| count != 0)
                .map(|(weight, &count)| (weight as u32, count)),
        );
        Some(phase)
    }
}

/// The weights in force, as the tuner's starting point.
#[must_use]
pub fn current_weights() -> Vec<[f64; 2]> {
    WEIGHTS.iter().map(|&S(mg, eg)| [f64::from(mg), f64::from(eg)]).collect()
}

/// The shape of a group of weights in `weights.rs`.
enum Shape {
    /// One pair.
    Single,
    /// An array of pairs.
    List(usize),
    /// The piece-square tables: by kind, the owner's rank and the folded file.
    Tables,
}

/// One group of weights in `weights.rs`: its constant's name, what it holds, where and how.
struct Group {
    name: &'static str,
    doc: &'static str,
    at: usize,
    shape: Shape,
}

const GROUPS: [Group; 13] = [
    Group {
        name: "MATERIAL",
        doc: "Material by kind: king (never counted: both sides always have one), advisor, elephant, horse, rook, cannon, pawn.",
        at: at::MATERIAL,
        shape: Shape::List(7),
    },
    Group {
        name: "PIECE_SQUARE",
        doc: "Piece-square values added to the material, by kind, the owner's rank (0 = its back rank) and file a–e (f–i mirror d–a).",
        at: at::PIECE_SQUARE,
        shape: Shape::Tables,
    },
    Group { name: "ROOK_MOBILITY", doc: "Per empty point a rook sees along its lines.", at: at::ROOK_MOBILITY, shape: Shape::Single },
    Group {
        name: "HORSE_MOBILITY",
        doc: "Per point (empty or enemy) a horse reaches over a free leg.",
        at: at::HORSE_MOBILITY,
        shape: Shape::Single,
    },
    Group { name: "HORSE_BLOCKED_LEG", doc: "Per blocked horse leg.", at: at::HORSE_BLOCKED_LEG, shape: Shape::Single },
    Group {
        name: "ROOK_ON_KING_FILE",
        doc: "A rook on the enemy king's file with no piece, one piece between.",
        at: at::ROOK_ON_KING_FILE,
        shape: Shape::List(2),
    },
    Group {
        name: "CANNON_ON_KING_FILE",
        doc: "A cannon on the enemy king's file with no piece (the empty-head cannon), one piece between.",
        at: at::CANNON_ON_KING_FILE,
        shape: Shape::List(2),
    },
    Group {
        name: "MISSING_GUARD",
        doc: "Per missing enemy advisor or elephant, once our attack force is 2 or more.",
        at: at::MISSING_GUARD,
        shape: Shape::Single,
    },
    Group {
        name: "MISSING_GUARD_FORCE",
        doc: "Per missing enemy guard times our attack force, once it is 2 or more.",
        at: at::MISSING_GUARD_FORCE,
        shape: Shape::Single,
    },
    Group {
        name: "KING_OFF_BACK_RANK",
        doc: "The enemy king on its own rank 1, 2, once our attack force is 2 or more.",
        at: at::KING_OFF_BACK_RANK,
        shape: Shape::List(2),
    },
    Group {
        name: "CANNON_PHASE",
        doc: "Per cannon times (phase − 8): cannons need screens.",
        at: at::CANNON_PHASE,
        shape: Shape::Single,
    },
    Group {
        name: "HORSE_PHASE",
        doc: "Per unit of horses × (phase − 8) / 2, rounded towards zero: horses need room.",
        at: at::HORSE_PHASE,
        shape: Shape::Single,
    },
    Group { name: "TEMPO", doc: "The side to move's advantage.", at: at::TEMPO, shape: Shape::Single },
];

/// Renders `weights` (one `[mg, eg]` pair per weight, rounded) as the source of `weights.rs`.
///
/// # Panics
/// When `weights` does not hold one pair per weight of the evaluation.
#[must_use]
pub fn weights_source(weights: &[[f64; 2]]) -> String {
    assert_eq!(weights.len(), at::COUNT, "one pair per weight");
    let pair = |index: usize| format!("S({}, {})", weights[index][0].round() as i32, weights[index][1].round() as i32);
    let list = |start: usize, count: usize| (start..start + count).map(pair).collect::<Vec<_>>().join(", ");
    let mut out = String::from(
        "//! The hand-crafted evaluation's weights: (middlegame, endgame) pairs, 100 = a horse.\n\
         //!\n\
         //! Generated by `tessera tune --game xiangqi` (docs/xiangqi.md): re-run the tuner rather than\n\
         //! editing by hand.\n\
         \n\
         use super::S;\n",
    );
    for group in &GROUPS {
        // Writing to a String cannot fail.
        let _ = write!(out, "\n/// {}\n#[rustfmt::skip]\npub(super) const {}: ", group.doc, group.name);
        match group.shape {
            Shape::Single => {
                let _ = writeln!(out, "S = {};", pair(group.at));
            }
            Shape::List(length) => {
                let _ = writeln!(out, "[S; {length}] = [{}];", list(group.at, length));
            }
            Shape::Tables => {
                let _ = writeln!(out, "[[[S; {TABLE_FILES}]; {RANKS}]; 7] = [");
                for (index, kind) in Kind::ALL.iter().enumerate() {
                    let _ = writeln!(out, "    // {kind:?}");
                    out.push_str("    [\n");
                    for rank in 0..RANKS {
                        let start = group.at + (index * RANKS + rank) * TABLE_FILES;
                        let _ = writeln!(out, "        [{}],", list(start, TABLE_FILES));
                    }
                    out.push_str("    ],\n");
                }
                out.push_str("];\n");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use tessera_nnue::texel::testing::one_epoch;

    use super::*;

    #[test]
    fn the_weights_file_is_what_the_renderer_makes_of_its_weights() {
        assert_eq!(weights_source(&current_weights()), include_str!("eval/weights.rs"));
    }

    /// `Σ coefficient × weight`, tapered by the phase in whole numbers as the engine does, is the
    /// static evaluation exactly, on positions that went through packing.
    #[test]
    fn coefficients_reproduce_the_evaluation() {
        let mut coefficients = Vec::new();
        let mut packed = [0u8; Position::BYTES];
        for position in crate::eval::tests::playout_positions() {
            position.pack(&mut packed);
            let phase = Position::coefficients(&packed, &mut coefficients).expect("every position is linear");
            let mut sum = S(0, 0);
            for &(weight, count) in &coefficients {
                let S(mg, eg) = WEIGHTS[weight as usize];
                sum += S(mg * count, eg * count);
            }
            assert_eq!(crate::eval::taper(sum, phase), position.static_evaluation(), "{}", position.to_fen());
        }
    }

    /// One epoch on a tiny file runs and hands back one pair per weight (it need not improve).
    #[test]
    fn the_tuner_runs_on_xiangqi_data() {
        let positions = crate::eval::tests::playout_positions();
        let score = |position: &Position| position.static_evaluation() as i16;
        let (fitted, reports) = one_epoch("xiangqi", &positions, score, &current_weights());
        assert_eq!((fitted.len(), reports), (at::COUNT, 2));
        assert!(weights_source(&fitted).contains("pub(super) const PIECE_SQUARE"));
    }
}
