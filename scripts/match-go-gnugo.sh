#!/usr/bin/env bash
# Tessera (tessera-gtp) against GNU Go 3.8 at its default level 10, komi 7.5, area scoring, with GNU Go
# also refereeing (its final_score, Chinese rules); colours alternate. Played by `tessera match`.
# Prints each match's score, Elo +/- 95% error and win rate with a 95% (Wilson) interval, then
# playouts/s on empty 9x9 and 19x19 boards (single thread, `tessera-gtp bench`).
#
# Usage: scripts/match-go-gnugo.sh [GAMES_9x9=100] [GAMES_19x19=20] [CONCURRENCY=2]
set -euo pipefail
cd "$(dirname "$0")/.."
games9=${1:-100} games19=${2:-20} concurrency=${3:-2}
bin=target/release
gnugo=$(command -v gnugo || echo /usr/games/gnugo)
[ -x "$bin/tessera" ] && [ -x "$bin/tessera-gtp" ] || { echo "build first: cargo build --release --workspace" >&2; exit 1; }

# `nodes=1` sends GTP engines no time system: ours thinks --move-time seconds, GNU Go at its level.
play() { # size games seconds-per-move
  local summary
  summary=$("$bin/tessera" match --game go --size "$1" --komi 7.5 --games "$2" --concurrency "$concurrency" --tc nodes=1 \
    --engine "cmd=$bin/tessera-gtp name=Tessera arg=--move-time arg=$3" \
    --engine "cmd=$gnugo name=GNUGo-level10 arg=--mode arg=gtp arg=--chinese-rules" \
    --referee "cmd=$gnugo name=referee arg=--mode arg=gtp arg=--chinese-rules" 2>/dev/null | grep -v '^Game ')
  echo "== ${1}x$1, $3 s/move"
  echo "$summary"
  echo "$summary" | wilson "$1"
}
wilson() { # reads the "Score of" line, prints the win rate with its Wilson interval
  awk -v size="$1" '/^Score of/ {
    w = $6; l = $8; d = $10; n = w + l + d; p = (w + d / 2) / n; z = 1.96
    centre = (p + z*z/(2*n)) / (1 + z*z/n); half = z * sqrt(p*(1-p)/n + z*z/(4*n*n)) / (1 + z*z/n)
    printf "%sx%s: Tessera win rate %.1f%% (95%%: %.1f%%-%.1f%%) over %d games\n", size, size, 100*p, 100*(centre-half), 100*(centre+half), n }'
}
play 9 "$games9" 0.5
[ "$games19" -gt 0 ] && play 19 "$games19" 1
echo "Playouts per second (one thread):"
"$bin/tessera-gtp" bench
