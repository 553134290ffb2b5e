//! Singular extensions: the table move searched one ply deeper where no other move comes close
//! to its value, and the node cut at once where several do ("multi-cut").

use super::{Shared, Worker};
use crate::game::PackedMove;
use crate::score::{is_mate_value, Bound};
use crate::search::{Evaluate, NullMove, Tactical};
use crate::tt::TtEntry;

/// What a singular-extension check found.
pub(super) enum Singular {
    /// The table move is the only good one: search it one ply deeper.
    Extend,
    /// Several moves beat beta even at reduced depth: the node fails high with this value.
    MultiCut(i32),
    /// Neither.
    No,
}

impl<G: Evaluate + Tactical + NullMove> Worker<G> {
    /// Whether the table move is singular: every other move fails low against the table's value
    /// minus a margin, searched at half depth. If even that reduced bound beats `beta`, several
    /// moves do, and the node is cut at once ("multi-cut").
    #[allow(clippy::too_many_arguments)]
    pub(super) fn singular_extension(
        &mut self,
        position: &mut G,
        shared: &Shared<'_>,
        entry: Option<TtEntry>,
        depth: i32,
        ply: usize,
        beta: i32,
        cut_node: bool,
    ) -> Singular {
        let margin = G::PRUNING.singular_margin;
        let Some(entry) = entry else { return Singular::No };
        if margin == 0
            || depth < 8
            || ply as i32 >= 2 * self.root_depth
            || entry.depth < depth - 3
            || entry.bound == Bound::Upper
            || is_mate_value(entry.value)
        {
            return Singular::No;
        }
        let singular_beta = entry.value - margin * depth / 8;
        self.stack[ply].excluded = entry.move_bits.map(G::Move::from_bits);
        let value =
            self.search(position, shared, (depth - 1) / 2, ply, singular_beta - 1, singular_beta, false, cut_node);
        self.stack[ply].excluded = None;
        if value < singular_beta {
            Singular::Extend
        } else if singular_beta >= beta {
            Singular::MultiCut(singular_beta)
        } else {
            Singular::No
        }
    }
}
