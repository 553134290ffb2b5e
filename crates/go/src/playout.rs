//! Fast playouts, the owners of the points where they end, and the tree's move list: the go side
//! of the MCTS searcher (priors: [`crate::priors`]), which averages those owners into the
//! ownership it reports.
//!
//! The playout policy, in order: capture the string the last move left in atari; save our string
//! the last move put in atari (by capturing, or extending when that gains liberties); else a 3×3
//! shape next to the last move; otherwise a random legal move that does not fill our own eye and is
//! not a self-atari of three or more stones. Everything runs on a copy of the board: no history, no
//! heap. The tree priors read ladders ([`crate::ladder`]); the playouts do not, which keeps
//! them about a third faster.

use tessera_core::{Game, Playout, PlayoutResult, Refined, Rng, Side};

use crate::atari::new_string_liberties;
use crate::board::{neighbors, Board, Cell, STRIDE};
use crate::komi;
use crate::pattern;
use crate::position::{side_of, Move, Position};
use crate::priors::PriorContext;
use crate::score::{area_owners, playout_owner};

/// Random moves refuse self-ataris of this many stones or more; a small sacrifice can be good.
const BIG_SELF_ATARI: u32 = 3;
/// Replies chosen for a reason (an escape, a shape) refuse every self-atari.
const ANY_SELF_ATARI: u32 = 1;

/// Whether the side to move may play `p` in a playout: legal by the board (no ko, no suicide),
/// not its own eye, and not a self-atari of `refused_self_atari` stones or more.
#[inline]
fn acceptable(board: &Board, p: usize, color: Cell, refused_self_atari: u32) -> bool {
    if board.ko_point() == Some(p) || board.is_eye(p, color) {
        return false;
    }
    match new_string_liberties(board, p, color) {
        (0, _) => false, // suicide
        (1, stones) => stones < refused_self_atari,
        _ => true,
    }
}

/// A tactical reply to the last move at `last`, if one applies.
fn tactical_reply(board: &Board, last: usize, color: Cell, rng: &mut Rng) -> Option<usize> {
    let enemy = color.opponent();
    // Capture the stone just played, or a neighbour string of it, when in atari.
    if board.cell(last) == enemy && board.in_atari(last) {
        let lib = board.atari_liberty(last);
        if acceptable(board, lib, color, BIG_SELF_ATARI) {
            return Some(lib);
        }
    }
    // Save our strings the last move put in atari.
    let start = rng.below(4);
    let around = neighbors(last);
    for index in 0..4 {
        let n = around[(start + index) & 3];
        if board.cell(n) != color || !board.in_atari(n) {
            continue;
        }
        // Capture an attacker in atari next to the string, else extend if that gains liberties.
        for stone in board.string_members(n) {
            for m in neighbors(stone) {
                if board.cell(m) == enemy && board.in_atari(m) {
                    let lib = board.atari_liberty(m);
                    if acceptable(board, lib, color, BIG_SELF_ATARI) {
                        return Some(lib);
                    }
                }
            }
        }
        let lib = board.atari_liberty(n);
        if acceptable(board, lib, color, ANY_SELF_ATARI) {
            return Some(lib);
        }
    }
    None
}

/// A point next to the last move (one of its 8 neighbours) that completes a 3×3 shape, chosen at
/// random among those that are acceptable.
fn pattern_reply(board: &Board, last: usize, color: Cell, rng: &mut Rng) -> Option<usize> {
    let around = [
        last - STRIDE - 1,
        last - STRIDE,
        last - STRIDE + 1,
        last - 1,
        last + 1,
        last + STRIDE - 1,
        last + STRIDE,
        last + STRIDE + 1,
    ];
    let mut candidates = [0usize; 8];
    let mut count = 0;
    for p in around {
        if board.cell(p) == Cell::Empty && pattern::matches(board, p) && acceptable(board, p, color, ANY_SELF_ATARI) {
            candidates[count] = p;
            count += 1;
        }
    }
    (count > 0).then(|| candidates[rng.below(count)])
}

