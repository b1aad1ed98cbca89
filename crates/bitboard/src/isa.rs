//! Run-time selection of code compiled for newer x86-64 instructions: the one home of the
//! workspace's feature levels, their detection and the way a hot path is compiled for them.
//!
//! The default x86-64 target may not use the POPCNT instruction, so every
//! [`Bitboard::count`](crate::Bitboard::count) compiles to about a dozen instructions, and
//! `tzcnt`/`blsr` become longer sequences too. A portable build can still run its hot loops
//! with those instructions, in copies compiled for a feature level and called only where this
//! CPU has it. There are three levels, each a superset of the one before:
//!
//! | level | features ([`FAST_BITS_FEATURES`], ...) | detection | copies compiled by |
//! |---|---|---|---|
//! | fast bits | POPCNT, LZCNT, BMI1, BMI2 | [`has_fast_bits`] | [`Kernel`] + [`run`], [`fast_bits_fn!`], [`fast_bits_copy!`] (called by [`dispatch!`]) |
//! | AVX2 | fast bits and AVX2 | [`has_avx2`] | [`avx2_fn!`] |
//! | AVX-512 | fast bits and AVX-512 F, BW, VBMI2, VPOPCNTDQ | [`has_avx512`] | [`avx512_fn!`] |
//!
//! Each detection runs once and keeps its answer in one byte, so a call is one load and one
//! test. A program built with `-C target-cpu=native` gets the same code either way; off x86-64
//! (or without the `std` feature, which detection needs) every detection answers `false` and
//! only the portable code exists.
//!
//! The simplest way in is a [`Kernel`]: a computation whose `run` is `#[inline(always)]`,
//! which [`run`] calls in its fast-bits copy where the CPU has the features:
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
//! compiled once for the portable target.) A path that recurses, such as a perft walk, cannot
//! be a kernel (its recursive call would leave the copy): it is a function compiled for a
//! level by one of the macros, which calls itself, and is entered through [`dispatch!`] or
//! after the level's detection.
//!
//! Intrinsics need their features enabled in the function that calls them, so the SIMD
//! helpers behind the AVX2 and AVX-512 copies carry the level's attribute themselves, written
//! by the macros, or, for `#[inline]` helpers that rustfmt should keep formatting, spelled
//! out as the level's constant says (a crate doing so checks its attributes against these
//! constants in a test, as `chessbits-movegen` does).

/// The features of the fast-bits level, as `#[target_feature(enable = ...)]` spells them (and
/// as [`fast_bits_fn!`] does).
pub const FAST_BITS_FEATURES: &str = "popcnt,lzcnt,bmi1,bmi2";

/// The features of the AVX2 level: the fast-bits ones and AVX2 (as [`avx2_fn!`] spells them).
pub const AVX2_FEATURES: &str = "popcnt,lzcnt,bmi1,bmi2,avx2";

/// The features of the AVX-512 level: the fast-bits ones and AVX-512 F, BW, VBMI2 and
/// VPOPCNTDQ (as [`avx512_fn!`] spells them).
pub const AVX512_FEATURES: &str =
    "popcnt,lzcnt,bmi1,bmi2,avx512f,avx512bw,avx512vbmi2,avx512vpopcntdq";

/// One feature detection's answer, found on the first call and kept in one byte.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
struct Detection(core::sync::atomic::AtomicU8);

#[cfg(all(feature = "std", target_arch = "x86_64"))]
impl Detection {
    /// The byte before the first detection.
    const UNKNOWN: u8 = 2;

    /// A detection not yet run.
    const fn new() -> Detection {
        Detection(core::sync::atomic::AtomicU8::new(Detection::UNKNOWN))
    }

    /// `detect`'s answer: run on the first call, kept for the later ones (one load and one
    /// test).
    #[inline]
    fn found(&self, detect: fn() -> bool) -> bool {
        match self.0.load(core::sync::atomic::Ordering::Relaxed) {
            Detection::UNKNOWN => self.run(detect),
            known => known == 1,
        }
    }

