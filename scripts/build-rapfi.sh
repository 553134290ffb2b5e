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
# `--windows` cross-compiles `pbrain-rapfi.exe` for 64-bit Windows with mingw-w64 instead (a second
# pbrain engine for Piskvork under Wine: scripts/gomocup-under-wine.sh), through a CMake toolchain
# file written into the build folder. It uses the posix thread model of mingw-w64's g++ (Rapfi
# needs std::thread, which GCC 12's win32 model lacks), links statically (Rapfi's CMake does so on
# Windows without the command modules: no DLLs beside the .exe), and, since CMake cannot probe the
# host's instruction sets when cross-compiling, turns on SSE and AVX2 when this machine has them
# (the .exe runs here under Wine); the build folder is then OUT_DIR/build-windows (or
# SRC_DIR/build-tessera-windows). The same rule about config.toml holds: Piskvork starts a brain in
# a fresh temporary folder, where none is.
#
# Usage: [JOBS=N] scripts/build-rapfi.sh [--windows] SRC_DIR [OUT_DIR]   (JOBS: parallel compiles,
#        default 2; on a shared machine: JOBS=1 nice -n 10 scripts/build-rapfi.sh …)
#        --windows needs mingw-w64: apt-get install g++-mingw-w64-x86-64 gcc-mingw-w64-x86-64
set -euo pipefail
usage="usage: scripts/build-rapfi.sh [--windows] SRC_DIR [OUT_DIR]"
windows=
if [ "${1:-}" = --windows ]; then
  windows=1
  shift
fi
src=${1:?$usage}
out=${2:-}
[ -f "$src/Rapfi/CMakeLists.txt" ] && [ -f "$src/Rapfi/internalConfig.cpp" ] \
  || { echo "$src is not a Rapfi checkout (no Rapfi/CMakeLists.txt, Rapfi/internalConfig.cpp)" >&2; exit 1; }
if [ -n "$windows" ]; then
  tools=(cmake x86_64-w64-mingw32-gcc-posix x86_64-w64-mingw32-g++-posix)
  install="apt-get install cmake g++-mingw-w64-x86-64 gcc-mingw-w64-x86-64"
else
  tools=(cmake c++)
  install="apt-get install cmake g++"
fi
for tool in "${tools[@]}"; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed ($install)" >&2; exit 1; }
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
name=pbrain-rapfi
cmake_args=(-DCMAKE_BUILD_TYPE=Release -DNO_COMMAND_MODULES=ON)
if [ -n "$windows" ]; then
  build=$build-windows
  name=pbrain-rapfi.exe
  mkdir -p "$build"
  cat >"$build/mingw-w64.cmake" <<'EOF'
# Written by Tessera's scripts/build-rapfi.sh --windows.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
EOF
  # main.cpp includes <Windows.h>; mingw-w64's header is windows.h, and Linux file names are
  # case-sensitive: a one-line Windows.h in the build folder forwards to it.
  mkdir -p "$build/include"
  echo '#include <windows.h>' >"$build/include/Windows.h"
  cpu_has() { grep -qw "$1" /proc/cpuinfo; }
  sse=OFF avx2=OFF
  cpu_has sse4_1 && sse=ON
  cpu_has avx2 && cpu_has fma && avx2=ON
  cmake_args+=(-DCMAKE_TOOLCHAIN_FILE="$build/mingw-w64.cmake" -DCMAKE_CXX_FLAGS="-I$build/include"
    -DUSE_SSE=$sse -DUSE_AVX2=$avx2)
fi
# Build output goes to stderr so that stdout carries only the binary's path.
cmake -S "$src/Rapfi" -B "$build" "${cmake_args[@]}" >&2
cmake --build "$build" --parallel "${JOBS:-2}" >&2
binary=$build/$name
[ -f "$binary" ] || { echo "the build left no $binary" >&2; exit 1; }

if [ -n "$out" ]; then
  cp "$binary" "$out/"
  binary=$out/$name
fi
[ -e "$(dirname "$binary")/config.toml" ] && echo "warning: $(dirname "$binary")/config.toml would replace the classical configuration" >&2
echo "$binary"
