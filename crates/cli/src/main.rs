//! `chessbits`: the command-line tool over the chessbits crates, for people who work with game
//! files. A thin layer: argument parsing and I/O here, every chess rule and format in the
//! library. Data goes to stdout; diagnostics and progress bars go to stderr. Exit status: 0 on
//! success, 1 when some input was bad, 2 on usage errors.
#![forbid(unsafe_code)]

mod encode;
#[cfg(feature = "arrow")]
mod export;
mod files;
mod index;
mod lines;
mod pack;
mod pgn;
mod progress;
#[cfg(feature = "query")]
mod query;
#[cfg(feature = "arrow")]
mod rows;
mod san;
#[cfg(feature = "serve")]
mod serve;

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::files::Pending;
use crate::pgn::total_size;
use crate::progress::Progress;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Chess game files at the bit level: read PGN, write UCI, SAN and PGN.
#[derive(Parser)]
#[command(name = "chessbits", version, about, long_about = None, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

const EXAMPLES: &str = "\
Examples:
  chessbits pgn games.pgn --to uci        one line per game: number, final FEN, UCI moves
  chessbits pgn a.pgn b.pgn --to pgn      the games again, in the PGN export format
  chessbits pgn month.pgn.zst --to uci -o games.tsv.zst   .zst/.gz/.bz2 in and out, on every core
  chessbits pack games.pgn -o games.cbg   the games in a .cbg game file
  chessbits unpack games.cbg --to uci     and back
  chessbits export games.pgn -o games.parquet  the games as a Parquet table for SQL engines
  chessbits index build games.pgn -o games.cbx  a position index; then:
  chessbits index explore games.cbx --moves \"e2e4 e7e5\"   the moves played from there, with results
  chessbits serve games.cbx --open        the same as an opening explorer in the browser
  chessbits query 'SELECT \"Result\", count(*) FROM g GROUP BY 1' --table g=games.parquet   (cargo feature `query`)
  echo 'startpos;e2e4 e7e5 g1f3' | chessbits san
  echo startpos | chessbits encode --format grouped+state14 | chessbits decode --format grouped+state14
  chessbits pgn games.pgn --to moves:san-like  per game: number, plies, bits, hex of the moves

Run `chessbits <command> --help` for the details of each command.";

#[cfg(feature = "query")]
const QUERY_EXAMPLES: &str = "\
Examples:
  chessbits query 'SELECT \"Result\", count(*) AS games FROM games GROUP BY 1 ORDER BY 2 DESC' --table games=games.parquet
  chessbits query \"SELECT chess_uci(moves, plies, start_fen) FROM g WHERE \\\"White\\\" = 'Anna'\" --table g=dir/
  chessbits query \"SELECT chess_next_move(moves, plies, start_fen, 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2') AS reply, count(*) AS n FROM games GROUP BY 1 ORDER BY 2 DESC LIMIT 5\" --table games=games.parquet --format table";

