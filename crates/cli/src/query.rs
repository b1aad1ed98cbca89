//! `chessbits query "SQL" --table NAME=PATH... [--format csv|table] [--threads N]`: SQL over
//! exported games (Parquet files or directories of them) on DataFusion, with the chess
//! functions of `chessbits_sql` registered. `csv` (the default) writes a header row, then one
//! line per row as each batch of the answer arrives; `table` draws the whole answer as a
//! table for people. A query that fails prints `chessbits: <DataFusion's message>` on stderr
//! and exits with 1.

use std::io::{self, Write};

use chessbits_sql::datafusion::arrow::array::RecordBatch;
use chessbits_sql::datafusion::arrow::csv::WriterBuilder;
use chessbits_sql::datafusion::arrow::error::ArrowError;
use chessbits_sql::datafusion::arrow::util::pretty::pretty_format_batches;
use chessbits_sql::datafusion::common::DataFusionError;
use chessbits_sql::{run_query, Table};

/// How the answer is written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// CSV with a header row, streamed.
    #[default]
    Csv,
    /// A table drawn with box characters, once the whole answer is in.
    Table,
}

/// The options of `query`.
#[derive(clap::Args)]
pub struct QueryArgs {
    /// The SQL query.
    #[arg(value_name = "SQL")]
    sql: String,
    /// A table of games, `NAME=PATH`: a Parquet file or a directory of `.parquet` files.
    #[arg(long = "table", value_name = "NAME=PATH", required = true)]
    tables: Vec<Table>,
    /// How the answer is written.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Threads (and partitions) the query runs on; all the cores by default.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

/// A failed write of the answer, keeping an I/O error's kind (a closed pipe is not a failure).
fn external(e: ArrowError) -> DataFusionError {
    match e {
        ArrowError::IoError(_, e) => DataFusionError::IoError(e),
        e => DataFusionError::External(Box::new(e)),
    }
}

/// Runs `query`: 0 on success; a failed query is an error.
pub fn run(args: &QueryArgs, out: &mut impl Write) -> io::Result<u64> {
    let threads =
        args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let result = match args.format {
        Format::Csv => {
            let mut writer = WriterBuilder::new().with_header(true).build(&mut *out);
            let mut rows = false;
            run_query(&args.tables, &args.sql, threads, |batch| {
                rows = true;
                writer.write(batch).map_err(external)
            })
            .and_then(|schema| {
                if !rows {
                    // No batch: the header alone.
                    writer.write(&RecordBatch::new_empty(schema)).map_err(external)?;
                }
                Ok(())
            })
        }
        Format::Table => {
            let mut batches = Vec::new();
            run_query(&args.tables, &args.sql, threads, |batch| {
                batches.push(batch.clone());
                Ok(())
            })
            .and_then(|schema| {
                if batches.is_empty() {
                    batches.push(RecordBatch::new_empty(schema));
                }
                let table = pretty_format_batches(&batches)?;
                writeln!(out, "{table}").map_err(DataFusionError::IoError)
            })
        }
    };
    result.map_err(|e| match e {
        DataFusionError::IoError(e) => e,
        e => io::Error::other(e.to_string()),
    })?;
    out.flush()?;
    Ok(0)
}
