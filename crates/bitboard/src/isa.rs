//! Run-time selection of code compiled for newer x86-64 instructions ("fast bits": POPCNT,
//! LZCNT, BMI1 and BMI2).
//!
//! The default x86-64 target may not use the POPCNT instruction, so every
//! [`Bitboard::count`](crate::Bitboard::count) compiles to about a dozen instructions, and
//! `tzcnt`/`blsr` become longer sequences too. A program built with `-C target-cpu=native` does
//! not need this module; a portable build can still run its hot loops with those instructions,
//! by writing them as a [`Kernel`] whose `run` is `#[inline(always)]` and calling [`run`]:
//!
//! ```
//! use chessbits_bitboard::{isa, Bitboard};
//!
//! struct Total<'a>(&'a [Bitboard]);
//!
//! impl isa::Kernel for Total<'_> {
//!     type Output = u32;
//!     // Inlined into a copy compiled for the fast-bits features, which `isa::run` calls when
//!     // this CPU has them, and into the portable path: the same result either way.
//!     #[inline(always)]
//!     fn run(self) -> u32 {
//!         self.0.iter().map(|bb| bb.count()).sum()
//!     }
//! }
//!
//! let sets = [Bitboard::RANK_2, Bitboard::CORNERS];
//! assert_eq!(isa::run(Total(&sets)), 12);
//! ```
//!
//! Only what `run` inlines gets the instructions: call `#[inline(always)]` or `#[inline]`
//! functions from it. (A closure would not do: the compiler may keep its body out of line,
//! compiled once for the portable target.) Without the `std` feature, or off x86-64, [`run`]
//! simply runs the kernel.

/// The features a fast-bits copy is compiled for, as `#[target_feature(enable = ...)]` spells
/// them. A crate that compiles its own copies (as `chessbits-movegen` does for perft) must use
/// exactly this list and check [`has_fast_bits`] before calling them.
pub const FAST_BITS_FEATURES: &str = "popcnt,lzcnt,bmi1,bmi2";

/// [`has_fast_bits`]'s answer once known: [`UNKNOWN`], or 0 or 1.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
static FAST_BITS: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(UNKNOWN);

/// [`FAST_BITS`] before the first detection.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
const UNKNOWN: u8 = 2;

/// `true` if this CPU has every feature of [`FAST_BITS_FEATURES`]. The answer is kept in one
/// byte, so a call is one load and one test. Always `false` without the `std` feature (which
/// detection needs) or off x86-64.
#[inline]
pub fn has_fast_bits() -> bool {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        match FAST_BITS.load(core::sync::atomic::Ordering::Relaxed) {
            UNKNOWN => detect_fast_bits(),
            known => known == 1,
        }
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    {
        false
    }
}

/// Detects the features, records the answer in [`FAST_BITS`] and returns it.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[cold]
fn detect_fast_bits() -> bool {
    let fast = std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2");
    FAST_BITS.store(u8::from(fast), core::sync::atomic::Ordering::Relaxed);
    fast
}

/// A computation to compile twice, portably and for the fast-bits features: see the
/// [module documentation](self).
pub trait Kernel {
    /// What the computation returns.
    type Output;

    /// Runs the computation. Mark it `#[inline(always)]`: the fast-bits copy is this body
    /// inlined into a function compiled for those features.
    fn run(self) -> Self::Output;
}

/// Runs `kernel` in a copy compiled for [`FAST_BITS_FEATURES`] when this CPU has them
/// ([`has_fast_bits`]), and as it is otherwise. The result is the same either way; only the
/// instructions differ.
#[inline]
pub fn run<K: Kernel>(kernel: K) -> K::Output {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    if has_fast_bits() {
        #[allow(unsafe_code, reason = "calls code compiled for CPU features; see Safety")]
        // Safety: `run_fast_bits` is compiled for exactly the features `has_fast_bits` just
        // found on this CPU; it has no other requirement.
        return unsafe { run_fast_bits(kernel) };
    }
    run_portable(kernel)
}

/// `kernel.run()` out of line, so that [`run`], inlined into its callers, is a plain dispatch
/// whatever the kernel's frame needs (a kernel building a 64-byte-aligned value inline made
/// every caller realign its stack and call the fast-bits copy instead of jumping to it).
#[inline(never)]
fn run_portable<K: Kernel>(kernel: K) -> K::Output {
    kernel.run()
}

/// `kernel.run()`, compiled with the fast-bits features (`run` is inlined into it).
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]
fn run_fast_bits<K: Kernel>(kernel: K) -> K::Output {
    kernel.run()
}

#[cfg(all(test, feature = "std", target_arch = "x86_64"))]
mod tests {
    use super::*;

    /// The kept answer is the detected one, before and after it is kept (the Safety argument of
    /// [`run`] rests on it).
    #[test]
    fn kept_answer_is_the_detected_one() {
        let detected = std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2");
        assert_eq!(has_fast_bits(), detected, "first call");
        assert_eq!(has_fast_bits(), detected, "kept answer");
        assert_eq!(detect_fast_bits(), detected, "detection again");
    }

    /// Counts, first and last squares of a word.
    struct Scan(u64);

    impl Kernel for Scan {
        type Output = (u32, Option<crate::Square>, Option<crate::Square>);
        #[inline(always)]
        fn run(self) -> Self::Output {
            let bb = crate::Bitboard(self.0);
            (bb.count(), bb.first(), bb.last())
        }
    }

    /// Both paths give the same answers.
    #[test]
    fn same_result_either_way() {
        let words = [0u64, 1, u64::MAX, 0x8000_0000_0000_0001, 0x0123_4567_89ab_cdef];
        for w in words {
            assert_eq!(run(Scan(w)), Scan(w).run(), "{w:x}");
        }
    }

    /// The feature list the attribute spells is the public one.
    #[test]
    fn features_constant_matches_detection() {
        assert_eq!(FAST_BITS_FEATURES.split(',').count(), 4);
        for feature in FAST_BITS_FEATURES.split(',') {
            assert!(["popcnt", "lzcnt", "bmi1", "bmi2"].contains(&feature), "{feature}");
        }
    }
}
