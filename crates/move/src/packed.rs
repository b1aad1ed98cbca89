//! [`packed_fields!`](crate::packed_fields): define a packed-integer type from a list of fields.

/// Defines a `Copy` newtype over an unsigned integer whose bits are split into named fields.
///
/// Each field is either a `value(shift, width)`, read and written as the integer type, or a
/// `flag(bit)`, read and written as a `bool`. For every field the macro generates a mask and a
/// shift constant, a `const fn` getter and a `const fn with_*` setter that returns a new value with
/// only that field replaced (a value too wide for its field is truncated to the field's width).
/// It also generates `from_bits`/`bits` and a `Debug` that prints every field; a type that wants
/// its own `Debug` (a move printed as a move) says so: `struct Move16(u16, debug = custom)`.
///
/// Each field line names its getter, its setter, its mask and its shift constant: four names,
/// because `macro_rules!` cannot build `with_x` or `X_MASK` out of `x` (that needs a proc-macro
/// crate, which this `no_std`, dependency-light crate does without).
///
/// The layout is checked at compile time: a field of width 0, a field that runs past the
/// integer and two fields that share a bit are errors, and a field as wide as the integer is
/// fine.
///
/// ```
/// chessbits_move::packed_fields! {
///     /// A toy: a 3-bit count and a flag.
///     pub struct Toy(u8) {
///         /// How many.
///         count, with_count, COUNT_MASK, COUNT_SHIFT: value(0, 3);
///         /// Whether it is ready.
///         ready, with_ready, READY_MASK, READY_SHIFT: flag(3);
///     }
/// }
/// let toy = Toy::from_bits(0).with_count(5).with_ready(true);
/// assert_eq!(toy.bits(), 0b1101);
/// assert_eq!((toy.count(), toy.ready()), (5, true));
/// assert_eq!(Toy::COUNT_MASK, 0b0111);
/// assert_eq!(format!("{toy:?}"), "Toy { count: 5, ready: true }");
///
/// chessbits_move::packed_fields! {
///     /// One field the width of the whole integer.
///     pub struct Whole(u16) {
///         /// Everything.
///         all, with_all, ALL_MASK, ALL_SHIFT: value(0, 16);
///     }
/// }
/// assert_eq!(Whole::ALL_MASK, u16::MAX);
/// assert_eq!(Whole::from_bits(0).with_all(0xbeef).all(), 0xbeef);
/// ```
///
/// Overlapping fields do not compile:
///
/// ```compile_fail
/// chessbits_move::packed_fields! {
///     /// Bits 2 and 3 belong to both fields.
///     pub struct Overlap(u8) {
///         /// Low.
///         low, with_low, LOW_MASK, LOW_SHIFT: value(0, 4);
///         /// High.
///         high, with_high, HIGH_MASK, HIGH_SHIFT: value(2, 6);
///     }
/// }
/// ```
///
/// ```compile_fail
/// chessbits_move::packed_fields! {
///     /// The flag sits on the value's bit 1.
///     pub struct FlagOverlap(u8) {
///         /// Value.
///         value, with_value, VALUE_MASK, VALUE_SHIFT: value(0, 4);
///         /// Flag.
///         flag, with_flag, FLAG_MASK, FLAG_SHIFT: flag(1);
///     }
/// }
/// ```
///
/// Nor does a field that runs past the integer:
///
/// ```compile_fail
/// chessbits_move::packed_fields! {
///     /// Bits 6 to 9 of a byte.
///     pub struct TooWide(u8) {
///         /// Past the top.
///         top, with_top, TOP_MASK, TOP_SHIFT: value(6, 4);
///     }
/// }
/// ```
///
/// ```compile_fail
/// chessbits_move::packed_fields! {
///     /// Bit 8 of a byte.
///     pub struct FlagPast(u8) {
///         /// Past the top.
///         top, with_top, TOP_MASK, TOP_SHIFT: flag(8);
///     }
/// }
/// ```
///
/// Nor a field of no bits:
///
/// ```compile_fail
/// chessbits_move::packed_fields! {
///     /// An empty field.
///     pub struct Nothing(u8) {
///         /// No bits.
///         none, with_none, NONE_MASK, NONE_SHIFT: value(3, 0);
///     }
/// }
/// ```
#[macro_export]
macro_rules! packed_fields {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident($int:ty $(, debug = $debug:ident)?) {
            $(
                $(#[$fmeta:meta])*
                $field:ident, $with:ident, $mask:ident, $shift:ident : $kind:ident($($arg:expr),+);
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        #[repr(transparent)]
        $vis struct $name($int);

        // The layout, checked when the type is compiled: every field inside the integer, no bit
        // in two fields (a `const` item is always evaluated, unlike associated constants).
        const _: () = {
            let mut taken: $int = 0;
            $(
                let mask = $name::$mask;
                assert!(
                    taken & mask == 0,
                    concat!("packed_fields!: field `", stringify!($field), "` overlaps an earlier field")
                );
                taken |= mask;
            )*
            let _ = taken;
        };

        impl $name {
            $(
                #[doc = concat!("Mask of the `", stringify!($field), "` field, in place.")]
                pub const $mask: $int = $crate::packed_fields!(@mask $int, $kind($($arg),+));
                #[doc = concat!("Position of the lowest bit of the `", stringify!($field), "` field.")]
                pub const $shift: u32 = $crate::packed_fields!(@shift $kind($($arg),+));
            )*

            /// Wraps raw bits, unchecked: every bit pattern is a value of this type.
            #[inline]
            pub const fn from_bits(bits: $int) -> Self {
                Self(bits)
            }

            /// The raw bits.
            #[inline]
            pub const fn bits(self) -> $int {
                self.0
            }

            $(
                $crate::packed_fields!(@accessors $int, $(#[$fmeta])* $field, $with, $mask, $shift, $kind);
            )*
        }

        $crate::packed_fields!(@debug $($debug)? ; $name; $($field),*);
    };

    (@debug custom ; $name:ident; $($field:ident),*) => {};
    (@debug ; $name:ident; $($field:ident),*) => {
        impl ::core::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct(stringify!($name))
                    $(.field(stringify!($field), &self.$field()))*
                    .finish()
            }
        }
    };

    // `MAX >> (BITS - width)` is `width` ones without overflow, the full width included.
    (@mask $int:ty, value($shift:expr, $width:expr)) => {
        if $width == 0 || $shift + $width > <$int>::BITS {
            panic!("packed_fields!: a value field must have 1 or more bits, all inside the integer")
        } else {
            (<$int>::MAX >> (<$int>::BITS - $width)) << $shift
        }
    };
    (@mask $int:ty, flag($bit:expr)) => {
        if $bit >= <$int>::BITS {
            panic!("packed_fields!: a flag's bit must be inside the integer")
        } else {
            (1 as $int) << $bit
        }
    };
    (@shift value($shift:expr, $width:expr)) => { $shift };
    (@shift flag($bit:expr)) => { $bit };

    (@accessors $int:ty, $(#[$fmeta:meta])* $field:ident, $with:ident, $mask:ident, $shift:ident, value) => {
        $(#[$fmeta])*
        #[inline]
        pub const fn $field(self) -> $int {
            (self.0 & Self::$mask) >> Self::$shift
        }

        #[doc = concat!("A copy with the `", stringify!($field), "` field set to `value` (truncated to the field's width).")]
        #[inline]
        #[must_use]
        pub const fn $with(self, value: $int) -> Self {
            Self((self.0 & !Self::$mask) | ((value << Self::$shift) & Self::$mask))
        }
    };
    (@accessors $int:ty, $(#[$fmeta:meta])* $field:ident, $with:ident, $mask:ident, $shift:ident, flag) => {
        $(#[$fmeta])*
        #[inline]
        pub const fn $field(self) -> bool {
            self.0 & Self::$mask != 0
        }

        #[doc = concat!("A copy with the `", stringify!($field), "` flag set or cleared.")]
        #[inline]
        #[must_use]
        pub const fn $with(self, value: bool) -> Self {
            if value {
                Self(self.0 | Self::$mask)
            } else {
                Self(self.0 & !Self::$mask)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    crate::packed_fields! {
        /// Fields that fill a byte and overlap nothing.
        struct Probe(u16) {
            /// Low.
            low, with_low, LOW_MASK, LOW_SHIFT: value(0, 5);
            /// Flag.
            flag, with_flag, FLAG_MASK, FLAG_SHIFT: flag(5);
            /// High.
            high, with_high, HIGH_MASK, HIGH_SHIFT: value(6, 10);
        }
    }

    crate::packed_fields! {
        /// One field over the whole integer.
        struct Whole(u64) {
            /// All of it.
            all, with_all, ALL_MASK, ALL_SHIFT: value(0, 64);
        }
    }

    #[test]
    fn a_full_width_field_is_the_whole_integer() {
        assert_eq!((Whole::ALL_MASK, Whole::ALL_SHIFT), (u64::MAX, 0));
        for v in [0, 1, u64::MAX, 0x8000_0000_0000_0001] {
            assert_eq!(Whole::from_bits(!v).with_all(v).all(), v);
        }
        assert_eq!(Whole::from_bits(7).bits(), 7);
        assert_eq!(format!("{:?}", Whole::from_bits(7)), "Whole { all: 7 }");
    }

    #[test]
    fn setters_touch_only_their_field() {
        assert_eq!(Probe::LOW_MASK | Probe::FLAG_MASK | Probe::HIGH_MASK, u16::MAX);
        assert_eq!((Probe::LOW_SHIFT, Probe::FLAG_SHIFT, Probe::HIGH_SHIFT), (0, 5, 6));
        let p = Probe::from_bits(u16::MAX).with_low(0);
        assert_eq!(p.bits(), !0x1f);
        let p = p.with_flag(false).with_high(0x3ff + 1);
        assert_eq!(p.bits(), 0, "an over-wide value is truncated to its field");
        for v in 0..32 {
            let p = Probe::from_bits(0xffff).with_low(v);
            assert_eq!((p.low(), p.flag(), p.high()), (v, true, 0x3ff));
        }
    }
}
