//! The record batches `read_games` and `iter_games` hand to pyarrow: the reading schema
//! ([`schema_for`]), and [`Rows`], games built into one batch of it, with the `moves` column
//! as the caller asked (codes, or lists of UCI or SAN text built from their own buffers).

use std::fmt::Write as _;
use std::sync::Arc;

use arrow_array::{ArrayRef, ListArray, RecordBatch, StringArray};
use arrow_buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType, Field, FieldRef, Schema, SchemaRef};
use chessbits_arrow::games::{movetext_failed_message, pgn_failed_message, GameRows};
use chessbits_arrow::{BatchBuilder, ExportError, ExportOptions, Keys};
use chessbits_cbg::GameRecord;
use chessbits_notation::san::SanPlus;
use chessbits_pgn::{GameResult, PgnError, ReplayError};

use crate::games::MovesAs;

/// The schema of the batches: the export schema (whose last column is `error`) with `moves` as
/// asked.
pub(crate) fn schema_for(moves: MovesAs) -> SchemaRef {
    let base = chessbits_arrow::schema();
    let mut fields: Vec<Field> = base.fields().iter().map(|f| f.as_ref().clone()).collect();
    if moves != MovesAs::Codes {
        let item = Arc::new(Field::new("item", DataType::Utf8, false));
        for field in fields.iter_mut().filter(|f| f.name() == "moves") {
            *field = Field::new("moves", DataType::List(item.clone()), false);
        }
    }
    Arc::new(Schema::new_with_metadata(fields, base.metadata().clone()))
}

/// Rows of games being built into one record batch of the reading schema.
pub(crate) struct Rows {
    batch: BatchBuilder,
    moves_as: MovesAs,
    moves: MoveLists,
    /// One move's text, kept between moves to reuse its memory.
    text: String,
    schema: SchemaRef,
    /// Each row's result marker, for tag columns made apart from the rows
    /// ([`RowBatch::tag_columns`](chessbits_arrow::lichess::RowBatch::tag_columns)).
    pub(crate) results: Vec<Option<GameResult>>,
}

/// The `moves` column as lists of move texts (UCI or SAN), built in buffers of its own: a
/// move's UCI is copied straight from the stack, where a string builder took a copy into a
/// `String`, a copy out of it and a call for each (a fifth of a read of lichess games went
/// there).
struct MoveLists {
    /// The texts, one after the other.
    values: Vec<u8>,
    /// Where each text ends in `values`, after a first 0.
    ends: Vec<i32>,
    /// Where each game's list ends in `ends`, after a first 0.
    lists: Vec<i32>,
}

impl MoveLists {
    fn new() -> MoveLists {
        MoveLists { values: Vec::new(), ends: vec![0], lists: vec![0] }
    }

    /// Adds one move's text to the current list. Offsets past `i32::MAX` are refused by
    /// [`finish`](Self::finish).
    #[inline]
    fn push(&mut self, text: &[u8]) {
        self.values.extend_from_slice(text);
        self.ends.push(self.values.len() as i32);
    }

    /// Adds one move's UCI to the current list.
    #[inline]
    fn push_uci(&mut self, (bytes, len): ([u8; 5], usize)) {
        // Four bytes, then the promotion's: two fixed-size copies, no call.
        if let Some(head) = bytes.first_chunk::<4>() {
            self.values.extend_from_slice(head);
        }
        if len == 5 {
            self.values.push(bytes[4]);
        }
        self.ends.push(self.values.len() as i32);
    }

    /// Ends the current game's list.
    fn end_list(&mut self) {
        self.lists.push((self.ends.len() - 1) as i32);
    }

    /// The lists as an array of the `moves` field's type; the builder starts again.
    fn finish(&mut self, item: &FieldRef) -> Result<ListArray, ArrowError> {
        if self.values.len() > i32::MAX as usize || self.ends.len() > i32::MAX as usize {
            return Err(ArrowError::ComputeError("a batch's moves pass 2 GiB".into()));
        }
        let MoveLists { values, ends, lists } = std::mem::replace(self, MoveLists::new());
        let texts = StringArray::try_new(
            OffsetBuffer::new(ScalarBuffer::from(ends)),
            Buffer::from_vec(values),
            None,
        )?;
        ListArray::try_new(
            item.clone(),
            OffsetBuffer::new(ScalarBuffer::from(lists)),
            Arc::new(texts),
            None,
        )
    }
}

