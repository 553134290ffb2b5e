#!/usr/bin/env bash
# Tessera's go strength: tessera-gtp against Pachi 12.90 without its neural network (9x9, Pachi at
# a fixed 9000 playouts a move on one thread, `-t =9000 threads=1`, against our 0.5 s a move; 19x19,
# both sides 1 s a move),
# against GNU Go 3.8 at level 10 (19x19, our 1 s a move) and against KataGo with its small b6c96
# network on the CPU (9x9 and 19x19, both sides the same time a move: 0.5 s on 9x9, 1 s on 19x19),
# komi 7.5, colours alternating, GNU Go refereeing with Chinese (area) rules, through
# `tessera match --game go`. The 9x9 games start from the shipped balanced suite
# (data/openings/go-9x9.txt, 64 openings: the default 128 games against Pachi play each once with
# each colour), the 19x19 games from theirs (data/openings/go-19x19.txt, 32 openings of 2-4 corner
# moves); `tessera match` plays the suite of the board size by default, in its fixed shuffled
# order. Prints one table: opponent, board, games, W-D-L, score, Elo ± 95% error. A missing
# opponent is skipped with a message; GAMES_...=0 leaves a row out. A benchmark: CI does not run it.
#
# Pachi (GPL) is never part of this repository: build it with scripts/build-pachi.sh and point
# PACHI at the binary; it runs in its own folder, where it finds its pattern files.
# KataGo (its source, binary and networks) is never part of it either: build it with
# scripts/build-katago.sh SRC_DIR OUT_DIR and point KATAGO at OUT_DIR (or at OUT_DIR/katago); it
# plays with the configuration that script wrote there (tessera-gtp.cfg: Chinese rules, one search
# thread, no resignation, no pondering) and the b6c96 network beside it. Its time a move is
# KataGo's `maxTime` (given on its command line with -override-config) and ours is `--move-time`
# with the same seconds: KATAGO_TIME_9 (default 0.5) and KATAGO_TIME_19 (default 1). Both sides
# think by the clock, so run these rows on an otherwise idle machine.
#
# On a loaded machine our time per move buys fewer playouts while Pachi's and GNU Go's effort is
# fixed; a fixed budget, TESSERA_9x9="--playouts N", keeps the comparison fair. Which N is equal
# time depends on the machine and the build: scripts/go-equal-time.py measures it (70000 on the
# machine of 2026-11-30, where Pachi's 9000 playouts took 0.40-0.46 s a move). On 19x19,
# TESSERA_19x19="--move-time 1 --move-block 20" gives our engine 1 s a move on average over blocks
# of 20 moves on a clock it keeps itself (settled moves leave their time to harder ones).
# TESSERA_9x9 and TESSERA_19x19 do not apply to the KataGo rows or to Pachi's 19x19 row, which
# are equal time by construction.
#
# Usage: [PACHI=/path/to/pachi] [GAMES_PACHI=128] [GAMES_PACHI_19=60]
#        [GAMES_GNUGO=20] [CONCURRENCY=1]
#        [TESSERA_9x9="--move-time 0.5"] [TESSERA_19x19="--move-time 1"] [RECORDS=DIR]
#        [KATAGO=/path/to/OUT_DIR] [GAMES_KATAGO_9=40] [GAMES_KATAGO_19=40]
#        [KATAGO_TIME_9=0.5] [KATAGO_TIME_19=1]
#        scripts/strength-go.sh
set -euo pipefail
cd "$(dirname "$0")/.."
games_pachi=${GAMES_PACHI:-128} games_gnugo=${GAMES_GNUGO:-20} concurrency=${CONCURRENCY:-1}
bin=target/release
if [ ! -x "$bin/tessera" ] || [ ! -x "$bin/tessera-gtp" ]; then
  echo "build first: cargo build --release --workspace" >&2
  exit 1
fi
gnugo=$(command -v gnugo || { [ -x /usr/games/gnugo ] && echo /usr/games/gnugo; } || true)
[ -n "$gnugo" ] || { echo "SKIPPED: GNU Go (the referee) is not installed (apt-get install gnugo)" >&2; exit 0; }
pachi=${PACHI:-$(command -v pachi || true)}
ours_9=${TESSERA_9x9:---move-time 0.5} ours_19=${TESSERA_19x19:---move-time 1}
games_pachi_19=${GAMES_PACHI_19:-60}
games_katago_9=${GAMES_KATAGO_9:-40} games_katago_19=${GAMES_KATAGO_19:-40}
katago_time_9=${KATAGO_TIME_9:-0.5} katago_time_19=${KATAGO_TIME_19:-1}

