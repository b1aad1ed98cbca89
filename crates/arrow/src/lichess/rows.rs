//! lichess's Parquet games read row by row ([`ParquetRows`]): each row one game, its tags
//! handed to the game builder from their columns and only its movetext read as PGN
//! ([`MovetextReader`]). No PGN text is written and read back, so the rows of a batch can be
//! read on any thread, in any order, each batch's games numbered from the file's start.
//!
//! The games, tags and moves are those of the file's PGN ([`ParquetPgn`](super::ParquetPgn)),
//! except where the PGN would not be one game a row: a movetext with text after its result
//! (which the PGN would read as a second game), or a comment never closed (which the PGN
//! would close in a later row) is an error of that row alone. A row's error gives the byte
//! of its movetext ([`movetext_failed_message`](crate::games::movetext_failed_message)).
//!
//! ```
//! use std::sync::Arc;
//!
//! use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
//! use chessbits_arrow::games::GameRows;
//! use chessbits_arrow::lichess::ParquetRows;
//! use chessbits_arrow::ExportError;
//! use chessbits_cbg::{GameBuilder, GameRecord};
//! use chessbits_pgn::{MovetextReader, PgnError, ReplayError};
//! use parquet::arrow::ArrowWriter;
//!
//! let batch = RecordBatch::try_from_iter([
//!     ("White", Arc::new(StringArray::from(vec!["Anna", "Ben"])) as ArrayRef),
//!     ("WhiteElo", Arc::new(Int64Array::from(vec![1500, 1600])) as ArrayRef),
//!     ("movetext", Arc::new(StringArray::from(vec!["1. e4 e5 1-0", "1. e4 Ke7 *"])) as ArrayRef),
//! ])?;
//! let mut file = Vec::new();
//! let mut writer = ArrowWriter::try_new(&mut file, batch.schema(), None)?;
//! writer.write(&batch)?;
//! writer.close()?;
//!
//! #[derive(Default)]
//! struct Seen(Vec<String>);
//! impl GameRows for Seen {
//!     fn game(&mut self, game: &GameRecord) -> Result<(), ExportError> {
//!         let elo = String::from_utf8_lossy(game.tag("WhiteElo").unwrap_or_default());
//!         self.0.push(format!("{} {} {}", game.number, game.moves.len(), elo));
//!         Ok(())
//!     }
//!     fn failed(&mut self, number: u64, error: &PgnError<ReplayError>, _: &[(Vec<u8>, Vec<u8>)]) {
//!         self.0.push(format!("{number} byte {}", error.offset));
//!     }
//! }
//!
//! let mut seen = Seen::default();
//! let (mut reader, mut builder) = (MovetextReader::new(), GameBuilder::default());
//! for rows in ParquetRows::new(bytes::Bytes::from(file), 1024)? {
//!     rows?.read_into(&mut reader, &mut builder, &mut seen)?;
//! }
//! assert_eq!(seen.0, ["1 2 1500", "2 byte 6"]);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::io;
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Arc;

use arrow_array::builder::{Date32Builder, Int32Builder, MapBuilder, MapFieldNames, StringBuilder};
use arrow_array::cast::AsArray;
use arrow_array::types::Date32Type;
use arrow_array::{Array, ArrayRef, RecordBatch, StringArray};
use arrow_schema::{ArrowError, DataType, SchemaRef};
use chessbits_cbg::GameBuilder;
use chessbits_pgn::{
    ErrorPlace, GameResult, GameSource, MovetextReader, PgnError, RawTag, Visitor,
};
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::arrow::ProjectionMask;
use parquet::file::reader::ChunkReader;

use super::{
    invalid, open, push_one_line, push_tag_value, read_footer, write_value, Layout, TagColumn,
};
use crate::games::GameRows;
use crate::{parse_date, ExportError, BLACK_ELO, RESULT, TYPED, TYPED_TAGS, UTC_DATE, WHITE_ELO};

/// 0001-01-01 and 9999-12-31 in days since 1970-01-01: the dates that `YYYY.MM.DD` writes and
/// [`parse_date`] reads back.
const FIRST_DAY: i32 = -719_162;
const LAST_DAY: i32 = 2_932_896;

/// The tags a game's reading needs (its start position and variant): all that
/// [`RowBatch::read_moves_into`] hands the builder.
const START_TAGS: [&str; 2] = ["FEN", "Variant"];

/// Rows a batch for a file of `rows` rows read on `threads` workers: 64 to 1,024, about four
/// batches a worker.
fn batch_rows_for(rows: u64, threads: usize) -> usize {
    let each = rows / (4 * threads.max(1) as u64);
    usize::try_from(each).unwrap_or(usize::MAX).clamp(64, 1024)
}

/// Whether `array` is a `Utf8` array none of whose values holds a line break: its values are
/// the tag texts as they are.
fn plain_strings(array: &dyn Array) -> bool {
    let Some(strings) = array.as_string_opt::<i32>() else { return false };
    if *array.data_type() != DataType::Utf8 {
        return false;
    }
    let offsets = strings.value_offsets();
    let (Some(&first), Some(&last)) = (offsets.first(), offsets.last()) else { return true };
    let bytes = strings.value_data().get(first as usize..last as usize).unwrap_or_default();
    memchr::memchr2(b'\n', b'\r', bytes).is_none()
}

