#!/usr/bin/env python3
"""Finished go games for the scoring test (tests/go_scoring.rs), each scored by GNU Go.

Plays games to two passes between GTP engines. PAIRING is one of
- gnugo: GNU Go against itself at a random level (it passes with dead stones left in its
  territory, which a referee must find);
- tessera: tessera-gtp against GNU Go;
- invade: a GNU Go self-play game, then one side drops 1-3 lone stones into the other's
  territories (the other side passing) before both pass: dead invaders in open areas, the case of
  issue 17's reproducer;
- early: a GNU Go self-play game that both sides pass out early (after a quarter to two fifths of
  the board is played), leaving open areas and unsettled borders.
Each game opens with a few random moves so that no two games are alike. Writes OUT_DIR/NAME.sgf
and appends `NAME<TAB>SIZE<TAB>RESULT` to OUT_DIR/results.tsv, RESULT being what
`gnugo --score aftermath --chinese-rules -l NAME.sgf` says (GNU Go plays the game out, capturing
dead stones, then counts by area). Games that end by resignation, or where GNU Go stops on one of
its internal assertions, are dropped.

Usage: scripts/go-scoring-fixture.py OUT_DIR SIZE GAMES [PAIRING=gnugo|tessera] [FIRST_SEED=1]
       (TESSERA=path/to/tessera-gtp, default target/release/tessera-gtp)
"""
import os
import random
import re
import subprocess
import sys

from gtp_engine import GNUGO

COLUMNS = "ABCDEFGHJKLMNOPQRST"
GNUGO = GNUGO or "gnugo"  # absent: the first run reports it
TESSERA = os.environ.get("TESSERA", "target/release/tessera-gtp")


