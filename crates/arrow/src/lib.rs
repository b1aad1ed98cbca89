//! Chess games as [Apache Arrow](https://arrow.apache.org) record batches and Parquet files,
//! so that SQL engines (DataFusion, DuckDB, Spark, pyarrow) can query any number of games.
//!
//! Games come in as [`GameRecord`]s: from PGN through
//! [`GameBuilder`](chessbits_cbg::GameBuilder), or from a `.cbg` file through
//! [`CbgReader`](chessbits_cbg::CbgReader). A [`BatchBuilder`] turns them into one
//! [`RecordBatch`] of the [`schema`]; a [`ParquetExporter`] streams them to a Parquet file in
//! constant memory: a batch of [`ExportOptions::batch_games`] games at a time, written into
//! row groups of [`ExportOptions::row_group_rows`] rows (zstd-compressed).
//!
//! # Schema
//!
//! One row a game. Names are the PGN tag names where a column is a tag.
//!
//! | column | type | |
//! |---|---|---|
//! | `game` | Int64 | the game's number in its input (from 1, broken games counted) |
//! | `Event`, `Site`, `White`, `Black`, `Result` | Utf8 | the tags; `Result` falls back to the movetext's marker |
//! | `UTCDate` | Date32 | `YYYY.MM.DD`; null when absent or not a whole valid date |
//! | `UTCTime`, `ECO`, `Opening`, `TimeControl`, `Termination` | Utf8 | the tags |
//! | `WhiteElo`, `BlackElo` | Int32 | null when absent or not a number written plainly (then in `tags`) |
//! | `tags` | Map&lt;Utf8, Utf8&gt; | every other tag, in input order, and typed tags whose value did not parse |
//! | `plies` | Int32 | the number of moves in the mainline |
//! | `start_fen` | Utf8 | the start position as X-FEN, null for the standard start of standard chess (not of Chess960) |
//! | `moves` | Binary | the mainline coded by [`MoveCodec::Model`] from the start position |
//! | `clocks` | List&lt;Int32&gt; | centiseconds left after each ply (null items where none); null when the game has no clock |
//! | `evals` | List&lt;Int32&gt; | centipawns after each ply, White's view, mates as `±(`[`MATE`]` − n)`; null when the game has none |
//! | `keys` | List&lt;Int64&gt; | the Polyglot Zobrist key of the position after each ply (first [`Keys`] plies), as signed 64-bit |
//! | `error` | Utf8 | null for a game that read; for one that did not, where and why (`line 5, column 1: variant "Atomic" is not supported`) |
//!
//! A game that did not read is a row too ([`BatchBuilder::push_failed`]), so that analyses
//! of tags alone still count it: its number, every tag read before it failed (all of them
//! for a refused variant game, whose tags are read in full), `plies` 0, empty `moves` and
//! `keys`, null `start_fen`, `clocks` and `evals`, and the message in `error`. Filter on
//! `error IS NULL` for the games that read.
//!
//! Tag values are decoded as UTF-8, or as Latin-1 when they are not UTF-8. The file's
//! key-value metadata names the move codec (`chessbits.moves` = `model`) and the schema
//! version (`chessbits.schema` = `2`; version 1 had no `error` column and no rows for games
//! that did not read). Changing the schema is a breaking change for the
//! programs that query the files: it bumps `chessbits.schema`.
//!
//! Evaluations: `[%eval 0.17]` is 17; centipawns are clamped to ±[`MAX_CENTIPAWNS`]; mate in
//! `n` for White (`#n`) is `MATE − n`, for Black (`#-n`) is `−(MATE − n)`, `n` capped at
//! 9,999, so `abs(v) > MAX_CENTIPAWNS` means a mate in `MATE − abs(v)` moves; `#0` after a
//! mating move is the side then to move mated (`−MATE` when that is White). The depth is not
//! kept. A clock past `i32::MAX` centiseconds is a null item, not a saturated number.
//!
//! # Example
//!
//! ```
//! use chessbits_arrow::{BatchBuilder, ExportOptions};
//! use chessbits_cbg::GameBuilder;
//! use chessbits_pgn::SliceReader;
//!
//! let pgn = b"[White \"Anna\"]\n[WhiteElo \"1500\"]\n[UTCDate \"2024.01.31\"]\n\n1. e4 { [%clk 0:03:00] } e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
//! let mut reader = SliceReader::new(pgn);
//! let mut games = GameBuilder::default();
//! let mut batch = BatchBuilder::new(&ExportOptions::default());
//! while let Some(game) = reader.read_game(&mut games) {
//!     batch.push(&game?)?;
//! }
//! let batch = batch.finish()?;
//! assert_eq!(batch.num_rows(), 1);
//! let plies = batch.column_by_name("plies").unwrap();
//! assert_eq!(plies.as_any().downcast_ref::<arrow_array::Int32Array>().unwrap().value(0), 7);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

pub mod games;
pub mod index;
pub mod lichess;

use core::fmt;
use std::collections::VecDeque;
use std::io::Write;
use std::sync::Arc;

use arrow_array::builder::{
    BinaryBuilder, Date32Builder, Int32Builder, Int64Builder, ListBuilder, MapBuilder,
    MapFieldNames, StringBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Fields, Schema, SchemaRef};
