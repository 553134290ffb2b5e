//! When a search ends: its limits, a settled choice, a forced move; and the answer when no root
//! move was searched.

use std::time::Duration;

use super::run::Run;
use super::tree::State;
use crate::game::Outcome;
use crate::info::SearchResult;
use crate::limits::Limits;
use crate::score::Score;
use crate::search::Playout;
use crate::time::{SearchControl, TimeManager};

/// Whether the main thread should end the search.
pub(super) fn should_stop<G: Playout>(
    run: &Run<'_, G>,
    limits: &Limits<G::Move>,
    time: &TimeManager,
    playouts: u64,
) -> bool {
    if run.control.is_stopped() || time.hard_expired(run.control) {
        return true;
    }
    if limits.nodes.is_some_and(|limit| playouts >= limit) {
        return true;
    }
    let root = run.tree.node(0);
    let children = root.children().map_or(0, |children| children.len());
    let expanded = root.state() == State::Expanded;
    if root.state() == State::Terminal || (expanded && children == 0) {
        return true;
    }
    // The move is settled once the runner-up trails by more than the configured share of the
    // playouts left (at 1, by more than all of them): the rest of the budget is saved.
    if let Some(share) = run.config.stop_when_settled.filter(|_| expanded && playouts.is_multiple_of(16)) {
        if let Some(left) = playouts_left(limits, time, run.control, playouts) {
            if f64::from(run.tree.root_lead()) > f64::from(share) * left as f64 {
                return true;
            }
        }
    }
    if !time.soft_expired(run.control, 1.0) {
        // A forced move (one child) needs no thought once the clock runs.
        let timed = !limits.is_untimed() && !run.control.is_pondering();
        return timed && expanded && children == 1 && playouts >= 64;
    }
    true
}

/// Playouts the search may still run: up to the playout limit, and under a clock that keeps unused
/// time, at the rate so far until the soft budget ends. `None` when nothing bounds the search but
/// a stop (analysis, pondering) or the move's time would be lost unused (a fixed time per move, a
/// byo-yomi period): it is there to be used.
pub(super) fn playouts_left<M>(
    limits: &Limits<M>,
    time: &TimeManager,
    control: &SearchControl,
    playouts: u64,
) -> Option<u64> {
    if control.is_pondering() {
        return None;
    }
    let by_limit = limits.nodes.map(|limit| limit.saturating_sub(playouts));
    let by_clock = time.soft().filter(|_| time.keeps_unused_time()).map(|soft| {
        let elapsed = control.clock_elapsed();
        let rate = playouts as f64 / elapsed.as_secs_f64().max(1e-6);
        (rate * soft.saturating_sub(elapsed).as_secs_f64()) as u64
    });
    by_limit.into_iter().chain(by_clock).min()
}

/// The result when no root child was visited (stopped at once, or no legal move).
pub(super) fn fallback_result<G: Playout>(root: &G, playouts: u64, time: Duration) -> SearchResult<G::Move> {
    let mut moves = G::Moves::default();
    root.generate_legal_moves(&mut moves);
    let score = match root.outcome() {
        Some(Outcome::Win(side)) if side != root.side_to_move() => Score::WinRate(0.0),
        Some(Outcome::Win(_)) => Score::WinRate(1.0),
        _ => Score::WinRate(0.5),
    };
    SearchResult {
        best: moves.first().copied(),
        ponder: None,
        score,
        depth: 0,
        nodes: playouts,
        time,
        pv: moves.first().copied().into_iter().collect(),
    }
}
