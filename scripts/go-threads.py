#!/usr/bin/env python3
"""Playouts per second of `tessera-gtp` with 1 and with N threads, on 9×9 and 19×19.

Each measurement starts a fresh engine (so no tree is reused from an earlier search), sets up one
of the bench positions (an empty board and a short opening, as `tessera-gtp bench`), and times one
`genmove` at a fixed `--move-time` (which the engine always uses in full), reading the playouts
from the engine's own log line (`genmove b: … (N playouts in T s, …)`). It prints every
measurement with the machine's load average, then per size the median rate per thread count and
its ratio to one thread. Other programs on the machine lower the figures: read the load, and
repeat when it is high.

Usage: scripts/go-threads.py [BINARY=target/release/tessera-gtp] [--threads 1 2] [--seconds 3]
                             [--repeat 3] [--sizes 9 19]
"""
import argparse
import os
import re
import statistics
import subprocess

from gtp_engine import ask

POSITIONS = {9: [[], ["E5", "C4", "G4", "D6"]], 19: [[], ["Q16", "D4", "Q3", "D16", "R5", "K10"]]}
LOG_LINE = re.compile(r"genmove \w+: \S+ \((\d+) playouts in ([0-9.]+) s")


def measure(binary, threads, seconds, size, opening):
    """Playouts and seconds of one `genmove` by a fresh engine after `opening` on `size`."""
    command = [binary, "--threads", str(threads), "--move-time", str(seconds), "--log-level", "info"]
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    for line in (f"boardsize {size}", "clear_board", "komi 7.5"):
        ask(engine, line)
    colours = "bw"
    for index, vertex in enumerate(opening):
        ask(engine, f"play {colours[index % 2]} {vertex}")
    ask(engine, f"genmove {colours[len(opening) % 2]}")
    ask(engine, "quit")
    _, log = engine.communicate()
    found = LOG_LINE.search(log)
    if not found:
        raise RuntimeError(f"no genmove line in the log of {' '.join(command)}:\n{log}")
    return int(found.group(1)), float(found.group(2))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary", nargs="?", default="target/release/tessera-gtp")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 19])
    args = parser.parse_args()
    for size in args.sizes:
        rates = {threads: [] for threads in args.threads}
        for round_index in range(args.repeat):
            for threads in args.threads:
                playouts, seconds = 0, 0.0
                for opening in POSITIONS[size]:
                    count, time = measure(args.binary, threads, args.seconds, size, opening)
                    playouts, seconds = playouts + count, seconds + time
                rate = playouts / seconds
                rates[threads].append(rate)
                load = " ".join(f"{value:.2f}" for value in os.getloadavg())
                print(f"{size}x{size} round {round_index + 1}, {threads} thread(s): {rate:.0f} playouts/s "
                      f"(load {load})", flush=True)
        base = statistics.median(rates[args.threads[0]])
        for threads in args.threads:
            median = statistics.median(rates[threads])
            print(f"{size}x{size} {threads} thread(s): median {median:.0f} playouts/s, "
                  f"{median / base:.2f}x {args.threads[0]} thread(s)")


if __name__ == "__main__":
    main()
