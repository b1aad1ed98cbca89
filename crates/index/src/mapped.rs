//! Where an open index's bytes live: memory-mapped from its file, or in a buffer.

use std::fs::File;
use std::io;
use std::ops::Deref;
use std::path::Path;

use crate::format::HEADER_LEN;

/// An index file's bytes.
pub(crate) enum Storage {
    /// Mapped from the file: a query reads from disk only the pages it touches.
    Mapped(memmap2::Mmap),
    /// Read into memory (or built there).
    Owned(Vec<u8>),
}

impl Storage {
    /// The file at `path`, memory-mapped; a file too short to be an index is read instead, so
    /// that it is reported as any damaged file is (a mapping of nothing fails on some
    /// systems).
    pub(crate) fn open(path: &Path) -> io::Result<Storage> {
        let file = File::open(path)?;
        if file.metadata()?.len() < HEADER_LEN as u64 {
            return std::fs::read(path).map(Storage::Owned);
        }
        map(&file).map(Storage::Mapped)
    }
}

/// Maps `file` read-only.
#[allow(unsafe_code, reason = "the one memory map of the crate")]
fn map(file: &File) -> io::Result<memmap2::Mmap> {
    // SAFETY: the mapping is read-only and lives in `Storage` with the `Index` that reads it.
    // What `memmap2` cannot rule out is another process changing or truncating the file while
    // it is mapped, which `Index::open` documents as the caller's to avoid; `chessbits index
    // build` never does it to a live file: it writes a new file under a temporary name and
    // renames it over the old one, whose mapping keeps the old contents.
    let map = unsafe { memmap2::Mmap::map(file)? };
    // No read-ahead around each page a query touches (this machine's disk reads 8 MiB ahead
    // by default): the regions a query reads are asked for whole instead (`will_need`).
    #[cfg(unix)]
    map.advise(memmap2::Advice::Random)?;
    Ok(map)
}

/// Maps a temporary file of the build's own (its game table, written and flushed), to read
/// the facts of the popular positions' games from it without holding it in memory.
#[allow(unsafe_code, reason = "the build's map of its own temporary file")]
pub(crate) fn map_own_file(path: &Path) -> io::Result<memmap2::Mmap> {
    let file = File::open(path)?;
    // SAFETY: the file is the builder's own, under a name no other build uses (process id,
    // time and a count), written and flushed before it is mapped and not written again; it
    // is removed only after the map is dropped.
    unsafe { memmap2::Mmap::map(&file) }
}

impl Storage {
    /// Tells the system that bytes `at..at + len` are about to be read (the whole region a
    /// checksum covers): one read of them instead of a fault per page.
    pub(crate) fn will_need(&self, at: usize, len: usize) {
        #[cfg(unix)]
        if let Storage::Mapped(map) = self {
            let _ = map.advise_range(memmap2::Advice::WillNeed, at, len);
        }
        let _ = (at, len);
    }
}

impl Deref for Storage {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Storage::Mapped(map) => map,
            Storage::Owned(bytes) => bytes,
        }
    }
}
