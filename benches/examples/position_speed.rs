//! `packed` and `compact` position speed over a FEN file (default: the repository's 1,000
//! sample positions), one thread.
//!
//! `cargo run --release -p chessbits-benches --example position_speed [--repeat N] [--only
//! WHAT] [FILE]` prints encoding and decoding speed in positions per second for both formats,
//! beside FEN parsing, after checking that every position decodes to its Zobrist key. `--only` runs one
//! of `packed-encode`, `packed-decode`, `packed-into` (`decode_into` one position), `packed-setup` (decoding to an unvalidated
//! `Setup`), `compact-encode`, `compact-decode`: run under
//! `valgrind --tool=callgrind` with two repeat counts, the difference of the two instruction
//! totals divided by the difference in positions is the cost of one position, whatever else
//! the machine is doing.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use chessbits_codec::{compact, packed};
use chessbits_notation::fen::parse_position;
use chessbits_state::Position;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut repeat = 100;
    let mut only = None;
    while let Some(flag) = args.first().filter(|a| a.starts_with("--")).cloned() {
        let value = args.get(1).ok_or_else(|| format!("{flag} needs a value"))?.clone();
        match flag.as_str() {
            "--repeat" => repeat = value.parse()?,
            "--only" => only = Some(value),
            _ => return Err(format!("unknown option {flag}").into()),
        }
        args.drain(..2);
    }
    let file = args.first().map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../testdata/positions/lichess-2021-10-sample.fen")
        },
        PathBuf::from,
    );
    let text = std::fs::read_to_string(file)?;
    let positions: Vec<Position> = text.lines().filter_map(|l| parse_position(l).ok()).collect();
    let packed: Vec<packed::Packed> = positions.iter().map(|p| packed::encode(p, false)).collect();
    let compact: Vec<compact::Compact> =
        positions.iter().map(|p| compact::encode(p, false)).collect();
    for (pos, (p, c)) in positions.iter().zip(packed.iter().zip(&compact)) {
        // Without the clocks: the same placement and state, so the same Zobrist key.
        assert_eq!(packed::decode(p.as_bytes())?.key(), pos.key(), "packed round trip");
        assert_eq!(compact::decode(c.as_bytes())?.key(), pos.key(), "compact round trip");
    }
    let count = positions.len() * repeat;
    let run = |name: &str, f: &dyn Fn() -> u64| {
        if only.as_deref().is_some_and(|o| o != name) {
            return;
        }
        let t0 = Instant::now();
        let mut n = 0u64;
        for _ in 0..repeat {
            n = n.wrapping_add(f());
        }
        let secs = t0.elapsed().as_secs_f64();
        println!("{name:15} {:8.2} M positions/s ({n:x})", count as f64 / secs / 1e6);
    };
    println!("{count} positions");
    run("fen-parse", &|| {
        text.lines().map(|l| parse_position(black_box(l)).map_or(0, |p| p.key())).sum()
    });
    run("packed-encode", &|| {
        positions.iter().map(|p| packed::encode(black_box(p), false).len() as u64).sum()
    });
    run("packed-decode", &|| {
        packed.iter().map(|b| packed::decode(black_box(b.as_bytes())).map_or(0, |p| p.key())).sum()
    });
    run("packed-into", &|| {
        let mut pos = Position::new();
        packed
            .iter()
            .map(|b| match packed::decode_into(black_box(b.as_bytes()), &mut pos) {
                Ok(()) => pos.key(),
                Err(_) => 0,
            })
            .sum()
    });
    run("packed-setup", &|| {
        packed
            .iter()
            .map(|b| {
                packed::decode_setup(black_box(b.as_bytes())).map_or(0, |s| s.board.occupied().0)
            })
            .sum()
    });
    run("compact-encode", &|| {
        positions.iter().map(|p| compact::encode(black_box(p), false).len() as u64).sum()
    });
    run("compact-decode", &|| {
        compact
            .iter()
            .map(|b| compact::decode(black_box(b.as_bytes())).map_or(0, |p| p.key()))
            .sum()
    });
    Ok(())
}
