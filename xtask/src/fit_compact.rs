//! `cargo xtask fit-compact`: fits the `compact` position model on the PGN games of the shared
//! corpus, writes `crates/codec/src/compact/compact_model.rs`, and measures both bit-level
//! position formats on the fitting set and on held-out sets, checking that every position
//! round-trips.
//!
//! The positions are every position of every game's main line, the start included, with the en
//! passant square after every double push (as chessbits records it), read with chessbits' own
//! PGN reader from `../shared/corpus/` and its `train/` (a game that does not replay is left
//! out). `--fens DIR` reads the same positions from FEN lists instead, one `X.fen` per `X.pgn`
//! (the form the first fit used, made with python-chess's `board.fen(en_passant="fen")`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use chessbits_codec::compact::{Fitter, Model, MIN_COUNT_CHESS960};
use chessbits_codec::packed;
use chessbits_notation::fen::{
    fen_of, parse_position, CastlingNotation, EnPassantMode, FenOptions,
};
use chessbits_pgn::{Replay, SliceReader};
use chessbits_state::Position;

const HELP: &str = "usage: cargo xtask fit-compact [--fens DIR] [--min-count N] [--measure-only]

Fits the compact position model on the lichess arena games of ../shared/corpus/train
(train/lichess-arena-*.pgn), the Chess960 games tcec-*.pgn and the 960 start positions
frc-openings-960.epd, writes crates/codec/src/compact/compact_model.rs, then measures packed
and compact on every set below and checks that every position round-trips.

  --fens DIR       read FEN lists, one X.fen per corpus X.pgn, instead of the PGN files
  --min-count N    keep a board context seen at least N times (default 2000)
  --measure-only   measure the built-in model; fit and write nothing";

/// The Chess960 start positions (one FEN a line), fitted on with the Chess960 games.
const CHESS960_STARTS: &str = "frc-openings-960.epd";

/// The sets measured: (name, file name prefixes). The first is the fitting set.
const SETS: [(&str, &[&str]); 8] = [
    ("fit: lichess arenas 2025 (train/lichess-arena-*)", &["lichess-arena-"]),
    (
        "held out: lichess 2013 db + 4 player exports (train/lichess-db-*, train/lichess-export-*)",
        &["lichess-db-2013", "lichess-export-"],
    ),
    ("masters: pgnmentor-world-champions", &["pgnmentor-world-champions"]),
    ("engines: fishtest-fastchess", &["fishtest-fastchess"]),
    ("fit, Chess960: tcec-s24-dfrc2-final, tcec-s24-frc6-league-d", &["tcec-"]),
    ("twic0920 (2012 over the board)", &["twic0920"]),
    ("held out, Chess960: chess960-rapid-wch-mainz-2009", &["chess960-rapid-wch-mainz"]),
    ("held out, Chess960: pc-cutechess-fischerrandom", &["pc-cutechess-fischerrandom"]),
];

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let corpus = crate::project_root().join("../shared/corpus");
    let mut dirs = vec![corpus.join("train"), corpus.clone()];
    let mut extension = "pgn";
    let mut min_count = 2000;
    let mut measure_only = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--fens" => {
                dirs = vec![args.next().ok_or("--fens needs a directory")?.into()];
                extension = "fen";
            }
            "--min-count" => {
                min_count =
                    args.next().and_then(|n| n.parse().ok()).ok_or("--min-count needs a number")?
            }
            "--measure-only" => measure_only = true,
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(ExitCode::SUCCESS);
            }
            other => return Err(format!("unknown option {other:?}\n{HELP}")),
        }
    }

    let sets: Vec<(&str, Vec<PathBuf>)> = SETS
        .iter()
        .map(|(name, prefixes)| Ok((*name, files(&dirs, extension, prefixes)?)))
        .collect::<Result<_, String>>()?;

    let model =
        if measure_only { Model::builtin().clone() } else { fit(&sets, &corpus, min_count)? };

    println!();
    println!(
        "| set | positions | packed bytes mean (min-max) | compact bytes mean (min-max) | \
         compact with clocks | compact escapes | compact encode / decode ns |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let mut failures = 0;
    for (name, files) in &sets {
        failures += measure_set(&model, name, files)?;
    }
    if failures > 0 {
        return Err(format!("{failures} positions did not round-trip"));
    }
    println!("\nevery position round-trips in both formats, with and without clocks");
    Ok(ExitCode::SUCCESS)
}

