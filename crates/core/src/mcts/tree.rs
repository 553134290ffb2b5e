//! The search tree of the MCTS searcher, shared by the search threads without a lock.
//!
//! Nodes live in one arena of fixed capacity (sized from the `Hash` option, in zeroed memory that
//! the system maps as it is touched); a node's children are contiguous, and every field is an
//! atomic, so that threads read and update the tree at the same time:
//!
//! - **Expanded once.** The thread that moves a node from [`State::Leaf`] to
//!   [`State::Expanding`] (a compare-and-swap) alone generates its moves and priors, outside any
//!   lock, writes the children and publishes them by storing [`State::Expanded`] with release
//!   ordering; a thread reads a node's children only after loading that state with acquire
//!   ordering ([`Node::children`]). A thread meeting a node that is being expanded plays out from
//!   it as from a leaf.
//! - **Nodes never move.** Refined priors re-rank a node's children by rewriting a permutation
//!   (each child slot's `rank`) instead of moving the children, so the node indices on a thread's
//!   path stay valid while other threads refine and nobody waits for the playouts in flight.
//!   Selection reads the ranking as it is (during a rewrite it may see a mix of the old and the new
//!   order once); reports read it consistently, under the parent's sequence counter.
//! - **No lost update.** Counts that belong together (visits and their value sum; an AMAF count
//!   and its sum; a score count and its sum) share one 64-bit word, updated by compare-and-swap.
//!   On one thread every sum is the very `f32` that sequential code computes, so a
//!   single-threaded search is exactly the search it was under a tree-wide lock.

use std::collections::VecDeque;
use std::marker::PhantomData;
use std::ops::Range;
use std::sync::atomic::{fence, AtomicBool, AtomicU16, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};

use crate::game::PackedMove;
use crate::info::ScoreEstimate;
use crate::zeroed::{Zeroable, ZeroedSlice};

/// Children a node keeps at most (their offsets are 16-bit); no game here has a tenth of that.
pub(crate) const MAX_CHILDREN: usize = u16::MAX as usize;
/// Nodes by which a node's children may run past the tree's limit: the limit is checked before an
/// expansion, as the tree grew under a lock. More than any game here has moves (go: 626).
const OVERRUN: usize = 1024;

/// [`Node::refinement`]: the children's priors were not refined yet (a zeroed node).
const NOT_REFINED: u8 = 0;
/// [`Node::refinement`]: a thread claimed the refinement (done or under way), with no value.
const REFINING: u8 = 1;
/// [`Node::refinement`]: refined, and the value estimate is in the node's result word.
const VALUED: u8 = 2;

/// `count` (low 32 bits) and `sum` (an `f32`, high 32 bits) in one word.
fn pack(count: u32, sum: f32) -> u64 {
    u64::from(count) | u64::from(sum.to_bits()) << 32
}

fn unpack(word: u64) -> (u32, f32) {
    (word as u32, f32::from_bits((word >> 32) as u32))
}

/// Adds one to the count and `value` to the sum of a packed word, atomically.
fn add_one(word: &AtomicU64, value: f32) {
    let mut current = word.load(Ordering::Relaxed);
    loop {
        let (count, sum) = unpack(current);
        match word.compare_exchange_weak(current, pack(count + 1, sum + value), Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return,
            Err(actual) => current = actual,
        }
    }
}

/// Adds `value` to an `f32` held as its bits, atomically.
fn add_f32(word: &AtomicU32, value: f32) {
    let mut current = word.load(Ordering::Relaxed);
    loop {
        let sum = f32::from_bits(current) + value;
        match word.compare_exchange_weak(current, sum.to_bits(), Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return,
            Err(actual) => current = actual,
        }
    }
}

/// Where a node stands in its expansion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    /// No children yet (the zeroed value).
    Leaf,
    /// One thread is generating the children.
    Expanding,
    /// The children are published.
    Expanded,
    /// The game is over here; the node holds the exact result.
    Terminal,
}

impl State {
    fn from_bits(bits: u8) -> State {
        match bits {
            1 => State::Expanding,
            2 => State::Expanded,
            3 => State::Terminal,
            _ => State::Leaf,
        }
    }
}

