#!/usr/bin/env bash
# Runs a Windows program under Wine as if it were a Linux one: stdin, stdout, stderr and the exit
# status pass straight through, and the process is Wine's own (exec, no shell left in between), so
# killing it kills the program. Every harness and test can then drive an .exe exactly as it drives
# our Linux binaries, e.g.
#   scripts/wine-run.sh dist/windows/pbrain-tessera.exe < game.txt
#   tessera match --game gomoku --engine "cmd=scripts/wine-run.sh arg=pbrain-tessera.exe" …
#
# On first use it prepares a 64-bit Wine prefix outside the repository (TESSERA_WINEPREFIX, default
# ~/.cache/tessera/wine): no Mono or Gecko prompts, no crash dialog, and our stand-in for
# bcryptprimitives.dll (scripts/wine/bcryptprimitives.c, built here with mingw-w64), which Rust's std
# needs and Wine 8.0 lacks. Only the prefix gets that DLL; the .exe files we ship never carry it.
# Preparing takes about 15 s once, under a lock, so tests may start many programs at the same time.
#
# Needs: wine (64-bit), mingw-w64's gcc, flock; scripts/release.sh and scripts/test-windows.sh
# install them (apt-get install wine wine64 gcc-mingw-w64-x86-64).
#
# A harness that starts many programs one after another runs `--keep-server` first and
# `--stop-server` at its end: Wine's server otherwise exits a few seconds after its last program,
# and a program started in that moment dies with "wine client error:0: recvmsg: Connection reset by
# peer" before it reads a line (seen in CI: python-chess starting an engine just after another quit).
#
# Usage: scripts/wine-run.sh EXE [ARGS…]
#        scripts/wine-run.sh --keep-server | --stop-server
set -euo pipefail
usage="usage: scripts/wine-run.sh EXE [ARGS…] | --keep-server | --stop-server"
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
case $1 in
  --keep-server | --stop-server) [ $# -eq 1 ] || { echo "$usage" >&2; exit 2; } ;;
  *) [ -f "$1" ] || { echo "wine-run.sh: no such program: $1" >&2; exit 2; } ;;
esac
for tool in wine wineboot wineserver x86_64-w64-mingw32-gcc flock; do
  command -v "$tool" >/dev/null \
    || { echo "wine-run.sh: $tool is not installed (apt-get install wine wine64 gcc-mingw-w64-x86-64)" >&2; exit 2; }
done

shim=$(cd "$(dirname "$0")/wine" && pwd)
prefix=${TESSERA_WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/tessera/wine}
export WINEPREFIX=$prefix WINEARCH=win64
# Wine's own diagnostics would mix with the program's stderr; a test that wants them sets WINEDEBUG.
export WINEDEBUG=${WINEDEBUG:--all}
# No Mono/Gecko installers: they would ask for a download at the first start.
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree=;mshtml=}

# The prefix is ready once it holds the stamp of the shim's current source.
stamp=$prefix/.tessera-ready-$(cat "$shim/bcryptprimitives.c" "$shim/bcryptprimitives.def" | cksum | cut -d' ' -f1)
if [ ! -e "$stamp" ]; then
  mkdir -p "$(dirname "$prefix")"
  exec 9>"$prefix.lock"
  flock 9
  if [ ! -e "$stamp" ]; then
    echo "wine-run.sh: preparing the Wine prefix $prefix (once)" >&2
    wineboot --init >/dev/null 2>&1
    # A crashing program exits with its status instead of waiting in a dialog nobody sees.
    wine reg add 'HKCU\Software\Wine\WineDbg' /v ShowCrashDialog /t REG_DWORD /d 0 /f >/dev/null 2>&1
    wineserver --wait
    system32=$prefix/drive_c/windows/system32
    [ -d "$system32" ] || { echo "wine-run.sh: wineboot left no $system32" >&2; exit 1; }
    x86_64-w64-mingw32-gcc -O2 -shared -o "$system32/bcryptprimitives.dll.new" \
      "$shim/bcryptprimitives.c" "$shim/bcryptprimitives.def" -ladvapi32
    mv "$system32/bcryptprimitives.dll.new" "$system32/bcryptprimitives.dll"
    rm -f "$prefix"/.tessera-ready-*
    touch "$stamp"
  fi
  exec 9>&-
fi
case $1 in
  # A persistent server (it forks into the background); starting one where one runs is a no-op.
  --keep-server) exec wineserver --persistent ;;
  # Ends the server and whatever Wine programs are still running in this prefix.
  --stop-server) exec wineserver --kill ;;
  *) exec wine "$@" ;;
esac
