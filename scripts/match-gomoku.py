#!/usr/bin/env python3
"""Strength of pbrain-tessera against fixed references we own, over the pbrain protocol.

References: the same binary with `--style plain` (fixed-depth alpha-beta, no threat solver) and
`--style greedy` (best-valued point, no search); optionally a frozen earlier build (--frozen PATH).
For each rule (freestyle 15x15, freestyle 20x20, standard 15x15, renju 15x15) it plays GAMES games
per reference from random 3-stone openings, each opening twice with colours swapped, and prints
W/D/L and Elo with a 95% error bar. Usage:

    scripts/match-gomoku.py [--games 100] [--turn-ms 1000] [--frozen path/to/old/pbrain-binary]
"""
import argparse
import math
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "target" / "release" / "pbrain-tessera"
RULES = [("freestyle", 15, 0), ("freestyle", 20, 0), ("standard", 15, 1), ("renju", 15, 4)]


class Brain:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\r\n")
        self.proc.stdin.flush()

    def answer(self):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine died")
            line = line.strip()
            if line and not line.startswith(("MESSAGE", "DEBUG")):
                return line

    def close(self):
        try:
            self.send("END")
            self.proc.wait(timeout=2)
        except Exception:
            self.proc.kill()


def wins(board, size, x, y, colour, exact):
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while 0 <= cx < size and 0 <= cy < size and board.get((cx, cy)) == colour:
                count += 1
                cx, cy = cx + sign * dx, cy + sign * dy
        if count == 5 or (count > 5 and not exact):
            return True
    return False


def play_game(cmd_black, cmd_white, size, rule, opening, turn_ms, log=None):
    """Returns 1 if black wins, 0 if white wins, 0.5 for a draw."""
    brains = [Brain(cmd_black), Brain(cmd_white)]
    board = {}
    moves = []
    for index, (x, y) in enumerate(opening):
        board[(x, y)] = index % 2 + 1
        moves.append((x, y))
    try:
        for brain in brains:
            brain.send(f"START {size}")
            brain.send(f"INFO rule {rule}")
            brain.send(f"INFO timeout_turn {turn_ms}")
            brain.send("INFO timeout_match 0")
            if brain.answer() != "OK":
                raise RuntimeError("START failed")
        seen = [False, False]
        to_move = len(moves) % 2  # 0 black, 1 white
        while len(board) < size * size:
            brain = brains[to_move]
            brain.send("INFO time_left 2147483647")
            if seen[to_move]:
                x, y = moves[-1]
                brain.send(f"TURN {x},{y}")
            else:
                # Each engine first sees the game as a BOARD (a tournament opening).
                brain.send("BOARD")
                for index, (bx, by) in enumerate(moves):
                    own = 1 if index % 2 == to_move else 2
                    brain.send(f"{bx},{by},{own}")
                brain.send("DONE")
                seen[to_move] = True
            line = brain.answer()
            winner_if_bad = 1 if to_move == 1 else 0
            try:
                x, y = (int(v) for v in line.split(","))
            except ValueError:
                return winner_if_bad
            if (x, y) in board or not (0 <= x < size and 0 <= y < size):
                return winner_if_bad
            colour = to_move + 1
            board[(x, y)] = colour
            moves.append((x, y))
            if log is not None:
                log.append((x, y))
            exact = rule == 1 or (rule == 4 and colour == 1)
            if wins(board, size, x, y, colour, exact):
                return 1 if to_move == 0 else 0
            to_move = 1 - to_move
        return 0.5
    finally:
        for brain in brains:
            brain.close()


def elo(wins_, draws, losses):
    """Elo difference and its 95% half-width. One virtual draw is added, so that a clean sweep
    (10-0-0) gives a finite estimate instead of infinity."""
    draws += 1
    games = wins_ + draws + losses
    score = (wins_ + 0.5 * draws) / games

    def to_elo(p):
        p = min(max(p, 1e-3), 1 - 1e-3)
        return -400 * math.log10(1 / p - 1)

    variance = (wins_ * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / games
    error = 1.96 * math.sqrt(variance / games)
    return to_elo(score), (to_elo(score + error) - to_elo(score - error)) / 2


def opening(size, rng):
    centre = size // 2
    stones = set()
    while len(stones) < 3:
        stones.add((centre + rng.randint(-2, 2), centre + rng.randint(-2, 2)))
    return list(stones)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--turn-ms", type=int, default=1000)
    parser.add_argument("--frozen", help="an earlier pbrain binary to measure against too")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not ENGINE.exists():
        sys.exit("build first: cargo build --release -p pbrain-tessera")
    references = [("plain", [str(ENGINE), "--style", "plain"]), ("greedy", [str(ENGINE), "--style", "greedy"])]
    if args.frozen:
        references.append(("frozen", [args.frozen]))
    ours = [str(ENGINE)]
    print(f"{'rule':<16} {'opponent':<8} {'W':>4} {'D':>4} {'L':>4} {'Elo':>8} {'±95%':>7}   ({args.turn_ms} ms/move)")
    for name, size, rule in RULES:
        for ref_name, ref in references:
            rng = random.Random(args.seed)
            w = d = l = 0
            started = time.time()
            for game in range(args.games):
                if game % 2 == 0:
                    stones = opening(size, rng)
                black_is_ours = game % 2 == 0
                result = play_game(ours if black_is_ours else ref, ref if black_is_ours else ours, size, rule, stones, args.turn_ms)
                ours_score = result if black_is_ours else 1 - result
                if ours_score == 1:
                    w += 1
                elif ours_score == 0:
                    l += 1
                else:
                    d += 1
            value, error = elo(w, d, l)
            label = f"{name} {size}x{size}"
            print(f"{label:<16} {ref_name:<8} {w:>4} {d:>4} {l:>4} {value:>8.0f} {error:>7.0f}   ({time.time() - started:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
