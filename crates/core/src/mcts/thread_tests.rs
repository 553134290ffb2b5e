//! Tests of the MCTS searcher's concurrent paths: the lock-free tree under many threads (no lost
//! update, one expansion and one refinement per node, consistent rankings), and whole searches
//! on several threads (visit totals, tree reuse, play).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::tree::{State, Tree};
use super::{Mcts, MctsConfig, Selection, Widening};
use crate::game::{Game, Outcome, Side};
use crate::info::Silent;
use crate::limits::{EngineOptions, Limits};
use crate::search::{Playout, PlayoutResult, Refined, Searcher};
use crate::time::SearchControl;
use crate::toys::{ConnectFour, TicTacToe};
use crate::Rng;

const THREADS: usize = 4;

/// `count`, or `under_miri` when Miri interprets the tests (about a thousand times slower).
const fn scaled(count: usize, under_miri: usize) -> usize {
    if cfg!(miri) {
        under_miri
    } else {
        count
    }
}

/// Runs `work(thread)` on [`THREADS`] threads at once.
fn on_threads(work: impl Fn(usize) + Sync) {
    std::thread::scope(|scope| {
        for thread in 0..THREADS {
            let work = &work;
            scope.spawn(move || work(thread));
        }
    });
}

#[test]
fn no_update_is_lost_when_threads_count_on_the_same_node() {
    let tree = Tree::new(0u8, 1024);
    // Enough that the threads overlap however the system schedules them.
    let per_thread = scaled(500_000, 100);
    on_threads(|_| {
        for _ in 0..per_thread {
            tree.node(0).enter();
            tree.node(0).add_result(1.0);
            tree.node(0).add_score(2.0);
            tree.amaf(0).add(0.5);
            tree.node(0).leave();
        }
    });
    let total = (THREADS * per_thread) as u32;
    // Sums of 1.0 and 0.5 are exact in f32 far beyond these totals.
    assert_eq!(tree.node(0).stats(), (total, total as f32));
    assert_eq!(tree.amaf(0).stats(), (total, total as f32 / 2.0));
    assert_eq!(tree.node(0).in_flight(), 0);
    let scores = tree.node(0).score_estimate().expect("scores were added");
    assert_eq!((scores.mean, scores.stdev), (2.0, 0.0));
}

#[test]
fn one_thread_expands_a_leaf_and_all_see_the_same_children() {
    for _ in 0..scaled(50, 2) {
        let tree = Tree::new(0u8, 1024);
        let winners = AtomicUsize::new(0);
        on_threads(|thread| {
            if tree.node(0).begin_expansion() {
                winners.fetch_add(1, Ordering::Relaxed);
                assert!(tree.add_children(0, (0..7u8).map(|column| (column, 1.0 / 7.0))));
            }
            let start = Instant::now();
            while tree.node(0).state() != State::Expanded {
                assert!(start.elapsed() < Duration::from_secs(10), "the children were never published");
                std::hint::spin_loop();
            }
            let children = tree.node(0).children().expect("published");
            let moves: Vec<u8> = children.map(|child| tree.node(child).mv()).collect();
            assert_eq!(moves, (0..7).collect::<Vec<u8>>(), "thread {thread}");
        });
        assert_eq!(winners.load(Ordering::Relaxed), 1);
        assert_eq!(tree.len(), 8);
    }
}

