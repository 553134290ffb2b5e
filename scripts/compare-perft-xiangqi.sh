#!/usr/bin/env bash
# Perft speed, same run, one thread: tessera-ucci vs Fairy-Stockfish (UCI_Variant xiangqi, `go perft`)
# on the xiangqi start position. Prints both nodes/s (wall clock, process start included) and the ratio.
# Usage: scripts/compare-perft-xiangqi.sh [depth]   (default 5; FAIRY=/path/to/fairy-stockfish)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
depth=${1:-5}
ours="$root/target/release/tessera-ucci"
fairy=${FAIRY:-/usr/games/fairy-stockfish}
[ -x "$ours" ] || (cd "$root" && cargo build --release -p tessera-ucci)
[ -x "$fairy" ] || { echo "fairy-stockfish not found at $fairy" >&2; exit 1; }

now() { date +%s%N; }

start=$(now)
ours_nodes=$("$ours" perft "$depth" | sed -n 's/^Nodes searched: //p')
ours_ns=$(( $(now) - start ))

start=$(now)
# Stockfish runs `go perft` in its command loop, so `quit` is read only after the count.
fairy_nodes=$(printf 'uci\nsetoption name UCI_Variant value xiangqi\nsetoption name Threads value 1\nposition startpos\ngo perft %s\nquit\n' "$depth" \
  | "$fairy" | sed -n 's/^Nodes searched: //p')
fairy_ns=$(( $(now) - start ))

[ "$ours_nodes" = "$fairy_nodes" ] || { echo "node counts differ: ours $ours_nodes, fairy $fairy_nodes" >&2; exit 1; }
awk -v n="$ours_nodes" -v o="$ours_ns" -v f="$fairy_ns" -v d="$depth" 'BEGIN {
  ours = n / (o / 1e9); fairy = n / (f / 1e9);
  printf "xiangqi perft %d from the start: %d nodes\n", d, n;
  printf "%-16s %8.2f s %14.0f nodes/s\n", "tessera-ucci", o / 1e9, ours;
  printf "%-16s %8.2f s %14.0f nodes/s\n", "fairy-stockfish", f / 1e9, fairy;
  printf "ratio (ours / fairy-stockfish): %.2fx\n", ours / fairy;
}'
