//! Chess positions and games to the bit: the layouts that store them in as few bytes as the
//! position or game allows, with typed errors that say at which byte or bit, and decoders that
//! never panic.
//!
//! - [`bits`]: the bit writer and reader every layout shares (most significant bit first).
//! - [`classic`] (feature `classic`, on by default): the classic, field-by-field encodings of
//!   boards, game states, positions, moves and games ([`classic::board::BoardFormat`],
//!   [`classic::position::PositionFormat`], [`classic::moves::MoveFormat`],
//!   [`classic::game::GameFormat`]).
//! - [`packed`]: a position in at most 24 bytes (35 with clocks), the lichess "binary FEN"
//!   layout.
//! - [`compact`]: a position coded against a model of real games, about 10 bytes.
//! - [`range`]: the range coder that model-coded formats drive.
//! - [`move_codec`]: a game's mainline as bytes, by a fitted model of moves and the range coder
//!   (about 3 bits a move), or as move indices.
//!
//! Every layout is documented in its module with its exact bits and a worked example in hex;
//! changing one is a breaking change.
//!
//! ```
//! use chessbits_codec::{compact, packed};
//! use chessbits_notation::fen::parse_position;
//!
//! let pos = parse_position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")?;
//! // With the clocks: the position comes back whole.
//! let bytes = packed::encode(&pos, true);
//! assert!(bytes.as_bytes().len() <= packed::MAX_LEN);
//! assert_eq!(packed::decode(bytes.as_bytes())?, pos);
//! let small = compact::encode(&pos, true);
//! assert!(small.as_bytes().len() < bytes.as_bytes().len());
//! assert_eq!(compact::decode(small.as_bytes())?, pos);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

pub mod bits;
#[cfg(feature = "classic")]
#[cfg_attr(docsrs, doc(cfg(feature = "classic")))]
pub mod classic;
pub mod compact;
mod inline_bytes;
pub mod move_codec;
// The move model's internals (its features, the opening book, the analysis the fitter and
// the benches use): public for xtask's fitter, outside the documented, semver-covered API.
#[doc(hidden)]
pub mod move_model;
mod move_model_table;
pub mod packed;
pub mod range;
