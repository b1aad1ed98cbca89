//! An input cut into chunks of whole games, each readable on its own: the first step of
//! reading one input on several threads ([`crate::par_games`]).
//!
//! [`Chunks`] reads an input once, skipping each game as [`PgnReader::skip_game`] does (tags
//! scanned, movetext passed over), and cuts it where a game ends once a chunk has reached its
//! size. The cuts are the boundaries the serial reader finds, tags and all, because they are
//! found by the same scanner. A [`Chunk`] keeps the byte before its first one, so that a
//! reader of the chunk knows, as the serial reader did, whether its first byte starts a line,
//! and an [`Origin`], so that its game numbers, lines, columns and byte offsets are those of
//! the whole input. Reading every chunk in order gives exactly the games, errors and
//! positions that one reader of the whole input gives.

use core::fmt;
use std::io::{self, Read};

use crate::error::PgnErrorKind;
use crate::limits::Limits;
use crate::reader::{PgnReader, SliceReader};

/// Where reading starts in an input: a chunk's first byte, as the serial reader saw it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Origin {
    /// The input offset of the first byte to read.
    pub offset: u64,
    /// The line of that byte, from 1.
    pub line: u64,
    /// The input offset where that line starts.
    pub line_start: u64,
    /// How many games the input holds before that byte.
    pub games: u64,
}

impl Origin {
    /// The start of an input: offset 0, line 1, no game before.
    pub const START: Origin = Origin { offset: 0, line: 1, line_start: 0, games: 0 };
}

/// Whole games of an input, cut from it by [`Chunks`], with where they start.
pub struct Chunk {
    /// The byte before the chunk (none for the first chunk), then the chunk's bytes.
    bytes: Vec<u8>,
    /// Whether `bytes[0]` is the byte before the chunk.
    context: bool,
    origin: Origin,
    /// The read error that ended the input after this chunk's bytes.
    error: Option<io::Error>,
    index: u64,
}

impl Chunk {
    /// The chunk's bytes (without the byte before it).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[usize::from(self.context)..]
    }

    /// Where the chunk starts in the input.
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// The chunk's place in the input: 0 for the first chunk, then 1, 2, ...
    pub fn index(&self) -> u64 {
        self.index
    }

    /// Whether the input could not be read past this chunk: its last game is then reported
    /// as that read error ([`PgnErrorKind::Io`]), as the serial reader reports it.
    pub fn ends_in_error(&self) -> bool {
        self.error.is_some()
    }

    /// A reader of the chunk's games with the default [`Limits`]. Its game numbers, lines,
    /// columns and byte offsets ([`PgnError`](crate::PgnError), [`SliceReader::game_start`],
    /// [`SliceReader::games`]) count from the start of the input. If the input could not be
    /// read past the chunk, the reader ends with that read error (once: a second reader of
    /// the chunk ends without it).
    pub fn reader(&mut self) -> SliceReader<'_> {
        self.reader_with_limits(Limits::DEFAULT)
    }

    /// [`reader`](Self::reader), each game bounded by `limits`.
    pub fn reader_with_limits(&mut self, limits: Limits) -> SliceReader<'_> {
        let base = self.origin.offset - u64::from(self.context);
        SliceReader::resume(&self.bytes, base, self.error.take(), limits, self.origin)
    }
}

impl fmt::Debug for Chunk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Chunk")
            .field("index", &self.index)
            .field("origin", &self.origin)
            .field("len", &self.bytes().len())
            .field("error", &self.error)
            .finish()
    }
}

