"""`chessbits serve` in a real browser (headless Chromium driven by Playwright), as a user
uses it (issue 45): play 1. e4 e5 2. Nf3 by clicking, check the explorer table against
`chessbits index explore`, open a game and step through it, paste a bad FEN and see the error,
and keep a screenshot under target/.

    python crates/cli/tests/browser.py path/to/chessbits [--chromium /usr/bin/chromium]

Run by .ci/run, which installs Debian's chromium and Playwright first.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from playwright.sync_api import sync_playwright

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SAMPLE = os.path.join(ROOT, "testdata", "games", "lichess-2021-10-sample.pgn")


def square_center(name, flipped=False):
    """The pixel at the middle of a square of the 480-pixel board."""
    file, rank = "abcdefgh".index(name[0]), int(name[1]) - 1
    if flipped:
        return (7 - file) * 60 + 30, rank * 60 + 30
    return file * 60 + 30, (7 - rank) * 60 + 30


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--screenshot", default=os.path.join(ROOT, "target", "explorer.png"))
    args = parser.parse_args()
    tmp = tempfile.mkdtemp()
    index = os.path.join(tmp, "sample.cbx")
    subprocess.run([args.binary, "index", "build", SAMPLE, "-o", index, "-q"], check=True)
    server = subprocess.Popen(
        [args.binary, "serve", index, "--port", "0", "-q"], stderr=subprocess.PIPE, text=True
    )
    try:
        line = server.stderr.readline()
        url = "http://" + line.split("http://")[1].split()[0]
        run(url, index, args)
    finally:
        server.kill()
        server.wait()
    print("browser test passed; screenshot:", args.screenshot)


def explore_cli(binary, index, moves):
    out = subprocess.run(
        [binary, "index", "explore", index, "--moves", moves, "--json"],
        check=True,
        capture_output=True,
        text=True,
    )
    return [(row["san"] or "(game ends)", row["games"]) for row in json.loads(out.stdout)]


def launch(p, args, tries=3):
    """Chromium, started again if it dies while starting: on the CI machine it once crashed
    (SIGSEGV) at launch, before any page, right after the wheel's build, and passed three runs
    out of three alone. A crash after launch is still a failure."""
    for attempt in range(1, tries + 1):
        try:
            return p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        except Exception as e:  # playwright's TargetClosedError, and its kin
            if attempt == tries:
                raise
            print(f"chromium did not start (try {attempt} of {tries}): {str(e).splitlines()[0]}")
            time.sleep(2)


def run(url, index, args):
    with sync_playwright() as p:
        browser = launch(p, args)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        requests = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(url)
        page.wait_for_selector("#explore tbody tr")
        board = page.locator("#board")
        for (src, dst), san in zip([("e2", "e4"), ("e7", "e5"), ("g1", "f3")], ["e4", "e5", "Nf3"]):
            for square in (src, dst):
                x, y = square_center(square)
                board.click(position={"x": x, "y": y})
            page.wait_for_function(
                "(san) => [...document.querySelectorAll('#line .mv')].some((m) => m.textContent === san)",
                arg=san,
            )
        page.wait_for_function("() => document.querySelector('#fen').value.includes(' b KQkq - 1 2')")
        page.wait_for_timeout(300)
        rows = page.eval_on_selector_all(
            "#explore tbody tr",
            "rows => rows.map(r => [r.cells[0].textContent.trim(), Number(r.cells[1].textContent.replace(/,/g, ''))])",
        )
        expected = explore_cli(args.binary, index, "e2e4 e7e5 g1f3")
        assert [tuple(r) for r in rows] == expected, (rows, expected)
        assert page.input_value("#fen") == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        os.makedirs(os.path.dirname(args.screenshot), exist_ok=True)
        page.screenshot(path=args.screenshot, full_page=True)
        # Open the first game that reached the position and step through it.
        page.click("#games tbody tr:first-child td:first-child")
        page.wait_for_function("() => document.querySelector('#gameinfo').textContent.includes('Game ')")
        before = page.eval_on_selector("#line .mv.cur", "m => Number(m.dataset.ply)")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "(ply) => Number(document.querySelector('#line .mv.cur').dataset.ply) === ply", arg=before + 2
        )
        page.keyboard.press("Home")
        page.wait_for_function("() => document.querySelector('#line .mv.cur') === null")
        # A promotion: the page asks which piece in a chooser of its own; Escape cancels.
        page.fill("#fen", "8/1P6/8/8/8/8/8/K1k5 w - - 0 1")
        page.click("#setfen")
        page.wait_for_function("() => document.querySelector('#fen').value.startsWith('8/1P6/')")
        for attempt in ("cancel", "knight"):
            for square in ("b7", "b8"):
                x, y = square_center(square)
                board.click(position={"x": x, "y": y})
            page.wait_for_selector("#promotion", state="visible")
            pieces = page.eval_on_selector_all("#promotion button", "b => b.map(x => x.dataset.promotion)")
            assert pieces == ["q", "r", "b", "n"], pieces
            if attempt == "cancel":
                page.keyboard.press("Escape")
                page.wait_for_selector("#promotion", state="hidden")
                assert page.input_value("#fen").startswith("8/1P6/")
            else:
                page.click("#promotion button[data-promotion=n]")
        page.wait_for_function("() => document.querySelector('#fen').value.startsWith('1N6/8/')")
        assert "b8=N" in page.eval_on_selector("#line", "l => l.textContent")
        # A bad FEN: a clear message on the page, and the board as it was.
        page.fill("#fen", "not a fen")
        page.click("#setfen")
        page.wait_for_function("() => document.querySelector('#error').textContent.includes('bad FEN')")
        assert not errors, errors
        outside = [r for r in requests if not r.startswith(url)]
        assert not outside, outside
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
