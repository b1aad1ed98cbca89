//! `read_games`: PGN (or `.cbg`) to Arrow record batches in the schema of `chessbits export`, handed to
//! pyarrow as Arrow IPC stream bytes.
//!
//! `GameBatches` is the one place games are read: an iterator of `RecordBatch`es over a
//! `BufRead` source. The parallel PGN pipeline and compressed input plug in here (in
//! `open_path` and `GameBatches::next_batch`) without touching the Python layer.

use std::io::{self, BufRead, Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Mutex;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use chessbits_arrow::games::{cbg_failed_message, pgn_failed_message, read_games_into, sniff_cbg};
use chessbits_arrow::lichess::{ParquetRows, RowBatch, PARQUET_MAGIC};
use chessbits_arrow::{add_to_game_numbers, ExportError, Keys};
use chessbits_cbg::{CbgError, CbgErrorKind, CbgReader, GameBuilder, GameRecord};
use chessbits_pgn::{
    par_chunks_pooled, par_map_pooled, ChunkReader, Compression, Input, MovetextReader, Parallel,
    PgnError, PgnErrorKind, PgnReader, ReplayError,
};
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::PyErrArguments;

use crate::args;
use crate::capsule::{ArrowBatch, ArrowSchema, ArrowStream};
use crate::errors::{cbg_error, raise, ChessbitsError};
use crate::rows::{schema_for, Rows};

/// How the `moves` column is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum MovesAs {
    /// A list of UCI strings per game.
    Uci,
    /// A list of SAN strings (with `+` and `#`) per game.
    San,
    /// The model move codec's bytes, as `chessbits export` writes them.
    Codes,
}

