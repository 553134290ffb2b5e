#!/usr/bin/env bash
# Builds Piskvork (the Gomocup manager and gomoku GUI, GPL, by Petr Lastovicka and Tianyi Hao) for
# Windows with mingw-w64, from a copy of its public source, and prints the path of `piskvork.exe`.
# scripts/gomocup-under-wine.sh then runs its command-line games under Wine against our
# `pbrain-tessera.exe`, as the Gomocup manager drives entrants. Piskvork is never copied into this
# repository: fetch it and build it in folders outside it, e.g.
#   git clone https://github.com/plastovicka/Piskvork /tmp/piskvork-src
#   scripts/build-piskvork.sh /tmp/piskvork-src /tmp/piskvork
#
# The source is written for Visual Studio. The build copies it to OUT_DIR/build/src (the checkout
# stays as it is) and makes it build with mingw-w64 there, without editing any C++ file:
#   - MSVC's windows.h defines the macros min and max in C++ too, mingw-w64's only in C (and
#     libstdc++ undefines them): a header forced onto every file (-include) declares them as two
#     one-line templates with the same meaning (returning a value: a template returning the
#     reference that `decltype(a > b ? a : b)` names would hand back a dead argument, which broke
#     Piskvork's renju referee, renju.cpp's `S = max(width, height)`, in a first attempt);
#   - nettur.cpp casts a thread's void* parameter to int (a 64-bit error in g++): -fpermissive
#     makes that a warning, and the value is a small client number, so nothing is lost;
#   - the resource script names its icon `piskvork.ico` (the file is PISKVORK.ICO) and a bitmap by a
#     backslash path: two names rewritten with sed, because windres on Linux is case-sensitive and
#     reads `\` as a plain character.
# Linked statically (no mingw DLLs beside it) as a 64-bit GUI program (-mwindows). `openings.txt`
# (the openings `-opening N` picks from) is copied beside the binary, where Piskvork reads it.
#
# It also builds Piskvork's own sample brain, `pbrain-pela.exe` (source/pbrain with the C++
# skeleton's pisqpipe.cpp, as its README says; one include path with backslashes rewritten), a
# second pbrain engine for a Windows tournament when Rapfi is not at hand.
#
# Needs mingw-w64 (apt-get install g++-mingw-w64-x86-64 gcc-mingw-w64-x86-64: g++ and windres).
#
# Usage: [JOBS=N] scripts/build-piskvork.sh SRC_DIR OUT_DIR   (JOBS: parallel compiles, default 2;
#        on a shared machine: JOBS=1 nice -n 10 scripts/build-piskvork.sh …)
set -euo pipefail
usage="usage: [JOBS=N] scripts/build-piskvork.sh SRC_DIR OUT_DIR"
src=${1:?$usage}
out=${2:?$usage}
[ -f "$src/source/PISKVORK.cpp" ] && [ -f "$src/source/protocol.cpp" ] && [ -f "$src/source/piskvork.rc" ] \
  || { echo "$src is not a Piskvork checkout (no source/PISKVORK.cpp, source/protocol.cpp, source/piskvork.rc)" >&2; exit 1; }
cxx=x86_64-w64-mingw32-g++
windres=x86_64-w64-mingw32-windres
for tool in "$cxx" "$windres"; do
  command -v "$tool" >/dev/null \
    || { echo "$tool is not installed (apt-get install g++-mingw-w64-x86-64 gcc-mingw-w64-x86-64)" >&2; exit 1; }
done
repo=$(cd "$(dirname "$0")/.." && pwd)
for folder in "$src" "$out"; do
  case "$(realpath -m "$folder")/" in
    "$repo"/*) echo "refusing to build or copy Piskvork inside this repository (GPL): use a folder outside $repo" >&2; exit 1 ;;
  esac
done
src=$(cd "$src" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=$out/build
rm -rf "$build"
mkdir -p "$build/obj" "$build/pela"
cp -R "$src" "$build/src"
code=$build/src/source

cat >"$build/mingw-compat.h" <<'EOF'
/* Written by Tessera's scripts/build-piskvork.sh: MSVC's windows.h defines min and max for C++.
   By value, in the arguments' common type, as the macros' ?: gives (not a reference). */
#include <type_traits>
template <class A, class B> inline typename std::common_type<A, B>::type max(A a, B b) { return a > b ? a : b; }
template <class A, class B> inline typename std::common_type<A, B>::type min(A a, B b) { return a < b ? a : b; }
EOF
sed -i 's|"piskvork\.ico"|"PISKVORK.ICO"|; s|"\.\\\\\.\.\\\\skins\\\\pisq\.bmp"|"../skins/pisq.bmp"|' "$code/piskvork.rc"
sed -i 's|#include "\.\.\\skelet_CPP\\pisqpipe\.h"|#include "../skelet_CPP/pisqpipe.h"|' "$code/pbrain/board.h"
grep -q '"PISKVORK.ICO"' "$code/piskvork.rc" && grep -q '"\.\./skins/pisq\.bmp"' "$code/piskvork.rc" \
  && grep -q '"\.\./skelet_CPP/pisqpipe\.h"' "$code/pbrain/board.h" \
  || { echo "the source no longer has the lines this script rewrites (piskvork.rc, pbrain/board.h): update the sed steps" >&2; exit 1; }

cxxflags=(-O2 -w -fpermissive -include "$build/mingw-compat.h" -DWIN32 -D_WINDOWS -DNDEBUG)
# One compile per file, JOBS at a time; output to stderr so that stdout carries only the path.
compile() { # SOURCE OBJECT
  echo "$cxx -c $1" >&2
  "$cxx" "${cxxflags[@]}" -c "$1" -o "$2" >&2
}
pids=()
wait_some() { # keep at most JOBS compiles running; fail on the first that fails
  while [ "${#pids[@]}" -ge "${JOBS:-2}" ]; do
    wait "${pids[0]}" || { echo "a compile failed" >&2; exit 1; }
    pids=("${pids[@]:1}")
  done
}
for file in "$code"/PISKVORK.cpp "$code"/game.cpp "$code"/lang.cpp "$code"/netgame.cpp "$code"/nettur.cpp \
  "$code"/protocol.cpp "$code"/renju.cpp "$code"/taskbarprogress.cpp; do
  wait_some
  compile "$file" "$build/obj/$(basename "$file" .cpp).o" & pids+=($!)
done
for file in "$code"/pbrain/alfabeta.cpp "$code"/pbrain/piskcomp.cpp "$code"/pbrain/pisktur.cpp \
  "$code"/skelet_CPP/pisqpipe.cpp; do
  wait_some
  compile "$file" "$build/pela/$(basename "$file" .cpp).o" & pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || { echo "a compile failed" >&2; exit 1; }; done
(cd "$code" && "$windres" piskvork.rc -O coff -o "$build/obj/piskvork.res.o") >&2

"$cxx" -static -mwindows -O2 -o "$out/piskvork.exe" "$build"/obj/*.o \
  -lwsock32 -lversion -lcomctl32 -lwinmm -lole32 -luuid -lgdi32 -lcomdlg32 >&2
"$cxx" -static -O2 -o "$out/pbrain-pela.exe" "$build"/pela/*.o >&2
cp "$src/openings.txt" "$out/"
[ -f "$out/piskvork.exe" ] || { echo "the build left no $out/piskvork.exe" >&2; exit 1; }
echo "built $out/piskvork.exe ($(stat -c %s "$out/piskvork.exe") bytes) and $out/pbrain-pela.exe ($(stat -c %s "$out/pbrain-pela.exe") bytes)" >&2
echo "$out/piskvork.exe"
