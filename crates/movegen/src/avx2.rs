//! [`Avx2`]: the enemy's attack map and the set-wise count of knights' and sliders' moves in
//! four-lane AVX2 registers, for x86-64 CPUs without the AVX-512 of [`crate::wide::Wide`].
//!
//! Without it, a counted position looks up one magic table entry per knight and slider, twice
//! (the enemy's pieces for the king's safe squares, ours for the count): a loop per piece kind
//! (the exit tests of such set loops drew about a sixth of the samples of native bulk perft on
//! a Zen 3 CPU), and loads from an 800 KB rook table, larger than the level-2 cache of many
//! CPUs. Here each side's eight slider directions take two registers (the four directions
//! whose step raises the square number shift left, the four that lower it shift right) and its
//! eight knight jumps two more; a direction fills by Kogge-Stone (three doubling steps over the
//! empty squares, a last step onto the first blocker), with no table, loop or branch.
//!
//! - **The attack map** is the OR of the four registers, then across their lanes.
//! - **The count** takes each register on the target squares, counts each byte's bits by two
//!   nibble lookups (`vpshufb`; AVX2 has no popcount), adds the four registers' byte counts
//!   (at most 32 a byte) and sums the bytes with `vpsadbw`. The sum is exact for the reason
//!   [`Width::move_count`] gives.
//!
//! [`Avx2`] writes lists as [`Scalar`] does (AVX2 has no compress instruction), and only the
//! bulk walk uses it: its map made the lists no faster (`docs/log/perft.md`, "Speed, eighth
//! round"). Tests compare it with the magic tables on random boards, and with [`Scalar`] on
//! every position four plies from the start.

use chessbits_bitboard::{Bitboard, Square};
use chessbits_move::{MoveKind, MoveList};

use crate::wide::{Scalar, Width};

/// The AVX2 width: [`Scalar`]'s writer, the attack map and the set-wise count in four-lane
/// registers. A value exists only where the CPU has the fast-bits features and AVX2
/// ([`Avx2::detect`]): holding one is the proof that code compiled for them may run.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// The AVX2 width, if this CPU has the fast-bits features and AVX2. After the first call,
    /// one load and one test. Always `None` off x86-64.
    #[inline]
    pub(crate) fn detect() -> Option<Avx2> {
        chessbits_bitboard::isa::has_avx2().then_some(Avx2(()))
    }
}

impl Width for Avx2 {
    const SET_WISE: bool = true;

    #[inline(always)]
    fn piece(self, list: &mut MoveList, from: Square, to: Bitboard, theirs: Bitboard) {
        Scalar.piece(list, from, to, theirs);
    }

    #[inline(always)]
    fn pawns(self, list: &mut MoveList, to: Bitboard, step: i32, kind: MoveKind) {
        Scalar.pawns(list, to, step, kind);
    }

    #[cfg(target_arch = "x86_64")]
    crate::wide::set_wise_kernels!(x86);
}

