//! [`Move32`]: the 24-bit move layout of bitboard engines, with the captured role on top.

use core::fmt;

use bitflags::bitflags;
use chessbits_bitboard::{reference, Bitboard, Color, Piece, Rank, Role, Square};

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
    /// [`Move32::bits`] is this whole 27-bit value. The 24-bit layout alone, for exchange with
    /// engines that use it, is [`Move32::to_bits24`] and [`Move32::from_bits24`]. Changing the
    /// layout is a breaking change.
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
    pub struct Move32(u32, debug = custom) {
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

    /// The piece the pawn becomes, if the move is a promotion: the promoted field read as a
    /// piece code, `None` for 0 (no promotion) and for 12..15 (no piece). Raw bits may name a
    /// piece no promotion can make (a pawn or a king); [`Move32::try_from_bits`] rejects those.
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

    /// The role captured by this move, if recorded: codes 1..5 are pawn..queen. Code 0 is
    /// nothing captured, and 6 (a king) and 7 are values no move has: both read as `None` (and
    /// [`Move32::try_from_bits`] rejects them).
    #[inline]
    pub const fn captured(self) -> Option<Role> {
        match self.captured_code() {
            code @ 1..=5 => Role::from_index(code as u8 - 1),
            _ => None,
        }
    }

    /// A copy recording `role` as captured (`None`: nothing) and setting the capture flag to match.
    /// A king is no capturable role: it is written as code 6, which [`Move32::captured`] reads
    /// as `None`.
    #[inline]
    #[must_use]
    pub const fn with_captured(self, role: Option<Role>) -> Move32 {
        match role {
            Some(r) => self.with_captured_code(r as u32 + 1).with_capture(true),
            None => self.with_captured_code(0).with_capture(false),
        }
    }

    /// The 24-bit engine layout: [`Move32::bits`] without the captured role (bits 24-26), so
    /// bits 0-23 exactly as the table above gives them and bits 24-31 zero.
    ///
    /// ```
    /// use chessbits_move::{Color, Move32, Piece, Role, Square};
    ///
    /// // Nxe7 taking a queen: the captured role is in bit 24 and up, which the 24-bit form drops.
    /// let m = Move32::new(Square::G8, Square::E7, Piece::new(Color::Black, Role::Knight))
    ///     .with_captured(Some(Role::Queen));
    /// assert_eq!(m.bits(), 0x0510_7d3e);
    /// assert_eq!(m.to_bits24(), 0x10_7d3e);
    /// assert_eq!(Move32::from_bits24(m.to_bits24()), Some(m.with_captured_code(0)));
    /// assert_eq!(Move32::from_bits24(0x100_0000), None);
    /// ```
    #[inline]
    pub const fn to_bits24(self) -> u32 {
        self.bits() & 0xff_ffff
    }

    /// Reads the 24-bit engine layout (see [`Move32::to_bits24`]): `None` if any of bits 24-31
    /// is set, which the layout does not have. The captured role is then unknown (code 0) even
    /// when the capture flag is set (a position knows it: `chessbits-state`'s
    /// `Position::move32`). Like [`Move32::from_bits`], it takes every field as it is; check
    /// with [`Move32::try_from_bits`] where the bits come from outside.
    #[inline]
    pub const fn from_bits24(bits: u32) -> Option<Move32> {
        if bits >> 24 == 0 {
            Some(Move32::from_bits(bits))
        } else {
            None
        }
    }

    /// The four flag bits as a set.
    #[inline]
    pub const fn flags(self) -> Move32Flags {
        Move32Flags::from_bits_truncate(self.bits())
    }

    /// The kind of move, as [`Move16::kind`](crate::Move16::kind) names it: which side a
    /// castling move castles to, capture, promotion role, en passant, double push. Built from
    /// the flags and squares, with the rules of [`Move32::to_move16`] for raw values no move has.
    #[inline]
    pub const fn kind(self) -> Option<crate::MoveKind> {
        self.to_move16().kind()
    }

    /// `true` if the move is a promotion: exactly when [`Move32::promoted`] is `Some`.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.promoted().is_some()
    }

    /// Reads raw bits, rejecting every value that no legal move of any position has: bits
    /// 27-31 set, a piece code 12..15, source equal to target, a target the piece cannot reach
    /// on an empty board, a promotion that is not a pawn reaching its last rank and becoming a
    /// knight, bishop, rook or queen of its own color (or a pawn reaching it without one), a
    /// captured role that is a king (code 6) or 7, a captured role without the capture flag, and
    /// flags that contradict each other or the piece (castling by a non-king or with a capture,
    /// a double push or en passant that is not the pawn move of that name, two special flags at
    /// once). [`Move32::from_bits`] takes any value as it is.
    ///
    /// # Errors
    /// [`InvalidMove32`] naming the first rule broken.
    ///
    /// ```
    /// use chessbits_move::{InvalidMove32, Move32};
    ///
    /// assert!(Move32::try_from_bits(0x20070c).is_ok()); // e2e4, white pawn, double push
    /// assert_eq!(Move32::try_from_bits(u32::MAX), Err(InvalidMove32::ReservedBits));
    /// ```
    pub const fn try_from_bits(bits: u32) -> Result<Move32, InvalidMove32> {
        let m = Move32::from_bits(bits);
        if bits >> 27 != 0 {
            return Err(InvalidMove32::ReservedBits);
        }
        let Some(piece) = m.piece() else { return Err(InvalidMove32::PieceCode) };
        let (from, to) = (m.from(), m.to());
        if from as u8 == to as u8 {
            return Err(InvalidMove32::SameSquare);
        }
        let specials = m.double_push() as u8 + m.en_passant() as u8 + m.castling() as u8;
        if specials > 1 {
            return Err(InvalidMove32::Flags);
        }
        if m.captured_code() > 5 || (m.captured_code() != 0 && !m.capture()) {
            return Err(InvalidMove32::CapturedRole);
        }
        let color = piece.color;
        let last = Rank::Eighth.relative_to(color) as u8;
        let reaches_last = matches!(piece.role, Role::Pawn) && to.rank() as u8 == last;
        match m.promoted() {
            None if m.promoted_code() != 0 => return Err(InvalidMove32::Promotion),
            None if reaches_last => return Err(InvalidMove32::Promotion),
            Some(p) if !reaches_last || p.color as u8 != color as u8 => {
                return Err(InvalidMove32::Promotion)
            }
            Some(Piece { role: Role::Pawn | Role::King, .. }) => {
                return Err(InvalidMove32::Promotion)
            }
            _ => {}
        }
        if m.castling() {
            let back = Rank::First.relative_to(color) as u8;
            let ok = matches!(piece.role, Role::King)
                && !m.capture()
                && from.rank() as u8 == back
                && to.rank() as u8 == back;
            return if ok { Ok(m) } else { Err(InvalidMove32::Flags) };
        }
        let reach = match piece.role {
            Role::Pawn => return pawn_move(m, color),
            Role::Knight => reference::knight(from),
            Role::Bishop => reference::bishop(from, Bitboard::EMPTY),
            Role::Rook => reference::rook(from, Bitboard::EMPTY),
            Role::Queen => reference::queen(from, Bitboard::EMPTY),
            Role::King => reference::king(from),
        };
        if m.double_push() || m.en_passant() {
            Err(InvalidMove32::Flags)
        } else if reach.contains(to) {
            Ok(m)
        } else {
            Err(InvalidMove32::Geometry)
        }
    }
}

