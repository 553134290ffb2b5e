//! The search tree of the MCTS searcher: nodes in one arena, children stored contiguously.

use crate::game::PackedMove;
use crate::info::ScoreEstimate;

/// One node: the statistics of the move that leads to it, seen by the player who made that move.
#[derive(Clone, Debug)]
pub(crate) struct Node<M> {
    /// The move from the parent (meaningless for the root).
    pub mv: M,
    pub visits: u32,
    /// Sum of results for the player who played `mv`, each in `[0, 1]`.
    pub value_sum: f32,
    pub prior: f32,
    /// Playouts currently running through this node (virtual losses).
    pub in_flight: u32,
    pub first_child: u32,
    pub child_count: u32,
    pub expanded: bool,
    /// Whether the game was asked for refined priors of the children ([`crate::Playout::refined_priors`]).
    pub refined: bool,
    /// Exact result for the player who played `mv`, when the game is over at this node.
    pub terminal: Option<f32>,
    /// Playout scores for the player who played `mv`: count, sum and sum of squares.
    pub score_count: u32,
    pub score_sum: f32,
    pub score_squares: f32,
}

impl<M: PackedMove> Node<M> {
    pub(crate) fn new(mv: M, prior: f32) -> Self {
        Node {
            mv,
            visits: 0,
            value_sum: 0.0,
            prior,
            in_flight: 0,
            first_child: 0,
            child_count: 0,
            expanded: false,
            refined: false,
            terminal: None,
            score_count: 0,
            score_sum: 0.0,
            score_squares: 0.0,
        }
    }

    /// Mean result for the player who played `mv`, or `default` before any visit.
    pub(crate) fn mean(&self, default: f32) -> f32 {
        if self.visits == 0 {
            default
        } else {
            self.value_sum / self.visits as f32
        }
    }

    /// Adds one playout's final score, for the player who played `mv`.
    pub(crate) fn add_score(&mut self, score: f32) {
        self.score_count += 1;
        self.score_sum += score;
        self.score_squares += score * score;
    }

    /// Mean and standard deviation of the scores seen through this node, if any.
    pub(crate) fn score_estimate(&self) -> Option<ScoreEstimate> {
        (self.score_count > 0).then(|| {
            let count = self.score_count as f32;
            let mean = self.score_sum / count;
            ScoreEstimate { mean, stdev: (self.score_squares / count - mean * mean).max(0.0).sqrt() }
        })
    }

    pub(crate) fn children(&self) -> std::ops::Range<usize> {
        self.first_child as usize..(self.first_child + self.child_count) as usize
    }
}

/// The all-moves-as-first (RAVE) statistics of one node: the playouts through its parent in which
/// its move was played later by the same player, and their results for that player.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Amaf {
    /// The node's move, as [`PackedMove::to_bits`].
    pub move_bits: u16,
    pub visits: u32,
    pub sum: f32,
}

impl Amaf {
    pub(crate) fn new<M: PackedMove>(mv: M) -> Self {
        Amaf { move_bits: mv.to_bits(), visits: 0, sum: 0.0 }
    }
}

/// The arena. Index 0 is the root.
#[derive(Clone, Debug)]
pub(crate) struct Tree<M> {
    pub nodes: Vec<Node<M>>,
    /// `amaf[i]` belongs to `nodes[i]`. Kept apart because each backup updates every child of each
    /// node on its path: 12 bytes a child instead of a whole node keeps that sweep in cache.
    pub amaf: Vec<Amaf>,
}

impl<M: PackedMove> Tree<M> {
    pub(crate) fn new(root_move: M) -> Self {
        Tree { nodes: vec![Node::new(root_move, 1.0)], amaf: vec![Amaf::new(root_move)] }
    }

    /// The child of `node` reached by `mv`, if that child exists.
    pub(crate) fn child_with_move(&self, node: usize, mv: M) -> Option<usize> {
        let node = &self.nodes[node];
        if !node.expanded {
            return None;
        }
        node.children().find(|&child| self.nodes[child].mv == mv)
    }

    /// A new tree made of the subtree under `node` (which becomes the root), for reuse after moves.
    pub(crate) fn extract(&self, node: usize) -> Tree<M> {
        let mut nodes = Vec::with_capacity(self.nodes.len() / 2);
        let mut amaf = Vec::with_capacity(self.nodes.len() / 2);
        let mut root = self.nodes[node].clone();
        root.in_flight = 0;
        nodes.push(root);
        amaf.push(self.amaf[node]);
        // Breadth-first copy keeps each node's children contiguous.
        let mut queue = std::collections::VecDeque::from([(node, 0usize)]);
        while let Some((old, new)) = queue.pop_front() {
            let old_node = &self.nodes[old];
            if !old_node.expanded {
                continue;
            }
            nodes[new].first_child = nodes.len() as u32;
            for child in old_node.children() {
                let mut copy = self.nodes[child].clone();
                copy.in_flight = 0;
                queue.push_back((child, nodes.len()));
                nodes.push(copy);
                amaf.push(self.amaf[child]);
            }
        }
        Tree { nodes, amaf }
    }

    /// The most visited line from the root, at most `max` moves.
    pub(crate) fn principal_line(&self, from: usize, max: usize) -> Vec<M> {
        let mut line = Vec::new();
        let mut node = from;
        while line.len() < max {
            let Some(best) = self.most_visited_child(node) else { break };
            if self.nodes[best].visits == 0 {
                break;
            }
            line.push(self.nodes[best].mv);
            node = best;
        }
        line
    }

    /// The visits by which the root's most visited child leads the runner-up.
    pub(crate) fn root_lead(&self) -> u32 {
        let (mut first, mut second) = (0u32, 0u32);
        for child in self.nodes[0].children() {
            let visits = self.nodes[child].visits;
            if visits > first {
                (first, second) = (visits, first);
            } else if visits > second {
                second = visits;
            }
        }
        first - second
    }

    /// The child with the most visits (ties: the better mean), if `node` has children.
    pub(crate) fn most_visited_child(&self, node: usize) -> Option<usize> {
        let node = &self.nodes[node];
        if !node.expanded {
            return None;
        }
        node.children().max_by(|&a, &b| {
            let (a, b) = (&self.nodes[a], &self.nodes[b]);
            a.visits.cmp(&b.visits).then(a.mean(0.0).total_cmp(&b.mean(0.0)))
        })
    }
}
