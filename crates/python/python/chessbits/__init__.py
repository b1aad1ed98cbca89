"""chessbits: chess at Rust speed for Python.

- ``read_games`` / ``iter_games``: PGN (or ``.cbg``) to a ``pyarrow.Table`` / ``RecordBatch``es
  in the schema of ``chessbits export``, every move validated.
- ``Board`` and ``Move``: python-chess's names (``push_san``, ``legal_moves``, ``outcome()``...).
- ``game_positions`` / ``fens_to_arrays``: many positions as NumPy arrays for model training;
  ``to_planes`` turns bitboards into ``N x 12 x 8 x 8`` planes.
- ``encode_position`` / ``decode_position`` (``packed``, ``compact``), ``encode_moves`` /
  ``decode_moves`` (the model move codec), ``write_cbg`` (``.cbg`` files).
- Errors: ``ChessbitsError`` (a ``ValueError``) and one subclass per kind.
"""

from __future__ import annotations

import copyreg
import typing
import enum
import os
from typing import Any, BinaryIO, Dict, Iterator, Optional, Sequence, TextIO, Tuple, Union

import numpy as np
import pyarrow as pa
import pyarrow.ipc

from . import _chessbits
from ._chessbits import (
    STARTING_FEN,
    AmbiguousMoveError,
    Board,
    CbgError,
    ChessbitsError,
    DecodeError,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    LegalMoves,
    Move,
    Outcome,
    PgnError,
    Piece,
    PositionError,
    SquareSet,
    decode_moves,
    decode_position,
    encode_moves,
    encode_position,
)

__version__: str = _chessbits.__version__

__all__ = [
    "STARTING_FEN",
    "AmbiguousMoveError",
    "Board",
    "CbgError",
    "ChessbitsError",
    "DecodeError",
    "FenError",
    "IllegalMoveError",
    "Index",
    "InvalidMoveError",
    "LegalMoves",
    "Move",
    "Outcome",
    "PgnError",
    "Piece",
    "PositionError",
    "SquareSet",
    "Termination",
    "WHITE",
    "BLACK",
    "COLORS",
    "COLOR_NAMES",
    "PAWN",
    "KNIGHT",
    "BISHOP",
    "ROOK",
    "QUEEN",
    "KING",
    "PIECE_TYPES",
    "PIECE_SYMBOLS",
    "PIECE_NAMES",
    "FILE_NAMES",
    "RANK_NAMES",
    "SQUARES",
    "SQUARE_NAMES",
    "STATUS_VALID",
    "STATUS_NO_WHITE_KING",
    "STATUS_NO_BLACK_KING",
    "STATUS_TOO_MANY_KINGS",
    "STATUS_TOO_MANY_WHITE_PAWNS",
    "STATUS_TOO_MANY_BLACK_PAWNS",
    "STATUS_PAWNS_ON_BACKRANK",
    "STATUS_TOO_MANY_WHITE_PIECES",
    "STATUS_TOO_MANY_BLACK_PIECES",
    "STATUS_BAD_CASTLING_RIGHTS",
    "STATUS_INVALID_EP_SQUARE",
    "STATUS_OPPOSITE_CHECK",
    "STATUS_EMPTY",
    "STATUS_TOO_MANY_CHECKERS",
    "STATUS_IMPOSSIBLE_CHECK",
    "STATUS_RACE_CHECK",
    "STATUS_RACE_OVER",
    "STATUS_RACE_MATERIAL",
    "Status",
    "square",
    "square_file",
    "square_rank",
    "square_name",
    "parse_square",
    "piece_symbol",
    "piece_name",
    "decode_moves",
    "decode_position",
    "encode_moves",
    "encode_position",
    "fens_to_arrays",
    "from_chess",
    "build_index",
    "game_positions",
    "iter_games",
    "read_games",
    "to_chess",
    "to_planes",
    "write_cbg",
]

Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, BinaryIO, TextIO]
# A chessbits ``Move``, or python-chess's ``chess.Move`` (read by its three attributes).
MoveLike = Any
# A chessbits ``Piece``, or python-chess's ``chess.Piece`` (read by ``piece_type`` and ``color``).
PieceLike = Any

