"""lichess's Parquet, side by side in one run: chessbits's ``read_games`` of a Parquet file
against rust-pgn-reader-python-binding's ``parse_games`` of its ``movetext`` column, at 1 and 2
threads (issue 44), with chessbits on the same games as PGN for reference.

    python crates/python/bench/parquet.py FILE.pgn...

Each PGN file is first written as a lichess Parquet file (tags as typed columns, the moves in
``movetext``, zstd) by the test suite's writer. Both libraries validate every move; the
binding's time includes reading the column from the file, ours the tags too.
"""

import os
import sys
import tempfile

import pyarrow.parquet as pq

import chessbits

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from compare import best_interleaved  # noqa: E402
from test_lichess_parquet import lichess_parquet  # noqa: E402


def main():
    import rust_pgn_reader_python_binding as binding

    print("| file | games | chessbits 1t | chessbits 2t | binding 1t | binding 2t | PGN 1t | PGN 2t |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        with tempfile.TemporaryDirectory() as tmp:
            parquet = os.path.join(tmp, "games.parquet")
            games = lichess_parquet(text, parquet)
            ours = chessbits.read_games(parquet, threads=1)
            assert ours.num_rows == games
            ok = ours.column("error").null_count
            moves = pq.read_table(parquet, columns=["movetext"]).column("movetext")
            parsed = binding.parse_games(moves, num_threads=1)
            theirs_ok = sum(int(chunk.valid.sum()) for chunk in parsed.chunks)
            if parsed.num_games != games or theirs_ok != ok:
                raise SystemExit(f"{path}: games {games}/{parsed.num_games}, valid {ok}/{theirs_ok}")
            def ours(source, threads):
                return lambda: chessbits.read_games(source, threads=threads)

            def theirs(threads):
                return lambda: binding.parse_games(
                    pq.read_table(parquet, columns=["movetext"]).column("movetext"),
                    num_threads=threads,
                )

            # In turns, so that a slow spell of the shared machine meets every reader.
            runs = [ours(parquet, 1), ours(parquet, 2), theirs(1), theirs(2), ours(path, 1), ours(path, 2)]
            row = [games / t for t in best_interleaved(runs)]
        cells = " | ".join(f"{r:,.0f}" for r in row)
        print(f"| {os.path.basename(path)} | {games:,} | {cells} |")
    print("\n(games per second, best of at least 5 runs taken in turns)")


if __name__ == "__main__":
    main()
