//! `chessbits export FILE.pgn|FILE.cbg... -o OUT.parquet [--stats]`: games to one Parquet file
//! in the schema of `chessbits_arrow` (docs/formats.md). An input whose first bytes are the
//! `.cbg` magic is read as a `.cbg` file, any other as PGN. Games that do not read are
//! reported on stderr as `chessbits pgn` and `chessbits unpack` report them, and make the exit
//! status 1; the others are written. `--stats` prints one JSON object to stdout:
//! `{"games":G,"plies":P,"move_bytes":M,"total_bytes":T,"failed_games":F}`, `total_bytes`
//! the size of the Parquet file.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use chessbits_arrow::{
    BatchBuilder, CodedBatch, ExportError, ExportOptions, Keys, ParquetExporter,
};
use chessbits_codec::cbg::{CbgError, CbgReader, GameBuilder, RawGame, MAGIC};
use chessbits_pgn::{par_chunks, par_map, Input, Parallel, ReadCount};

use crate::pack::{raw_groups, Counting};
use crate::pgn::{open, total_size};
use crate::progress::Progress;

/// The options of `export`.
#[derive(clap::Args)]
pub struct ExportArgs {
    /// PGN or `.cbg` files to read, in order; `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The Parquet file to write.
    #[arg(short, long, value_name = "OUT.parquet")]
    output: PathBuf,
    /// Rows (games) per Parquet row group.
    #[arg(long, value_name = "N", default_value_t = chessbits_arrow::DEFAULT_ROW_GROUP_ROWS)]
    row_group: usize,
    /// Plies whose position keys the `keys` column holds; `all` for every position.
    #[arg(long, value_name = "N|all", default_value = "40", value_parser = parse_keys)]
    keys: Keys,
    /// Print counts and sizes as one JSON object on stdout.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    threads: crate::Threads,
}

fn parse_keys(text: &str) -> Result<Keys, String> {
    match text {
        "all" => Ok(Keys::All),
        n => n.parse().map(Keys::First).map_err(|_| format!("not a number or `all`: {n}")),
    }
}

fn to_io(e: ExportError) -> io::Error {
    io::Error::other(e.to_string())
}

/// Runs `export`: returns the number of failures.
pub fn run(args: &ExportArgs, out: &mut impl Write, err: &mut impl Write) -> io::Result<u64> {
    let options = ExportOptions {
        row_group_rows: args.row_group,
        keys: args.keys,
        ..ExportOptions::default()
    };
    let output = &args.output;
    let file = File::create(output)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", output.display())))?;
    let mut exporter =
        ParquetExporter::new(Counting { inner: BufWriter::new(file), bytes: 0 }, &options)
            .map_err(to_io)?;
    let mut failed = 0u64;
    let mut progress = Progress::new(total_size(&args.files));
    for path in &args.files {
        match open(path) {
            Ok(input) => {
                let parallel = args.threads.options();
                failed += export_file(
                    path,
                    input,
                    (&options, &parallel),
                    &mut exporter,
                    &mut progress,
                    err,
                )?;
            }
            Err(e) => {
                writeln!(err, "chessbits: {}: {e}", path.display())?;
                failed += 1;
            }
        }
    }
    progress.finish();
    let (counting, stats) = exporter.finish().map_err(to_io)?;
    if args.stats {
        writeln!(
            out,
            "{{\"games\":{},\"plies\":{},\"move_bytes\":{},\"total_bytes\":{},\"failed_games\":{failed}}}",
            stats.games, stats.plies, stats.move_bytes, counting.bytes
        )?;
    }
    out.flush()?;
    Ok(failed)
}