rows=()
play() { # opponent-label size games our-arguments opponent-spec
  local label=$1 size=$2 games=$3 ours=$4 spec=$5 record=() summary score elo played wdl fraction engine_args=""
  for arg in $ours; do engine_args+=" arg=$arg"; done
  [ "$games" -gt 0 ] || return 0
  [ -n "${RECORDS:-}" ] && mkdir -p "$RECORDS" && record=(--record "$RECORDS/tessera-vs-$label-${size}x$size.sgf")
  echo "== Tessera ($ours) vs $label on ${size}x$size: $games games" >&2
  # `nodes=1` sends GTP engines no time system: ours thinks by its own flags (--move-time or
  # --playouts), the opponent by its own settings (Pachi's playouts, GNU Go's level).
  summary=$("$bin/tessera" match --game go --size "$size" --komi 7.5 --games "$games" --concurrency "$concurrency" \
    --tc nodes=1 "${record[@]}" \
    --engine "cmd=$bin/tessera-gtp name=Tessera$engine_args" \
    --engine "$spec" \
    --referee "cmd=$gnugo name=referee arg=--mode arg=gtp arg=--chinese-rules" 2>/dev/null | grep -v '^Game ')
  echo "$summary" >&2
  score=$(sed -n 's/^Score of .*: \([0-9]*\) - \([0-9]*\) - \([0-9]*\)  \[\([0-9.]*\)\] \([0-9]*\)$/\5 \1-\3-\2 \4/p' <<<"$summary")
  elo=$(sed -n 's/^Elo difference: \([^,]*\),.*/\1/p' <<<"$summary")
  read -r played wdl fraction <<<"$score"
  rows+=("$(printf '| %-16s | %5s | %-18s | %5s | %-8s | %5.1f%% | %-18s |' "$label" "${size}x$size" "$ours" \
    "$played" "$wdl" "$(echo "$fraction * 100" | bc -l)" "${elo:-n/a}")")
}

if [ -n "$pachi" ] && [ -x "$pachi" ]; then
  pachi_dir=$(cd "$(dirname "$pachi")" && pwd)
  pachi_spec() { # Pachi's time setting (-t)
    echo "cmd=$pachi_dir/$(basename "$pachi") name=Pachi dir=$pachi_dir arg=-t arg=$1 arg=threads=1"
  }
  play "Pachi-9000" 9 "$games_pachi" "$ours_9" "$(pachi_spec =9000)"
  # On 19x19 both sides think 1 s a move by the clock. Pachi's fixed time a move, `-t SECS`, keeps
  # 2 s of it for network lag and thinks at least 1 s (its timeinfo.c: MAX_NET_LAG and
  # MIN_THINK_WITH_LAG), so `-t 3` is 1 s of thought: 1.007 s a move on average over 60 games.
  play "Pachi-1s" 19 "$games_pachi_19" "--move-time 1" "$(pachi_spec 3)"
else
  echo "SKIPPED: Pachi is not built (scripts/build-pachi.sh SRC_DIR, then PACHI=path/to/pachi)" >&2
fi
play "GNUGo-level10" 19 "$games_gnugo" "$ours_19" "cmd=$gnugo name=GNUGo arg=--mode arg=gtp arg=--level arg=10 arg=--chinese-rules"

# KATAGO names the folder scripts/build-katago.sh filled, or the binary in it.
katago=${KATAGO:-}
[ -n "$katago" ] && [ ! -d "$katago" ] && katago=$(dirname "$katago")
katago_net=g170-b6c96-s175395328-d26788732.bin.gz
if [ -n "$katago" ] && [ -x "$katago/katago" ] && [ -f "$katago/tessera-gtp.cfg" ] && [ -f "$katago/$katago_net" ]; then
  katago=$(cd "$katago" && pwd)
  katago_spec() { # seconds a move
    echo "cmd=$katago/katago name=KataGo arg=gtp arg=-config arg=$katago/tessera-gtp.cfg" \
      "arg=-model arg=$katago/$katago_net arg=-override-config arg=maxTime=$1"
  }
  play "KataGo-b6c96" 9 "$games_katago_9" "--move-time $katago_time_9" "$(katago_spec "$katago_time_9")"
  play "KataGo-b6c96" 19 "$games_katago_19" "--move-time $katago_time_19" "$(katago_spec "$katago_time_19")"
elif [ -n "$katago" ]; then
  echo "SKIPPED: KataGo: $katago lacks katago, tessera-gtp.cfg or $katago_net (scripts/build-katago.sh SRC_DIR $katago)" >&2
else
  echo "SKIPPED: KataGo is not built (scripts/build-katago.sh SRC_DIR OUT_DIR, then KATAGO=OUT_DIR)" >&2
fi

echo
echo "Tessera (tessera-gtp), komi 7.5, both colours, GNU Go referee (Chinese rules):"
echo "| opponent         | board | Tessera            | games | W-D-L    | score  | Elo ± 95%          |"
echo "|------------------|-------|--------------------|-------|----------|--------|--------------------|"
if [ ${#rows[@]} -gt 0 ]; then printf '%s\n' "${rows[@]}"; fi
