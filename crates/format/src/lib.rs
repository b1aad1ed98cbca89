//! Chess positions and games as text: the formats that read and write the types of
//! `chessbits-state`.
//!
//! Today this is FEN with its Chess960 extensions, X-FEN and Shredder-FEN, in the [`fen`] module:
//! [`Fen`] holds the six fields of a position unvalidated, [`parse_position`] goes from text to a
//! legal [`Position`](chessbits_state::Position), and [`fen_of`] back. [`epd`] reads and writes
//! EPD records ([`Epd`]: the position fields and typed operations, test-suite and perft-suite
//! style), and [`uci`] the UCI `position` command ([`UciPosition`]). [`san`] reads and writes moves in
//! Standard Algebraic Notation ([`San`], [`SanPlus`]). [`bits`] packs boards, game states,
//! positions and games to the bit ([`BoardFormat`], [`StateFormat`], [`PositionFormat`],
//! [`MoveCode`], [`GameFormat`]), and as bytes: [`packed`] (at most 24
//! bytes, the lichess binary FEN layout) and [`compact`] (about 10 bytes, range-coded against a
//! model of real games). [`pgn`] reads games fast (a visitor over a byte scanner, or game
//! trees) and writes them in export format. [`move_codec`] codes a game's moves in about 3
//! bits each with a fitted [`move_model`], and [`cbg`] stores many games with their tags, clocks
//! and evaluations in one indexed file.
//!
//! Parsers never panic: text that is not FEN gives a [`ParseFenError`] saying which field is wrong,
//! at which byte, and how; a FEN that describes no legal position gives the
//! [`PositionError`](chessbits_state::PositionError). [`FenError`] is either.
//!
//! ```
//! use chessbits_format::{fen_of, parse_position, CastlingNotation, EnPassantMode, Fen, FenOptions};
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
//! # Ok::<_, chessbits_format::FenError>(())
//! ```
#![forbid(unsafe_code)]

pub mod bits;
pub mod text;

pub use bits::{cbg, compact, move_codec, move_model, packed};
pub use text::{epd, fen, pgn, san, uci};

pub use compact::{Compact, CompactError, CompactErrorKind};
pub use epd::{Epd, ParseEpdError};
pub use fen::{
    fen_of, parse_position, CastlingNotation, EnPassantMode, Fen, FenError, FenErrorKind, FenField,
    FenOptions, ParseFenError,
};
pub use packed::{Packed, PackedError, PackedErrorKind};
pub use san::{Candidates, ParseSanError, ParseSanErrorKind, San, SanError, SanPlus, Suffix};
pub use uci::{ParseUciPositionError, UciPosition, UciPositionError};

pub use bits::{BoardFormat, GameFormat, MoveCode, PositionFormat, StateFormat};
pub use cbg::{CbgError, CbgFile, CbgReader, CbgWriter, GameBuilder, GameRecord};
pub use move_codec::MoveCodec;
