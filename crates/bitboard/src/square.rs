//! Files, ranks and squares, and parsing and printing of square names.

use core::fmt;
use core::str::FromStr;

use crate::Color;

macro_rules! enum_table {
    ($(#[$m:meta])* $vis:vis enum $name:ident { $($(#[$vm:meta])* $v:ident = $i:expr),* $(,)? }) => {
        $(#[$m])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u8)]
        $vis enum $name { $($(#[$vm])* $v = $i),* }

        impl $name {
            /// Every value, in index order.
            pub const ALL: [$name; [$($name::$v),*].len()] = [$($name::$v),*];

            /// The value with this index, or `None` if it is out of range.
            #[inline]
            pub const fn from_index(index: u8) -> Option<$name> {
                if (index as usize) < Self::ALL.len() {
                    Some(Self::ALL[index as usize])
                } else {
                    None
                }
            }

            /// The index of the value (0-based).
            #[inline]
            pub const fn index(self) -> usize {
                self as usize
            }
        }
    };
    // A board coordinate (file or rank): eight values written as eight consecutive characters.
    (coordinate $name:ident: $first:literal..=$last:literal, $what:literal, mirrored $mirror:literal) => {
        impl $name {
            /// The byte of the first value's character.
            const FIRST: u8 = $first as u32 as u8;

            #[doc = concat!("The ", $what, "'s character, `'", $first, "'`..`'", $last, "'`.")]
            #[inline]
            pub const fn char(self) -> char {
                (Self::FIRST + self as u8) as char
            }

            #[doc = concat!("Parses a ", $what, " character `", $first, "`..`", $last, "`.")]
            #[inline]
            pub const fn from_ascii(c: u8) -> Option<$name> {
                if c >= Self::FIRST && c <= $last as u32 as u8 {
                    $name::from_index(c - Self::FIRST)
                } else {
                    None
                }
            }

            #[doc = concat!("The ", $what, " with index `index & 7`: never fails.")]
            #[inline]
            pub const fn new(index: u32) -> $name {
                $name::ALL[(index & 7) as usize]
            }

            #[doc = concat!("The ", $what, " mirrored ", $mirror, ".")]
            #[inline]
            pub const fn flip(self) -> $name {
                $name::new(7 - self as u32)
            }
        }
    };
}
pub(crate) use enum_table;

enum_table! {
    /// A file (column) of the board, a to h.
    pub enum File {
        /// The a-file.
        A = 0,
        /// The b-file.
        B = 1,
        /// The c-file.
        C = 2,
        /// The d-file.
        D = 3,
        /// The e-file.
        E = 4,
        /// The f-file.
        F = 5,
        /// The g-file.
        G = 6,
        /// The h-file.
        H = 7,
    }
}

enum_table! {
    /// A rank (row) of the board, 1 to 8.
    pub enum Rank {
        /// Rank 1, white's back rank.
        First = 0,
        /// Rank 2.
        Second = 1,
        /// Rank 3.
        Third = 2,
        /// Rank 4.
        Fourth = 3,
        /// Rank 5.
        Fifth = 4,
        /// Rank 6.
        Sixth = 5,
        /// Rank 7.
        Seventh = 6,
        /// Rank 8, black's back rank.
        Eighth = 7,
    }
}

#[allow(missing_docs, reason = "the 64 square names document themselves")]
mod squares {
    enum_table! {
        /// A square of the board, numbered little-endian rank-file: 0 = a1, 1 = b1, .. 63 = h8.
        pub enum Square {
            A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
            A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
            A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
            A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
            A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
            A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
            A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
            A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
        }
    }
}
pub use squares::Square;

enum_table!(coordinate File: 'a'..='h', "file", mirrored "a<->h");
enum_table!(coordinate Rank: '1'..='8', "rank", mirrored "1<->8");

impl File {
    /// The file `delta` steps away, if still on the board.
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<File> {
        // Checked: a delta near `i32::MAX` must give `None`, not overflow, in every build.
        match (self as i32).checked_add(delta) {
            Some(i) if i >= 0 && i < 8 => Some(File::new(i as u32)),
            _ => None,
        }
    }
}

impl Rank {
    /// The rank as seen from `color`'s side: `Rank::First` is `color`'s back rank.
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }
}

impl Square {
    /// The square with index `index & 63`: never fails, for hot paths.
    #[inline]
    pub const fn new(index: u32) -> Square {
        // Safety: `Square` is `#[repr(u8)]` with the 64 discriminants 0..=63 (pinned by the
        // `every_square_name_round_trips` test), and `index & 63` is one of them.
        #[allow(unsafe_code, reason = "a free conversion on the hottest path; see Safety")]
        unsafe {
            core::mem::transmute::<u8, Square>((index & 63) as u8)
        }
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::new(file as u32 | (rank as u32) << 3)
    }

    /// The file of the square.
    #[inline]
    pub const fn file(self) -> File {
        File::new(self as u32 & 7)
    }

    /// The rank of the square.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::new(self as u32 >> 3)
    }

    /// The square mirrored vertically (a1 <-> a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square::new(self as u32 ^ 56)
    }

    /// The square mirrored horizontally (a1 <-> h1).
    #[inline]
    pub const fn flip_horizontal(self) -> Square {
        Square::new(self as u32 ^ 7)
    }

    /// The square as seen from `color`'s side (mirrored vertically for black).
    #[inline]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// The square `df` files and `dr` ranks away, if still on the board.
    #[inline]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        // Checked: offsets near `i32::MIN`/`i32::MAX` must give `None`, not overflow, in every
        // build.
        match ((self.file() as i32).checked_add(df), (self.rank() as i32).checked_add(dr)) {
            (Some(f), Some(r)) if f >= 0 && f < 8 && r >= 0 && r < 8 => {
                Some(Square::new((f + 8 * r) as u32))
            }
            _ => None,
        }
    }

    /// `true` for the light squares (h1, a2, ...).
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.file() as u8 + self.rank() as u8) % 2 == 1
    }

    /// Chebyshev (king-move) distance between two squares.
    #[inline]
    pub const fn distance(self, other: Square) -> u32 {
        let df = (self.file() as i32 - other.file() as i32).unsigned_abs();
        let dr = (self.rank() as i32 - other.rank() as i32).unsigned_abs();
        if df > dr {
            df
        } else {
            dr
        }
    }

    /// Parses a square name such as `e4` from its two ASCII bytes.
    ///
    /// # Errors
    /// [`ParseSquareError`] unless `s` is exactly a file letter followed by a rank digit.
    pub const fn from_ascii(s: &[u8]) -> Result<Square, ParseSquareError> {
        if s.len() != 2 {
            return Err(ParseSquareError::Length);
        }
        let Some(file) = File::from_ascii(s[0]) else {
            return Err(ParseSquareError::File(s[0]));
        };
        let Some(rank) = Rank::from_ascii(s[1]) else {
            return Err(ParseSquareError::Rank(s[1]));
        };
        Ok(Square::from_coords(file, rank))
    }

    /// The square's name as two ASCII bytes, e.g. `*b"e4"`.
    #[inline]
    pub const fn to_ascii(self) -> [u8; 2] {
        [b'a' + self.file() as u8, b'1' + self.rank() as u8]
    }
}

