//! SQL over chess games: scalar functions for [Apache DataFusion](https://datafusion.apache.org)
//! that decode, replay and search the games `chessbits-arrow` exports (`chessbits export`),
//! and a small runner for queries over Parquet files.
//!
//! [`register`] adds the functions to a [`SessionContext`]; [`functions`] hands them out for
//! other registries (a Ballista executor's, for example). A game is three columns of the
//! exported table, always passed together and in this order: `moves` (the mainline coded by
//! the model move codec), `plies` (its length: the bytes do not say where it ends) and
//! `start_fen` (NULL for the standard start).
//!
//! | function | returns | |
//! |---|---|---|
//! | `chess_uci(moves, plies, start_fen)` | Utf8 | the mainline as space-separated UCI: the third field `chessbits pgn --to uci` prints |
//! | `chess_san(moves, plies, start_fen)` | Utf8 | the mainline as space-separated SAN with `+` and `#`, as `chessbits san` prints it |
//! | `chess_fen_at(moves, plies, start_fen, ply)` | Utf8 | the FEN after `ply` plies (0: the start; X-FEN castling, the en passant square when a capture is legal); NULL past the end |
//! | `chess_move_at(moves, plies, start_fen, ply)` | Utf8 | the UCI move of ply `ply` (from 1); NULL outside the game |
//! | `chess_reaches(moves, plies, start_fen, fen)` | Boolean | whether the game passes through the position `fen` (start included) |
//! | `chess_next_move(moves, plies, start_fen, fen)` | Utf8 | the UCI move played the first time the game stood on `fen`; NULL if never, or if the game ended there |
//! | `chess_outcome(moves, plies, start_fen)` | Utf8 | how the moves ended the game by rule, `1-0 (checkmate)`, `1/2-1/2 (stalemate)`, ... (the result, then a kebab-case reason); NULL if they did not |
//! | `chess_key(fen)` | Int64 | the Polyglot key of a position, signed as the `keys` column stores it: `array_has(keys, chess_key('...'))` searches the first plies without decoding |
//!
//! Two table functions read position indexes (`chessbits index build`, `.cbx`):
//! `SELECT * FROM chess_explore('2025-*.cbx', 'startpos e2e4')` gives the moves played from a
//! position (`uci`, `san`, `games`, `white`, `draws`, `black`, `average_rating`,
//! `last_date`), and `chess_find(indexes, position [, limit])` the games that reach it
//! (`game`, `ply` and their tags), which a query joins with the exported games on their
//! number. The position is a FEN or `startpos` and UCI moves; a `*` in the file name makes
//! every matching index a shard. A last string argument filters as the tool's options do:
//! `chess_explore('2025-*.cbx', 'startpos', 'speed=blitz min_rating=2000 since=2025-03')`.
//!
//! Positions are compared by their Polyglot Zobrist key (so "the same position" counts the
//! en passant file only when a pawn stands ready to capture). `chess_reaches` and
//! `chess_next_move` decode only as far as they must: they stop at the first match, or as
//! soon as the position can no longer be reached (fewer pieces or pawns than the target, a
//! pawn gone from its start square, a castling right lost). `chess_fen_at` and
//! `chess_move_at` stop at their ply.
//!
//! NULL in `moves`, `plies`, `ply` or `fen` gives NULL. Columns that do not decode never
//! panic: the query fails with an error naming the function, the row of the batch and the
//! spot, for example `chess_uci: row 3 of the batch: moves: ply 12 (byte 4): the code names
//! no legal move`. A call with the wrong arguments fails when the query is planned.
//!
//! # Example
//!
//! ```
//! use chessbits_sql::datafusion::arrow::array::{AsArray, BinaryArray, Int32Array, RecordBatch, StringArray};
//! use chessbits_sql::datafusion::prelude::SessionContext;
//! use chessbits_codec::move_codec::{self, MoveCodec};
//! use chessbits_movegen::MoveGen;
//! use chessbits_state::Position;
//! use std::sync::Arc;
//!
//! // One game, coded as `chessbits export` codes it.
//! let start = Position::new();
//! let mut pos = start;
//! let mut moves = Vec::new();
//! for uci in ["e2e4", "e7e5", "g1f3"] {
//!     let m = pos.resolve_uci(uci.parse()?)?;
//!     pos.play(m)?;
//!     moves.push(m);
//! }
//! let mut bytes = Vec::new();
//! move_codec::encode(MoveCodec::Model, &start, &moves, &mut bytes)?;
//! let games = RecordBatch::try_from_iter([
//!     ("moves", Arc::new(BinaryArray::from(vec![bytes.as_slice()])) as _),
//!     ("plies", Arc::new(Int32Array::from(vec![3])) as _),
//!     ("start_fen", Arc::new(StringArray::from(vec![None::<&str>])) as _),
//! ])?;
//!
//! let ctx = SessionContext::new();
//! chessbits_sql::register(&ctx);
//! ctx.register_batch("games", games)?;
//! let sql = "SELECT chess_uci(moves, plies, start_fen), chess_move_at(moves, plies, start_fen, 2) FROM games";
//! let batches = tokio::runtime::Runtime::new()?.block_on(async { ctx.sql(sql).await?.collect().await })?;
//! assert_eq!(batches[0].column(0).as_string::<i32>().value(0), "e2e4 e7e5 g1f3");
//! assert_eq!(batches[0].column(1).as_string::<i32>().value(0), "e7e5");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::str::FromStr;

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::common::{DataFusionError, Result};
use datafusion::logical_expr::ScalarUDF;
use datafusion::prelude::{ParquetReadOptions, SessionConfig, SessionContext};
use futures::StreamExt;

