"""Typed stubs of the chessbits package (see ``__init__.py`` and ``docs/python.md``)."""

import enum
import os
from typing import Any, Callable, ClassVar, Literal, BinaryIO, Dict, Iterable, Iterator, List, Optional, Sequence, TextIO, Tuple, Union, final

import numpy as np
import pyarrow as pa

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
    "decode_moves",
    "decode_position",
    "encode_moves",
    "encode_position",
    "fens_to_arrays",
    "build_index",
    "from_chess",
    "game_positions",
    "iter_games",
    "read_games",
    "to_chess",
    "to_planes",
    "write_cbg",
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
    "BB_EMPTY",
    "BB_ALL",
    "BB_SQUARES",
    "BB_A1",
    "BB_B1",
    "BB_C1",
    "BB_D1",
    "BB_E1",
    "BB_F1",
    "BB_G1",
    "BB_H1",
    "BB_A2",
    "BB_B2",
    "BB_C2",
    "BB_D2",
    "BB_E2",
    "BB_F2",
    "BB_G2",
    "BB_H2",
    "BB_A3",
    "BB_B3",
    "BB_C3",
    "BB_D3",
    "BB_E3",
    "BB_F3",
    "BB_G3",
    "BB_H3",
    "BB_A4",
    "BB_B4",
    "BB_C4",
    "BB_D4",
    "BB_E4",
    "BB_F4",
    "BB_G4",
    "BB_H4",
    "BB_A5",
    "BB_B5",
    "BB_C5",
    "BB_D5",
    "BB_E5",
    "BB_F5",
    "BB_G5",
    "BB_H5",
    "BB_A6",
    "BB_B6",
    "BB_C6",
    "BB_D6",
    "BB_E6",
    "BB_F6",
    "BB_G6",
    "BB_H6",
    "BB_A7",
    "BB_B7",
    "BB_C7",
    "BB_D7",
    "BB_E7",
    "BB_F7",
    "BB_G7",
    "BB_H7",
    "BB_A8",
    "BB_B8",
    "BB_C8",
    "BB_D8",
    "BB_E8",
    "BB_F8",
    "BB_G8",
    "BB_H8",
    "BB_FILES",
    "BB_RANKS",
    "BB_FILE_A",
    "BB_FILE_B",
    "BB_FILE_C",
    "BB_FILE_D",
    "BB_FILE_E",
    "BB_FILE_F",
    "BB_FILE_G",
    "BB_FILE_H",
    "BB_RANK_1",
    "BB_RANK_2",
    "BB_RANK_3",
    "BB_RANK_4",
    "BB_RANK_5",
    "BB_RANK_6",
    "BB_RANK_7",
    "BB_RANK_8",
    "BB_CORNERS",
    "BB_CENTER",
    "BB_LIGHT_SQUARES",
    "BB_DARK_SQUARES",
    "BB_BACKRANKS",
    "SQUARES_180",
    "BB_KNIGHT_ATTACKS",
    "BB_KING_ATTACKS",
    "BB_PAWN_ATTACKS",
    "square_distance",
    "square_manhattan_distance",
    "square_knight_distance",
    "square_mirror",
    "popcount",
    "lsb",
    "msb",
    "scan_forward",
    "scan_reversed",
    "flip_vertical",
    "flip_horizontal",
    "flip_diagonal",
    "flip_anti_diagonal",
    "shift_down",
    "shift_2_down",
    "shift_up",
    "shift_2_up",
    "shift_right",
    "shift_2_right",
    "shift_left",
    "shift_2_left",
    "shift_up_left",
    "shift_up_right",
    "shift_down_left",
    "shift_down_right",
    "between",
    "ray",
    "STARTING_BOARD_FEN",
    "UNICODE_PIECE_SYMBOLS",
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
    "A1",
    "B1",
    "C1",
    "D1",
    "E1",
    "F1",
    "G1",
    "H1",
    "A2",
    "B2",
    "C2",
    "D2",
    "E2",
    "F2",
    "G2",
    "H2",
    "A3",
    "B3",
    "C3",
    "D3",
    "E3",
    "F3",
    "G3",
    "H3",
    "A4",
    "B4",
    "C4",
    "D4",
    "E4",
    "F4",
    "G4",
    "H4",
    "A5",
    "B5",
    "C5",
    "D5",
    "E5",
    "F5",
    "G5",
    "H5",
    "A6",
    "B6",
    "C6",
    "D6",
    "E6",
    "F6",
    "G6",
    "H6",
    "A7",
    "B7",
    "C7",
    "D7",
    "E7",
    "F7",
    "G7",
    "H7",
    "A8",
    "B8",
    "C8",
    "D8",
    "E8",
    "F8",
    "G8",
    "H8",
]
__version__: str
STARTING_FEN: str

WHITE: bool
BLACK: bool
COLORS: List[bool]
COLOR_NAMES: List[str]
PAWN: int
KNIGHT: int
BISHOP: int
ROOK: int
QUEEN: int
KING: int
PIECE_TYPES: List[int]
PIECE_SYMBOLS: List[Optional[str]]
PIECE_NAMES: List[Optional[str]]
FILE_NAMES: List[str]
RANK_NAMES: List[str]
SQUARES: List[int]
SQUARE_NAMES: List[str]
BB_EMPTY: int
BB_ALL: int
BB_SQUARES: List[int]
BB_A1: int
BB_B1: int
BB_C1: int
BB_D1: int
BB_E1: int
BB_F1: int
BB_G1: int
BB_H1: int
BB_A2: int
BB_B2: int
BB_C2: int
BB_D2: int
BB_E2: int
BB_F2: int
BB_G2: int
BB_H2: int
BB_A3: int
BB_B3: int
BB_C3: int
BB_D3: int
BB_E3: int
BB_F3: int
BB_G3: int
BB_H3: int
BB_A4: int
BB_B4: int
BB_C4: int
BB_D4: int
BB_E4: int
BB_F4: int
BB_G4: int
BB_H4: int
BB_A5: int
BB_B5: int
BB_C5: int
BB_D5: int
BB_E5: int
BB_F5: int
BB_G5: int
BB_H5: int
BB_A6: int
BB_B6: int
BB_C6: int
BB_D6: int
BB_E6: int
BB_F6: int
BB_G6: int
BB_H6: int
BB_A7: int
BB_B7: int
BB_C7: int
BB_D7: int
BB_E7: int
BB_F7: int
BB_G7: int
BB_H7: int
BB_A8: int
BB_B8: int
BB_C8: int
BB_D8: int
BB_E8: int
BB_F8: int
BB_G8: int
BB_H8: int
BB_FILES: List[int]
BB_RANKS: List[int]
BB_FILE_A: int
BB_FILE_B: int
BB_FILE_C: int
BB_FILE_D: int
BB_FILE_E: int
BB_FILE_F: int
BB_FILE_G: int
BB_FILE_H: int
BB_RANK_1: int
BB_RANK_2: int
BB_RANK_3: int
BB_RANK_4: int
BB_RANK_5: int
BB_RANK_6: int
BB_RANK_7: int
BB_RANK_8: int
BB_CORNERS: int
BB_CENTER: int
BB_LIGHT_SQUARES: int
BB_DARK_SQUARES: int
BB_BACKRANKS: int
SQUARES_180: List[int]
BB_KNIGHT_ATTACKS: List[int]
BB_KING_ATTACKS: List[int]
BB_PAWN_ATTACKS: List[List[int]]
STARTING_BOARD_FEN: str
UNICODE_PIECE_SYMBOLS: Dict[str, str]
def square_distance(a: int, b: int) -> int:
    """The king moves from ``a`` to ``b`` on an empty board (the larger of the file and rank
    differences).
    """
