//! A chunk of PGN read and prepared for the index on a worker of the parallel pipeline
//! ([`chessbits_pgn::par_chunks`]), or a batch of a lichess Parquet file's rows (any
//! [`GameSource`]): what `chessbits index build` and Python's `build_index` run on each
//! chunk, before the ordered sink numbers the games and pushes them to the
//! [`IndexBuilder`](crate::IndexBuilder).

use std::io;

use chessbits_cbg::GameBuilder;
use chessbits_pgn::{ChunkReader, GameSource, PgnErrorKind};

use crate::build::PreparedGame;

/// A chunk's games, each prepared or the reason it is left out, in input order.
#[derive(Debug)]
#[non_exhaustive]
pub struct PreparedChunk {
    /// Each game: prepared, or why not (a reading error with its place, or a
    /// [`SkipReason`](crate::SkipReason)), as text that follows the game's number:
    /// `", line 12, column 1: ..."`, `", movetext byte 36: ..."` or
    /// `": more than 65,535 plies: not indexed"`.
    pub games: Vec<Result<PreparedGame, String>>,
    /// The input offset where the chunk's reading ended.
    pub end: u64,
    /// The read error that ended the input in this chunk, and its offset: no game's, the
    /// input stops there.
    pub read_error: Option<(u64, io::Error)>,
}

/// Reads and prepares every game of `reader`'s chunk, indexing at most `max_ply` plies a game;
/// games are numbered in the sink, which knows the games before the chunk.
pub fn prepare_chunk(reader: &mut ChunkReader<'_>, max_ply: u32) -> PreparedChunk {
    let mut chunk = prepare_games(reader, max_ply, 0);
    if chunk.read_error.is_none() {
        chunk.end = reader.end();
    }
    chunk
}

/// Reads and prepares every game of `source` (a chunk of PGN, the rows of a lichess Parquet
/// file's batch), indexing at most `max_ply` plies a game. `end` is where the source ends in
/// its input (a byte offset, a row), for [`PreparedChunk::end`]. A game that does not read
/// says where, in the source's terms ([`GameSource::place`]): `", line 12, column 1: ..."`,
/// or `", movetext byte 36: ..."` for a row.
pub fn prepare_games(source: &mut impl GameSource, max_ply: u32, end: u64) -> PreparedChunk {
    let mut builder = GameBuilder::default();
    let mut chunk = PreparedChunk { games: Vec::new(), end, read_error: None };
    while let Some(result) = source.next_game(&mut builder) {
        let game = match result {
            Ok(game) => {
                let prepared = PreparedGame::new(&game, max_ply).map_err(|e| format!(": {e}"));
                builder.recycle(game);
                prepared
            }
            Err(e) => {
                let place = source.place(&e);
                match e.kind {
                    PgnErrorKind::Io(io) => {
                        (chunk.end, chunk.read_error) = (e.offset, Some((e.offset, io)));
                        break;
                    }
                    kind => Err(format!(", {place}: {kind}")),
                }
            }
        };
        chunk.games.push(game);
    }
    chunk
}