/// Why a square name could not be parsed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseSquareError {
    /// The name is not exactly two characters long.
    Length,
    /// The first character (this byte) is not a file letter `a`..`h`.
    File(u8),
    /// The second character (this byte) is not a rank digit `1`..`8`.
    Rank(u8),
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseSquareError::Length => f.write_str("square name must be two characters"),
            ParseSquareError::File(b) => {
                write!(f, "invalid file {:?}, expected a..h", b as char)
            }
            ParseSquareError::Rank(b) => {
                write!(f, "invalid rank {:?}, expected 1..8", b as char)
            }
        }
    }
}

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_name_round_trips() {
        for sq in Square::ALL {
            let name = sq.to_ascii();
            assert_eq!(Square::from_ascii(&name), Ok(sq));
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), sq);
            assert_eq!(Square::new(sq as u32), sq);
            assert_eq!(sq.flip_vertical().flip_vertical(), sq);
            assert_eq!(sq.flip_horizontal().file(), sq.file().flip());
        }
        assert_eq!(Square::E4 as u8, 28);
        // `new` (an unchecked conversion) masks any input onto the 64 squares.
        for i in (0..1024).chain([u32::MAX - 1, u32::MAX]) {
            assert_eq!(Square::new(i) as u32, i & 63);
            assert_eq!(Square::new(i), Square::ALL[(i & 63) as usize]);
        }
        assert_eq!("h8".parse::<Square>(), Ok(Square::H8));
    }

    #[test]
    fn bad_names_are_typed_errors() {
        assert_eq!("e".parse::<Square>(), Err(ParseSquareError::Length));
        assert_eq!("e44".parse::<Square>(), Err(ParseSquareError::Length));
        assert_eq!("i4".parse::<Square>(), Err(ParseSquareError::File(b'i')));
        assert_eq!("e9".parse::<Square>(), Err(ParseSquareError::Rank(b'9')));
        assert_eq!("E4".parse::<Square>(), Err(ParseSquareError::File(b'E')));
        let messages =
            [ParseSquareError::Length, ParseSquareError::File(b'E'), ParseSquareError::Rank(0xff)]
                .map(|e| e.to_string());
        assert_eq!(
            messages,
            [
                "square name must be two characters",
                "invalid file 'E', expected a..h",
                "invalid rank '\u{ff}', expected 1..8",
            ]
        );
    }

    #[test]
    fn geometry() {
        assert!(Square::H1.is_light());
        assert!(!Square::A1.is_light());
        assert_eq!(Square::A1.distance(Square::H8), 7);
        assert_eq!(Square::E4.offset(1, 2), Some(Square::F6));
        assert_eq!(Square::H4.offset(1, 0), None);
        assert_eq!(Square::E2.relative_to(Color::Black), Square::E7);
        assert_eq!(Rank::Second.relative_to(Color::Black), Rank::Seventh);
        assert_eq!(File::from_index(8), None);
    }

    #[test]
    fn offsets_far_off_the_board_are_none_in_every_build() {
        // Debug builds used to panic on overflow here.
        let extremes = [i32::MIN, i32::MIN + 1, -9, -8, 8, 9, i32::MAX - 1, i32::MAX];
        for sq in Square::ALL {
            for d in extremes {
                assert_eq!(sq.offset(d, 0), None, "{sq} offset ({d}, 0)");
                assert_eq!(sq.offset(0, d), None, "{sq} offset (0, {d})");
                assert_eq!(sq.offset(d, d), None, "{sq} offset ({d}, {d})");
                assert_eq!(sq.file().offset(d), None, "{} offset {d}", sq.file());
            }
            // A small offset that stays on the board still works from every square.
            let back = sq.offset(-(sq.file() as i32), -(sq.rank() as i32));
            assert_eq!(back, Some(Square::A1));
        }
        assert_eq!(Square::H8.offset(i32::MAX, 0), None);
        assert_eq!(File::H.offset(i32::MAX), None);
        assert_eq!(File::A.offset(i32::MIN), None);
        assert_eq!(File::A.offset(7), Some(File::H));
    }
}
