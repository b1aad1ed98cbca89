//! `chessbits index`: builds a position index over game files, and answers `find` (which
//! games reach a position) and `explore` (what was played from it) from one or more indexes.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;

use chessbits_cbg::{CbgReader, FileKind};
use chessbits_index::{
    explore_shards, format_date, position_after, prepare_chunk, BuildOptions, Filter, Found, Index,
    IndexBuilder, MoveStats, PreparedChunk, PreparedGame,
};
use chessbits_notation::fen::parse_position;
use chessbits_notation::san::SanPlus;
use chessbits_pgn::{par_chunks, Parallel};
use chessbits_state::Position;

use crate::files::{check_inputs, check_output, peek, read_error, Peeked, Pending};
use crate::pgn::fitted;
use crate::progress::{Done, Progress};
use crate::Threads;

/// The `index` subcommands.
#[derive(clap::Subcommand)]
pub enum IndexCommand {
    /// Builds a position index (`.cbx`) over PGN files (plain or compressed), `.cbg` files or
    /// lichess Parquet files.
    ///
    /// Games are numbered from 1 across the inputs, in input order, as every other command
    /// numbers them; a game that does not read is reported on stderr and left out. The
    /// (position, game) pairs are sorted in at most `--memory` MiB, spilling sorted runs to
    /// temporary files, and each section of the index goes to a temporary file once it
    /// outgrows a sixteenth of that (at most 16 MiB): the build's memory does not grow with the
    /// input but for the distinct tag strings. The index is written under a temporary name
    /// and renamed once whole.
    /// The file is the same bytes for every thread count and memory bound.
    Build {
        /// Game files to read, in order; `-` reads standard input.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// The index to write.
        #[arg(short, long, value_name = "OUT.cbx")]
        output: PathBuf,
        /// Index at most N plies a game (default: every ply).
        #[arg(long, value_name = "N")]
        max_ply: Option<u32>,
        /// The memory bound of the sort, in MiB.
        #[arg(long, value_name = "MiB", default_value_t = 1024)]
        memory: usize,
        /// Print counts and sizes as one JSON object on stdout: games, positions, postings,
        /// popular, bytes, spilled_runs, failed_games, failed_inputs.
        #[arg(long)]
        stats: bool,
        #[command(flatten)]
        threads: Threads,
    },
    /// The games that reach a position, in input order: `game` (its number), `ply` (the first
    /// ply where it does) and its tags, one tab-separated row a game after a header line.
    Find {
        #[command(flatten)]
        query: Query,
        /// At most N games.
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
    },
    /// The moves played from a position: one row a move (UCI, SAN, games, White wins, draws,
    /// Black wins, the players' average rating, the last date), most played first, and a last
    /// row with no move for the games that end there. A game counts once, with the move played
    /// after its first arrival.
    Explore {
        #[command(flatten)]
        query: Query,
    },
}

/// What `find` and `explore` share: the indexes, the position, the filters, the output.
#[derive(clap::Args)]
pub struct Query {
    /// Index files (`.cbx`), each a shard: answers are merged, in the order given.
    #[arg(required = true, value_name = "INDEX")]
    indexes: Vec<PathBuf>,
    /// The position, as FEN.
    #[arg(long, conflicts_with_all = ["moves", "batch"])]
    fen: Option<String>,
    /// The position after these UCI moves from the start (`"e2e4 e7e5"`).
    #[arg(long, conflicts_with = "batch")]
    moves: Option<String>,
    /// Read one FEN a line from standard input; write one answer a line, in order, each
    /// followed by a blank line. A line that is empty or no FEN (said on stderr) or that a
    /// damaged index cannot answer gets no rows, not even the header, or `null` with --json.
    #[arg(long)]
    batch: bool,
    /// Only games with these results (comma-separated: `1-0`, `0-1`, `1/2-1/2`, `*`).
    #[arg(long, value_name = "RESULTS")]
    result: Option<String>,
    /// Only games from this month on (`YYYY-MM`).
    #[arg(long, value_name = "YYYY-MM")]
    since: Option<String>,
    /// Only games up to this month (`YYYY-MM`).
    #[arg(long, value_name = "YYYY-MM")]
    until: Option<String>,
    /// Only games whose players' average rating is in this band or above: one of lichess's
    /// rating bands 0, 1000, 1200, ..., 2200, 2500 (another value is refused).
    #[arg(long, value_name = "ELO")]
    min_rating: Option<u16>,
    /// Only games whose players' average rating is in this band or below (2000 takes up to
    /// 2199): one of the bands 0, 1000, ..., 2200, 2500 (another value is refused).
    #[arg(long, value_name = "ELO")]
    max_rating: Option<u16>,
    /// Only games of these speeds (comma-separated: ultraBullet, bullet, blitz, rapid,
    /// classical, correspondence, and unknown for a game without a `TimeControl` that reads).
    #[arg(long, value_name = "SPEEDS")]
    speed: Option<String>,
    /// JSON instead of tab-separated rows: one array of objects per answer.
    #[arg(long)]
    json: bool,
}

