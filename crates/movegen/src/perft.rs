//! Perft: counting the leaves of the legal move tree, the ground truth for move generation.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use chessbits_bitboard::Bitboard;
use chessbits_move::{Move16, MoveList};
use chessbits_state::Position;

use crate::gen::Gen;
use crate::tables::{tables, Tables};

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

/// Perft with the tables already in hand (no lazy-table check per node).
///
/// Bulk counting at the last ply; above it the moves go into a stack list and are made and
/// unmade on the one position (measured about 20% faster here than copy-make, which copies the
/// whole position into every child). On x86-64 CPUs with POPCNT and BMI the walk runs in a
/// copy compiled for them (see [`isa`]).
pub(crate) fn perft_with(t: &'static Tables, pos: &Position, depth: u32) -> u64 {
    if depth == 1 {
        return Gen::new(t, pos).count();
    }
    let mut pos = *pos;
    #[cfg(target_arch = "x86_64")]
    if isa::has_fast_bits() {
        #[allow(unsafe_code, reason = "calls code compiled for CPU features; see Safety")]
        // Safety: `has_fast_bits` checked at run time that this CPU has every feature
        // `walk_fast_bits` is compiled for.
        return unsafe { isa::walk_fast_bits(t, &mut pos, depth) };
    }
    walk(t, &mut pos, depth)
}

