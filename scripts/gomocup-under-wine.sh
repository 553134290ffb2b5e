#!/usr/bin/env bash
# Plays our Windows `pbrain-tessera.exe` in the real Gomocup manager: Piskvork's command-line games
# (`piskvork.exe -p AI1 AI2 -rule … -outfile …`, the batch mode the Gomocup organisers script) under
# Wine in a virtual X display (xvfb-run), Tessera against itself and against other pbrain engines
# built for Windows, in every rule Piskvork's command line takes, with a time limit per turn and per
# game. It reads what Piskvork leaves behind (its exit status, the game record `-outfile`, the pipe
# logs `-logpipe`, the message log `-logmsg` with its time-outs, its error text on stderr), watches
# the engine processes from Linux (peak memory, working folder, whether each one ends when the
# manager does), prints one line per game to stderr, a table per rule, and a one-line summary last.
# It fails (status 1) when our engine is at fault in any game: an ERROR or UNKNOWN line or any line
# that is not a pbrain answer in Piskvork's pipe log, a time loss, a renju-forbidden move, a crash or
# another error Piskvork reports, more peak memory than the limit, or a process still running after
# Piskvork quit while it was not the one Piskvork had suspended (see below); also when Piskvork itself
# fails or hangs. The opponents' faults are counted in the summary but do not fail the run.
#
# Gomocup's settings, as Piskvork takes them (its command line, else its registry values, written
# before each game under HKCU\Software\Petr Lastovicka\piskvorky in the Wine prefix):
#   -memory 350 (MB: `INFO max_memory 367001600`), -timeturn (ms) and -timematch (s) (Gomocup's
#   leagues: 30000 ms and 180 s; fastgame 5000 ms and 120 s; the defaults here are shorter, see
#   below), -rule 0 freestyle, 1 exactly five, 2 renju (sent as `INFO rule 4`), 8 caro where an
#   overline still wins, 9 caro with exactly five (Piskvork refuses every other number); the board
#   (registry sirka/height: there is no flag) 20x20 for freestyle and 15x15 for the others, as in
#   Gomocup's leagues; checkTimeOut=1 and tolerance (default 1000 ms: a move may take turn time +
#   tolerance, or what is left of the game + tolerance, before it loses on time; without
#   checkTimeOut Piskvork's single games never lose on time); autoBegin=1 so that `-opening N` plays
#   line N of openings.txt (beside piskvork.exe) as the first stones, which the brain then receives
#   in `BOARD`, and openingRandomShift1=0 (no random rotation, as in tournaments); debugAI=1
#   ("suspend opponent's pbrain": each engine's threads are stopped while the other thinks, as
#   Gomocup does) and AIdataFolder, sent as `INFO folder` (a folder under OUT; its size is reported:
#   Gomocup allows 20 MB of persistent files).
# Piskvork starts each engine with its own temporary folder (%TEMP%\psqp<pid>) as the working folder,
# not the engine's folder, and joins the engine's stderr to its stdout: anything an engine writes to
# stderr reaches Piskvork as a protocol line.
# In command-line mode Piskvork ends the game by quitting at once: it sends no END and leaves the
# engine it had suspended suspended, so that one never sees its input close and stays (on Windows
# too); the other sees end of input and must exit. The script waits a few seconds, fails if the
# engine Piskvork was not suspending is still there, and kills what is left (it says so).
#
# Every Windows program runs through scripts/wine-run.sh, which prepares the Wine prefix (with the
# bcryptprimitives shim Rust's std needs); Piskvork starts the engines inside that prefix. The
# prefix is one of its own (GOMOCUP_WINEPREFIX, default ~/.cache/tessera/wine-gomocup, passed to
# wine-run.sh as TESSERA_WINEPREFIX), not the one the other Windows tests share: Piskvork rewrites
# its settings in the prefix's registry whenever it quits, and Wine gives all windows of a prefix
# one desktop process, bound to the X display of whichever program started the prefix's
# wineserver: after a program with no display (a test, `reg`), Piskvork cannot open its window and
# quits with status 12. So before each game the script waits for the prefix's wineserver to end,
# and writes the settings (`reg import`) inside the game's own xvfb-run session, right before
# Piskvork. Each engine runs from a copy under OUT/engines (the self-play copy is renamed
# pbrain-tessera-b.exe: Piskvork names each pipe log after the .exe).
#
# Needs: wine (64-bit), xvfb-run, python3 (apt-get install wine wine64 xvfb python3; scripts/wine-run.sh
# also needs gcc-mingw-w64-x86-64 once). Piskvork: scripts/build-piskvork.sh, which also builds
# Piskvork's sample engine pbrain-pela.exe beside it (the default opponent). Rapfi for Windows:
# scripts/build-rapfi.sh --windows (then OPPONENTS="path/to/pbrain-rapfi.exe path/to/pbrain-pela.exe").
# TESSERA_EXE defaults to the single dist/tessera-*-x86_64-windows/pbrain-tessera.exe that
# scripts/release.sh builds; or build it with
#   CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc \
#     cargo build --release --target x86_64-pc-windows-gnu -p pbrain-tessera
# and pass target/x86_64-pc-windows-gnu/release/pbrain-tessera.exe.
#
# Per rule it plays GAMES games of Tessera against itself and GAMES against each opponent, each
# opening twice with the colours swapped (the first engine of `-p` is black). A run of the defaults
# (5 rules, 2 + 2 games each, 1 s/turn, 20 s/game) takes about 5–15 minutes.
#
# Usage: [OPPONENTS="A.exe B.exe"] [RULES="0 1 2 8 9"] [GAMES=2] [TURN_MS=1000] [MATCH_S=20]
#        [MEMORY_MB=350] [TOLERANCE_MS=1000] [SIZE=N (every rule on N×N)] [OPENING=0 (first line)]
#        [SUSPEND=1 (0: Piskvork does not suspend the waiting engine; then every engine must exit)]
#        [OUT=DIR (records and logs, kept; default a new folder under /tmp)]
#        scripts/gomocup-under-wine.sh PISKVORK_EXE [TESSERA_EXE]
set -euo pipefail
usage="usage: [OPPONENTS=\"A.exe …\"] [RULES=\"0 1 2 8 9\"] [GAMES=2] [TURN_MS=1000] [MATCH_S=20] [MEMORY_MB=350] [TOLERANCE_MS=1000] [SIZE=N] [OPENING=0] [SUSPEND=1] [OUT=DIR] scripts/gomocup-under-wine.sh PISKVORK_EXE [TESSERA_EXE]"
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "$usage" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd)
wine_run=$repo/scripts/wine-run.sh
piskvork=$1
tessera=${2:-}