use arrow_select::concat::concat_batches;
use chessbits_cbg::GameRecord;
use chessbits_codec::move_codec::{MoveCodec, MoveEncodeError, MoveEncoder};
use chessbits_movegen::Color;
use chessbits_movegen::MoveGen;
use chessbits_notation::fen::{fen_of, CastlingNotation, EnPassantMode, FenOptions};
use chessbits_pgn::{decode_lossy, Score};
use chessbits_state::Position;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;

/// Games a [`ParquetExporter`] gathers into one batch by default.
pub const DEFAULT_BATCH_GAMES: usize = 8_192;

/// Rows in a Parquet row group by default: large enough for scans to read long runs of a
/// column, small enough to hold while writing (an export of lichess games stays under 60 MB
/// resident, measured in docs/formats.md).
pub const DEFAULT_ROW_GROUP_ROWS: usize = 65_536;

/// Plies of a game whose position keys the `keys` column holds by default (see [`Keys`]):
/// past ply 40 under 1% of positions are shared by two games even among masters, while
/// their keys would double the column (measured in docs/formats.md).
pub const DEFAULT_KEY_PLIES: u32 = 40;

/// The schema's version, in the file's `chessbits.schema` metadata: 2 added the `error`
/// column and the rows of games that did not read.
pub const SCHEMA_VERSION: u32 = 2;

/// The base of mate scores in `evals`: mate in `n` is `±(MATE − n)`.
pub const MATE: i32 = 100_000;

/// Centipawn evaluations are clamped to `±MAX_CENTIPAWNS`; anything beyond is a mate.
pub const MAX_CENTIPAWNS: i32 = 90_000;

/// The tags with a column of their own, in schema order.
pub const TYPED_TAGS: [&str; TYPED] = [
    "Event",
    "Site",
    "White",
    "Black",
    "Result",
    "UTCDate",
    "UTCTime",
    "WhiteElo",
    "BlackElo",
    "ECO",
    "Opening",
    "TimeControl",
    "Termination",
];

/// The typed tags of one game, as [`BatchBuilder::push`] reads them from its tags.
struct Typed<'g> {
    /// The first value of each of [`TYPED_TAGS`] that parsed (dates and ratings as numbers).
    values: [Option<&'g [u8]>; TYPED],
    /// `UTCDate` as days since the epoch.
    date: Option<i32>,
    /// `WhiteElo`, `BlackElo`.
    elo: [Option<i32>; 2],
}

/// The number of typed tag columns.
const TYPED: usize = 13;
const RESULT: usize = 4;
const UTC_DATE: usize = 5;
const WHITE_ELO: usize = 7;
const BLACK_ELO: usize = 8;

/// Which positions' keys the `keys` column holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Keys {
    /// Every position of the mainline (after each ply).
    All,
    /// The positions after the first `n` plies only (opening search).
    First(u32),
}

impl Keys {
    fn limit(self) -> u32 {
        match self {
            Keys::All => u32::MAX,
            Keys::First(n) => n,
        }
    }
}

/// How games are exported.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    /// Games a [`ParquetExporter`] gathers before handing a batch to the Parquet writer.
    pub batch_games: usize,
    /// Rows of a Parquet row group.
    pub row_group_rows: usize,
    /// The positions the `keys` column holds.
    pub keys: Keys,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions {
            batch_games: DEFAULT_BATCH_GAMES,
            row_group_rows: DEFAULT_ROW_GROUP_ROWS,
            keys: Keys::First(DEFAULT_KEY_PLIES),
        }
    }
}

/// Why a game or a file could not be exported.
#[derive(Debug)]
#[non_exhaustive]
pub enum ExportError {
    /// A game's mainline did not code: its number in its input, and why.
    Moves {
        /// The game's number.
        game: u64,
        /// The move that failed.
        error: MoveEncodeError,
    },
    /// Arrow refused a batch.
    Arrow(ArrowError),
    /// Writing Parquet failed (I/O included).
    Parquet(ParquetError),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Moves { game, error } => write!(f, "game {game}: {error}"),
            ExportError::Arrow(e) => write!(f, "arrow: {e}"),
            ExportError::Parquet(e) => write!(f, "parquet: {e}"),
        }
    }
}

impl std::error::Error for ExportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ExportError::Moves { error, .. } => Some(error),
            ExportError::Arrow(err) => Some(err),
            ExportError::Parquet(err) => Some(err),
        }
    }
}

impl From<ArrowError> for ExportError {
    fn from(e: ArrowError) -> Self {
        ExportError::Arrow(e)
    }
}

impl From<ParquetError> for ExportError {
    fn from(e: ParquetError) -> Self {
        ExportError::Parquet(e)
    }
}

fn list_item(data_type: DataType, nullable: bool) -> Arc<Field> {
    Arc::new(Field::new("item", data_type, nullable))
}

fn map_entries() -> Arc<Field> {
    let fields = Fields::from(vec![
        Field::new("keys", DataType::Utf8, false),
        Field::new("values", DataType::Utf8, true),
    ]);
    Arc::new(Field::new("entries", DataType::Struct(fields), false))
}

