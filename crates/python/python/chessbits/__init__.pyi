"""Typed stubs of the chessbits package (see ``__init__.py`` and ``docs/python.md``)."""

import enum
import os
from typing import Any, Literal, BinaryIO, Dict, Iterable, Iterator, List, Optional, Sequence, TextIO, Tuple, Union, final

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
    "STATUS_VALID",
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
STATUS_VALID: int
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

def square(file_index: int, rank_index: int) -> int: ...
def square_file(sq: int) -> int: ...
def square_rank(sq: int) -> int: ...
def square_name(sq: int) -> str: ...
def parse_square(name: str) -> int: ...
def piece_symbol(piece_type: int) -> str: ...
def piece_name(piece_type: int) -> str: ...

class Termination(enum.Enum):
    """How a game ended (python-chess's members, names and values)."""

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

@final
class Piece:
    """A piece as python-chess's ``Piece``."""

    def __new__(cls, piece_type: int, color: bool) -> Piece: ...
    @classmethod
    def from_symbol(cls, symbol: str) -> Piece: ...
    @property
    def piece_type(self) -> int:
        """1 (pawn) to 6 (king)."""
    @property
    def color(self) -> bool:
        """True for white."""
    def symbol(self) -> str: ...
    def unicode_symbol(self, *, invert_color: bool = False) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class SquareSet:
    """A set of squares as python-chess's ``SquareSet`` (bit 0 = a1)."""

    def __new__(cls, mask: Union[SquareSet, int, None] = None) -> SquareSet: ...
    def tolist(self) -> List[int]: ...
    def __iter__(self) -> Iterator[int]: ...
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __int__(self) -> int: ...
    def __index__(self) -> int: ...
    def __contains__(self, square: int, /) -> bool: ...
    def __and__(self, other: Union[SquareSet, int], /) -> SquareSet: ...
    def __or__(self, other: Union[SquareSet, int], /) -> SquareSet: ...
    def __xor__(self, other: Union[SquareSet, int], /) -> SquareSet: ...
    def __rand__(self, other: Union[SquareSet, int], /) -> SquareSet: ...
    def __ror__(self, other: Union[SquareSet, int], /) -> SquareSet: ...
    def __rxor__(self, other: Union[SquareSet, int], /) -> SquareSet: ...
    def __invert__(self) -> SquareSet: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

Source = Union[str, os.PathLike[str], bytes, bytearray, memoryview, BinaryIO, TextIO]
# A chessbits ``Move``, or python-chess's ``chess.Move`` (read by its three attributes).
MoveLike = Any
# The values each option string takes.
_MovesAs = Literal["uci", "san", "codes"]
_OnError = Literal["raise", "keep"]
_EnPassant = Literal["legal", "fen", "xfen"]
_PositionFormat = Literal["packed", "compact"]
_MoveCodecName = Literal["model", "index"]
_GameResult = Literal["1-0", "0-1", "1/2-1/2", "*"]
_Speed = Literal[
    "ultraBullet", "ultrabullet", "bullet", "blitz", "rapid", "classical", "correspondence", "unknown"
]

class ChessbitsError(ValueError):
    """The base of every chessbits error."""

class FenError(ChessbitsError):
    """FEN text that is not FEN (the field and byte are in the message)."""

class PositionError(ChessbitsError):
    """A position that is not legal."""

class InvalidMoveError(ChessbitsError):
    """Move text that is not UCI or SAN."""

class IllegalMoveError(ChessbitsError):
    """A move that is not legal in the position."""

class AmbiguousMoveError(ChessbitsError):
    """SAN that several legal moves match (a sibling of ``IllegalMoveError``, as in python-chess)."""

class PgnError(ChessbitsError):
    """PGN that does not read: its place in the message and as attributes."""

    game: Optional[int]
    line: Optional[int]
    column: Optional[int]
    byte: Optional[int]
    ply: Optional[int]

class DecodeError(ChessbitsError):
    """Codec bytes that do not decode: the place in the message and as attributes (``.ply``
    and ``.byte`` for moves, ``.bit`` for a position)."""

    ply: Optional[int]
    byte: Optional[int]
    bit: Optional[int]

class CbgError(ChessbitsError):
    """A .cbg file that does not read: ``.game`` and ``.byte`` as attributes too."""

    game: Optional[int]
    byte: Optional[int]

