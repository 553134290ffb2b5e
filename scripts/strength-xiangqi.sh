#!/usr/bin/env bash
# Tessera's xiangqi strength: tessera-ucci against Fairy-Stockfish 11.1 (driven over UCI and over
# UCCI: two opponents, the same engine) and Sjaak II (xboard, `variant xiangqi`), all from Debian,
# and Pikafish-HCE (Pikafish's search with a hand-crafted evaluation, over its UCI: built from public
# source with scripts/build-pikafish-hce.sh, never part of this repository; PIKAFISH names the binary),
# through `tessera match` with the shipped balanced suite (data/openings/xiangqi.epd, each opening
# with both colours), one thread each, default hash (16 MiB), refereed by our Asian rules.
# Prints one table: opponent, games, W-D-L, score, Elo ± 95% error. An opponent that is not
# installed is skipped with a message. A benchmark: CI does not run it.
#
# Pikafish-HCE gets a `Move Overhead` of 100 ms: without it, it loses on time to the harness's latency
# on a shared machine at fast controls.
#
# Usage: [GAMES=100] [TC=10+0.1] [CONCURRENCY=1] [OPPONENTS="fairy-uci fairy-ucci sjaak pikafish"]
#        [PIKAFISH=/path/to/pikafish]
#        [ENGINE=target/release/tessera-ucci] [ENGINE_PROTO=ucci] [ENGINE_OPTIONS="option.X=Y"]
#        [RECORDS=DIR] [TESSERA=target/release/tessera] scripts/strength-xiangqi.sh
set -euo pipefail
cd "$(dirname "$0")/.."
games=${GAMES:-100} tc=${TC:-10+0.1} concurrency=${CONCURRENCY:-1}
tessera=${TESSERA:-target/release/tessera}
engine=${ENGINE:-target/release/tessera-ucci}
[ -x "$tessera" ] && [ -x "$engine" ] || { echo "build first: cargo build --release --workspace" >&2; exit 1; }
export PATH="$PATH:/usr/games"

opponent_spec() {
  case "$1" in
    fairy-uci) command -v fairy-stockfish >/dev/null &&
      echo "cmd=$(command -v fairy-stockfish) name=Fairy-UCI proto=uci option.Threads=1" ;;
    fairy-ucci) command -v fairy-stockfish >/dev/null &&
      echo "cmd=$(command -v fairy-stockfish) name=Fairy-UCCI proto=ucci option.Threads=1" ;;
    # Sjaak would claim repetitions by its own rules and stop; our referee judges them. Its
    # randomised first moves are turned off so that it plays its best.
    sjaak) command -v sjaakii >/dev/null && echo "cmd=$(command -v sjaakii) name=SjaakII proto=xboard" \
      "option.Claim_repetitions=0 option.Randomise_opening_moves=0" ;;
    pikafish) [ -n "${PIKAFISH:-}" ] && [ -x "$PIKAFISH" ] &&
      echo "cmd=$PIKAFISH name=Pikafish-HCE proto=uci option.Threads=1 option.Move_Overhead=100" ;;
    *) echo "unknown opponent $1 (fairy-uci, fairy-ucci, sjaak, pikafish)" >&2; return 1 ;;
  esac
}

# How to get a missing opponent.
obtain() {
  case "$1" in
    fairy-*) echo "apt-get install fairy-stockfish" ;;
    sjaak) echo "apt-get install sjaakii" ;;
    pikafish) echo "scripts/build-pikafish-hce.sh SRC_DIR OUT_DIR, then PIKAFISH=OUT_DIR/pikafish" ;;
  esac
}

rows=()
for opponent in ${OPPONENTS:-fairy-uci fairy-ucci sjaak pikafish}; do
  if ! spec=$(opponent_spec "$opponent"); then
    echo "SKIPPED: $opponent is not installed ($(obtain "$opponent"))" >&2
    continue
  fi
  record=()
  [ -n "${RECORDS:-}" ] && mkdir -p "$RECORDS" && record=(--record "$RECORDS/tessera-vs-$opponent.pgn")
  echo "== Tessera vs $opponent: $games games at $tc" >&2
  summary=$("$tessera" match --game xiangqi --games "$games" --tc "$tc" --concurrency "$concurrency" \
    --max-plies 400 "${record[@]}" \
    --engine "cmd=$engine name=Tessera proto=${ENGINE_PROTO:-ucci} ${ENGINE_OPTIONS:-}" --engine "$spec" |
    grep -v '^Game ')
  echo "$summary" >&2
  score=$(sed -n 's/^Score of .*: \([0-9]*\) - \([0-9]*\) - \([0-9]*\)  \[\([0-9.]*\)\] \([0-9]*\)$/\5 \1-\3-\2 \4/p' <<<"$summary")
  elo=$(sed -n 's/^Elo difference: \([^,]*\),.*/\1/p' <<<"$summary")
  read -r played wdl fraction <<<"$score"
  rows+=("$(printf '| %-10s | %5s | %-10s | %5.1f%% | %-16s |' "$opponent" "$played" "$wdl" \
    "$(echo "$fraction * 100" | bc -l)" "${elo:-n/a}")")
done

echo
echo "Tessera ($engine${ENGINE_OPTIONS:+ $ENGINE_OPTIONS}) at $tc, shipped openings, both colours:"
echo "| opponent   | games | W-D-L      | score  | Elo ± 95%        |"
echo "|------------|-------|------------|--------|------------------|"
[ ${#rows[@]} -gt 0 ] && printf '%s\n' "${rows[@]}"
