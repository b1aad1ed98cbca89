//! [`Move16`]: origin, destination and a 4-bit flag nibble in 16 bits.

use core::fmt;

use bitflags::bitflags;
use chessbits_bitboard::{Piece, Role, Square};

use crate::Move32;

crate::packed_fields! {
    /// A move in 16 bits: destination, origin and a flag nibble saying what kind of move it is.
    ///
    /// ```text
    /// bits   mask    field
    /// 0-5    0x003f  destination square (0 = a1 .. 63 = h8)
    /// 6-11   0x0fc0  origin square
    /// 12-15  0xf000  flag nibble, see MoveKind:
    ///                0000 quiet              1000 promotion to knight
    ///                0001 double pawn push   1001 promotion to bishop
    ///                0010 king-side castle   1010 promotion to rook
    ///                0011 queen-side castle  1011 promotion to queen
    ///                0100 capture            1100-1111 capture-promotion to N, B, R, Q
    ///                0101 en passant capture (0110 and 0111 are unused)
    /// ```
    ///
    /// Bit 15 of the nibble means promotion and bit 14 capture ([`MoveFlags`]). Castling is
    /// encoded as the king moving to its rook's square, which serves Chess960 too. [`Move16::NONE`]
    /// and [`Move16::NULL`] have origin == destination, which no real move has.
    ///
    /// Worked example: `e7xd8=Q` is destination d8 (59), origin e7 (52), flags `1111`:
    /// `59 | 52 << 6 | 0b1111 << 12` = `0xfd3b`.
    ///
    /// ```
    /// use chessbits_bitboard::{Role, Square};
    /// use chessbits_move::{Move16, MoveKind};
    ///
    /// let m = Move16::new(Square::E7, Square::D8, MoveKind::CapturePromotion(Role::Queen));
    /// assert_eq!(m.bits(), 0xfd3b);
    /// assert_eq!(m.promotion(), Some(Role::Queen));
    /// assert!(m.is_capture());
    /// ```
    pub struct Move16(u16, debug = custom) {
        /// The raw destination square index (0..63).
        destination, with_destination, DESTINATION_MASK, DESTINATION_SHIFT: value(0, 6);
        /// The raw origin square index (0..63).
        origin, with_origin, ORIGIN_MASK, ORIGIN_SHIFT: value(6, 6);
        /// The raw flag nibble, 0..15 (see [`MoveKind`]; [`Move16::flags`] gives its bits as a
        /// set, [`Move16::kind`] its meaning).
        nibble, with_nibble, NIBBLE_MASK, NIBBLE_SHIFT: value(12, 4);
    }
}

bitflags! {
    /// The meaning of the individual bits of [`Move16`]'s flag nibble (shifted down to bits 0-3).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
    pub struct MoveFlags: u16 {
        /// Set for every promotion.
        const PROMOTION = 0b1000;
        /// Set for every capture, en passant included.
        const CAPTURE = 0b0100;
        /// The higher "special" bit: castling, or the promotion role's high bit. Its meaning
        /// depends on the other bits, so no code tests it alone; read [`Move16::kind`].
        #[deprecated(note = "its meaning depends on the other bits: match on `Move16::kind()`")]
        const SPECIAL_1 = 0b0010;
        /// The lower "special" bit: double push, queen-side castle, en passant, or the role's low
        /// bit. Its meaning depends on the other bits; read [`Move16::kind`].
        #[deprecated(note = "its meaning depends on the other bits: match on `Move16::kind()`")]
        const SPECIAL_0 = 0b0001;
    }
}

/// What kind of move a [`Move16`] is: the meaning of its flag nibble.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// `0000`: a move that neither captures nor is special.
    Quiet,
    /// `0001`: a pawn's two-square advance.
    DoublePush,
    /// `0010`: castling with the rook on the king's side (toward the h-file).
    KingCastle,
    /// `0011`: castling with the rook on the queen's side (toward the a-file).
    QueenCastle,
    /// `0100`: a capture.
    Capture,
    /// `0101`: an en passant capture.
    EnPassant,
    /// `10xx`: a promotion to knight, bishop, rook or queen (the role must be one of those).
    Promotion(Role),
    /// `11xx`: a capture that promotes.
    CapturePromotion(Role),
}