/// One node: the statistics of the move that leads to it, seen by the player who made that move.
/// All zeros is a fresh leaf without statistics.
#[derive(Debug)]
pub(crate) struct Node<M> {
    /// Visits and the sum of their results (each in `[0, 1]`), packed ([`pack`]).
    stats: AtomicU64,
    /// Playout scores: their count and sum, packed; the sum of their squares apart (reports only).
    scores: AtomicU64,
    score_squares: AtomicU32,
    /// Playouts currently running through this node (virtual losses).
    in_flight: AtomicU32,
    /// The prior, as `f32` bits.
    prior: AtomicU32,
    first_child: AtomicU32,
    /// For the player who played the move, as `f32` bits: the exact result in
    /// [`State::Terminal`], else the value estimate once the refinement is [`VALUED`] (a node
    /// with children is never terminal, so the two never meet).
    result: AtomicU32,
    child_count: AtomicU16,
    /// The move from the parent, as [`PackedMove::to_bits`] (meaningless for the root).
    move_bits: AtomicU16,
    /// Among the parent's children, the offset of the child ranked at this slot's place.
    rank: AtomicU16,
    /// A [`State`].
    state: AtomicU8,
    /// [`NOT_REFINED`], [`REFINING`] (the game was or is being asked for refined priors of the
    /// children) or [`VALUED`] (and it gave a value estimate, in `result`).
    refinement: AtomicU8,
    /// Sequence counter of the children's ranking: odd while it is rewritten.
    ranking_version: AtomicU32,
    moves: PhantomData<fn() -> M>,
}

// SAFETY: integers and atomics only (and a marker of no size); all zeros is a fresh leaf.
unsafe impl<M: PackedMove> Zeroable for Node<M> {}

impl<M: PackedMove> Node<M> {
    /// Makes a fresh (zeroed) slot the node of `move_bits` with `prior`, ranked at offset `rank`.
    fn init(&self, move_bits: u16, prior: f32, rank: usize) {
        self.move_bits.store(move_bits, Ordering::Relaxed);
        self.prior.store(prior.to_bits(), Ordering::Relaxed);
        self.rank.store(rank as u16, Ordering::Relaxed);
    }

    pub(crate) fn mv(&self) -> M {
        M::from_bits(self.move_bits.load(Ordering::Relaxed))
    }

    pub(crate) fn visits(&self) -> u32 {
        unpack(self.stats.load(Ordering::Relaxed)).0
    }

    /// Visits and the sum of their results, read together.
    pub(crate) fn stats(&self) -> (u32, f32) {
        unpack(self.stats.load(Ordering::Relaxed))
    }

    /// Mean result for the player who played the move, or `default` before any visit.
    pub(crate) fn mean(&self, default: f32) -> f32 {
        match self.stats() {
            (0, _) => default,
            (visits, sum) => sum / visits as f32,
        }
    }

    /// Counts one visit with result `value`.
    pub(crate) fn add_result(&self, value: f32) {
        add_one(&self.stats, value);
    }

    /// Adds one playout's final score, for the player who played the move.
    pub(crate) fn add_score(&self, score: f32) {
        add_one(&self.scores, score);
        add_f32(&self.score_squares, score * score);
    }

    /// Mean and standard deviation of the scores seen through this node, if any.
    pub(crate) fn score_estimate(&self) -> Option<ScoreEstimate> {
        let (count, sum) = unpack(self.scores.load(Ordering::Relaxed));
        (count > 0).then(|| {
            let count = count as f32;
            let mean = sum / count;
            let squares = f32::from_bits(self.score_squares.load(Ordering::Relaxed));
            ScoreEstimate { mean, stdev: (squares / count - mean * mean).max(0.0).sqrt() }
        })
    }

    pub(crate) fn in_flight(&self) -> u32 {
        self.in_flight.load(Ordering::Relaxed)
    }

    /// A playout starts through this node (a virtual loss until it reports).
    pub(crate) fn enter(&self) {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
    }

    /// A playout through this node reported.
    pub(crate) fn leave(&self) {
        self.in_flight.fetch_sub(1, Ordering::Relaxed);
    }

    pub(crate) fn prior(&self) -> f32 {
        f32::from_bits(self.prior.load(Ordering::Relaxed))
    }

    pub(crate) fn set_prior(&self, prior: f32) {
        self.prior.store(prior.to_bits(), Ordering::Relaxed);
    }

    /// The state, with acquire ordering: after [`State::Expanded`] the children are readable, after
    /// [`State::Terminal`] the result.
    pub(crate) fn state(&self) -> State {
        State::from_bits(self.state.load(Ordering::Acquire))
    }

