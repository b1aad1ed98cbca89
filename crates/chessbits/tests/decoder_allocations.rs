//! No decoder allocates more than a bounded multiple of its input: a counting global allocator
//! measures the peak of live heap bytes while each decoder reads each fuzz corpus file and a
//! set of hostile inputs (corrupt lengths and counts), and the peak must stay under
//! `RATIO * input + OVERHEAD`. Its own test binary, one test, so nothing else allocates meanwhile.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Cursor;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use chessbits_cbg::{CbgFile, CbgReader};
use chessbits_codec::bits::BitReader;
use chessbits_codec::classic::game::GameFormat;
use chessbits_codec::classic::moves::MoveFormat;
use chessbits_codec::{compact, packed};
use chessbits_notation::epd::Epd;
use chessbits_notation::fen::Fen;
use chessbits_notation::uci::UciPosition;
use chessbits_pgn::{PgnReader, SliceReader, SyntaxCheck};

/// Bytes of heap a decoder may hold per byte of input: a game decoder keeps about 50 bytes a
/// move (the move, its undo record, its repetition key), and a move can take 7 bits.
const RATIO: usize = 64;
/// Fixed allowance: the PGN reader's buffer (64 KiB) and move cache (128 KiB), a cbg chunk.
const OVERHEAD: usize = 512 << 10;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// Safety: every call goes straight to the system allocator; the counters only observe.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // Safety: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // Safety: the caller's contract is passed on unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The peak of heap bytes `f` adds while it runs.
fn peak_of(f: impl FnOnce()) -> usize {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    f();
    PEAK.load(Ordering::Relaxed).saturating_sub(base)
}

/// A decoder run over an input, its result dropped.
type Decode = fn(&[u8]);

/// Every decoder, by name.
fn decoders() -> Vec<(&'static str, Decode)> {
    vec![
        ("fen", |d| {
            let _ = Fen::from_ascii(d).map(|f| f.into_position());
        }),
        ("epd", |d| {
            let _ = Epd::from_ascii(d);
        }),
        ("uci", |d| {
            let _ = UciPosition::from_ascii(d).map(|c| c.to_game());
        }),
        ("pgn slice", |d| {
            let mut r = SliceReader::new(d);
            while r.read_game(&mut SyntaxCheck).is_some() {}
        }),
        ("pgn stream", |d| {
            let mut r = PgnReader::new(d);
            while r.read_game(&mut SyntaxCheck).is_some() {}
        }),
        ("packed", |d| {
            let _ = packed::decode(d);
        }),
        ("compact", |d| {
            let _ = compact::decode(d);
        }),
        ("encodings", |d| {
            for name in
                ["nibbles", "rle:auto", "pieces", "grouped", "state-full", "grouped+state14"]
            {
                let e: chessbits_codec::classic::encoding::Encoding = name.parse().unwrap();
                let _ = e.decode(&mut BitReader::new(d));
            }
        }),
        ("game", |d| {
            for code in [MoveFormat::FromTo, MoveFormat::SanLike, MoveFormat::SanLike713] {
                let _ = GameFormat::new(code).decode(d);
            }
        }),
        ("cbg stream", |d| {
            if let Ok(r) = CbgReader::new(Cursor::new(d)) {
                for game in r.take(100) {
                    let _ = game;
                }
            }
        }),
        ("cbg file", |d| {
            if let Ok(mut f) = CbgFile::open(Cursor::new(d)) {
                for n in 0..f.len().min(100) {
                    let _ = f.game(n);
                }
            }
        }),
    ]
}

/// Hostile inputs: `.cbg` headers with corrupt record lengths and counts, and long runs.
fn hostile() -> Vec<Vec<u8>> {
    let header = b"\x89CBG\r\n\x1a\n\x01\x00\x00\x00".to_vec();
    vec![
        // A game record claiming 16 MiB, then nothing.
        [header.clone(), b"G\x80\x80\x80\x08".to_vec()].concat(),
        // A game record claiming a huge tag count and ply count in a few bytes.
        [header.clone(), b"G\x08\x00\xff\xff\x03\x00\xff\xff\x3f\x00\x00\x00".to_vec()].concat(),
        // A trailer pointing anywhere, claiming 2^56 games.
        [header, vec![0; 4], b"T".to_vec(), vec![0xff; 20]].concat(),
        b"{".repeat(10_000),
        b"[A \"".repeat(10_000),
        vec![0xff; 10_000],
    ]
}

#[test]
fn decoders_allocate_a_bounded_multiple_of_their_input() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut inputs = hostile();
    for dir in ["corpus", "regressions"] {
        for target in std::fs::read_dir(root.join(dir)).into_iter().flatten().flatten() {
            for file in std::fs::read_dir(target.path()).into_iter().flatten().flatten() {
                inputs.push(std::fs::read(file.path()).expect("a readable corpus file"));
            }
        }
    }
    // The committed fuzz corpus is in the workspace, not in this crate's package.
    assert!(inputs.len() > 20 || !root.is_dir(), "{} inputs", inputs.len());
    let decoders = decoders();
    // Warm up what is built once (attack tables, the compact model).
    for (_, decode) in &decoders {
        decode(b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    }
    let mut worst = (0.0f64, "", 0usize, 0usize);
    for input in &inputs {
        for (name, decode) in &decoders {
            let peak = peak_of(|| decode(input));
            let bound = RATIO * input.len() + OVERHEAD;
            assert!(peak <= bound, "{name}: {peak} bytes for an input of {} bytes", input.len());
            let ratio = peak as f64 / (input.len() as f64 + 1.0);
            if ratio > worst.0 && input.len() > 1000 {
                worst = (ratio, name, peak, input.len());
            }
        }
    }
    eprintln!("largest ratio over inputs above 1 KB: {worst:?}");
}
