use super::*;

#[test]
fn capture_and_liberty_tracking() {
    let mut board = Board::new(5);
    // White stone at (1,1) surrounded by black.
    board.play(point(1, 1), Cell::White);
    board.play(point(0, 1), Cell::Black);
    board.play(point(1, 0), Cell::Black);
    board.play(point(2, 1), Cell::Black);
    assert!(board.in_atari(point(1, 1)));
    assert_eq!(board.atari_liberty(point(1, 1)), point(1, 2));
    assert_eq!(board.stones_key_after(point(1, 2), Cell::Black), {
        let mut copy = board.clone();
        copy.play(point(1, 2), Cell::Black);
        copy.stones_key()
    });
    assert_eq!(board.play(point(1, 2), Cell::Black), 1);
    assert_eq!(board.cell(point(1, 1)), Cell::Empty);
    assert_eq!(board.prisoners(Cell::Black), 1);
    assert!(board.is_eye(point(1, 1), Cell::Black));
    assert!(board.is_suicide(point(1, 1), Cell::White));
    assert_eq!(board.key(), board.key_from_scratch());
}

#[test]
fn merged_strings_count_distinct_liberties() {
    let mut board = Board::new(9);
    for x in 0..4 {
        board.play(point(x, 4), Cell::Black);
    }
    let mut libs = [0; 16];
    assert_eq!(board.liberties(point(0, 4), &mut libs), 9);
    assert_eq!(board.string_stones(point(3, 4)), 4);
    assert!(!board.in_atari(point(2, 4)));
}

#[test]
fn simple_ko_is_marked() {
    let mut board = Board::new(5);
    for (x, y, c) in [(1, 0, Cell::Black), (0, 1, Cell::Black), (1, 2, Cell::Black), (2, 0, Cell::White)] {
        board.play(point(x, y), c);
    }
    board.play(point(3, 1), Cell::White);
    board.play(point(2, 2), Cell::White);
    board.play(point(2, 1), Cell::Black);
    board.play(point(1, 1), Cell::White); // captures the black stone at (2,1)
    assert_eq!(board.cell(point(2, 1)), Cell::Empty);
    assert_eq!(board.ko_point(), Some(point(2, 1)));
}

/// A random legal move for the side to move (or a pass), played on `board`.
fn play_random(board: &mut Board, rng: &mut tessera_core::Rng) -> Option<usize> {
    let color = board.to_move();
    let empties = board.empty_points();
    let p = usize::from(empties[rng.below(empties.len())]);
    if board.is_suicide(p, color) || board.ko_point() == Some(p) {
        board.pass();
        return None;
    }
    board.play(p, color);
    Some(p)
}

#[test]
fn copy_from_copies_the_slots_in_use() {
    let mut rng = tessera_core::Rng::new(11);
    for (size, other_size) in [(9, 9), (19, 19), (25, 25), (9, 19), (19, 5)] {
        let mut source = Board::new(size);
        let mut target = Board::new(other_size);
        for _ in 0..size * size {
            play_random(&mut source, &mut rng);
            play_random(&mut target, &mut rng);
        }
        target.copy_from(&source);
        assert!(target == source, "{size} from {other_size}");
        // The copy plays on exactly like the source (strings, liberties, empty points).
        for _ in 0..size * size {
            let mut replay = rng.clone();
            let played = play_random(&mut source, &mut rng);
            assert_eq!(play_random(&mut target, &mut replay), played);
            assert!(target == source && target.key() == target.key_from_scratch());
        }
    }
}

#[test]
fn neighborhood_codes_eyes_and_empty_neighbors_follow_the_stones() {
    let mut rng = tessera_core::Rng::new(5);
    for size in [2, 5, 9, 19, 25] {
        let mut board = Board::new(size);
        for _ in 0..3 * size * size {
            play_random(&mut board, &mut rng);
            for p in board.points() {
                let code = AROUND.iter().enumerate().fold(0, |code, (slot, offset)| {
                    code | (board.cell(p.wrapping_add_signed(*offset)) as usize) << (2 * slot)
                });
                assert_eq!(board.neighborhood(p), code, "size {size}, point {p}");
                let empty = neighbors(p).iter().filter(|&&n| board.cell(n) == Cell::Empty).count();
                assert_eq!(board.empty_neighbors(p) as usize, empty, "size {size}, point {p}");
                for color in [Cell::Black, Cell::White] {
                    let sides = neighbors(p).map(|n| board.cell(n));
                    let edge = sides.contains(&Cell::Border);
                    let enemy_diagonals = diagonals(p).iter().filter(|&&d| board.cell(d) == color.opponent()).count();
                    let eye = sides.iter().all(|&c| c == color || c == Cell::Border)
                        && enemy_diagonals + usize::from(edge) < 2;
                    assert_eq!(board.is_eye(p, color), eye, "size {size}, point {p}");
                }
            }
        }
    }
}

#[test]
fn one_and_two_liberties_are_named_from_the_moments() {
    // Random games on every size from 2 to 25 (captures, merges, big strings), each string
    // checked against a walk of its liberties after every move.
    let mut rng = tessera_core::Rng::new(7);
    for size in MIN_SIZE..=MAX_SIZE {
        let mut board = Board::new(size);
        for _ in 0..4 * size * size {
            play_random(&mut board, &mut rng);
            for q in board.points().filter(|&q| board.cell(q) != Cell::Empty) {
                let mut walked = [0; 3];
                let count = board.liberties(q, &mut walked);
                walked[..count].sort_unstable();
                assert_eq!(board.in_atari(q), count == 1, "size {size}, string at {q}");
                let expected = match count {
                    1 => Some([walked[0], walked[0]]),
                    2 => Some([walked[0], walked[1]]),
                    _ => None,
                };
                assert_eq!(board.liberties_up_to_two(q), expected, "size {size}, string at {q}");
            }
        }
    }
}

#[test]
fn stones_key_after_predicts_every_move_suicides_included() {
    // Random games on small boards, where multi-stone suicides and captures of several strings
    // at once are common; every empty point checked for both colours after every move.
    let mut rng = tessera_core::Rng::new(13);
    let mut suicides = 0;
    for size in [3, 4, 5, 7] {
        let mut board = Board::new(size);
        for _ in 0..6 * size * size {
            play_random(&mut board, &mut rng);
            for p in board.points().filter(|&p| board.cell(p) == Cell::Empty) {
                for color in [Cell::Black, Cell::White] {
                    let mut played = board.clone();
                    played.play(p, color);
                    assert_eq!(board.stones_key_after(p, color), played.stones_key(), "size {size}, point {p}");
                    suicides += usize::from(played.cell(p) == Cell::Empty);
                }
            }
        }
    }
    assert!(suicides > 0, "the games reached no suicide, so that branch went untested");
}
