//! One input read on several threads, with results in input order: [`par_chunks`] and
//! [`par_games`], both built on [`par_map`] (an ordered parallel map over any sequence).
//!
//! The pipeline: one thread reads the input (and so decompresses it, if it is a decompressor)
//! in blocks, unless `Parallel::read_ahead` is off (then the cutter reads it); the calling
//! thread cuts the blocks into [`Chunk`]s, takes the results in input order and hands them on
//! (writes them), and reads chunks itself (parse, validate, convert) whenever it has nothing
//! else to do, beside `threads - 1` workers: `threads` threads read in all. Results are
//! exactly those of one reader of the whole input, in the same order, with the same game
//! numbers, lines, columns and byte offsets, for every thread count and chunk size.
//!
//! The cutter guesses where games start (a `[` that starts a line after a blank line, past
//! each chunk's size; an `[Event ` line in a file without blank lines before its tags) and
//! counts the lines before each cut: a few passes of vector byte search, where finding the
//! exact game ends ([`Chunks`], with [`Parallel::guess`] off) means skipping every game on
//! one thread, at about 1.3 GB/s, which bounds the pipeline from about 8 workers on. It does
//! not count games: each chunk's reader numbers its games from the chunk's start, and the
//! calling thread, which takes the results in order, adds the games before the chunk. Each
//! chunk's reader says how its reading ended; the calling thread hands a result on only once
//! the chunk before it ended where this one starts, and reads a chunk again itself, joined
//! to the next, where a guess fell inside a game (inside a comment, say). Wrong guesses cost
//! time, never correctness, and only the chunks they join; on the corpus's lichess, TWIC,
//! PGN Mentor, TCEC and fishtest files every guess is right (no chunk is read twice).
//!
//! SyntaxCheck travels beside the values: a worker gets its scratch state (the move-token
//! cache) as an argument and returns its result, the chunk's reading comes back from
//! [`ChunkReader`]'s `finish`, and a read error reaches the reader of the chunk it ends.
//!
//! # Memory
//!
//! Bounded by the thread count, the chunk size and [`Limits::game_len`], not by the input: at
//! most [`Parallel::in_flight`] chunks (`2 * threads + 2`) are cut and not yet handed on, each
//! `chunk_size` bytes plus one game (guessing: to the next guessed game start, or a line start
//! at most 1 MiB further, or after a space 2 MiB further, or anywhere 3 MiB further), and their
//! results; a piece whose last game a wrong guess cut, kept to read with the next, until it
//! holds one game longer than `game_len` (64 MiB): then the rest of the input is read on one
//! thread as a stream, as the serial reader reads it, which skips such a game in constant
//! memory (`crate::serial`; a gigabyte of `1. e4 ` took 1.6 GB at two threads, now 275 MB,
//! whatever its length); plus [`BLOCKS`] blocks of [`BLOCK_SIZE`] bytes read ahead and the
//! cutter's read-ahead. [`Parallel::input_bound`] gives the input bytes held at most; what the
//! results hold is the caller's (a line of UCI per game is about half the PGN), for at most
//! [`Parallel::max_chunk_games`] games a chunk: a reading that reaches that many hands them
//! on, and the rest of its chunk is read after, on the calling thread, in parts of as many
//! (a megabyte of `* * *` is half a million empty games, whose lines of text made 577 MB in
//! flight at two threads).
//!
//! A game over the length limit is an error (hostile input, or a limit set too low): past
//! one, the rest of the input is read at the serial reader's speed, whatever the thread count.

use std::io::{self, Read};
use std::ops::Deref;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SendError, SyncSender};
use std::sync::Arc;
use std::thread;

use crate::error::PgnError;
use crate::guess::{hold_for, GuessedChunk, Guesses, Verifier};
use crate::limits::Limits;
use crate::ordered::par_map_with;
use crate::pool::{Pooled, Spawner};
use crate::reader::PgnReader;
use crate::san_cache::SanCache;
use crate::serial;
use crate::split::{Chunk, ChunkReader, Chunks};
use crate::visitor::Visitor;