/// The DataFusion this crate builds on (55), so callers name the same types.
pub use datafusion;

mod game;
mod index;
mod udf;

use udf::{ChessUdf, Function};

/// The names of the SQL functions, in the order of the [crate docs](crate).
pub const FUNCTION_NAMES: [&str; 8] = [
    "chess_uci",
    "chess_san",
    "chess_fen_at",
    "chess_move_at",
    "chess_reaches",
    "chess_next_move",
    "chess_outcome",
    "chess_key",
];

/// The SQL functions (see the [crate docs](crate)), for a function registry.
pub fn functions() -> Vec<ScalarUDF> {
    Function::ALL.into_iter().map(ChessUdf::udf).collect()
}

/// The names of the table functions over position indexes (`.cbx`).
pub const TABLE_FUNCTION_NAMES: [&str; 2] = ["chess_explore", "chess_find"];

/// Adds the SQL functions (see the [crate docs](crate)) and the table functions over
/// position indexes (`chess_explore`, `chess_find`) to `ctx`.
pub fn register(ctx: &SessionContext) {
    for udf in functions() {
        ctx.register_udf(udf);
    }
    ctx.register_udtf("chess_explore", std::sync::Arc::new(index::ChessExplore));
    ctx.register_udtf("chess_find", std::sync::Arc::new(index::ChessFind));
}

/// A session running queries on `threads` partitions, with the functions registered.
pub fn session_context(threads: usize) -> SessionContext {
    let config = SessionConfig::new().with_target_partitions(threads.max(1));
    let ctx = SessionContext::new_with_config(config);
    register(&ctx);
    ctx
}

/// A table of games to query: `NAME=PATH`, PATH a Parquet file or a directory of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The name queries use.
    pub name: String,
    /// A Parquet file, or a directory whose `.parquet` files make the table.
    pub path: PathBuf,
}

/// A `--table` argument that is not `NAME=PATH`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTableError(pub String);

impl core::fmt::Display for ParseTableError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "expected NAME=PATH, got {:?}", self.0)
    }
}

impl std::error::Error for ParseTableError {}

impl FromStr for Table {
    type Err = ParseTableError;

    fn from_str(s: &str) -> Result<Table, ParseTableError> {
        match s.split_once('=') {
            Some((name, path)) if !name.is_empty() && !path.is_empty() => {
                Ok(Table { name: name.to_owned(), path: PathBuf::from(path) })
            }
            _ => Err(ParseTableError(s.to_owned())),
        }
    }
}

/// Registers the Parquet file or directory `path` as table `name` of `ctx`.
///
/// # Errors
/// A [`DataFusionError`] if the path does not exist or holds no readable Parquet.
pub async fn register_table(ctx: &SessionContext, name: &str, path: &Path) -> Result<()> {
    let text = path.to_str().ok_or_else(|| {
        DataFusionError::Plan(format!("table {name}: the path {} is not UTF-8", path.display()))
    })?;
    let metadata = std::fs::metadata(path)
        .map_err(|e| DataFusionError::Plan(format!("table {name}: {}: {e}", path.display())))?;
    // A file is read whatever its name ends with; a directory's `.parquet` files are read.
    let extension = match path.extension().and_then(|e| e.to_str()) {
        Some(e) if metadata.is_file() => format!(".{e}"),
        _ if metadata.is_file() => String::new(),
        _ => ".parquet".to_owned(),
    };
    let options = ParquetReadOptions::default().file_extension(&extension);
    ctx.register_parquet(name, text, options).await
}

/// Runs `sql` over `tables` on `threads` threads, handing each batch of the answer to `each`
/// as it comes, and returns the answer's schema (a caller that got no batch still knows the
/// columns).
///
/// # Errors
/// The first [`DataFusionError`] of registering a table, planning or running the query, or of
/// `each`; or an I/O error starting the runtime.
///
/// # Panics
/// When called from inside an asynchronous runtime (it starts and drops its own): use
/// [`session_context`] and [`register_table`] there.
pub fn run_query(
    tables: &[Table],
    sql: &str,
    threads: usize,
    mut each: impl FnMut(&RecordBatch) -> Result<()>,
) -> Result<SchemaRef> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads.max(1))
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let ctx = session_context(threads);
        for table in tables {
            register_table(&ctx, &table.name, &table.path).await?;
        }
        let frame = ctx.sql(sql).await?;
        let schema = SchemaRef::new(frame.schema().as_arrow().clone());
        let mut stream = frame.execute_stream().await?;
        while let Some(batch) = stream.next().await {
            each(&batch?)?;
        }
        Ok(schema)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_the_functions() {
        let names: Vec<_> = functions().iter().map(|f| f.name().to_owned()).collect();
        assert_eq!(names, FUNCTION_NAMES);
    }

    #[test]
    fn table_arguments() {
        let table: Table = "games=data/a.parquet".parse().unwrap();
        assert_eq!(table, Table { name: "games".into(), path: "data/a.parquet".into() });
        let path_with_equals: Table = "g=a=b".parse().unwrap();
        assert_eq!(path_with_equals.path, PathBuf::from("a=b"));
        let errors: Vec<_> = ["games", "=a.parquet", "games="]
            .iter()
            .map(|bad| bad.parse::<Table>().unwrap_err().to_string())
            .collect();
        insta::assert_snapshot!(errors.join("\n"), @r#"
        expected NAME=PATH, got "games"
        expected NAME=PATH, got "=a.parquet"
        expected NAME=PATH, got "games="
        "#);
    }
}
