#!/usr/bin/env bash
# Builds tessera-ucci's built-in opening book (data/books/xiangqi.book) from our own self-play:
# Tessera against itself from each of the shipped suite's 65 named lines (data/openings/xiangqi.epd,
# both colours, twice), 20000 nodes a move, UCCI `randomness small` on both sides so that the
# continuations vary; then `tessera book` keeps the first 20 plies of moves played at least twice
# that scored at least 0.3 for their side, weighted by their results. The suite's lines come from
# named openings scored by Fairy-Stockfish (scripts/openings-xiangqi.py); every game is ours, so
# the book carries no third-party records.
#
# About 15 minutes on one core. WORK keeps the games (default: a folder under /tmp); the book
# goes to OUT (default: data/books/xiangqi.book, embedded by the next build of tessera-ucci).
#
# Usage: [GAMES=260] [NODES=20000] [WORK=dir] [OUT=file] scripts/build-xiangqi-book.sh
set -euo pipefail
cd "$(dirname "$0")/.."
games=${GAMES:-260} nodes=${NODES:-20000}
work=${WORK:-$(mktemp -d /tmp/tessera-xiangqi-book.XXXXXX)}
out=${OUT:-data/books/xiangqi.book}
tessera=target/release/tessera engine=target/release/tessera-ucci
if [ ! -x "$tessera" ] || [ ! -x "$engine" ]; then echo "build first: cargo build --release --workspace" >&2; exit 1; fi
# The games are played by a copy of today's engine: a rebuild while they run changes nothing.
cp "$engine" "$work/tessera-ucci"
records="$work/selfplay.pgn"
rm -f "$records"
spec=()
for side in A B; do
  spec+=(--engine "cmd=$work/tessera-ucci name=Tessera$side proto=ucci option.randomness=small")
done
echo "self-play: $games games at $nodes nodes a move into $records" >&2
"$tessera" match --game xiangqi --games "$games" --tc "nodes=$nodes" --concurrency 1 --max-plies 300 \
  --record "$records" "${spec[@]}" | grep -v '^Game '
"$tessera" book --game xiangqi --plies 20 --min-count 2 --min-score 0.3 -o "$out" "$records"
