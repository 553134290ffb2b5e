//! The generic Monte-Carlo tree searcher: PUCT or UCT selection, priors and optional RAVE,
//! virtual-loss threads over one shared tree, tree reuse between moves, and analysis reports.
//!
//! Games plug in through [`Playout`]: the moves to expand, their priors and a fast playout.

mod tree;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use tree::{Amaf, Node, Tree};

use crate::game::{Game, Outcome, PackedMove, Side};
use crate::info::{Info, InfoSink, MoveStat, Report, SearchResult};
use crate::limits::{EngineOptions, Limits};
use crate::moves::MoveBuffer;
use crate::rng::Rng;
use crate::score::{Bound, Score};
use crate::search::{Playout, PlayoutResult, Searcher};
use crate::threads::{shortfall_message, spawn_helpers};
use crate::time::{SearchControl, TimeManager};

/// How children are chosen during descent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Selection {
    /// `Q + c·sqrt(ln N / n)`; unvisited children first.
    Uct {
        /// The exploration constant `c`.
        exploration: f32,
    },
    /// `Q + c·P·sqrt(N) / (1 + n)` with the game's priors `P` (AlphaZero style).
    Puct {
        /// The exploration constant `c`.
        exploration: f32,
        /// Unvisited children are valued at the parent's mean minus this.
        first_play_reduction: f32,
    },
}

/// Settings of the MCTS searcher.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// The selection rule.
    pub selection: Selection,
    /// RAVE equivalence parameter `k` (AMAF weight `sqrt(k / (3n + k))`), or `None` for no RAVE.
    pub rave_equivalence: Option<f32>,
    /// Visits a leaf needs before it is expanded (1 = expand at the first visit).
    pub expand_after: u32,
    /// Seed of the playout generators (thread `i` uses `seed + i`).
    pub seed: u64,
    /// Keep the subtree of the position reached when the next search starts from a later position.
    pub reuse_tree: bool,
    /// Estimated moves still to play when the clock does not say.
    pub moves_left: u32,
    /// Progressive widening: children are kept in order of prior, and a node with `n` visits
    /// selects only among its first `2 + ceil((n / scale) ^ exponent)`; `None` opens every child
    /// at once. It spends a small search on the moves the priors rank high.
    pub widening: Option<Widening>,
    /// End a search early once its choice is settled: the most visited root move leads the
    /// runner-up by more than this share of the playouts its limit still allows (the rest of a
    /// playout budget, or of a clock's budget at the rate so far). At 1 no playout left could change
    /// the move; below 1 the runner-up is assumed to win at most that share of them, which saves
    /// more but can change the move when a runner-up is gaining fast. The time saved goes to
    /// later moves. `None` uses every limit in full; time that would be lost unused (a fixed time
    /// per move, a byo-yomi period) is always used in full.
    pub stop_when_settled: Option<f32>,
    /// Visits at which a node asks the game for refined priors of its children
    /// ([`Playout::refined_priors`], e.g. from a neural network); the root asks when it is
    /// expanded. `None` never asks.
    pub refine_after: Option<u32>,
}

/// The progressive-widening schedule of [`MctsConfig::widening`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Widening {
    /// Visits per unit of width growth.
    pub scale: f32,
    /// Growth exponent (0.5: the width grows as the square root of the visits).
    pub exponent: f32,
}

impl Widening {
    /// Children a node with `visits` visits may select among.
    #[must_use]
    pub fn width(&self, visits: u32) -> usize {
        2 + (visits as f32 / self.scale).powf(self.exponent).ceil() as usize
    }
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            selection: Selection::Uct { exploration: 1.0 },
            rave_equivalence: None,
            expand_after: 1,
            seed: 0x0007_E55E_4A00,
            reuse_tree: true,
            moves_left: 30,
            widening: None,
            stop_when_settled: Some(1.0),
            refine_after: None,
        }
    }
}

