//! What every command does with its files: inputs checked before any output is made, output
//! files written under a temporary name and renamed when complete, PGN inputs recognised (or
//! refused once, with a hint) from their first kilobytes, and one wording for a broken game and
//! for a read error.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use chessbits_cbg::FileKind;
use chessbits_pgn::{ErrorPlace, Input, ReadCount};

/// An output file being written: under a hidden temporary name in the same folder (the
/// extension kept, so compression follows it) until [`Pending::commit`] renames it. Dropped
/// without a commit, it removes the temporary file: a failed run leaves nothing that looks
/// finished.
pub struct Pending {
    temp: PathBuf,
    path: PathBuf,
    committed: bool,
}

impl Pending {
    /// A pending output for `path`.
    pub fn new(path: &Path) -> Pending {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let temp = path.with_file_name(format!(".chessbits-{}-{name}", std::process::id()));
        Pending { temp, path: path.to_owned(), committed: false }
    }

    /// Where to write.
    pub fn temp(&self) -> &Path {
        &self.temp
    }

    /// The file asked for, which messages name.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Gives the file its name.
    pub fn commit(mut self) -> io::Result<()> {
        fs::rename(&self.temp, &self.path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", self.path.display())))?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_file(&self.temp);
        }
    }
}

/// Checks that every input can be read (`-` is standard input) before any output is made:
/// reports each that cannot on `err`, then that nothing was read (the summary after it
/// counts no game of the good inputs either), and returns whether all can.
pub fn check_inputs(paths: &[PathBuf], err: &mut impl Write) -> io::Result<bool> {
    let mut ok = true;
    for path in paths.iter().filter(|p| p.as_os_str() != "-") {
        let problem = match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => Some("is a directory".to_owned()),
            Ok(_) => fs::File::open(path).err().map(|e| e.to_string()),
            Err(e) => Some(e.to_string()),
        };
        if let Some(problem) = problem {
            writeln!(err, "chessbits: {}: {problem}", path.display())?;
            ok = false;
        }
    }
    if !ok {
        writeln!(err, "chessbits: nothing read, nothing written: every input must open first")?;
    }
    Ok(ok)
}

/// Checks that `output` is none of `inputs` (the same file by another name or link
/// included) before anything is read: the output replaces its file once written, and
/// `index build games.pgn -o games.pgn` replaced the games with their index. Reports it on
/// `err` and returns whether the output is apart.
pub fn check_output(inputs: &[PathBuf], output: &Path, err: &mut impl Write) -> io::Result<bool> {
    let Some(input) = inputs.iter().find(|input| same_file(input, output)) else {
        return Ok(true);
    };
    writeln!(
        err,
        "chessbits: {}: the output is an input ({}): nothing read, nothing written",
        output.display(),
        input.display()
    )?;
    Ok(false)
}

/// Whether `a` and `b` name one existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(x), Ok(y)) = (fs::metadata(a), fs::metadata(b)) else { return false };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        x.dev() == y.dev() && x.ino() == y.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (x, y);
        matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(p), Ok(q)) if p == q)
    }
}

/// An input opened and decompressed, its first bytes looked at and put back.
pub struct Peeked {
    /// What the first bytes say.
    pub kind: FileKind,
    /// The bytes stored read so far (compressed, if the input is).
    pub read: ReadCount,
    /// The decompressed bytes read so far.
    pub decompressed: Arc<AtomicU64>,
    /// The input from its first byte.
    pub input: io::Chain<io::Cursor<Vec<u8>>, Counted>,
}

/// A decompressed input that counts the bytes read from it.
pub struct Counted {
    inner: Input,
    count: Arc<AtomicU64>,
    /// A read error met while peeking, handed to the next read.
    error: Option<io::Error>,
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Opens `path` (`-`: standard input), decompresses it, and looks at its first kilobytes. A
/// lichess Parquet file is binary bytes here: the commands that read it look for it first and
/// read it by rows (`rows.rs`).
pub fn peek(path: &Path) -> io::Result<Peeked> {
    let input = if path.as_os_str() == "-" { Input::new(io::stdin()) } else { Input::open(path) }?;
    let read = input.read_count();
    let decompressed = Arc::new(AtomicU64::new(0));
    let mut counted = Counted { inner: input, count: Arc::clone(&decompressed), error: None };
    let mut head = Vec::with_capacity(FileKind::HEAD_LEN);
    // A read error here goes to the reader after the bytes before it.
    if let Err(e) = counted.by_ref().take(FileKind::HEAD_LEN as u64).read_to_end(&mut head) {
        counted.error = Some(e);
    }
    let kind = FileKind::of(&head);
    Ok(Peeked { kind, read, decompressed, input: io::Cursor::new(head).chain(counted) })
}

/// The one wording of a broken game, on stderr, for every command: `chessbits: FILE: game N,
/// PLACE: message`, `N` the number the output gives the game and `PLACE` where it broke
/// (`line L, column C` in PGN, `movetext byte B` in a Parquet row).
pub fn game_error(
    err: &mut impl Write,
    path: &Path,
    number: u64,
    place: ErrorPlace,
    message: &dyn std::fmt::Display,
) -> io::Result<()> {
    writeln!(err, "chessbits: {}: game {number}, {place}: {message}", path.display())
}

/// A read error (a broken compressed stream, a failing disk): not a game's. Reported once,
/// with the file and the offset in its decompressed bytes where reading stopped.
pub fn read_error(err: &mut impl Write, path: &Path, offset: u64, e: &io::Error) -> io::Result<()> {
    writeln!(err, "chessbits: {}: read error after byte {offset} of PGN: {e}", path.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pending_output_is_named_only_when_committed() {
        let dir = std::env::temp_dir().join(format!("chessbits-pending-{}", std::process::id()));
        fs::create_dir_all(&dir).expect("a folder");
        let path = dir.join("out.tsv.zst");
        let pending = Pending::new(&path);
        fs::write(pending.temp(), b"x").expect("written");
        assert!(pending.temp().to_string_lossy().ends_with(".tsv.zst"));
        drop(pending);
        assert_eq!(fs::read_dir(&dir).expect("listed").count(), 0, "nothing left behind");
        let pending = Pending::new(&path);
        fs::write(pending.temp(), b"x").expect("written");
        pending.commit().expect("renamed");
        assert_eq!(fs::read(&path).expect("there"), b"x");
        fs::remove_dir_all(&dir).expect("removed");
    }
}