impl Rows {
    pub(crate) fn new(moves_as: MovesAs, keys: Keys) -> Rows {
        let options = ExportOptions { keys, ..ExportOptions::default() };
        Rows {
            batch: BatchBuilder::new(&options),
            moves_as,
            moves: MoveLists::new(),
            text: String::new(),
            schema: schema_for(moves_as),
            results: Vec::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.batch.len()
    }

    /// Adds one game that read, or its error in a row of its own.
    pub(crate) fn push(&mut self, game: &GameRecord) -> Result<(), ExportError> {
        let pushed = match self.moves_as {
            MovesAs::Codes => self.batch.push(game),
            // The codes would be replaced by the lists: not made.
            MovesAs::Uci | MovesAs::San => self.batch.push_uncoded(game),
        };
        match pushed {
            Ok(()) => {
                self.results.push(game.result);
                if self.moves_as != MovesAs::Codes {
                    self.push_moves(game);
                }
                Ok(())
            }
            Err(ExportError::Moves { error, .. }) => {
                self.push_error(game.number, &error.to_string(), &game.tags);
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// The moves of a game that read as UCI or SAN text.
    fn push_moves(&mut self, game: &GameRecord) {
        let mut pos = game.start;
        let mode = pos.castling_mode();
        let lists = &mut self.moves;
        if self.moves_as == MovesAs::San {
            let text = &mut self.text;
            for &m in &game.moves {
                text.clear();
                // Writing to a String cannot fail.
                let _ = write!(text, "{}", SanPlus::from_move_and_play(&mut pos, m));
                lists.push(text.as_bytes());
            }
        } else {
            lists.values.reserve(5 * game.moves.len());
            lists.ends.reserve(game.moves.len());
            for &m in &game.moves {
                // UCI needs only the castling mode, which no move changes: no replay.
                lists.push_uci(m.to_uci(mode).to_ascii());
            }
        }
        lists.end_list();
    }

    /// A row for a game that did not read: its number, the message, and the tags read (all
    /// of them for a variant game refused, so that analyses of tags alone still count it).
    pub(crate) fn push_error(&mut self, number: u64, message: &str, tags: &[(Vec<u8>, Vec<u8>)]) {
        self.results.push(None);
        // The tag map refuses no row.
        let _ = self.batch.push_failed(number, message, tags);
        if self.moves_as != MovesAs::Codes {
            self.moves.end_list();
        }
    }

    /// The rows as a batch (`None` if there are none), their games numbered as the reader
    /// numbered them. Leaves an empty builder.
    pub(crate) fn finish(&mut self) -> Result<Option<RecordBatch>, ExportError> {
        self.finish_with(None)
    }

    /// [`finish`](Self::finish), with the typed tag columns and the `tags` map replaced by
    /// `tags` (in schema order, as [`RowBatch::tag_columns`](chessbits_arrow::lichess::RowBatch::tag_columns) makes them) when given.
    pub(crate) fn finish_with(
        &mut self,
        tags: Option<Vec<ArrayRef>>,
    ) -> Result<Option<RecordBatch>, ExportError> {
        self.results.clear();
        if self.batch.is_empty() {
            return Ok(None);
        }
        let base = self.batch.finish()?;
        let mut columns: Vec<ArrayRef> = base.columns().to_vec();
        if let Some(tags) = tags {
            let names = chessbits_arrow::TYPED_TAGS.iter().copied().chain(["tags"]);
            for (name, column) in names.zip(tags) {
                columns[base.schema().index_of(name)?] = column;
            }
        }
        if self.moves_as != MovesAs::Codes {
            let at = base.schema().index_of("moves")?;
            let item = match self.schema.field(at).data_type() {
                DataType::List(item) => item.clone(),
                _ => return Err(ArrowError::SchemaError("moves is not a list".into()).into()),
            };
            columns[at] = Arc::new(self.moves.finish(&item)?);
        }
        Ok(Some(RecordBatch::try_new(self.schema.clone(), columns)?))
    }
}

/// The chunk loop of chessbits-arrow fills a worker's rows.
impl GameRows for Rows {
    fn game(&mut self, game: &GameRecord) -> Result<(), ExportError> {
        self.push(game)
    }

    fn failed(&mut self, number: u64, error: &PgnError<ReplayError>, tags: &[(Vec<u8>, Vec<u8>)]) {
        self.push_error(number, &pgn_failed_message(error), tags);
    }

    fn failed_movetext(
        &mut self,
        number: u64,
        error: &PgnError<ReplayError>,
        tags: &[(Vec<u8>, Vec<u8>)],
    ) {
        self.push_error(number, &movetext_failed_message(error), tags);
    }
}
