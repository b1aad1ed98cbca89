//! `chessbits`: the command-line tool over the chessbits crates, for people who work with game
//! files. A thin layer: argument parsing and I/O here, every chess rule and format in the
//! library. Data goes to stdout; diagnostics and progress bars go to stderr. Exit status: 0 on
//! success, 1 when some input was bad, 2 on usage errors.

mod encode;
#[cfg(feature = "arrow")]
mod export;
mod lines;
mod pack;
mod pgn;
mod progress;
#[cfg(feature = "query")]
mod query;
mod san;

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
  chessbits query 'SELECT \"Result\", count(*) FROM g GROUP BY 1' --table g=games.parquet
  echo 'startpos;e2e4 e7e5 g1f3' | chessbits san
  echo startpos | chessbits encode --format grouped+state14
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
    /// game that cannot be read prints `<number>TAB"error"TAB<message>`, and the message goes to
    /// stderr with the file, game number, line and column. With `--to pgn`, the games are
    /// written in the PGN export format, variations, comments and NAGs kept. Exit status 0
    /// when every game read, 1 when any failed. Files (and standard input) compressed with
    /// zstd, gzip or bzip2 are read as they are, recognised by their first bytes; the games
    /// are read on every core (`--threads`), with the same output for any thread count. A
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
    /// line, the SAN of each move played in sequence (with + and #), separated by spaces. A line
    /// that cannot be read prints `error: <message>`, and the next line is still read. Exits
    /// with 1 if any line failed.
    #[command(
        after_help = "Example:\n  $ echo 'startpos;e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7' | chessbits san\n  e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#"
    )]
    San,
    /// Packs PGN files into a `.cbg` game file: tags, start position, coded mainline, clocks
    /// and evaluations of every game that reads; other comments and variations are dropped.
    ///
    /// `--stats` prints one JSON object to stdout: games, plies, move_bits, total_bytes,
    /// dropped_comments, dropped_variations, failed_games. Broken games are reported on
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
    #[command(
        after_help = "Examples:\n  chessbits unpack games.cbg --to uci\n  chessbits unpack games.cbg --to pgn --game 12"
    )]
    Unpack {
        /// The `.cbg` file to read.
        #[arg(value_name = "FILE.cbg")]
        file: PathBuf,
        /// What to write.
        #[arg(long, value_enum)]
        to: pgn::To,
        /// Only the N-th game of the file (from 1), found through the index.
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
    /// object to stdout: games, plies, move_bytes, total_bytes, failed_games.
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
}

/// The `--threads` option of the commands that read game files.
#[derive(clap::Args, Clone, Copy)]
pub struct Threads {
    /// Worker threads (default: all cores). The output is the same for every N; `1` reads on
    /// one thread, with no other.
    #[arg(long = "threads", value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    n: Option<u16>,
    /// The bytes of PGN a worker takes at a time (tests use small ones).
    #[arg(long, value_name = "BYTES", hide = true)]
    chunk_size: Option<usize>,
}

impl Threads {
    /// How to read an input.
    pub fn options(self) -> chessbits_pgn::Parallel {
        let mut options = match self.n {
            Some(n) => chessbits_pgn::Parallel::new(usize::from(n)),
            None => chessbits_pgn::Parallel::all_cores(),
        };
        if let Some(size) = self.chunk_size {
            options.chunk_size = size;
        }
        options
    }
}

/// Standard output, or a file compressed by its extension.
enum Out {
    Stdout(BufWriter<io::StdoutLock<'static>>),
    File(Box<chessbits_pgn::Output>),
}

impl Out {
    fn open(path: Option<&PathBuf>) -> io::Result<Out> {
        Ok(match path {
            Some(path) => Out::File(Box::new(
                chessbits_pgn::Output::create(path)
                    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?,
            )),
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Pgn { files, to, output: path, threads } => (|| {
            let mut out = Out::open(path.as_ref())?;
            let mut stderr = io::stderr().lock();
            let summary = pgn::run(&files, to, &threads.options(), &mut out, &mut stderr)?;
            out.finish()?;
            Ok(summary.failed)
        })(),
        Command::San => {
            let stdin = io::stdin().lock();
            let stdout = BufWriter::new(io::stdout().lock());
            san::run(stdin, stdout)
        }
        Command::Pack { files, output, codec, stats, threads } => {
            let mut stdout = BufWriter::new(io::stdout().lock());
            let err = &mut io::stderr().lock();
            pack::pack(&files, &output, codec, stats, &threads.options(), &mut stdout, err)
        }
        Command::Unpack { file, to, game, output: path, threads } => (|| {
            let mut out = Out::open(path.as_ref())?;
            let options = (to, game, &threads.options());
            let failed = pack::unpack(&file, options, &mut out, &mut io::stderr().lock())?;
            out.finish()?;
            Ok(failed)
        })(),
        #[cfg(feature = "arrow")]
        Command::Export(args) => {
            let mut stdout = BufWriter::new(io::stdout().lock());
            export::run(&args, &mut stdout, &mut io::stderr().lock())
        }
        #[cfg(feature = "query")]
        Command::Query(args) => query::run(&args, &mut BufWriter::new(io::stdout().lock())),
        Command::Encode(args) => encode::run_encode(&args, io::stdin().lock(), io::stdout().lock()),
        Command::Decode(args) => encode::run_decode(&args, io::stdin().lock(), io::stdout().lock()),
    };
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