/// The size of the blocks the reading thread reads (and decompresses) at a time. A tuning
/// knob, not part of the stable API (hidden from the docs).
#[doc(hidden)]
pub const BLOCK_SIZE: usize = 1 << 20;

/// How many blocks the reading thread reads ahead of the cutter. A tuning knob, not part of
/// the stable API (hidden from the docs).
#[doc(hidden)]
pub const BLOCKS: usize = 4;

/// How to read one input on several threads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Parallel {
    /// Threads that read, the calling thread among them: 1 reads on the calling thread, with
    /// no other thread.
    pub threads: usize,
    /// The size a chunk reaches before it is cut (at the end of the game that reaches it).
    pub chunk_size: usize,
    /// The bounds put on each game.
    pub limits: Limits,
    /// With more than one thread: cut the input at guessed game starts, checked once the
    /// chunks are read (the default), rather than at game ends found by skipping every game
    /// on one thread ([`Chunks`]). The results are the same; guessing leaves the cutter
    /// almost nothing to do, so from about 8 workers on it no longer bounds the pipeline's
    /// speed (on 16 cores, 153 MB of lichess PGN: 0.161 s guessing, 0.257 s exact). A
    /// measuring knob, not part of the stable API (hidden from the docs; the CLI's hidden
    /// `--exact-cuts` turns it off).
    #[doc(hidden)]
    pub guess: bool,
    /// With more than one thread: read the input on a thread of its own, [`BLOCKS`] blocks
    /// ahead of the cutter (the default), rather than on the cutter's thread. A decompressor
    /// needs that thread; a plain file or bytes in memory do not, and without it the first
    /// chunk is cut after 64 KiB are read rather than a megabyte, one thread fewer is
    /// started, and no block is copied. The results are the same. A tuning knob, not part
    /// of the stable API (hidden from the docs).
    #[doc(hidden)]
    pub read_ahead: bool,
    /// With guessing: the most bytes a piece kept past a wrong guess may hold, one game cut
    /// short, before the rest of the input is read on one thread as a stream (`None`: a
    /// little over [`Limits::game_len`], so that only a game over the length limit, which
    /// the serial reader skips in constant memory, goes there). A testing knob, not part of
    /// the stable API (hidden from the docs).
    #[doc(hidden)]
    pub hold: Option<usize>,
    /// The most games one reading of a chunk reads (`None`: [`max_chunk_games`]'s default).
    /// A testing knob, not part of the stable API (hidden from the docs).
    ///
    /// [`max_chunk_games`]: Self::max_chunk_games
    #[doc(hidden)]
    pub chunk_games: Option<u64>,
}

impl Parallel {
    /// The default chunk size: 1 MiB, about 400 to 700 games of a lichess dump, a few
    /// milliseconds of a worker's time, so that handing chunks over costs next to nothing.
    pub const DEFAULT_CHUNK_SIZE: usize = 1 << 20;

    /// `threads` threads reading (at least 1, at most [`MAX_THREADS`](crate::MAX_THREADS);
    /// the calling thread is one), chunks of [`DEFAULT_CHUNK_SIZE`](Self::DEFAULT_CHUNK_SIZE),
    /// the default [`Limits`].
    ///
    /// ```
    /// use chessbits_pgn::{Parallel, MAX_THREADS};
    ///
    /// assert_eq!(Parallel::new(0).threads, 1);
    /// assert_eq!(Parallel::new(100_000).threads, MAX_THREADS);
    /// ```
    pub fn new(threads: usize) -> Parallel {
        Parallel {
            threads: threads.clamp(1, crate::MAX_THREADS),
            chunk_size: Parallel::DEFAULT_CHUNK_SIZE,
            limits: Limits::DEFAULT,
            guess: true,
            read_ahead: true,
            hold: None,
            chunk_games: None,
        }
    }

    /// These options with chunks of `chunk_size` bytes (at least 1).
    #[must_use]
    pub fn with_chunk_size(self, chunk_size: usize) -> Parallel {
        Parallel { chunk_size: chunk_size.max(1), ..self }
    }

