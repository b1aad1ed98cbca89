"""Side by side, one run, same files and machine: chessbits against python-chess,
rust-pgn-reader-python-binding and bulletchess (each measured where installed).

    python crates/python/bench/compare.py FILE.pgn... [--oracle-games N]

Prints one Markdown table per measurement (docs/python.md quotes them). python-chess reads
only the first --oracle-games games of each file (it is slow), and its rate is per game.
"""

import argparse
import os
import re
import time

import chessbits


def best_of(fn, repeat=3, budget=1.0, most=30):
    """The best time of at least `repeat` runs, more (up to `most`) while they take less than
    `budget` seconds in all: a small file's run takes milliseconds, and one busy moment on a
    shared machine decides a best of three."""
    times = []
    while len(times) < repeat or (sum(times) < budget and len(times) < most):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def best_interleaved(fns, repeat=5, budget=6.0, most=60):
    """The best time of each function in `fns`, run in turns (one run of each per round) for at
    least `repeat` rounds, more (up to `most`) while the rounds take less than `budget` seconds
    in all. On a shared machine a slow spell lasts seconds: in turns, every function meets it,
    where back-to-back blocks leave it to whichever ran then."""
    times = [[] for _ in fns]
    spent = 0.0
    while len(times[0]) < repeat or (spent < budget and len(times[0]) < most):
        for fn, ts in zip(fns, times):
            start = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - start)
            spent += ts[-1]
    return [min(ts) for ts in times]


def split_games(data):
    """The games of a PGN file as strings, cut before each tag section (for the binding,
    which takes one string a game)."""
    text = data.decode("utf-8", errors="replace").replace("\r\n", "\n")
    return [g for g in re.split(r"\n\n(?=\[)", text) if g.strip()]


def reading(paths, oracle_games):
    rows = []
    for path in paths:
        name = os.path.basename(path)
        table = chessbits.read_games(path, moves="codes")
        games = table.num_rows
        size = os.path.getsize(path) / 1e6
        row = {"file": name, "games": games, "MB": size}
        for moves in ["codes", "uci", "san"]:
            t = best_of(lambda: chessbits.read_games(path, moves=moves, threads=1))
            row[f"chessbits {moves}"] = games / t
        cores = os.cpu_count()
        t = best_of(lambda: chessbits.read_games(path, moves="uci", threads=cores))
        row[f"chessbits uci {cores}t"] = games / t
        try:
            import chess.pgn

            def oracle():
                with open(path, encoding="utf-8", errors="replace") as f:
                    for _ in range(oracle_games):
                        if chess.pgn.read_game(f) is None:
                            break

            n = min(games, oracle_games)
            row["python-chess"] = n / best_of(oracle, 1)
        except ImportError:
            pass
        try:
            import pyarrow as pa
            import rust_pgn_reader_python_binding as binding

            with open(path, "rb") as f:
                data = f.read()
            t_split = best_of(lambda: split_games(data))
            strings = pa.chunked_array([pa.array(split_games(data))])
            parsed = binding.parse_games(strings, num_threads=1)
            if parsed.num_games != games:
                raise SystemExit(f"{name}: the binding read {parsed.num_games} games, chessbits {games}")
            for threads in [1, os.cpu_count()]:
                t = best_of(lambda: binding.parse_games(strings, num_threads=threads))
                row[f"binding {threads}t"] = games / t
                row[f"binding {threads}t + split"] = games / (t + t_split)
        except ImportError:
            pass
        rows.append(row)
    return rows