# python-chess's constants, with its values, so that ``chess.E4 == chessbits.E4`` and a
# script can take either module's names.
WHITE: bool = True
BLACK: bool = False
COLORS = [WHITE, BLACK]
COLOR_NAMES = ["black", "white"]
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
PIECE_TYPES = [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING]
PIECE_SYMBOLS = [None, "p", "n", "b", "r", "q", "k"]
PIECE_NAMES = [None, "pawn", "knight", "bishop", "rook", "queen", "king"]
FILE_NAMES = ["a", "b", "c", "d", "e", "f", "g", "h"]
RANK_NAMES = ["1", "2", "3", "4", "5", "6", "7", "8"]
SQUARES = list(range(64))
SQUARE_NAMES = [f + r for r in RANK_NAMES for f in FILE_NAMES]


class Status(enum.IntFlag):
    """What is wrong with a board, as python-chess's ``chess.Status`` flags (the same names and
    values; ``Board.status()`` returns one, ``VALID`` when nothing is). The ``RACE_*`` flags
    are python-chess's Racing Kings variant's, never set here."""

    VALID = 0
    NO_WHITE_KING = 1 << 0
    NO_BLACK_KING = 1 << 1
    TOO_MANY_KINGS = 1 << 2
    TOO_MANY_WHITE_PAWNS = 1 << 3
    TOO_MANY_BLACK_PAWNS = 1 << 4
    PAWNS_ON_BACKRANK = 1 << 5
    TOO_MANY_WHITE_PIECES = 1 << 6
    TOO_MANY_BLACK_PIECES = 1 << 7
    BAD_CASTLING_RIGHTS = 1 << 8
    INVALID_EP_SQUARE = 1 << 9
    OPPOSITE_CHECK = 1 << 10
    EMPTY = 1 << 11
    RACE_CHECK = 1 << 12
    RACE_OVER = 1 << 13
    RACE_MATERIAL = 1 << 14
    TOO_MANY_CHECKERS = 1 << 15
    IMPOSSIBLE_CHECK = 1 << 16


# ``Board.status()`` flags by python-chess's names: ``STATUS_VALID`` is ``Status.VALID`` ...
STATUS_VALID = Status.VALID
STATUS_NO_WHITE_KING = Status.NO_WHITE_KING
STATUS_NO_BLACK_KING = Status.NO_BLACK_KING
STATUS_TOO_MANY_KINGS = Status.TOO_MANY_KINGS
STATUS_TOO_MANY_WHITE_PAWNS = Status.TOO_MANY_WHITE_PAWNS
STATUS_TOO_MANY_BLACK_PAWNS = Status.TOO_MANY_BLACK_PAWNS
STATUS_PAWNS_ON_BACKRANK = Status.PAWNS_ON_BACKRANK
STATUS_TOO_MANY_WHITE_PIECES = Status.TOO_MANY_WHITE_PIECES
STATUS_TOO_MANY_BLACK_PIECES = Status.TOO_MANY_BLACK_PIECES
STATUS_BAD_CASTLING_RIGHTS = Status.BAD_CASTLING_RIGHTS
STATUS_INVALID_EP_SQUARE = Status.INVALID_EP_SQUARE
STATUS_OPPOSITE_CHECK = Status.OPPOSITE_CHECK
STATUS_EMPTY = Status.EMPTY
STATUS_RACE_CHECK = Status.RACE_CHECK
STATUS_RACE_OVER = Status.RACE_OVER
STATUS_RACE_MATERIAL = Status.RACE_MATERIAL
STATUS_TOO_MANY_CHECKERS = Status.TOO_MANY_CHECKERS
STATUS_IMPOSSIBLE_CHECK = Status.IMPOSSIBLE_CHECK
# The squares as constants: A1 = 0, B1 = 1, ... H8 = 63.
globals().update({name.upper(): index for index, name in enumerate(SQUARE_NAMES)})
__all__ += [name.upper() for name in SQUARE_NAMES]
STARTING_BOARD_FEN = STARTING_FEN.split(" ")[0]
UNICODE_PIECE_SYMBOLS = dict(zip("RrNnBbQqKkPp", "♖♜♘♞♗♝♕♛♔♚♙♟"))
# python-chess's bitboard masks and bit operations (``BB_E4``, ``popcount``,
# ``flip_vertical`` ...), written in ``_bitboards``.
from . import _bitboards  # noqa: E402
from ._bitboards import *  # noqa: E402,F401,F403

