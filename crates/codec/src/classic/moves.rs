//! Move codes: a legal move of a position in 7 to 16 bits ([`MoveFormat`]). Decoding needs the
//! position the move is played in; a game stream has it, since it replays the moves.
//!
//! # `12`: origin and target
//!
//! ```text
//! 6 bits   origin square (a1 = 0 .. h8 = 63)
//! 6 bits   target square
//! 2 bits   promotion piece, only on a pawn's move to its last rank: 0 knight, 1 bishop,
//!          2 rook, 3 queen
//! ```
//!
//! Writing needs no position (the [`Move16`] says whether it promotes); reading needs it only to
//! know whether the 2 promotion bits follow: they do when the piece on the origin is a pawn and
//! the target is on the last rank. Castling is written as the king moving to its own rook's
//! square (the [`Move16`] convention, which serves Chess960 as well): `e1h1` for white's short
//! castling in standard chess.
//!
//! # `san-like`: target, then only what tells the move apart
//!
//! ```text
//! 6 bits   target square (castling: the rook's square)
//! 2 bits   tag
//!   tag 0: nothing more            the only piece that can move to the target   (8 bits)
//!   tag 1: 4 bits, the piece code  the only piece of its kind that can          (12 bits)
//!          (board's codes: 1-6 white, 7-12 black, the side to move's only)
//!   tag 2: 6 bits, origin square   any other case                               (14 bits)
//!   tag 3: invalid
//! 2 bits   promotion piece, as for 12, when the move is a promotion
//! ```
//!
//! Each move takes the shortest form that names it in its position; a promotion adds 2 bits
//! (10, 14 or 16). The decoder takes any form that names exactly one piece. Castling is the king
//! moving to its rook's square, so no other move shares its target: castling is always 8 bits.
//!
//! # `san-like-7-13`: target, one tag bit, origin when needed
//!
//! ```text
//! 6 bits   target square
//! 1 bit    tag: 0 = the only piece that can move there (7 bits), 1 = 6 bits of origin follow (13)
//! 2 bits   promotion piece, when the move is a promotion
//! ```
//!
//! # Worked example
//!
//! From the start position, 1. Nf3. `12`: g1 (6) then f3 (21), `000110 010101` = `19 50`.
//! `san-like`: the knight on g1 and the pawn on f2 can both move to f3, but only one knight can,
//! so f3, tag 1 and the white knight's code 2: `010101 01 0010` = `55 20`. `san-like-7-13`: f3,
//! tag 1 and the origin g1: `010101 1 000110` = `56 30`.
//!
//! ```
//! use chessbits_codec::classic::moves::MoveFormat;
//! use chessbits_move::UciMove;
//! use chessbits_movegen::MoveGen;
//! use chessbits_state::Position;
//!
//! let pos = Position::new();
//! let nf3 = pos.resolve_uci("g1f3".parse::<UciMove>()?)?;
//! for (code, len, hex) in [
//!     (MoveFormat::FromTo, 12, "1950"),
//!     (MoveFormat::SanLike, 12, "5520"),
//!     (MoveFormat::SanLike713, 13, "5630"),
//! ] {
//!     let bits = code.encode(&pos, nf3)?;
//!     assert_eq!((bits.len(), bits.to_hex()), (len, hex.to_owned()));
//!     assert_eq!(code.decode(bits.as_bytes(), &pos)?, nf3);
//! }
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! Changing a layout is a breaking change.

use core::fmt;
use core::str::FromStr;

use chessbits_bitboard::{Bitboard, Role, Square};
use chessbits_move::Move16;
use chessbits_movegen::{IllegalMoveError, MoveGen, PieceMoves};
use chessbits_state::Position;

use crate::bits::{Bit, BitReader, BitWriter, Bits, DecodeErrorKind, Located};
use crate::classic::board::UnknownFormat;
use crate::classic::codes::{code_of, piece_of};