impl MovesAs {
    fn parse(text: &str) -> PyResult<MovesAs> {
        match text {
            "uci" => Ok(MovesAs::Uci),
            "san" => Ok(MovesAs::San),
            "codes" => Ok(MovesAs::Codes),
            other => Err(PyValueError::new_err(format!(
                "moves must be 'uci', 'san' or 'codes', not {other:?}"
            ))),
        }
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
    use io::ErrorKind as K;
    // A name too long for the file system is PGN text as often as not.
    let missing = matches!(e.kind(), K::NotFound | K::InvalidFilename);
    let text = path.to_string_lossy();
    let is_text = text.chars().count() > SHOWN_CHARS || text.contains(['\n', '\r']);
    let strerror = if missing {
        "no such file (a str source is a path: pass PGN text as bytes, io.StringIO or io.BytesIO)"
            .to_owned()
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

/// A game that did not read: the message, and the tags read before it failed.
pub(crate) type FailedGame = (String, Vec<(Vec<u8>, Vec<u8>)>, Place);

/// Where a game that did not read failed: the attributes of the `PgnError` or `CbgError` that
/// reports it (`None` where the input kind has no such place).
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Place {
    pub(crate) line: Option<u64>,
    pub(crate) column: Option<u64>,
    pub(crate) byte: Option<u64>,
    pub(crate) ply: Option<u32>,
}

impl Place {
    /// The place of a PGN reading error; the ply where a move of the mainline failed.
    pub(crate) fn of_pgn(e: &PgnError<ReplayError>) -> Place {
        let ply = match &e.kind {
            PgnErrorKind::Visitor(ReplayError::Move { ply, .. }) => Some(*ply),
            _ => None,
        };
        Place { line: Some(e.line), column: Some(e.column), byte: Some(e.offset), ply }
    }

    /// The place of an error in a Parquet row's movetext: the byte of the movetext, no line
    /// or column (the row has no text around it); the ply where a move failed.
    pub(crate) fn of_movetext(e: &PgnError<ReplayError>) -> Place {
        Place { line: None, column: None, ..Place::of_pgn(e) }
    }
}

/// Where games are read from, one at a time: PGN, a `.cbg` file (told by their first bytes),
/// or a lichess Parquet file's rows.
#[allow(clippy::large_enum_variant, reason = "one per reader, made once and never moved in a loop")]
pub(crate) enum Games {
    /// PGN text, read by the library's reader into records.
    Pgn(PgnReader<Box<dyn BufRead + Send + Sync>>, GameBuilder),
    /// A `.cbg` file's games.
    Cbg(CbgGames),
    /// A lichess Parquet file, read a batch of rows at a time as `read_games` reads it.
    Rows(Box<RowQueue>),
}

/// A `.cbg` file's games, numbered as `chessbits unpack` and `export` number them, and its
/// errors that are the file's, not a game's, raised as `CbgError` once its games are read
/// (`read_games(on_error="keep")` keeps the games and the message), as the CLI reports them on
/// stderr with no row: a game row for them took the next game's number.
pub(crate) struct CbgGames {
    reader: CbgReader<Box<dyn BufRead + Send + Sync>>,
    /// The games skipped when packing before the last good game: a damaged record's number
    /// is its place plus that count.
    skipped: u64,
    /// The first index record that does not match the game records (no game is lost by it,
    /// and reading goes on): raised when the file has been read to its end.
    index_error: Option<CbgError>,
}

impl CbgGames {
    /// The next game with its number, the next damaged game record as an error, or the
    /// file's error (`CbgError`; `OSError` when it could not be read) once its games are read.
    fn next_game(&mut self) -> PyResult<Option<(u64, Result<GameRecord, FailedGame>)>> {
        let raise = |e: &CbgError| Python::attach(|py| cbg_error(py, e));
        loop {
            let e = match self.reader.next() {
                None => return self.index_error.take().map_or(Ok(None), |e| Err(raise(&e))),
                Some(Ok(game)) => {
                    self.skipped = game.number.saturating_sub(self.reader.games_read());
                    return Ok(Some((game.number, Ok(game))));
                }
                Some(Err(e)) => e,
            };
            if matches!(e.kind, CbgErrorKind::Io(_)) {
                return Err(PyOSError::new_err(e.to_string()));
            }
            if self.reader.is_done() {
                // A cut file, a broken frame, a trailer that does not match: nothing after it
                // can be read, and how many games were lost is not known.
                self.index_error = None;
                return Err(raise(&e));
            }
            if e.kind.is_index() {
                self.index_error.get_or_insert(e);
                continue;
            }
            let place = Place { byte: Some(e.at.byte), ..Place::default() };
            let number = e.at.game.saturating_add(self.skipped);
            return Ok(Some((number, Err((cbg_failed_message(&e), Vec::new(), place)))));
        }
    }
}

/// A lichess Parquet file's rows read a batch at a time ([`RowBatch::games`]), its games
/// handed out one at a time.
pub(crate) struct RowQueue {
    /// In a mutex only to be `Sync`, as a Python class's fields must be: only `get_mut` is
    /// called, which takes no lock.
    rows: Mutex<ParquetRows>,
    reader: MovetextReader,
    builder: GameBuilder,
    /// The current batch's games, numbered in the file.
    games: std::collections::VecDeque<(u64, Result<GameRecord, FailedGame>)>,
}

impl RowQueue {
    /// The next game, reading the next batch of rows when the last one is spent.
    fn next_game(&mut self) -> PyResult<Option<(u64, Result<GameRecord, FailedGame>)>> {
        use chessbits_arrow::games::movetext_failed_message;
        use chessbits_pgn::GameSource;
        while self.games.is_empty() {
            let rows = self.rows.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner);
            let batch = match rows.next() {
                None => return Ok(None),
                Some(batch) => batch.map_err(|e| PyOSError::new_err(e.to_string()))?,
            };
            let RowQueue { reader, builder, games, .. } = self;
            let mut rows = batch.games(reader);
            while let Some(game) = rows.next_game(builder) {
                let number = batch.before() + rows.games_read();
                games.push_back((
                    number,
                    game.map_err(|e| {
                        let tags = builder.failed_tags().to_vec();
                        (movetext_failed_message(&e), tags, Place::of_movetext(&e))
                    }),
                ));
            }
        }
        Ok(self.games.pop_front())
    }
}

impl Games {
    /// Reads `source`: a lichess Parquet file by its rows, anything else as [`Games::new`].
    pub(crate) fn open(source: Source) -> PyResult<Games> {
        match source.into_parquet(1)? {
            Ok(rows) => Ok(Games::Rows(Box::new(RowQueue {
                rows: Mutex::new(rows),
                reader: MovetextReader::new(),
                builder: GameBuilder::default(),
                games: std::collections::VecDeque::new(),
            }))),
            Err(source) => Games::new(source.open()?),
        }
    }

    /// Reads `input` as `.cbg` if it starts with the magic bytes, else as PGN.
    pub(crate) fn new(input: Input) -> PyResult<Games> {
        let (cbg, input) = sniff_cbg(input);
        Games::from_input(cbg, input)
    }

    /// Reads `input`, told `.cbg` or not already ([`sniff_cbg`]).
    pub(crate) fn from_input(cbg: bool, input: Box<dyn BufRead + Send + Sync>) -> PyResult<Games> {
        if cbg {
            let reader =
                CbgReader::new(input).map_err(|e| Python::attach(|py| cbg_error(py, &e)))?;
            Ok(Games::Cbg(CbgGames { reader, skipped: 0, index_error: None }))
        } else {
            Ok(Games::Pgn(PgnReader::new(input), GameBuilder::default()))
        }
    }

    /// Hands back a game [`Games::next_game`] returned, for the next games to reuse its memory.
    pub(crate) fn recycle(&mut self, game: GameRecord) {
        match self {
            Games::Pgn(_, builder) => builder.recycle(game),
            Games::Rows(rows) => rows.builder.recycle(game),
            Games::Cbg(..) => {}
        }
    }

    /// The next game with its number in the input (from 1), or why it did not read.
    ///
    /// # Errors
    /// `OSError` when the input cannot be read, `CbgError` for a `.cbg` file's own error
    /// ([`CbgGames`]): no game follows, and that is no game's fault.
    pub(crate) fn next_game(&mut self) -> PyResult<Option<(u64, Result<GameRecord, FailedGame>)>> {
        Ok(match self {
            Games::Pgn(reader, builder) => {
                let number = reader.games() + 1;
                match reader.read_game(builder) {
                    None => None,
                    Some(Err(e)) if matches!(e.kind, PgnErrorKind::Io(_)) => {
                        return Err(PyOSError::new_err(e.to_string()))
                    }
                    Some(result) => Some((
                        number,
                        result.map_err(|e| {
                            let tags = builder.failed_tags().to_vec();
                            (pgn_failed_message(&e), tags, Place::of_pgn(&e))
                        }),
                    )),
                }
            }
            Games::Rows(rows) => return rows.next_game(),
            Games::Cbg(games) => return games.next_game(),
        })
    }
}

/// Why a batch could not be made.
enum ReadError {
    /// The input could not be read.
    Py(PyErr),
    /// A signal's handler raised (Ctrl-C): raised whatever `on_error` says.
    Interrupted(PyErr),
    /// Arrow refused the batch (a bug).
    Export(ExportError),
}

impl From<ExportError> for ReadError {
    fn from(e: ExportError) -> Self {
        ReadError::Export(e)
    }
}

impl From<arrow_schema::ArrowError> for ReadError {
    fn from(e: arrow_schema::ArrowError) -> Self {
        ReadError::Export(e.into())
    }
}

/// `message`, a read error's, which names game `number` counted from a chunk's start
/// (`game <number>...`, as the reader's errors begin), naming it by its number in the input,
/// `before` games more. A message that does not begin so is left as it is.
fn renumber(message: &str, number: u64, before: u64) -> String {
    match message.strip_prefix(&format!("game {number}")) {
        Some(rest) if before > 0 => format!("game {}{rest}", before + number),
        _ => message.to_owned(),
    }
}

/// What the parallel pipeline hands the reading thread: a chunk's batch, or why reading
/// stopped.
enum Fed {
    Batch(RecordBatch),
    /// The input could not be read on (`OSError`).
    Io(String),
    /// Arrow refused a batch (a bug).
    Export(ExportError),
}

/// Where batches come from.
#[allow(clippy::large_enum_variant, reason = "one per reader, made once and never moved in a loop")]
enum Feed {
    /// One reader on the calling thread.
    Serial(Games, Rows),
    /// The library's parallel pipeline, not yet started (in a mutex only to make the class
    /// `Sync`).
    Pending(Mutex<Option<Pipeline>>),
    /// The library's parallel pipeline, on a thread of its own: one batch per chunk of the
    /// input, in input order. The receiver is in a mutex only to make the class `Sync`.
    Parallel(Mutex<Receiver<Fed>>),
}

/// A parallel reading not yet started: its input and how to read it.
struct Pipeline {
    job: Job,
    moves_as: MovesAs,
    keys: Keys,
}

/// What a [`Pipeline`] reads.
enum Job {
    /// PGN, cut into chunks.
    Pgn(Box<dyn Read + Send>, Parallel),
    /// A lichess Parquet file, a batch of rows at a time, on this many threads.
    Parquet(ParquetRows, usize),
}

impl Pipeline {
    /// Reads the input on the pool's workers, each chunk (or batch of rows) into a batch, and
    /// hands `feed` what comes, in input order, on the calling thread, until the input ends
    /// or `feed` says stop (`Err`).
    fn run(self, feed: impl FnMut(Fed) -> Result<(), ()>) {
        let Pipeline { job, moves_as, keys } = self;
        match job {
            Job::Pgn(input, options) => Self::run_pgn(input, &options, moves_as, keys, feed),
            Job::Parquet(rows, threads) => Self::run_rows(rows, threads, moves_as, keys, feed),
        }
    }

    fn run_pgn(
        input: Box<dyn Read + Send>,
        options: &Parallel,
        moves_as: MovesAs,
        keys: Keys,
        mut feed: impl FnMut(Fed) -> Result<(), ()>,
    ) {
        let work = move |reader: &mut ChunkReader<'_>| {
            let mut rows = Rows::new(moves_as, keys);
            // The batch is built here, on the worker; the sink, which alone knows the games
            // before the chunk, only renumbers its first column.
            match read_games_into(reader, &mut rows) {
                // The read error is no game's: reading stops there, as serially.
                Ok(end) => (rows.finish(), end.read_error.map(|e| (e.game, e.to_string()))),
                Err(e) => (Err(e), None),
            }
        };
        // On the pool's threads, kept between calls: a call on a 1 MB file started four
        // threads, cold, where the pool's are warm.
        let _ = par_chunks_pooled(input, options, work, |before, (batch, io)| {
            let numbered = |batch: Option<RecordBatch>| {
                batch.map(|b| add_to_game_numbers(&b, before)).transpose().map_err(Into::into)
            };
            match batch.and_then(numbered) {
                Ok(Some(batch)) => feed(Fed::Batch(batch))?,
                Ok(None) => {}
                Err(e) => return feed(Fed::Export(e)).and(Err(())),
            }
            match io {
                Some((game, message)) => {
                    feed(Fed::Io(renumber(&message, game, before))).and(Err(()))
                }
                None => Ok(()),
            }
        });
    }

    /// A lichess Parquet file's rows: decoded on one thread, each batch of rows read into a
    /// record batch on a worker, its games numbered by their rows already.
    fn run_rows(
        rows: ParquetRows,
        threads: usize,
        moves_as: MovesAs,
        keys: Keys,
        mut feed: impl FnMut(Fed) -> Result<(), ()>,
    ) {
        let work = move |reader: &mut MovetextReader, batch: std::io::Result<RowBatch>| {
            let batch = match batch {
                Ok(batch) => batch,
                Err(e) => return (Ok(None), Some(e.to_string())),
            };
            let mut out = Rows::new(moves_as, keys);
            let mut builder = GameBuilder::default();
            // The moves from the movetext; the tags straight from their columns.
            let read = batch.read_moves_into(reader, &mut builder, &mut out).and_then(|()| {
                let tags = batch.tag_columns(&out.results)?;
                out.finish_with(Some(tags))
            });
            (read, None)
        };
        let _ = par_map_pooled(
            threads,
            move || rows,
            work,
            |(batch, io)| {
                match batch {
                    Ok(Some(batch)) => feed(Fed::Batch(batch))?,
                    Ok(None) => {}
                    Err(e) => return feed(Fed::Export(e)).and(Err(())),
                }
                match io {
                    Some(message) => feed(Fed::Io(message)).and(Err(())),
                    None => Ok(()),
                }
            },
        );
    }
}

/// Games read into record batches of at most `batch_games` rows each: filled to that from one
/// reader, or one chunk of the input (about a megabyte of PGN) each from the parallel
/// pipeline, sliced (without copying) where a chunk has more.
pub(crate) struct GameBatches {
    feed: Feed,
    batch_games: usize,
    schema: SchemaRef,
    done: bool,
    /// A chunk's batch, and the rows of it already handed out.
    sliced: Option<(RecordBatch, usize)>,
    /// The read error that stopped the input, raised after the rows before it are handed out.
    failed: Option<PyErr>,
}

impl GameBatches {
    fn serial(games: Games, moves_as: MovesAs, keys: Keys, batch_games: usize) -> GameBatches {
        GameBatches {
            feed: Feed::Serial(games, Rows::new(moves_as, keys)),
            batch_games,
            schema: schema_for(moves_as),
            done: false,
            sliced: None,
            failed: None,
        }
    }

