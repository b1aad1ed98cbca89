//! The serial parts of the parallel PGN pipeline, in MB/s of PGN, against a whole read.
//!
//! `cargo run --release -p chessbits-benches --example chunks_speed FILE [FILE...]` reads the
//! files into memory and times: skipping every game (`skip_game`, what the cutter runs),
//! cutting chunks of 1 MiB (`Chunks`, the skip plus copying and line counts), decompressing
//! a `.zst` of the same bytes (the reading thread's work on lichess files), and reading every
//! game with `Replay` (a worker's work, the least of it).

use std::io::Read;
use std::time::Instant;

use chessbits_pgn::{Chunks, Input, Output, Replay, SliceReader};

fn mbs(bytes: usize, seconds: f64) -> String {
    format!("{:.0} MB/s", bytes as f64 / 1e6 / seconds)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut pgn = Vec::new();
    for file in std::env::args().skip(1) {
        pgn.extend(std::fs::read(file)?);
    }
    let t = Instant::now();
    let mut reader = SliceReader::new(&pgn);
    while reader.skip_game().is_some() {}
    println!("skip_game over the bytes:  {}", mbs(pgn.len(), t.elapsed().as_secs_f64()));
    let t = Instant::now();
    let chunks = Chunks::new(&pgn[..], 1 << 20).count();
    println!("Chunks of 1 MiB ({chunks}):   {}", mbs(pgn.len(), t.elapsed().as_secs_f64()));
    let zst = std::env::temp_dir().join("chunks_speed.pgn.zst");
    let mut out = Output::create(&zst)?;
    std::io::Write::write_all(&mut out, &pgn)?;
    out.finish()?;
    let t = Instant::now();
    let mut back = Vec::with_capacity(pgn.len());
    Input::open(&zst)?.read_to_end(&mut back)?;
    println!("zstd decompression:        {}", mbs(pgn.len(), t.elapsed().as_secs_f64()));
    let t = Instant::now();
    let mut reader = SliceReader::new(&pgn);
    let mut games = 0;
    while reader.read_game(&mut Replay::default()).is_some() {
        games += 1;
    }
    println!("Replay ({games} games):   {}", mbs(pgn.len(), t.elapsed().as_secs_f64()));
    Ok(())
}