/// A move code, chosen at run time. Its text form is the name `chessbits pgn --to moves:CODE`
/// takes: `12`, `san-like`, `san-like-7-13`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveFormat {
    /// Origin and target, 12 bits (14 for a promotion).
    FromTo,
    /// Target, a 2-bit tag, then nothing, the piece or the origin: 8, 12 or 14 bits.
    SanLike,
    /// Target, a 1-bit tag, then the origin if needed: 7 or 13 bits.
    SanLike713,
}

/// The pieces that can move to `to`: how many, how many of `role`, and the moves of the piece
/// on `from`.
struct Rivals {
    origins: u32,
    same_role: u32,
    mover: Option<PieceMoves>,
}

fn rivals(pos: &Position, to: Square, from: Square, role: Option<Role>) -> Rivals {
    let mut origins = Bitboard::EMPTY;
    let mut same_role = Bitboard::EMPTY;
    let mut mover = None;
    pos.visit_moves(Bitboard::FULL, Bitboard::from_square(to), |moves| {
        if moves.to.contains(to) {
            origins.add(moves.from);
            if Some(moves.role) == role {
                same_role.add(moves.from);
            }
            if moves.from == from {
                mover = Some(moves);
            }
        }
        false
    });
    Rivals { origins: origins.count(), same_role: same_role.count(), mover }
}

/// The one piece in `from` that can move to `to`, or why not.
fn the_piece(pos: &Position, from: Bitboard, to: Square) -> Result<PieceMoves, u32> {
    let mut found = None;
    let mut origins = Bitboard::EMPTY;
    pos.visit_moves(from, Bitboard::from_square(to), |moves| {
        if moves.to.contains(to) {
            origins.add(moves.from);
            found = Some(moves);
        }
        false
    });
    match (found, origins.count()) {
        (Some(moves), 1) => Ok(moves),
        (_, n) => Err(n),
    }
}

/// The 2-bit promotion field of a role.
fn promotion_bits(role: Role) -> u64 {
    Role::PROMOTIONS.iter().position(|&r| r == role).unwrap_or(3) as u64
}

impl MoveFormat {
    /// The three codes.
    pub const ALL: [MoveFormat; 3] =
        [MoveFormat::FromTo, MoveFormat::SanLike, MoveFormat::SanLike713];

    /// Appends the legal move `m` of `pos`. Nothing is written on error.
    ///
    /// # Errors
    /// [`IllegalMoveError`] if `m` is not a legal move of `pos`.
    pub fn write(
        self,
        w: &mut BitWriter,
        pos: &Position,
        m: Move16,
    ) -> Result<(), IllegalMoveError> {
        let (value, n) = self.code(pos, m)?;
        w.write(value, n);
        Ok(())
    }

    /// The bits of `m` and their number.
    fn code(self, pos: &Position, m: Move16) -> Result<(u64, u32), IllegalMoveError> {
        let (from, to) = (m.from(), m.to());
        let role = pos.board().role_at(from);
        let illegal = IllegalMoveError { uci: pos.uci(m) };
        let rivals = rivals(pos, to, from, role);
        match rivals.mover {
            Some(moves) if moves.move_to(to, m.promotion()) == m => {}
            _ => return Err(illegal),
        }
        let (mut value, mut n) = match self {
            MoveFormat::FromTo => ((from as u64) << 6 | to as u64, 12),
            MoveFormat::SanLike if rivals.origins == 1 => ((to as u64) << 2, 8),
            MoveFormat::SanLike if rivals.same_role == 1 => {
                let code = code_of(pos.board().piece_at(from));
                ((to as u64) << 6 | 1 << 4 | u64::from(code), 12)
            }
            MoveFormat::SanLike => ((to as u64) << 8 | 2 << 6 | from as u64, 14),
            MoveFormat::SanLike713 if rivals.origins == 1 => ((to as u64) << 1, 7),
            MoveFormat::SanLike713 => ((to as u64) << 7 | 1 << 6 | from as u64, 13),
        };
        if let Some(role) = m.promotion() {
            value = value << 2 | promotion_bits(role);
            n += 2;
        }
        Ok((value, n))
    }

