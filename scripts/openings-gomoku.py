#!/usr/bin/env python3
"""Builds and checks the gomoku/renju opening suites that `tessera match --game gomoku` plays.

File format (data/openings/gomoku-freestyle.txt, data/openings/renju.txt): one opening a line,
the stones as pbrain points `x,y` (0-based column, row from the top-left; black first, then white,
alternately), then `;` and free text (a name, the balance figures). `#` starts a comment line.

    7,7 7,6 7,5 ; Kansei 寒星 (1D) ; tessera d8 +120 ; rapfi d16 +85

Two modes:

    scripts/openings-gomoku.py generate [--count 64] [--candidates 160]
        Freestyle: draws central openings of 3 to 5 stones (black's first on the centre, every stone
        within three points of it; the eight symmetries count once), evaluates each with our search
        and with Rapfi's (when RAPFI or --rapfi names a binary) and writes the --count most balanced
        ones to data/openings/gomoku-freestyle.txt.
    scripts/openings-gomoku.py check [--rule renju] [FILE]
        Re-evaluates every opening of FILE (default: the suite of the rule) and rewrites its balance
        figures in place; names are kept. The renju suite is the 26 standard openings whatever their
        balance: the figures say which side each favours, and the match plays each with both colours.

Scores are from black's point of view: ours in the engine's pattern units (`+M`/`-M` a forced win
or loss), Rapfi's in its evaluation units (about a win rate: +200 ≈ 73% for black). Evaluations are
at a fixed depth, one thread, so a re-run gives the same figures. Rapfi runs from an empty folder so
that its compiled-in classical configuration is used (see scripts/build-rapfi.sh).
"""

import argparse
import os
import random
import re
import shutil
import sys
import tempfile
from pathlib import Path

from pbrain_engine import RULE_NUMBERS, SIZE, Engine
from suites import images, rewrite

ROOT = Path(__file__).resolve().parent.parent
CENTRE = SIZE // 2
SUITES = {"freestyle": "gomoku-freestyle.txt", "standard": "gomoku-freestyle.txt", "renju": "renju.txt"}


def black_view(score, stones):
    """The score from black's side, as text and as a number (forced results as ±100000)."""
    if score is None:
        return "?", 0
    white_to_move = len(stones) % 2 == 1
    mate = re.fullmatch(r"([+-])M(\d+)", score)
    if mate:
        sign = 1 if mate.group(1) == "+" else -1
        sign = -sign if white_to_move else sign
        return f"{'+' if sign > 0 else '-'}M{mate.group(2)}", sign * 100000
    try:
        value = int(score)
    except ValueError:
        return score, 0
    value = -value if white_to_move else value
    return f"{value:+d}", value


def canonical(stones):
    """A key that is the same for symmetric openings (the colours of the stones are kept)."""
    return min(tuple(sorted(image[0::2])) + ((-1, -1),) + tuple(sorted(image[1::2]))
               for image in images(stones, CENTRE))


def has_three(stones):
    """True when a side has three stones within a window of five on a line (a threat already, not a quiet opening)."""
    for colour in (0, 1):
        own = set(stones[colour::2])
        for x, y in own:
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if sum((x + k * dx, y + k * dy) in own for k in range(5)) >= 3:
                    return True
    return False


def candidates(count, seed):
    """`count` distinct central openings of 3 to 5 stones, the first on the centre, none with a three."""
    rng = random.Random(seed)
    seen, found = set(), []
    # Three-stone openings are few (about fifty up to symmetry): the draws are capped, not the count.
    for _ in range(count * 200):
        if len(found) == count:
            break
        stones = [(CENTRE, CENTRE)]
        length = rng.choice((3, 4, 4, 5, 5))
        while len(stones) < length:
            # White's first stone touches the centre (as in renju's openings); later stones stay close.
            reach = 1 if len(stones) == 1 else 3
            point = (CENTRE + rng.randint(-reach, reach), CENTRE + rng.randint(-reach, reach))
            if point not in stones:
                stones.append(point)
        key = canonical(stones)
        if key not in seen and not has_three(stones):
            seen.add(key)
            found.append(stones)
    return found


def parse_line(line):
    points, _, rest = line.partition(";")
    stones = [tuple(int(v) for v in word.split(",")) for word in points.split()]
    notes = [part.strip() for part in rest.split(";")] if rest else []
    name = next((note for note in notes if not note.startswith(("tessera", "rapfi"))), "")
    return stones, name


def format_line(stones, name, ours, rapfi):
    fields = [" ".join(f"{x},{y}" for x, y in stones)]
    if name:
        fields.append(name)
    fields.append(ours)
    if rapfi:
        fields.append(rapfi)
    return " ; ".join(fields)


