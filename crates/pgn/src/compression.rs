//! Game files as they are published: plain, or compressed with zstd (lichess), gzip
//! (chess.com, TWIC) or bzip2 (older lichess months), recognised by their first bytes.
//!
//! [`Input`] opens a file or wraps any reader and decompresses it if its first bytes are a
//! zstd frame (`28 b5 2f fd`, or a skippable frame `5? 2a 4d 18`), a gzip member (`1f 8b`)
//! or a bzip2 stream (`BZh1`..`BZh9`); concatenated frames, members and streams are read one
//! after another, as `zstd`, `gzip` and `bzip2` write them when files are joined or written
//! in parallel. Anything else is read as it is, but for zip and xz archives, which are
//! refused with a message saying so. [`Output`] compresses by a file's extension.
//!
//! A compressed stream that is truncated or corrupt is a read error
//! ([`CompressedStreamError`], inside the [`io::Error`]) saying which compression, at which
//! byte of the compressed input it stopped and how many bytes it had given; every byte
//! before it has been given, so the games before it read (the reader reports the game it cut
//! short as [`PgnErrorKind::Io`](crate::PgnErrorKind::Io)).
//!
//! ```
//! use std::io::{Read, Write};
//! use chessbits_pgn::{Compression, Input, PgnReader, Replay};
//!
//! // What `zstd games.pgn` or `gzip games.pgn` would write.
//! let pgn = b"[Event \"a\"]\n\n1. e4 e5 1-0\n";
//! let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
//! gz.write_all(pgn)?;
//! let gz = gz.finish()?;
//!
//! let input = Input::new(std::io::Cursor::new(gz))?;
//! assert_eq!(input.compression(), Compression::Gzip);
//! let mut reader = PgnReader::new(input);
//! let game = reader.read_game(&mut Replay::default()).unwrap().map_err(|e| e.to_string())?;
//! assert_eq!(game.game.moves().len(), 2);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// How a game file's bytes are compressed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Compression {
    /// Not compressed.
    None,
    /// Zstandard (`.zst`): lichess's database.
    Zstd,
    /// gzip (`.gz`).
    Gzip,
    /// bzip2 (`.bz2`).
    Bzip2,
}

impl Compression {
    /// The compression that `head`, the first bytes of a file (4 are enough), says.
    ///
    /// # Errors
    /// A zip or xz archive, which this crate does not read: the message says so.
    pub fn detect(head: &[u8]) -> io::Result<Compression> {
        Ok(match head {
            [0x28, 0xb5, 0x2f, 0xfd, ..] => Compression::Zstd,
            [m, 0x2a, 0x4d, 0x18, ..] if m & 0xf0 == 0x50 => Compression::Zstd,
            [0x1f, 0x8b, ..] => Compression::Gzip,
            [b'B', b'Z', b'h', b'1'..=b'9', ..] => Compression::Bzip2,
            [b'P', b'K', 3, 4, ..] => return Err(unsupported("a zip archive: unzip it first")),
            [0xfd, b'7', b'z', b'X', b'Z', 0, ..] => {
                return Err(unsupported("an xz stream: decompress it with `xz -dc` first"))
            }
            _ => Compression::None,
        })
    }

    /// The compression a file name's extension asks for: `.zst`, `.gz`, `.bz2`, else none.
    pub fn from_extension(path: &Path) -> Compression {
        match path.extension().and_then(|e| e.to_str()) {
            Some("zst" | "zstd") => Compression::Zstd,
            Some("gz") => Compression::Gzip,
            Some("bz2") => Compression::Bzip2,
            _ => Compression::None,
        }
    }

    /// The compression's name: `none`, `zstd`, `gzip`, `bzip2`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
        }
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

fn unsupported(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("the input is {what}"))
}

