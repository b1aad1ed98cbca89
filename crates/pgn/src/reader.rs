//! The two readers: [`PgnReader`](crate::PgnReader) over any [`Read`], [`SliceReader`](crate::SliceReader) over bytes in memory, both
//! driving a [`Visitor`](crate::Visitor) through the [`Parser`].

use core::fmt;
use std::io::{self, Read};

use crate::error::PgnError;
use crate::limits::Limits;
use crate::origin::Origin;
use crate::san_cache::SanCache;
use crate::scanner::Parser;
use crate::source::{IoSource, SliceSource, Source};
use crate::visitor::{SkipGame, Visitor};

/// The methods a chunk's reader ([`crate::ChunkReader`]) uses, of either reader.
macro_rules! chunk_methods {
    () => {
        /// Skips what lies before the next game and returns the input offset where it
        /// starts, or `None` if no game is left.
        pub(crate) fn next_game_start(&mut self) -> Option<u64> {
            self.parser.next_game_start()
        }

        /// The input offset where the last game read ended (where reading started, before
        /// any).
        pub(crate) fn game_end(&self) -> u64 {
            self.parser.game_end
        }

        /// The move-token cache, taken out (an empty one is left).
        pub(crate) fn take_sans(&mut self) -> SanCache {
            core::mem::take(&mut self.parser.sans)
        }
    };
}

/// The methods the two readers share.
macro_rules! reader_methods {
    () => {
        /// Reads the next game into `visitor` and returns what [`Visitor::end_game`] made of it.
        ///
        /// Returns `None` when there are no more games, and `Some(Err(_))` for a broken game,
        /// whose rest is skipped: the next call reads the game after it.
        pub fn read_game<V: Visitor>(
            &mut self,
            visitor: &mut V,
        ) -> Option<Result<V::Output, PgnError<V::Error>>> {
            self.parser.read_game(visitor)
        }

        /// Skips the next game: scans its tags only to find where they end, and passes over its
        /// movetext without reading it. Returns `None` when there are no more games.
        pub fn skip_game(&mut self) -> Option<Result<(), PgnError>> {
            self.parser.read_game(&mut SkipGame)
        }

        /// The byte offset in the input where the last game read (or skipped) starts: its first
        /// tag's `[`, or its first movetext token.
        pub fn game_start(&self) -> u64 {
            self.parser.game_start
        }

        /// How many games were read or skipped, broken ones included.
        pub fn games(&self) -> u64 {
            self.parser.games
        }

        /// The bounds put on each game.
        pub fn limits(&self) -> Limits {
            self.parser.limits
        }
    };
}

/// A streaming PGN reader over any [`Read`] (a file, standard input, a decompressor).
///
/// It reads through its own buffer, so there is no need to wrap the reader in a
/// `BufReader`. The buffer holds the current token, tag or comment and what was read ahead:
/// 64 KiB, growing to about twice [`MAX_COMMENT_LEN`](crate::MAX_COMMENT_LEN) at most for a very long comment, however
/// large the input. Both readers also keep a cache of the move tokens read last (up to 128
/// KiB).
///
/// ```
/// use chessbits_pgn::{PgnReader, Skip, Visitor};
/// use chessbits_notation::san::SanPlus;
///
/// /// Counts the moves of each mainline.
/// struct Plies(usize);
/// impl Visitor for Plies {
///     type Output = usize;
///     type Error = core::convert::Infallible;
///     fn begin_game(&mut self) { self.0 = 0; }
///     fn san(&mut self, _: SanPlus) -> Result<(), Self::Error> { self.0 += 1; Ok(()) }
///     fn begin_variation(&mut self) -> Skip { Skip(true) }
///     fn end_game(&mut self) -> usize { self.0 }
/// }
///
/// let pgn = "[Event \"a\"]\n\n1. e4 (1. d4 d5) e5 2. Nf3 1-0\n\n1. d4 *\n";
/// let mut reader = PgnReader::new(pgn.as_bytes());
/// let mut plies = Plies(0);
/// assert_eq!(reader.read_game(&mut plies).unwrap()?, 3);
/// assert_eq!(reader.read_game(&mut plies).unwrap()?, 1);
/// assert_eq!(reader.game_start(), 45);
/// assert!(reader.read_game(&mut plies).is_none());
/// # Ok::<_, chessbits_pgn::PgnError>(())
/// ```
pub struct PgnReader<R> {
    parser: Parser<IoSource<R>>,
}

