#!/usr/bin/env bash
# Runs one cargo-fuzz target (fuzz/fuzz_targets/TARGET.rs) for SECONDS, or every target in turn.
#   scripts/fuzz.sh TARGET [SECONDS=60]     e.g. scripts/fuzz.sh agi_command 600
#   scripts/fuzz.sh all [SECONDS=60]        every target, SECONDS each
#   scripts/fuzz.sh list                    the targets
# cargo-fuzz needs a nightly compiler (`rustup toolchain install nightly`) and the cargo-fuzz
# subcommand (`cargo install cargo-fuzz`); without them the script says so and exits 0 (skipped).
# Crashes are kept in fuzz/artifacts/TARGET/; the corpus grows in fuzz/corpus/TARGET/ (both ignored).
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:-}
seconds=${2:-60}
targets=$(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^tessera-fuzz$')

if [[ -z "$target" ]]; then
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
if [[ "$target" == list ]]; then
    echo "$targets"
    exit 0
fi
if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    echo "SKIPPED: fuzzing needs a nightly toolchain (rustup toolchain install nightly)"
    exit 0
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "SKIPPED: fuzzing needs cargo-fuzz (cargo install cargo-fuzz)"
    exit 0
fi

run() {
    local name=$1
    echo "== $name: $seconds s"
    mkdir -p "fuzz/corpus/$name"
    # -rss_limit_mb: a parser that allocates what its input claims is a bug, not a slow run.
    cargo +nightly fuzz run --fuzz-dir fuzz "$name" "fuzz/corpus/$name" -- \
        -max_total_time="$seconds" -rss_limit_mb=1024 -max_len=65536 -print_final_stats=1
}

if [[ "$target" == all ]]; then
    for name in $targets; do
        run "$name"
    done
else
    echo "$targets" | grep -qx "$target" || { echo "unknown target $target; one of:" $targets; exit 2; }
    run "$target"
fi
