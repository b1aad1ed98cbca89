//! lichess's Parquet games read as PGN: one row a game, the tags as columns (any names, in
//! the file's column order) and the moves as PGN movetext in a `movetext` column, as lichess
//! publishes its database on Hugging Face. [`ParquetPgn`] turns the rows back into the PGN
//! text they came from, a batch of rows at a time, so every reader of PGN (the serial reader,
//! the parallel pipeline, `export`, `index build`) takes such a file unchanged and validates
//! every move as it would the PGN: the same games, the same table. [`ParquetRows`] reads the
//! rows as they are, the tags from their columns and only the movetext as PGN, each batch of
//! rows on any thread (Python's `read_games`; [module docs](rows)).
//!
//! ```
//! use std::io::Read;
//! use std::sync::Arc;
//!
//! use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
//! use chessbits_arrow::lichess::ParquetPgn;
//! use parquet::arrow::ArrowWriter;
//!
//! let batch = RecordBatch::try_from_iter([
//!     ("White", Arc::new(StringArray::from(vec!["Anna"])) as ArrayRef),
//!     ("WhiteElo", Arc::new(Int64Array::from(vec![1500])) as ArrayRef),
//!     ("movetext", Arc::new(StringArray::from(vec!["1. e4 e5 1-0"])) as ArrayRef),
//! ])?;
//! let mut file = Vec::new();
//! let mut writer = ArrowWriter::try_new(&mut file, batch.schema(), None)?;
//! writer.write(&batch)?;
//! writer.close()?;
//!
//! let mut pgn = String::new();
//! ParquetPgn::new(bytes::Bytes::from(file))?.read_to_string(&mut pgn)?;
//! assert_eq!(pgn, "[White \"Anna\"]\n[WhiteElo \"1500\"]\n\n1. e4 e5 1-0\n\n");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! Values become tag text as lichess's PGN writes them: strings as they are (a `"` or `\`
//! escaped, a line break as a space), integers in decimal, a `*RatingDiff` with its sign
//! (`+5`, `+0`, `-3`), whole floats as integers, `date32`/`date64` as `YYYY.MM.DD`, `time32`/`time64` as
//! `HH:MM:SS`, dictionary-encoded strings as their values. A null leaves the tag out. The
//! movetext's line breaks become spaces, so a row is always one game.

use std::fmt::Write as _;
use std::io::{self, Read};

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Date64Type, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type,
    Time32MillisecondType, Time32SecondType, Time64MicrosecondType, Time64NanosecondType,
    UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, RecordBatch, StringArray};
use arrow_schema::{DataType, TimeUnit};
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReader,
    ParquetRecordBatchReaderBuilder,
};
use parquet::file::reader::ChunkReader;

pub mod rows;

pub use rows::{ParquetRows, RowBatch, RowGames};

/// The first four bytes of a Parquet file.
pub const PARQUET_MAGIC: &[u8; 4] = b"PAR1";

/// The column that holds the PGN movetext.
pub const MOVETEXT: &str = "movetext";

/// Rows decoded from the file at a time: 128 games, some tens of kilobytes of PGN. Arrays of
/// this size are reused by the allocator from batch to batch, where 1,024 rows' were fresh
/// memory each time: reading a 2.3 and a 2.9 MB file into PGN text took 1.1 and 0.9 ms less
/// (best of 30, `ParquetPgn` read to its end), the 1 MB one the same.
const BATCH_ROWS: usize = 128;

/// PGN text rendered at a time: rows are written out of the current batch until this much is
/// waiting. A whole batch rendered at once took a fresh buffer of megabytes a file, and its
/// pages' first touch (the kernel zeroing them) cost as much as the rendering; a buffer this
/// size is reused and stays in cache.
const TEXT_BYTES: usize = 64 << 10;

/// The games of a lichess Parquet file as PGN text ([module docs](self)).
pub struct ParquetPgn {
    reader: ParquetRecordBatchReader,
    /// The tag columns, in column order.
    tags: Vec<TagColumn>,
    movetext: usize,
    /// The batch being rendered, and its next row.
    batch: Option<RecordBatch>,
    row: usize,
    /// PGN of the rows rendered, and how much of it was handed out.
    text: Vec<u8>,
    at: usize,
    /// One value's text, kept between values to reuse its memory.
    value: String,
}

