//! Life and death at the end of a game, for referees: which stones are dead, which live in seki,
//! and the area score that follows (`final_score`, `final_status_list`).
//!
//! Three judges, the surest first:
//! 1. **Benson's unconditional life** ([`pass_alive`]): a string that lives even if its owner
//!    passes forever is never dead.
//! 2. **Playout ownership**, averaged over playouts with each colour moving first (a referee must
//!    not favour whoever passed last): a string whose stones lean to the other colour by more than
//!    [`DEAD_LEANING`] is dead.
//! 3. **Settled areas**: a group with no chance of two eyes, inside an area that the other colour
//!    encloses with safe strings and that the playouts give to that colour, is dead even when the
//!    playouts are unsure of it. Random playouts in a large empty area let a lone invader live about
//!    as often as they kill it (the reproducer: a white stone alone in a 36-point black
//!    area came out black's only 7% of the time), while any player sees it is dead.
//!
//! Strings in seki ([`seki_stones`]) are alive; their shared liberties count for neither colour.

use tessera_core::{Game, Rng};

use crate::board::{neighbors, Board, Cell, POINTS};
use crate::playout::run_playout;
use crate::position::Position;
use crate::score::{playout_owner, seki_stones, strings, without_stones};

/// A string whose mean ownership leans to the other colour by more than this is dead.
pub const DEAD_LEANING: f32 = 0.5;
/// A string enclosing a settled area must lean to its own colour by at least this much.
const SAFE_LEANING: f32 = 0.3;
/// Empty points in regions touching both colours count for a colour whose ownership of them is
/// at least this strong (an unclosed border of a territory; true dame stay near 0).
const TERRITORY_LEANING: f32 = 0.3;
/// Playouts behind a referee's judgement (half with each colour to move).
pub const REFEREE_PLAYOUTS: usize = 1000;
/// Fixed seed: the same position is always judged alike.
pub const REFEREE_SEED: u64 = 0x0005_C04E;

/// How the game stands once dead stones are known.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// Dead stones (points, sorted).
    pub dead: Vec<usize>,
    /// Stones alive in seki (points, sorted).
    pub seki: Vec<usize>,
    /// Mean ownership of every point (+1 Black, -1 White), indexed by point.
    pub ownership: Vec<f32>,
    /// Area score: Black minus White minus komi, dead stones removed.
    pub score: f32,
}

/// Judges `position` with [`REFEREE_PLAYOUTS`] playouts from [`REFEREE_SEED`].
#[must_use]
pub fn judge(position: &Position) -> Judgement {
    judge_with(position, REFEREE_PLAYOUTS, REFEREE_SEED)
}

/// Judges `position` with `playouts` playouts (half with each colour to move) from `seed`.
#[must_use]
pub fn judge_with(position: &Position, playouts: usize, seed: u64) -> Judgement {
    let board = position.board();
    let ownership = referee_ownership(board, position.rules().komi, playouts, seed);
    let dead = dead_stones(board, &ownership);
    let cleaned = without_stones(board, &dead);
    let seki = seki_stones(&cleaned);
    let (black, white) = area_by_ownership(&cleaned, &ownership, &seki);
    Judgement { dead, seki, ownership, score: black as f32 - white as f32 - position.rules().komi }
}

/// Mean ownership of every point over `playouts` playouts from `board`, half of them with Black
/// moving first and half with White, indexed by point.
#[must_use]
pub fn referee_ownership(board: &Board, komi: f32, playouts: usize, seed: u64) -> Vec<f32> {
    let mut rng = Rng::new(seed);
    let mut totals = vec![0i32; POINTS];
    let rounds = playouts.div_ceil(2).max(1);
    let mut scratch = board.clone();
    for color in [Cell::Black, Cell::White] {
        for _ in 0..rounds {
            scratch.copy_from(board);
            // Two passes ended the game, but the life of the stones is judged by playing on.
            scratch.reset_passes();
            scratch.set_to_move(color);
            run_playout(&mut scratch, None, komi, &mut rng, |_, _| {});
            for p in scratch.points() {
                totals[p] += i32::from(playout_owner(&scratch, p));
            }
        }
    }
    totals.iter().map(|&total| total as f32 / (2 * rounds) as f32).collect()
}

