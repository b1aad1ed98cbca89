//! An input cut into chunks at guessed game starts, without reading the games: the cutter
//! of [`crate::par_chunks`] on several threads, checked after the fact by its
//! [`Verifier`].
//!
//! [`Chunks`](crate::Chunks) finds exact game boundaries by skipping every game, on one
//! thread: at about 1.3 GB/s it was a seventh of the CPU time of `chessbits pgn --to uci` on
//! two threads, and the bound of any number of them. [`Guesses`] only looks for a likely
//! game start past each chunk's size: a `[` that starts a line after a blank line, or, in a
//! file with no blank lines before its tags, an `[Event ` line ([`Marks`]); any line start
//! when none comes for a long way. It counts the line breaks before it (exact)
//! and the likely game starts (a guess), so each chunk gets an exact offset and line and a
//! guessed game number.
//!
//! The workers read the chunks as they would exact ones. The chunk's reader reports how
//! the reading went ([`Reading`]): how many games it read, and whether its last game ended
//! at or before the chunk's end. The [`Verifier`], on the calling thread, takes the results
//! in input order and hands one on only when it is exactly what one reader of the whole
//! input gives:
//!
//! - the chunk before it ended clean: its last game ended at or before this chunk's start,
//!   a line start, where the whole input's reader is then between games and finds the same
//!   next game this chunk's reader finds;
//! - its guessed game number is the count of the games before it;
//! - it itself ended clean.
//!
//! Otherwise it reads the chunk again itself, with the right game number, and a chunk that
//! did not end clean (a guess that fell inside a game) together with the next one, until
//! the reading ends clean. The guesses' error in game numbers goes back to the cutter
//! (`correction`), so one wrong guess costs the chunks already in flight, not every chunk
//! after it. The input is read exactly as the serial reader reads it whatever the guesses;
//! wrong guesses only cost time.

use std::io::{self, Read};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use memchr::memmem;

use crate::limits::Limits;
use crate::lines::count_line_breaks;
use crate::origin::Origin;
use crate::san_cache::SanCache;
use crate::split::{Buffer, Chunk, ChunkReader, Pool, Reading};

/// How far past a chunk's size the cutter looks for a mark before it cuts at any line
/// start: so an input without marks still comes in chunks (read again one by one, as the
/// game counts guessed for them are wrong).
const FALLBACK_AFTER: usize = 4 << 20;

/// The bytes read from the input at a time, at the least.
const READ_SIZE: usize = 64 << 10;

/// The most room a new log is made with (a larger chunk size grows it as it is read).
const MAX_ROOM: usize = 64 << 20;

/// Chunks cut at guessed game starts (see the module's documentation).
pub(crate) struct Guesses<R> {
    input: R,
    /// The byte before the next chunk (none at the input's start), then the bytes read after.
    log: Vec<u8>,
    /// The input offset of the next chunk's first byte.
    start: u64,
    /// Its line.
    line: u64,
    /// Games guessed before `start`.
    guessed: u64,
    /// What the verifier found the guesses to be off by.
    correction: Arc<AtomicI64>,
    /// Whether the next chunk starts at a guessed game start (not a fallback line start).
    at_guess: bool,
    size: usize,
    lookahead: usize,
    index: u64,
    /// The read error that ended the input, once met.
    error: Option<io::Error>,
    eof: bool,
    done: bool,
    /// The line starts taken for game starts, chosen on the input's first bytes.
    marks: Option<Marks>,
    pool: Pool,
}

/// The line starts [`Guesses`] takes for game starts: byte patterns, each with the offset of
/// its `[`. A `[` after a blank line, where the input has blank lines before tags (every
/// common writer puts one between games); else an `[Event ` line, for files that put none.
struct Marks {
    patterns: Vec<(memmem::Finder<'static>, usize)>,
    /// `[Event `, for the games glued to the one before (below).
    event: memmem::Finder<'static>,
    /// Whether a glued game's `[Event ` may follow its result on the next line (the marks
    /// above count it when it follows a blank line, or, for `event_tags`, any line break).
    glued_after_break: bool,
}

impl Marks {
    fn blank_lines() -> Marks {
        Marks {
            patterns: vec![
                (memmem::Finder::new(b"\n\n["), 2),
                (memmem::Finder::new(b"\n\r\n["), 3),
            ],
            event: memmem::Finder::new(b"[Event "),
            glued_after_break: true,
        }
    }