#[derive(Subcommand)]
enum Command {
    /// Reads PGN files and writes each game as a UCI line or as PGN.
    ///
    /// Games are numbered from 1 across all files, in input order. With `--to uci`, each game
    /// prints `<number>TAB<final FEN>TAB<UCI moves of the mainline>` (X-FEN castling, the en
    /// passant square only when a capture is legal, Chess960 castling as king takes rook); a
    /// game that cannot be read prints `<number>TABerrorTAB<message>`, and the message goes to
    /// stderr with the file, game number, line and column. With `--to pgn`, the games are
    /// written in the PGN export format, variations, comments and NAGs kept. Exit status 0
    /// when every game read, 1 when any failed. Files (and standard input) compressed with
    /// zstd, gzip or bzip2 are read as they are, recognised by their first bytes, and so are
    /// lichess's Parquet files (tags as columns, the moves in a `movetext` column), read row by
    /// row by every command that reads games, as the Python package reads them: a row is one
    /// game, and its error names its movetext byte (`game 7, movetext byte 36: ...`). The
    /// games are read on every core (`--threads`), with the same output for any thread count. A
    /// progress bar shows on a terminal for runs longer than a second: games/s, MB/s and an
    /// ETA over the files' stored size.
    #[command(
        after_help = "Examples:\n  chessbits pgn games.pgn --to uci\n  chessbits pgn lichess_db_standard_rated_2025-05.pgn.zst --to uci --threads 8 -o games.tsv.zst\n  curl -s URL | chessbits pgn - --to uci > games.tsv   (compressed or not)\n  chessbits pgn a.pgn b.pgn --to pgn > clean.pgn"
    )]
    Pgn {
        /// PGN files to read, in order; `-` reads standard input.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// What to write: `uci`, `pgn`, or `moves:CODE` with CODE one of `12`, `san-like`,
        /// `san-like-7-13` (per game: number, plies, bits, hex of the coded mainline).
        #[arg(long, value_name = "uci|pgn|moves:CODE")]
        to: pgn::To,
        /// Write to FILE instead of standard output, compressed if its name ends in `.zst`,
        /// `.gz` or `.bz2`.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        #[command(flatten)]
        threads: Threads,
    },
    /// Converts UCI moves to SAN, one game per input line.
    ///
    /// Reads lines `<FEN or startpos>;<uci> <uci> ...` from standard input and prints, per
    /// line, the SAN of each move played in sequence (with + and #), separated by spaces.
    /// `0000` is a null move, written `--` (refused in check). A line that cannot be read prints
    /// `error: <message>`, and the next line is still read. Exits with 1 if any line failed.
    #[command(
        after_help = "Example:\n  $ echo 'startpos;e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7' | chessbits san\n  e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#"
    )]
    San,
    /// Packs PGN files into a `.cbg` game file: tags, start position, coded mainline, clocks
    /// and evaluations of every game that reads; other comments and variations are dropped.
    ///
    /// `--stats` prints one JSON object to stdout: games, plies, move_bits, total_bytes,
    /// dropped_comments, dropped_variations, failed_games, failed_inputs. Broken games are reported on
    /// stderr as `chessbits pgn` reports them; the exit status is then 1.
    #[command(
        after_help = "Examples:\n  chessbits pack games.pgn -o games.cbg --stats\n  chessbits pack a.pgn b.pgn -o ab.cbg --codec index"
    )]
    Pack {
        /// PGN files to read, in order; `-` reads standard input.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// The `.cbg` file to write.
        #[arg(short, long, value_name = "OUT.cbg")]
        output: PathBuf,
        /// How moves are coded.
        #[arg(long, value_enum, default_value_t)]
        codec: pack::Codec,
        /// Print counts and sizes as one JSON object on stdout.
        #[arg(long)]
        stats: bool,
        #[command(flatten)]
        threads: Threads,
    },
    /// Unpacks a `.cbg` file: each game as the UCI line `chessbits pgn --to uci` prints for
    /// it, or in the PGN export format with tags, clocks and evaluations.
    ///
    /// Every row, good or not, carries the game's number in the input that was packed (as
    /// `chessbits pgn` numbered it). A damaged record's number is its place in the file plus
    /// the games skipped before it when packing, taken from the good games around it (the
    /// message says when those bound it rather than fix it). A file cut short or with a broken
    /// frame is reported once on stderr, after every game before the damage; it is no game.
    #[command(
        after_help = "Examples:\n  chessbits unpack games.cbg --to uci\n  chessbits unpack games.cbg --to pgn --game 12"
    )]
    Unpack {
        /// The `.cbg` file to read.
        #[arg(value_name = "FILE.cbg")]
        file: PathBuf,
        /// What to write: `uci`, `pgn`, or `moves:CODE` with CODE one of `12`, `san-like`,
        /// `san-like-7-13` (as `chessbits pgn --to`).
        #[arg(long, value_name = "uci|pgn|moves:CODE")]
        to: pgn::To,
        /// Only game N: the number the output gives it (its number in the input that was
        /// packed, as `chessbits pgn` numbered it), found through the index.
        #[arg(long, value_name = "N")]
        game: Option<u64>,
        /// Write to FILE instead of standard output, compressed if its name ends in `.zst`,
        /// `.gz` or `.bz2`.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        #[command(flatten)]
        threads: Threads,
    },
    /// Exports PGN or `.cbg` files to one Parquet file, one row a game (schema in
    /// docs/formats.md): typed tags, plies, start FEN, coded mainline, clocks, evaluations
    /// and position keys, for DuckDB, DataFusion, Spark or pyarrow.
    ///
    /// An input that starts with the `.cbg` magic is read as `.cbg`, any other as PGN. Broken
    /// games are reported on stderr and make the exit status 1. `--stats` prints one JSON
    /// object to stdout: games, plies, move_bytes, total_bytes, failed_games, failed_inputs.
    #[cfg(feature = "arrow")]
    #[command(
        after_help = "Examples:\n  chessbits export games.pgn -o games.parquet --stats\n  chessbits export a.cbg b.pgn -o ab.parquet --keys all"
    )]
    Export(export::ExportArgs),
    /// Runs SQL over exported games (Parquet files) on DataFusion, with the chess functions
    /// (`chess_uci`, `chess_san`, `chess_fen_at`, `chess_move_at`, `chess_reaches`,
    /// `chess_next_move`, `chess_outcome`, `chess_key`; docs/sql.md) registered.
    ///
    /// Prints the answer as CSV with a header row (`--format table`: a table for people). A
    /// game is passed to the functions as its three columns `moves, plies, start_fen`. A
    /// query that fails prints DataFusion's message on stderr and exits with 1.
    #[cfg(feature = "query")]
    #[command(after_help = QUERY_EXAMPLES)]
    Query(query::QueryArgs),
    /// Runs SQL over exported games (Parquet files): not in this build. DataFusion triples
    /// the tool's build time, so the command comes with the cargo feature `query`: `cargo
    /// install --path crates/cli --features query` (docs/sql.md).
    #[cfg(not(feature = "query"))]
    Query {
        /// The query and its options (see docs/sql.md).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
        args: Vec<String>,
    },
    /// Encodes FENs (one per line, `startpos` allowed) at the bit level: `<bits>\t<hex>` per line.
    #[command(
        after_help = "Examples:\n  $ echo startpos | chessbits encode --format rle:3\n  154\t...\n  chessbits encode --list\n  chessbits encode --format grouped+state-full < positions.fen > positions.hex"
    )]
    Encode(encode::EncodeArgs),
    /// Decodes `<bits>\t<hex>` lines (or hex alone) back to FEN, one per line.
    #[command(
        after_help = "Example:\n  $ echo startpos | chessbits encode --format rle:3 | chessbits decode --format rle:3\n  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
    )]
    Decode(encode::DecodeArgs),
    /// A position index over game files: which games reached a position, by any move order,
    /// and what was played from it.
    #[command(
        subcommand,
        after_help = "Examples:\n  chessbits index build 2025-01.pgn.zst -o 2025-01.cbx\n  chessbits index find 2025-01.cbx --moves \"e2e4 c7c5 g1f3\" --limit 10\n  chessbits index explore 2025-*.cbx --fen 'rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2' --speed blitz"
    )]
    Index(index::IndexCommand),
    /// The opening explorer in the browser, over your own games, offline: a board, the moves
    /// played from its position with their results, and the games that reached it.
    ///
    /// Serves one page and a JSON API (docs/explorer.md) on 127.0.0.1 (this machine only)
    /// unless `--bind` says otherwise, until stopped with Ctrl-C. The files are position
    /// indexes (`.cbx`, made by `chessbits index build`) explored together, or game files
    /// (PGN, `.cbg`, lichess Parquet), indexed in memory first. Everything the page needs is
    /// in the binary: nothing is fetched from the network.
    #[cfg(feature = "serve")]
    #[command(
        after_help = "Examples:\n  chessbits serve games.cbx --open\n  chessbits serve my-games.pgn --port 9000\n  curl 'http://127.0.0.1:8080/api/explore?moves=e2e4%20c7c5&speed=blitz'"
    )]
    Serve(serve::ServeArgs),
}

