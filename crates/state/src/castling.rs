//! Castling rights: which of the four castlings are still allowed, and with which rook.

use bitflags::bitflags;
use chessbits_bitboard::{Bitboard, Color, File, Rank, Square};

bitflags! {
    /// The four castling rights. The bit order is Polyglot's key order (768 + bit index).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub struct CastlingRights: u8 {
        /// White may castle with the rook on the king's side (toward h).
        const WHITE_KING_SIDE = 1;
        /// White may castle with the rook on the queen's side (toward a).
        const WHITE_QUEEN_SIDE = 2;
        /// Black may castle with the rook on the king's side.
        const BLACK_KING_SIDE = 4;
        /// Black may castle with the rook on the queen's side.
        const BLACK_QUEEN_SIDE = 8;
    }
}

impl CastlingRights {
    /// The right of `color` on `side`.
    #[inline]
    pub const fn of(color: Color, side: CastlingSide) -> CastlingRights {
        CastlingRights::from_bits_retain(1 << (2 * color as u8 + side as u8))
    }

    /// Both rights of `color`.
    #[inline]
    pub const fn both(color: Color) -> CastlingRights {
        CastlingRights::from_bits_retain(3 << (2 * color as u8))
    }
}

/// A side of the board to castle to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum CastlingSide {
    /// Short castling: the king ends on the g-file, the rook on the f-file.
    KingSide = 0,
    /// Long castling: the king ends on the c-file, the rook on the d-file.
    QueenSide = 1,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// The file the king lands on: g or c.
    #[inline]
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// The file the rook lands on: f or d.
    #[inline]
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }

    /// The square the king lands on when `color` castles to this side.
    #[inline]
    pub const fn king_to(self, color: Color) -> Square {
        Square::from_coords(self.king_to_file(), Rank::First.relative_to(color))
    }

    /// The square the rook lands on when `color` castles to this side.
    #[inline]
    pub const fn rook_to(self, color: Color) -> Square {
        Square::from_coords(self.rook_to_file(), Rank::First.relative_to(color))
    }

    /// The side of a castling move from the king's square to the rook's square.
    #[inline]
    pub const fn from_king_rook(king: Square, rook: Square) -> CastlingSide {
        if (rook as u8) > (king as u8) {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        }
    }
}

/// The castling state of a position: the rights and, for each right, the rook it castles with
/// (any file, for Chess960). The rook squares of absent rights are meaningless.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Castles {
    rights: CastlingRights,
    /// Rook square per color and side, indexed `[color][side]`.
    rooks: [[Square; 2]; 2],
    /// Squares whose occupant moving (or being captured) may cost a right: the kings' and rooks'
    /// squares of the rights held. Lets make-move skip the castling update in one test.
    touch: Bitboard,
    /// Per right, the squares that must be empty to castle: the king's and the rook's paths,
    /// their destinations included, the king and rook themselves excluded. Indexed like `rooks`.
    paths: [[Bitboard; 2]; 2],
}

/// The squares from `a` to `b`, both included, on one rank.
const fn rank_span(a: Square, b: Square) -> Bitboard {
    let (lo, hi) = if (a as u8) < (b as u8) { (a as u32, b as u32) } else { (b as u32, a as u32) };
    // Bits lo..=hi; for hi = 63 the shifted one falls off and the subtraction wraps correctly.
    Bitboard(((1u64 << hi) << 1).wrapping_sub(1u64 << lo))
}

/// [`Castles::standard_subset`] for every set of rights (bit `2 * color + side`).
const STANDARD_SUBSETS: [Castles; 16] = {
    let standard = Castles::standard();
    let mut table = [Castles::none(); 16];
    let mut set = 0;
    while set < 16 {
        let mut castles = Castles::none();
        castles.rights = CastlingRights::from_bits_retain(set as u8);
        let mut right = 0;
        while right < 4 {
            if set & 1 << right != 0 {
                let (color, side) = (right / 2, right % 2);
                let king = if color == 0 { Square::E1 } else { Square::E8 };
                let rook = standard.rooks[color][side];
                castles.touch = Bitboard(castles.touch.0 | 1 << king as u32 | 1 << rook as u32);
                castles.paths[color][side] = standard.paths[color][side];
            }
            right += 1;
        }
        table[set] = castles;
        set += 1;
    }
    table
};

impl Default for Castles {
    fn default() -> Castles {
        Castles::standard()
    }
}