def board_ops(paths, positions=2000):
    """Per call, over positions of the first file's games: legal moves, push+pop, SAN."""
    fens, moves = [], []
    for m_list in chessbits.read_games(paths[0]).column("moves").to_pylist():
        board = chessbits.Board()
        for m in m_list:
            fens.append(board.fen())
            moves.append(m)
            board.push_uci(m)
            if len(fens) >= positions:
                break
        if len(fens) >= positions:
            break
    out = {}
    ours = [chessbits.Board(f) for f in fens]
    ours_moves = [chessbits.Move.from_uci(m) for m in moves]

    def cb_legal():
        for b in ours:
            b.legal_moves

    def cb_push_pop():
        for b, m in zip(ours, ours_moves):
            b.push(m)
            b.pop()

    def cb_san():
        for b, m in zip(ours, ours_moves):
            b.san(m)

    out["chessbits"] = [best_of(f) / len(fens) * 1e9 for f in (cb_legal, cb_push_pop, cb_san)]
    try:
        import chess

        theirs = [chess.Board(f) for f in fens]
        theirs_moves = [chess.Move.from_uci(m) for m in moves]

        def pc_legal():
            for b in theirs:
                list(b.legal_moves)

        def pc_push_pop():
            for b, m in zip(theirs, theirs_moves):
                b.push(m)
                b.pop()

        def pc_san():
            for b, m in zip(theirs, theirs_moves):
                b.san(m)

        out["python-chess"] = [best_of(f) / len(fens) * 1e9 for f in (pc_legal, pc_push_pop, pc_san)]
    except ImportError:
        pass
    try:
        import bulletchess

        bullet = [bulletchess.Board.from_fen(f) for f in fens]
        bullet_moves = [bulletchess.Move.from_uci(m) for m in moves]

        def bc_legal():
            for b in bullet:
                b.legal_moves()

        def bc_push_pop():
            for b, m in zip(bullet, bullet_moves):
                b.apply(m)
                b.undo()

        def bc_san():
            for b, m in zip(bullet, bullet_moves):
                m.san(b)

        out["bulletchess"] = [best_of(f) / len(fens) * 1e9 for f in (bc_legal, bc_push_pop, bc_san)]
    except ImportError:
        pass
    return len(fens), out


def features(paths):
    rows = []
    for path in paths:
        name = os.path.basename(path)
        n = len(chessbits.game_positions(path)["turn"])
        t = best_of(lambda: chessbits.game_positions(path))
        # The masks take 4 KiB a position: measured on files of up to 300,000 positions.
        t_legal = n < 300_000 and best_of(lambda: chessbits.game_positions(path, legal_moves=True))
        arrays = chessbits.game_positions(path)
        t_planes = best_of(lambda: chessbits.to_planes(arrays["bitboards"]))
        rows.append((name, n, n / t, t_legal and n / t_legal, n / t_planes))
    fens = []
    for m_list in chessbits.read_games(paths[0]).column("moves").to_pylist()[:300]:
        board = chessbits.Board()
        for m in m_list:
            board.push_uci(m)
            fens.append(board.fen())
    t_fens = best_of(lambda: chessbits.fens_to_arrays(fens))
    return rows, (len(fens), len(fens) / t_fens)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--oracle-games", type=int, default=1000)
    args = parser.parse_args()
    import platform

    versions = [f"Python {platform.python_version()}", f"chessbits {chessbits.__version__}"]
    for module in ["chess", "rust_pgn_reader_python_binding", "bulletchess", "pyarrow", "numpy"]:
        try:
            from importlib.metadata import version

            versions.append(f"{module} {version(module.replace('_', '-'))}")
        except Exception:
            versions.append(f"{module} not installed")
    print("; ".join(versions), f"; {os.cpu_count()} cores\n")

    rows = reading(args.paths, args.oracle_games)
    cols = [c for c in rows[0] if c not in ("file", "games", "MB")]
    print("| file | games | MB | " + " | ".join(cols) + " |")
    print("|---|---:|---:|" + "---:|" * len(cols))
    for r in rows:
        cells = " | ".join(f"{r[c]:,.0f}" if c in r else "-" for c in cols)
        print(f"| {r['file']} | {r['games']:,} | {r['MB']:.1f} | {cells} |")
    print("\n(games per second; `+ split` counts cutting the file into game strings in Python)\n")
    for r in rows:
        base = r.get("python-chess")
        if base:
            ratios = ", ".join(f"{c} {r[c] / base:,.0f}x" for c in cols if c != "python-chess" and c in r)
            print(f"- {r['file']}: against python-chess: {ratios}")
    print()

    n, ops = board_ops(args.paths)
    print(f"| library ({n:,} positions) | legal moves | push + pop | SAN |")
    print("|---|---:|---:|---:|")
    for lib, (legal, push, san) in ops.items():
        print(f"| {lib} | {legal:,.0f} ns | {push:,.0f} ns | {san:,.0f} ns |")
    print()

    rows, (nf, fen_rate) = features(args.paths)
    print("| file | positions | game_positions | with legal masks | to_planes |")
    print("|---|---:|---:|---:|---:|")
    for name, n, a, b, c in rows:
        masks = f"{b:,.0f}/s" if b else "-"
        print(f"| {name} | {n:,} | {a:,.0f}/s | {masks} | {c:,.0f}/s |")
    print(f"\nfens_to_arrays: {nf:,} FENs at {fen_rate:,.0f}/s")


if __name__ == "__main__":
    main()