/// A random acceptable move, or `None` (pass).
fn random_move(board: &Board, color: Cell, rng: &mut Rng) -> Option<usize> {
    let empties = board.empty_points();
    if empties.is_empty() {
        return None;
    }
    let start = rng.below(empties.len());
    for index in (start..empties.len()).chain(0..start) {
        let p = usize::from(empties[index]);
        if acceptable(board, p, color, BIG_SELF_ATARI) {
            return Some(p);
        }
    }
    None
}

/// Plays `board` out with the playout policy until two passes (or a length cap), calling `record`
/// for every stone played; returns the area score (Black minus White minus `komi`).
pub fn run_playout(
    board: &mut Board,
    last: Option<usize>,
    komi: f32,
    rng: &mut Rng,
    record: impl FnMut(Cell, Move),
) -> f32 {
    play_out(board, last, rng, record);
    playout_score(board, komi, |_, _| {})
}

/// The moves of [`run_playout`]: the policy plays until two passes or the length cap.
fn play_out(board: &mut Board, mut last: Option<usize>, rng: &mut Rng, mut record: impl FnMut(Cell, Move)) {
    let cap = 3 * board.size() * board.size() + 20;
    for _ in 0..cap {
        if board.consecutive_passes() >= 2 {
            break;
        }
        let color = board.to_move();
        let reply = last.and_then(|p| tactical_reply(board, p, color, rng));
        let reply = reply.or_else(|| last.and_then(|p| pattern_reply(board, p, color, rng)));
        match reply.or_else(|| random_move(board, color, rng)) {
            Some(p) => {
                board.play(p, color);
                record(color, Move::at(p));
                last = Some(p);
            }
            None => {
                board.pass();
                last = None;
            }
        }
    }
}

/// The area score of a played-out board (Black minus White minus `komi`), telling `mark` the owner
/// of every point ([`playout_owner`]: +1 Black, -1 White) with the point's place in
/// [`Board::points`], row by row from the top-left. The score is the same sum in the same order
/// whatever `mark` does.
#[inline]
fn playout_score(board: &Board, komi: f32, mut mark: impl FnMut(usize, i8)) -> f32 {
    let mut score = -komi;
    for (cell, p) in board.points().enumerate() {
        let owner = playout_owner(board, p);
        mark(cell, owner);
        score += f32::from(owner);
    }
    score
}

/// The share of the shape priors ([`crate::priors`]) kept beside the network's: they carry the
/// tactics (captures, escapes, ladders) a search of bot games meets more often than 9-dan players.
const SHAPE_SHARE: f32 = 0.1;

thread_local! {
    /// Each search thread's playout board: reused, so a playout copies only the slots in use
    /// ([`Board::copy_from`]) and never a whole fresh board.
    static PLAYOUT_BOARD: std::cell::RefCell<Option<Board>> = const { std::cell::RefCell::new(None) };
}

impl Playout for Position {
    /// Legal moves without filling our own eyes or leaving the opening shape of big boards
    /// ([`PriorContext::tree_allows`]); a pass only once the opponent passed or nothing else is
    /// left (so the tree judges the end of the game exactly, by area).
    fn generate_tree_moves(&self, moves: &mut Self::Moves) {
        use tessera_core::MoveBuffer;
        self.generate_legal_moves(moves);
        let board = self.board();
        let color = board.to_move();
        let opponent_passed = self.moves().last().is_some_and(|mv| mv.is_pass());
        let context = PriorContext::new(board, None, None);
        let mut kept = 0;
        for index in 0..moves.len() {
            let mv = moves[index];
            let keep = match mv.point() {
                Some(p) => !board.is_eye(p, color) && context.tree_allows(p),
                None => opponent_passed,
            };
            if keep {
                moves[kept] = mv;
                kept += 1;
            }
        }
        if kept == 0 && !moves.is_empty() {
            moves.clear();
            moves.push(Move::PASS);
        } else {
            moves.truncate(kept);
        }
    }

    fn priors(&self, moves: &[Move], priors: &mut [f32]) {
        let recent = |back: usize| self.moves().len().checked_sub(back).and_then(|index| self.moves()[index].point());
        let context = PriorContext::new(self.board(), recent(1), recent(2));
        for (mv, prior) in moves.iter().zip(priors.iter_mut()) {
            *prior = mv.point().map_or(0.5, |p| context.point_prior(p));
        }
    }