#[test]
fn rankings_read_during_a_rewrite_are_the_old_or_the_new_one() {
    let tree = Tree::new(0u8, 1024);
    assert!(tree.node(0).begin_expansion());
    let count = scaled(40, 4);
    assert!(tree.add_children(0, (0..count as u8).map(|mv| (mv, 1.0 / count as f32))));
    let forward: Vec<usize> = (1..=count).collect();
    let backward: Vec<usize> = forward.iter().rev().copied().collect();
    let (readers_done, mixed) = (AtomicUsize::new(0), AtomicUsize::new(0));
    on_threads(|thread| {
        if thread == 0 {
            let mut round = 0;
            while readers_done.load(Ordering::Relaxed) < THREADS - 1 {
                tree.rank_children(0, if round % 2 == 0 { &backward } else { &forward });
                round += 1;
                // A window for the readers: a writer rewriting without a pause could starve them
                // (in the search each ranking is rewritten once).
                std::thread::yield_now();
            }
        } else {
            let mut order = Vec::new();
            for _ in 0..scaled(100_000, 5) {
                tree.children_by_rank(0, &mut order);
                if order != forward && order != backward {
                    mixed.fetch_add(1, Ordering::Relaxed);
                }
            }
            readers_done.fetch_add(1, Ordering::Relaxed);
        }
    });
    assert_eq!(mixed.load(Ordering::Relaxed), 0, "rankings read half rewritten");
}

/// Connect four whose refined priors favour column 3, counting its refinements itself (the toy's
/// own count is shared with another test).
#[derive(Clone, Debug)]
struct Refining {
    game: ConnectFour,
    refinements: Arc<AtomicU64>,
}

impl Game for Refining {
    type Move = u8;
    type Rules = ();
    type Moves = <ConnectFour as Game>::Moves;

    fn rules(&self) -> &() {
        self.game.rules()
    }
    fn side_to_move(&self) -> Side {
        self.game.side_to_move()
    }
    fn generate_legal_moves(&self, moves: &mut Self::Moves) {
        self.game.generate_legal_moves(moves);
    }
    fn is_legal(&self, mv: u8) -> bool {
        self.game.is_legal(mv)
    }
    fn play(&mut self, mv: u8) {
        self.game.play(mv);
    }
    fn undo(&mut self) {
        self.game.undo();
    }
    fn ply(&self) -> usize {
        self.game.ply()
    }
    fn move_played(&self, index: usize) -> Option<u8> {
        self.game.move_played(index)
    }
    fn hash(&self) -> u64 {
        self.game.hash()
    }
    fn hash_from_scratch(&self) -> u64 {
        self.game.hash_from_scratch()
    }
    fn rule_outcome(&self, search_root: Option<usize>) -> Option<Outcome> {
        self.game.rule_outcome(search_root)
    }
    fn no_move_outcome(&self) -> Outcome {
        self.game.no_move_outcome()
    }
}

impl Playout for Refining {
    fn refined_priors(&self, moves: &[u8], priors: &mut [f32], _with_value: bool) -> Option<Refined> {
        self.refinements.fetch_add(1, Ordering::Relaxed);
        for (&mv, prior) in moves.iter().zip(priors.iter_mut()) {
            *prior = if mv == 3 { 30.0 } else { 1.0 };
        }
        // A value too, so that selection reads estimates while other threads write them.
        Some(Refined { value: Some(if self.game.ply().is_multiple_of(2) { 0.4 } else { 0.6 }) })
    }

    fn playout(&self, rng: &mut Rng, played: &mut Vec<(Side, u8)>) -> PlayoutResult {
        self.game.playout(rng, played)
    }
}

/// PUCT with RAVE, widening, and refined priors and values at 8 visits: every concurrent path
/// at once.
fn busy_config() -> MctsConfig {
    MctsConfig {
        selection: Selection::Puct { exploration: 1.5, first_play_reduction: 0.1 },
        rave_equivalence: Some(200.0),
        widening: Some(Widening { scale: 2.0, exponent: 0.5 }),
        refine_after: Some(8),
        value_weight: 10.0,
        stop_when_settled: None,
        ..MctsConfig::default()
    }
}

fn threads(count: usize) -> EngineOptions {
    EngineOptions { threads: count, ..EngineOptions::default() }
}

