"""A compressed file cut in the middle: `read_games(on_error="keep")` keeps the games read
before the cut and notes the error in the schema metadata; `iter_games` yields them before
raising (issue 40, item 4)."""

import bz2
import gzip

import pyarrow as pa
import pyarrow.compute as pc
import pytest

import chessbits
from conftest import SAMPLE

KEY = b"chessbits.read_error"


def zstd_in_blocks(data):
    """zstd with a block flushed every 8 KiB of PGN, as a long `.pgn.zst` has many blocks."""
    zstandard = pytest.importorskip("zstandard")
    out = zstandard.ZstdCompressor().compressobj()
    parts = [out.compress(data[i : i + 8192]) + out.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK) for i in range(0, len(data), 8192)]
    return b"".join(parts) + out.flush()


COMPRESSORS = {"gzip": gzip.compress, "bz2": bz2.compress, "zstd": zstd_in_blocks}


def assert_games_before_the_cut(table, full):
    """`table` is the first games of `full`, but for the game the cut ended, which may close
    it as an error row (the PGN ran out inside it)."""
    read = table.filter(pc.is_null(table.column("error")))
    assert 0 < read.num_rows < full.num_rows
    assert read.equals(full.slice(0, read.num_rows))
    assert table.num_rows - read.num_rows <= 1
    if table.num_rows > read.num_rows:
        assert table.column("game")[-1].as_py() == read.num_rows + 1


def cut(name, fraction=0.5):
    data = COMPRESSORS[name](SAMPLE.read_bytes())
    return data[: int(len(data) * fraction)]


@pytest.mark.parametrize("name", ["gzip", "zstd"])
@pytest.mark.parametrize("threads", [1, 2])
def test_keep_returns_the_games_before_the_cut(name, threads, tmp_path):
    full = chessbits.read_games(SAMPLE, threads=1)
    path = tmp_path / f"cut.pgn.{name}"
    path.write_bytes(cut(name))
    for source in [path, path.read_bytes(), open(path, "rb")]:
        with pytest.raises(OSError, match="broken at byte"):
            chessbits.read_games(source, threads=threads)
    for source in [path, path.read_bytes(), open(path, "rb")]:
        table = chessbits.read_games(source, threads=threads, on_error="keep")
        assert_games_before_the_cut(table.replace_schema_metadata(None), full)
        error = table.schema.metadata[KEY].decode()
        assert "broken at byte" in error and "of the compressed input" in error
        # The schema's own metadata, if any, is kept beside it.
        for key, value in (full.schema.metadata or {}).items():
            assert table.schema.metadata[key] == value


def test_keep_notes_nothing_for_a_whole_file():
    table = chessbits.read_games(gzip.compress(SAMPLE.read_bytes()), on_error="keep")
    assert KEY not in (table.schema.metadata or {})
    assert table.equals(chessbits.read_games(SAMPLE))


def test_keep_with_a_cut_before_the_first_game_gives_an_empty_table():
    table = chessbits.read_games(cut("bz2", 0.2), on_error="keep")
    assert table.num_rows == 0 and KEY in table.schema.metadata
    assert table.schema.names == chessbits.read_games(SAMPLE).schema.names


def test_on_error_takes_raise_or_keep():
    with pytest.raises(ValueError, match="on_error must be 'raise' or 'keep'"):
        chessbits.read_games(SAMPLE, on_error="skip")


@pytest.mark.parametrize("threads", [1, 2])
def test_iter_games_yields_the_batches_before_the_error(threads):
    full = chessbits.read_games(SAMPLE, threads=1)
    got = []
    with pytest.raises(OSError, match="broken at byte"):
        for batch in chessbits.iter_games(cut("gzip"), threads=threads, batch_games=5):
            got.append(batch)
    assert_games_before_the_cut(pa.Table.from_batches(got), full)
