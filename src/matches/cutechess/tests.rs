//! The cutechess-cli form against the long form it stands for, as clap reads both.

use clap::Parser;

use super::*;
use crate::matches::{MatchArgs, OpeningOrder};

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: MatchArgs,
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

/// Parses `long` (our form) as clap does after `tessera match`.
fn parse(long: &[String]) -> MatchArgs {
    let line = std::iter::once("tessera".to_string()).chain(long.iter().cloned());
    Cli::try_parse_from(line).unwrap_or_else(|error| panic!("{error}: {long:?}")).args
}

#[test]
fn the_issues_example_reads_as_our_options() {
    // As a shell splits it; the names hold no spaces, so `words` does the same here.
    let cutechess = words(
        "-engine cmd=./tessera-uci name=new proto=uci -engine cmd=/usr/games/stockfish name=sf proto=uci \
         -each tc=10+0.1 -rounds 50 -games 2 -openings file=book.epd format=epd order=random \
         -pgnout games.pgn -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 -concurrency 3",
    );
    assert!(is_cutechess_form(&cutechess));
    let ours = translate(&cutechess).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        ours,
        [
            "--openings",
            "book.epd",
            "--openings-order",
            "random",
            "--record",
            "games.pgn",
            "--sprt",
            "elo0=0 elo1=5 alpha=0.05 beta=0.05",
            "--concurrency",
            "3",
            "--game",
            "chess",
            "--games",
            "100",
            "--engine",
            "cmd=./tessera-uci name=new proto=uci",
            "--engine",
            "cmd=/usr/games/stockfish name=sf proto=uci",
            "--tc",
            "10+0.1",
        ]
    );
    let args = parse(&ours);
    assert_eq!(args.games, 100);
    assert_eq!(args.concurrency, 3);
    assert_eq!(args.tc, "10+0.1");
    assert_eq!(args.openings_order, OpeningOrder::Random);
    assert_eq!(args.record.as_deref(), Some(std::path::Path::new("games.pgn")));
    let common = args.common().unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(common.engines[0].name, "new");
    assert_eq!(common.engines[1].protocol.as_deref(), Some("uci"));
    assert!(common.settings.sprt.is_some());
}

#[test]
fn each_adjudication_and_variants() {
    let ours = translate(&words(
        "-variant xiangqi -engine cmd=a option.Hash=64 -engine cmd=b -each proto=ucci tc=1:30+1 option.Threads=1 \
         -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=600 twosided=true -maxmoves 150 \
         -recover -repeat -ratinginterval 10 -srand 7",
    ))
    .unwrap_or_else(|error| panic!("{error}"));
    let args = parse(&ours);
    assert_eq!(args.game, crate::matches::GameKind::Xiangqi);
    assert_eq!(args.engines, ["cmd=a option.Hash=64 option.Threads=1 proto=ucci", "cmd=b option.Threads=1 proto=ucci"]);
    assert_eq!(args.tc, "90+1");
    assert_eq!((args.draw_after, args.draw_moves, args.draw_score), (80, Some(8), 10));
    assert_eq!((args.resign_moves, args.resign_score, args.max_plies), (Some(3), 600, Some(300)));
    assert_eq!(args.openings_seed, 7);
    // Per-move, depth and node limits; an engine's own key beats `-each`.
    let limit = |text: &str| parse(&translate(&words(text)).unwrap_or_else(|error| panic!("{error}"))).tc;
    assert_eq!(limit("-engine cmd=a -engine cmd=b -each st=0.5"), "st=0.5");
    assert_eq!(limit("-engine cmd=a -engine cmd=b -each tc=inf depth=8"), "depth=8");
    assert_eq!(limit("-engine cmd=a -engine cmd=b -each tc=40/60"), "40/60");
    let named = translate(&words("-engine cmd=a name=x -engine cmd=b -each name=y")).unwrap_or_default();
    assert!(named.contains(&"cmd=a name=x".to_string()) && named.contains(&"cmd=b name=y".to_string()), "{named:?}");
}

#[test]
fn our_own_options_pass_through_and_mix() {
    let ours = translate(&words("--game go --size 9 -engine cmd=a -engine cmd=b -each st=1 --komi 6.5"))
        .unwrap_or_else(|error| panic!("{error}"));
    let args = parse(&ours);
    assert_eq!((args.game, args.size, args.komi), (crate::matches::GameKind::Go, Some(9), 6.5));
    assert!(!is_cutechess_form(&words("--game chess --engine cmd=a --engine cmd=b --resign-score -500")));
}

#[test]
fn what_we_cannot_honour_is_refused_by_name() {
    let refused = |text: &str| translate(&words(text)).err().map(|error| error.to_string()).unwrap_or_default();
    assert!(refused("-engine cmd=a -engine cmd=b -bookmode").contains("-bookmode"));
    assert!(refused("-openings file=a.pgn format=pgn").contains("format=pgn"));
    assert!(refused("-engine cmd=a tc=1+0 -engine cmd=b tc=2+0").contains("same time control"));
    assert!(refused("-engine cmd=a ponder -engine cmd=b").contains("key=value"));
    assert!(refused("-engine cmd=a initstr=x -engine cmd=b").contains("initstr"));
    assert!(refused("-resign movecount=3 score=500 twosided=false").contains("both engines"));
    assert!(refused("-engine cmd=a -engine cmd=b -each tc=inf").contains("depth= or nodes="));
    assert!(refused("-rounds many").contains("whole number"));
}
