//! `read_games` and `iter_games`: games to Arrow record batches in the schema of `chessbits
//! export`, handed to pyarrow without a copy (the Arrow PyCapsule interface), and games one
//! at a time ([`Games`]) for the functions that read them so.
//!
//! `GameBatches` is the one place batches are made: on the calling thread from [`Games`], or
//! from the library's parallel pipeline (PGN) and row batches (lichess Parquet) on the
//! pool's workers. Where the bytes come from is `crate::source`.

use std::io::{BufRead, Read};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Mutex;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use chessbits_arrow::games::{cbg_failed_message, pgn_failed_message, read_games_into, sniff};
use chessbits_arrow::lichess::{ParquetRows, RowBatch};
use chessbits_arrow::{add_to_game_numbers, ExportError, Keys};
use chessbits_cbg::{CbgError, CbgErrorKind, CbgReader, FileKind, GameBuilder, GameRecord};
use chessbits_pgn::{
    par_chunks_pooled, par_map_pooled, ChunkReader, Compression, Input, MovetextReader, Parallel,
    PgnError, PgnErrorKind, PgnReader, ReplayError,
};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

use crate::args;
use crate::capsule::{ArrowBatch, ArrowSchema, ArrowStream};
use crate::errors::{cbg_error, raise, ChessbitsError};
use crate::rows::{schema_for, Rows};
use crate::source::Source;

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

    /// Reads `input` as its first bytes say ([`sniff`]): `.cbg` or PGN.
    pub(crate) fn new(input: Input) -> PyResult<Games> {
        let (kind, input) = sniff(input);
        Games::from_input(kind, input)
    }

    /// Reads `input`, told what it is already ([`sniff`]).
    ///
    /// # Errors
    /// `ChessbitsError` for binary bytes that are neither PGN nor `.cbg` (`chessbits export`
    /// and `index build` refuse the same inputs: a row for them numbered the games after
    /// differently), `CbgError` for a `.cbg` header that does not read.
    pub(crate) fn from_input(
        kind: FileKind,
        input: Box<dyn BufRead + Send + Sync>,
    ) -> PyResult<Games> {
        match kind {
            FileKind::Cbg => {
                let reader =
                    CbgReader::new(input).map_err(|e| Python::attach(|py| cbg_error(py, &e)))?;
                Ok(Games::Cbg(CbgGames { reader, skipped: 0, index_error: None }))
            }
            FileKind::Pgn => Ok(Games::Pgn(PgnReader::new(input), GameBuilder::default())),
            FileKind::Binary => Err(raise::<ChessbitsError>(
                "the source is neither PGN, .cbg nor lichess Parquet (binary bytes in its first \
                 kilobytes)",
            )),
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
    let (kind, input) = sniff(input);
    if kind != FileKind::Pgn || serial {
        let games = Games::from_input(kind, input)?;
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