impl MoveKind {
    /// The flag nibble of this kind. Promotions to pawn or king (not legal) encode as queen.
    #[inline]
    pub const fn nibble(self) -> u16 {
        match self {
            MoveKind::Quiet => 0b0000,
            MoveKind::DoublePush => 0b0001,
            MoveKind::KingCastle => 0b0010,
            MoveKind::QueenCastle => 0b0011,
            MoveKind::Capture => 0b0100,
            MoveKind::EnPassant => 0b0101,
            MoveKind::Promotion(role) => 0b1000 | promotion_bits(role),
            MoveKind::CapturePromotion(role) => 0b1100 | promotion_bits(role),
        }
    }

    /// The kind a flag nibble stands for; `None` for the unused `0110` and `0111` (and values > 15).
    #[inline]
    pub const fn from_nibble(nibble: u16) -> Option<MoveKind> {
        Some(match nibble {
            0b0000 => MoveKind::Quiet,
            0b0001 => MoveKind::DoublePush,
            0b0010 => MoveKind::KingCastle,
            0b0011 => MoveKind::QueenCastle,
            0b0100 => MoveKind::Capture,
            0b0101 => MoveKind::EnPassant,
            0b1000..=0b1011 => MoveKind::Promotion(Role::PROMOTIONS[(nibble & 3) as usize]),
            0b1100..=0b1111 => MoveKind::CapturePromotion(Role::PROMOTIONS[(nibble & 3) as usize]),
            _ => return None,
        })
    }
}

impl MoveKind {
    /// The kebab-case name: `quiet`, `double-push`, `king-castle`, `queen-castle`, `capture`,
    /// `en-passant`, `promotion`, `capture-promotion` (the role is not part of it).
    pub const fn as_str(self) -> &'static str {
        match self {
            MoveKind::Quiet => "quiet",
            MoveKind::DoublePush => "double-push",
            MoveKind::KingCastle => "king-castle",
            MoveKind::QueenCastle => "queen-castle",
            MoveKind::Capture => "capture",
            MoveKind::EnPassant => "en-passant",
            MoveKind::Promotion(_) => "promotion",
            MoveKind::CapturePromotion(_) => "capture-promotion",
        }
    }
}

const fn promotion_bits(role: Role) -> u16 {
    match role {
        Role::Knight => 0,
        Role::Bishop => 1,
        Role::Rook => 2,
        _ => 3,
    }
}

impl Move16 {
    /// "No move": a1 to a1, all bits zero. Useful as an empty slot in tables.
    pub const NONE: Move16 = Move16::from_bits(0);
    /// The null move (passing the turn), b1 to b1 (`0x0041`). Prints as `0000` in UCI.
    pub const NULL: Move16 = Move16::from_bits(1 << 6 | 1);

    /// A move from `from` to `to` of the given kind.
    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move16 {
        Move16::from_bits(to as u16 | (from as u16) << 6 | kind.nibble() << 12)
    }

    /// The origin square.
    #[inline]
    pub const fn from(self) -> Square {
        Square::new(self.origin() as u32)
    }

    /// The destination square (the rook's square for castling).
    #[inline]
    pub const fn to(self) -> Square {
        Square::new(self.destination() as u32)
    }

    /// The raw flag nibble, renamed [`Move16::nibble`] (beside [`Move16::flags`], which gives
    /// its bits as a set, `flag` read like one of them).
    #[deprecated(note = "renamed `nibble`; `flags()` gives the same bits as a `MoveFlags` set")]
    #[inline]
    pub const fn flag(self) -> u16 {
        self.nibble()
    }

    /// Renamed [`Move16::with_nibble`].
    #[deprecated(note = "renamed `with_nibble`")]
    #[inline]
    #[must_use]
    pub const fn with_flag(self, value: u16) -> Move16 {
        self.with_nibble(value)
    }

