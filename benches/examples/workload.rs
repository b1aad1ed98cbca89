//! A small fixed workload for instruction counts (`valgrind --tool=cachegrind`), used to
//! measure move generation changes on a shared, noisy machine (see `docs/perft.md`).
//!
//! ```sh
//! cargo build --release --example workload -p chessbits-benches
//! valgrind --tool=cachegrind target/release/examples/workload lists 20
//! valgrind --tool=cachegrind target/release/examples/workload leaves
//! valgrind --tool=cachegrind target/release/examples/workload bulk
//! ```
//!
//! - `lists N`: `legal_moves()` of every position of the suites in `testdata/perft`, N passes.
//! - `leaves [REPEAT]`: `perft_make_unmake` on startpos (depth 4) and kiwipete (depth 3).
//! - `bulk [REPEAT]`: `perft` on startpos (depth 5) and kiwipete (depth 4).
//! - `perft FEN DEPTH [REPEAT]`: `perft` on one position.
//!
//! (The repeats are for wall-clock timing; instruction counts use one.)
//!
//! Prints the total count, so a change that breaks generation shows in the output too.

use chessbits_movegen::{perft, perft_make_unmake, MoveGen, Position};
use chessbits_notation::fen;

/// Every suite's EPD lines, read at compile time.
const SUITES: [&str; 5] = [
    include_str!("../../testdata/perft/standard.epd"),
    include_str!("../../testdata/perft/perftsuite.epd"),
    include_str!("../../testdata/perft/tricky.epd"),
    include_str!("../../testdata/perft/random.epd"),
    include_str!("../../testdata/perft/chess960.epd"),
];

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let start = fen::parse_position(STARTPOS)?;
    let kiwipete = fen::parse_position(KIWIPETE)?;
    let total = match args.first().map(String::as_str) {
        Some("lists") => {
            let passes: u32 = args.get(1).map_or(Ok(20), |n| n.parse())?;
            let positions: Vec<Position> = SUITES
                .iter()
                .flat_map(|suite| suite.lines())
                .filter_map(|line| line.split(';').next())
                .filter_map(|fen| fen::parse_position(fen.trim()).ok())
                .collect();
            let mut total = 0u64;
            for _ in 0..passes {
                for pos in &positions {
                    // By reference, as the peer comparison does: by value, `black_box` would
                    // copy the whole 516-byte list.
                    let list = std::hint::black_box(pos).legal_moves();
                    total += std::hint::black_box(&list).len() as u64;
                }
            }
            total
        }
        Some(walk @ ("leaves" | "bulk")) => {
            let repeat: u32 = args.get(1).map_or(Ok(1), |n| n.parse())?;
            let mut total = 0;
            for _ in 0..repeat {
                total += if walk == "leaves" {
                    perft_make_unmake(&start, 4) + perft_make_unmake(&kiwipete, 3)
                } else {
                    perft(&start, 5) + perft(&kiwipete, 4)
                };
            }
            total
        }
        Some("perft") => {
            let (Some(fen), Some(depth)) = (args.get(1), args.get(2)) else {
                return Err("usage: workload perft FEN DEPTH [REPEAT]".into());
            };
            let pos = fen::parse_position(fen)?;
            let (depth, repeat): (u32, u32) = (depth.parse()?, args.get(3).map_or(Ok(1), |n| n.parse())?);
            (0..repeat).map(|_| perft(std::hint::black_box(&pos), depth)).sum()
        }
        _ => {
            return Err("usage: workload lists [N] | leaves [REPEAT] | bulk [REPEAT] | perft FEN DEPTH [REPEAT]".into())
        }
    };
    println!("{total}");
    Ok(())
}