/// The Arrow schema of exported games (see the [crate docs](crate)).
pub fn schema() -> SchemaRef {
    let mut fields = vec![Field::new("game", DataType::Int64, false)];
    for (i, name) in TYPED_TAGS.iter().enumerate() {
        let data_type = match i {
            UTC_DATE => DataType::Date32,
            WHITE_ELO | BLACK_ELO => DataType::Int32,
            _ => DataType::Utf8,
        };
        fields.push(Field::new(*name, data_type, true));
    }
    fields.extend([
        Field::new("tags", DataType::Map(map_entries(), false), false),
        Field::new("plies", DataType::Int32, false),
        Field::new("start_fen", DataType::Utf8, true),
        Field::new("moves", DataType::Binary, false),
        Field::new("clocks", DataType::List(list_item(DataType::Int32, true)), true),
        Field::new("evals", DataType::List(list_item(DataType::Int32, true)), true),
        Field::new("keys", DataType::List(list_item(DataType::Int64, false)), false),
        Field::new("error", DataType::Utf8, true),
    ]);
    Arc::new(Schema::new(fields))
}

/// `YYYY.MM.DD` as days since 1970-01-01, if it is a whole valid date (years 1 to 9999).
pub fn parse_date(text: &[u8]) -> Option<i32> {
    let [y0, y1, y2, y3, b'.', m0, m1, b'.', d0, d1] = *text else { return None };
    let number = |digits: &[u8]| {
        digits.iter().try_fold(0i32, |n, &d| d.is_ascii_digit().then(|| n * 10 + (d - b'0') as i32))
    };
    let (year, month, day) = (number(&[y0, y1, y2, y3])?, number(&[m0, m1])?, number(&[d0, d1])?);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    const BEFORE: [i32; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    const LENGTH: [i32; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let m = usize::try_from(month).ok()?.checked_sub(1)?;
    let length = *LENGTH.get(m)? + i32::from(leap && m == 1);
    if year == 0 || day == 0 || day > length {
        return None;
    }
    let leaps_before = |y: i32| (y - 1) / 4 - (y - 1) / 100 + (y - 1) / 400;
    let day_of_year = BEFORE.get(m)? + i32::from(leap && m > 1) + day - 1;
    Some(365 * (year - 1970) + leaps_before(year) - leaps_before(1970) + day_of_year)
}

/// An evaluation as the `evals` column stores it (see the [crate docs](crate)), given after a
/// move that leaves `to_move` to move: mate in 0 (`#0`, `#-0`, which no sign tells apart) is
/// `to_move` mated, `-MATE` when that is white.
pub fn eval_value(score: Score, to_move: Color) -> i32 {
    match score {
        Score::Centipawns(cp) => cp.clamp(-MAX_CENTIPAWNS, MAX_CENTIPAWNS),
        Score::Mate(0) if to_move == Color::White => -MATE,
        Score::Mate(n) if n < 0 => -(MATE - n.saturating_neg().min(9_999)),
        Score::Mate(n) => MATE - n.min(9_999),
    }
}

/// Builds one [`RecordBatch`] of the [`schema`] from games.
pub struct BatchBuilder {
    schema: SchemaRef,
    keys: Keys,
    game: Int64Builder,
    text: [StringBuilder; TYPED],
    date: Date32Builder,
    elo: [Int32Builder; 2],
    tags: MapBuilder<StringBuilder, StringBuilder>,
    plies: Int32Builder,
    start_fen: StringBuilder,
    moves: BinaryBuilder,
    clocks: ListBuilder<Int32Builder>,
    evals: ListBuilder<Int32Builder>,
    positions: ListBuilder<Int64Builder>,
    error: StringBuilder,
    encoder: MoveEncoder,
    /// The current game's coded moves and keys, kept between games to reuse their memory.
    bytes: Vec<u8>,
    keys_buf: Vec<i64>,
    len: usize,
    /// The games, plies and move bytes pushed since the last finish.
    counts: ExportStats,
}

impl fmt::Debug for BatchBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BatchBuilder").field("len", &self.len).finish_non_exhaustive()
    }
}

impl BatchBuilder {
    /// An empty batch.
    pub fn new(options: &ExportOptions) -> BatchBuilder {
        let names =
            MapFieldNames { entry: "entries".into(), key: "keys".into(), value: "values".into() };
        BatchBuilder {
            schema: schema(),
            keys: options.keys,
            game: Int64Builder::new(),
            text: core::array::from_fn(|_| StringBuilder::new()),
            date: Date32Builder::new(),
            elo: [Int32Builder::new(), Int32Builder::new()],
            tags: MapBuilder::new(Some(names), StringBuilder::new(), StringBuilder::new()),
            plies: Int32Builder::new(),
            start_fen: StringBuilder::new(),
            moves: BinaryBuilder::new(),
            clocks: ListBuilder::new(Int32Builder::new())
                .with_field(list_item(DataType::Int32, true)),
            evals: ListBuilder::new(Int32Builder::new())
                .with_field(list_item(DataType::Int32, true)),
            positions: ListBuilder::new(Int64Builder::new())
                .with_field(list_item(DataType::Int64, false)),
            error: StringBuilder::new(),
            encoder: MoveEncoder::new(MoveCodec::Model, &Position::new()),
            bytes: Vec::new(),
            keys_buf: Vec::new(),
            len: 0,
            counts: ExportStats::default(),
        }
    }

