//! lichess's Parquet files (one row a game: the tags as columns, the moves in a `movetext`
//! column) read row by row, as `export` and Python's `read_games` read them, by `pgn`,
//! `pack`, `index build` and `serve`: each batch of rows is read on the pool's workers
//! ([`RowGames`](chessbits_arrow::lichess::RowGames), any visitor) and handed on here in file
//! order. A row is one game, so a row's broken movetext is that row's error alone, at a byte
//! of its movetext (`game 7, movetext byte 36: ...`).

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;

use chessbits_arrow::lichess::{ParquetRows, RowBatch, PARQUET_MAGIC};
use chessbits_pgn::{par_map_pooled, MovetextReader};

use crate::progress::Done;

/// Whether `path` is a lichess Parquet file (it starts with `PAR1`): standard input never is.
pub(crate) fn is_parquet(path: &Path) -> bool {
    let mut head = [0; 4];
    path.as_os_str() != "-"
        && File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok()
        && &head == PARQUET_MAGIC
}

/// Reads the lichess Parquet file at `path` a batch of rows at a time on `threads` threads:
/// `work` on the pool's workers (with the worker's [`MovetextReader`]), `sink` on this thread
/// in file order, with what `work` made of a batch, the rows of the file before it, and where
/// the reading stands (in rows). Returns the error that stopped the file's reading, if one
/// did (it cannot be opened, or a page does not decode): the caller says it after the rows
/// before it.
///
/// # Errors
/// The first error `sink` returns.
pub(crate) fn par_rows<U, W>(
    path: &Path,
    threads: usize,
    work: W,
    mut sink: impl FnMut(u64, U, Done) -> io::Result<()>,
) -> io::Result<Option<io::Error>>
where
    U: Send + 'static,
    W: Fn(&RowBatch, &mut MovetextReader) -> U + Send + Sync + 'static,
{
    let rows = match ParquetRows::open_split(|| File::open(path), threads) {
        Ok(rows) => rows,
        Err(e) => return Ok(Some(e)),
    };
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let total = rows.rows();
    let mut stopped = None;
    par_map_pooled(
        threads,
        move || rows,
        move |reader, batch: io::Result<RowBatch>| {
            batch.map(|batch| (batch.before(), batch.len() as u64, work(&batch, reader)))
        },
        |made| match made {
            Ok((before, len, made)) => {
                sink(before, made, Done { stored: size, read: total, done: before + len })
            }
            // The file's decoding stopped: the rows before it are kept, and no batch follows.
            Err(e) => {
                stopped = Some(e);
                Ok(())
            }
        },
    )?;
    Ok(stopped)
}

/// Says on `err` why a Parquet file's reading stopped, if it did ([`par_rows`]): returns
/// whether it did.
pub(crate) fn stopped(
    path: &Path,
    stopped: Option<io::Error>,
    err: &mut impl Write,
) -> io::Result<bool> {
    match stopped {
        Some(e) => writeln!(err, "chessbits: {}: {e}", path.display()).map(|()| true),
        None => Ok(false),
    }
}