__all__ += ["STARTING_BOARD_FEN", "UNICODE_PIECE_SYMBOLS"]
__all__ += [name for name in vars(_bitboards) if not name.startswith("_") and name not in ("Iterator", "List")]


def square(file_index: int, rank_index: int) -> int:
    """The square of a file (0 = a) and a rank (0 = the first)."""
    return rank_index * 8 + file_index


def square_file(sq: int) -> int:
    """The file of a square, 0 (a) to 7 (h)."""
    return sq & 7


def square_rank(sq: int) -> int:
    """The rank of a square, 0 (the first) to 7."""
    return sq >> 3


def square_name(sq: int) -> str:
    """The name of a square, ``"e4"``."""
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> int:
    """The square of a name, ``"e4"``; ``ValueError`` for anything else."""
    return SQUARE_NAMES.index(name)


def piece_symbol(piece_type: int) -> str:
    """The lower-case letter of a piece type, ``"n"`` for ``KNIGHT``."""
    return typing.cast(str, PIECE_SYMBOLS[piece_type])


def piece_name(piece_type: int) -> str:
    """The name of a piece type, ``"knight"`` for ``KNIGHT``."""
    return typing.cast(str, PIECE_NAMES[piece_type])


class Termination(enum.Enum):
    """How a game ended: python-chess's ``Termination`` members, names and values
    (``Outcome.termination``). The variant members are never produced here. A member equals
    python-chess's member of the same name (``chess.Termination.CHECKMATE``), and hashes as
    it does."""

    CHECKMATE = 1
    STALEMATE = 2
    INSUFFICIENT_MATERIAL = 3
    SEVENTYFIVE_MOVES = 4
    FIVEFOLD_REPETITION = 5
    FIFTY_MOVES = 6
    THREEFOLD_REPETITION = 7
    VARIANT_WIN = 8
    VARIANT_LOSS = 9
    VARIANT_DRAW = 10

    def __eq__(self, other: object) -> bool:
        if isinstance(other, enum.Enum) and type(other).__name__ == "Termination":
            return self.name == other.name and self.value == other.value
        return NotImplemented

    # Enum's own hash (of the member's name), which python-chess's members have too.
    __hash__ = enum.Enum.__hash__


# The schema metadata key under which ``read_games(..., on_error="keep")`` notes the read
# error that ended its input early (docs/python.md).
_READ_ERROR_KEY = b"chessbits.read_error"