/// Checks every node of `tree`: no playout left in flight; visits at least the children's;
/// an expanded node other than the root had `expand_after` visits as a leaf first; AMAF counts
/// at most the parent's visits; rankings are permutations in order of prior (widening ranks so);
/// returns the nodes whose children were refined.
fn check_tree(tree: &Tree<u8>, expand_after: u32) -> u64 {
    let mut refined = 0;
    let mut order = Vec::new();
    for index in 0..tree.len() {
        let node = tree.node(index);
        assert_eq!(node.in_flight(), 0, "node {index}");
        let Some(children) = node.children() else { continue };
        let child_visits: u32 = children.clone().map(|child| tree.node(child).visits()).sum();
        let own = node.visits() - child_visits.min(node.visits());
        assert!(node.visits() >= child_visits, "node {index}: {} visits, children {child_visits}", node.visits());
        assert!(index == 0 || own >= expand_after, "node {index} expanded after {own} visits");
        for child in children.clone() {
            assert!(tree.amaf(child).stats().0 <= node.visits(), "AMAF of node {child}");
        }
        tree.children_by_rank(index, &mut order);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, children.collect::<Vec<_>>(), "node {index}: the ranking is a permutation");
        assert!(order.windows(2).all(|pair| tree.node(pair[0]).prior() >= tree.node(pair[1]).prior()));
        // Claiming the refinement fails exactly for the nodes already refined.
        if !node.claim_refinement() {
            refined += 1;
        }
    }
    refined
}

#[test]
#[cfg_attr(miri, ignore = "whole searches: hours under Miri")]
fn threads_share_one_tree_without_losing_a_visit_and_refine_each_node_once() {
    let refinements = Arc::new(AtomicU64::new(0));
    let game = Refining { game: ConnectFour::new(), refinements: refinements.clone() };
    let config = busy_config();
    let mut search = Mcts::new(config.clone(), &threads(THREADS));
    let playouts = 20_000;
    let result = search.search(&game, &Limits::nodes(playouts), &SearchControl::new(), &mut Silent);
    assert!(result.nodes >= playouts);
    let (_, tree) = search.kept.as_ref().expect("the tree is kept");
    assert_eq!(u64::from(tree.node(0).visits()), result.nodes, "one root visit a playout");
    let refined = check_tree(tree, config.expand_after);
    assert!(refined > 10, "{refined} nodes refined");
    assert_eq!(refinements.load(Ordering::Relaxed), refined, "one refinement a node");
}

#[test]
#[cfg_attr(miri, ignore = "whole searches: hours under Miri")]
fn a_tree_grown_by_threads_is_reused_with_its_visits() {
    let mut search = Mcts::new(busy_config(), &threads(THREADS));
    let mut game = ConnectFour::new();
    let first = search.search(&game, &Limits::nodes(8000), &SearchControl::new(), &mut Silent);
    let (best, reply) = (first.best.expect("a move"), first.pv[1]);
    let (_, tree) = search.kept.as_ref().expect("the tree is kept");
    let child = tree.child_with_move(0, best).expect("the best move is a root child");
    let grandchild = tree.child_with_move(child, reply).expect("the reply is in the line");
    let kept_visits = u64::from(tree.node(grandchild).visits());
    assert!(kept_visits > 100, "{kept_visits} visits kept");
    game.play(best);
    game.play(reply);
    let second = search.search(&game, &Limits::nodes(4000), &SearchControl::new(), &mut Silent);
    let (_, tree) = search.kept.as_ref().expect("the tree is kept");
    assert_eq!(u64::from(tree.node(0).visits()), kept_visits + second.nodes);
    check_tree(tree, busy_config().expand_after);
}

#[test]
#[cfg_attr(miri, ignore = "whole searches: hours under Miri")]
fn several_threads_never_lose_tic_tac_toe() {
    let mut search = Mcts::new(busy_config(), &threads(THREADS));
    let mut game = TicTacToe::new();
    // Self-play from each opening: a side that blunders loses, which perfect play never does.
    let mut moves = <TicTacToe as Game>::Moves::default();
    game.generate_legal_moves(&mut moves);
    for &opening in moves.iter() {
        game.play(opening);
        while game.outcome().is_none() {
            let result = search.search(&game, &Limits::nodes(3000), &SearchControl::new(), &mut Silent);
            game.play(result.best.expect("a live game has a move"));
        }
        assert_eq!(game.outcome(), Some(Outcome::Draw), "a side lost after {opening}");
        game.undo_to(0);
    }
}
