"""Typed stubs of the chessbits package (see ``__init__.py`` and ``docs/python.md``)."""

import os
from typing import Any, BinaryIO, Dict, Iterator, List, Optional, Sequence, TextIO, Tuple, Union, final

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
    "PositionError",
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
]
__version__: str
STARTING_FEN: str

Source = Union[str, os.PathLike[str], bytes, bytearray, memoryview, BinaryIO, TextIO]

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

class AmbiguousMoveError(IllegalMoveError):
    """SAN that several legal moves match."""

class PgnError(ChessbitsError):
    """PGN that does not read (game, line, column, byte)."""

class DecodeError(ChessbitsError):
    """Codec bytes that do not decode (byte or bit)."""

class CbgError(ChessbitsError):
    """A .cbg file that does not read (game, byte)."""

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
    def __contains__(self, move: Move, /) -> bool: ...
    def __getitem__(self, index: int, /) -> Move: ...
    def __iter__(self) -> Iterator[Move]: ...

@final
class Outcome:
    """How a game ended."""

    @property
    def termination(self) -> str:
        """python-chess's ``Termination`` member name: ``"CHECKMATE"``, ``"STALEMATE"`` ..."""
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
    def fen(self, *, en_passant: str = "legal") -> str:
        """The FEN; ``en_passant`` is ``"legal"``, ``"fen"`` (always) or ``"xfen"``."""
    @property
    def legal_moves(self) -> LegalMoves: ...
    def legal_move_count(self) -> int: ...
    def is_legal(self, move: Move) -> bool: ...
    def push(self, move: Move) -> None:
        """Raises ``IllegalMoveError``."""
    def pop(self) -> Move:
        """Raises ``IndexError`` at the start."""
    def peek(self) -> Move: ...
    def push_san(self, san: str) -> Move:
        """Raises ``InvalidMoveError``, ``IllegalMoveError`` or ``AmbiguousMoveError``."""
    def push_uci(self, uci: str) -> Move: ...
    def san(self, move: Move) -> str: ...
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
        """The en passant square when a capture there is legal."""
    @property
    def chess960(self) -> bool: ...
    def piece_at(self, square: int) -> Optional[str]:
        """The FEN letter of the piece on ``square``."""
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
    moves: str = "uci",
    keys: Union[int, str, None] = None,
    batch_games: int = 8192,
    on_error: str = "raise",
) -> pa.Table:
    """Every game of a PGN or .cbg source (plain, .zst, .gz or .bz2) as a table in the schema
    of ``chessbits export``, read on ``threads`` workers (``None``: all cores). A ``str`` is a
    path. ``on_error="keep"`` keeps the games before a read error and notes the error in the
    schema metadata (``b"chessbits.read_error"``) instead of raising ``OSError``."""

def iter_games(
    source: Source,
    *,
    threads: Optional[int] = None,
    moves: str = "uci",
    keys: Union[int, str, None] = None,
    batch_games: int = 8192,
) -> Iterator[pa.RecordBatch]:
    """``read_games`` a batch at a time."""

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

def encode_position(fen: str, format: str = "compact", *, clocks: bool = True) -> bytes:
    """A position as ``packed`` or ``compact`` bytes."""

def decode_position(data: bytes, format: str = "compact") -> str:
    """The FEN of ``packed`` or ``compact`` bytes; raises ``DecodeError``."""

def encode_moves(moves: Sequence[str], *, start_fen: Optional[str] = None, codec: str = "model") -> bytes:
    """UCI moves as move codec bytes (``model`` or ``index``); ``0000`` is a null move (not in check)."""

def decode_moves(data: bytes, plies: int, *, start_fen: Optional[str] = None, codec: str = "model") -> List[str]:
    """``plies`` (0 or more) UCI moves from move codec bytes (a null move as ``0000``); raises
    ``DecodeError`` for bytes that are not exactly the coding of ``plies`` moves, ending early
    ones: no move is read past the bytes."""

def write_cbg(source: Source, path: Union[str, os.PathLike[str]], *, codec: str = "model") -> Tuple[int, int]:
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
        result: Optional[str] = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
        min_rating: Optional[int] = None,
        max_rating: Optional[int] = None,
        speed: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> pa.Table:
        """The games that reach the position: game, ply and tags."""
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
        """The moves played from the position, with their games and results."""

def build_index(
    sources: Union[Source, Sequence[Source]],
    output: Union[str, os.PathLike[str]],
    *,
    max_ply: Optional[int] = None,
    memory: int = 1024,
) -> Dict[str, int]:
    """A position index of the games of ``sources``: ``{"games", "skipped", "bytes"}``."""

def to_chess(board: Board) -> Any:
    """A ``chess.Board`` of the same game (python-chess needed)."""

def from_chess(board: Any) -> Board:
    """A ``chessbits.Board`` of a ``chess.Board``'s game."""
