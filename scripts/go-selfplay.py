#!/usr/bin/env python3
"""Self-play game records of GNU Go or Pachi for learning the go move priors (crates/go/src/learned.rs).

Each game opens with four stones (two below 13x13) on random 3-4/4-4/3-3 corner points (GNU Go alone
would play the same game every time), then the engine plays both sides until two passes or a
resignation. One game per line, `B Q16 W D4 ...` in GTP vertices, appended to OUT: a stopped run goes
on where it left off (the seeds continue after the games already in OUT). Runs games in parallel,
one engine process per worker, and prints one line per finished game.

Usage:
  scripts/go-selfplay.py OUT GAMES [--level 0] [--workers 2] [--size 19]       # GNU Go at LEVEL
  scripts/go-selfplay.py OUT GAMES --pachi DIR [--playouts 9000] [--size 9]    # Pachi, run in DIR

Pachi (built by scripts/build-pachi.sh) reads its pattern files from its own folder, so it runs
there, one thread, a fixed number of playouts a move and the game's seed as its random seed. It
resigns hopeless games (below 20%), whose later moves would teach little; close games reach the end.
"""
import argparse
import concurrent.futures
import os
import random
import subprocess
import sys

from gtp_engine import COLUMNS, GNUGO, ask

GNUGO = GNUGO or "gnugo"  # absent: the first run reports it


def corner_points(size):
    points = []
    for x in (2, 3, size - 4, size - 3):
        for y in (2, 3, size - 4, size - 3):
            points.append(f"{COLUMNS[x]}{y + 1}")
    return points


def opening_stones(size):
    """Random opening stones: four on big boards, two on small ones (where four decide a lot)."""
    return 4 if size >= 13 else 2


def start_engine(args, seed):
    if args.pachi:
        command = [os.path.join(args.pachi, "pachi"), "-s", str(seed), "-t", f"={args.playouts}", "threads=1"]
        return subprocess.Popen(command, cwd=args.pachi, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
    command = [GNUGO, "--mode", "gtp", "--chinese-rules", "--level", str(args.level), "--seed", str(seed)]
    return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)


def play_game(seed, args):
    rng = random.Random(seed)
    size = args.size
    engine = start_engine(args, seed)
    try:
        for command in (f"boardsize {size}", "clear_board", "komi 7.5"):
            ask(engine, command)
        moves, color, passes = [], "B", 0
        opening = rng.sample(corner_points(size), opening_stones(size))
        while passes < 2 and len(moves) < 3 * size * size:
            if len(moves) < len(opening):
                vertex = opening[len(moves)]
                ask(engine, f"play {color} {vertex}")
            else:
                vertex = ask(engine, f"genmove {color}").upper()
            if vertex == "RESIGN":
                break
            passes = passes + 1 if vertex == "PASS" else 0
            moves.append(f"{color} {vertex}")
            color = "W" if color == "B" else "B"
        return " ".join(moves)
    except RuntimeError:
        return None  # GNU Go 3.8 now and then stops on an internal assertion; drop that game
    finally:
        engine.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("games", type=int, help="games OUT should hold at the end")
    parser.add_argument("legacy_level", nargs="?", type=int, help=argparse.SUPPRESS)
    parser.add_argument("legacy_workers", nargs="?", type=int, help=argparse.SUPPRESS)
    parser.add_argument("legacy_size", nargs="?", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--level", type=int, default=0, help="GNU Go level")
    parser.add_argument("--pachi", help="Pachi's folder (scripts/build-pachi.sh): play Pachi instead of GNU Go")
    parser.add_argument("--playouts", type=int, default=9000, help="Pachi's playouts a move")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--size", type=int, default=19)
    args = parser.parse_args()
    # The older positional form: OUT GAMES [LEVEL] [WORKERS] [SIZE].
    for legacy, name in ((args.legacy_level, "level"), (args.legacy_workers, "workers"), (args.legacy_size, "size")):
        if legacy is not None:
            setattr(args, name, legacy)
    if args.pachi and not os.access(os.path.join(args.pachi, "pachi"), os.X_OK):
        sys.exit(f"no Pachi binary in {args.pachi} (build it with scripts/build-pachi.sh)")
    done = 0
    if os.path.exists(args.out):
        with open(args.out) as file:
            done = sum(1 for _ in file)
    seeds = range(done + 1, args.games + 1)
    with open(args.out, "a") as file, concurrent.futures.ThreadPoolExecutor(args.workers) as pool:
        for seed, record in zip(seeds, pool.map(lambda seed: play_game(seed, args), seeds)):
            if record:
                file.write(record + "\n")
                file.flush()
            print(f"game {seed}/{args.games}: {len(record.split()) // 2 if record else 0} moves", flush=True)


if __name__ == "__main__":
    main()
