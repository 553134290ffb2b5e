"""Checks tessera-uci's Syzygy tablebases against python-chess's own prober (chess.syzygy).

Usage: syzygy_check.py ENGINE TABLES_FOLDER STOCKFISH

1. Root moves: in 120 random positions of 3 and 4 pieces (seeded), the move the engine plays after a
   short search keeps the best result python-chess finds among all moves (the fifty-move rule on:
   cursed wins and blessed losses count as draws), and the engine says `tbhits`.
2. Conversion: from won KRvK and KQvKR positions the engine, playing both sides, mates (within
   150 plies; the KQvKR position is 47 plies from zeroing).
3. Defence: in a drawn KRvKR position the engine, as the weaker side, holds Stockfish (without
   tablebases) for 60 plies.
Prints "all Syzygy checks passed" at the end.
"""

import random
import sys

import chess
import chess.engine
import chess.syzygy

MATERIAL = ["KRvK", "KQvK", "KPvK", "KQvKR", "KRvKR", "KRvKP", "KPvKP", "KBNvK", "KRPvK", "KQvKQ", "KNvKP", "KBvKB"]


def random_position(rng: random.Random, material: str) -> chess.Board:
    """A legal position with `material` (white's pieces first), either side to move."""
    white, black = material.split("v")
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, len(white) + len(black))
        for letters, color in ((white, chess.WHITE), (black, chess.BLACK)):
            for letter in letters:
                square = squares.pop()
                piece = chess.Piece.from_symbol(letter if color == chess.WHITE else letter.lower())
                if piece.piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
                    break
                board.set_piece_at(square, piece)
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid() and not board.is_game_over() and len(board.piece_map()) == len(white) + len(black):
            return board


def verdict(wdl: int) -> int:
    """python-chess's WDL (-2..2) under the fifty-move rule: -1, 0 or 1."""
    return (wdl > 1) - (wdl < -1)


def check_root_moves(engine, tablebase, rng) -> None:
    for index in range(120):
        board = random_position(rng, MATERIAL[index % len(MATERIAL)])
        results = {}
        for move in board.legal_moves:
            board.push(move)
            results[move] = -verdict(tablebase.probe_wdl(board)) if not board.is_checkmate() else 1
            board.pop()
        best = max(results.values())
        info = engine.analyse(board, chess.engine.Limit(nodes=3000), info=chess.engine.INFO_ALL)
        move = info["pv"][0]
        assert results[move] == best, f"{board.fen()}: played {move} ({results[move]}), best result {best}"
        assert info.get("tbhits", 0) >= 1, f"{board.fen()}: no tbhits in {info}"
    print("root moves: ok, 120 positions")


def play_out(engine, board: chess.Board, plies: int, opponent=None) -> chess.Board:
    """Plays `plies` plies (or to the end): `engine` for the side to move first, `opponent`
    (default `engine`) for the other."""
    first = board.turn
    for _ in range(plies):
        if board.is_game_over(claim_draw=False):
            break
        player = engine if board.turn == first or opponent is None else opponent
        board.push(player.play(board, chess.engine.Limit(nodes=4000)).move)
    return board


def check_conversion(engine) -> None:
    for fen in ["8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "8/8/3k4/8/8/2r5/8/4K2Q w - - 0 1"]:
        board = play_out(engine, chess.Board(fen), 150)
        assert board.is_checkmate() and board.turn == chess.BLACK, f"{fen}: no mate after {board.move_stack}"
        print(f"conversion: ok, {fen} mated in {len(board.move_stack)} plies")


def check_defence(engine, stockfish, tablebase) -> None:
    fen = "8/8/4k3/8/8/4K3/3R4/7r b - - 0 1"
    assert tablebase.probe_wdl(chess.Board(fen)) == 0, "the defence position should be a draw"
    board = play_out(engine, chess.Board(fen), 60, opponent=stockfish)
    assert not board.is_checkmate(), f"{fen}: lost after {board.move_stack}"
    assert tablebase.probe_wdl(board) == 0 or board.is_game_over(), f"{fen}: left the draw: {board.fen()}"
    print(f"defence: ok, {len(board.move_stack)} plies held")


def main() -> None:
    engine_path, tables, stockfish_path = sys.argv[1:4]
    rng = random.Random(20261203)
    with chess.syzygy.open_tablebase(tables) as tablebase, \
            chess.engine.SimpleEngine.popen_uci(engine_path) as engine, \
            chess.engine.SimpleEngine.popen_uci(stockfish_path) as stockfish:
        engine.configure({"SyzygyPath": tables})
        stockfish.configure({"Move Overhead": 100})
        check_root_moves(engine, tablebase, rng)
        check_conversion(engine)
        check_defence(engine, stockfish, tablebase)
    print("all Syzygy checks passed")


if __name__ == "__main__":
    main()
