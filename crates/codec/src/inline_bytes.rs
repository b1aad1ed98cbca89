//! The byte strings of the fixed-size position formats: at most a few dozen bytes, held inline
//! so that encoding allocates nothing.

/// Declares `$name`, a byte string of at most `$cap` bytes held inline, with `as_bytes`, `len`,
/// `is_empty`, `AsRef<[u8]>` and a hex `Debug` that reads `$name(3a07…)`.
macro_rules! inline_bytes {
    ($(#[$meta:meta])* $vis:vis struct $name:ident[$cap:expr];) => {
        $(#[$meta])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash)]
        $vis struct $name {
            bytes: [u8; $cap],
            len: u8,
        }

        impl $name {
            /// The encoded bytes.
            #[inline]
            pub fn as_bytes(&self) -> &[u8] {
                self.bytes.get(..self.len as usize).unwrap_or(&self.bytes)
            }

            /// How many bytes.
            #[inline]
            pub fn len(&self) -> usize {
                self.len as usize
            }

            /// `true` for no bytes.
            #[inline]
            pub fn is_empty(&self) -> bool {
                self.len == 0
            }
        }

        impl AsRef<[u8]> for $name {
            fn as_ref(&self) -> &[u8] {
                self.as_bytes()
            }
        }

        /// Hex, as the type's name and its bytes.
        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(concat!(stringify!($name), "("))?;
                for byte in self.as_bytes() {
                    write!(f, "{byte:02x}")?;
                }
                f.write_str(")")
            }
        }
    };
}

pub(crate) use inline_bytes;
