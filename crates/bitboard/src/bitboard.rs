//! [`Bitboard`]: a set of squares in one `u64`, bit `i` standing for square `i`.

use core::fmt;
use core::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};

use crate::{Color, File, Rank, Square};

/// A set of squares: bit `i` is set when square `i` (0 = a1 .. 63 = h8) is in the set.
///
/// `&`, `|`, `^` and `!` are intersection, union, symmetric difference and complement; `-` is set
/// difference. Operands may be a `Bitboard` or a `Square`.
///
/// ```
/// use chessbits_bitboard::{Bitboard, Square};
///
/// let bb = Bitboard::RANK_2 - Square::E2;
/// assert_eq!(bb.count(), 7);
/// assert!(bb.contains(Square::D2) && !bb.contains(Square::E2));
/// assert_eq!(bb.first(), Some(Square::A2));
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The a-file.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The b-file.
    pub const FILE_B: Bitboard = Bitboard(0x0101_0101_0101_0101 << 1);
    /// The g-file.
    pub const FILE_G: Bitboard = Bitboard(0x0101_0101_0101_0101 << 6);
    /// The h-file.
    pub const FILE_H: Bitboard = Bitboard(0x0101_0101_0101_0101 << 7);
    /// Rank 1.
    pub const RANK_1: Bitboard = Bitboard(0xff);
    /// Rank 2.
    pub const RANK_2: Bitboard = Bitboard(0xff << 8);
    /// Rank 3.
    pub const RANK_3: Bitboard = Bitboard(0xff << 16);
    /// Rank 4.
    pub const RANK_4: Bitboard = Bitboard(0xff << 24);
    /// Rank 5.
    pub const RANK_5: Bitboard = Bitboard(0xff << 32);
    /// Rank 6.
    pub const RANK_6: Bitboard = Bitboard(0xff << 40);
    /// Rank 7.
    pub const RANK_7: Bitboard = Bitboard(0xff << 48);
    /// Rank 8.
    pub const RANK_8: Bitboard = Bitboard(0xff << 56);
    /// The 28 squares on the edge of the board.
    pub const EDGES: Bitboard = Bitboard(0xff81_8181_8181_81ff);
    /// The four corners.
    pub const CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0081);
    /// The 32 light squares (h1 is light).
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);
    /// The 32 dark squares (a1 is dark).
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);
    /// Ranks 1 and 8.
    pub const BACKRANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq as u32)
    }

    /// All squares of `file`.
    #[inline]
    pub const fn from_file(file: File) -> Bitboard {
        Bitboard(Bitboard::FILE_A.0 << file as u32)
    }

    /// All squares of `rank`.
    #[inline]
    pub const fn from_rank(rank: Rank) -> Bitboard {
        Bitboard(Bitboard::RANK_1.0 << (8 * rank as u32))
    }

    /// `color`'s back rank (rank 1 for white, rank 8 for black).
    #[inline]
    pub const fn backrank(color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard::RANK_1,
            Color::Black => Bitboard::RANK_8,
        }
    }

    /// `true` if no square is in the set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// `true` if at least one square is in the set.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// `true` if `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq as u32 & 1 != 0
    }

    /// The number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// `true` if the set holds two squares or more.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The one square of the set, if it holds exactly one.
    #[inline]
    pub const fn single(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() {
            Some(Square::new(self.0.trailing_zeros()))
        } else {
            None
        }
    }

    /// The lowest square of the set (a1 first).
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(self.0.trailing_zeros()))
        }
    }

    /// The highest square of the set (h8 first).
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(63 - self.0.leading_zeros()))
        }
    }

    /// Removes and returns the lowest square.
    #[inline]
    pub fn pop_first(&mut self) -> Option<Square> {
        let sq = self.first();
        self.0 &= self.0.wrapping_sub(1);
        sq
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq as u32)
    }

    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq as u32))
    }

    /// Adds `sq`.
    #[inline]
    pub fn add(&mut self, sq: Square) {
        self.0 |= 1 << sq as u32;
    }

    /// Removes `sq`.
    #[inline]
    pub fn discard(&mut self, sq: Square) {
        self.0 &= !(1 << sq as u32);
    }

    /// Toggles `sq`.
    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1 << sq as u32;
    }

    /// `true` if the two sets share a square.
    #[inline]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// `true` if every square of `self` is in `other`.
    #[inline]
    pub const fn is_subset(self, other: Bitboard) -> bool {
        self.0 & !other.0 == 0
    }

    /// Every square moved one rank up (toward rank 8); squares on rank 8 fall off.
    #[inline]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Every square moved one rank down (toward rank 1); squares on rank 1 fall off.
    #[inline]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// Every square moved one file right (toward h); squares on the h-file fall off.
    #[inline]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 & !Bitboard::FILE_H.0) << 1)
    }

    /// Every square moved one file left (toward a); squares on the a-file fall off.
    #[inline]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 & !Bitboard::FILE_A.0) >> 1)
    }

    /// Every square moved one step up and right.
    #[inline]
    pub const fn north_east(self) -> Bitboard {
        Bitboard((self.0 & !Bitboard::FILE_H.0) << 9)
    }

    /// Every square moved one step up and left.
    #[inline]
    pub const fn north_west(self) -> Bitboard {
        Bitboard((self.0 & !Bitboard::FILE_A.0) << 7)
    }

    /// Every square moved one step down and right.
    #[inline]
    pub const fn south_east(self) -> Bitboard {
        Bitboard((self.0 & !Bitboard::FILE_H.0) >> 7)
    }

    /// Every square moved one step down and left.
    #[inline]
    pub const fn south_west(self) -> Bitboard {
        Bitboard((self.0 & !Bitboard::FILE_A.0) >> 9)
    }

    /// Every square moved one rank forward from `color`'s point of view.
    #[inline]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => self.north(),
            Color::Black => self.south(),
        }
    }

    /// The set mirrored vertically (rank 1 <-> rank 8).
    #[inline]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// The set mirrored horizontally (a-file <-> h-file).
    #[inline]
    pub const fn flip_horizontal(self) -> Bitboard {
        // Each byte is one rank with the a-file in bit 0: reversing the bits of each byte mirrors it.
        Bitboard(self.0.reverse_bits().swap_bytes())
    }

    /// The set rotated by 180 degrees.
    #[inline]
    pub const fn rotate_180(self) -> Bitboard {
        Bitboard(self.0.reverse_bits())
    }

    /// The set as seen from `color`'s side (mirrored vertically for black).
    #[inline]
    pub const fn relative_to(self, color: Color) -> Bitboard {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// An iterator over the squares of the set, lowest first.
    #[inline]
    pub const fn squares(self) -> Squares {
        Squares(self.0)
    }
}

