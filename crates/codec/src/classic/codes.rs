//! What every board encoding shares and nothing else: the 4-bit piece codes, the run width of
//! `rle`, and the error kind of a board stream. A leaf: the encodings ([`nibbles`](super::nibbles),
//! [`rle`](super::rle), [`pieces`](super::pieces), [`grouped`](super::grouped)) and
//! [`board`](super::board), which picks one of them at run time, import it, and it imports none
//! of them. [`board`](super::board) re-exports its items, where they are documented for users.

use core::fmt;

use chessbits_bitboard::{Piece, Square};

use crate::bits::{Bit, DecodeErrorKind, Located};

/// The code of a square's content: 0 for empty, 1-12 for the pieces (see [`board`](crate::classic::board)).
#[inline]
pub const fn code_of(piece: Option<Piece>) -> u8 {
    match piece {
        Some(piece) => piece.code() + 1,
        None => 0,
    }
}

/// The piece of a code 1-12; `None` for 0 (empty) and the invalid 13-15.
#[inline]
pub const fn piece_of(code: u8) -> Option<Piece> {
    match code {
        0 => None,
        _ => Piece::from_code(code - 1),
    }
}

/// How many bits a run-length count takes: `K` from 1 to 6, so a run covers up to `2^K`
/// squares (see [`rle`](crate::classic::rle)).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RunWidth(u8);

impl RunWidth {
    /// The widths 1 to 6.
    pub const ALL: [RunWidth; 6] =
        [RunWidth(1), RunWidth(2), RunWidth(3), RunWidth(4), RunWidth(5), RunWidth(6)];

    /// The width `k`, if it is 1 to 6.
    pub const fn new(k: u8) -> Option<RunWidth> {
        match k {
            1..=6 => Some(RunWidth(k)),
            _ => None,
        }
    }

    /// The width in bits, 1 to 6.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The most squares one run covers: `2^K`.
    pub const fn max_run(self) -> u32 {
        1 << self.0
    }
}

/// What is wrong with a board stream (the position is in [`Located`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BoardErrorKind {
    /// A piece code of 13, 14 or 15 (or 0 where a piece must stand).
    InvalidCode(u8),
    /// A run of this many squares starting at `from` goes past h8.
    RunPastEnd {
        /// The run's first square.
        from: Square,
        /// The run's length in squares.
        squares: u32,
    },
    /// A run width of 0 or 7 (`rle:auto`).
    InvalidRunWidth(u8),
    /// A second piece on this square.
    SquareTaken(Square),
    /// A group of this kind after a group of kind `after` (`grouped`: kinds must rise, and a
    /// kind repeats only after a full group of 8).
    KindOutOfOrder {
        /// The kind read.
        kind: u8,
        /// The kind of the group before it.
        after: u8,
    },
}

impl fmt::Display for BoardErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BoardErrorKind::InvalidCode(code) => write!(f, "invalid piece code {code}"),
            BoardErrorKind::RunPastEnd { from, squares } => {
                write!(f, "a run of {squares} squares from {from} goes past h8")
            }
            BoardErrorKind::InvalidRunWidth(k) => {
                write!(f, "invalid run width {k}, expected 1 to 6")
            }
            BoardErrorKind::SquareTaken(sq) => write!(f, "a second piece on {sq}"),
            BoardErrorKind::KindOutOfOrder { kind, after } => {
                write!(f, "piece kind {kind} after kind {after}, kinds must rise")
            }
        }
    }
}

/// Why a stream is not a board: the bit offset and a [`BoardErrorKind`].
pub type BoardError = Located<Bit, DecodeErrorKind<BoardErrorKind>>;
