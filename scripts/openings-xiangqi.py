#!/usr/bin/env python3
"""Builds data/openings/xiangqi.epd: the balanced, named opening suite `tessera match --game xiangqi` uses.

Reads named lines (family, name with WXF moves, ICCS moves) from scripts/openings/xiangqi-lines.tsv,
checks each with our own referee (`tessera-ucci judge`: an illegal or finished line stops the script),
has Fairy-Stockfish (UCI, UCI_Variant xiangqi, one thread, so the result is reproducible) search the
position to a fixed depth and keeps the lines whose score is within the limit.

    scripts/openings-xiangqi.py [--depth 16] [--limit 80] [--fairy /usr/games/fairy-stockfish]

Every kept position is written as one EPD line:
    <FEN> ; id "<family>: <name>"; c0 "<ICCS moves>"; c1 "fairy-stockfish depth D cp S";
with S the score from Red's point of view. The FEN is Fairy-Stockfish's own (`d` command).
"""

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def read_lines(path):
    """(line number, family, name, [ICCS moves]) for every non-comment line of the source list."""
    lines = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip() or text.startswith("#"):
            continue
        fields = text.split("\t")
        if len(fields) != 3:
            sys.exit(f"{path}:{number}: expected family, name and moves separated by tabs")
        family, name, moves = fields
        moves = moves.split()
        if not 4 <= len(moves) <= 10:
            sys.exit(f"{path}:{number}: {len(moves)} plies, the suite wants 4 to 10")
        lines.append((number, family, name, moves))
    return lines


def check_legal(judge, number, moves):
    """Our referee must accept every move and leave the game going."""
    result = subprocess.run([judge, "judge", *moves], capture_output=True, text=True, check=False)
    first = result.stdout.splitlines()[0] if result.stdout else ""
    if result.returncode != 0 or first != "result ongoing":
        sys.exit(f"line {number}: {' '.join(moves)}: {result.stderr.strip() or first}")


def uci_move(iccs):
    """ICCS ranks are 0-9; Fairy-Stockfish's UCI xiangqi ranks are 1-10."""
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


class Fairy:
    """A Fairy-Stockfish process spoken to over UCI, one command at a time."""

    def __init__(self, path):
        self.process = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait_for("uciok")
        for option, value in (("UCI_Variant", "xiangqi"), ("Threads", "1"), ("Hash", "64")):
            self.send(f"setoption name {option} value {value}")

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, prefix):
        """The lines read up to and including the first that starts with `prefix`."""
        seen = []
        for line in self.process.stdout:
            seen.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return seen
        sys.exit(f"fairy-stockfish ended before answering {prefix}")

    def fen(self, moves):
        """Fairy-Stockfish's FEN of the position after `moves` from the start."""
        self.send("position startpos moves " + " ".join(uci_move(move) for move in moves))
        self.send("d")
        self.send("isready")
        return next(line[5:] for line in self.wait_for("readyok") if line.startswith("Fen: "))

    def analyse(self, moves, depth):
        """(side to move's score in cp, depth reached) after `moves` from the start, searched
        from an empty hash table so that each line's score does not depend on the others."""
        self.send("ucinewgame")
        self.send("position startpos moves " + " ".join(uci_move(move) for move in moves))
        self.send(f"go depth {depth}")
        score, reached = None, 0
        for line in self.wait_for("bestmove"):
            words = line.split()
            # Only exact scores of full iterations: bound lines come from aspiration re-searches.
            exact = "lowerbound" not in words and "upperbound" not in words
            if words[:2] == ["info", "depth"] and "score" in words and exact:
                kind, value = words[words.index("score") + 1 : words.index("score") + 3]
                score = int(value) if kind == "cp" else (100000 if int(value) > 0 else -100000)
                reached = int(words[words.index("depth") + 1])
        if score is None:
            sys.exit(f"fairy-stockfish gave no score after {' '.join(moves)}")
        return score, reached

    def quit(self):
        self.send("quit")
        self.process.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=16, help="Fairy-Stockfish search depth (default 16)")
    parser.add_argument("--limit", type=int, default=80, help="keep |score| <= this many centipawns (default 80)")
    parser.add_argument("--fairy", default="/usr/games/fairy-stockfish")
    parser.add_argument("--judge", default=str(ROOT / "target/release/tessera-ucci"), help="our referee binary")
    parser.add_argument("--source", type=Path, default=ROOT / "scripts/openings/xiangqi-lines.tsv")
    parser.add_argument("--out", type=Path, default=ROOT / "data/openings/xiangqi.epd")
    args = parser.parse_args()
    for path, hint in ((args.fairy, "apt-get install fairy-stockfish, or --fairy PATH"),
                       (args.judge, "cargo build --release -p tessera-ucci")):
        if not Path(path).exists():
            sys.exit(f"{path} not found ({hint})")

    lines = read_lines(args.source)
    for number, _, name, moves in lines:
        check_legal(args.judge, number, moves)
    fairy = Fairy(args.fairy)
    kept, dropped = [], []
    try:
        # Transpositions first, before the long searches: each line must reach its own position.
        fens, seen = [], {}
        for number, _, _, moves in lines:
            fens.append(fairy.fen(moves))
            board = " ".join(fens[-1].split()[:2])
            if board in seen:
                sys.exit(f"line {number}: the same position as line {seen[board]}")
            seen[board] = number
        for (number, family, name, moves), fen in zip(lines, fens):
            score, depth = fairy.analyse(moves, args.depth)
            red = score if fen.split()[1] == "w" else -score
            keep = abs(red) <= args.limit
            (kept if keep else dropped).append((fen, family, name, moves, red, depth))
            print(f"{'keep' if keep else 'drop'} {red:+5d}  {name}", file=sys.stderr, flush=True)
    finally:
        fairy.quit()

    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as out:
        out.write(f"# Tessera's balanced xiangqi openings: {len(kept)} named lines (4-10 plies) that Fairy-Stockfish\n")
        out.write(f"# at depth {args.depth} scores within {args.limit} cp, from scripts/openings/xiangqi-lines.tsv by\n")
        out.write("# scripts/openings-xiangqi.py. Scores (c1) are from Red's point of view.\n")
        for fen, family, name, moves, red, depth in kept:
            out.write(f'{fen} ; id "{family}: {name}"; c0 "{" ".join(moves)}"; '
                      f'c1 "fairy-stockfish depth {depth} cp {red:+d}";\n')
    scores = sorted(abs(record[4]) for record in kept)
    print(
        f"{len(kept)} kept, {len(dropped)} dropped (|score| > {args.limit}); kept |score| median "
        f"{scores[len(scores) // 2] if scores else 0}, max {scores[-1] if scores else 0}; wrote {args.out}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