    /// These options with `limits` on each game.
    #[must_use]
    pub fn with_limits(self, limits: Limits) -> Parallel {
        Parallel { limits, ..self }
    }

    /// These options cutting at guessed game starts (`true`, the default) or at game ends
    /// found on one thread: a measuring knob, not part of the stable API.
    #[doc(hidden)]
    #[must_use]
    pub fn with_guess(self, guess: bool) -> Parallel {
        Parallel { guess, ..self }
    }

    /// These options reading the input on a thread of its own (`true`, the default) or on
    /// the cutter's: a tuning knob, not part of the stable API.
    #[doc(hidden)]
    #[must_use]
    pub fn with_read_ahead(self, read_ahead: bool) -> Parallel {
        Parallel { read_ahead, ..self }
    }

    /// These options reading the rest of the input serially once a piece kept past a wrong
    /// guess holds `hold` bytes: a testing knob, not part of the stable API.
    #[doc(hidden)]
    #[must_use]
    pub fn with_hold(self, hold: usize) -> Parallel {
        Parallel { hold: Some(hold), ..self }
    }

    /// These options reading at most `games` games a chunk: a testing knob, not part of the
    /// stable API.
    #[doc(hidden)]
    #[must_use]
    pub fn with_chunk_games(self, games: u64) -> Parallel {
        Parallel { chunk_games: Some(games), ..self }
    }

    /// The most games a chunk holds: one for every 64 bytes of the chunk size, at least
    /// 1,024 (16,384 for the default megabyte, where a lichess dump has about 500). A chunk
    /// is cut, or its reading stopped and the rest read after, at the end of that many
    /// games: so that what a chunk of tiny games makes of them (a line of text, a row each)
    /// is bounded by the count, not by the bytes (a megabyte of `* * *` is half a million
    /// games, which made 577 MB of results in flight at two threads).
    ///
    /// ```
    /// use chessbits_pgn::Parallel;
    ///
    /// assert_eq!(Parallel::new(2).max_chunk_games(), 16_384);
    /// assert_eq!(Parallel::new(2).with_chunk_size(1000).max_chunk_games(), 1_024);
    /// ```
    pub fn max_chunk_games(&self) -> u64 {
        self.chunk_games.unwrap_or((self.chunk_size as u64 / 64).max(1024)).max(1)
    }

    /// As many workers as the machine runs threads at once.
    pub fn all_cores() -> Parallel {
        Parallel::new(thread::available_parallelism().map_or(1, |n| n.get()))
    }

    /// The smallest chunk size [`fit_to`](Self::fit_to) sets: 64 KiB, a few dozen games,
    /// still well over what handing a chunk from thread to thread costs.
    pub const MIN_CHUNK_SIZE: usize = 64 << 10;

    /// How many chunks [`fit_to`](Self::fit_to) gives each worker, at the least.
    pub const CHUNKS_PER_THREAD: u64 = 4;

    /// These options with the chunk size lowered, where need be, so that an input of `len`
    /// bytes is cut into [`CHUNKS_PER_THREAD`](Self::CHUNKS_PER_THREAD) chunks a worker: a
    /// file of one or two megabytes would otherwise be one or two chunks, read by one or two
    /// workers while the others wait. Never below [`MIN_CHUNK_SIZE`](Self::MIN_CHUNK_SIZE),
    /// never above the chunk size set. The results do not depend on the chunk size, only the
    /// time they take.
    ///
    /// ```
    /// use chessbits_pgn::Parallel;
    ///
    /// assert_eq!(Parallel::new(2).fit_to(1 << 20).chunk_size, 128 << 10);
    /// assert_eq!(Parallel::new(2).fit_to(1 << 30).chunk_size, Parallel::DEFAULT_CHUNK_SIZE);
    /// assert_eq!(Parallel::new(16).fit_to(1 << 20).chunk_size, Parallel::MIN_CHUNK_SIZE);
    /// ```
    #[must_use]
    pub fn fit_to(self, len: u64) -> Parallel {
        let chunks = self.threads.max(1) as u64 * Parallel::CHUNKS_PER_THREAD;
        let fitted = usize::try_from(len / chunks).unwrap_or(usize::MAX);
        let chunk_size = fitted.max(Parallel::MIN_CHUNK_SIZE).min(self.chunk_size);
        Parallel { chunk_size, ..self }
    }

