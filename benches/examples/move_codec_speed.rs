//! Move codec speed over the PGN files given on the command line (default: the repository's
//! lichess sample), one thread.
//!
//! `cargo run --release -p chessbits-benches --example move_codec_speed [--repeat N] [--only
//! CODEC] [FILE...]` prints, for the model and the index codec, bits per move (whole bytes per
//! game) and encoding and decoding speed in plies per second, after checking that every game
//! decodes to its moves. `--only model` or `--only index` runs one codec and skips the floor
//! (legal moves and play), so that instruction counts of two repeat counts (callgrind) differ
//! by that codec's encoding and decoding alone.

use std::path::PathBuf;
use std::time::Instant;

use chessbits_codec::move_codec::{self, MoveCodec};
use chessbits_move::Move16;
use chessbits_movegen::MoveGen;
use chessbits_pgn::{Replay, SliceReader};
use chessbits_state::Position;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut repeat = 1;
    let mut only: Option<MoveCodec> = None;
    while let Some(flag) = args.first().filter(|a| a.starts_with("--")).cloned() {
        let value = args.get(1).ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--repeat" => repeat = value.parse()?,
            "--only" => only = Some(value.parse()?),
            _ => return Err(format!("unknown flag {flag}").into()),
        }
        args.drain(..2);
    }
    let files: Vec<PathBuf> = if args.is_empty() {
        vec![PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../testdata/games/lichess-2021-10-sample.pgn")]
    } else {
        args.iter().map(PathBuf::from).collect()
    };
    let mut games: Vec<(Position, Vec<Move16>)> = Vec::new();
    for file in &files {
        let bytes = std::fs::read(file)?;
        let mut reader = SliceReader::new(&bytes);
        while let Some(result) = reader.read_game(&mut Replay::default()) {
            if let Ok(replayed) = result {
                games.push((*replayed.game.start(), replayed.game.moves().to_vec()));
            }
        }
    }
    let plies: usize = games.iter().map(|g| g.1.len()).sum::<usize>() * repeat;
    println!("{} games, {plies} plies", games.len() * repeat);
    // The floor: generating the legal moves and playing the game.
    let t0 = Instant::now();
    let mut n = 0;
    for _ in 0..if only.is_some() { 0 } else { repeat } {
        for (start, moves) in &games {
            let mut pos = *start;
            for &m in moves {
                n += pos.legal_moves().len();
                pos.play_unchecked(m);
            }
        }
    }
    if only.is_none() {
        println!(
            "legal_moves and play: {:.2} M plies/s ({n} moves)",
            plies as f64 / t0.elapsed().as_secs_f64() / 1e6
        );
    }
    for codec in [MoveCodec::Model, MoveCodec::Index] {
        if only.is_some_and(|o| o != codec) {
            continue;
        }
        let t0 = Instant::now();
        let mut coded = Vec::with_capacity(games.len());
        for _ in 0..repeat {
            coded.clear();
            for (start, moves) in &games {
                let mut out = Vec::new();
                move_codec::encode(codec, start, moves, &mut out)?;
                coded.push(out);
            }
        }
        let encode = t0.elapsed().as_secs_f64();
        let t0 = Instant::now();
        let mut decoded = Vec::new();
        for _ in 0..repeat {
            for ((start, moves), bytes) in games.iter().zip(&coded) {
                move_codec::decode(codec, start, moves.len(), bytes, &mut decoded)?;
                if &decoded != moves {
                    return Err("a game decodes to other moves".into());
                }
            }
        }
        let decode = t0.elapsed().as_secs_f64();
        let bytes: usize = coded.iter().map(Vec::len).sum::<usize>() * repeat;
        println!(
            "{codec}: {:.3} bits/move, encode {:.2} M plies/s, decode {:.2} M plies/s",
            bytes as f64 * 8.0 / plies as f64,
            plies as f64 / encode / 1e6,
            plies as f64 / decode / 1e6
        );
    }
    Ok(())
}
