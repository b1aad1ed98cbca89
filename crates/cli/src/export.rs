//! `chessbits export FILE.pgn|FILE.cbg... -o OUT.parquet [--stats]`: games to one Parquet file
//! in the schema of `chessbits_arrow` (docs/formats.md). An input whose first bytes are the
//! `.cbg` magic is read as a `.cbg` file, any other as PGN. Games that do not read are
//! reported on stderr as `chessbits pgn` and `chessbits unpack` report them, and make the exit
//! status 1; they are written as rows too, with the tags read and the `error` column set, so
//! that analyses of tags alone count them. `--stats` prints one JSON object to stdout:
//! `{"games":G,"plies":P,"move_bytes":M,"total_bytes":T,"failed_games":F}`, `total_bytes`
//! the size of the Parquet file.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;

use chessbits_arrow::games::{
    cbg_failed_message, movetext_failed_message, pgn_failed_message, read_games_into, GameRows,
};
use chessbits_arrow::lichess::{ParquetRows, RowBatch};
use chessbits_arrow::{
    BatchBuilder, CodedBatch, ExportError, ExportOptions, Keys, ParquetExporter,
};
use chessbits_cbg::{CbgError, CbgReader, FileKind, GameBuilder, GameRecord};
use chessbits_pgn::{
    par_chunks, par_map, par_map_pooled, ChunkReader, MovetextReader, Parallel, PgnError,
    PgnErrorKind, ReplayError,
};

use crate::files::{check_inputs, check_output, peek, read_error, Peeked, Pending};
use crate::pack::{file_error, raw_groups, Counting, Item};
use crate::progress::{Done, Progress};

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