def square_manhattan_distance(a: int, b: int) -> int:
    """The file difference plus the rank difference of ``a`` and ``b``."""
def square_knight_distance(a: int, b: int) -> int:
    """The knight moves from ``a`` to ``b`` on an empty board. Raises ``IndexError`` for a
    square outside 0..63.
    """
def square_mirror(sq: int) -> int:
    """``sq`` mirrored vertically: a1 <-> a8."""
def popcount(bb: int) -> int:
    """The squares of a mask."""
def lsb(bb: int) -> int:
    """The lowest square of a non-empty mask."""
def msb(bb: int) -> int:
    """The highest square of a non-empty mask."""
def scan_forward(bb: int) -> Iterator[int]:
    """The squares of a mask, lowest first."""
def scan_reversed(bb: int) -> Iterator[int]:
    """The squares of a mask, highest first."""
def flip_vertical(bb: int) -> int:
    """The mask mirrored top to bottom (rank 1 <-> rank 8)."""
def flip_horizontal(bb: int) -> int:
    """The mask mirrored left to right (file a <-> file h)."""
def flip_diagonal(bb: int) -> int:
    """The mask mirrored about the a1-h8 diagonal (file and rank swapped)."""
def flip_anti_diagonal(bb: int) -> int:
    """The mask mirrored about the h1-a8 diagonal."""
def shift_down(b: int) -> int:
    """Every square one rank down; the first rank falls off."""
def shift_2_down(b: int) -> int:
    """Every square two ranks down."""
def shift_up(b: int) -> int:
    """Every square one rank up; the eighth rank falls off."""
def shift_2_up(b: int) -> int:
    """Every square two ranks up."""
def shift_right(b: int) -> int:
    """Every square one file towards h; the h-file falls off."""
def shift_2_right(b: int) -> int:
    """Every square two files towards h."""
def shift_left(b: int) -> int:
    """Every square one file towards a; the a-file falls off."""
def shift_2_left(b: int) -> int:
    """Every square two files towards a."""
def shift_up_left(b: int) -> int:
    """Every square one rank up and one file towards a."""
def shift_up_right(b: int) -> int:
    """Every square one rank up and one file towards h."""
def shift_down_left(b: int) -> int:
    """Every square one rank down and one file towards a."""
def shift_down_right(b: int) -> int:
    """Every square one rank down and one file towards h."""
def between(a: int, b: int) -> int:
    """The squares strictly between ``a`` and ``b`` on their rank, file or diagonal (0 if
    they share none), as a mask.
    """
def ray(a: int, b: int) -> int:
    """The whole rank, file or diagonal through ``a`` and ``b``, edge to edge (0 if they
    share none), as a mask.
    """
class Status(enum.IntFlag):
    VALID = 0
    NO_WHITE_KING = 1
    NO_BLACK_KING = 2
    TOO_MANY_KINGS = 4
    TOO_MANY_WHITE_PAWNS = 8
    TOO_MANY_BLACK_PAWNS = 16
    PAWNS_ON_BACKRANK = 32
    TOO_MANY_WHITE_PIECES = 64
    TOO_MANY_BLACK_PIECES = 128
    BAD_CASTLING_RIGHTS = 256
    INVALID_EP_SQUARE = 512
    OPPOSITE_CHECK = 1024
    EMPTY = 2048
    RACE_CHECK = 4096
    RACE_OVER = 8192
    RACE_MATERIAL = 16384
    TOO_MANY_CHECKERS = 32768
    IMPOSSIBLE_CHECK = 65536

STATUS_VALID: Status
STATUS_NO_WHITE_KING: Status
STATUS_NO_BLACK_KING: Status
STATUS_TOO_MANY_KINGS: Status
STATUS_TOO_MANY_WHITE_PAWNS: Status
STATUS_TOO_MANY_BLACK_PAWNS: Status
STATUS_PAWNS_ON_BACKRANK: Status
STATUS_TOO_MANY_WHITE_PIECES: Status
STATUS_TOO_MANY_BLACK_PIECES: Status
STATUS_BAD_CASTLING_RIGHTS: Status
STATUS_INVALID_EP_SQUARE: Status
STATUS_OPPOSITE_CHECK: Status
STATUS_EMPTY: Status
STATUS_RACE_CHECK: Status
STATUS_RACE_OVER: Status
STATUS_RACE_MATERIAL: Status
STATUS_TOO_MANY_CHECKERS: Status
STATUS_IMPOSSIBLE_CHECK: Status
A1: int
B1: int
C1: int
D1: int
E1: int
F1: int
G1: int
H1: int
A2: int
B2: int
C2: int
D2: int
E2: int
F2: int
G2: int
H2: int
A3: int
B3: int
C3: int
D3: int
E3: int
F3: int
G3: int
H3: int
A4: int
B4: int
C4: int
D4: int
E4: int
F4: int
G4: int
H4: int
A5: int
B5: int
C5: int
D5: int
E5: int
F5: int
G5: int
H5: int
A6: int
B6: int
C6: int
D6: int
E6: int
F6: int
G6: int
H6: int
A7: int
B7: int
C7: int
D7: int
E7: int
F7: int
G7: int
H7: int
A8: int
B8: int
C8: int
D8: int
E8: int
F8: int
G8: int
H8: int

def square(file_index: int, rank_index: int) -> int:
    """The square of a file (0 = a) and a rank (0 = the first)."""
def square_file(sq: int) -> int:
    """The file of a square, 0 (a) to 7 (h)."""
def square_rank(sq: int) -> int:
    """The rank of a square, 0 (the first) to 7."""
def square_name(sq: int) -> str:
    """The name of a square, ``"e4"``."""
def parse_square(name: str) -> int:
    """The square of a name, ``"e4"``; ``ValueError`` for anything else."""
def piece_symbol(piece_type: int) -> str:
    """The lower-case letter of a piece type, ``"n"`` for ``KNIGHT``."""
def piece_name(piece_type: int) -> str:
    """The name of a piece type, ``"knight"`` for ``KNIGHT``."""

