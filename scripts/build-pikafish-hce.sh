#!/usr/bin/env bash
# Builds Pikafish-HCE (Pikafish's xiangqi search with a hand-crafted evaluation instead of its
# network; GPL) from a checkout of its public source, and prints the path of the binary. It needs no
# network file. Pikafish-HCE is never copied into this repository: build it in a folder outside it,
# e.g. from a clone of https://github.com/skystarspython/Pikafish-HCE:
#   git clone https://github.com/skystarspython/Pikafish-HCE /tmp/pikafish-hce
#   scripts/build-pikafish-hce.sh /tmp/pikafish-hce /tmp/pikafish-out
# then `PIKAFISH=/tmp/pikafish-out/pikafish scripts/strength-xiangqi.sh`.
#
# It speaks Pikafish's UCI: moves in ICCS coordinates with ranks 0-9 and no UCI_Variant, which
# `tessera match --game xiangqi` recognises from its `id name`. On a shared machine give it a
# `Move Overhead` of about 100 ms, or it loses on time to the harness's latency at fast controls
# (scripts/strength-xiangqi.sh does).
#
# ARCH picks the instruction set (default x86-64-bmi2 where the CPU has BMI2, else x86-64-avx2,
# else x86-64); JOBS the parallel compiles (default 2).
#
# Usage: [ARCH=…] [JOBS=N] scripts/build-pikafish-hce.sh SRC_DIR [OUT_DIR]
set -euo pipefail
src=${1:?usage: scripts/build-pikafish-hce.sh SRC_DIR [OUT_DIR]}
out=${2:-}
[ -f "$src/src/Makefile" ] && [ -f "$src/src/evaluate.cpp" ] && [ -f "$src/src/psqt.cpp" ] \
  || { echo "$src is not a Pikafish-HCE checkout (no src/Makefile, src/evaluate.cpp, src/psqt.cpp)" >&2; exit 1; }
repo=$(cd "$(dirname "$0")/.." && pwd)
for folder in "$src" ${out:+"$out"}; do
  mkdir -p "$folder"
  case "$(cd "$folder" && pwd)/" in
    "$repo"/*) echo "refusing to build Pikafish-HCE inside this repository (GPL): use a folder outside $repo" >&2; exit 1 ;;
  esac
done
command -v make >/dev/null && command -v g++ >/dev/null || { echo "needs make and g++ (apt-get install make g++)" >&2; exit 1; }

if [ -z "${ARCH:-}" ]; then
  if grep -qw bmi2 /proc/cpuinfo; then ARCH=x86-64-bmi2
  elif grep -qw avx2 /proc/cpuinfo; then ARCH=x86-64-avx2
  else ARCH=x86-64; fi
fi
# Build output goes to stderr so that stdout carries only the binary's path.
make -C "$src/src" -j"${JOBS:-2}" build ARCH="$ARCH" >&2
binary=$(cd "$src/src" && pwd)/pikafish
[ -x "$binary" ] || { echo "the build left no $binary" >&2; exit 1; }
if [ -n "$out" ]; then
  cp "$binary" "$out/pikafish"
  binary=$(cd "$out" && pwd)/pikafish
fi
echo "$binary"
