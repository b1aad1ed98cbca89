//! Perft: counting the leaves of the legal move tree, the ground truth for move generation.
//!
//! One module per idea: [`walk`] holds the make/unmake walk (one body, specialised by policy
//! into bulk counting, every-leaf and hashed walks, and compiled portably and for the fast-bits
//! CPU features of [`chessbits_bitboard::isa`]); [`table`] the lockless transposition table; [`parallel`]
//! the thread scheduler. This file holds the public entry points.

pub(crate) mod children;
mod parallel;
mod table;
mod walk;

use chessbits_bitboard::Bitboard;
use chessbits_move::Move16;
use chessbits_state::Position;

use crate::gen::Gen;
use crate::tables::{tables, Tables};

pub use parallel::perft_parallel;
pub use table::PerftTable;
use walk::{Bulk, Hashed, Leaves};

/// The number of leaf nodes of the legal move tree of `pos` at `depth` plies.
///
/// Counts the last ply in bulk (sums of target popcounts, no move made) and walks the rest by
/// make/unmake on one copy of `pos`. `perft(pos, 0)` is 1.
///
/// ```
/// use chessbits_movegen::perft;
/// use chessbits_state::Position;
///
/// assert_eq!(perft(&Position::new(), 3), 8_902);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_with(tables(), pos, depth)
}

/// Perft (`depth >= 1`) with the tables already in hand (no lazy-table check per node).
pub(crate) fn perft_with(t: &'static Tables, pos: &Position, depth: u32) -> u64 {
    if depth == 1 {
        return Gen::new(t, pos).count();
    }
    walk::run(t, &mut { *pos }, depth, Bulk)
}

/// Perft with a transposition table: subtrees already counted (same key, same depth) are looked
/// up instead of walked. Gives the same counts as [`perft`].
///
/// ```
/// use chessbits_movegen::{perft, perft_hashed, PerftTable};
/// use chessbits_state::Position;
///
/// let table = PerftTable::new(16);
/// assert_eq!(perft_hashed(&Position::new(), 4, &table), perft(&Position::new(), 4));
/// ```
pub fn perft_hashed(pos: &Position, depth: u32, table: &PerftTable) -> u64 {
    let t = tables();
    match depth {
        0 => 1,
        1 => Gen::new(t, pos).count(),
        _ => walk::run(t, &mut { *pos }, depth, Hashed(table)),
    }
}

/// Perft split by the first move: each legal move with the leaf count below it, in the order
/// of the per-piece generator. The counts add up to [`perft`]`(pos, depth)`; `depth` 0 gives an
/// empty list.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move16, u64)> {
    let t = tables();
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    Gen::new(t, pos).generate_per_piece(Bitboard::FULL, Bitboard::FULL, |moves| {
        for m in moves {
            let nodes =
                if depth == 1 { 1 } else { perft_with(t, &pos.played_unchecked(m), depth - 1) };
            out.push((m, nodes));
        }
        false
    });
    out
}

/// Perft that makes and unmakes every move down to the leaves (no bulk counting): measures
/// make/unmake and full generation, as an engine's search uses them.
pub fn perft_make_unmake(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    walk::run(tables(), &mut { *pos }, depth, Leaves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_counts() {
        let pos = Position::new();
        let expected = [1, 20, 400, 8_902, 197_281, 4_865_609];
        for (depth, &nodes) in expected.iter().enumerate() {
            assert_eq!(perft(&pos, depth as u32), nodes, "depth {depth}");
        }
        assert_eq!(perft_make_unmake(&pos, 4), 197_281);
        let split = divide(&pos, 3);
        assert_eq!(split.len(), 20);
        assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 8_902);
    }
}