    /// The number of bits the legal move `m` of `pos` takes.
    ///
    /// # Errors
    /// [`IllegalMoveError`] if `m` is not a legal move of `pos`.
    pub fn len(self, pos: &Position, m: Move16) -> Result<usize, IllegalMoveError> {
        Ok(self.code(pos, m)?.1 as usize)
    }

    /// Reads a move of `pos`.
    ///
    /// # Errors
    /// [`MoveFormatError`] at the start of the code (no legal move matches, or more than one), at
    /// the field at fault (an invalid tag or piece code), or where the stream ends.
    pub fn read(self, r: &mut BitReader<'_>, pos: &Position) -> Result<Move16, MoveFormatError> {
        let at = r.position();
        let (from_mask, to, from, role) = match self {
            MoveFormat::FromTo => {
                let from = Square::new(r.read(6)? as u32);
                let to = Square::new(r.read(6)? as u32);
                (Bitboard::from_square(from), to, Some(from), None)
            }
            MoveFormat::SanLike => {
                let to = Square::new(r.read(6)? as u32);
                let tag_at = r.position();
                match r.read(2)? {
                    0 => (Bitboard::FULL, to, None, None),
                    1 => {
                        let code_at = r.position();
                        let code = r.read(4)? as u8;
                        let piece = piece_of(code)
                            .filter(|piece| piece.color == pos.turn())
                            .ok_or(Located::invalid(code_at, MoveErrorKind::InvalidPiece(code)))?;
                        (pos.our(piece.role), to, None, Some(piece.role))
                    }
                    2 => {
                        let from = Square::new(r.read(6)? as u32);
                        (Bitboard::from_square(from), to, Some(from), None)
                    }
                    tag => {
                        return Err(Located::invalid(tag_at, MoveErrorKind::InvalidTag(tag as u8)))
                    }
                }
            }
            MoveFormat::SanLike713 => {
                let to = Square::new(r.read(6)? as u32);
                if r.read_bit()? {
                    let from = Square::new(r.read(6)? as u32);
                    (Bitboard::from_square(from), to, Some(from), None)
                } else {
                    (Bitboard::FULL, to, None, None)
                }
            }
        };
        let moves = the_piece(pos, from_mask, to).map_err(|origins| {
            let kind = match origins {
                0 => MoveErrorKind::NoMove { to, from, role },
                origins => MoveErrorKind::Ambiguous { to, role, origins },
            };
            Located::invalid(at, kind)
        })?;
        let promotion = if moves.role == Role::Pawn && Bitboard::BACKRANKS.contains(to) {
            Role::PROMOTIONS.get(r.read(2)? as usize).copied()
        } else {
            None
        };
        Ok(moves.move_to(to, promotion))
    }

    /// The legal move `m` of `pos` as a stream of its own.
    ///
    /// # Errors
    /// [`IllegalMoveError`] if `m` is not a legal move of `pos`.
    pub fn encode(self, pos: &Position, m: Move16) -> Result<Bits, IllegalMoveError> {
        let mut w = BitWriter::with_capacity(16);
        self.write(&mut w, pos, m)?;
        Ok(w.finish())
    }

    /// Reads a move of `pos` from `bytes`, which must hold nothing else.
    ///
    /// # Errors
    /// As [`MoveFormat::read`], and trailing bits that are not padding.
    pub fn decode(self, bytes: &[u8], pos: &Position) -> Result<Move16, MoveFormatError> {
        BitReader::whole(bytes, |r| self.read(r, pos))
    }

    /// One line saying what the code is.
    pub const fn description(self) -> &'static str {
        match self {
            MoveFormat::FromTo => "move: origin and target (12 bits), 2 more for a promotion",
            MoveFormat::SanLike => {
                "move: target, 2-bit tag, then nothing / piece (4) / origin (6): 8, 12 or 14 bits"
            }
            MoveFormat::SanLike713 => {
                "move: target, 1-bit tag, then the origin if needed: 7 or 13 bits"
            }
        }
    }
}

impl fmt::Display for MoveFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            MoveFormat::FromTo => "12",
            MoveFormat::SanLike => "san-like",
            MoveFormat::SanLike713 => "san-like-7-13",
        })
    }
}

