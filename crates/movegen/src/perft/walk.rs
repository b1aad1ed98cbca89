//! The make/unmake walks: one recursive body, compiled portably and for the fast-bits features
//! (see [`chessbits_bitboard::isa`]), and specialised by a [`Walk`] policy into the bulk-counting walk, the
//! every-leaf walk and the hashed walk.

use core::mem::MaybeUninit;

use chessbits_bitboard::{Bitboard, Role};
use chessbits_move::{Move16, MoveList};
use chessbits_state::Position;

use super::table::{table_key, PerftTable};
use crate::avx2::Avx2;
use crate::gen::Gen;
use crate::isa;
use crate::tables::Tables;
use crate::wide::{FewPieces, Scalar, Wide, Width, FEW_PIECES};

/// What a walk does at its ends: the depth at which it counts instead of making moves, how it
/// counts there, and whether it looks subtrees up in a table. Each policy is compiled into its
/// own copy of the walk, so the ones without a table pay nothing for the option.
pub(crate) trait Walk: Copy {
    /// At this depth the walk counts the moves' children with [`Walk::last_plies`] instead of
    /// walking them; the walk needs `depth >= LAST`.
    const LAST: u32;

    /// `true` if the walk runs in the copy compiled for the wide features where the CPU has
    /// them ([`Wide`]: its attack map serves the counts); the every-leaf walk ran 3-7% slower
    /// compiled for them (with `undo`, before its copy-back), so it takes the AVX2 copy.
    const WIDE: bool;

    /// `true` if the moves above the last ply are taken back by copying back the position from
    /// before them (as [`Leaves`] does at the last ply), not by [`Position::undo`]: the
    /// every-leaf walk 2% faster so, the bulk walk no faster.
    const COPY_BACK: bool;

    /// The count of a child at the last ply, with the attack map of `x` where it has one.
    fn leaf<X: Width>(t: &'static Tables, pos: &Position, x: X) -> u64;

    /// The count of the child after `m`, one move of the last ply: by default the move is made,
    /// the child counted with [`Walk::leaf`] and the move unmade.
    #[inline(always)]
    fn last_ply<X: Width>(t: &'static Tables, pos: &mut Position, m: Move16, x: X) -> u64 {
        made::<Self, X>(t, pos, m, x)
    }

    /// The count of the children of `pos` after the moves of `list`, the moves of the last ply:
    /// by default the sum of [`Walk::last_ply`] over them, with [`FewPieces`] where `pos` has
    /// few pieces and `x` counts set-wise.
    #[inline(always)]
    fn last_plies<X: Width>(t: &'static Tables, pos: &mut Position, list: &MoveList, x: X) -> u64 {
        let mut nodes = 0;
        if few_pieces(pos, x) {
            for &m in list {
                nodes += Self::last_ply(t, pos, m, FewPieces(x, true));
            }
        } else {
            for &m in list {
                nodes += Self::last_ply(t, pos, m, x);
            }
        }
        nodes
    }

    /// `true` if the walk counts its last two plies with [`Walk::children`] rather than a
    /// move list and [`Walk::last_plies`].
    const CHILDREN: bool = false;

    /// The count of the children of `pos`, the moves of the last ply, where
    /// [`Walk::CHILDREN`]: by default the generator's [`Gen::count_children`], with
    /// [`FewPieces`] where `pos` has few pieces and `x` counts set-wise.
    #[inline(always)]
    fn children<X: Width>(t: &'static Tables, pos: &Position, x: X) -> u64 {
        if few_pieces(pos, x) {
            Gen::new(t, pos).count_children(FewPieces(x, true))
        } else {
            Gen::new(t, pos).count_children(x)
        }
    }

    /// The table key of `pos` and the count stored for it at `depth`, if any.
    #[inline(always)]
    fn probe(self, _pos: &Position, _depth: u32) -> (u64, Option<u64>) {
        (0, None)
    }

    /// Stores the count of the subtree with `key` at `depth`.
    #[inline(always)]
    fn store(self, _key: u64, _depth: u32, _nodes: u64) {}
}

/// Bulk counting (`depth >= 2`): the last two plies are counted without making a move, as far
/// as [`Child`](crate::gen::Child) goes: the last ply's moves are counted, not made, and the
/// children of the ply before it are read from piece sets built from the move, without making
/// it, and without a move list ([`Walk::children`], [`Gen::count_children`]).
#[derive(Copy, Clone)]
pub(crate) struct Bulk;

impl Walk for Bulk {
    const LAST: u32 = 2;
    const WIDE: bool = true;
    const COPY_BACK: bool = false;
    const CHILDREN: bool = true;