/// Fits the model on the fitting sets (`sets[0]` and `sets[4]`) and the Chess960 starts,
/// writes it to `compact_model.rs` and returns it.
fn fit(sets: &[(&str, Vec<PathBuf>)], corpus: &Path, min_count: u64) -> Result<Model, String> {
    let (name, files) = &sets[0];
    let (name960, files960) = &sets[4];
    println!("fitting on {name}, {name960} and {CHESS960_STARTS}");
    let started = Instant::now();
    let mut fitter = Fitter::new();
    let mut games = 0;
    let starts = corpus.join(CHESS960_STARTS);
    for file in files.iter().chain(files960).chain([&starts]) {
        for pos in read_positions(file)? {
            games += usize::from(pos.ply_is_start && *file != starts);
            fitter.add(&pos.position);
        }
    }
    let model = fitter.model(min_count);
    let names: Vec<String> =
        files.iter().chain(files960).chain([&starts]).map(|f| display_name(f)).collect();
    let header = format!(
        "The `compact` position model, generated by `cargo xtask fit-compact --min-count {min_count}`:\n\
         do not edit.\n\
         \n\
         Fitted on {positions} positions: every position of each main line of {games} games and\n\
         the 960 Chess960 start positions, from ../shared/corpus/ and its train/:\n{files}\n\
         \n\
         Contexts seen at least {min_count} times have their own table ({MIN_COUNT_CHESS960} times for\n\
         Chess960 contexts).",
        positions = fitter.positions(),
        files = names
            .iter()
            .map(|n| format!("- {}", n.replace(".fen", ".pgn")))
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let path = crate::project_root().join("crates/codec/src/compact/compact_model.rs");
    fs::write(&path, model.to_rust(&header)).map_err(|e| format!("{}: {e}", path.display()))?;
    println!(
        "wrote {} ({} positions, {:.1} s)",
        path.display(),
        fitter.positions(),
        started.elapsed().as_secs_f64()
    );
    Ok(model)
}

/// Measures the model on one set of files and prints its row; the number of positions that
/// did not round-trip.
fn measure_set(model: &Model, name: &str, files: &[PathBuf]) -> Result<usize, String> {
    let mut failures = 0;
    let mut positions = Vec::new();
    for file in files {
        positions.extend(read_positions(file)?.into_iter().map(|r| r.position));
    }
    let mut stats = Stats::default();
    for pos in &positions {
        failures += stats.add(model, pos);
    }
    // Timed on their own: encoding every position, then decoding every encoding.
    let started = Instant::now();
    let encoded: Vec<_> = positions.iter().map(|p| model.encode(p, false)).collect();
    let encode = started.elapsed().as_nanos() as f64 / positions.len().max(1) as f64;
    let started = Instant::now();
    let decoded = encoded.iter().filter(|c| model.decode(c.as_bytes()).is_ok()).count();
    let decode = started.elapsed().as_nanos() as f64 / positions.len().max(1) as f64;
    failures += positions.len() - decoded;
    let n = stats.positions.max(1) as f64;
    println!(
        "| {name} | {} | {:.2} ({}-{}) | {:.2} ({}-{}) | {:.2} | {} | {encode:.0} / {decode:.0} |",
        stats.positions,
        stats.packed as f64 / n,
        stats.packed_min,
        stats.packed_max,
        stats.compact as f64 / n,
        stats.min,
        stats.max,
        stats.compact_clocks as f64 / n,
        stats.escapes,
    );
    Ok(failures)
}

/// The files with `extension` in `dirs` whose names start with one of `prefixes`, sorted.
fn files(dirs: &[PathBuf], extension: &str, prefixes: &[&str]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for dir in dirs {
        let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        files.extend(
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == extension))
                .filter(|p| prefixes.iter().any(|prefix| display_name(p).starts_with(prefix))),
        );
    }
    files.sort();
    if files.is_empty() {
        return Err(format!(
            "no {prefixes:?}*.{extension} in {dirs:?} (see cargo xtask fit-compact --help)"
        ));
    }
    Ok(files)
}

