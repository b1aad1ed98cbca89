"""Round trips of every codec over the positions and games of the corpus."""

import random

import pytest

import chessbits
from conftest import SAMPLE

FENS = [
    chessbits.STARTING_FEN,
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/4k3/8/8/4K3/8/8 b - - 40 100",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
]


def needs_chess960(fen):
    """Whether the castling rights of ``fen`` are Chess960's (a standard board refuses them)."""
    try:
        chessbits.Board(fen)
    except chessbits.PositionError as e:
        if "castling field" in str(e):
            return True
        raise
    return False


def corpus_fens():
    table = chessbits.read_games(SAMPLE)
    fens = list(FENS)
    rng = random.Random(3)
    for moves in table.column("moves").to_pylist():
        board = chessbits.Board()
        for m in moves:
            board.push_uci(m)
            if rng.random() < 0.1:
                fens.append(board.fen(en_passant="fen"))
    return fens


@pytest.mark.parametrize("fmt", ["packed", "compact"])
def test_positions_round_trip(fmt):
    fens = corpus_fens()
    assert len(fens) > 100
    for fen in fens:
        data = chessbits.encode_position(fen, fmt)
        # The layouts do not keep the castling mode: compare Chess960 positions as X-FEN.
        chess960 = needs_chess960(fen)
        board = chessbits.Board(fen, chess960=chess960)
        assert chessbits.Board(chessbits.decode_position(data, fmt), chess960=chess960) == board
        short = chessbits.encode_position(fen, fmt, clocks=False)
        assert len(short) <= len(data)
        back = chessbits.Board(chessbits.decode_position(short, fmt), chess960=chess960)
        assert back.fen().split()[:4] == board.fen().split()[:4]


@pytest.mark.parametrize("codec", ["model", "index"])
def test_mainlines_round_trip(codec):
    table = chessbits.read_games(SAMPLE)
    for moves, fen in zip(table.column("moves").to_pylist(), table.column("start_fen").to_pylist()):
        data = chessbits.encode_moves(moves, start_fen=fen, codec=codec)
        assert chessbits.decode_moves(data, len(moves), start_fen=fen, codec=codec) == moves


def test_model_codec_is_compact():
    moves = chessbits.read_games(SAMPLE).column("moves").to_pylist()
    bits = sum(len(chessbits.encode_moves(m)) * 8 for m in moves)
    plies = sum(len(m) for m in moves)
    assert bits / plies < 5


def test_codec_errors():
    with pytest.raises(chessbits.IllegalMoveError, match="ply 2"):
        chessbits.encode_moves(["e2e4", "e2e4"])
    with pytest.raises(chessbits.InvalidMoveError, match="ply 1"):
        chessbits.encode_moves(["e9e4"])
    with pytest.raises(chessbits.DecodeError):
        chessbits.decode_moves(b"", 10, codec="index")
    with pytest.raises(chessbits.DecodeError):
        chessbits.decode_moves(b"\xff\xff\xff", 1, codec="index")
    with pytest.raises(ValueError):
        chessbits.encode_moves([], codec="zip")
    with pytest.raises(ValueError):
        chessbits.encode_position(chessbits.STARTING_FEN, "fen")
    with pytest.raises(chessbits.DecodeError):
        chessbits.decode_position(b"", "packed")
    assert chessbits.decode_moves(b"", 0) == []


@pytest.mark.parametrize("codec", ["model", "index"])
def test_no_codec_decodes_moves_past_its_bytes(codec):
    # The new user's cases: 50 plies from the bytes of two, and 5 from nothing.
    data = chessbits.encode_moves(["e2e4", "e7e5"], codec=codec)
    assert chessbits.decode_moves(data, 2, codec=codec) == ["e2e4", "e7e5"]
    for plies, given in [(50, data), (5, b""), (1, b"")]:
        with pytest.raises(chessbits.DecodeError, match="end early"):
            chessbits.decode_moves(given, plies, codec=codec)


@pytest.mark.parametrize("codec", ["model", "index"])
def test_null_moves_are_coded(codec):
    moves = ["e2e4", "0000", "d2d4", "e7e5", "0000", "g8f6"]
    data = chessbits.encode_moves(moves, codec=codec)
    assert chessbits.decode_moves(data, len(moves), codec=codec) == moves
    # Not in check: the king would be left to capture.
    with pytest.raises(chessbits.IllegalMoveError, match="ply 4"):
        chessbits.encode_moves(["e2e4", "f7f5", "d1h5", "0000"], codec=codec)


def test_a_chess960_game_decodes_to_the_uci_its_row_has():
    # A trial decoded the codes of a Chess960 game from the standard array to e1g1 where its
    # uci column has e1h1 (king takes rook): decode_moves had no Chess960 mode.
    pgn = b'[Variant "Chess960"]\n\n1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O *\n'
    uci = chessbits.read_games(pgn, moves="uci").column("moves").to_pylist()[0]
    row = chessbits.read_games(pgn, moves="codes").to_pylist()[0]
    assert uci[-2:] == ["e1h1", "e8h8"]
    decoded = chessbits.decode_moves(row["moves"], row["plies"], start_fen=row["start_fen"], chess960=True)
    assert decoded == uci
    assert chessbits.decode_moves(row["moves"], row["plies"])[-2:] == ["e1g1", "e8g8"]
    assert chessbits.encode_moves(uci, chess960=True) == row["moves"]