/// Runs an `index` subcommand; `Ok(true)` when everything went well.
pub fn run(command: IndexCommand, out: &mut impl Write, err: &mut impl Write) -> io::Result<bool> {
    match command {
        IndexCommand::Build { files, output, max_ply, memory, stats, threads } => {
            let options = BuildOptions::default()
                .with_max_ply(max_ply.unwrap_or(u32::MAX))
                .with_memory(memory.saturating_mul(1 << 20));
            build(&files, &output, options, (threads, stats), out, err)
        }
        IndexCommand::Find { query, limit } => answer(&query, Some(limit), out, err),
        IndexCommand::Explore { query } => answer(&query, None, out, err),
    }
}

/// A game of a chunk, prepared on a worker, or why it is left out.
type Prepared = Result<PreparedGame, String>;

/// A build in progress: the builder, the games numbered so far, the counts.
struct Build {
    builder: IndexBuilder,
    max_ply: u32,
    number: u64,
    failed: u64,
    failed_inputs: u64,
    read_before: u64,
}

impl Build {
    /// Adds a prepared game, or reports one left out.
    fn push(&mut self, path: &Path, game: Prepared, err: &mut impl Write) -> io::Result<()> {
        match game {
            Ok(game) => self.builder.push(game).map_err(io::Error::other),
            Err(message) => {
                self.failed += 1;
                writeln!(err, "chessbits: {}: game {}{message}", path.display(), self.number)
            }
        }
    }

    /// Numbers a chunk's games after the games so far and adds them.
    fn push_chunk(
        &mut self,
        path: &Path,
        games: Vec<Prepared>,
        err: &mut impl Write,
    ) -> io::Result<()> {
        for game in games {
            self.number += 1;
            let number = self.number;
            let game = game.map(|mut g| {
                g.renumber(number);
                g
            });
            self.push(path, game, err)?;
        }
        Ok(())
    }

    /// A `.cbg` input: its games keep their numbers in the input that was packed, offset by
    /// the games of the inputs before.
    fn cbg(&mut self, path: &Path, input: impl Read, err: &mut impl Write) -> io::Result<()> {
        let reader = match CbgReader::new(BufReader::new(input)) {
            Ok(reader) => reader,
            Err(e) => {
                self.failed_inputs += 1;
                return writeln!(err, "chessbits: {}: {e}", path.display());
            }
        };
        let before = self.number;
        for record in reader {
            let game = match record {
                Ok(game) => game,
                Err(e) => {
                    // An index record's fault is the file's: no game is lost by it.
                    if e.kind.is_index() {
                        self.failed_inputs += 1;
                    } else {
                        self.failed += 1;
                    }
                    writeln!(err, "chessbits: {}: {e}", path.display())?;
                    continue;
                }
            };
            self.number = before + game.number;
            let prepared = PreparedGame::new(&game, self.max_ply).map(|mut p| {
                p.renumber(self.number);
                p
            });
            self.push(path, prepared.map_err(|e| format!(": {e}")), err)?;
        }
        Ok(())
    }

