//! Tests of the MCTS searcher on tic-tac-toe and connect four.

use std::time::Duration;

use super::{Mcts, MctsConfig, Selection, Widening};
use crate::game::{Game, Outcome, Side};
use crate::info::{Report, Silent};
use crate::limits::{Clock, EngineOptions, Limits};
use crate::score::Score;
use crate::search::Searcher;
use crate::time::{SearchControl, TimeManager};
use crate::toys::{ConnectFour, TicTacToe};

const PLAYOUTS: u64 = 3000;

fn configs() -> [MctsConfig; 3] {
    [
        MctsConfig { selection: Selection::Uct { exploration: 0.7 }, reuse_tree: false, ..MctsConfig::default() },
        MctsConfig {
            selection: Selection::Puct { exploration: 1.5, first_play_reduction: 0.1 },
            rave_equivalence: Some(200.0),
            ..MctsConfig::default()
        },
        MctsConfig {
            selection: Selection::Puct { exploration: 1.5, first_play_reduction: 0.1 },
            rave_equivalence: Some(200.0),
            widening: Some(Widening { scale: 4.0, exponent: 0.5 }),
            ..MctsConfig::default()
        },
    ]
}

/// Plays MCTS (as `mcts_side`) against every possible reply of the opponent; returns the games lost.
fn losses_against_every_reply(search: &mut Mcts<TicTacToe>, game: &mut TicTacToe, mcts_side: Side) -> usize {
    match game.outcome() {
        Some(Outcome::Win(winner)) => return usize::from(winner != mcts_side),
        Some(Outcome::Draw) => return 0,
        None => {}
    }
    if game.side_to_move() == mcts_side {
        let result = search.search(game, &Limits::nodes(PLAYOUTS), &SearchControl::new(), &mut Silent);
        let mv = result.best.expect("a live game has a move");
        game.play(mv);
        let lost = losses_against_every_reply(search, game, mcts_side);
        game.undo();
        lost
    } else {
        let mut moves = <TicTacToe as Game>::Moves::default();
        game.generate_legal_moves(&mut moves);
        let mut lost = 0;
        for &mv in moves.iter() {
            game.play(mv);
            lost += losses_against_every_reply(search, game, mcts_side);
            game.undo();
        }
        lost
    }
}

#[test]
fn never_loses_tic_tac_toe_from_the_start_with_either_side() {
    for config in configs() {
        let mut search = Mcts::new(config.clone(), &EngineOptions::default());
        for side in Side::BOTH {
            let lost = losses_against_every_reply(&mut search, &mut TicTacToe::new(), side);
            assert_eq!(lost, 0, "{config:?} lost {lost} games as {side:?}");
        }
    }
}

#[test]
fn takes_an_immediate_win_and_reports_analysis() {
    let game = ConnectFour::from_moves(&[2, 2, 3, 3, 4, 4]);
    let mut search = Mcts::new(configs()[1].clone(), &EngineOptions { threads: 2, ..EngineOptions::default() });
    let mut analyses = 0;
    let mut sink = |report: Report<u8>| {
        if let Report::Analysis { moves, .. } = report {
            assert!(!moves.is_empty());
            analyses += 1;
        }
    };
    let limits = Limits { report_interval: Some(std::time::Duration::ZERO), ..Limits::nodes(4000) };
    let result = search.search(&game, &limits, &SearchControl::new(), &mut sink);
    assert!([1, 5].contains(&result.best.unwrap()), "{result:?}");
    assert!(matches!(result.score, Score::WinRate(rate) if rate > 0.9), "{result:?}");
    assert!(analyses > 0);
}

#[test]
fn reuses_the_tree_after_moves_and_is_reproducible() {
    let config = configs()[0].clone();
    let config = MctsConfig { reuse_tree: true, ..config };
    let mut search = Mcts::new(config.clone(), &EngineOptions::default());
    let mut game = ConnectFour::new();
    let first = search.search(&game, &Limits::nodes(5000), &SearchControl::new(), &mut Silent);
    let reply = first.pv.get(1).copied().unwrap_or(3);
    game.play(first.best.unwrap());
    game.play(reply);
    let kept = search.starting_tree(&game);
    assert!(kept.node(0).visits() > 0, "the subtree after the two moves is kept");
    // Same seed, fresh tree: the same move.
    let mut again = Mcts::new(config, &EngineOptions::default());
    let second = again.search(&ConnectFour::new(), &Limits::nodes(5000), &SearchControl::new(), &mut Silent);
    assert_eq!(first.best, second.best);
}

#[test]
fn a_node_fits_the_size_the_hash_option_assumes() {
    let bytes = std::mem::size_of::<super::tree::Node<u16>>() + std::mem::size_of::<super::tree::Amaf>();
    assert!(bytes <= super::NODE_BYTES, "{bytes} bytes a node");
}

