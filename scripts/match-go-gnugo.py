#!/usr/bin/env python3
"""Tessera (tessera-gtp) against GNU Go 3.8 at its default level 10: komi 7.5, area scoring,
GNU Go as referee (its final_score, Chinese rules), colours alternating. Prints the win rate with a
95% interval (Wilson) and an Elo estimate, plus playouts/s of both bare playouts on empty 9x9 and
19x19 boards (single thread) as reported by `tessera-gtp bench`.

Usage: scripts/match-go-gnugo.py [--games9 100] [--games19 20] [--parallel 2]
"""
import argparse
import concurrent.futures
import math
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESSERA = os.path.join(ROOT, "target", "release", "tessera-gtp")
GNUGO = "/usr/games/gnugo"


class Gtp:
    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def ask(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise RuntimeError(f"engine died on {command!r}")
            line = line.rstrip("\n")
            if line == "" and lines:
                break
            if line:
                lines.append(line)
        if not lines[0].startswith("="):
            raise RuntimeError(f"{command!r} failed: {lines}")
        return " ".join(lines)[1:].strip()

    def close(self):
        try:
            self.ask("quit")
        except Exception:
            pass
        self.proc.kill()


def play(size, seconds, tessera_black):
    ours = Gtp([TESSERA, "--move-time", str(seconds)])
    gnugo = Gtp([GNUGO, "--mode", "gtp", "--chinese-rules"])
    try:
        for engine in (ours, gnugo):
            engine.ask(f"boardsize {size}")
            engine.ask("clear_board")
            engine.ask("komi 7.5")
        passes, color = 0, "b"
        for _ in range(size * size * 3):
            mover, other = (ours, gnugo) if (color == "b") == tessera_black else (gnugo, ours)
            move = mover.ask(f"genmove {color}").lower()
            if move == "resign":
                winner = "w" if color == "b" else "b"
                return winner == ("b" if tessera_black else "w")
            other.ask(f"play {color} {move}")
            passes = passes + 1 if move == "pass" else 0
            if passes == 2:
                break
            color = "w" if color == "b" else "b"
        score = gnugo.ask("final_score")
        return score.upper().startswith("B+") == tessera_black
    finally:
        ours.close()
        gnugo.close()


def wilson(wins, games, z=1.96):
    if games == 0:
        return 0.0, 0.0, 0.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def elo(p):
    p = min(max(p, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / p - 1)


def run(size, seconds, games, parallel):
    with concurrent.futures.ThreadPoolExecutor(max_workers=parallel) as pool:
        results = list(pool.map(lambda i: play(size, seconds, i % 2 == 0), range(games)))
    wins = sum(results)
    p, low, high = wilson(wins, games)
    print(f"{size}x{size} at {seconds}s/move: Tessera {wins}/{games} = {100 * p:.1f}% "
          f"(95% {100 * low:.1f}-{100 * high:.1f}%), Elo {elo(p):+.0f} "
          f"[{elo(low) if low > 0 else float('-inf'):+.0f}, {elo(high) if high < 1 else float('inf'):+.0f}] vs GNU Go 3.8 level 10")


def speeds():
    out = subprocess.run([TESSERA, "bench", "1000"], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if "empty board" in line:
            print("Tessera", line)
    # GNU Go has no playout speed of its own; its Monte Carlo mode reports none over GTP either.
    print("GNU Go 3.8: no Monte-Carlo playouts to compare (classical engine); see its genmove times above")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games9", type=int, default=100)
    parser.add_argument("--games19", type=int, default=20)
    parser.add_argument("--parallel", type=int, default=2)
    args = parser.parse_args()
    if args.games9:
        run(9, 0.5, args.games9, args.parallel)
    if args.games19:
        run(19, 1.0, args.games19, args.parallel)
    speeds()


if __name__ == "__main__":
    main()
