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

/// [`has_fast_bits`]'s answer once known: [`UNKNOWN`], or 0 or 1.
#[cfg(target_arch = "x86_64")]
static FAST_BITS: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(UNKNOWN);

/// [`FAST_BITS`] before the first detection.
#[cfg(target_arch = "x86_64")]
const UNKNOWN: u8 = 2;

/// `true` if this CPU has every feature [`fast_bits_fn!`] compiles for. The answer is kept in
/// one byte, so a call is one load and one test (asking the standard library for the four
/// features took four loads and tests per call, 2% of a `legal_moves()` call).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_fast_bits() -> bool {
    match FAST_BITS.load(std::sync::atomic::Ordering::Relaxed) {
        UNKNOWN => detect_fast_bits(),
        known => known == 1,
    }
}

/// Detects the features, records the answer in [`FAST_BITS`] and returns it.
#[cfg(target_arch = "x86_64")]
#[cold]
fn detect_fast_bits() -> bool {
    let fast = std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2");
    FAST_BITS.store(u8::from(fast), std::sync::atomic::Ordering::Relaxed);
    fast
}

/// Compiles the function item it wraps for the fast-bits features, on x86-64 only (elsewhere
/// the item is left out). Call it only through [`dispatch!`], or from another fast-bits copy.
macro_rules! fast_bits_fn {
    ($(#[$attr:meta])* $vis:vis fn $($rest:tt)*) => {
        $(#[$attr])*
        #[cfg(target_arch = "x86_64")]
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

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    /// The kept answer is the detected one, before and after it is kept (the `Safety` argument
    /// of every [`dispatch!`] rests on it).
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
}
