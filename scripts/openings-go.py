#!/usr/bin/env python3
"""Builds and checks the go opening suites that `tessera match --game go` plays on 9x9 and 19x19.

File format (data/openings/go-9x9.txt, go-19x19.txt): one opening a line, its moves as GTP
vertices (black first, then alternately), then `;` and free text (a name, the balance figures).
`#` starts a comment line.

    E5 G5 E7 ; N07 ; tessera 50000 B 51% ; pachi 20000 B 49%

Two modes:

    scripts/openings-go.py generate [--size 9|19] [--count 64] [--candidates 240]
        Draws openings of 2 to 4 moves, the eight symmetries counted once; rates each with our
        search and with Pachi's (when PACHI or --pachi names the binary) and writes the --count
        most balanced ones to the size's suite. On 9x9 the moves lie on the third to fifth lines,
        no stone touching another along a line (a contact fight is no opening to start a match
        from); on 19x19 each move takes an empty corner on one of its usual points (3-3, 3-4, 4-4,
        3-5, 4-5): the fuseki a game between people starts with.
    scripts/openings-go.py check [--size 9|19] [FILE]
        Re-rates every opening of FILE (default: the size's suite) and rewrites its figures in
        place; names are kept.

The figures are black's winning chance at komi 7.5 (the arena's and Pachi matches' komi) as each
engine's search rates its best move (`lz-genmove_analyze`) after a fixed number of playouts on one
thread: ours repeat exactly on a re-run, Pachi's (seeded from the clock) by a point or two; Pachi
reports no analysis below about 2000 playouts. Pachi runs in its own folder, where it finds its
pattern files. The two engines rate an opening at the same time, one core each.
"""

import argparse
import concurrent.futures
import os
import random
import shutil
import sys
from pathlib import Path

from gtp_engine import COLUMNS, Engine
from suites import images, rewrite

ROOT = Path(__file__).resolve().parent.parent
SIZES = (9, 19)
KOMI = 7.5
# A corner's usual first points, as distances from its two edges (0 = the first line).
CORNER_POINTS = [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2), (3, 4), (4, 3)]


def suite_path(size):
    return ROOT / f"data/openings/go-{size}x{size}.txt"


def vertex(point):
    x, y = point
    return f"{COLUMNS[x]}{y + 1}"