    /// The number of games pushed since the last [`finish`](Self::finish).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no game was pushed since the last [`finish`](Self::finish).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds one game as a row.
    ///
    /// # Errors
    /// [`ExportError::Moves`] if the mainline is not legal from the start position (a
    /// [`GameRecord`] read by the library always is); the batch is then left as it was.
    pub fn push(&mut self, game: &GameRecord) -> Result<(), ExportError> {
        // The moves first: the only step that can fail, before any column grows.
        self.code_moves(game)?;
        self.push_columns(game)
    }

    /// Adds one game as a row as [`push`](Self::push) does, but with an empty `moves` value:
    /// for a caller that writes the mainline its own way and replaces the column (the Python
    /// package's lists of UCI or SAN moves). It skips the model coding, most of the time a
    /// push takes, and takes the `keys` column from the record's [`GameRecord::keys`]; only a
    /// record without them (built by hand) has the moves whose keys the column holds (the
    /// first [`ExportOptions::keys`] plies) played again, each checked. The caller vouches
    /// for the legality of the rest, as it does when a
    /// [`GameBuilder`](chessbits_cbg::GameBuilder) or a
    /// [`CbgReader`](chessbits_cbg::CbgReader) made the record (both check every move).
    ///
    /// # Errors
    /// [`ExportError::Moves`] as [`push`](Self::push) gives it for a move among those played;
    /// the batch is then left as it was.
    pub fn push_uncoded(&mut self, game: &GameRecord) -> Result<(), ExportError> {
        self.replay_keys(game)?;
        self.bytes.clear();
        self.push_columns(game)
    }

    /// Adds a row for game `number`, which did not read: the `tags` read before it failed,
    /// no moves, and `message` (where and why it failed) in the `error` column. It counts in
    /// [`ExportStats::failed`], not in [`ExportStats::games`].
    ///
    /// # Errors
    /// [`ExportError::Arrow`] if the tag map refuses the row (a bug).
    pub fn push_failed(
        &mut self,
        number: u64,
        message: &str,
        tags: &[(Vec<u8>, Vec<u8>)],
    ) -> Result<(), ExportError> {
        let mut record = GameRecord::default();
        record.number = number;
        record.tags = tags.to_vec();
        self.keys_buf.clear();
        self.bytes.clear();
        self.game.append_value(i64::try_from(number).unwrap_or(i64::MAX));
        let typed = self.push_tags(&record)?;
        self.push_typed(&record, &typed);
        self.push_play(&record);
        self.error.append_value(message);
        self.len += 1;
        self.counts.failed += 1;
        Ok(())
    }

    /// Appends every column of `game` but the work of [`code_moves`](Self::code_moves) or
    /// [`replay_keys`](Self::replay_keys), done before.
    fn push_columns(&mut self, game: &GameRecord) -> Result<(), ExportError> {
        self.game.append_value(i64::try_from(game.number).unwrap_or(i64::MAX));
        let typed = self.push_tags(game)?;
        self.push_typed(game, &typed);
        self.push_play(game);
        self.error.append_null();
        self.len += 1;
        self.counts.games += 1;
        self.counts.plies += game.moves.len() as u64;
        self.counts.move_bytes += self.bytes.len() as u64;
        Ok(())
    }

    /// Codes `game`'s mainline into `bytes` and its first position keys into `keys_buf`.
    fn code_moves(&mut self, game: &GameRecord) -> Result<(), ExportError> {
        self.encoder.reset(MoveCodec::Model, &game.start);
        let limit = usize::try_from(self.keys.limit()).unwrap_or(usize::MAX);
        let keys = &mut self.keys_buf;
        keys.clear();
        for &m in &game.moves {
            self.encoder
                .push(m)
                .map_err(|error| ExportError::Moves { game: game.number, error })?;
            if keys.len() < limit {
                // Signed: Spark and Parquet readers without unsigned types read it unchanged.
                keys.push(self.encoder.position().key() as i64);
            }
        }
        self.bytes.clear();
        self.encoder.finish(&mut self.bytes);
        Ok(())
    }

    /// Puts the first position keys of `game` into `keys_buf`, as
    /// [`code_moves`](Self::code_moves) does without coding: the record's own keys when it
    /// has one per move ([`GameRecord::keys`]), else by playing the moves, checking each.
    fn replay_keys(&mut self, game: &GameRecord) -> Result<(), ExportError> {
        let limit = usize::try_from(self.keys.limit()).unwrap_or(usize::MAX);
        let keys = &mut self.keys_buf;
        keys.clear();
        if game.keys.len() == game.moves.len() {
            // Signed, as `code_moves` writes them.
            keys.extend(game.keys.iter().take(limit).map(|&k| k as i64));
            return Ok(());
        }
        let mut pos = game.start;
        for (ply, &m) in game.moves.iter().take(limit).enumerate() {
            let played = if m.is_null() { pos.play_null().is_ok() } else { pos.play(m).is_ok() };
            if !played {
                let ply = u32::try_from(ply + 1).unwrap_or(u32::MAX);
                return Err(ExportError::Moves {
                    game: game.number,
                    error: MoveEncodeError { ply, m },
                });
            }
            keys.push(pos.key() as i64);
        }
        Ok(())
    }

