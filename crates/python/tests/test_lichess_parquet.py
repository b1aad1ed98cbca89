"""lichess's Parquet files (tags as typed columns, the moves as a `movetext` string) read as
the PGN they came from: the same table, every move validated (issue 44)."""

import datetime
import re

import pytest

import chessbits
from conftest import SAMPLE

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

# lichess's column types; any other tag is a string.
TYPES = {
    "WhiteElo": pa.int64(),
    "BlackElo": pa.int64(),
    "WhiteRatingDiff": pa.int64(),
    "BlackRatingDiff": pa.int64(),
    "UTCDate": pa.date32(),
    "UTCTime": pa.time64("us"),
}


def games_of(text):
    """(tags, movetext) of each game of lichess PGN text."""
    games = []
    for block in re.split(r"\n\n(?=\[)", text.strip()):
        head, _, moves = block.partition("\n\n")
        tags = re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', head, re.M)
        games.append((tags, " ".join(moves.split())))
    return games


def typed(name, value):
    if value is None:
        return None
    if name in ("WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff"):
        return int(value)
    if name == "UTCDate":
        return datetime.date(*map(int, value.split(".")))
    if name == "UTCTime":
        return datetime.time(*map(int, value.split(":")))
    return value


def lichess_parquet(pgn_text, path, compression="zstd"):
    games = games_of(pgn_text)
    names = []
    for tags, _ in games:
        for name, _ in tags:
            if name not in names:
                names.append(name)
    columns = {}
    for name in names:
        values = [typed(name, dict(tags).get(name)) for tags, _ in games]
        columns[name] = pa.array(values, type=TYPES.get(name, pa.string()))
    columns["movetext"] = pa.array([moves for _, moves in games], type=pa.string())
    pq.write_table(pa.table(columns), path, compression=compression)
    return len(games)


@pytest.mark.parametrize("compression", ["zstd", "snappy", "gzip", "none"])
def test_a_lichess_parquet_file_reads_as_its_pgn(tmp_path, compression):
    path = tmp_path / "games.parquet"
    count = lichess_parquet(SAMPLE.read_text(), path, compression)
    expected = chessbits.read_games(SAMPLE)
    assert expected.num_rows == count
    for threads in (1, 2):
        got = chessbits.read_games(path, threads=threads)
        assert got.equals(expected)
    assert chessbits.read_games(path.read_bytes(), moves="san").equals(
        chessbits.read_games(SAMPLE, moves="san")
    )
    assert sum(b.num_rows for b in chessbits.iter_games(path)) == count


def test_an_illegal_move_in_movetext_is_a_failed_row(tmp_path):
    table = pa.table(
        {
            "White": ["a", "b"],
            "WhiteElo": pa.array([1500, None], type=pa.int64()),
            "movetext": ["1. e4 e5 2. Ke3 *", "1. d4 d5 1/2-1/2"],
        }
    )
    path = tmp_path / "bad.parquet"
    pq.write_table(table, path)
    rows = chessbits.read_games(path).to_pylist()
    assert [r["game"] for r in rows] == [1, 2]
    assert rows[0]["error"].startswith("movetext byte 12: ") and "Ke3" in rows[0]["error"]
    assert rows[0]["White"] == "a" and rows[0]["WhiteElo"] == 1500
    assert rows[1]["error"] is None and rows[1]["plies"] == 2 and rows[1]["WhiteElo"] is None


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_many_rows_on_threads_read_as_their_pgn(tmp_path, threads):
    # Enough rows for batches on every thread: each numbered by its rows, in order.
    text = SAMPLE.read_text().strip() + "\n\n"
    pgn = tmp_path / "many.pgn"
    pgn.write_text(text * 12)
    path = tmp_path / "many.parquet"
    count = lichess_parquet(pgn.read_text(), path)
    expected = chessbits.read_games(pgn, threads=1)
    assert count == expected.num_rows > 4 * 64
    got = chessbits.read_games(path, threads=threads)
    assert got.equals(expected)
    batches = list(chessbits.iter_games(path, threads=threads, batch_games=50))
    assert pa.Table.from_batches(batches).equals(expected)