    fn event_tags() -> Marks {
        Marks {
            patterns: vec![(memmem::Finder::new(b"\n[Event "), 1)],
            event: memmem::Finder::new(b"[Event "),
            glued_after_break: false,
        }
    }

    /// Whether the `[Event ` at `log[i]` starts a game glued to the one before, as `cat`
    /// leaves files that end without a blank line (`1-0\n[Event`) or without a line break
    /// (`0-1[Event`): right after a result's last character (`0`, `1`, `2`, `*`), or on the
    /// next line. Counted as a game start (so the guessed game numbers stay right after
    /// such a join), never cut at.
    fn glued(&self, log: &[u8], i: usize) -> bool {
        let before = |j: usize| j.checked_sub(1).and_then(|k| log.get(k)).copied();
        let mut j = i;
        if self.glued_after_break && before(j) == Some(b'\n') {
            j -= 1;
            if before(j) == Some(b'\r') {
                j -= 1;
            }
        }
        matches!(before(j), Some(b'0' | b'1' | b'2' | b'*'))
    }

    /// The marks for an input that starts with `head`.
    fn for_input(head: &[u8]) -> Marks {
        let blank = Marks::blank_lines();
        if blank.first(head, 0).is_none() && Marks::event_tags().first(head, 0).is_some() {
            return Marks::event_tags();
        }
        blank
    }

    /// The `[` of the first mark in `log` whose `[` is at or after `at`.
    fn first(&self, log: &[u8], at: usize) -> Option<usize> {
        let mut first = None;
        for (finder, offset) in &self.patterns {
            let from = at.saturating_sub(*offset);
            let rest = log.get(from..).unwrap_or_default();
            let found = finder.find(rest).map(|i| from + i + offset);
            first = match (first, found) {
                (Some(a), Some(b)) => Some(core::cmp::min(a, b)),
                (a, b) => a.or(b),
            };
        }
        first
    }

    /// Whether `log[i]` is the `[` of a mark.
    fn at(&self, log: &[u8], i: usize) -> bool {
        self.patterns.iter().any(|(finder, offset)| {
            let needle = finder.needle();
            i.checked_sub(*offset).and_then(|j| log.get(j..j + needle.len())) == Some(needle)
        })
    }

    /// Marks whose `[` is in `log[from..to]`, after `from` itself, and glued games there.
    fn count(&self, log: &[u8], from: usize, to: usize) -> usize {
        let mut n = 0;
        for (finder, offset) in &self.patterns {
            let start = (from + 1).saturating_sub(*offset);
            let region = log.get(start..to).unwrap_or_default();
            n += finder.find_iter(region).filter(|&i| start + i + offset > from).count();
        }
        let region = log.get(from + 1..to).unwrap_or_default();
        n + self.event.find_iter(region).filter(|&i| self.glued(log, from + 1 + i)).count()
    }
}

impl<R: Read> Guesses<R> {
    pub(crate) fn new(
        input: R,
        size: usize,
        limits: Limits,
        correction: Arc<AtomicI64>,
    ) -> Guesses<R> {
        Guesses {
            input,
            log: Vec::new(),
            start: 0,
            line: 1,
            guessed: 0,
            correction,
            at_guess: false,
            size: size.max(1),
            lookahead: limits.tag_len.saturating_add(1024),
            index: 0,
            error: None,
            eof: false,
            done: false,
            marks: None,
            pool: Pool::default(),
        }
    }

    /// The index in `log` of the next chunk's first byte.
    fn from(&self) -> usize {
        usize::from(self.start > 0)
    }

    /// How much [`read_more`](Self::read_more) reads at a time.
    fn read_size(&self) -> usize {
        (self.size / 4).clamp(READ_SIZE, 4 << 20)
    }