    /// The games of a PGN input read on `threads` workers (`chessbits_pgn::par_chunks_pooled`),
    /// each chunk into a batch on its worker. Nothing starts until the first batch is asked
    /// for ([`read_batch`](Self::read_batch): on a thread of its own, feeding the batches one
    /// by one) or every batch is ([`read_all`](Self::read_all): on the calling thread).
    fn parallel(
        input: impl Read + Send + 'static,
        moves_as: MovesAs,
        keys: Keys,
        (options, batch_games): (Parallel, usize),
    ) -> GameBatches {
        let job = Job::Pgn(Box::new(input), options);
        GameBatches::pending(Pipeline { job, moves_as, keys }, batch_games)
    }

    /// The games of a lichess Parquet file, its rows read on `threads` workers.
    fn rows(
        rows: ParquetRows,
        threads: usize,
        moves_as: MovesAs,
        keys: Keys,
        batch_games: usize,
    ) -> GameBatches {
        let job = Job::Parquet(rows, threads);
        GameBatches::pending(Pipeline { job, moves_as, keys }, batch_games)
    }

    /// A pipeline's batches, not yet started.
    fn pending(pipeline: Pipeline, batch_games: usize) -> GameBatches {
        let moves_as = pipeline.moves_as;
        GameBatches {
            feed: Feed::Pending(Mutex::new(Some(pipeline))),
            batch_games,
            schema: schema_for(moves_as),
            done: false,
            sliced: None,
            failed: None,
        }
    }