    #[inline(always)]
    fn leaf<X: Width>(t: &'static Tables, pos: &Position, x: X) -> u64 {
        Gen::new(t, pos).count_with(x)
    }
}

/// Every leaf made and counted one by one (`depth >= 1`), as an engine's search visits them.
#[derive(Copy, Clone)]
pub(crate) struct Leaves;

impl Walk for Leaves {
    const LAST: u32 = 1;
    const WIDE: bool = false;
    const COPY_BACK: bool = true;

    #[inline(always)]
    fn leaf<X: Width>(_: &'static Tables, _: &Position, _: X) -> u64 {
        1
    }

    /// Each move is made on `pos` and taken back by copying back the position from before
    /// it (copy-unmake; `Position` is 256 bytes, eight 32-byte loads and stores where the
    /// walk is compiled for AVX2), not by [`Position::undo`]. Undoing a leaf XORs the same
    /// piece sets that its make XORed and the next leaf's make XORs again, each a read of the
    /// store before it; the copy's stores come from the saved position, so no leaf waits on
    /// the one before it (measured: the every-leaf walk 15% faster compiled for AVX2, 6%
    /// faster with the portable copy's call to `memcpy`).
    #[inline(always)]
    fn last_plies<X: Width>(t: &'static Tables, pos: &mut Position, list: &MoveList, x: X) -> u64 {
        let before = *pos;
        let mut nodes = 0;
        for &m in list {
            let _ = pos.play_unchecked(m);
            nodes += Self::leaf(t, pos, x);
            *pos = before;
        }
        nodes
    }
}

/// Bulk counting with a transposition table (`depth >= 2`). A probe costs about one cache
/// miss: less than walking two plies, more than counting one, so subtrees are looked up from
/// depth 2.
#[derive(Copy, Clone)]
pub(crate) struct Hashed<'a>(pub(crate) &'a PerftTable);

impl Walk for Hashed<'_> {
    const LAST: u32 = 2;
    const WIDE: bool = true;
    const COPY_BACK: bool = false;
    const CHILDREN: bool = true;

    #[inline(always)]
    fn leaf<X: Width>(t: &'static Tables, pos: &Position, x: X) -> u64 {
        Bulk::leaf(t, pos, x)
    }

    #[inline(always)]
    fn probe(self, pos: &Position, depth: u32) -> (u64, Option<u64>) {
        let key = table_key(pos);
        (key, self.0.probe(key, depth))
    }

    #[inline(always)]
    fn store(self, key: u64, depth: u32, nodes: u64) {
        self.0.store(key, depth, nodes);
    }
}

/// The body of a make/unmake walk, written once for the portable copy [`walk`] and the
/// fast-bits copy `walk_fast_bits`; `$name` is the copy itself, which the body recurses into.
/// The moves go into a stack list and are made and unmade on the one position (measured about
/// 20% faster here than copy-make, which copies the whole position into every child).
macro_rules! walk_body {
    ($name:ident, $t:ident, $pos:ident, $depth:ident, $w:ident, $wide:ident $(, $x:ident)?) => {{
        let (key, known) = $w.probe($pos, $depth);
        if let Some(nodes) = known {
            return nodes;
        }
        if W::CHILDREN && $depth == W::LAST {
            let nodes = W::children($t, $pos, walk_body!(@writer $($x)?));
            $w.store(key, $depth, nodes);
            return nodes;
        }
        let mut slot = ListSlot(MaybeUninit::uninit());
        let list: &MoveList = list_moves($t, $pos, &mut slot.0, $wide);
        let mut nodes = 0;
        // The list is iterated by reference (by value, its whole buffer was copied into the
        // iterator at every node), and the last ply has a loop of its own: the loop around one
        // make and unmake alone keeps its values in registers (measured 12% fewer instructions
        // in the every-leaf walk).
        if $depth == W::LAST {
            nodes = W::last_plies($t, $pos, list, walk_body!(@writer $($x)?));
        } else if W::COPY_BACK {
            let before = *$pos;
            for &m in list {
                let _ = $pos.play_unchecked(m);
                nodes += $name($t, $pos, $depth - 1, $w, $wide $(, $x)?);
                *$pos = before;
            }
        } else {
            for &m in list {
                let undo = $pos.play_unchecked(m);
                nodes += $name($t, $pos, $depth - 1, $w, $wide $(, $x)?);
                $pos.undo(undo);
            }
        }
        $w.store(key, $depth, nodes);
        nodes
    }};
    // The writer whose attack map the counts use: the copy's argument, or none (`Scalar`).
    (@writer) => {
        Scalar
    };
    (@writer $x:ident) => {
        $x
    };
}

/// A node's move list, at the start of a cache line. Left to the stack's placement, the
/// every-leaf walk ran a fifth slower in some processes: the wide writer's 64-byte stores and
/// the reads of the moves split cache lines differently with each placement (shifting the
/// stack 16 bytes at a time, two or three placements in eight slow on startpos; none aligned).
#[repr(align(64))]
struct ListSlot(MaybeUninit<MoveList>);