/// The `--threads` and `--quiet` options of the commands that read game files.
#[derive(clap::Args, Clone, Copy)]
pub struct Threads {
    /// Threads that read (default: all cores; more than 256 run as 256), this one among them.
    /// The output is the same for every N; `1` reads on one thread, with no other.
    #[arg(long = "threads", value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    n: Option<u16>,
    /// The bytes of PGN a worker takes at a time (tests use small ones).
    #[arg(long, value_name = "BYTES", hide = true)]
    chunk_size: Option<usize>,
    /// Cut the input at game ends found on one thread, not at guessed game starts (for
    /// measuring what guessing buys; the output is the same).
    #[arg(long, hide = true)]
    exact_cuts: bool,
    /// No progress bar and no summary line on stderr (errors are still reported).
    #[arg(short, long)]
    quiet: bool,
}

impl Threads {
    /// Whether `--quiet` was given.
    pub fn quiet(self) -> bool {
        self.quiet
    }

    /// How to read an input.
    pub fn options(self) -> chessbits_pgn::Parallel {
        let mut options = match self.n {
            Some(n) => chessbits_pgn::Parallel::new(usize::from(n)),
            None => chessbits_pgn::Parallel::all_cores(),
        };
        if let Some(size) = self.chunk_size {
            options.chunk_size = size;
        }
        options.guess = !self.exact_cuts;
        options
    }
}

