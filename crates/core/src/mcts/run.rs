//! One search: the state its threads share and the cycle each of them runs (selection,
//! expansion, playout, backup) on the shared tree, which needs no lock ([`super::tree`]). Moves,
//! priors and refined priors are computed by the one thread that claimed the node, while the
//! others go on searching.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use super::ownership::OwnershipTally;
use super::tree::{Amaf, State, Tree, MAX_CHILDREN};
use super::{MctsConfig, Selection, MAX_REPORTED_LINE};
use crate::game::{Game, PackedMove, Side};
use crate::info::{MoveStat, Report};
use crate::moves::MoveBuffer;
use crate::rng::Rng;
use crate::search::{Playout, PlayoutResult};
use crate::time::SearchControl;

/// Shared state of one search.
pub(super) struct Run<'a, G: Game> {
    pub(super) tree: Tree<G::Move>,
    pub(super) control: &'a SearchControl,
    pub(super) config: &'a MctsConfig,
    pub(super) root: &'a G,
    pub(super) search_moves: &'a [G::Move],
    pub(super) playouts: AtomicU64,
    pub(super) abort: AtomicBool,
    /// The cells' owners at the end of the playouts, when the limits ask for them.
    pub(super) ownership: Option<OwnershipTally>,
}

/// Per-thread scratch space, allocated once per search.
pub(super) struct Scratch<G: Game> {
    /// The thread's index: its row of the ownership tally.
    thread: usize,
    position: G,
    rng: Rng,
    path: Vec<usize>,
    played: Vec<(Side, G::Move)>,
    moves: G::Moves,
    priors: Vec<f32>,
    /// Children in the order of their priors, or of their ranking.
    order: Vec<usize>,
    /// AMAF marks: `marks[side << 16 | bits] == stamp` when that side played that move this playout.
    marks: Vec<u32>,
    stamp: u32,
    /// The cells' owners at the end of the last playout (empty when the search tallies none).
    owners: Vec<i8>,
}

impl<G: Playout> Scratch<G> {
    /// The scratch space of thread `thread` (0 = the search's own), with `ownership_cells` owners.
    pub(super) fn new(root: &G, seed: u64, thread: usize, ownership_cells: usize) -> Self {
        Scratch {
            thread,
            position: root.clone(),
            rng: Rng::new(seed),
            path: Vec::with_capacity(256),
            played: Vec::with_capacity(1024),
            moves: G::Moves::default(),
            priors: Vec::with_capacity(1024),
            order: Vec::with_capacity(1024),
            marks: vec![0; 2 << 16],
            stamp: 0,
            owners: vec![0; ownership_cells],
        }
    }
}

/// What expanding a leaf gave.
enum Expansion {
    /// Its children are in the tree.
    Children,
    /// The game is over there: the exact result for the player who moved into it.
    Over(f32),
    /// The tree has no room for the children: the leaf stays a leaf.
    NoRoom,
}

