//! The chess vocabulary at the bit level: [`Color`], [`File`], [`Rank`], [`Square`], [`Role`],
//! [`Piece`] and the 64-bit square set [`Bitboard`].
//!
//! Squares are numbered little-endian rank-file: 0 = a1, 1 = b1, ..., 8 = a2, ..., 63 = h8, and bit
//! `i` of a [`Bitboard`] stands for square `i`. The crate is `no_std`, never allocates, and most
//! operations are `const fn`, so lookup tables can be built at compile time.
//!
//! ```
//! use chessbits_bitboard::{Bitboard, Color, Piece, Role, Square};
//!
//! let e4: Square = "e4".parse()?;
//! let pawns = Bitboard::RANK_2 | e4;
//! assert_eq!(pawns.count(), 9);
//! assert_eq!(pawns.north().first(), Some(Square::A3));
//! assert_eq!(Piece::new(Color::Black, Role::Knight).char(), 'n');
//! # Ok::<_, chessbits_bitboard::ParseSquareError>(())
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(not(test), no_std)]
#![deny(unsafe_code)]

#[cfg(all(feature = "std", not(test)))]
extern crate std;

mod bitboard;
mod color;
// The workspace's own machinery for compiling hot paths per CPU feature level, used by
// chessbits-movegen: public only because a sibling crate calls it, and outside the
// documented (semver-covered) API, with its macros.
#[doc(hidden)]
pub mod isa;
mod piece;
// The attack definitions the tables are built from and checked against: slow, for tables
// and tests, not an API (`tables` is).
#[doc(hidden)]
pub mod reference;
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
mod serde_text;
mod square;
pub mod tables;

pub use bitboard::{Bitboard, Squares};
pub use color::{ByColor, Color};
pub use piece::{ByRole, Piece, Role};
pub use square::{File, ParseSquareError, Rank, Square};
