//! `cargo xtask`: developer tasks for chessbits.
//!
//! - `cargo xtask perft [options]`: perft from a position, a divide, perftree mode, or an EPD
//!   suite; see `cargo xtask perft --help`.
//! - `cargo xtask magics`: searches the magic multipliers (fixed seed) and prints them in the
//!   form of `crates/movegen/src/magics.rs`.
//! - `cargo xtask snapshots [--accept | --reject]`: runs the snapshot tests and lists pending
//!   insta snapshots; accepts or rejects them after review.
//! - `cargo xtask compare`: times chessbits against other Rust chess crates.
//! - `cargo xtask formats`: measures the bit-level encodings on games and positions, and checks
//!   that every one round-trips.
//! - `cargo xtask fit-compact`: fits the `compact` position model and measures the bit-level
//!   position formats on the corpus.
//! - `cargo xtask fit-moves [--eval]`: fits the move model on the lichess training games and
//!   writes its table (or only measures the shipped one).
//! - `cargo xtask cbg-check [FILE...]`: the `.cbg` round trip over every corpus PGN file.
//! - `cargo xtask fuzz [--seconds N] [TARGET...]`: runs the cargo-fuzz targets in `fuzz/`.
//! - `cargo xtask package [--all]`: packs every publishable crate and builds each from its
//!   package alone.
//! - `cargo xtask semver [REV]`: checks the library crates' APIs against a git revision with
//!   `cargo semver-checks` (CONTRIBUTING.md).
//! - `cargo xtask wheel`: builds the Python wheel and sdist and installs each in a fresh venv.
//! - `cargo xtask layers`: checks with `cargo tree` that each library crate depends only on the
//!   layers below it and on what its concern needs.
//! - `cargo xtask scale [--threads 1,2,4,8,16] [--mb N] [--max-rss MB]`: the game-file commands
//!   over one big PGN file at each thread count, and compressed input (docs/formats.md);
//!   `--adversarial`: `pgn` over pathological inputs of 1, 4 and 16 MiB (linear time and memory).
//! - `cargo xtask index-bench [--repeats N] [--memory MiB]`: the position index's size, build
//!   speed and query latency on the training games repeated (docs/formats.md).
//! - `cargo xtask sql-bench [--repeats A,B] [--threads A,B]`: times the SQL questions against a
//!   scan of the PGN with the library, on the training games repeated (docs/sql.md).
//! - `cargo xtask distributed [FILE.pgn...]`: the SQL functions on a local Ballista cluster,
//!   compared with local DataFusion (docs/sql.md).
#![forbid(unsafe_code)]

mod adversarial;
mod cbg_check;
mod compare;
mod distributed;
mod fit_compact;
mod fit_moves;
mod formats;
mod fuzz;
mod index_bench;
mod layers;
mod magics;
mod package;
mod parquet_check;
mod perft;
mod scale;
mod semver;
mod snapshots;
mod sql_bench;
mod wheel;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <task> [options]

develop:
  perft          count the legal move tree (see cargo xtask perft --help)
  snapshots      run the snapshot tests, list pending snapshots (exit 1 if any); --accept or --reject them
  layers         check that each library crate depends only on the layers below it (cargo tree)
  fuzz           run the cargo-fuzz targets (nightly; see cargo xtask fuzz --help)
release:
  package        pack every publishable crate and build each from its package alone (--all: chessbits-sql too)
  semver         check the library crates' public APIs against a git revision (cargo semver-checks; CONTRIBUTING.md)
  wheel          build the Python abi3 wheel and sdist (maturin) and pip install each in a fresh venv

fit (write generated tables):
  magics         search magic multipliers and print them as Rust source
  fit-moves      fit the move model's table on ../shared/corpus/train (--eval: measure it only)
  fit-compact    fit the compact position model and measure it (see cargo xtask fit-compact --help)

measure and check:
  compare        time chessbits against other Rust chess crates (see cargo xtask compare --help)
  formats        measure and round-trip the bit-level encodings (see cargo xtask formats --help)
  cbg-check      pack and unpack every corpus PGN file as .cbg and compare every game
  parquet-check  export a PGN file to Parquet and read it with pyarrow and DuckDB (skipped if absent)
  scale          pgn, pack and export over a 320 MB PGN at each --threads N: games/s, speed-up, peak memory
                 (--adversarial: pathological inputs of 1, 4 and 16 MiB at 1 and 2 threads)
  index-bench    the position index: size against .cbg and .pgn.zst, build speed, find/explore latency on ~1M games
  sql-bench      time the SQL questions on 120k and 1M games against a PGN scan (docs/sql.md)
  distributed    the SQL functions on a local Ballista scheduler and two executors, against local DataFusion";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((task, rest)) = args.split_first() else {
        eprintln!("{USAGE}");
        return ExitCode::FAILURE;
    };
    let result = match task.as_str() {
        "perft" => perft::run(rest),
        "magics" => magics::run(),
        "compare" => compare::run(rest),
        "formats" => formats::run(rest),
        "fit-moves" => fit_moves::run(rest),
        "cbg-check" => cbg_check::run(rest),
        "parquet-check" => parquet_check::run(rest),
        "distributed" => distributed::run(rest),
        "sql-bench" => sql_bench::run(rest),
        "snapshots" => snapshots::run(rest),
        "fuzz" => fuzz::run(rest),
        "fit-compact" => fit_compact::run(rest),
        "layers" => layers::run(rest),
        "scale" => scale::run(rest),
        "index-bench" => index_bench::run(rest),
        "package" => package::run(rest),
        "semver" => semver::run(rest),
        "wheel" => wheel::run(rest),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        other => Err(format!("unknown task {other:?}\n{USAGE}")),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root: the parent of xtask's own directory.
pub fn project_root() -> PathBuf {
    let xtask = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    xtask.parent().map(PathBuf::from).unwrap_or(xtask)
}