/// Mean ownership of `stones` from the point of view of `color` (+1 = all `color`'s).
fn leaning(ownership: &[f32], stones: &[usize], color: Cell) -> f32 {
    let mean = stones.iter().map(|&p| ownership[p]).sum::<f32>() / stones.len().max(1) as f32;
    if color == Cell::Black {
        mean
    } else {
        -mean
    }
}

/// The dead stones of `board` by the three judges of this module (seki aside), sorted.
#[must_use]
pub fn dead_stones(board: &Board, ownership: &[f32]) -> Vec<usize> {
    let unconditional = [pass_alive(board, Cell::Black), pass_alive(board, Cell::White)];
    let is_pass_alive = |p: usize| unconditional[board.cell(p).index()][p];
    let mut dead = vec![false; POINTS];
    for (color, members) in strings(board) {
        if !is_pass_alive(members[0]) && leaning(ownership, &members, color) < -DEAD_LEANING {
            members.iter().for_each(|&p| dead[p] = true);
        }
    }
    let by_playouts = dead.clone();
    for color in [Cell::Black, Cell::White] {
        for p in dead_in_settled_areas(board, color, ownership, &by_playouts, &is_pass_alive) {
            dead[p] = true;
        }
    }
    let mut list: Vec<usize> = board.points().filter(|&p| dead[p]).collect();
    // A group the settled-area rule took that in fact lives in seki with its enclosers stays.
    let mut restored = Vec::new();
    for (_, members) in strings(board) {
        if dead[members[0]] && !by_playouts[members[0]] {
            let others: Vec<usize> = list.iter().copied().filter(|p| !members.contains(p)).collect();
            if seki_stones(&without_stones(board, &others)).iter().any(|p| members.contains(p)) {
                restored.extend(members);
            }
        }
    }
    list.retain(|p| !restored.contains(p));
    list
}

/// Connected sets of points that hold no stone of one colour: empty points and the other
/// colour's stones. Each region is enclosed by that colour's strings and the edge.
fn regions_without(board: &Board, color: Cell) -> Vec<Vec<usize>> {
    let mut seen = vec![false; POINTS];
    let mut regions = Vec::new();
    for start in board.points() {
        if seen[start] || board.cell(start) == color {
            continue;
        }
        seen[start] = true;
        let mut region = vec![start];
        let mut next = 0;
        while next < region.len() {
            for n in neighbors(region[next]) {
                if !seen[n] && !matches!(board.cell(n), Cell::Border) && board.cell(n) != color {
                    seen[n] = true;
                    region.push(n);
                }
            }
            next += 1;
        }
        regions.push(region);
    }
    regions
}

/// The distinct strings (by representative stone) of `color` next to some point of `region`.
fn bordering_strings(board: &Board, region: &[usize], color: Cell) -> Vec<usize> {
    let mut heads = Vec::new();
    for &p in region {
        for n in neighbors(p) {
            if board.cell(n) == color {
                let head = board.string_head(n);
                if !heads.contains(&head) {
                    heads.push(head);
                }
            }
        }
    }
    heads
}

/// Stones of the other colour that have no chance of two eyes inside an area `color` has
/// settled: a region enclosed by `color` whose enclosing strings are all pass-alive or safely
/// `color`'s by the playouts (and not dead by them), and which the playouts give to `color` on
/// average. Inside it, each enemy group (enemy stones joined through their eye spaces) without two
/// eye spaces, or one of three or more points, is dead unless the playouts clearly keep it.
fn dead_in_settled_areas(
    board: &Board,
    color: Cell,
    ownership: &[f32],
    dead_by_playouts: &[bool],
    is_pass_alive: &dyn Fn(usize) -> bool,
) -> Vec<usize> {
    let enemy = color.opponent();
    let mut dead = Vec::new();
    for region in regions_without(board, color) {
        if !region.iter().any(|&p| board.cell(p) == enemy) {
            continue;
        }
        let safe = |head: usize| {
            let members: Vec<usize> = board.string_members(head).collect();
            is_pass_alive(head) || (!dead_by_playouts[head] && leaning(ownership, &members, color) >= SAFE_LEANING)
        };
        let enclosers = bordering_strings(board, &region, color);
        if enclosers.is_empty() || !enclosers.into_iter().all(safe) || leaning(ownership, &region, color) <= 0.0 {
            continue;
        }
        for group in enemy_groups(board, &region, color, ownership) {
            let hopeless = group.spaces < 2 && group.largest_space < 3;
            let kept = leaning(ownership, &group.stones, enemy) > DEAD_LEANING;
            if hopeless && !kept && !group.stones.iter().any(|&p| is_pass_alive(p)) {
                dead.extend(group.stones);
            }
        }
    }
    dead
}