    /// Runs `detect` and keeps its answer.
    #[cold]
    fn run(&self, detect: fn() -> bool) -> bool {
        let found = detect();
        self.0.store(u8::from(found), core::sync::atomic::Ordering::Relaxed);
        found
    }
}

/// Whether this CPU has each level, once known.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
static FAST_BITS: Detection = Detection::new();
#[cfg(all(feature = "std", target_arch = "x86_64"))]
static AVX2: Detection = Detection::new();
#[cfg(all(feature = "std", target_arch = "x86_64"))]
static AVX512: Detection = Detection::new();

/// `true` if this CPU has every feature of [`FAST_BITS_FEATURES`]. Always `false` without the
/// `std` feature or off x86-64.
#[inline]
pub fn has_fast_bits() -> bool {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        FAST_BITS.found(detect::fast_bits)
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    {
        false
    }
}

/// `true` if this CPU has every feature of [`AVX2_FEATURES`]. Always `false` without the `std`
/// feature or off x86-64.
#[inline]
pub fn has_avx2() -> bool {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        AVX2.found(detect::avx2)
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    {
        false
    }
}

/// `true` if this CPU has every feature of [`AVX512_FEATURES`]. Always `false` without the
/// `std` feature or off x86-64.
#[inline]
pub fn has_avx512() -> bool {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        AVX512.found(detect::avx512)
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    {
        false
    }
}

/// The detections themselves, one per level, each feature by name as its constant lists it.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod detect {
    /// [`super::FAST_BITS_FEATURES`].
    pub(super) fn fast_bits() -> bool {
        std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
    }

    /// [`super::AVX2_FEATURES`].
    pub(super) fn avx2() -> bool {
        fast_bits() && std::is_x86_feature_detected!("avx2")
    }

    /// [`super::AVX512_FEATURES`].
    pub(super) fn avx512() -> bool {
        fast_bits()
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vbmi2")
            && std::is_x86_feature_detected!("avx512vpopcntdq")
    }
}

/// Compiles the function it wraps for the features `$features` (a level's list), on x86-64
/// only: the one place the level macros' attribute is written.
#[macro_export]
#[doc(hidden)]
macro_rules! __isa_level_fn {
    ($features:literal, $($function:tt)*) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        $($function)*
    };
}

/// Compiles the function it wraps for the fast-bits level ([`FAST_BITS_FEATURES`]), on x86-64
/// only (elsewhere the function is left out). Call it through [`dispatch!`], after
/// [`has_fast_bits`], or from another copy of this level or above.
///
/// ```
/// use chessbits_bitboard::{isa, Bitboard};
///
/// /// Squares in all the sets, counted with POPCNT where the CPU has it.
/// #[inline(always)]
/// fn total(sets: &[Bitboard]) -> u32 {
///     sets.iter().map(|bb| bb.count()).sum()
/// }
///
/// isa::fast_bits_copy!(
///     /// [`total`] for the fast-bits level.
///     fn total_fast_bits = total(sets: &[Bitboard]) -> u32
/// );
///
/// let sets = [Bitboard::RANK_2, Bitboard::CORNERS];
/// assert_eq!(isa::dispatch!(total_fast_bits, total, (&sets)), 12);
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! __isa_fast_bits_fn {
    ($($function:tt)*) => {
        $crate::__isa_level_fn!("popcnt,lzcnt,bmi1,bmi2", $($function)*);
    };
}

/// Compiles the function it wraps for the AVX2 level ([`AVX2_FEATURES`]), on x86-64 only
/// (elsewhere the function is left out). Call it only where [`has_avx2`] is `true`, or from
/// another copy of this level.
#[macro_export]
#[doc(hidden)]
macro_rules! __isa_avx2_fn {
    ($($function:tt)*) => {
        $crate::__isa_level_fn!("popcnt,lzcnt,bmi1,bmi2,avx2", $($function)*);
    };
}

