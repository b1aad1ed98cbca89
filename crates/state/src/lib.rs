//! Chess game state: where the pieces stand ([`Board`]), who moves, castling rights (Chess960
//! included), the en passant square, the clocks, the Polyglot [`zobrist`] key, and making and
//! unmaking moves ([`Position::play_unchecked`], [`Position::undo`]).
//!
//! Parsers produce an unvalidated [`Setup`]; [`Position::from_setup`] checks it and returns a
//! typed [`PositionError`]
//! listing every problem as a [`Status`] ([`validate`] has the catalogue). Legal move generation is in `chessbits-movegen`.
//!
//! The board and move types its signatures use ([`Square`], [`Piece`], [`Move16`], ...) are
//! re-exported, so the crate works on its own:
//!
//! ```
//! use chessbits_state::{Move16, MoveKind, Position, Role, Setup, Square};
//!
//! let mut pos = Position::from_setup(&Setup::default())?;
//! assert_eq!(pos.key(), 0x463b96181691fc9c);
//! let nf3 = Move16::new(Square::G1, Square::F3, MoveKind::Quiet);
//! assert_eq!(pos.move32(nf3).and_then(|m| m.piece()).map(|p| p.role), Some(Role::Knight));
//! let undo = pos.play_unchecked(nf3);
//! assert_eq!(pos.halfmoves(), 1);
//! assert_eq!(pos.key(), pos.compute_key());
//! assert!(pos.to_string().ends_with("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1\n"));
//! pos.undo(undo);
//! assert_eq!(pos, Position::new());
//! # Ok::<_, chessbits_state::PositionError>(())
//! ```
#![forbid(unsafe_code)]

mod board;
mod castling;
mod chess960;
mod display;
mod history;
mod polyglot_table;
mod position;
mod setup;
mod tables;
pub mod validate;
pub mod zobrist;

/// The board and move vocabulary of this crate's signatures, re-exported so that it can be used
/// on its own.
#[doc(no_inline)]
pub use chessbits_bitboard::{Bitboard, ByColor, ByRole, Color, File, Piece, Rank, Role, Square};
#[doc(no_inline)]
pub use chessbits_move::{CastlingMode, Move16, Move32, MoveKind, UciMove};

pub use board::Board;
pub use castling::{Castles, CastlingRights, CastlingSide};
pub use chess960::CHESS960_POSITIONS;
pub use display::{BoardFen, CastlingFen};
pub use history::History;
pub use position::{CastlingModeError, NullMoveError, Position, PositionError, Undo};
pub use setup::{BitboardPlacement, BitboardSetup, Setup};
pub use validate::Status;
