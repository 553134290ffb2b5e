#!/usr/bin/env python3
"""Strength match: tessera-ucci vs Fairy-Stockfish, both over UCCI, one thread each.

Games start from varied openings, each played twice with colours swapped, at a real clock of
5 s + 0.05 s per move for each side (exceeding it loses). Our rules referee every move and the
result (`tessera-ucci judge`: legal moves, checkmate/stalemate, perpetual check/chase, 60-move
rule); a game still going after --max-plies is a draw. Prints W/D/L for tessera and Elo ± 95%.

Usage: scripts/match-xiangqi-fairy.py [--games 200] [--base 5] [--inc 0.05] [--fairy PATH]
"""

import argparse
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OURS = os.path.join(ROOT, "target", "release", "tessera-ucci")

# Common first moves of both sides (ICCS), so games do not repeat one line.
OPENINGS = [
    "h2e2 h9g7", "h2e2 b9c7", "b2e2 h7e7", "c3c4 g6g5", "g3g4 c6c5", "h0g2 b9c7", "c0e2 h7e7",
    "b2d2 h9g7", "h2f2 b9c7", "b0c2 h9g7", "h2e2 h7e7", "c3c4 b9c7", "b2c2 h9g7", "g0e2 b7e7",
    "h2e2 h9g7 h0g2 i9h9", "b2e2 b9c7 b0c2 a9b9", "c3c4 h7e7 h2e2 h9g7", "h2d2 h9g7",
    "e3e4 h7e7", "h2e2 c6c5", "b2f2 h9g7", "h2c2 b9c7", "c0e2 b9c7", "g3g4 h7g7",
]


class Engine:
    """A UCCI engine over pipes."""

    def __init__(self, name, argv):
        self.name = name
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("ucci")
        self.wait_for(lambda line: line == "ucciok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, done):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"{self.name} closed its output")
            line = line.strip()
            if done(line):
                return line

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def judge(moves):
    """Our rules' verdict after `moves`: (result, legal moves)."""
    out = subprocess.run([OURS, "judge", *moves], capture_output=True, text=True, check=True).stdout.splitlines()
    result = out[0].split(" ", 1)[1]
    legal = set(out[1].split()[1:])
    return result, legal


def play_game(ours, fairy, opening, ours_red, base, inc, max_plies, moves):
    """Plays into `moves`; returns tessera's score (1, 0.5, 0) and a reason."""
    moves.extend(opening.split())
    clocks = {True: base, False: base}  # by "is tessera"
    for engine in (ours, fairy):
        engine.send("setoption newgame")
    while True:
        result, legal = judge(moves)
        red_to_move = len(moves) % 2 == 0
        ours_to_move = red_to_move == ours_red
        if result != "ongoing":
            if result.startswith("draw"):
                return 0.5, result
            red_won = result.startswith("red")
            return (1.0 if red_won == ours_red else 0.0), result
        if len(moves) >= max_plies:
            return 0.5, "adjudicated draw (move limit)"
        engine = ours if ours_to_move else fairy
        mine = int(clocks[ours_to_move] * 1000)
        theirs = int(clocks[not ours_to_move] * 1000)
        engine.send("position startpos moves " + " ".join(moves))
        engine.send(f"go time {mine} increment {int(inc * 1000)} opptime {theirs} oppincrement {int(inc * 1000)}")
        started = time.monotonic()
        answer = engine.wait_for(lambda line: line.startswith("bestmove") or line == "nobestmove")
        clocks[ours_to_move] -= time.monotonic() - started
        if clocks[ours_to_move] < 0:
            return (0.0 if ours_to_move else 1.0), f"{engine.name} lost on time"
        clocks[ours_to_move] += inc
        tokens = answer.split()
        if tokens[0] == "nobestmove" or tokens[1] == "(none)":
            return (0.0 if ours_to_move else 1.0), f"{engine.name} gave no move with legal moves left"
        if "resign" in tokens[2:]:
            return (0.0 if ours_to_move else 1.0), f"{engine.name} resigned"
        if tokens[1] not in legal:
            return (0.0 if ours_to_move else 1.0), f"{engine.name} played illegal {tokens[1]}"
        moves.append(tokens[1])


def elo(score, games, wins, draws, losses):
    """Elo difference and its 95% half-width from the per-game variance."""
    if games == 0:
        return 0.0, 0.0
    mean = score / games
    variance = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / games
    stderr = math.sqrt(variance / games)

    def to_elo(p):
        p = min(max(p, 1e-6), 1 - 1e-6)
        return -400 * math.log10(1 / p - 1)

    low, high = to_elo(mean - 1.96 * stderr), to_elo(mean + 1.96 * stderr)
    return to_elo(mean), (high - low) / 2


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--base", type=float, default=5.0, help="seconds per side per game")
    parser.add_argument("--inc", type=float, default=0.05, help="seconds added per move")
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--first-opening", type=int, default=0, help="index of the first opening used")
    parser.add_argument("--fairy", default="/usr/games/fairy-stockfish")
    parser.add_argument("--verbose", action="store_true", help="print each game's moves")
    args = parser.parse_args()
    if not os.access(OURS, os.X_OK):
        subprocess.run(["cargo", "build", "--release", "-p", "tessera-ucci"], cwd=ROOT, check=True)
    ours = Engine("tessera-ucci", [OURS])
    ours.send("setoption usemillisec true")
    fairy = Engine("fairy-stockfish", [args.fairy])
    # Fairy-Stockfish searches with one thread by default.
    wins = draws = losses = 0
    try:
        for game in range(args.games):
            opening = OPENINGS[(args.first_opening + game // 2) % len(OPENINGS)]
            ours_red = game % 2 == 0
            moves = []
            score, reason = play_game(ours, fairy, opening, ours_red, args.base, args.inc, args.max_plies, moves)
            wins += score == 1.0
            draws += score == 0.5
            losses += score == 0.0
            colour = "red" if ours_red else "black"
            print(f"game {game + 1:3d} ({colour:5s}, {opening}): {score:.1f} {reason}, {len(moves)} plies", flush=True)
            if args.verbose:
                print("  moves " + " ".join(moves), flush=True)
    finally:
        ours.quit()
        fairy.quit()
    games = wins + draws + losses
    diff, margin = elo(wins + draws / 2, games, wins, draws, losses)
    print(f"tessera-ucci vs fairy-stockfish, {games} games at {args.base:g}s+{args.inc:g}s:")
    print(f"W/D/L {wins}/{draws}/{losses}  score {100 * (wins + draws / 2) / max(games, 1):.1f}%  "
          f"Elo {diff:+.0f} ± {margin:.0f} (95%)")


if __name__ == "__main__":
    sys.exit(main())