/// Standard output, or a file compressed by its extension.
enum Out {
    Stdout(BufWriter<io::StdoutLock<'static>>),
    File(Box<chessbits_pgn::Output>),
}

impl Out {
    fn open(pending: Option<&Pending>) -> io::Result<Out> {
        Ok(match pending {
            // Written under the temporary name; an error names the file asked for.
            Some(pending) => {
                Out::File(Box::new(chessbits_pgn::Output::create(pending.temp()).map_err(|e| {
                    io::Error::new(e.kind(), format!("{}: {e}", pending.path().display()))
                })?))
            }
            None => Out::Stdout(BufWriter::new(io::stdout().lock())),
        })
    }

    /// Flushes, and ends a compressed stream.
    fn finish(self) -> io::Result<()> {
        match self {
            Out::Stdout(mut w) => w.flush(),
            Out::File(f) => f.finish(),
        }
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Out::Stdout(w) => w.write(buf),
            Out::File(f) => f.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Out::Stdout(w) => w.flush(),
            Out::File(f) => f.flush(),
        }
    }
}

/// `chessbits query` in a build without it: how to get it, and the usage error's status.
#[cfg(not(feature = "query"))]
fn query_not_built() -> ExitCode {
    let _ = writeln!(
        io::stderr(),
        "chessbits: this build has no `query` command: it comes with the cargo feature `query` \
         (DataFusion), for example `cargo install --path crates/cli --features query`; see \
         docs/sql.md"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Pgn { files, to, output, threads } => run_pgn(&files, to, output, &threads),
        Command::San => {
            let stdin = io::stdin().lock();
            let stdout = BufWriter::new(io::stdout().lock());
            san::run(stdin, stdout)
        }
        Command::Pack { files, output, codec, stats, threads } => {
            run_pack(&files, (&output, codec, stats), &threads)
        }
        Command::Unpack { file, to, game, output, threads } => {
            run_unpack(&file, (to, game), output, &threads)
        }
        #[cfg(feature = "arrow")]
        Command::Export(args) => run_export(&args),
        #[cfg(feature = "query")]
        Command::Query(args) => query::run(&args, &mut BufWriter::new(io::stdout().lock())),
        #[cfg(not(feature = "query"))]
        Command::Query { .. } => return query_not_built(),
        Command::Encode(args) => encode::run_encode(&args, io::stdin().lock(), io::stdout().lock()),
        Command::Decode(args) => encode::run_decode(&args, io::stdin().lock(), io::stdout().lock()),
        Command::Index(command) => {
            let mut stdout = BufWriter::new(io::stdout().lock());
            index::run(command, &mut stdout, &mut io::stderr().lock()).map(|ok| u64::from(!ok))
        }
        #[cfg(feature = "serve")]
        Command::Serve(args) => {
            serve::run(&args, &mut io::stderr().lock()).map(|ok| u64::from(!ok))
        }
    };
    exit_code(result)
}

