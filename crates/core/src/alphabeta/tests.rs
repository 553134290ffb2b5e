//! Known-answer tests of the alpha-beta searcher on tic-tac-toe and connect four.

use std::collections::HashMap;

use super::AlphaBeta;
use crate::game::{Game, Outcome};
use crate::info::{Report, Silent};
use crate::limits::{EngineOptions, Limits};
use crate::score::Score;
use crate::search::Searcher;
use crate::time::SearchControl;
use crate::toys::{ConnectFour, TicTacToe};

fn searcher<G: crate::Evaluate + crate::Tactical + crate::NullMove>(threads: usize, multipv: usize) -> AlphaBeta<G> {
    AlphaBeta::new(&EngineOptions { threads, multipv, ..EngineOptions::default() }, 20)
}

/// Exact game-theoretic value for the side to move: 1 win, 0 draw, -1 loss (plain minimax).
fn solve(game: &mut TicTacToe, memo: &mut HashMap<u64, i32>) -> i32 {
    if let Some(&value) = memo.get(&game.hash()) {
        return value;
    }
    let value = match game.outcome() {
        Some(Outcome::Draw) => 0,
        Some(Outcome::Win(side)) => {
            if side == game.side_to_move() {
                1
            } else {
                -1
            }
        }
        None => {
            let mut moves = <TicTacToe as Game>::Moves::default();
            game.generate_legal_moves(&mut moves);
            let mut best = -1;
            for &mv in moves.iter() {
                game.play(mv);
                best = best.max(-solve(game, memo));
                game.undo();
            }
            best
        }
    };
    memo.insert(game.hash(), value);
    value
}

fn verdict(score: Score) -> i32 {
    match score {
        Score::Mate(moves) if moves > 0 => 1,
        Score::Mate(_) => -1,
        Score::Centipawns(0) => 0,
        other => panic!("a solved tic-tac-toe position must score a mate or 0, got {other:?}"),
    }
}

#[test]
fn proves_tic_tac_toe_is_a_draw() {
    let mut search = searcher::<TicTacToe>(1, 1);
    let result = search.search(&TicTacToe::new(), &Limits::depth(9), &SearchControl::new(), &mut Silent);
    assert_eq!(result.score, Score::Centipawns(0));
    assert_eq!(result.depth, 9);
}

/// Every position of tic-tac-toe reachable from the start and not yet decided, once each.
fn live_positions() -> Vec<TicTacToe> {
    let mut positions = vec![TicTacToe::new()];
    let mut seen = std::collections::HashSet::new();
    let mut live = Vec::new();
    while let Some(position) = positions.pop() {
        if !seen.insert(position.hash()) || position.outcome().is_some() {
            continue;
        }
        let mut moves = <TicTacToe as Game>::Moves::default();
        position.generate_legal_moves(&mut moves);
        for &mv in moves.iter() {
            let mut child = position.clone();
            child.play(mv);
            positions.push(child);
        }
        live.push(position);
    }
    live
}

#[test]
fn finds_every_forced_win_and_loss_of_tic_tac_toe() {
    // Every live position, checked against plain minimax.
    let mut memo = HashMap::new();
    let mut search = searcher::<TicTacToe>(1, 1);
    let positions = live_positions();
    assert_eq!(positions.len(), 4520, "non-terminal positions of tic-tac-toe");
    for mut position in positions {
        let truth = solve(&mut position, &mut memo);
        let result = search.search(&position, &Limits::depth(9), &SearchControl::new(), &mut Silent);
        assert_eq!(verdict(result.score), truth, "position {position:?}");
        let best = result.best.expect("a move in a live position");
        position.play(best);
        assert_eq!(-solve(&mut position, &mut memo), truth, "{best} must keep the value in {position:?}");
    }
}

