//! [`Move32`]: the 24-bit move layout of bitboard engines, with the captured role on top.

use bitflags::bitflags;
use chessbits_bitboard::{Piece, Role, Square};

crate::packed_fields! {
    /// A move packed into 32 bits, in the 24-bit layout that bitboard engines share, plus the
    /// captured role in the spare bits above it so that the move alone can be unmade.
    ///
    /// ```text
    /// bits   mask        field
    /// 0-5    0x00003f    source square (0 = a1 .. 63 = h8)
    /// 6-11   0x000fc0    target square
    /// 12-15  0x00f000    moving piece code: 0-5 white P N B R Q K, 6-11 black p n b r q k
    /// 16-19  0x0f0000    promoted piece code, 0 = no promotion
    /// 20     0x100000    capture flag
    /// 21     0x200000    double pawn push flag
    /// 22     0x400000    en passant flag
    /// 23     0x800000    castling flag
    /// 24-26  0x7000000   captured role + 1 (0 = nothing captured; 1 pawn .. 5 queen)
    /// 27-31              zero
    /// ```
    ///
    /// Castling is encoded as the king moving to the square of the rook it castles with (`e1h1`
    /// for white's short castling in standard chess), so that Chess960 castling is unambiguous and
    /// the conversion to [`Move16`](crate::Move16) never needs a position.
    ///
    /// Worked example: white's `e2e4` is source 12, target 28, piece 0 (white pawn), double
    /// push: `12 | 28 << 6 | 0 << 12 | 1 << 21` = `0x20070c`.
    ///
    /// ```
    /// use chessbits_bitboard::{Color, Piece, Role, Square};
    /// use chessbits_move::Move32;
    ///
    /// let m = Move32::new(Square::E2, Square::E4, Piece::new(Color::White, Role::Pawn))
    ///     .with_double_push(true);
    /// assert_eq!(m.bits(), 0x20070c);
    /// assert_eq!((m.from(), m.to()), (Square::E2, Square::E4));
    /// ```
    pub struct Move32(u32) {
        /// The raw source square index (0..63).
        source, with_source, SOURCE_MASK, SOURCE_SHIFT: value(0, 6);
        /// The raw target square index (0..63).
        target, with_target, TARGET_MASK, TARGET_SHIFT: value(6, 6);
        /// The raw code of the moving piece (0-11; see [`Piece::code`]).
        piece_code, with_piece_code, PIECE_MASK, PIECE_SHIFT: value(12, 4);
        /// The raw code of the promoted piece, 0 when the move is not a promotion.
        promoted_code, with_promoted_code, PROMOTED_MASK, PROMOTED_SHIFT: value(16, 4);
        /// `true` if the move captures (en passant included).
        capture, with_capture, CAPTURE_MASK, CAPTURE_SHIFT: flag(20);
        /// `true` for a pawn's two-square advance.
        double_push, with_double_push, DOUBLE_PUSH_MASK, DOUBLE_PUSH_SHIFT: flag(21);
        /// `true` for an en passant capture.
        en_passant, with_en_passant, EN_PASSANT_MASK, EN_PASSANT_SHIFT: flag(22);
        /// `true` for castling (encoded king to rook).
        castling, with_castling, CASTLING_MASK, CASTLING_SHIFT: flag(23);
        /// The raw captured role plus one; 0 when nothing is captured.
        captured_code, with_captured_code, CAPTURED_MASK, CAPTURED_SHIFT: value(24, 3);
    }
}

bitflags! {
    /// The four flag bits of [`Move32`], in place (bits 20-23).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
    pub struct Move32Flags: u32 {
        /// The move captures.
        const CAPTURE = 0x10_0000;
        /// A pawn's two-square advance.
        const DOUBLE_PUSH = 0x20_0000;
        /// An en passant capture.
        const EN_PASSANT = 0x40_0000;
        /// Castling.
        const CASTLING = 0x80_0000;
    }
}

impl Move32 {
    /// A move of `piece` from `from` to `to`, with no flags.
    #[inline]
    pub const fn new(from: Square, to: Square, piece: Piece) -> Move32 {
        Move32::from_bits(from as u32 | (to as u32) << 6 | (piece.code() as u32) << 12)
    }

    /// The square the piece leaves.
    #[inline]
    pub const fn from(self) -> Square {
        Square::new(self.source())
    }

    /// The square the piece goes to (the rook's square for castling).
    #[inline]
    pub const fn to(self) -> Square {
        Square::new(self.target())
    }

    /// The moving piece, or `None` if the piece field holds 12..15.
    #[inline]
    pub const fn piece(self) -> Option<Piece> {
        Piece::from_code(self.piece_code() as u8)
    }

    /// The piece the pawn becomes, if the move is a promotion.
    #[inline]
    pub const fn promoted(self) -> Option<Piece> {
        match self.promoted_code() {
            0 => None,
            code => Piece::from_code(code as u8),
        }
    }

