#!/usr/bin/env bash
# Perft speed: tessera-uci `perft` against Stockfish's `go perft`, single thread, same machine,
# same run: the start position at depth 6 and Kiwipete at depth 5. Prints nodes/s and the ratio.
# Usage: scripts/compare-perft-chess.sh [path/to/stockfish]
set -euo pipefail
cd "$(dirname "$0")/.."
STOCKFISH=${1:-/usr/games/stockfish}
cargo build --release -q -p tessera-uci
OURS=target/release/tessera-uci

now_ns() { date +%s%N; }

stockfish_nps() { # fen depth -> nodes/s (wall time includes start-up, so time a depth-1 run and subtract)
    local fen=$1 depth=$2 start end base=999999999999 run nodes
    for _ in 1 2 3; do # start-up cost (network loading): the fastest of three depth-1 runs
        start=$(now_ns)
        printf 'setoption name Threads value 1\nposition fen %s\ngo perft 1\nisready\nquit\n' "$fen" | "$STOCKFISH" >/dev/null
        run=$(( $(now_ns) - start ))
        (( run < base )) && base=$run
    done
    start=$(now_ns)
    nodes=$(printf 'setoption name Threads value 1\nposition fen %s\ngo perft %s\nisready\nquit\n' "$fen" "$depth" \
        | "$STOCKFISH" | awk -F': ' '/Nodes searched/ {print $2}')
    end=$(now_ns)
    echo $(( nodes * 1000000000 / (end - start - base) ))
}

ours_nps() {
    "$OURS" perft "$2" --fen "$1" | awk -F': ' '/Nodes\/second/ {print $2}'
}

printf '%-10s %6s %16s %16s %7s\n' position depth tessera stockfish ratio
for entry in "startpos|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6" \
             "kiwipete|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5"; do
    IFS='|' read -r name fen depth <<<"$entry"
    ours=$(ours_nps "$fen" "$depth")
    theirs=$(stockfish_nps "$fen" "$depth")
    ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }')
    printf '%-10s %6s %16s %16s %7s\n' "$name" "$depth" "$ours" "$theirs" "$ratio"
done