    /// Reads more of the input into `log`; at its end (or a read error) sets `eof`.
    fn read_more(&mut self) {
        let want = self.read_size();
        match self.input.by_ref().take(want as u64).read_to_end(&mut self.log) {
            Ok(0) => self.eof = true,
            Ok(_) => {}
            Err(e) => {
                self.error = Some(e);
                self.eof = true;
            }
        }
    }

    /// The marks, chosen on the bytes read so far the first time they are asked for (once
    /// a chunk's size is read, or the whole input if it is smaller).
    fn marks(&mut self) -> &Marks {
        let log = &self.log;
        self.marks.get_or_insert_with(|| Marks::for_input(log))
    }

    /// Where the next chunk ends in `log`, if the bytes read show it: a guessed game start
    /// at or past its size, or a line start past [`FALLBACK_AFTER`] more; and whether it
    /// is a guessed game start.
    fn find_cut(&mut self) -> Option<(usize, bool)> {
        let at = self.from().saturating_add(self.size);
        if self.log.len() <= at {
            return None;
        }
        self.marks();
        let marks = self.marks.as_ref()?;
        if let Some(i) = marks.first(&self.log, at) {
            return Some((i, true));
        }
        let fallback = at.saturating_add(FALLBACK_AFTER);
        let rest = self.log.get(fallback..)?;
        memchr::memchr(b'\n', rest).map(|i| (fallback + i + 1, false))
    }

    /// How many bytes after `cut` a reader looks ahead at (to the end of that line, at most
    /// `lookahead`), if `log` holds them.
    fn after(&self, cut: usize) -> Option<usize> {
        let rest = self.log.get(cut..).unwrap_or_default();
        match memchr::memchr(b'\n', rest) {
            Some(i) => Some((i + 1).min(self.lookahead)),
            None if rest.len() >= self.lookahead => Some(self.lookahead),
            None => None,
        }
    }

    /// Guessed game starts in `log[from..cut]`.
    fn count_guesses(&mut self, from: usize, cut: usize) -> u64 {
        self.marks();
        let Some(marks) = self.marks.as_ref() else { return 0 };
        let own = self.log.get(from..cut).unwrap_or_default();
        // The chunk's first byte: a guess if the cut before it was one; at the input's
        // start, a game is guessed, unless white space leads to a mark the count below
        // finds anyway.
        let first = if self.start == 0 {
            let lead = own.iter().take_while(|b| b.is_ascii_whitespace()).count();
            u64::from(lead == 0 || !marks.at(&self.log, from + lead))
        } else {
            u64::from(self.at_guess)
        };
        // Later ones, the whole pattern inside the log (the byte before the chunk included).
        first + marks.count(&self.log, from, cut) as u64
    }

    /// Cuts the chunk `log[from..cut]`, with `after` bytes to look ahead at, and `error`
    /// after it; the next chunk starts at `cut`.
    fn cut(&mut self, cut: usize, after: usize, guess: bool, error: Option<io::Error>) -> Piece {
        let from = self.from();
        let guessed = self.count_guesses(from, cut);
        let breaks = count_line_breaks(self.log.get(from..cut).unwrap_or_default()) as u64;
        let correction = self.correction.load(Ordering::Relaxed);
        let games = self.guessed.saturating_add_signed(correction);
        let origin = Origin {
            offset: self.start,
            line: self.line,
            line_start: self.start,
            games: if self.start == 0 { 0 } else { games },
        };
        // The log keeps the byte before the next chunk and what was read after it.
        let keep = cut.saturating_sub(1);
        // Room for the next chunk, its look-ahead and the last read past them, so that the
        // log rarely grows (fresh memory costs page faults).
        let room = self.size.saturating_add(self.lookahead).saturating_add(2 * self.read_size());
        let mut rest = self.pool.take(room.min(MAX_ROOM));
        rest.extend_from_slice(self.log.get(keep..).unwrap_or_default());
        let mut bytes = core::mem::replace(&mut self.log, rest);
        bytes.truncate(cut + after);
        let piece = Piece {
            buffer: Arc::new(Buffer::pooled(bytes, &self.pool)),
            context: from == 1,
            len: cut - from,
            origin,
            error: error.map(ReadError::new),
            index: self.index,
            guessed_before: self.guessed,
            guessed,
        };
        self.start += (cut - from) as u64;
        self.line += breaks;
        self.guessed += guessed;
        self.at_guess = guess;
        self.index += 1;
        piece
    }
}

impl<R: Read> Iterator for Guesses<R> {
    type Item = Piece;

