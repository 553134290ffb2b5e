#!/usr/bin/env python3
"""Equal time, measured: how long each engine thinks per move in games between them.

`scripts/strength-go.sh` compares fixed efforts (Pachi's `-t =9000`, GNU Go's level, our
`--playouts N`) so that a loaded machine biases neither side; which N is equal time depends on the
machine and the build, and since a settled move ends its search early, our time per move is not
in proportion to N within a move, only on average. This script plays Tessera against the opponent
from openings of the size's shipped suite, one engine thinking at a time (run it on an otherwise
idle machine), times every `genmove`, and prints each engine's mean seconds per move. When the
Tessera command holds `--playouts N`, it also prints the N that would take the target time (our
mean time grows about in proportion to N): Pachi's own time per move, or `--seconds` against GNU
Go, whose level fixes its effort but not its time.

Usage: scripts/go-equal-time.py OPPONENT "TESSERA COMMAND" [GAMES=8] [--size 9|19] [--seconds S]
  OPPONENT: a Pachi binary (`-t =9000 threads=1`, as in the 9x9 match) or `gnugo` (level 10)
  e.g. scripts/go-equal-time.py /tmp/pachi-out/pachi "target/release/tessera-gtp --playouts 38000"
       scripts/go-equal-time.py gnugo "target/release/tessera-gtp --playouts 20000" 4 --size 19
"""
import argparse
import os
import random
import sys
import time

from gtp_engine import GNUGO, Engine
from suites import openings

SUITES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "openings")


def play_game(size, ours, opponent, opening, ours_colour, seconds):
    """Plays one game from `opening`; adds each engine's genmove times to `seconds`."""
    for engine in (ours, opponent):
        for command in (f"boardsize {size}", "clear_board", "komi 7.5"):
            engine.ask(command)
    colours = "bw"
    for index, vertex in enumerate(opening):
        for engine in (ours, opponent):
            engine.ask(f"play {colours[index % 2]} {vertex}")
    turn, passes = len(opening) % 2, 0
    for _ in range(2 * size * size):
        colour = colours[turn]
        mover, other = (ours, opponent) if colour == ours_colour else (opponent, ours)
        start = time.perf_counter()
        move = mover.ask(f"genmove {colour}")
        seconds[mover is ours].append(time.perf_counter() - start)
        if move.lower() == "resign":
            return
        other.ask(f"play {colour} {move}")
        passes = passes + 1 if move.lower() == "pass" else 0
        if passes == 2:
            return
        turn ^= 1


def opponent_command(name):
    """(label, command, working folder) of the opponent named on the command line."""
    if name == "gnugo":
        if not GNUGO:
            sys.exit("SKIPPED: GNU Go is not installed (apt-get install gnugo)")
        return "GNU Go", [GNUGO, "--mode", "gtp", "--level", "10", "--chinese-rules"], None
    pachi = os.path.abspath(name)
    if not os.access(pachi, os.X_OK):
        sys.exit(f"SKIPPED: no Pachi at {pachi} (scripts/build-pachi.sh)")
    return "Pachi", [pachi, "-t", "=9000", "threads=1"], os.path.dirname(pachi)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("opponent", help="a Pachi binary, or gnugo")
    parser.add_argument("tessera", help="our command line, one string")
    parser.add_argument("games", nargs="?", type=int, default=8)
    parser.add_argument("--size", type=int, choices=(9, 19), default=9)
    parser.add_argument("--seconds", type=float, default=1.0, help="our target against GNU Go")
    args = parser.parse_args()
    label, command, folder = opponent_command(args.opponent)
    tessera = args.tessera.split()
    lines = openings(os.path.join(SUITES, f"go-{args.size}x{args.size}.txt"))
    chooser = random.Random(2026113001)
    seconds = {True: [], False: []}  # keyed by "is ours"
    for game in range(args.games):
        ours, opponent = Engine(tessera), Engine(command, cwd=folder)
        try:
            play_game(args.size, ours, opponent, chooser.choice(lines), "bw"[game % 2], seconds)
        finally:
            ours.close()
            opponent.close()
        mean = {side: sum(times) / len(times) for side, times in seconds.items()}
        print(f"game {game + 1}/{args.games}: Tessera {mean[True]:.3f} s a move over {len(seconds[True])} moves, "
              f"{label} {mean[False]:.3f} s over {len(seconds[False])}", flush=True)
    if "--playouts" in tessera:
        playouts = int(tessera[tessera.index("--playouts") + 1])
        target = mean[False] if label == "Pachi" else args.seconds
        print(f"equal time ({target:.3f} s a move): about --playouts {round(playouts * target / mean[True], -2):.0f}")


if __name__ == "__main__":
    main()