    /// Appends the tags that have no typed column to the `tags` map, and returns the typed
    /// ones: the first value of each, the date and the ratings when they parse.
    fn push_tags<'g>(&mut self, game: &'g GameRecord) -> Result<Typed<'g>, ExportError> {
        let mut t = Typed { values: [None; TYPED], date: None, elo: [None; 2] };
        for (name, value) in &game.tags {
            let slot = TYPED_TAGS.iter().position(|t| t.as_bytes() == name.as_slice());
            let parsed = match slot {
                Some(i) if t.values.get(i).is_some_and(Option::is_none) => match i {
                    UTC_DATE => parse_date(value).map(|d| t.date = Some(d)),
                    WHITE_ELO | BLACK_ELO => {
                        core::str::from_utf8(value).ok().and_then(parse_rating).map(|v| {
                            if let Some(e) = t.elo.get_mut(i - WHITE_ELO) {
                                *e = Some(v);
                            }
                        })
                    }
                    _ => Some(()),
                }
                .map(|()| {
                    if let Some(slot) = t.values.get_mut(i) {
                        *slot = Some(value);
                    }
                }),
                _ => None,
            };
            if parsed.is_none() {
                self.tags.keys().append_value(decode_lossy(name));
                self.tags.values().append_value(decode_lossy(value));
            }
        }
        self.tags.append(true)?;
        Ok(t)
    }

    /// Appends the typed tag columns (`Result` falls back on the movetext's marker).
    fn push_typed(&mut self, game: &GameRecord, typed: &Typed<'_>) {
        let marker = game.result.map(|r| r.as_str().as_bytes());
        for (i, (builder, value)) in self.text.iter_mut().zip(typed.values).enumerate() {
            match (i, value) {
                (UTC_DATE | WHITE_ELO | BLACK_ELO, _) => builder.append_null(),
                (RESULT, None) => builder.append_option(marker.map(decode_lossy)),
                (_, value) => builder.append_option(value.map(decode_lossy)),
            }
        }
        self.date.append_option(typed.date);
        for (builder, value) in self.elo.iter_mut().zip(typed.elo) {
            builder.append_option(value);
        }
    }

    /// Appends the play: plies, start position, coded moves, clocks, evaluations, keys.
    fn push_play(&mut self, game: &GameRecord) {
        self.plies.append_value(i32::try_from(game.moves.len()).unwrap_or(i32::MAX));
        if game.start == Position::new() {
            self.start_fen.append_null();
        } else {
            let options =
                FenOptions { castling: CastlingNotation::XFen, en_passant: EnPassantMode::Legal };
            self.start_fen.append_value(fen_of(&game.start, options));
        }
        self.moves.append_value(&self.bytes);
        if game.clocks.iter().any(Option::is_some) {
            // A clock past i32 centiseconds (5965 hours) is null, not a wrong number.
            let centis = |c: chessbits_pgn::Clock| i32::try_from(c.millis() / 10).ok();
            self.clocks.append_value(game.clocks.iter().map(|c| c.and_then(centis)));
        } else {
            self.clocks.append_null();
        }
        if game.evals.iter().any(Option::is_some) {
            // Ply `i` (from 0) leaves the side that did not make it to move.
            let first = game.start.turn();
            let to_move = |i: usize| if i.is_multiple_of(2) { !first } else { first };
            let evals = game.evals.iter().enumerate();
            self.evals.append_value(evals.map(|(i, e)| e.map(|e| eval_value(e.score, to_move(i)))));
        } else {
            self.evals.append_null();
        }
        self.positions.values().append_slice(&self.keys_buf);
        self.positions.append(true);
    }

    /// The games pushed so far as a batch; the builder is empty again.
    ///
    /// # Errors
    /// [`ExportError::Arrow`] if the columns do not fit the schema (a bug).
    pub fn finish(&mut self) -> Result<RecordBatch, ExportError> {
        let mut columns: Vec<ArrayRef> = vec![Arc::new(self.game.finish())];
        for (i, builder) in self.text.iter_mut().enumerate() {
            let column: ArrayRef = match i {
                UTC_DATE => Arc::new(self.date.finish()),
                WHITE_ELO => Arc::new(self.elo[0].finish()),
                BLACK_ELO => Arc::new(self.elo[1].finish()),
                _ => Arc::new(builder.finish()),
            };
            // The string builders of the typed columns got nulls: drop them.
            if matches!(i, UTC_DATE | WHITE_ELO | BLACK_ELO) {
                let _ = builder.finish();
            }
            columns.push(column);
        }
        columns.push(Arc::new(self.tags.finish()));
        columns.push(Arc::new(self.plies.finish()));
        columns.push(Arc::new(self.start_fen.finish()));
        columns.push(Arc::new(self.moves.finish()));
        columns.push(Arc::new(self.clocks.finish()));
        columns.push(Arc::new(self.evals.finish()));
        columns.push(Arc::new(self.positions.finish()));
        columns.push(Arc::new(self.error.finish()));
        self.len = 0;
        self.counts = ExportStats::default();
        Ok(RecordBatch::try_new(self.schema.clone(), columns)?)
    }

    /// Finishes the batch with the counts of its games, for
    /// [`ParquetExporter::write_coded`]: games can be coded into batches on worker threads
    /// and written by one exporter in order.
    ///
    /// # Errors
    /// As [`finish`](Self::finish).
    pub fn finish_coded(&mut self) -> Result<CodedBatch, ExportError> {
        let counts = self.counts;
        Ok(CodedBatch { batch: self.finish()?, counts })
    }
}