    fn next(&mut self) -> Option<Piece> {
        if self.done {
            return None;
        }
        loop {
            if let Some((cut, guess)) = self.find_cut() {
                if let Some(after) = self.after(cut) {
                    return Some(self.cut(cut, after, guess, None));
                }
            }
            if self.eof {
                // The rest of the input, with the read error that ended it, if any.
                self.done = true;
                let end = self.log.len();
                let error = self.error.take();
                if end == self.from() && error.is_none() {
                    return None;
                }
                return Some(self.cut(end, 0, false, error));
            }
            self.read_more();
        }
    }
}

/// The read error that ended the input: the error itself for the first chunk made of the
/// piece it ends (the worker's, whose result is handed on unless a guess was wrong), a copy
/// with the same kind and message for a chunk made of it again (`io::Error` is not `Clone`;
/// the copy loses the source error inside, such as a
/// [`CompressedStreamError`](crate::CompressedStreamError)).
#[derive(Clone)]
struct ReadError {
    error: Arc<Mutex<Option<io::Error>>>,
    kind: io::ErrorKind,
    message: String,
}

impl ReadError {
    fn new(error: io::Error) -> ReadError {
        let (kind, message) = (error.kind(), error.to_string());
        ReadError { error: Arc::new(Mutex::new(Some(error))), kind, message }
    }

    /// The error itself the first time, a copy after.
    fn take(&self) -> io::Error {
        let first = self.error.lock().ok().and_then(|mut e| e.take());
        first.unwrap_or_else(|| io::Error::new(self.kind, self.message.clone()))
    }
}

/// A chunk's bytes and where it starts, cut by [`Guesses`]: made into a [`Chunk`] for a
/// worker, and kept by the [`Verifier`] until the worker's reading is found exact.
#[derive(Clone)]
pub(crate) struct Piece {
    buffer: Arc<Buffer>,
    context: bool,
    len: usize,
    origin: Origin,
    /// The read error that ended the input after this piece.
    error: Option<ReadError>,
    index: u64,
    /// The games guessed before it and in it, uncorrected.
    guessed_before: u64,
    guessed: u64,
}

impl Piece {
    /// A chunk of the piece, for a worker to read.
    pub(crate) fn chunk(&self) -> Chunk {
        let error = self.error.as_ref().map(ReadError::take);
        let parts = (Arc::clone(&self.buffer), self.context, self.len);
        Chunk::from_parts(parts, self.origin, error, self.index)
    }

    /// Whether the input ends with this piece (nothing is cut after it).
    fn is_last(&self) -> bool {
        let own = usize::from(self.context) + self.len;
        self.error.is_some() || self.buffer.bytes.len() == own
    }

    /// This piece and the one after it, as one.
    fn join(&self, next: &Piece) -> Piece {
        let own = usize::from(self.context) + self.len;
        let mut bytes = Vec::with_capacity(own + next.buffer.bytes.len());
        bytes.extend_from_slice(self.buffer.bytes.get(..own).unwrap_or_default());
        // The next piece's byte before it is this piece's last byte.
        bytes.extend_from_slice(
            next.buffer.bytes.get(usize::from(next.context)..).unwrap_or_default(),
        );
        Piece {
            buffer: Arc::new(Buffer::new(bytes)),
            context: self.context,
            len: self.len + next.len,
            origin: self.origin,
            error: next.error.clone(),
            index: self.index,
            guessed_before: next.guessed_before,
            guessed: next.guessed,
        }
    }
}

/// Takes the workers' results in input order and hands on only exact ones, reading again
/// what a wrong guess spoiled (see the module's documentation).
pub(crate) struct Verifier<'w, W, S> {
    work: &'w W,
    sink: S,
    limits: Limits,
    correction: Arc<AtomicI64>,
    /// Games handed on so far.
    games: u64,
    /// The move-token cache of the readers run here.
    sans: SanCache,
    /// A piece whose reading did not end clean, to read together with the next one. None is
    /// left once the input has ended: a piece that is not the last has a next, and the last
    /// ends clean.
    pending: Option<Piece>,
}

