//! The repetition judge of the Asian computer rules on a position's history: which side repeated
//! by perpetual check or perpetual chase (and loses), or a draw. The rules themselves and what
//! counts as a chase are `crate::rules`.

use tessera_core::{Outcome, Side};

use super::Position;
use crate::rules::chased_pieces;

/// Judges a repetition of the current position, if there is one.
///
/// With `search_root` (inside a search) a position repeated once after the root is judged at
/// once; otherwise the position must stand on the board for the third time.
pub(super) fn judge_repetition(position: &Position, search_root: Option<usize>) -> Option<(Outcome, &'static str)> {
    let entries = position.entries();
    let limit = usize::from(position.window).min(entries.len());
    let mut seen_before = false;
    let mut distance = 4;
    while distance <= limit {
        let ply = entries.len() - distance;
        if entries[ply].hash == position.hash {
            // The third time on the board, or a repetition after the root: judged over every move
            // since this earlier appearance (as both peers judge a third time), not only the
            // last cycle's.
            if seen_before || search_root.is_some_and(|root| ply >= root) {
                return Some(judge_cycle(position, distance));
            }
            seen_before = true;
        }
        distance += 2;
    }
    None
}

/// Decides a repetition whose cycle is the last `cycle` plies; says why.
fn judge_cycle(position: &Position, cycle: usize) -> (Outcome, &'static str) {
    let entries = position.entries();
    let mut board = position.board;
    let mut mover = position.side;
    let mut all_checks = [true; 2];
    let mut chased = [u16::MAX; 2];
    for entry in entries[entries.len() - cycle..].iter().rev() {
        mover = mover.opponent();
        let side = mover.index();
        all_checks[side] &= board.in_check(mover.opponent());
        if position.rules.judge_chases && chased[side] != 0 {
            chased[side] &= chased_pieces(&board, entry.mv, entry.captured, mover);
        }
        board.unmake(entry.mv, entry.captured);
    }
    match (all_checks[0], all_checks[1]) {
        (true, false) => return (Outcome::Win(Side::Second), "perpetual check"),
        (false, true) => return (Outcome::Win(Side::First), "perpetual check"),
        (true, true) => return (Outcome::Draw, "mutual perpetual check"),
        (false, false) => {}
    }
    if !position.rules.judge_chases {
        return (Outcome::Draw, "repetition");
    }
    match (chased[0] != 0, chased[1] != 0) {
        (true, false) => (Outcome::Win(Side::Second), "perpetual chase"),
        (false, true) => (Outcome::Win(Side::First), "perpetual chase"),
        (true, true) => (Outcome::Draw, "mutual perpetual chase"),
        (false, false) => (Outcome::Draw, "repetition"),
    }
}
