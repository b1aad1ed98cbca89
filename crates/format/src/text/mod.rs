//! The text half of the crate: formats people and other programs read and write as text.
//!
//! - [`fen`]: FEN, X-FEN and Shredder-FEN.
//! - [`epd`]: EPD records, test-suite and perft-suite style.
//! - [`san`]: Standard Algebraic Notation for moves.
//! - [`pgn`]: PGN games: a streaming reader with a visitor, a game tree, and a writer.
//! - [`uci`]: UCI `position` commands.

pub mod epd;
pub mod fen;
pub mod pgn;
pub mod san;
pub mod uci;
