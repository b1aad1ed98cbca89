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
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch, StringArray};
use chessbits_cbg::GameBuilder;
use chessbits_pgn::{MovetextReader, RawTag, Visitor};
use parquet::arrow::arrow_reader::ParquetRecordBatchReader;
use parquet::file::reader::ChunkReader;

use super::{invalid, open, push_one_line, push_tag_value, write_value, Layout};
use crate::games::GameRows;
use crate::ExportError;

/// The rows of a lichess Parquet file, a [`RowBatch`] at a time ([module docs](self)).
pub struct ParquetRows {
    reader: ParquetRecordBatchReader,
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
        ParquetRows::build(file, |rows| {
            let each = rows / (4 * threads.max(1) as u64);
            usize::try_from(each).unwrap_or(usize::MAX).clamp(64, 1024)
        })
    }

    /// Opens `file`, reading batches of `batch_rows(rows in the file)` rows.
    fn build<R: ChunkReader + 'static>(
        file: R,
        batch_rows: impl FnOnce(u64) -> usize,
    ) -> io::Result<ParquetRows> {
        let (builder, layout) = open(file)?;
        let rows = u64::try_from(builder.metadata().file_metadata().num_rows()).unwrap_or(0);
        let reader = builder
            .with_batch_size(batch_rows(rows).max(1))
            .build()
            .map_err(|e| invalid(format!("Parquet: {e}")))?;
        Ok(ParquetRows { reader, layout: Arc::new(layout), before: 0, rows, failed: false })
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
        match self.reader.next()? {
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

    /// Reads every row into `rows` as a game, numbered by its row in the file (from 1):
    /// [`GameRows::game`] for a game that read, [`GameRows::failed_movetext`] for one that
    /// did not. `reader` and `builder` are reused from call to call.
    ///
    /// # Errors
    /// The first error [`GameRows::game`] returns; reading stops there.
    pub fn read_into<R: GameRows>(
        &self,
        reader: &mut MovetextReader,
        builder: &mut GameBuilder,
        rows: &mut R,
    ) -> Result<(), ExportError> {
        let columns = self.batch.columns();
        let tags = &self.layout.tags;
        // String columns (most tags, and the movetext) are read from their bytes, with no
        // per-value dispatch; other types are written as text first.
        let strings: Vec<Option<&StringArray>> =
            tags.iter().map(|tag| columns[tag.index].as_string_opt::<i32>()).collect();
        let movetext = columns[self.layout.movetext].as_ref();
        let movetext_strings = movetext.as_string_opt::<i32>();
        let (mut value, mut scratch) = (String::new(), String::new());
        let (mut escaped, mut line) = (Vec::new(), Vec::new());
        for row in 0..self.batch.num_rows() {
            let number = self.before + row as u64 + 1;
            let moves = match movetext_strings {
                Some(strings) if strings.is_null(row) => &b""[..],
                Some(strings) => strings.value(row).as_bytes(),
                None => {
                    value.clear();
                    write_value(movetext, row, false, &mut value);
                    value.as_bytes()
                }
            };
            // On one line, as the PGN writes it: a `;` comment ends with the row.
            let moves = if moves.iter().any(|&c| c == b'\n' || c == b'\r') {
                line.clear();
                push_one_line(&mut line, moves);
                &line[..]
            } else {
                moves
            };
            let read = reader.read_game(moves, builder, |v| {
                for (tag, strings) in tags.iter().zip(&strings) {
                    let text = match strings {
                        Some(strings) if strings.is_null(row) => continue,
                        Some(strings) => strings.value(row).as_bytes(),
                        None => {
                            scratch.clear();
                            if !write_value(
                                columns[tag.index].as_ref(),
                                row,
                                tag.signed,
                                &mut scratch,
                            ) {
                                continue;
                            }
                            scratch.as_bytes()
                        }
                    };
                    // The tag as the PGN holds it, escaped: the builder unescapes it.
                    let raw = if text.iter().any(|&c| matches!(c, b'"' | b'\\' | b'\n' | b'\r')) {
                        escaped.clear();
                        push_tag_value(&mut escaped, text);
                        RawTag(&escaped[..])
                    } else {
                        RawTag(text)
                    };
                    v.tag(tag.name.as_bytes(), raw)?;
                }
                Ok(())
            });
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
}

#[cfg(test)]
mod tests {
    use std::io::BufReader;

    use arrow_array::types::Int32Type;
    use arrow_array::{ArrayRef, Date32Array, DictionaryArray, Int64Array, Time64MicrosecondArray};
    use chessbits_cbg::GameRecord;
    use chessbits_pgn::{PgnError, PgnReader, ReplayError};

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