for tool in wine wineserver xvfb-run python3; do
  command -v "$tool" >/dev/null \
    || { echo "gomocup-under-wine.sh: $tool is not installed (apt-get install wine wine64 xvfb python3)" >&2; exit 2; }
done
[ -f "$piskvork" ] || { echo "no such file: $piskvork (build it: scripts/build-piskvork.sh SRC_DIR OUT_DIR)" >&2; exit 2; }
piskvork=$(realpath "$piskvork")
[ -f "$(dirname "$piskvork")/openings.txt" ] \
  || { echo "no openings.txt beside $piskvork (scripts/build-piskvork.sh copies it there)" >&2; exit 2; }
if [ -z "$tessera" ]; then
  shopt -s nullglob
  built=("$repo"/dist/tessera-*-x86_64-windows/pbrain-tessera.exe)
  shopt -u nullglob
  case ${#built[@]} in
    1) tessera=${built[0]} ;;
    0) echo "no dist/tessera-*-x86_64-windows/pbrain-tessera.exe: run scripts/release.sh, or build one with" >&2
       echo "  CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc cargo build --release --target x86_64-pc-windows-gnu -p pbrain-tessera" >&2
       echo "and pass target/x86_64-pc-windows-gnu/release/pbrain-tessera.exe as TESSERA_EXE" >&2
       exit 2 ;;
    *) echo "several builds in dist/ (${built[*]}): pass one as TESSERA_EXE" >&2; exit 2 ;;
  esac