@final
class Move:
    """A move from one square to another (0 = a1 .. 63 = h8), as python-chess's ``Move``."""

    def __new__(cls, from_square: int, to_square: int, promotion: Optional[int] = None) -> Move: ...
    @classmethod
    def from_uci(cls, uci: str) -> Move:
        """Parses UCI text; raises ``InvalidMoveError``."""
    @classmethod
    def null(cls) -> Move:
        """The null move, ``0000``."""
    def uci(self) -> str:
        """The UCI text."""
    @property
    def from_square(self) -> int: ...
    @property
    def to_square(self) -> int: ...
    @property
    def promotion(self) -> Optional[int]:
        """2 knight .. 5 queen, or None."""
    def __bool__(self) -> bool: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class LegalMoves:
    """The legal moves of a position, as python-chess's ``board.legal_moves``."""

    def count(self) -> int: ...
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __contains__(self, move: object, /) -> bool: ...
    def __getitem__(self, index: int, /) -> Move: ...
    def __iter__(self) -> Iterator[Move]: ...

@final
class Outcome:
    """How a game ended."""

    @property
    def termination(self) -> Termination:
        """Why the game ended."""
    @property
    def winner(self) -> Optional[bool]:
        """True white, False black, None a draw."""
    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2``."""

@final
class Board:
    """A game in progress with python-chess's names; every move is checked."""

    def __new__(cls, fen: str = ..., *, chess960: bool = False) -> Board:
        """Raises ``FenError`` or ``PositionError`` (also for castling rights that need
        ``chess960=True``)."""
    def fen(self, *, en_passant: _EnPassant = "legal") -> str:
        """The FEN; ``en_passant`` is ``"legal"``, ``"fen"`` (always) or ``"xfen"``."""
    @property
    def legal_moves(self) -> LegalMoves: ...
    def legal_move_count(self) -> int: ...
    def is_legal(self, move: MoveLike) -> bool: ...
    def push(self, move: MoveLike) -> None:
        """Raises ``IllegalMoveError``."""
    def pop(self) -> Move:
        """Raises ``IndexError`` at the start."""
    def peek(self) -> Move: ...
    def push_san(self, san: str) -> Move:
        """Raises ``InvalidMoveError``, ``IllegalMoveError`` or ``AmbiguousMoveError``."""
    def push_uci(self, uci: str) -> Move: ...
    def san(self, move: MoveLike) -> str: ...
    def parse_san(self, san: str) -> Move: ...
    @property
    def move_stack(self) -> List[Move]: ...
    @property
    def turn(self) -> bool:
        """True for white to move."""
    @property
    def halfmove_clock(self) -> int: ...
    @property
    def fullmove_number(self) -> int: ...
    @property
    def ep_square(self) -> Optional[int]:
        """The square a double push skipped on the last move, legal capture or not."""
    def has_legal_en_passant(self) -> bool: ...
    @property
    def chess960(self) -> bool: ...
    def piece_at(self, square: int) -> Optional[Piece]: ...
    def piece_type_at(self, square: int) -> Optional[int]: ...
    def color_at(self, square: int) -> Optional[bool]: ...
    def pieces(self, piece_type: int, color: bool) -> SquareSet: ...
    def king(self, color: bool) -> Optional[int]: ...
    def attackers(self, color: bool, square: int) -> SquareSet: ...
    def is_attacked_by(self, color: bool, square: int) -> bool: ...
    def gives_check(self, move: MoveLike) -> bool:
        """Raises ``IllegalMoveError`` for a move that is not legal."""
    def is_capture(self, move: MoveLike) -> bool: ...
    def is_en_passant(self, move: MoveLike) -> bool: ...
    def is_castling(self, move: MoveLike) -> bool: ...
    @property
    def castling_rights(self) -> int:
        """The rooks with castling rights as a mask (bit 0 = a1)."""
    def has_castling_rights(self, color: bool) -> bool: ...
    def has_kingside_castling_rights(self, color: bool) -> bool: ...
    def has_queenside_castling_rights(self, color: bool) -> bool: ...
    def board_fen(self) -> str: ...
    def epd(self) -> str: ...
    def set_fen(self, fen: str) -> None: ...
    def variation_san(self, moves: Iterable[MoveLike]) -> str: ...
    def unicode(
        self,
        *,
        invert_color: bool = False,
        borders: bool = False,
        empty_square: str = "⭘",
        orientation: bool = True,
    ) -> str: ...
    def mirror(self) -> Board: ...
    def is_valid(self) -> bool: ...
    def status(self) -> int: ...
    def _repr_svg_(self) -> str: ...
    def is_check(self) -> bool: ...
    def is_checkmate(self) -> bool: ...
    def is_stalemate(self) -> bool: ...
    def is_insufficient_material(self) -> bool: ...
    def is_seventyfive_moves(self) -> bool: ...
    def is_fivefold_repetition(self) -> bool: ...
    def is_repetition(self, count: int = 3) -> bool: ...
    def can_claim_fifty_moves(self) -> bool: ...
    def can_claim_threefold_repetition(self) -> bool: ...
    def can_claim_draw(self) -> bool: ...
    def is_game_over(self, *, claim_draw: bool = False) -> bool: ...
    def outcome(self, *, claim_draw: bool = False) -> Optional[Outcome]: ...
    def result(self, *, claim_draw: bool = False) -> str: ...
    def zobrist_hash(self) -> int:
        """The Polyglot key."""
    def root(self) -> Board: ...
    def copy(self) -> Board: ...
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
    """Every game of a PGN or .cbg source (plain, .zst, .gz or .bz2) as a table in the schema
    of ``chessbits export``, read on ``threads`` workers (``None``: all cores). A ``str`` is a
    path. ``on_error="keep"`` keeps the games before a read error and notes the error in the
    schema metadata (``b"chessbits.read_error"``) instead of raising ``OSError``."""