/// Games coded into one batch of the [`schema`] ([`BatchBuilder::finish_coded`]), with their
/// counts, ready for [`ParquetExporter::write_coded`].
#[derive(Clone, Debug)]
pub struct CodedBatch {
    batch: RecordBatch,
    counts: ExportStats,
}

impl CodedBatch {
    /// The batch with `before` added to every game number ([`add_to_game_numbers`]).
    ///
    /// # Errors
    /// As [`add_to_game_numbers`].
    pub fn number_after(self, before: u64) -> Result<CodedBatch, ExportError> {
        let batch = add_to_game_numbers(&self.batch, before)?;
        Ok(CodedBatch { batch, ..self })
    }

    /// The batch.
    pub fn batch(&self) -> &RecordBatch {
        &self.batch
    }

    /// Its games, plies and move bytes.
    pub fn counts(&self) -> ExportStats {
        self.counts
    }
}

/// A rating as the typed `WhiteElo` and `BlackElo` columns take it: a number written as it
/// would be written back (digits, no sign, no leading zero), so that no text is lost; any
/// other (`+1500`, `01500`, `-5`, ` 1500`) stays text in the `tags` map.
pub(crate) fn parse_rating(text: &str) -> Option<i32> {
    let canonical = text.bytes().all(|b| b.is_ascii_digit())
        && !text.is_empty()
        && (text == "0" || !text.starts_with('0'));
    canonical.then(|| text.parse().ok()).flatten()
}

/// `batch` (of the [`schema`], or any schema whose first column is the Int64 `game`) with
/// `before` added to every game number: for games read on several threads, whose workers
/// number each chunk's games from its start, made the input's numbers by whoever hands the
/// batches on in order (`chessbits_pgn::par_chunks`). The other columns are shared, not
/// copied.
///
/// # Errors
/// [`ArrowError`] if the first column is not an Int64 column, or a number would pass
/// `i64::MAX`.
///
/// ```
/// use chessbits_arrow::{add_to_game_numbers, BatchBuilder, ExportOptions};
/// use chessbits_cbg::GameRecord;
///
/// let mut builder = BatchBuilder::new(&ExportOptions::default());
/// let mut game = GameRecord::default();
/// game.number = 1;
/// builder.push(&game)?;
/// game.number = 2;
/// builder.push(&game)?;
/// let batch = add_to_game_numbers(&builder.finish()?, 40)?;
/// let games = batch.column(0).as_any().downcast_ref::<arrow_array::Int64Array>().unwrap();
/// assert_eq!(games.values(), &[41, 42]);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn add_to_game_numbers(batch: &RecordBatch, before: u64) -> Result<RecordBatch, ArrowError> {
    if before == 0 {
        return Ok(batch.clone());
    }
    let games =
        batch.column(0).as_any().downcast_ref::<arrow_array::Int64Array>().ok_or_else(|| {
            ArrowError::SchemaError("the first column is not the Int64 game".into())
        })?;
    let add = i64::try_from(before)
        .map_err(|_| ArrowError::ComputeError(format!("{before} games before a batch")))?;
    let numbers = games
        .values()
        .iter()
        .map(|&n| n.checked_add(add))
        .collect::<Option<Vec<i64>>>()
        .ok_or_else(|| ArrowError::ComputeError("a game number passes i64::MAX".into()))?;
    let mut columns = batch.columns().to_vec();
    columns[0] = Arc::new(arrow_array::Int64Array::new(
        numbers.into(),
        arrow_array::Array::nulls(games).cloned(),
    ));
    RecordBatch::try_new(batch.schema(), columns)
}

/// What a [`ParquetExporter`] wrote.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ExportStats {
    /// Games written.
    pub games: u64,
    /// Their plies.
    pub plies: u64,
    /// Bytes of their coded mainlines.
    pub move_bytes: u64,
    /// Row groups written.
    pub row_groups: u64,
    /// Rows of games that did not read ([`BatchBuilder::push_failed`]), not in `games`.
    pub failed: u64,
}

/// Streams games into a Parquet file: one batch of games in memory at a time, plus the row
/// group the Parquet writer is filling.
pub struct ParquetExporter<W: Write + Send> {
    writer: ArrowWriter<W>,
    batch: BatchBuilder,
    batch_games: usize,
    stats: ExportStats,
    /// Rows coded elsewhere ([`write_coded`](Self::write_coded)) not written yet, in order.
    pending: VecDeque<RecordBatch>,
    pending_rows: usize,
}

impl<W: Write + Send> fmt::Debug for ParquetExporter<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ParquetExporter").field("stats", &self.stats).finish_non_exhaustive()
    }
}

impl<W: Write + Send> ParquetExporter<W> {
    /// Starts a Parquet file on `out`.
    ///
    /// # Errors
    /// [`ExportError::Parquet`] if the header cannot be written.
    pub fn new(out: W, options: &ExportOptions) -> Result<ParquetExporter<W>, ExportError> {
        let properties = WriterProperties::builder()
            .set_max_row_group_row_count(Some(options.row_group_rows.max(1)))
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .set_key_value_metadata(Some(vec![
                KeyValue::new("chessbits.moves".into(), MoveCodec::Model.to_string()),
                KeyValue::new("chessbits.schema".into(), SCHEMA_VERSION.to_string()),
            ]))
            .build();
        let batch = BatchBuilder::new(options);
        let writer = ArrowWriter::try_new(out, batch.schema.clone(), Some(properties))?;
        Ok(ParquetExporter {
            writer,
            batch,
            batch_games: options.batch_games.max(1),
            stats: ExportStats::default(),
            pending: VecDeque::new(),
            pending_rows: 0,
        })
    }