class Termination(enum.Enum):
    """How a game ended: python-chess's ``Termination`` members, names and values
    (``Outcome.termination``). The variant members are never produced here. A member equals
    python-chess's member of the same name (``chess.Termination.CHECKMATE``), and hashes as
    it does.
    """

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
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Piece:
    """A piece as python-chess's `Piece`: `piece_type` 1 (pawn) to 6 (king), `color` `True` for
    white. It equals a python-chess `chess.Piece` of the same type and color, and hashes as
    one does.
    """

    def __new__(cls, piece_type: int, color: _Color) -> Piece: ...
    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        """The piece of a FEN letter: `P` white pawn .. `k` black king. Raises `ValueError` for
        any other text.
        """
    @property
    def piece_type(self) -> int:
        """1 (pawn) to 6 (king), as python-chess's `PAWN` .. `KING`."""
    @property
    def color(self) -> bool:
        """`True` for white, `False` for black."""
    def symbol(self) -> str:
        """The FEN letter: upper case for white."""
    def unicode_symbol(self, *, invert_color: bool = False) -> str:
        """The chess figurine (`♔` white king); `invert_color=True` draws the other color's."""
    def _repr_svg_(self) -> str:
        """An SVG drawing of the piece (its figurine on a 45-pixel square), which Jupyter shows
        as it does python-chess's.
        """
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class SquareSet:
    """A set of squares as python-chess's `SquareSet`: iterable in ascending order, with `len`,
    `in`, `int()` (the 64-bit mask, a1 the lowest bit) and equality with another set or an
    int. It changes in place as python-chess's does (`add`, `discard`, `|=`, ...), so, like
    python-chess's, it is not hashable: `int(squares)` is a key.
    """

    def __new__(cls, mask: Optional[_IntoSquareSet] = None) -> SquareSet: ...
    def tolist(self) -> List[bool]:
        """64 booleans, `True` where the square is in the set, a1 first (python-chess's
        `tolist()`).
        """
    def __iter__(self) -> Iterator[int]: ...
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __int__(self) -> int: ...
    def __index__(self) -> int: ...
    def __contains__(self, square: int, /) -> bool: ...
    def __and__(self, other: _IntoSquareSet, /) -> SquareSet: ...
    def __or__(self, other: _IntoSquareSet, /) -> SquareSet: ...
    def __xor__(self, other: _IntoSquareSet, /) -> SquareSet: ...
    def __rand__(self, other: _IntoSquareSet, /) -> SquareSet: ...
    def __ror__(self, other: _IntoSquareSet, /) -> SquareSet: ...
    def __rxor__(self, other: _IntoSquareSet, /) -> SquareSet: ...
    def __invert__(self) -> SquareSet: ...
    def __sub__(self, other: _IntoSquareSet, /) -> SquareSet: ...
    def __rsub__(self, other: _IntoSquareSet, /) -> SquareSet: ...
    def __lshift__(self, shift: int, /) -> SquareSet: ...
    def __rlshift__(self, shift: int, /) -> SquareSet: ...
    def __rshift__(self, shift: int, /) -> SquareSet: ...
    def __rrshift__(self, shift: int, /) -> SquareSet: ...
    def __reversed__(self) -> Iterator[int]: ...
    def mirror(self) -> SquareSet:
        """The set mirrored vertically (a1 to a8), as python-chess's `mirror()`."""
    def issubset(self, other: _IntoSquareSet) -> bool:
        """`True` if every square of the set is in `other`."""
    def issuperset(self, other: _IntoSquareSet) -> bool:
        """`True` if every square of `other` is in the set."""
    def isdisjoint(self, other: _IntoSquareSet) -> bool:
        """`True` if the set and `other` share no square."""
    def carry_rippler(self) -> Iterator[int]:
        """Every subset of the set as an int mask, the empty set first, 2 to the number of
        squares of them, computed as they are asked for (python-chess's `carry_rippler()`).
        """
    def _repr_svg_(self) -> str:
        """An SVG drawing of an empty board with the set's squares marked, which Jupyter shows
        as it does python-chess's.
        """
    def __eq__(self, other: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]
    @property
    def mask(self) -> int:
        """The squares as a 64-bit mask, bit 0 = a1 (python-chess's `mask` attribute)."""
    @mask.setter
    def mask(self, value: int) -> None:
        """The squares as a 64-bit mask, bit 0 = a1 (python-chess's `mask` attribute)."""
    def __ior__(self, other: _IntoSquareSet, /) -> SquareSet: ...
    def __iand__(self, other: _IntoSquareSet, /) -> SquareSet: ...
    def __ixor__(self, other: _IntoSquareSet, /) -> SquareSet: ...
    def __isub__(self, other: _IntoSquareSet, /) -> SquareSet: ...
    def __ilshift__(self, shift: int, /) -> SquareSet: ...
    def __irshift__(self, shift: int, /) -> SquareSet: ...
    def add(self, square: int) -> None:
        """Adds `square`."""
    def discard(self, square: int) -> None:
        """Removes `square` if it is in the set."""
    def remove(self, square: int) -> None:
        """Removes `square`; raises `KeyError` if it is not in the set."""
    def pop(self) -> int:
        """Removes and returns the lowest square; raises `KeyError` if the set is empty."""
    def clear(self) -> None:
        """Removes every square."""
    def copy(self) -> SquareSet:
        """A new set of the same squares."""
    def update(self, *others: _IntoSquareSet) -> None:
        """Adds the squares of each of `others`."""
    def intersection_update(self, *others: _IntoSquareSet) -> None:
        """Keeps the squares that are in each of `others`."""
    def difference_update(self, other: _IntoSquareSet) -> None:
        """Removes the squares of `other`."""
    def symmetric_difference_update(self, other: _IntoSquareSet) -> None:
        """Keeps the squares in exactly one of the set and `other`."""
    def union(self, other: _IntoSquareSet) -> SquareSet:
        """The squares of the set or `other` (`|`)."""
    def intersection(self, other: _IntoSquareSet) -> SquareSet:
        """The squares of both (`&`)."""
    def difference(self, other: _IntoSquareSet) -> SquareSet:
        """The squares of the set not in `other` (`-`)."""
    def symmetric_difference(self, other: _IntoSquareSet) -> SquareSet:
        """The squares in exactly one of the two (`^`)."""
    @classmethod
    def from_square(cls, square: int) -> SquareSet:
        """The set of one square."""
    @classmethod
    def between(cls, a: int, b: int) -> SquareSet:
        """The squares strictly between `a` and `b` on their rank, file or diagonal (none if
        they share no line), as python-chess's `SquareSet.between`.
        """
    @classmethod
    def ray(cls, a: int, b: int) -> SquareSet:
        """The whole line through `a` and `b`, edge to edge (none if they share no line), as
        python-chess's `SquareSet.ray`.
        """

Source = Union[str, os.PathLike[str], bytes, bytearray, memoryview, BinaryIO, TextIO]
# A chessbits ``Move``, or python-chess's ``chess.Move`` (read by its three attributes).
MoveLike = Any
# A chessbits ``Piece``, or python-chess's ``chess.Piece`` (read by ``piece_type`` and ``color``).
PieceLike = Any
# The values each option string takes.
_MovesAs = Literal["uci", "san", "codes"]
_OnError = Literal["raise", "keep"]
_EnPassant = Literal["legal", "fen", "xfen"]
# A color as python-chess takes it: ``WHITE``/``BLACK`` (``True``/``False``) or 1/0.
_Color = Union[bool, int]
# What ``SquareSet(...)`` takes: a square set, an int mask, or squares.
_IntoSquareSet = Union[SquareSet, int, Iterable[int]]
_PositionFormat = Literal["packed", "compact"]
_MoveCodecName = Literal["model", "index"]
_GameResult = Literal["1-0", "0-1", "1/2-1/2", "*"]
_Speed = Literal[
    "ultraBullet", "ultrabullet", "bullet", "blitz", "rapid", "classical", "correspondence", "unknown"
]

class ChessbitsError(ValueError):
    """The base of every chessbits error; a ValueError."""

class FenError(ChessbitsError):
    """FEN text that is not FEN: the field and byte offset are in the message."""

class PositionError(ChessbitsError):
    """A FEN or a decoded position that is not a legal position (kings, pawns, checks ...)."""

class InvalidMoveError(ChessbitsError):
    """Move text that is neither UCI nor SAN, whatever the position."""

class IllegalMoveError(ChessbitsError):
    """A move that is not legal in the position it was offered to."""

class AmbiguousMoveError(ChessbitsError):
    """SAN that more than one legal move matches; a sibling of IllegalMoveError, as in python-chess.
    """

class PgnError(ChessbitsError):
    """PGN that does not read: the game, line, column and byte are in the message and are the
    attributes `game`, `line`, `column`, `byte` (`ply` where a move is at fault), `None` where not
    known.
    """

    game: Optional[int]
    line: Optional[int]
    column: Optional[int]
    byte: Optional[int]
    ply: Optional[int]

