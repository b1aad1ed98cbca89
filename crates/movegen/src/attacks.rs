//! Attack sets from the lookup tables, one call each.
//!
//! Each function reaches the tables through [`tables()`](crate::tables()); in a loop, take
//! `tables()` once and call its methods instead.

use chessbits_bitboard::{Bitboard, Color, Square};

use crate::tables;

/// Squares a knight on `sq` attacks.
#[inline]
pub fn knight(sq: Square) -> Bitboard {
    tables().knight(sq)
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king(sq: Square) -> Bitboard {
    tables().king(sq)
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    tables().pawn(color, sq)
}

/// Squares a rook on `sq` attacks, given the occupied squares.
#[inline]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    tables().rook(sq, occupied)
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[inline]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    tables().bishop(sq, occupied)
}

/// Squares a queen on `sq` attacks, given the occupied squares.
#[inline]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    tables().queen(sq, occupied)
}

/// Squares strictly between `a` and `b` when they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    tables().between(a, b)
}

/// The whole line through `a` and `b` when they share one, else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    tables().line(a, b)
}