    /// Adds one game.
    ///
    /// # Errors
    /// [`ExportError::Moves`] for a game whose mainline does not code (it is skipped, the
    /// file stays good); [`ExportError::Parquet`] when writing fails.
    pub fn write_game(&mut self, game: &GameRecord) -> Result<(), ExportError> {
        // Rows coded elsewhere go first, to keep the games in order.
        self.write_pending(self.pending_rows)?;
        self.batch.push(game)?;
        self.stats.games += 1;
        self.stats.plies += game.moves.len() as u64;
        self.stats.move_bytes += self.batch.bytes.len() as u64;
        if self.batch.len() >= self.batch_games {
            self.flush_batch()?;
        }
        Ok(())
    }

    /// Adds a row for game `number`, which did not read ([`BatchBuilder::push_failed`]).
    ///
    /// # Errors
    /// [`ExportError::Parquet`] when writing fails.
    pub fn write_failed(
        &mut self,
        number: u64,
        message: &str,
        tags: &[(Vec<u8>, Vec<u8>)],
    ) -> Result<(), ExportError> {
        self.write_pending(self.pending_rows)?;
        self.batch.push_failed(number, message, tags)?;
        self.stats.failed += 1;
        if self.batch.len() >= self.batch_games {
            self.flush_batch()?;
        }
        Ok(())
    }

    /// Adds games coded on another thread ([`BatchBuilder::finish_coded`]). The file is the
    /// same bytes as if each game had gone through [`write_game`](Self::write_game): the rows
    /// are written in batches of the same sizes.
    ///
    /// # Errors
    /// [`ExportError::Parquet`] when writing fails.
    pub fn write_coded(&mut self, coded: CodedBatch) -> Result<(), ExportError> {
        if !self.batch.is_empty() {
            let rows = self.batch.finish()?;
            self.pending_rows += rows.num_rows();
            self.pending.push_back(rows);
        }
        self.stats.games += coded.counts.games;
        self.stats.plies += coded.counts.plies;
        self.stats.move_bytes += coded.counts.move_bytes;
        self.stats.failed += coded.counts.failed;
        self.pending_rows += coded.batch.num_rows();
        self.pending.push_back(coded.batch);
        while self.pending_rows >= self.batch_games {
            self.write_pending(self.batch_games)?;
        }
        Ok(())
    }

    /// Writes the first `rows` pending rows as one batch.
    fn write_pending(&mut self, rows: usize) -> Result<(), ExportError> {
        let mut parts = Vec::new();
        let mut need = rows.min(self.pending_rows);
        while need > 0 {
            let Some(first) = self.pending.pop_front() else { break };
            let take = first.num_rows().min(need);
            if take < first.num_rows() {
                self.pending.push_front(first.slice(take, first.num_rows() - take));
            }
            parts.push(first.slice(0, take));
            need -= take;
            self.pending_rows -= take;
        }
        match parts.len() {
            0 => {}
            1 => self.writer.write(&parts[0])?,
            _ => self.writer.write(&concat_batches(&self.batch.schema, &parts)?)?,
        }
        Ok(())
    }

    fn flush_batch(&mut self) -> Result<(), ExportError> {
        self.write_pending(self.pending_rows)?;
        if !self.batch.is_empty() {
            let batch = self.batch.finish()?;
            self.writer.write(&batch)?;
        }
        Ok(())
    }

    /// What was written so far.
    pub fn stats(&self) -> ExportStats {
        self.stats
    }