impl<G: Playout> Run<'_, G> {
    pub(super) fn aborted(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }

    /// One selection–expansion–playout–backup cycle.
    pub(super) fn iterate(&self, scratch: &mut Scratch<G>) {
        scratch.path.clear();
        scratch.played.clear();
        let root_ply = self.root.ply();
        let tree = &self.tree;
        let mut node = 0;
        scratch.path.push(0);
        tree.node(0).enter();
        let leaf_value = loop {
            let current = tree.node(node);
            match current.state() {
                State::Terminal => break current.terminal(),
                // Another thread is writing the children: a playout from here meanwhile.
                State::Expanding => break None,
                State::Leaf => {
                    let ready = node == 0 || current.visits() >= self.config.expand_after;
                    if !ready || !tree.can_grow() || !current.begin_expansion() {
                        break None;
                    }
                    match self.expand(node, scratch, root_ply) {
                        Expansion::Children => {}
                        Expansion::Over(value) => break Some(value),
                        Expansion::NoRoom => break None,
                    }
                }
                State::Expanded => {}
            }
            if self.config.refine_after.is_some_and(|after| node == 0 || current.visits() >= after)
                && current.claim_refinement()
            {
                self.refine(node, scratch);
            }
            // Expanded above, and a node's children are never taken back during a search.
            let Some(children) = current.children() else { break None };
            let child = self.select(node, children);
            tree.node(child).enter();
            let mv = tree.node(child).mv();
            scratch.played.push((scratch.position.side_to_move(), mv));
            scratch.position.play(mv);
            scratch.path.push(child);
            node = child;
        };
        // The result for the player who made the last tree move (the leaf's "mover").
        let result = match leaf_value {
            Some(value) => {
                if let Some(tally) = &self.ownership {
                    scratch.position.final_ownership(&mut scratch.owners);
                    tally.add(scratch.thread, &scratch.owners);
                }
                PlayoutResult::from(value)
            }
            None => {
                let (position, rng, played) = (&scratch.position, &mut scratch.rng, &mut scratch.played);
                let playout = match &self.ownership {
                    Some(tally) => {
                        let playout = position.playout_with_ownership(rng, played, &mut scratch.owners);
                        tally.add(scratch.thread, &scratch.owners);
                        playout
                    }
                    None => position.playout(rng, played),
                };
                PlayoutResult { value: 1.0 - playout.value, score: playout.score.map(|score| -score) }
            }
        };
        scratch.position.undo_to(root_ply);
        self.backup(scratch, result);
        self.playouts.fetch_add(1, Ordering::Relaxed);
    }

    /// Expands `node` (whose position is `scratch.position`), whose expansion this thread claimed:
    /// its children with their priors, or its exact value if the game is over there.
    fn expand(&self, node: usize, scratch: &mut Scratch<G>, root_ply: usize) -> Expansion {
        let leaf = self.tree.node(node);
        let position = &scratch.position;
        let mover = position.side_to_move().opponent();
        if let Some(outcome) = position.rule_outcome(Some(root_ply)) {
            let value = outcome.value_for(mover);
            leaf.set_terminal(value);
            return Expansion::Over(value);
        }
        position.generate_tree_moves(&mut scratch.moves);
        if node == 0 && !self.search_moves.is_empty() {
            let keep: Vec<G::Move> =
                scratch.moves.iter().copied().filter(|mv| self.search_moves.contains(mv)).collect();
            if !keep.is_empty() {
                scratch.moves.clear();
                for mv in keep {
                    scratch.moves.push(mv);
                }
            }
        }
        if scratch.moves.is_empty() {
            let value = position.no_move_outcome().value_for(mover);
            leaf.set_terminal(value);
            return Expansion::Over(value);
        }
        let moves = &scratch.moves[..scratch.moves.len().min(MAX_CHILDREN)];
        scratch.priors.clear();
        scratch.priors.resize(moves.len(), 0.0);
        position.priors(moves, &mut scratch.priors);
        let total: f32 = scratch.priors.iter().map(|prior| prior.max(0.0)).sum();
        let uniform = 1.0 / moves.len() as f32;
        for prior in &mut scratch.priors {
            *prior = if total > 0.0 { prior.max(0.0) / total } else { uniform };
        }
        scratch.order.clear();
        scratch.order.extend(0..moves.len());
        if self.config.widening.is_some() {
            // Highest prior first (a stable sort): widening opens the children in this order.
            let priors = &scratch.priors;
            scratch.order.sort_by(|&a, &b| priors[b].total_cmp(&priors[a]));
        }
        let children = scratch.order.iter().map(|&index| (moves[index], scratch.priors[index]));
        if self.tree.add_children(node, children) {
            Expansion::Children
        } else {
            Expansion::NoRoom
        }
    }

    /// Asks the game for refined priors of the children of the expanded `node` (whose position is
    /// `scratch.position`), whose refinement this thread claimed, and under widening ranks the
    /// children again in order of prior. Other threads go on through the node meanwhile.
    fn refine(&self, node: usize, scratch: &mut Scratch<G>) {
        let tree = &self.tree;
        tree.children_by_rank(node, &mut scratch.order);
        scratch.moves.clear();
        scratch.priors.clear();
        for &child in &scratch.order {
            scratch.moves.push(tree.node(child).mv());
            scratch.priors.push(tree.node(child).prior());
        }
        let with_value = self.config.value_weight > 0.0;
        let Some(refined) = scratch.position.refined_priors(&scratch.moves, &mut scratch.priors, with_value) else {
            return;
        };
        // Only a weighed estimate is kept: selection reads whatever a node holds.
        if let Some(value) = refined.value.filter(|_| with_value) {
            // The estimate is for the player to move at the node; its statistics are its mover's.
            tree.node(node).set_value_estimate(1.0 - value.clamp(0.0, 1.0));
        }
        let total: f32 = scratch.priors.iter().map(|prior| prior.max(0.0)).sum();
        if total <= 0.0 {
            return;
        }
        for (&child, prior) in scratch.order.iter().zip(&scratch.priors) {
            tree.node(child).set_prior(prior.max(0.0) / total);
        }
        if self.config.widening.is_some() {
            // Highest prior first, as at expansion (only this thread writes these priors).
            scratch.order.sort_by(|&a, &b| tree.node(b).prior().total_cmp(&tree.node(a).prior()));
            tree.rank_children(node, &scratch.order);
        }
    }

    /// The child of `node` (among `children`) to descend into.
    fn select(&self, node: usize, children: Range<usize>) -> usize {
        let tree = &self.tree;
        let parent = tree.node(node);
        let parent_visits = parent.visits() + parent.in_flight();
        // The parent's mean is for the player who moved into it; its children are the other player's.
        let parent_mean = 1.0 - parent.mean(0.5);
        let width = match self.config.widening {
            Some(widening) => widening.width(parent_visits).min(children.len()),
            None => children.len(),
        };
        let parent_visits = parent_visits.max(1) as f32;
        let value_weight = self.config.value_weight;
        let mut best = tree.ranked_child(children.start, 0);
        let mut best_score = f32::NEG_INFINITY;
        for place in 0..width {
            let child = tree.ranked_child(children.start, place);
            let candidate = tree.node(child);
            let (visits, value_sum) = candidate.stats();
            let visits = visits + candidate.in_flight();
            // Virtual loss: running playouts count as losses until they report.
            // At weight 0 no estimate is stored, so none is loaded either.
            let estimate = if value_weight > 0.0 { candidate.value_estimate() } else { None };
            let mean = match estimate {
                Some(estimate) => Some((value_sum + value_weight * estimate) / (visits as f32 + value_weight)),
                None => (visits > 0).then(|| value_sum / visits as f32),
            };
            let mean = mean.map(|mean| self.blend_rave(tree.amaf(child), mean, visits));
            let score = match self.config.selection {
                Selection::Uct { exploration } => match mean {
                    None => f32::INFINITY,
                    Some(mean) => mean + exploration * (parent_visits.ln() / visits as f32).sqrt(),
                },
                Selection::Puct { exploration, first_play_reduction } => {
                    let mean = mean
                        .unwrap_or_else(|| self.blend_rave(tree.amaf(child), parent_mean - first_play_reduction, 0));
                    mean + exploration * candidate.prior() * parent_visits.sqrt() / (1.0 + visits as f32)
                }
            };
            if score > best_score {
                best_score = score;
                best = child;
            }
        }
        best
    }

    fn blend_rave(&self, amaf: &Amaf, mean: f32, visits: u32) -> f32 {
        match (self.config.rave_equivalence, amaf.stats()) {
            (Some(k), (amaf_visits, amaf_sum)) if amaf_visits > 0 => {
                let beta = (k / (3.0 * visits as f32 + k)).sqrt();
                (1.0 - beta) * mean + beta * amaf_sum / amaf_visits as f32
            }
            _ => mean,
        }
    }

    /// Adds the result along the path, removing virtual losses, and updates AMAF statistics.
    fn backup(&self, scratch: &mut Scratch<G>, leaf: PlayoutResult) {
        let use_rave = self.config.rave_equivalence.is_some();
        let tree = &self.tree;
        // Walk from the leaf up: `value` and `score` are for the player who moved into the current node.
        let PlayoutResult { mut value, mut score } = leaf;
        let depth = scratch.path.len();
        if use_rave {
            scratch.stamp = scratch.stamp.wrapping_add(1);
            if scratch.stamp == 0 {
                scratch.marks.fill(0);
                scratch.stamp = 1;
            }
            // Mark the moves played after the deepest tree node (playout moves).
            for &(side, mv) in &scratch.played[depth - 1..] {
                scratch.marks[(side.index() << 16) | usize::from(mv.to_bits())] = scratch.stamp;
            }
        }
        for level in (0..depth).rev() {
            let node = tree.node(scratch.path[level]);
            node.leave();
            node.add_result(value);
            if let Some(score) = score {
                node.add_score(score);
            }
            if let Some(children) = node.children().filter(|_| use_rave) {
                // The player to move at this node is the one who did not move into it.
                let mover_side =
                    if level == 0 { self.root.side_to_move() } else { scratch.played[level - 1].0.opponent() };
                let result_for_mover = 1.0 - value;
                let marks = &scratch.marks[mover_side.index() << 16..];
                for child in children {
                    let amaf = tree.amaf(child);
                    if marks[usize::from(amaf.move_bits())] == scratch.stamp {
                        amaf.add(result_for_mover);
                    }
                }
            }
            if use_rave && level > 0 {
                let (side, mv) = scratch.played[level - 1];
                scratch.marks[(side.index() << 16) | usize::from(mv.to_bits())] = scratch.stamp;
            }
            value = 1.0 - value;
            score = score.map(|score| -score);
        }
    }

    /// The analysis report of `moves` (the root statistics) after `playouts` playouts in `time`,
    /// with the cells' mean owners when the search tallies them.
    pub(super) fn analysis(&self, moves: Vec<MoveStat<G::Move>>, playouts: u64, time: Duration) -> Report<G::Move> {
        let ownership = self.ownership.as_ref().and_then(OwnershipTally::means);
        Report::Analysis { moves, playouts, time, ownership }
    }

    /// Root statistics, most visited first (ties: the better win rate, then the higher ranked).
    pub(super) fn root_stats(&self) -> Vec<MoveStat<G::Move>> {
        let tree = &self.tree;
        let mut order = Vec::new();
        tree.children_by_rank(0, &mut order);
        let mut stats: Vec<MoveStat<G::Move>> = order
            .iter()
            .filter_map(|&child| {
                let node = tree.node(child);
                let (visits, value_sum) = node.stats();
                if visits == 0 {
                    return None;
                }
                let mean = value_sum / visits as f32;
                let spread = (mean * (1.0 - mean) / visits as f32).sqrt();
                let mut pv = vec![node.mv()];
                pv.extend(tree.principal_line(child, MAX_REPORTED_LINE - 1));
                Some(MoveStat {
                    mv: node.mv(),
                    visits,
                    win_rate: mean,
                    prior: node.prior(),
                    lower_bound: (mean - 1.96 * spread).max(0.0),
                    pv,
                    score: node.score_estimate(),
                })
            })
            .collect();
        stats.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.win_rate.total_cmp(&a.win_rate)));
        stats
    }
}
