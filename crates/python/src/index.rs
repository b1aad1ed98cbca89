//! The position index for Python: `chessbits.Index` (find and explore, as Arrow tables) and
//! `chessbits.build_index`.

use std::path::PathBuf;

use arrow_array::RecordBatch;
use arrow_ipc::writer::StreamWriter;
use chessbits_arrow::games::sniff;
use chessbits_arrow::index::{explore_batch, find_batch};
use chessbits_arrow::lichess::{ParquetRows, RowBatch};
use chessbits_cbg::FileKind;
use chessbits_index::{
    position_after, prepare_chunk, prepare_games, BuildOptions, Filter, Index, IndexBuilder,
    PreparedChunk, PreparedGame,
};
use chessbits_notation::fen::parse_position;
use chessbits_pgn::{par_chunks, par_map_pooled, Parallel};
use chessbits_state::Position;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::args;
use crate::errors::{raise, ChessbitsError};
use crate::games::Games;
use crate::source::{check_output, file_error, path_error, Source};

/// An index file, memory-mapped: the Rust side of `chessbits.Index`.
#[pyclass(module = "chessbits", name = "_Index", frozen)]
pub(crate) struct PyIndex {
    inner: Index,
}

/// The query's position: a FEN, or UCI moves from the start.
fn position(fen: Option<&str>, moves: Option<&str>) -> PyResult<Position> {
    match (fen, moves) {
        (Some(fen), None) => parse_position(fen).map_err(crate::errors::fen_error),
        (None, Some(moves)) => position_after(moves).map_err(PyValueError::new_err),
        (None, None) => Ok(Position::new()),
        (Some(_), Some(_)) => Err(PyValueError::new_err("give fen or moves, not both")),
    }
}

/// The filter of a query's keyword arguments.
#[allow(
    clippy::too_many_arguments,
    reason = "the filter's keyword arguments, as Python passes them"
)]
fn filter(
    result: Option<&str>,
    since: Option<&str>,
    until: Option<&str>,
    min_rating: Option<&Bound<'_, PyAny>>,
    max_rating: Option<&Bound<'_, PyAny>>,
    speed: Option<&str>,
) -> PyResult<Filter> {
    let min_rating = args::bounded_or_none::<u16>(min_rating, "min_rating", 0)?;
    let max_rating = args::bounded_or_none::<u16>(max_rating, "max_rating", 0)?;
    Filter::from_text(result, (since, until), (min_rating, max_rating), speed)
        .map_err(PyValueError::new_err)
}

/// A record batch (or Arrow's refusal of one) as Arrow IPC stream bytes.
fn ipc<'py>(
    py: Python<'py>,
    batch: Result<RecordBatch, arrow_schema::ArrowError>,
) -> PyResult<Bound<'py, PyBytes>> {
    let arrow = |e: arrow_schema::ArrowError| raise::<ChessbitsError>(e.to_string());
    let batch = batch.map_err(arrow)?;
    let mut writer = StreamWriter::try_new(Vec::new(), &batch.schema()).map_err(arrow)?;
    writer.write(&batch).map_err(arrow)?;
    let bytes = writer.into_inner().map_err(arrow)?;
    Ok(PyBytes::new(py, &bytes))
}

fn index_error(e: chessbits_index::IndexError) -> PyErr {
    match e {
        chessbits_index::IndexError::Io(e) => PyOSError::new_err(e.to_string()),
        e => raise::<ChessbitsError>(e.to_string()),
    }
}

#[pymethods]
impl PyIndex {
    #[new]
    fn new(path: PathBuf) -> PyResult<PyIndex> {
        match Index::open(&path) {
            Ok(inner) => Ok(PyIndex { inner }),
            Err(chessbits_index::IndexError::Io(e)) => Err(file_error(&path, &e)),
            Err(e) => Err(raise::<ChessbitsError>(format!("{}: {e}", path.display()))),
        }
    }

    /// The games in the index.
    #[getter]
    fn games(&self) -> u64 {
        self.inner.games()
    }

