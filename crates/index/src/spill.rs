//! A section of the index being built, kept in memory while it is small and moved to a
//! temporary file once it is not: so a build's memory stays within its bound whatever the
//! input's size (a month's key blocks alone are tens of gigabytes), while a small build, as
//! in tests, touches no file.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Bytes written in order: in memory up to `limit`, then in a temporary file.
pub(crate) struct Spill {
    memory: Vec<u8>,
    limit: usize,
    file: Option<(PathBuf, BufWriter<File>)>,
    dir: PathBuf,
    name: &'static str,
    len: u64,
}

impl Spill {
    /// An empty section named `name` (for its file's name), kept in memory up to `limit`
    /// bytes, its file (if it needs one) in `dir`.
    pub(crate) fn new(name: &'static str, limit: usize, dir: &Path) -> Spill {
        Spill { memory: Vec::new(), limit, file: None, dir: dir.to_path_buf(), name, len: 0 }
    }

    /// The bytes written so far.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Appends `bytes`.
    pub(crate) fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.len += bytes.len() as u64;
        if let Some((_, out)) = &mut self.file {
            return out.write_all(bytes);
        }
        if self.memory.len() + bytes.len() <= self.limit {
            self.memory.extend_from_slice(bytes);
            return Ok(());
        }
        let path = temp_path(&self.dir, self.name);
        let mut out = BufWriter::with_capacity(1 << 16, File::create(&path)?);
        let written = out.write_all(&self.memory).and_then(|()| out.write_all(bytes));
        // Set before the result is looked at, so that `Drop` removes the file either way.
        self.file = Some((path, out));
        self.memory = Vec::new();
        written
    }

    /// The section's bytes, whole, where they are still in memory.
    pub(crate) fn in_memory(&self) -> Option<&[u8]> {
        self.file.is_none().then_some(self.memory.as_slice())
    }

    /// The section's bytes, written to the end: the file, flushed, where it has one.
    pub(crate) fn finish(&mut self) -> io::Result<Option<&Path>> {
        match &mut self.file {
            Some((path, out)) => {
                out.flush()?;
                Ok(Some(path))
            }
            None => Ok(None),
        }
    }

    /// Hands the section's bytes to `each`, in order, in pieces.
    pub(crate) fn read_each(
        &mut self,
        mut each: impl FnMut(&[u8]) -> io::Result<()>,
    ) -> io::Result<()> {
        let Some(path) = self.finish()? else {
            return each(&self.memory);
        };
        let mut input = File::open(path)?;
        let mut buf = vec![0; 1 << 20];
        loop {
            let n = input.read(&mut buf)?;
            if n == 0 {
                return Ok(());
            }
            each(&buf[..n])?;
        }
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        if let Some((path, _)) = self.file.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// A file name no other build in `dir` uses: the process, the time, a count of the names
/// this process made, and what it holds.
pub(crate) fn temp_path(dir: &Path, what: &str) -> PathBuf {
    static MADE: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let made = MADE.fetch_add(1, Ordering::Relaxed);
    dir.join(format!("chessbits-index-{}-{nanos}-{made}-{what}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same bytes back, from memory or from the file, and the file gone after.
    #[test]
    fn bytes_come_back_in_order_and_the_file_goes() {
        for limit in [0, 5, 1 << 20] {
            let mut spill = Spill::new("test", limit, &std::env::temp_dir());
            let mut want = Vec::new();
            for i in 0..1000u32 {
                let piece = i.to_le_bytes();
                spill.write(&piece[..(i % 5) as usize]).unwrap();
                want.extend_from_slice(&piece[..(i % 5) as usize]);
            }
            assert_eq!(spill.len(), want.len() as u64);
            assert_eq!(spill.in_memory().is_some(), limit >= want.len());
            let path = spill.finish().unwrap().map(Path::to_path_buf);
            let mut got = Vec::new();
            spill
                .read_each(|b| {
                    got.extend_from_slice(b);
                    Ok(())
                })
                .unwrap();
            assert_eq!(got, want, "limit {limit}");
            drop(spill);
            assert!(path.is_none_or(|p| !p.exists()));
        }
    }
}
