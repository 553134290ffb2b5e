#!/usr/bin/env bash
# Measures what tessera-uci's `UCI_Elo` is worth: each point plays tessera-uci with
# `UCI_LimitStrength` at one `UCI_Elo` against Stockfish 15.1 (Debian's `stockfish`) limited to
# an anchor `UCI_Elo` (Stockfish's own scale, fitted by its authors to CCRL ratings), through
# `tessera match` with the shipped balanced suite, each opening with both colours, one thread and
# 64 MiB of hash each, Stockfish with a 100 ms Move Overhead. Prints one table: our `UCI_Elo`, the
# anchor, games, W-D-L, score, Elo difference ± 95% and the rating it measures (anchor +
# difference). Skips with a message where Stockfish is missing. A benchmark: CI does not run it.
#
# Usage: [POINTS="1000:1350 1500:1500 2000:2000 2500:2400"] [GAMES=100] [TC=5+0.05]
#        [CONCURRENCY=2] [ENGINE=target/release/tessera-uci] [RECORDS=DIR]
#        scripts/calibrate-chess-elo.sh
# Each point is OURS:ANCHOR (Stockfish offers 1350 to 2850).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${GAMES:-100} tc=${TC:-5+0.05} concurrency=${CONCURRENCY:-2}
bin=target/release
engine=${ENGINE:-$bin/tessera-uci}
[ -x "$bin/tessera" ] && [ -x "$engine" ] || { echo "build first: cargo build --release --workspace" >&2; exit 1; }
export PATH="$PATH:/usr/games"
stockfish=$(command -v stockfish) || { echo "SKIPPED: stockfish is not installed (apt-get install stockfish)" >&2; exit 0; }

rows=()
for point in ${POINTS:-1000:1350 1500:1500 2000:2000 2500:2400}; do
  ours=${point%%:*} anchor=${point#*:}
  record=()
  [ -n "${RECORDS:-}" ] && mkdir -p "$RECORDS" && record=(--record "$RECORDS/tessera-$ours-vs-stockfish-$anchor.pgn")
  echo "== Tessera UCI_Elo $ours vs Stockfish UCI_Elo $anchor: $games games at $tc" >&2
  summary=$("$bin/tessera" match --game chess --games "$games" --tc "$tc" --concurrency "$concurrency" \
    --max-plies 400 "${record[@]}" \
    --engine "cmd=$engine name=Tessera-$ours option.Hash=64 option.UCI_LimitStrength=true option.UCI_Elo=$ours" \
    --engine "cmd=$stockfish name=Stockfish-$anchor option.Hash=64 option.Threads=1 option.Move_Overhead=100 \
option.UCI_LimitStrength=true option.UCI_Elo=$anchor" | grep -v '^Game ')
  echo "$summary" >&2
  score=$(sed -n 's/^Score of .*: \([0-9]*\) - \([0-9]*\) - \([0-9]*\)  \[\([0-9.]*\)\] \([0-9]*\)$/\5 \1-\3-\2 \4/p' <<<"$summary")
  difference=$(sed -n 's/^Elo difference: +\{0,1\}\([-0-9.]*\) +\/- \([0-9.]*\).*/\1 \2/p' <<<"$summary")
  read -r played wdl fraction <<<"$score"
  read -r elo margin <<<"${difference:-n/a n/a}"
  # A clean sweep measures no difference, only a side of the anchor.
  case "$fraction" in
    0.000) elo=n/a margin=n/a measured="< $anchor" ;;
    1.000) elo=n/a margin=n/a measured="> $anchor" ;;
    *) measured=$(printf '%.0f' "$(echo "$anchor + $elo" | bc -l)") ;;
  esac
  rows+=("$(printf '| %5s | %6s | %5s | %-10s | %5.1f%% | %7s ± %-6s | %8s |' "$ours" "$anchor" "$played" "$wdl" \
    "$(echo "$fraction * 100" | bc -l)" "$elo" "$margin" "$measured")")
done

echo
echo "tessera-uci ($engine) limited, against Stockfish 15.1 limited, at $tc, shipped openings, both colours:"
echo "| ours  | anchor | games | W-D-L      | score  | Elo ± 95%        | measured |"
echo "|-------|--------|-------|------------|--------|------------------|----------|"
printf '%s\n' "${rows[@]}"
