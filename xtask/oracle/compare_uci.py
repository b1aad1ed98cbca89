#!/usr/bin/env python3
"""Compares `chessbits pgn FILES --to uci` output with pgn_to_uci.py's on the same files.

Usage: compare_uci.py CHESSBITS_OUT PYTHON_CHESS_OUT

Games must agree one by one on the final FEN and the UCI moves, or both be errors. python-chess
ends a game at a blank line after its tags, so a game written as tags, two blank lines and
movetext is two games there (a tag-only game at the start position, then the moves): such a
pair is matched with our one game and counted.
"""
import sys

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
ours = [line.rstrip("\n").split("\t")[1:] for line in open(sys.argv[1])]
theirs = [line.rstrip("\n").split("\t") for line in open(sys.argv[2])]


def same(a, b):
    return (a[0] == "error" and b[0] == "error") or a[:2] == b[:2]


j = mismatches = moves = split = errors = 0
for k, a in enumerate(ours):
    b = theirs[j] if j < len(theirs) else ["missing", ""]
    if not same(a, b) and b[:2] == [START, ""] and j + 1 < len(theirs) and same(a, theirs[j + 1]):
        split += 1
        j += 1
        b = theirs[j]
    if not same(a, b):
        mismatches += 1
        if mismatches <= 10:
            print("game %d: chessbits %s, python-chess %s" % (k + 1, a[:2], b[:2]))
    elif a[0] == "error":
        errors += 1
    else:
        moves += len(a[1].split())
    j += 1
print("%d games, %d split by python-chess, %d errors on both sides, %d moves, %d mismatches"
      % (len(ours), split, errors, moves, mismatches))
sys.exit(1 if mismatches else 0)