class DecodeError(ChessbitsError):
    """Bytes of a position or move codec that do not decode: the place is in the message and in the
    attributes `ply` and `byte` (moves) or `bit` (a position), `None` where not known.
    """

    ply: Optional[int]
    byte: Optional[int]
    bit: Optional[int]

class CbgError(ChessbitsError):
    """A .cbg file that does not read: the game and byte offset are in the message and are the
    attributes `game` and `byte`.
    """

    game: Optional[int]
    byte: Optional[int]

@final
class Move:
    """A move from one square to another, as python-chess's `Move`: squares are 0 (a1) to 63
    (h8), the promotion a piece type from 2 (knight) to 5 (queen), or `None`. It knows no
    position: a board resolves it (castling as the king's move, `e1g1`, in standard chess).
    It equals a python-chess `chess.Move` of the same squares and promotion, and hashes as one
    does.
    """

    def __new__(cls, from_square: int, to_square: int, promotion: Optional[int] = None) -> Move: ...
    @classmethod
    def from_uci(cls, uci: str) -> Move:
        """Parses UCI text (`e2e4`, `e7e8q`, `0000`).

        Raises `InvalidMoveError` when the text is not UCI, or names one square twice (`a1a1`:
        the null move is `0000`).
        """
    @classmethod
    def null(cls) -> Move:
        """The null move, `0000`."""
    def xboard(self) -> str:
        """The move as XBoard writes it: its UCI, or `@@@@` for the null move."""
    @property
    def drop(self) -> Optional[int]:
        """The piece dropped (Crazyhouse): always `None` in chess, as python-chess's `drop`."""
    def uci(self) -> str:
        """The UCI text."""
    @property
    def from_square(self) -> int:
        """The origin square, 0 (a1) to 63 (h8); 0 for the null move."""
    @property
    def to_square(self) -> int:
        """The destination square, 0 (a1) to 63 (h8); 0 for the null move."""
    @property
    def promotion(self) -> Optional[int]:
        """The piece type promoted to (2 knight .. 5 queen), or `None`."""
    def __bool__(self) -> bool: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class LegalMoves:
    """The legal moves of a position when it was asked: iterable, with `len`, `in` and `count()`
    (python-chess's `LegalMoveGenerator`, as a snapshot).
    """

    def count(self) -> int:
        """The number of legal moves."""
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __contains__(self, move: object, /) -> bool: ...
    def __getitem__(self, index: int, /) -> Move: ...
    def __iter__(self) -> Iterator[Move]: ...

@final
class Outcome:
    """How a game ended: `termination` (the name of python-chess's `Termination` member,
    `"CHECKMATE"` ...) and `winner` (`True` white, `False` black, `None` for a draw). Equal to
    an outcome of the same termination and winner, python-chess's `chess.Outcome` included.
    """

    @property
    def termination(self) -> Termination:
        """Why the game ended: a member of `chessbits.Termination`, python-chess's enum's names
        and values.
        """
    @property
    def winner(self) -> Optional[bool]:
        """`True` if white won, `False` if black won, `None` for a draw."""
    def result(self) -> str:
        """The result as PGN writes it: `1-0`, `0-1` or `1/2-1/2`."""
    def __eq__(self, other: object, /) -> bool:
        """"""
    __hash__: ClassVar[None]  # type: ignore[assignment]

