//! Perft suites from the workspace's `tests/reference` (a copy of `../shared/reference`): every
//! position at the depths that stay quick in a debug build (the release-binary test in the
//! workspace's `tests/` runs every listed depth).

use tessera_chess::{parse_perft_suite, perft, perft_divide, Chess, Rules};

const NODE_BUDGET: u64 = 3_000_000;

fn suite(file: &str) -> String {
    let path = format!("{}/../../tests/reference/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {path}: {error}"))
}

fn run_suite(file: &str, rules: Rules) {
    let cases = parse_perft_suite(&suite(file));
    assert!(cases.len() >= 8, "{file} has {} cases", cases.len());
    for case in cases {
        let position = Chess::from_fen(&case.fen, rules).unwrap_or_else(|error| panic!("{}: {error}", case.fen));
        for (checked, &(depth, expected)) in case.depths.iter().enumerate() {
            if expected > NODE_BUDGET && checked >= 2 {
                break;
            }
            assert_eq!(perft(&position, depth), expected, "{} depth {depth}", case.fen);
        }
    }
}

#[test]
fn standard_suite_at_cheap_depths() {
    run_suite("chess-perft.epd", Rules::STANDARD);
}

#[test]
fn chess960_suite_at_cheap_depths() {
    run_suite("chess960-perft.epd", Rules::CHESS960);
}

#[test]
fn divide_sums_to_the_total() {
    let kiwipete =
        Chess::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", Rules::STANDARD)
            .unwrap();
    let divide = perft_divide(&kiwipete, 3);
    assert_eq!(divide.len(), 48);
    assert_eq!(divide.iter().map(|(_, count)| count).sum::<u64>(), 97_862);
}
