#!/usr/bin/env bash
# Puts small public Syzygy tables (3 and 4 pieces: KPvK, KRvK, KRvKR, KQvKR, ... the test set
# python-chess ships in its source package, data/syzygy/regular) into a folder outside the
# repository and prints the folder. The tables are data of the Syzygy project, redistributed by
# python-chess; they are never committed here. tests/chess_syzygy.rs reads them (TESSERA_SYZYGY_DIR,
# default ~/.cache/tessera/syzygy); .ci/run calls this script.
#
# Needs python3 with pip (it downloads `chess==1.11.2` as a source archive from PyPI, no install).
#
# Usage: scripts/fetch-syzygy-tables.sh [FOLDER]
set -euo pipefail
folder=${1:-${TESSERA_SYZYGY_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tessera/syzygy}}
if [ -f "$folder/KRvK.rtbw" ] && [ -f "$folder/KRvKR.rtbz" ]; then
  echo "$folder"
  exit 0
fi
download=$(mktemp -d)
trap 'rm -rf "$download"' EXIT
python3 -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: -d "$download" chess==1.11.2 >&2
mkdir -p "$folder"
tar -xzf "$download"/chess-1.11.2.tar.gz -C "$download" chess-1.11.2/data/syzygy/regular
cp "$download"/chess-1.11.2/data/syzygy/regular/*.rtb[wz] "$folder"/
echo "$folder"
