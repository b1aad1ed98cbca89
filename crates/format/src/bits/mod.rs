//! The bit-level half of the crate: positions and games as bytes.
//!
//! - [`packed`]: a position in at most 24 bytes, the lichess "binary FEN" layout.
//! - [`compact`]: a position coded against a model of real games, about 9 bytes.
//! - [`range`]: the range coder that model-coded formats drive.

pub mod compact;
pub mod packed;
pub mod range;
