#!/usr/bin/env bash
# Builds KataGo (the go engine; MIT-style licence, with vendored libraries under their own) for the
# CPU (its Eigen backend, with AVX2) from a work tree of its public repository, and puts in OUT_DIR the
# binary (`katago`), the small b6c96 network its tests use
# (g170-b6c96-s175395328-d26788732.bin.gz, 3.8 MB, from cpp/tests/models) and a GTP configuration
# of our own (tessera-gtp.cfg, see below); it prints the path of the binary. KataGo's source, binary
# and networks are never copied into this repository: SRC_DIR and OUT_DIR must be outside it, e.g.
#   git clone https://github.com/lightvector/KataGo /tmp/katago      (the network comes with it)
#   scripts/build-katago.sh /tmp/katago /tmp/katago-out
# From a bare mirror of the repository (a git directory G, no work tree), extract one without
# cpp/tests/models — most of its files may be absent from a mirror, and `git archive` stops at the
# first missing one — then take the one network this build needs on its own:
#   mkdir -p /tmp/katago && git --git-dir=G ls-tree -r --name-only HEAD | grep -v '^cpp/tests/models/' \
#     | xargs git --git-dir=G archive HEAD -- | tar -x -C /tmp/katago
#   mkdir -p /tmp/katago/cpp/tests/models && git --git-dir=G cat-file -p \
#     HEAD:cpp/tests/models/g170-b6c96-s175395328-d26788732.bin.gz \
#     >/tmp/katago/cpp/tests/models/g170-b6c96-s175395328-d26788732.bin.gz
# (`git archive` may still print "invalid object" for a model file the mirror lacks: harmless, the
# listed files are all in the archive.)
#
# The build needs cmake, g++, Eigen 3 and zlib headers; as root the missing ones are installed with
# apt-get (libeigen3-dev zlib1g-dev cmake g++), otherwise the script says which to install. It
# configures in SRC_DIR/cpp/build with `-DUSE_BACKEND=EIGEN -DUSE_AVX2=1 -DNO_GIT_REVISION=1` (the
# extracted tree is no git checkout, and the revision does not matter here). About 15 minutes at
# one job.
#
# tessera-gtp.cfg is written here rather than copied from KataGo's cpp/configs/gtp_example.cfg,
# whose defaults suit a human opponent, not a controlled match: Chinese rules (the match's referee
# scores by area; the example says tromp-taylor), komi from the GTP `komi` command (the match sends
# 7.5), one search thread (so one core, like our engine), no resignation (every game is played out
# and scored by the referee), no pondering, no playing faster after a pass or when winning (equal
# time on every move), no log. Each move searches MOVE_TIME seconds (default 0.5, `maxTime`);
# VISITS=N adds a cap of N visits a move (`maxVisits`), whichever comes first. A run can change
# them with `-override-config maxTime=S` (or maxVisits=N), as scripts/strength-go.sh does for equal
# time a move.
# Run it as
#   OUT_DIR/katago gtp -config OUT_DIR/tessera-gtp.cfg -model OUT_DIR/g170-b6c96-s175395328-d26788732.bin.gz
#
# Usage: [JOBS=N] [MOVE_TIME=S] [VISITS=N] scripts/build-katago.sh SRC_DIR OUT_DIR
#        (JOBS: parallel compiles, default 2; on a shared machine: JOBS=1 nice -n 19 …)
set -euo pipefail
usage="usage: scripts/build-katago.sh SRC_DIR OUT_DIR"
src=${1:?$usage}
out=${2:?$usage}
network=g170-b6c96-s175395328-d26788732.bin.gz
move_time=${MOVE_TIME:-0.5}
visits=${VISITS:-}
if [ ! -f "$src/cpp/CMakeLists.txt" ] || [ ! -f "$src/cpp/command/gtp.cpp" ]; then
  echo "$src is not a KataGo work tree (no cpp/CMakeLists.txt, cpp/command/gtp.cpp)" >&2
  exit 1
fi
if [ ! -f "$src/cpp/tests/models/$network" ]; then
  echo "$src/cpp/tests/models/$network is missing (the header of $0 says how to take it from a mirror)" >&2
  exit 1
fi
src=$(cd "$src" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
for folder in "$src" "$out"; do
  case "$(realpath -m "$folder")/" in
    "$repo"/*) echo "refusing to build or copy KataGo inside this repository: use a folder outside $repo" >&2; exit 1 ;;
  esac
done

# Build tools and libraries, installed only when missing (a Debian/Ubuntu machine; elsewhere
# install the equivalents by hand: the checks are skipped without dpkg-query).
if command -v dpkg-query >/dev/null; then
  missing=()
  for package in libeigen3-dev zlib1g-dev cmake g++; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" -eq 0 ] || { echo "missing packages, install them as root: apt-get install ${missing[*]}" >&2; exit 1; }
    # apt-get's output goes to stderr so that stdout carries only the binary's path.
    apt-get update >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" >&2
  fi
fi

# Build output goes to stderr so that stdout carries only the binary's path.
build=$src/cpp/build
mkdir -p "$build"
(cd "$build" && cmake .. -DUSE_BACKEND=EIGEN -DUSE_AVX2=1 -DNO_GIT_REVISION=1 >&2)
make -C "$build" -j"${JOBS:-2}" >&2
[ -x "$build/katago" ] || { echo "the build left no $build/katago" >&2; exit 1; }

mkdir -p "$out"
out=$(cd "$out" && pwd)
cp "$build/katago" "$src/cpp/tests/models/$network" "$out/"
cat >"$out/tessera-gtp.cfg" <<EOF
# KataGo GTP configuration written by Tessera's scripts/build-katago.sh for refereed matches
# (tessera match, scripts/strength-go.sh): equal, fixed effort on every move, no resignation.
# Keys as in KataGo's cpp/configs/gtp_example.cfg; any can be changed on the command line with
# -override-config KEY=VALUE,KEY=VALUE.

# No log: the match records the games itself.
logAllGTPCommunication = false
logSearchInfo = false
logToStderr = false
startupPrintMessageToStderr = false

# Area scoring, simple ko, no multi-stone suicide: what the referee (GNU Go --chinese-rules)
# scores. Komi comes from the GTP komi command.
rules = chinese

# Every game is played to the end and scored by the referee. KataGo reads the threshold whenever
# allowResignation is given, so it must be here too: -1 never resigns either.
allowResignation = false
resignThreshold = -1.0

# Search limits a move: maxTime seconds$([ -n "$visits" ] && echo ", or maxVisits visits if sooner").
maxTime = $move_time
$([ -n "$visits" ] && echo "maxVisits = $visits")
ponderingEnabled = false
# Only used with GTP time controls (the match sends none with --tc nodes=1): keep it small.
lagBuffer = 0.05
# The same effort after a pass and when winning (KataGo's defaults are 1.0; the example config
# lowers them for human opponents).
searchFactorAfterOnePass = 1.0
searchFactorAfterTwoPass = 1.0
searchFactorWhenWinning = 1.0
searchFactorWhenWinningThreshold = 1.0

# One core: one search thread, one thread evaluating the network.
numSearchThreads = 1
numEigenThreadsPerModel = 1
EOF
echo "$out/katago"