/// Bytes one tree node takes with its RAVE statistics (a test checks the bound), for sizing the tree
/// from the `Hash` option.
const NODE_BYTES: usize = 64;
/// Longest principal line reported.
const MAX_REPORTED_LINE: usize = 24;

/// The MCTS searcher.
pub struct Mcts<G: Game> {
    config: MctsConfig,
    options: EngineOptions,
    /// The tree of the last search and the position at its root, kept for reuse.
    kept: Option<(G, Tree<G::Move>)>,
    /// Whether the user was told that fewer threads started than asked (told once per setting).
    thread_shortfall_reported: bool,
    /// The tree's memory bound: `hash_mb` clamped to what the system has available.
    memory_mb: usize,
}

impl<G: Playout> Mcts<G> {
    /// A searcher with `config` and engine `options`.
    #[must_use]
    pub fn new(config: MctsConfig, options: &EngineOptions) -> Self {
        Mcts {
            config,
            options: options.clone(),
            kept: None,
            thread_shortfall_reported: false,
            memory_mb: crate::memory::clamp_mb(options.hash_mb),
        }
    }

    /// The settings in use.
    #[must_use]
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    fn max_nodes(&self) -> usize {
        (self.memory_mb * 1024 * 1024 / NODE_BYTES).max(1024)
    }

    /// The tree to start from: the kept subtree if `root` follows the kept position, else a fresh one.
    fn starting_tree(&mut self, root: &G) -> Tree<G::Move> {
        let placeholder = G::Move::from_bits(0);
        let Some((old_root, old_tree)) = self.kept.take() else { return Tree::new(placeholder) };
        if !self.config.reuse_tree || root.ply() < old_root.ply() || root.rules() != old_root.rules() {
            return Tree::new(placeholder);
        }
        let mut earlier = root.clone();
        while earlier.ply() > old_root.ply() {
            earlier.undo();
        }
        if earlier.hash() != old_root.hash() || earlier.side_to_move() != old_root.side_to_move() {
            return Tree::new(placeholder);
        }
        let mut node = 0;
        for index in old_root.ply()..root.ply() {
            let Some(mv) = root.move_played(index) else { return Tree::new(placeholder) };
            match old_tree.child_with_move(node, mv) {
                Some(child) => node = child,
                None => return Tree::new(placeholder),
            }
        }
        let mut tree = old_tree.extract(node);
        tree.nodes[0].terminal = None;
        tree
    }
}

/// Shared state of one search.
struct Run<'a, G: Game> {
    tree: Mutex<Tree<G::Move>>,
    control: &'a SearchControl,
    config: &'a MctsConfig,
    root: &'a G,
    root_side: Side,
    search_moves: &'a [G::Move],
    playouts: AtomicU64,
    abort: AtomicBool,
    max_nodes: usize,
    /// Set when the system refused memory for more nodes: the tree stops growing.
    memory_refused: AtomicBool,
}

/// Per-thread scratch space, allocated once per search.
struct Scratch<G: Game> {
    position: G,
    rng: Rng,
    path: Vec<usize>,
    played: Vec<(Side, G::Move)>,
    moves: G::Moves,
    priors: Vec<f32>,
    /// A refined node's children in order of their new priors, with their AMAF statistics.
    order: Vec<usize>,
    reordered: Vec<(Node<G::Move>, Amaf)>,
    /// AMAF marks: `marks[side << 16 | bits] == stamp` when that side played that move this playout.
    marks: Vec<u32>,
    stamp: u32,
}

impl<G: Playout> Scratch<G> {
    fn new(root: &G, seed: u64) -> Self {
        Scratch {
            position: root.clone(),
            rng: Rng::new(seed),
            path: Vec::with_capacity(256),
            played: Vec::with_capacity(1024),
            moves: G::Moves::default(),
            priors: Vec::with_capacity(1024),
            order: Vec::with_capacity(1024),
            reordered: Vec::with_capacity(1024),
            marks: vec![0; 2 << 16],
            stamp: 0,
        }
    }
}