impl<'w, W, S> Verifier<'w, W, S> {
    pub(crate) fn new(
        work: &'w W,
        sink: S,
        limits: Limits,
        correction: Arc<AtomicI64>,
    ) -> Verifier<'w, W, S> {
        Verifier {
            work,
            sink,
            limits,
            correction,
            games: 0,
            sans: SanCache::default(),
            pending: None,
        }
    }

    /// Takes the result a worker made of `piece`, and the reading its reader reported.
    pub(crate) fn take<T, E>(&mut self, result: T, piece: Piece, reading: Reading) -> Result<(), E>
    where
        W: Fn(&mut ChunkReader<'_>) -> T,
        S: FnMut(T) -> Result<(), E>,
    {
        if let Some(pending) = self.pending.take() {
            return self.settle(pending.join(&piece));
        }
        let origin = Origin { games: self.games, ..piece.origin };
        match reading {
            // A wrong guess ended it inside a game, whatever the game numbers: read it with
            // the next, without reading it alone again.
            r if !r.clean && !piece.is_last() => {
                self.pending = Some(Piece { origin, ..piece });
                Ok(())
            }
            r if piece.origin.games == self.games => self.hand_on(result, &piece, r.games),
            _ => {
                drop(result);
                self.settle(Piece { origin, ..piece })
            }
        }
    }

    /// Reads `piece` here, with its right game number, and hands the result on if the
    /// reading ended clean (else keeps the piece, to read with the next).
    fn settle<T, E>(&mut self, piece: Piece) -> Result<(), E>
    where
        W: Fn(&mut ChunkReader<'_>) -> T,
        S: FnMut(T) -> Result<(), E>,
    {
        let mut chunk = piece.chunk();
        let mut reader = chunk.reader_with(self.limits, core::mem::take(&mut self.sans));
        let result = (self.work)(&mut reader);
        let reading;
        (reading, self.sans) = reader.finish();
        if reading.clean || piece.is_last() {
            self.hand_on(result, &piece, reading.games)
        } else {
            self.pending = Some(piece);
            Ok(())
        }
    }

    fn hand_on<T, E>(&mut self, result: T, piece: &Piece, games: u64) -> Result<(), E>
    where
        S: FnMut(T) -> Result<(), E>,
    {
        self.games += games;
        let expected = piece.guessed_before + piece.guessed;
        let off = i64::try_from(self.games)
            .unwrap_or(i64::MAX)
            .saturating_sub(i64::try_from(expected).unwrap_or(i64::MAX));
        self.correction.store(off, Ordering::Relaxed);
        (self.sink)(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Files joined with `cat` meet without a blank line (`1-0\n[Event`) or without a line
    /// break (`0-1[Event`): those games are counted, so the guessed numbers stay right and
    /// no chunk after the join is read again.
    #[test]
    fn games_glued_by_cat_are_counted() {
        let game = |r: &str| format!("[Event \"e\"]\n[Site \"s\"]\n\n1. e4 e5 {r}");
        let joined = format!(
            "{}\n\n{}\n{}{}\r\n{}\n",
            game("1-0"),
            game("0-1"),
            game("1/2-1/2"),
            game("*"),
            game("1-0")
        );
        let log = joined.as_bytes();
        // The first game starts at 0, which `count` leaves to its caller.
        assert_eq!(Marks::blank_lines().count(log, 0, log.len()), 4);
        let no_blank = joined.replace("\n\n", "\n");
        let log = no_blank.as_bytes();
        assert_eq!(Marks::event_tags().count(log, 0, log.len()), 4);
        // A result inside a comment before a tag-like line is a false start: a wrong guess
        // costs a chunk read again, never a wrong game.
        let tags_only = "[Event \"e\"]\n[Site \"1\"]\n\n1. e4 *\n";
        assert_eq!(Marks::blank_lines().count(tags_only.as_bytes(), 0, tags_only.len()), 0);
    }
}
