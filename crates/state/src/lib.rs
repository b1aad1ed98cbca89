//! Chess game state: where the pieces stand ([`Board`]), who moves, castling rights (Chess960
//! included), the en passant square, the clocks, the Polyglot [`zobrist`] key, and making and
//! unmaking moves ([`Position::play_unchecked`], [`Position::undo`]).
//!
//! Parsers produce an unvalidated [`Setup`]; [`Position::from_setup`] checks it and returns a
//! typed [`PositionError`]
//! listing every problem as a [`Status`] ([`validate`] has the catalogue). Legal move generation is in `chessbits-movegen`.
//!
//! ```
//! use chessbits_bitboard::Square;
//! use chessbits_move::{Move16, MoveKind};
//! use chessbits_state::{Position, Setup};
//!
//! let mut pos = Position::from_setup(&Setup::default())?;
//! assert_eq!(pos.key(), 0x463b96181691fc9c);
//! pos.play_unchecked(Move16::new(Square::G1, Square::F3, MoveKind::Quiet));
//! assert_eq!(pos.halfmoves(), 1);
//! assert_eq!(pos.key(), pos.compute_key());
//! # Ok::<_, chessbits_state::PositionError>(())
//! ```
#![forbid(unsafe_code)]

mod board;
mod castling;
mod history;
mod polyglot_table;
mod position;
mod setup;
pub mod validate;
pub mod zobrist;

pub use board::Board;
pub use castling::{Castles, CastlingRights, CastlingSide};
pub use history::History;
pub use position::{CastlingModeError, NullMoveError, Position, PositionError, Undo};
pub use setup::Setup;
pub use validate::Status;
