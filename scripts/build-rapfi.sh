#!/usr/bin/env bash
# Builds Rapfi (the gomoku/renju engine, GPL) from a checkout of its public repository with CMake in
# Release mode, and prints the path of the binary (`pbrain-rapfi`). Rapfi is never copied into this
# repository: build it in a folder outside it, e.g.
#   git clone https://github.com/dhbloo/rapfi /tmp/rapfi      (no submodules needed)
#   scripts/build-rapfi.sh /tmp/rapfi
#
# Classical evaluation, no network: Rapfi loads `config.toml` from its working folder or from the
# folder of its binary, and only when neither exists falls back to the configuration compiled into
# it (`Rapfi/internalConfig.cpp`: the classical pattern tables, alpha-beta searcher, no network
# weights). The networks live in a separate submodule (`Networks`) that this build neither needs nor
# reads. So: never put a `config.toml` beside the binary or in the folder it runs in (the build
# checks the output folder; scripts/strength-gomoku.sh runs Rapfi from a fresh empty folder).
# The command modules (self-play, tuning, database tools) are left out (`NO_COMMAND_MODULES=ON`):
# the pbrain engine and its `bench` do not use them.
#
# With OUT_DIR, the build happens in OUT_DIR/build (the checkout stays clean), the binary is copied
# to OUT_DIR/pbrain-rapfi and that path is printed; without it, the build is SRC_DIR/build-tessera.
#
# Usage: [JOBS=N] scripts/build-rapfi.sh SRC_DIR [OUT_DIR]     (JOBS: parallel compiles, default 2;
#        on a shared machine: JOBS=1 nice -n 10 scripts/build-rapfi.sh …)
set -euo pipefail
src=${1:?usage: scripts/build-rapfi.sh SRC_DIR [OUT_DIR]}
out=${2:-}
[ -f "$src/Rapfi/CMakeLists.txt" ] && [ -f "$src/Rapfi/internalConfig.cpp" ] \
  || { echo "$src is not a Rapfi checkout (no Rapfi/CMakeLists.txt, Rapfi/internalConfig.cpp)" >&2; exit 1; }
for tool in cmake c++; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed (apt-get install cmake g++)" >&2; exit 1; }
done
src=$(cd "$src" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
for folder in "$src" ${out:+"$out"}; do
  case "$(realpath -m "$folder")/" in
    "$repo"/*) echo "refusing to build or copy Rapfi inside this repository (GPL): use a folder outside $repo" >&2; exit 1 ;;
  esac
done

if [ -n "$out" ]; then
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  [ -e "$out/config.toml" ] && { echo "$out/config.toml exists: Rapfi would load it instead of its classical configuration" >&2; exit 1; }
  build=$out/build
else
  build=$src/build-tessera
fi
# Build output goes to stderr so that stdout carries only the binary's path.
cmake -S "$src/Rapfi" -B "$build" -DCMAKE_BUILD_TYPE=Release -DNO_COMMAND_MODULES=ON >&2
cmake --build "$build" --parallel "${JOBS:-2}" >&2
binary=$build/pbrain-rapfi
[ -x "$binary" ] || { echo "the build left no $binary" >&2; exit 1; }

if [ -n "$out" ]; then
  cp "$binary" "$out/"
  binary=$out/pbrain-rapfi
fi
[ -e "$(dirname "$binary")/config.toml" ] && echo "warning: $(dirname "$binary")/config.toml would replace the classical configuration" >&2
echo "$binary"