#[test]
fn widening_opens_children_as_visits_grow() {
    let widening = Widening { scale: 4.0, exponent: 0.5 };
    assert_eq!(widening.width(0), 2);
    assert_eq!(widening.width(4), 3);
    assert_eq!(widening.width(400), 12);
}

#[test]
fn a_widened_root_visits_only_its_opened_children() {
    // Connect four's toys give uniform priors, so the first children (in move order) open first.
    let widening = Widening { scale: 1000.0, exponent: 0.5 };
    let config = MctsConfig { widening: Some(widening), ..configs()[1].clone() };
    let mut search = Mcts::new(config, &EngineOptions::default());
    let mut visited = 0;
    let mut sink = |report: Report<u8>| {
        if let Report::Analysis { moves, .. } = report {
            visited = moves.len();
        }
    };
    let limits = Limits { report_interval: Some(std::time::Duration::from_secs(3600)), ..Limits::nodes(1000) };
    search.search(&ConnectFour::new(), &limits, &SearchControl::new(), &mut sink);
    assert_eq!(visited, widening.width(1000), "seven columns, three opened after 1000 visits");
}

#[test]
fn a_settled_choice_ends_the_search_early_with_the_same_move() {
    // The third line has one winning column (3); the others leave the choice open longer.
    let lines: [&[u8]; 4] = [&[], &[3, 3], &[0, 6, 1, 6, 2, 5], &[3, 2, 3, 2, 4]];
    let limits = Limits::nodes(PLAYOUTS);
    for config in configs() {
        let settled = MctsConfig { reuse_tree: false, ..config };
        let full = MctsConfig { stop_when_settled: None, ..settled.clone() };
        let sooner = MctsConfig { stop_when_settled: Some(0.5), ..settled.clone() };
        for line in lines {
            let game = ConnectFour::from_moves(line);
            let search = |config: &MctsConfig| {
                Mcts::new(config.clone(), &EngineOptions::default()).search(
                    &game,
                    &limits,
                    &SearchControl::new(),
                    &mut Silent,
                )
            };
            let (early, whole, earlier) = (search(&settled), search(&full), search(&sooner));
            assert_eq!(early.best, whole.best, "{line:?} with {settled:?}");
            assert_eq!(whole.nodes, PLAYOUTS);
            // A smaller share stops at the same point or sooner: the same playouts until then.
            assert!(earlier.nodes <= early.nodes, "{line:?}: {} after {}", earlier.nodes, early.nodes);
            if line.len() == 6 {
                // One column wins at once: once it holds more than half the budget nothing can
                // overtake it.
                assert!(early.nodes < PLAYOUTS * 3 / 5, "{line:?}: {} playouts", early.nodes);
            }
        }
    }
}

#[test]
fn only_a_playout_limit_or_a_clock_that_keeps_unused_time_bounds_the_playouts_left() {
    let control = SearchControl::new();
    let left = |limits: &Limits<u8>, control: &SearchControl| {
        let time = TimeManager::new(limits, Duration::ZERO, 30);
        super::playouts_left(limits, &time, control, 100)
    };
    assert_eq!(left(&Limits::nodes(1000), &control), Some(900));
    assert_eq!(left(&Limits::nodes(50), &control), Some(0));
    assert_eq!(left(&Limits::none(), &control), None, "analysis runs until stopped");
    assert_eq!(left(&Limits::move_time(Duration::from_secs(1)), &control), None, "a fixed time is used in full");
    let clock = Clock { ours: Duration::from_secs(600), ..Clock::default() };
    assert!(left(&Limits { clock: Some(clock), ..Limits::none() }, &control).is_some_and(|left| left > 0));
    let period = Clock { ours: Duration::ZERO, byo_yomi: Some(Duration::from_secs(10)), ..clock };
    assert_eq!(left(&Limits { clock: Some(period), ..Limits::none() }, &control), None, "a period is lost unused");
    let main_before_periods = Clock { byo_yomi: Some(Duration::from_secs(10)), ..clock };
    assert!(
        left(&Limits { clock: Some(main_before_periods), ..Limits::none() }, &control).is_some(),
        "main time saved before byo-yomi is kept"
    );
    let last_stone = Clock { moves_to_go: Some(1), ..clock };
    assert_eq!(
        left(&Limits { clock: Some(last_stone), ..Limits::none() }, &control),
        None,
        "so is a block's last move"
    );
    control.reset(true);
    assert_eq!(left(&Limits::nodes(1000), &control), None, "pondering is not cut short");
}