    /// Claims the expansion of this leaf; true for the one thread that gets it.
    pub(crate) fn begin_expansion(&self) -> bool {
        let (leaf, expanding) = (State::Leaf as u8, State::Expanding as u8);
        self.state.compare_exchange(leaf, expanding, Ordering::Acquire, Ordering::Relaxed).is_ok()
    }

    /// Gives a claimed expansion up (no room for the children): the node is a leaf again.
    pub(crate) fn abandon_expansion(&self) {
        self.state.store(State::Leaf as u8, Ordering::Release);
    }

    /// Ends a claimed expansion with the game over here: `value` for the player who moved here.
    pub(crate) fn set_terminal(&self, value: f32) {
        self.result.store(value.to_bits(), Ordering::Relaxed);
        self.state.store(State::Terminal as u8, Ordering::Release);
    }

    /// The exact result, if the game is over here.
    pub(crate) fn terminal(&self) -> Option<f32> {
        (self.state() == State::Terminal).then(|| f32::from_bits(self.result.load(Ordering::Relaxed)))
    }

    /// Forgets that the game is over here (a root's outcome depends on the position searched
    /// from: repetitions count from the root).
    pub(crate) fn forget_outcome(&self) {
        if self.state() == State::Terminal {
            self.state.store(State::Leaf as u8, Ordering::Relaxed);
        }
    }

    /// Publishes the children written at `first..first + count`.
    fn publish_children(&self, first: usize, count: usize) {
        self.first_child.store(first as u32, Ordering::Relaxed);
        self.child_count.store(count as u16, Ordering::Relaxed);
        self.state.store(State::Expanded as u8, Ordering::Release);
    }

    /// The indices of the children (in slot order), once they are published.
    pub(crate) fn children(&self) -> Option<Range<usize>> {
        (self.state() == State::Expanded).then(|| {
            let first = self.first_child.load(Ordering::Relaxed) as usize;
            first..first + usize::from(self.child_count.load(Ordering::Relaxed))
        })
    }

    /// Claims the refinement of the children's priors; true for the one thread that gets it.
    pub(crate) fn claim_refinement(&self) -> bool {
        self.refinement.load(Ordering::Relaxed) == NOT_REFINED
            && self.refinement.compare_exchange(NOT_REFINED, REFINING, Ordering::Relaxed, Ordering::Relaxed).is_ok()
    }

    /// Records the value estimate of the refinement this thread claimed, for the player who
    /// played the move.
    pub(crate) fn set_value_estimate(&self, value: f32) {
        self.result.store(value.to_bits(), Ordering::Relaxed);
        self.refinement.store(VALUED, Ordering::Release);
    }

    /// The value estimate of the node's refinement, if it gave one.
    pub(crate) fn value_estimate(&self) -> Option<f32> {
        (self.refinement.load(Ordering::Acquire) == VALUED).then(|| f32::from_bits(self.result.load(Ordering::Relaxed)))
    }

    /// A copy of `other`'s statistics, move, prior and state (`Expanding` becomes `Leaf`), with
    /// no playout in flight, ranked at offset `rank`; children are the caller's.
    fn copy_from(&self, other: &Node<M>, rank: usize) {
        let relaxed = Ordering::Relaxed;
        self.stats.store(other.stats.load(relaxed), relaxed);
        self.scores.store(other.scores.load(relaxed), relaxed);
        self.score_squares.store(other.score_squares.load(relaxed), relaxed);
        self.init(other.move_bits.load(relaxed), other.prior(), rank);
        self.result.store(other.result.load(relaxed), relaxed);
        let state = if other.state() == State::Expanding { State::Leaf } else { other.state() };
        self.state.store(state as u8, relaxed);
        self.refinement.store(other.refinement.load(relaxed), relaxed);
    }
}

/// The all-moves-as-first (RAVE) statistics of one node: the playouts through its parent in which
/// its move was played later by the same player, and their results for that player.
#[derive(Debug)]
pub(crate) struct Amaf {
    /// Count and sum, packed ([`pack`]).
    stats: AtomicU64,
    /// The node's move, as [`PackedMove::to_bits`].
    move_bits: AtomicU16,
}

// SAFETY: integers and atomics only; all zeros is "no playout yet".
unsafe impl Zeroable for Amaf {}

impl Amaf {
    pub(crate) fn move_bits(&self) -> u16 {
        self.move_bits.load(Ordering::Relaxed)
    }

    /// Playouts and the sum of their results.
    pub(crate) fn stats(&self) -> (u32, f32) {
        unpack(self.stats.load(Ordering::Relaxed))
    }