/// A compressed stream that could not be read on: truncated, corrupt, or followed by bytes
/// that are not another frame. Carried inside the [`io::Error`] an [`Input`] returns
/// ([`io::Error::get_ref`] and `downcast_ref` give it back).
#[derive(Debug)]
pub struct CompressedStreamError {
    /// The stream's compression.
    pub compression: Compression,
    /// How many bytes of the compressed input had been read when it stopped.
    pub offset: u64,
    /// How many bytes it had given, decompressed.
    pub decompressed: u64,
    /// What the decompressor said.
    pub source: io::Error,
}

impl fmt::Display for CompressedStreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} stream broken at byte {} of the compressed input (after {} bytes of PGN): {}",
            self.compression, self.offset, self.decompressed, self.source
        )
    }
}

impl std::error::Error for CompressedStreamError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// A [`Read`] that counts the bytes read through it in a shared counter.
struct Counted<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// How far an [`Input`] has read its underlying file or reader, from any thread: for
/// progress bars and time estimates over the file's size on disk.
#[derive(Clone, Debug, Default)]
pub struct ReadCount(Arc<AtomicU64>);

impl ReadCount {
    /// Bytes read from the underlying file or reader (compressed bytes, if it is compressed).
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// A game file's bytes, decompressed if they are compressed: zstd, gzip or bzip2, recognised
/// by their first bytes ([`Compression::detect`]), concatenated streams read as one, and a
/// broken stream reported as a [`CompressedStreamError`] inside the read error.
pub struct Input {
    inner: Box<dyn Read + Send>,
    compression: Compression,
    raw: ReadCount,
    decompressed: u64,
    /// A compressed input's decompressed bytes not yet read, from `at`, when its reader
    /// asked for fewer than [`Input::DECODED`] bytes (empty for plain input).
    decoded: Box<[u8]>,
    at: usize,
    end: usize,
}

impl Input {
    /// Opens a file and recognises its compression.
    ///
    /// # Errors
    /// The file cannot be opened or read, or is a zip or xz archive.
    pub fn open(path: &Path) -> io::Result<Input> {
        Input::new(File::open(path)?)
    }

    /// Wraps a reader (standard input, a socket, bytes in memory) and recognises its
    /// compression from its first bytes.
    ///
    /// # Errors
    /// The first bytes cannot be read, or say a zip or xz archive.
    pub fn new<R: Read + Send + 'static>(reader: R) -> io::Result<Input> {
        let raw = ReadCount::default();
        let mut counted = Counted { inner: reader, count: Arc::clone(&raw.0) };
        let mut head = Vec::with_capacity(6);
        counted.by_ref().take(6).read_to_end(&mut head)?;
        let compression = Compression::detect(&head)?;
        let bytes = io::Cursor::new(head).chain(counted);
        let inner: Box<dyn Read + Send> = match compression {
            Compression::None => Box::new(bytes),
            Compression::Zstd => Box::new(zstd::stream::read::Decoder::new(bytes)?),
            Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(
                BufReader::with_capacity(1 << 16, bytes),
            )),
            Compression::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(bytes)),
        };
        let decoded = match compression {
            Compression::None => Box::default(),
            _ => vec![0; Input::DECODED].into_boxed_slice(),
        };
        Ok(Input { inner, compression, raw, decompressed: 0, decoded, at: 0, end: 0 })
    }

    /// How many bytes a decompressor is asked for at a time, whatever the reader asks for:
    /// where a broken stream stops (how much of a damaged block a decompressor hands out
    /// before it fails) depends on the sizes it is asked for, and a file must read the same
    /// on one thread (small reads) as on several (a megabyte at a time).
    pub const DECODED: usize = 1 << 18;

    /// The input's compression.
    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// A counter of the bytes read from the underlying file or reader so far.
    pub fn read_count(&self) -> ReadCount {
        self.raw.clone()
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.decoded.is_empty() {
            return self.read_inner(buf);
        }
        if self.at == self.end {
            // Always `DECODED` bytes: the decompressor sees the same requests for every
            // reader. Into the reader's buffer when it has room (no copy), else into ours.
            if buf.len() >= Input::DECODED {
                return self.read_inner(&mut buf[..Input::DECODED]);
            }
            let mut decoded = core::mem::take(&mut self.decoded);
            let read = self.read_inner(&mut decoded);
            self.decoded = decoded;
            (self.at, self.end) = (0, read?);
        }
        let n = buf.len().min(self.end - self.at);
        buf[..n].copy_from_slice(&self.decoded[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

impl Input {
    /// One read of the (decompressing) reader, counted, a broken stream's error said so.
    fn read_inner(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(n) => {
                self.decompressed += n as u64;
                Ok(n)
            }
            Err(e)
                if self.compression == Compression::None
                    || e.kind() == io::ErrorKind::Interrupted =>
            {
                Err(e)
            }
            Err(source) => Err(io::Error::new(
                source.kind(),
                CompressedStreamError {
                    compression: self.compression,
                    offset: self.raw.get(),
                    decompressed: self.decompressed,
                    source,
                },
            )),
        }
    }
}

impl fmt::Debug for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Input")
            .field("compression", &self.compression)
            .field("read", &self.raw.get())
            .field("decompressed", &self.decompressed)
            .finish_non_exhaustive()
    }
}

