//! The bit-level half of the crate: positions and games packed to the bit, over one shared bit
//! writer and reader ([`io`]: fields most significant bit first, typed errors with the bit
//! offset).
//!
//! - Boards ([`board`] for the piece codes and [`BoardFormat`]): [`nibbles`] (256 bits),
//!   [`rle`] (runs of equal squares, `rle:1`..`rle:6`, `rle:auto`), [`pieces`] (a piece list),
//!   [`grouped`] (squares grouped by piece kind).
//! - Game state ([`state`]): [`state14`] (14 bits, lossy) and [`state_full`] (lossless).
//! - [`position`]: any board encoding followed by a state encoding ([`PositionFormat`]).
//! - [`moves`]: move codes against a position (12-bit origin and target, SAN-like codes).
//! - [`game`]: a start position and the move stream, decoded by replaying into a `Game`.
//! - [`encoding`]: every board, state and position encoding by name, for the command line.
//! - [`packed`]: a position in at most 24 bytes, the lichess "binary FEN" layout.
//! - [`compact`]: a position coded against a model of real games, about 10 bytes.
//! - [`range`]: the range coder that model-coded formats drive.
//! - [`move_model`]: a probability for every legal move, from a cheap fitted model.
//! - [`cbg`]: the `.cbg` game file: tags, start position, coded mainline, clocks and
//!   evaluations per game, with an index.
//! - [`move_codec`]: a game's mainline as bytes, by that model and the range coder, or as
//!   move indices.
//!
//! Every layout is documented in its module with a worked example in hex; changing one is a
//! breaking change. Decoders never panic, whatever the bytes.

pub mod board;
pub mod cbg;
pub mod compact;
pub mod encoding;
pub mod game;
pub mod grouped;
mod inline_bytes;
pub mod io;
pub mod move_codec;
pub mod move_model;
mod move_model_table;
pub mod moves;
pub mod nibbles;
pub mod packed;
pub mod pieces;
pub mod position;
pub mod range;
pub mod rle;
pub mod state;
pub mod state14;
pub mod state_full;

pub use board::{BoardError, BoardErrorKind, BoardFormat, RunWidth, UnknownFormat};
pub use game::{GameDecodeError, GameEncodeError, GameErrorKind, GameFormat};
pub use io::{BitReader, BitWriter, Bits, DecodeError, DecodeErrorKind};
pub use moves::{MoveCode, MoveDecodeError, MoveErrorKind};
pub use position::{PositionDecodeError, PositionErrorKind, PositionFormat, StateFormat};
pub use state::{StateEncodeError, StateError, StateErrorKind, StateFields};
