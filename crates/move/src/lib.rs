//! Packed chess moves.
//!
//! - [`Move32`]: the 24-bit layout of bitboard engines (source, target, piece, promoted piece and
//!   four flags), with the captured role in the spare bits so a move can be unmade on its own.
//! - [`Move16`]: origin, destination and a 4-bit [`MoveKind`] nibble; castling is king-to-rook.
//! - [`UciMove`]: UCI text, not yet resolved against a position.
//! - [`MoveList`]: a stack-allocated list big enough for every legal move of any position.
//! - [`packed_fields!`]: the macro both move types are defined with.
//!
//! The conversion `Move32 -> Move16` is always lossless; the way back needs the moved piece and the
//! captured role, which a position knows.
//!
//! # Which move type to use
//!
//! - [`Move16`] is what move generation produces and what to store: two bytes, enough to play
//!   and undo the move in the position it belongs to, and to print it ([`Debug`] reads
//!   `Move16 { e7d8=Q capture-promotion }`). Its [`MoveKind`] says capture, promotion role,
//!   castling side, en passant and double push; it does not know which piece moves or what it
//!   takes.
//! - [`Move32`] carries the facts as well: the moving [`Piece`], the promoted piece, the
//!   captured [`Role`], the flags and [`Move32::kind`] (castling side included). Use it where a
//!   move must be understood without its position (move ordering by victim and attacker, a log,
//!   an engine's 24-bit exchange format via [`Move32::to_bits24`]). `chessbits-state`'s `Position::move32` builds one from a
//!   `Move16` and its position.
//! - [`UciMove`] is text from outside, not yet checked against any position.
//!
//! The board vocabulary this crate's signatures use ([`Square`], [`Piece`], [`Role`],
//! [`Color`], [`File`], [`Rank`]) is re-exported, so the crate works on its own:
//!
//! ```
//! use chessbits_move::{Color, Move16, Move32, MoveKind, MoveList, Piece, Role, Square, UciMove};
//!
//! let m32 = Move32::new(Square::G1, Square::F3, Piece::new(Color::White, Role::Knight));
//! let m16 = m32.to_move16();
//! assert_eq!(m16.kind(), Some(MoveKind::Quiet));
//! assert_eq!(m16.to_move32(Piece::new(Color::White, Role::Knight), None), m32);
//!
//! let mut list = MoveList::new();
//! list.push(m16);
//! assert_eq!(list[0].to_string(), "g1f3");
//! assert_eq!("g1f3".parse::<UciMove>()?, m16.to_uci(Default::default()));
//! # Ok::<_, chessbits_move::ParseUciMoveError>(())
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(all(feature = "std", not(test)))]
extern crate std;

mod move16;
mod move32;
mod packed;
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
mod serde_impls;
mod uci;

/// The board vocabulary of this crate's signatures, from `chessbits-bitboard`.
#[doc(no_inline)]
pub use chessbits_bitboard::{Color, File, Piece, Rank, Role, Square};
pub use move16::{Move16, MoveFlags, MoveKind};
pub use move32::{InvalidMove32, Move32, Move32Flags};
pub use uci::{CastlingMode, ParseUciMoveError, UciMove};

/// The most moves a [`MoveList`] holds. No legal chess position has more than 218 moves.
pub const MAX_MOVES: usize = 256;

/// A stack-allocated list of moves ([`Move16`] unless said otherwise), with room for every legal
/// move of any position. Pushing never allocates.
pub type MoveList<M = Move16> = arrayvec::ArrayVec<M, MAX_MOVES>;