/// The rows of a lichess Parquet file, a [`RowBatch`] at a time ([module docs](self)).
pub struct ParquetRows {
    /// Every column; or, when the tag columns are decoded on a thread of their own, the
    /// movetext alone.
    reader: ParquetRecordBatchReader,
    /// The tag columns' batches, decoded on a pool thread ([`ParquetRows::open_split`]).
    tags: Option<Receiver<Result<RecordBatch, ArrowError>>>,
    schema: SchemaRef,
    layout: Arc<Layout>,
    /// Rows handed out so far.
    before: u64,
    rows: u64,
    /// A decoding error was handed out: no more batches.
    failed: bool,
}

impl std::fmt::Debug for ParquetRows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetRows")
            .field("rows", &self.rows)
            .field("before", &self.before)
            .finish_non_exhaustive()
    }
}

impl ParquetRows {
    /// Opens a Parquet file (a `File` or `Bytes`) to read `batch_rows` rows a batch (at
    /// least one).
    ///
    /// # Errors
    /// As [`ParquetPgn::new`](super::ParquetPgn::new).
    pub fn new<R: ChunkReader + 'static>(file: R, batch_rows: usize) -> io::Result<ParquetRows> {
        ParquetRows::build(file, |_| batch_rows)
    }

    /// Opens a Parquet file to read on `threads` workers: in batches of 64 to 1,024 rows,
    /// about four a worker, so that every worker has some of a small file.
    ///
    /// # Errors
    /// As [`ParquetPgn::new`](super::ParquetPgn::new).
    pub fn for_threads<R: ChunkReader + 'static>(
        file: R,
        threads: usize,
    ) -> io::Result<ParquetRows> {
        ParquetRows::build(file, |rows| batch_rows_for(rows, threads))
    }

    /// Opens `file`, reading batches of `batch_rows(rows in the file)` rows.
    fn build<R: ChunkReader + 'static>(
        file: R,
        batch_rows: impl FnOnce(u64) -> usize,
    ) -> io::Result<ParquetRows> {
        let (builder, layout) = open(file)?;
        let rows = u64::try_from(builder.metadata().file_metadata().num_rows()).unwrap_or(0);
        let schema = builder.schema().clone();
        let reader = builder
            .with_batch_size(batch_rows(rows).max(1))
            .build()
            .map_err(|e| invalid(format!("Parquet: {e}")))?;
        let layout = Arc::new(layout);
        Ok(ParquetRows { reader, tags: None, schema, layout, before: 0, rows, failed: false })
    }

    /// [`for_threads`](Self::for_threads), with the file's tag columns decoded on a thread of
    /// the pool ([`chessbits_pgn::spawn_pooled`]) while the movetext is decoded on the
    /// caller's: a file's first batch waits for its first pages of every column, which on a
    /// small file is most of the decoding, so the workers start sooner. `open` opens the file
    /// (twice: a handle each, since a `File`'s clones share one offset). With one thread,
    /// or no tag column, as [`for_threads`](Self::for_threads).
    ///
    /// # Errors
    /// As [`ParquetPgn::new`](super::ParquetPgn::new), or `open`'s.
    pub fn open_split<R, F>(mut open: F, threads: usize) -> io::Result<ParquetRows>
    where
        R: ChunkReader + 'static,
        F: FnMut() -> io::Result<R>,
    {
        let file = open()?;
        let (metadata, layout) = read_footer(&file)?;
        if threads <= 1 || layout.tags.is_empty() {
            return ParquetRows::for_threads(file, threads);
        }
        let rows = u64::try_from(metadata.metadata().file_metadata().num_rows()).unwrap_or(0);
        let batch_rows = batch_rows_for(rows, threads);
        let schema = metadata.schema().clone();
        let parquet_schema = metadata.parquet_schema().clone();
        let decoder = |file: R, columns: Vec<usize>| {
            ParquetRecordBatchReaderBuilder::new_with_metadata(file, metadata.clone())
                .with_projection(ProjectionMask::roots(&parquet_schema, columns))
                .with_batch_size(batch_rows)
                .build()
                .map_err(|e| invalid(format!("Parquet: {e}")))
        };
        let tag_columns = layout.tags.iter().map(|tag| tag.index).collect();
        let tag_reader = decoder(open()?, tag_columns)?;
        let reader = decoder(file, vec![layout.movetext])?;
        let (tx, rx) = sync_channel(4);
        let failed = tx.clone();
        let started = chessbits_pgn::spawn_pooled(move || {
            for batch in tag_reader {
                // The rows were dropped: stop.
                if tx.send(batch).is_err() {
                    return;
                }
            }
        });
        if started.is_err() {
            let _ = failed.send(Err(ArrowError::ComputeError(super::NO_THREAD.into())));
        }
        let layout = Arc::new(layout);
        Ok(ParquetRows { reader, tags: Some(rx), schema, layout, before: 0, rows, failed: false })
    }

    /// The next batch of every column: the movetext's, and the tag columns' from their
    /// thread, put back in the file's column order.
    fn next_batch(&mut self) -> Option<Result<RecordBatch, ArrowError>> {
        let movetext = self.reader.next()?;
        let Some(tags) = &self.tags else { return Some(movetext) };
        let merge = |movetext: RecordBatch| {
            let tags = tags.recv().map_err(|_| {
                ArrowError::ComputeError("the tag columns ended before the movetext".into())
            })??;
            if tags.num_rows() != movetext.num_rows() {
                return Err(ArrowError::ComputeError(format!(
                    "{} rows of tags beside {} of movetext",
                    tags.num_rows(),
                    movetext.num_rows()
                )));
            }
            let mut columns = Vec::with_capacity(self.schema.fields().len());
            let mut from_tags = tags.columns().iter();
            for index in 0..self.schema.fields().len() {
                let column = if index == self.layout.movetext {
                    movetext.column(0)
                } else {
                    from_tags
                        .next()
                        .ok_or_else(|| ArrowError::ComputeError("a tag column is missing".into()))?
                };
                columns.push(Arc::clone(column));
            }
            RecordBatch::try_new(self.schema.clone(), columns)
        };
        Some(movetext.and_then(merge))
    }

    /// The rows (games) the file holds, by its footer.
    pub fn rows(&self) -> u64 {
        self.rows
    }
}

