"""Bad arguments are refused with short messages that name the argument as Python spells it
(issue 40, item 13)."""

import errno
import io

import pytest

import chessbits
from conftest import SAMPLE

TEXT = SAMPLE.read_text()[:3900]


@pytest.mark.parametrize(
    "call",
    [
        lambda source: chessbits.read_games(source),
        lambda source: list(chessbits.iter_games(source)),
        lambda source: chessbits.game_positions(source),
        lambda source: chessbits.write_cbg(source, "/nonexistent-dir/out.cbg"),
    ],
)
@pytest.mark.parametrize("text", [TEXT, TEXT.replace("\n", " "), "no-such-file.pgn"])
def test_a_str_that_is_no_file_is_refused_briefly(call, text):
    with pytest.raises(FileNotFoundError) as info:
        call(text)
    # The attributes Python's own OSErrors carry; PGN text taken for a path is no file name.
    assert info.value.errno in (errno.ENOENT, errno.ENAMETOOLONG), info.value.errno
    assert info.value.strerror.startswith("no such file")
    assert info.value.filename == (text if text == "no-such-file.pgn" else None)
    message = str(info.value)
    assert len(message) < 200, message
    assert "bytes" in message and "io.StringIO" in message
    assert text[:6] in message


def test_pgn_text_reads_as_bytes_and_as_a_text_file():
    as_bytes = chessbits.read_games(TEXT.encode())
    assert as_bytes.num_rows > 0
    assert chessbits.read_games(io.StringIO(TEXT)).equals(as_bytes)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda n: chessbits.read_games(SAMPLE, batch_games=n), "batch_games"),
        (lambda n: list(chessbits.iter_games(SAMPLE, batch_games=n)), "batch_games"),
        (lambda n: chessbits.read_games(SAMPLE, threads=n), "threads"),
        (lambda n: list(chessbits.iter_games(SAMPLE, threads=n)), "threads"),
        (lambda n: chessbits.game_positions(SAMPLE, every=n), "every"),
    ],
)
@pytest.mark.parametrize("value", [0, -1, -(2**70)])
def test_counts_below_one_are_value_errors(call, name, value):
    with pytest.raises(ValueError, match=f"^{name} must be at least 1$"):
        call(value)


@pytest.mark.parametrize("value", [-1, -(2**70)])
def test_negative_plies_and_seeds_are_value_errors(value):
    with pytest.raises(ValueError, match="^plies must be 0 or more$"):
        chessbits.decode_moves(b"", value)
    with pytest.raises(ValueError, match="^seed must be 0 or more$"):
        chessbits.game_positions(SAMPLE, seed=value)


def test_counts_too_large_are_value_errors():
    with pytest.raises(ValueError, match="^plies is too large$"):
        chessbits.decode_moves(b"", 2**70)
    with pytest.raises(TypeError, match="^plies must be an int, not str$"):
        chessbits.decode_moves(b"", "3")


def test_batch_games_still_bounds_the_batches():
    batches = list(chessbits.iter_games(SAMPLE, batch_games=7, threads=1))
    assert max(b.num_rows for b in batches) == 7
    assert all(b.num_rows <= 3 for b in chessbits.read_games(SAMPLE, batch_games=3).to_batches())


@pytest.mark.parametrize("fmt", ["packed", "compact"])
def test_empty_position_data_says_it_is_empty(fmt):
    with pytest.raises(chessbits.DecodeError, match="empty"):
        chessbits.decode_position(b"", fmt)


def test_threads_past_the_most_a_pipeline_starts_read_as_that_many():
    # A trial's threads=100000 aborted the interpreter (a thread the system refused to start
    # was a panic, and the release build aborts on one). Past 256 a call runs 256.
    table = chessbits.read_games(SAMPLE, threads=100_000)
    assert table.equals(chessbits.read_games(SAMPLE, threads=1))
    assert sum(b.num_rows for b in chessbits.iter_games(SAMPLE, threads=100_000)) == table.num_rows


def test_one_fen_alone_is_a_type_error():
    with pytest.raises(TypeError, match="not one FEN"):
        chessbits.fens_to_arrays("8/8/8/8/8/8/8/K6k w - - 0 1")


def test_to_planes_takes_64_bit_integer_bitboards_of_twelve_columns():
    import numpy as np

    boards = chessbits.fens_to_arrays(["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"])["bitboards"]
    planes = chessbits.to_planes(boards)
    assert (chessbits.to_planes(boards.astype(np.int64)) == planes).all()
    with pytest.raises(TypeError, match="uint64"):
        chessbits.to_planes(boards.astype(np.float64))
    with pytest.raises(ValueError, match=r"\(N, 12\)"):
        chessbits.to_planes(boards[:, :11])
    with pytest.raises(ValueError, match=r"\(N, 12\)"):
        chessbits.to_planes(boards[0])