    /// A lichess Parquet input, read and prepared on the workers a batch of rows at a time,
    /// pushed here in file order.
    #[cfg(feature = "arrow")]
    fn parquet(
        &mut self,
        path: &Path,
        threads: usize,
        (progress, err): (&mut Progress, &mut impl Write),
    ) -> io::Result<()> {
        let max_ply = self.max_ply;
        let stopped = crate::rows::par_rows(
            path,
            threads,
            move |batch, reader| {
                chessbits_index::prepare_games(&mut batch.games(reader), max_ply, 0)
            },
            |_, chunk: PreparedChunk, done| {
                self.push_chunk(path, chunk.games, err)?;
                progress.set(self.read_before, done, self.number);
                Ok(())
            },
        )?;
        self.failed_inputs += u64::from(crate::rows::stopped(path, stopped, err)?);
        self.read_before += std::fs::metadata(path).map_or(0, |m| m.len());
        Ok(())
    }

    /// A PGN input, read and prepared on the workers, pushed here in input order.
    fn pgn(
        &mut self,
        path: &Path,
        peeked: &mut Peeked,
        parallel: &Parallel,
        (progress, err): (&mut Progress, &mut impl Write),
    ) -> io::Result<()> {
        let (read, decompressed) = (peeked.read.clone(), peeked.decompressed.clone());
        let done = |end| Done { stored: read.get(), read: decompressed.load(Relaxed), done: end };
        let max_ply = self.max_ply;
        par_chunks(
            peeked.input.by_ref(),
            &fitted(parallel, path),
            |reader| prepare_chunk(reader, max_ply),
            |_, chunk: PreparedChunk| {
                self.push_chunk(path, chunk.games, err)?;
                if let Some((offset, e)) = &chunk.read_error {
                    read_error(err, path, *offset, e)?;
                    self.failed_inputs += 1;
                }
                progress.set(self.read_before, done(chunk.end), self.number);
                Ok::<_, io::Error>(())
            },
        )?;
        self.read_before += read.get();
        Ok(())
    }
}

/// Reads every game of `files` into an index builder, reporting broken games and inputs on
/// `err`: what `index build` writes to a file and `serve` keeps in memory. `None` when an input
/// cannot be read at all (said on `err`).
pub(crate) fn index_games(
    files: &[PathBuf],
    options: BuildOptions,
    threads: &Threads,
    err: &mut impl Write,
) -> io::Result<Option<Indexed>> {
    if !check_inputs(files, err)? {
        return Ok(None);
    }
    let max_ply = options.max_ply;
    let mut run = Build {
        builder: IndexBuilder::new(options),
        max_ply,
        number: 0,
        failed: 0,
        failed_inputs: 0,
        read_before: 0,
    };
    let mut progress = Progress::new(crate::pgn::total_size(files), threads.quiet());
    let parallel = threads.options();
    for path in files {
        #[cfg(feature = "arrow")]
        if crate::rows::is_parquet(path) {
            run.parquet(path, parallel.threads, (&mut progress, err))?;
            continue;
        }
        match peek(path) {
            Ok(peeked) if matches!(peeked.kind, FileKind::Binary) => {
                writeln!(err, "chessbits: {}: neither PGN nor .cbg", path.display())?;
                run.failed_inputs += 1;
            }
            Ok(mut peeked) if peeked.kind == FileKind::Cbg => {
                run.cbg(path, peeked.input.by_ref(), err)?
            }
            Ok(mut peeked) => run.pgn(path, &mut peeked, &parallel, (&mut progress, err))?,
            Err(e) => {
                writeln!(err, "chessbits: {}: {e}", path.display())?;
                run.failed_inputs += 1;
            }
        }
    }
    let Build { builder, number, failed, failed_inputs, .. } = run;
    Ok(Some(Indexed { builder, number, failed, failed_inputs, progress }))
}

/// Games read into an index builder ([`index_games`]), and the counts of the run.
pub(crate) struct Indexed {
    pub(crate) builder: IndexBuilder,
    pub(crate) number: u64,
    pub(crate) failed: u64,
    pub(crate) failed_inputs: u64,
    pub(crate) progress: Progress,
}

