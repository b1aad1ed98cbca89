"""The NumPy arrays, checked square by square against python-chess boards."""

import numpy as np
import pytest

import chessbits
from conftest import SAMPLE

chess = pytest.importorskip("chess")
import chess.pgn  # noqa: E402

PIECES = [(color, role) for color in (chess.WHITE, chess.BLACK) for role in range(1, 7)]


def check_position(arrays, n, board, planes=None):
    for p, (color, role) in enumerate(PIECES):
        expected = int(board.pieces(role, color))
        assert int(arrays["bitboards"][n, p]) == expected
        if planes is not None:
            for sq in range(64):
                assert planes[n, p, sq // 8, sq % 8] == (expected >> sq & 1)
    assert arrays["turn"][n] == (1 if board.turn else 0)
    rights = [
        board.has_kingside_castling_rights(chess.WHITE),
        board.has_queenside_castling_rights(chess.WHITE),
        board.has_kingside_castling_rights(chess.BLACK),
        board.has_queenside_castling_rights(chess.BLACK),
    ]
    assert arrays["castling"][n] == sum(1 << i for i, r in enumerate(rights) if r)
    ep = board.ep_square if board.has_legal_en_passant() else -1
    assert arrays["ep_square"][n] == ep
    assert arrays["halfmove_clock"][n] == board.halfmove_clock
    if "legal_moves" in arrays:
        mask = np.zeros((64, 64), dtype=np.uint8)
        for m in board.legal_moves:
            mask[m.from_square, m.to_square] = 1
        assert np.array_equal(arrays["legal_moves"][n], mask)


def test_game_positions_match_python_chess():
    arrays = chessbits.game_positions(SAMPLE, every=3, legal_moves=True)
    planes = chessbits.to_planes(arrays["bitboards"])
    n = len(arrays["turn"])
    assert planes.shape == (n, 12, 8, 8)
    assert all(a.shape[0] == n for a in arrays.values())
    row = 0
    with open(SAMPLE, encoding="utf-8") as f:
        number = 0
        while (game := chess.pgn.read_game(f)) is not None:
            number += 1
            board = game.board()
            for ply, move in enumerate(game.mainline_moves()):
                if ply % 3 == 0:
                    assert arrays["game"][row] == number and arrays["ply"][row] == ply
                    check_position(arrays, row, board, planes if row % 10 == 0 else None)
                    assert arrays["move_from"][row] == move.from_square
                    assert arrays["move_to"][row] == move.to_square
                    assert arrays["move_promotion"][row] == (move.promotion or 0)
                    row += 1
                board.push(move)
    assert row == n > 100


def test_fens_to_arrays_match_python_chess():
    fens = [
        chessbits.STARTING_FEN,
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K - 7 50",
    ]
    arrays = chessbits.fens_to_arrays(fens, legal_moves=True)
    for n, fen in enumerate(fens):
        check_position(arrays, n, chess.Board(fen))
    assert arrays["bitboards"].dtype == np.uint64 and arrays["bitboards"].shape == (5, 12)


def test_feature_errors():
    with pytest.raises(chessbits.FenError, match=r"fens\[1\]"):
        chessbits.fens_to_arrays([chessbits.STARTING_FEN, "not a fen"])
    with pytest.raises(chessbits.PositionError, match=r"fens\[0\]"):
        chessbits.fens_to_arrays(["8/8/8/8/8/8/8/8 w - - 0 1"])
    with pytest.raises(ValueError):
        chessbits.game_positions(b"", every=0)
    with pytest.raises(chessbits.PgnError, match="game 1"):
        chessbits.game_positions(b"1. e4 e5 2. Ke3 *", strict=True)
    assert len(chessbits.game_positions(b"1. e4 e5 2. Ke3 *\n\n1. d4 *")["turn"]) == 1
    assert chessbits.fens_to_arrays([])["bitboards"].shape == (0, 12)


def test_sampling_is_a_seeded_subset():
    full = chessbits.game_positions(SAMPLE, every=2)
    pairs = set(zip(full["game"].tolist(), full["ply"].tolist()))
    a = chessbits.game_positions(SAMPLE, every=2, sample=0.25, seed=1)
    b = chessbits.game_positions(SAMPLE, every=2, sample=0.25, seed=1)
    c = chessbits.game_positions(SAMPLE, every=2, sample=0.25, seed=2)
    chosen = list(zip(a["game"].tolist(), a["ply"].tolist()))
    assert set(chosen) <= pairs
    assert 0.15 * len(pairs) < len(chosen) < 0.35 * len(pairs)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert chosen != list(zip(c["game"].tolist(), c["ply"].tolist()))
    # The rows kept are the full extraction's rows for those positions.
    index = {p: i for i, p in enumerate(zip(full["game"].tolist(), full["ply"].tolist()))}
    rows = [index[p] for p in chosen]
    assert np.array_equal(a["bitboards"], full["bitboards"][rows])
    assert len(chessbits.game_positions(SAMPLE, sample=1.0)["ply"]) == len(
        chessbits.game_positions(SAMPLE)["ply"]
    )
    for bad in [0.0, -1, 1.5, float("nan")]:
        with pytest.raises(ValueError):
            chessbits.game_positions(SAMPLE, sample=bad)