    /// Every batch, in order, read on the calling thread (which hands them on; the pool's
    /// workers read), with a look at Ctrl-C between batches: `read_games`. The batches
    /// before a read error are kept in `out` when it is returned.
    fn read_all(&mut self, out: &mut Vec<RecordBatch>) -> Result<(), ReadError> {
        let pending = match &mut self.feed {
            Feed::Pending(pending) => pending.get_mut().ok().and_then(Option::take),
            _ => None,
        };
        let Some(pipeline) = pending else {
            while let Some(batch) = self.read_batch()? {
                out.push(batch);
            }
            return Ok(());
        };
        self.done = true;
        let batch_games = self.batch_games;
        let mut stopped = None;
        pipeline.run(|fed| {
            let error = match fed {
                Fed::Batch(batch) => {
                    let mut at = 0;
                    while at < batch.num_rows() {
                        let rows = (batch.num_rows() - at).min(batch_games);
                        out.push(batch.slice(at, rows));
                        at += rows;
                    }
                    match Python::attach(|py| py.check_signals()) {
                        Ok(()) => return Ok(()),
                        Err(e) => ReadError::Interrupted(e),
                    }
                }
                Fed::Io(message) => ReadError::Py(PyOSError::new_err(message)),
                Fed::Export(e) => ReadError::Export(e),
            };
            stopped = Some(error);
            Err(())
        });
        stopped.map_or(Ok(()), Err)
    }

