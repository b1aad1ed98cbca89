//! `cargo xtask cbg-check [FILE.pgn...]`: the `.cbg` round trip over every PGN file of
//! `../shared/corpus/` (and `train/`), or the files given.
//!
//! Each file is packed in memory with both move codecs and read back, in order and through the
//! index; every game must come back with the same tags, start position, mainline, clocks,
//! evaluations and result, and agree with what the PGN tree builder reads from the file (the
//! tags as text, the mainline, the clocks and evaluations of its nodes, the result). Prints a
//! table of sizes and bits per move, and exits non-zero on the first mismatch.

use std::io::Cursor;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use chessbits_cbg::{CbgFile, CbgReader, CbgWriter, GameBuilder, GameRecord};
use chessbits_codec::move_codec::MoveCodec;
use chessbits_pgn::{PgnGame, SliceReader, TreeBuilder};

use crate::project_root;

/// One file's figures for one codec.
#[derive(Default, Clone, Copy)]
struct Figures {
    games: u64,
    plies: u64,
    move_bytes: u64,
    file_bytes: u64,
    write_secs: f64,
    read_secs: f64,
}

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let files: Vec<PathBuf> = if args.is_empty() {
        let corpus = project_root().join("../shared/corpus");
        if !corpus.is_dir() {
            println!("cbg-check: {} is absent, nothing to check", corpus.display());
            return Ok(ExitCode::SUCCESS);
        }
        let mut files = Vec::new();
        for dir in [corpus.clone(), corpus.join("train")] {
            let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
                .map_err(|e| format!("{}: {e}", dir.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
                .collect();
            names.sort();
            files.extend(names);
        }
        files
    } else {
        args.iter().map(PathBuf::from).collect()
    };
    println!("| file | games | failed | plies | PGN bytes | model .cbg bytes | model bits/move | index bits/move |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut total = [Figures::default(); 2];
    let mut pgn_total = 0u64;
    let mut failed_total = 0u64;
    for path in &files {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let (records, failed) = read_records(&bytes);
        let trees = read_trees(&bytes);
        check_against_trees(&name, &records, &trees)?;
        let mut figures = [Figures::default(); 2];
        for (slot, codec) in [MoveCodec::Model, MoveCodec::Index].into_iter().enumerate() {
            figures[slot] = round_trip(&name, &records, codec)?;
            let t = &mut total[slot];
            t.games += figures[slot].games;
            t.plies += figures[slot].plies;
            t.move_bytes += figures[slot].move_bytes;
            t.file_bytes += figures[slot].file_bytes;
            t.write_secs += figures[slot].write_secs;
            t.read_secs += figures[slot].read_secs;
        }
        pgn_total += bytes.len() as u64;
        failed_total += failed;
        row(&name, &figures, failed, bytes.len() as u64);
    }
    row("all", &total, failed_total, pgn_total);
    for (codec, t) in ["model", "index"].iter().zip(total) {
        println!(
            "{codec}: .cbg written at {:.2} M plies/s, read back at {:.2} M plies/s (whole games: tags, moves, clocks, checks)",
            t.plies as f64 / t.write_secs / 1e6,
            t.plies as f64 / t.read_secs / 1e6
        );
    }
    println!("cbg-check: every game of {} files round-trips", files.len());
    Ok(ExitCode::SUCCESS)
}

fn row(name: &str, f: &[Figures; 2], failed: u64, pgn: u64) {
    let bpm = |f: &Figures| f.move_bytes as f64 * 8.0 / f.plies.max(1) as f64;
    println!(
        "| {name} | {} | {failed} | {} | {pgn} | {} | {:.3} | {:.3} |",
        f[0].games,
        f[0].plies,
        f[0].file_bytes,
        bpm(&f[0]),
        bpm(&f[1])
    );
}

/// The games of a PGN file as records (numbered as `chessbits pgn` numbers them), and the
/// number that do not read.
fn read_records(bytes: &[u8]) -> (Vec<GameRecord>, u64) {
    let mut reader = SliceReader::new(bytes);
    let mut builder = GameBuilder::default();
    let (mut records, mut failed, mut number) = (Vec::new(), 0, 0);
    while let Some(result) = reader.read_game(&mut builder) {
        number += 1;
        match result {
            Ok(mut record) => {
                record.number = number;
                records.push(record);
            }
            Err(_) => failed += 1,
        }
    }
    (records, failed)
}

/// The games of a PGN file as trees, numbered the same way (`None` for a broken game).
fn read_trees(bytes: &[u8]) -> Vec<Option<PgnGame>> {
    let mut reader = SliceReader::new(bytes);
    let mut builder = TreeBuilder::default();
    let mut trees = Vec::new();
    while let Some(result) = reader.read_game(&mut builder) {
        trees.push(result.ok());
    }
    trees
}

/// The records agree with the PGN trees of the same games.
fn check_against_trees(
    name: &str,
    records: &[GameRecord],
    trees: &[Option<PgnGame>],
) -> Result<(), String> {
    for record in records {
        let n = record.number;
        let Some(Some(tree)) = trees.get(n as usize - 1) else {
            return Err(format!("{name}: game {n} reads as a record but not as a tree"));
        };
        let ours = record.to_pgn();
        if ours.tags != tree.tags {
            return Err(format!("{name}: game {n}: tags differ"));
        }
        if ours.start != tree.start {
            return Err(format!("{name}: game {n}: start positions differ"));
        }
        if ours.result != tree.result {
            return Err(format!("{name}: game {n}: results differ"));
        }
        let theirs = &tree.mainline.moves;
        if ours.mainline.moves.len() != theirs.len() {
            return Err(format!("{name}: game {n}: mainline lengths differ"));
        }
        for (ply, (a, b)) in ours.mainline.moves.iter().zip(theirs).enumerate() {
            if (a.mv, a.clock, a.eval, &a.san) != (b.mv, b.clock, b.eval, &b.san) {
                return Err(format!(
                    "{name}: game {n}, ply {}: move, SAN, clock or eval differ",
                    ply + 1
                ));
            }
        }
    }
    Ok(())
}

/// Packs `records`, reads them back in order and through the index, and compares.
fn round_trip(name: &str, records: &[GameRecord], codec: MoveCodec) -> Result<Figures, String> {
    let mut f = Figures::default();
    let t0 = Instant::now();
    let mut writer = CbgWriter::new(Vec::new(), codec).map_err(|e| e.to_string())?;
    for record in records {
        let written = writer
            .write_game(record)
            .map_err(|e| format!("{name}: game {}: {e}", record.number))?;
        f.games += 1;
        f.plies += record.moves.len() as u64;
        f.move_bytes += written.move_bytes as u64;
    }
    let bytes = writer.finish().map_err(|e| e.to_string())?;
    f.write_secs = t0.elapsed().as_secs_f64();
    f.file_bytes = bytes.len() as u64;

    let t0 = Instant::now();
    let reader = CbgReader::new(&bytes[..]).map_err(|e| format!("{name}: {e}"))?;
    let mut count = 0;
    for (result, original) in reader.zip(records) {
        let decoded = result.map_err(|e| format!("{name} ({codec}): {e}"))?;
        if &decoded != original {
            return Err(format!("{name} ({codec}): game {} does not round-trip", original.number));
        }
        count += 1;
    }
    f.read_secs = t0.elapsed().as_secs_f64();
    if count != records.len()
        || CbgReader::new(&bytes[..]).map_err(|e| e.to_string())?.count() != records.len()
    {
        return Err(format!("{name} ({codec}): {count} games read back of {}", records.len()));
    }

    let mut file = CbgFile::open(Cursor::new(&bytes)).map_err(|e| format!("{name}: {e}"))?;
    if file.len() != records.len() as u64 {
        return Err(format!("{name} ({codec}): the index counts {} games", file.len()));
    }
    let step = (records.len() / 50).max(1);
    for (i, original) in records.iter().enumerate().rev().step_by(step) {
        let game = file.game(i as u64 + 1).map_err(|e| format!("{name} ({codec}): {e}"))?;
        if &game != original {
            return Err(format!("{name} ({codec}): game {} differs through the index", i + 1));
        }
    }
    Ok(f)
}
