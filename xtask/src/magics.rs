//! `cargo xtask magics`: the search that produced `crates/movegen/src/magics.rs`.
//!
//! For each square it tries sparse random multipliers (xorshift, fixed seed) until one maps
//! every relevant occupancy subset to a slot without a destructive collision, with a shift of
//! 64 minus the number of relevant bits. Output is deterministic.

use std::process::ExitCode;

use chessbits_bitboard::{reference, Bitboard, Square};
use chessbits_testkit::Rng;

fn find(rng: &mut Rng, sq: Square, directions: &[(i32, i32); 4]) -> u64 {
    let mask = reference::relevant_occupancy(sq, directions).0;
    let bits = mask.count_ones();
    let mut subsets = Vec::new();
    let mut subset = 0u64;
    loop {
        subsets.push((subset, reference::sliding(sq, Bitboard(subset), directions)));
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            break;
        }
    }
    let mut slots = vec![(0u32, Bitboard::EMPTY); 1 << bits];
    let mut epoch = 0;
    'search: loop {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        epoch += 1;
        for &(occ, attack) in &subsets {
            let slot = &mut slots[(occ.wrapping_mul(magic) >> (64 - bits)) as usize];
            if slot.0 < epoch {
                *slot = (epoch, attack);
            } else if slot.1 != attack {
                continue 'search;
            }
        }
        return magic;
    }
}

pub fn run() -> Result<ExitCode, String> {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    for (name, directions) in
        [("ROOK", &reference::ROOK_DIRECTIONS), ("BISHOP", &reference::BISHOP_DIRECTIONS)]
    {
        let magics: Vec<u64> =
            Square::ALL.iter().map(|&sq| find(&mut rng, sq, directions)).collect();
        println!("pub(crate) const {name}_MAGICS: [u64; 64] = [");
        for chunk in magics.chunks(4) {
            let row: Vec<String> = chunk.iter().map(|m| format!("0x{m:016x},")).collect();
            println!("    {}", row.join(" "));
        }
        println!("];");
    }
    Ok(ExitCode::SUCCESS)
}
