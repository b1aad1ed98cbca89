//! `cargo xtask index-bench`: the position index's size, build speed and query latency.
//!
//! Builds an index of the lichess training games (`../shared/corpus/train/`) repeated
//! `--repeats` times (default 34: about a million games), each copy numbered on (so every game
//! has its own id), spilling in `--memory` MiB; then times `find` (the first 100 games) and
//! `explore` in this process, warm, on positions of held-out games
//! (`../shared/corpus/lichess-db-*.pgn`, never indexed) and of indexed ones, with and
//! without filters, and prints percentiles. The sizes are set beside three baselines measured
//! on the same games: their `.cbg`, their PGN compressed by zstd -19, and lila's explorer
//! layout (13-14 bytes per indexed ply, from its published figures).
//!
//! How the repeated corpus differs from a real month: every game occurs `repeats` times, so
//! a position has `repeats` times the games it would have, and no position is reached by one
//! game only. Lookups replay more games per position than a month's rare positions need, and
//! the key blocks hold fewer, larger groups than a month's (whose bytes per ply are a little
//! higher: the game numbers take more bits).

use std::fs;
use std::process::{Command, ExitCode};
use std::time::Instant;

use chessbits_cbg::{CbgWriter, GameBuilder, GameRecord};
use chessbits_codec::move_codec::MoveCodec;
use chessbits_index::{BuildOptions, Filter, Index, IndexBuilder, PreparedGame, Speed};
use chessbits_pgn::SliceReader;
use chessbits_state::Position;

use crate::project_root;

const HELP: &str = "usage: cargo xtask index-bench [--repeats N] [--memory MiB] [--keep FILE]
       cargo xtask index-bench --open FILE