#[test]
fn a_narrowed_candidate_list_proves_no_false_mates() {
    // Below the root only the lowest free square is a candidate: every mate the search claims
    // must still be real, the other moves being tried where the candidate loses.
    let mut memo = HashMap::new();
    let mut search = searcher::<TicTacToe>(1, 1);
    let mut mates = 0;
    for mut position in live_positions() {
        let result = search.search(&position.clone().narrowed(), &Limits::depth(9), &SearchControl::new(), &mut Silent);
        if let Score::Mate(moves) = result.score {
            mates += 1;
            assert_eq!(moves.signum(), solve(&mut position, &mut memo), "false mate in {position:?}");
        }
    }
    assert!(mates > 1000, "{mates} positions proven");
}

#[test]
fn the_game_is_told_the_plies_left_at_each_node() {
    // Narrowed only near the horizon, the tree lies between the narrowed one and the full one:
    // a searcher that did not pass the plies left would search the narrowed tree.
    let nodes = |position: TicTacToe| {
        searcher::<TicTacToe>(1, 1).search(&position, &Limits::depth(6), &SearchControl::new(), &mut Silent).nodes
    };
    let (full, partly, narrowed) =
        (nodes(TicTacToe::new()), nodes(TicTacToe::new().narrowed_below(3)), nodes(TicTacToe::new().narrowed()));
    assert!(narrowed < partly && partly < full, "narrowed {narrowed}, partly {partly}, full {full}");
}

#[test]
fn a_narrowed_candidate_list_proves_no_false_static_wins() {
    // The same one candidate below the root, and an evaluation that claims a win (or a loss) it
    // sees statically, at TicTacToe::STATIC_WIN beyond DECISIVE. At shallow depths these claims
    // reach the root from the leaves: a node whose one candidate loses by such a claim must try the
    // other moves before it is called lost, or its parent claims a win that is none.
    let mut memo = HashMap::new();
    let mut claims = 0;
    for depth in 1..=4 {
        let mut search = searcher::<TicTacToe>(1, 1);
        for mut position in live_positions() {
            let narrowed = position.clone().narrowed().claiming();
            let result = search.search(&narrowed, &Limits::depth(depth), &SearchControl::new(), &mut Silent);
            let verdict = result.score.proven(<TicTacToe as crate::Evaluate>::DECISIVE);
            if verdict == 0 {
                continue;
            }
            claims += 1;
            assert_eq!(verdict, solve(&mut position, &mut memo), "false claim at depth {depth} in {position:?}");
        }
    }
    assert!(claims > 4000, "{claims} claims");
}

#[test]
fn finds_connect_four_wins_and_the_defence() {
    // First player has three in the bottom row with both ends open: a win in 1 move.
    let game = ConnectFour::from_moves(&[2, 2, 3, 3, 4, 4]);
    let mut search = searcher::<ConnectFour>(1, 1);
    let result = search.search(&game, &Limits::depth(6), &SearchControl::new(), &mut Silent);
    assert_eq!(result.score, Score::Mate(1));
    assert!([1, 5].contains(&result.best.unwrap()));
    // Second player must block at once (and still loses: both ends are open).
    let game = ConnectFour::from_moves(&[2, 6, 3]);
    let result = search.search(&game, &Limits::depth(8), &SearchControl::new(), &mut Silent);
    assert!([1, 4].contains(&result.best.unwrap()), "{result:?}");
    let lost = ConnectFour::from_moves(&[2, 6, 3, 6, 4]);
    let result = search.search(&lost, &Limits::depth(6), &SearchControl::new(), &mut Silent);
    assert_eq!(result.score, Score::Mate(-1), "{result:?}");
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut search = searcher::<ConnectFour>(1, 3);
    let mut lines = Vec::new();
    let mut sink = |report: Report<u8>| {
        if let Report::Info(info) = report {
            lines.push(info);
        }
    };
    search.search(&ConnectFour::new(), &Limits::depth(6), &SearchControl::new(), &mut sink);
    let last: Vec<_> = lines.iter().filter(|info| info.depth == 6).collect();
    assert_eq!(last.iter().map(|info| info.multipv).collect::<Vec<_>>(), [1, 2, 3]);
    let mut firsts: Vec<u8> = last.iter().map(|info| info.pv[0]).collect();
    firsts.dedup();
    assert_eq!(firsts.len(), 3);
}