/// Reads as the move: the moving piece's FEN letter, origin and destination, `=` and the
/// promoted piece, the flags by name, and `takes` with the captured role:
/// `Move32 { P e7d8=Q capture takes R }`. A code that names no piece prints as `?`, and bits
/// 27-31 as `reserved 0x..`.
impl fmt::Debug for Move32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = |piece: Option<Piece>| piece.map_or('?', Piece::char);
        write!(f, "Move32 {{ {} {}{}", letter(self.piece()), self.from(), self.to())?;
        if self.promoted_code() != 0 {
            write!(f, "={}", letter(self.promoted()))?;
        }
        for (set, name) in [
            (self.capture(), "capture"),
            (self.double_push(), "double-push"),
            (self.en_passant(), "en-passant"),
            (self.castling(), "castling"),
        ] {
            if set {
                write!(f, " {name}")?;
            }
        }
        match (self.captured(), self.captured_code()) {
            (Some(role), _) => write!(f, " takes {}", role.upper_char())?,
            (None, 0) => {}
            (None, code) => write!(f, " takes ?{code}")?,
        }
        if self.bits() >> 27 != 0 {
            write!(f, " reserved {:#x}", self.bits() >> 27 << 27)?;
        }
        f.write_str(" }")
    }
}

/// The pawn rules of [`Move32::try_from_bits`]: a push (one or two squares, the two-square one
/// from the start rank and flagged as a double push) without capture, or a diagonal step with
/// capture (flagged en passant only from the fifth rank, with the captured role a pawn).
const fn pawn_move(m: Move32, color: Color) -> Result<Move32, InvalidMove32> {
    let (from, to) = (m.from(), m.to());
    let forward: i32 = if matches!(color, Color::White) { 1 } else { -1 };
    let (df, dr) = (to.file() as i32 - from.file() as i32, to.rank() as i32 - from.rank() as i32);
    let start = Rank::Second.relative_to(color) as u8;
    let fifth = Rank::Fifth.relative_to(color) as u8;
    if from.rank() as u8 == Rank::First.relative_to(color) as u8 {
        // No pawn ever stands on its own back rank.
        return Err(InvalidMove32::Geometry);
    }
    let ok = if df == 0 && dr == forward {
        !m.capture() && !m.double_push() && !m.en_passant()
    } else if df == 0 && dr == 2 * forward {
        !m.capture() && m.double_push() && from.rank() as u8 == start
    } else if (df == 1 || df == -1) && dr == forward {
        m.capture()
            && !m.double_push()
            && (!m.en_passant() || (from.rank() as u8 == fifth && m.captured_code() == 1))
    } else {
        return Err(InvalidMove32::Geometry);
    };
    if ok {
        Ok(m)
    } else {
        Err(InvalidMove32::Flags)
    }
}

