#!/usr/bin/env bash
# Search speed of pbrain-tessera beside Rapfi's (classical evaluation, no network), measured in the
# same run: our `bench` (fixed positions, fixed depth, one thread) and Rapfi's `BENCH` pbrain command
# (its own ten fixed positions, freestyle/standard/renju, to depth 19, one thread, 16 MB table; the same
# benchmark as `pbrain-rapfi bench`, a command-line mode that exists only in builds with command
# modules, which scripts/build-rapfi.sh leaves out). BENCH changes Rapfi's settings, so each round
# starts a fresh process. Each runs ROUNDS times, alternately,
# so that the machine's load falls on both alike; the best nodes/s of each is kept (the least
# disturbed run). Prints both figures, their ratio and the load. A benchmark: CI does not run it.
#
# Rapfi (GPL) is never part of this repository: build it with scripts/build-rapfi.sh. It runs from an
# empty folder so that its compiled-in classical configuration is the one measured.
#
# Usage: [RAPFI=/path/to/pbrain-rapfi] [ROUNDS=3] [DEPTH=10] [TESSERA=target/release/pbrain-tessera]
#        scripts/compare-bench-gomoku.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-3}
# Depth 10 searches about two seconds; the default bench (a tenth of one) mostly fills the pattern
# table, which a game fills once.
depth=${DEPTH:-10}
ours=${TESSERA:-target/release/pbrain-tessera}
[ -x "$ours" ] || { echo "build first: cargo build --release --workspace" >&2; exit 1; }
rapfi=${RAPFI:-$(command -v pbrain-rapfi || true)}
if [ -z "$rapfi" ] || [ ! -x "$rapfi" ]; then
  echo "SKIPPED: Rapfi is not built (scripts/build-rapfi.sh SRC_DIR, then RAPFI=path/to/pbrain-rapfi)" >&2
  exit 0
fi
rapfi=$(cd "$(dirname "$rapfi")" && pwd)/$(basename "$rapfi")
workdir=$(mktemp -d)
trap 'rm -rf "$workdir"' EXIT

best_ours=0 best_rapfi=0 signature="" rapfi_nodes=""
for round in $(seq "$rounds"); do
  line=$("$ours" bench "$depth")
  # Core's bench report: `Nodes searched: N`, `Time (ms): T`, `Nodes/second: S`, `Bench: N`.
  nps=$(sed -n 's/^Nodes\/second: \([0-9]*\)$/\1/p' <<<"$line")
  signature=$(sed -n 's/^Bench: \([0-9]*\)$/\1/p' <<<"$line")
  [ "${nps:-0}" -gt "$best_ours" ] && best_ours=$nps
  report=$( (echo BENCH; echo END) | (cd "$workdir" && "$rapfi") 2>&1)
  rnps=$(sed -n 's/^MESSAGE Nodes\/s: \([0-9]*\).*/\1/p' <<<"$report")
  rapfi_nodes=$(sed -n 's/^MESSAGE Nodes: \([0-9]*\).*/\1/p' <<<"$report")
  [ "${rnps:-0}" -gt "$best_rapfi" ] && best_rapfi=$rnps
  echo "round $round: Tessera $nps nps, Rapfi ${rnps:-?} nps (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
done

echo "| engine | bench nodes | best nodes/s of $rounds |"
echo "|---|---|---|"
echo "| Tessera (pbrain-tessera bench) | $signature | $best_ours |"
echo "| Rapfi classical (BENCH) | $rapfi_nodes | $best_rapfi |"
if [ "$best_rapfi" -gt 0 ]; then
  printf 'ratio Tessera/Rapfi: %.2f\n' "$(echo "$best_ours / $best_rapfi" | bc -l)"
fi