fn display_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

struct Read {
    position: Position,
    /// The game's first position (fullmove 1, white to move, nothing played yet).
    ply_is_start: bool,
}

fn read_positions(path: &Path) -> Result<Vec<Read>, String> {
    if path.extension().is_some_and(|x| x == "pgn") {
        return read_pgn(path);
    }
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            let position =
                parse_position(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
            let ply_is_start = position.fullmoves() == 1
                && position.turn() == chessbits_bitboard::Color::White
                && position.halfmoves() == 0;
            Ok(Read { position, ply_is_start })
        })
        .collect()
}

/// Every position of every game of a PGN file that replays.
fn read_pgn(path: &Path) -> Result<Vec<Read>, String> {
    let bytes = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut reader = SliceReader::new(&bytes);
    let mut out = Vec::new();
    while let Some(result) = reader.read_game(&mut Replay::default()) {
        let Ok(replayed) = result else { continue };
        if replayed.game.moves().iter().any(|m| m.is_null()) {
            // An analysis with a pass: its positions are no real game's.
            continue;
        }
        let mut position = *replayed.game.start();
        out.push(Read { position, ply_is_start: true });
        for &m in replayed.game.moves() {
            position.play_unchecked(m);
            out.push(Read { position, ply_is_start: false });
        }
    }
    Ok(out)
}

#[derive(Default)]
struct Stats {
    positions: u64,
    packed: u64,
    compact: u64,
    compact_clocks: u64,
    min: usize,
    max: usize,
    packed_min: usize,
    packed_max: usize,
    escapes: u64,
}

impl Stats {
    /// Measures `pos`; returns 1 if a round trip failed.
    fn add(&mut self, model: &Model, pos: &Position) -> usize {
        let short = model.encode(pos, false);
        let long = model.encode(pos, true);
        let packed = packed::encode(pos, false);
        self.min = if self.positions == 0 { short.len() } else { self.min.min(short.len()) };
        self.max = self.max.max(short.len());
        self.packed_min =
            if self.positions == 0 { packed.len() } else { self.packed_min.min(packed.len()) };
        self.packed_max = self.packed_max.max(packed.len());
        self.positions += 1;
        self.packed += packed.len() as u64;
        self.compact += short.len() as u64;
        self.compact_clocks += long.len() as u64;
        self.escapes += u64::from(short.is_escape());

        let mut cleared = *pos;
        cleared.set_clocks(0, 1);
        let checks = [
            (model.decode(short.as_bytes()).map_err(|e| e.to_string()), cleared),
            (model.decode(long.as_bytes()).map_err(|e| e.to_string()), *pos),
            (packed::decode(packed.as_bytes()).map_err(|e| e.to_string()), cleared),
            (packed::decode(packed::encode(pos, true).as_bytes()).map_err(|e| e.to_string()), *pos),
        ];
        for (decoded, expected) in checks {
            match decoded {
                Ok(back) if same(&back, &expected) => {}
                Ok(back) => {
                    eprintln!("round trip: {} became {}", full_fen(&expected), full_fen(&back));
                    return 1;
                }
                Err(err) => {
                    eprintln!("round trip: {}: {err}", full_fen(&expected));
                    return 1;
                }
            }
        }
        0
    }
}

fn same(a: &Position, b: &Position) -> bool {
    full_fen(a) == full_fen(b) && a.key() == b.key() && a.castling_mode() == b.castling_mode()
}

fn full_fen(pos: &Position) -> String {
    fen_of(
        pos,
        FenOptions { castling: CastlingNotation::Shredder, en_passant: EnPassantMode::Always },
    )
}