impl Castles {
    /// All four rights with the rooks in the corners.
    pub const fn standard() -> Castles {
        Castles {
            rights: CastlingRights::all(),
            rooks: [[Square::H1, Square::A1], [Square::H8, Square::A8]],
            touch: Bitboard(Bitboard::CORNERS.0 | 1 << Square::E1 as u32 | 1 << Square::E8 as u32),
            paths: [[Bitboard(0x60), Bitboard(0x0e)], [Bitboard(0x60 << 56), Bitboard(0x0e << 56)]],
        }
    }

    /// The rights of `rights` with the kings and rooks on their standard squares: exactly what
    /// [`Castles::add`] gives for each of them from [`Castles::none`], from a table.
    #[inline]
    pub(crate) const fn standard_subset(rights: CastlingRights) -> Castles {
        STANDARD_SUBSETS[rights.bits() as usize & 15]
    }

    /// No rights at all.
    pub const fn none() -> Castles {
        Castles {
            rights: CastlingRights::empty(),
            rooks: [[Square::H1, Square::A1], [Square::H8, Square::A8]],
            touch: Bitboard::EMPTY,
            paths: [[Bitboard::EMPTY; 2]; 2],
        }
    }

    /// The rights held.
    #[inline]
    pub const fn rights(&self) -> CastlingRights {
        self.rights
    }