Builds a position index of the training games repeated N times (default 34, about a million
games) in MiB of sort memory (default 1024), and times find and explore on held-out and
indexed positions, cold and warm (docs/formats.md). --keep FILE keeps the index there;
--open FILE times the queries on an index kept before, without building.";

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let (mut repeats, mut memory, mut keep, mut open) = (34usize, 1024usize, None, None);
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = || rest.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--repeats" => repeats = value()?.parse().map_err(|e| format!("--repeats: {e}"))?,
            "--memory" => memory = value()?.parse().map_err(|e| format!("--memory: {e}"))?,
            "--keep" => keep = Some(value()?.clone()),
            "--open" => open = Some(std::path::PathBuf::from(value()?)),
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(ExitCode::SUCCESS);
            }
            other => return Err(format!("unknown option {other:?}\n{HELP}")),
        }
    }
    let corpus = project_root().join("../shared/corpus");
    let mut train_paths: Vec<_> = fs::read_dir(corpus.join("train"))
        .map_err(|e| format!("{}: {e} (the corpus is needed)", corpus.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    train_paths.sort();
    let mut pgn = Vec::new();
    for p in &train_paths {
        pgn.extend(fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?);
        pgn.push(b'\n');
    }
    let train = read_games(&pgn);
    if let Some(path) = open {
        return queries(&path, &corpus, &train);
    }
    let plies: usize = train.iter().map(|g| g.moves.len()).sum();
    println!("training games: {} ({} plies), repeated {repeats} times", train.len(), plies);

    // Baselines on the games of one copy.
    let mut cbg = CbgWriter::new(Vec::new(), MoveCodec::Model).map_err(|e| e.to_string())?;
    for g in &train {
        cbg.write_game(g).map_err(|e| e.to_string())?;
    }
    let cbg = cbg.finish().map_err(|e| e.to_string())?.len();
    let zst = zstd_size(&pgn);
    let single = {
        let mut builder = IndexBuilder::new(BuildOptions::default());
        for g in &train {
            builder
                .push(PreparedGame::new(g, u32::MAX).map_err(|e| e.to_string())?)
                .map_err(|e| e.to_string())?;
        }
        let mut bytes = Vec::new();
        let stats = builder.finish(&mut bytes).map_err(|e| e.to_string())?;
        (bytes.len(), stats.postings)
    };
    println!("\nsize, one copy of the training games ({} indexed positions):", single.1);
    let per = |bytes: usize| bytes as f64 / single.1 as f64;
    println!("  index (.cbx)        {:>11} B  {:>5.2} B per indexed ply", single.0, per(single.0));
    println!("  .cbg of the games   {:>11} B  {:>5.2}", cbg, per(cbg));
    match zst {
        Some(z) => println!("  PGN, zstd -19       {:>11} B  {:>5.2}", z, per(z)),
        None => println!("  PGN, zstd -19       (zstd not found)"),
    }
    println!("  lila's explorer     {:>11}    13-14 (published figures, first 50 plies only)", "");

    // The big index.
    let t = Instant::now();
    let prepared: Vec<PreparedGame> = train
        .iter()
        .map(|g| PreparedGame::new(g, u32::MAX).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let prepare = t.elapsed();
    let t = Instant::now();
    let options = BuildOptions::default().with_memory(memory << 20);
    let mut builder = IndexBuilder::new(options);
    let mut number = 0;
    for _ in 0..repeats {
        for p in &prepared {
            number += 1;
            let mut p = p.clone();
            p.renumber(number);
            builder.push(p).map_err(|e| e.to_string())?;
        }
    }
    let path =
        keep.map_or_else(|| std::env::temp_dir().join("chessbits-index-bench.cbx"), Into::into);
    let mut out = std::io::BufWriter::new(fs::File::create(&path).map_err(|e| e.to_string())?);
    let stats = builder.finish(&mut out).map_err(|e| e.to_string())?;
    drop(out);
    let build = t.elapsed();
    let all_plies = (plies * repeats) as f64;
    println!(
        "\nbuilt {} games, {} indexed positions ({} distinct, {} popular), {} B = {:.2} B per indexed ply; {} sorted runs spilled",
        stats.games, stats.postings, stats.positions, stats.popular, stats.bytes,
        stats.bytes as f64 / stats.postings as f64, stats.spilled_runs
    );
    println!(
        "  prepare (replay, code moves) of one copy {:.2} s = {:.2} M plies/s; sort, merge and write {:.2} s = {:.2} M plies/s",
        prepare.as_secs_f64(),
        plies as f64 / prepare.as_secs_f64() / 1e6,
        build.as_secs_f64(),
        all_plies / build.as_secs_f64() / 1e6
    );
    println!("  peak memory of this process: {}", peak_rss());
    queries(&path, &corpus, &train)
}

/// Times the queries on the index at `path`, cold then warm.
fn queries(
    path: &std::path::Path,
    corpus: &std::path::Path,
    train: &[GameRecord],
) -> Result<ExitCode, String> {
    let held_out = held_out_positions(corpus)?;
    cold(path, &held_out)?;
    let index = Index::open(path).map_err(|e| e.to_string())?;
    // Warm: every page of the file in the page cache, every region checked (a server that
    // has run a while).
    let t = Instant::now();
    index.verify().map_err(|e| e.to_string())?;
    println!("\nverify (read and check every region) {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let indexed = positions_of(train, 40, 97);
    let filtered = Filter {
        speeds: vec![Speed::Blitz],
        min_rating: Some(1600),
        max_rating: Some(2000), // its band: to 2199
        ..Filter::default()
    };
    let sets: [(&str, &[Position]); 3] = [
        ("start position", &[Position::new()]),
        ("indexed games' positions (plies 0-40)", &indexed),
        ("held-out games' positions (plies 0-40)", &held_out),
    ];
    println!("warm latency, ms (p50 / p99 / max), {} games:", index.games());
    for (name, positions) in sets {
        for (label, filter) in [("", Filter::default()), (", blitz 1600-2199", filtered.clone())] {
            let mut find = Vec::new();
            let mut explore = Vec::new();
            let rounds = if positions.len() == 1 { 200 } else { 1 };
            for _ in 0..rounds {
                for pos in positions {
                    let t = Instant::now();
                    let _ = index.find(pos, &filter, Some(100)).map_err(|e| e.to_string())?;
                    find.push(t.elapsed().as_secs_f64() * 1e3);
                    let t = Instant::now();
                    let _ = index.explore(pos, &filter).map_err(|e| e.to_string())?;
                    explore.push(t.elapsed().as_secs_f64() * 1e3);
                }
            }
            println!(
                "  {name}{label} ({} queries): find {}   explore {}",
                find.len(),
                percentiles(&mut find),
                percentiles(&mut explore)
            );
        }
    }
    // The same held-out queries on the file read into memory, interleaved with the mapped
    // one's, so that the machine's noise falls on both alike.
    let in_memory =
        Index::from_bytes(fs::read(path).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    in_memory.verify().map_err(|e| e.to_string())?;
    let (mut mapped_ms, mut memory_ms) = (Vec::new(), Vec::new());
    for pos in &held_out {
        for (index, times) in [(&index, &mut mapped_ms), (&in_memory, &mut memory_ms)] {
            let t = Instant::now();
            let _ = index.find(pos, &Filter::default(), Some(100)).map_err(|e| e.to_string())?;
            let _ = index.explore(pos, &Filter::default()).map_err(|e| e.to_string())?;
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
    }
    let (mapped_total, memory_total): (f64, f64) = (mapped_ms.iter().sum(), memory_ms.iter().sum());
    println!(
        "  held-out find + explore, interleaved: mapped {}, in memory {}; mapped / in memory {:.3}",
        percentiles(&mut mapped_ms),
        percentiles(&mut memory_ms),
        mapped_total / memory_total
    );
    Ok(ExitCode::SUCCESS)
}

/// Cold figures: the file dropped from the page cache (`dd iflag=nocache`, Linux) before
/// each step. Opening the memory-mapped index and its first queries, against reading the whole
/// file and checking it (what the reader did before it mapped the file); then one-shot
/// queries, each on an index opened afresh after the cache was dropped, as `chessbits index
/// find` runs, with the pages of the file each one read.
fn cold(path: &std::path::Path, held_out: &[Position]) -> Result<(), String> {
    // Written pages are dropped only once they are on disk.
    fs::File::open(path).and_then(|f| f.sync_all()).map_err(|e| e.to_string())?;
    if !evict(path) {
        println!("\ncold: skipped (no `dd iflag=nocache` to drop the file from the page cache)");
        return Ok(());
    }
    let t = Instant::now();
    let whole = Index::from_bytes(fs::read(path).map_err(|e| e.to_string())?)
        .and_then(|index| index.verify().map(|()| index))
        .map_err(|e| e.to_string())?;
    let read = t.elapsed();
    drop(whole);
    evict(path);
    let t = Instant::now();
    let index = Index::open(path).map_err(|e| e.to_string())?;
    let open = t.elapsed();
    let t = Instant::now();
    let _ = index.explore(&Position::new(), &Filter::default()).map_err(|e| e.to_string())?;
    let explore = t.elapsed();
    let t = Instant::now();
    let _ = index.find(&Position::new(), &Filter::default(), Some(100));
    let find = t.elapsed();
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    println!(
        "\ncold: reading the whole file and checking it {:.1} ms (the reader before it mapped the file)",
        ms(read)
    );
    println!(
        "cold: open (map, check the header and the checksum table) {:.3} ms, then the first explore of the start position {:.2} ms, its find (first 100) {:.2} ms; {} of the file read",
        ms(open),
        ms(explore),
        ms(find),
        cached(path)
    );
    drop(index);
    let mut one_shot = Vec::new();
    let mut pages = Vec::new();
    for pos in held_out.iter().step_by((held_out.len() / 40).max(1)) {
        evict(path);
        let t = Instant::now();
        let index = Index::open(path).map_err(|e| e.to_string())?;
        let _ = index.find(pos, &Filter::default(), Some(100)).map_err(|e| e.to_string())?;
        let _ = index.explore(pos, &Filter::default()).map_err(|e| e.to_string())?;
        one_shot.push(ms(t.elapsed()));
        drop(index);
        pages.push(cached_pages(path).unwrap_or(0) as f64);
    }
    println!(
        "cold, one-shot (open, find first 100, explore) on {} held-out positions, ms: {}; 4 KiB pages read p50 / p99 / max: {}",
        one_shot.len(),
        percentiles(&mut one_shot),
        percentiles(&mut pages)
    );
    Ok(())
}

/// Drops `path` from the page cache; false where that cannot be done here.
fn evict(path: &std::path::Path) -> bool {
    Command::new("dd")
        .arg(format!("if={}", path.display()))
        .args(["iflag=nocache", "count=0", "status=none"])
        .status()
        .is_ok_and(|s| s.success())
}

/// The pages of `path` in the page cache (`fincore`), if that can be told.
fn cached_pages(path: &std::path::Path) -> Option<u64> {
    let out = Command::new("fincore")
        .args(["--bytes", "--noheadings", "--output", "PAGES"])
        .arg(path)
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}

fn cached(path: &std::path::Path) -> String {
    cached_pages(path).map_or("unknown".into(), |p| format!("{} KiB", p * 4))
}

fn read_games(pgn: &[u8]) -> Vec<GameRecord> {
    let mut reader = SliceReader::new(pgn);
    let mut builder = GameBuilder::default();
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut builder) {
        if let Ok(mut game) = game {
            game.number = reader.games();
            games.push(game);
        }
    }
    games
}

/// Every position up to ply `plies` of every `step`-th game.
fn positions_of(games: &[GameRecord], plies: usize, step: usize) -> Vec<Position> {
    let mut out = Vec::new();
    for game in games.iter().step_by(step) {
        let mut pos = game.start;
        out.push(pos);
        for &m in game.moves.iter().take(plies) {
            pos.play_unchecked(m);
            out.push(pos);
        }
    }
    out
}

fn held_out_positions(corpus: &std::path::Path) -> Result<Vec<Position>, String> {
    let mut out = Vec::new();
    for name in ["lichess-db-2021-10-first999.pgn", "lichess-db-2025-05-head1000k.pgn"] {
        let bytes = fs::read(corpus.join(name)).map_err(|e| format!("{name}: {e}"))?;
        out.extend(positions_of(&read_games(&bytes), 40, 5));
    }
    Ok(out)
}

fn percentiles(ms: &mut [f64]) -> String {
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    format!("{:.3} / {:.3} / {:.3}", at(0.5), at(0.99), at(1.0))
}

fn zstd_size(pgn: &[u8]) -> Option<usize> {
    let dir = std::env::temp_dir();
    let input = dir.join("chessbits-index-bench.pgn");
    fs::write(&input, pgn).ok()?;
    let out = Command::new("zstd").args(["-19", "-q", "-c", "-T2"]).arg(&input).output().ok()?;
    let _ = fs::remove_file(&input);
    out.status.success().then_some(out.stdout.len())
}

fn peak_rss() -> String {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM"))
                .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
        })
        .unwrap_or_else(|| "unknown".into())
}