impl std::fmt::Debug for ParquetPgn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tags: Vec<&str> = self.tags.iter().map(|tag| tag.name.as_str()).collect();
        f.debug_struct("ParquetPgn").field("tags", &tags).finish_non_exhaustive()
    }
}

/// A column read as a tag.
#[derive(Debug)]
struct TagColumn {
    name: String,
    /// `[Name "`: what a tag line of it starts with.
    opening: Vec<u8>,
    index: usize,
    /// Whether its numbers are written with a sign (a `*RatingDiff`).
    signed: bool,
}

/// Why a Parquet file cannot be read as games.
fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// Which columns of a lichess Parquet file are tags, and which is the movetext.
#[derive(Debug)]
struct Layout {
    /// The tag columns, in column order.
    tags: Vec<TagColumn>,
    movetext: usize,
}

/// Opens a Parquet file of games and finds its [`Layout`].
fn open<R: ChunkReader + 'static>(
    file: R,
) -> io::Result<(ParquetRecordBatchReaderBuilder<R>, Layout)> {
    let (metadata, layout) = read_footer(&file)?;
    Ok((ParquetRecordBatchReaderBuilder::new_with_metadata(file, metadata), layout))
}

/// Reads a Parquet file's footer and finds its [`Layout`].
fn read_footer<R: ChunkReader + 'static>(file: &R) -> io::Result<(ArrowReaderMetadata, Layout)> {
    let metadata = ArrowReaderMetadata::load(file, ArrowReaderOptions::default())
        .map_err(|e| invalid(format!("not a Parquet file of games: {e}")))?;
    let schema = metadata.schema().clone();
    let mut tags = Vec::new();
    let mut movetext = None;
    let mut refused = None;
    for (index, field) in schema.fields().iter().enumerate() {
        if field.name() == MOVETEXT {
            if !is_text(field.data_type()) {
                return Err(invalid(format!(
                    "column {MOVETEXT}: {} is not a string type",
                    field.data_type()
                )));
            }
            movetext = Some(index);
        } else if has_tag_text(field.data_type()) {
            let name = field.name();
            tags.push(TagColumn {
                name: name.clone(),
                opening: format!("[{name} \"").into_bytes(),
                index,
                signed: name.ends_with("RatingDiff"),
            });
        } else if refused.is_none() {
            refused =
                Some(format!("column {}: a {} has no tag text", field.name(), field.data_type()));
        }
    }
    // No movetext first: a file of other rows (`chessbits export`'s, whose `tags` map has no
    // tag text) is told as such, not by its first column that is no tag.
    let movetext = movetext.ok_or_else(|| {
        let export = schema.fields().iter().any(|f| f.name() == "moves")
            && schema.fields().iter().any(|f| f.name() == "tags");
        let hint = if export {
            " (it looks like a `chessbits export` file, whose moves are coded: read it with \
             pyarrow, DuckDB or `chessbits query`, or export from the PGN)"
        } else {
            ""
        };
        invalid(format!("no {MOVETEXT} column: not a Parquet file of lichess games{hint}"))
    })?;
    if let Some(refused) = refused {
        return Err(invalid(refused));
    }
    Ok((metadata, Layout { tags, movetext }))
}