/// Stones of one colour joined through their eye spaces, inside a region enclosed by the other.
struct EnemyGroup {
    stones: Vec<usize>,
    /// Eye spaces: connected empty points of the region that touch none of the enclosing colour.
    spaces: usize,
    largest_space: usize,
}

/// The groups of the other colour's stones in `region` (enclosed by `color`). Eye spaces are
/// empty areas that touch no `color` stone, and empty points next to no `color` stone that the
/// playouts give to the enemy (a corner the enemy has room in). An open area that touches `color`
/// and that the playouts give to `color` is no eye space: `color` lives around it and answers there.
fn enemy_groups(board: &Board, region: &[usize], color: Cell, ownership: &[f32]) -> Vec<EnemyGroup> {
    let enemy = color.opponent();
    let next_to_color = |p: usize| neighbors(p).into_iter().any(|n| board.cell(n) == color);
    let mut candidate = vec![false; POINTS];
    let mut seen = vec![false; POINTS];
    for &start in region {
        if seen[start] || board.cell(start) != Cell::Empty {
            continue;
        }
        // An empty area that touches no `color` stone is enclosed by the enemy: all of it counts.
        seen[start] = true;
        let mut area = vec![start];
        let mut touches_color = false;
        let mut next = 0;
        while next < area.len() {
            for n in neighbors(area[next]) {
                match board.cell(n) {
                    Cell::Empty if !seen[n] => {
                        seen[n] = true;
                        area.push(n);
                    }
                    c if c == color => touches_color = true,
                    _ => {}
                }
            }
            next += 1;
        }
        for p in area {
            candidate[p] = !touches_color || (!next_to_color(p) && leaning(ownership, &[p], enemy) > 0.0);
        }
    }
    // Label the eye spaces: connected candidate points.
    let mut space_of = vec![usize::MAX; POINTS];
    let mut space_sizes = Vec::new();
    for &start in region {
        if !candidate[start] || space_of[start] != usize::MAX {
            continue;
        }
        let label = space_sizes.len();
        space_of[start] = label;
        let mut space = vec![start];
        let mut next = 0;
        while next < space.len() {
            for n in neighbors(space[next]) {
                if candidate[n] && space_of[n] == usize::MAX {
                    space_of[n] = label;
                    space.push(n);
                }
            }
            next += 1;
        }
        space_sizes.push(space.len());
    }
    // Flood enemy stones and eye-space points together.
    let member = |p: usize| board.cell(p) == enemy || space_of[p] != usize::MAX;
    let mut done = vec![false; POINTS];
    let mut groups = Vec::new();
    for &start in region {
        if done[start] || board.cell(start) != enemy {
            continue;
        }
        done[start] = true;
        let mut points = vec![start];
        let mut next = 0;
        while next < points.len() {
            for n in neighbors(points[next]) {
                if !done[n] && member(n) {
                    done[n] = true;
                    points.push(n);
                }
            }
            next += 1;
        }
        let mut spaces: Vec<usize> = points.iter().map(|&p| space_of[p]).filter(|&s| s != usize::MAX).collect();
        spaces.sort_unstable();
        spaces.dedup();
        groups.push(EnemyGroup {
            stones: points.into_iter().filter(|&p| board.cell(p) == enemy).collect(),
            largest_space: spaces.iter().map(|&s| space_sizes[s]).max().unwrap_or(0),
            spaces: spaces.len(),
        });
    }
    groups
}

