#!/usr/bin/env python3
"""Drive tessera-uci with python-chess's chess.engine, as lichess-bot does.

Usage: chess_client.py <tessera-uci> [<stockfish>]

Checks: MultiPV 3 analysis (three distinct legal PVs), play under a clock, a mate in 2 found
with a mate score, a Chess960 position, ponder + ponderhit, legality of every returned move,
and (when a Stockfish path is given) two short games against a handicapped Stockfish.
Exits non-zero with a message on the first failure.
"""

import sys

import chess
import chess.engine


def check(condition, message):
    if not condition:
        raise SystemExit(f"FAILED: {message}")


def legal(board, move, what):
    check(move is not None and move in board.legal_moves, f"{what}: {move} is not legal in {board.fen()}")


def multipv_analysis(engine):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    infos = engine.analyse(board, chess.engine.Limit(depth=8), multipv=3)
    check(len(infos) == 3, f"expected 3 lines, got {len(infos)}")
    firsts = set()
    for info in infos:
        pv = info.get("pv")
        check(pv, f"a line without pv: {info}")
        probe = board.copy()
        for move in pv:
            legal(probe, move, "pv")
            probe.push(move)
        firsts.add(pv[0])
        check("score" in info, "a line without score")
    check(len(firsts) == 3, f"the three PVs must start differently: {firsts}")
    print("multipv: ok", [board.san(move) for move in firsts])


def play_under_clock(engine):
    board = chess.Board()
    for _ in range(16):
        if board.is_game_over():
            break
        limit = chess.engine.Limit(white_clock=1.0, black_clock=1.0, white_inc=0.01, black_inc=0.01)
        result = engine.play(board, limit)
        legal(board, result.move, "play")
        board.push(result.move)
    print("clock play: ok", board.fen())


def mate_in_two(engine):
    # 1. Nf6+ gxf6 2. Bxf7# (checked with Stockfish).
    board = chess.Board("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1")
    info = engine.analyse(board, chess.engine.Limit(depth=10))
    score = info["score"].white()
    check(score.is_mate() and score.mate() == 2, f"expected mate in 2, got {score}")
    result = engine.play(board, chess.engine.Limit(depth=10))
    legal(board, result.move, "mate")
    print("mate in 2: ok", board.san(result.move), score)


def chess960(path):
    with chess.engine.SimpleEngine.popen_uci(path) as engine:
        board = chess.Board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", chess960=True)
        for _ in range(12):
            if board.is_game_over():
                break
            result = engine.play(board, chess.engine.Limit(time=0.05))
            legal(board, result.move, "chess960")
            board.push(result.move)
        # A position where castling king-takes-rook is the engine's only legal move.
        board = chess.Board("4k3/8/8/8/8/8/7P/4K2R w K - 0 1", chess960=True)
        board.set_castling_fen("H")
        info = engine.analyse(board, chess.engine.Limit(depth=4))
        legal(board, info["pv"][0], "chess960 analysis")
        print("chess960: ok", board.fen())


def ponder(engine):
    board = chess.Board()
    board.push_san("e4")
    limit = chess.engine.Limit(white_clock=5.0, black_clock=5.0)
    result = engine.play(board, limit, ponder=True)
    legal(board, result.move, "ponder play")
    if result.ponder is not None:
        after = board.copy()
        after.push(result.move)
        legal(after, result.ponder, "ponder move")
        after.push(result.ponder)
        # The opponent plays the expected move: python-chess sends ponderhit.
        reply = engine.play(after, limit, ponder=True)
        legal(after, reply.move, "after ponderhit")
    print("ponder: ok")


def versus_stockfish(path, stockfish):
    for game in range(2):
        with chess.engine.SimpleEngine.popen_uci(path) as ours, chess.engine.SimpleEngine.popen_uci(stockfish) as theirs:
            theirs.configure({"Skill Level": 0})
            board = chess.Board()
            players = [ours, theirs] if game == 0 else [theirs, ours]
            while not board.is_game_over(claim_draw=True) and board.ply() < 160:
                engine = players[0] if board.turn == chess.WHITE else players[1]
                limit = chess.engine.Limit(time=0.02) if engine is theirs else chess.engine.Limit(nodes=3000)
                move = engine.play(board, limit).move
                legal(board, move, "game")
                board.push(move)
            print(f"game {game + 1} vs stockfish: {board.result(claim_draw=True)} after {board.ply()} plies")


def main():
    path = sys.argv[1]
    with chess.engine.SimpleEngine.popen_uci(path) as engine:
        check(engine.id.get("name", "").startswith("Tessera"), f"id name {engine.id}")
        check("UCI_Chess960" in engine.options and "MultiPV" in engine.options, "options")
        multipv_analysis(engine)
        mate_in_two(engine)
        play_under_clock(engine)
        ponder(engine)
    chess960(path)
    if len(sys.argv) > 2:
        versus_stockfish(path, sys.argv[2])
    print("all python-chess checks passed")


if __name__ == "__main__":
    main()