    /// Renamed [`Move16::NIBBLE_MASK`].
    #[deprecated(note = "renamed `NIBBLE_MASK`")]
    pub const FLAG_MASK: u16 = Move16::NIBBLE_MASK;
    /// Renamed [`Move16::NIBBLE_SHIFT`].
    #[deprecated(note = "renamed `NIBBLE_SHIFT`")]
    pub const FLAG_SHIFT: u32 = Move16::NIBBLE_SHIFT;

    /// The flag nibble's bits as a set ([`Move16::nibble`] is the same value as an integer).
    #[inline]
    pub const fn flags(self) -> MoveFlags {
        MoveFlags::from_bits_truncate(self.nibble())
    }

    /// The kind of move; `None` for the unused nibbles `0110` and `0111`.
    #[inline]
    pub const fn kind(self) -> Option<MoveKind> {
        MoveKind::from_nibble(self.nibble())
    }

    /// `true` for [`Move16::NONE`], [`Move16::NULL`] and anything else with origin == destination.
    #[inline]
    pub const fn is_null(self) -> bool {
        self.origin() == self.destination()
    }

    /// `true` if the move captures (en passant included).
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.nibble() & MoveFlags::CAPTURE.bits() != 0
    }

    /// `true` for promotions.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.nibble() & MoveFlags::PROMOTION.bits() != 0
    }

    /// The role the pawn promotes to.
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        if self.is_promotion() {
            Some(Role::PROMOTIONS[(self.nibble() & 3) as usize])
        } else {
            None
        }
    }

    /// `true` for castling (either side).
    #[inline]
    pub const fn is_castling(self) -> bool {
        self.nibble() == 0b0010 || self.nibble() == 0b0011
    }

    /// `true` for an en passant capture.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.nibble() == 0b0101
    }

    /// `true` for a pawn's double push.
    #[inline]
    pub const fn is_double_push(self) -> bool {
        self.nibble() == 0b0001
    }

    /// Neither a capture nor a promotion.
    #[inline]
    pub const fn is_quiet(self) -> bool {
        !self.is_capture() && !self.is_promotion()
    }

    /// The [`Move32`] form of this move, given the piece that moves and the role it captures (the
    /// captured role is ignored for en passant, which always takes a pawn, and for non-captures).
    ///
    /// For every move of a position, `m32.to_move16().to_move32(piece, captured) == m32`.
    #[inline]
    pub const fn to_move32(self, moved: Piece, captured: Option<Role>) -> Move32 {
        let mut m = Move32::new(self.from(), self.to(), moved);
        if let Some(role) = self.promotion() {
            m = m.with_promoted(Some(Piece::new(moved.color, role)));
        }
        match self.nibble() {
            0b0001 => m.with_double_push(true),
            0b0010 | 0b0011 => m.with_castling(true),
            0b0101 => m.with_en_passant(true).with_captured(Some(Role::Pawn)),
            _ if self.is_capture() => match captured {
                Some(role) => m.with_captured(Some(role)),
                None => m.with_capture(true),
            },
            _ => m,
        }
    }
}

/// Reads as the move: `Move16 { e7d8=Q capture-promotion }`, origin and destination, the
/// promotion role, then [`MoveKind::as_str`] (`unused-0110` for a nibble no kind has).
/// [`Move16::NONE`] and [`Move16::NULL`] print as `Move16 { none }` and `Move16 { null }`.
impl fmt::Debug for Move16 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Move16::NONE || *self == Move16::NULL {
            let name = if *self == Move16::NONE { "none" } else { "null" };
            return write!(f, "Move16 {{ {name} }}");
        }
        write!(f, "Move16 {{ {}{}", self.from(), self.to())?;
        if let Some(role) = self.promotion() {
            write!(f, "={}", role.upper_char())?;
        }
        match self.kind() {
            Some(kind) => write!(f, " {} }}", kind.as_str()),
            None => write!(f, " unused-{:04b} }}", self.nibble()),
        }
    }
}

