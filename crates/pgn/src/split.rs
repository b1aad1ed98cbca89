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
use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::{Arc, Mutex};

use crate::bytes::is_space;
use crate::error::{PgnError, PgnErrorKind};
use crate::limits::Limits;
use crate::origin::Origin;
use crate::reader::{PgnReader, SliceReader};
use crate::san_cache::SanCache;
use crate::serial::Feed;
use crate::visitor::Visitor;

/// Whole games of an input, cut from it by [`Chunks`], with where they start.
pub struct Chunk {
    /// The byte before the chunk (none for the first chunk), the chunk's bytes, then the
    /// bytes after it that a reader looks ahead at (to the end of the line); maybe bytes of
    /// the input before them, where the pipeline reads a piece in parts. Shared with the
    /// pipeline, which may read them again ([`crate::par_chunks`]).
    bytes: Arc<Buffer>,
    /// The index in `bytes` of the chunk's first byte (0 at the input's start only).
    at: usize,
    /// The length of the chunk's own bytes.
    len: usize,
    origin: Origin,
    /// The read error that ended the input after this chunk's bytes.
    error: Option<io::Error>,
    index: u64,
}

/// How a chunk's reader read it, to its end ([`ChunkReader::finish`]): what the pipeline
/// needs to know that a chunk cut at a guessed game start was read exactly as the whole
/// input's reader reads it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reading {
    /// Games read (broken ones included).
    pub(crate) games: u64,
    /// Whether the next chunk starts where the whole input's reader is between games and
    /// finds the same next game: the last game ended at or before the chunk's end, and the
    /// chunk ends at a line start (the whole input's reader, between games, skips white
    /// space and whole lines, so from any line start on its way it finds the same next
    /// game), or exactly where the next game starts (a cut inside a line, as at `1-0[Event`),
    /// or after nothing but white space since the last game's end (a cut inside a line of
    /// spaces: the whole input's reader, skipping them, is where the next chunk's starts,
    /// the byte before it the same). Never for a capped reading.
    pub(crate) clean: bool,
    /// Whether the reader stopped at its cap on games ([`ChunkReader::capped_at`]) with
    /// games of the chunk left: its games are the chunk's first, up to `settled`, and the
    /// rest is to read from there.
    pub(crate) capped: bool,
    /// The input offset where the last game that ended at or before the chunk's end ended,
    /// and the games read up to it: where the whole input's reader stands between games, so
    /// where a chunk that did not end clean can be cut exactly.
    pub(crate) settled: (u64, u64),
}

/// A chunk's bytes, which go back to the pool they came from when the last holder drops them.
pub(crate) struct Buffer {
    pub(crate) bytes: Vec<u8>,
    pool: Option<Pool>,
}

impl Buffer {
    /// Bytes that go back to no pool.
    pub(crate) fn new(bytes: Vec<u8>) -> Buffer {
        Buffer { bytes, pool: None }
    }

    /// Bytes that go back to `pool`.
    pub(crate) fn pooled(bytes: Vec<u8>, pool: &Pool) -> Buffer {
        Buffer { bytes, pool: Some(pool.clone()) }
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        if let Some(pool) = &self.pool {
            pool.give(core::mem::take(&mut self.bytes));
        }
    }
}

/// Buffers of chunks that were dropped, for new chunks: a chunk's megabyte, allocated afresh
/// each time, costs page faults that add up to a tenth of the reading time.
#[derive(Clone, Default)]
pub(crate) struct Pool(Arc<Mutex<Vec<Vec<u8>>>>);

impl Pool {
    /// The most buffers kept.
    const KEEP: usize = 64;

    /// A buffer of at least `capacity` bytes, empty.
    pub(crate) fn take(&self, capacity: usize) -> Vec<u8> {
        let kept = self.0.lock().ok().and_then(|mut pool| pool.pop());
        match kept {
            Some(mut buf) => {
                buf.reserve(capacity);
                buf
            }
            None => Vec::with_capacity(capacity),
        }
    }