fn build(
    files: &[PathBuf],
    output: &Path,
    options: BuildOptions,
    (threads, stats): (Threads, bool),
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<bool> {
    if !check_output(files, output, err)? {
        return Ok(false);
    }
    let Some(Indexed { builder, number, failed, failed_inputs, progress }) =
        index_games(files, options, &threads, err)?
    else {
        return Ok(false);
    };
    let pending = Pending::new(output);
    let file = File::create(pending.temp())
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", output.display())))?;
    let mut writer = BufWriter::new(file);
    let built = builder.finish(&mut writer).map_err(io::Error::other)?;
    drop(writer.into_inner().map_err(|e| e.into_error())?);
    pending.commit()?;
    progress.finish(number, failed, failed_inputs, err);
    if stats {
        writeln!(
            out,
            "{{\"games\":{},\"positions\":{},\"postings\":{},\"popular\":{},\"bytes\":{},\"spilled_runs\":{},\"failed_games\":{failed},\"failed_inputs\":{failed_inputs}}}",
            built.games, built.positions, built.postings, built.popular, built.bytes, built.spilled_runs
        )?;
    }
    out.flush()?;
    Ok(failed == 0 && failed_inputs == 0)
}

impl Query {
    fn filter(&self) -> Result<Filter, String> {
        Filter::from_text(
            self.result.as_deref(),
            (self.since.as_deref(), self.until.as_deref()),
            (self.min_rating, self.max_rating),
            self.speed.as_deref(),
        )
    }

    fn position(&self) -> Result<Position, String> {
        match (&self.fen, &self.moves) {
            (Some(fen), _) => parse_position(fen).map_err(|e| format!("--fen: {e}")),
            (None, Some(moves)) => position_after(moves).map_err(|e| format!("--moves: {e}")),
            (None, None) => Err("give the position: --fen, --moves or --batch".into()),
        }
    }
}

/// Answers `find` (`limit` given, maybe `None`) or `explore` (`limit` not given).
fn answer(
    query: &Query,
    limit: Option<Option<usize>>,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<bool> {
    let filter = match query.filter() {
        Ok(filter) => filter,
        Err(message) => {
            writeln!(err, "chessbits: {message}")?;
            return Ok(false);
        }
    };
    let mut indexes = Vec::with_capacity(query.indexes.len());
    for path in &query.indexes {
        match Index::open(path) {
            Ok(index) => indexes.push(index),
            Err(e) => {
                writeln!(err, "chessbits: {}: {e}", path.display())?;
                return Ok(false);
            }
        }
    }
    // `Ok(false)` when an index turns out damaged while answering: the message goes to
    // standard error and the command fails, since an empty answer would read as "no game".
    let one = |pos: &Position, out: &mut dyn Write| -> io::Result<bool> {
        let result = match limit {
            Some(limit) => find(&indexes, &query.indexes, pos, &filter, limit, query.json, out),
            None => explore(&indexes, &query.indexes, pos, &filter, query.json, out),
        };
        result.map(|()| true).or_else(|e| match e.kind() {
            io::ErrorKind::InvalidData => {
                writeln!(err_sink(), "chessbits: {e}")?;
                Ok(false)
            }
            _ => Err(e),
        })
    };
    if !query.batch {
        return match query.position() {
            Ok(pos) => one(&pos, out),
            Err(message) => {
                writeln!(err, "chessbits: {message}")?;
                Ok(false)
            }
        };
    }
    let mut ok = true;
    for line in io::stdin().lock().lines() {
        let line = line?;
        let fen = line.trim();
        // Every line is answered, so that the answers line up with the input.
        let answered = match parse_position(fen) {
            _ if fen.is_empty() => false,
            Ok(pos) => one(&pos, out)?,
            Err(e) => {
                writeln!(err, "chessbits: {fen}: {e}")?;
                false
            }
        };
        ok &= answered || fen.is_empty();
        if !answered && query.json {
            writeln!(out, "null")?;
        }
        writeln!(out)?;
        out.flush()?;
    }
    Ok(ok)
}

/// Where a damaged index is reported while answering.
fn err_sink() -> io::StderrLock<'static> {
    io::stderr().lock()
}

/// A rating in JSON: `null` when unknown (stored as 0), as Python's `Index.find` gives `None`.
pub(crate) fn elo_json(elo: u16) -> String {
    if elo == 0 {
        "null".into()
    } else {
        elo.to_string()
    }
}

/// A rating in a tab-separated row: empty when unknown, as an unknown date is.
fn elo_tsv(elo: u16) -> String {
    if elo == 0 {
        String::new()
    } else {
        elo.to_string()
    }
}

pub(crate) fn json_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn tsv(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

pub(crate) fn find(
    indexes: &[Index],
    paths: &[PathBuf],
    pos: &Position,
    filter: &Filter,
    limit: Option<usize>,
    json: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut found: Vec<(usize, Found)> = Vec::new();
    for (i, index) in indexes.iter().enumerate() {
        let left = limit.map(|l| l.saturating_sub(found.len()));
        if left == Some(0) {
            break;
        }
        let games = index.find(pos, filter, left).map_err(|e| {
            io::Error::new(io::ErrorKind::InvalidData, format!("{}: {e}", paths[i].display()))
        })?;
        found.extend(games.into_iter().map(|g| (i, g)));
    }
    let shards = indexes.len() > 1;
    if json {
        write!(out, "[")?;
        for (n, (i, f)) in found.iter().enumerate() {
            let g = &f.game;
            write!(
                out,
                "{}{{{}\"game\":{},\"ply\":{},\"white\":{},\"black\":{},\"result\":\"{}\",\"date\":{},\"white_elo\":{},\"black_elo\":{},\"speed\":\"{}\",\"event\":{}}}",
                if n > 0 { "," } else { "" },
                if shards { format!("\"index\":{},", json_text(&paths[*i].display().to_string())) } else { String::new() },
                g.number,
                f.ply,
                json_text(&g.white),
                json_text(&g.black),
                g.facts.result(),
                json_text(&format_date(g.facts.date)),
                elo_json(g.facts.white_elo),
                elo_json(g.facts.black_elo),
                g.speed(),
                json_text(&g.event),
            )?;
        }
        writeln!(out, "]")?;
        return Ok(());
    }
    let header = "game\tply\twhite\tblack\tresult\tdate\twhite_elo\tblack_elo\tspeed\tevent";
    if shards {
        writeln!(out, "index\t{header}")?;
    } else {
        writeln!(out, "{header}")?;
    }
    for (i, f) in &found {
        let g = &f.game;
        if shards {
            write!(out, "{}\t", tsv(&paths[*i].display().to_string()))?;
        }
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            g.number,
            f.ply,
            tsv(&g.white),
            tsv(&g.black),
            g.facts.result(),
            format_date(g.facts.date),
            elo_tsv(g.facts.white_elo),
            elo_tsv(g.facts.black_elo),
            g.speed(),
            tsv(&g.event),
        )?;
    }
    Ok(())
}

pub(crate) fn explore(
    indexes: &[Index],
    paths: &[PathBuf],
    pos: &Position,
    filter: &Filter,
    json: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let rows: Vec<MoveStats> = explore_shards(indexes, pos, filter).map_err(|e| {
        // The shards are merged, so the damage is named by the files read.
        let files: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        io::Error::new(io::ErrorKind::InvalidData, format!("{}: {e}", files.join(", ")))
    })?;
    let text = |row: &MoveStats| match row.m {
        Some(m) => {
            (m.to_uci(pos.castling_mode()).to_string(), SanPlus::from_move(pos, m).to_string())
        }
        None => (String::new(), String::new()),
    };
    if json {
        write!(out, "[")?;
        for (n, row) in rows.iter().enumerate() {
            let (uci, san) = text(row);
            write!(
                out,
                "{}{{\"uci\":{},\"san\":{},\"games\":{},\"white\":{},\"draws\":{},\"black\":{},\"average_rating\":{},\"last_date\":{}}}",
                if n > 0 { "," } else { "" },
                json_text(&uci),
                json_text(&san),
                row.games,
                row.white,
                row.draws,
                row.black,
                row.average_rating.map_or("null".to_string(), |r| r.to_string()),
                json_text(&format_date(row.last_date)),
            )?;
        }
        writeln!(out, "]")?;
        return Ok(());
    }
    writeln!(out, "uci\tsan\tgames\twhite\tdraws\tblack\taverage_rating\tlast_date")?;
    for row in &rows {
        let (uci, san) = text(row);
        writeln!(
            out,
            "{uci}\t{san}\t{}\t{}\t{}\t{}\t{}\t{}",
            row.games,
            row.white,
            row.draws,
            row.black,
            row.average_rating.map_or(String::new(), |r| r.to_string()),
            format_date(row.last_date),
        )?;
    }
    Ok(())
}
