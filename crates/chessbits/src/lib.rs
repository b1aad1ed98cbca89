//! chessbits: chess at the bit level.
//!
//! This facade re-exports the layers, lowest first, each also usable as its own crate:
//!
//! - [`bitboard`] (`chessbits-bitboard`): `Color`, `Square`, `Piece`, `Bitboard`, reference attacks.
//! - [`moves`] (`chessbits-move`): `Move32`, `Move16`, `UciMove`, `MoveList`.
//! - [`state`] (`chessbits-state`): `Board`, `Setup`, `Position`, Zobrist keys, `History`.
//! - [`movegen`] (`chessbits-movegen`): legal move generation, `perft`, `Game`, `Outcome`.
//! - [`notation`] (`chessbits-notation`): FEN, X-FEN and Shredder-FEN, EPD, SAN, UCI
//!   `position` commands.
//! - [`pgn`] (`chessbits-pgn`): reading PGN fast (a visitor, or game trees) and writing it.
//! - [`codec`] (`chessbits-codec`): positions and games to the bit: the classic encodings,
//!   `packed` and `compact` positions, the move codec.
//! - [`cbg`] (`chessbits-cbg`): the `.cbg` game file, read from PGN.
//! - [`index`] (`chessbits-index`): the position index (`.cbx`), which games reached a
//!   position by any move order and what was played from it.
//!
//! The most used names are also in the [`prelude`]: enough to read a PGN, play moves, write
//! FEN and SAN, and pack a position or a game.
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
pub use chessbits_cbg as cbg;
pub use chessbits_codec as codec;
pub use chessbits_index as index;
pub use chessbits_move as moves;
pub use chessbits_movegen as movegen;
pub use chessbits_notation as notation;
pub use chessbits_pgn as pgn;
pub use chessbits_state as state;

/// The workspace README's Rust examples, compiled and run as doctests so they stay true.
/// `README-workspace.md` links to it, so that the package holds it too.
#[cfg(doctest)]
#[doc = include_str!("../README-workspace.md")]
pub struct ReadmeDoctests;

/// The names most programs need, in one `use`: the vocabulary, positions and games, FEN,
/// SAN and UCI text, reading PGN, and packing positions and games.
///
/// ```
/// use chessbits::prelude::*;
///
/// // Read a PGN game, play its mainline, and write what it reached.
/// let pgn = b"[Event \"Casual\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
/// let replayed = SliceReader::new(pgn).read_game(&mut Replay::default()).unwrap()?;
/// let mut game = replayed.game;
/// assert_eq!(game.outcome().map(|o| o.termination()), Some(Termination::Checkmate));
/// assert_eq!(
///     fen_of(game.position(), FenOptions::default()),
///     "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
/// );
/// let last = game.undo().expect("a move");
/// assert_eq!(SanPlus::from_move(game.position(), last).to_string(), "Qxf7#");
/// game.play(last)?;
///
/// // The position in about ten bytes, the moves in about three bits each.
/// let small = compact::encode(game.position(), true);
/// assert_eq!(compact::decode(small.as_bytes())?, *game.position());
/// let mut coded = Vec::new();
/// move_codec::encode(MoveCodec::Model, game.start(), game.moves(), &mut coded)?;
/// assert!(coded.len() <= 4);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub mod prelude {
    #[doc(no_inline)]
    pub use chessbits_bitboard::{Bitboard, Color, File, Piece, Rank, Role, Square};
    #[doc(no_inline)]
    pub use chessbits_codec::move_codec::{self, MoveCodec};
    #[doc(no_inline)]
    pub use chessbits_codec::{compact, packed};
    #[doc(no_inline)]
    pub use chessbits_move::{CastlingMode, Move16, Move32, MoveKind, MoveList, UciMove};
    #[doc(no_inline)]
    pub use chessbits_movegen::{divide, perft, Game, MoveGen, Outcome, Termination};
    #[doc(no_inline)]
    pub use chessbits_notation::epd::Epd;
    #[doc(no_inline)]
    pub use chessbits_notation::fen::{self, fen_of, FenOptions};
    #[doc(no_inline)]
    pub use chessbits_notation::san::{San, SanPlus};
    #[doc(no_inline)]
    pub use chessbits_notation::uci::UciPosition;
    #[doc(no_inline)]
    pub use chessbits_pgn::{read_games, PgnReader, Replay, SliceReader, Visitor};
    #[doc(no_inline)]
    pub use chessbits_state::{Position, Setup};
}