    /// The network's priors ([`crate::network`]) on the boards it knows, with a share of the
    /// shape priors kept ([`SHAPE_SHARE`]), and its value when the search weighs one.
    fn refined_priors(&self, moves: &[Move], priors: &mut [f32], with_value: bool) -> Option<Refined> {
        let mut shapes = [0.0f32; crate::position::MAX_MOVES];
        shapes[..moves.len()].copy_from_slice(&priors[..moves.len()]);
        let refined = crate::network::evaluate(self, moves, priors, with_value)?;
        for (prior, shape) in priors.iter_mut().zip(&shapes) {
            *prior = (1.0 - SHAPE_SHARE) * *prior + SHAPE_SHARE * shape;
        }
        Some(refined)
    }

    /// The result and the area score (komi included) for the side to move. In handicap games
    /// the result is judged against a dynamic komi ([`komi::extra_komi`]); the score keeps the
    /// real one.
    fn playout(&self, rng: &mut Rng, played: &mut Vec<(Side, Move)>) -> PlayoutResult {
        self.scored_playout(rng, played, |_, _| {})
    }

    /// The points of the board, row by row from the top-left (as GTP's ownership lists them).
    fn ownership_cells(&self) -> usize {
        self.size() * self.size()
    }

    /// Each point's owner where the playout ends by [`playout_owner`]: the playout fills the
    /// board up to one-point eyes, which then belong to the colour around them.
    fn playout_with_ownership(
        &self,
        rng: &mut Rng,
        played: &mut Vec<(Side, Move)>,
        owners: &mut [i8],
    ) -> PlayoutResult {
        self.scored_playout(rng, played, |cell, owner| owners[cell] = owner)
    }

    /// Each point's owner by area, as the game's end in the tree is scored ([`area_owners`]):
    /// stones as they stand, empty regions to the one colour they touch.
    fn final_ownership(&self, owners: &mut [i8]) {
        let by_point = area_owners(self.board());
        for (owner, p) in owners.iter_mut().zip(self.board().points()) {
            *owner = by_point[p];
        }
    }
}

impl Position {
    /// [`Playout::playout`], telling `mark` each point's owner at the end (see [`playout_score`]).
    fn scored_playout(
        &self,
        rng: &mut Rng,
        played: &mut Vec<(Side, Move)>,
        mark: impl FnMut(usize, i8),
    ) -> PlayoutResult {
        let last = self.moves().last().and_then(|mv| mv.point());
        let mover = self.to_move();
        let black_score = PLAYOUT_BOARD.with_borrow_mut(|scratch| {
            let board = scratch.get_or_insert_with(|| self.board().clone());
            board.copy_from(self.board());
            play_out(board, last, rng, |color, mv| played.push((side_of(color), mv)));
            playout_score(board, self.rules().komi, mark)
        });
        let sign = if mover == Cell::Black { 1.0 } else { -1.0 };
        let judged = sign * (black_score - komi::extra_komi(self));
        let value = if judged > 0.0 {
            1.0
        } else if judged < 0.0 {
            0.0
        } else {
            0.5
        };
        PlayoutResult { value, score: Some(sign * black_score) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::point;
    use crate::rules::Rules;
    use tessera_core::Playout;

    #[test]
    fn playouts_end_and_fill_the_board_with_eyes_only() {
        let position = Position::new(9, Rules::CHINESE);
        let mut rng = Rng::new(3);
        let mut played = Vec::with_capacity(512);
        for _ in 0..50 {
            played.clear();
            let result = position.playout(&mut rng, &mut played);
            assert!(result.value == 0.0 || result.value == 1.0, "komi 7.5 leaves no draw");
            assert_eq!(result.value == 1.0, result.score.is_some_and(|score| score > 0.0));
            assert!(played.len() > 40, "a playout fills the board");
        }
    }

    #[test]
    fn the_playout_captures_a_string_in_atari() {
        let mut board = Board::new(9);
        board.place_setup_stone(point(4, 4), Cell::White);
        board.place_setup_stone(point(3, 4), Cell::Black);
        board.place_setup_stone(point(5, 4), Cell::Black);
        board.place_setup_stone(point(4, 5), Cell::Black);
        let mut rng = Rng::new(1);
        assert_eq!(tactical_reply(&board, point(4, 4), Cell::Black, &mut rng), Some(point(4, 3)));
    }
}