def engines(args):
    ours = Engine([str(args.tessera)])
    rapfi = None
    binary = args.rapfi or os.environ.get("RAPFI") or shutil.which("pbrain-rapfi")
    if binary and Path(binary).is_file():
        folder = tempfile.mkdtemp(prefix="rapfi-")
        rapfi = Engine([str(Path(binary).resolve())], cwd=folder)
    else:
        print("Rapfi not found (RAPFI=path or --rapfi): our evaluation only", file=sys.stderr)
    return ours, rapfi


def evaluate(stones, rule, ours, rapfi, args):
    text, value = black_view(ours.search(stones, rule, depth=args.our_depth)[0], stones)
    our_field = f"tessera d{args.our_depth} {text}"
    rapfi_field, rapfi_value = "", None
    if rapfi:
        rapfi_text, rapfi_value = black_view(rapfi.search(stones, rule, depth=args.rapfi_depth)[0], stones)
        rapfi_field = f"rapfi d{args.rapfi_depth} {rapfi_text}"
    return our_field, value, rapfi_field, rapfi_value


def generate(args):
    ours, rapfi = engines(args)
    scored = []
    for number, stones in enumerate(candidates(args.candidates, args.seed), 1):
        our_field, value, rapfi_field, rapfi_value = evaluate(stones, "freestyle", ours, rapfi, args)
        # Balanced: no forced result for either side, and (the stronger judge) Rapfi near even.
        badness = abs(rapfi_value) if rapfi_value is not None else abs(value) / 4
        keep = abs(value) < args.our_limit and (rapfi_value is None or abs(rapfi_value) <= args.rapfi_limit)
        print(f"{number:3} {format_line(stones, '', our_field, rapfi_field)}{'' if keep else '  (dropped)'}",
              file=sys.stderr)
        if keep:
            scored.append((badness, stones, our_field, rapfi_field))
    ours.close()
    if rapfi:
        rapfi.close()
    scored.sort(key=lambda entry: entry[0])
    chosen = scored[:args.count]
    if len(chosen) < args.count:
        sys.exit(f"only {len(chosen)} balanced openings among {args.candidates}: raise --candidates")
    # Keep the file in a stable order: by number of stones, then by the points.
    chosen.sort(key=lambda entry: (len(entry[1]), entry[1]))
    header = [
        "# Balanced freestyle/standard gomoku openings, 15x15: the default of `tessera match --game gomoku`",
        "# for the freestyle and standard rules. Written by scripts/openings-gomoku.py generate; format in",
        "# docs/gomoku.md: pbrain points x,y (black first, alternating), then '; ' notes. Scores are black's",
        f"# view at a fixed depth (ours d{args.our_depth}, Rapfi classical d{args.rapfi_depth}); kept when neither",
        f"# engine finds a forced result and |Rapfi| <= {args.rapfi_limit}.",
    ]
    lines = [format_line(stones, f"F{index:02}", ours_field, rapfi_field)
             for index, (_, stones, ours_field, rapfi_field) in enumerate(chosen, 1)]
    path = ROOT / "data/openings" / SUITES["freestyle"]
    path.write_text("\n".join(header + lines) + "\n")
    print(f"wrote {len(lines)} openings to {path}", file=sys.stderr)


def check(args):
    ours, rapfi = engines(args)

    def rerate(line):
        stones, name = parse_line(line)
        our_field, _, rapfi_field, _ = evaluate(stones, args.rule, ours, rapfi, args)
        return format_line(stones, name, our_field, rapfi_field)

    rewrite(Path(args.file) if args.file else ROOT / "data/openings" / SUITES[args.rule], rerate)
    ours.close()
    if rapfi:
        rapfi.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["generate", "check"])
    parser.add_argument("file", nargs="?", help="check: the suite to re-evaluate")
    parser.add_argument("--rule", choices=sorted(RULE_NUMBERS), default="freestyle")
    parser.add_argument("--count", type=int, default=64)
    parser.add_argument("--candidates", type=int, default=160)
    parser.add_argument("--seed", type=int, default=20261125)
    parser.add_argument("--our-depth", type=int, default=8)
    parser.add_argument("--rapfi-depth", type=int, default=16)
    parser.add_argument("--our-limit", type=int, default=5000, help="drop |our score| >= this (default 5000)")
    parser.add_argument("--rapfi-limit", type=int, default=150, help="drop |Rapfi score| > this (default 150)")
    parser.add_argument("--tessera", type=Path, default=ROOT / "target/release/pbrain-tessera")
    parser.add_argument("--rapfi", help="pbrain-rapfi binary (default: RAPFI, then PATH)")
    args = parser.parse_args()
    if not args.tessera.is_file():
        sys.exit(f"{args.tessera} is missing: cargo build --release -p pbrain-tessera")
    if args.mode == "generate":
        generate(args)
    else:
        check(args)


if __name__ == "__main__":
    main()
