"""python-chess's bitboard names, with its values: masks as ints (bit 0 = a1, bit 63 = h8),
square distances, and the bit operations a python-chess script calls (``popcount``,
``msb``, ``flip_vertical`` ...), so that such a script runs on chessbits unchanged.
``Board.transform(f)`` takes the flips and shifts here."""

from typing import Iterator, List

BB_EMPTY = 0
BB_ALL = (1 << 64) - 1
BB_SQUARES: List[int] = [1 << sq for sq in range(64)]
# One mask a square: BB_A1 = 1 << A1 ... BB_H8 = 1 << H8.
BB_A1, BB_B1, BB_C1, BB_D1, BB_E1, BB_F1, BB_G1, BB_H1 = (
    1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 4, 1 << 5, 1 << 6, 1 << 7,
)
BB_A2, BB_B2, BB_C2, BB_D2, BB_E2, BB_F2, BB_G2, BB_H2 = (
    1 << 8, 1 << 9, 1 << 10, 1 << 11, 1 << 12, 1 << 13, 1 << 14, 1 << 15,
)
BB_A3, BB_B3, BB_C3, BB_D3, BB_E3, BB_F3, BB_G3, BB_H3 = (
    1 << 16, 1 << 17, 1 << 18, 1 << 19, 1 << 20, 1 << 21, 1 << 22, 1 << 23,
)
BB_A4, BB_B4, BB_C4, BB_D4, BB_E4, BB_F4, BB_G4, BB_H4 = (
    1 << 24, 1 << 25, 1 << 26, 1 << 27, 1 << 28, 1 << 29, 1 << 30, 1 << 31,
)
BB_A5, BB_B5, BB_C5, BB_D5, BB_E5, BB_F5, BB_G5, BB_H5 = (
    1 << 32, 1 << 33, 1 << 34, 1 << 35, 1 << 36, 1 << 37, 1 << 38, 1 << 39,
)
BB_A6, BB_B6, BB_C6, BB_D6, BB_E6, BB_F6, BB_G6, BB_H6 = (
    1 << 40, 1 << 41, 1 << 42, 1 << 43, 1 << 44, 1 << 45, 1 << 46, 1 << 47,
)
BB_A7, BB_B7, BB_C7, BB_D7, BB_E7, BB_F7, BB_G7, BB_H7 = (
    1 << 48, 1 << 49, 1 << 50, 1 << 51, 1 << 52, 1 << 53, 1 << 54, 1 << 55,
)
BB_A8, BB_B8, BB_C8, BB_D8, BB_E8, BB_F8, BB_G8, BB_H8 = (
    1 << 56, 1 << 57, 1 << 58, 1 << 59, 1 << 60, 1 << 61, 1 << 62, 1 << 63,
)
BB_FILES: List[int] = [0x0101_0101_0101_0101 << file for file in range(8)]
BB_RANKS: List[int] = [0xFF << (8 * rank) for rank in range(8)]
BB_FILE_A, BB_FILE_B, BB_FILE_C, BB_FILE_D, BB_FILE_E, BB_FILE_F, BB_FILE_G, BB_FILE_H = BB_FILES
BB_RANK_1, BB_RANK_2, BB_RANK_3, BB_RANK_4, BB_RANK_5, BB_RANK_6, BB_RANK_7, BB_RANK_8 = BB_RANKS
BB_CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
BB_CENTER = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36)
BB_LIGHT_SQUARES = 0x55AA_55AA_55AA_55AA
BB_DARK_SQUARES = 0xAA55_AA55_AA55_AA55
BB_BACKRANKS = BB_RANKS[0] | BB_RANKS[7]

# The board turned half round: square i of the turned board is square 63 - i.
SQUARES_180: List[int] = [sq ^ 0x38 for sq in range(64)]


def _steps(sq: int, deltas) -> int:  # type: ignore[no-untyped-def]
    out = 0
    for df, dr in deltas:
        f, r = sq % 8 + df, sq // 8 + dr
        if 0 <= f < 8 and 0 <= r < 8:
            out |= 1 << (r * 8 + f)
    return out


_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_KING = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
# The squares a knight, a king, or a pawn (``BB_PAWN_ATTACKS[color][square]``, black's
# first, as colors index) on each square attacks.
BB_KNIGHT_ATTACKS: List[int] = [_steps(sq, _KNIGHT) for sq in range(64)]
BB_KING_ATTACKS: List[int] = [_steps(sq, _KING) for sq in range(64)]
BB_PAWN_ATTACKS: List[List[int]] = [
    [_steps(sq, ((-1, -1), (1, -1))) for sq in range(64)],
    [_steps(sq, ((-1, 1), (1, 1))) for sq in range(64)],
]


