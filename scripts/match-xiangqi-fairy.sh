#!/usr/bin/env bash
# tessera-ucci against Fairy-Stockfish (xiangqi, one thread), both over UCCI, played by `tessera match`:
# the shipped balanced suite (data/openings/xiangqi.epd), each opening with both colours, games
# adjudicated by our Asian rules. scripts/strength-xiangqi.sh adds Sjaak II and one table.
# Prints W/D/L, score and Elo +/- 95% error.
#
# CONCURRENCY (default 1) games are played at once.
#
# Usage: [CONCURRENCY=2] scripts/match-xiangqi-fairy.sh [GAMES=200] [TC=5+0.05] [PROTOCOL=ucci|uci]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200} tc=${2:-5+0.05} protocol=${3:-ucci}
bin=target/release
fairy=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
[ -x "$bin/tessera" ] && [ -x "$bin/tessera-ucci" ] || { echo "build first: cargo build --release --workspace" >&2; exit 1; }
"$bin/tessera" match --concurrency "${CONCURRENCY:-1}" --game xiangqi --games "$games" --tc "$tc" --max-plies 300 \
  --engine "cmd=$bin/tessera-ucci name=Tessera proto=$protocol" \
  --engine "cmd=$fairy name=Fairy-Stockfish proto=$protocol option.Threads=1" | grep -v '^Game '