    /// The next batch, or `None` at the end of the input.
    pub(crate) fn next_batch(&mut self) -> PyResult<Option<RecordBatch>> {
        self.read_batch().map_err(|e| match e {
            ReadError::Py(e) | ReadError::Interrupted(e) => e,
            ReadError::Export(e) => export_error(e),
        })
    }

    fn read_batch(&mut self) -> Result<Option<RecordBatch>, ReadError> {
        if let Some((batch, at)) = self.sliced.take() {
            let rows = (batch.num_rows() - at).min(self.batch_games);
            let slice = batch.slice(at, rows);
            if at + rows < batch.num_rows() {
                self.sliced = Some((batch, at + rows));
            }
            return Ok(Some(slice));
        }
        if let Some(e) = self.failed.take() {
            return Err(ReadError::Py(e));
        }
        if self.done {
            return Ok(None);
        }
        match &mut self.feed {
            Feed::Serial(games, rows) => {
                while rows.len() < self.batch_games {
                    let next = match games.next_game() {
                        Ok(next) => next,
                        Err(e) => {
                            // The games before the error go first.
                            self.done = true;
                            self.failed = Some(e);
                            break;
                        }
                    };
                    match next {
                        None => {
                            self.done = true;
                            break;
                        }
                        Some((number, Ok(mut game))) => {
                            game.number = number;
                            rows.push(&game)?;
                            games.recycle(game);
                        }
                        Some((number, Err((e, tags, _)))) => rows.push_error(number, &e, &tags),
                    }
                }
                // The serial reader numbers games from the input's start.
                match rows.finish()? {
                    Some(batch) => Ok(Some(batch)),
                    None => self.failed.take().map_or(Ok(None), |e| Err(ReadError::Py(e))),
                }
            }
            Feed::Pending(pending) => {
                let Some(pipeline) = pending.get_mut().ok().and_then(Option::take) else {
                    self.done = true;
                    return Ok(None);
                };
                // A send fails when the reader was dropped: the pipeline then stops.
                let (tx, rx) = sync_channel(2);
                let job = move || pipeline.run(|fed| tx.send(fed).map_err(drop));
                if let Err(e) = std::thread::Builder::new().spawn(job) {
                    self.done = true;
                    let message = format!("could not start a thread to read on: {e}");
                    return Err(ReadError::Py(PyOSError::new_err(message)));
                }
                self.feed = Feed::Parallel(Mutex::new(rx));
                self.read_batch()
            }
            Feed::Parallel(_) => self.receive(),
        }
    }

