#!/usr/bin/env python3
"""The moves that lost Tessera's games against Rapfi, as a test set for a build.

Most games Tessera loses to Rapfi turn on one move: Rapfi's evaluation is ordinary before it and a
forced win ("+M23") right after it. This script collects those positions from the engine logs of
`RECORDS=DIR scripts/strength-gomoku.sh` and replays them with any pbrain build:

  gomoku-blunders.py extract DIR... > positions.jsonl
      every position where Tessera's move turned Rapfi's evaluation (below 400, no mate) into a
      mate for Rapfi, kept only where Rapfi itself, moving for Tessera for 2 s, does not already
      see the position lost (RAPFI names the binary, as for strength-gomoku.sh)
  gomoku-blunders.py bench ENGINE positions.jsonl [MILLISECONDS]
      ENGINE chooses a move in each position (1000 ms by default), Rapfi replies for 1 s; prints
      how many of its moves Rapfi still answers with a forced win, by rule. Rapfi's verdicts are
      cached beside the positions file (a move chosen again costs no Rapfi search).

A development benchmark, not a strength claim (strength is a match from the shipped openings):
it says whether a change makes the engine see the wins Rapfi found against it. Rapfi's verdicts come
from 1 s of its search and vary a little with the machine's load. CI does not run it.
"""
import json
import os
import re
import sys
import tempfile
import time

from pbrain_engine import RULE_NUMBERS, Engine

RULE_NAMES = {number: name for name, number in RULE_NUMBERS.items()}


def rapfi_engine():
    """Rapfi from RAPFI, in an empty folder of its own (no config.toml replaces its classical one)."""
    path = os.environ.get('RAPFI') or ''
    if not (path and os.access(path, os.X_OK)):
        print('SKIPPED: Rapfi is not built (scripts/build-rapfi.sh SRC_DIR, then RAPFI=path/to/pbrain-rapfi)',
              file=sys.stderr)
        sys.exit(0)
    return Engine([os.path.abspath(path)], cwd=tempfile.mkdtemp(prefix='rapfi-'))


def games(log):
    """Each game of a Rapfi conversation log: its rule and its events in order."""
    game = None
    board = False
    for line in open(log):
        line = line.rstrip('\n')
        if line.startswith('Rapfi < START'):
            if game:
                yield game
            game = {'rule': 0, 'stones': [], 'events': [], 'eval': None}
            continue
        if game is None:
            continue
        if (found := re.match(r'Rapfi < INFO rule (\d+)', line)):
            game['rule'] = int(found.group(1))
        elif line in ('Rapfi < BOARD', 'Rapfi < DONE'):
            board = line.endswith('BOARD')
        elif board and (found := re.match(r'Rapfi < (\d+),(\d+),(\d)', line)):
            game['stones'].append((int(found.group(1)), int(found.group(2)), 'rapfi' if found.group(3) == '1' else 'us'))
        elif (found := re.match(r'Rapfi < TURN (\d+),(\d+)', line)):
            game['stones'].append((int(found.group(1)), int(found.group(2)), 'us'))
            game['events'].append(('us', len(game['stones']) - 1, None))
        elif (found := re.search(r'\| Eval (\S+) \|', line)):
            game['eval'] = found.group(1)
        elif (found := re.match(r'Rapfi > (\d+),(\d+)$', line)):
            game['stones'].append((int(found.group(1)), int(found.group(2)), 'rapfi'))
            game['events'].append(('rapfi', len(game['stones']) - 1, game['eval']))
    if game:
        yield game


def turning_points(log):
    """Positions before the move of ours after which Rapfi first announced its own mate."""
    for number, game in enumerate(games(log), 1):
        before = None
        for event, following in zip(game['events'], game['events'][1:]):
            if event[0] == 'rapfi':
                before = event[2]
                continue
            after = following[2] or ''
            if after.startswith('+M'):
                if before is None or ('M' not in before and int(before) < 400):
                    index = event[1]
                    yield {'source': f'{log}#{number}', 'rule': RULE_NAMES[game['rule']],
                           'stones': [(x, y) for x, y, _ in game['stones'][:index]],
                           'played': game['stones'][index][:2], 'rapfi_before': before, 'rapfi_after': after}
                break


def extract(folders):
    rapfi = rapfi_engine()
    logs = sorted(os.path.join(root, name) for folder in folders for root, _, names in os.walk(folder)
                  for name in names if name.startswith('Rapfi') and name.endswith('.log'))
    found = kept = 0
    for log in logs:
        for position in turning_points(log):
            found += 1
            verdict, _ = rapfi.search(position['stones'], position['rule'], milliseconds=2000)
            if '-M' not in (verdict or ''):
                kept += 1
                print(json.dumps(position), flush=True)
    rapfi.close()
    print(f'{found} turning points in {len(logs)} logs, {kept} not already lost by Rapfi\'s own search',
          file=sys.stderr)


def bench(command, positions_file, milliseconds):
    rapfi = rapfi_engine()
    engine = Engine([command])
    cache_file = positions_file + '.verdicts.json'
    cache = json.load(open(cache_file)) if os.path.exists(cache_file) else {}
    counts = {}
    for line in open(positions_file):
        position = json.loads(line)
        started = time.time()
        _, move = engine.search(position['stones'], position['rule'], milliseconds=milliseconds)
        seconds = time.time() - started
        key = f"{position['source']}|{move[0]},{move[1]}"
        if key not in cache:
            cache[key], _ = rapfi.search(position['stones'] + [move], position['rule'], milliseconds=1000)
            cache[key] = cache[key] or '?'
            with open(cache_file + '.tmp', 'w') as out:
                json.dump(cache, out)
            os.replace(cache_file + '.tmp', cache_file)
        lost = cache[key].startswith('+M')
        counts.setdefault(position['rule'], [0, 0])
        counts[position['rule']][0] += lost
        counts[position['rule']][1] += 1
        print(f"{position['source']}: {move} in {seconds:.2f} s (the game's {tuple(position['played'])}), "
              f"Rapfi {cache[key]}", file=sys.stderr, flush=True)
    engine.close()
    rapfi.close()
    lost = sum(count[0] for count in counts.values())
    total = sum(count[1] for count in counts.values())
    print(f'{command}: Rapfi wins by force after {lost} of {total} moves ({100 * lost / max(total, 1):.1f}%); '
          + ', '.join(f'{rule} {count[0]}/{count[1]}' for rule, count in sorted(counts.items())))


if __name__ == '__main__':
    if len(sys.argv) >= 3 and sys.argv[1] == 'extract':
        extract(sys.argv[2:])
    elif len(sys.argv) in (4, 5) and sys.argv[1] == 'bench':
        bench(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) == 5 else 1000)
    else:
        sys.exit(__doc__)