def square_distance(a: int, b: int) -> int:
    """The king moves from ``a`` to ``b`` on an empty board (the larger of the file and rank
    differences)."""
    return max(abs(a % 8 - b % 8), abs(a // 8 - b // 8))


def square_manhattan_distance(a: int, b: int) -> int:
    """The file difference plus the rank difference of ``a`` and ``b``."""
    return abs(a % 8 - b % 8) + abs(a // 8 - b // 8)


def square_knight_distance(a: int, b: int) -> int:
    """The knight moves from ``a`` to ``b`` on an empty board. Raises ``IndexError`` for a
    square outside 0..63."""
    if not (0 <= a < 64 and 0 <= b < 64):
        raise IndexError(f"square out of range: {a if not 0 <= a < 64 else b}")
    seen, frontier, moves = {a}, [a], 0
    while b not in seen:
        moves += 1
        step = []
        for sq in frontier:
            for df, dr in _KNIGHT:
                f, r = sq % 8 + df, sq // 8 + dr
                if 0 <= f < 8 and 0 <= r < 8 and r * 8 + f not in seen:
                    seen.add(r * 8 + f)
                    step.append(r * 8 + f)
        frontier = step
    return moves


def square_mirror(sq: int) -> int:
    """``sq`` mirrored vertically: a1 <-> a8."""
    return sq ^ 0x38


def popcount(bb: int) -> int:
    """The squares of a mask."""
    return bin(bb).count("1")


def lsb(bb: int) -> int:
    """The lowest square of a non-empty mask."""
    return (bb & -bb).bit_length() - 1


def msb(bb: int) -> int:
    """The highest square of a non-empty mask."""
    return bb.bit_length() - 1


def scan_forward(bb: int) -> Iterator[int]:
    """The squares of a mask, lowest first."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def scan_reversed(bb: int) -> Iterator[int]:
    """The squares of a mask, highest first."""
    while bb:
        sq = bb.bit_length() - 1
        yield sq
        bb ^= 1 << sq


def _squares_moved(bb: int, where) -> int:  # type: ignore[no-untyped-def]
    out = 0
    for sq in scan_forward(bb):
        out |= 1 << where(sq)
    return out


def flip_vertical(bb: int) -> int:
    """The mask mirrored top to bottom (rank 1 <-> rank 8)."""
    return int.from_bytes((bb & BB_ALL).to_bytes(8, "little"), "big")


def flip_horizontal(bb: int) -> int:
    """The mask mirrored left to right (file a <-> file h)."""
    return _squares_moved(bb & BB_ALL, lambda sq: sq ^ 7)


def flip_diagonal(bb: int) -> int:
    """The mask mirrored about the a1-h8 diagonal (file and rank swapped)."""
    return _squares_moved(bb & BB_ALL, lambda sq: (sq % 8) * 8 + sq // 8)


def flip_anti_diagonal(bb: int) -> int:
    """The mask mirrored about the h1-a8 diagonal."""
    return _squares_moved(bb & BB_ALL, lambda sq: (7 - sq % 8) * 8 + (7 - sq // 8))


_NOT_A = BB_ALL & ~BB_FILES[0]
_NOT_H = BB_ALL & ~BB_FILES[7]
_NOT_AB = _NOT_A & ~BB_FILES[1]
_NOT_GH = _NOT_H & ~BB_FILES[6]


def shift_down(b: int) -> int:
    """Every square one rank down; the first rank falls off."""
    return b >> 8


def shift_2_down(b: int) -> int:
    """Every square two ranks down."""
    return b >> 16


def shift_up(b: int) -> int:
    """Every square one rank up; the eighth rank falls off."""
    return (b << 8) & BB_ALL


def shift_2_up(b: int) -> int:
    """Every square two ranks up."""
    return (b << 16) & BB_ALL


def shift_right(b: int) -> int:
    """Every square one file towards h; the h-file falls off."""
    return (b << 1) & _NOT_A & BB_ALL


def shift_2_right(b: int) -> int:
    """Every square two files towards h."""
    return (b << 2) & _NOT_AB & BB_ALL


def shift_left(b: int) -> int:
    """Every square one file towards a; the a-file falls off."""
    return (b >> 1) & _NOT_H


def shift_2_left(b: int) -> int:
    """Every square two files towards a."""
    return (b >> 2) & _NOT_GH


def shift_up_left(b: int) -> int:
    """Every square one rank up and one file towards a."""
    return (b << 7) & _NOT_H & BB_ALL


def shift_up_right(b: int) -> int:
    """Every square one rank up and one file towards h."""
    return (b << 9) & _NOT_A & BB_ALL


def shift_down_left(b: int) -> int:
    """Every square one rank down and one file towards a."""
    return (b >> 9) & _NOT_H


def shift_down_right(b: int) -> int:
    """Every square one rank down and one file towards h."""
    return (b >> 7) & _NOT_A


def _line(a: int, b: int, between_only: bool) -> int:
    fa, ra, fb, rb = a % 8, a // 8, b % 8, b // 8
    df, dr = fb - fa, rb - ra
    if a == b or not (df == 0 or dr == 0 or abs(df) == abs(dr)):
        return 0
    step_f, step_r = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
    out = 0
    if between_only:
        f, r = fa + step_f, ra + step_r
        while (f, r) != (fb, rb):
            out |= 1 << (r * 8 + f)
            f, r = f + step_f, r + step_r
        return out
    # The whole line through both squares, edge to edge.
    f, r = fa, ra
    while 0 <= f - step_f < 8 and 0 <= r - step_r < 8:
        f, r = f - step_f, r - step_r
    while 0 <= f < 8 and 0 <= r < 8:
        out |= 1 << (r * 8 + f)
        f, r = f + step_f, r + step_r
    return out


def between(a: int, b: int) -> int:
    """The squares strictly between ``a`` and ``b`` on their rank, file or diagonal (0 if
    they share none), as a mask."""
    return _line(a, b, True)


def ray(a: int, b: int) -> int:
    """The whole rank, file or diagonal through ``a`` and ``b``, edge to edge (0 if they
    share none), as a mask."""
    return _line(a, b, False)