    /// Writes the last games and the footer, and returns the output.
    ///
    /// # Errors
    /// [`ExportError::Parquet`] when writing fails.
    pub fn finish(mut self) -> Result<(W, ExportStats), ExportError> {
        self.flush_batch()?;
        self.writer.flush()?;
        self.stats.row_groups = self.writer.flushed_row_groups().len() as u64;
        let out = self.writer.into_inner()?;
        Ok((out, self.stats))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_are_typed_only_when_no_text_is_lost() {
        for (text, rating) in [("1500", Some(1500)), ("0", Some(0)), ("2147483647", Some(i32::MAX))]
        {
            assert_eq!(parse_rating(text), rating, "{text}");
        }
        for text in ["+1500", "01500", "-5", " 1500", "1500 ", "", "?", "2147483648", "15e2"] {
            assert_eq!(parse_rating(text), None, "{text}");
        }
    }

    fn check_date(text: &str, expected: Option<i32>) {
        assert_eq!(parse_date(text.as_bytes()), expected, "{text}");
    }

    #[test]
    fn dates() {
        // Days since 1970-01-01, counted independently: 2000-03-01 is 30 years (7 leap
        // days: 72, 76, 80, 84, 88, 92, 96) plus January, February (leap) of 2000.
        check_date("1970.01.01", Some(0));
        check_date("1970.12.31", Some(364));
        check_date("1969.12.31", Some(-1));
        check_date("2000.03.01", Some(30 * 365 + 7 + 31 + 29));
        check_date("2021.10.01", Some(18_901));
        check_date("1900.02.29", None);
        check_date("2000.02.29", Some(11_016));
        check_date("2021.02.30", None);
        check_date("2021.13.01", None);
        check_date("2021.00.10", None);
        check_date("0000.01.01", None);
        check_date("????.??.??", None);
        check_date("2021.10.0", None);
        check_date("2021-10-01", None);
    }

    #[test]
    fn evals() {
        for (score, expected) in [
            (Score::Centipawns(17), 17),
            (Score::Centipawns(-150), -150),
            (Score::Centipawns(1_000_000), MAX_CENTIPAWNS),
            (Score::Centipawns(i32::MIN), -MAX_CENTIPAWNS),
            (Score::Mate(3), 99_997),
            (Score::Mate(-3), -99_997),
            (Score::Mate(i32::MIN), -90_001),
            (Score::Mate(i32::MAX), 90_001),
        ] {
            for to_move in Color::ALL {
                assert_eq!(eval_value(score, to_move), expected, "{score:?}");
            }
        }
        // Mate in 0: the side to move after the move is mated, which no sign of `#0` says.
        assert_eq!(eval_value(Score::Mate(0), Color::White), -MATE);
        assert_eq!(eval_value(Score::Mate(0), Color::Black), MATE);
    }

    #[test]
    fn a_game_that_does_not_code_leaves_the_batch_as_it_was() {
        let mut start = Position::new();
        let e4 = start.resolve_uci("e2e4".parse().unwrap()).unwrap();
        let mut good = GameRecord::default();
        good.number = 1;
        good.moves = vec![e4];
        start.play(e4).unwrap();
        // e2e4 again, with Black to move.
        let mut bad = GameRecord::default();
        bad.number = 2;
        bad.start = start;
        bad.moves = vec![e4];
        for uncoded in [false, true] {
            let mut batch = BatchBuilder::new(&ExportOptions::default());
            let push = |batch: &mut BatchBuilder, game| match uncoded {
                true => batch.push_uncoded(game),
                false => batch.push(game),
            };
            let error = push(&mut batch, &bad).unwrap_err();
            assert!(matches!(error, ExportError::Moves { game: 2, .. }), "{error}");
            assert_eq!(error.to_string(), "game 2: ply 1: e2e4 is not a legal move");
            push(&mut batch, &good).unwrap();
            let rows = batch.finish().unwrap();
            assert_eq!(rows.num_rows(), 1);
            for column in rows.columns() {
                assert_eq!(column.len(), 1);
            }
        }
    }

    #[test]
    fn an_uncoded_row_differs_from_a_coded_one_only_in_moves() {
        use arrow_array::Array;
        let pgn = b"[White \"A\"]\n\n1. e4 { [%clk 0:01:00] } e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n1. d4 d5 *\n\n\
                    1. e4 d5 2. e5 f5 3. exf6 Nxf6 4. d4 c5 5. Nf3 c4 6. b4 cxb3 7. Ke2 *\n";
        let mut reader = chessbits_pgn::SliceReader::new(pgn);
        let mut games = chessbits_cbg::GameBuilder::default();
        let options = ExportOptions { keys: Keys::All, ..ExportOptions::default() };
        let (mut coded, mut uncoded) = (BatchBuilder::new(&options), BatchBuilder::new(&options));
        // Keys found by playing the moves again, as for a record built by hand.
        let mut replayed = BatchBuilder::new(&options);
        while let Some(game) = reader.read_game(&mut games) {
            let mut game = game.unwrap();
            assert_eq!(game.keys.len(), game.moves.len());
            coded.push(&game).unwrap();
            uncoded.push_uncoded(&game).unwrap();
            game.keys.clear();
            replayed.push_uncoded(&game).unwrap();
        }
        let (coded, uncoded) = (coded.finish().unwrap(), uncoded.finish().unwrap());
        assert_eq!(uncoded, replayed.finish().unwrap());
        for (i, field) in coded.schema().fields().iter().enumerate() {
            let (a, b) = (coded.column(i), uncoded.column(i));
            if field.name() == "moves" {
                assert_ne!(a.to_data(), b.to_data());
                assert_eq!(
                    b.as_any().downcast_ref::<arrow_array::BinaryArray>().unwrap().value(0),
                    b""
                );
            } else {
                assert_eq!(a.to_data(), b.to_data(), "{}", field.name());
            }
        }
    }

    #[test]
    fn chess960_from_the_standard_array_keeps_its_start_fen() {
        use arrow_array::cast::AsArray;
        use arrow_array::Array;
        let mut start = Position::new();
        start.set_castling_mode(chessbits_move::CastlingMode::Chess960).unwrap();
        let mut batch = BatchBuilder::new(&ExportOptions::default());
        batch.push(&GameRecord::default()).unwrap();
        let mut record = GameRecord::default();
        record.start = start;
        batch.push(&record).unwrap();
        let rows = batch.finish().unwrap();
        let fen = rows.column_by_name("start_fen").unwrap().as_string::<i32>();
        assert!(fen.is_null(0));
        assert_eq!(fen.value(1), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    }
}