#[test]
fn search_moves_node_limits_and_threads() {
    let game = ConnectFour::new();
    let mut search = searcher::<ConnectFour>(1, 1);
    let only_edge = Limits { search_moves: vec![0], ..Limits::depth(5) };
    assert_eq!(search.search(&game, &only_edge, &SearchControl::new(), &mut Silent).best, Some(0));
    // A node limit gives the same answer every time from a fresh table (reproducible search).
    let mut runs = Vec::new();
    for _ in 0..2 {
        search.clear();
        let result = search.search(&game, &Limits::nodes(20_000), &SearchControl::new(), &mut Silent);
        assert!(result.nodes >= 20_000 && result.nodes < 20_100, "{}", result.nodes);
        runs.push((result.best, result.score, result.nodes));
    }
    assert_eq!(runs[0], runs[1]);
    let mut parallel = searcher::<TicTacToe>(2, 1);
    let result = parallel.search(&TicTacToe::new(), &Limits::depth(9), &SearchControl::new(), &mut Silent);
    assert_eq!(result.score, Score::Centipawns(0));
}

#[test]
fn a_stopped_search_still_returns_a_legal_move() {
    let control = SearchControl::new();
    control.stop();
    let mut search = searcher::<ConnectFour>(1, 1);
    let game = ConnectFour::new();
    let result = search.search(&game, &Limits::none(), &control, &mut Silent);
    assert!(game.is_legal(result.best.unwrap()));
    // A finished game: no move, and the verdict as the score.
    let full = TicTacToe::from_moves(&[0, 1, 2, 4, 3, 5, 7, 6, 8]);
    let result = searcher::<TicTacToe>(1, 1).search(&full, &Limits::depth(3), &SearchControl::new(), &mut Silent);
    assert_eq!((result.best, result.score), (None, Score::Centipawns(0)));
    let won = TicTacToe::from_moves(&[0, 3, 1, 4, 2]);
    let result = searcher::<TicTacToe>(1, 1).search(&won, &Limits::depth(3), &SearchControl::new(), &mut Silent);
    assert_eq!((result.best, result.score), (None, Score::Mate(0)));
}

#[test]
fn a_proven_mate_ends_an_unbounded_search_early() {
    let game = ConnectFour::from_moves(&[2, 2, 3, 3, 4, 4]);
    let mut search = searcher::<ConnectFour>(1, 1);
    let result = search.search(&game, &Limits::none(), &SearchControl::new(), &mut Silent);
    assert_eq!(result.score, Score::Mate(1));
    assert!(result.depth < 12, "stopped at depth {}", result.depth);
    // Analysis (infinite) and fixed depths still go as deep as asked.
    let fixed = search.search(&game, &Limits::depth(14), &SearchControl::new(), &mut Silent);
    assert_eq!(fixed.depth, 14);
}

#[test]
fn time_scale_grows_with_instability_and_with_close_rivals() {
    use super::soft_budget_scale;
    assert!(soft_budget_scale(1.0, None) > soft_budget_scale(0.0, None), "a changing best move earns time");
    assert_eq!(soft_budget_scale(5.0, None), soft_budget_scale(2.0, None), "capped");
    // A best move that took 90% of the nodes is clear: less time than one that took 30%.
    let (clear, contested) = (soft_budget_scale(0.0, Some(0.9)), soft_budget_scale(0.0, Some(0.3)));
    assert!(clear < soft_budget_scale(0.0, None) && contested > soft_budget_scale(0.0, None));
    assert!((contested / clear - 1.2 / 0.6).abs() < 1e-9);
}
