"""Hostile input: random bytes, broken PGN, bad FEN and move text raise the documented
exceptions (or read as error rows), never crash the interpreter."""

import random

import pytest

import chessbits
from conftest import SAMPLE


def mutations(data, count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        out = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            at = rng.randrange(len(out))
            out[at] = rng.choice(b"[]{}()\"\\ \n.;$!?#+=-x0123456789abcdefghKQRBNPkqrbnp") if rng.random() < 0.7 else rng.randrange(256)
        yield bytes(out)


def test_random_bytes_and_mutated_pgn_read_as_rows():
    rng = random.Random(1)
    sample = SAMPLE.read_bytes()[:20000]
    # Random bytes are binary: refused as `chessbits export` refuses them, never a crash.
    for data in [bytes(rng.randrange(256) for _ in range(5000)) for _ in range(5)]:
        with pytest.raises(chessbits.ChessbitsError, match="neither PGN"):
            chessbits.read_games(data)
    for data in mutations(sample, 40, 2):
        if b"\0" in data[:4096]:
            with pytest.raises(chessbits.ChessbitsError, match="neither PGN"):
                chessbits.read_games(data)
            continue
        table = chessbits.read_games(data, moves="san")
        for error in table.column("error").to_pylist():
            assert error is None or error.startswith(("line ", "byte "))
        chessbits.game_positions(data)


def test_random_bytes_to_decoders_raise_decode_error():
    rng = random.Random(5)
    for _ in range(2000):
        data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))
        for fmt in ["packed", "compact"]:
            try:
                fen = chessbits.decode_position(data, fmt)
            except chessbits.DecodeError:
                continue
            assert chessbits.Board(fen).fen(en_passant="fen") == fen
        codec, plies = rng.choice(["model", "index"]), rng.randint(0, 20)
        try:
            moves = chessbits.decode_moves(data, plies, codec=codec)
        except chessbits.DecodeError:
            continue
        # Bytes that decode are the one encoding of their moves.
        assert chessbits.encode_moves(moves, codec=codec) == data


def test_random_bytes_as_cbg():
    rng = random.Random(9)
    magic = bytes([0x89, 0x43, 0x42, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 0, 0, 0])
    for _ in range(200):
        data = magic + bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))
        try:
            table = chessbits.read_games(data)
        except chessbits.CbgError:
            continue
        assert table.num_rows >= 0


@pytest.mark.parametrize(
    "fen, error",
    [
        ("", chessbits.FenError),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", chessbits.FenError),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", chessbits.FenError),
        ("8/8/8/8/8/8/8/8 w - - 0 1", chessbits.PositionError),
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", chessbits.PositionError),
        ("\x00\xff", chessbits.FenError),
    ],
)
def test_bad_fens(fen, error):
    with pytest.raises(error) as info:
        chessbits.Board(fen)
    assert isinstance(info.value, chessbits.ChessbitsError)
    assert isinstance(info.value, ValueError)
    with pytest.raises(error):
        chessbits.encode_position(fen)


def test_fen_errors_say_where():
    with pytest.raises(chessbits.FenError, match=r"side to move \(byte 44\)"):
        chessbits.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1")


def test_bad_moves():
    board = chessbits.Board()
    with pytest.raises(chessbits.InvalidMoveError):
        board.push_san("Zz9")
    with pytest.raises(chessbits.IllegalMoveError, match="illegal move"):
        board.push_san("e5")
    with pytest.raises(chessbits.InvalidMoveError):
        board.push_uci("e2e9")
    with pytest.raises(chessbits.IllegalMoveError):
        board.push_uci("e2e5")
    with pytest.raises(chessbits.InvalidMoveError):
        chessbits.Move.from_uci("e7e8k")
    with pytest.raises(chessbits.InvalidMoveError):
        chessbits.Move(64, 0)
    with pytest.raises(IndexError):
        chessbits.Board().piece_at(-1)
    assert chessbits.Board().piece_at(4).symbol() == "K" and chessbits.Board().piece_at(20) is None
    with pytest.raises(chessbits.InvalidMoveError):
        chessbits.Move(0, 1, promotion=6)
    board = chessbits.Board("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
    with pytest.raises(chessbits.AmbiguousMoveError):
        board.push_san("Nd2")
    board = chessbits.Board("4k3/8/8/8/8/8/8/4K2r w - - 0 1")
    with pytest.raises(chessbits.IllegalMoveError):
        board.push(chessbits.Move.null())
    assert board.fen() == "4k3/8/8/8/8/8/8/4K2r w - - 0 1"
    rng = random.Random(4)
    alphabet = "abcdefghKQRBNPx=+#O-0123456789 "
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))
        try:
            board.copy().push_san(text)
        except chessbits.ChessbitsError:
            pass