impl ExportArgs {
    /// The inputs.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// Whether `--quiet` was given.
    pub fn quiet(&self) -> bool {
        self.threads.quiet()
    }
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

/// What `export` counted: failed games and inputs not read (to their end).
#[derive(Default)]
pub struct ExportStats {
    /// Games written.
    pub games: u64,
    /// Games that do not read (broken PGN, damaged `.cbg` records).
    pub failed: u64,
    /// Inputs not read, or not to their end: missing, not PGN, read errors, a cut `.cbg`.
    pub failed_inputs: u64,
}

/// Runs `export`. The inputs are checked first: if one cannot be read, nothing is written.
/// The file is written under a temporary name and renamed once complete, and not at all when
/// no row was written and something failed. A game that does not read is a row with its tags
/// and its `error` (see `chessbits_arrow`'s schema), and is counted in `failed_games`. Games
/// are numbered from 1 across all inputs, in input order, broken games included, as
/// `chessbits pgn` numbers them; a `.cbg` input's games keep their stored numbers (those of
/// the PGN that was packed) offset by the inputs before, as `index build` numbers them.
pub fn run(
    args: &ExportArgs,
    progress: &mut Progress,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<ExportStats> {
    let mut stats = ExportStats::default();
    if !check_inputs(&args.files, err)? || !check_output(&args.files, &args.output, err)? {
        stats.failed_inputs += 1;
        return Ok(stats);
    }
    let options = ExportOptions {
        row_group_rows: args.row_group,
        keys: args.keys,
        ..ExportOptions::default()
    };
    let output = &args.output;
    let pending = Pending::new(output);
    let file = File::create(pending.temp())
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", output.display())))?;
    let mut exporter =
        ParquetExporter::new(Counting { inner: BufWriter::new(file), bytes: 0 }, &options)
            .map_err(to_io)?;
    let (mut read_before, mut before) = (0, 0);
    for path in &args.files {
        if crate::rows::is_parquet(path) {
            let parallel = args.threads.options();
            let mut file = FileRun { path, before, read_before, stats: &mut stats };
            let size =
                export_parquet(&mut file, (&options, &parallel), &mut exporter, progress, err)?;
            before = file.before;
            read_before += size;
            continue;
        }
        let Some(mut peeked) = open_pgn_or_cbg(path, err)? else {
            stats.failed_inputs += 1;
            continue;
        };
        let parallel = args.threads.options();
        let read = peeked.read.clone();
        let mut file = FileRun { path, before, read_before, stats: &mut stats };
        if peeked.kind == FileKind::Cbg {
            let input = BufReader::with_capacity(1 << 16, peeked.input.by_ref());
            export_cbg(&mut file, input, (&options, &parallel), &mut exporter, progress, err)?;
        } else {
            export_pgn(
                &mut file,
                &mut peeked,
                (&options, &parallel),
                &mut exporter,
                progress,
                err,
            )?;
        }
        before = file.before;
        read_before += read.get();
    }
    let (counting, written) = exporter.finish().map_err(to_io)?;
    drop(counting.inner.into_inner().map_err(|e| e.into_error())?);
    stats.games = written.games;
    // A run that wrote no row and failed leaves no file; rows of games that did not read are
    // kept (their tags are data).
    if stats.games + written.failed > 0 || (stats.failed == 0 && stats.failed_inputs == 0) {
        pending.commit()?;
    }
    if args.stats {
        writeln!(
            out,
            "{{\"games\":{},\"plies\":{},\"move_bytes\":{},\"total_bytes\":{},\"failed_games\":{},\"failed_inputs\":{}}}",
            written.games, written.plies, written.move_bytes, counting.bytes, stats.failed, stats.failed_inputs
        )?;
    }
    out.flush()?;
    Ok(stats)
}

/// Exports a lichess Parquet file row by row, as Python's `read_games` reads it
/// ([`ParquetRows`]): the rows decoded here (the tag columns on a thread of their own), read
/// and coded on the pool's workers, written here in file order. Returns the file's size.
fn export_parquet<W: Write + Send>(
    file: &mut FileRun<'_>,
    (export, options): (&ExportOptions, &Parallel),
    exporter: &mut ParquetExporter<W>,
    progress: &mut Progress,
    err: &mut impl Write,
) -> io::Result<u64> {
    let path = file.path;
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let rows = match ParquetRows::open_split(|| File::open(path), options.threads) {
        Ok(rows) => rows,
        Err(e) => {
            writeln!(err, "chessbits: {}: {e}", path.display())?;
            file.stats.failed_inputs += 1;
            return Ok(size);
        }
    };
    let total = rows.rows();
    let export = *export;
    let work = move |reader: &mut MovetextReader, item: io::Result<RowBatch>| {
        let rows = item?;
        let mut chunk = ChunkRows { batch: BatchBuilder::new(&export), errors: Vec::new() };
        let mut builder = GameBuilder::default();
        if let Err(e) = rows.read_into(reader, &mut builder, &mut chunk) {
            chunk.errors.push((None, e.to_string()));
        }
        Ok::<_, io::Error>((
            chunk.batch.finish_coded(),
            chunk.errors,
            rows.before() + rows.len() as u64,
        ))
    };
    let before = file.before;
    par_map_pooled(
        options.threads,
        move || rows,
        work,
        |batch| {
            let (coded, errors, done) = match batch {
                Ok(batch) => batch,
                Err(e) => {
                    // The file's decoding stopped: the rows before it are kept.
                    writeln!(err, "chessbits: {}: {e}", path.display())?;
                    file.stats.failed_inputs += 1;
                    return Ok(());
                }
            };
            for (number, message) in &errors {
                match number {
                    Some(n) => {
                        writeln!(
                            err,
                            "chessbits: {}: game {}{message}",
                            path.display(),
                            before + n
                        )?;
                    }
                    None => writeln!(err, "chessbits: {}: {message}", path.display())?,
                }
            }
            file.stats.failed += errors.len() as u64;
            file.before = before + done;
            let coded = coded.and_then(|c| c.number_after(before)).map_err(to_io)?;
            let done = Done { stored: size, read: total, done };
            progress.set(file.read_before, done, exporter.stats().games + coded.counts().games);
            exporter.write_coded(coded).map_err(to_io)
        },
    )?;
    Ok(size)
}

/// An input opened for `export`: PGN or `.cbg`; `None`, once reported, for one that cannot
/// be opened or is neither.
fn open_pgn_or_cbg(path: &Path, err: &mut impl Write) -> io::Result<Option<Peeked>> {
    match peek(path) {
        Ok(peeked) if peeked.kind == FileKind::Binary => {
            writeln!(err, "chessbits: {} {}", path.display(), peeked.kind.not_pgn().unwrap_or(""))?;
            Ok(None)
        }
        Ok(peeked) => Ok(Some(peeked)),
        Err(e) => {
            writeln!(err, "chessbits: {}: {e}", path.display())?;
            Ok(None)
        }
    }
}

/// One input being exported: its path, the games of the inputs before it, the stored bytes
/// they took, and the counts.
struct FileRun<'a> {
    path: &'a Path,
    before: u64,
    read_before: u64,
    stats: &'a mut ExportStats,
}

/// What a worker made of a chunk of PGN: its rows, each game that did not read (its number
/// counted from the chunk's start, if the message names it, and the message after `game N`),
/// where the chunk ends, and the read error that ended the input in it, if one did. The
/// numbers are made the input's in the sink, which knows the games before the chunk.
struct PgnBatch {
    coded: Result<CodedBatch, ExportError>,
    errors: Vec<(Option<u64>, String)>,
    end: u64,
    read_error: Option<(u64, io::Error)>,
    games: u64,
}

/// Exports one PGN input.
fn export_pgn<W: Write + Send>(
    file: &mut FileRun<'_>,
    peeked: &mut Peeked,
    (export, options): (&ExportOptions, &Parallel),
    exporter: &mut ParquetExporter<W>,
    progress: &mut Progress,
    err: &mut impl Write,
) -> io::Result<()> {
    let (path, before) = (file.path, file.before);
    let decompressed = peeked.decompressed.clone();
    let read = peeked.read.clone();
    // Reading, replaying and coding each game into Arrow columns runs on the workers; writing
    // Parquet on this thread, in input order and in the serial path's batch sizes, so the
    // file is the same bytes for any thread count.
    par_chunks(
        peeked.input.by_ref(),
        &crate::pgn::fitted(options, path),
        |reader| export_chunk(reader, export),
        |games_before, batch: PgnBatch| {
            let before = before + games_before;
            for (number, message) in &batch.errors {
                match number {
                    Some(n) => writeln!(
                        err,
                        "chessbits: {}: game {}{message}",
                        path.display(),
                        before + n
                    )?,
                    None => writeln!(err, "chessbits: {}: {message}", path.display())?,
                }
            }
            file.stats.failed += batch.errors.len() as u64;
            file.before = file.before.max(before + batch.games);
            if let Some((offset, e)) = &batch.read_error {
                read_error(err, path, *offset, e)?;
                file.stats.failed_inputs += 1;
            }
            let coded = batch.coded.and_then(|c| c.number_after(before)).map_err(to_io)?;
            let done =
                Done { stored: read.get(), read: decompressed.load(Relaxed), done: batch.end };
            progress.set(file.read_before, done, exporter.stats().games + coded.counts().games);
            exporter.write_coded(coded).map_err(to_io)
        },
    )
}

/// A chunk's rows as `export` makes them: every game coded into Arrow columns, and each game
/// that did not read or code kept as a message for stderr (its number from the chunk's start,
/// if the message names one, and the message after `game N`).
struct ChunkRows {
    batch: BatchBuilder,
    errors: Vec<(Option<u64>, String)>,
}

impl GameRows for ChunkRows {
    fn game(&mut self, game: &GameRecord) -> Result<(), ExportError> {
        match self.batch.push(game) {
            Ok(()) => {}
            Err(ExportError::Moves { game: number, error }) => {
                let message = error.to_string();
                self.batch.push_failed(number, &message, &game.tags)?;
                self.errors.push((Some(number), format!(": {message}")));
            }
            Err(e) => self.errors.push((None, e.to_string())),
        }
        Ok(())
    }

