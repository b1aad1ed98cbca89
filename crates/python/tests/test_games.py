"""read_games and iter_games: the mainlines against python-chess, the three move forms against
each other, sources of every kind, broken games as rows with their error."""

import errno
import io

import pyarrow as pa
import pyarrow.compute as pc
import pytest

import chessbits
from conftest import WILD, corpus_files

chess = pytest.importorskip("chess")
import chess.pgn  # noqa: E402


def python_chess_mainlines(path):
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                return out
            out.append(None if game.errors else [m.uci() for m in game.mainline_moves()])


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_mainlines_match_python_chess(path):
    table = chessbits.read_games(path)
    expected = python_chess_mainlines(path)
    assert table.num_rows == len(expected)
    rows = table.select(["moves", "plies", "error"]).to_pylist()
    for ours, theirs in zip(rows, expected):
        if theirs is None:
            continue
        assert ours["error"] is None
        assert ours["moves"] == theirs
        assert ours["plies"] == len(theirs)


def test_san_and_codes_agree_with_uci(sample_path):
    uci = chessbits.read_games(sample_path, moves="uci")
    san = chessbits.read_games(sample_path, moves="san")
    codes = chessbits.read_games(sample_path, moves="codes")
    assert codes.schema.field("moves").type == pa.binary()
    for u, s, c, plies, fen in zip(
        uci.column("moves").to_pylist(),
        san.column("moves").to_pylist(),
        codes.column("moves").to_pylist(),
        codes.column("plies").to_pylist(),
        codes.column("start_fen").to_pylist(),
    ):
        assert chessbits.decode_moves(c, plies, start_fen=fen) == u
        board = chessbits.Board(fen) if fen else chessbits.Board()
        assert [board.push_san(m).uci() for m in s] == u
    # Everything but the moves column is the same in all three.
    rest = [n for n in uci.column_names if n != "moves"]
    assert uci.select(rest).equals(codes.select(rest))


def test_sources_path_bytes_file_and_batches_agree(sample_path, sample_bytes):
    by_path = chessbits.read_games(sample_path)
    assert chessbits.read_games(str(sample_path)).equals(by_path)
    assert chessbits.read_games(sample_bytes).equals(by_path)
    assert chessbits.read_games(io.BytesIO(sample_bytes)).equals(by_path)
    assert chessbits.read_games(io.StringIO(sample_bytes.decode("utf-8"))).equals(by_path)
    import gzip

    compressed = io.BytesIO(gzip.compress(sample_bytes))
    assert chessbits.read_games(gzip.open(compressed)).equals(by_path)
    assert chessbits.read_games(io.BufferedReader(io.BytesIO(sample_bytes), 7)).equals(by_path)

    class Broken(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, buffer):
            raise RuntimeError("disk on fire")

    with pytest.raises(OSError, match="disk on fire"):
        chessbits.read_games(Broken())

    class NotBytes:
        def read(self, n):
            return 42

    with pytest.raises(OSError, match="read"):
        chessbits.read_games(NotBytes())
    batches = list(chessbits.iter_games(sample_path, batch_games=7))
    assert all(b.num_rows <= 7 for b in batches)
    assert pa.Table.from_batches(batches).equals(by_path)


def test_typed_tags_clocks_evals_and_keys():
    pgn = (
        b'[White "Anna"]\n[WhiteElo "1500"]\n[BlackElo "?"]\n[UTCDate "2024.01.31"]\n'
        b'[Foo "bar"]\n\n1. e4 { [%clk 0:03:00] [%eval 0.17] } e5 { [%eval #-3] } 2. Qh5 1-0\n'
    )
    row = chessbits.read_games(pgn, keys="all").to_pylist()[0]
    assert row["White"] == "Anna" and row["WhiteElo"] == 1500 and row["BlackElo"] is None
    assert str(row["UTCDate"]) == "2024-01-31"
    assert ("Foo", "bar") in row["tags"] and ("BlackElo", "?") in row["tags"]
    assert row["clocks"] == [18000, None, None]
    assert row["evals"] == [17, -(100000 - 3), None]
    board = chessbits.Board()
    keys = []
    for m in row["moves"]:
        board.push_uci(m)
        keys.append(board.zobrist_hash())
    assert [k & (2**64 - 1) for k in row["keys"]] == keys
    assert chessbits.read_games(pgn, keys=1).to_pylist()[0]["keys"] == row["keys"][:1]