class Engine:
    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)

    def ask(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        answer = []
        while True:
            line = self.process.stdout.readline()
            if line == "":
                raise RuntimeError(f"engine stopped on {command}")
            if line.strip():
                answer.append(line.strip())
            elif answer:
                if answer[0].startswith("?"):
                    raise RuntimeError(f"{command}: {answer[0]}")
                return answer[0][1:].strip()

    def close(self):
        self.process.kill()
        self.process.wait()


def gnugo(level, seed):
    return Engine([GNUGO, "--mode", "gtp", "--chinese-rules", "--level", str(level), "--seed", str(seed)])


def sgf_point(vertex, size):
    column = COLUMNS.index(vertex[0])
    row = size - int(vertex[1:])
    return "abcdefghijklmnopqrstuvwxy"[column] + "abcdefghijklmnopqrstuvwxy"[row]


def play_game(seed, size, pairing):
    rng = random.Random(seed * 7919 + size)
    # GNU Go's higher levels take seconds a move on big boards.
    top_level = 11 if size <= 9 else 3
    level = rng.randrange(0, top_level)
    black_white = [gnugo(level, seed), gnugo(rng.randrange(0, top_level), seed + 1)]
    names = [f"GNU Go level {level}", "GNU Go"]
    if pairing == "tessera":
        tessera = Engine([TESSERA, "--playouts", str(3000 if size == 9 else 1500), "--resign-threshold", "0"])
        black_white = [black_white[0], tessera]
        names = [names[0], "Tessera"]
        if rng.random() < 0.5:
            black_white.reverse()
            names.reverse()
    try:
        for engine in black_white:
            for command in (f"boardsize {size}", "clear_board", "komi 7.5"):
                engine.ask(command)
        # A few random moves away from the edge so that GNU Go does not repeat itself.
        low, high = (2, size - 3) if size == 9 else (2, size - 3)
        opening_moves = 2 if size == 9 else 4
        moves, passes = [], 0
        early_stop = rng.randint(size * size // 4, size * size * 2 // 5)
        while passes < 2 and len(moves) < 3 * size * size:
            color = "B" if len(moves) % 2 == 0 else "W"
            mover = black_white[len(moves) % 2]
            other = black_white[1 - len(moves) % 2]
            if len(moves) < opening_moves:
                while True:
                    vertex = f"{COLUMNS[rng.randint(low, high)]}{rng.randint(low + 1, high + 1)}"
                    if vertex not in [mv[1] for mv in moves]:
                        break
                mover.ask(f"play {color} {vertex}")
            else:
                vertex = mover.ask(f"genmove {color}").upper()
            if vertex == "RESIGN":
                return None
            if mover is not other:
                other.ask(f"play {color} {vertex}")
            passes = passes + 1 if vertex == "PASS" else 0
            moves.append((color, vertex))
            if pairing == "early" and len(moves) >= early_stop and passes == 0:
                moves += [("B" if len(moves) % 2 == 0 else "W", "PASS"), ("W" if len(moves) % 2 == 0 else "B", "PASS")]
                passes = 2
        if passes < 2:
            return None
        if pairing == "invade":
            moves = moves[:-2]
            invade(black_white[0], size, moves, rng)
        return names, moves
    except RuntimeError as error:
        print(f"seed {seed}: dropped ({error})", file=sys.stderr)
        return None
    finally:
        for engine in {id(e): e for e in black_white}.values():
            engine.close()


def territories(engine, size):
    """Empty regions bordered by one colour only: (colour, points) for each."""
    stones = {}
    for color in ("black", "white"):
        for vertex in engine.ask(f"list_stones {color}").split():
            stones[vertex.upper()] = color
    seen, regions = set(), []
    points = [f"{COLUMNS[x]}{y}" for x in range(size) for y in range(1, size + 1)]

    def around(vertex):
        x, y = COLUMNS.index(vertex[0]), int(vertex[1:])
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= x + dx < size and 1 <= y + dy <= size:
                yield f"{COLUMNS[x + dx]}{y + dy}"

    for start in points:
        if start in stones or start in seen:
            continue
        region, borders, stack = [], set(), [start]
        seen.add(start)
        while stack:
            vertex = stack.pop()
            region.append(vertex)
            for n in around(vertex):
                if n in stones:
                    borders.add(stones[n])
                elif n not in seen:
                    seen.add(n)
                    stack.append(n)
        if len(borders) == 1:
            regions.append((borders.pop(), [v for v in region if all(n not in stones for n in around(v))]))
    return regions


def invade(engine, size, moves, rng):
    """One side drops 1-3 stones into the other's territories (each answered by a pass), then
    both pass. The stones go on points with only empty neighbours, inside regions of 6+ points."""
    owner = rng.choice(["black", "white"])
    invader = "W" if owner == "black" else "B"
    targets = [vertex for color, inner in territories(engine, size) if color == owner and len(inner) >= 3
               for vertex in inner]
    for vertex in rng.sample(targets, min(len(targets), rng.randint(1, 3))):
        if (len(moves) % 2 == 0) != (invader == "B"):
            moves.append(("B" if len(moves) % 2 == 0 else "W", "PASS"))
        moves.append((invader, vertex))
    moves.append(("B" if len(moves) % 2 == 0 else "W", "PASS"))
    moves.append(("B" if len(moves) % 2 == 0 else "W", "PASS"))


def write_sgf(path, size, names, moves):
    body = "".join(f";{color}[{'' if vertex == 'PASS' else sgf_point(vertex, size)}]" for color, vertex in moves)
    with open(path, "w") as file:
        file.write(f"(;FF[4]GM[1]SZ[{size}]KM[7.5]RU[Chinese]PB[{names[0]}]PW[{names[1]}]{body})\n")


def gnugo_score(path):
    output = subprocess.run([GNUGO, "--score", "aftermath", "--chinese-rules", "-l", path],
                            capture_output=True, text=True, timeout=600).stdout
    match = re.search(r"(White|Black) wins by ([0-9.]+) points", output)
    if match:
        return ("B+" if match.group(1) == "Black" else "W+") + match.group(2)
    if re.search(r"[Jj]igo", output):
        return "0"
    raise RuntimeError(f"no score from GNU Go for {path}: {output!r}")


def main():
    out, size, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    pairing = sys.argv[4] if len(sys.argv) > 4 else "gnugo"
    first_seed = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    os.makedirs(out, exist_ok=True)
    seed, made = first_seed, 0
    while made < games and seed < first_seed + 10 * games:
        game = play_game(seed, size, pairing)
        if game:
            name = f"{size}x{size}-{pairing}-{seed:03d}"
            path = os.path.join(out, name + ".sgf")
            write_sgf(path, size, *game)
            try:
                result = gnugo_score(path)
            except (RuntimeError, subprocess.TimeoutExpired) as error:
                print(f"{name}: dropped ({error})", file=sys.stderr)
                os.remove(path)
            else:
                with open(os.path.join(out, "results.tsv"), "a") as file:
                    file.write(f"{name}\t{size}\t{result}\n")
                print(f"{name}: {len(game[1])} moves, GNU Go: {result}", file=sys.stderr)
                made += 1
        seed += 1


if __name__ == "__main__":
    main()