/// Defines a make/unmake perft walk under the given attributes, so the same body can be compiled
/// once portably and once for newer CPU features. The walk makes and takes back every move down
/// to depth `$last`, where `$leaf(t, pos)` gives the count: the bulk counter at depth 2 (its
/// children are counted, not made), or 1 at depth 1 for the walk that makes every leaf (the last
/// ply in the loop, without a call per leaf).
macro_rules! walk_fn {
    ($(#[$attr:meta])* $vis:vis fn $name:ident, last: $last:literal, leaf: $leaf:expr) => {
        $(#[$attr])*
        $vis fn $name(t: &'static Tables, pos: &mut Position, depth: u32) -> u64 {
            let mut list = MoveList::new();
            Gen::new(t, pos).push_moves(Bitboard::FULL, Bitboard::FULL, &mut list);
            let mut nodes = 0;
            for m in list {
                let undo = pos.play_unchecked(m);
                nodes += if depth == $last { $leaf(t, pos) } else { $name(t, pos, depth - 1) };
                pos.undo(undo);
            }
            nodes
        }
    };
}

/// The bulk count of a position's moves, for [`walk_fn`].
#[inline(always)]
fn bulk_leaf(t: &'static Tables, pos: &Position) -> u64 {
    Gen::new(t, pos).count()
}

/// One leaf, for [`walk_fn`].
#[inline(always)]
fn one_leaf(_: &'static Tables, _: &Position) -> u64 {
    1
}

walk_fn!(
    /// The portable bulk walk (`depth >= 2`).
    fn walk, last: 2, leaf: bulk_leaf
);

walk_fn!(
    /// The portable every-leaf walk (`depth >= 1`).
    fn leaves, last: 1, leaf: one_leaf
);

/// Defines the make/unmake walk with a transposition table (for `depth >= 2`), like
/// [`walk_fn`]. A probe costs about one cache miss: less than walking two plies, more than
/// counting one, so subtrees are looked up from depth 2.
macro_rules! hashed_fn {
    ($(#[$attr:meta])* $vis:vis fn $name:ident) => {
        $(#[$attr])*
        $vis fn $name(t: &'static Tables, pos: &mut Position, depth: u32, table: &PerftTable) -> u64 {
            let key = table_key(pos);
            if let Some(nodes) = table.probe(key, depth) {
                return nodes;
            }
            let mut list = MoveList::new();
            Gen::new(t, pos).push_moves(Bitboard::FULL, Bitboard::FULL, &mut list);
            let mut nodes = 0;
            for m in list {
                let undo = pos.play_unchecked(m);
                nodes += if depth == 2 { bulk_leaf(t, pos) } else { $name(t, pos, depth - 1, table) };
                pos.undo(undo);
            }
            table.store(key, depth, nodes);
            nodes
        }
    };
}

/// Run-time selection of code compiled for newer x86-64 features.
///
/// A portable x86-64 build may not use the POPCNT instruction, so every `count_ones` becomes a
/// dozen instructions; bulk counting is mostly popcounts. The walk is compiled a second time with
/// POPCNT, LZCNT and BMI1/2 enabled and chosen at run time, once per perft call. A build with
/// `-C target-cpu=native` (or any target with these features) gets the same code either way.
#[cfg(target_arch = "x86_64")]
pub(crate) mod isa {
    use super::*;

    /// `true` if this CPU has every feature [`walk_fast_bits`] is compiled for. The standard
    /// library caches the answer, so this is one atomic load.
    #[inline]
    pub(crate) fn has_fast_bits() -> bool {
        std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
    }

    walk_fn!(
        /// The bulk walk compiled for POPCNT, LZCNT and BMI1/2. Only call it where
        /// [`has_fast_bits`] is `true`.
        #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]
        pub(crate) fn walk_fast_bits, last: 2, leaf: bulk_leaf
    );

    hashed_fn!(
        /// The hashed walk compiled for POPCNT, LZCNT and BMI1/2. Only call it where
        /// [`has_fast_bits`] is `true`.
        #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]
        pub(crate) fn hashed_fast_bits
    );

    walk_fn!(
        /// The every-leaf walk compiled for POPCNT, LZCNT and BMI1/2. Only call it where
        /// [`has_fast_bits`] is `true`.
        #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]
        pub(crate) fn leaves_fast_bits, last: 1, leaf: one_leaf
    );

    /// Legal move collection compiled for POPCNT, LZCNT and BMI1/2 (the body of
    /// `MoveGen::legal_moves` and the other lists). Only call it where [`has_fast_bits`] is
    /// `true`.
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]
    pub(crate) fn collect_fast_bits(
        t: &'static Tables,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
    ) -> MoveList {
        crate::collect_with(t, pos, from, to)
    }
}

/// A perft transposition table: counts of subtrees keyed by the full 64-bit Zobrist key and the
/// remaining depth, shared between threads without locks.
///
/// Each slot is two `AtomicU64`s: `key ^ data` and `data`, where `data` packs the depth (low 8
/// bits) and the count (high 56 bits). A reader accepts a slot only if the two words give back its
/// full key and the depth matches, so a slot torn by a concurrent writer reads as a miss unless
/// the mixed words happen to XOR to the probed key. That, and two positions sharing a 64-bit key,
/// are the only ways a count can go wrong: each about 2^-64 per probe, the usual bound of full-key
/// hashing. Replacement is always-replace.
pub struct PerftTable {
    slots: Box<[[AtomicU64; 2]]>,
    mask: usize,
}

impl PerftTable {
    /// A table of about `megabytes` MiB (rounded down to a power of two slots; at least one).
    pub fn new(megabytes: usize) -> PerftTable {
        let wanted = (megabytes.saturating_mul(1 << 20) / 16).max(1);
        let len = if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() >> 1 };
        let slots = (0..len).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect();
        PerftTable { slots, mask: len - 1 }
    }

    /// The number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always `false`: a table has at least one slot.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    #[inline]
    fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let slot = &self.slots[key as usize & self.mask];
        let data = slot[1].load(Ordering::Relaxed);
        let check = slot[0].load(Ordering::Relaxed);
        (check ^ data == key && data & 0xff == depth as u64).then_some(data >> 8)
    }

    #[inline]
    fn store(&self, key: u64, depth: u32, nodes: u64) {
        // Counts above 2^56 (far beyond any perft that fits a run) are simply not stored.
        if nodes >> 56 != 0 {
            return;
        }
        let data = nodes << 8 | depth as u64;
        let slot = &self.slots[key as usize & self.mask];
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
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
        0 => return 1,
        1 => return Gen::new(t, pos).count(),
        _ => {}
    }
    let mut pos = *pos;
    #[cfg(target_arch = "x86_64")]
    if isa::has_fast_bits() {
        #[allow(unsafe_code, reason = "calls code compiled for CPU features; see Safety")]
        // Safety: `has_fast_bits` checked at run time that this CPU has every feature
        // `hashed_fast_bits` is compiled for.
        return unsafe { isa::hashed_fast_bits(t, &mut pos, depth, table) };
    }
    hashed(t, &mut pos, depth, table)
}

hashed_fn!(
    /// The portable hashed walk.
    fn hashed
);

/// The position's Zobrist key salted with its castling rooks' squares: the Polyglot key says
/// which rights are held but not with which rook, and in Chess960 two positions with the same
/// placement and rights may castle with different rooks.
#[inline]
fn table_key(pos: &Position) -> u64 {
    let castles = pos.castles();
    if castles.is_empty() {
        return pos.key();
    }
    pos.key() ^ castles.rook_squares().0.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17)
}