fi
[ -f "$tessera" ] || { echo "no such file: $tessera" >&2; exit 2; }
tessera=$(realpath "$tessera")
opponents=${OPPONENTS-$(dirname "$piskvork")/pbrain-pela.exe}
for opponent in $opponents; do
  [ -f "$opponent" ] || { echo "no such opponent: $opponent (OPPONENTS: Windows pbrain engines, space-separated)" >&2; exit 2; }
  case "$(basename "$opponent")" in
    pbrain-*.exe) ;;
    *) echo "$opponent: Piskvork speaks pbrain only to programs named pbrain-*.exe" >&2; exit 2 ;;
  esac
done
rules=${RULES:-0 1 2 8 9} games=${GAMES:-2} turn_ms=${TURN_MS:-1000} match_s=${MATCH_S:-20}
memory_mb=${MEMORY_MB:-350} tolerance_ms=${TOLERANCE_MS:-1000} first_opening=${OPENING:-0} suspend=${SUSPEND:-1}
for rule in $rules; do
  case $rule in 0|1|2|8|9) ;; *) echo "rule $rule: Piskvork's -rule takes 0, 1, 2, 8 and 9" >&2; exit 2 ;; esac
done

out=${OUT:-$(mktemp -d /tmp/gomocup-under-wine.XXXXXX)}
case "$(realpath -m "$out")/" in
  "$repo"/*) echo "refusing to write game records and Wine logs inside this repository: choose OUT outside $repo" >&2; exit 2 ;;
esac
mkdir -p "$out"
out=$(realpath "$out")
mkdir -p "$out/engines" "$out/games" "$out/data"
: >"$out/results.jsonl"

# The engines, each from its own folder under OUT (one copy of Tessera renamed for self-play).
install_engine() { # SOURCE FOLDER_NAME EXE_NAME → prints the copy's path
  mkdir -p "$out/engines/$2"
  cp "$1" "$out/engines/$2/$3"
  echo "$out/engines/$2/$3"
}
ours_a=$(install_engine "$tessera" tessera pbrain-tessera.exe)
ours_b=$(install_engine "$tessera" tessera-b pbrain-tessera-b.exe)
theirs=()
for opponent in $opponents; do
  name=$(basename "$opponent")
  theirs+=("$(install_engine "$opponent" "${name%.exe}" "$name")")
done

# The prefix (see above), prepared by a first run of our engine (it reads an empty input and
# should exit at once).
prefix=${GOMOCUP_WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/tessera/wine-gomocup}
export TESSERA_WINEPREFIX=$prefix
timeout 120 "$wine_run" "$ours_a" </dev/null >/dev/null \
  || echo "warning: $tessera on an empty input under Wine: exit status $? (124: still running after 120 s)" >&2
reg_exe=$prefix/drive_c/windows/system32/reg.exe
[ -f "$reg_exe" ] || { echo "no $reg_exe: is $prefix a Wine prefix prepared by scripts/wine-run.sh?" >&2; exit 1; }
windows_path() { local path; path=$(realpath -m "$1"); printf 'Z:%s' "${path//\//\\}"; }
settings() { # FILE NAME VALUE … : Piskvork's registry settings as a .reg file (numbers as DWORD)
  local file=$1
  shift
  printf 'REGEDIT4\r\n\r\n[HKEY_CURRENT_USER\\Software\\Petr Lastovicka\\piskvorky]\r\n' >"$file"
  while [ $# -ge 2 ]; do
    case $2 in
      *[!0-9]*) printf '"%s"="%s"\r\n' "$1" "${2//\\/\\\\}" >>"$file" ;;
      *) printf '"%s"=dword:%08x\r\n' "$1" "$2" >>"$file" ;;
    esac
    shift 2
  done
}
quiet_prefix() { # wait until no program of the prefix runs and its wineserver has ended
  WINEPREFIX=$prefix timeout 60 wineserver -w 2>/dev/null || WINEPREFIX=$prefix wineserver -k 2>/dev/null || true
}
openings=$(grep -c . "$(dirname "$piskvork")/openings.txt")

echo "gomocup-under-wine: Piskvork $piskvork, Tessera $tessera, opponents: ${opponents:-none}; rules $rules," \
  "$games games per pairing and rule, $turn_ms ms/turn, $match_s s/game, $memory_mb MB; records in $out" >&2

# One game: Piskvork under xvfb-run and Wine, the engine processes watched from /proc, then what
# Piskvork left behind read into one JSON line of OUT/results.jsonl.
read -r -d '' play_game <<'PY' || true
import json, os, re, shutil, signal, subprocess, sys, time

(out, game_dir, wine_run, reg_exe, settings, piskvork, rule, size, turn_ms, match_s, memory_mb, suspend, opening,
 opening_stones, a_path, a_ours, b_path, b_ours) = sys.argv[1:]
rule, size, turn_ms, match_s, memory_mb = int(rule), int(size), int(turn_ms), int(match_s), int(memory_mb)
opening_stones = int(opening_stones)

def windows(path):
    return "Z:" + os.path.realpath(path).replace("/", "\\")

sides = [
    {"path": a_path, "exe": os.path.basename(a_path), "ours": a_ours == "1"},
    {"path": b_path, "exe": os.path.basename(b_path), "ours": b_ours == "1"},
]
os.makedirs(game_dir + "/pipe", exist_ok=True)
psq, msg = game_dir + "/game.psq", game_dir + "/messages.txt"
# Piskvork's settings go into the registry inside the same X session, right before it starts (a
# program without a display would bind the prefix's desktop to no display: see the header).
launch = '"$1" "$2" import "$3" >/dev/null 2>&1 || { echo "reg import $3 failed" >&2; exit 97; }; shift 3; exec "$@"'
command = [
    "xvfb-run", "-a", "-s", "-screen 0 1024x768x24", "bash", "-c", launch, "game", wine_run, reg_exe,
    windows(settings), wine_run, piskvork,
    "-p", windows(a_path), windows(b_path), "-rule", str(rule), "-timeturn", str(turn_ms),
    "-timematch", str(match_s), "-memory", str(memory_mb), "-opening", opening,
    "-outfile", windows(psq), "-outfileformat", "1",
    "-logpipe", windows(game_dir + "/pipe") + "\\", "-logmsg", windows(msg),
]
with open(game_dir + "/command.txt", "w") as f:
    f.write(" ".join(command[command.index(piskvork):]) + "\n")

def scan(seen):
    """Engine processes now running (pid → side), recording peak memory and working folder."""
    alive = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                program = f.read().split(b"\0")[0].decode(errors="replace").strip('"').lower()
        except OSError:
            continue
        for index, side in enumerate(sides):
            # The program itself (Wine shows its Windows path as argv[0]), not Piskvork or a shell
            # that has the path among its arguments.
            if program == windows(side["path"]).lower():
                alive[int(pid)] = index
                try:
                    with open(f"/proc/{pid}/status") as f:
                        hwm = re.search(r"VmHWM:\s+(\d+) kB", f.read())
                    if hwm:
                        side["peak_kb"] = max(side.get("peak_kb", 0), int(hwm.group(1)))
                    side["cwd"] = os.readlink(f"/proc/{pid}/cwd")
                except OSError:
                    pass
                seen.add(int(pid))
    return alive

# Long enough for both game clocks (or every move of a full board at the turn time) with the
# tolerance and start-up; beyond it Piskvork is hung. Piskvork writes the record and then calls
# exit(), which under Wine has once hung: 15 s after the record appears it is killed and the
# record read alone.
limit = 2 * match_s + 120 if match_s else size * size * (turn_ms / 1000 + 1) + 120
seen = set()
started = time.monotonic()
hung = stuck_at_exit = False
with open(game_dir + "/piskvork.stdout", "wb") as so, open(game_dir + "/piskvork.stderr", "wb") as se:
    manager = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=so, stderr=se, start_new_session=True)
    recorded = None
    while manager.poll() is None:
        scan(seen)
        if recorded is None and os.path.exists(psq):
            recorded = time.monotonic()
        stuck_at_exit = recorded is not None and time.monotonic() - recorded > 15
        hung = recorded is None and time.monotonic() - started > limit
        if hung or stuck_at_exit:
            os.killpg(manager.pid, signal.SIGKILL)
            manager.wait()
            break
        time.sleep(0.2)
duration = time.monotonic() - started
status = None if hung or stuck_at_exit else manager.returncode
# The engine that was not suspended sees its input close and must leave; give it a few seconds.
deadline = time.monotonic() + 5
alive = scan(seen)
while alive and time.monotonic() < deadline:
    time.sleep(0.2)
    alive = scan(seen)
left_running = sorted({index for index in alive.values()})
for pid in alive:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass

# Piskvork's temporary folder (the engines' working folder) outlives its exit(): say what the
# engines left in it, then remove it (the prefix is this script's own).
for side in sides:
    cwd = side.get("cwd", "")
    if re.search(r"/drive_c/users/[^/]+/Temp/psqp\d+$", cwd) and os.path.isdir(cwd):
        left = [os.path.relpath(os.path.join(root, f), cwd) for root, _, files in os.walk(cwd) for f in files]
        side["left_files"] = left
        shutil.rmtree(cwd, ignore_errors=True)

def read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode(errors="replace")
    except OSError:
        return ""

stderr = read(game_dir + "/piskvork.stderr")
# Piskvork's own error messages (in command-line mode it prints their format text to stderr).
manager_errors = [line.strip() for line in re.split(r"[\r\n]+", stderr)
                  if re.search(r"has exited unexpectedly|has not returned coordinates|did not answer OK|"
                               r"returned invalid move|File not found|Can't create process|allocated .* of memory|"
                               r"CreatePipe failed|DuplicateHandle failed|has not created file", line)]
moves, names = [], []
lines = read(psq).splitlines()
for line in lines[1:]:
    m = re.fullmatch(r"(\d+),(\d+),(-?\d+)", line.strip())
    if m and not names:
        moves.append(tuple(int(v) for v in m.groups()))
    elif line.strip():
        names.append(line.strip())
timeouts = [i for i, side in enumerate(sides)
            if any(line.strip() == side["exe"] + ": Timeout" for line in read(msg).splitlines())]

def wins(moves, rule, size):
    """Whether the last move of the record makes a winning line under the rule (Piskvork's test)."""
    stones = {(x, y): i % 2 for i, (x, y, _) in enumerate(moves)}
    x, y, _ = moves[-1]
    me = stones[(x, y)]
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        ends, count = [], 1
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while stones.get((cx, cy)) == me:
                count += 1
                cx, cy = cx + sign * dx, cy + sign * dy
            ends.append(stones.get((cx, cy)) == 1 - me)  # an opponent stone (not the edge) beyond
        if rule & 8 and count == 5 and all(ends):
            continue
        exact = rule & 1 or (rule == 2 and me == 0)
        if count == 5 or (count > 5 and not exact):
            return True
    return False

n = len(moves)
last_mover = (n - 1) % 2 if n else None
to_move = n % 2
faults = [[] for _ in sides]
notes = []
result, reason, waited_on = None, None, None
if stuck_at_exit and moves:
    notes.append("Piskvork wrote the record but did not exit within 15 s (killed): result read from the record")
    if wins(moves, rule, size):
        status = last_mover + 1
    elif n >= size * size - 25:
        status = 3
    elif rule == 2 and last_mover == 0:
        status = 2  # black's last move ended a renju game without a five: a forbidden move
if hung:
    reason = f"Piskvork did not finish within {limit} s (killed)"
elif not lines:
    reason = f"Piskvork wrote no game record (exit status {status})"
    if status == 12:
        reason += ": it could not create its window (no usable X display for the prefix's desktop)"
elif timeouts:
    loser = timeouts[0]
    result, reason, waited_on = 1 - loser, "time", loser
    faults[loser].append("lost on time")
elif status in (1, 2) and n:
    result = status - 1
    if result == last_mover:
        reason, waited_on = "five", last_mover
        if not wins(moves, rule, size):
            notes.append("Piskvork scored a win on a move that makes no winning line by this script's reading")
    elif rule == 2:
        reason, waited_on = "forbidden", last_mover
        faults[last_mover].append(f"renju-forbidden move {moves[-1][0] - 1},{moves[-1][1] - 1}")
    else:
        reason = "a win Piskvork scored against the last mover outside renju"
        notes.append("unexplained end: " + reason)
elif status == 3 and not manager_errors and n >= size * size - 25:
    # Piskvork calls the game drawn when 25 points are left.
    result, reason, waited_on = "draw", "board nearly full", last_mover
elif status == 3:
    reason, waited_on = "error", to_move
    crash = any(re.search(r"exited unexpectedly|Unhandled exception", e) for e in manager_errors)
    faults[to_move].append(("crashed: " if crash else "Piskvork reports: ") + " | ".join(manager_errors or ["(no text)"]))
else:
    reason = f"Piskvork exited with status {status}"

# The pipe logs: manager lines and engine lines, told apart by the grammar of each direction.
manager_line = re.compile(r"(START|RECTSTART|RESTART|INFO|BOARD|DONE|TURN|BEGIN|END|TAKEBACK|PLAY|ABOUT)\b.*"
                          r"|\d+,\d+,\d+|______Process started______", re.I)
answer_line = re.compile(r"OK|\d+,\d+|(MESSAGE|DEBUG|SUGGEST)( .*)?|name=.*", re.I)
for index, side in enumerate(sides):
    log = read(f"{game_dir}/pipe/{side['exe']}.log")
    side["errors"] = [l for l in log.splitlines() if re.match(r"(ERROR|UNKNOWN)\b", l, re.I)]
    side["strange"] = [l for l in log.splitlines()
                       if l.strip() and not manager_line.fullmatch(l.strip()) and not answer_line.fullmatch(l.strip())
                       and not re.match(r"(ERROR|UNKNOWN)\b", l, re.I)]
    side["info_folder"] = any(l.startswith("INFO folder ") for l in log.splitlines())
    if side["errors"]:
        faults[index].append(f"{len(side['errors'])} ERROR/UNKNOWN lines, first: {side['errors'][0]!r}")
    if side["strange"]:
        faults[index].append(f"{len(side['strange'])} lines that are no pbrain answer, first: {side['strange'][0]!r}")
    # Piskvork's time of an engine's first move includes starting the process, which its time-out
    # check leaves out: that move is counted apart.
    times = [t for i, (_, _, t) in enumerate(moves) if i >= opening_stones and i % 2 == index]
    side["moves"] = len(times)
    side["first_ms"] = times[0] if times else 0
    side["max_ms"] = max(times[1:], default=0)
    side["over_turn"] = sum(t > turn_ms for t in times[1:])
    peak_mb = side.get("peak_kb", 0) / 1024
    side["peak_mb"] = round(peak_mb, 1)
    if peak_mb > memory_mb:
        faults[index].append(f"peak memory {peak_mb:.0f} MB over the {memory_mb} MB limit")
    if index in left_running:
        if suspend == "1" and waited_on is not None and index != waited_on:
            notes.append(f"{side['exe']} was left suspended by Piskvork (killed)")
        elif hung:
            notes.append(f"{side['exe']} was still running when Piskvork was killed (killed)")
        else:
            faults[index].append("still running 5 s after Piskvork quit (killed)")
    if not side.get("peak_kb"):
        notes.append(f"{side['exe']} was never seen running")
    if side.get("left_files"):
        notes.append(f"{side['exe']} left {len(side['left_files'])} files in its working folder: "
                     + ", ".join(side["left_files"][:5]))
if result is None:
    faults_any = any(faults)
    if not faults_any:
        notes.append("unexplained end: " + reason)

record = {
    "rule": rule, "size": size, "opening": int(opening), "black": sides[0]["exe"], "white": sides[1]["exe"],
    "ours": [s["ours"] for s in sides], "status": status, "moves": n, "seconds": round(duration, 1),
    "result": result, "reason": reason, "manager_ok": result is not None or any(faults),
    "faults": faults, "notes": notes,
    "sides": [{k: s.get(k) for k in ("exe", "moves", "first_ms", "max_ms", "over_turn", "peak_mb", "cwd", "info_folder")}
              for s in sides],
}
with open(out + "/results.jsonl", "a") as f:
    f.write(json.dumps(record) + "\n")
winner = {0: sides[0]["exe"], 1: sides[1]["exe"], "draw": "draw"}.get(result, "no result")
line = (f"rule {rule} {size}x{size} opening {opening}: {sides[0]['exe']} (black) vs {sides[1]['exe']}: "
        f"{winner} ({reason}), {n} moves, {duration:.0f} s; first move (with start-up), slowest other move: "
        + ", ".join(f"{s['exe']} {s['first_ms']} ms, {s['max_ms']} ms" for s in sides)
        + "; peak memory " + ", ".join(f"{s['exe']} {s['peak_mb']} MB" for s in sides))
for index, side in enumerate(sides):
    for fault in faults[index]:
        line += f"\n  FAULT {side['exe']}: {fault}"
for note in notes:
    line += f"\n  note: {note}"
print(line, file=sys.stderr)
PY

size_of() { # RULE → board side
  if [ -n "${SIZE:-}" ]; then echo "$SIZE"; elif [ "$1" = 0 ]; then echo 20; else echo 15; fi
}
opening_stones() { # INDEX → stones in that line of openings.txt
  sed -n "$(($1 + 1))p" "$(dirname "$piskvork")/openings.txt" | tr -cd ',' | awk '{ print (length($0) + 1) / 2 }'
}
game=0 pair=0
for rule in $rules; do
  size=$(size_of "$rule")
  settings "$out/piskvork-rule$rule.reg" sirka "$size" height "$size" checkTimeOut 1 tolerance "$tolerance_ms" \
    autoBegin 1 openingRandomShift1 0 debugAI "$suspend" debugAI2 0 continuous 0 \
    AIdataFolder "$(windows_path "$out/data")"
  for opponent in "$ours_b" "${theirs[@]}"; do
    for ((g = 0; g < games; g++)); do
      opening=$(((first_opening + pair + g / 2) % openings))
      if ((g % 2 == 0)); then black=$ours_a white=$opponent; else black=$opponent white=$ours_a; fi
      ours_black=$([ "$black" = "$opponent" ] && [ "$opponent" != "$ours_b" ] && echo 0 || echo 1)
      ours_white=$([ "$white" = "$opponent" ] && [ "$opponent" != "$ours_b" ] && echo 0 || echo 1)
      game=$((game + 1))
      dir=$out/games/$(printf '%02d' "$game")-rule$rule-$(basename "${black%.exe}")-vs-$(basename "${white%.exe}")
      mkdir -p "$dir"
      quiet_prefix
      python3 -c "$play_game" "$out" "$dir" "$wine_run" "$reg_exe" "$out/piskvork-rule$rule.reg" "$piskvork" \
        "$rule" "$size" "$turn_ms" "$match_s" \
        "$memory_mb" "$suspend" "$opening" "$(opening_stones "$opening")" "$black" "$ours_black" "$white" "$ours_white"
    done
    pair=$((pair + (games + 1) / 2))
  done
done
# Piskvork quits without removing its temporary folder (psqp<pid>) in the prefix; nothing else is left.

data_bytes=$(find "$out/data" -type f -printf '%s\n' | awk '{ total += $1 } END { print total + 0 }')
python3 - "$out/results.jsonl" "$data_bytes" "$turn_ms" "$match_s" "$memory_mb" "$rules" <<'PY'
import json, re, sys
path, data_bytes, turn_ms, match_s, memory_mb, rules = sys.argv[1:]
games = [json.loads(line) for line in open(path)]
rule_names = {0: "freestyle", 1: "standard", 2: "renju", 8: "caro (overline wins)", 9: "caro (exactly five)"}
ours_faults, their_faults, manager_failures = [], [], 0
print(f"| rule | size | games | Tessera vs others W-L-D | self-play decided-drawn | our faults | opponents' faults |")
print(f"|---|---|---|---|---|---|---|")
for rule in [int(r) for r in rules.split()]:
    rows = [g for g in games if g["rule"] == rule]
    w = l = d = sd = sx = ours = theirs = 0
    for g in rows:
        for i, faults in enumerate(g["faults"]):
            if g["ours"][i]:
                ours += len(faults)
                ours_faults += [f"{g['black'] if i == 0 else g['white']}: {x}" for x in faults]
            else:
                theirs += len(faults)
                their_faults += [f"{g['black'] if i == 0 else g['white']}: {x}" for x in faults]
        if not g["manager_ok"]:
            manager_failures += 1
        if all(g["ours"]):
            if g["result"] == "draw":
                sx += 1
            elif g["result"] in (0, 1):
                sd += 1
            continue
        me = g["ours"].index(True)
        if g["result"] == "draw":
            d += 1
        elif g["result"] == me:
            w += 1
        elif g["result"] in (0, 1):
            l += 1
    size = rows[0]["size"] if rows else "-"
    print(f"| {rule} {rule_names[rule]} | {size}x{size} | {len(rows)} | {w}-{l}-{d} | {sd}-{sx} | {ours} | {theirs} |")
ours_sides = [s for g in games for i, s in enumerate(g["sides"]) if g["ours"][i]]
slowest = max((s["max_ms"] for s in ours_sides), default=0)
first = max((s["first_ms"] for s in ours_sides), default=0)
over = sum(s["over_turn"] for s in ours_sides)
peak = max((s["peak_mb"] or 0 for s in ours_sides), default=0)
folder = all(s["info_folder"] for s in ours_sides if s["moves"])
cwd = sorted({re.sub(r"psqp\d+", "psqp<pid>", s["cwd"]) for s in ours_sides if s.get("cwd")})
for fault in ours_faults:
    print(f"our fault: {fault}")
for fault in their_faults:
    print(f"opponent's fault: {fault}")
print(f"our engine's working folders: {', '.join(cwd) or 'none seen'}; INFO folder sent in every game: {folder}; "
      f"bytes written there: {data_bytes}")
failed = bool(ours_faults) or manager_failures > 0 or not games
print(f"gomocup-under-wine: {'FAIL' if failed else 'PASS'}: {len(games)} games (rules {rules}; {turn_ms} ms/turn, "
      f"{match_s} s/game, {memory_mb} MB), our faults {len(ours_faults)}, opponents' faults {len(their_faults)}, "
      f"Piskvork failures {manager_failures}; our slowest move {slowest} ms ({over} over {turn_ms} ms, within the "
      f"tolerance; first moves, with start-up, up to {first} ms), our peak memory {peak} MB")
sys.exit(1 if failed else 0)
PY
