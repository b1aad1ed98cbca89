//! The text half of the crate: formats people and other programs read and write as text.
//!
//! - [`fen`]: FEN, X-FEN and Shredder-FEN.
//! - [`san`]: Standard Algebraic Notation for moves.

pub mod fen;
pub mod san;
