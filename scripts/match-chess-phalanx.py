#!/usr/bin/env python3
"""Strength match: tessera-uci against Phalanx XXV (xboard) with python-chess.

Plays N games (default 200) at 5 s + 0.05 s per game from varied openings, each opening twice
with colours swapped, keeps both clocks itself (a flag loses), and prints W/D/L and the Elo
difference with its 95% error bar. Usage:

    scripts/match-chess-phalanx.py [--games N] [--engine target/release/tessera-uci]
        [--opponent /usr/games/phalanx] [--protocol xboard|uci] [--base 5] [--inc 0.05] [--elo E]

`--protocol uci` plays another UCI engine instead (e.g. a gnuchess or glaurung binary).
"""

import argparse
import logging
import math
import sys
import time

import chess
import chess.engine

OPENINGS = [
    "e4 e5 Nf3 Nc6 Bb5 a6",
    "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3",
    "d4 d5 c4 e6 Nc3 Nf6",
    "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6",
    "e4 e6 d4 d5 Nc3 Bb4",
    "e4 c6 d4 d5 e5 Bf5",
    "c4 e5 Nc3 Nf6 g3",
    "Nf3 d5 g3 Nf6 Bg2 c6",
    "e4 e5 Nf3 Nc6 Bc4 Bc5 c3",
    "d4 d5 Bf4 Nf6 e3 c5",
    "e4 d5 exd5 Qxd5 Nc3 Qa5",
    "d4 f5 g3 Nf6 Bg2 e6",
    "e4 e5 f4 exf4 Nf3",
    "c4 c5 Nc3 Nc6 g3 g6",
    "e4 Nf6 e5 Nd5 d4 d6",
    "d4 Nf6 c4 e6 Nf3 b6",
]


def play_game(engine_path, opponent_path, protocol, opening, tessera_white, base, inc, elo=None):
    board = chess.Board()
    for san in opening.split():
        board.push_san(san)
    ours = chess.engine.SimpleEngine.popen_uci(engine_path)
    if elo is not None:
        ours.configure({"UCI_LimitStrength": True, "UCI_Elo": elo})
    if protocol == "xboard":
        theirs = chess.engine.SimpleEngine.popen_xboard(opponent_path)
    else:
        theirs = chess.engine.SimpleEngine.popen_uci(opponent_path)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    try:
        while not board.is_game_over(claim_draw=True) and board.ply() < 400:
            mover = board.turn
            ours_to_move = (mover == chess.WHITE) == tessera_white
            engine = ours if ours_to_move else theirs
            limit = chess.engine.Limit(
                white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK], white_inc=inc, black_inc=inc
            )
            started = time.monotonic()
            result = engine.play(board, limit)
            clocks[mover] -= time.monotonic() - started
            if clocks[mover] < 0:
                return ("0-1" if mover == chess.WHITE else "1-0"), "time"
            clocks[mover] += inc
            if result.move is None or result.move not in board.legal_moves:
                return ("0-1" if mover == chess.WHITE else "1-0"), f"illegal move {result.move}"
            board.push(result.move)
        outcome = board.result(claim_draw=True)
        return (outcome if outcome != "*" else "1/2-1/2"), "rules"
    finally:
        for engine in (ours, theirs):
            try:
                engine.quit()
            except Exception:  # a crashed engine must not end the match
                pass


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--engine", default="target/release/tessera-uci")
    parser.add_argument("--opponent", default="/usr/games/phalanx")
    parser.add_argument("--protocol", choices=["xboard", "uci"], default="xboard")
    parser.add_argument("--base", type=float, default=5.0)
    parser.add_argument("--inc", type=float, default=0.05)
    parser.add_argument("--elo", type=int, default=None, help="play tessera with UCI_LimitStrength at this UCI_Elo")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # python-chess warns about harmless xboard chatter
    wins = draws = losses = 0
    scores = []
    for game in range(args.games):
        opening = OPENINGS[(game // 2) % len(OPENINGS)]
        tessera_white = game % 2 == 0
        result, reason = play_game(
            args.engine, args.opponent, args.protocol, opening, tessera_white, args.base, args.inc, args.elo
        )
        if result == "1/2-1/2":
            draws += 1
            scores.append(0.5)
        elif (result == "1-0") == tessera_white:
            wins += 1
            scores.append(1.0)
        else:
            losses += 1
            scores.append(0.0)
        colour = "white" if tessera_white else "black"
        print(f"game {game + 1}: tessera {colour} {result} ({reason}) after {opening}", flush=True)
    n = len(scores)
    mean = sum(scores) / n
    deviation = math.sqrt(sum((s - mean) ** 2 for s in scores) / max(n - 1, 1))
    margin = 1.96 * deviation / math.sqrt(n)
    low, high = elo(mean - margin), elo(mean + margin)
    print(f"tessera vs {args.opponent}: +{wins} ={draws} -{losses} of {n}, score {100 * mean:.1f}%")
    print(f"Elo difference: {elo(mean):+.0f} +/- {(high - low) / 2:.0f} (95%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
