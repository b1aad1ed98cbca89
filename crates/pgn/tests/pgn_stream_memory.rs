//! A garbage stream of 200 MB, generated on the fly through a `Read` (no file), is read game by
//! game in constant memory: the process's peak resident set (`VmHWM` in `/proc/self/status`)
//! after the first fifth of the stream, which already holds every kind of hostile game, does
//! not grow over the other four fifths. Its own test binary, so no other test shares the
//! process. Skips (with a message) where `/proc` is absent.

use std::io::Read;

use chessbits_notation::san::SanPlus;
use chessbits_pgn::{PgnErrorKind, PgnReader, Skip, Visitor};

/// Reads every token of every game, variations included, and keeps only a count: what is
/// measured is the reader's memory.
struct Moves(u64);

impl Visitor for Moves {
    type Output = u64;
    type Error = core::convert::Infallible;

    fn san(&mut self, _: SanPlus) -> Result<(), Self::Error> {
        self.0 += 1;
        Ok(())
    }

    fn begin_variation(&mut self) -> Skip {
        Skip(false)
    }

    fn end_game(&mut self) -> u64 {
        core::mem::take(&mut self.0)
    }
}

/// Bytes generated in all.
const TOTAL: u64 = 200 << 20;

/// The kinds of hostile input, each produced as one segment.
#[derive(Copy, Clone, Debug)]
enum Kind {
    /// Random bytes.
    Garbage,
    /// A short legal game.
    Game,
    /// A legal game that never ends: knights shuffling, 24 MB of it (cut by the next segment).
    Endless,
    /// Variations opened and never closed, 100 KB of them.
    Deep,
    /// A 3 MB comment.
    LongComment,
    /// A 200 KB tag.
    HugeTag,
    /// 5,000 tags.
    ManyTags,
}

const KINDS: [Kind; 7] = [
    Kind::Garbage,
    Kind::Game,
    Kind::Deep,
    Kind::LongComment,
    Kind::HugeTag,
    Kind::ManyTags,
    Kind::Endless,
];

/// One segment: a head, a body of `body_len` bytes (the pattern repeated, or random bytes for
/// an empty pattern) made on the fly, and a tail.
struct Segment {
    head: Vec<u8>,
    pattern: &'static [u8],
    body_len: usize,
    tail: &'static [u8],
}

/// A reader producing `TOTAL` bytes of segments, every kind once and then kinds at random,
/// without holding any segment's body.
struct Hostile {
    rng: u64,
    produced: u64,
    segment: Segment,
    /// The offset in the current segment.
    at: usize,
    next_kind: usize,
}

impl Hostile {
    fn new() -> Hostile {
        let segment = Segment { head: Vec::new(), pattern: b"", body_len: 0, tail: b"" };
        Hostile { rng: 0x9e37_79b9_7f4a_7c15, produced: 0, segment, at: 0, next_kind: 0 }
    }

    fn random(&mut self) -> u64 {
        // xorshift64*
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn refill(&mut self) {
        let kind = if self.next_kind < KINDS.len() {
            self.next_kind += 1;
            KINDS[self.next_kind - 1]
        } else {
            KINDS[(self.random() % KINDS.len() as u64) as usize]
        };
        let garbage = 1 + (self.random() % 65_536) as usize;
        let (head, pattern, body_len, tail): (Vec<u8>, &'static [u8], usize, &'static [u8]) =
            match kind {
                Kind::Garbage => (Vec::new(), b"", garbage, b""),
                Kind::Game => {
                    (b"\n[Event \"ok\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n".to_vec(), b"", 0, b"")
                }
                Kind::Endless => {
                    (b"\n[Event \"endless\"]\n\n".to_vec(), b"Nf3 Nf6 Ng1 Ng8 ", 24 << 20, b"")
                }
                Kind::Deep => (b"\n[Event \"deep\"]\n\n1. e4 ".to_vec(), b"( e4 ", 100_000, b""),
                Kind::LongComment => {
                    (b"\n[Event \"comment\"]\n\n1. e4 {".to_vec(), b"x", 3 << 20, b"} *\n")
                }
                Kind::HugeTag => (b"\n[Annotator \"".to_vec(), b"v", 200_000, b"\"]\n1. d4 *\n"),
                Kind::ManyTags => (
                    (0..5000).flat_map(|i| format!("[T{i} \"v\"]\n").into_bytes()).collect(),
                    b"",
                    0,
                    b"\n1. c4 *\n",
                ),
            };
        self.segment = Segment { head, pattern, body_len, tail };
        self.at = 0;
    }

    /// The byte at offset `at` of the current segment, if it has one.
    fn byte(&mut self, at: usize) -> Option<u8> {
        let Segment { head, pattern, body_len, tail } = &self.segment;
        let (head_len, body_len) = (head.len(), *body_len);
        if at < head_len {
            return head.get(at).copied();
        }
        if at < head_len + body_len {
            let i = at - head_len;
            return Some(if pattern.is_empty() {
                (self.random() >> 32) as u8
            } else {
                pattern[i % pattern.len()]
            });
        }
        tail.get(at - head_len - body_len).copied()
    }
}

impl Read for Hostile {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut n = 0;
        while n < buf.len() && self.produced < TOTAL {
            match self.byte(self.at) {
                Some(b) => {
                    buf[n] = b;
                    n += 1;
                    self.at += 1;
                    self.produced += 1;
                }
                None => self.refill(),
            }
        }
        Ok(n)
    }
}

/// The peak resident set in KiB, if `/proc` says.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_hostile_stream_is_read_in_constant_memory() {
    let Some(start) = peak_rss_kib() else {
        eprintln!("skipped: no /proc/self/status to read the peak memory from");
        return;
    };
    let mut reader = PgnReader::new(Hostile::new());
    let (mut games, mut ok, mut errors) = (0u64, 0u64, std::collections::BTreeMap::new());
    let mut at_fifth = None;
    while let Some(game) = reader.read_game(&mut Moves(0)) {
        games += 1;
        match game {
            Ok(_) => ok += 1,
            Err(e) => {
                let name = match e.kind {
                    PgnErrorKind::InvalidSan { .. } => "san".to_owned(),
                    PgnErrorKind::InvalidNag(_) => "nag".to_owned(),
                    PgnErrorKind::UnexpectedByte(_) => "byte".to_owned(),
                    PgnErrorKind::Tag(_) => "tag".to_owned(),
                    other => format!("{other:?}").split([' ', '(']).next().unwrap_or("").to_owned(),
                };
                *errors.entry(name).or_insert(0u64) += 1;
            }
        }
        if at_fifth.is_none() && reader.game_start() > TOTAL / 5 {
            at_fifth = peak_rss_kib();
        }
    }
    let end = peak_rss_kib().unwrap_or(0);
    let fifth = at_fifth.expect("the stream goes past its first fifth");
    eprintln!("{games} games, {ok} read, errors {errors:?}; peak RSS {start} KiB at the start, {fifth} KiB after 40 MB, {end} KiB after 200 MB");
    // Every hostile kind was met and refused.
    for kind in ["TooManyMoves", "TooDeep", "CommentTooLong", "TagTooLong", "TooManyTags"] {
        assert!(errors.contains_key(kind), "no {kind} error: {errors:?}");
    }
    assert!(ok > 3);
    // Flat: the last four fifths of the stream add less than 1 MiB to the peak.
    assert!(end - fifth < 1024, "peak RSS grew from {fifth} KiB to {end} KiB");
    // And the reader's own memory is small next to the input.
    assert!(end - start < 32 * 1024, "peak RSS grew from {start} KiB to {end} KiB");
}
