#!/usr/bin/env bash
# Strength of pbrain-tessera against fixed references we own, played by `tessera match` over pbrain:
# the same binary with `--style plain` (fixed-depth alpha-beta, no threat solver) and `--style greedy`
# (best-valued point, no search), and optionally a frozen earlier build. For freestyle 15x15,
# freestyle 20x20, standard 15x15 and renju 15x15 it prints W/D/L and Elo +/- 95% error.
#
# CONCURRENCY (default 1) games are played at once.
#
# Usage: [CONCURRENCY=2] scripts/match-gomoku.sh [GAMES=100] [SECONDS_PER_MOVE=1] [FROZEN_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100} seconds=${2:-1} frozen=${3:-}
bin=target/release
[ -x "$bin/tessera" ] && [ -x "$bin/pbrain-tessera" ] || { echo "build first: cargo build --release --workspace" >&2; exit 1; }
references=("cmd=$bin/pbrain-tessera name=plain arg=--style arg=plain" "cmd=$bin/pbrain-tessera name=greedy arg=--style arg=greedy")
[ -n "$frozen" ] && references+=("cmd=$frozen name=frozen")
for rule_size in freestyle:15 freestyle:20 standard:15 renju:15; do
  rule=${rule_size%%:*} size=${rule_size#*:}
  for reference in "${references[@]}"; do
    echo "== $rule ${size}x$size, ${seconds} s/move, $games games vs $(name=${reference#*name=}; echo "${name%% *}")"
    "$bin/tessera" match --concurrency "${CONCURRENCY:-1}" --game gomoku --rule "$rule" --size "$size" --tc "st=$seconds" --games "$games" \
      --engine "cmd=$bin/pbrain-tessera name=Tessera" --engine "$reference" | grep -v '^Game '
  done
done
