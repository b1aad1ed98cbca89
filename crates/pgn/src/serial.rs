//! The serial reading that [`par_chunks`](crate::par_chunks) falls back to past a game too
//! long to hold.
//!
//! The [`Verifier`](crate::guess::Verifier) joins a piece that a wrong guess cut inside a
//! game to the pieces after it until the game ends. A game can go on for gigabytes (a
//! decompression bomb of `1. e4 ` repeated is 85 KB of zstd a gigabyte) where the serial
//! reader streams it: past [`Limits::game_len`](crate::Limits::game_len) it is an error, and
//! its rest is skipped in constant memory. So once the piece kept holds more than that, the
//! verifier stops joining and hands the kept piece, and every piece after it, to one thread
//! that reads them as one stream ([`Feed`]) with a [`PgnReader`] resumed where the kept piece
//! starts: the serial reader's own reading of the rest of the input, in bounded memory. It
//! runs `work` on stretches of the stream ([`ChunkReader::stretch`]), each ended by the first
//! game that ends past the chunk size, and sends their results back to the verifier, which
//! hands them on in order. The workers stop reading (their results would be dropped); the
//! rest of the input is read on that one thread, at the serial reader's speed, and does not
//! come back to the workers: only an input with more than the length limit in one game (or
//! between two games, as a line of junk the serial reader skips) comes here. If no thread
//! starts, the verifier holds the game as it did before (and does not try again).

use std::any::Any;
use std::io::{self, Read};
use std::ops::Range;
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};
use std::sync::Arc;

use crate::limits::Limits;
use crate::origin::Origin;
use crate::reader::PgnReader;
use crate::san_cache::SanCache;
use crate::split::{Buffer, ChunkReader};

/// A piece's own bytes, for the stream, and the read error that ended the input after them.
pub(crate) struct Part {
    pub(crate) buffer: Arc<Buffer>,
    pub(crate) bytes: Range<usize>,
    pub(crate) error: Option<io::Error>,
}

/// The parts the verifier sends, one after the other, as one [`Read`]: the end of the input
/// once the verifier stops sending (after the last part, or when it is dropped).
pub(crate) struct Feed {
    parts: Receiver<Part>,
    part: Option<Part>,
    at: usize,
}

impl Read for Feed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if let Some(part) = &mut self.part {
                let rest = part.buffer.bytes.get(self.at..part.bytes.end).unwrap_or_default();
                if !rest.is_empty() {
                    let n = rest.len().min(buf.len());
                    buf[..n].copy_from_slice(&rest[..n]);
                    self.at += n;
                    return Ok(n);
                }
                if let Some(error) = part.error.take() {
                    return Err(error);
                }
            }
            // The part read goes back to its pool as the next one comes.
            self.part = None;
            match self.parts.recv() {
                Ok(part) => {
                    self.at = part.bytes.start;
                    self.part = Some(part);
                }
                Err(_) => return Ok(0),
            }
        }
    }
}

/// What the reading thread sends back: a stretch's result and its games, or the panic of
/// `work`, for the calling thread to raise.
enum Out<T> {
    Stretch(T, u64),
    Panic(Box<dyn Any + Send>),
}

/// The verifier's end of the serial reading: where it sends the parts, where the results
/// come back.
pub(crate) struct Serial<T> {
    parts: Option<SyncSender<Part>>,
    out: Receiver<Out<T>>,
}

/// The reading thread's end: the stream, and where the results go.
pub(crate) struct Stream<T> {
    feed: Feed,
    out: Sender<Out<T>>,
}

/// A new serial reading's two ends. One part waits at most between them: a verifier that
/// runs ahead waits, and the pipeline behind it.
pub(crate) fn serial<T>() -> (Serial<T>, Stream<T>) {
    let (parts_tx, parts_rx) = sync_channel(1);
    let (out_tx, out_rx) = channel();
    let feed = Feed { parts: parts_rx, part: None, at: 0 };
    (Serial { parts: Some(parts_tx), out: out_rx }, Stream { feed, out: out_tx })
}

impl<T> Serial<T> {
    /// Sends the next part of the input; `last` closes the stream after it.
    pub(crate) fn send(&mut self, part: Part, last: bool) {
        if let Some(parts) = &self.parts {
            // A thread that stopped (its `work` panicked) says so through `out`.
            let _ = parts.send(part);
        }
        if last {
            self.parts = None;
        }
    }

    /// The next stretch read and its games: one already read, or none; once the last part
    /// is sent, every one left, waiting for them, then none. A panic of `work` is raised
    /// here.
    pub(crate) fn next(&mut self) -> Option<(T, u64)> {
        let out = match self.parts {
            Some(_) => self.out.try_recv().ok(),
            None => self.out.recv().ok(),
        };
        match out? {
            Out::Stretch(result, games) => Some((result, games)),
            Out::Panic(payload) => panic::resume_unwind(payload),
        }
    }
}

impl<T> Stream<T> {
    /// Reads the stream, which starts at `origin` after the byte `before` (if any), and
    /// runs `work` on each stretch of about `size` bytes (at most `cap` games), sending back
    /// the results in order;
    /// ends with the input, or once no one takes the results.
    pub(crate) fn run<W>(
        self,
        (before, origin): (Option<u8>, Origin),
        (limits, size, cap): (Limits, usize, u64),
        work: &W,
        sans: &mut SanCache,
    ) where
        W: Fn(&mut ChunkReader<'_>) -> T,
    {
        let Stream { feed, out } = self;
        let mut reader = PgnReader::resume(feed, before, limits, origin, core::mem::take(sans));
        let read = panic::catch_unwind(AssertUnwindSafe(|| loop {
            let mut stretch = ChunkReader::stretch(&mut reader, size, cap);
            let result = work(&mut stretch);
            let (games, more) = stretch.finish_stretch();
            if out.send(Out::Stretch(result, games)).is_err() || !more {
                return;
            }
        }));
        if let Err(payload) = read {
            let _ = out.send(Out::Panic(payload));
        }
        *sans = reader.take_sans();
    }
}