    /// The next batch the pipeline's thread sends, or how reading stopped.
    fn receive(&mut self) -> Result<Option<RecordBatch>, ReadError> {
        let Feed::Parallel(rx) = &mut self.feed else { return Ok(None) };
        let fed = rx
            .get_mut()
            .map_err(|_| ReadError::Py(PyOSError::new_err("a reading thread panicked")))?
            .recv();
        match fed {
            Ok(Fed::Batch(batch)) => {
                self.sliced = Some((batch, 0));
                self.read_batch()
            }
            Ok(Fed::Io(message)) => {
                self.done = true;
                Err(ReadError::Py(PyOSError::new_err(message)))
            }
            Ok(Fed::Export(e)) => {
                self.done = true;
                Err(ReadError::Export(e))
            }
            Err(_) => {
                self.done = true;
                Ok(None)
            }
        }
    }
}

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
    /// read by its rows ([`into_parquet`](Self::into_parquet), [`Games::open`]), never here.
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

/// `keys` from Python: `"all"` or a number of plies.
fn keys(value: &Bound<'_, PyAny>) -> PyResult<Keys> {
    if let Ok(text) = value.extract::<String>() {
        if text == "all" {
            return Ok(Keys::All);
        }
    } else if let Ok(n) = value.extract::<u32>() {
        return Ok(Keys::First(n));
    }
    Err(PyValueError::new_err("keys must be 'all' or a number of plies (0 or more)"))
}

fn export_error(e: ExportError) -> PyErr {
    raise::<ChessbitsError>(e)
}

/// What `read_games` does when the input cannot be read on (a truncated `.zst`).
#[derive(Copy, Clone, PartialEq, Eq)]
enum OnError {
    /// Raise `OSError`: the games read before are lost.
    Raise,
    /// Keep the games read before, and hand back the error's message beside them.
    Keep,
}

impl OnError {
    fn parse(text: &str) -> PyResult<OnError> {
        match text {
            "raise" => Ok(OnError::Raise),
            "keep" => Ok(OnError::Keep),
            other => Err(PyValueError::new_err(format!(
                "on_error must be 'raise' or 'keep', not {other:?}"
            ))),
        }
    }
}

/// Reads every game of `source` (a path, bytes or a file object; plain, `.zst`, `.gz` or
/// `.bz2`) into record batches handed to pyarrow without a copy (the Arrow PyCapsule
/// interface): the Rust side of `chessbits.read_games`. PGN paths and bytes are read on
/// `threads` workers (default: all cores) through the library's parallel pipeline; file
/// objects and `.cbg` files on one. Returns the batches as one Arrow stream and, with
/// `on_error="keep"`, the message of the read error that ended the input early (`None` when
/// it was read to its end); with `"raise"` that error is raised.
#[pyfunction]
#[pyo3(signature = (source, *, moves="uci", keys=None, batch_games=None, threads=None, on_error="raise"))]
pub(crate) fn read_games_batches<'py>(
    py: Python<'py>,
    source: Source,
    moves: &str,
    keys: Option<&Bound<'py, PyAny>>,
    batch_games: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    on_error: &str,
) -> PyResult<(ArrowStream, Option<String>)> {
    let on_error = OnError::parse(on_error)?;
    let mut batches = reader(source, moves, keys, batch_games, threads)?;
    let mut out = Vec::new();
    let mut read_error = None;
    if matches!(batches.feed, Feed::Pending(_)) {
        // The pipeline runs on this thread without the GIL, and hands batches on as they
        // come, with no thread started to feed them.
        match py.detach(|| batches.read_all(&mut out)) {
            Ok(()) => {}
            Err(ReadError::Py(e)) if on_error == OnError::Keep => read_error = Some(e),
            Err(ReadError::Py(e) | ReadError::Interrupted(e)) => return Err(e),
            Err(ReadError::Export(e)) => return Err(export_error(e)),
        }
        let read_error = read_error.map(|e| e.value(py).to_string());
        return Ok((ArrowStream::new(batches.schema.clone(), out), read_error));
    }
    loop {
        // A batch at a time without the GIL, then a look at Ctrl-C between batches, so a
        // long read can be interrupted.
        let done = py.detach(|| match batches.read_batch() {
            Ok(Some(batch)) => {
                out.push(batch);
                Ok(false)
            }
            Ok(None) => Ok(true),
            Err(ReadError::Py(e)) if on_error == OnError::Keep => {
                read_error = Some(e);
                Ok(true)
            }
            Err(ReadError::Py(e) | ReadError::Interrupted(e)) => Err(e),
            Err(ReadError::Export(e)) => Err(export_error(e)),
        })?;
        if done {
            break;
        }
        py.check_signals()?;
    }
    let read_error = read_error.map(|e| e.value(py).to_string());
    Ok((ArrowStream::new(batches.schema.clone(), out), read_error))
}