    /// `true` if no right is held.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.rights.is_empty()
    }

    /// `true` if `color` may still castle to `side`.
    #[inline]
    pub const fn has(&self, color: Color, side: CastlingSide) -> bool {
        self.rights.contains(CastlingRights::of(color, side))
    }

    /// The rook `color` castles with on `side`, if the right is held.
    #[inline]
    pub const fn rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        if self.has(color, side) {
            Some(self.rooks[color as usize][side as usize])
        } else {
            None
        }
    }

    /// The squares of every castling rook still held.
    pub fn rook_squares(&self) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(sq) = self.rook(color, side) {
                    bb.add(sq);
                }
            }
        }
        bb
    }

    /// The squares that must be empty for `color` to castle to `side` (the king's and rook's
    /// paths and destinations, not counting the king and rook themselves). Meaningful only while
    /// the right is held.
    #[inline]
    pub const fn path(&self, color: Color, side: CastlingSide) -> Bitboard {
        self.paths[color as usize][side as usize]
    }

    /// Squares whose change may cost a right (kings' and castling rooks' squares).
    #[inline]
    pub const fn touch_mask(&self) -> Bitboard {
        self.touch
    }

    /// Grants `color` the right to castle to `side` with the rook on `rook`, whose king stands on
    /// `king`.
    pub fn add(&mut self, color: Color, side: CastlingSide, king: Square, rook: Square) {
        self.rights |= CastlingRights::of(color, side);
        self.rooks[color as usize][side as usize] = rook;
        self.touch = self.touch.with(king).with(rook);
        let spans = rank_span(king, side.king_to(color)).0 | rank_span(rook, side.rook_to(color)).0;
        self.paths[color as usize][side as usize] = Bitboard(spans).without(king).without(rook);
    }

    /// Drops `color`'s rights (its king moved).
    #[inline]
    pub fn discard_color(&mut self, color: Color) {
        self.rights -= CastlingRights::both(color);
    }

    /// Drops the right that castles with the rook on `sq`, if any (the rook moved or was taken).
    #[inline]
    pub fn discard_rook(&mut self, sq: Square) {
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if self.rook(color, side) == Some(sq) {
                    self.rights -= CastlingRights::of(color, side);
                }
            }
        }
    }

    /// The rights (held or not) whose rook square is `a` or `b`: what a move from `a` to `b`
    /// costs besides a king move's. Branch-free: the four rook squares are the four bytes of a
    /// `u32` in right order, compared with `a` and `b` all at once.
    #[inline(always)]
    pub(crate) fn rook_rights_on(&self, a: Square, b: Square) -> CastlingRights {
        let [[wk, wq], [bk, bq]] = self.rooks;
        let rooks = u32::from_le_bytes([wk as u8, wq as u8, bk as u8, bq as u8]);
        // The high bit of each byte that is zero in `x`, exactly (no borrow between bytes).
        let zero_bytes = |x: u32| !(((x & 0x7f7f_7f7f) + 0x7f7f_7f7f) | x | 0x7f7f_7f7f);
        let equal = zero_bytes(rooks ^ (a as u32 * 0x0101_0101))
            | zero_bytes(rooks ^ (b as u32 * 0x0101_0101));
        // One bit per byte (bits 0, 8, 16, 24), gathered into bits 24..28 by one multiply.
        let bits = ((equal >> 7).wrapping_mul(0x0102_0408) >> 24) as u8;
        CastlingRights::from_bits_retain(bits & 15)
    }

    /// Puts back rights that were held before (the rook squares never change).
    #[inline]
    pub(crate) fn restore(&mut self, rights: CastlingRights) {
        self.rights = rights;
    }

    /// Keeps only the rights in `rights`.
    #[inline]
    pub fn retain(&mut self, rights: CastlingRights) {
        self.rights &= rights;
    }

    /// `true` if any held right castles with a rook off the corners, or with a king off its
    /// standard square, which standard chess cannot express: the position is Chess960.
    pub fn is_chess960(&self, kings: [Option<Square>; 2]) -> bool {
        Color::ALL.into_iter().any(|color| {
            let back = Rank::First.relative_to(color);
            let king_home = Square::from_coords(File::E, back);
            CastlingSide::ALL.into_iter().any(|side| match self.rook(color, side) {
                None => false,
                Some(rook) => {
                    let corner = if side == CastlingSide::KingSide { File::H } else { File::A };
                    rook != Square::from_coords(corner, back)
                        || kings[color as usize] != Some(king_home)
                }
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rights_follow_polyglot_order() {
        assert_eq!(CastlingRights::of(Color::White, CastlingSide::KingSide).bits(), 1);
        assert_eq!(CastlingRights::of(Color::White, CastlingSide::QueenSide).bits(), 2);
        assert_eq!(CastlingRights::of(Color::Black, CastlingSide::KingSide).bits(), 4);
        assert_eq!(CastlingRights::of(Color::Black, CastlingSide::QueenSide).bits(), 8);
        assert_eq!(CastlingRights::both(Color::Black).bits(), 12);
    }

    /// Chess960 rights with the rooks on b1, g1, c8 and f8, the kings on e1 and d8.
    fn computed_960() -> Castles {
        let mut castles = Castles::none();
        castles.add(Color::White, CastlingSide::KingSide, Square::E1, Square::G1);
        castles.add(Color::White, CastlingSide::QueenSide, Square::E1, Square::B1);
        castles.add(Color::Black, CastlingSide::KingSide, Square::D8, Square::F8);
        castles.add(Color::Black, CastlingSide::QueenSide, Square::D8, Square::C8);
        castles
    }

    #[test]
    fn discarding() {
        let mut c = Castles::standard();
        assert_eq!(c.rook_squares(), Bitboard::CORNERS);
        c.discard_rook(Square::A8);
        assert!(!c.has(Color::Black, CastlingSide::QueenSide));
        c.discard_color(Color::White);
        assert_eq!(c.rights(), CastlingRights::BLACK_KING_SIDE);
        assert!(!c.is_chess960([Some(Square::E1), Some(Square::E8)]));
        let mut frc = Castles::none();
        frc.add(Color::White, CastlingSide::QueenSide, Square::B1, Square::A1);
        assert!(frc.is_chess960([Some(Square::B1), None]));
        assert_eq!(CastlingSide::QueenSide.king_to(Color::Black), Square::C8);
        assert_eq!(CastlingSide::from_king_rook(Square::B1, Square::A1), CastlingSide::QueenSide);
        // King b1 to c1, rook a1 to d1: b1 and a1 themselves do not count.
        let c1_d1 = Bitboard::from_square(Square::C1) | Square::D1;
        // The rights a move from one square to another costs, against discard_rook.
        for castles in [frc, Castles::standard(), computed_960()] {
            for a in Square::ALL {
                for b in Square::ALL {
                    let mut slow = Castles { rights: CastlingRights::all(), ..castles };
                    slow.discard_rook(a);
                    slow.discard_rook(b);
                    let fast = CastlingRights::all() - castles.rook_rights_on(a, b);
                    assert_eq!(fast, slow.rights(), "{a} {b} {castles:?}");
                }
            }
        }
        assert_eq!(frc.path(Color::White, CastlingSide::QueenSide), c1_d1);
        // The standard paths, computed and built in.
        let mut computed = Castles::none();
        for color in Color::ALL {
            let back = Rank::First.relative_to(color);
            let king = Square::from_coords(File::E, back);
            computed.add(color, CastlingSide::KingSide, king, Square::from_coords(File::H, back));
            computed.add(color, CastlingSide::QueenSide, king, Square::from_coords(File::A, back));
        }
        assert_eq!(computed, Castles::standard());
        assert_eq!(rank_span(Square::H8, Square::A8), Bitboard::RANK_8);
    }
}