/// The vector code of [`Avx2`]. Every function is compiled for the fast-bits features and
/// AVX2, the attribute spelling out `chessbits_bitboard::isa::AVX2_FEATURES` (checked by
/// `tests/feature_levels.rs`).
#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::{
        __m256i, _mm256_add_epi64, _mm256_add_epi8, _mm256_and_si256, _mm256_castsi256_si128,
        _mm256_extracti128_si256, _mm256_or_si256, _mm256_sad_epu8, _mm256_set1_epi64x,
        _mm256_set1_epi8, _mm256_set_epi64x, _mm256_setr_epi8, _mm256_setzero_si256,
        _mm256_shuffle_epi8, _mm256_sllv_epi64, _mm256_srli_epi16, _mm256_srlv_epi64,
        _mm_add_epi64, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64,
    };

    use chessbits_bitboard::Bitboard;

    const NOT_A: i64 = !Bitboard::FILE_A.0 as i64;
    const NOT_B: i64 = !(Bitboard::FILE_A.0 << 1) as i64;
    const NOT_G: i64 = !(Bitboard::FILE_A.0 << 6) as i64;
    const NOT_H: i64 = !(Bitboard::FILE_A.0 << 7) as i64;
    const NOT_AB: i64 = NOT_A & NOT_B;
    const NOT_GH: i64 = NOT_G & NOT_H;

    /// Four 64-bit lanes, the first argument in lane 0 (`_mm256_set_epi64x` takes them from
    /// the top lane down).
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    #[inline]
    fn lanes(a: i64, b: i64, c: i64, d: i64) -> __m256i {
        _mm256_set_epi64x(d, c, b, a)
    }

    /// A slider direction set: the sliders of each lane, the step of each lane in bits, and the
    /// squares a step may enter (shifting drops the squares that leave the board at the top
    /// or bottom; these masks drop those that would wrap around the a- or h-file).
    ///
    /// Up (shifted left): north 8, east 1, north-east 9, north-west 7.
    /// Down (shifted right): south 8, west 1, south-west 9, south-east 7.
    /// Rook-wise directions take lanes 0 and 1, bishop-wise ones lanes 2 and 3.
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    #[inline]
    fn sliders(diagonal: Bitboard, straight: Bitboard) -> __m256i {
        let (d, s) = (diagonal.0 as i64, straight.0 as i64);
        lanes(s, s, d, d)
    }

    /// The squares each direction reaches from the sliders in `from`, given `occupied` (the
    /// first blocker included), one direction a lane: the up-directions (a left shift) if `UP`,
    /// else the down-directions (a right shift).
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    #[inline]
    fn slides<const UP: bool>(from: __m256i, occupied: Bitboard) -> __m256i {
        // A closure shares the features of the function it is in.
        let shift = |v, by| {
            if UP {
                _mm256_sllv_epi64(v, by)
            } else {
                _mm256_srlv_epi64(v, by)
            }
        };
        let step = lanes(8, 1, 9, 7);
        let enter =
            if UP { lanes(-1, NOT_A, NOT_A, NOT_H) } else { lanes(-1, NOT_H, NOT_H, NOT_A) };
        // `fill`: the sliders and the empty squares reached so far; `open`: the empty squares
        // from which the next (doubled) step may go on.
        let mut fill = from;
        let mut open = _mm256_and_si256(_mm256_set1_epi64x(!occupied.0 as i64), enter);
        let mut by = step;
        for _ in 0..2 {
            fill = _mm256_or_si256(fill, _mm256_and_si256(open, shift(fill, by)));
            open = _mm256_and_si256(open, shift(open, by));
            by = _mm256_add_epi64(by, by);
        }
        fill = _mm256_or_si256(fill, _mm256_and_si256(open, shift(fill, by)));
        _mm256_and_si256(shift(fill, step), enter)
    }

    /// The squares `knights` jump to, up (two up and one right, two up and one left, one up
    /// and two right, one up and two left) and down (the same jumps reversed), one jump a lane.
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    #[inline]
    fn jumps(knights: Bitboard) -> (__m256i, __m256i) {
        let knights = _mm256_set1_epi64x(knights.0 as i64);
        let step = lanes(17, 15, 10, 6);
        let up =
            _mm256_and_si256(_mm256_sllv_epi64(knights, step), lanes(NOT_A, NOT_H, NOT_AB, NOT_GH));
        let down =
            _mm256_and_si256(_mm256_srlv_epi64(knights, step), lanes(NOT_H, NOT_A, NOT_GH, NOT_AB));
        (up, down)
    }

    /// [`super::Width::attack_map`]: one OR across the lanes of the slides and jumps.
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    #[inline]
    pub(super) fn attack_map(
        knights: Bitboard,
        diagonal: Bitboard,
        straight: Bitboard,
        occupied: Bitboard,
    ) -> Bitboard {
        let from = sliders(diagonal, straight);
        let (up, down) = jumps(knights);
        let all = _mm256_or_si256(
            _mm256_or_si256(slides::<true>(from, occupied), slides::<false>(from, occupied)),
            _mm256_or_si256(up, down),
        );
        let half = _mm_or_si128(_mm256_castsi256_si128(all), _mm256_extracti128_si256::<1>(all));
        Bitboard(_mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64)
    }

    /// The number of set bits in each byte of `v`, by two nibble lookups.
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    #[inline]
    fn byte_counts(v: __m256i) -> __m256i {
        #[rustfmt::skip]
        let nibbles = _mm256_setr_epi8(
            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
        );
        let low = _mm256_set1_epi8(0x0f);
        let lo = _mm256_and_si256(v, low);
        let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(v), low);
        _mm256_add_epi8(_mm256_shuffle_epi8(nibbles, lo), _mm256_shuffle_epi8(nibbles, hi))
    }

    /// [`byte_counts`] of `v` on `target`.
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    #[inline]
    fn byte_counts_on(v: __m256i, target: __m256i) -> __m256i {
        byte_counts(_mm256_and_si256(v, target))
    }

    /// [`super::Width::move_count`]: the bits of the slides and jumps on `target`, counted a
    /// byte at a time, the four registers' counts added bytewise (at most 4 x 8 a byte) and
    /// summed.
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    #[inline]
    pub(super) fn move_count(
        knights: Bitboard,
        diagonal: Bitboard,
        straight: Bitboard,
        occupied: Bitboard,
        target: Bitboard,
    ) -> u64 {
        let target = _mm256_set1_epi64x(target.0 as i64);
        let from = sliders(diagonal, straight);
        let (up, down) = jumps(knights);
        let bytes = _mm256_add_epi8(
            _mm256_add_epi8(
                byte_counts_on(slides::<true>(from, occupied), target),
                byte_counts_on(slides::<false>(from, occupied), target),
            ),
            _mm256_add_epi8(byte_counts_on(up, target), byte_counts_on(down, target)),
        );
        let sums = _mm256_sad_epu8(bytes, _mm256_setzero_si256());
        let half = _mm_add_epi64(_mm256_castsi256_si128(sums), _mm256_extracti128_si256::<1>(sums));
        _mm_cvtsi128_si64(_mm_add_epi64(half, _mm_unpackhi_epi64(half, half))) as u64
    }
}