/// The batches of `source` as `read_games` and `iter_games` read them, their arguments
/// checked.
fn reader(
    source: Source,
    moves: &str,
    keys: Option<&Bound<'_, PyAny>>,
    batch_games: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<GameBatches> {
    let batch_games =
        args::count_or(batch_games, "batch_games", 1, chessbits_arrow::DEFAULT_BATCH_GAMES)?;
    let threads = args::count_or(threads, "threads", 1, Parallel::all_cores().threads)?;
    let moves = MovesAs::parse(moves)?;
    let keys = keys
        .map(self::keys)
        .transpose()?
        .unwrap_or(Keys::First(chessbits_arrow::DEFAULT_KEY_PLIES));
    // A file object needs the GIL for each read: it is read on one thread. So is an input of
    // less than two of the smallest chunks, which the pipeline's threads would not share. A
    // larger input of known size is cut into chunks small enough for every thread to have
    // several (a one-megabyte file would otherwise be one chunk, on one thread).
    // A lichess Parquet file's rows are read as they are, their tags from the columns.
    let source = match source.into_parquet(threads)? {
        Ok(rows) => return Ok(GameBatches::rows(rows, threads, moves, keys, batch_games)),
        Err(source) => source,
    };
    let size = source.size();
    let file_object = source.is_file_object();
    let input = source.open()?;
    let plain = input.compression() == Compression::None;
    let small = plain && size.is_some_and(|n| n < 2 * Parallel::MIN_CHUNK_SIZE as u64);
    // Plain PGN (a file or bytes) is read on the cutter's thread: no thread is started to
    // read it, and the first chunk is cut after 64 KiB rather than a megabyte.
    let options = size
        .map_or(Parallel::new(threads), |n| Parallel::new(threads).fit_to(n))
        .with_read_ahead(!plain);
    let serial = threads <= 1 || file_object || small;
    let (cbg, input) = sniff_cbg(input);
    if cbg || serial {
        let games = Games::from_input(cbg, input)?;
        return Ok(GameBatches::serial(games, moves, keys, batch_games));
    }
    Ok(GameBatches::parallel(input, moves, keys, (options, batch_games)))
}

/// An iterator of record batches over a PGN source, each handed to pyarrow without a copy:
/// the Rust side of `chessbits.iter_games`, for inputs larger than memory.
#[pyclass(module = "chessbits")]
pub(crate) struct BatchReader {
    /// Boxed: a reader holds a `Position`, aligned to 64 bytes, more than Python aligns a
    /// class's fields (`lib.rs`).
    inner: Box<GameBatches>,
}

#[pymethods]
impl BatchReader {
    /// Opens `source` (a path or bytes) as `read_games_batches` does.
    #[new]
    #[pyo3(signature = (source, *, moves="uci", keys=None, batch_games=None, threads=None))]
    fn new(
        source: Source,
        moves: &str,
        keys: Option<&Bound<'_, PyAny>>,
        batch_games: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<BatchReader> {
        Ok(BatchReader { inner: Box::new(reader(source, moves, keys, batch_games, threads)?) })
    }

    /// The schema of the batches.
    fn schema(&self) -> ArrowSchema {
        ArrowSchema::new(self.inner.schema.clone())
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<ArrowBatch>> {
        let inner = &mut *self.inner;
        Ok(py.detach(|| inner.next_batch())?.map(ArrowBatch::new))
    }
}
