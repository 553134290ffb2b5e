//! The hand-crafted evaluation as the Texel tuner sees it: each position's coefficients, the
//! current weights as numbers, and fitted weights rendered back into `weights.rs`.

use std::fmt::Write;

use tessera_nnue::texel::LinearEvaluation;
use tessera_nnue::PackedPosition;

use super::{at, attack_maps, evaluate_side, phase, Terms, PHASE_MAX, S, WEIGHTS};
use crate::board::Board;
use crate::types::Color;

/// White-minus-Black counts of every weight.
struct Counts(Vec<i32>);

impl Terms for Counts {
    fn add(&mut self, color: Color, weight: usize, count: i32) {
        self.0[weight] += if color == Color::White { count } else { -count };
    }
}

impl LinearEvaluation for Board {
    const WEIGHTS: usize = at::COUNT;
    const PHASE_MAX: i32 = PHASE_MAX;

    fn coefficients(packed: &[u8], coefficients: &mut Vec<(u32, i32)>) -> Option<i32> {
        coefficients.clear();
        // Records come from our own writer; a damaged one is simply left out of the fit.
        let board = Board::unpack(packed).ok()?;
        if board.insufficient_material() {
            return None;
        }
        let mut counts = Counts(vec![0; at::COUNT]);
        let maps = attack_maps(&board);
        evaluate_side(&board, Color::White, &maps, &mut counts);
        evaluate_side(&board, Color::Black, &maps, &mut counts);
        let sign = if board.side_to_move() == Color::White { 1 } else { -1 };
        counts.0[at::TEMPO] = sign; // the tempo counts for the side to move, whoever it is
        coefficients.extend(
            counts
                .0
                .iter()
                .enumerate()
                .filter(|(_, &count)| count != 0)
                .map(|(weight, &count)| (weight as u32, sign * count)),
        );
        Some(phase(&board))
    }
}

/// The weights in force, as the tuner's starting point.
#[must_use]
pub fn current_weights() -> Vec<[f64; 2]> {
    WEIGHTS.iter().map(|&S(mg, eg)| [f64::from(mg), f64::from(eg)]).collect()
}

/// One group of weights in `weights.rs`: its constant's name, what it holds and how many.
struct Group {
    name: &'static str,
    doc: &'static str,
    at: usize,
    /// `None` for a single pair, else the array length.
    length: Option<usize>,
}

const GROUPS: [Group; 30] = [
    Group {
        name: "MATERIAL",
        doc: "Material of pawn, knight, bishop, rook, queen.",
        at: at::MATERIAL,
        length: Some(5),
    },
    Group {
        name: "PIECE_SQUARE",
        doc: "Piece-square tables of pawn, knight, bishop, rook, queen and king.",
        at: at::PIECE_SQUARE,
        length: Some(6 * 64),
    },
    Group { name: "PASSED", doc: "Passed pawns by relative rank.", at: at::PASSED, length: Some(8) },
    Group { name: "ISOLATED", doc: "Each isolated pawn.", at: at::ISOLATED, length: None },
    Group { name: "DOUBLED", doc: "Each pawn behind another on its file.", at: at::DOUBLED, length: None },
    Group { name: "BISHOP_PAIR", doc: "Two bishops or more.", at: at::BISHOP_PAIR, length: None },
    Group { name: "ROOK_OPEN_FILE", doc: "A rook on a file without pawns.", at: at::ROOK_OPEN_FILE, length: None },
    Group {
        name: "ROOK_HALF_OPEN_FILE",
        doc: "A rook on a file with enemy pawns only.",
        at: at::ROOK_HALF_OPEN_FILE,
        length: None,
    },
    Group {
        name: "KNIGHT_MOBILITY",
        doc: "Knights by squares reachable (not ours, not covered by enemy pawns).",
        at: at::MOBILITY[0],
        length: Some(9),
    },
    Group { name: "BISHOP_MOBILITY", doc: "Bishops by squares reachable.", at: at::MOBILITY[1], length: Some(14) },
    Group { name: "ROOK_MOBILITY", doc: "Rooks by squares reachable.", at: at::MOBILITY[2], length: Some(15) },
    Group { name: "QUEEN_MOBILITY", doc: "Queens by squares reachable.", at: at::MOBILITY[3], length: Some(28) },
    Group {
        name: "KING_DANGER",
        doc: "Per unit of attack on the enemy king zone (weighted attacks squared × attackers / 4).",
        at: at::KING_DANGER,
        length: None,
    },
    Group {
        name: "PAWN_SHIELD",
        doc: "Each pawn (up to three) in front of a king on its first two ranks.",
        at: at::PAWN_SHIELD,
        length: None,
    },
    Group { name: "TEMPO", doc: "The side to move's advantage.", at: at::TEMPO, length: None },
    Group {
        name: "PASSED_BLOCKED",
        doc: "Passed pawns by relative rank whose square in front is occupied.",
        at: at::PASSED_BLOCKED,
        length: Some(8),
    },
    Group {
        name: "PASSED_SAFE_PUSH",
        doc: "Passed pawns by relative rank whose square in front is empty and not attacked.",
        at: at::PASSED_SAFE_PUSH,
        length: Some(8),
    },
    Group {
        name: "PASSED_OUR_KING",
        doc: "Passed pawns on ranks 4–7 by our king's distance to the square in front.",
        at: at::PASSED_OUR_KING,
        length: Some(8),
    },
    Group {
        name: "PASSED_THEIR_KING",
        doc: "Passed pawns on ranks 4–7 by their king's distance to the square in front.",
        at: at::PASSED_THEIR_KING,
        length: Some(8),
    },
    Group {
        name: "CONNECTED",
        doc: "Pawns beside or guarded by a pawn of ours, by relative rank.",
        at: at::CONNECTED,
        length: Some(8),
    },
    Group {
        name: "BACKWARD",
        doc: "A pawn whose neighbours are all ahead and whose square in front an enemy pawn holds.",
        at: at::BACKWARD,
        length: None,
    },
    Group {
        name: "THREAT_BY_PAWN",
        doc: "Their pieces attacked by our pawns, by kind (pawn … king).",
        at: at::THREAT_BY_PAWN,
        length: Some(6),
    },
    Group {
        name: "THREAT_BY_MINOR",
        doc: "Their pieces attacked by our knights or bishops, by kind (pawn … king).",
        at: at::THREAT_BY_MINOR,
        length: Some(6),
    },
    Group {
        name: "THREAT_BY_ROOK",
        doc: "Their pieces attacked by our rooks, by kind (pawn … king).",
        at: at::THREAT_BY_ROOK,
        length: Some(6),
    },
    Group {
        name: "HANGING",
        doc: "Their pieces (not pawns) we attack and they do not defend.",
        at: at::HANGING,
        length: None,
    },
    Group {
        name: "SAFE_CHECK",
        doc: "Squares a piece of ours reaches to give a check where they do not guard, by kind (pawn … king).",
        at: at::SAFE_CHECK,
        length: Some(6),
    },
    Group {
        name: "KING_ZONE_ATTACKS",
        doc: "Per unit of weighted attack on the enemy king zone.",
        at: at::KING_ZONE_ATTACKS,
        length: None,
    },
    Group {
        name: "KING_OPEN_FILES",
        doc: "Our king by the number (0–3) of files at and beside it without our pawns.",
        at: at::KING_OPEN_FILES,
        length: Some(4),
    },
    Group { name: "OUTPOST", doc: "A knight, a bishop on an outpost.", at: at::OUTPOST, length: Some(2) },
    Group {
        name: "MINOR_BEHIND_PAWN",
        doc: "A knight or bishop right behind a pawn of ours.",
        at: at::MINOR_BEHIND_PAWN,
        length: None,
    },
];

