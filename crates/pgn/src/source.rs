//! Where a reader's bytes come from: all of them in memory ([`SliceSource`]), or a [`Read`]
//! through a buffer that the scanner refills ([`IoSource`]).

use std::io::{self, Read};

/// How much the streaming reader asks its reader for at a time.
pub(crate) const READ_CHUNK: usize = 64 * 1024;

/// Where the bytes come from: all of them in memory, or a [`Read`] through a buffer.
pub(crate) trait Source {
    /// Whether more bytes can arrive than the buffer holds now.
    const STREAMING: bool;
    /// The buffered bytes.
    fn buf(&self) -> &[u8];
    /// The offset in the input of `buf()[0]`.
    fn base(&self) -> u64;
    /// Whether the input has no more bytes than those buffered.
    fn exhausted(&self) -> bool;
    /// Drops `buf()[..keep]` and reads until `want` bytes are buffered or the input ends. A
    /// read error ends the input, and is kept for [`Source::take_error`].
    fn refill(&mut self, keep: usize, want: usize);
    /// The read error that ended the input, if one did.
    fn take_error(&mut self) -> Option<io::Error>;
}

/// All of the input, in memory: a whole input, or a chunk of one that starts at input offset
/// `base` and may end with the read error that cut the input there.
pub(crate) struct SliceSource<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) base: u64,
    pub(crate) error: Option<io::Error>,
}

impl<'a> SliceSource<'a> {
    /// All of `bytes`, from input offset 0, with no read error.
    pub(crate) fn whole(bytes: &'a [u8]) -> SliceSource<'a> {
        SliceSource { bytes, base: 0, error: None }
    }
}

impl Source for SliceSource<'_> {
    const STREAMING: bool = false;

    #[inline]
    fn buf(&self) -> &[u8] {
        self.bytes
    }

    #[inline]
    fn base(&self) -> u64 {
        self.base
    }

    #[inline]
    fn exhausted(&self) -> bool {
        true
    }

    fn refill(&mut self, _keep: usize, _want: usize) {}

    fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }
}

/// A reader and the part of its bytes not yet consumed.
pub(crate) struct IoSource<R> {
    pub(crate) reader: R,
    buf: Vec<u8>,
    pub(crate) base: u64,
    eof: bool,
    error: Option<io::Error>,
}

impl<R> IoSource<R> {
    pub(crate) fn new(reader: R) -> IoSource<R> {
        IoSource { reader, buf: Vec::new(), base: 0, eof: false, error: None }
    }

    /// A source of `reader`, whose first byte is at input offset `offset`, after the byte
    /// `before` (none at the input's start), which the buffer starts with.
    pub(crate) fn resumed(reader: R, before: Option<u8>, offset: u64) -> IoSource<R> {
        let buf: Vec<u8> = before.into_iter().collect();
        let base = offset.saturating_sub(buf.len() as u64);
        IoSource { reader, buf, base, eof: false, error: None }
    }
}

impl<R: Read> Source for IoSource<R> {
    const STREAMING: bool = true;

    #[inline]
    fn buf(&self) -> &[u8] {
        &self.buf
    }

    #[inline]
    fn base(&self) -> u64 {
        self.base
    }

    #[inline]
    fn exhausted(&self) -> bool {
        self.eof
    }

    fn refill(&mut self, keep: usize, want: usize) {
        let keep = keep.min(self.buf.len());
        self.buf.drain(..keep);
        self.base += keep as u64;
        while self.buf.len() < want && !self.eof {
            // `read_to_end` appends without zeroing the room first.
            let chunk = READ_CHUNK.max(want - self.buf.len()) as u64;
            match self.reader.by_ref().take(chunk).read_to_end(&mut self.buf) {
                Ok(read) => self.eof = read == 0,
                Err(err) => {
                    self.error = Some(err);
                    self.eof = true;
                }
            }
        }
    }

    fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }
}
