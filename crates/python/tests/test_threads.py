"""read_games and iter_games on several threads and on compressed files: the same table as one
thread reading the plain file, for every thread count and compression; a truncated compressed
file raises OSError after the batches before the cut."""

import bz2
import gzip
import os
import shutil
import subprocess

import pyarrow as pa
import pytest

import chessbits
from conftest import WILD, corpus_files


def joined(tmp_path):
    """The sample and the wild test files (broken games, variants, null moves) joined and
    repeated to over two megabytes: a smaller input is read on one thread whatever `threads`
    says, as the pipeline's threads would not share it."""
    once = b"".join(p.read_bytes() for p in corpus_files() + sorted(WILD.glob("*.pgn")))
    data = once * (1 + (5 << 19) // len(once))
    path = tmp_path / "joined.pgn"
    path.write_bytes(data)
    return path, data


@pytest.mark.parametrize("moves", ["uci", "san", "codes"])
def test_every_thread_count_reads_the_same_table(tmp_path, moves):
    path, data = joined(tmp_path)
    serial = chessbits.read_games(path, moves=moves, threads=1)
    assert serial.num_rows > 1000
    for threads in (2, 3, 8, None):
        assert chessbits.read_games(path, moves=moves, threads=threads).equals(serial)
        assert chessbits.read_games(data, moves=moves, threads=threads).equals(serial)
    batches = list(chessbits.iter_games(path, moves=moves, threads=2, batch_games=5))
    assert all(b.num_rows <= 5 for b in batches)
    assert pa.Table.from_batches(batches).equals(serial)


def compressed_copies(tmp_path, data):
    copies = {}
    copies["gz"] = tmp_path / "g.pgn.gz"
    copies["gz"].write_bytes(gzip.compress(data))
    copies["bz2"] = tmp_path / "g.pgn.bz2"
    copies["bz2"].write_bytes(bz2.compress(data))
    if shutil.which("zstd"):
        copies["zst"] = tmp_path / "g.pgn.zst"
        subprocess.run(["zstd", "-q", "-f", str(tmp_path / "joined.pgn"), "-o", str(copies["zst"])], check=True)
    return copies


def test_compressed_files_read_as_the_plain_one(tmp_path):
    path, data = joined(tmp_path)
    plain = chessbits.read_games(path, threads=1)
    for name, copy in compressed_copies(tmp_path, data).items():
        for threads in (1, 2):
            assert chessbits.read_games(copy, threads=threads).equals(plain), name
        # Compressed bytes, and a file object of them, are recognised too.
        assert chessbits.read_games(copy.read_bytes(), threads=2).equals(plain), name
        with open(copy, "rb") as f:
            assert chessbits.read_games(f).equals(plain), name


def test_a_truncated_compressed_file_raises_after_the_games_before(tmp_path):
    _, data = joined(tmp_path)
    cut = tmp_path / "cut.pgn.gz"
    packed = gzip.compress(data)
    cut.write_bytes(packed[: len(packed) * 9 // 10])
    for threads in (1, 2):
        with pytest.raises(OSError, match="gzip stream broken at byte"):
            chessbits.read_games(cut, threads=threads)
        rows = 0
        with pytest.raises(OSError, match="gzip stream broken at byte"):
            for batch in chessbits.iter_games(cut, threads=threads):
                rows += batch.num_rows
        assert rows > 0, threads


def test_zero_threads_is_refused(sample_path):
    with pytest.raises(ValueError, match="threads"):
        chessbits.read_games(sample_path, threads=0)