    pub(crate) fn add(&self, result: f32) {
        add_one(&self.stats, result);
    }

    fn copy_from(&self, other: &Amaf) {
        self.stats.store(other.stats.load(Ordering::Relaxed), Ordering::Relaxed);
        self.move_bits.store(other.move_bits(), Ordering::Relaxed);
    }
}

/// The arena. Index 0 is the root.
pub(crate) struct Tree<M: PackedMove> {
    nodes: ZeroedSlice<Node<M>>,
    /// `amaf[i]` belongs to `nodes[i]`. Kept apart because each backup updates every child of each
    /// node on its path: 16 bytes a child instead of a whole node keeps that sweep in cache.
    amaf: ZeroedSlice<Amaf>,
    /// Nodes in use: the arena's next free index.
    len: AtomicUsize,
    /// No expansion starts once this many nodes are in use.
    limit: usize,
    /// Set when a node's children did not fit: the tree stops growing.
    full: AtomicBool,
}

impl<M: PackedMove> Tree<M> {
    /// An empty arena for `limit` nodes (and the children of the expansion that reaches it), or
    /// for fewer when the system refuses that much memory.
    fn with_limit(mut limit: usize) -> Self {
        loop {
            let capacity = limit.saturating_add(OVERRUN);
            if let (Some(nodes), Some(amaf)) = (ZeroedSlice::new(capacity), ZeroedSlice::new(capacity)) {
                return Tree { nodes, amaf, len: AtomicUsize::new(0), limit, full: AtomicBool::new(false) };
            }
            if limit == 0 {
                // Not even room for a root: the process cannot go on (as `Vec::push` would abort).
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<[Node<M>; OVERRUN]>());
            }
            limit /= 2;
        }
    }

    /// A tree of one unvisited root, growing to about `limit` nodes.
    pub(crate) fn new(root_move: M, limit: usize) -> Self {
        let tree = Tree::with_limit(limit);
        tree.len.store(1, Ordering::Relaxed);
        tree.nodes[0].init(root_move.to_bits(), 1.0, 0);
        tree.amaf[0].move_bits.store(root_move.to_bits(), Ordering::Relaxed);
        tree
    }

    pub(crate) fn node(&self, index: usize) -> &Node<M> {
        &self.nodes[index]
    }

    pub(crate) fn amaf(&self, index: usize) -> &Amaf {
        &self.amaf[index]
    }

    /// Nodes in use.
    pub(crate) fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    /// Whether a leaf may still be expanded.
    pub(crate) fn can_grow(&self) -> bool {
        self.len() < self.limit && !self.full.load(Ordering::Relaxed)
    }

    /// Reserves `count` contiguous slots; their first index, or `None` past the limit or the
    /// arena's end (then the tree stops growing).
    fn allocate(&self, count: usize, limit: usize) -> Option<usize> {
        let mut len = self.len();
        loop {
            if len >= limit {
                return None;
            }
            if len + count > self.nodes.len() {
                self.full.store(true, Ordering::Relaxed);
                return None;
            }
            match self.len.compare_exchange_weak(len, len + count, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return Some(len),
                Err(actual) => len = actual,
            }
        }
    }

    /// Writes the children of `parent` (whose expansion this thread claimed), one per move with its
    /// prior, ranked in the order given, and publishes them. Gives the expansion up and returns
    /// false when they do not fit.
    ///
    /// # Panics
    /// When there are more than [`MAX_CHILDREN`] children.
    pub(crate) fn add_children(&self, parent: usize, children: impl ExactSizeIterator<Item = (M, f32)>) -> bool {
        let count = children.len();
        assert!(count <= MAX_CHILDREN, "{count} children");
        let Some(first) = self.allocate(count, self.limit) else {
            self.nodes[parent].abandon_expansion();
            return false;
        };
        for (offset, (mv, prior)) in children.enumerate() {
            self.nodes[first + offset].init(mv.to_bits(), prior, offset);
            self.amaf[first + offset].move_bits.store(mv.to_bits(), Ordering::Relaxed);
        }
        self.nodes[parent].publish_children(first, count);
        true
    }

    /// The child of a node whose children start at `first` that is ranked `place`-th (reads the
    /// ranking as it is: during a rewrite, possibly from the old order).
    pub(crate) fn ranked_child(&self, first: usize, place: usize) -> usize {
        first + usize::from(self.nodes[first + place].rank.load(Ordering::Relaxed))
    }

    /// The children of `node` in the order of their ranking, read consistently into `order`
    /// (empty if `node` has none).
    pub(crate) fn children_by_rank(&self, node: usize, order: &mut Vec<usize>) {
        order.clear();
        let Some(children) = self.nodes[node].children() else { return };
        let version = &self.nodes[node].ranking_version;
        loop {
            let before = version.load(Ordering::Acquire);
            if before.is_multiple_of(2) {
                order.clear();
                order.extend((0..children.len()).map(|place| self.ranked_child(children.start, place)));
                fence(Ordering::Acquire);
                if version.load(Ordering::Relaxed) == before {
                    return;
                }
            }
            std::hint::spin_loop();
        }
    }

    /// Ranks the children of `node` as `order` says (a permutation of them, best first). One
    /// thread at a time: the one that claimed the node's refinement.
    pub(crate) fn rank_children(&self, node: usize, order: &[usize]) {
        let Some(children) = self.nodes[node].children() else { return };
        let version = &self.nodes[node].ranking_version;
        let before = version.load(Ordering::Relaxed);
        version.store(before.wrapping_add(1), Ordering::Relaxed);
        fence(Ordering::Release);
        for (place, &child) in order.iter().enumerate() {
            self.nodes[children.start + place].rank.store((child - children.start) as u16, Ordering::Relaxed);
        }
        version.store(before.wrapping_add(2), Ordering::Release);
    }

    /// The child of `node` reached by `mv`, if that child exists.
    pub(crate) fn child_with_move(&self, node: usize, mv: M) -> Option<usize> {
        self.nodes[node].children()?.find(|&child| self.nodes[child].mv() == mv)
    }

    /// A new tree made of the subtree under `node` (which becomes the root), for reuse after
    /// moves, with room to grow to `limit` nodes; `None` when the subtree alone does not fit.
    /// Each node's children are copied in the order of their ranking. Call it while no search
    /// runs on this tree.
    pub(crate) fn extract(&self, node: usize, limit: usize) -> Option<Tree<M>> {
        let copy = Tree::with_limit(limit);
        copy.len.store(1, Ordering::Relaxed);
        copy.nodes[0].copy_from(&self.nodes[node], 0);
        copy.amaf[0].copy_from(&self.amaf[node]);
        let mut order = Vec::new();
        // Breadth-first copy keeps each node's children contiguous.
        let mut queue = VecDeque::from([(node, 0usize)]);
        while let Some((old, new)) = queue.pop_front() {
            self.children_by_rank(old, &mut order);
            if self.nodes[old].children().is_none() {
                continue;
            }
            let first = copy.allocate(order.len(), usize::MAX)?;
            for (place, &child) in order.iter().enumerate() {
                copy.nodes[first + place].copy_from(&self.nodes[child], place);
                copy.amaf[first + place].copy_from(&self.amaf[child]);
                queue.push_back((child, first + place));
            }
            copy.nodes[new].publish_children(first, order.len());
        }
        Some(copy)
    }

    /// The most visited line from `from`, at most `max` moves.
    pub(crate) fn principal_line(&self, from: usize, max: usize) -> Vec<M> {
        let mut line = Vec::new();
        let mut node = from;
        let mut order = Vec::new();
        while line.len() < max {
            let Some(best) = self.most_visited_child(node, &mut order) else { break };
            if self.nodes[best].visits() == 0 {
                break;
            }
            line.push(self.nodes[best].mv());
            node = best;
        }
        line
    }

    /// The visits by which the root's most visited child leads the runner-up.
    pub(crate) fn root_lead(&self) -> u32 {
        let (mut first, mut second) = (0u32, 0u32);
        for child in self.nodes[0].children().unwrap_or_default() {
            let visits = self.nodes[child].visits();
            if visits > first {
                (first, second) = (visits, first);
            } else if visits > second {
                second = visits;
            }
        }
        first - second
    }

    /// The child with the most visits (ties: the better mean, then the later in rank), if `node`
    /// has children; `order` is scratch space.
    fn most_visited_child(&self, node: usize, order: &mut Vec<usize>) -> Option<usize> {
        self.children_by_rank(node, order);
        order.iter().copied().max_by(|&a, &b| {
            let (a, b) = (&self.nodes[a], &self.nodes[b]);
            a.visits().cmp(&b.visits()).then(a.mean(0.0).total_cmp(&b.mean(0.0)))
        })
    }
}