/// The process's status for a command's result: 0, 1 for games or inputs that failed (the
/// command's `Ok` count is non-zero) or an error, which is printed.
fn exit_code(result: io::Result<u64>) -> ExitCode {
    match result {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        // A closed pipe (`| head`) is the reader's choice, not a failure.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "chessbits: {e}");
            ExitCode::from(1)
        }
    }
}

/// `chessbits pgn`: 1 if a game or an input failed. The output file is kept when a game
/// was written or nothing failed.
fn run_pgn(
    files: &[PathBuf],
    to: pgn::To,
    path: Option<PathBuf>,
    threads: &Threads,
) -> io::Result<u64> {
    let pending = path.as_deref().map(Pending::new);
    let mut out = Out::open(pending.as_ref())?;
    let mut progress = Progress::new(total_size(files), threads.quiet);
    let mut stderr = io::stderr().lock();
    let options = &threads.options();
    let summary = pgn::run(files, to, options, (&mut out, &mut progress), &mut stderr)?;
    out.finish()?;
    progress.finish(summary.games, summary.failed, summary.failed_inputs, &mut stderr);
    if let Some(pending) = pending {
        if summary.games > 0 || !summary.any_failed() {
            pending.commit()?;
        }
    }
    Ok(u64::from(summary.any_failed()))
}

/// `chessbits pack`: 1 if a game or an input failed.
fn run_pack(
    files: &[PathBuf],
    packing: (&Path, pack::Codec, bool),
    threads: &Threads,
) -> io::Result<u64> {
    let mut stdout = BufWriter::new(io::stdout().lock());
    let err = &mut io::stderr().lock();
    let mut progress = Progress::new(total_size(files), threads.quiet);
    let options = (&threads.options(), &mut progress);
    let s = pack::pack(files, packing, options, &mut stdout, err)?;
    progress.finish(s.games + s.failed, s.failed, s.failed_inputs, err);
    Ok(u64::from(s.failed > 0 || s.failed_inputs > 0))
}

/// `chessbits unpack`: 1 if a game or the input failed. The output file is kept when a
/// game was written or nothing failed.
fn run_unpack(
    file: &Path,
    (to, game): (pgn::To, Option<u64>),
    path: Option<PathBuf>,
    threads: &Threads,
) -> io::Result<u64> {
    let pending = path.as_deref().map(Pending::new);
    let mut out = Out::open(pending.as_ref())?;
    let progress = Progress::new(None, threads.quiet);
    let options = (to, game, &threads.options());
    let err = &mut io::stderr().lock();
    let s = pack::unpack(file, options, &mut out, err)?;
    out.finish()?;
    progress.finish(s.games + s.failed, s.failed, u64::from(s.failed_input), err);
    if let Some(pending) = pending {
        if s.games > 0 || (s.failed == 0 && !s.failed_input) {
            pending.commit()?;
        }
    }
    Ok(u64::from(s.failed > 0 || s.failed_input))
}

/// `chessbits export`: 1 if a game or an input failed.
#[cfg(feature = "arrow")]
fn run_export(args: &export::ExportArgs) -> io::Result<u64> {
    let mut stdout = BufWriter::new(io::stdout().lock());
    let err = &mut io::stderr().lock();
    let mut progress = Progress::new(total_size(args.files()), args.quiet());
    let s = export::run(args, &mut progress, &mut stdout, err)?;
    progress.finish(s.games + s.failed, s.failed, s.failed_inputs, err);
    Ok(u64::from(s.failed > 0 || s.failed_inputs > 0))
}
