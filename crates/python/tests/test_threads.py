"""read_games and iter_games on several threads and on compressed files: the same table as one
thread reading the plain file, for every thread count and compression; a truncated compressed
file raises OSError after the batches before the cut."""

import bz2
import gzip
import os
import shutil
import signal
import subprocess
import time

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


def test_calls_from_several_python_threads_at_once_give_the_same_tables(tmp_path):
    """The GIL is released while games are read: calls from four Python threads at once, on
    an input large enough for the parallel pipeline, each on one or two worker threads, give
    the tables a call alone gives."""
    import concurrent.futures

    _, data = joined(tmp_path)
    expected = {m: chessbits.read_games(data, moves=m, threads=1) for m in ("uci", "codes")}
    jobs = [(moves, threads) for moves in ("uci", "codes") for threads in (1, 2)] * 2
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        tables = list(pool.map(lambda j: chessbits.read_games(data, moves=j[0], threads=j[1]), jobs))
    for (moves, _), table in zip(jobs, tables):
        assert table.equals(expected[moves])


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_forked_child_reads_on_threads_of_its_own(tmp_path):
    """The worker threads are kept between calls; a child made by fork (multiprocessing's
    default on Linux) has none of them, and must start its own rather than wait for its
    parent's."""
    _, data = joined(tmp_path)
    expected = chessbits.read_games(data, threads=2)
    pid = os.fork()
    if pid == 0:
        ok = False
        try:
            ok = chessbits.read_games(data, threads=2).equals(expected)
        finally:
            os._exit(0 if ok else 1)
    # A child waiting for its parent's threads would wait forever: it is given 60 seconds.
    for _ in range(600):
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        pytest.fail("the forked child hung")
    assert os.waitstatus_to_exitcode(status) == 0


def test_a_signal_stops_a_read_on_several_threads(tmp_path):
    """read_games runs the pipeline without the GIL and looks at signals between batches: a
    handler's exception (Ctrl-C's KeyboardInterrupt, here an alarm's) stops the read early,
    rather than once every game is read."""
    _, data = joined(tmp_path)
    big = tmp_path / "big.pgn"
    big.write_bytes(data * 16)
    start = time.perf_counter()
    chessbits.read_games(big, threads=2)
    whole = time.perf_counter() - start

    class Stop(Exception):
        pass

    def stop(signum, frame):
        raise Stop()

    before = signal.signal(signal.SIGALRM, stop)
    try:
        signal.setitimer(signal.ITIMER_REAL, whole / 10)
        start = time.perf_counter()
        with pytest.raises(Stop):
            chessbits.read_games(big, threads=2)
        stopped = time.perf_counter() - start
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    assert stopped < whole / 2, (stopped, whole)


def test_boards_in_several_python_threads_at_once():
    """The same game played on boards in four threads at once ends in the same FEN."""
    import concurrent.futures

    def play(_):
        board = chessbits.Board()
        for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"]:
            board.push_san(san)
        return board.fen()

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        fens = set(pool.map(play, range(16)))
    assert fens == {"r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 3 5"}