    /// `find` as an Arrow IPC stream: game, ply, white, black, result, date, white_elo,
    /// black_elo, speed, event.
    #[pyo3(signature = (fen=None, moves=None, result=None, since=None, until=None, min_rating=None, max_rating=None, speed=None, limit=None))]
    #[allow(clippy::too_many_arguments, reason = "Python's keyword arguments")]
    fn find_ipc<'py>(
        &self,
        py: Python<'py>,
        fen: Option<&str>,
        moves: Option<&str>,
        result: Option<&str>,
        since: Option<&str>,
        until: Option<&str>,
        min_rating: Option<&Bound<'_, PyAny>>,
        max_rating: Option<&Bound<'_, PyAny>>,
        speed: Option<&str>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let limit = args::bounded_or_none::<usize>(limit, "limit", 0)?;
        let pos = position(fen, moves)?;
        let filter = filter(result, since, until, min_rating, max_rating, speed)?;
        let found = py.detach(|| self.inner.find(&pos, &filter, limit)).map_err(index_error)?;
        ipc(py, find_batch(&found))
    }

    /// `explore` as an Arrow IPC stream: uci, san (null for the games that end there),
    /// games, white, draws, black, average_rating, last_date.
    #[pyo3(signature = (fen=None, moves=None, result=None, since=None, until=None, min_rating=None, max_rating=None, speed=None))]
    #[allow(clippy::too_many_arguments, reason = "Python's keyword arguments")]
    fn explore_ipc<'py>(
        &self,
        py: Python<'py>,
        fen: Option<&str>,
        moves: Option<&str>,
        result: Option<&str>,
        since: Option<&str>,
        until: Option<&str>,
        min_rating: Option<&Bound<'_, PyAny>>,
        max_rating: Option<&Bound<'_, PyAny>>,
        speed: Option<&str>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let pos = position(fen, moves)?;
        let filter = filter(result, since, until, min_rating, max_rating, speed)?;
        let rows = py.detach(|| self.inner.explore(&pos, &filter)).map_err(index_error)?;
        ipc(py, explore_batch(&pos, &rows))
    }
}

/// Builds an index of the games of `sources` (paths, bytes or file objects of PGN, plain or
/// compressed, `.cbg`, or lichess Parquet) at `output`, written under a temporary name and
/// renamed once whole; games are numbered across the sources. A path or bytes of PGN is read
/// and prepared on `threads` workers (default: every core) through the pipeline that
/// `chessbits index build` runs, with the GIL released; a PGN file object or a `.cbg` on one.
/// Returns (games indexed, games skipped, bytes written).
#[pyfunction]
#[pyo3(signature = (sources, output, *, max_ply=None, memory=1024, threads=None))]
pub(crate) fn build_index(
    py: Python<'_>,
    sources: Vec<Source>,
    output: PathBuf,
    max_ply: Option<&Bound<'_, PyAny>>,
    memory: i64,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<(u64, u64, u64)> {
    let threads = args::count_or(threads, "threads", 1, Parallel::all_cores().threads)?;
    let max_ply = args::bounded_or_none::<u32>(max_ply, "max_ply", 0)?.unwrap_or(u32::MAX);
    let memory = args::ranged::<usize>(memory, "memory", 1)?;
    let options =
        BuildOptions::default().with_max_ply(max_ply).with_memory(memory.saturating_mul(1 << 20));
    check_output(sources.iter(), &output)?;
    let mut builder = IndexBuilder::new(options);
    let (mut before, mut skipped) = (0u64, 0u64);
    for source in sources {
        // A lichess Parquet file's rows are read as they are, their tags from the columns.
        let source = match source.into_parquet(threads)? {
            Ok(rows) => {
                let last = py.detach(|| prepare_rows(rows, threads, &mut builder, before))?;
                before += last.0;
                skipped += last.1;
                py.check_signals()?;
                continue;
            }
            Err(source) => source,
        };
        let parallel = (threads > 1 && !source.is_file_object()).then(|| match source.size() {
            Some(size) => Parallel::new(threads).fit_to(size),
            None => Parallel::new(threads),
        });
        let (kind, input) = sniff(source.open()?);
        let last = match parallel {
            Some(parallel) if kind == FileKind::Pgn => {
                py.detach(|| prepare_in_parallel(input, &parallel, &mut builder, before))?
            }
            _ => {
                let mut games = Games::from_input(kind, input)?;
                prepare_serially(py, &mut games, &mut builder, before)?
            }
        };
        before += last.0;
        skipped += last.1;
        py.check_signals()?;
    }
    let temp = output.with_extension("cbx.partial");
    let file = std::fs::File::create(&temp).map_err(|e| path_error(&temp, &e))?;
    let mut writer = std::io::BufWriter::new(file);
    let stats = py.detach(|| builder.finish(&mut writer)).map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        index_error(e)
    })?;
    drop(writer.into_inner().map_err(|e| PyOSError::new_err(e.to_string()))?);
    std::fs::rename(&temp, &output).map_err(|e| path_error(&output, &e))?;
    Ok((stats.games, skipped, stats.bytes))
}