def canonical(points, size):
    """A key that is the same for symmetric openings (the order of the moves is kept)."""
    return min(tuple(image) for image in images(points, size // 2))


def small_board_opening(rng, size):
    """2 to 4 moves on the third to fifth lines, no two stones side by side."""
    points = []
    length = rng.choice((2, 3, 3, 4, 4))
    while len(points) < length:
        candidate = (rng.randint(2, size - 3), rng.randint(2, size - 3))
        if all(abs(candidate[0] - x) + abs(candidate[1] - y) > 1 for x, y in points):
            points.append(candidate)
    return points


def corner_opening(rng, size):
    """2 to 4 moves, each on a usual point of a corner no earlier move took."""
    corners = rng.sample(range(4), rng.choice((2, 3, 3, 4, 4)))
    points = []
    for corner in corners:
        along, across = rng.choice(CORNER_POINTS)
        x = along if corner & 1 == 0 else size - 1 - along
        y = across if corner & 2 == 0 else size - 1 - across
        points.append((x, y))
    return points


def candidates(count, seed, size):
    """`count` distinct openings for a `size` board."""
    rng = random.Random(seed)
    draw = corner_opening if size >= 13 else small_board_opening
    seen, found = set(), []
    for _ in range(count * 200):
        if len(found) == count:
            break
        points = draw(rng, size)
        key = canonical(points, size)
        if key not in seen:
            seen.add(key)
            found.append(points)
    return found


def parse_line(line):
    moves, _, rest = line.partition(";")
    notes = [part.strip() for part in rest.split(";")] if rest else []
    name = next((note for note in notes if not note.startswith(("tessera", "pachi"))), "")
    return moves.split(), name


def format_line(moves, name, ratings):
    fields = [" ".join(moves)] + ([name] if name else [])
    fields += [f"{label} B {round(100 * value)}%" for label, value in ratings]
    return " ; ".join(fields)


def engines(args):
    """(label, engine) pairs: ours, then Pachi when found."""
    found = [(f"tessera {args.our_playouts}",
              Engine([str(args.tessera), "--playouts", str(args.our_playouts)]))]
    binary = args.pachi or os.environ.get("PACHI") or shutil.which("pachi")
    if binary and Path(binary).is_file():
        binary = Path(binary).resolve()
        command = [str(binary), "-t", f"={args.pachi_playouts}", "threads=1"]
        found.append((f"pachi {args.pachi_playouts}", Engine(command, cwd=binary.parent)))
    else:
        print("Pachi not found (PACHI=path or --pachi): our rating only", file=sys.stderr)
    return found


def rate(size, moves, rated_by, pool):
    """Each engine's (label, black's winning chance) after `moves`, the engines in parallel."""
    futures = [(label, pool.submit(engine.black_winrate, size, KOMI, moves)) for label, engine in rated_by]
    return [(label, future.result()) for label, future in futures]


def generate(args):
    rated_by = engines(args)
    scored = []
    with concurrent.futures.ThreadPoolExecutor(len(rated_by)) as pool:
        for number, points in enumerate(candidates(args.candidates, args.seed, args.size), 1):
            moves = [vertex(p) for p in points]
            ratings = rate(args.size, moves, rated_by, pool)
            # Balanced: every engine within the limit; the stronger judge (Pachi, listed last) ranks.
            keep = all(abs(value - 0.5) <= args.limit for _, value in ratings)
            print(f"{number:3} {format_line(moves, '', ratings)}{'' if keep else '  (dropped)'}", file=sys.stderr)
            if keep:
                scored.append((abs(ratings[-1][1] - 0.5), moves, ratings))
    for _, engine in rated_by:
        engine.close()
    scored.sort(key=lambda entry: entry[0])
    chosen = scored[:args.count]
    if len(chosen) < args.count:
        sys.exit(f"only {len(chosen)} balanced openings among {args.candidates}: raise --candidates")
    # A stable file order: by number of moves, then by the moves.
    chosen.sort(key=lambda entry: (len(entry[1]), entry[1]))
    labels = " and ".join(label.replace(" ", " at ") + " playouts" for label, _ in rated_by)
    board = f"{args.size}x{args.size}"
    header = [
        f"# Balanced {board} go openings: the default of `tessera match --game go` on {board}, komi 7.5.",
        f"# Written by scripts/openings-go.py generate --size {args.size}; GTP vertices (black first, alternating), then",
        "# '; ' notes: black's winning chance at komi 7.5 as rated by",
        f"# {labels}; kept when every rating lies within {round(100 * (0.5 - args.limit))}-{round(100 * (0.5 + args.limit))}%.",
    ]
    lines = [format_line(moves, f"N{index:02}", ratings) for index, (_, moves, ratings) in enumerate(chosen, 1)]
    suite = suite_path(args.size)
    suite.write_text("\n".join(header + lines) + "\n")
    print(f"wrote {len(lines)} openings to {suite}", file=sys.stderr)


def check(args):
    rated_by = engines(args)
    with concurrent.futures.ThreadPoolExecutor(len(rated_by)) as pool:
        def rerate(line):
            moves, name = parse_line(line)
            return format_line(moves, name, rate(args.size, moves, rated_by, pool))

        rewrite(Path(args.file) if args.file else suite_path(args.size), rerate)
    for _, engine in rated_by:
        engine.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["generate", "check"])
    parser.add_argument("file", nargs="?", help="check: the suite to re-rate")
    parser.add_argument("--size", type=int, choices=SIZES, default=9)
    parser.add_argument("--count", type=int, default=64)
    parser.add_argument("--candidates", type=int, default=240)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--limit", type=float, default=0.1, help="drop a rating further than this from 0.5")
    parser.add_argument("--our-playouts", type=int, default=50000)
    parser.add_argument("--pachi-playouts", type=int, default=20000)
    parser.add_argument("--tessera", type=Path, default=ROOT / "target/release/tessera-gtp")
    parser.add_argument("--pachi", help="Pachi binary (default: PACHI, then PATH)")
    args = parser.parse_args()
    if not args.tessera.is_file():
        sys.exit(f"{args.tessera} is missing: cargo build --release -p tessera-gtp")
    if args.mode == "generate":
        generate(args)
    else:
        check(args)


if __name__ == "__main__":
    main()
