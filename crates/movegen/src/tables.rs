//! The lookup tables, built once on first use and reached through one `&'static` reference.
//!
//! [`tables()`] is the only accessor. Hot loops call it once and pass the reference down, so no
//! lookup pays for the lazy-initialisation check. The magic tables for sliders are built here,
//! lazily (about 841 KiB, and only move generation needs them); every other table (leapers,
//! empty-board rays, between and line) has one home, the bitboard crate's compile-time
//! [`chessbits_bitboard::tables`], which the state crate reads too. [`Tables`]'s methods
//! reach both, so the generator asks one object for every attack.

use chessbits_bitboard::{reference, tables as fixed, Bitboard, Color, Square};
use once_cell::sync::Lazy;

use crate::magics::{BISHOP_MAGICS, ROOK_MAGICS};

/// One square's entry of a fancy magic table.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Magic {
    /// The relevant occupancy: the rays without their last square.
    mask: u64,
    magic: u64,
    /// Where this square's attack sets start in [`Tables::sliders`].
    offset: u32,
    shift: u32,
}

impl Magic {
    /// Where the attack set for `occupied` sits in [`Tables::sliders`]: `offset` plus a number
    /// below `2^bits` (`bits` = relevant squares). The table is filled through this same function,
    /// so whichever way the number is computed, lookups and table agree.
    ///
    /// With BMI2 enabled at compile time (`-C target-cpu=native` on a CPU that has it) the number
    /// is `pext(occupied, mask)`: the relevant occupancy bits packed together, exact and with no
    /// multiplication. Otherwise it is the magic multiplication.
    #[inline(always)]
    fn index(&self, occupied: Bitboard) -> usize {
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        {
            let _ = (self.magic, self.shift);
            #[allow(unsafe_code, reason = "PEXT intrinsic; see Safety")]
            // Safety: this line is only compiled when BMI2 is enabled for the whole build, so
            // every CPU that runs it has the instruction.
            let packed = unsafe { core::arch::x86_64::_pext_u64(occupied.0, self.mask) };
            self.offset as usize + packed as usize
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
        {
            self.offset as usize
                + ((occupied.0 & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
        }
    }
}

/// Every lookup table move generation uses.
pub struct Tables {
    rook_magics: [Magic; 64],
    bishop_magics: [Magic; 64],
    /// Rook attack sets (all squares, then bishops'), indexed through the magics.
    sliders: Box<[Bitboard]>,
}

static TABLES: Lazy<Tables> = Lazy::new(Tables::build);

/// The tables, built on the first call (a few milliseconds) and shared afterwards.
#[inline]
pub fn tables() -> &'static Tables {
    &TABLES
}

impl Tables {
    fn build() -> Tables {
        let mut t = Tables {
            rook_magics: [Magic::default(); 64],
            bishop_magics: [Magic::default(); 64],
            sliders: Box::default(),
        };
        let mut sliders = Vec::new();
        for (magics, numbers, directions) in [
            (&mut t.rook_magics, &ROOK_MAGICS, &reference::ROOK_DIRECTIONS),
            (&mut t.bishop_magics, &BISHOP_MAGICS, &reference::BISHOP_DIRECTIONS),
        ] {
            for sq in Square::ALL {
                let mask = reference::relevant_occupancy(sq, directions).0;
                let bits = mask.count_ones();
                let magic = Magic {
                    mask,
                    magic: numbers[sq as usize],
                    offset: sliders.len() as u32,
                    shift: 64 - bits,
                };
                sliders.resize(sliders.len() + (1 << bits), Bitboard::EMPTY);
                // Carry-Rippler: enumerate every subset of the mask.
                let mut subset = 0u64;
                loop {
                    let attacks = reference::sliding(sq, Bitboard(subset), directions);
                    let slot = &mut sliders[magic.index(Bitboard(subset))];
                    debug_assert!(slot.is_empty() || *slot == attacks, "magic collision on {sq}");
                    *slot = attacks;
                    subset = subset.wrapping_sub(mask) & mask;
                    if subset == 0 {
                        break;
                    }
                }
                magics[sq as usize] = magic;
            }
        }
        t.sliders = sliders.into_boxed_slice();
        t
    }

    /// Knight attacks from `sq`.
    #[inline(always)]
    pub(crate) fn knight(&self, sq: Square) -> Bitboard {
        fixed::knight(sq)
    }

    /// King attacks from `sq`.
    #[inline(always)]
    pub(crate) fn king(&self, sq: Square) -> Bitboard {
        fixed::king(sq)
    }

    /// Attacks of a pawn of `color` on `sq`.
    #[inline(always)]
    pub(crate) fn pawn(&self, color: Color, sq: Square) -> Bitboard {
        fixed::pawn(color, sq)
    }

    /// Rook attacks from `sq` on an empty board: the squares of its rank and file.
    #[inline(always)]
    pub(crate) fn rook_rays(&self, sq: Square) -> Bitboard {
        fixed::rook_rays(sq)
    }

    /// Bishop attacks from `sq` on an empty board: the squares of its diagonals.
    #[inline(always)]
    pub(crate) fn bishop_rays(&self, sq: Square) -> Bitboard {
        fixed::bishop_rays(sq)
    }

    /// Rook attacks from `sq` given the occupied squares.
    #[inline(always)]
    pub fn rook(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        self.slider(self.rook_magics[sq as usize].index(occupied))
    }

    /// Bishop attacks from `sq` given the occupied squares.
    #[inline(always)]
    pub fn bishop(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        self.slider(self.bishop_magics[sq as usize].index(occupied))
    }

    /// Asks the CPU to start loading into its caches the attack sets that the rooks (or
    /// queens) on `rooks` will look up given `occupied`, so that the lookups, made a little
    /// later, find them there. A hint: nothing changes but timing.
    ///
    /// For lists of positions that do not follow from one another (a database's, the peer
    /// comparison's 1000): there the rook lookups miss this CPU's caches (the rook table is
    /// 800 KB; the bishops' 41 KB, whose prefetch cost more than it saved), and the prefetches
    /// overlap those misses with the work before them. The walks, whose tables stay in cache,
    /// do not call it (a prefetch of all sliders made them 2% slower).
    #[inline(always)]
    pub(crate) fn prefetch_rooks(&self, rooks: Bitboard, occupied: Bitboard) {
        for sq in rooks {
            self.prefetch(self.rook_magics[sq as usize].index(occupied));
        }
    }

    /// Prefetches the slider attack set at `index` (see [`Tables::prefetch_rooks`]).
    #[inline(always)]
    fn prefetch(&self, index: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // `wrapping_add`: the address is only ever a hint, never read through.
            let p = self.sliders.as_ptr().wrapping_add(index).cast::<i8>();
            #[allow(unsafe_code, reason = "the prefetch intrinsic; see Safety")]
            // Safety: a prefetch reads nothing the program sees and never faults, whatever the
            // address; SSE, which has it, is part of every x86-64 CPU.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(p)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = index;
    }

    /// The slider attack set at `index`, an index produced by [`Magic::index`].
    #[inline(always)]
    fn slider(&self, index: usize) -> Bitboard {
        debug_assert!(index < self.sliders.len());
        // Safety: `Magic::index` is `offset + n` with `n < 2^bits`: either `x >> shift` with
        // `shift = 64 - bits`, or `pext(occupied, mask)`, which packs at most `bits` bits.
        // `build` gives every square a block of exactly `2^bits` slots starting at `offset`,
        // so the index lies inside the table. The magics are only ever
        // made by `build`. `sliders_match_the_reference_on_every_occupancy_subset` exercises
        // every reachable index of every square.
        #[allow(unsafe_code, reason = "bounds check on the hottest lookup; see Safety")]
        unsafe {
            *self.sliders.get_unchecked(index)
        }
    }

    /// Queen attacks from `sq` given the occupied squares.
    #[inline(always)]
    pub fn queen(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        self.rook(sq, occupied) | self.bishop(sq, occupied)
    }

    /// Squares strictly between `a` and `b` if they share a rank, file or diagonal, else empty.
    #[inline(always)]
    pub(crate) fn between(&self, a: Square, b: Square) -> Bitboard {
        fixed::between(a, b)
    }

    /// The full line (edge to edge) through `a` and `b` if they are aligned, else empty.
    #[inline(always)]
    pub(crate) fn line(&self, a: Square, b: Square) -> Bitboard {
        fixed::line(a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliders_match_the_reference_on_every_occupancy_subset() {
        let t = tables();
        let mut checked = 0u64;
        for sq in Square::ALL {
            for (directions, fast) in [
                (
                    &reference::ROOK_DIRECTIONS,
                    Tables::rook as fn(&Tables, Square, Bitboard) -> Bitboard,
                ),
                (&reference::BISHOP_DIRECTIONS, Tables::bishop),
            ] {
                let mask = reference::relevant_occupancy(sq, directions).0;
                let mut subset = 0u64;
                loop {
                    // Squares outside the mask must not change the answer: add noise there.
                    let noise = !mask & 0x8a51_3c07_e4d2_19b6;
                    let occ = Bitboard(subset | noise);
                    assert_eq!(
                        fast(t, sq, occ),
                        reference::sliding(sq, occ, directions),
                        "{sq} {occ:?}"
                    );
                    checked += 1;
                    subset = subset.wrapping_sub(mask) & mask;
                    if subset == 0 {
                        break;
                    }
                }
            }
        }
        assert_eq!(checked, 102_400 + 5_248);
    }

    #[test]
    fn leapers_match_the_reference() {
        let t = tables();
        for sq in Square::ALL {
            assert_eq!(t.knight(sq), reference::knight(sq));
            assert_eq!(t.king(sq), reference::king(sq));
            assert_eq!(t.pawn(Color::Black, sq), reference::pawn(Color::Black, sq));
            assert_eq!(t.rook_rays(sq), t.rook(sq, Bitboard::EMPTY));
            assert_eq!(t.bishop_rays(sq), t.bishop(sq, Bitboard::EMPTY));
        }
    }

    #[test]
    fn between_and_line() {
        let t = tables();
        assert_eq!(
            t.between(Square::A1, Square::D4),
            Bitboard::from_square(Square::B2) | Square::C3
        );
        assert_eq!(t.between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(t.between(Square::E1, Square::E2), Bitboard::EMPTY);
        assert_eq!(t.line(Square::B2, Square::C3).count(), 8);
        assert_eq!(t.line(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(
            t.line(Square::E4, Square::E6),
            Bitboard::from_file(chessbits_bitboard::File::E)
        );
        for a in Square::ALL {
            for b in Square::ALL {
                // between is symmetric and always inside the line.
                assert_eq!(t.between(a, b), t.between(b, a));
                assert!(t.between(a, b).is_subset(t.line(a, b)) || t.line(a, b).is_empty());
                if t.line(a, b).any() {
                    assert!(t.line(a, b).contains(a) && t.line(a, b).contains(b));
                    assert_eq!(t.between(a, b).count() + 1, a.distance(b));
                }
            }
        }
    }
}