def test_each_row_is_one_game(tmp_path):
    # A second game in a movetext, or a comment never closed, is that row's error; the rows
    # after it read as they are (the PGN of the file would have read them differently).
    table = pa.table(
        {
            "White": ["a", "b", "c", "d"],
            "movetext": ["1. e4 1-0 1. d4 *", "1. e4 { open", "1. c4 } *", "1. e4\ne5 ; x\n2. Nf3 *"],
        }
    )
    path = tmp_path / "rows.parquet"
    pq.write_table(table, path)
    for threads in (1, 2):
        rows = chessbits.read_games(path, threads=threads).to_pylist()
        assert [r["game"] for r in rows] == [1, 2, 3, 4]
        assert rows[0]["error"].startswith("movetext byte 10: unexpected character")
        assert rows[1]["error"].startswith("movetext byte 6: comment not closed")
        assert rows[2]["error"] is not None and rows[2]["White"] == "c"
        # The movetext's line breaks are spaces (as the PGN writes a row on one line): the `;`
        # comment runs to the row's end.
        assert rows[3]["error"] is None and rows[3]["moves"] == ["e2e4", "e7e5"]
    # Every other reader of games reads a row as one game too, and numbers the rows alike.
    for threads in (1, 2):
        index_path = tmp_path / f"rows{threads}.cbx"
        stats = chessbits.build_index(path, index_path, threads=threads)
        assert (stats["games"], stats["skipped"]) == (1, 3)
        found = chessbits.Index(index_path).find(moves="e2e4 e7e5")
        assert found.column("game").to_pylist() == [4]
    cbg = tmp_path / "rows.cbg"
    assert chessbits.write_cbg(path, cbg) == (1, 3)
    assert [r["game"] for r in chessbits.read_games(cbg).to_pylist()] == [4]
    assert set(chessbits.game_positions(path)["game"].tolist()) == {4}
    with pytest.raises(chessbits.PgnError, match="game 1, movetext byte 10: ") as raised:
        chessbits.game_positions(path, strict=True)
    error = raised.value
    assert (error.game, error.byte, error.line, error.column) == (1, 10, None, None)


def test_a_parquet_file_without_movetext_is_refused(tmp_path):
    path = tmp_path / "nomoves.parquet"
    pq.write_table(pa.table({"White": ["a"]}), path)
    with pytest.raises(OSError, match="no movetext column"):
        chessbits.read_games(path)
    path = tmp_path / "lists.parquet"
    pq.write_table(pa.table({"movetext": ["1. e4 *"], "clocks": [[1, 2]]}), path)
    with pytest.raises(OSError, match="column clocks"):
        chessbits.read_games(path)
    # A `chessbits export` file (what read_games(moves="codes") returns) is told as one, not
    # by its `tags` map, the first column with no tag text ("column tags: a Map ...").
    path = tmp_path / "export.parquet"
    pq.write_table(chessbits.read_games(b"1. e4 e5 *\n", moves="codes"), path)
    for call in (chessbits.read_games, lambda p: chessbits.build_index(p, tmp_path / "x.cbx")):
        with pytest.raises(OSError, match="no movetext column.*chessbits export"):
            call(path)


class Trickle:
    """A file object whose `read(n)` gives at most `size` bytes at a time."""

    def __init__(self, data, size):
        self.data, self.at, self.size = data, 0, size

    def read(self, n=-1):
        n = self.size if n is None or n < 0 else min(n, self.size)
        block = self.data[self.at : self.at + n]
        self.at += len(block)
        return block


def test_a_parquet_file_object_reads_as_its_path(tmp_path):
    # A file object is told Parquet by its first bytes, as a path or bytes are (it was read as
    # PGN, and failed); one that hands out a byte at a time included.
    import io

    path = tmp_path / "games.parquet"
    lichess_parquet(SAMPLE.read_text(), path)
    data = path.read_bytes()
    expected = chessbits.read_games(path)
    sources = [lambda: open(path, "rb"), lambda: io.BytesIO(data), lambda: Trickle(data, 1)]
    for source in sources:
        assert chessbits.read_games(source(), threads=2).equals(expected)
        batches = list(chessbits.iter_games(source(), batch_games=3))
        assert pa.Table.from_batches(batches).equals(expected)
        positions = chessbits.game_positions(source())
        assert (positions["game"] == chessbits.game_positions(path)["game"]).all()
        cbg = tmp_path / "file.cbg"
        assert chessbits.write_cbg(source(), cbg) == (expected.num_rows, 0)
        index = tmp_path / "file.cbx"
        stats = chessbits.build_index(source(), index)
        assert stats["games"] == expected.num_rows
        assert index.read_bytes() == _index_of(path, tmp_path)
    # A PGN file object whose first reads are shorter than the magic bytes still reads whole.
    pgn = SAMPLE.read_bytes()
    assert chessbits.read_games(Trickle(pgn, 3)).equals(chessbits.read_games(SAMPLE))
    assert chessbits.read_games(Trickle(b"", 1)).num_rows == 0


def _index_of(path, tmp_path):
    out = tmp_path / "path.cbx"
    chessbits.build_index(path, out)
    return out.read_bytes()
