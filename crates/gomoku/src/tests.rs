//! Rules tests: the core invariant harness under every variant, renju forbidden points against
//! the shared reference set and hand-built cases, and the win conditions of each variant.

use tessera_core::harness::check_game_invariants;
use tessera_core::{Game, Outcome, Side};

use crate::{Board, Point, Rules, Variant};

/// A board of `rules` after `moves` (x, y), played in turn.
pub(crate) fn board_from(rules: Rules, moves: &[(u8, u8)]) -> Board {
    let mut board = Board::new(rules);
    for &(x, y) in moves {
        board.place(Point::new(x, y)).expect("test moves are on empty points");
    }
    board
}

#[test]
fn every_variant_passes_the_harness() {
    for rules in [Rules::FREESTYLE_15, Rules::STANDARD_15, Rules::RENJU_15, Rules::CARO_15] {
        assert!(check_game_invariants(&Board::new(rules), 6, 120, 7) > 300, "{rules}");
    }
    let small = Rules::new(Variant::Freestyle, 5, 5).unwrap();
    assert!(check_game_invariants(&Board::new(small), 20, 30, 3) > 100);
    let wide = Rules::new(Variant::Renju, 22, 9).unwrap();
    assert!(check_game_invariants(&Board::new(wide), 4, 100, 5) > 100);
}

fn parse_point(text: &str) -> Point {
    let (x, y) = text.split_once(',').expect("x,y");
    Point::new(x.parse().expect("x"), y.parse().expect("y"))
}

#[test]
fn renju_forbidden_points_match_the_reference() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/reference/renju-forbidden.txt");
    let text = std::fs::read_to_string(path).expect("the shared renju reference");
    let mut positions = 0;
    for line in text.lines().filter(|line| !line.starts_with('#') && !line.trim().is_empty()) {
        let (moves, expected) = line.split_once(';').expect("moves ; forbidden");
        let mut board = Board::new(Rules::RENJU_15);
        for point in moves.split_whitespace() {
            board.place(parse_point(point)).expect("reference moves are on empty points");
        }
        assert_eq!(board.side_to_move(), Side::First);
        let expected = expected.trim().strip_prefix("forbidden").expect("forbidden").trim();
        let mut expected: Vec<Point> =
            if expected == "none" { Vec::new() } else { expected.split_whitespace().map(parse_point).collect() };
        expected.sort_by_key(|point| (point.y(), point.x()));
        assert_eq!(board.forbidden_points(), expected, "position {moves}");
        positions += 1;
    }
    assert!(positions > 100);
}

#[test]
fn hand_built_renju_cases() {
    // Black stones with white answering far away on the top row.
    let far = [(0, 0), (2, 0), (4, 0), (6, 0), (8, 0), (10, 0), (12, 0), (14, 0)];
    let build = |black: &[(u8, u8)]| {
        let mut moves = Vec::new();
        for (index, &stone) in black.iter().enumerate() {
            moves.push(stone);
            moves.push(far[index]);
        }
        board_from(Rules::RENJU_15, &moves)
    };
    // Double three: 6,7 7,7 (row) and 8,5 8,6 (column) meet at 8,7.
    let board = build(&[(6, 7), (7, 7), (8, 5), (8, 6)]);
    assert!(board.is_forbidden(Point::new(8, 7)));
    assert!(!board.is_legal(Point::new(8, 7)));
    // Double four on one line: X.XXX.X → the middle gap.
    let board = build(&[(4, 7), (6, 7), (8, 7), (10, 7)]);
    assert!(board.is_forbidden(Point::new(7, 7)));
    // Overline: XXX.XX → the gap makes six.
    let board = build(&[(3, 7), (4, 7), (5, 7), (7, 7), (8, 7)]);
    assert!(board.is_forbidden(Point::new(6, 7)));
    // Five beats a forbidden shape: the same gap making exactly five and a double three.
    let board = build(&[(3, 7), (4, 7), (5, 7), (7, 7), (6, 4), (6, 5), (5, 6), (4, 5)]);
    assert!(!board.is_forbidden(Point::new(6, 7)));
    let mut won = board.clone();
    won.play(Point::new(6, 7));
    assert_eq!(won.outcome(), Some(Outcome::Win(Side::First)));
    // White is never restricted: white's overline wins.
    let mut white = board_from(
        Rules::RENJU_15,
        &[(0, 0), (3, 7), (2, 0), (4, 7), (4, 0), (5, 7), (0, 14), (7, 7), (2, 14), (8, 7), (4, 14)],
    );
    white.play(Point::new(6, 7));
    assert_eq!(white.outcome(), Some(Outcome::Win(Side::Second)));
}