/// Strings of `color` that live unconditionally (Benson's algorithm), as a per-point flag on their
/// stones: each has two regions, enclosed only by such strings, in which every empty point is one
/// of its liberties, so the opponent can never fill both.
#[must_use]
pub fn pass_alive(board: &Board, color: Cell) -> Vec<bool> {
    let regions = regions_without(board, color);
    let mut enclosers = Vec::with_capacity(regions.len());
    let mut vital_to = Vec::with_capacity(regions.len());
    for region in &regions {
        enclosers.push(bordering_strings(board, region, color));
        // The strings every empty point of the region is a liberty of.
        let mut vital: Option<Vec<usize>> = None;
        for &p in region.iter().filter(|&&p| board.cell(p) == Cell::Empty) {
            let around = bordering_strings(board, &[p], color);
            vital = Some(match vital {
                None => around,
                Some(list) => list.into_iter().filter(|head| around.contains(head)).collect(),
            });
        }
        vital_to.push(vital.unwrap_or_default());
    }
    let mut alive: Vec<usize> =
        strings(board).filter(|(c, _)| *c == color).map(|(_, m)| board.string_head(m[0])).collect();
    loop {
        let healthy: Vec<bool> = enclosers.iter().map(|list| list.iter().all(|head| alive.contains(head))).collect();
        let kept: Vec<usize> = alive
            .iter()
            .copied()
            .filter(|head| (0..regions.len()).filter(|&r| healthy[r] && vital_to[r].contains(head)).count() >= 2)
            .collect();
        if kept.len() == alive.len() {
            break;
        }
        alive = kept;
    }
    let mut flags = vec![false; POINTS];
    for head in alive {
        board.string_members(head).for_each(|p| flags[p] = true);
    }
    flags
}