macro_rules! binary_ops {
    ($($Trait:ident $method:ident $AssignTrait:ident $assign:ident => $op:tt),* $(,)?) => {$(
        impl<T: Into<Bitboard>> $Trait<T> for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: T) -> Bitboard {
                Bitboard(self.0 $op rhs.into().0)
            }
        }
        impl<T: Into<Bitboard>> $AssignTrait<T> for Bitboard {
            #[inline]
            fn $assign(&mut self, rhs: T) {
                self.0 = self.0 $op rhs.into().0;
            }
        }
    )*};
}

binary_ops! {
    BitAnd bitand BitAndAssign bitand_assign => &,
    BitOr bitor BitOrAssign bitor_assign => |,
    BitXor bitxor BitXorAssign bitxor_assign => ^,
}

impl<T: Into<Bitboard>> Sub<T> for Bitboard {
    type Output = Bitboard;
    /// Set difference: the squares of `self` that are not in `rhs`.
    #[inline]
    fn sub(self, rhs: T) -> Bitboard {
        Bitboard(self.0 & !rhs.into().0)
    }
}

impl<T: Into<Bitboard>> SubAssign<T> for Bitboard {
    #[inline]
    fn sub_assign(&mut self, rhs: T) {
        self.0 &= !rhs.into().0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl From<File> for Bitboard {
    #[inline]
    fn from(file: File) -> Bitboard {
        Bitboard::from_file(file)
    }
}

impl From<Rank> for Bitboard {
    #[inline]
    fn from(rank: Rank) -> Bitboard {
        Bitboard::from_rank(rank)
    }
}

impl From<u64> for Bitboard {
    #[inline]
    fn from(bits: u64) -> Bitboard {
        Bitboard(bits)
    }
}

impl From<Bitboard> for u64 {
    #[inline]
    fn from(bb: Bitboard) -> u64 {
        bb.0
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for sq in iter {
            bb.add(sq);
        }
        bb
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    #[inline]
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest square first.
#[derive(Copy, Clone, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::new(self.0.trailing_zeros());
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Squares {
    #[inline]
    fn next_back(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = 63 - self.0.leading_zeros();
        self.0 ^= 1 << i;
        Some(Square::new(i))
    }
}

impl ExactSizeIterator for Squares {}
impl core::iter::FusedIterator for Squares {}

/// Draws the set as an 8x8 grid, rank 8 at the top: `1` for a member square, `.` otherwise.
impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.into_iter().rev() {
            for file in File::ALL {
                let c = if self.contains(Square::from_coords(file, rank)) { '1' } else { '.' };
                f.write_fmt(format_args!("{}{}", c, if file == File::H { '\n' } else { ' ' }))?;
            }
        }
        Ok(())
    }
}

/// Prints the raw value, then the grid of [`Display`](fmt::Display).
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slow, obvious definition of a one-step shift, to check the masked shifts against.
    fn shift_reference(bb: Bitboard, df: i32, dr: i32) -> Bitboard {
        bb.squares().filter_map(|sq| sq.offset(df, dr)).collect()
    }

    #[test]
    fn shifts_match_square_offsets_on_every_single_square() {
        type Shift = fn(Bitboard) -> Bitboard;
        let cases: [(Shift, i32, i32); 8] = [
            (Bitboard::north, 0, 1),
            (Bitboard::south, 0, -1),
            (Bitboard::east, 1, 0),
            (Bitboard::west, -1, 0),
            (Bitboard::north_east, 1, 1),
            (Bitboard::north_west, -1, 1),
            (Bitboard::south_east, 1, -1),
            (Bitboard::south_west, -1, -1),
        ];
        for sq in Square::ALL {
            for (shift, df, dr) in cases {
                let bb = Bitboard::from_square(sq);
                assert_eq!(shift(bb), shift_reference(bb, df, dr), "{sq} by ({df}, {dr})");
            }
        }
        let edges = Bitboard::EDGES;
        assert_eq!(edges.east(), shift_reference(edges, 1, 0));
    }

    #[test]
    fn iteration_is_lowest_first_and_exact() {
        let bb = Bitboard::from_square(Square::H8) | Square::A1 | Square::E4;
        let v: Vec<Square> = bb.into_iter().collect();
        assert_eq!(v, [Square::A1, Square::E4, Square::H8]);
        let rev: Vec<Square> = bb.squares().rev().collect();
        assert_eq!(rev, [Square::H8, Square::E4, Square::A1]);
        assert_eq!(bb.squares().len(), 3);
        assert_eq!(Bitboard::FULL.squares().count(), 64);
    }

    #[test]
    fn set_operations() {
        let a = Bitboard::FILE_A;
        let r = Bitboard::RANK_1;
        assert_eq!((a & r).single(), Some(Square::A1));
        assert_eq!((a | r).count(), 15);
        assert_eq!((a ^ r).count(), 14);
        assert_eq!((a - r).count(), 7);
        assert_eq!(!Bitboard::EMPTY, Bitboard::FULL);
        assert!(Bitboard::EMPTY.single().is_none() && Bitboard::EMPTY.is_empty());
        assert!(a.more_than_one() && !Bitboard::from_square(Square::C3).more_than_one());
        assert_eq!(Bitboard::LIGHT_SQUARES | Bitboard::DARK_SQUARES, Bitboard::FULL);
        assert!(!Bitboard::LIGHT_SQUARES.intersects(Bitboard::DARK_SQUARES));
        for sq in Square::ALL {
            assert_eq!(Bitboard::LIGHT_SQUARES.contains(sq), sq.is_light());
            assert_eq!(
                Bitboard::EDGES.contains(sq),
                sq.offset(1, 1).is_none() || sq.offset(-1, -1).is_none()
            );
            assert_eq!(Bitboard::from_file(sq.file()) & Bitboard::from_rank(sq.rank()), sq.into());
        }
        let mut bb = Bitboard::EMPTY;
        bb.add(Square::B2);
        bb.toggle(Square::C3);
        bb.discard(Square::B2);
        assert_eq!(bb, Bitboard::from_square(Square::C3));
        assert_eq!(bb.pop_first(), Some(Square::C3));
        assert!(bb.is_empty());
    }

    #[test]
    fn flips_match_square_flips() {
        for sq in Square::ALL {
            let bb = Bitboard::from_square(sq);
            assert_eq!(bb.flip_vertical(), sq.flip_vertical().into());
            assert_eq!(bb.flip_horizontal(), sq.flip_horizontal().into());
            assert_eq!(bb.rotate_180(), sq.flip_vertical().flip_horizontal().into());
        }
        assert_eq!(Bitboard::CORNERS.first(), Some(Square::A1));
        assert_eq!(Bitboard::CORNERS.last(), Some(Square::H8));
    }

    #[test]
    fn grid_drawing() {
        let bb = Bitboard::from_square(Square::A1) | Square::H8 | Square::E4;
        insta::assert_snapshot!(format!("{bb:?}"));
    }
}
