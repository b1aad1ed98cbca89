//! [`packed_fields!`](crate::packed_fields): define a packed-integer type from a list of fields.

/// Defines a `Copy` newtype over an unsigned integer whose bits are split into named fields.
///
/// Each field is either a `value(shift, width)`, read and written as the integer type, or a
/// `flag(bit)`, read and written as a `bool`. For every field the macro generates a mask and a
/// shift constant, a `const fn` getter and a `const fn with_*` setter that returns a new value with
/// only that field replaced (a value too wide for its field is truncated to the field's width).
/// It also generates `from_bits`/`bits` and a `Debug` that prints every field.
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
/// ```
#[macro_export]
macro_rules! packed_fields {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident($int:ty) {
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

        #[allow(dead_code, reason = "not every generated accessor is used by every type")]
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

        impl ::core::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct(stringify!($name))
                    $(.field(stringify!($field), &self.$field()))*
                    .finish()
            }
        }
    };

    (@mask $int:ty, value($shift:expr, $width:expr)) => { ((((1 as $int) << $width) - 1) << $shift) };
    (@mask $int:ty, flag($bit:expr)) => { ((1 as $int) << $bit) };
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

    #[test]
    fn setters_touch_only_their_field() {
        assert_eq!(Probe::LOW_MASK | Probe::FLAG_MASK | Probe::HIGH_MASK, u16::MAX);
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
