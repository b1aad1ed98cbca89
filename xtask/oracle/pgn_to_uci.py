#!/usr/bin/env python3
"""The independent side of the `chessbits pgn --to uci` differential check (python-chess).

Usage: pgn_to_uci.py OUT FILE.pgn...

Writes, per game python-chess reads, `<final FEN>\t<UCI moves>` (or `error\t<message>`), the
fields of `chessbits pgn --to uci` after the game number. Needs `pip install chess`; never run
by CI or shipped. Compare with compare_uci.py.
"""
import sys

import chess
import chess.pgn

with open(sys.argv[1], "w") as out:
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                if game.errors:
                    out.write("error\t%s\n" % game.errors[0])
                    continue
                board = game.board()
                moves = []
                for move in game.mainline_moves():
                    moves.append(board.uci(move))
                    board.push(move)
                out.write("%s\t%s\n" % (board.fen(), " ".join(moves)))
