//! The classic encodings: boards, game states, positions, moves and games packed field by
//! field, over the crate's bit writer and reader ([`crate::bits`]: fields most significant bit
//! first, typed errors with the bit offset). They are the plain, documented layouts that the
//! model-coded formats ([`crate::packed`], [`crate::compact`], [`crate::move_codec`]) are
//! measured against.
//!
//! - Boards ([`board`] for the piece codes and [`BoardFormat`](board::BoardFormat)): [`nibbles`] (256 bits),
//!   [`rle`] (runs of equal squares, `rle:1`..`rle:6`, `rle:auto`), [`pieces`] (a piece list),
//!   [`grouped`] (squares grouped by piece kind).
//! - Game state ([`state`]): [`state_lossy`] (the `state14` format: 14 bits, lossy) and [`state_full`] (lossless).
//! - [`position`]: any board encoding followed by a state encoding
//!   ([`PositionFormat`](position::PositionFormat)).
//! - [`moves`]: move codes against a position (12-bit origin and target, SAN-like codes).
//! - [`game`]: a start position and the move stream, decoded by replaying into a `Game`.
//! - [`encoding`]: every board, state and position encoding by name (the `packed` and
//!   `compact` positions among them), for the command line.
//!
//! Every layout is documented in its module with a worked example in hex; changing one is a
//! breaking change. Decoders never panic, whatever the bytes.

pub mod board;
mod codes;
pub mod encoding;
pub mod game;
pub mod grouped;
pub mod moves;
pub mod nibbles;
pub mod pieces;
pub mod position;
pub mod rle;
pub mod state;
pub mod state_full;
pub mod state_lossy;