/// Writes the legal moves of `pos` into `out` and returns the list: with `wide`, by the list
/// path compiled for the wide features (its writer and attack map), called out of line;
/// otherwise by the scalar writer, inlined. The walks themselves are not compiled for AVX-512
/// for the make and unmake they run: compiled so, the every-leaf walk ran 3-7% slower (LLVM
/// moved the move's squares through vector registers), while the out-of-line call made it 4%
/// faster.
#[inline(always)]
fn list_moves<'a>(
    t: &'static Tables,
    pos: &Position,
    out: &'a mut MaybeUninit<MoveList>,
    wide: Option<Wide>,
) -> &'a mut MoveList {
    #[cfg(target_arch = "x86_64")]
    if let Some(wide) = wide {
        #[allow(unsafe_code, reason = "calls code compiled for CPU features; see Safety")]
        // Safety: a `Wide` exists only where the CPU has the features `collect_wide` is
        // compiled for, and `collect_wide` writes the whole list to `out`.
        return unsafe {
            crate::collect_wide(t, pos, Bitboard::FULL, Bitboard::FULL, out, wide);
            out.assume_init_mut()
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = wide;
    let list = out.write(MoveList::new());
    Gen::new(t, pos).push_moves(Bitboard::FULL, Bitboard::FULL, list);
    list
}

/// `true` if the children of `pos` are counted faster with [`FewPieces`]: `x` works set-wise
/// (the wide width does) and neither side has more than [`FEW_PIECES`] knights and sliders.
#[inline(always)]
fn few_pieces<X: Width>(pos: &Position, _: X) -> bool {
    X::SET_WISE
        && (pos.us() - pos.our(Role::Pawn) - pos.our(Role::King)).count() <= FEW_PIECES
        && (pos.them() - pos.their(Role::Pawn) - pos.their(Role::King)).count() <= FEW_PIECES
}

/// Makes `m`, counts the child with [`Walk::leaf`] and unmakes it.
#[inline(always)]
fn made<W: Walk, X: Width>(t: &'static Tables, pos: &mut Position, m: Move16, x: X) -> u64 {
    let undo = pos.play_unchecked(m);
    let nodes = W::leaf(t, pos, x);
    pos.undo(undo);
    nodes
}

/// The portable walk (`depth >= W::LAST`); `wide` writes the lists where given
/// ([`list_moves`]).
fn walk<W: Walk>(
    t: &'static Tables,
    pos: &mut Position,
    depth: u32,
    w: W,
    wide: Option<Wide>,
) -> u64 {
    walk_body!(walk, t, pos, depth, w, wide)
}

isa::fast_bits_fn! {
    /// The walk compiled for the fast-bits features (`depth >= W::LAST`); `wide` writes the
    /// lists where given ([`list_moves`]).
    fn walk_fast_bits<W: Walk>(
        t: &'static Tables,
        pos: &mut Position,
        depth: u32,
        w: W,
        wide: Option<Wide>,
    ) -> u64 {
        walk_body!(walk_fast_bits, t, pos, depth, w, wide)
    }
}

isa::avx512_fn! {
    /// The walk compiled for the wide features, its counts using the attack map and set-wise
    /// count of `x` (`depth >= W::LAST`).
    fn walk_wide<W: Walk>(
        t: &'static Tables,
        pos: &mut Position,
        depth: u32,
        w: W,
        wide: Option<Wide>,
        x: Wide,
    ) -> u64 {
        walk_body!(walk_wide, t, pos, depth, w, wide, x)
    }
}

isa::avx2_fn! {
    /// The walk compiled for the fast-bits features and AVX2, its counts using the attack map
    /// and set-wise count of `x` (`depth >= W::LAST`): the wide walk's part on CPUs without
    /// AVX-512, and the every-leaf walk's wherever there is AVX2.
    fn walk_avx2<W: Walk>(
        t: &'static Tables,
        pos: &mut Position,
        depth: u32,
        w: W,
        wide: Option<Wide>,
        x: Avx2,
    ) -> u64 {
        walk_body!(walk_avx2, t, pos, depth, w, wide, x)
    }
}

/// Walks `pos` to `depth` (at least `W::LAST`) under the policy `w`: in the wide copy where
/// the walk asks for it ([`Walk::WIDE`]) and the CPU has AVX-512, else in the AVX2 copy where
/// the CPU has AVX2 (for the bulk walks' set-wise counts with [`Avx2`], for the every-leaf
/// walk's 32-byte copies of the position); otherwise in the fast-bits copy where the CPU has
/// those features.
/// The lists are written by the wide list path where the CPU has its features. Leaves `pos`
/// as it found it.
#[inline]
pub(crate) fn run<W: Walk>(t: &'static Tables, pos: &mut Position, depth: u32, w: W) -> u64 {
    debug_assert!(depth >= W::LAST);
    let wide = Wide::detect();
    #[cfg(target_arch = "x86_64")]
    if let (true, Some(x)) = (W::WIDE, wide) {
        #[allow(unsafe_code, reason = "calls code compiled for CPU features; see Safety")]
        // Safety: a `Wide` exists only where the CPU has the features `walk_wide` is compiled
        // for.
        return unsafe { walk_wide(t, pos, depth, w, wide, x) };
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(x) = Avx2::detect() {
        #[allow(unsafe_code, reason = "calls code compiled for CPU features; see Safety")]
        // Safety: an `Avx2` exists only where the CPU has the features `walk_avx2` is compiled
        // for.
        return unsafe { walk_avx2(t, pos, depth, w, wide, x) };
    }
    isa::dispatch!(walk_fast_bits, walk, (t, pos, depth, w, wide))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::tables;

    /// On a CPU with the features, `run` takes the fast-bits walk; this checks the portable one
    /// directly, under every policy, and the position afterwards.
    #[test]
    fn portable_walks_count_and_restore() {
        let t = tables();
        let mut pos = Position::new();
        assert_eq!(walk(t, &mut pos, 4, Bulk, None), 197_281);
        assert_eq!(walk(t, &mut pos, 4, Leaves, None), 197_281);
        let table = PerftTable::new(1);
        assert_eq!(walk(t, &mut pos, 4, Hashed(&table), None), 197_281);
        assert_eq!(walk(t, &mut pos, 4, Hashed(&table), None), 197_281, "a warm table");
        assert_eq!(run(t, &mut pos, 4, Bulk), 197_281);
        assert_eq!(pos, Position::new(), "the walk leaves the position as it found it");
    }

    /// `run` takes the wide or the AVX2 copy where the CPU has their features, so the
    /// fast-bits copy of every policy is checked here directly, and the wide copy of the
    /// every-leaf walk, which `run` never takes, and every policy in the AVX2 copy.
    /// The counts are the published ones; the suites check `run` itself.
    #[test]
    fn every_copy_of_the_walk_counts() {
        let t = tables();
        let mut pos = Position::new();
        let expected = [(3, 8_902), (4, 197_281)];
        #[cfg(target_arch = "x86_64")]
        if isa::has_fast_bits() {
            // The lists by the scalar writer, then by the wide list path where there is one.
            for lists in [None, Wide::detect()] {
                for (depth, nodes) in expected {
                    #[allow(unsafe_code, reason = "calls code compiled for CPU features")]
                    // Safety: `has_fast_bits` found the features `walk_fast_bits` is compiled
                    // for.
                    let counts = unsafe {
                        [
                            walk_fast_bits(t, &mut pos, depth, Bulk, lists),
                            walk_fast_bits(t, &mut pos, depth, Leaves, lists),
                            walk_fast_bits(t, &mut pos, depth, Hashed(&PerftTable::new(1)), lists),
                        ]
                    };
                    assert_eq!(counts, [nodes; 3], "fast-bits walks at depth {depth}, {lists:?}");
                }
            }
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(wide) = Wide::detect() {
            for lists in [None, Some(wide)] {
                for (depth, nodes) in expected {
                    #[allow(unsafe_code, reason = "calls code compiled for CPU features")]
                    // Safety: a `Wide` exists only where the CPU has the features `walk_wide`
                    // is compiled for.
                    let counts = unsafe {
                        [
                            walk_wide(t, &mut pos, depth, Bulk, lists, wide),
                            walk_wide(t, &mut pos, depth, Leaves, lists, wide),
                            walk_wide(t, &mut pos, depth, Hashed(&PerftTable::new(1)), lists, wide),
                        ]
                    };
                    assert_eq!(counts, [nodes; 3], "wide walks at depth {depth}, {lists:?}");
                }
            }
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = Avx2::detect() {
            for lists in [None, Wide::detect()] {
                for (depth, nodes) in expected {
                    #[allow(unsafe_code, reason = "calls code compiled for CPU features")]
                    // Safety: an `Avx2` exists only where the CPU has the features `walk_avx2`
                    // is compiled for.
                    let counts = unsafe {
                        [
                            walk_avx2(t, &mut pos, depth, Bulk, lists, avx2),
                            walk_avx2(t, &mut pos, depth, Leaves, lists, avx2),
                            walk_avx2(t, &mut pos, depth, Hashed(&PerftTable::new(1)), lists, avx2),
                        ]
                    };
                    assert_eq!(counts, [nodes; 3], "AVX2 walks at depth {depth}, {lists:?}");
                }
            }
        }
        assert_eq!(pos, Position::new(), "the walks leave the position as they found it");
    }
}
