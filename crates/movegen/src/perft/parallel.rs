//! The thread scheduler: subtrees a few plies below the root, taken by scoped threads from a
//! shared queue.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use chessbits_bitboard::Bitboard;
use chessbits_state::Position;

use super::{perft, perft_hashed, PerftTable};
use crate::gen::Gen;
use crate::tables::tables;

/// The most threads [`perft_parallel`] runs: a count the system cannot start would fail to
/// spawn, and more threads than cores gain nothing.
const MAX_THREADS: usize = 256;

/// Perft on `threads` threads (1 or more; more than 256 run as 256), with an
/// optional shared transposition table. The tree is cut into subtrees a few plies below the
/// root, which the threads take from a shared queue; the counts are identical to [`perft`].
pub fn perft_parallel(
    pos: &Position,
    depth: u32,
    threads: usize,
    table: Option<&PerftTable>,
) -> u64 {
    let threads = threads.clamp(1, MAX_THREADS);
    let tasks = split(pos, depth, 64 * threads);
    let run = |p: &Position, d: u32| match table {
        Some(table) => perft_hashed(p, d, table),
        None => perft(p, d),
    };
    if threads == 1 {
        return tasks.iter().map(|(p, d)| run(p, *d)).sum();
    }
    let next = AtomicUsize::new(0);
    let total = AtomicU64::new(0);
    let work = || {
        let mut nodes = 0;
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some((p, d)) = tasks.get(i) else { break };
            nodes += run(p, *d);
        }
        total.fetch_add(nodes, Ordering::Relaxed);
    };
    std::thread::scope(|scope| {
        // The calling thread is the last worker; a thread the system cannot start is done
        // without, not a panic.
        for _ in 1..threads {
            if std::thread::Builder::new().spawn_scoped(scope, work).is_err() {
                break;
            }
        }
        work();
    });
    total.into_inner()
}

/// The subtrees of `pos` at `depth`, split ply by ply until there are at least `wanted` of them
/// or one more split would leave fewer than three plies per subtree.
fn split(pos: &Position, depth: u32, wanted: usize) -> Vec<(Position, u32)> {
    let t = tables();
    let mut tasks = vec![(*pos, depth)];
    while tasks.len() < wanted && tasks.iter().all(|&(_, d)| d > 3) {
        let mut next = Vec::new();
        for (p, d) in tasks {
            Gen::new(t, &p).generate_per_piece(Bitboard::FULL, Bitboard::FULL, |moves| {
                next.extend(moves.into_iter().map(|m| (p.played_unchecked(m), d - 1)));
                false
            });
        }
        tasks = next;
    }
    tasks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_and_hash_give_identical_counts() {
        let pos = Position::new();
        let plain = perft(&pos, 5);
        // A tiny table forces constant replacement and index sharing.
        for table in [PerftTable::new(0), PerftTable::new(1)] {
            assert_eq!(perft_hashed(&pos, 5, &table), plain);
            assert_eq!(perft_hashed(&pos, 5, &table), plain, "a warm table");
            assert_eq!(perft_parallel(&pos, 5, 2, Some(&table)), plain);
        }
        for threads in [1, 2, 3] {
            assert_eq!(perft_parallel(&pos, 5, threads, None), plain);
        }
        assert_eq!(perft_parallel(&pos, 1, 2, None), 20);
    }
}