impl Iterator for ParquetRows {
    type Item = io::Result<RowBatch>;

    /// The next batch of rows, or the error that stops the file's decoding (then no more).
    fn next(&mut self) -> Option<io::Result<RowBatch>> {
        if self.failed {
            return None;
        }
        match self.next_batch()? {
            Ok(batch) => {
                let before = self.before;
                self.before += batch.num_rows() as u64;
                Some(Ok(RowBatch { batch, layout: Arc::clone(&self.layout), before }))
            }
            Err(e) => {
                self.failed = true;
                let row = self.before + 1;
                Some(Err(io::Error::other(format!("Parquet, from row {row}: {e}"))))
            }
        }
    }
}

/// A batch's tag columns read as tag text, column by column ([`RowBatch::tag_columns`]).
struct TagTable<'a> {
    batch: &'a RowBatch,
    rows: usize,
    /// One value's text.
    scratch: String,
    /// Per tag column and row: a typed value (a date, a rating) that did not parse, and so
    /// joins the map as its text.
    unparsed: Vec<bool>,
}

impl TagTable<'_> {
    /// Puts the text of tag column `at` in `row` into `scratch`, as the PGN holds it (line
    /// breaks as spaces); `false` for a null.
    fn text(&mut self, at: usize, row: usize) -> bool {
        let tag = &self.batch.layout.tags[at];
        self.scratch.clear();
        let column = self.batch.batch.column(tag.index).as_ref();
        if !write_value(column, row, tag.signed, &mut self.scratch) {
            return false;
        }
        if self.scratch.contains(['\n', '\r']) {
            self.scratch = self.scratch.replace(['\n', '\r'], " ");
        }
        true
    }

    /// `UTCDate` from tag column `column`: a `date32` taken as it is in years 1 to 9999 (the
    /// dates `YYYY.MM.DD` writes and [`parse_date`] reads back), other types parsed from
    /// their text.
    fn dates(&mut self, column: Option<usize>) -> ArrayRef {
        let mut dates = Date32Builder::with_capacity(self.rows);
        for row in 0..self.rows {
            let date = column.and_then(|at| {
                let array = self.batch.batch.column(self.batch.layout.tags[at].index);
                let date = match array.as_primitive_opt::<Date32Type>() {
                    Some(days) if days.is_valid(row) => {
                        Some(days.value(row)).filter(|day| (FIRST_DAY..=LAST_DAY).contains(day))
                    }
                    Some(_) => return None,
                    None if self.text(at, row) => parse_date(self.scratch.as_bytes()),
                    None => return None,
                };
                self.unparsed[at * self.rows + row] = date.is_none();
                date
            });
            dates.append_option(date);
        }
        Arc::new(dates.finish())
    }

    /// `WhiteElo` or `BlackElo` from tag column `column`, parsed from its text as an `i32`.
    fn ratings(&mut self, column: Option<usize>) -> ArrayRef {
        let mut ratings = Int32Builder::with_capacity(self.rows);
        for row in 0..self.rows {
            let rating = column.filter(|&at| self.text(at, row)).and_then(|at| {
                let rating = crate::parse_rating(&self.scratch);
                self.unparsed[at * self.rows + row] = rating.is_none();
                rating
            });
            ratings.append_option(rating);
        }
        Arc::new(ratings.finish())
    }

    /// A typed text column from tag column `column` (the file's own array when it is plain
    /// `Utf8`), falling back on `results` where given (`Result`).
    fn texts(&mut self, column: Option<usize>, results: Option<&[Option<GameResult>]>) -> ArrayRef {
        if let Some(at) = column {
            let array = self.batch.batch.column(self.batch.layout.tags[at].index);
            if plain_strings(array.as_ref()) && (results.is_none() || array.null_count() == 0) {
                return Arc::clone(array);
            }
        }
        let mut texts = StringBuilder::with_capacity(self.rows, 16 * self.rows);
        for row in 0..self.rows {
            if column.is_some_and(|at| self.text(at, row)) {
                texts.append_value(&self.scratch);
            } else {
                let result = results.and_then(|results| results.get(row).copied().flatten());
                texts.append_option(result.map(|r| r.as_str()));
            }
        }
        Arc::new(texts.finish())
    }

    /// The `tags` map: in column order, every tag column without a typed slot, and the typed
    /// values that did not parse.
    fn map(&mut self, slot_of: &[Option<usize>]) -> Result<ArrayRef, ArrowError> {
        let names =
            MapFieldNames { entry: "entries".into(), key: "keys".into(), value: "values".into() };
        let mut map = MapBuilder::new(Some(names), StringBuilder::new(), StringBuilder::new());
        for row in 0..self.rows {
            for (at, tag) in self.batch.layout.tags.iter().enumerate() {
                if slot_of[at].is_some() && !self.unparsed[at * self.rows + row] {
                    continue;
                }
                if self.text(at, row) {
                    map.keys().append_value(&tag.name);
                    map.values().append_value(&self.scratch);
                }
            }
            map.append(true)?;
        }
        Ok(Arc::new(map.finish()))
    }
}

