//! chessbits: chess at the bit level.
//!
//! This facade re-exports the layers, lowest first, each also usable as its own crate:
//!
//! - [`bitboard`] (`chessbits-bitboard`): `Color`, `Square`, `Piece`, `Bitboard`, reference attacks.
//! - [`moves`] (`chessbits-move`): `Move32`, `Move16`, `UciMove`, `MoveList`.
//! - [`state`] (`chessbits-state`): `Board`, `Setup`, `Position`, Zobrist keys, `History`.
//! - [`movegen`] (`chessbits-movegen`): legal move generation, `perft`, `Game`, `Outcome`.
//! - [`format`](mod@format) (`chessbits-format`): FEN, X-FEN and Shredder-FEN, EPD, UCI `position`
//!   commands.
//!
//! The most used names are also in the [`prelude`].
//!
//! ```
//! use chessbits::prelude::*;
//!
//! let mut game = Game::new(fen::parse_position("4k3/8/4K3/8/8/8/8/R7 w - - 0 1")?);
//! game.play_uci("a1a8".parse()?)?;
//! let outcome = game.outcome().expect("the game is over");
//! assert_eq!(outcome.winner(), Some(Color::White));
//! assert_eq!(outcome.termination(), Termination::Checkmate);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

pub use chessbits_bitboard as bitboard;
pub use chessbits_format as format;
pub use chessbits_move as moves;
pub use chessbits_movegen as movegen;
pub use chessbits_state as state;

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The names most programs need, in one `use`.
pub mod prelude {
    pub use chessbits_bitboard::{Bitboard, Color, File, Piece, Rank, Role, Square};
    pub use chessbits_format::{fen, Epd, San, SanPlus, UciPosition};
    pub use chessbits_move::{CastlingMode, Move16, Move32, MoveKind, MoveList, UciMove};
    pub use chessbits_movegen::{divide, perft, Game, MoveGen, Outcome, Termination};
    pub use chessbits_state::{Position, Setup};
}