def _source(source: Any) -> Any:
    """A path as ``str``, bytes as ``bytes``, or a file object as it is (read a block at a
    time from Rust)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    if not callable(getattr(source, "read", None)):
        raise TypeError(
            f"source must be a path, bytes or a file object, not {type(source).__name__}"
        )
    return source


def read_games(
    source: Source,
    *,
    threads: Optional[int] = None,
    moves: str = "uci",
    keys: Union[int, str, None] = None,
    batch_games: int = 8192,
    on_error: str = "raise",
) -> pa.Table:
    """Reads every game of ``source`` into a ``pyarrow.Table``, one row a game.

    ``source`` is a path to a PGN, ``.cbg`` or lichess Parquet file (a ``str`` is always a
    path: pass PGN text as ``bytes`` or ``io.StringIO``), the bytes of one, or a binary (or
    text) file object, read a block at a time (a Parquet one whole, first); PGN compressed with zstd, gzip or bzip2 (lichess's
    ``.pgn.zst``) is recognised by its first bytes and read as it is. The columns are those of ``chessbits export``
    (``docs/formats.md``) plus ``error``: ``None`` for a game that read, else where and why
    (line, column, byte, what is wrong) for a game that did not, whose row keeps its number
    and the tags read before the failure, with ``plies`` 0 and no moves. ``moves`` is ``"uci"`` or ``"san"`` (a list of strings per game) or
    ``"codes"`` (the model move codec's bytes, exactly as the export writes them). ``keys``
    is the number of plies whose Polyglot keys the ``keys`` column holds (40 by default) or
    ``"all"``. ``threads`` is the number of threads that read a PGN path or bytes, the calling
    one among them (``None``: all cores; the table is the same for every number); file
    objects and ``.cbg`` files are read on one thread. ``batch_games`` (at least 1) bounds the
    rows of each of the table's record batches.

    A file that cannot be read on (a truncated ``.zst``) raises ``OSError`` naming the
    compressed byte reached (``on_error="raise"``); with ``on_error="keep"`` the table holds
    every game read before the error, and its schema metadata holds the error's message
    under ``b"chessbits.read_error"`` (absent when the input was read to its end). A ``.cbg``
    file damaged as a file, not in one game's record (cut short, an index record that does
    not match its game records, bytes after its trailer), raises ``CbgError`` once every game
    it holds is read, and ``on_error="keep"`` keeps them the same way: no row stands for the
    file's error, as in ``chessbits export``. Binary bytes that are none of these (a NUL or
    many control bytes in the first 4 KiB) raise ``ChessbitsError``, as ``chessbits export``
    refuses such a file.
    """
    stream, read_error = _chessbits.read_games_batches(
        _source(source),
        moves=moves,
        keys=keys,
        batch_games=batch_games,
        threads=threads,
        on_error=on_error,
    )
    # The Arrow PyCapsule interface: pyarrow takes the buffers Rust allocated, no copy, every
    # batch in one call.
    table = pa.RecordBatchReader.from_stream(stream).read_all()
    if read_error is not None:
        metadata = dict(table.schema.metadata or {})
        metadata[_READ_ERROR_KEY] = read_error.encode()
        table = table.replace_schema_metadata(metadata)
    return table


def iter_games(
    source: Source,
    *,
    threads: Optional[int] = None,
    moves: str = "uci",
    keys: Union[int, str, None] = None,
    batch_games: int = 8192,
) -> pa.RecordBatchReader:
    """Reads ``source`` as ``read_games`` does, a ``pyarrow.RecordBatch`` of at most
    ``batch_games`` games at a time: for inputs larger than memory (a path or a file
    object). On several threads, a batch holds at most one chunk of the input (about a
    megabyte of PGN). A read error (a truncated ``.zst``: ``OSError``; a damaged ``.cbg``
    file: ``CbgError``) is raised only after every batch read before it has been yielded, so
    a loop keeps those games."""
    reader = _chessbits.BatchReader(
        _source(source), moves=moves, keys=keys, batch_games=batch_games, threads=threads
    )
    batches = (pa.record_batch(batch) for batch in reader)
    return pa.RecordBatchReader.from_batches(pa.schema(reader.schema()), batches)


def _arrays(columns: Dict[str, Any]) -> Dict[str, np.ndarray]:
    return {
        name: np.frombuffer(data, dtype=np.dtype(dtype)).reshape(shape)
        for name, (data, dtype, shape) in columns.items()
    }


def fens_to_arrays(fens: Sequence[str], *, legal_moves: bool = False) -> Dict[str, np.ndarray]:
    """The positions of ``fens`` as NumPy arrays, one row a position.

    - ``bitboards``: ``uint64 (N, 12)``, white P N B R Q K then black's; bit ``i`` is square
      ``i`` (a1 = 0, h8 = 63), as python-chess numbers squares;
    - ``turn``: ``uint8 (N,)``, 1 for white to move;
    - ``castling``: ``uint8 (N,)``, bits 1 white king side, 2 white queen side, 4 black king
      side, 8 black queen side;
    - ``ep_square``: ``int8 (N,)``, the en passant square when a capture there is legal, else -1;
    - ``halfmove_clock``: ``uint32 (N,)``;
    - ``legal_moves`` (with ``legal_moves=True``): ``uint8 (N, 64, 64)``, 1 at
      ``[n, from, to]`` for each legal move (promotions share their square pair; castling is
      the king's move, ``e1g1``, in standard chess).

    Raises ``FenError`` or ``PositionError`` naming the index of the first bad FEN, and
    ``TypeError`` for one FEN given alone (a string, which would be read as its characters).
    """
    if isinstance(fens, (str, bytes)):
        raise TypeError("fens must be a sequence of FENs, not one FEN: write [fen]")
    return _arrays(_chessbits.fens_to_columns(list(fens), legal_moves=legal_moves))


def game_positions(
    source: Source,
    *,
    every: int = 1,
    sample: Optional[float] = None,
    seed: int = 0,
    legal_moves: bool = False,
    strict: bool = False,
) -> Dict[str, np.ndarray]:
    """The position before every ``every``-th move of every game of ``source`` (a path,
    bytes or file object of PGN, ``.cbg`` or lichess Parquet, a Parquet row a game), with the
    move played there, as NumPy arrays.
    With ``sample`` (a probability in (0, 1]) each of those positions is kept at random, by a
    hash of ``seed``, the game's number and the ply: the same choice on every run.
    ``legal_moves=True`` adds 4 KiB a position.

    The arrays of ``fens_to_arrays``, plus ``move_from``, ``move_to`` (``uint8``: squares),
    ``move_promotion`` (``uint8``: 0, or the piece type 2 knight .. 5 queen), ``game``
    (``int64``: the game's number in its input, from 1) and ``ply`` (``uint32``: plies played
    before the position). Null moves are left out. Games that do not read are skipped, or
    raise ``PgnError`` with ``strict=True``. An input that cannot be read to its end raises
    (a truncated ``.zst``: ``OSError``; a ``.cbg`` file damaged as a file: ``CbgError``).
    """
    return _arrays(
        _chessbits.game_columns(
            _source(source),
            every=every,
            sample=sample,
            seed=seed,
            legal_moves=legal_moves,
            strict=strict,
        )
    )


def to_planes(bitboards: np.ndarray) -> np.ndarray:
    """Bitboards ``uint64 (N, 12)`` as ``uint8 (N, 12, 8, 8)`` planes: ``planes[n, p, rank,
    file]`` is 1 when piece ``p`` stands on that square (rank 0 is the first rank).

    Raises ``TypeError`` for an array that is not of unsigned or signed 64-bit integers (a
    float array would have lost the high bits of its bitboards) and ``ValueError`` for one
    whose shape is not ``(N, 12)``."""
    bitboards = np.asarray(bitboards)
    if bitboards.dtype.kind not in "ui" or bitboards.dtype.itemsize != 8:
        raise TypeError(f"bitboards must be uint64 (or int64), not {bitboards.dtype}")
    if bitboards.ndim != 2 or bitboards.shape[1] != 12:
        raise ValueError(f"bitboards must have the shape (N, 12), not {bitboards.shape}")
    bitboards = np.ascontiguousarray(bitboards.astype("<u8", copy=False))
    bits = np.unpackbits(bitboards.view(np.uint8), bitorder="little")
    return bits.reshape(bitboards.shape + (8, 8))


def write_cbg(
    source: Source, path: Union[str, "os.PathLike[str]"], *, codec: str = "model"
) -> Tuple[int, int]:
    """Writes the games of ``source`` (PGN, ``.cbg`` or lichess Parquet, a row a game: a path,
    bytes or a file object) to the ``.cbg`` file ``path``, their mainlines coded
    by ``codec`` (``"model"`` or ``"index"``).
    Returns ``(written, failed)``; games that do not read are left out. Read the file back
    with ``read_games(path)``. An input that cannot be read to its end raises (a truncated
    ``.zst``: ``OSError``; a ``.cbg`` file damaged as a file: ``CbgError``), leaving ``path``
    without its trailer. A ``path`` that is the source's file raises ``ValueError`` before
    anything is read or written."""
    return _chessbits.write_cbg(_source(source), os.fspath(path), codec=codec)


class Index:
    """A position index (``.cbx``, written by ``build_index`` or ``chessbits index build``):
    which games reached a position, by any move order, and what was played from it.

    The position is a FEN (``fen=``) or UCI moves from the start (``moves="e2e4 e7e5"``; the
    start position if neither is given). A position is the same when its Polyglot key's
    fields match: placement, side to move, castling rights, and the en passant square where a
    pawn stands ready to take. The filters: ``result`` (``"1-0,1/2-1/2"``), ``since`` and
    ``until`` (months, ``"YYYY-MM"``), ``min_rating`` and ``max_rating`` (the players'
    average rating by lichess's bands: each one of 0, 1000, 1200, ..., 2200, 2500, else a
    ``ValueError``; a maximum takes its whole band, 2000 reaching 2199), ``speed`` (``"blitz,rapid"``). Answers are exact:
    each candidate game is replayed to the position (docs/formats.md)."""

    def __init__(self, path: Union[str, "os.PathLike[str]"]) -> None:
        self._index = _chessbits._Index(os.fspath(path))

    @property
    def games(self) -> int:
        """The games in the index."""
        return int(self._index.games)

    def find(
        self,
        fen: Optional[str] = None,
        *,
        moves: Optional[str] = None,
        result: Optional[str] = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
        min_rating: Optional[int] = None,
        max_rating: Optional[int] = None,
        speed: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> pa.Table:
        """The games that reach the position, in input order, at most ``limit`` of them: a
        table with ``game`` (its number in the input), ``ply`` (the first ply where it
        reaches the position), ``white``, ``black``, ``result``, ``date``, ``white_elo``,
        ``black_elo``, ``speed`` and ``event``."""
        data = self._index.find_ipc(
            fen, moves, result, since, until, min_rating, max_rating, speed, limit
        )
        return pa.ipc.open_stream(pa.py_buffer(data)).read_all()

    def explore(
        self,
        fen: Optional[str] = None,
        *,
        moves: Optional[str] = None,
        result: Optional[str] = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
        min_rating: Optional[int] = None,
        max_rating: Optional[int] = None,
        speed: Optional[str] = None,
    ) -> pa.Table:
        """The moves played from the position, one row a move, most played first, and a last
        row with ``uci`` and ``san`` null for the games that end there: ``uci``, ``san``,
        ``games``, ``white``, ``draws``, ``black``, ``average_rating``, ``last_date``. A game
        counts once, with the move played after its first arrival."""
        data = self._index.explore_ipc(
            fen, moves, result, since, until, min_rating, max_rating, speed
        )
        return pa.ipc.open_stream(pa.py_buffer(data)).read_all()


def build_index(
    sources: Union[Source, Sequence[Source]],
    output: Union[str, "os.PathLike[str]"],
    *,
    max_ply: Optional[int] = None,
    memory: int = 1024,
    threads: Optional[int] = None,
) -> Dict[str, int]:
    """Builds a position index of the games of ``sources`` (one or a list of paths, bytes or
    file objects of PGN, plain or compressed, ``.cbg``, or lichess Parquet) at ``output``,
    numbering games across the sources; at most ``max_ply`` plies a game (default: all),
    sorting in at most ``memory`` MiB. PGN from a path or bytes is read on ``threads``
    workers (default: every core) with the GIL released. The file is written under a
    temporary name and renamed once whole; the same bytes at every thread count. Returns
    ``{"games": ..., "skipped": ..., "bytes": ...}``. An input that cannot be read to its end
    raises (a truncated ``.zst``: ``OSError``; a ``.cbg`` file damaged as a file:
    ``CbgError``; binary bytes: ``ChessbitsError``), and no index is written; so does an
    ``output`` that is one of the sources' files (``ValueError``), before anything is read."""
    if isinstance(sources, (list, tuple)):
        items = [_source(s) for s in sources]
    else:
        items = [_source(sources)]
    games, skipped, size = _chessbits.build_index(
        items, os.fspath(output), max_ply=max_ply, memory=memory, threads=threads
    )
    return {"games": games, "skipped": skipped, "bytes": size}


def to_chess(board: Board) -> Any:
    """The same game as a ``chess.Board`` (python-chess must be installed): the start
    position and every move, so repetitions and ``move_stack`` carry over."""
    import chess

    out = chess.Board(board.root().fen(en_passant="fen"), chess960=board.chess960)
    for move in board.move_stack:
        out.push(chess.Move.from_uci(move.uci()))
    return out


def from_chess(board: Any) -> Board:
    """The same game as a ``chessbits.Board``, from a ``chess.Board``: its root position and
    its move stack, replayed (every move checked)."""
    root = board.root()
    out = Board(root.fen(en_passant="fen"), chess960=board.chess960)
    for move in board.move_stack:
        out.push_uci(move.uci())
    return out


def _move_from_uci(uci: str) -> Move:
    return Move.from_uci(uci)


def _board_from_moves(fen: str, moves: Sequence[str], chess960: bool) -> Board:
    board = Board(fen, chess960=chess960)
    for uci in moves:
        board.push_uci(uci)
    return board


def _reduce_move(move: Move) -> Any:
    return _move_from_uci, (move.uci(),)


def _board_from_fields(
    board_fen: str,
    turn: bool,
    castling_rights: int,
    ep_square: Optional[int],
    halfmove_clock: int,
    fullmove_number: int,
    chess960: bool,
    moves: Sequence[str] = (),
) -> Board:
    board = Board(None, chess960=chess960)
    board.set_board_fen(board_fen)
    board.turn = turn
    board.castling_rights = castling_rights
    board.ep_square = ep_square
    board.halfmove_clock = halfmove_clock
    board.fullmove_number = fullmove_number
    for uci in moves:
        board.push_uci(uci)
    return board


def _reduce_board(board: Board) -> Any:
    moves = [m.uci() for m in board.move_stack]
    root = board.root()
    if root.status() == STATUS_VALID:
        return _board_from_moves, (root.fen(en_passant="fen"), moves, board.chess960)
    # A start set up piece by piece, field by field: so that one Board(fen) refuses (a pawn on
    # a back rank) or with castling rights and an en passant square set wrong comes back as
    # it was set.
    fields = (root.board_fen(), root.turn, root.castling_rights, root.ep_square)
    clocks = (root.halfmove_clock, root.fullmove_number, board.chess960)
    return _board_from_fields, fields + clocks + (moves,)


# Moves and boards pickle (for multiprocessing and data loaders): a board as its start
# position and moves, so its history and repetitions come back too.
copyreg.pickle(Move, _reduce_move)
copyreg.pickle(Board, _reduce_board)
copyreg.pickle(Piece, lambda piece: (Piece, (piece.piece_type, piece.color)))
copyreg.pickle(SquareSet, lambda squares: (SquareSet, (int(squares),)))
