//! Chess notation as text: the formats that name positions and moves, read and written for the
//! types of `chessbits-state` and `chessbits-movegen`.
//!
//! - [`fen`]: FEN with its Chess960 extensions, X-FEN and Shredder-FEN. [`fen::Fen`] holds the
//!   six fields of a position unvalidated, [`fen::parse_position`] goes from text to a legal
//!   [`Position`](chessbits_state::Position), and [`fen::fen_of`] back.
//! - [`epd`]: EPD records ([`epd::Epd`]: the position fields and typed operations, test-suite
//!   and perft-suite style).
//! - [`san`]: moves in Standard Algebraic Notation ([`san::San`], [`san::SanPlus`]), read
//!   without a position and resolved against one, with syntax and resolution errors apart.
//! - [`uci`]: the UCI `position` command ([`uci::UciPosition`]); UCI moves themselves are
//!   `chessbits_move::UciMove`.
//!
//! PGN is a crate of its own (`chessbits-pgn`), and so are the bit-level encodings
//! (`chessbits-codec`): a program that only reads FEN compiles neither.
//!
//! Parsers never panic: text that is not FEN gives a [`fen::ParseFenError`] saying which field is wrong,
//! at which byte, and how; a FEN that describes no legal position gives the
//! [`PositionError`](chessbits_state::PositionError). [`fen::FenError`] is either.
//!
//! ```
//! use chessbits_notation::fen::{fen_of, parse_position, CastlingNotation, EnPassantMode, Fen, FenOptions};
//!
//! let pos = parse_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")?;
//! assert_eq!(pos.fullmoves(), 1);
//!
//! // Printing is canonical and round-trips.
//! let fen = fen_of(&pos, FenOptions::default());
//! assert_eq!(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
//! assert_eq!(fen.parse::<Fen>()?.into_position()?, pos);
//!
//! // Shredder-FEN castling, and the en passant square only when a capture may follow.
//! let options = FenOptions {
//!     castling: CastlingNotation::Shredder,
//!     en_passant: EnPassantMode::PseudoLegal,
//! };
//! assert_eq!(fen_of(&pos, options), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha - 0 1");
//!
//! // Errors say where and what.
//! let err = parse_position("rnbqkbnr/pppppppp/ppppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
//! assert_eq!(err.unwrap_err().to_string(), "placement (byte 26): rank 6 has 9 squares");
//! # Ok::<_, chessbits_notation::fen::FenError>(())
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

pub mod epd;
pub mod fen;
pub mod san;
pub mod uci;
