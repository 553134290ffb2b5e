#!/usr/bin/env python3
"""Our rules' verdicts against other engines' on the xiangqi games of match records.

For every game of the given PGN files (as `tessera match --record` writes them) that ended by the
rules, replays its moves and asks for the verdict after the last move:
  - ours: `tessera-ucci judge` (the engine's referee, the same code as `tessera match`'s);
  - current Fairy-Stockfish, through its Python binding pyffish (`pip install pyffish`):
    `game_result` for mate and stalemate, `is_optional_game_end` for repetitions and move counts;
  - Pikafish-HCE when PIKAFISH names its binary: the score of the last move searched alone at depth
    1 after the others (a mate score is a decided game, within 2 cp a draw), as
    docs/xiangqi.md's repetition table reads it.
Prints one line per game and the disagreements at the end; exits 1 when there is one. A benchmark
of the rules against peers: CI does not run it (it needs pyffish), tests/xiangqi_repetition_table.rs
checks the table of hand-made cases instead.

Usage: [ENGINE=target/release/tessera-ucci] [PIKAFISH=path] scripts/xiangqi-verdicts.py RECORD.pgn...
"""
import os
import re
import subprocess
import sys

START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1'
ENGINE = os.environ.get('ENGINE', 'target/release/tessera-ucci')
PIKAFISH = os.environ.get('PIKAFISH')


def games(path):
    """(tags, ICCS moves) of every game of a PGN file."""
    text = open(path, encoding='utf-8').read()
    for block in re.split(r'\n(?=\[Event )', text):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', block))
        body = re.sub(r'\{[^}]*\}', ' ', re.sub(r'\[[^\]]*\]', ' ', block))
        yield tags, [word for word in body.split() if re.fullmatch(r'[a-i][0-9][a-i][0-9]', word)]


def winner_name(fen, moves, mover_wins):
    """'red' or 'black': the side that made the last move when `mover_wins`, else the other."""
    red_moved_last = (fen.split()[1] in 'wr') == (len(moves) % 2 == 1)
    return 'red' if red_moved_last == mover_wins else 'black'


def ours(fen, moves):
    out = subprocess.run([ENGINE, 'judge', '--fen', fen, *moves], capture_output=True, text=True, check=True)
    first = out.stdout.splitlines()[0].split(maxsplit=2)
    return first[1], (first[2].strip('()') if len(first) > 2 else '')


def fairy(fen, moves):
    import pyffish
    uci = [m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1) for m in moves]
    legal = pyffish.legal_moves('xiangqi', fen, uci)
    if not legal:
        value = pyffish.game_result('xiangqi', fen, uci)
    else:
        ended, value = pyffish.is_optional_game_end('xiangqi', fen, uci)
        if not ended:
            return 'ongoing'
    if value == 0:
        return 'draw'
    # The value is for the side to move, who did not make the last move.
    return winner_name(fen, moves, mover_wins=value < 0)


def pikafish(fen, moves):
    script = ['uci', 'position fen %s moves %s' % (fen, ' '.join(moves[:-1])), 'go depth 1 searchmoves ' + moves[-1]]
    process = subprocess.Popen([PIKAFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    process.stdin.write('\n'.join(script) + '\n')
    process.stdin.flush()
    score = None
    for line in process.stdout:
        found = re.search(r'score (cp|mate) (-?\d+)', line)
        if found:
            score = (found.group(1), int(found.group(2)))
        if line.startswith('bestmove'):
            break
    process.stdin.write('quit\n')
    process.stdin.close()
    process.wait()
    if score is None:
        return 'no score'
    kind, value = score
    if kind == 'mate':
        return winner_name(fen, moves, mover_wins=value > 0)
    return 'draw' if abs(value) <= 2 else 'ongoing'


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    disputes = []
    for path in sys.argv[1:]:
        for tags, moves in games(path):
            if tags.get('Termination') != 'by the rules' or not moves:
                continue
            fen = tags.get('FEN', START)
            verdict, reason = ours(fen, moves)
            peers = {'fairy-stockfish': fairy(fen, moves)}
            if PIKAFISH:
                peers['pikafish-hce'] = pikafish(fen, moves)
            line = '%s round %s: ours %s (%s); %s' % (
                os.path.basename(path), tags.get('Round'), verdict, reason,
                ', '.join('%s %s' % item for item in peers.items()))
            print(line, flush=True)
            # A mate seen a ply later by a depth-1 search is no dispute: only rule verdicts count.
            if any(peer != verdict and not (reason == 'no legal move' and peer == 'ongoing')
                   for peer in peers.values()):
                disputes.append(line)
    print('%d disputes' % len(disputes))
    for line in disputes:
        print('  ' + line)
    sys.exit(1 if disputes else 0)


if __name__ == '__main__':
    main()
