"""Shared test data: the repository's PGN sample, and optionally more files named by
CHESSBITS_CORPUS (paths separated by os.pathsep) for the oracle tests."""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "testdata" / "games" / "lichess-2021-10-sample.pgn"
WILD = ROOT / "crates" / "pgn" / "tests" / "data" / "wild"


def corpus_files():
    files = [SAMPLE]
    extra = os.environ.get("CHESSBITS_CORPUS")
    if extra:
        files += [pathlib.Path(p) for p in extra.split(os.pathsep) if p]
    return files


@pytest.fixture(scope="session")
def sample_path():
    return SAMPLE


@pytest.fixture(scope="session")
def sample_bytes():
    return SAMPLE.read_bytes()