/// Perft on `threads` threads (1 or more), with an optional shared transposition table. The
/// tree is cut into subtrees a few plies below the root, which the threads take from a shared
/// queue; the counts are identical to [`perft`].
pub fn perft_parallel(
    pos: &Position,
    depth: u32,
    threads: usize,
    table: Option<&PerftTable>,
) -> u64 {
    let t = tables();
    let threads = threads.max(1);
    // Split until there is plenty of work per thread, keeping at least two plies per subtree.
    let mut tasks = vec![(*pos, depth)];
    while tasks.len() < 64 * threads && tasks.iter().all(|&(_, d)| d > 3) {
        let mut next = Vec::new();
        for (p, d) in tasks {
            Gen::new(t, &p).generate(Bitboard::FULL, Bitboard::FULL, |moves| {
                next.extend(moves.into_iter().map(|m| (p.played_unchecked(m), d - 1)));
                false
            });
        }
        tasks = next;
    }
    let run = |p: &Position, d: u32| match table {
        Some(table) => perft_hashed(p, d, table),
        None => perft(p, d),
    };
    if threads == 1 {
        return tasks.iter().map(|(p, d)| run(p, *d)).sum();
    }
    let next = AtomicUsize::new(0);
    let total = AtomicU64::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut nodes = 0;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((p, d)) = tasks.get(i) else { break };
                    nodes += run(p, *d);
                }
                total.fetch_add(nodes, Ordering::Relaxed);
            });
        }
    });
    total.into_inner()
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
    let t = tables();
    let mut pos = *pos;
    #[cfg(target_arch = "x86_64")]
    if isa::has_fast_bits() {
        #[allow(unsafe_code, reason = "calls code compiled for CPU features; see Safety")]
        // Safety: `has_fast_bits` checked at run time that this CPU has every feature
        // `leaves_fast_bits` is compiled for.
        return unsafe { isa::leaves_fast_bits(t, &mut pos, depth) };
    }
    leaves(t, &mut pos, depth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits_bitboard::{Color, Piece, Role, Square};

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

    /// On a CPU with the features, perft takes the feature-compiled walk; this checks the
    /// portable one directly, and both against each other.
    #[test]
    fn portable_and_feature_compiled_walks_agree() {
        let t = tables();
        let mut pos = Position::new();
        assert_eq!(walk(t, &mut pos, 4), 197_281);
        assert_eq!(leaves(t, &mut pos, 4), 197_281);
        let table = PerftTable::new(1);
        assert_eq!(hashed(t, &mut pos, 4, &table), 197_281);
        assert_eq!(hashed(t, &mut pos, 4, &table), 197_281, "a warm table");
        #[cfg(target_arch = "x86_64")]
        if isa::has_fast_bits() {
            #[allow(unsafe_code, reason = "exercising the feature-compiled walk")]
            // Safety: the features were just detected.
            let fast = unsafe { isa::walk_fast_bits(t, &mut pos, 4) };
            assert_eq!(fast, 197_281);
        }
        assert_eq!(pos, Position::new(), "the walk leaves the position as it found it");
    }

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
        assert_eq!(PerftTable::new(0).len(), 1);
        // Same placement and rights, different castling rook: different table keys.
        let setup = |rooks: &[Square]| {
            let mut s = chessbits_state::Setup::empty();
            s.board.set_piece_at(Square::E1, Piece::new(Color::White, Role::King));
            s.board.set_piece_at(Square::E8, Piece::new(Color::Black, Role::King));
            s.board.set_piece_at(Square::G1, Piece::new(Color::White, Role::Rook));
            s.board.set_piece_at(Square::H1, Piece::new(Color::White, Role::Rook));
            s.castling_rooks = rooks.iter().copied().collect();
            Position::from_setup(&s).unwrap()
        };
        let (outer, inner) = (setup(&[Square::H1]), setup(&[Square::G1]));
        assert_eq!(outer.key(), inner.key());
        assert_ne!(table_key(&outer), table_key(&inner));
        assert_eq!(PerftTable::new(1).len(), 1 << 16);
    }

    #[test]
    fn a_slot_never_answers_for_another_key_or_depth() {
        let table = PerftTable::new(0);
        table.store(0xdead_beef, 4, 1234);
        assert_eq!(table.probe(0xdead_beef, 4), Some(1234));
        assert_eq!(table.probe(0xdead_beef, 5), None);
        assert_eq!(table.probe(0xdead_beee, 4), None);
        // A torn slot (one word from another entry) reads as a miss here.
        table.slots[0][1].store(99 << 8 | 4, Ordering::Relaxed);
        assert_eq!(table.probe(0xdead_beef, 4), None);
    }
}
