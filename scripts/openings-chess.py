#!/usr/bin/env python3
"""Builds data/openings/chess.epd: the balanced, named opening suite `tessera match --game chess` uses.

Reads named lines (ECO, name, SAN moves) from scripts/openings/chess-lines.tsv, plays each with
python-chess (an illegal line stops the script), has Stockfish search the position to a fixed depth
(one thread, so the result is reproducible) and keeps the lines whose score is within the limit.

    scripts/openings-chess.py [--depth 16] [--limit 60] [--stockfish /usr/games/stockfish]

Every kept position is written as one EPD line:
    <FEN fields 1-4> id "<ECO> <name>"; c0 "<moves>"; c1 "stockfish depth D cp S";
with S the score from White's point of view.
"""

import argparse
import shutil
import sys
from pathlib import Path

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("openings-chess.py needs python-chess: python3 -m pip install chess")

ROOT = Path(__file__).resolve().parent.parent


def read_lines(path):
    """(eco, name, [san moves]) for every non-comment line of the source list."""
    lines = []
    for number, text in enumerate(path.read_text().splitlines(), 1):
        if not text.strip() or text.startswith("#"):
            continue
        fields = text.split("\t")
        if len(fields) != 3:
            sys.exit(f"{path}:{number}: expected ECO, name and moves separated by tabs")
        eco, name, moves = fields
        lines.append((number, eco, name, moves.split()))
    return lines


def play(number, moves):
    board = chess.Board()
    for san in moves:
        try:
            board.push_san(san)
        except ValueError as error:
            sys.exit(f"line {number}: {san} is not legal after {' '.join(moves[:board.ply()])}: {error}")
    if not 6 <= board.ply() <= 10:
        sys.exit(f"line {number}: {board.ply()} plies, the suite wants 6 to 10")
    return board


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=16, help="Stockfish search depth (default 16)")
    parser.add_argument("--limit", type=int, default=60, help="keep |score| <= this many centipawns (default 60)")
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    parser.add_argument("--source", type=Path, default=ROOT / "scripts/openings/chess-lines.tsv")
    parser.add_argument("--out", type=Path, default=ROOT / "data/openings/chess.epd")
    args = parser.parse_args()
    if not Path(args.stockfish).exists():
        sys.exit(f"Stockfish not found at {args.stockfish} (apt-get install stockfish, or --stockfish PATH)")

    lines = read_lines(args.source)
    boards = [(eco, name, moves, play(number, moves)) for number, eco, name, moves in lines]
    seen = set()
    for eco, name, moves, board in boards:
        key = board.epd()
        if key in seen:
            sys.exit(f"{eco} {name}: the same position as an earlier line")
        seen.add(key)

    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": 64})
    kept, dropped = [], []
    try:
        for eco, name, moves, board in boards:
            engine.protocol.send_line("ucinewgame")
            info = engine.analyse(board, chess.engine.Limit(depth=args.depth))
            score = info["score"].white().score(mate_score=100000)
            text = f"{eco} {name}"
            record = (board, text, moves, score, info.get("depth", args.depth))
            (kept if abs(score) <= args.limit else dropped).append(record)
            print(f"{'keep' if abs(score) <= args.limit else 'drop'} {score:+5d}  {text}", file=sys.stderr)
    finally:
        engine.quit()

    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w") as out:
        out.write(f"# Tessera's balanced chess openings: {len(kept)} named lines (6-10 plies) that Stockfish at\n")
        out.write(f"# depth {args.depth} scores within {args.limit} cp, from scripts/openings/chess-lines.tsv by\n")
        out.write("# scripts/openings-chess.py. Scores (c1) are from White's point of view.\n")
        for board, text, moves, score, depth in kept:
            out.write(f'{board.epd()} id "{text}"; c0 "{" ".join(moves)}"; c1 "stockfish depth {depth} cp {score:+d}";\n')
    scores = sorted(abs(record[3]) for record in kept)
    print(
        f"{len(kept)} kept, {len(dropped)} dropped (|score| > {args.limit}); kept |score| median "
        f"{scores[len(scores) // 2] if scores else 0}, max {scores[-1] if scores else 0}; wrote {args.out}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