    /// The most chunks cut and not yet handed on at once.
    pub fn in_flight(&self) -> usize {
        2 * self.threads.max(1) + 2
    }

    /// The most input bytes the pipeline holds at once, when no game is longer than
    /// `longest_game` bytes: the chunks in flight, the blocks read ahead, the cutter's
    /// read-ahead. Guessing, a game longer than [`Limits::game_len`] is held only up to that
    /// length (the rest of the input is then read serially): `longest_game` may be taken as
    /// `game_len` however long the games are.
    pub fn input_bound(&self, longest_game: u64) -> u64 {
        let past_size = if self.guess { longest_game.max(3 << 20) } else { longest_game };
        let chunk = self.chunk_size as u64 + past_size;
        // With guessing, a chunk kept to read with the next one holds two.
        let kept = if self.guess { 2 * chunk } else { 0 };
        self.in_flight() as u64 * chunk
            + (BLOCKS + 1) as u64 * BLOCK_SIZE as u64
            + chunk
            + kept
            + (64 << 10)
    }
}

impl Default for Parallel {
    fn default() -> Parallel {
        Parallel::all_cores()
    }
}

/// Cuts `input` into chunks of whole games, runs `work` on a reader of each on
/// `options.threads` threads, and hands each result to `sink`, on the calling thread, in
/// input order, with the number of games the input holds before the chunk.
///
/// The chunk's reader numbers its games from the chunk's start (its first game is game 1,
/// and so is the [`PgnError::game`] of an error in it); lines, columns and byte offsets are
/// the whole input's. The sink makes a game's number the whole input's by adding the games
/// before the chunk: the cutter need not know how many games a chunk holds, only where it
/// starts.
///
/// With one thread the chunks are cut and worked on the calling thread, one after the
/// other. A read error of `input` is not an error here: the chunk it cuts short ends with it,
/// and its reader reports it as the serial reader does.
///
/// `work` gets a [`ChunkReader`] of the chunk, and may read as many of its games as it likes:
/// the games it leaves are skipped after it returns, since with [`Parallel::guess`] how the
/// whole chunk reads is what shows it was cut where a game starts. A chunk that shows a
/// wrong guess is read again, with `work`, on the calling thread; so `work` may run more than
/// once on the same bytes, and only one of its results is handed on.
///
/// # Errors
/// The first error `sink` returns: no more results are handed on, and the threads stop.
///
/// ```
/// use chessbits_pgn::{par_chunks, Parallel, Replay};
///
/// let game = "[Event \"e\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n";
/// let pgn = game.repeat(1000);
/// let mut plies = Vec::new();
/// let options = Parallel::new(2).with_chunk_size(4096);
/// par_chunks(pgn.as_bytes(), &options, |reader| {
///     let mut counts = Vec::new();
///     while let Some(game) = reader.read_game(&mut Replay::default()) {
///         counts.push((reader.games(), game.map_or(0, |g| g.game.moves().len())));
///     }
///     counts
/// }, |before, counts| {
///     plies.extend(counts.into_iter().map(|(n, plies)| (before + n, plies)));
///     Ok::<_, std::io::Error>(())
/// })?;
/// assert_eq!(plies, (1..=1000).map(|n| (n, 4)).collect::<Vec<_>>());
/// # Ok::<_, std::io::Error>(())
/// ```
pub fn par_chunks<R, T, E, W, S>(input: R, options: &Parallel, work: W, sink: S) -> Result<(), E>
where
    R: Read + Send,
    T: Send,
    W: Fn(&mut ChunkReader<'_>) -> T + Sync,
    S: FnMut(u64, T) -> Result<(), E>,
{
    thread::scope(|scope| chunks_on(&scope, input, options, &work, sink))
}

/// [`par_chunks`] on threads kept between calls: the process's pool, whose threads start
/// once and keep their allocator heaps and move-token caches warm. For a caller that reads
/// many small inputs one after the other (a 1 MB file took 4 thread starts a call); the
/// results are those of [`par_chunks`]. The pool holds as many threads as were ever busy at
/// once (at most `threads` a call: `threads - 1` workers, and a reading thread for input
/// read ahead), and keeps them for the life of the process.
///
/// # Errors
/// The first error `sink` returns, as [`par_chunks`].
///
/// ```
/// use chessbits_pgn::{par_chunks_pooled, Parallel, Replay};
///
/// let pgn = "[Event \"e\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n".repeat(1000);
/// let options = Parallel::new(2).with_chunk_size(4096);
/// for _ in 0..3 {
///     let mut games = 0;
///     par_chunks_pooled(std::io::Cursor::new(pgn.clone()), &options, |reader| {
///         let mut n = 0;
///         while reader.read_game(&mut Replay::default()).is_some() {
///             n += 1;
///         }
///         n
///     }, |_, n| {
///         games += n;
///         Ok::<_, std::io::Error>(())
///     })?;
///     assert_eq!(games, 1000);
/// }
/// # Ok::<_, std::io::Error>(())
/// ```
pub fn par_chunks_pooled<R, T, E, W, S>(
    input: R,
    options: &Parallel,
    work: W,
    sink: S,
) -> Result<(), E>
where
    R: Read + Send + 'static,
    T: Send + 'static,
    W: Fn(&mut ChunkReader<'_>) -> T + Send + Sync + 'static,
    S: FnMut(u64, T) -> Result<(), E>,
{
    let pooled = Pooled::new();
    let result = chunks_on(&pooled, input, options, Arc::new(work), sink);
    pooled.finish();
    result
}

/// `input` read on a thread of its own, [`BLOCKS`] blocks ahead of the cutter that reads the
/// result on `par_map`'s calling thread (dropping it stops the reading thread). The input goes
/// to the reading thread once it runs: if the system cannot start one, the cutter reads the
/// input itself.
fn read_ahead<'a, R: Read + Send + 'a>(
    spawner: &impl Spawner<'a>,
    input: R,
) -> Box<dyn Read + Send + 'a> {
    let (block_tx, block_rx) = sync_channel(BLOCKS);
    // Blocks read go back to the reading thread once the cutter has copied them.
    let (spare_tx, spare_rx) = sync_channel(BLOCKS + 2);
    let (input_tx, input_rx) = sync_channel::<R>(1);
    let started = spawner.run(move |_| {
        if let Ok(input) = input_rx.recv() {
            read_blocks(input, &block_tx, &spare_rx);
        }
    });
    if !started {
        return Box::new(input);
    }
    match input_tx.send(input) {
        Ok(()) => Box::new(Blocks { rx: block_rx, spare: spare_tx, block: Vec::new(), at: 0 }),
        Err(SendError(input)) => Box::new(input),
    }
}

/// [`par_chunks`] with its threads from `spawner`; `work` is shared by reference (a scope's
/// threads) or by `Arc` (the pool's).
fn chunks_on<'a, R, T, E, W, Wk, S>(
    spawner: &impl Spawner<'a>,
    input: R,
    options: &Parallel,
    work: Wk,
    mut sink: S,
) -> Result<(), E>
where
    R: Read + Send + 'a,
    T: Send + 'a,
    W: Fn(&mut ChunkReader<'_>) -> T + Sync,
    Wk: Deref<Target = W> + Clone + Send + 'a,
    S: FnMut(u64, T) -> Result<(), E>,
{
    let (chunk_size, limits) = (options.chunk_size, options.limits);
    let cap = options.max_chunk_games();
    // Each worker's scratch is its move-token cache, handed from one chunk's reader to the
    // next: a warm cache reads as fast as one reader of the whole input. The exact cutter
    // knows the games before each chunk; its readers too number games from the chunk's
    // start, so that `work` sees the same numbers from either cutter.
    let exact_work = work.clone();
    let work_exact = move |sans: &mut SanCache, mut chunk: Chunk| {
        let before = chunk.number_from_start();
        let mut reader = chunk.reader_with(limits, core::mem::take(sans));
        let result = exact_work(&mut reader);
        *sans = reader.finish().1;
        (before, result)
    };
    if options.threads <= 1 {
        // No reading thread either: the chunks are cut from `input` on the calling thread.
        let chunks = move || Chunks::with_limits(input, chunk_size, limits).capped_at(cap);
        return par_map_with(spawner, 1, chunks, work_exact, |(before, result)| {
            sink(before, result)
        });
    }
    // The cutter reads the input itself, or the blocks a reading thread reads ahead; it reads
    // many kilobytes at a time, so the virtual call a read costs nothing measurable.
    let input: Box<dyn Read + Send + 'a> =
        if options.read_ahead { read_ahead(spawner, input) } else { Box::new(input) };
    if !options.guess {
        let chunks = move || Chunks::with_limits(input, chunk_size, limits).capped_at(cap);
        return par_map_with(spawner, options.threads, chunks, work_exact, |(before, result)| {
            sink(before, result)
        });
    }
    guessed_on(spawner, input, options, work, sink)
}

/// [`chunks_on`] cutting at guessed game starts ([`Guesses`]), the results checked and handed
/// on by a [`Verifier`]; past a game too long to hold, the rest of the input is read on one
/// thread, as a stream (`crate::serial`), and the workers stop reading.
fn guessed_on<'a, T, E, W, Wk, S>(
    spawner: &impl Spawner<'a>,
    input: Box<dyn Read + Send + 'a>,
    options: &Parallel,
    work: Wk,
    sink: S,
) -> Result<(), E>
where
    T: Send + 'a,
    W: Fn(&mut ChunkReader<'_>) -> T + Sync,
    Wk: Deref<Target = W> + Clone + Send + 'a,
    S: FnMut(u64, T) -> Result<(), E>,
{
    let (chunk_size, limits) = (options.chunk_size, options.limits);
    let cap = options.max_chunk_games();
    let guesses = move || Guesses::new(input, chunk_size, limits);
    let serially = Arc::new(AtomicBool::new(false));
    let start = {
        let (work, serially) = (work.clone(), Arc::clone(&serially));
        move |from| {
            let (serial, stream) = serial::serial();
            let work = work.clone();
            let started = spawner.run(move |sans| {
                stream.run(from, (limits, chunk_size, cap), &*work, sans);
            });
            serially.store(started, Ordering::Relaxed);
            started.then_some(serial)
        }
    };
    let hold = options.hold.unwrap_or_else(|| hold_for(limits));
    let mut verifier = Verifier::new(&*work, sink, (limits, cap), (hold, start));
    let guessed_work = work.clone();
    par_map_with(
        spawner,
        options.threads,
        guesses,
        move |sans: &mut SanCache, mut piece: GuessedChunk| {
            if !piece.for_a_worker() || serially.load(Ordering::Relaxed) {
                return (None, piece);
            }
            let mut chunk = piece.chunk();
            let mut reader = chunk.reader_with(limits, core::mem::take(sans)).capped_at(cap);
            let result = guessed_work(&mut reader);
            let reading;
            // A worker's piece has no read error after it (`for_a_worker`).
            (reading, *sans, _) = reader.finish();
            drop(chunk);
            (Some((result, reading)), piece)
        },
        |(read, piece)| verifier.take(read, piece),
    )
}

/// Reads `input` in blocks of [`BLOCK_SIZE`] bytes and sends them; then an empty block at the
/// end of the input, or the read error that stopped it (after the bytes read before it).
fn read_blocks(
    mut input: impl Read,
    blocks: &SyncSender<io::Result<Vec<u8>>>,
    spare: &Receiver<Vec<u8>>,
) {
    loop {
        let mut block = spare.try_recv().unwrap_or_else(|_| Vec::with_capacity(BLOCK_SIZE));
        block.clear();
        let read = input.by_ref().take(BLOCK_SIZE as u64).read_to_end(&mut block);
        if !block.is_empty() && blocks.send(Ok(block)).is_err() {
            return;
        }
        match read {
            Ok(0) => {
                let _ = blocks.send(Ok(Vec::new()));
                return;
            }
            Ok(_) => {}
            Err(e) => {
                let _ = blocks.send(Err(e));
                return;
            }
        }
    }
}

/// The blocks the reading thread sends, as one [`Read`].
struct Blocks {
    rx: Receiver<io::Result<Vec<u8>>>,
    /// Where copied blocks go back to be read into again.
    spare: SyncSender<Vec<u8>>,
    block: Vec<u8>,
    at: usize,
}

impl Read for Blocks {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.block.len() {
            match self.rx.recv() {
                Ok(Ok(block)) if block.is_empty() => return Ok(0),
                Ok(Ok(block)) => {
                    let done = core::mem::replace(&mut self.block, block);
                    let _ = self.spare.try_send(done);
                    self.at = 0;
                }
                Ok(Err(e)) => return Err(e),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.block.len() - self.at);
        buf[..n].copy_from_slice(&self.block[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Reads every game of `input` with a visitor from `visitor`, on `options.threads` threads,
/// and hands `map`'s result for each game to `sink`, in input order.
///
/// `map` gets the game's number in the input (from 1, broken games counted) and what the
/// reader made of it, exactly as one [`PgnReader`] over the whole input would give them.
/// The visitor runs on the workers; `map` runs on the calling thread, in input order (the
/// game numbers are made whole there), so put the heavy work in the visitor. With one
/// thread, it is one reader, on the calling thread.
///
/// # Errors
/// The first error `sink` returns.
///
/// ```
/// use chessbits_pgn::{par_games, Parallel, Replay};
///
/// let pgn = "1. e4 e5 1-0\n\n1. d4 Kd5 *\n\n1. c4 c5 2. Nc3 *\n".repeat(100);
/// let mut lines = Vec::new();
/// par_games(pgn.as_bytes(), &Parallel::new(2), Replay::default, |n, game| match game {
///     Ok(replayed) => format!("{n}: {} plies", replayed.game.moves().len()),
///     Err(e) => format!("{n}: {}", e.kind),
/// }, |line| {
///     lines.push(line);
///     Ok::<_, std::io::Error>(())
/// })?;
/// assert_eq!(lines.len(), 300);
/// assert_eq!(lines[1], "2: ply 2 (Kd5): illegal move Kd5");
/// assert_eq!(lines[299], "300: 3 plies");
/// # Ok::<_, std::io::Error>(())
/// ```
pub fn par_games<R, V, T, E, M, S>(
    input: R,
    options: &Parallel,
    visitor: impl Fn() -> V + Sync,
    mut map: M,
    mut sink: S,
) -> Result<(), E>
where
    R: Read + Send,
    V: Visitor,
    V::Output: Send,
    V::Error: Send,
    M: FnMut(u64, Result<V::Output, PgnError<V::Error>>) -> T,
    S: FnMut(T) -> Result<(), E>,
{
    if options.threads <= 1 {
        let mut reader = PgnReader::with_limits(input, options.limits);
        let mut v = visitor();
        while let Some(game) = reader.read_game(&mut v) {
            sink(map(reader.games(), game))?;
        }
        return Ok(());
    }
    par_chunks(
        input,
        options,
        |reader| {
            let mut v = visitor();
            let mut games = Vec::new();
            while let Some(game) = reader.read_game(&mut v) {
                games.push((reader.games(), game));
            }
            games
        },
        |before, games| {
            games.into_iter().try_for_each(|(n, game)| {
                let game = game.map_err(|mut e| {
                    e.game += before;
                    e
                });
                sink(map(before + n, game))
            })
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::Limited;

    /// The games of a chunk, all of which read.
    fn chunk_games(reader: &mut ChunkReader<'_>) -> u64 {
        let mut games = 0;
        while let Some(game) = reader.skip_game() {
            game.unwrap();
            games += 1;
        }
        games
    }

    /// Games counted chunk by chunk, with the games before each chunk.
    fn counts<'s>(spawner: &Limited<'s, '_>, pgn: &'s [u8], options: &Parallel) -> Vec<(u64, u64)> {
        let mut counts = Vec::new();
        chunks_on(spawner, pgn, options, &chunk_games, |before, games| {
            counts.push((before, games));
            Ok::<_, ()>(())
        })
        .unwrap();
        counts
    }

    /// A chunk's games (each one's number and whether it read), and where it ends.
    type Numbered = (Vec<(u64, Result<(), String>)>, u64);

    /// What [`Numbered`] says of the chunk `reader` reads.
    fn chunk_numbers(reader: &mut ChunkReader<'_>) -> Numbered {
        let mut read = Vec::new();
        while let Some(game) = reader.skip_game() {
            read.push((reader.games(), game.map_err(|e| e.to_string())));
        }
        (read, reader.end())
    }

    /// Each game's number and whether it read, from `chunks_on` with `spawner`; the chunks'
    /// ends (asked once their games are read) go forward, to the input's end.
    fn numbered<'s>(spawner: &Limited<'s, '_>, pgn: &'s [u8], options: &Parallel) -> Vec<String> {
        let mut games = Vec::new();
        let mut last_end = 0;
        chunks_on(spawner, pgn, options, &chunk_numbers, |before, (read, end)| {
            assert!(end >= last_end && end <= pgn.len() as u64, "{end} after {last_end}");
            last_end = end;
            games.extend(read.into_iter().map(|(n, game)| format!("{}: {game:?}", before + n)));
            Ok::<_, ()>(())
        })
        .unwrap();
        // A stretch of the stream ends where its last game ends, before the blank line.
        assert!(pgn.len() as u64 - last_end <= 2, "{last_end} of {}", pgn.len());
        games
    }

    /// The serial reading past a kept piece, where the system starts its thread and where it
    /// refuses it (the piece is then held as before, and no start is tried again), and with
    /// a cap of two games a reading: one reader's games every time.
    #[test]
    fn the_serial_reading_starts_or_is_done_without() {
        // Blank lines before `[` inside a comment: wrong guesses of game starts.
        let fake = "\n\n[%clk 0:01:00]\n".repeat(50);
        let game =
            format!("[Event \"e\"]\n\n1. e4 {{{fake}}} e5 1-0\n\n[Event \"f\"]\n\n1. Kd5 *\n\n");
        let pgn = game.repeat(40);
        let mut serial = Vec::new();
        let mut reader = PgnReader::new(pgn.as_bytes());
        while let Some(game) = reader.skip_game() {
            serial.push(format!("{}: {:?}", reader.games(), game.map_err(|e| e.to_string())));
        }
        assert_eq!(serial.len(), 80);
        for games in [None, Some(2)] {
            let options = Parallel::new(3).with_chunk_size(512).with_hold(1);
            let options = games.map_or(options, |games| options.with_chunk_games(games));
            for allowed in [0, 1, 2, 3, 10] {
                let read = thread::scope(|scope| {
                    numbered(&Limited { scope, allowed: allowed.into() }, pgn.as_bytes(), &options)
                });
                assert_eq!(read, serial, "{allowed} threads started, cap {games:?}");
            }
        }
    }

    #[test]
    fn threads_the_system_refuses_are_done_without() {
        let pgn = "[Event \"e\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n".repeat(3000);
        for exact in [false, true] {
            let options = Parallel::new(4).with_chunk_size(4096).with_guess(!exact);
            let all = thread::scope(|scope| {
                counts(&Limited { scope, allowed: 10.into() }, pgn.as_bytes(), &options)
            });
            assert_eq!(all.iter().map(|c| c.1).sum::<u64>(), 3000);
            // No reading thread and no worker; the reading thread and no worker; one worker.
            for allowed in [0, 1, 2] {
                let some = thread::scope(|scope| {
                    counts(&Limited { scope, allowed: allowed.into() }, pgn.as_bytes(), &options)
                });
                assert_eq!(some, all, "{allowed} threads started, exact cuts {exact}");
            }
        }
    }
}
