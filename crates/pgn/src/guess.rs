//! An input cut into chunks at guessed game starts, without reading the games: the cutter
//! of [`crate::par_chunks`] on several threads, checked after the fact by its
//! [`Verifier`].
//!
//! [`Chunks`](crate::Chunks) finds exact game boundaries by skipping every game, on one
//! thread, at about 1.3 GB/s: on 16 cores that bounds `chessbits pgn --to uci` at 0.257 s for
//! 153 MB of lichess PGN, where guessing takes 0.161 s (docs/log/architecture.md). [`Guesses`] only
//! looks for a likely game start past each chunk's size: a `[` that starts a line after a
//! blank line, or, in a file with no blank lines before its tags, an `[Event ` line
//! ([`Marks`]); any line start when none comes for a long way. It counts the line breaks
//! before it (exact), so each chunk gets an exact offset and line. It does not count games:
//! a chunk's games are numbered from the chunk's start, and the ordered sink adds the games
//! handed on before it.
//!
//! The workers read the chunks as they would exact ones. The chunk's reader says how the
//! reading went ([`Reading`]): how many games it read, and whether its last game ended at or
//! before the chunk's end. The [`Verifier`], on the calling thread, takes the results in
//! input order and hands one on only when the chunk before it ended clean: its last game
//! ended at or before this chunk's start, and the start is a line start, the next game's
//! start, or preceded by nothing but white space since that game's end ([`Reading::clean`]),
//! where the whole input's reader is then between games and finds the same next game this
//! chunk's reader finds. A chunk that
//! did not end clean (a guess that fell inside a game) is read again here together with the
//! next one, until the reading ends clean. So a wrong guess costs the chunks it joins, never
//! the rest of the input; the input is read exactly as the serial reader reads it whatever
//! the guesses. A piece kept one game cut short that holds more than a game may
//! ([`hold_for`]) is not joined further: from its start, the rest of the input goes to one
//! thread that reads it as a stream ([`crate::serial`]). A reading stopped by its cap on
//! games ([`ChunkReader::capped_at`]) is handed on as far as it went (its start was exact),
//! and the rest of its piece is read here, in parts as long. The last piece, where a read error
//! ended the input, is read by the [`Verifier`] alone: an `io::Error` is not `Clone`, so it goes whole, the error inside it
//! included, to the one reading that is handed on.

use std::io::{self, Read};
use std::sync::Arc;

use memchr::memmem;

use crate::limits::Limits;
use crate::lines::count_line_breaks;
use crate::origin::Origin;
use crate::san_cache::SanCache;
use crate::serial::{Part, Serial};
use crate::split::{Buffer, Chunk, ChunkReader, Pool, Reading};

/// How far past a chunk's size the cutter looks for a mark before it cuts at any line
/// start, as far again before it cuts after any space, and as far again before it cuts
/// anywhere: so an input without marks, without line breaks or without white space still
/// comes in chunks (read again with the next where a cut falls inside a game).
const FALLBACK_AFTER: usize = 1 << 20;

/// The bytes read from the input at a time, at the least.
const READ_SIZE: usize = 64 << 10;

/// The longest mark pattern, in bytes (`-0[Event `): a search for marks goes on this much
/// before where the last one ended, for a mark that the bytes read then cut in two.
const MARK_LEN: usize = 9;

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
    /// The input offset where that line starts (before `start` where a cut falls inside a
    /// line, as at a glued game).
    line_start: u64,
    /// How much of `log` was searched for the next cut and found to hold none: the next
    /// search goes on from there, so a long stretch without a cut is searched once.
    searched: usize,
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

/// The places [`Guesses`] takes for game starts: byte patterns, each with the offset of its
/// `[`. A `[` after a blank line, where the input has blank lines before tags (every common
/// writer puts one between games); else an `[Event ` line, for files that put none; and in
/// both, an `[Event ` glued to a result.
struct Marks {
    patterns: Vec<(memmem::Finder<'static>, usize)>,
}

impl Marks {
    fn blank_lines() -> Marks {
        Marks {
            patterns: [(&b"\n\n["[..], 2), (b"\n\r\n[", 3)]
                .into_iter()
                .chain(Marks::GLUED)
                .map(|(needle, at)| (memmem::Finder::new(needle), at))
                .collect(),
        }
    }

    fn event_tags() -> Marks {
        Marks {
            patterns: [(&b"\n[Event "[..], 1)]
                .into_iter()
                .chain(Marks::GLUED)
                .map(|(needle, at)| (memmem::Finder::new(needle), at))
                .collect(),
        }
    }