    /// The game's row keeps the tags read (all of a refused variant game's) and says where
    /// and why in `error`; stderr says it with the game's number in the input.
    fn failed(&mut self, number: u64, e: &PgnError<ReplayError>, tags: &[(Vec<u8>, Vec<u8>)]) {
        self.push_failed(number, pgn_failed_message(e), tags);
    }

    /// A Parquet row whose movetext did not read: the same, where in its movetext.
    fn failed_movetext(
        &mut self,
        number: u64,
        e: &PgnError<ReplayError>,
        tags: &[(Vec<u8>, Vec<u8>)],
    ) {
        self.push_failed(number, movetext_failed_message(e), tags);
    }
}

impl ChunkRows {
    fn push_failed(&mut self, number: u64, message: String, tags: &[(Vec<u8>, Vec<u8>)]) {
        if let Err(e) = self.batch.push_failed(number, &message, tags) {
            self.errors.push((None, e.to_string()));
        }
        self.errors.push((Some(number), format!(", {message}")));
    }
}

/// Reads, replays and codes every game of a chunk into Arrow columns (on a worker), its games
/// numbered from the chunk's start.
fn export_chunk(reader: &mut ChunkReader<'_>, export: &ExportOptions) -> PgnBatch {
    let mut rows = ChunkRows { batch: BatchBuilder::new(export), errors: Vec::new() };
    let (games, read_error) = match read_games_into(reader, &mut rows) {
        Ok(read) => (read.games, read.read_error),
        // `ChunkRows::game` keeps every error as a message: this is not reached.
        Err(e) => {
            rows.errors.push((None, e.to_string()));
            (reader.games(), None)
        }
    };
    // A read error ends the input where it is: the chunk ends there.
    let (end, read_error) = match read_error.map(|e| (e.offset, e.kind)) {
        Some((offset, PgnErrorKind::Io(io))) => (offset, Some((offset, io))),
        _ => (reader.end(), None),
    };
    PgnBatch { coded: rows.batch.finish_coded(), errors: rows.errors, end, read_error, games }
}

/// A `.cbg` game that did not decode or code, as a row of its own (its number, the tags if
/// it has them, where and why) and as a line for stderr.
fn failed(
    batch: &mut BatchBuilder,
    errors: &mut Vec<String>,
    number: u64,
    message: String,
    tags: &[(Vec<u8>, Vec<u8>)],
) {
    if let Err(e) = batch.push_failed(number, &message, tags) {
        errors.push(e.to_string());
    }
    errors.push(format!("game {number}{}", message_tail(&message)));
}

/// How stderr goes on after `game N` for a message of the `error` column: `game N (byte B):
/// why` as `.cbg` errors read everywhere, `game N: why` for the others.
fn message_tail(message: &str) -> String {
    match message.strip_prefix("byte ").and_then(|rest| rest.split_once(": ")) {
        Some((byte, why)) => format!(" (byte {byte}): {why}"),
        None => format!(": {message}"),
    }
}

/// What a worker makes of a group of `.cbg` records: the batch, the messages of the games
/// that did not read, the file's errors (an index record's, or the one that ended it), and the
/// highest number of a game that decoded (0: none).
type CbgBatch = (Result<CodedBatch, ExportError>, Vec<String>, Vec<CbgError>, u64);

/// Game records of a `.cbg` file handed to a worker at a time: about 30 KiB of records and a
/// few milliseconds of decoding and coding.
const CBG_GROUP: usize = 256;

/// The groups of records of a `.cbg` file, each with the games skipped when packing before
/// its first record, as the records before it store them (read on the records' thread, a few
/// bytes a record): a damaged record is numbered by its place plus that count, whatever group
/// it opens.
fn counted_groups<R: Read>(reader: CbgReader<R>) -> impl Iterator<Item = (Vec<Item>, u64)> {
    let mut skipped = 0;
    raw_groups(reader, CBG_GROUP).map(move |group| {
        let before = skipped;
        for item in &group {
            if let Item::Game(raw) = item {
                skipped = raw.skipped().unwrap_or(skipped);
            }
        }
        (group, before)
    })
}

/// Decodes a group of records and builds them into Arrow columns (on a worker); `skip` is the
/// games skipped when packing before its first record.
fn export_group(group: Vec<Item>, mut skip: u64, export: &ExportOptions) -> CbgBatch {
    let mut batch = BatchBuilder::new(export);
    let (mut errors, mut file_errors, mut last) = (Vec::new(), Vec::new(), 0);
    for item in group {
        let bad = match item {
            Item::Game(raw) => {
                // A record whose check matched stores its count, even if its body does not
                // decode past it; a damaged one takes the last count before it (its lowest
                // number, as `unpack` prints it): never a good game's.
                skip = raw.skipped().unwrap_or(skip);
                match raw.decode() {
                    // The inputs after count on from the last game that decoded, as `index
                    // build` does (not from a damaged record's place).
                    Ok(game) => {
                        last = last.max(game.number);
                        match batch.push(&game) {
                            Ok(()) => {}
                            Err(ExportError::Moves { game: number, error }) => {
                                let message = error.to_string();
                                failed(&mut batch, &mut errors, number, message, &game.tags);
                            }
                            Err(e) => errors.push(e.to_string()),
                        }
                        continue;
                    }
                    Err(e) => e,
                }
            }
            Item::Bad(e) => e,
            Item::Index(e) | Item::End(e) => {
                file_errors.push(e);
                continue;
            }
        };
        let number = bad.at.game.saturating_add(skip);
        failed(&mut batch, &mut errors, number, cbg_failed_message(&bad), &[]);
    }
    (batch.finish_coded(), errors, file_errors, last)
}

/// Exports one `.cbg` input. The records are read (framing, checks, index, trailer) on a
/// thread of their own, decoded and built into Arrow columns on the workers, and written here
/// in file order, as for PGN: the same bytes for any thread count. Its games keep the numbers
/// stored (their numbers in the input that was packed), offset by the games of the inputs
/// before, as `index build` numbers them; the inputs after it count on from its last number.
fn export_cbg<W: Write + Send>(
    file: &mut FileRun<'_>,
    input: impl BufRead + Send,
    (export, options): (&ExportOptions, &Parallel),
    exporter: &mut ParquetExporter<W>,
    progress: &mut Progress,
    err: &mut impl Write,
) -> io::Result<()> {
    let (path, before) = (file.path, file.before);
    let reader = match CbgReader::new(input) {
        Ok(reader) => reader,
        Err(e) => {
            file_error(path, &e, err)?;
            file.stats.failed_inputs += 1;
            return Ok(());
        }
    };
    par_map(
        options.threads,
        move || counted_groups(reader),
        |(group, skip): (Vec<Item>, u64)| export_group(group, skip, export),
        |(coded, errors, file_errors, last): CbgBatch| {
            for message in &errors {
                writeln!(err, "chessbits: {}: {message}", path.display())?;
            }
            file.stats.failed += errors.len() as u64;
            if !file_errors.is_empty() {
                file.stats.failed_inputs += 1;
            }
            for e in &file_errors {
                file_error(path, e, err)?;
            }
            let coded = coded.and_then(|c| c.number_after(before)).map_err(to_io)?;
            if last > 0 {
                file.before = file.before.max(before + last);
            }
            progress.set(
                file.read_before,
                Done::default(),
                exporter.stats().games + coded.counts().games,
            );
            exporter.write_coded(coded).map_err(to_io)
        },
    )
}
