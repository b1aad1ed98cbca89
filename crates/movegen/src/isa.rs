//! Run-time selection of code compiled for newer x86-64 features ("fast bits": POPCNT, LZCNT,
//! BMI1 and BMI2).
//!
//! A portable x86-64 build may not use the POPCNT instruction, so every `count_ones` becomes a
//! dozen instructions, and bulk counting is mostly popcounts. The hot entry points (the perft
//! walks, list collection) are therefore compiled twice, portably and by [`fast_bits_fn!`] with
//! the features enabled, and [`dispatch!`] picks one per call. A build with
//! `-C target-cpu=native` (or any target with these features) gets the same code either way. On
//! other architectures only the portable copy exists.
//!
//! Every fast-bits copy is compiled for the same feature set, so the one check in
//! [`has_fast_bits`] makes any of them safe to call: that is the whole Safety argument, written
//! once in [`dispatch!`].

/// `true` if this CPU has every feature [`fast_bits_fn!`] compiles for: the one detection of
/// the workspace, kept in one byte by the bitboard crate (a call is one load and one test).
#[cfg(target_arch = "x86_64")]
pub(crate) use chessbits_bitboard::isa::has_fast_bits;

/// Compiles the function item it wraps for the fast-bits features, on x86-64 only (elsewhere
/// the item is left out). Call it only through [`dispatch!`], or from another fast-bits copy.
macro_rules! fast_bits_fn {
    ($(#[$attr:meta])* $vis:vis fn $($rest:tt)*) => {
        $(#[$attr])*
        #[cfg(target_arch = "x86_64")]
        // Exactly `chessbits_bitboard::isa::FAST_BITS_FEATURES`, which `has_fast_bits` detects.
        #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]
        $vis fn $($rest)*
    };
}

/// Defines `$fast`, the fast-bits copy of the `#[inline(always)]` function `$portable` (whose
/// body is inlined into it), with the same arguments.
macro_rules! fast_bits_copy {
    (
        $(#[$attr:meta])*
        fn $fast:ident = $portable:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)?
    ) => {
        $crate::isa::fast_bits_fn! {
            $(#[$attr])*
            fn $fast($($arg: $ty),*) $(-> $ret)? {
                $portable($($arg),*)
            }
        }
    };
}

/// Calls `$fast(args)` where this CPU has the fast-bits features and `$portable(args)`
/// otherwise (always `$portable` off x86-64). `$fast` must be a [`fast_bits_fn!`] copy of
/// `$portable`. The arguments are evaluated once, in the branch taken.
macro_rules! dispatch {
    ($fast:path, $portable:path, ($($arg:expr),* $(,)?)) => {{
        #[cfg(target_arch = "x86_64")]
        let result = if $crate::isa::has_fast_bits() {
            #[allow(unsafe_code, reason = "calls code compiled for CPU features; see Safety")]
            // Safety: `$fast` is compiled by `fast_bits_fn!` for exactly the features that
            // `has_fast_bits` just found on this CPU.
            let result = unsafe { $fast($($arg),*) };
            result
        } else {
            $portable($($arg),*)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let result = $portable($($arg),*);
        result
    }};
}

pub(crate) use {dispatch, fast_bits_copy, fast_bits_fn};

/// The answer of one feature detection, found once and kept in one byte: the widths of
/// [`crate::wide`] and [`crate::avx2`] each keep one.
#[cfg(target_arch = "x86_64")]
pub(crate) struct Detection(core::sync::atomic::AtomicU8);

#[cfg(target_arch = "x86_64")]
impl Detection {
    /// The byte before the first detection.
    const UNKNOWN: u8 = 2;

    /// A detection not yet run.
    pub(crate) const fn new() -> Detection {
        Detection(core::sync::atomic::AtomicU8::new(Detection::UNKNOWN))
    }

    /// `detect`'s answer: run on the first call, kept for the later ones (one load and one
    /// test).
    #[inline]
    pub(crate) fn found(&self, detect: fn() -> bool) -> bool {
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