    fn give(&self, mut buf: Vec<u8>) {
        if let Ok(mut pool) = self.0.lock() {
            if pool.len() < Pool::KEEP {
                buf.clear();
                pool.push(buf);
            }
        }
    }
}

impl Chunk {
    /// A chunk of `buffer` (`len` bytes of its own from index `at`, after the byte before
    /// it if `at > 0`, then the bytes to look ahead at) from `origin`, ending with `error`.
    pub(crate) fn from_parts(
        (buffer, at, len): (Arc<Buffer>, usize, usize),
        origin: Origin,
        error: Option<io::Error>,
        index: u64,
    ) -> Chunk {
        Chunk { bytes: buffer, at, len, origin, error, index }
    }

    /// The chunk's bytes (without the byte before it or the bytes after it).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes.bytes[self.at..self.at + self.len]
    }

    /// Where the chunk starts in the input.
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// The chunk's place in the input: 0 for the first chunk, then 1, 2, ... (a chunk read
    /// again with the one after it, where a guessed game start was wrong, keeps its own
    /// number, so the numbers handed on may skip one).
    pub fn index(&self) -> u64 {
        self.index
    }

    /// Makes the chunk's readers number its games from its start (its first game is game 1)
    /// and returns how many games the input holds before it: what [`crate::par_chunks`]
    /// does, so that a worker's numbers are the same whichever cutter cut the chunk.
    pub(crate) fn number_from_start(&mut self) -> u64 {
        core::mem::take(&mut self.origin.games)
    }

    /// Whether the input could not be read past this chunk: its last game is then reported
    /// as that read error ([`PgnErrorKind::Io`]), as the serial reader reports it.
    pub fn ends_in_error(&self) -> bool {
        self.error.is_some()
    }

    /// A reader of the chunk's games with the default [`Limits`]. Its game numbers, lines,
    /// columns and byte offsets ([`PgnError`](crate::PgnError), [`ChunkReader::game_start`],
    /// [`ChunkReader::games`]) count from the start of the input. If the input could not be
    /// read past the chunk, the reader ends with that read error (once: a second reader of
    /// the chunk ends without it).
    pub fn reader(&mut self) -> ChunkReader<'_> {
        self.reader_with_limits(Limits::DEFAULT)
    }

    /// [`reader`](Self::reader), each game bounded by `limits`.
    pub fn reader_with_limits(&mut self, limits: Limits) -> ChunkReader<'_> {
        self.reader_with(limits, SanCache::warm())
    }

    /// [`reader_with_limits`](Self::reader_with_limits), starting with the move-token cache
    /// `sans` (the last chunk's reader's, on a worker: see [`ChunkReader::finish`]).
    pub(crate) fn reader_with(&mut self, limits: Limits, sans: SanCache) -> ChunkReader<'_> {
        // The reader's bytes start with the byte before the chunk, if it has one.
        let from = self.at.saturating_sub(1);
        let base = self.origin.offset - (self.at - from) as u64;
        let end = self.origin.offset + self.len as u64;
        let stop = if self.error.is_some() { u64::MAX } else { end };
        let read = self.bytes.bytes.get(from..).unwrap_or_default();
        let reader =
            SliceReader::resume((read, base, self.error.take()), limits, self.origin, sans);
        let settled = (self.origin.offset, self.origin.games);
        let last = self.at + self.len;
        let ends_line = self.len == 0 || self.bytes.bytes.get(last.wrapping_sub(1)) == Some(&b'\n');
        let own = self.bytes.bytes.get(self.at..last).unwrap_or_default();
        let origin = self.origin;
        let reader = Inner::Slice(reader);
        ChunkReader {
            reader,
            origin,
            end,
            stop,
            next_start: None,
            ends_line,
            own,
            settled,
            cut_past: None,
            cap: u64::MAX,
            capped: false,
        }
    }
}