def iter_games(
    source: Source,
    *,
    threads: Optional[int] = None,
    moves: _MovesAs = "uci",
    keys: Union[int, str, None] = None,
    batch_games: int = 8192,
) -> pa.RecordBatchReader:
    """``read_games`` a batch at a time, as a ``pyarrow.RecordBatchReader``."""

def fens_to_arrays(fens: Sequence[str], *, legal_moves: bool = False) -> Dict[str, np.ndarray]:
    """Positions of FENs as NumPy arrays."""

def game_positions(
    source: Source,
    *,
    every: int = 1,
    sample: Optional[float] = None,
    seed: int = 0,
    legal_moves: bool = False,
    strict: bool = False,
) -> Dict[str, np.ndarray]:
    """Positions of games with the moves played, as NumPy arrays."""

def to_planes(bitboards: np.ndarray) -> np.ndarray:
    """``(N, 12)`` bitboards as ``(N, 12, 8, 8)`` planes."""

def encode_position(fen: str, format: _PositionFormat = "compact", *, clocks: bool = True) -> bytes:
    """A position as ``packed`` or ``compact`` bytes."""

def decode_position(data: bytes, format: _PositionFormat = "compact") -> str:
    """The FEN of ``packed`` or ``compact`` bytes; raises ``DecodeError``."""

def encode_moves(moves: Sequence[str], *, start_fen: Optional[str] = None, codec: _MoveCodecName = "model") -> bytes:
    """UCI moves as move codec bytes (``model`` or ``index``); ``0000`` is a null move (not in check)."""

def decode_moves(data: bytes, plies: int, *, start_fen: Optional[str] = None, codec: _MoveCodecName = "model") -> List[str]:
    """``plies`` (0 or more) UCI moves from move codec bytes (a null move as ``0000``); raises
    ``DecodeError`` for bytes that are not exactly the coding of ``plies`` moves, ending early
    ones: no move is read past the bytes."""

def write_cbg(source: Source, path: Union[str, os.PathLike[str]], *, codec: _MoveCodecName = "model") -> Tuple[int, int]:
    """Games to a ``.cbg`` file: ``(written, failed)``."""

class Index:
    """A position index (``.cbx``): ``find`` and ``explore`` as ``pyarrow`` tables."""

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
        """The games that reach the position: game, ply and tags."""
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
        """The moves played from the position, with their games and results."""

def build_index(
    sources: Union[Source, Sequence[Source]],
    output: Union[str, os.PathLike[str]],
    *,
    max_ply: Optional[int] = None,
    memory: int = 1024,
    threads: Optional[int] = None,
) -> Dict[str, int]:
    """A position index of the games of ``sources``: ``{"games", "skipped", "bytes"}``."""

def to_chess(board: Board) -> Any:
    """A ``chess.Board`` of the same game (python-chess needed)."""

def from_chess(board: Any) -> Board:
    """A ``chessbits.Board`` of a ``chess.Board``'s game."""