impl ParquetPgn {
    /// Opens a Parquet file (a `File` or `Bytes`).
    ///
    /// # Errors
    /// `InvalidData` if it is not Parquet, has no `movetext` string column, or has a column
    /// whose type has no tag text (a list, a struct, a timestamp ...), naming the column.
    pub fn new<R: ChunkReader + 'static>(file: R) -> io::Result<ParquetPgn> {
        let (builder, Layout { tags, movetext }) = open(file)?;
        let reader = builder
            .with_batch_size(BATCH_ROWS)
            .build()
            .map_err(|e| invalid(format!("Parquet: {e}")))?;
        Ok(ParquetPgn {
            reader,
            tags,
            movetext,
            batch: None,
            row: 0,
            text: Vec::with_capacity(TEXT_BYTES + TEXT_BYTES / 4),
            at: 0,
            value: String::new(),
        })
    }

    /// Writes rows of `batch` from `self.row` on as PGN into `text`, until [`TEXT_BYTES`] wait
    /// or the batch ends.
    fn write_rows(&mut self, batch: &RecordBatch) {
        let columns = batch.columns();
        // String columns (most tags, and the movetext) are written from their bytes, with no
        // per-value dispatch; other types through `write_value`.
        let strings: Vec<Option<&StringArray>> =
            self.tags.iter().map(|tag| columns[tag.index].as_string_opt::<i32>()).collect();
        let movetext = columns[self.movetext].as_string_opt::<i32>();
        while self.row < batch.num_rows() && self.text.len() < TEXT_BYTES {
            let row = self.row;
            self.row += 1;
            for (tag, strings) in self.tags.iter().zip(&strings) {
                let value = match strings {
                    Some(strings) if strings.is_null(row) => continue,
                    Some(strings) => strings.value(row).as_bytes(),
                    None => {
                        self.value.clear();
                        let column = columns[tag.index].as_ref();
                        if !write_value(column, row, tag.signed, &mut self.value) {
                            continue;
                        }
                        self.value.as_bytes()
                    }
                };
                self.text.extend_from_slice(&tag.opening);
                push_tag_value(&mut self.text, value);
                self.text.extend_from_slice(b"\"]\n");
            }
            self.text.push(b'\n');
            let moves = match movetext {
                Some(strings) if strings.is_null(row) => &b""[..],
                Some(strings) => strings.value(row).as_bytes(),
                None => {
                    self.value.clear();
                    write_value(columns[self.movetext].as_ref(), row, false, &mut self.value);
                    self.value.as_bytes()
                }
            };
            push_one_line(&mut self.text, moves);
            self.text.extend_from_slice(b"\n\n");
        }
    }
}

/// Appends a tag value as PGN writes it: a `"` or `\` escaped, a line break as a space.
fn push_tag_value(out: &mut Vec<u8>, value: &[u8]) {
    if !value.iter().any(|&c| matches!(c, b'"' | b'\\' | b'\n' | b'\r')) {
        out.extend_from_slice(value);
        return;
    }
    for &c in value {
        match c {
            b'"' | b'\\' => out.extend_from_slice(&[b'\\', c]),
            b'\n' | b'\r' => out.push(b' '),
            c => out.push(c),
        }
    }
}

/// Appends movetext on one line: its line breaks as spaces, so a row is always one game.
fn push_one_line(out: &mut Vec<u8>, moves: &[u8]) {
    let from = out.len();
    out.extend_from_slice(moves);
    for c in &mut out[from..] {
        if *c == b'\n' || *c == b'\r' {
            *c = b' ';
        }
    }
}

impl Read for ParquetPgn {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.text.len() {
            self.text.clear();
            self.at = 0;
            match self.batch.take() {
                Some(batch) if self.row < batch.num_rows() => {
                    self.write_rows(&batch);
                    self.batch = Some(batch);
                }
                _ => match self.reader.next() {
                    None => return Ok(0),
                    Some(Err(e)) => return Err(io::Error::other(format!("Parquet: {e}"))),
                    Some(Ok(batch)) => (self.batch, self.row) = (Some(batch), 0),
                },
            }
        }
        let n = buf.len().min(self.text.len() - self.at);
        buf[..n].copy_from_slice(&self.text[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The error when the system refuses to start a thread (too many threads, not enough memory).
const NO_THREAD: &str = "the system could not start a thread to read on";

/// A reader run on a thread of its own, a block ahead of its consumer: for [`ParquetPgn`], whose
/// decoding and PGN rendering would otherwise run on the one thread that feeds the parallel
/// pipeline, so that its workers could not share it. At most [`ReadAhead::BLOCKS`] blocks
/// of [`ReadAhead::BLOCK`] bytes wait at a time; a read error is handed on in its place.
pub struct ReadAhead {
    blocks: std::sync::mpsc::Receiver<io::Result<Vec<u8>>>,
    /// Blocks read out, handed back to the thread to fill again: a fresh block a time had its
    /// pages zeroed by the kernel on first touch, a cost as large as the copy.
    spare: std::sync::mpsc::Sender<Vec<u8>>,
    block: Vec<u8>,
    at: usize,
}

impl std::fmt::Debug for ReadAhead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadAhead").finish_non_exhaustive()
    }
}

impl ReadAhead {
    /// Bytes a block holds.
    pub const BLOCK: usize = 256 << 10;
    /// Blocks read ahead at most.
    pub const BLOCKS: usize = 4;

