#!/usr/bin/env python3
"""Equal time against Pachi, measured: how long each engine thinks per move in games between them.

`scripts/strength-go.sh` compares fixed efforts (Pachi's `-t =9000`, our `--playouts N`) so that a
loaded machine biases neither side; which N is equal time depends on the machine and the build.
This script plays Tessera against Pachi from openings of the shipped 9x9 suite, one engine thinking
at a time (run it on an otherwise idle machine), times every `genmove`, and prints each engine's
mean seconds per move. When the Tessera command holds `--playouts N`, it also prints the N that
would take Pachi's time (our time grows about in proportion to N).

Usage: scripts/go-equal-time.py PACHI "TESSERA COMMAND" [GAMES=8]
  e.g. scripts/go-equal-time.py /tmp/pachi-out/pachi "target/release/tessera-gtp --playouts 38000"
"""
import os
import random
import sys
import time

from gtp_engine import Engine
from suites import openings

SUITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "openings", "go-9x9.txt")
MOVE_CAP = 160


def play_game(ours, pachi, opening, ours_colour, seconds):
    """Plays one game from `opening`; adds each engine's genmove times to `seconds`."""
    for engine in (ours, pachi):
        for command in ("boardsize 9", "clear_board", "komi 7.5"):
            engine.ask(command)
    colours = "bw"
    for index, vertex in enumerate(opening):
        for engine in (ours, pachi):
            engine.ask(f"play {colours[index % 2]} {vertex}")
    turn, passes = len(opening) % 2, 0
    for _ in range(MOVE_CAP):
        colour = colours[turn]
        mover, other = (ours, pachi) if colour == ours_colour else (pachi, ours)
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


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    pachi_path, tessera = os.path.abspath(sys.argv[1]), sys.argv[2].split()
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    if not os.access(pachi_path, os.X_OK):
        sys.exit(f"SKIPPED: no Pachi at {pachi_path} (scripts/build-pachi.sh)")
    lines = openings(SUITE)
    chooser = random.Random(2026113001)
    seconds = {True: [], False: []}  # keyed by "is ours"
    for game in range(games):
        ours = Engine(tessera)
        pachi = Engine([pachi_path, "-t", "=9000", "threads=1"], cwd=os.path.dirname(pachi_path))
        try:
            play_game(ours, pachi, chooser.choice(lines), "bw"[game % 2], seconds)
        finally:
            ours.close()
            pachi.close()
        mean = {side: sum(times) / len(times) for side, times in seconds.items()}
        print(f"game {game + 1}/{games}: Tessera {mean[True]:.3f} s a move over {len(seconds[True])} moves, "
              f"Pachi {mean[False]:.3f} s over {len(seconds[False])}", flush=True)
    if "--playouts" in tessera:
        playouts = int(tessera[tessera.index("--playouts") + 1])
        print(f"equal time: about --playouts {round(playouts * mean[False] / mean[True], -2):.0f}")


if __name__ == "__main__":
    main()