    /// Games glued to the result of the one before, as `cat` joins files that end without
    /// a line break (`1-0[Event`): cut inside the line, which reads exactly only if the
    /// game before ends right there (see [`Reading::clean`]).
    const GLUED: [(&'static [u8], usize); 4] =
        [(b"-0[Event ", 2), (b"-1[Event ", 2), (b"/2[Event ", 2), (b"*[Event ", 1)];

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
}

impl<R: Read> Guesses<R> {
    pub(crate) fn new(input: R, size: usize, limits: Limits) -> Guesses<R> {
        Guesses {
            input,
            log: Vec::new(),
            start: 0,
            line: 1,
            line_start: 0,
            searched: 0,
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
    /// at or past its size, or a line start past [`FALLBACK_AFTER`] more, or a space past
    /// twice that, or any byte three times that past it.
    fn find_cut(&mut self) -> Option<usize> {
        let at = self.from().saturating_add(self.size);
        if self.log.len() <= at {
            return None;
        }
        self.marks();
        let marks = self.marks.as_ref()?;
        if let Some(i) = marks.first(&self.log, at.max(self.searched.saturating_sub(MARK_LEN))) {
            return Some(i);
        }
        let fallback = at.saturating_add(FALLBACK_AFTER).max(self.searched);
        let line = self.log.get(fallback..).and_then(|rest| memchr::memchr(b'\n', rest));
        if let Some(i) = line {
            return Some(fallback + i + 1);
        }
        // No line start for as far again: a line longer than a game may be (a decompressed
        // bomb of spaces, games on one line), held whole otherwise. Cut after a space, where
        // a token ends; a cut inside a game is read again as any wrong guess is.
        let after_space = at.saturating_add(2 * FALLBACK_AFTER).max(self.searched);
        let space = self.log.get(after_space..).and_then(|rest| memchr::memchr(b' ', rest));
        if let Some(i) = space {
            return Some(after_space + i + 1);
        }
        // No space either for as far again (a blob without white space, which the serial
        // reader skips as one broken game): cut anywhere, as a wrong guess.
        let anywhere = at.saturating_add(3 * FALLBACK_AFTER);
        if self.log.len() > anywhere {
            return Some(anywhere);
        }
        self.searched = self.log.len();
        None
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

    /// Cuts the chunk `log[from..cut]`, with `after` bytes to look ahead at, and `error`
    /// after it; the next chunk starts at `cut`.
    fn cut(&mut self, cut: usize, after: usize, error: Option<io::Error>) -> GuessedChunk {
        let from = self.from();
        let own = self.log.get(from..cut).unwrap_or_default();
        let breaks = count_line_breaks(own) as u64;
        let last_break = memchr::memrchr(b'\n', own);
        // Games are numbered from the chunk's start; the verifier adds the games before it.
        let origin =
            Origin { offset: self.start, line: self.line, line_start: self.line_start, games: 0 };
        // The log keeps the byte before the next chunk and what was read after it.
        let keep = cut.saturating_sub(1);
        // Room for the next chunk, its look-ahead and the last read past them, so that the
        // log rarely grows (fresh memory costs page faults).
        let room = self.size.saturating_add(self.lookahead).saturating_add(2 * self.read_size());
        let mut rest = self.pool.take(room.min(MAX_ROOM));
        rest.extend_from_slice(self.log.get(keep..).unwrap_or_default());
        let mut bytes = core::mem::replace(&mut self.log, rest);
        bytes.truncate(cut + after);
        let piece = GuessedChunk {
            buffer: Arc::new(Buffer::pooled(bytes, &self.pool)),
            at: from,
            len: cut - from,
            origin,
            read_error: error.is_some(),
            error,
            index: self.index,
        };
        if let Some(i) = last_break {
            self.line_start = self.start + i as u64 + 1;
        }
        self.start += (cut - from) as u64;
        self.line += breaks;
        self.searched = 0;
        self.index += 1;
        piece
    }
}

impl<R: Read> Iterator for Guesses<R> {
    type Item = GuessedChunk;

    fn next(&mut self) -> Option<GuessedChunk> {
        if self.done {
            return None;
        }
        loop {
            if let Some(cut) = self.find_cut() {
                if let Some(after) = self.after(cut) {
                    return Some(self.cut(cut, after, None));
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
                return Some(self.cut(end, 0, error));
            }
            self.read_more();
        }
    }
}

/// A chunk's bytes and where it starts, cut by [`Guesses`]: made into a [`Chunk`] for a
/// worker, which hands it back with its result, and kept by the [`Verifier`] until the
/// reading is found exact.
pub(crate) struct GuessedChunk {
    /// The byte before the piece (none at the input's start), its own bytes, then the bytes
    /// to look ahead at; maybe bytes of the input before them, where the piece is the tail of
    /// one read in parts.
    buffer: Arc<Buffer>,
    /// The index in `buffer` of the piece's first byte (0 at the input's start only).
    at: usize,
    len: usize,
    /// Where the piece starts: its offset and line; games are counted from it (0).
    origin: Origin,
    /// The read error that ended the input after this piece. It is not `Clone` (nor the
    /// error inside it, such as a [`CompressedStreamError`](crate::CompressedStreamError)),
    /// so it goes to one reading: the one handed on, as a piece with an error is read by the
    /// [`Verifier`] only (never by a worker, whose result a wrong guess before it discards).
    error: Option<io::Error>,
    /// Whether a read error ended the input after this piece (kept when `error` is taken).
    read_error: bool,
    index: u64,
}

impl GuessedChunk {
    /// A chunk of the piece, to read. The read error after it goes to the first chunk made.
    pub(crate) fn chunk(&mut self) -> Chunk {
        debug_assert!(self.error.is_some() || !self.read_error, "a piece's read error read twice");
        let error = self.error.take();
        let parts = (Arc::clone(&self.buffer), self.at, self.len);
        Chunk::from_parts(parts, self.origin, error, self.index)
    }

    /// Whether the input ends with this piece (nothing is cut after it).
    fn is_last(&self) -> bool {
        self.read_error || self.buffer.bytes.len() == self.at + self.len
    }

    /// Whether a worker may read the piece: not where a read error ended the input after
    /// it, which must reach the reading handed on whole (see `error`).
    pub(crate) fn for_a_worker(&self) -> bool {
        !self.read_error
    }

    /// The piece cut in two at input offset `at` (inside it, past its start): both share
    /// the bytes; the head reads the rest as its look-ahead, the tail starts with its line
    /// counted.
    fn split_at(self, at: u64) -> (GuessedChunk, GuessedChunk) {
        let len = usize::try_from(at - self.origin.offset).unwrap_or(self.len).min(self.len);
        let head_bytes = self.buffer.bytes.get(self.at..self.at + len).unwrap_or_default();
        let line = self.origin.line + count_line_breaks(head_bytes) as u64;
        let line_start = match memchr::memrchr(b'\n', head_bytes) {
            Some(i) => self.origin.offset + i as u64 + 1,
            None => self.origin.line_start,
        };
        let tail = GuessedChunk {
            buffer: Arc::clone(&self.buffer),
            at: self.at + len,
            len: self.len - len,
            origin: Origin { offset: at, line, line_start, games: 0 },
            error: self.error,
            read_error: self.read_error,
            index: self.index,
        };
        let head = GuessedChunk { len, error: None, read_error: false, ..self };
        (head, tail)
    }

    /// The index in `buffer` where the piece's bytes start: its byte before, if it has one.
    fn from(&self) -> usize {
        self.at.saturating_sub(1)
    }

    /// The bytes the piece owns: its byte before, its own and the look-ahead after.
    fn size(&self) -> usize {
        self.buffer.bytes.len() - self.from()
    }

    /// Where the piece starts: the byte before it (none at the input's start) and its origin.
    fn start(&self) -> (Option<u8>, Origin) {
        let before = self.at.checked_sub(1).and_then(|i| self.buffer.bytes.get(i).copied());
        (before, self.origin)
    }

    /// The piece's own bytes and the read error after them, for the serial reading.
    fn into_part(self) -> Part {
        Part { buffer: self.buffer, bytes: self.at..self.at + self.len, error: self.error }
    }

    /// This piece and the one after it, as one. A piece made by joining owns its bytes, and
    /// the next piece's are appended to them in place: joining the pieces that one long game
    /// spans costs time linear in its length.
    fn join(self, next: GuessedChunk) -> GuessedChunk {
        let (from, own) = (self.from(), self.at + self.len);
        let mut bytes = match Arc::try_unwrap(self.buffer) {
            Ok(mut buffer) => {
                let mut bytes = core::mem::take(&mut buffer.bytes);
                bytes.truncate(own);
                bytes.drain(..from);
                bytes
            }
            Err(shared) => shared.bytes.get(from..own).unwrap_or_default().to_vec(),
        };
        // The next piece's byte before it is this piece's last byte.
        bytes.extend_from_slice(next.buffer.bytes.get(next.at..).unwrap_or_default());
        GuessedChunk {
            buffer: Arc::new(Buffer::new(bytes)),
            at: self.at - from,
            len: self.len + next.len,
            origin: self.origin,
            error: next.error,
            read_error: next.read_error,
            index: self.index,
        }
    }
}

/// The most a piece kept one game cut short holds before the [`Verifier`] reads the rest of
/// the input serially, with `limits`: a game longer than this is over the length limit (kept
/// with its byte before and the look-ahead after), an error the serial reader skips in
/// constant memory.
pub(crate) fn hold_for(limits: Limits) -> usize {
    let slack = limits.tag_len.saturating_add(4096) as u64;
    usize::try_from(limits.game_len.saturating_add(slack)).unwrap_or(usize::MAX)
}

/// Takes the workers' results in input order and hands on only exact ones, reading again
/// what a wrong guess spoiled (see the module's documentation), each with the number of
/// games handed on before it. Past a game too long to hold, it hands the rest of the input to
/// a serial reading ([`crate::serial`]), which `start` starts.
pub(crate) struct Verifier<'w, W, S, T, F> {
    work: &'w W,
    sink: S,
    limits: Limits,
    /// Starts the serial reading of the input from a place (the byte before it and its
    /// origin); `None` if no thread starts.
    start: F,
    /// The serial reading, once started: every piece after goes to it.
    serial: Option<Serial<T>>,
    /// The size a piece kept past a wrong guess may reach, one game cut short, before the
    /// input is read serially from its start.
    hold: usize,
    /// The most games one reading reads ([`ChunkReader::capped_at`]).
    cap: u64,
    /// Games handed on so far.
    games: u64,
    /// The move-token cache of the readers run here.
    sans: SanCache,
    /// A piece whose reading did not end clean, to read together with the pieces after it,
    /// and its size when it was last read. None is left once the input has ended: a piece
    /// that is not the last has a next, and the last is read whatever its ending.
    pending: Option<(GuessedChunk, usize)>,
}

impl<'w, W, S, T, F> Verifier<'w, W, S, T, F>
where
    W: Fn(&mut ChunkReader<'_>) -> T,
    F: FnMut((Option<u8>, Origin)) -> Option<Serial<T>>,
{
    /// A verifier handing results to `sink`, reading pieces with `limits` and at most `cap`
    /// games a reading; `hold` is the most a piece kept one game cut short may hold before
    /// the rest of the input is read serially, with `start`.
    pub(crate) fn new(
        work: &'w W,
        sink: S,
        (limits, cap): (Limits, u64),
        (hold, start): (usize, F),
    ) -> Verifier<'w, W, S, T, F> {
        let sans = SanCache::warm();
        let serial = None;
        Verifier { work, sink, limits, start, serial, hold, cap, games: 0, sans, pending: None }
    }

    /// Takes the result a worker made of `piece` and how its reader read it, or `piece`
    /// alone where no worker read it (one that a read error ends, read here).
    pub(crate) fn take<E>(
        &mut self,
        read: Option<(T, Reading)>,
        piece: GuessedChunk,
    ) -> Result<(), E>
    where
        S: FnMut(u64, T) -> Result<(), E>,
    {
        if let Some(serial) = &mut self.serial {
            // Read serially from a game too long to hold on: no worker read this piece.
            drop(read);
            let last = piece.is_last();
            serial.send(piece.into_part(), last);
            return self.hand_on_serial();
        }
        if let Some((pending, read_at)) = self.pending.take() {
            // The chunk before ended inside a game: this one's reading started in the wrong
            // place, so it is joined to that one. The joined piece is read again once it has
            // doubled since it was last read (or the input ends, or it reaches `hold`): a
            // game that spans many chunks costs at most twice its length in readings, not
            // its square.
            drop(read);
            let joined = pending.join(piece);
            let size = joined.size();
            if size >= 2 * read_at || size >= self.hold || joined.is_last() {
                return self.settle(joined);
            }
            self.pending = Some((joined, read_at));
            return Ok(());
        }
        match read {
            // Read here, once, and handed on: it is the last.
            None => self.settle(piece),
            Some((result, reading)) if reading.capped => {
                // The piece's first games, as many as a reading reads: the rest is read here.
                self.hand_on(result, reading.games)?;
                self.settle(piece.split_at(reading.settled.0).1)
            }
            Some((result, reading)) if reading.clean || piece.is_last() => {
                self.hand_on(result, reading.games)
            }
            Some(_) => {
                // A wrong guess ended it inside a game: read it with the next, without
                // reading it alone again.
                let read_at = piece.size();
                self.pending = Some((piece, read_at));
                Ok(())
            }
        }
    }

    /// Reads `piece` here and hands its result on if it ends clean (or ends the input). If
    /// not, hands on the games that ended by its end (cut where the last of them ended,
    /// where the whole input's reader stands between games) and keeps the rest, one game
    /// cut short, to read with the next piece: so what is kept stays one game long, and no
    /// byte is read here more than a few times.
    ///
    /// A reading stopped by its cap on games hands on those games, and the rest of the piece
    /// is read the same way, from where they ended.
    fn settle<E>(&mut self, mut piece: GuessedChunk) -> Result<(), E>
    where
        S: FnMut(u64, T) -> Result<(), E>,
    {
        loop {
            if !piece.is_last() {
                // Skimmed first: skipping costs a fraction of the work.
                let skim = |reader: &mut ChunkReader<'_>| while reader.skip_game().is_some() {};
                let reading = self.read(&mut piece, skim).1;
                if !reading.clean {
                    let (end, games) = reading.settled;
                    if end > piece.origin.offset {
                        let (mut head, tail) = piece.split_at(end);
                        let result = self.read(&mut head, self.work).0;
                        self.hand_on(result, games)?;
                        piece = tail;
                        if reading.capped {
                            continue;
                        }
                    }
                    return self.keep(piece);
                }
            }
            let (result, reading) = self.read(&mut piece, self.work);
            self.hand_on(result, reading.games)?;
            if !reading.capped {
                return Ok(());
            }
            piece = piece.split_at(reading.settled.0).1;
        }
    }

    /// Keeps `piece`, one game cut short, to read with the next; or, if that game is longer
    /// than a game may be, reads the rest of the input serially from its start (or keeps it,
    /// if no thread starts).
    fn keep<E>(&mut self, piece: GuessedChunk) -> Result<(), E>
    where
        S: FnMut(u64, T) -> Result<(), E>,
    {
        if piece.size() >= self.hold {
            if let Some(mut serial) = (self.start)(piece.start()) {
                serial.send(piece.into_part(), false);
                self.serial = Some(serial);
                return self.hand_on_serial();
            }
            // No thread started: the piece is held, and read again once it doubled, as
            // before there was a serial reading; a start is not tried again (each try would
            // read the piece again).
            self.hold = usize::MAX;
        }
        let read_at = piece.size();
        self.pending = Some((piece, read_at));
        Ok(())
    }

    /// Hands on the stretches the serial reading has read: all of them once the input ended.
    fn hand_on_serial<E>(&mut self) -> Result<(), E>
    where
        S: FnMut(u64, T) -> Result<(), E>,
    {
        while let Some((result, games)) = self.serial.as_mut().and_then(Serial::next) {
            self.hand_on(result, games)?;
        }
        Ok(())
    }

    /// Runs `work` on a reader of `piece`, here; returns its result and the reading.
    fn read<U>(
        &mut self,
        piece: &mut GuessedChunk,
        work: impl Fn(&mut ChunkReader<'_>) -> U,
    ) -> (U, Reading) {
        let mut chunk = piece.chunk();
        let sans = core::mem::take(&mut self.sans);
        let mut reader = chunk.reader_with(self.limits, sans).capped_at(self.cap);
        let result = work(&mut reader);
        let reading;
        let error;
        (reading, self.sans, error) = reader.finish();
        // A reading capped before the read error that ends the input leaves it to the
        // reading of the rest (`split_at` hands it to the tail).
        if error.is_some() {
            piece.error = error;
        }
        (result, reading)
    }

    fn hand_on<E>(&mut self, result: T, games: u64) -> Result<(), E>
    where
        S: FnMut(u64, T) -> Result<(), E>,
    {
        let before = self.games;
        self.games += games;
        (self.sink)(before, result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The marks are chosen on the input's head: blank lines before tags where it has them,
    /// else `[Event ` lines; the first mark is found from any offset.
    #[test]
    fn marks_follow_the_input() {
        let blank = "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n";
        let marks = Marks::for_input(blank.as_bytes());
        assert_eq!(marks.first(blank.as_bytes(), 1), blank.find("[Event \"b"));
        let crlf = blank.replace('\n', "\r\n");
        assert_eq!(marks.first(crlf.as_bytes(), 1), crlf.find("[Event \"b"));
        let packed = "[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *\n";
        let marks = Marks::for_input(packed.as_bytes());
        assert_eq!(marks.first(packed.as_bytes(), 1), packed.find("[Event \"b"));
        assert_eq!(marks.first(packed.as_bytes(), packed.len() - 3), None);
    }
}