/// A [`Read`] that keeps a copy of every byte read through it.
struct Tee<R> {
    inner: R,
    /// The bytes read from input offset `log_base` on.
    log: Vec<u8>,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.log.extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

/// Cuts an input into [`Chunk`]s of whole games of about `size` bytes each.
///
/// A chunk ends at the end of the first game that brings it to `size` bytes or more, so it
/// holds at least one game (a chunk smaller than `size` only at the end of the input).
/// Memory: the chunk being cut, plus the reader's read-ahead (64 KiB), plus one game over
/// `size` at most (a game is bounded by [`Limits::game_len`](crate::Limits::game_len)).
///
/// ```
/// use chessbits_pgn::{Chunks, Replay};
///
/// let pgn = "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 d5 0-1\n\n[Event \"c\"]\n\n1. c4 *\n";
/// let mut uci = Vec::new();
/// for chunk in Chunks::new(pgn.as_bytes(), 10) {
///     let mut chunk = chunk;
///     let mut reader = chunk.reader();
///     while let Some(game) = reader.read_game(&mut Replay::default()) {
///         let game = game.map_err(|e| e.to_string())?;
///         uci.push(format!("{}: {} plies", reader.games(), game.game.moves().len()));
///     }
/// }
/// assert_eq!(uci, ["1: 2 plies", "2: 2 plies", "3: 1 plies"]);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub struct Chunks<R> {
    reader: PgnReader<Tee<R>>,
    /// The input offset of `log[0]`.
    log_base: u64,
    /// Where the next chunk starts.
    origin: Origin,
    size: usize,
    index: u64,
    done: bool,
}

impl<R: Read> Chunks<R> {
    /// Chunks of about `size` bytes (at least 1) of the games in `input`, found with the
    /// default [`Limits`].
    pub fn new(input: R, size: usize) -> Chunks<R> {
        Chunks::with_limits(input, size, Limits::DEFAULT)
    }

    /// Chunks found with `limits`: give the readers of the chunks the same limits.
    pub fn with_limits(input: R, size: usize, limits: Limits) -> Chunks<R> {
        Chunks {
            reader: PgnReader::with_limits(Tee { inner: input, log: Vec::new() }, limits),
            log_base: 0,
            origin: Origin::START,
            size: size.max(1),
            index: 0,
            done: false,
        }
    }

    /// The chunk from `self.origin` to the reader's position (or to the end of what was
    /// read, `to_end`), with `error` after it.
    fn cut(&mut self, to_end: bool, error: Option<io::Error>) -> Chunk {
        let next = self.reader.origin();
        let log = &mut self.reader.inner_mut().log;
        let end = if to_end { self.log_base + log.len() as u64 } else { next.offset };
        let stop = usize::try_from(end - self.log_base).unwrap_or(usize::MAX).min(log.len());
        // The new log keeps the byte before the next chunk and what was read ahead.
        let keep_from = stop.saturating_sub(1);
        let rest = log[keep_from..].to_vec();
        let mut bytes = core::mem::replace(log, rest);
        bytes.truncate(stop);
        let context = self.origin.offset > 0;
        // `bytes` starts at `log_base`: the byte before the chunk, or the input's start.
        let chunk = Chunk { bytes, context, origin: self.origin, error, index: self.index };
        self.log_base += keep_from as u64;
        self.origin = next;
        self.index += 1;
        chunk
    }

    /// The bytes cut so far that are not in a chunk yet.
    fn pending(&mut self) -> u64 {
        self.reader.origin().offset - self.origin.offset
    }
}

impl<R: Read> Iterator for Chunks<R> {
    type Item = Chunk;

    fn next(&mut self) -> Option<Chunk> {
        if self.done {
            return None;
        }
        loop {
            match self.reader.skip_game() {
                None => {
                    self.done = true;
                    // The rest holds no game: white space and lines no game starts with.
                    return (self.reader.games() > self.origin.games)
                        .then(|| self.cut(false, None));
                }
                Some(Err(e)) => {
                    if let PgnErrorKind::Io(err) = e.kind {
                        // The input cannot be read on: the games from the last cut to the
                        // error go in one chunk, which a reader reads as the serial
                        // reader does, ending with the error.
                        self.done = true;
                        return Some(self.cut(true, Some(err)));
                    }
                }
                Some(Ok(())) => {}
            }
            if self.pending() >= self.size as u64 {
                return Some(self.cut(false, None));
            }
        }
    }
}

impl<R> fmt::Debug for Chunks<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Chunks")
            .field("origin", &self.origin)
            .field("size", &self.size)
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}
