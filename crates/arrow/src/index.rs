//! The position index's answers as Arrow record batches: the one schema of `find` and of
//! `explore` that Python's `chessbits.Index` and SQL's `chess_find` / `chess_explore` share.
//!
//! ```
//! use chessbits_arrow::index::{explore_batch, find_schema};
//! use chessbits_index::MoveStats;
//! use chessbits_state::Position;
//!
//! let batch = explore_batch(&Position::new(), &[])?;
//! assert_eq!(batch.num_rows(), 0);
//! assert_eq!(batch.schema().field(0).name(), "uci");
//! assert_eq!(find_schema().field(1).name(), "ply");
//! # Ok::<_, arrow_schema::ArrowError>(())
//! ```

use std::sync::Arc;

use arrow_array::builder::{StringBuilder, UInt16Builder, UInt32Builder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use chessbits_index::{format_date, Found, MoveStats};
use chessbits_notation::san::SanPlus;
use chessbits_state::Position;

/// `find`'s columns: `game` (its number in the input), `ply` (the first ply where it reaches
/// the position), `white`, `black`, `result`, `date` (PGN's form, null if none), `white_elo`,
/// `black_elo` (null if unknown), `speed`, `event`.
pub fn find_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("game", DataType::UInt64, false),
        Field::new("ply", DataType::UInt16, false),
        Field::new("white", DataType::Utf8, false),
        Field::new("black", DataType::Utf8, false),
        Field::new("result", DataType::Utf8, false),
        Field::new("date", DataType::Utf8, true),
        Field::new("white_elo", DataType::UInt16, true),
        Field::new("black_elo", DataType::UInt16, true),
        Field::new("speed", DataType::Utf8, false),
        Field::new("event", DataType::Utf8, false),
    ]))
}

/// `explore`'s columns: `uci` and `san` (null in the row of the games that end in the
/// position), `games`, `white`, `draws`, `black`, `average_rating` (null if no game has both
/// ratings), `last_date` (null if none).
pub fn explore_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("uci", DataType::Utf8, true),
        Field::new("san", DataType::Utf8, true),
        Field::new("games", DataType::UInt64, false),
        Field::new("white", DataType::UInt64, false),
        Field::new("draws", DataType::UInt64, false),
        Field::new("black", DataType::UInt64, false),
        Field::new("average_rating", DataType::UInt32, true),
        Field::new("last_date", DataType::Utf8, true),
    ]))
}

/// The games `find` gave, as a batch of [`find_schema`].
///
/// # Errors
/// Only if Arrow refuses the columns (a bug).
pub fn find_batch(found: &[Found]) -> Result<RecordBatch, ArrowError> {
    let (mut game, mut ply) = (UInt64Builder::new(), UInt16Builder::new());
    let mut text: [StringBuilder; 6] = Default::default();
    let (mut white_elo, mut black_elo) = (UInt16Builder::new(), UInt16Builder::new());
    for f in found {
        let g = &f.game;
        game.append_value(g.number);
        ply.append_value(f.ply);
        white_elo.append_option((g.facts.white_elo != 0).then_some(g.facts.white_elo));
        black_elo.append_option((g.facts.black_elo != 0).then_some(g.facts.black_elo));
        let [white, black, result, date, speed, event] = &mut text;
        white.append_value(&g.white);
        black.append_value(&g.black);
        result.append_value(g.facts.result().to_string());
        date.append_option((g.facts.date != 0).then(|| format_date(g.facts.date)));
        speed.append_value(g.speed().name());
        event.append_value(&g.event);
    }
    let [mut white, mut black, mut result, mut date, mut speed, mut event] = text;
    let columns: Vec<ArrayRef> = vec![
        Arc::new(game.finish()),
        Arc::new(ply.finish()),
        Arc::new(white.finish()),
        Arc::new(black.finish()),
        Arc::new(result.finish()),
        Arc::new(date.finish()),
        Arc::new(white_elo.finish()),
        Arc::new(black_elo.finish()),
        Arc::new(speed.finish()),
        Arc::new(event.finish()),
    ];
    RecordBatch::try_new(find_schema(), columns)
}

/// The rows `explore` gave for `pos`, as a batch of [`explore_schema`].
///
/// # Errors
/// Only if Arrow refuses the columns (a bug).
pub fn explore_batch(pos: &Position, rows: &[MoveStats]) -> Result<RecordBatch, ArrowError> {
    let (mut uci, mut san) = (StringBuilder::new(), StringBuilder::new());
    let mut counts: [UInt64Builder; 4] = Default::default();
    let (mut rating, mut last) = (UInt32Builder::new(), StringBuilder::new());
    for row in rows {
        uci.append_option(row.m.map(|m| m.to_uci(pos.castling_mode()).to_string()));
        san.append_option(row.m.map(|m| SanPlus::from_move(pos, m).to_string()));
        for (b, n) in counts.iter_mut().zip([row.games, row.white, row.draws, row.black]) {
            b.append_value(n);
        }
        rating.append_option(row.average_rating);
        last.append_option((row.last_date != 0).then(|| format_date(row.last_date)));
    }
    let [mut games, mut white, mut draws, mut black] = counts;
    let columns: Vec<ArrayRef> = vec![
        Arc::new(uci.finish()),
        Arc::new(san.finish()),
        Arc::new(games.finish()),
        Arc::new(white.finish()),
        Arc::new(draws.finish()),
        Arc::new(black.finish()),
        Arc::new(rating.finish()),
        Arc::new(last.finish()),
    ];
    RecordBatch::try_new(explore_schema(), columns)
}