impl FromStr for MoveFormat {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<MoveFormat, UnknownFormat> {
        match s {
            "12" => Ok(MoveFormat::FromTo),
            "san-like" => Ok(MoveFormat::SanLike),
            "san-like-7-13" => Ok(MoveFormat::SanLike713),
            _ => Err(UnknownFormat(s.to_owned())),
        }
    }
}

/// What is wrong with a move code in its position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MoveErrorKind {
    /// No legal move goes to `to` (from `from`, or by a piece of `role`, when the code says).
    NoMove {
        /// The target read.
        to: Square,
        /// The origin read, if the code has one.
        from: Option<Square>,
        /// The role read, if the code has one.
        role: Option<Role>,
    },
    /// This many pieces (of `role`, when the code names one) can move to `to`, and the code does
    /// not say which.
    Ambiguous {
        /// The target read.
        to: Square,
        /// The role read, if the code has one.
        role: Option<Role>,
        /// How many pieces can move there.
        origins: u32,
    },
    /// A `san-like` tag of 3.
    InvalidTag(u8),
    /// A `san-like` piece code that is not a piece of the side to move.
    InvalidPiece(u8),
}

impl fmt::Display for MoveErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MoveErrorKind::NoMove { to, from: Some(from), .. } => {
                write!(f, "no legal move {from}{to}")
            }
            MoveErrorKind::NoMove { to, role: Some(role), .. } => {
                write!(f, "no legal {role} move to {to}")
            }
            MoveErrorKind::NoMove { to, .. } => write!(f, "no legal move to {to}"),
            MoveErrorKind::Ambiguous { to, role: Some(role), origins } => {
                write!(f, "ambiguous: {origins} {role}s can move to {to}")
            }
            MoveErrorKind::Ambiguous { to, origins, .. } => {
                write!(f, "ambiguous: {origins} pieces can move to {to}")
            }
            MoveErrorKind::InvalidTag(tag) => write!(f, "invalid tag {tag}"),
            MoveErrorKind::InvalidPiece(code) => {
                write!(f, "piece code {code} is not a piece of the side to move")
            }
        }
    }
}