impl From<Move32> for Move16 {
    /// See [`Move32::to_move16`].
    #[inline]
    fn from(m: Move32) -> Move16 {
        m.to_move16()
    }
}

impl Move32 {
    /// The [`Move16`] form of this move. Lossless for every move [`Move32::try_from_bits`]
    /// accepts; the pieces are recovered with [`Move16::to_move32`].
    ///
    /// Values no legal move has convert by fixed rules rather than failing: castling wins over
    /// the other flags, then promotion, en passant, double push, capture; a promoted piece that
    /// no promotion makes (a pawn or a king) becomes a queen promotion, because the flag nibble
    /// holds only knight, bishop, rook and queen. Check with `try_from_bits` first where raw
    /// bits come from outside.
    #[inline]
    pub const fn to_move16(self) -> Move16 {
        let m = self;
        let kind = if m.castling() {
            if m.to().file() as u8 > m.from().file() as u8 {
                MoveKind::KingCastle
            } else {
                MoveKind::QueenCastle
            }
        } else if let Some(p) = m.promoted() {
            if m.capture() {
                MoveKind::CapturePromotion(p.role)
            } else {
                MoveKind::Promotion(p.role)
            }
        } else if m.en_passant() {
            MoveKind::EnPassant
        } else if m.double_push() {
            MoveKind::DoublePush
        } else if m.capture() {
            MoveKind::Capture
        } else {
            MoveKind::Quiet
        };
        Move16::new(m.from(), m.to(), kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits_bitboard::Color;

    const KINDS: [MoveKind; 14] = [
        MoveKind::Quiet,
        MoveKind::DoublePush,
        MoveKind::KingCastle,
        MoveKind::QueenCastle,
        MoveKind::Capture,
        MoveKind::EnPassant,
        MoveKind::Promotion(Role::Knight),
        MoveKind::Promotion(Role::Bishop),
        MoveKind::Promotion(Role::Rook),
        MoveKind::Promotion(Role::Queen),
        MoveKind::CapturePromotion(Role::Knight),
        MoveKind::CapturePromotion(Role::Bishop),
        MoveKind::CapturePromotion(Role::Rook),
        MoveKind::CapturePromotion(Role::Queen),
    ];

    #[test]
    fn flag_nibbles_are_pinned() {
        let nibbles: Vec<u16> = KINDS.iter().map(|k| k.nibble()).collect();
        assert_eq!(nibbles, [0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15]);
        assert_eq!(
            (Move16::DESTINATION_MASK, Move16::ORIGIN_MASK, Move16::NIBBLE_MASK),
            (0x003f, 0x0fc0, 0xf000)
        );
        assert_eq!(MoveKind::from_nibble(6), None);
        assert_eq!(MoveKind::from_nibble(7), None);
        assert_eq!(MoveKind::from_nibble(16), None);
        assert_eq!((Move16::NONE.bits(), Move16::NULL.bits()), (0, 0x41));
        assert!(Move16::NONE.is_null() && Move16::NULL.is_null());
    }

    #[test]
    fn every_from_to_flag_combination_round_trips() {
        let mut seen = 0;
        for from in Square::ALL {
            for to in Square::ALL {
                for kind in KINDS {
                    let m = Move16::new(from, to, kind);
                    assert_eq!((m.from(), m.to(), m.kind()), (from, to, Some(kind)));
                    assert_eq!(Move16::from_bits(m.bits()), m);
                    assert_eq!(m.is_null(), from == to);
                    let k = kind;
                    assert_eq!(
                        m.is_capture(),
                        matches!(
                            k,
                            MoveKind::Capture | MoveKind::EnPassant | MoveKind::CapturePromotion(_)
                        )
                    );
                    assert_eq!(
                        m.is_castling(),
                        matches!(k, MoveKind::KingCastle | MoveKind::QueenCastle)
                    );
                    assert_eq!(m.is_en_passant(), k == MoveKind::EnPassant);
                    assert_eq!(m.is_double_push(), k == MoveKind::DoublePush);
                    assert_eq!(
                        m.promotion(),
                        match k {
                            MoveKind::Promotion(r) | MoveKind::CapturePromotion(r) => Some(r),
                            _ => None,
                        }
                    );
                    seen += 1;
                }
            }
        }
        assert_eq!(seen, 64 * 64 * 14);
        // The raw space: every 16-bit value decodes to its own fields.
        for bits in 0..=u16::MAX {
            let m = Move16::from_bits(bits);
            assert_eq!(m.bits(), m.destination() | m.origin() << 6 | m.nibble() << 12);
            if let Some(kind) = m.kind() {
                assert_eq!(Move16::new(m.from(), m.to(), kind), m);
            }
        }
    }

    #[test]
    fn debug_reads_as_a_move() {
        let check = |m: Move16, expected: &str| assert_eq!(format!("{m:?}"), expected);
        check(
            Move16::new(Square::E7, Square::D8, MoveKind::CapturePromotion(Role::Queen)),
            "Move16 { e7d8=Q capture-promotion }",
        );
        check(
            Move16::new(Square::B2, Square::B1, MoveKind::Promotion(Role::Knight)),
            "Move16 { b2b1=N promotion }",
        );
        check(
            Move16::new(Square::E1, Square::H1, MoveKind::KingCastle),
            "Move16 { e1h1 king-castle }",
        );
        check(
            Move16::new(Square::E5, Square::D6, MoveKind::EnPassant),
            "Move16 { e5d6 en-passant }",
        );
        check(
            Move16::new(Square::E2, Square::E4, MoveKind::DoublePush),
            "Move16 { e2e4 double-push }",
        );
        check(Move16::from_bits(0x6000 | 28 << 6 | 36), "Move16 { e4e5 unused-0110 }");
        check(Move16::NONE, "Move16 { none }");
        check(Move16::NULL, "Move16 { null }");
        // Every kind's name is distinct, so the text tells every kind apart.
        let mut names: Vec<&str> = KINDS.iter().map(|k| k.as_str()).collect();
        names.dedup();
        assert_eq!(names.len(), 8);
    }

    #[test]
    fn move32_conversions_are_lossless() {
        let wp = Piece::new(Color::White, Role::Pawn);
        let bp = Piece::new(Color::Black, Role::Pawn);
        let wk = Piece::new(Color::White, Role::King);
        let bn = Piece::new(Color::Black, Role::Knight);
        let cases = [
            Move32::new(Square::E2, Square::E4, wp).with_double_push(true),
            Move32::new(Square::E2, Square::E3, wp),
            Move32::new(Square::E5, Square::D6, wp)
                .with_en_passant(true)
                .with_captured(Some(Role::Pawn)),
            Move32::new(Square::E1, Square::H1, wk).with_castling(true),
            Move32::new(Square::E1, Square::A1, wk).with_castling(true),
            Move32::new(Square::B1, Square::A1, wk).with_castling(true),
            Move32::new(Square::G8, Square::F6, bn),
            Move32::new(Square::G8, Square::E7, bn).with_captured(Some(Role::Queen)),
            Move32::new(Square::B2, Square::A1, bp)
                .with_promoted(Some(Piece::new(Color::Black, Role::Knight)))
                .with_captured(Some(Role::Rook)),
            Move32::new(Square::B7, Square::B8, wp)
                .with_promoted(Some(Piece::new(Color::White, Role::Queen))),
        ];
        for m32 in cases {
            let m16 = m32.to_move16();
            assert_eq!((m16.from(), m16.to()), (m32.from(), m32.to()));
            assert_eq!(m16.to_move32(m32.piece().unwrap(), m32.captured()), m32, "{m16:?}");
        }
        assert_eq!(cases[3].to_move16().kind(), Some(MoveKind::KingCastle));
        assert_eq!(cases[4].to_move16().kind(), Some(MoveKind::QueenCastle));
        assert_eq!(cases[5].to_move16().kind(), Some(MoveKind::QueenCastle));
    }
}