/// Compiles the function it wraps for the AVX-512 level ([`AVX512_FEATURES`]), on x86-64 only
/// (elsewhere the function is left out). Call it only where [`has_avx512`] is `true`, or from
/// another copy of this level.
#[macro_export]
#[doc(hidden)]
macro_rules! __isa_avx512_fn {
    ($($function:tt)*) => {
        $crate::__isa_level_fn!("popcnt,lzcnt,bmi1,bmi2,avx512f,avx512bw,avx512vbmi2,avx512vpopcntdq", $($function)*);
    };
}

/// Defines `$fast`, the fast-bits copy of the `#[inline(always)]` function `$portable` (whose
/// body is inlined into it), with the same arguments: see [`fast_bits_fn!`] for an example.
#[macro_export]
#[doc(hidden)]
macro_rules! __isa_fast_bits_copy {
    (
        $(#[$attr:meta])*
        $vis:vis fn $fast:ident = $portable:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)?
    ) => {
        $crate::isa::fast_bits_fn! {
            $(#[$attr])*
            $vis fn $fast($($arg: $ty),*) $(-> $ret)? {
                $portable($($arg),*)
            }
        }
    };
}

/// Calls `$fast(args)` where this CPU has the fast-bits features ([`has_fast_bits`]) and
/// `$portable(args)` otherwise (always `$portable` off x86-64). `$fast` must be a
/// [`fast_bits_fn!`] or [`fast_bits_copy!`] copy of `$portable`, so the result is the same
/// either way. The arguments are evaluated once, in order, before the call and outside its
/// `unsafe` block, so an argument that needs `unsafe` needs it at the call site:
///
/// ```compile_fail,E0133
/// use chessbits_bitboard::{isa, Bitboard};
///
/// #[inline(always)]
/// fn count(bb: Bitboard) -> u32 {
///     bb.count()
/// }
/// isa::fast_bits_copy!(fn count_fast_bits = count(bb: Bitboard) -> u32);
///
/// let bb = Bitboard::RANK_2;
/// let raw: *const Bitboard = &bb;
/// // Dereferencing a raw pointer is unsafe: this does not compile without `unsafe`.
/// let n = isa::dispatch!(count_fast_bits, count, (*raw));
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! __isa_dispatch {
    ($fast:path, $portable:path, ($($arg:expr),* $(,)?)) => {
        $crate::__isa_dispatch!(@bind $fast, $portable, [] $($arg,)*)
    };
    // Each argument into a local of its own (hygiene keeps each `value` apart), in order.
    (@bind $fast:path, $portable:path, [$($bound:ident)*] $first:expr, $($rest:expr,)*) => {{
        let value = $first;
        $crate::__isa_dispatch!(@bind $fast, $portable, [$($bound)* value] $($rest,)*)
    }};
    (@bind $fast:path, $portable:path, [$($bound:ident)*]) => {{
        #[cfg(target_arch = "x86_64")]
        let result = if $crate::isa::has_fast_bits() {
            #[allow(unsafe_code, reason = "calls code compiled for CPU features; see Safety")]
            // Safety: `$fast` is compiled by `fast_bits_fn!` for exactly the features that
            // `has_fast_bits` just found on this CPU; its arguments were evaluated above.
            let result = unsafe { $fast($($bound),*) };
            result
        } else {
            $portable($($bound),*)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let result = $portable($($bound),*);
        result
    }};
}

#[doc(inline)]
pub use crate::__isa_avx2_fn as avx2_fn;
#[doc(inline)]
pub use crate::__isa_avx512_fn as avx512_fn;
#[doc(inline)]
pub use crate::__isa_dispatch as dispatch;
#[doc(inline)]
pub use crate::__isa_fast_bits_copy as fast_bits_copy;
#[doc(inline)]
pub use crate::__isa_fast_bits_fn as fast_bits_fn;

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

fast_bits_fn! {
    /// `kernel.run()`, compiled with the fast-bits features (`run` is inlined into it).
    #[cfg(feature = "std")]
    fn run_fast_bits<K: Kernel>(kernel: K) -> K::Output {
        kernel.run()
    }
}

#[cfg(all(test, feature = "std", target_arch = "x86_64"))]
mod tests {
    use super::*;

    /// Each kept answer is the detected one, before and after it is kept (the Safety argument
    /// of every copy's call rests on it), and the levels nest.
    #[test]
    fn kept_answers_are_the_detected_ones() {
        let fast_bits = std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2");
        let avx2 = fast_bits && std::is_x86_feature_detected!("avx2");
        let avx512 = fast_bits
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vbmi2")
            && std::is_x86_feature_detected!("avx512vpopcntdq");
        for round in ["first call", "kept answer"] {
            assert_eq!(has_fast_bits(), fast_bits, "fast bits, {round}");
            assert_eq!(has_avx2(), avx2, "AVX2, {round}");
            assert_eq!(has_avx512(), avx512, "AVX-512, {round}");
        }
        assert_eq!(detect::fast_bits(), fast_bits, "detection again");
        assert!(!has_avx2() || has_fast_bits(), "AVX2 includes fast bits");
        assert!(!has_avx512() || has_fast_bits(), "AVX-512 includes fast bits");
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

    /// `dispatch!` over a `fast_bits_copy!` gives the portable answer.
    #[test]
    fn dispatched_copy_gives_the_portable_answer() {
        #[inline(always)]
        fn low_and_count(w: u64) -> (u32, u32) {
            (w.trailing_zeros(), w.count_ones())
        }
        fast_bits_copy!(fn low_and_count_fast = low_and_count(w: u64) -> (u32, u32));
        for w in [0u64, 1, u64::MAX, 0x0123_4567_89ab_cdef] {
            assert_eq!(dispatch!(low_and_count_fast, low_and_count, (w)), low_and_count(w));
        }
    }

    /// Each level's list starts with the one below it, and the features each detection asks
    /// for are the ones its constant lists.
    #[test]
    fn feature_lists_nest() {
        assert_eq!(
            FAST_BITS_FEATURES.split(',').collect::<Vec<_>>(),
            ["popcnt", "lzcnt", "bmi1", "bmi2"]
        );
        assert!(AVX2_FEATURES.starts_with(&format!("{FAST_BITS_FEATURES},")));
        assert!(AVX512_FEATURES.starts_with(&format!("{FAST_BITS_FEATURES},")));
        assert_eq!(&AVX2_FEATURES[FAST_BITS_FEATURES.len() + 1..], "avx2");
        let avx512: Vec<_> = AVX512_FEATURES[FAST_BITS_FEATURES.len() + 1..].split(',').collect();
        assert_eq!(avx512, ["avx512f", "avx512bw", "avx512vbmi2", "avx512vpopcntdq"]);
    }

    /// The level macros spell exactly the constants (read from this file's source, so the
    /// test fails when a macro or a constant changes alone): each list is written twice, in its
    /// constant and its macro.
    #[test]
    fn macros_spell_the_constants() {
        let source = include_str!("isa.rs");
        for (features, level) in [
            (FAST_BITS_FEATURES, "__isa_fast_bits_fn"),
            (AVX2_FEATURES, "__isa_avx2_fn"),
            (AVX512_FEATURES, "__isa_avx512_fn"),
        ] {
            let quoted = format!("\"{features}\"");
            assert_eq!(source.matches(&quoted).count(), 2, "{features}");
            let body = &source[source.find(&format!("rules! {level} {{")).expect(level)..];
            let body = &body[..body.find("\n}\n").expect("the macro ends")];
            assert!(body.contains(&format!("__isa_level_fn!({quoted}")), "{level}");
        }
    }
}