#[cfg(test)]
mod tests {
    use chessbits_state::Position;

    use super::*;
    use crate::gen::Gen;
    use crate::tables::tables;
    use crate::wide::tests::{map_and_count_match_the_tables, walk, written};
    use crate::wide::FewPieces;

    /// The AVX2 width lists and counts as [`Scalar`] does, with its own map and count and with
    /// [`FewPieces`]' lookups, on every position four plies from the start.
    #[test]
    fn avx2_and_scalar_agree() {
        let Some(avx2) = Avx2::detect() else {
            eprintln!(
                "this CPU lacks AVX2 or the fast-bits features: the AVX2 width is not tested here"
            );
            return;
        };
        let mut positions = 0;
        walk(&Position::new(), 4, &mut |pos| {
            let listed = written(pos, MoveList::new(), Scalar);
            assert_eq!(written(pos, MoveList::new(), avx2), listed);
            let gen = Gen::new(tables(), pos);
            assert_eq!(gen.count_with(avx2), listed.len() as u64);
            assert_eq!(gen.count_with(FewPieces(avx2, true)), listed.len() as u64);
            positions += 1;
        });
        assert_eq!(positions, 206_604);
    }

    /// The attack map and the set-wise count against the magic tables, on random boards.
    #[test]
    fn avx2_attack_map_and_count_match_the_tables() {
        let Some(avx2) = Avx2::detect() else {
            eprintln!(
                "this CPU lacks AVX2 or the fast-bits features: the AVX2 width is not tested here"
            );
            return;
        };
        map_and_count_match_the_tables(avx2);
    }
}