impl<R: Read> PgnReader<R> {
    /// A reader of the games in `reader`, with the default [`Limits`](crate::Limits).
    pub fn new(reader: R) -> PgnReader<R> {
        PgnReader::with_limits(reader, Limits::DEFAULT)
    }

    /// A reader of the games in `reader`, each game bounded by `limits`.
    pub fn with_limits(reader: R, limits: Limits) -> PgnReader<R> {
        PgnReader { parser: Parser::new(IoSource::new(reader), limits) }
    }

    reader_methods!();

    /// A reader of `reader`, whose first byte is at input offset `origin.offset`, reading
    /// from `origin` on with the move-token cache `sans`; `before` is the byte before that
    /// offset, if the input has one (whether the first byte starts a line): the serial
    /// reading [`par_chunks`](crate::par_chunks) falls back to past a game too long to hold.
    pub(crate) fn resume(
        reader: R,
        before: Option<u8>,
        limits: Limits,
        origin: Origin,
        sans: SanCache,
    ) -> PgnReader<R> {
        let src = IoSource::resumed(reader, before, origin.offset);
        let mut parser = Parser::resume(src, limits, origin);
        parser.sans = sans;
        PgnReader { parser }
    }

    /// Counts games from 0 again: the next game read is game 1 (and so is an error's).
    pub(crate) fn renumber(&mut self) {
        self.parser.games = 0;
    }

    chunk_methods!();

    /// The inner reader.
    pub(crate) fn inner(&self) -> &R {
        &self.parser.src.reader
    }

    /// The inner reader.
    pub(crate) fn inner_mut(&mut self) -> &mut R {
        &mut self.parser.src.reader
    }

    /// Where the reader stands.
    pub(crate) fn origin(&mut self) -> Origin {
        self.parser.origin()
    }

    /// The inner reader (the bytes buffered but not yet read are lost).
    pub fn into_inner(self) -> R {
        self.parser.src.reader
    }
}

impl<R> fmt::Debug for PgnReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PgnReader")
            .field("offset", &(self.parser.src.base + self.parser.pos as u64))
            .field("games", &self.parser.games)
            .finish_non_exhaustive()
    }
}

/// A PGN reader over bytes in memory (a whole file, a memory map): the fast path, with no
/// buffer and no copying.
///
/// It reads exactly as [`PgnReader`](crate::PgnReader) does, game for game and error for error.
pub struct SliceReader<'a> {
    parser: Parser<SliceSource<'a>>,
}

impl<'a> SliceReader<'a> {
    /// A reader of the games in `bytes`, with the default [`Limits`](crate::Limits).
    pub fn new(bytes: &'a [u8]) -> SliceReader<'a> {
        SliceReader::with_limits(bytes, Limits::DEFAULT)
    }

    /// A reader of the games in `bytes`, each game bounded by `limits`.
    pub fn with_limits(bytes: &'a [u8], limits: Limits) -> SliceReader<'a> {
        SliceReader { parser: Parser::new(SliceSource::whole(bytes), limits) }
    }

    /// A reader of `bytes`, which start at input offset `base`, reading from `origin` on
    /// with the move-token cache `sans` (a warm cache, handed from one chunk's reader to
    /// the next, reads as fast as one reader of the whole input), and ending with `error`
    /// if there is one.
    pub(crate) fn resume(
        (bytes, base, error): (&'a [u8], u64, Option<io::Error>),
        limits: Limits,
        origin: Origin,
        sans: SanCache,
    ) -> SliceReader<'a> {
        let src = SliceSource { bytes, base, error };
        let mut parser = Parser::resume(src, limits, origin);
        parser.sans = sans;
        SliceReader { parser }
    }

    chunk_methods!();

    /// The read error after the bytes, if no game reached it (a reading stopped before the
    /// end): taken out, for the reading of the rest.
    pub(crate) fn take_unread_error(&mut self) -> Option<io::Error> {
        self.parser.src.take_error()
    }

    reader_methods!();
}

impl fmt::Debug for SliceReader<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SliceReader")
            .field("offset", &self.parser.pos)
            .field("games", &self.parser.games)
            .finish_non_exhaustive()
    }
}