@final
class Board:
    """A game in progress: a position, the moves that led to it and their history, with
    python-chess's names. Every move is checked. A board can also be set up piece by piece
    (`Board(None)`, `set_piece_at`, `turn = ...`), as python-chess's; until it is a legal
    position, `status()` says what is wrong and moves raise `PositionError`.
    """

    def __new__(cls, fen: Optional[str] = ..., *, chess960: bool = False) -> Board:
        """Raises ``FenError`` or ``PositionError`` (also for castling rights that need
        ``chess960=True``)."""
    def fen(self, *, shredder: bool = False, en_passant: _EnPassant = "legal", promoted: Optional[bool] = None) -> str:
        """The FEN. `en_passant` says when it names the en passant square: `"legal"` only when a
        capture is legal (python-chess's default), `"fen"` after every double push, `"xfen"`
        when a pawn stands ready to take, legal or not. `shredder=True` writes the castling
        rights as the rooks' files (`HAha`), as python-chess does. `promoted=True` writes a `~`
        after each piece that came by promotion in the moves played (`promoted`).
        """
    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves, in generation order, as python-chess's `board.legal_moves`: iterable,
        with `len`, `in` and `count()`.
        """
    def legal_move_count(self) -> int:
        """The number of legal moves, counted without building a list."""
    def is_legal(self, move: MoveLike) -> bool:
        """`True` if `move` is legal here."""
    def push(self, move: MoveLike) -> None:
        """Plays `move`. Raises `IllegalMoveError` if it is not legal (the null move is refused
        in check).
        """
    def pop(self) -> Move:
        """Takes back the last move and returns it. Raises `IndexError` at the start."""
    def peek(self) -> Move:
        """The last move played. Raises `IndexError` at the start."""
    def push_san(self, san: str) -> Move:
        """Parses SAN, plays it and returns the move. Raises `InvalidMoveError` for text that is
        not SAN, `IllegalMoveError` or `AmbiguousMoveError` when it names no legal move or
        several.
        """
    def push_uci(self, uci: str) -> Move:
        """Parses UCI, plays it and returns the move."""
    def san(self, move: MoveLike) -> str:
        """The SAN of `move` here, with `+` or `#`. Raises `IllegalMoveError` if it is not legal."""
    def parse_uci(self, uci: str) -> Move:
        """Parses UCI against this position into a legal move (castling written as this board
        writes it), without playing it. Raises `InvalidMoveError` for text that is not UCI,
        `IllegalMoveError` for a move that is not legal here.
        """
    def parse_san(self, san: str) -> Move:
        """Parses SAN against this position into a move, without playing it. A fully
        specified move (`g1f3`, `e1g1`) is taken too, as python-chess takes it.
        """
    @property
    def move_stack(self) -> List[Move]:
        """The moves played, oldest first."""
    @property
    def turn(self) -> bool:
        """`True` for white to move, `False` for black (python-chess's `chess.WHITE`/`BLACK`).
        Setting it (as every setter here) forgets the moves played; python-chess keeps them.
        """
    @turn.setter
    def turn(self, value: _Color) -> None:
        """`True` for white to move, `False` for black (python-chess's `chess.WHITE`/`BLACK`).
        Setting it (as every setter here) forgets the moves played; python-chess keeps them.
        """
    @property
    def halfmove_clock(self) -> int:
        """Halfmoves since the last capture or pawn move. Settable."""
    @halfmove_clock.setter
    def halfmove_clock(self, value: int) -> None:
        """Halfmoves since the last capture or pawn move. Settable."""
    @property
    def fullmove_number(self) -> int:
        """The move number, from 1, counted up after black's move. Settable (at least 1)."""
    @fullmove_number.setter
    def fullmove_number(self, value: int) -> None:
        """The move number, from 1, counted up after black's move. Settable (at least 1)."""
    @property
    def ep_square(self) -> Optional[int]:
        """The square a pawn skipped with a double push on the last move (or the FEN's), whether
        or not a capture there is legal, as python-chess's `ep_square`; else `None`.
        `has_legal_en_passant()` says whether a capture is legal. Settable: as set, it is
        what this says, and a square no double push left is flagged by `status()` and not
        played with.
        """
    @ep_square.setter
    def ep_square(self, value: Optional[int]) -> None:
        """The square a pawn skipped with a double push on the last move (or the FEN's), whether
        or not a capture there is legal, as python-chess's `ep_square`; else `None`.
        `has_legal_en_passant()` says whether a capture is legal. Settable: as set, it is
        what this says, and a square no double push left is flagged by `status()` and not
        played with.
        """
    def has_legal_en_passant(self) -> bool:
        """`True` if an en passant capture is legal here."""
    @property
    def chess960(self) -> bool:
        """`True` for a Chess960 board (castling written king-takes-rook)."""
    def piece_at(self, square: int) -> Optional[Piece]:
        """The piece on `square`, or `None`. Raises `IndexError` for a square outside 0..=63."""
    def piece_type_at(self, square: int) -> Optional[int]:
        """The type of the piece on `square` (1 pawn .. 6 king), or `None`."""
    def color_at(self, square: int) -> Optional[bool]:
        """The color of the piece on `square` (`True` white), or `None`."""
    def pieces(self, piece_type: int, color: _Color) -> SquareSet:
        """The squares of the pieces of `piece_type` (1 pawn .. 6 king) and `color`."""
    def king(self, color: _Color) -> Optional[int]:
        """The square of `color`'s king."""
    def attackers(self, color: _Color, square: int, occupied: Optional[_IntoSquareSet] = None) -> SquareSet:
        """The pieces of `color` that attack `square` (pinned ones included, as python-chess).
        `occupied` (a mask, the board's pieces by default) says which squares block a rook,
        bishop or queen, as python-chess's.
        """
    def is_attacked_by(self, color: _Color, square: int, occupied: Optional[_IntoSquareSet] = None) -> bool:
        """`True` if a piece of `color` attacks `square` (`occupied` as for `attackers`)."""
    def gives_check(self, move: MoveLike) -> bool:
        """`True` if the legal `move` gives check. Raises `IllegalMoveError` for a move that is
        not legal here (python-chess asks for a pseudo-legal one).
        """
    def is_capture(self, move: MoveLike) -> bool:
        """`True` if `move` captures: a piece of the other side stands on its destination, or it
        is an en passant capture (python-chess's rule; the move need not be legal).
        """
    def is_en_passant(self, move: MoveLike) -> bool:
        """`True` if `move` is an en passant capture: a pawn moving diagonally onto the en
        passant square.
        """
    def is_castling(self, move: MoveLike) -> bool:
        """`True` if `move` is a castling move: the king moving two files, or onto its own rook."""
    def is_kingside_castling(self, move: MoveLike) -> bool:
        """`True` if `move` castles king-side (towards the h-file)."""
    def is_queenside_castling(self, move: MoveLike) -> bool:
        """`True` if `move` castles queen-side (towards the a-file)."""
    def is_zeroing(self, move: MoveLike) -> bool:
        """`True` if `move` resets the halfmove clock: a pawn move or a capture."""
    def checkers(self) -> SquareSet:
        """The pieces of the other side that give check."""
    def is_pinned(self, color: _Color, square: int) -> bool:
        """`True` if the piece of `color` on `square` may not leave the line from its king to
        an enemy rook, bishop or queen (python-chess's `is_pinned`: only `square` stands
        between them).
        """
    def ply(self) -> int:
        """The plies played since the start of the game the FEN counts from: `2 *
        (fullmove_number - 1)`, plus one with black to move.
        """
    def piece_map(self, *, mask: _IntoSquareSet = ...) -> Dict[int, Piece]:
        """Every piece by its square, as a dict of `Piece`; with `mask`, those on its squares."""
    def uci(self, move: MoveLike, *, chess960: Optional[bool] = None) -> str:
        """The UCI text of `move`, castling written king takes rook with `chess960` (the board's
        mode by default), the king's two squares otherwise. As python-chess's: a move of the
        king on e1 (e8) to g1 or c1 (g8, c8) with no rook there is castling, and so is its move
        onto the a or h corner; the move need not be legal.
        """
    def lan(self, move: MoveLike) -> str:
        """The long algebraic notation of the legal `move`, as python-chess's `lan`: `Ng1-f3`,
        `e4xd5`, `O-O`, `e7-e8=Q+`, `--` for the null move. Raises `IllegalMoveError` if it
        is not legal.
        """
    def set_piece_at(self, square: int, piece: Optional[PieceLike], promoted: bool = False) -> None:
        """Puts `piece` on `square` (`None` empties it), as python-chess's `set_piece_at`; the
        moves are forgotten. The board may then be no legal position (`status()` says why);
        moves cannot be played on it until it is. `promoted` is accepted and not kept.
        """
    def remove_piece_at(self, square: int) -> Optional[Piece]:
        """Takes the piece off `square` and returns it (`None` for an empty square); the moves
        are forgotten, as `set_piece_at`.
        """
    def set_piece_map(self, pieces: Dict[int, PieceLike]) -> None:
        """Places the pieces of `pieces` (a dict from square to `Piece`) on an empty board, the
        other fields kept; the moves are forgotten.
        """
    def clear(self) -> None:
        """An empty board, white to move, no castling rights nor en passant square, the clocks
        at 0 and 1, as python-chess's `clear()`. Put kings on it before playing moves.
        """
    def clear_board(self) -> None:
        """Takes every piece off the board, the other fields kept (python-chess's
        `clear_board()`); the moves are forgotten.
        """
    def clear_stack(self) -> None:
        """Forgets the moves played, keeping the position (python-chess's `clear_stack()`)."""
    def set_board_fen(self, fen: str) -> None:
        """Sets the pieces from a FEN's placement field, the other fields kept; the moves are
        forgotten. Raises `FenError` for text that is not a placement.
        """
    def set_castling_fen(self, castling_fen: str) -> None:
        """Sets the castling rights from a FEN castling field (`KQkq`, Shredder's `HAha`, `-`).
        Raises `FenError` for letters that are not one; the moves are forgotten.
        """
    @property
    def occupied(self) -> int:
        """The occupied squares, as python-chess's `occupied` mask."""
    @property
    def occupied_co(self) -> List[int]:
        """The squares of each color's pieces, `[black, white]`, indexed by `BLACK`/`WHITE` as
        python-chess's `occupied_co`.
        """
    @property
    def pawns(self) -> int:
        """The pawns of both colors, as a mask (python-chess's `pawns`)."""
    @property
    def knights(self) -> int:
        """The knights of both colors, as a mask."""
    @property
    def bishops(self) -> int:
        """The bishops of both colors, as a mask."""
    @property
    def rooks(self) -> int:
        """The rooks of both colors, as a mask."""
    @property
    def queens(self) -> int:
        """The queens of both colors, as a mask."""
    @property
    def kings(self) -> int:
        """The kings of both colors, as a mask."""
    @property
    def promoted(self) -> int:
        """The squares of pieces that came by promotion in the moves played, as python-chess's
        `promoted` mask: derived from the moves kept, so a board set up by an edit, or copied
        or cleared of its moves, counts none.
        """
    def pieces_mask(self, piece_type: int, color: _Color) -> int:
        """The squares of the pieces of `piece_type` and `color`, as a mask."""
    def attackers_mask(self, color: _Color, square: int, occupied: Optional[_IntoSquareSet] = None) -> int:
        """The pieces of `color` that attack `square`, as a mask (`occupied` as for `attackers`)."""
    def attacks_mask(self, square: int) -> int:
        """The squares the piece on `square` attacks, as a mask."""
    def checkers_mask(self) -> int:
        """The pieces that give check to the side to move, as a mask."""
    def pin_mask(self, color: _Color, square: int) -> int:
        """The line the piece of `color` on `square` is pinned along (through its king and the
        pinner), or every square if it is not pinned, as a mask (python-chess's `pin_mask`).
        """
    def pin(self, color: _Color, square: int) -> SquareSet:
        """`pin_mask` as a `SquareSet` (python-chess's `pin`)."""
    def was_into_check(self) -> bool:
        """`True` if the side that just moved left its king attacked."""
    def is_into_check(self, move: MoveLike) -> bool:
        """`True` if `move` would leave the side to move's king attacked: it is not legal
        (python-chess asks for a pseudo-legal move). The null move does so only in check.
        """
    def has_insufficient_material(self, color: _Color) -> bool:
        """`True` if `color` has too little material to checkmate (python-chess's rule, read
        from the pieces alone, so a board being set up is answered too).
        """
    def is_irreversible(self, move: MoveLike) -> bool:
        """`True` if `move` can never be taken back by a repetition: a pawn move, a capture, a
        move that loses castling rights, or any move while an en passant capture is legal.
        """
    def find_move(self, from_square: int, to_square: int, promotion: Optional[int] = None) -> Move:
        """The legal move from `from_square` to `to_square` (a pawn reaching the last rank
        promotes to a queen unless `promotion` says otherwise; castling by the king's two
        squares or onto its rook), as python-chess's `find_move`. Raises `IllegalMoveError`
        if there is none.
        """
    def san_and_push(self, move: MoveLike) -> str:
        """Plays `move` and returns its SAN (python-chess's `san_and_push`)."""
    def shredder_fen(self, *, en_passant: _EnPassant = "legal", promoted: Optional[bool] = None) -> str:
        """The FEN with Shredder castling letters (python-chess's `shredder_fen()`; `en_passant`
        and `promoted` as for `fen`).
        """
    def castling_xfen(self) -> str:
        """The castling field in X-FEN (`KQkq`, a file letter where a rook stands inside)."""
    def castling_shredder_fen(self) -> str:
        """The castling field in Shredder-FEN (`HAha`)."""
    def clean_castling_rights(self) -> int:
        """The castling rights the board plays with, as a mask of their rooks: those set, less
        any without king and rook in place (python-chess's `clean_castling_rights()`).
        """
    def has_chess960_castling_rights(self) -> bool:
        """`True` if a castling right needs Chess960 to be written: a rook off the corner or a
        king off the e-file.
        """
    def reset_board(self) -> None:
        """Puts the pieces back where they start, the other fields kept; the moves are
        forgotten (python-chess's `reset_board()`).
        """
    @property
    def pseudo_legal_moves(self) -> LegalMoves:
        """The pseudo-legal moves (the king may be left in check), as python-chess's
        `pseudo_legal_moves`: a snapshot with `len`, `in` and `count()`.
        """
    def generate_pseudo_legal_moves(self, from_mask: _IntoSquareSet = ..., to_mask: _IntoSquareSet = ...) -> Iterator[Move]:
        """The pseudo-legal moves, one at a time (masks as for `generate_legal_moves`)."""
    def generate_pseudo_legal_captures(self, from_mask: _IntoSquareSet = ..., to_mask: _IntoSquareSet = ...) -> Iterator[Move]:
        """The pseudo-legal captures (en passant included), one at a time (masks as for
        `generate_legal_moves`).
        """
    def is_pseudo_legal(self, move: MoveLike) -> bool:
        """`True` if `move` is pseudo-legal here (legal, or legal but for leaving the king in
        check).
        """
    def has_pseudo_legal_en_passant(self) -> bool:
        """`True` if an en passant capture is pseudo-legal: a pawn attacks the en passant square."""
    def generate_castling_moves(self, from_mask: _IntoSquareSet = ..., to_mask: _IntoSquareSet = ...) -> Iterator[Move]:
        """The legal castling moves, one at a time (masks as for `generate_legal_moves`: the
        king's square and its rook's).
        """
    def generate_legal_ep(self, from_mask: _IntoSquareSet = ..., to_mask: _IntoSquareSet = ...) -> Iterator[Move]:
        """The legal en passant captures, one at a time (masks as for `generate_legal_moves`)."""
    def generate_pseudo_legal_ep(self, from_mask: _IntoSquareSet = ..., to_mask: _IntoSquareSet = ...) -> Iterator[Move]:
        """The pseudo-legal en passant captures, one at a time: each pawn that attacks the empty
        en passant square (masks as for `generate_legal_moves`).
        """
    @classmethod
    def empty(cls, *, chess960: bool = False) -> Board:
        """An empty board, white to move (`Board(None)`), as python-chess's `Board.empty()`."""
    starting_fen: ClassVar[str]
    uci_variant: ClassVar[str]
    xboard_variant: ClassVar[str]
    aliases: ClassVar[List[str]]
    one_king: ClassVar[bool]
    connected_kings: ClassVar[bool]
    captures_compulsory: ClassVar[bool]
    def is_variant_end(self) -> bool:
        """`False`: standard chess has no end of its own beyond mate and draws (python-chess's
        variant hook).
        """
    def is_variant_win(self) -> bool:
        """`False`, as `is_variant_end`."""
    def is_variant_loss(self) -> bool:
        """`False`, as `is_variant_end`."""
    def is_variant_draw(self) -> bool:
        """`False`, as `is_variant_end`."""
    def apply_mirror(self) -> None:
        """Mirrors the board in place (python-chess's `apply_mirror()`); the moves are
        forgotten.
        """
    def transform(self, f: Callable[[int], int]) -> Board:
        """A board transformed by `f`, a function of a 64-bit mask (`chessbits.flip_vertical`,
        `flip_horizontal`, ...): applied to every piece's squares, the castling rights and the
        en passant square, as python-chess's `transform(f)`.
        """
    def apply_transform(self, f: Callable[[int], int]) -> None:
        """`transform(f)` in place; the moves are forgotten."""
    @classmethod
    def from_chess960_pos(cls, scharnagl: int) -> Board:
        """The board of Chess960 start position `scharnagl` (0..960; 518 is the standard one),
        a Chess960 board, as python-chess's `Board.from_chess960_pos`.
        """
    def set_chess960_pos(self, scharnagl: int) -> None:
        """Sets Chess960 start position `scharnagl` (0..960), white to move with every castling
        right; the board becomes a Chess960 board and the moves are forgotten.
        """
    def chess960_pos(
        self, *, ignore_turn: bool = False, ignore_castling: bool = False, ignore_counters: bool = True
    ) -> Optional[int]:
        """The Chess960 start position number (0..960) of this board, or `None` if it is not one:
        the pieces of a start position, no en passant square, white to move and every castling
        right unless `ignore_turn` and `ignore_castling` say otherwise, and, with
        `ignore_counters=False`, the clocks at 0 and 1 (python-chess's `chess960_pos`).
        """
    def xboard(self, move: MoveLike, chess960: Optional[bool] = None) -> str:
        """The move as XBoard writes it: UCI, but `O-O`/`O-O-O` for castling on a Chess960 board
        (`chess960` says which, the board's kind by default), `@@@@` for the null move.
        """
    def parse_xboard(self, xboard: str) -> Move:
        """Parses an XBoard move (SAN or UCI, `@@@@` for the null move) against this position
        (python-chess's `parse_xboard`).
        """
    def push_xboard(self, san: str) -> Move:
        """Parses an XBoard move, plays it and returns it (python-chess's `push_xboard`)."""
    def reset(self) -> None:
        """Back to the standard starting position, the moves forgotten."""
    def generate_legal_moves(self, from_mask: _IntoSquareSet = ..., to_mask: _IntoSquareSet = ...) -> Iterator[Move]:
        """The legal moves, one at a time (python-chess's `generate_legal_moves()`): those from a
        square of `from_mask` to one of `to_mask`, where a castling move goes from the king's
        square to its rook's, as in python-chess (every square by default).
        """
    def generate_legal_captures(self, from_mask: _IntoSquareSet = ..., to_mask: _IntoSquareSet = ...) -> Iterator[Move]:
        """The legal captures, en passant included, one at a time (python-chess's
        `generate_legal_captures()`; masks as for `generate_legal_moves`).
        """
    def attacks(self, square: int) -> SquareSet:
        """The squares the piece on `square` attacks (none for an empty square; a pinned piece
        still attacks), as python-chess's `attacks(square)`.
        """
    def is_fifty_moves(self) -> bool:
        """`True` if the halfmove clock has reached 100 and a move may still be played: the
        fifty-move rule may be claimed now (python-chess's `is_fifty_moves()`).
        """
    @property
    def castling_rights(self) -> int:
        """The rooks with castling rights, as python-chess's `castling_rights` mask (bit 0 = a1).
        Settable: as set, it is what this says, and rights without their king and rook are
        flagged by `status()` and not played with.
        """
    @castling_rights.setter
    def castling_rights(self, value: Union[int, SquareSet, Iterable[int]]) -> None:
        """The rooks with castling rights, as python-chess's `castling_rights` mask (bit 0 = a1).
        Settable: as set, it is what this says, and rights without their king and rook are
        flagged by `status()` and not played with.
        """
    def has_castling_rights(self, color: _Color) -> bool:
        """`True` if `color` may still castle on some side."""
    def has_kingside_castling_rights(self, color: _Color) -> bool:
        """`True` if `color` may still castle king-side."""
    def has_queenside_castling_rights(self, color: _Color) -> bool:
        """`True` if `color` may still castle queen-side."""
    def board_fen(self, *, promoted: Optional[bool] = False) -> str:
        """The placement field of the FEN; `promoted=True` marks with a `~` each piece that came
        by promotion in the moves played.
        """
    def epd(
        self,
        *,
        shredder: bool = False,
        en_passant: _EnPassant = "legal",
        promoted: Optional[bool] = None,
        **operations: Any,
    ) -> str:
        """The EPD: the FEN's first four fields, written as `fen()` writes them, then the
        `operations` given as keywords, as python-chess's `epd()`: `board.epd(bm=move,
        id="x")` gives `... bm Nf3; id "x";` (moves in SAN; a list for `bm`, `am`, and the
        variation `pv`; ints and floats as Python prints them; anything else a string).
        """
    def set_epd(self, epd: str) -> Dict[str, Any]:
        """Sets the position from an EPD (the four fields, then operations) and returns its
        operations as a dict, as python-chess's `set_epd`: `hmvc` and `fmvn` set the clocks
        (0 and 1 without them). Raises `FenError`/`PositionError` for the fields, `ValueError`
        for an operation, a move error for a move that is not legal; the board is unchanged
        then.
        """
    @classmethod
    def from_epd(cls, epd: str, *, chess960: bool = False) -> Tuple[Board, Dict[str, Any]]:
        """A board and the operations of an EPD (python-chess's `Board.from_epd`)."""
    def set_fen(self, fen: str) -> None:
        """Sets the position from a FEN and clears the moves, keeping the board's `chess960`.
        Raises as the constructor; the board is unchanged then.
        """
    def variation_san(self, variation: Iterable[MoveLike]) -> str:
        """The moves as SAN with move numbers from this position (`1. e4 e5 2. Nf3`, or `1...e5`
        when black moves first). Raises `IllegalMoveError` for a move that is not legal where it
        stands; the board is unchanged.
        """
    def unicode(
        self,
        *,
        invert_color: bool = False,
        borders: bool = False,
        empty_square: str = "⭘",
        orientation: bool = True,
    ) -> str:
        """The diagram in figurines, as python-chess's `unicode()`: ranks 8 to 1 (1 to 8 and files
        h to a with `orientation=False`), `empty_square` for an empty square.
        """
    def mirror(self) -> Board:
        """The position mirrored vertically with the colors swapped (python-chess's `mirror()`):
        white's pieces become black's on the mirrored squares, the other side moves, castling
        rights and the en passant square follow. The moves are not kept.
        """
    def is_valid(self) -> bool:
        """`True` if `status()` is `STATUS_VALID`: a board set up piece by piece may not be."""
    def status(self) -> Status:
        """python-chess's `status()`: a `chessbits.Status` flag (an `IntFlag`, equal to
        python-chess's of the same value): `Status.VALID` (0), or `NO_WHITE_KING`,
        `BAD_CASTLING_RIGHTS`, ... or-ed together, by python-chess's rules. A board from a FEN or
        moves is valid but for an impossible check; one set up
        piece by piece may be anything. Castling rights and an en passant square set wrong
        are flagged while no move has been played since, as python-chess flags them. More
        promoted pieces than missing pawns, which python-chess allows and chessbits does not
        play, is flagged as `STATUS_TOO_MANY_WHITE_PIECES` (or black's).
        """
    def _repr_svg_(self) -> str:
        """An SVG drawing of the board (light and dark squares, figurines, coordinates), which
        Jupyter shows for a board as it does python-chess's.
        """
    def is_check(self) -> bool:
        """`True` if the side to move is in check."""
    def is_checkmate(self) -> bool:
        """`True` if the side to move is checkmated."""
    def is_stalemate(self) -> bool:
        """`True` if the side to move has no legal move and is not in check."""
    def is_insufficient_material(self) -> bool:
        """`True` if neither side can checkmate (python-chess's definition, read from the pieces
        alone).
        """
    def is_seventyfive_moves(self) -> bool:
        """`True` after 75 moves each without capture or pawn move (an automatic draw), unless
        the side to move has no legal move (mate and stalemate come first).
        """
    def is_fivefold_repetition(self) -> bool:
        """`True` if the current position has occurred five times (an automatic draw)."""
    def is_repetition(self, count: int = 3) -> bool:
        """`True` if the current position has occurred at least `count` times."""
    def can_claim_fifty_moves(self) -> bool:
        """`True` if the side to move may claim a draw by the fifty-move rule, now or by
        announcing a move.
        """
    def can_claim_threefold_repetition(self) -> bool:
        """`True` if the side to move may claim a draw by threefold repetition, now or by
        announcing a move.
        """
    def can_claim_draw(self) -> bool:
        """`True` if the side to move may claim a draw (fifty moves or threefold repetition)."""
    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        """`True` if the game is over by the rules (automatic endings), or, with
        `claim_draw=True`, if a draw may be claimed.
        """
    def outcome(self, *, claim_draw: bool = False) -> Optional[Outcome]:
        """How the game ended, or `None`: checkmate, stalemate, insufficient material, the
        seventy-five-move rule, fivefold repetition; with `claim_draw=True` also the
        fifty-move rule and threefold repetition when they may be claimed.
        """
    def result(self, *, claim_draw: bool = False) -> str:
        """The result: `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on."""
    def zobrist_hash(self) -> int:
        """The Polyglot Zobrist key of the position (python-chess's
        `chess.polyglot.zobrist_hash`).
        """
    def root(self) -> Board:
        """The start position, as a board with no moves played."""
    def copy(self, *, stack: Union[bool, int, None] = None) -> Board:
        """An independent copy: with its moves (`stack=True`), none of them (`False`, the
        position alone), or the last `stack` of them, as python-chess's `copy(stack=)`.
        """
    def __copy__(self) -> Board: ...
    def __deepcopy__(self, memo: Any) -> Board: ...
    def __eq__(self, other: object, /) -> bool: ...

def read_games(
    source: Source,
    *,
    threads: Optional[int] = None,
    moves: _MovesAs = "uci",
    keys: Union[int, str, None] = None,
    batch_games: int = 8192,
    on_error: _OnError = "raise",
) -> pa.Table:
    """Reads every game of ``source`` into a ``pyarrow.Table``, one row a game.

    ``source`` is a path to a PGN, ``.cbg`` or lichess Parquet file (a ``str`` is always a
    path: pass PGN text as ``bytes`` or ``io.StringIO``), the bytes of one, or a binary (or
    text) file object, read a block at a time (a Parquet one whole, first); PGN compressed with
    zstd, gzip or bzip2 (lichess's
    ``.pgn.zst``) is recognised by its first bytes and read as it is. The columns are those of
    ``chessbits export``
    (``docs/formats.md``) plus ``error``: ``None`` for a game that read, else where and why
    (line, column, byte, what is wrong) for a game that did not, whose row keeps its number
    and the tags read before the failure, with ``plies`` 0 and no moves. ``moves`` is ``"uci"`` or
    ``"san"`` (a list of strings per game) or
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

def iter_games(
    source: Source,
    *,
    threads: Optional[int] = None,
    moves: _MovesAs = "uci",
    keys: Union[int, str, None] = None,
    batch_games: int = 8192,
) -> pa.RecordBatchReader:
    """Reads ``source`` as ``read_games`` does, a ``pyarrow.RecordBatch`` of at most
    ``batch_games`` games at a time: for inputs larger than memory (a path or a file
    object). On several threads, a batch holds at most one chunk of the input (about a
    megabyte of PGN). A read error (a truncated ``.zst``: ``OSError``; a damaged ``.cbg``
    file: ``CbgError``) is raised only after every batch read before it has been yielded, so
    a loop keeps those games.
    """

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

def to_planes(bitboards: np.ndarray) -> np.ndarray:
    """Bitboards ``uint64 (N, 12)`` as ``uint8 (N, 12, 8, 8)`` planes: ``planes[n, p, rank,
    file]`` is 1 when piece ``p`` stands on that square (rank 0 is the first rank).

    Raises ``TypeError`` for an array that is not of unsigned or signed 64-bit integers (a
    float array would have lost the high bits of its bitboards) and ``ValueError`` for one
    whose shape is not ``(N, 12)``.
    """

def encode_position(fen: str, format: _PositionFormat = "compact", *, clocks: bool = True) -> bytes:
    """The position of `fen` in the `packed` or `compact` layout (`clocks`: with the halfmove
    clock and move number).
    """

def decode_position(data: bytes, format: _PositionFormat = "compact") -> str:
    """The FEN of a position in the `packed` or `compact` layout. The bytes carry no checksum:
    damaged bytes may decode to another legal position (docs/formats.md, "Positions: packed
    and compact").
    """

def encode_moves(moves: Sequence[str], *, start_fen: Optional[str] = None, codec: _MoveCodecName = "model", chess960: bool = False) -> bytes:
    """A mainline (UCI moves from `start_fen`, the standard start if `None`) as move codec bytes
    (`"model"`, about 3 bits a move, or `"index"`); `0000` is a null move (not in check).
    `chess960`: castling is written king takes rook (`e1h1`).
    """

def decode_moves(data: bytes, plies: int, *, start_fen: Optional[str] = None, codec: _MoveCodecName = "model", chess960: bool = False) -> List[str]:
    """`plies` moves decoded from move codec bytes, as UCI, from `start_fen`; `chess960`:
    castling written king takes rook (`e1h1`), as the `uci` column writes a Chess960 game's.
    `plies` and `start_fen` must be those the bytes were encoded with: the bytes hold no
    count and no checksum, so a count one too high often decodes to the game and one more
    likely move, one too low to its prefix, and cut or damaged bytes to another game, without
    an error (docs/formats.md, "The ending").
    """

def write_cbg(source: Source, path: Union[str, os.PathLike[str]], *, codec: _MoveCodecName = "model") -> Tuple[int, int]:
    """Writes the games of ``source`` (PGN, ``.cbg`` or lichess Parquet, a row a game: a path,
    bytes or a file object) to the ``.cbg`` file ``path``, their mainlines coded
    by ``codec`` (``"model"`` or ``"index"``).
    Returns ``(written, failed)``; games that do not read are left out. Read the file back
    with ``read_games(path)``. An input that cannot be read to its end raises (a truncated
    ``.zst``: ``OSError``; a ``.cbg`` file damaged as a file: ``CbgError``), leaving ``path``
    without its trailer. A ``path`` that is the source's file raises ``ValueError`` before
    anything is read or written.
    """

class Index:
    """A position index (``.cbx``, written by ``build_index`` or ``chessbits index build``):
    which games reached a position, by any move order, and what was played from it.

    The position is a FEN (``fen=``) or UCI moves from the start (``moves="e2e4 e7e5"``; the
    start position if neither is given). A position is the same when its Polyglot key's
    fields match: placement, side to move, castling rights, and the en passant square where a
    pawn stands ready to take. The filters: ``result`` (``"1-0,1/2-1/2"``), ``since`` and
    ``until`` (months, ``"YYYY-MM"``), ``min_rating`` and ``max_rating`` (the players'
    average rating by lichess's bands: each one of 0, 1000, 1200, ..., 2200, 2500, else a
    ``ValueError``; a maximum takes its whole band, 2000 reaching 2199), ``speed``
    (``"blitz,rapid"``). Answers are exact:
    each candidate game is replayed to the position (docs/formats.md).
    """

    def __init__(self, path: Union[str, os.PathLike[str]]) -> None: ...
    @property
    def games(self) -> int:
        """The games in the index."""
    def find(
        self,
        fen: Optional[str] = None,
        *,
        moves: Optional[str] = None,
        result: Optional[_GameResult] = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
        min_rating: Optional[int] = None,
        max_rating: Optional[int] = None,
        speed: Optional[_Speed] = None,
        limit: Optional[int] = None,
    ) -> pa.Table:
        """The games that reach the position, in input order, at most ``limit`` of them: a
        table with ``game`` (its number in the input), ``ply`` (the first ply where it
        reaches the position), ``white``, ``black``, ``result``, ``date``, ``white_elo``,
        ``black_elo``, ``speed`` and ``event``.
        """
    def explore(
        self,
        fen: Optional[str] = None,
        *,
        moves: Optional[str] = None,
        result: Optional[_GameResult] = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
        min_rating: Optional[int] = None,
        max_rating: Optional[int] = None,
        speed: Optional[_Speed] = None,
    ) -> pa.Table:
        """The moves played from the position, one row a move, most played first, and a last
        row with ``uci`` and ``san`` null for the games that end there: ``uci``, ``san``,
        ``games``, ``white``, ``draws``, ``black``, ``average_rating``, ``last_date``. A game
        counts once, with the move played after its first arrival.
        """

def build_index(
    sources: Union[Source, Sequence[Source]],
    output: Union[str, os.PathLike[str]],
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
    ``output`` that is one of the sources' files (``ValueError``), before anything is read.
    """

def to_chess(board: Board) -> Any:
    """The same game as a ``chess.Board`` (python-chess must be installed): the start
    position and every move, so repetitions and ``move_stack`` carry over.
    """

def from_chess(board: Any) -> Board:
    """The same game as a ``chessbits.Board``, from a ``chess.Board``: its root position and
    its move stack, replayed (every move checked).
    """