impl<G: Playout> Run<'_, G> {
    fn aborted(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }

    /// One selection–expansion–playout–backup cycle.
    fn iterate(&self, scratch: &mut Scratch<G>) {
        scratch.path.clear();
        scratch.played.clear();
        let root_ply = self.root.ply();
        let leaf_value = {
            let mut tree = self.tree.lock();
            let mut node = 0;
            scratch.path.push(0);
            tree.nodes[0].in_flight += 1;
            loop {
                if let Some(value) = tree.nodes[node].terminal {
                    break Some(value);
                }
                if !tree.nodes[node].expanded {
                    let ready = node == 0 || tree.nodes[node].visits >= self.config.expand_after;
                    if !ready || tree.nodes.len() >= self.max_nodes || self.memory_refused.load(Ordering::Relaxed) {
                        break None;
                    }
                    if let Some(value) = self.expand(&mut tree, node, scratch, root_ply) {
                        break Some(value);
                    }
                    if !tree.nodes[node].expanded {
                        break None; // no memory for the children: a playout from here
                    }
                }
                if self.config.refine_after.is_some_and(|after| node == 0 || tree.nodes[node].visits >= after)
                    && !tree.nodes[node].refined
                {
                    self.refine(&mut tree, node, scratch);
                }
                let child = self.select(&tree, node);
                tree.nodes[child].in_flight += 1;
                let mv = tree.nodes[child].mv;
                scratch.played.push((scratch.position.side_to_move(), mv));
                scratch.position.play(mv);
                scratch.path.push(child);
                node = child;
            }
        };
        // The result for the player who made the last tree move (the leaf's "mover").
        let result = match leaf_value {
            Some(value) => PlayoutResult::from(value),
            None => {
                let playout = scratch.position.playout(&mut scratch.rng, &mut scratch.played);
                PlayoutResult { value: 1.0 - playout.value, score: playout.score.map(|score| -score) }
            }
        };
        scratch.position.undo_to(root_ply);
        self.backup(scratch, result);
        self.playouts.fetch_add(1, Ordering::Relaxed);
    }

    /// Expands `node` (whose position is `scratch.position`); returns its exact value if the game is over there.
    fn expand(&self, tree: &mut Tree<G::Move>, node: usize, scratch: &mut Scratch<G>, root_ply: usize) -> Option<f32> {
        let position = &scratch.position;
        let mover = position.side_to_move().opponent();
        let over = position.rule_outcome(Some(root_ply));
        if let Some(outcome) = over {
            let value = outcome.value_for(mover);
            tree.nodes[node].terminal = Some(value);
            return Some(value);
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
            tree.nodes[node].terminal = Some(value);
            return Some(value);
        }
        scratch.priors.clear();
        scratch.priors.resize(scratch.moves.len(), 0.0);
        position.priors(&scratch.moves, &mut scratch.priors);
        let total: f32 = scratch.priors.iter().map(|prior| prior.max(0.0)).sum();
        let uniform = 1.0 / scratch.moves.len() as f32;
        if tree.nodes.try_reserve(scratch.moves.len()).is_err() || tree.amaf.try_reserve(scratch.moves.len()).is_err() {
            // The system refuses more memory: the tree stays as it is, this leaf gets a playout.
            self.memory_refused.store(true, Ordering::Relaxed);
            return None;
        }
        let first = tree.nodes.len() as u32;
        for (&mv, &prior) in scratch.moves.iter().zip(&scratch.priors) {
            let prior = if total > 0.0 { prior.max(0.0) / total } else { uniform };
            tree.nodes.push(Node::new(mv, prior));
        }
        if self.config.widening.is_some() {
            // Highest prior first: widening opens the children in this order.
            tree.nodes[first as usize..].sort_by(|a, b| b.prior.total_cmp(&a.prior));
        }
        let Tree { nodes, amaf } = tree;
        amaf.extend(nodes[first as usize..].iter().map(|child| Amaf::new(child.mv)));
        let parent = &mut tree.nodes[node];
        parent.first_child = first;
        parent.child_count = scratch.moves.len() as u32;
        parent.expanded = true;
        None
    }

    /// Asks the game for refined priors of the children of the expanded `node` (whose position is
    /// `scratch.position`) and, under widening, puts the children back in order of prior. Waits
    /// while another thread's playout runs through a child, as reordering would move it.
    fn refine(&self, tree: &mut Tree<G::Move>, node: usize, scratch: &mut Scratch<G>) {
        let children = tree.nodes[node].children();
        if tree.nodes[children.clone()].iter().any(|child| child.in_flight > 0) {
            return;
        }
        tree.nodes[node].refined = true;
        scratch.moves.clear();
        scratch.priors.clear();
        for child in &tree.nodes[children.clone()] {
            scratch.moves.push(child.mv);
            scratch.priors.push(child.prior);
        }
        if !scratch.position.refined_priors(&scratch.moves, &mut scratch.priors) {
            return;
        }
        let total: f32 = scratch.priors.iter().map(|prior| prior.max(0.0)).sum();
        if total <= 0.0 {
            return;
        }
        for (child, prior) in tree.nodes[children.clone()].iter_mut().zip(&scratch.priors) {
            child.prior = prior.max(0.0) / total;
        }
        if self.config.widening.is_some() {
            // Highest prior first, as at expansion; each child's own children stay where they are.
            scratch.order.clear();
            scratch.order.extend(children.clone());
            scratch.order.sort_by(|&a, &b| tree.nodes[b].prior.total_cmp(&tree.nodes[a].prior));
            scratch.reordered.clear();
            scratch.reordered.extend(scratch.order.iter().map(|&child| (tree.nodes[child].clone(), tree.amaf[child])));
            for (index, (child, amaf)) in children.zip(scratch.reordered.drain(..)) {
                tree.nodes[index] = child;
                tree.amaf[index] = amaf;
            }
        }
    }

    /// The child of `node` to descend into.
    fn select(&self, tree: &Tree<G::Move>, node: usize) -> usize {
        let parent = &tree.nodes[node];
        let parent_visits = (parent.visits + parent.in_flight).max(1) as f32;
        // The parent's mean is for the player who moved into it; its children are the other player's.
        let parent_mean = 1.0 - parent.mean(0.5);
        let mut best = parent.first_child as usize;
        let mut best_score = f32::NEG_INFINITY;
        let mut children = parent.children();
        if let Some(widening) = self.config.widening {
            let width = widening.width(parent.visits + parent.in_flight).min(children.len());
            children = children.start..children.start + width;
        }
        for child in children {
            let node = &tree.nodes[child];
            let visits = node.visits + node.in_flight;
            // Virtual loss: running playouts count as losses until they report.
            let mean = if visits == 0 { None } else { Some(node.value_sum / visits as f32) };
            let mean = mean.map(|mean| self.blend_rave(&tree.amaf[child], mean, visits));
            let score = match self.config.selection {
                Selection::Uct { exploration } => match mean {
                    None => f32::INFINITY,
                    Some(mean) => mean + exploration * (parent_visits.ln() / visits as f32).sqrt(),
                },
                Selection::Puct { exploration, first_play_reduction } => {
                    let mean = mean
                        .unwrap_or_else(|| self.blend_rave(&tree.amaf[child], parent_mean - first_play_reduction, 0));
                    mean + exploration * node.prior * parent_visits.sqrt() / (1.0 + visits as f32)
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
        match self.config.rave_equivalence {
            Some(k) if amaf.visits > 0 => {
                let beta = (k / (3.0 * visits as f32 + k)).sqrt();
                (1.0 - beta) * mean + beta * amaf.sum / amaf.visits as f32
            }
            _ => mean,
        }
    }

    /// Adds the result along the path, removing virtual losses, and updates AMAF statistics.
    fn backup(&self, scratch: &mut Scratch<G>, leaf: PlayoutResult) {
        let use_rave = self.config.rave_equivalence.is_some();
        let mut tree = self.tree.lock();
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
            let index = scratch.path[level];
            let node = &mut tree.nodes[index];
            node.in_flight = node.in_flight.saturating_sub(1);
            node.visits += 1;
            node.value_sum += value;
            if let Some(score) = score {
                node.add_score(score);
            }
            if use_rave && tree.nodes[index].expanded {
                // The player to move at this node is the one who did not move into it.
                let mover_side = if level == 0 { self.root_side } else { scratch.played[level - 1].0.opponent() };
                let result_for_mover = 1.0 - value;
                let marks = &scratch.marks[mover_side.index() << 16..];
                let children = tree.nodes[index].children();
                for child in &mut tree.amaf[children] {
                    if marks[usize::from(child.move_bits)] == scratch.stamp {
                        child.visits += 1;
                        child.sum += result_for_mover;
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

    /// Root statistics, most visited first.
    fn root_stats(&self) -> Vec<MoveStat<G::Move>> {
        let tree = self.tree.lock();
        let root = &tree.nodes[0];
        if !root.expanded {
            return Vec::new();
        }
        let mut stats: Vec<MoveStat<G::Move>> = root
            .children()
            .filter(|&child| tree.nodes[child].visits > 0)
            .map(|child| {
                let node = &tree.nodes[child];
                let mean = node.mean(0.5);
                let spread = (mean * (1.0 - mean) / node.visits as f32).sqrt();
                let mut pv = vec![node.mv];
                pv.extend(tree.principal_line(child, MAX_REPORTED_LINE - 1));
                MoveStat {
                    mv: node.mv,
                    visits: node.visits,
                    win_rate: mean,
                    prior: node.prior,
                    lower_bound: (mean - 1.96 * spread).max(0.0),
                    pv,
                    score: node.score_estimate(),
                }
            })
            .collect();
        stats.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.win_rate.total_cmp(&a.win_rate)));
        stats
    }
}

impl<G: Playout> Searcher<G> for Mcts<G> {
    fn search(
        &mut self,
        root: &G,
        limits: &Limits<G::Move>,
        control: &SearchControl,
        sink: &mut dyn InfoSink<G::Move>,
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        let time = TimeManager::new(limits, self.options.move_overhead, self.config.moves_left);
        let tree = self.starting_tree(root);
        let run = Run {
            tree: Mutex::new(tree),
            control,
            config: &self.config,
            root,
            root_side: root.side_to_move(),
            search_moves: &limits.search_moves,
            playouts: AtomicU64::new(0),
            abort: AtomicBool::new(false),
            max_nodes: self.max_nodes(),
            memory_refused: AtomicBool::new(false),
        };
        let threads = self.options.threads.max(1);
        let seed = self.config.seed;
        let started = std::thread::scope(|scope| {
            let run = &run;
            let started = spawn_helpers(scope, 1..threads, move |thread| {
                let mut scratch = Scratch::new(root, seed + thread as u64);
                while !run.aborted() {
                    run.iterate(&mut scratch);
                }
            });
            if started + 1 < threads && !self.thread_shortfall_reported {
                sink.report(Report::Text(shortfall_message(started + 1, threads)));
            }
            let mut scratch = Scratch::new(root, seed);
            let mut last_report = Instant::now();
            loop {
                run.iterate(&mut scratch);
                let playouts = run.playouts.load(Ordering::Relaxed);
                if playouts.is_multiple_of(16) || limits.nodes.is_some() {
                    if should_stop(run, limits, &time, playouts) {
                        break;
                    }
                    if let Some(interval) = limits.report_interval {
                        if last_report.elapsed() >= interval {
                            last_report = Instant::now();
                            sink.report(Report::Analysis { moves: run.root_stats(), playouts, time: start.elapsed() });
                        }
                    }
                }
            }
            run.abort.store(true, Ordering::Relaxed);
            started
        });
        self.thread_shortfall_reported |= started + 1 < threads;
        let stats = run.root_stats();
        let playouts = run.playouts.load(Ordering::Relaxed);
        let tree = run.tree.into_inner();
        let result = match stats.first() {
            Some(best) => SearchResult {
                best: Some(best.mv),
                ponder: best.pv.get(1).copied(),
                score: Score::WinRate(best.win_rate),
                depth: best.pv.len() as u32,
                nodes: playouts,
                time: start.elapsed(),
                pv: best.pv.clone(),
            },
            None => fallback_result(root, playouts, start.elapsed()),
        };
        if let Some(best) = stats.first() {
            if limits.report_interval.is_some() {
                sink.report(Report::Analysis { moves: stats.clone(), playouts, time: start.elapsed() });
            }
            sink.report(Report::Info(Info {
                depth: result.depth,
                seldepth: result.depth,
                multipv: 1,
                score: Score::WinRate(best.win_rate),
                bound: Bound::Exact,
                nodes: playouts,
                time: start.elapsed(),
                hashfull: None,
                pv: best.pv.clone(),
            }));
        }
        self.kept = Some((root.clone(), tree));
        result
    }

    fn clear(&mut self) {
        self.kept = None;
    }

    fn set_options(&mut self, options: &EngineOptions) {
        self.thread_shortfall_reported &= options.threads == self.options.threads;
        if options.hash_mb != self.options.hash_mb {
            self.memory_mb = crate::memory::clamp_mb(options.hash_mb);
        }
        self.options = options.clone();
    }

    fn memory_mb(&self) -> Option<usize> {
        Some(self.memory_mb)
    }
}

/// Whether the main thread should end the search.
fn should_stop<G: Playout>(run: &Run<'_, G>, limits: &Limits<G::Move>, time: &TimeManager, playouts: u64) -> bool {
    if run.control.is_stopped() || time.hard_expired(run.control) {
        return true;
    }
    if limits.nodes.is_some_and(|limit| playouts >= limit) {
        return true;
    }
    let tree = run.tree.lock();
    let root = &tree.nodes[0];
    if root.terminal.is_some() || (root.expanded && root.child_count == 0) {
        return true;
    }
    // The move is settled once the runner-up trails by more than the configured share of the
    // playouts left (at 1, by more than all of them): the rest of the budget is saved.
    if let Some(share) = run.config.stop_when_settled.filter(|_| root.expanded && playouts.is_multiple_of(16)) {
        if let Some(left) = playouts_left(limits, time, run.control, playouts) {
            if f64::from(tree.root_lead()) > f64::from(share) * left as f64 {
                return true;
            }
        }
    }
    if !time.soft_expired(run.control, 1.0) {
        // A forced move (one child) needs no thought once the clock runs.
        let timed = !limits.is_untimed() && !run.control.is_pondering();
        return timed && root.expanded && root.child_count == 1 && playouts >= 64;
    }
    true
}

/// Playouts the search may still run: up to the playout limit, and under a clock that keeps unused
/// time, at the rate so far until the soft budget ends. `None` when nothing bounds the search but
/// a stop (analysis, pondering) or the move's time would be lost unused (a fixed time per move, a
/// byo-yomi period): it is there to be used.
fn playouts_left<M>(limits: &Limits<M>, time: &TimeManager, control: &SearchControl, playouts: u64) -> Option<u64> {
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
fn fallback_result<G: Playout>(root: &G, playouts: u64, time: Duration) -> SearchResult<G::Move> {
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

#[cfg(test)]
mod tests;
