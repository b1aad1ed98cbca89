//! The parallel reader's memory on hostile input, counted with a global allocator of this
//! test binary's own:
//! - a game far longer than a game may be ([`Limits::game_len`]) takes bounded memory on
//!   several threads, as on one: the pipeline reads the rest of the input serially past it,
//!   where it used to join every piece the game spans and hold it whole (a trial's gigabyte
//!   of `1. e4 `, 85 KB of zstd, took 1.6 GB);
//! - megabytes of empty games (`* * *`) hold the results of a bounded number of games
//!   ([`Parallel::max_chunk_games`]), where a chunk held half a million.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{self, Read};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use chessbits_pgn::{par_games, Limits, Parallel, PgnReader, SyntaxCheck};

/// The system's allocator, counting the bytes allocated now and at the most.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call goes to `System` with the caller's arguments; the counts are only
// counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` was allocated by `System` with `layout`; the caller's new size.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            LIVE.fetch_sub(layout.size(), Relaxed);
            grew(new_size);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A game of `pattern` repeated for `len` bytes between two short games, made as it is read.
struct LongGame {
    head: &'static [u8],
    pattern: &'static [u8],
    /// The bytes of the long game made so far, and those left to make.
    at: usize,
    left: usize,
    tail: &'static [u8],
}

impl LongGame {
    fn new(pattern: &'static [u8], len: usize) -> LongGame {
        LongGame {
            head: b"[Event \"before\"]\n\n1. e4 e5 *\n\n[Event \"long\"]\n\n",
            pattern,
            at: 0,
            left: len,
            tail: b"*\n\n[Event \"after\"]\n\n1. d4 d5 *\n",
        }
    }
}

impl Read for LongGame {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.head.is_empty() {
            let n = self.head.len().min(buf.len());
            buf[..n].copy_from_slice(&self.head[..n]);
            self.head = &self.head[n..];
            return Ok(n);
        }
        if self.left > 0 {
            let n = buf.len().min(self.left);
            for (i, b) in buf[..n].iter_mut().enumerate() {
                *b = self.pattern[(self.at + i) % self.pattern.len()];
            }
            self.at += n;
            self.left -= n;
            return Ok(n);
        }
        let n = self.tail.len().min(buf.len());
        buf[..n].copy_from_slice(&self.tail[..n]);
        self.tail = &self.tail[n..];
        Ok(n)
    }
}

/// The games' numbers and results, as text.
fn read(threads: usize, limits: Limits, input: LongGame) -> (Vec<String>, usize) {
    let mut games = Vec::new();
    let options = Parallel::new(threads).with_chunk_size(64 << 10).with_limits(limits);
    PEAK.store(LIVE.load(Relaxed), Relaxed);
    let before = LIVE.load(Relaxed);
    par_games(
        input,
        &options,
        || SyntaxCheck,
        |n, game| format!("{n}: {:?}", game.map(|_| ()).map_err(|e| e.to_string())),
        |line| {
            games.push(line);
            Ok::<_, ()>(())
        },
    )
    .unwrap();
    (games, PEAK.load(Relaxed) - before)
}

/// Moves on one line without end, and a blob without white space (one token, too long,
/// which the cutter cuts anywhere).
#[test]
fn a_game_longer_than_a_game_may_be_is_read_in_bounded_memory() {
    for pattern in [&b"1. e4 "[..], b"x"] {
        check(pattern);
    }
}

fn check(pattern: &'static [u8]) {
    let limits = Limits::DEFAULT.with_game_len(1 << 20);
    let len = 160 << 20;
    let mut serial = Vec::new();
    let mut reader = PgnReader::with_limits(LongGame::new(pattern, len), limits);
    while let Some(game) = reader.read_game(&mut SyntaxCheck) {
        serial.push(format!(
            "{}: {:?}",
            reader.games(),
            game.map(|_| ()).map_err(|e| e.to_string())
        ));
    }
    assert_eq!(serial.len(), 3, "{serial:?}");
    assert!(serial[1].starts_with("2: Err(\"game 2, line 7"), "{serial:?}");
    for threads in [1, 2, 3] {
        let (games, peak) = read(threads, limits, LongGame::new(pattern, len));
        assert_eq!(games, serial, "{threads} threads");
        // The blocks read ahead (5 MiB), the chunks in flight (each cut 2 MiB past its size
        // in a line without end) and the piece kept (the game cut short, up to the limit):
        // about 44 MiB at two threads, where holding the game took twice its 160 MiB.
        assert!(peak < 64 << 20, "{threads} threads: {} MiB at the peak", peak >> 20);
    }
}

/// `* ` repeated: 4 million empty games in 8 MiB, each game's result kept until its chunk's
/// turn (about a hundred bytes a game, the `Result` with its error type): at most
/// `max_chunk_games` a reading, not a whole piece's million.
#[test]
fn tiny_games_hold_the_results_of_a_bounded_number_of_games() {
    let stars = "* ".repeat(4 << 20);
    let mut serial = 0u64;
    let mut reader = PgnReader::new(stars.as_bytes());
    while let Some(game) = reader.read_game(&mut SyntaxCheck) {
        assert!(game.is_ok());
        serial += 1;
    }
    assert_eq!(serial, 4 << 20);
    for threads in [2, 3] {
        let options = Parallel::new(threads);
        assert_eq!(options.max_chunk_games(), 16_384);
        let mut games = 0u64;
        PEAK.store(LIVE.load(Relaxed), Relaxed);
        let before = LIVE.load(Relaxed);
        par_games(
            stars.as_bytes(),
            &options,
            || SyntaxCheck,
            |n, game| (n, game.is_ok()),
            |(n, ok)| {
                games += 1;
                assert!(ok && n == games, "game {n} after {games}");
                Ok::<_, ()>(())
            },
        )
        .unwrap();
        let peak = PEAK.load(Relaxed) - before;
        assert_eq!(games, serial);
        // Each reading's results (16,384 games) and pieces of about 3 MiB in flight: about
        // 40 MiB, where a piece's million results came to a gigabyte.
        assert!(peak < 96 << 20, "{threads} threads: {} MiB at the peak", peak >> 20);
    }
}
