//! The bit-level half of the crate: positions and games as bytes.
//!
//! - [`packed`]: a position in at most 24 bytes, the lichess "binary FEN" layout.
//! - [`range`]: the range coder that model-coded formats drive.

pub mod packed;
pub mod range;
