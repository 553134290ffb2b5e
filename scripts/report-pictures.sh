#!/usr/bin/env bash
# The pictures of docs/match.md and the README, drawn from real data by our own code: the running
# score of one match per game between our own engines (docs/pictures/match-GAME.svg, and the chess
# match's SPRT as docs/pictures/sprt-chess.svg), taken from the reports `tessera match --report`
# writes, and the strength ladder (docs/pictures/ladder.svg) that `tessera report-ladder` draws
# from the strength logs in docs/.
#
# CONCURRENCY (default 2) games are played at once; the reports stay in SCRATCH.
#
# Usage: [CONCURRENCY=2] [SCRATCH=/tmp/tessera-pictures] scripts/report-pictures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release
for binary in tessera tessera-uci tessera-ucci pbrain-tessera tessera-gtp; do
  [ -x "$bin/$binary" ] || { echo "build first: cargo build --release --workspace" >&2; exit 1; }
done
scratch=${SCRATCH:-${TMPDIR:-/tmp}/tessera-pictures}
mkdir -p docs/pictures "$scratch"

# `report GAME OPTIONS…`: a match of GAME with a report in $scratch/GAME, its score chart kept.
report() {
  local game=$1
  shift
  rm -rf "${scratch:?}/$game"
  echo "== $game"
  "$bin/tessera" match --game "$game" --concurrency "${CONCURRENCY:-2}" --report "$scratch/$game" "$@" | grep -v '^Game '
  cp "$scratch/$game/score.svg" "docs/pictures/match-$game.svg"
}

report chess --tc nodes=5000 --games 100 --max-plies 300 --sprt "elo0=0 elo1=50" \
  --engine "cmd=$bin/tessera-uci name=Network" --engine "cmd=$bin/tessera-uci name=Hand-crafted option.Use_NNUE=false"
cp "$scratch/chess/sprt.svg" docs/pictures/sprt-chess.svg
report xiangqi --tc nodes=5000 --games 60 --max-plies 300 \
  --engine "cmd=$bin/tessera-ucci name=Network" --engine "cmd=$bin/tessera-ucci name=Hand-crafted option.usennue=false"
report gomoku --rule renju --tc depth=4 --games 60 \
  --engine "cmd=$bin/pbrain-tessera name=Tessera" --engine "cmd=$bin/pbrain-tessera name=Plain arg=--style arg=plain"
report go --size 9 --tc nodes=1 --games 60 \
  --engine "cmd=$bin/tessera-gtp name=800-playouts arg=--playouts arg=800" \
  --engine "cmd=$bin/tessera-gtp name=200-playouts arg=--playouts arg=200"
"$bin/tessera" report-ladder --output docs/pictures/ladder.svg