/// A file written through a compressor chosen by its extension ([`Compression::from_extension`]):
/// `games.pgn.zst` (zstd level 3), `games.pgn.gz` (gzip level 6), `games.pgn.bz2` (bzip2 level
/// 9), anything else plain. Buffered; [`finish`](Output::finish) ends the stream and flushes.
pub struct Output {
    inner: Sink,
}

enum Sink {
    Plain(BufWriter<File>),
    Zstd(zstd::stream::write::Encoder<'static, BufWriter<File>>),
    Gzip(flate2::write::GzEncoder<BufWriter<File>>),
    Bzip2(bzip2::write::BzEncoder<BufWriter<File>>),
}

impl Output {
    /// Creates `path` (truncating it) with the compression its extension asks for.
    ///
    /// # Errors
    /// The file cannot be created.
    pub fn create(path: &Path) -> io::Result<Output> {
        let file = BufWriter::with_capacity(1 << 16, File::create(path)?);
        let inner = match Compression::from_extension(path) {
            Compression::Zstd => Sink::Zstd(zstd::stream::write::Encoder::new(file, 3)?),
            Compression::Gzip => {
                Sink::Gzip(flate2::write::GzEncoder::new(file, flate2::Compression::default()))
            }
            Compression::Bzip2 => {
                Sink::Bzip2(bzip2::write::BzEncoder::new(file, bzip2::Compression::best()))
            }
            Compression::None => Sink::Plain(file),
        };
        Ok(Output { inner })
    }

    /// Ends the compressed stream and flushes the file.
    ///
    /// # Errors
    /// Writing fails.
    pub fn finish(self) -> io::Result<()> {
        let mut file = match self.inner {
            Sink::Plain(file) => file,
            Sink::Zstd(z) => z.finish()?,
            Sink::Gzip(g) => g.finish()?,
            Sink::Bzip2(b) => b.finish()?,
        };
        file.flush()
    }

    fn writer(&mut self) -> &mut dyn Write {
        match &mut self.inner {
            Sink::Plain(w) => w,
            Sink::Zstd(w) => w,
            Sink::Gzip(w) => w,
            Sink::Bzip2(w) => w,
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer().write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer().write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer().flush()
    }
}

impl fmt::Debug for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let compression = match self.inner {
            Sink::Plain(_) => Compression::None,
            Sink::Zstd(_) => Compression::Zstd,
            Sink::Gzip(_) => Compression::Gzip,
            Sink::Bzip2(_) => Compression::Bzip2,
        };
        f.debug_struct("Output").field("compression", &compression).finish_non_exhaustive()
    }
}