/// The games of one source read on this thread (a file object needs the GIL for each read),
/// numbered after `before`: (the games read, those skipped).
fn prepare_serially(
    py: Python<'_>,
    games: &mut Games,
    builder: &mut IndexBuilder,
    before: u64,
) -> PyResult<(u64, u64)> {
    let (mut last, mut skipped) = (0, 0);
    let max_ply = builder.max_ply();
    while let Some((number, game)) = games.next_game()? {
        last = number;
        match game.map(|game| (PreparedGame::new(&game, max_ply), game)) {
            Ok((Ok(mut prepared), game)) => {
                prepared.renumber(before + number);
                builder.push(prepared).map_err(index_error)?;
                games.recycle(game);
            }
            Ok((Err(_), _)) | Err(_) => skipped += 1,
        }
        if number % 4096 == 0 {
            py.check_signals()?;
        }
    }
    Ok((last, skipped))
}

/// Adds a chunk's prepared games to `builder`, numbered after `before` and the `last` game
/// so far; a game that was not prepared is counted in `skipped`.
fn push_prepared(
    builder: &mut IndexBuilder,
    games: Vec<Result<PreparedGame, String>>,
    before: u64,
    (last, skipped): (&mut u64, &mut u64),
) -> PyResult<()> {
    for game in games {
        *last += 1;
        match game {
            Ok(mut prepared) => {
                prepared.renumber(before + *last);
                builder.push(prepared).map_err(index_error)?;
            }
            Err(_) => *skipped += 1,
        }
    }
    Ok(())
}

/// The rows of a lichess Parquet file read and prepared a batch at a time on `threads`
/// workers ([`prepare_games`], as `chessbits index build`), pushed here in file order and
/// numbered after `before`: (the games read, those skipped). A page that does not decode ends
/// the file, as an `OSError`.
fn prepare_rows(
    rows: ParquetRows,
    threads: usize,
    builder: &mut IndexBuilder,
    before: u64,
) -> PyResult<(u64, u64)> {
    let (mut last, mut skipped) = (0u64, 0u64);
    let max_ply = builder.max_ply();
    par_map_pooled(
        threads,
        move || rows,
        move |reader, batch: std::io::Result<RowBatch>| {
            batch.map(|batch| prepare_games(&mut batch.games(reader), max_ply, 0))
        },
        |chunk| {
            let chunk = chunk.map_err(|e| PyOSError::new_err(e.to_string()))?;
            push_prepared(builder, chunk.games, before, (&mut last, &mut skipped))?;
            Ok::<_, PyErr>(())
        },
    )?;
    Ok((last, skipped))
}

/// The games of one PGN source read and prepared on the pipeline's workers
/// ([`prepare_chunk`], as `chessbits index build`), pushed here in input order and numbered
/// after `before`: (the games read, those skipped). A read error ends the source, as an
/// `OSError`.
fn prepare_in_parallel(
    input: impl std::io::Read + Send,
    parallel: &Parallel,
    builder: &mut IndexBuilder,
    before: u64,
) -> PyResult<(u64, u64)> {
    let (mut last, mut skipped) = (0u64, 0u64);
    let max_ply = builder.max_ply();
    par_chunks(
        input,
        parallel,
        |reader| prepare_chunk(reader, max_ply),
        |_, chunk: PreparedChunk| {
            push_prepared(builder, chunk.games, before, (&mut last, &mut skipped))?;
            match chunk.read_error {
                Some((offset, e)) => {
                    Err(PyOSError::new_err(format!("read error at byte {offset}: {e}")))
                }
                None => Ok(()),
            }
        },
    )?;
    Ok((last, skipped))
}