/// Exports one input: returns its failures.
fn export_file<W: Write + Send>(
    path: &Path,
    input: Input,
    (export, options): (&ExportOptions, &Parallel),
    exporter: &mut ParquetExporter<W>,
    progress: &mut Progress,
    err: &mut impl Write,
) -> io::Result<u64> {
    let read = input.read_count();
    let mut input = input;
    let mut head = Vec::with_capacity(MAGIC.len());
    input.by_ref().take(MAGIC.len() as u64).read_to_end(&mut head)?;
    let cbg = head == MAGIC;
    let input = io::Cursor::new(head).chain(input);
    if cbg {
        let input = BufReader::with_capacity(1 << 16, input);
        return export_cbg(path, input, (export, options, &read), exporter, progress, err);
    }
    let mut failed = 0;
    // Reading, replaying and coding each game into Arrow columns runs on the workers; writing
    // Parquet on this thread, in input order and in the serial path's batch sizes, so the
    // file is the same bytes for any thread count.
    par_chunks(
        input,
        &crate::pgn::fitted(options, path),
        |mut chunk| {
            let mut reader = chunk.reader();
            let mut builder = GameBuilder::default();
            let mut batch = BatchBuilder::new(export);
            let mut errors = Vec::new();
            while let Some(result) = reader.read_game(&mut builder) {
                let message = match result {
                    Ok(mut game) => {
                        game.number = reader.games();
                        let pushed = batch.push(&game);
                        builder.recycle(game);
                        match pushed {
                            Ok(()) => continue,
                            Err(e) => e.to_string(),
                        }
                    }
                    Err(e) => {
                        format!("game {}, line {}, column {}: {}", e.game, e.line, e.column, e.kind)
                    }
                };
                errors.push(message);
            }
            (batch.finish_coded(), errors)
        },
        |batch| write_batch(path, batch, (exporter, progress, read.get()), err, &mut failed),
    )?;
    Ok(failed)
}

/// What a worker made of a chunk or group of games: their rows, and a message for each game
/// that did not read.
type Batch = (Result<CodedBatch, ExportError>, Vec<String>);

/// Writes a worker's rows in order after reporting its failures (counted in `failed`), and
/// moves the progress bar to `read` bytes.
fn write_batch<W: Write + Send>(
    path: &Path,
    (coded, errors): Batch,
    (exporter, progress, read): (&mut ParquetExporter<W>, &mut Progress, u64),
    err: &mut impl Write,
    failed: &mut u64,
) -> io::Result<()> {
    for message in &errors {
        writeln!(err, "chessbits: {}: {message}", path.display())?;
    }
    *failed += errors.len() as u64;
    let coded = coded.map_err(to_io)?;
    progress.set(read, None, exporter.stats().games + coded.counts().games);
    exporter.write_coded(coded).map_err(to_io)
}

/// Game records of a `.cbg` file handed to a worker at a time: about 30 KiB of records and a
/// few milliseconds of decoding and coding.
const CBG_GROUP: usize = 256;

/// Exports one `.cbg` input: returns its failures. The records are read (framing, checks,
/// index, trailer) on a thread of their own, decoded and built into Arrow columns on the
/// workers, and written here in file order, as for PGN: the same bytes for any thread count.
fn export_cbg<W: Write + Send>(
    path: &Path,
    input: impl BufRead + Send,
    (export, options, read): (&ExportOptions, &Parallel, &ReadCount),
    exporter: &mut ParquetExporter<W>,
    progress: &mut Progress,
    err: &mut impl Write,
) -> io::Result<u64> {
    let reader = match CbgReader::new(input) {
        Ok(reader) => reader,
        Err(e) => {
            writeln!(err, "chessbits: {}: {e}", path.display())?;
            return Ok(1);
        }
    };
    let mut failed = 0;
    par_map(
        options.threads,
        move || raw_groups(reader, CBG_GROUP),
        |group: Vec<Result<RawGame, CbgError>>| {
            let mut batch = BatchBuilder::new(export);
            let mut errors = Vec::new();
            for raw in group {
                match raw.and_then(|raw| raw.decode()) {
                    Ok(game) => match batch.push(&game) {
                        Ok(()) => {}
                        Err(e) => errors.push(e.to_string()),
                    },
                    Err(e) => errors.push(e.to_string()),
                }
            }
            (batch.finish_coded(), errors)
        },
        |batch| write_batch(path, batch, (exporter, progress, read.get()), err, &mut failed),
    )?;
    Ok(failed)
}
