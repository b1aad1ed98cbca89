//! A position index over a game database: which games reached a position, by any move order,
//! and what was played from it, without scanning the games.
//!
//! ```
//! use chessbits_cbg::GameBuilder;
//! use chessbits_index::{position_after, BuildOptions, Filter, Index, IndexBuilder, PreparedGame};
//! use chessbits_pgn::SliceReader;
//!
//! // Two games reach the same position by two move orders; a third does not.
//! let pgn = b"1. e4 e5 2. Nf3 Nc6 1-0\n\n1. Nf3 e5 2. e4 d6 0-1\n\n1. d4 *\n";
//! let mut builder = IndexBuilder::new(BuildOptions::default());
//! let mut reader = SliceReader::new(pgn);
//! let mut games = GameBuilder::default();
//! while let Some(game) = reader.read_game(&mut games) {
//!     let mut game = game?;
//!     game.number = reader.games();
//!     builder.push(PreparedGame::new(&game, u32::MAX).expect("a legal game"))?;
//! }
//! let mut bytes = Vec::new();
//! builder.finish(&mut bytes)?;
//! let index = Index::from_bytes(bytes)?;
//!
//! let pos = position_after("e2e4 e7e5 g1f3")?;
//! let found = index.find(&pos, &Filter::default(), None)?;
//! let games: Vec<_> = found.iter().map(|f| (f.game.number, f.ply)).collect();
//! assert_eq!(games, [(1, 3), (2, 3)]);
//! let moves = index.explore(&pos, &Filter::default())?;
//! assert_eq!(moves.len(), 2);
//! assert_eq!((moves[0].games, moves[0].white + moves[1].white), (1, 1));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! # How it answers
//!
//! A position is the same when its Polyglot key's fields match: placement, side to move,
//! castling rights, and the en passant square where a pawn stands ready to take. The index
//! keeps, for every (position, game) pair, the high bits of the position's Polyglot key and
//! the game; a lookup finds the games whose kept bits match, then replays each from its stored
//! moves to the first ply where it reaches the position: so every answer is exact, whatever
//! the kept bits let through. Positions reached by many games (the popular threshold) keep
//! their full key, the position itself (as a game and a ply) and the explorer's counts by
//! move, speed, rating band, month and result, so the start position answers at once.
//!
//! The file layout is in docs/formats.md ("The position index (`.cbx`, `chessbits-index`)").
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(unsafe_code)]

mod build;
mod chunk;
mod format;
mod game;
mod mapped;
mod read;
mod regions;
mod spill;

pub use build::{BuildOptions, BuildStats, IndexBuilder, PreparedGame, SkipReason};
pub use chunk::{prepare_chunk, prepare_games, PreparedChunk};
pub use format::{IndexError, MAGIC, VERSION};
pub use game::{
    format_date, parse_date, parse_month, parse_result, rating_band, Filter, GameFacts, Speed,
    RATING_BANDS,
};
pub use read::{explore_shards, fen_equivalents, same_position, Found, GameInfo, Index, MoveStats};
pub use regions::{crc32, reseal, REGION_LEN};

use chessbits_movegen::MoveGen;
use chessbits_state::Position;

/// The position after `moves` (UCI, separated by spaces) from the standard start.
///
/// # Errors
/// A move that does not parse or is not legal, named with its ply.
pub fn position_after(moves: &str) -> Result<Position, String> {
    let mut pos = Position::new();
    for (ply, text) in moves.split_whitespace().enumerate() {
        let uci = text.parse().map_err(|e| format!("ply {}: {text}: {e}", ply + 1))?;
        let m = pos.resolve_uci(uci).map_err(|e| format!("ply {}: {text}: {e}", ply + 1))?;
        pos.play_unchecked(m);
    }
    Ok(pos)
}
