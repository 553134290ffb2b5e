#!/usr/bin/env bash
# Soak test: N fast games of each engine against itself and against a peer, through `tessera match`,
# counting what must never happen to our engines: crashes, illegal moves (or protocol errors), time
# losses and hangs (no answer at all). Prints one table; exits 1 when any count of ours is not 0.
#
#   scripts/soak.sh GAME N        GAME = chess | xiangqi | gomoku | go | all
#   [CONCURRENCY=2] [TC=1+0.01] scripts/soak.sh all 1000
#
# Peers: chess Phalanx over xboard (else Stockfish at skill 0), xiangqi Fairy-Stockfish, gomoku our
# own AGI engine (another protocol path: no third-party gomoku engine is packaged), go GNU Go on 9x9
# (GTP speaks whole seconds: 1 s per game is rounded up). A missing peer is skipped with a message.
# Games are 1 s + 0.01 s per side (TC), so time losses and hangs show quickly.
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:-} count=${2:-}
if [[ -z "$game" || -z "$count" ]]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
bin=target/release
[ -x "$bin/tessera" ] || { echo "build first: cargo build --release --workspace" >&2; exit 1; }
tc=${TC:-1+0.01}
concurrency=${CONCURRENCY:-1}

find_peer() {
    for dir in ${PATH//:/ } /usr/games /usr/local/bin; do
        [ -x "$dir/$1" ] && { echo "$dir/$1"; return 0; }
    done
    return 1
}

rows=()
bad=0

# soak LABEL OURS_NAME ARGS...: runs one match and adds a table row from its result lines.
soak() {
    local label=$1 ours=$2
    shift 2
    local out
    out=$("$bin/tessera" match --concurrency "$concurrency" --games "$count" "$@" 2>&1 || true)
    # Result lines: `Game 3 (First vs Second): 1-0 {Second loses on time}`.
    local row
    row=$(awk -v ours="$ours" '
        /^Game [0-9]+ \(/ {
            games++
            names = $0; sub(/^Game [0-9]+ \(/, "", names); sub(/\): .*/, "", names)
            split(names, pair, " vs ")
            reason = $0; sub(/^[^{]*\{/, "", reason); sub(/\}[^}]*$/, "", reason)
            who = ""
            if (reason ~ /^First /) who = pair[1]; else if (reason ~ /^Second /) who = pair[2]
            kind = ""
            if (reason ~ /crashed or exited|cannot start/) kind = "crash"
            else if (reason ~ /illegal move|answered `/) kind = "illegal"
            else if (reason ~ /loses on time/) kind = "time"
            else if (reason ~ /stalled/) kind = "hang"
            if (kind == "") next
            if (index(who, ours) == 1) mine[kind]++; else peer++
        }
        END {
            printf "%d %d %d %d %d %d", games, mine["crash"], mine["illegal"], mine["time"], mine["hang"], peer
        }' <<<"$out")
    read -r games crash illegal time hang peer <<<"$row"
    if [[ "$games" -lt "$count" ]]; then
        echo "$label: only $games of $count games finished; the match said:" >&2
        tail -5 <<<"$out" >&2
        bad=1
    fi
    (( crash + illegal + time + hang > 0 )) && bad=1
    rows+=("$(printf '%-30s %6s %8s %8s %8s %6s %12s' "$label" "$games" "$crash" "$illegal" "$time" "$hang" "$peer")")
}

engine() { echo "cmd=$bin/$1 name=$2 ${3:-}"; }

chess() {
    soak "chess: self" "Tessera" --game chess --tc "$tc" \
        --engine "$(engine tessera-uci Tessera-A)" --engine "$(engine tessera-uci Tessera-B)"
    if phalanx=$(find_peer phalanx); then
        soak "chess: vs Phalanx" "Tessera" --game chess --tc "$tc" \
            --engine "$(engine tessera-uci Tessera)" --engine "cmd=$phalanx name=Phalanx proto=xboard"
    elif stockfish=$(find_peer stockfish); then
        soak "chess: vs Stockfish skill 0" "Tessera" --game chess --tc "$tc" \
            --engine "$(engine tessera-uci Tessera)" --engine "cmd=$stockfish name=Stockfish option.Skill_Level=0"
    else
        echo "SKIPPED: no chess peer (apt-get install phalanx or stockfish)" >&2
    fi
}

xiangqi() {
    soak "xiangqi: self (UCCI)" "Tessera" --game xiangqi --tc "$tc" --max-plies 300 \
        --engine "$(engine tessera-ucci Tessera-A)" --engine "$(engine tessera-ucci Tessera-B)"
    if fairy=$(find_peer fairy-stockfish); then
        soak "xiangqi: vs Fairy-Stockfish" "Tessera" --game xiangqi --tc "$tc" --max-plies 300 \
            --engine "$(engine tessera-ucci Tessera 'proto=uci')" \
            --engine "cmd=$fairy name=Fairy-Stockfish proto=uci option.Threads=1"
    else
        echo "SKIPPED: no xiangqi peer (apt-get install fairy-stockfish)" >&2
    fi
}

gomoku() {
    soak "gomoku: self (pbrain)" "Tessera" --game gomoku --size 15 --tc "$tc" \
        --engine "$(engine pbrain-tessera Tessera-A)" --engine "$(engine pbrain-tessera Tessera-B)"
    soak "gomoku: pbrain vs AGI" "Tessera" --game gomoku --size 15 --tc "$tc" \
        --engine "$(engine pbrain-tessera Tessera-pbrain)" --engine "$(engine tessera-agi Tessera-AGI proto=agi)"
}

go() {
    soak "go 9x9: self" "Tessera" --game go --size 9 --komi 7 --tc "$tc" \
        --engine "$(engine tessera-gtp Tessera-A)" --engine "$(engine tessera-gtp Tessera-B)"
    if gnugo=$(find_peer gnugo); then
        soak "go 9x9: vs GNU Go level 1" "Tessera" --game go --size 9 --komi 7 --tc "$tc" \
            --engine "$(engine tessera-gtp Tessera)" \
            --engine "cmd=$gnugo name=GNUGo arg=--mode arg=gtp arg=--chinese-rules arg=--level arg=1"
    else
        echo "SKIPPED: no go peer (apt-get install gnugo)" >&2
    fi
}

case "$game" in
    chess | xiangqi | gomoku | go) "$game" ;;
    all) chess; xiangqi; gomoku; go ;;
    *) echo "unknown game $game (chess, xiangqi, gomoku, go or all)" >&2; exit 2 ;;
esac

printf '%-30s %6s %8s %8s %8s %6s %12s\n' "match ($tc, ours counted)" games crashes illegal "time" hangs "peer faults"
printf '%s\n' "${rows[@]}"
exit "$bad"