/// Rows of a lichess Parquet file, decoded, to read on any thread ([`ParquetRows`]).
pub struct RowBatch {
    batch: RecordBatch,
    layout: Arc<Layout>,
    /// The rows of the file before these.
    before: u64,
}

impl std::fmt::Debug for RowBatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowBatch")
            .field("rows", &self.batch.num_rows())
            .field("before", &self.before)
            .finish_non_exhaustive()
    }
}

impl RowBatch {
    /// The rows of the batch.
    pub fn len(&self) -> usize {
        self.batch.num_rows()
    }

    /// Whether the batch has no rows.
    pub fn is_empty(&self) -> bool {
        self.batch.num_rows() == 0
    }

    /// The rows of the file before this batch's first.
    pub fn before(&self) -> u64 {
        self.before
    }

    /// The typed tag columns of the [`schema`](crate::schema) (`Event` to `Termination`, in
    /// order) and its `tags` map, for these rows, made from the file's columns as
    /// [`BatchBuilder`](crate::BatchBuilder) makes them from a game's tags: for a caller that
    /// reads only the moves ([`read_moves_into`](Self::read_moves_into)). `results` holds each
    /// row's result marker (the movetext's, `None` for a row that did not read), which
    /// `Result` falls back on. A string column with no line break is handed on as it is, not
    /// copied.
    ///
    /// # Errors
    /// [`ArrowError`] if `results` is not one a row (a bug).
    pub fn tag_columns(&self, results: &[Option<GameResult>]) -> Result<Vec<ArrayRef>, ArrowError> {
        let rows = self.batch.num_rows();
        if results.len() != rows {
            return Err(ArrowError::InvalidArgumentError(format!(
                "{} results for {rows} rows",
                results.len()
            )));
        }
        // Each tag column's typed slot: the first column of each typed name; the rest go to
        // the map.
        let mut slot_of: Vec<Option<usize>> = vec![None; self.layout.tags.len()];
        let mut column_of: [Option<usize>; TYPED] = [None; TYPED];
        for (at, tag) in self.layout.tags.iter().enumerate() {
            if let Some(slot) = TYPED_TAGS.iter().position(|name| *name == tag.name) {
                if column_of[slot].is_none() {
                    column_of[slot] = Some(at);
                    slot_of[at] = Some(slot);
                }
            }
        }
        let mut table = TagTable {
            batch: self,
            rows,
            scratch: String::new(),
            unparsed: vec![false; self.layout.tags.len() * rows],
        };
        let mut out: Vec<ArrayRef> = Vec::with_capacity(TYPED + 1);
        for (slot, column) in column_of.iter().enumerate() {
            out.push(match slot {
                UTC_DATE => table.dates(*column),
                WHITE_ELO | BLACK_ELO => table.ratings(*column),
                _ => table.texts(*column, (slot == RESULT).then_some(results)),
            });
        }
        out.push(table.map(&slot_of)?);
        Ok(out)
    }

    /// Reads every row into `rows` as a game, numbered by its row in the file (from 1):
    /// [`GameRows::game`] for a game that read, [`GameRows::failed_movetext`] for one that
    /// did not (with all its tags, even after a `FEN` tag that was refused). `reader` and
    /// `builder` are reused from call to call.
    ///
    /// # Errors
    /// The first error [`GameRows::game`] returns; reading stops there.
    pub fn read_into<R: GameRows>(
        &self,
        reader: &mut MovetextReader,
        builder: &mut GameBuilder,
        rows: &mut R,
    ) -> Result<(), ExportError> {
        self.read(reader, builder, rows, false)
    }

    /// [`read_into`](Self::read_into), handing the builder only the tags that the reading
    /// of the moves needs (`FEN`, `Variant`): for a caller that takes the others from the
    /// columns ([`tag_columns`](Self::tag_columns)).
    ///
    /// # Errors
    /// As [`read_into`](Self::read_into).
    pub fn read_moves_into<R: GameRows>(
        &self,
        reader: &mut MovetextReader,
        builder: &mut GameBuilder,
        rows: &mut R,
    ) -> Result<(), ExportError> {
        self.read(reader, builder, rows, true)
    }

    /// The rows as games, one a call, into any visitor ([`RowGames`]): what
    /// [`read_into`](Self::read_into) reads into a [`GameBuilder`], for a caller with a
    /// visitor of its own (a replay, a tree of variations, an index's preparation).
    /// `reader` is reused from batch to batch.
    ///
    /// ```
    /// use std::sync::Arc;
    ///
    /// use arrow_array::{ArrayRef, RecordBatch, StringArray};
    /// use chessbits_arrow::lichess::ParquetRows;
    /// use chessbits_pgn::{GameSource, MovetextReader, Replay};
    /// use parquet::arrow::ArrowWriter;
    ///
    /// let movetext = StringArray::from(vec!["1. e4 e5 *", "1. d4 Kd7 *"]);
    /// let batch = RecordBatch::try_from_iter([("movetext", Arc::new(movetext) as ArrayRef)])?;
    /// let mut file = Vec::new();
    /// let mut writer = ArrowWriter::try_new(&mut file, batch.schema(), None)?;
    /// writer.write(&batch)?;
    /// writer.close()?;
    ///
    /// let mut reader = MovetextReader::new();
    /// for rows in ParquetRows::new(bytes::Bytes::from(file), 1024)? {
    ///     let rows = rows?;
    ///     let mut games = rows.games(&mut reader);
    ///     let first = games.next_game(&mut Replay::default()).unwrap()?;
    ///     assert_eq!(first.game.moves().len(), 2);
    ///     let second = games.next_game(&mut Replay::default()).unwrap().unwrap_err();
    ///     assert_eq!(games.place(&second).to_string(), "movetext byte 6");
    ///     assert!(games.next_game(&mut Replay::default()).is_none());
    /// }
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn games<'a>(&'a self, reader: &'a mut MovetextReader) -> RowGames<'a> {
        RowGames::new(self, reader, false)
    }

