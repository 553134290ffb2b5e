//! The move-count draw: 60 moves (120 plies) without capture, where checks beyond ten by one side
//! do not count, each with the reply it forces, so that a run of checks does not use up the
//! count. Pikafish counts so (`rule60` with `check10`); current Fairy-Stockfish, under its AXF
//! chasing rule, discounts only the larger of the two sides' excess, the same when one side checks.

use tessera_core::Side;

use super::Position;
use crate::movegen::{Generate, Moves};

/// Whether the move-count rule draws the game in `position`. A checkmate given on the last
/// counted ply stands: the game was lost before the count ran out.
pub(super) fn draws(position: &Position) -> bool {
    let limit = position.rules.move_limit_plies;
    // Checks can only lower the count, so below the limit no history needs reading.
    if position.quiet_plies < limit || counted_plies(position) < limit {
        return false;
    }
    if position.checked {
        let mut moves = Moves::new();
        position.board.legal_moves(position.side, Generate::All, &mut moves);
        return !moves.is_empty();
    }
    true
}

/// Plies without capture, less two for every check beyond the rules' allowance by a side since
/// the capture. Plies before the recorded history (a position set up with a count) count in full.
fn counted_plies(position: &Position) -> u16 {
    let allowance = position.rules.counted_checks;
    let checks = checks_since_capture(position);
    let uncounted: u16 = checks.iter().map(|&given| 2 * given.saturating_sub(allowance)).sum();
    position.quiet_plies.saturating_sub(uncounted)
}

/// The checks each side gave (indexed by [`Side::index`]) in the plies since the last capture
/// that the history holds. A history entry records whether its side to move stood in check,
/// that is whether the move before it gave check; the position itself says so for the last move.
fn checks_since_capture(position: &Position) -> [u16; 2] {
    let entries = position.entries();
    let plies = usize::from(position.quiet_plies).min(entries.len());
    let mut checks = [0u16; 2];
    let mut mover: Side = position.side.opponent();
    let mut gave_check = position.checked;
    for entry in entries.iter().rev().take(plies) {
        checks[mover.index()] += u16::from(gave_check);
        gave_check = entry.checked;
        mover = mover.opponent();
    }
    checks
}
