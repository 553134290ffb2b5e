#!/usr/bin/env bash
# Tessera's chess strength ladder: tessera-uci against Phalanx XXV (xboard), GNU Chess 6, Toga II 3.0,
# Ethereal 12 and Stockfish 15.1 (all from Debian), through `tessera match` with the shipped balanced
# suite (data/openings/chess.epd, each opening with both colours), one thread and 64 MiB of hash each,
# opponents' opening books off, Stockfish with a 100 ms Move Overhead (else it loses on time to the
# harness's latency on a shared machine, not to us). Prints one table: opponent, games, W-D-L,
# score, Elo ± 95% error. An opponent that is not installed is skipped with a message. A benchmark:
# CI does not run it.
#
# Usage: [GAMES=100] [TC=10+0.1] [CONCURRENCY=2] [OPPONENTS="phalanx gnuchess toga ethereal stockfish"]
#        [ENGINE=target/release/tessera-uci] [ENGINE_OPTIONS="option.Use_NNUE=false"]
#        [RECORDS=DIR] scripts/strength-chess.sh
set -euo pipefail
cd "$(dirname "$0")/.."
games=${GAMES:-100} tc=${TC:-10+0.1} concurrency=${CONCURRENCY:-2}
bin=target/release
engine=${ENGINE:-$bin/tessera-uci}
[ -x "$bin/tessera" ] && [ -x "$engine" ] || { echo "build first: cargo build --release --workspace" >&2; exit 1; }
export PATH="$PATH:/usr/games"

opponent_spec() {
  case "$1" in
    phalanx) command -v phalanx >/dev/null && echo "cmd=$(command -v phalanx) name=Phalanx proto=xboard" ;;
    gnuchess) command -v gnuchess >/dev/null &&
      echo "cmd=$(command -v gnuchess) name=GNUChess arg=--uci option.OwnBook=false option.Hash=64" ;;
    toga) command -v toga2 >/dev/null && echo "cmd=$(command -v toga2) name=TogaII option.OwnBook=false option.Hash=64" ;;
    ethereal) command -v ethereal-chess >/dev/null &&
      echo "cmd=$(command -v ethereal-chess) name=Ethereal option.Hash=64 option.Threads=1" ;;
    stockfish) command -v stockfish >/dev/null && echo "cmd=$(command -v stockfish) name=Stockfish \
option.Hash=64 option.Threads=1 option.Move_Overhead=100" ;;
    *) echo "unknown opponent $1 (phalanx, gnuchess, toga, ethereal, stockfish)" >&2; return 1 ;;
  esac
}

rows=()
for opponent in ${OPPONENTS:-phalanx gnuchess toga ethereal stockfish}; do
  if ! spec=$(opponent_spec "$opponent"); then
    echo "SKIPPED: $opponent is not installed (apt-get install $opponent)" >&2
    continue
  fi
  record=()
  [ -n "${RECORDS:-}" ] && mkdir -p "$RECORDS" && record=(--record "$RECORDS/tessera-vs-$opponent.pgn")
  echo "== Tessera vs $opponent: $games games at $tc" >&2
  summary=$("$bin/tessera" match --game chess --games "$games" --tc "$tc" --concurrency "$concurrency" \
    --max-plies 400 "${record[@]}" \
    --engine "cmd=$engine name=Tessera option.Hash=64 ${ENGINE_OPTIONS:-}" --engine "$spec" | grep -v '^Game ')
  echo "$summary" >&2
  score=$(sed -n 's/^Score of .*: \([0-9]*\) - \([0-9]*\) - \([0-9]*\)  \[\([0-9.]*\)\] \([0-9]*\)$/\5 \1-\3-\2 \4/p' <<<"$summary")
  elo=$(sed -n 's/^Elo difference: \([^,]*\),.*/\1/p' <<<"$summary")
  read -r played wdl fraction <<<"$score"
  rows+=("$(printf '| %-9s | %5s | %-10s | %5.1f%% | %-16s |' "$opponent" "$played" "$wdl" \
    "$(echo "$fraction * 100" | bc -l)" "${elo:-n/a}")")
done

echo
echo "Tessera ($engine${ENGINE_OPTIONS:+ $ENGINE_OPTIONS}) at $tc, shipped openings, both colours:"
echo "| opponent  | games | W-D-L      | score  | Elo ± 95%        |"
echo "|-----------|-------|------------|--------|------------------|"
printf '%s\n' "${rows[@]}"