#[test]
fn refined_priors_reach_the_root_at_once_and_busy_nodes_later() {
    // The width stays at three children for the first thousand visits: with the toy's even
    // priors, the first three columns in move order.
    let config = |refine_after| MctsConfig {
        selection: Selection::Puct { exploration: 1.5, first_play_reduction: 0.1 },
        widening: Some(Widening { scale: 1000.0, exponent: 0.5 }),
        refine_after,
        reuse_tree: false,
        ..MctsConfig::default()
    };
    let game = ConnectFour::new().with_refined_column(6);
    let root_stats = |refine_after| {
        let mut search = Mcts::new(config(refine_after), &EngineOptions { threads: 1, ..EngineOptions::default() });
        let limits = Limits { report_interval: Some(Duration::from_secs(60)), ..Limits::nodes(600) };
        let mut stats = Vec::new();
        let before = ConnectFour::refinements();
        search.search(&game, &limits, &SearchControl::new(), &mut |report: Report<u8>| {
            if let Report::Analysis { moves, .. } = report {
                stats = moves;
            }
        });
        (stats, ConnectFour::refinements() - before)
    };
    let (plain, calls) = root_stats(None);
    assert_eq!(calls, 0);
    assert!(plain.iter().all(|stat| stat.mv != 6), "column 6 is beyond the width: {plain:?}");
    let (root_only, calls) = root_stats(Some(1_000_000));
    assert_eq!(calls, 1, "the root asks once, when it is expanded");
    let favoured = root_only.iter().find(|stat| stat.mv == 6).expect("the refined prior opens column 6");
    assert!((favoured.prior - 30.0 / 36.0).abs() < 1e-6, "normalised: {}", favoured.prior);
    let (_, calls) = root_stats(Some(20));
    assert!(calls > 1, "nodes with 20 visits ask too");
    assert!(calls < 600 / 20 * 6, "each node asks once: {calls}");
}

#[test]
fn value_estimates_draw_the_search_as_weighed_and_change_nothing_unweighed() {
    // Every node with 30 visits is refined; a drop in the valued column is valued as won for
    // its dropper, every other move as even.
    let config = |value_weight| MctsConfig {
        selection: Selection::Puct { exploration: 1.0, first_play_reduction: 0.1 },
        refine_after: Some(30),
        value_weight,
        reuse_tree: false,
        ..MctsConfig::default()
    };
    let search = |game: &ConnectFour, value_weight| {
        let mut search = Mcts::new(config(value_weight), &EngineOptions { threads: 1, ..EngineOptions::default() });
        let limits = Limits { report_interval: Some(Duration::from_secs(60)), ..Limits::nodes(3000) };
        let mut stats = Vec::new();
        let result = search.search(game, &limits, &SearchControl::new(), &mut |report: Report<u8>| {
            if let Report::Analysis { moves, .. } = report {
                stats = moves;
            }
        });
        let visits = |column: u8| stats.iter().find(|stat| stat.mv == column).map_or(0, |stat| stat.visits);
        (result.best, result.pv, visits(0))
    };
    let (edge, other) = (ConnectFour::new().with_valued_column(0), ConnectFour::new().with_valued_column(1));
    let requests = ConnectFour::value_requests();
    let unweighed = search(&edge, 0.0);
    assert_eq!(unweighed, search(&other, 0.0), "estimates of weight 0 change nothing");
    assert_eq!(ConnectFour::value_requests(), requests, "and are not asked for");
    let weighed = search(&edge, 200.0);
    assert!(ConnectFour::value_requests() > requests, "weighed, they are asked for");
    assert!(weighed.2 > 2 * unweighed.2, "the edge column drew the search: {} against {}", weighed.2, unweighed.2);
}

#[test]
fn ownership_is_the_mean_over_the_searchs_playouts_and_changes_no_choice() {
    // X (the first player) holds squares 0 and 4, O holds 8: every playout ends with them so.
    let game = TicTacToe::from_moves(&[0, 8, 4]);
    let search = |ownership: bool, threads: usize| {
        let options = EngineOptions { threads, ..EngineOptions::default() };
        let mut search = Mcts::new(configs()[1].clone(), &options);
        let mut reported = None;
        let mut sink = |report: Report<u8>| {
            if let Report::Analysis { ownership, .. } = report {
                reported = ownership;
            }
        };
        let limits = Limits { report_interval: Some(Duration::from_secs(3600)), ownership, ..Limits::nodes(2000) };
        let result = search.search(&game, &limits, &SearchControl::new(), &mut sink);
        (result, reported)
    };
    let (plain, nothing) = search(false, 1);
    let (tallied, owners) = search(true, 1);
    assert_eq!(nothing, None, "ownership only when the limits ask for it");
    assert_eq!((plain.best, plain.pv, plain.nodes), (tallied.best, tallied.pv, tallied.nodes));
    for (threads, owners) in [(1, owners), (2, search(true, 2).1)] {
        let owners = owners.expect("the game reports owners");
        assert_eq!(owners.len(), 9);
        assert!(owners.iter().all(|owner| (-1.0..=1.0).contains(owner)), "{owners:?}");
        assert_eq!((owners[0], owners[4], owners[8]), (1.0, 1.0, -1.0), "{threads} threads: {owners:?}");
        assert!(owners.iter().any(|&owner| owner != 0.0 && owner.abs() < 1.0), "open squares vary: {owners:?}");
    }
}