/// A reader of one [`Chunk`]'s games: [`SliceReader`]'s methods, over the chunk's bytes, with
/// game numbers, lines, columns and byte offsets counted from the start of the input.
///
/// The chunk's bytes are followed by the bytes after it that the whole input's reader would
/// look ahead at (to the end of the line); no game that starts there is read. That is the
/// one thing a chunk's reader knows that a reader of the whole input does not, and it is
/// kept here, not in the scanner.
///
/// Past a game longer than [`Limits::game_len`], which may go on for gigabytes, the pipeline
/// reads the rest of the input as a stream, on one thread, as the serial reader does (see
/// [`par_chunks`](crate::par_chunks)): its stretches come to `work` as chunks too, each cut
/// where the first game that ends past the chunk size ends.
pub struct ChunkReader<'a> {
    reader: Inner<'a>,
    origin: Origin,
    /// The input offset just past the chunk's own bytes (a stretch of a stream: its start).
    end: u64,
    /// No game that starts at or after this offset is the chunk's (`u64::MAX` for the chunk
    /// a read error ends: it reads to that error).
    stop: u64,
    /// Where the next game was last found to start (`None` if none was, or none is left).
    next_start: Option<u64>,
    /// Whether the chunk ends at a line start (its last byte is a line break).
    ends_line: bool,
    /// The chunk's own bytes (none for a stretch of a stream).
    own: &'a [u8],
    /// Where the last game that ended by `stop` ended, and the games up to it.
    settled: (u64, u64),
    /// For a stretch of a stream: once a game ends at or past this offset, the stretch ends
    /// with it (`stop` is set to its end).
    cut_past: Option<u64>,
    /// The most games read: once they are, a game that starts before `stop` is left for
    /// another reading (`stop` is moved to its start).
    cap: u64,
    /// Whether the cap stopped the reading with games of the chunk left.
    capped: bool,
}

/// What a [`ChunkReader`] reads: a chunk in memory, or a stretch of the stream that the
/// pipeline falls back to past a game too long to hold ([`crate::serial`]). One lives on the
/// stack of each chunk's reading: boxing the larger variant would cost an allocation a chunk.
#[allow(clippy::large_enum_variant)]
enum Inner<'a> {
    Slice(SliceReader<'a>),
    Stream(&'a mut PgnReader<Feed>),
}

/// `$reader.$method($args)` on whichever reader `$inner` holds.
macro_rules! either {
    ($inner:expr, $reader:ident => $call:expr) => {
        match $inner {
            Inner::Slice($reader) => $call,
            Inner::Stream($reader) => $call,
        }
    };
}

impl Inner<'_> {
    fn next_game_start(&mut self) -> Option<u64> {
        either!(self, r => r.next_game_start())
    }

    fn read_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Option<Result<V::Output, PgnError<V::Error>>> {
        either!(self, r => r.read_game(visitor))
    }

    fn skip_game(&mut self) -> Option<Result<(), PgnError>> {
        either!(self, r => r.skip_game())
    }

    fn game_start(&self) -> u64 {
        either!(self, r => r.game_start())
    }

    fn game_end(&self) -> u64 {
        either!(self, r => r.game_end())
    }

    fn games(&self) -> u64 {
        either!(self, r => r.games())
    }

    fn limits(&self) -> Limits {
        either!(self, r => r.limits())
    }

    fn take_sans(&mut self) -> SanCache {
        either!(self, r => r.take_sans())
    }

    /// The chunk's read error, if its reading stopped before it (a stream keeps its own).
    fn take_unread_error(&mut self) -> Option<io::Error> {
        match self {
            Inner::Slice(reader) => reader.take_unread_error(),
            Inner::Stream(_) => None,
        }
    }
}

