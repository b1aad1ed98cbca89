//! Where games come from: a path (a game file, compressed or not, or a lichess Parquet
//! file), bytes in memory, or a Python file object read a block at a time; and the errors
//! of opening a path, as Python's own `open()` raises them.

use std::io::{self, Cursor, Read};
use std::path::{Path, PathBuf};

use chessbits_arrow::lichess::{ParquetRows, PARQUET_MAGIC};
use chessbits_pgn::Input;
use pyo3::exceptions::{PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError};
use pyo3::prelude::*;
use pyo3::PyErrArguments;

/// Where games come from: bytes in memory, a path, or a Python file object.
#[derive(FromPyObject)]
pub(crate) enum Source {
    /// Bytes of PGN.
    Bytes(Vec<u8>),
    /// A path.
    Path(PathBuf),
    /// An object with a `read(n)` method returning bytes (or str, taken as UTF-8).
    File(PyFileReader),
}

impl Source {
    /// The source's bytes, decompressed if they are compressed. A lichess Parquet file is
    /// read by its rows ([`into_parquet`](Self::into_parquet), [`Games::open`](crate::games::Games::open)), never here.
    pub(crate) fn open(self) -> PyResult<Input> {
        let io = |e: std::io::Error| PyOSError::new_err(e.to_string());
        match self {
            Source::Bytes(bytes) => Input::new(Cursor::new(bytes)).map_err(io),
            Source::Path(path) => open_path(&path),
            Source::File(reader) => Input::new(reader).map_err(io),
        }
    }

    /// A lichess Parquet file (a path, bytes or a file object starting with `PAR1`) as its
    /// rows, batched for `threads` workers ([`ParquetRows`]); any other source back as it was
    /// (a file object with the bytes read to tell, still to be handed out).
    ///
    /// A Parquet file object is read whole into memory first: Parquet is read from its
    /// footer, at the end.
    pub(crate) fn into_parquet(self, threads: usize) -> PyResult<Result<ParquetRows, Source>> {
        let io = |e: std::io::Error| PyOSError::new_err(e.to_string());
        let source = match self {
            Source::File(mut reader) => {
                if reader.fill(PARQUET_MAGIC.len()).map_err(io)? == PARQUET_MAGIC {
                    Source::Bytes(reader.read_all().map_err(io)?)
                } else {
                    return Ok(Err(Source::File(reader)));
                }
            }
            other => other,
        };
        match source {
            // With threads, the tag columns are decoded beside the movetext.
            Source::Bytes(bytes) if bytes.starts_with(PARQUET_MAGIC) => {
                let bytes = bytes::Bytes::from(bytes);
                ParquetRows::open_split(|| Ok(bytes.clone()), threads)
                    .map(Ok)
                    .map_err(|e| PyOSError::new_err(e.to_string()))
            }
            Source::Path(path) if is_parquet(&path) => {
                ParquetRows::open_split(|| std::fs::File::open(&path), threads)
                    .map(Ok)
                    .map_err(|e| path_error(&path, &e))
            }
            other => Ok(Err(other)),
        }
    }

    /// Whether reading it needs the GIL (a Python file object): then it is read on one thread.
    pub(crate) fn is_file_object(&self) -> bool {
        matches!(self, Source::File(_))
    }

    /// Its size in bytes, where it is known before reading.
    pub(crate) fn size(&self) -> Option<u64> {
        match self {
            Source::Bytes(bytes) => Some(bytes.len() as u64),
            Source::Path(path) => std::fs::metadata(path).ok().map(|m| m.len()),
            Source::File(_) => None,
        }
    }
}

/// Reads a Python file object a block at a time, taking the GIL for each `read` call: so a
/// file object streams (a decompressing one, `gzip.open(...)`, included) in bounded memory.
pub(crate) struct PyFileReader {
    file: Py<PyAny>,
    /// Bytes of the last block not yet handed out (a text file's `read(n)` can give more than
    /// `n` bytes once encoded).
    pending: Vec<u8>,
    at: usize,
}

impl<'a, 'py> FromPyObject<'a, 'py> for PyFileReader {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<PyFileReader> {
        Ok(PyFileReader { file: obj.to_owned().unbind(), pending: Vec::new(), at: 0 })
    }
}

/// How many bytes a file object is asked for at a time.
const FILE_BLOCK: usize = 64 * 1024;

impl PyFileReader {
    /// One `read(n)` call, as bytes (a `str` taken as UTF-8); empty at the end.
    fn block(&self, n: usize) -> std::io::Result<Vec<u8>> {
        Python::attach(|py| -> PyResult<Vec<u8>> {
            let block = self.file.call_method1(py, "read", (n,))?;
            let block = block.bind(py);
            match block.extract::<String>() {
                Ok(text) => Ok(text.into_bytes()),
                Err(_) => block.extract::<Vec<u8>>(),
            }
        })
        .map_err(|e| std::io::Error::other(format!("read() of the file object: {e}")))
    }

    /// Reads until at least `n` bytes are pending or the file ends, and gives the first `n`
    /// (fewer at the end); they are still handed out by `read`.
    fn fill(&mut self, n: usize) -> std::io::Result<&[u8]> {
        while self.pending.len() - self.at < n {
            let block = self.block(FILE_BLOCK)?;
            if block.is_empty() {
                break;
            }
            self.pending.drain(..self.at);
            self.at = 0;
            self.pending.extend_from_slice(&block);
        }
        let end = self.pending.len().min(self.at + n);
        Ok(&self.pending[self.at..end])
    }

    /// Everything not yet handed out, to the end of the file.
    fn read_all(mut self) -> std::io::Result<Vec<u8>> {
        let mut all = self.pending.split_off(self.at);
        loop {
            let block = self.block(FILE_BLOCK.max(all.len()))?;
            if block.is_empty() {
                return Ok(all);
            }
            all.extend_from_slice(&block);
        }
    }
}

