//! Perft: counting the leaves of the legal move tree, the ground truth for move generation.

use chessbits_bitboard::Bitboard;
use chessbits_move::Move16;
use chessbits_state::Position;

use crate::gen::Gen;
use crate::tables::{tables, Tables};

/// The number of leaf nodes of the legal move tree of `pos` at `depth` plies.
///
/// Counts the last ply in bulk (sums of target popcounts, no move made) and plays the rest by
/// copy-make. `perft(pos, 0)` is 1.
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

/// Perft with the tables already in hand (no lazy-table check per node).
pub(crate) fn perft_with(t: &'static Tables, pos: &Position, depth: u32) -> u64 {
    let gen = Gen::new(t, pos);
    let mut nodes = 0;
    if depth == 1 {
        gen.generate(Bitboard::FULL, Bitboard::FULL, |moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        gen.generate(Bitboard::FULL, Bitboard::FULL, |moves| {
            for m in moves {
                nodes += perft_with(t, &pos.played(m), depth - 1);
            }
            false
        });
    }
    nodes
}

/// Perft split by the first move: each legal move with the leaf count below it, in generation
/// order. The counts add up to [`perft`]`(pos, depth)`; `depth` 0 gives an empty list.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move16, u64)> {
    let t = tables();
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    Gen::new(t, pos).generate(Bitboard::FULL, Bitboard::FULL, |moves| {
        for m in moves {
            let nodes = if depth == 1 { 1 } else { perft_with(t, &pos.played(m), depth - 1) };
            out.push((m, nodes));
        }
        false
    });
    out
}

/// Perft that makes and unmakes every move down to the leaves (no bulk counting): measures
/// make/unmake and full generation, as an engine's search uses them.
pub fn perft_make_unmake(pos: &Position, depth: u32) -> u64 {
    fn go(t: &'static Tables, pos: &mut Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = chessbits_move::MoveList::new();
        Gen::new(t, pos).generate(Bitboard::FULL, Bitboard::FULL, |moves| {
            list.extend(moves);
            false
        });
        let mut nodes = 0;
        for m in list {
            let undo = pos.play_unchecked(m);
            nodes += go(t, pos, depth - 1);
            pos.undo(undo);
        }
        nodes
    }
    let mut pos = *pos;
    go(tables(), &mut pos, depth)
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