impl ChunkReader<'_> {
    /// Whether the next game is the chunk's: it starts before the chunk's end, or no game is
    /// left (the reader then reports a read error, if one ended the input here).
    fn at_own_game(&mut self) -> bool {
        if !self.stopped() {
            self.next_start = self.reader.next_game_start();
            if let Some(start) = self.next_start.filter(|&start| start < self.stop) {
                if self.reader.games() - self.origin.games >= self.cap {
                    self.capped = true;
                    self.stop = start;
                }
            }
        }
        !self.stopped()
    }

    /// Whether the chunk's bytes from input offset `at` on are all white space (none left
    /// included). Asked only where the reading may end clean: a capped reading of a piece
    /// in parts would otherwise scan the spaces at its end once a part.
    fn spaces_after(&self, at: u64) -> bool {
        let from = usize::try_from(at.saturating_sub(self.origin.offset)).unwrap_or(usize::MAX);
        self.own.get(from..).is_none_or(|rest| rest.iter().all(|&b| is_space(b)))
    }

    /// This reader, reading at most `cap` games (at least 1): so that what a chunk of tiny
    /// games makes of them (a line of text, a row each) stays bounded by the cap, not by the
    /// bytes (a megabyte of `* * *` is half a million games). The pipeline reads the rest
    /// of the chunk after.
    pub(crate) fn capped_at(mut self, cap: u64) -> Self {
        self.cap = cap.max(1);
        self
    }

    /// Whether the next game starts in the next chunk (a game may end before what lies
    /// between it and the next one, which the skipping cutter passes with it).
    fn stopped(&self) -> bool {
        self.next_start.is_some_and(|start| start >= self.stop)
    }

    /// Reads the chunk's next game into `visitor` ([`SliceReader::read_game`]); `None` once
    /// the chunk's games are read.
    pub fn read_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Option<Result<V::Output, PgnError<V::Error>>> {
        if !self.at_own_game() {
            return None;
        }
        let game = self.reader.read_game(visitor);
        self.settle();
        game
    }

    /// Skips the chunk's next game ([`SliceReader::skip_game`]); `None` once the chunk's
    /// games are read.
    pub fn skip_game(&mut self) -> Option<Result<(), PgnError>> {
        if !self.at_own_game() {
            return None;
        }
        let game = self.reader.skip_game();
        self.settle();
        game
    }

    /// Notes where the game just read ended, if it ended by the chunk's end; a stretch of a
    /// stream ends with the first game that ends past its size.
    fn settle(&mut self) {
        let end = self.reader.game_end();
        if self.cut_past.is_some_and(|past| end >= past) && self.stop == u64::MAX {
            self.stop = end;
        }
        if end <= self.stop {
            self.settled = (end, self.reader.games());
        }
    }

    /// The input offset where the last game read (or skipped) starts.
    pub fn game_start(&self) -> u64 {
        self.reader.game_start()
    }

    /// The number of the last game read or skipped, broken ones included: counted from the
    /// start of the input for a chunk of [`Chunks`] (from [`origin`](Self::origin)`.games`),
    /// from the chunk's start (its first game is 1) for the reader that
    /// [`par_chunks`](crate::par_chunks) lends, whose sink adds the games before the chunk.
    /// The [`PgnError::game`](crate::PgnError::game) of a broken game is counted the same way.
    pub fn games(&self) -> u64 {
        self.reader.games()
    }

    /// The bounds put on each game.
    pub fn limits(&self) -> Limits {
        self.reader.limits()
    }

    /// Where the chunk starts in the input.
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// The input offset just past the chunk's bytes: where the next chunk starts. For a
    /// stretch of the stream read past a game too long to hold, which ends where a game ends
    /// past its size, where the reading has got to; for a reading stopped by its cap on
    /// games, where the next game starts: ask once the games are read.
    pub fn end(&self) -> u64 {
        match self.reader {
            Inner::Stream(_) if self.stop == u64::MAX => self.reader.game_end().max(self.end),
            Inner::Stream(_) => self.stop,
            // Stopped by its cap: its part of the chunk ends where the next game starts.
            Inner::Slice(_) if self.capped => self.stop,
            Inner::Slice(_) => self.end,
        }
    }

    /// Skips whatever games the work left unread, and returns how the reading went, the
    /// move-token cache, for the worker's next chunk, and the read error after the chunk if
    /// the reading stopped before it (capped): the reading of the rest must report it.
    pub(crate) fn finish(mut self) -> (Reading, SanCache, Option<io::Error>) {
        while self.skip_game().is_some() {}
        let reading = Reading {
            games: self.reader.games() - self.origin.games,
            clean: !self.capped
                && self.reader.game_end() <= self.stop
                && (self.ends_line
                    || self.next_start == Some(self.stop)
                    || self.spaces_after(self.reader.game_end())),
            capped: self.capped,
            settled: (self.settled.0, self.settled.1 - self.origin.games),
        };
        (reading, self.reader.take_sans(), self.reader.take_unread_error())
    }

    /// A reader of the next stretch of `reader`'s stream, from where it stands: its games
    /// are numbered from 1, and it ends with the first game that ends `size` bytes or more
    /// past its start, or with its `cap`-th game, or with the input.
    pub(crate) fn stretch(reader: &mut PgnReader<Feed>, size: usize, cap: u64) -> ChunkReader<'_> {
        reader.renumber();
        let origin = reader.origin();
        let cut_past = origin.offset.saturating_add(size as u64);
        ChunkReader {
            reader: Inner::Stream(reader),
            origin,
            end: origin.offset,
            stop: u64::MAX,
            next_start: None,
            ends_line: true,
            own: &[],
            settled: (origin.offset, 0),
            cut_past: Some(cut_past),
            cap: cap.max(1),
            capped: false,
        }
    }

    /// Skips whatever games the work left unread in a stretch of the stream, and returns its
    /// games and whether the stream goes on after it.
    pub(crate) fn finish_stretch(mut self) -> (u64, bool) {
        while self.skip_game().is_some() {}
        (self.reader.games(), self.stopped())
    }
}