#[test]
fn win_conditions_per_variant() {
    // Black builds XXXX.X on row 7 with white far away, then fills the gap: six in a row.
    let moves = [(3, 7), (0, 0), (4, 7), (0, 2), (5, 7), (0, 4), (6, 7), (0, 6), (8, 7), (0, 8)];
    let variants = [
        (Variant::Freestyle, true),
        (Variant::Standard, false),
        (Variant::Caro, false),
        (Variant::CaroOverlines, true),
    ];
    for (variant, wins) in variants {
        let mut board = board_from(Rules::FREESTYLE_15.with_variant(variant), &moves);
        board.play(Point::new(7, 7));
        assert_eq!(board.outcome().is_some(), wins, "{variant}");
    }
    // Caro: a five blocked at both ends by white does not win; at the edge it does.
    let blocked = [(3, 7), (2, 7), (4, 7), (8, 7), (5, 7), (0, 0), (6, 7), (0, 2)];
    for variant in [Variant::Caro, Variant::CaroOverlines] {
        let mut caro = board_from(Rules::CARO_15.with_variant(variant), &blocked);
        caro.play(Point::new(7, 7));
        assert_eq!(caro.outcome(), None, "{variant}");
    }
    // Caro with overlines: six blocked at both ends does not win either; six open at one end does.
    let six_blocked = [(2, 7), (1, 7), (3, 7), (9, 7), (4, 7), (0, 0), (5, 7), (0, 2), (6, 7), (0, 4)];
    let mut overlines = board_from(Rules::CARO_15.with_variant(Variant::CaroOverlines), &six_blocked);
    overlines.play(Point::new(8, 7));
    assert_eq!(overlines.outcome(), None);
    let six_open = [(2, 7), (1, 7), (3, 7), (0, 0), (4, 7), (0, 2), (5, 7), (0, 4), (6, 7), (0, 6)];
    let mut overlines = board_from(Rules::CARO_15.with_variant(Variant::CaroOverlines), &six_open);
    overlines.play(Point::new(7, 7));
    assert_eq!(overlines.outcome(), Some(Outcome::Win(Side::First)));
    let mut standard = board_from(Rules::STANDARD_15, &blocked);
    standard.play(Point::new(7, 7));
    assert_eq!(standard.outcome(), Some(Outcome::Win(Side::First)));
    let edge = [(0, 7), (5, 7), (1, 7), (0, 0), (2, 7), (0, 2), (3, 7), (0, 4)];
    let mut caro = board_from(Rules::CARO_15, &edge);
    caro.play(Point::new(4, 7));
    assert_eq!(caro.outcome(), Some(Outcome::Win(Side::First)));
}

#[test]
fn threat_counts_equal_a_count_over_the_cells_along_random_games() {
    use crate::Threat;
    let mut rng = tessera_core::Rng::new(17);
    let mut moves = crate::game::Moves::new();
    for rules in [Rules::FREESTYLE_15, Rules::RENJU_15] {
        for _ in 0..10 {
            let mut board = Board::new(rules);
            while board.outcome().is_none() && board.ply() < 80 {
                for side in Side::BOTH {
                    for level in [Threat::Three, Threat::Four, Threat::FourThree, Threat::FlexFour, Threat::Five] {
                        let counted = board
                            .board_cells()
                            .filter(|&cell| board.is_empty_cell(cell))
                            .filter(|&cell| {
                                board.threat(side, cell) != Threat::None && board.threat(side, cell) >= level
                            })
                            .count();
                        assert_eq!(
                            board.threat_count(side, level) as usize,
                            counted,
                            "{level:?} after {} plies",
                            board.ply()
                        );
                    }
                }
                board.generate_legal_moves(&mut moves);
                board.play(moves[rng.below(moves.len())]);
            }
        }
    }
}