def test_broken_games_are_rows_with_their_error():
    pgn = b"1. e4 e5 2. Ke3 *\n\n[Event \"ok\"]\n\n1. d4 d5 *\n\n1. e4 {unclosed\n"
    table = chessbits.read_games(pgn)
    rows = table.select(["game", "Event", "plies", "error"]).to_pylist()
    assert [r["game"] for r in rows] == [1, 2, 3]
    # Where and why; the game's number is in its own column, as in `chessbits export`.
    assert rows[0]["error"] == "line 1, column 13 (byte 12): ply 3 (Ke3): illegal move Ke3"
    assert rows[1] == {"game": 2, "Event": "ok", "plies": 2, "error": None}
    assert rows[2]["error"] is not None and rows[2]["plies"] == 0


def test_wild_files_read_without_exceptions():
    for path in sorted(WILD.glob("*.pgn")):
        table = chessbits.read_games(path)
        assert table.num_rows > 0


def test_cbg_round_trip(tmp_path, sample_path):
    out = tmp_path / "games.cbg"
    written, failed = chessbits.write_cbg(sample_path, out)
    original = chessbits.read_games(sample_path)
    assert written + failed == original.num_rows
    assert failed == original.num_rows - original.column("error").null_count
    back = chessbits.read_games(out)
    ok = original.filter(pc.is_null(original.column("error")))
    assert back.num_rows == written == ok.num_rows
    for name in ["game", "White", "Black", "plies", "moves", "clocks", "evals", "start_fen"]:
        assert back.column(name).to_pylist() == ok.column(name).to_pylist(), name
    data = out.read_bytes()
    # A cut file is the file's error, not a game's: raised, or kept beside the games before
    # it with no row of its own (a row once stood for it), as `chessbits export` reports it.
    with pytest.raises(chessbits.CbgError, match="ends early") as caught:
        chessbits.read_games(data[: len(data) // 2])
    assert caught.value.byte is not None and caught.value.byte <= len(data) // 2
    cut = chessbits.read_games(data[: len(data) // 2], on_error="keep")
    assert 0 < cut.num_rows < written
    assert cut.column("error").null_count == cut.num_rows
    assert b"ends early" in cut.schema.metadata[b"chessbits.read_error"]
    assert cut.column("game").to_pylist() == ok.column("game").to_pylist()[: cut.num_rows]
    with pytest.raises(chessbits.CbgError):
        chessbits.read_games(data[:8] + b"\x63" + data[9:])  # an unknown version


def test_a_damaged_cbg_record_is_numbered_by_its_place_and_the_games_skipped(tmp_path):
    """Game 2 does not read, so the file holds games 1, 3, 4 and 5; a damaged record is
    numbered as `chessbits unpack` and `export` number it, its place plus the games skipped
    before it (before: its place alone, so game 4's record came out as a second game 3)."""
    names = ["Aqwerty1", "Bqwerty2", "Cqwerty3", "Dqwerty4", "Eqwerty5"]
    pgn = "".join(
        f'[Event "e"]\n[White "{name}"]\n\n{"1. e4 Ke3 *" if i == 1 else "1. e4 e5 *"}\n\n'
        for i, name in enumerate(names)
    )
    source = tmp_path / "mixed.pgn"
    source.write_text(pgn)
    out = tmp_path / "mixed.cbg"
    assert chessbits.write_cbg(source, out) == (4, 1)
    data = out.read_bytes()
    for name, number in [("Dqwerty4", 4), ("Aqwerty1", 1), ("Eqwerty5", 5)]:
        at = data.find(name.encode())
        assert at > 0, name
        damaged = data[:at] + bytes([data[at] ^ 0x20]) + data[at + 1 :]
        table = chessbits.read_games(damaged)
        assert table.column("game").to_pylist() == [1, 3, 4, 5], name
        errors = dict(zip(table.column("game").to_pylist(), table.column("error").to_pylist()))
        assert errors[number] is not None and "checksum" in errors[number], errors


def cbg_records(data):
    """The (tag, start, end) of each record of a `.cbg` file after its 12-byte header: a tag
    byte, a varint body length, the body and a 2-byte check (docs/formats.md)."""
    at, records = 12, []
    while at < len(data):
        start, tag, at = at, data[at], at + 1
        length, shift = 0, 0
        while True:
            byte, at = data[at], at + 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        at += length + 2
        records.append((chr(tag), start, at))
    return records


def test_a_damaged_cbg_index_record_is_the_files_error_not_a_game_row(tmp_path):
    """A block index record whose check fails loses no game: every game reads, numbered
    1..n, and the file's error is raised once they are read (kept with on_error="keep", and
    last in iter_games). It was a row numbered as the next game, a second game 1025."""
    games = 1100
    source = tmp_path / "many.pgn"
    source.write_text("1. e4 e5 *\n\n" * games)
    path = tmp_path / "many.cbg"
    assert chessbits.write_cbg(source, path) == (games, 0)
    data = path.read_bytes()
    records = cbg_records(data)
    assert [tag for tag, _, _ in records].count("I") == 2, records[-4:]
    first_index = next(start for tag, start, _ in records if tag == "I")
    assert sum(tag == "G" for tag, start, _ in records if start < first_index) == 1024
    damaged = bytearray(data)
    damaged[first_index + 4] ^= 0x01
    damaged = bytes(damaged)
    damaged_path = tmp_path / "damaged.cbg"
    damaged_path.write_bytes(damaged)
    with pytest.raises(chessbits.CbgError, match="block index") as caught:
        chessbits.read_games(damaged)
    assert caught.value.byte is not None
    kept = chessbits.read_games(damaged_path, on_error="keep")
    assert kept.column("game").to_pylist() == list(range(1, games + 1))
    assert kept.column("error").null_count == games
    assert b"block index" in kept.schema.metadata[b"chessbits.read_error"]
    assert kept.drop_columns(["error"]).equals(
        chessbits.read_games(path).drop_columns(["error"])
    )
    reader = chessbits.iter_games(damaged_path, batch_games=500)
    seen = []
    with pytest.raises(chessbits.CbgError, match="block index"):
        for batch in reader:
            seen.extend(batch.column("game").to_pylist())
    assert seen == list(range(1, games + 1))
    # The same rule for every reader of games: raised after the games are read.
    with pytest.raises(chessbits.CbgError, match="block index"):
        chessbits.game_positions(damaged_path)
    with pytest.raises(chessbits.CbgError, match="block index"):
        chessbits.build_index(damaged_path, tmp_path / "damaged.cbx")
    assert not (tmp_path / "damaged.cbx").exists()
    # The undamaged file reads to its end with no error.
    assert b"chessbits.read_error" not in (
        chessbits.read_games(path, on_error="keep").schema.metadata or {}
    )


def test_read_games_equals_export_on_a_damaged_cbg_file(tmp_path):
    """A damaged game record is a row, a cut or a damaged index record is not: the same
    table as `chessbits export` writes (CHESSBITS_CLI names a built binary; CI sets it)."""
    import os
    import subprocess

    cli = os.environ.get("CHESSBITS_CLI")
    if not cli:
        pytest.skip("CHESSBITS_CLI is not set")
    pq = pytest.importorskip("pyarrow.parquet")
    source = tmp_path / "many.pgn"
    source.write_text("".join(f'[Round "{i}"]\n\n1. e4 e5 *\n\n' for i in range(1100)))
    path = tmp_path / "many.cbg"
    chessbits.write_cbg(source, path)
    data = path.read_bytes()
    records = cbg_records(data)
    index = next(start for tag, start, _ in records if tag == "I")
    game = [start for tag, start, _ in records if tag == "G"][1030]
    for name, flips, end in [
        ("index", [index + 4], len(data)),
        ("game and index", [records[5][1] + 4, index + 4], len(data)),
        ("cut", [records[7][1] + 4], game + 3),
    ]:
        damaged = bytearray(data[:end])
        for at in flips:
            damaged[at] ^= 0x01
        damaged_path = tmp_path / f"{name}.cbg"
        damaged_path.write_bytes(bytes(damaged))
        out = tmp_path / f"{name}.parquet"
        run = subprocess.run([cli, "export", str(damaged_path), "-o", str(out)])
        assert run.returncode != 0, name
        exported = pq.read_table(out)
        ours = chessbits.read_games(damaged_path, moves="codes", on_error="keep")
        assert b"chessbits.read_error" in ours.schema.metadata, name
        assert exported.equals(ours.replace_schema_metadata(exported.schema.metadata)), (
            name,
            exported.column("game").to_pylist()[-3:],
            ours.column("game").to_pylist()[-3:],
        )


def test_bad_arguments():
    with pytest.raises(ValueError):
        chessbits.read_games(b"", moves="lan")
    with pytest.raises(ValueError):
        chessbits.read_games(b"", threads=0)
    with pytest.raises(ValueError):
        chessbits.read_games(b"", keys="some")
    with pytest.raises(OSError):
        chessbits.read_games("/nonexistent/games.pgn")
    with pytest.raises(IsADirectoryError, match="(?i)is a directory") as info:
        chessbits.read_games(WILD)
    assert info.value.filename == str(WILD) and info.value.errno == errno.EISDIR
    with pytest.raises(IsADirectoryError, match="(?i)is a directory"):
        chessbits.game_positions(WILD)
    with pytest.raises(TypeError):
        chessbits.read_games(12)
    assert chessbits.read_games(b"").num_rows == 0


def test_codes_table_is_what_chessbits_export_writes(tmp_path, sample_path):
    """With CHESSBITS_CLI naming a built `chessbits` binary (CI sets it), the table of
    moves="codes" without its error column equals the Parquet file `chessbits export` writes,
    schema and values."""
    import os
    import subprocess

    cli = os.environ.get("CHESSBITS_CLI")
    if not cli:
        pytest.skip("CHESSBITS_CLI is not set")
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "games.parquet"
    subprocess.run([cli, "export", str(sample_path), "-o", str(out)], check=True)
    exported = pq.read_table(out)
    ours = chessbits.read_games(sample_path, moves="codes")
    assert exported.schema.equals(ours.schema)
    assert exported.equals(ours)


def test_read_games_equals_export_on_broken_and_refused_games(tmp_path):
    """Games that do not read are the same rows in both, with their tags and error."""
    import os
    import subprocess

    cli = os.environ.get("CHESSBITS_CLI")
    if not cli:
        pytest.skip("CHESSBITS_CLI is not set")
    pq = pytest.importorskip("pyarrow.parquet")
    pgn = tmp_path / "broken.pgn"
    pgn.write_bytes(
        b'[Event "a"]\n[Variant "Atomic"]\n[WhiteElo "1500"]\n\n1. e4 1-0\n\n'
        b"1. e4 e5 2. Ke3 *\n\n[Event \"ok\"]\n\n1. d4 d5 *\n\n1. e4 {unclosed\n"
    )
    out = tmp_path / "broken.parquet"
    subprocess.run([cli, "export", str(pgn), "-o", str(out)], check=False)
    exported = pq.read_table(out)
    for threads in (1, 2):
        ours = chessbits.read_games(pgn, moves="codes", threads=threads)
        assert exported.equals(ours), (exported.to_pylist(), ours.to_pylist())
    assert exported.column("error").null_count == 1


def test_a_refused_variant_game_keeps_its_tags_in_its_error_row():
    pgn = (
        b'[Event "Rated Crazyhouse game"]\n[Result "1-0"]\n[WhiteElo "1800"]\n'
        b'[Variant "Crazyhouse"]\n[TimeControl "180+0"]\n\n1. e4 e5 1-0\n\n'
        b'[Event "Rated Blitz game"]\n[Result "0-1"]\n\n1. d4 0-1\n'
    )
    for threads in (1, 2):
        table = chessbits.read_games(pgn, threads=threads).to_pylist()
        assert [row["game"] for row in table] == [1, 2]
        refused = table[0]
        assert "Crazyhouse" in refused["error"]
        assert refused["Result"] == "1-0"
        assert refused["WhiteElo"] == 1800
        assert refused["TimeControl"] == "180+0"
        assert dict(refused["tags"]).get("Variant") == "Crazyhouse"
        assert table[1]["error"] is None


def test_batches_reach_pyarrow_without_a_copy(sample_path):
    """The PyCapsule interface hands pyarrow the buffers the extension allocated: the
    addresses pyarrow reads are the ones Rust wrote (an IPC stream would have copied them)."""
    reader = chessbits._chessbits.BatchReader(str(sample_path), moves="codes", threads=1)
    batch = next(iter(reader))
    imported = pa.record_batch(batch)
    assert imported.num_rows == len(batch) > 0
    for name in ["game", "plies", "WhiteElo", "moves", "White"]:
        index = imported.schema.get_field_index(name)
        # buffers()[0] is the validity bitmap; [1] the values (or offsets).
        assert imported.column(index).buffers()[1].address == batch._buffer_address(index)
    table = chessbits.read_games(sample_path, moves="codes", threads=1)
    # The sample is one batch: the same rows as read_games's table.
    assert table.equals(pa.Table.from_batches([imported]))
    reader = chessbits.iter_games(sample_path, threads=2)
    assert isinstance(reader, pa.RecordBatchReader)
    assert reader.read_all().num_rows == table.num_rows


def test_binary_bytes_are_refused_as_chessbits_export_refuses_them(tmp_path):
    """Bytes that are neither PGN, .cbg nor Parquet (a NUL, control bytes) raise, as
    `chessbits export` and `index build` refuse the file: a row for them, counted as a
    skipped game, numbered every game after it one higher than the CLI does."""
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"not a pgn\x00\x01")
    good = tmp_path / "good.pgn"
    good.write_bytes(b'[Event "B"]\n\n1. d4 *\n\n')
    for source in (junk, junk.read_bytes(), io.BytesIO(junk.read_bytes())):
        with pytest.raises(chessbits.ChessbitsError, match="neither PGN"):
            chessbits.read_games(source)
    with pytest.raises(chessbits.ChessbitsError, match="neither PGN"):
        chessbits.build_index([good, junk], tmp_path / "games.cbx")
    assert not (tmp_path / "games.cbx").exists()
    with pytest.raises(chessbits.ChessbitsError, match="neither PGN"):
        chessbits.game_positions(junk)
    # Text with a control byte or two in its first kilobytes is still PGN.
    table = chessbits.read_games(b'[Event "\x1b[1mB"]\n\n1. d4 *\n\n')
    assert table.column("plies").to_pylist() == [1]


def test_an_output_that_is_a_source_is_refused_and_the_source_kept(tmp_path):
    """write_cbg(path, path) emptied the games before reading them (0 games, the file
    lost); build_index(path, path) replaced them with the index. Both raise first now, by
    the file's name or a hard link to it."""
    import os

    pgn = tmp_path / "games.pgn"
    games = b'[Event "a"]\n\n1. e4 e5 *\n\n[Event "b"]\n\n1. d4 *\n'
    pgn.write_bytes(games)
    link = tmp_path / "link.pgn"
    os.link(pgn, link)
    for call in (
        lambda: chessbits.write_cbg(pgn, pgn),
        lambda: chessbits.write_cbg(str(pgn), link),
        lambda: chessbits.build_index(pgn, pgn),
        lambda: chessbits.build_index([b"1. e4 *", link], pgn),
    ):
        with pytest.raises(ValueError, match="the output is a source"):
            call()
        assert pgn.read_bytes() == games
    assert chessbits.write_cbg(pgn, tmp_path / "games.cbg") == (2, 0)


def test_what_the_export_trial_found_reads_as_the_pgn_says():
    """Session 35's trial of the columns against python-chess: a mate-in-0 eval names the
    side mated, a clock too large for the column is null, and Shredder letters of the
    standard rooks leave a game standard (its castling as e1g1, no start FEN)."""
    pgn = (
        b'[Event "black mates"]\n\n1. f3 e5 2. g4 Qh4# { [%eval #0] } 0-1\n\n'
        b'[Event "white mates"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# { [%eval #-0] } 1-0\n\n'
        b'[Event "clocks"]\n\n1. e4 { [%clk 5965:13:56.48] } 1... e5 { [%clk 5965:13:56.47] } *\n\n'
        b'[Event "shredder"]\n[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"]\n\n'
        b"1. Nf3 Nf6 2. g3 g6 3. Bg2 Bg7 4. O-O O-O *\n"
    )
    rows = chessbits.read_games(pgn, moves="uci").to_pylist()
    assert rows[0]["evals"][-1] == -100_000 and rows[1]["evals"][-1] == 100_000
    assert rows[2]["clocks"] == [None, 2**31 - 1]
    assert rows[3]["moves"][-2:] == ["e1g1", "e8g8"] and rows[3]["start_fen"] is None
    codes = chessbits.read_games(pgn, moves="codes").to_pylist()[3]
    assert chessbits.decode_moves(codes["moves"], codes["plies"])[-2:] == ["e1g1", "e8g8"]
