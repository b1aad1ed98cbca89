"""The position index from Python: build_index, Index.find and Index.explore, checked against
python-chess's Polyglot keys over every position of the sample games."""

import os
from collections import Counter

import chess
import chess.pgn
import chess.polyglot
import pytest

import chessbits

SAMPLE = os.path.join(
    os.path.dirname(__file__), "..", "..", "..", "testdata", "games", "lichess-2021-10-sample.pgn"
)


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    path = tmp_path_factory.mktemp("index") / "sample.cbx"
    stats = chessbits.build_index(SAMPLE, path)
    assert stats["games"] == 66 and stats["skipped"] == 0
    assert stats["bytes"] == os.path.getsize(path)
    return chessbits.Index(path)


def games():
    with open(SAMPLE, encoding="utf-8") as f:
        number = 0
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                return
            number += 1
            yield number, game


def scan():
    """Per Polyglot key: each game's first ply there and the move played next."""
    arrivals = {}
    for number, game in games():
        board = game.board()
        moves = list(game.mainline_moves())
        seen = set()
        for ply in range(len(moves) + 1):
            key = chess.polyglot.zobrist_hash(board)
            if key not in seen:
                seen.add(key)
                nxt = moves[ply].uci() if ply < len(moves) else None
                arrivals.setdefault(key, []).append((number, ply, nxt, board.fen()))
            if ply < len(moves):
                board.push(moves[ply])
    return arrivals


def test_find_and_explore_equal_python_chess(index):
    assert index.games == 66
    checked = 0
    for key, hits in scan().items():
        fen = hits[0][3]
        found = index.find(fen)
        assert found.column("game").to_pylist() == [h[0] for h in hits], fen
        assert found.column("ply").to_pylist() == [h[1] for h in hits], fen
        explored = index.explore(fen)
        counts = Counter(h[2] for h in hits)
        assert dict(zip(explored.column("uci").to_pylist(), explored.column("games").to_pylist())) == dict(counts)
        checked += 1
    assert checked > 3000


def test_tags_filters_and_moves(index):
    found = index.find(moves="e2e4 e7e5 g1f3", limit=3)
    assert found.column_names == [
        "game", "ply", "white", "black", "result", "date", "white_elo", "black_elo", "speed", "event",
    ]
    assert found.num_rows == 3
    assert found.column("ply").to_pylist() == [3, 3, 3]
    start = index.explore()
    assert sum(start.column("games").to_pylist()) == 66
    assert start.column("san").to_pylist()[0] == "e4"
    blitz = index.explore(speed="blitz")
    wins = index.explore(result="1-0")
    assert 0 < sum(blitz.column("games").to_pylist()) < 66
    assert sum(wins.column("games").to_pylist()) == sum(wins.column("white").to_pylist())
    none = index.find(since="2030-01")
    assert none.num_rows == 0


def test_errors(index, tmp_path):
    with pytest.raises(chessbits.FenError):
        index.find("not a fen")
    with pytest.raises(ValueError):
        index.find(moves="e2e5")
    with pytest.raises(ValueError):
        index.explore(speed="fast")
    # A FEN that reads but is no legal position: PositionError, as chessbits.Board raises
    # (it was FenError, the class for text that is no FEN).
    with pytest.raises(chessbits.PositionError):
        chessbits.Board("8/8/8/8/8/8/8/8 w - - 0 1")
    with pytest.raises(chessbits.PositionError):
        index.find("8/8/8/8/8/8/8/8 w - - 0 1")
    # A missing index is no PGN text passed as a path: no word about passing PGN.
    with pytest.raises(FileNotFoundError) as caught:
        chessbits.Index(tmp_path / "missing.cbx")
    assert "PGN" not in str(caught.value), caught.value
    assert caught.value.filename == str(tmp_path / "missing.cbx")
    bad = tmp_path / "bad.cbx"
    bad.write_bytes(b"not an index")
    with pytest.raises(chessbits.ChessbitsError):
        chessbits.Index(bad)


@pytest.mark.parametrize(
    "call, name, value, message",
    [
        (lambda i, v: i.find(limit=v), "limit", -1, "0 or more"),
        (lambda i, v: i.find(min_rating=v), "min_rating", -1, "0 or more"),
        (lambda i, v: i.find(min_rating=v), "min_rating", 2**40, "too large"),
        (lambda i, v: i.find(limit=v), "limit", 2**70, "too large"),
        (lambda i, v: i.explore(min_rating=v), "min_rating", -(2**70), "0 or more"),
        (lambda i, v: i.explore(max_rating=v), "max_rating", 70_000, "too large"),
        (lambda i, v: chessbits.build_index(SAMPLE, "/nonexistent/x.cbx", max_ply=v), "max_ply", -1, "0 or more"),
        (lambda i, v: chessbits.build_index(SAMPLE, "/nonexistent/x.cbx", memory=v), "memory", 0, "at least 1"),
        (lambda i, v: chessbits.build_index(SAMPLE, "/nonexistent/x.cbx", memory=v), "memory", -5, "at least 1"),
    ],
)
def test_out_of_range_counts_are_value_errors_that_name_the_argument(index, call, name, value, message):
    # A trial met pyo3's OverflowError ("can't convert negative int to unsigned") here, which
    # names no argument, and memory=0 taken without a word.
    with pytest.raises(ValueError, match=f"^{name} (must be |is ){message}$"):
        call(index, value)


def test_ratings_are_bands(index):
    # A trial's "at least 3000" returned games averaging 2501: a value inside a band was read
    # as its band. It is refused now, and the band values give what they did.
    with pytest.raises(ValueError, match="min_rating 3000 is not a rating band"):
        index.find(min_rating=3000)
    with pytest.raises(ValueError, match="max_rating 1999 is not a rating band"):
        index.explore(max_rating=1999)
    assert index.explore(min_rating=0, max_rating=2500) == index.explore()


def test_build_index_is_the_same_bytes_at_every_thread_count(tmp_path):
    """PGN of a path or bytes is prepared on the pipeline's workers: the same file as one
    thread and as a file object read under the GIL, the skipped games counted alike."""
    with open(SAMPLE, "rb") as f:
        sample = f.read()
    broken = b'[Event "broken"]\n\n1. e4 e5 2. Ke3 *\n\n'
    # About 1.5 MB: several chunks per thread, a broken game in some of them.
    data = (sample + b"\n" + broken) * 10
    stats, files = [], []
    for name, source, threads in [
        ("one", data, 1),
        ("two", data, 2),
        ("three", data, 3),
        ("file", None, 2),
    ]:
        path = tmp_path / f"{name}.cbx"
        if source is None:
            (tmp_path / "games.pgn").write_bytes(data)
            with open(tmp_path / "games.pgn", "rb") as f:
                stats.append(chessbits.build_index(f, path, threads=threads))
        else:
            stats.append(chessbits.build_index(source, path, threads=threads))
        files.append(path.read_bytes())
    assert stats[0] == {"games": 660, "skipped": 10, "bytes": len(files[0])}
    assert all(s == stats[0] for s in stats), stats
    assert all(f == files[0] for f in files)
    # The games keep their numbers across sources: the second of two copies starts at 671.
    path = tmp_path / "both.cbx"
    chessbits.build_index([data, data], path, threads=2)
    index = chessbits.Index(path)
    found = index.find(moves="e2e4", limit=None).column("game").to_pylist()
    assert max(found) > 670 and min(found) < 67