/// Why raw bits are no [`Move32`] of any legal move (see [`Move32::try_from_bits`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum InvalidMove32 {
    /// Bits 27-31 are not zero.
    ReservedBits,
    /// The piece field holds 12..15, which names no piece.
    PieceCode,
    /// Source and target are the same square.
    SameSquare,
    /// The promoted field is wrong for the move: set on a move that is not a pawn reaching its
    /// last rank, naming a pawn, a king, the other color or no piece, or clear on a pawn move to
    /// the last rank.
    Promotion,
    /// The captured field names a king or holds 7, or is set without the capture flag.
    CapturedRole,
    /// The flags contradict each other or the move (for example castling by a non-king, a
    /// double push that is not a pawn's two-square advance, a pawn capture without the flag).
    Flags,
    /// The piece cannot go from source to target on an empty board.
    Geometry,
}

impl fmt::Display for InvalidMove32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            InvalidMove32::ReservedBits => "bits 27-31 are not zero",
            InvalidMove32::PieceCode => "the piece code names no piece",
            InvalidMove32::SameSquare => "source and target are the same square",
            InvalidMove32::Promotion => "the promoted piece does not fit the move",
            InvalidMove32::CapturedRole => {
                "the captured role is a king, out of range, or set without the capture flag"
            }
            InvalidMove32::Flags => "the flags contradict each other or the move",
            InvalidMove32::Geometry => "the piece cannot reach the target square",
        })
    }
}

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl std::error::Error for InvalidMove32 {}

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
            let expected = Some(role).filter(|&r| r != Role::King);
            assert_eq!(Move32::default().with_captured(Some(role)).captured(), expected);
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
    fn raw_values_no_move_has_read_as_none_and_are_rejected() {
        // The new user's three findings.
        let all = Move32::from_bits(u32::MAX);
        assert_eq!(all.promoted(), None);
        assert!(!all.is_promotion(), "is_promotion agrees with promoted()");
        let king_taken = Move32::default().with_captured_code(6).with_capture(true);
        assert_eq!(king_taken.captured(), None, "code 6 is no capturable role");
        assert_eq!(Move32::default().with_captured_code(7).captured(), None);
        let wp = Piece::new(Color::White, Role::Pawn);
        let pawn_to_pawn = Move32::new(Square::E7, Square::E8, wp)
            .with_promoted(Some(Piece::new(Color::Black, Role::Pawn)));
        assert!(pawn_to_pawn.is_promotion());
        assert_eq!(pawn_to_pawn.to_move16().promotion(), Some(Role::Queen), "documented rule");

        let check = |m: Move32, expected: Result<(), InvalidMove32>| {
            assert_eq!(Move32::try_from_bits(m.bits()).map(|_| ()), expected, "{m:?}");
        };
        check(all, Err(InvalidMove32::ReservedBits));
        check(pawn_to_pawn, Err(InvalidMove32::Promotion));
        let e2e4 = Move32::new(Square::E2, Square::E4, wp).with_double_push(true);
        check(e2e4, Ok(()));
        check(Move32::from_bits(0xc000), Err(InvalidMove32::PieceCode));
        check(Move32::new(Square::E2, Square::E2, wp), Err(InvalidMove32::SameSquare));
        check(e2e4.with_double_push(false), Err(InvalidMove32::Flags));
        check(e2e4.with_en_passant(true), Err(InvalidMove32::Flags));
        let bn = Piece::new(Color::Black, Role::Knight);
        let nf6 = Move32::new(Square::G8, Square::F6, bn);
        check(nf6, Ok(()));
        check(Move32::new(Square::G8, Square::F5, bn), Err(InvalidMove32::Geometry));
        check(nf6.with_captured(Some(Role::Queen)), Ok(()));
        check(nf6.with_captured_code(6).with_capture(true), Err(InvalidMove32::CapturedRole));
        check(nf6.with_captured_code(2), Err(InvalidMove32::CapturedRole));
        check(nf6.with_double_push(true), Err(InvalidMove32::Flags));
        let wk = Piece::new(Color::White, Role::King);
        check(Move32::new(Square::E1, Square::H1, wk).with_castling(true), Ok(()));
        check(Move32::new(Square::B1, Square::A1, wk).with_castling(true), Ok(()));
        check(
            Move32::new(Square::E2, Square::H2, wk).with_castling(true),
            Err(InvalidMove32::Flags),
        );
        check(
            Move32::new(Square::G1, Square::F3, bn).with_castling(true),
            Err(InvalidMove32::Flags),
        );
        let b7 = Move32::new(Square::B7, Square::B8, wp);
        check(b7, Err(InvalidMove32::Promotion));
        check(b7.with_promoted(Some(Piece::new(Color::White, Role::Knight))), Ok(()));
        check(
            b7.with_promoted(Some(Piece::new(Color::White, Role::King))),
            Err(InvalidMove32::Promotion),
        );
        check(
            b7.with_promoted(Some(Piece::new(Color::Black, Role::Queen))),
            Err(InvalidMove32::Promotion),
        );
        check(
            e2e4.with_promoted(Some(Piece::new(Color::White, Role::Queen))),
            Err(InvalidMove32::Promotion),
        );
        let ep = Move32::new(Square::E5, Square::D6, wp).with_en_passant(true);
        check(ep.with_captured(Some(Role::Pawn)), Ok(()));
        check(ep, Err(InvalidMove32::Flags));
        check(
            Move32::new(Square::E4, Square::D5, wp).with_en_passant(true).with_capture(true),
            Err(InvalidMove32::Flags),
        );
        check(Move32::new(Square::E4, Square::D5, wp), Err(InvalidMove32::Flags));
        assert_eq!(InvalidMove32::Geometry.to_string(), "the piece cannot reach the target square");
    }

    #[test]
    fn every_accepted_raw_value_is_consistent_and_converts_losslessly() {
        // All 2^27 values with bits 27-31 clear: what try_from_bits accepts must read back
        // without contradictions and survive Move16 and back.
        let mut accepted = 0u32;
        for bits in 0..1u32 << 27 {
            let Ok(m) = Move32::try_from_bits(bits) else { continue };
            accepted += 1;
            assert_eq!(m.is_promotion(), m.promoted().is_some());
            assert_ne!(m.captured(), Some(Role::King));
            let piece = m.piece().expect("accepted moves name their piece");
            let back = m.to_move16().to_move32(piece, m.captured());
            assert_eq!(back, m, "{bits:#x}");
        }
        // 53,164, counted independently (python-chess attack tables, per piece: each reachable
        // target with capture unknown/none or one of five captured roles; king castling along
        // the back rank; pawn pushes, double pushes, captures, en passant and promotions).
        assert_eq!(accepted, 53_164);
    }

    #[test]
    fn debug_reads_as_a_move() {
        let check = |m: Move32, expected: &str| assert_eq!(format!("{m:?}"), expected);
        let wp = Piece::new(Color::White, Role::Pawn);
        check(
            Move32::new(Square::E2, Square::E4, wp).with_double_push(true),
            "Move32 { P e2e4 double-push }",
        );
        check(
            Move32::new(Square::E7, Square::D8, wp)
                .with_promoted(Some(Piece::new(Color::White, Role::Queen)))
                .with_captured(Some(Role::Rook)),
            "Move32 { P e7d8=Q capture takes R }",
        );
        check(
            Move32::new(Square::E5, Square::D6, wp)
                .with_en_passant(true)
                .with_captured(Some(Role::Pawn)),
            "Move32 { P e5d6 capture en-passant takes P }",
        );
        check(
            Move32::new(Square::E8, Square::A8, Piece::new(Color::Black, Role::King))
                .with_castling(true),
            "Move32 { k e8a8 castling }",
        );
        check(
            Move32::new(Square::G8, Square::F6, Piece::new(Color::Black, Role::Knight))
                .with_capture(true),
            "Move32 { n g8f6 capture }",
        );
        check(Move32::from_bits(u32::MAX), "Move32 { ? h8h8=? capture double-push en-passant castling takes ?7 reserved 0xf8000000 }");
    }

    #[test]
    fn the_24_bit_layout_is_the_low_bits() {
        let full = Move32::from_bits(0x07ff_ffff);
        assert_eq!(full.to_bits24(), 0xff_ffff);
        for bits in [0, 0x20070c, 0xff_ffff, 0x10_7d3e] {
            let m = Move32::from_bits24(bits).expect("24 bits");
            assert_eq!((m.bits(), m.to_bits24(), m.captured()), (bits, bits, None));
        }
        for bits in [0x100_0000, 0x0510_7d3e, u32::MAX] {
            assert_eq!(Move32::from_bits24(bits), None, "{bits:#x}");
        }
        // Every accepted move's 24-bit form reads back as the move without its captured role.
        let wp = Piece::new(Color::White, Role::Pawn);
        let m = Move32::new(Square::B7, Square::A8, wp)
            .with_promoted(Some(Piece::new(Color::White, Role::Queen)))
            .with_captured(Some(Role::Knight));
        assert_eq!(Move32::from_bits24(m.to_bits24()), Some(m.with_captured_code(0)));
        assert!(Move32::from_bits24(m.to_bits24()).is_some_and(|m| m.capture()));
    }

    #[test]
    fn the_kind_names_the_castling_side() {
        use crate::MoveKind;
        let wk = Piece::new(Color::White, Role::King);
        let bk = Piece::new(Color::Black, Role::King);
        for (m, kind) in [
            (Move32::new(Square::E1, Square::H1, wk).with_castling(true), MoveKind::KingCastle),
            (Move32::new(Square::E1, Square::A1, wk).with_castling(true), MoveKind::QueenCastle),
            (Move32::new(Square::F8, Square::G8, bk).with_castling(true), MoveKind::KingCastle),
            (Move32::new(Square::B8, Square::A8, bk).with_castling(true), MoveKind::QueenCastle),
            (Move32::new(Square::E1, Square::F1, wk), MoveKind::Quiet),
            (
                Move32::new(Square::E1, Square::F1, wk).with_captured(Some(Role::Rook)),
                MoveKind::Capture,
            ),
        ] {
            assert_eq!(m.kind(), Some(kind), "{m:?}");
        }
    }
}