/// Area points of Black and White on `board` (dead stones already off): stones, empty regions
/// that touch one colour only, and, in regions touching both, points that the playouts give
/// firmly to one colour (an unclosed border of a territory, which a referee playing on would close;
/// true dame stay near 0). Liberties of strings in `seki` count for neither.
#[must_use]
pub fn area_by_ownership(board: &Board, ownership: &[f32], seki: &[usize]) -> (u32, u32) {
    let mut area = [0u32; 2];
    let mut seen = vec![false; POINTS];
    for start in board.points() {
        match board.cell(start) {
            Cell::Black | Cell::White => area[board.cell(start).index()] += 1,
            Cell::Empty if !seen[start] => {
                seen[start] = true;
                let mut region = vec![start];
                let (mut black, mut white) = (false, false);
                let mut next = 0;
                while next < region.len() {
                    for n in neighbors(region[next]) {
                        match board.cell(n) {
                            Cell::Empty if !seen[n] => {
                                seen[n] = true;
                                region.push(n);
                            }
                            Cell::Black => black = true,
                            Cell::White => white = true,
                            _ => {}
                        }
                    }
                    next += 1;
                }
                if black != white {
                    area[usize::from(white)] += region.len() as u32;
                    continue;
                }
                let seki_liberty = |p: usize| neighbors(p).into_iter().any(|n| seki.binary_search(&n).is_ok());
                for p in region.into_iter().filter(|&p| !seki_liberty(p)) {
                    if ownership[p] >= TERRITORY_LEANING {
                        area[0] += 1;
                    } else if ownership[p] <= -TERRITORY_LEANING {
                        area[1] += 1;
                    }
                }
            }
            _ => {}
        }
    }
    (area[0], area[1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::point;
    use crate::rules::Rules;

    /// The reproducer: black wall on E, white wall on F, a white stone at B5.
    fn walls_with_invader() -> Position {
        let mut board = Board::new(9);
        for y in 0..9 {
            board.place_setup_stone(point(4, y), Cell::Black);
            board.place_setup_stone(point(5, y), Cell::White);
        }
        board.place_setup_stone(point(1, 4), Cell::White);
        Position::from_board(board, Rules::CHINESE.with_komi(0.5))
    }

    #[test]
    fn a_lone_stone_inside_a_settled_area_is_dead() {
        let position = walls_with_invader();
        let judgement = judge(&position);
        assert_eq!(judgement.dead, vec![point(1, 4)]);
        assert!(judgement.seki.is_empty());
        // Area: Black 45, White 36, komi 0.5.
        assert_eq!(judgement.score, 8.5);
        // The playouts alone are unsure of it: the settled-area rule decides.
        assert!(judgement.ownership[point(1, 4)].abs() < DEAD_LEANING, "{}", judgement.ownership[point(1, 4)]);
    }

    #[test]
    fn a_group_with_two_eyes_inside_the_other_area_lives() {
        // White lives in Black's corner with eyes at A1 and C1: unconditionally alive. Black's
        // row 7 gives the black wall a second area, as in a real game.
        let mut board = Board::new(9);
        for y in 0..9 {
            board.place_setup_stone(point(4, y), Cell::Black);
            board.place_setup_stone(point(5, y), Cell::White);
        }
        for x in 0..4 {
            board.place_setup_stone(point(x, 2), Cell::Black);
        }
        for (x, y) in [(1, 8), (0, 7), (1, 7), (2, 7), (3, 7), (3, 8)] {
            board.place_setup_stone(point(x, y), Cell::White);
        }
        let alive = pass_alive(&board, Cell::White);
        assert!(alive[point(1, 8)] && alive[point(3, 7)]);
        assert!(!alive[point(5, 0)], "the white wall encloses one open area");
        assert!(!pass_alive(&board, Cell::Black)[point(4, 0)], "the black wall's areas are open");
        let judgement = judge(&Position::from_board(board, Rules::CHINESE.with_komi(0.5)));
        assert!(judgement.dead.is_empty(), "{:?}", judgement.dead);
    }

    #[test]
    fn groups_inside_an_area_are_told_apart_by_their_eye_spaces() {
        // Inside Black's area (left of the E wall): White's A2-D2 shape with eyes at A1 and C1, a
        // lone stone at B5 and a two-stone string at B8-C8, both in the open (the empty points
        // around them also touch Black, so they are no eye spaces).
        let board = crate::board::board_from_rows(&[
            "....X....",
            ".OO.X....",
            "....X....",
            "....X....",
            ".O..X....",
            "....X....",
            "....X....",
            "OOOOX....",
            ".O.OX....",
        ]);
        let region: Vec<usize> = regions_without(&board, Cell::Black)
            .into_iter()
            .find(|region| region.contains(&point(1, 4)))
            .expect("the left area");
        let mut groups = enemy_groups(&board, &region, Cell::Black, &vec![0.0; POINTS]);
        groups.sort_by_key(|group| group.stones.len());
        let shape: Vec<(usize, usize, usize)> =
            groups.iter().map(|group| (group.stones.len(), group.spaces, group.largest_space)).collect();
        assert_eq!(shape, vec![(1, 0, 0), (2, 0, 0), (6, 2, 1)]);
    }

    #[test]
    fn a_lone_stone_in_enemy_territory_is_dead_and_the_rest_lives() {
        // Black wall on column 3 of a 7×7 board owns the left; a white stone sits inside it.
        let mut board = Board::new(7);
        for y in 0..7 {
            board.place_setup_stone(point(3, y), Cell::Black);
            board.place_setup_stone(point(4, y), Cell::White);
        }
        // Each wall splits its side in two regions, so both live.
        for x in 0..3 {
            board.place_setup_stone(point(x, 2), Cell::Black);
        }
        board.place_setup_stone(point(5, 3), Cell::White);
        board.place_setup_stone(point(6, 3), Cell::White);
        board.place_setup_stone(point(1, 4), Cell::White);
        let position = Position::from_board(board, Rules::CHINESE.with_komi(0.0));
        let judgement = judge_with(&position, 200, 7);
        assert_eq!(judgement.dead, vec![point(1, 4)]);
        assert_eq!(judgement.score, 28.0 - 21.0);
    }

    #[test]
    fn strings_in_seki_are_neither_dead_nor_scored_around() {
        let board = crate::board::board_from_rows(&[".X.O.", "XXXOO", "OOOOO", "XXXXX", "....."]);
        let judgement = judge_with(&Position::from_board(board, Rules::CHINESE.with_komi(0.0)), 200, 3);
        assert!(judgement.dead.is_empty(), "{:?}", judgement.dead);
        assert_eq!(judgement.seki.len(), 12);
        // Black: 4 + 5 stones, the eye A5 and the 5 points of row 1; White: 7 + its eye E5; C5 is shared.
        assert_eq!(judgement.score, (9.0 + 1.0 + 5.0) - (8.0 + 1.0));
    }
}
