"""How long `chessbits serve` takes to answer a click: the page's three requests (position,
explore, find with limit 20) for each position along the openings of real games, as a user
clicking through them would ask. Prints the p50, p90, p99 and max of a click (the three
requests at once, as the page sends them) in milliseconds.

    python crates/cli/bench/serve_latency.py http://127.0.0.1:8080 GAMES.pgn [--games 200] [--plies 16]
"""

import argparse
import concurrent.futures
import re
import time
import urllib.parse
import urllib.request


def lines_of(path, games, plies):
    """UCI lines of the first `games` games, from the CLI-free text: SAN is sent as `san`."""
    text = open(path, encoding="utf-8", errors="replace").read()
    out = []
    for block in re.split(r"\n\n(?=\[)", text):
        moves = block.partition("\n\n")[2]
        moves = re.sub(r"\{[^}]*\}", " ", moves)
        tokens = [t for t in moves.split() if not re.match(r"^(\d+\.+|1-0|0-1|1/2-1/2|\*)$", t)]
        tokens = [re.sub(r"^\d+\.+", "", t) for t in tokens]
        if tokens:
            out.append(tokens[:plies])
        if len(out) >= games:
            break
    return out


def get(url):
    with urllib.request.urlopen(url) as response:
        return response.read()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("pgn")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--plies", type=int, default=16)
    args = parser.parse_args()
    clicks = []
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        for sans in lines_of(args.pgn, args.games, args.plies):
            for n in range(len(sans) + 1):
                q = urllib.parse.urlencode({"san": " ".join(sans[:n])})
                start = time.perf_counter()
                try:
                    list(pool.map(get, [f"{args.url}/api/position?{q}", f"{args.url}/api/explore?{q}", f"{args.url}/api/find?{q}&limit=20"]))
                except Exception:
                    break  # a move the position endpoint refuses (a variant game): next game
                clicks.append((time.perf_counter() - start) * 1000)
    clicks.sort()
    pick = lambda p: clicks[min(len(clicks) - 1, int(p * len(clicks)))]
    print(f"{len(clicks)} clicks: p50 {pick(0.5):.1f} ms, p90 {pick(0.9):.1f} ms, p99 {pick(0.99):.1f} ms, max {clicks[-1]:.1f} ms")


if __name__ == "__main__":
    main()