    /// A copy that promotes to `piece` (`None`: no promotion).
    #[inline]
    #[must_use]
    pub const fn with_promoted(self, piece: Option<Piece>) -> Move32 {
        match piece {
            Some(p) => self.with_promoted_code(p.code() as u32),
            None => self.with_promoted_code(0),
        }
    }

    /// The role captured by this move, if recorded.
    #[inline]
    pub const fn captured(self) -> Option<Role> {
        match self.captured_code() {
            0 => None,
            code => Role::from_index(code as u8 - 1),
        }
    }

    /// A copy recording `role` as captured (`None`: nothing) and setting the capture flag to match.
    #[inline]
    #[must_use]
    pub const fn with_captured(self, role: Option<Role>) -> Move32 {
        match role {
            Some(r) => self.with_captured_code(r as u32 + 1).with_capture(true),
            None => self.with_captured_code(0).with_capture(false),
        }
    }

    /// The four flag bits as a set.
    #[inline]
    pub const fn flags(self) -> Move32Flags {
        Move32Flags::from_bits_truncate(self.bits())
    }

    /// `true` if the move is a promotion.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.promoted_code() != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits_bitboard::Color;

    #[test]
    fn layout_constants_are_pinned() {
        assert_eq!(Move32::SOURCE_MASK, 0x3f);
        assert_eq!(Move32::TARGET_MASK, 0xfc0);
        assert_eq!(Move32::PIECE_MASK, 0xf000);
        assert_eq!(Move32::PROMOTED_MASK, 0xf0000);
        assert_eq!(Move32::CAPTURE_MASK, 0x100000);
        assert_eq!(Move32::DOUBLE_PUSH_MASK, 0x200000);
        assert_eq!(Move32::EN_PASSANT_MASK, 0x400000);
        assert_eq!(Move32::CASTLING_MASK, 0x800000);
        assert_eq!(Move32::CAPTURED_MASK, 0x700_0000);
        assert_eq!(
            (
                Move32::SOURCE_SHIFT,
                Move32::TARGET_SHIFT,
                Move32::PIECE_SHIFT,
                Move32::PROMOTED_SHIFT
            ),
            (0, 6, 12, 16)
        );
        assert_eq!(Move32Flags::all().bits(), 0xf00000);
    }

    #[test]
    fn every_field_value_round_trips() {
        // Start from a pattern with every bit set, so a setter that clobbers a neighbour shows.
        let full = Move32::from_bits(0x07ff_ffff);
        for v in 0..64 {
            assert_eq!(full.with_source(v).source(), v);
            assert_eq!(full.with_source(v).bits() | 0x3f, 0x07ff_ffff);
            assert_eq!(full.with_target(v).target(), v);
            assert_eq!(full.with_target(v).bits() | 0xfc0, 0x07ff_ffff);
        }
        for v in 0..16 {
            assert_eq!(full.with_piece_code(v).piece_code(), v);
            assert_eq!(full.with_promoted_code(v).promoted_code(), v);
            assert_eq!(full.with_piece_code(v).bits() | 0xf000, 0x07ff_ffff);
        }
        for v in 0..8 {
            assert_eq!(full.with_captured_code(v).captured_code(), v);
        }
        for piece in Piece::ALL {
            let m = Move32::new(Square::A1, Square::H8, piece);
            assert_eq!(m.piece(), Some(piece));
            assert_eq!(
                m.with_promoted(Some(piece)).promoted(),
                Some(piece).filter(|p| p.code() != 0)
            );
        }
        for role in Role::ALL {
            assert_eq!(Move32::default().with_captured(Some(role)).captured(), Some(role));
        }
        let m = Move32::new(Square::E7, Square::E8, Piece::new(Color::White, Role::Pawn));
        assert_eq!(m.with_captured(None).flags(), Move32Flags::empty());
        for (set, flag) in [
            (Move32::with_capture as fn(Move32, bool) -> Move32, Move32Flags::CAPTURE),
            (Move32::with_double_push, Move32Flags::DOUBLE_PUSH),
            (Move32::with_en_passant, Move32Flags::EN_PASSANT),
            (Move32::with_castling, Move32Flags::CASTLING),
        ] {
            assert_eq!(set(m, true).flags(), flag);
            assert_eq!(set(set(m, true), false), m);
        }
    }

    #[test]
    fn debug_prints_every_field() {
        let m = Move32::new(Square::E2, Square::E4, Piece::new(Color::White, Role::Pawn))
            .with_double_push(true);
        insta::assert_snapshot!(format!("{m:?}"), @"Move32 { source: 12, target: 28, piece_code: 0, promoted_code: 0, capture: false, double_push: true, en_passant: false, castling: false, captured_code: 0 }");
    }
}
