#!/usr/bin/env bash
# Builds Pachi (the go engine, GPL) from a checkout of its public repository, without its neural
# network and joseki modules (`make DCNN=0 JOSEKIFIX=0`), and prints the path of the binary.
# Pachi is never copied into this repository: build it in a scratch folder outside it, e.g.
#   git clone https://github.com/pasky/pachi /tmp/pachi && (cd /tmp/pachi && git checkout pachi-12.90)
#   scripts/build-pachi.sh /tmp/pachi
# Pachi reads its pattern files (patterns_mm.gamma, patterns_mm.spat) and joseki19.gtp (it aborts
# without it, even on 9x9) from the folder it runs in,
# so run it from the folder that holds the printed binary (scripts/strength-go.sh does).
# With OUT_DIR, the binary and the data files it reads are copied there as well.
#
# Usage: scripts/build-pachi.sh SRC_DIR [OUT_DIR]     (JOBS=N for parallel make, default 2)
set -euo pipefail
src=${1:?usage: scripts/build-pachi.sh SRC_DIR [OUT_DIR]}
out=${2:-}
[ -f "$src/Makefile" ] && [ -f "$src/pachi.c" ] || { echo "$src is not a Pachi checkout (no Makefile/pachi.c)" >&2; exit 1; }
repo=$(cd "$(dirname "$0")/.." && pwd)
case "$(cd "$src" && pwd)/" in
  "$repo"/*) echo "refusing to build Pachi inside this repository (GPL): use a folder outside $repo" >&2; exit 1 ;;
esac

# Build output goes to stderr so that stdout carries only the binary's path.
make -C "$src" DCNN=0 JOSEKIFIX=0 -j"${JOBS:-2}" >&2
binary=$(cd "$src" && pwd)/pachi
[ -x "$binary" ] || { echo "the build left no $binary" >&2; exit 1; }

if [ -n "$out" ]; then
  mkdir -p "$out"
  cp "$binary" "$out/"
  for data in patterns_mm.gamma patterns_mm.spat joseki19.gtp book.dat opening.dat; do
    [ -f "$src/$data" ] && cp "$src/$data" "$out/"
  done
  binary=$(cd "$out" && pwd)/pachi
fi
echo "$binary"
