#!/usr/bin/env bash
# Tessera's gomoku/renju strength against Rapfi with its classical evaluation (no network), through
# `tessera match --game gomoku` over pbrain: freestyle, standard and renju on 15x15, both engines at
# the same time per move, from the shipped balanced openings (data/openings/), each played with both
# colours (freestyle and standard: data/openings/gomoku-freestyle.txt; renju: the 26 openings of
# data/openings/renju.txt). Prints one table: rule, games, W-D-L, score, Elo ± 95%, time losses,
# illegal moves (a renju-forbidden move by black is one: the referee refuses it and scores the game
# lost). Game results stream to stderr while the matches run.
# A benchmark: CI does not run it (it cannot fetch Rapfi).
#
# Rapfi (GPL) is never part of this repository: build it with scripts/build-rapfi.sh and point RAPFI
# at the binary. It runs from a fresh empty folder, so that no config.toml can replace the classical
# configuration compiled into it (see scripts/build-rapfi.sh).
#
# `st=1` is one second per move: the arena sends `INFO timeout_turn 1000` and `timeout_match 0`
# (no match clock) and forfeits a move that takes longer than 1 s + 100 ms. `TC=gomocup=5/120` is
# the Gomocup fastgame clock (`timeout_turn` 5 s, `timeout_match` 120 s, `time_left` before every
# move; a move over 5.1 s or a game over 120.1 s forfeits).
#
# Usage: [RAPFI=/path/to/pbrain-rapfi] [GAMES=40] [TC=st=1] [RULES="freestyle standard renju"]
#        [CONCURRENCY=1] [RECORDS=DIR (SGF records and engine conversation logs)] [TESSERA=target/release/pbrain-tessera]
#        [OPENINGS_SEED=N (another order of the shipped suite, so that a second run plays other openings)]
#        [SHARD=I/N (with RECORDS: only slice I of N of the GAMES, its results in RECORDS for
#         `tessera match-merge RECORDS/tessera-vs-rapfi-RULE-shard-*.txt`, so that a long clock's
#         match can be played a slice at a time)]
#        [MATCH=target/release/tessera] scripts/strength-gomoku.sh
# (copy the binaries elsewhere and point TESSERA/MATCH at them to keep rebuilding while it runs)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${GAMES:-40} tc=${TC:-st=1} rules=${RULES:-freestyle standard renju} concurrency=${CONCURRENCY:-1}
tessera=${TESSERA:-target/release/pbrain-tessera}
match=${MATCH:-target/release/tessera}
[ -x "$match" ] && [ -x "$tessera" ] || { echo "build first: cargo build --release --workspace" >&2; exit 1; }
rapfi=${RAPFI:-$(command -v pbrain-rapfi || true)}
if [ -z "$rapfi" ] || [ ! -x "$rapfi" ]; then
  echo "SKIPPED: Rapfi is not built (scripts/build-rapfi.sh SRC_DIR, then RAPFI=path/to/pbrain-rapfi)" >&2
  exit 0
fi
rapfi=$(cd "$(dirname "$rapfi")" && pwd)/$(basename "$rapfi")
[ -e "$(dirname "$rapfi")/config.toml" ] && { echo "$(dirname "$rapfi")/config.toml would replace Rapfi's classical configuration: remove it" >&2; exit 1; }
workdir=$(mktemp -d)
trap 'rm -rf "$workdir"' EXIT

[ -n "${SHARD:-}" ] && [ -z "${RECORDS:-}" ] && { echo "SHARD needs RECORDS (where its results go)" >&2; exit 1; }
rows=()
for rule in $rules; do
  record=()
  name=tessera-vs-rapfi-$rule${SHARD:+-shard-${SHARD%/*}-of-${SHARD#*/}}
  [ -n "${RECORDS:-}" ] && mkdir -p "$RECORDS" && record=(--record "$RECORDS/$name.sgf"
    --log-dir "$RECORDS/logs-${name#tessera-vs-rapfi-}")
  [ -n "${SHARD:-}" ] && record+=(--shard "$SHARD" --results "$RECORDS/$name.txt")
  echo "== Tessera vs Rapfi (classical), $rule 15x15, $tc, $games games, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  out=$("$match" match --game gomoku --rule "$rule" --size 15 --tc "$tc" --games "$games" \
    --concurrency "$concurrency" "${record[@]}" ${OPENINGS_SEED:+--openings-seed "$OPENINGS_SEED"} \
    --engine "cmd=$(cd "$(dirname "$tessera")" && pwd)/$(basename "$tessera") name=Tessera" \
    --engine "cmd=$rapfi name=Rapfi dir=$workdir" 2>/dev/null | tee >(cat >&2))
  summary=$(grep -v '^Game ' <<<"$out" || true)
  score=$(sed -n 's/^Score of .*: \([0-9]*\) - \([0-9]*\) - \([0-9]*\)  \[\([0-9.]*\)\] \([0-9]*\)$/\5 \1-\3-\2 \4/p' <<<"$summary")
  elo=$(sed -n 's/^Elo difference: \([^,]*\),.*/\1/p' <<<"$summary")
  read -r played wdl fraction <<<"${score:-0 0-0-0 0}"
  # Result lines read "Game N (Black vs White): result {termination}"; the loser of a forfeit is the side named.
  time_losses=$(grep -c 'loses on time' <<<"$out" || true)
  ours_on_time=$(grep -cE '\(Tessera vs [^)]*\): 0-1 \{First loses on time|\([^)]* vs Tessera\): 1-0 \{Second loses on time' <<<"$out" || true)
  illegal=$(grep -cE '\(Tessera vs [^)]*\): 0-1 \{First (played an illegal|failed)|\([^)]* vs Tessera\): 1-0 \{Second (played an illegal|failed)' <<<"$out" || true)
  rows+=("$(printf '| %-9s | %5s | %-8s | %5.1f%% | %-20s | %-18s | %-29s |' "$rule" "$played" "$wdl" \
    "$(echo "$fraction * 100" | bc -l)" "${elo:-n/a}" "$time_losses (ours $ours_on_time)" "$illegal")")
done

echo
echo "Tessera (pbrain-tessera) vs Rapfi classical, 15x15, $tc, shipped openings, both colours:"
echo "| rule      | games | W-D-L    | score  | Elo ± 95%            | time losses (ours) | our illegal moves or failures |"
echo "|-----------|-------|----------|--------|----------------------|--------------------|-------------------------------|"
printf '%s\n' "${rows[@]}"