    /// Starts reading `inner` on a thread of the PGN pipeline's pool
    /// ([`chessbits_pgn::spawn_pooled`]): kept between calls, its allocator heap stays warm
    /// for the decoder's buffers. The reading ends at the end of `inner`, at its first error,
    /// or when the `ReadAhead` is dropped. If the system cannot start a thread, the first read
    /// is an error that says so.
    pub fn new<R: Read + Send + 'static>(mut inner: R) -> ReadAhead {
        let (tx, rx) = std::sync::mpsc::sync_channel(Self::BLOCKS);
        let failed = tx.clone();
        let (spare, spares) = std::sync::mpsc::channel::<Vec<u8>>();
        let started = chessbits_pgn::spawn_pooled(move || loop {
            let mut block = spares.try_recv().unwrap_or_default();
            block.resize(Self::BLOCK, 0);
            let mut filled = 0;
            let result = loop {
                match inner.read(&mut block[filled..]) {
                    Ok(0) => break Ok(()),
                    Ok(n) => {
                        filled += n;
                        if filled == block.len() {
                            break Ok(());
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => break Err(e),
                }
            };
            block.truncate(filled);
            let last = filled < Self::BLOCK || result.is_err();
            if filled > 0 && tx.send(Ok(block)).is_err() {
                return;
            }
            if let Err(e) = result {
                let _ = tx.send(Err(e));
                return;
            }
            if last {
                return;
            }
        });
        if started.is_err() {
            let _ = failed.send(Err(io::Error::other(NO_THREAD)));
        }
        ReadAhead { blocks: rx, spare, block: Vec::new(), at: 0 }
    }
}

impl Read for ReadAhead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.block.len() {
            match self.blocks.recv() {
                Ok(Ok(block)) => {
                    let done = std::mem::replace(&mut self.block, block);
                    self.at = 0;
                    // The thread may have ended; then the block is simply dropped.
                    let _ = self.spare.send(done);
                }
                Ok(Err(e)) => return Err(e),
                // The thread is done: the end of the input.
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.block.len() - self.at);
        buf[..n].copy_from_slice(&self.block[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Whether `data_type` is a string (or strings in a dictionary).
fn is_text(data_type: &DataType) -> bool {
    match data_type {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => true,
        DataType::Dictionary(_, values) => is_text(values),
        _ => false,
    }
}

/// Whether values of `data_type` have a tag text ([`write_value`]).
fn has_tag_text(data_type: &DataType) -> bool {
    use DataType as T;
    is_text(data_type)
        || matches!(
            data_type,
            T::Int8
                | T::Int16
                | T::Int32
                | T::Int64
                | T::UInt8
                | T::UInt16
                | T::UInt32
                | T::UInt64
                | T::Float32
                | T::Float64
                | T::Date32
                | T::Date64
                | T::Time32(_)
                | T::Time64(_)
        )
}

/// Appends the text of `array[row]` to `out`; `false` (and nothing written) for a null.
/// `signed` writes a number of 0 or more with `+` (`+5`, `+0`), as lichess writes rating
/// differences.
fn write_value(array: &dyn Array, row: usize, signed: bool, out: &mut String) -> bool {
    if array.is_null(row) {
        return false;
    }
    let int = |out: &mut String, v: i128| {
        if v < 0 {
            out.push('-');
        } else if signed {
            out.push('+');
        }
        // Every integer column's values, and whole floats under 1e18, have a magnitude that
        // fits 64 bits (`u64::MAX` or `i64::MIN`'s at most).
        push_digits(out, u64::try_from(v.unsigned_abs()).unwrap_or(u64::MAX));
    };
    let float = |out: &mut String, v: f64| {
        if v.is_finite() && v.fract() == 0.0 && v.abs() < 1e18 {
            int(out, v as i128);
        } else {
            let _ = write!(out, "{v}");
        }
    };
    match array.data_type() {
        DataType::Utf8 => out.push_str(array.as_string::<i32>().value(row)),
        DataType::LargeUtf8 => out.push_str(array.as_string::<i64>().value(row)),
        DataType::Utf8View => out.push_str(array.as_string_view().value(row)),
        DataType::Dictionary(_, _) => {
            let Some(dictionary) = array.as_any_dictionary_opt() else { return false };
            let keys = dictionary.normalized_keys();
            return match keys.get(row) {
                Some(&key) => write_value(dictionary.values().as_ref(), key, signed, out),
                None => false,
            };
        }
        DataType::Int8 => int(out, array.as_primitive::<Int8Type>().value(row).into()),
        DataType::Int16 => int(out, array.as_primitive::<Int16Type>().value(row).into()),
        DataType::Int32 => int(out, array.as_primitive::<Int32Type>().value(row).into()),
        DataType::Int64 => int(out, array.as_primitive::<Int64Type>().value(row).into()),
        DataType::UInt8 => int(out, array.as_primitive::<UInt8Type>().value(row).into()),
        DataType::UInt16 => int(out, array.as_primitive::<UInt16Type>().value(row).into()),
        DataType::UInt32 => int(out, array.as_primitive::<UInt32Type>().value(row).into()),
        DataType::UInt64 => int(out, array.as_primitive::<UInt64Type>().value(row).into()),
        DataType::Float32 => float(out, array.as_primitive::<Float32Type>().value(row).into()),
        DataType::Float64 => float(out, array.as_primitive::<Float64Type>().value(row)),
        DataType::Date32 => {
            write_date(out, i64::from(array.as_primitive::<Date32Type>().value(row)))
        }
        DataType::Date64 => {
            let millis = array.as_primitive::<Date64Type>().value(row);
            write_date(out, millis.div_euclid(86_400_000));
        }
        DataType::Time32(unit) => {
            let v = match unit {
                TimeUnit::Millisecond => {
                    i64::from(array.as_primitive::<Time32MillisecondType>().value(row)) / 1000
                }
                _ => i64::from(array.as_primitive::<Time32SecondType>().value(row)),
            };
            write_time(out, v);
        }
        DataType::Time64(unit) => {
            let v = match unit {
                TimeUnit::Nanosecond => {
                    array.as_primitive::<Time64NanosecondType>().value(row) / 1_000_000_000
                }
                _ => array.as_primitive::<Time64MicrosecondType>().value(row) / 1_000_000,
            };
            write_time(out, v);
        }
        _ => return false,
    }
    true
}

/// Appends `n` in decimal. Ratings and clocks fill most integer columns, and `write!` through
/// `core::fmt` was a tenth of rendering a file of games.
fn push_digits(out: &mut String, n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend(digits[at..].iter().map(|&d| char::from(d)));
}

/// `days` since 1970-01-01 as `YYYY.MM.DD` (the proleptic Gregorian calendar).
fn write_date(out: &mut String, days: i64) {
    // Count in 400-year eras of 146,097 days from 0000-03-01, so that February, with its
    // leap day, ends each year.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    let _ = write!(out, "{year:04}.{month:02}.{day:02}");
}

/// `seconds` since midnight as `HH:MM:SS`.
fn write_time(out: &mut String, seconds: i64) {
    let s = seconds.rem_euclid(86_400);
    let _ = write!(out, "{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{ArrayRef, Int64Array, UInt64Array};

    use super::*;
    use crate::parse_date;

    #[test]
    fn dates_are_written_as_parse_date_reads_them() {
        for text in
            ["1970.01.01", "2000.02.29", "2024.12.31", "1900.03.01", "0001.01.01", "2013.01.01"]
        {
            let days = parse_date(text.as_bytes()).expect("a valid date");
            let mut out = String::new();
            write_date(&mut out, i64::from(days));
            assert_eq!(out, text);
        }
        let mut out = String::new();
        let first = parse_date(b"0001.01.01").map(i64::from).unwrap_or_default();
        let last = parse_date(b"9999.12.31").map(i64::from).unwrap_or_default();
        assert!(last - first > 3_600_000);
        for days in first..=last {
            out.clear();
            write_date(&mut out, days);
            assert_eq!(parse_date(out.as_bytes()).map(i64::from), Some(days), "{out}");
        }
    }

    #[test]
    fn reading_ahead_gives_the_same_bytes_and_the_error() {
        let data: Vec<u8> = (0..(ReadAhead::BLOCK * 3 + 77)).map(|i| (i % 251) as u8).collect();
        let mut back = Vec::new();
        ReadAhead::new(io::Cursor::new(data.clone())).read_to_end(&mut back).unwrap();
        assert_eq!(back, data);
        struct Broken(usize);
        impl Read for Broken {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0 == 0 {
                    return Err(io::Error::other("cut"));
                }
                let n = buf.len().min(self.0);
                buf[..n].fill(b'x');
                self.0 -= n;
                Ok(n)
            }
        }
        let mut back = Vec::new();
        let error = ReadAhead::new(Broken(1000)).read_to_end(&mut back).unwrap_err();
        assert_eq!(error.to_string(), "cut");
        assert_eq!(back, vec![b'x'; 1000]);
    }

    #[test]
    fn integers_are_written_as_format_writes_them() {
        for value in [0u64, 7, 10, 99, 1500, 2800, i64::MIN.unsigned_abs(), u64::MAX] {
            let mut out = String::new();
            push_digits(&mut out, value);
            assert_eq!(out, value.to_string());
        }
        for (array, expected) in [
            (
                Arc::new(Int64Array::from(vec![i64::MIN, -1, 0, 42])) as ArrayRef,
                ["-9223372036854775808", "-1", "0", "42"],
            ),
            (
                Arc::new(UInt64Array::from(vec![u64::MAX, 0, 9, 10])) as ArrayRef,
                ["18446744073709551615", "0", "9", "10"],
            ),
        ] {
            for (row, expected) in expected.iter().enumerate() {
                let mut out = String::new();
                assert!(write_value(array.as_ref(), row, false, &mut out));
                assert_eq!(&out, expected);
            }
        }
    }

    /// Many rows, read a few bytes at a time, give the PGN of every row once and in order:
    /// rows are rendered a bounded piece at a time, across batches.
    #[test]
    fn many_rows_read_in_small_pieces_are_every_row_in_order() {
        let rows = 3 * BATCH_ROWS + 1000;
        let moves = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 ".repeat(20);
        let white: Vec<String> = (0..rows).map(|i| format!("Player \"{i}\"")).collect();
        let elo: Vec<Option<i64>> =
            (0..rows).map(|i| (i % 7 != 0).then_some(1000 + i as i64)).collect();
        let movetext: Vec<String> = (0..rows).map(|i| format!("{moves}{}-0", i % 2)).collect();
        let batch = RecordBatch::try_from_iter([
            ("White", Arc::new(StringArray::from(white.clone())) as ArrayRef),
            ("WhiteElo", Arc::new(Int64Array::from(elo.clone())) as ArrayRef),
            ("movetext", Arc::new(StringArray::from(movetext.clone())) as ArrayRef),
        ])
        .unwrap();
        let mut file = Vec::new();
        let mut writer =
            parquet::arrow::ArrowWriter::try_new(&mut file, batch.schema(), None).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
        let mut expected = String::new();
        for i in 0..rows {
            let _ = writeln!(expected, "[White \"{}\"]", white[i].replace('"', "\\\""));
            if let Some(elo) = elo[i] {
                let _ = writeln!(expected, "[WhiteElo \"{elo}\"]");
            }
            let _ = write!(expected, "\n{}\n\n", movetext[i]);
        }
        assert!(expected.len() > 4 * TEXT_BYTES);
        let mut pgn = ParquetPgn::new(bytes::Bytes::from(file)).unwrap();
        let mut got = Vec::new();
        let mut piece = [0u8; 1000];
        loop {
            let n = pgn.read(&mut piece).unwrap();
            if n == 0 {
                break;
            }
            got.extend_from_slice(&piece[..n]);
        }
        assert_eq!(String::from_utf8(got).unwrap(), expected);
    }

    #[test]
    fn times_and_signed_numbers() {
        let mut out = String::new();
        write_time(&mut out, 13 * 3600 + 5 * 60 + 9);
        assert_eq!(out, "13:05:09");
        let diff = arrow_array::Float64Array::from(vec![Some(5.0), Some(-3.0), Some(0.0), None]);
        let texts: Vec<Option<String>> = (0..4)
            .map(|row| {
                let mut out = String::new();
                write_value(&diff, row, true, &mut out).then_some(out)
            })
            .collect();
        assert_eq!(texts, [Some("+5".into()), Some("-3".into()), Some("+0".into()), None]);
    }
}