/// Why a stream is not a move of its position: the bit offset and a [`MoveErrorKind`].
pub type MoveFormatError = Located<Bit, DecodeErrorKind<MoveErrorKind>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::DecodeErrorKind;
    use chessbits_move::UciMove;
    use chessbits_notation::fen::parse_position;

    /// Encodes the move `uci` of the position `fen` in every code and checks the lengths, then
    /// decodes it back.
    fn check(fen: &str, uci: &str, lens: [usize; 3]) {
        let pos = parse_position(fen).unwrap();
        let m = pos.resolve_uci(uci.parse::<UciMove>().unwrap()).unwrap();
        for (code, len) in MoveFormat::ALL.into_iter().zip(lens) {
            let bits = code.encode(&pos, m).unwrap();
            assert_eq!(
                (bits.len(), code.len(&pos, m).unwrap()),
                (len, len),
                "{code} {uci} in {fen}"
            );
            assert_eq!(code.decode(bits.as_bytes(), &pos), Ok(m), "{code} {uci} in {fen}");
        }
    }

    #[test]
    fn each_move_takes_the_shortest_form() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        // e4: only the e-pawn reaches e4.
        check(start, "e2e4", [12, 8, 7]);
        // Nf3: the knight and the f-pawn reach f3; one knight.
        check(start, "g1f3", [12, 12, 13]);
        // Two knights (and the king) reach d2: the origin.
        let knights = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
        check(knights, "b1d2", [12, 14, 13]);
        // Castling is the king to its rook's square: always the target alone.
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        check(castle, "e1g1", [12, 8, 7]);
        check(castle, "e1c1", [12, 8, 7]);
        // Promotions: 2 more bits; the target alone when one pawn promotes there.
        let promote = "3nk3/2P1P3/8/8/8/8/8/4K3 w - - 0 1";
        check(promote, "c7c8q", [14, 10, 9]);
        check(promote, "c7c8n", [14, 10, 9]);
        // Two pawns take on d8: the origin, then the promotion piece.
        check(promote, "c7d8r", [14, 16, 15]);
        check(promote, "e7d8b", [14, 16, 15]);
        // En passant.
        check("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", [12, 8, 7]);
        // A queen and a rook reach h2: the piece kind.
        check("4k3/8/8/8/8/8/1Q6/4K2R w - - 0 1", "h1h2", [12, 12, 13]);
    }

    #[test]
    fn illegal_moves_are_refused() {
        let pos = Position::new();
        let m = Move16::new(Square::E2, Square::E5, chessbits_move::MoveKind::Quiet);
        for code in MoveFormat::ALL {
            assert!(code.encode(&pos, m).is_err(), "{code}");
            let mut w = BitWriter::new();
            assert!(code.write(&mut w, &pos, m).is_err());
            assert!(w.is_empty());
        }
    }

    #[test]
    fn bad_codes_say_where() {
        let pos = Position::new();
        let bits = |fields: &[(u64, u32)]| {
            let mut w = BitWriter::new();
            for &(v, n) in fields {
                w.write(v, n);
            }
            w.finish().into_bytes()
        };
        let err =
            |code: MoveFormat, fields: &[(u64, u32)]| code.decode(&bits(fields), &pos).unwrap_err();
        use MoveErrorKind::*;
        // e2e5.
        let e = err(MoveFormat::FromTo, &[(12, 6), (36, 6)]);
        assert_eq!(
            e,
            Located::invalid(0, NoMove { to: Square::E5, from: Some(Square::E2), role: None })
        );
        insta::assert_snapshot!(e, @"bit 0: no legal move e2e5");
        // Target e5 alone.
        let e = err(MoveFormat::SanLike, &[(36, 6), (0, 2)]);
        assert_eq!(e, Located::invalid(0, NoMove { to: Square::E5, from: None, role: None }));
        insta::assert_snapshot!(e, @"bit 0: no legal move to e5");
        // f3 alone: the knight and the pawn.
        let e = err(MoveFormat::SanLike, &[(21, 6), (0, 2)]);
        assert_eq!(e, Located::invalid(0, Ambiguous { to: Square::F3, role: None, origins: 2 }));
        insta::assert_snapshot!(e, @"bit 0: ambiguous: 2 pieces can move to f3");
        // A bishop to f3.
        let e = err(MoveFormat::SanLike, &[(21, 6), (1, 2), (3, 4)]);
        assert_eq!(
            e,
            Located::invalid(0, NoMove { to: Square::F3, from: None, role: Some(Role::Bishop) })
        );
        insta::assert_snapshot!(e, @"bit 0: no legal bishop move to f3");
        // A black knight, white to move; code 0; code 13.
        for code in [8, 0, 13] {
            let e = err(MoveFormat::SanLike, &[(21, 6), (1, 2), (code, 4)]);
            assert_eq!(e, Located::invalid(8, InvalidPiece(code as u8)));
        }
        // Tag 3.
        let e = err(MoveFormat::SanLike, &[(21, 6), (3, 2)]);
        assert_eq!(e, Located::invalid(6, InvalidTag(3)));
        insta::assert_snapshot!(e, @"bit 6: invalid tag 3");
        // 7/13 with the origin of the wrong piece.
        let e = err(MoveFormat::SanLike713, &[(21, 6), (1, 1), (1, 6)]);
        assert_eq!(
            e,
            Located::invalid(0, NoMove { to: Square::F3, from: Some(Square::B1), role: None })
        );
        // Truncated inside the origin, and before the promotion piece.
        let e = err(MoveFormat::SanLike713, &[(21, 6), (1, 1)]);
        assert_eq!(e.kind, DecodeErrorKind::Truncated { wanted: 5 });
        let promote = parse_position("4k3/2P5/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let e = MoveFormat::SanLike713.decode(&bits(&[(58, 6), (0, 1)]), &promote).unwrap_err();
        assert_eq!(
            e,
            Located { at: crate::bits::Bit(7), kind: DecodeErrorKind::Truncated { wanted: 1 } }
        );
    }
}