impl std::io::Read for PyFileReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.pending.len() {
            self.pending = self.block(buf.len())?;
            self.at = 0;
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Opens a game file, decompressed if it is compressed (zstd, gzip, bzip2: told by its first
/// bytes).
///
/// # Errors
/// `FileNotFoundError` (saying that a `str` is a path, and how to pass PGN text instead),
/// `IsADirectoryError`, or `OSError`, each naming the path as [`shown`] cuts it.
fn open_path(path: &Path) -> PyResult<Input> {
    let error = |e: std::io::Error| path_error(path, &e);
    if std::fs::metadata(path).map_err(error)?.is_dir() {
        // The system's own error for reading a directory (EISDIR where it has one).
        let read = std::fs::File::open(path).and_then(|mut f| f.read(&mut [0; 1]));
        let e = read.err().unwrap_or_else(|| io::Error::from(io::ErrorKind::IsADirectory));
        return Err(path_error(path, &e));
    }
    Input::open(path).map_err(error)
}

/// Whether `path` is a file that starts with the Parquet magic bytes.
fn is_parquet(path: &Path) -> bool {
    let mut head = [0; 4];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok()
        && &head == PARQUET_MAGIC
}

/// An error opening `path` as Python's own: the `OSError` subclass for its kind
/// (`FileNotFoundError`, `PermissionError`, `IsADirectoryError`), with `errno`, `strerror` and
/// `filename` set as `open()` sets them. A "path" that is PGN text passed as a `str` (too long,
/// or with line breaks) is shown cut short in the message, and `filename` is left `None`.
pub(crate) fn path_error(path: &Path, e: &io::Error) -> PyErr {
    open_error(
        path,
        e,
        "no such file (a str source is a path: pass PGN text as bytes, io.StringIO or io.BytesIO)",
    )
}

/// An error opening `path`, a file that only a path names (an index): as [`path_error`],
/// without its word on passing PGN text.
pub(crate) fn file_error(path: &Path, e: &io::Error) -> PyErr {
    open_error(path, e, "no such file")
}

/// [`path_error`] and [`file_error`]: `missing` says that no file has the name.
fn open_error(path: &Path, e: &io::Error, missing_words: &str) -> PyErr {
    use io::ErrorKind as K;
    // A name too long for the file system is PGN text as often as not.
    let missing = matches!(e.kind(), K::NotFound | K::InvalidFilename);
    let text = path.to_string_lossy();
    let is_text = text.chars().count() > SHOWN_CHARS || text.contains(['\n', '\r']);
    let strerror = if missing {
        missing_words.to_owned()
    } else {
        // The system's words, without Rust's " (os error N)".
        let words = e.to_string();
        words.split(" (os error").next().unwrap_or_default().to_owned()
    };
    let kind = e.kind();
    match e.raw_os_error() {
        Some(code) if !is_text => os_error(kind, (code, strerror, text.into_owned())),
        Some(code) => {
            os_error(kind, (code, format!("{strerror}: {}", shown(path)), None::<String>))
        }
        None => os_error(kind, (format!("{}: {strerror}", shown(path)),)),
    }
}

/// Python's `OSError` subclass for `kind`, made of `args` as `OSError(errno, strerror,
/// filename)` takes them.
fn os_error<A: PyErrArguments + Send + Sync + 'static>(kind: io::ErrorKind, args: A) -> PyErr {
    match kind {
        io::ErrorKind::NotFound | io::ErrorKind::InvalidFilename => {
            PyFileNotFoundError::new_err(args)
        }
        io::ErrorKind::PermissionDenied => PyPermissionError::new_err(args),
        io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(args),
        _ => PyOSError::new_err(args),
    }
}

/// The most of a path an error message shows: a `str` of PGN text passed where a path was
/// meant would otherwise fill the message.
const SHOWN_CHARS: usize = 60;

/// A path as error messages show it: quoted, and cut at [`SHOWN_CHARS`] characters or its
/// first line break, with `...` and its length after a cut.
pub(crate) fn shown(path: &Path) -> String {
    let text = path.to_string_lossy();
    let end = text.char_indices().nth(SHOWN_CHARS).map_or(text.len(), |(at, _)| at);
    let end = text[..end].find(['\n', '\r']).unwrap_or(end);
    if end == text.len() {
        return format!("{text:?}");
    }
    format!("{:?}... ({} characters)", &text[..end], text.chars().count())
}

impl Source {
    /// Whether the source is the file at `output` (by any name or hard link): a function
    /// that writes `output` would destroy it before, or while, reading it.
    pub(crate) fn is_file(&self, output: &Path) -> bool {
        let Source::Path(path) = self else { return false };
        let (Ok(a), Ok(b)) = (std::fs::metadata(path), std::fs::metadata(output)) else {
            return false;
        };
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            (a.dev(), a.ino()) == (b.dev(), b.ino())
        }
        #[cfg(not(unix))]
        {
            let _ = (a, b);
            std::fs::canonicalize(path).ok() == std::fs::canonicalize(output).ok()
        }
    }
}

/// Refuses an `output` that is one of the sources, before anything is read or written:
/// `write_cbg(path, path)` emptied the games before reading them, and `build_index` replaced
/// them with the index, as `chessbits index build` refuses it.
///
/// # Errors
/// `ValueError` naming the output.
pub(crate) fn check_output<'a>(
    mut sources: impl Iterator<Item = &'a Source>,
    output: &Path,
) -> PyResult<()> {
    if sources.any(|source| source.is_file(output)) {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "{}: the output is a source: nothing read, nothing written",
            shown(output)
        )));
    }
    Ok(())
}
