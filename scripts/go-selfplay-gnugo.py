#!/usr/bin/env python3
"""GNU Go self-play games for learning the go move priors (crates/go/src/learned.rs).

Each game opens with four stones (two below 13x13) on random 3-4/4-4/3-3 corner points (GNU Go alone would play the
same game every time), then GNU Go plays both sides at the given level until two passes. One game
per line: `B Q16 W D4 ...`, GTP vertices. Runs games in parallel, one GNU Go per worker.

Usage: scripts/go-selfplay-gnugo.py OUT GAMES [LEVEL=0] [WORKERS=2] [SIZE=19]
"""
import concurrent.futures
import random
import shutil
import subprocess
import sys

COLUMNS = "ABCDEFGHJKLMNOPQRST"
# Debian installs GNU Go under /usr/games, which is often not on PATH.
GNUGO = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games") or "gnugo"


def ask(gnugo, command):
    gnugo.stdin.write(command + "\n")
    gnugo.stdin.flush()
    answer = []
    while True:
        line = gnugo.stdout.readline()
        if line == "":
            raise RuntimeError(f"GNU Go stopped on {command}")
        if line.strip():
            answer.append(line.strip())
        elif answer:
            return answer[0][2:].strip()


def corner_points(size):
    points = []
    for x in (2, 3, size - 4, size - 3):
        for y in (2, 3, size - 4, size - 3):
            points.append(f"{COLUMNS[x]}{y + 1}")
    return points


def opening_stones(size):
    """Random opening stones: four on big boards, two on small ones (where four decide a lot)."""
    return 4 if size >= 13 else 2


def play_game(seed, level, size):
    rng = random.Random(seed)
    gnugo = subprocess.Popen(
        [GNUGO, "--mode", "gtp", "--chinese-rules", "--level", str(level), "--seed", str(seed)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        for command in (f"boardsize {size}", "clear_board", "komi 7.5"):
            ask(gnugo, command)
        moves, color, passes = [], "B", 0
        opening = rng.sample(corner_points(size), opening_stones(size))
        while passes < 2 and len(moves) < 3 * size * size:
            if len(moves) < len(opening):
                vertex = opening[len(moves)]
                ask(gnugo, f"play {color} {vertex}")
            else:
                vertex = ask(gnugo, f"genmove {color}").upper()
            if vertex == "RESIGN":
                break
            passes = passes + 1 if vertex == "PASS" else 0
            moves.append(f"{color} {vertex}")
            color = "W" if color == "B" else "B"
        return " ".join(moves)
    except RuntimeError:
        return None  # GNU Go 3.8 now and then stops on an internal assertion; drop that game
    finally:
        gnugo.kill()


def main():
    out, games = sys.argv[1], int(sys.argv[2])
    level = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    workers = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    size = int(sys.argv[5]) if len(sys.argv) > 5 else 19
    with open(out, "w") as file, concurrent.futures.ThreadPoolExecutor(workers) as pool:
        for record in pool.map(lambda seed: play_game(seed, level, size), range(1, games + 1)):
            if record:
                file.write(record + "\n")
                file.flush()


if __name__ == "__main__":
    main()
