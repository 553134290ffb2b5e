#!/usr/bin/env bash
# tessera-uci against Phalanx XXV (xboard) through `tessera match`: GAMES games at TC from the shipped
# balanced suite, each opening played with both colours, refereed by our rules (a flag loses). Prints W/D/L,
# score and Elo +/- 95% error. Another opponent: OPPONENT="cmd=/usr/games/glaurung proto=uci".
# ELO, if set, plays Tessera with UCI_LimitStrength at that UCI_Elo.
#
# CONCURRENCY (default 1) games are played at once.
#
# Usage: [CONCURRENCY=2] [OPPONENT=...] [ELO=1500] scripts/match-chess-phalanx.sh [GAMES=200] [TC=5+0.05]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200} tc=${2:-5+0.05}
bin=target/release
phalanx=$(command -v phalanx || echo /usr/games/phalanx)
opponent=${OPPONENT:-"cmd=$phalanx name=Phalanx proto=xboard"}
[ -x "$bin/tessera" ] && [ -x "$bin/tessera-uci" ] || { echo "build first: cargo build --release --workspace" >&2; exit 1; }
ours="cmd=$bin/tessera-uci name=Tessera"
[ -n "${ELO:-}" ] && ours="$ours option.UCI_LimitStrength=true option.UCI_Elo=$ELO"
"$bin/tessera" match --concurrency "${CONCURRENCY:-1}" --game chess --games "$games" --tc "$tc" --max-plies 400 \
  --engine "$ours" --engine "$opponent" | grep -v '^Game '