impl fmt::Debug for ChunkReader<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChunkReader")
            .field("origin", &self.origin)
            .field("end", &self.end)
            .field("games", &self.reader.games())
            .finish_non_exhaustive()
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
/// A chunk also carries the bytes after it to the end of that line (at most
/// [`Limits::tag_len`](crate::Limits::tag_len) and 1 KiB more), which its reader looks at as
/// the whole input's reader does (where a tag line is broken, its error names the line's end),
/// but starts no game in. Memory: the chunk being cut, plus the reader's read-ahead (64 KiB),
/// plus one game over `size` at most (a game is bounded by
/// [`Limits::game_len`](crate::Limits::game_len) while it is read, not while it is skipped).
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
    /// Where the next chunk ends, once a game end past its size is found: it is cut once the
    /// bytes its reader looks ahead at are read.
    cut: Option<Origin>,
    size: usize,
    /// The most games in a chunk: it is cut at the end of the game that reaches its size or
    /// this count.
    cap: u64,
    /// The most bytes after a chunk its reader may look ahead at.
    lookahead: usize,
    index: u64,
    done: bool,
    /// The last chunks, cut at once at the end of the input.
    queue: VecDeque<Chunk>,
    pool: Pool,
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
            cut: None,
            size: size.max(1),
            cap: u64::MAX,
            lookahead: limits.tag_len.saturating_add(1024),
            index: 0,
            done: false,
            queue: VecDeque::new(),
            pool: Pool::default(),
        }
    }

    /// These chunks, cut also at the end of their `cap`-th game (at least 1): so that what a
    /// chunk of tiny games makes of them stays bounded by the count, not by the bytes.
    pub(crate) fn capped_at(mut self, cap: u64) -> Self {
        self.cap = cap.max(1);
        self
    }

    /// How many bytes after `end` the log holds to the end of that line (with the line
    /// break), or `None` if the log does not reach that far yet.
    fn line_after(&self, end: u64) -> Option<usize> {
        let log = &self.reader.inner().log;
        let from = usize::try_from(end - self.log_base).unwrap_or(usize::MAX).min(log.len());
        let rest = &log[from..];
        match memchr::memchr(b'\n', rest) {
            Some(i) => Some((i + 1).min(self.lookahead)),
            None if rest.len() >= self.lookahead => Some(self.lookahead),
            None => None,
        }
    }

    /// The chunk from `self.origin` to `next.offset`, with `after` bytes to look ahead at (all
    /// that was read, `None`), and `error` after it; the next chunk starts at `next`.
    fn cut(&mut self, next: Origin, after: Option<usize>, error: Option<io::Error>) -> Chunk {
        let log = &mut self.reader.inner_mut().log;
        let at = |offset: u64| usize::try_from(offset - self.log_base).unwrap_or(usize::MAX);
        let stop = at(next.offset).min(log.len());
        let end = after.map_or(log.len(), |n| stop.saturating_add(n).min(log.len()));
        // The log keeps the byte before the next chunk and what was read after it; the
        // chunk's bytes stay where they are.
        let keep_from = stop.saturating_sub(1);
        let mut rest = self.pool.take(self.size + self.lookahead + (128 << 10));
        rest.extend_from_slice(&log[keep_from..]);
        log.truncate(end);
        let mut bytes = core::mem::replace(log, rest);
        let context = self.origin.offset > 0;
        // `log[0]` is the byte before this chunk (or the input's first byte): nothing to drop
        // but at the very start of a log that holds more.
        let start = if context { at(self.origin.offset) - 1 } else { 0 };
        bytes.drain(..start.min(bytes.len()));
        let len = match error {
            Some(_) => bytes.len() - usize::from(context),
            None => usize::try_from(next.offset - self.origin.offset).unwrap_or(usize::MAX),
        };
        let buffer = Arc::new(Buffer::pooled(bytes, &self.pool));
        let at = usize::from(context);
        let chunk = Chunk::from_parts((buffer, at, len), self.origin, error, self.index);
        self.log_base += keep_from as u64;
        self.origin = next;
        self.index += 1;
        chunk
    }

    /// The last chunks, once the input ends or cannot be read on: the one cut and waiting for
    /// its look-ahead, then the rest (with the read error, if there is one).
    fn finish(&mut self, error: Option<io::Error>) {
        self.done = true;
        if let Some(next) = self.cut.take() {
            // A read error before the cut's look-ahead was whole: the last game before the cut
            // may run on to the error (a broken game's recovery does, as the serial reader
            // reads it, where the skim found an end earlier), so it is not cut there: the
            // games from the chunk's start to the error go in one chunk, with the error.
            if error.is_none() {
                let chunk = self.cut(next, None, None);
                self.queue.push_back(chunk);
            }
        }
        let next = self.reader.origin();
        if next.games > self.origin.games || error.is_some() {
            let chunk = self.cut(next, None, error);
            self.queue.push_back(chunk);
        }
    }
}

impl<R: Read> Iterator for Chunks<R> {
    type Item = Chunk;

    fn next(&mut self) -> Option<Chunk> {
        loop {
            if let Some(chunk) = self.queue.pop_front() {
                return Some(chunk);
            }
            if self.done {
                return None;
            }
            if let Some(next) = self.cut {
                if let Some(after) = self.line_after(next.offset) {
                    self.cut = None;
                    return Some(self.cut(next, Some(after), None));
                }
            }
            match self.reader.skip_game() {
                None => self.finish(None),
                // The input cannot be read on: the games from the last cut to the error go
                // in one chunk, which a reader reads as the serial reader does, ending with
                // the error.
                Some(Err(PgnError { kind: PgnErrorKind::Io(err), .. })) => self.finish(Some(err)),
                Some(_) => {
                    if self.cut.is_none() {
                        let next = self.reader.origin();
                        if next.offset - self.origin.offset >= self.size as u64
                            || next.games - self.origin.games >= self.cap
                        {
                            self.cut = Some(next);
                        }
                    }
                }
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
