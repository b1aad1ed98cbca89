//! Attack sets, one call each: the one attack API.
//!
//! The sliders' ([`rook`], [`bishop`], [`queen`]) are looked up in the magic tables built at
//! run time, through [`tables()`](crate::tables()); in a loop, take `tables()` once and call
//! its methods instead. The leapers' ([`knight`], [`king`], [`pawn`]) and the lines
//! ([`between`], [`line()`]) are compile-time tables, defined in `chessbits_bitboard::tables`
//! and re-exported here so that one module holds every attack set.

#[doc(no_inline)]
pub use chessbits_bitboard::tables::{between, king, knight, line, pawn};
use chessbits_bitboard::{Bitboard, Square};

use crate::tables;

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