    fn read<R: GameRows>(
        &self,
        reader: &mut MovetextReader,
        builder: &mut GameBuilder,
        rows: &mut R,
        start_only: bool,
    ) -> Result<(), ExportError> {
        let mut games = RowGames::new(self, reader, start_only);
        while let Some(read) = games.next_game(builder) {
            let number = self.before + games.games_read();
            match read {
                Ok(mut game) => {
                    game.number = number;
                    let pushed = rows.game(&game);
                    builder.recycle(game);
                    pushed?;
                }
                Err(e) => rows.failed_movetext(number, &e, builder.failed_tags()),
            }
        }
        Ok(())
    }

    /// The movetext of `row` on one line, as the PGN writes it (a `;` comment ends with the
    /// row): from the column's bytes, or written into `value` (a type other than `Utf8`), or
    /// copied into `line` with its line breaks as spaces.
    fn movetext<'b>(
        &'b self,
        row: usize,
        value: &'b mut String,
        line: &'b mut Vec<u8>,
    ) -> &'b [u8] {
        let movetext = self.batch.column(self.layout.movetext).as_ref();
        let moves = match movetext.as_string_opt::<i32>() {
            Some(strings) if strings.is_null(row) => &b""[..],
            Some(strings) => strings.value(row).as_bytes(),
            None => {
                value.clear();
                write_value(movetext, row, false, value);
                value.as_bytes()
            }
        };
        // The whole movetext is looked at: with memchr's wide compares, not byte by byte.
        if memchr::memchr2(b'\n', b'\r', moves).is_some() {
            line.clear();
            push_one_line(line, moves);
            &line[..]
        } else {
            moves
        }
    }
}

/// The rows of a [`RowBatch`] as games, one a call, into any visitor
/// ([`RowBatch::games`]): a row's tags are handed to the visitor from their columns (with
/// [`Visitor::tag`], escaped as the PGN holds them), then its movetext is read as PGN
/// ([`MovetextReader`]). As a [`GameSource`], its games are counted from the batch's first
/// row ([`RowBatch::before`] gives the rows ahead of it in the file), and a broken row's
/// [`place`](GameSource::place) is the byte of its movetext.
pub struct RowGames<'a> {
    batch: &'a RowBatch,
    reader: &'a mut MovetextReader,
    tags: Vec<RowTag<'a>>,
    /// The next row to read.
    row: usize,
    /// A movetext written as text, or copied onto one line ([`RowBatch::movetext`]).
    value: String,
    line: Vec<u8>,
    /// A tag value's text and escaped form ([`hand_tags`]).
    buffers: (String, Vec<u8>),
}

impl std::fmt::Debug for RowGames<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowGames")
            .field("batch", self.batch)
            .field("row", &self.row)
            .finish_non_exhaustive()
    }
}

impl<'a> RowGames<'a> {
    /// Every tag column handed on, or (`start_only`) only those the reading of the moves
    /// needs ([`START_TAGS`]).
    fn new(batch: &'a RowBatch, reader: &'a mut MovetextReader, start_only: bool) -> Self {
        let columns = batch.batch.columns();
        // String columns (most tags, and the movetext) are read from their bytes, with no
        // per-value dispatch; other types are written as text first.
        let tags = batch
            .layout
            .tags
            .iter()
            .filter(|tag| !start_only || START_TAGS.contains(&tag.name.as_str()))
            .map(|tag| {
                let column = columns[tag.index].as_ref();
                RowTag { tag, column, strings: column.as_string_opt::<i32>() }
            })
            .collect();
        RowGames {
            batch,
            reader,
            tags,
            row: 0,
            value: String::new(),
            line: Vec::new(),
            buffers: (String::new(), Vec::new()),
        }
    }
}

impl GameSource for RowGames<'_> {
    fn next_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Option<Result<V::Output, PgnError<V::Error>>> {
        let row = self.row;
        if row >= self.batch.len() {
            return None;
        }
        self.row += 1;
        let RowGames { batch, reader, tags, value, line, buffers, .. } = self;
        let moves = batch.movetext(row, value, line);
        Some(reader.read_game(moves, visitor, |v| hand_tags(v, row, tags, buffers)))
    }

    fn games_read(&self) -> u64 {
        self.row as u64
    }

    fn place<E>(&self, error: &PgnError<E>) -> ErrorPlace {
        ErrorPlace::Movetext { byte: error.offset }
    }
}

/// A tag column as [`RowBatch::read_into`] hands it on: its array, and the array as strings
/// when it is `Utf8`.
struct RowTag<'a> {
    tag: &'a TagColumn,
    column: &'a dyn Array,
    strings: Option<&'a StringArray>,
}