/// Renders `weights` (one `[mg, eg]` pair per weight, rounded) as the source of `weights.rs`.
///
/// # Panics
/// When `weights` does not hold [`at::COUNT`] pairs.
#[must_use]
pub fn weights_source(weights: &[[f64; 2]]) -> String {
    assert_eq!(weights.len(), at::COUNT, "one pair per weight");
    let pair = |index: usize| format!("S({}, {})", weights[index][0].round() as i32, weights[index][1].round() as i32);
    let list = |start: usize, count: usize| (start..start + count).map(pair).collect::<Vec<_>>().join(", ");
    let mut out = String::from(
        "//! The hand-crafted evaluation's weights: (middlegame, endgame) pairs in centipawns.\n\
         //!\n\
         //! Generated by `tessera tune --game chess` (docs/chess.md): re-run the tuner rather than\n\
         //! editing by hand. Piece-square tables are seen from White, rank 8 first.\n\
         \n\
         use super::S;\n",
    );
    for group in &GROUPS {
        // Writing to a String cannot fail.
        let _ = write!(out, "\n/// {}\n#[rustfmt::skip]\npub(super) const {}: ", group.doc, group.name);
        match group.length {
            None => {
                let _ = writeln!(out, "S = {};", pair(group.at));
            }
            Some(length) if group.at == at::PIECE_SQUARE => {
                let _ = writeln!(out, "[[S; 64]; 6] = [");
                for kind in 0..length / 64 {
                    out.push_str("    [\n");
                    for row in 0..8 {
                        let _ = writeln!(out, "        {},", list(group.at + kind * 64 + row * 8, 8));
                    }
                    out.push_str("    ],\n");
                }
                out.push_str("];\n");
            }
            Some(length) => {
                let _ = writeln!(out, "[S; {length}] = [{}];", list(group.at, length));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weights_file_is_what_the_renderer_makes_of_its_weights() {
        assert_eq!(weights_source(&current_weights()), include_str!("weights.rs"));
    }

    #[test]
    fn coefficients_reproduce_the_evaluation() {
        let weights = current_weights();
        let mut coefficients = Vec::new();
        for fen in [
            crate::START_FEN,
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R b KQ - 3 8",
            "8/5pk1/6p1/3P4/2P2K2/8/5P2/8 w - - 0 45",
            "2kr3r/ppp2ppp/2n5/2b1q3/4P3/2N2Q2/PPP2PPP/R1B2RK1 w - - 4 14",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let mut packed = [0u8; 28];
            board.pack(&mut packed);
            let phase = Board::coefficients(&packed, &mut coefficients).unwrap();
            let (mut mg, mut eg) = (0.0, 0.0);
            for &(weight, count) in &coefficients {
                mg += weights[weight as usize][0] * f64::from(count);
                eg += weights[weight as usize][1] * f64::from(count);
            }
            let linear = (mg * f64::from(phase) + eg * f64::from(PHASE_MAX - phase)) / f64::from(PHASE_MAX);
            // The engine rounds the tapered sum and the tempo separately: within a centipawn or two.
            assert!((linear - f64::from(super::super::evaluate(&board))).abs() <= 2.0, "{fen}: {linear}");
        }
    }
}