/// Hands `visitor` the tags of `row`, each as the PGN holds it (escaped: a builder unescapes
/// it), every one even after one is refused (a bad FEN), so that a row that did not read keeps
/// all its columns. Returns the first refusal. `buffers` are a value's text and escaped form.
fn hand_tags<V: Visitor>(
    visitor: &mut V,
    row: usize,
    tags: &[RowTag<'_>],
    (text, escaped): &mut (String, Vec<u8>),
) -> Result<(), V::Error> {
    let mut refused = Ok(());
    for RowTag { tag, column, strings } in tags {
        let value = match strings {
            Some(strings) if strings.is_null(row) => continue,
            Some(strings) => strings.value(row).as_bytes(),
            None => {
                text.clear();
                if !write_value(*column, row, tag.signed, text) {
                    continue;
                }
                text.as_bytes()
            }
        };
        let raw = if value.iter().any(|&c| matches!(c, b'"' | b'\\' | b'\n' | b'\r')) {
            escaped.clear();
            push_tag_value(escaped, value);
            RawTag(&escaped[..])
        } else {
            RawTag(value)
        };
        let taken = visitor.tag(tag.name.as_bytes(), raw);
        if refused.is_ok() {
            refused = taken;
        }
    }
    refused
}

#[cfg(test)]
mod tests {
    use std::io::BufReader;

    use arrow_array::types::Int32Type;
    use arrow_array::{ArrayRef, Date32Array, DictionaryArray, Int64Array, Time64MicrosecondArray};
    use chessbits_cbg::GameRecord;
    use chessbits_pgn::{PgnError, PgnGame, PgnReader, ReplayError, TreeBuilder};

    use super::*;
    use crate::games::read_games_into;
    use crate::lichess::ParquetPgn;

    /// What a reader made of each game: the record's fields, or the error's kind and tags.
    #[derive(Default)]
    struct Seen(Vec<String>);

    impl GameRows for Seen {
        fn game(&mut self, game: &GameRecord) -> Result<(), ExportError> {
            self.0.push(format!(
                "{} {:?} {:?} {:?} {:?} {:?} {:?}",
                game.number,
                game.tags,
                game.start,
                game.moves,
                game.clocks,
                game.evals,
                game.result
            ));
            Ok(())
        }

        fn failed(&mut self, number: u64, e: &PgnError<ReplayError>, tags: &[(Vec<u8>, Vec<u8>)]) {
            self.0.push(format!("{number} failed: {} {tags:?}", e.kind));
        }
    }

    fn parquet(columns: Vec<(&str, ArrayRef)>) -> bytes::Bytes {
        let batch = RecordBatch::try_from_iter(columns).unwrap();
        let mut file = Vec::new();
        let mut writer =
            parquet::arrow::ArrowWriter::try_new(&mut file, batch.schema(), None).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
        bytes::Bytes::from(file)
    }

    /// Every row read as a row gives the game (or the error) that the file's PGN gives, for
    /// every batch size: tags of every type, escapes, start positions, Chess960, broken
    /// movetext, and no movetext at all.
    #[test]
    fn rows_read_as_the_files_pgn_reads() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        type Row = (
            Option<&'static str>,
            Option<&'static str>,
            Option<&'static str>,
            Option<&'static str>,
        );
        let rows: Vec<Row> = vec![
            // (White, FEN, Variant, movetext)
            (Some("Anna"), None, None, Some("1. e4 { [%clk 0:03:00] } e5 2. Nf3 1-0")),
            (Some("say \"hi\" \\ back"), None, None, Some("1. d4 d5 (1... Nf6) 2. c4 *")),
            (Some("two\nlines"), Some(fen), None, Some("1. O-O O-O-O 1/2-1/2")),
            (Some("960"), Some(fen), Some("Chess960"), Some("1. O-O-O *")),
            (None, None, None, Some("1. e4 e5 2. Ke3 *")),
            (Some("empty"), None, None, Some("")),
            (Some("null"), None, None, None),
            (Some("lines"), None, None, Some("1. e4\ne5 ; to the end of the line\n2. Nf3 *")),
            (Some("bad fen"), Some("8/8/8"), None, Some("1. e4 *")),
            (Some("house"), None, Some("Crazyhouse"), Some("1. e4 *")),
            (Some("no result"), None, None, Some("1. e4 e5 2. Nf3")),
        ];
        let n = rows.len();
        let column = |pick: fn(&Row) -> Option<&'static str>| {
            Arc::new(StringArray::from(rows.iter().map(pick).collect::<Vec<_>>())) as ArrayRef
        };
        let elo: Vec<Option<i64>> =
            (0..n).map(|i| (i % 3 != 0).then_some(1500 + i as i64)).collect();
        let diff: Vec<Option<i64>> = (0..n).map(|i| Some(i as i64 - 5)).collect();
        let site: DictionaryArray<Int32Type> =
            (0..n).map(|i| if i % 2 == 0 { "lichess" } else { "otb" }).collect();
        let file = parquet(vec![
            ("Event", Arc::new(StringArray::from(vec!["Rated"; n])) as ArrayRef),
            ("Site", Arc::new(site) as ArrayRef),
            ("White", column(|r| r.0)),
            ("WhiteElo", Arc::new(Int64Array::from(elo)) as ArrayRef),
            ("WhiteRatingDiff", Arc::new(Int64Array::from(diff)) as ArrayRef),
            ("UTCDate", Arc::new(Date32Array::from(vec![20_000; n])) as ArrayRef),
            ("UTCTime", Arc::new(Time64MicrosecondArray::from(vec![3_723_000_000; n])) as ArrayRef),
            ("FEN", column(|r| r.1)),
            ("Variant", column(|r| r.2)),
            ("movetext", column(|r| r.3)),
        ]);
        let mut expected = Seen::default();
        let pgn = BufReader::new(ParquetPgn::new(file.clone()).unwrap());
        read_games_into(&mut PgnReader::new(pgn), &mut expected).unwrap();
        assert_eq!(expected.0.len(), n);
        for batch_rows in [1, 4, 1024] {
            let mut seen = Seen::default();
            let (mut reader, mut builder) = (MovetextReader::new(), GameBuilder::default());
            for rows in ParquetRows::new(file.clone(), batch_rows).unwrap() {
                rows.unwrap().read_into(&mut reader, &mut builder, &mut seen).unwrap();
            }
            for (got, want) in seen.0.iter().zip(&expected.0) {
                assert_eq!(got, want, "{batch_rows} rows a batch");
            }
            assert_eq!(seen.0.len(), n);
        }
        // Any visitor (`RowBatch::games`): the game trees, every tag, comment and variation
        // kept, are the PGN's, and the rows are numbered from each batch's start.
        fn show<E: std::fmt::Display>(game: Result<PgnGame, PgnError<E>>) -> String {
            game.map_or_else(|e| e.kind.to_string(), |game| game.to_string())
        }
        let mut pgn = PgnReader::new(BufReader::new(ParquetPgn::new(file.clone()).unwrap()));
        let mut want = Vec::new();
        while let Some(game) = pgn.next_game(&mut TreeBuilder::default()) {
            want.push(show(game));
        }
        let (mut reader, mut got, mut numbers) = (MovetextReader::new(), Vec::new(), Vec::new());
        for rows in ParquetRows::new(file.clone(), 4).unwrap() {
            let rows = rows.unwrap();
            let mut games = rows.games(&mut reader);
            while let Some(game) = games.next_game(&mut TreeBuilder::default()) {
                numbers.push(rows.before() + games.games_read());
                if let Err(e) = &game {
                    assert_eq!(games.place(e), ErrorPlace::Movetext { byte: e.offset });
                }
                got.push(show(game));
            }
        }
        assert_eq!(got, want);
        assert_eq!(numbers, (1..=n as u64).collect::<Vec<_>>());
        assert!(want.iter().any(|game| game.contains("(1... Nf6)")), "{want:?}");
    }

    /// Rows of a batch pushed as games into a [`BatchBuilder`](crate::BatchBuilder), with
    /// their result markers.
    struct Batch {
        builder: crate::BatchBuilder,
        results: Vec<Option<GameResult>>,
    }

    impl GameRows for Batch {
        fn game(&mut self, game: &GameRecord) -> Result<(), ExportError> {
            self.builder.push_uncoded(game)?;
            self.results.push(game.result);
            Ok(())
        }

        fn failed(&mut self, number: u64, e: &PgnError<ReplayError>, tags: &[(Vec<u8>, Vec<u8>)]) {
            self.builder.push_failed(number, &e.to_string(), tags).unwrap();
            self.results.push(None);
        }
    }

    /// The tag columns made from the file's columns are those the batch builder makes from
    /// each game's tags, byte for byte: typed text (escapes, line breaks, dictionaries,
    /// numbers), dates and ratings that parse or go to the map (out of range), `Result` from
    /// the column or the movetext, rows that did not read. A plain string column is handed
    /// on without a copy.
    #[test]
    fn tag_columns_are_the_batch_builders() {
        let n = 9;
        let pick = |values: [Option<&'static str>; 9]| {
            Arc::new(StringArray::from(values.to_vec())) as ArrayRef
        };
        let site: DictionaryArray<Int32Type> =
            (0..n).map(|i| if i % 2 == 0 { "lichess" } else { "otb" }).collect();
        let elo = vec![
            Some(1500),
            None,
            Some(i64::from(i32::MAX) + 1),
            Some(-3),
            Some(0),
            Some(2800),
            Some(1),
            Some(2),
            Some(3),
        ];
        let days = vec![
            Some(20_000),
            None,
            Some(-800_000),
            Some(3_000_000),
            Some(0),
            Some(-719_162),
            Some(2_932_896),
            Some(1),
            Some(2),
        ];
        let file = parquet(vec![
            (
                "Event",
                pick([
                    Some("Rated"),
                    Some("a \"b\" \\ c"),
                    None,
                    Some("x"),
                    Some("y"),
                    Some("z"),
                    Some("w"),
                    Some("v"),
                    Some("u"),
                ]),
            ),
            ("Site", Arc::new(site) as ArrayRef),
            (
                "White",
                pick([
                    Some("two\nlines"),
                    Some("b"),
                    Some("c"),
                    None,
                    Some("e"),
                    Some("f"),
                    Some("g"),
                    Some("h"),
                    Some("i"),
                ]),
            ),
            (
                "Result",
                pick([Some("1-0"), None, None, Some("0-1"), None, Some("*"), None, None, None]),
            ),
            ("WhiteElo", Arc::new(Int64Array::from(elo)) as ArrayRef),
            (
                "BlackElo",
                pick([
                    Some("1600"),
                    Some("n/a"),
                    None,
                    Some("+7"),
                    Some(" 5"),
                    None,
                    None,
                    None,
                    None,
                ]),
            ),
            ("UTCDate", Arc::new(Date32Array::from(days)) as ArrayRef),
            ("WhiteRatingDiff", Arc::new(Int64Array::from(vec![Some(5); 9])) as ArrayRef),
            ("FEN", pick([None, None, None, Some("8/8/8"), None, None, None, None, None])),
            ("Opening", pick([Some("Sicilian"); 9])),
            (
                "movetext",
                pick([
                    Some("1. e4 e5 1-0"),
                    Some("1. e4 e5 2. Ke3 *"),
                    Some("1. d4 d5"),
                    Some("1. e4 *"),
                    Some("1. e4 { open"),
                    Some("1. c4 0-1"),
                    Some(""),
                    None,
                    Some("1. Nf3 1/2-1/2"),
                ]),
            ),
        ]);
        for batch_rows in [2, 1024] {
            for rows in ParquetRows::new(file.clone(), batch_rows).unwrap() {
                let rows = rows.unwrap();
                let (mut reader, mut builder) = (MovetextReader::new(), GameBuilder::default());
                let options = crate::ExportOptions::default();
                let mut whole =
                    Batch { builder: crate::BatchBuilder::new(&options), results: Vec::new() };
                rows.read_into(&mut reader, &mut builder, &mut whole).unwrap();
                let expected = whole.builder.finish().unwrap();
                let mut bare =
                    Batch { builder: crate::BatchBuilder::new(&options), results: Vec::new() };
                rows.read_moves_into(&mut reader, &mut builder, &mut bare).unwrap();
                let base = bare.builder.finish().unwrap();
                let mut columns = base.columns().to_vec();
                let tags = rows.tag_columns(&bare.results).unwrap();
                for (name, column) in TYPED_TAGS.iter().copied().chain(["tags"]).zip(tags) {
                    columns[base.schema().index_of(name).unwrap()] = column;
                }
                let got = RecordBatch::try_new(base.schema(), columns).unwrap();
                for (i, field) in expected.schema().fields().iter().enumerate() {
                    assert_eq!(
                        got.column(i),
                        expected.column(i),
                        "{} ({batch_rows} rows)",
                        field.name()
                    );
                }
                // `Opening` has no line break: the file's own column.
                let opening = got.column(base.schema().index_of("Opening").unwrap());
                assert_eq!(
                    opening.to_data().buffers()[1].as_ptr(),
                    rows.batch.column(9).to_data().buffers()[1].as_ptr()
                );
            }
        }
    }

    /// Decoding the tag columns on a thread of their own gives the same batches, columns in
    /// the file's order (the movetext between tags here), across many batches.
    #[test]
    fn split_decoding_gives_the_same_batches() {
        let n = 5000;
        let file = parquet(vec![
            (
                "White",
                Arc::new(StringArray::from((0..n).map(|i| format!("p{i}")).collect::<Vec<_>>()))
                    as ArrayRef,
            ),
            (
                "movetext",
                Arc::new(StringArray::from(
                    (0..n).map(|i| format!("1. e4 {{ {i} }} *")).collect::<Vec<_>>(),
                )) as ArrayRef,
            ),
            ("WhiteElo", Arc::new(Int64Array::from((0..n as i64).collect::<Vec<_>>())) as ArrayRef),
        ]);
        for threads in [1, 2, 8] {
            let whole: Vec<RowBatch> = ParquetRows::for_threads(file.clone(), threads)
                .unwrap()
                .map(Result::unwrap)
                .collect();
            let split: Vec<RowBatch> = ParquetRows::open_split(|| Ok(file.clone()), threads)
                .unwrap()
                .map(Result::unwrap)
                .collect();
            assert!(whole.len() > 4, "{threads}: {} batches", whole.len());
            assert_eq!(whole.len(), split.len());
            for (a, b) in whole.iter().zip(&split) {
                assert_eq!((a.before, &a.batch), (b.before, &b.batch), "{threads} threads");
            }
        }
        // A file that cannot be opened the second time: the error, not a hang.
        let mut opened = 0;
        let second = ParquetRows::open_split(
            || {
                opened += 1;
                if opened > 1 {
                    Err(io::Error::other("gone"))
                } else {
                    Ok(file.clone())
                }
            },
            2,
        );
        assert_eq!(second.unwrap_err().to_string(), "gone");
    }

    /// Where the PGN would not hold one game a row, each row is still one game: a second game
    /// in a movetext, or a comment never closed, is that row's error, and the next row reads.
    #[test]
    fn each_row_is_one_game() {
        let file = parquet(vec![(
            "movetext",
            Arc::new(StringArray::from(vec!["1. e4 1-0 1. d4 *", "1. e4 { open", "1. c4 *"]))
                as ArrayRef,
        )]);
        let mut seen = Seen::default();
        let (mut reader, mut builder) = (MovetextReader::new(), GameBuilder::default());
        let mut rows = ParquetRows::for_threads(file, 2).unwrap();
        assert_eq!(rows.rows(), 3);
        rows.next().unwrap().unwrap().read_into(&mut reader, &mut builder, &mut seen).unwrap();
        assert!(rows.next().is_none());
        assert!(seen.0[0].starts_with("1 failed: unexpected character"), "{}", seen.0[0]);
        assert!(seen.0[1].starts_with("2 failed: comment not closed"), "{}", seen.0[1]);
        assert!(seen.0[2].starts_with("3 [] "), "{}", seen.0[2]);
    }
}
