//! `state14`: the game state in 14 bits. Lossy by design: it keeps the fifty-move counter only
//! up to 63, and neither the fullmove number nor the castling mode.
//!
//! # Layout
//!
//! ```text
//! bit 0       side to move: 0 white, 1 black
//! bits 1-4    castling, one bit per rook, K Q k q (the outermost rook on that side of the king)
//! bits 5-7    en passant: which candidate pawn just made a double step, 7 for none
//! bits 8-13   halfmove clock, 0 to 63
//! ```
//!
//! The castling and en passant fields are described in [`state`](crate::classic::state): both need the
//! board to decode, so [`read`] gives the board-free [`StateFields`] and
//! [`StateFields::to_setup`] finishes the job (the position encodings do both).
//!
//! **Encoding refuses, never truncates**: a halfmove clock above 63 (the 75-move rule counts to
//! 150 plies) gives [`StateEncodeError::HalfmovesTooLarge`] naming the value, and the two rare
//! states the fields cannot name give their own errors. [`state_full`](crate::classic::state_full) holds
//! every state. Decoded, the fullmove number is 1 and the castling mode is the one the rights
//! need (standard unless they are Chess960 rights).
//!
//! # Worked example
//!
//! After 1. e4 (black to move, all four rights, the e-pawn the first candidate, clock 0):
//!
//! ```text
//! 1 1111 000 000000  =  f8 00
//! ```
//!
//! ```
//! use chessbits_codec::classic::state_lossy;
//! use chessbits_notation::fen::parse_position;
//!
//! let pos = parse_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")?;
//! let bits = state_lossy::encode(&pos)?;
//! assert_eq!((bits.len(), bits.to_hex()), (14, "f800".to_owned()));
//! let fields = state_lossy::decode(bits.as_bytes())?;
//! assert_eq!(fields.to_string(), "b KQkq #0 0 1");
//! let setup = fields.to_setup(pos.board())?;
//! assert_eq!(setup, pos.to_setup());
//!
//! let late = parse_position("8/8/4k3/8/8/4K3/8/8 w - - 64 100")?;
//! assert_eq!(
//!     state_lossy::encode(&late).unwrap_err().to_string(),
//!     "halfmove clock 64 does not fit in 6 bits (at most 63)",
//! );
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! Changing the layout is a breaking change.

use chessbits_bitboard::Color;
use chessbits_state::{CastlingRights, Position};

use crate::bits::{BitReader, BitWriter, Bits};
use crate::classic::state::{
    castling_bits, en_passant_bits, inner_castling_rook, CastlingField, EnPassantField,
    StateEncodeError, StateError, StateFields, RIGHTS,
};

/// The size of the encoding.
pub const BITS: usize = 14;

/// The largest halfmove clock 6 bits hold.
pub const MAX_HALFMOVES: u32 = 63;

/// Appends the state of `pos`. Nothing is written on error.
///
/// # Errors
/// [`StateEncodeError`] if the state does not fit: a halfmove clock above 63, a castling right
/// of an inner rook, or an en passant square behind the eighth of eight candidates.
pub fn write(w: &mut BitWriter, pos: &Position) -> Result<(), StateEncodeError> {
    if pos.halfmoves() > MAX_HALFMOVES {
        return Err(StateEncodeError::HalfmovesTooLarge(pos.halfmoves()));
    }
    if let Some(rook) = inner_castling_rook(pos) {
        return Err(StateEncodeError::CastlingRookNotOutermost(rook));
    }
    let ep = en_passant_bits(pos).map_err(StateEncodeError::EnPassantNotNamed)?;
    let bits =
        (pos.turn() as u64) << 13 | castling_bits(pos) << 9 | ep << 6 | u64::from(pos.halfmoves());
    w.write(bits, 14);
    Ok(())
}

/// Reads the 14 bits, without a board.
///
/// # Errors
/// [`StateError`] if the stream ends first.
pub fn read(r: &mut BitReader<'_>) -> Result<StateFields, StateError> {
    let bits = r.read(14)?;
    Ok(StateFields {
        turn: Color::from_white(bits >> 13 == 0),
        castling: CastlingField::Outermost(rights_of(bits >> 9)),
        en_passant: EnPassantField::Candidate((bits >> 6 & 7) as u8),
        castling_mode: None,
        halfmoves: (bits & 63) as u32,
        fullmoves: None,
    })
}

/// The rights of the four castling bits, `K` the highest.
pub(crate) fn rights_of(bits: u64) -> CastlingRights {
    RIGHTS.iter().enumerate().fold(CastlingRights::empty(), |rights, (i, &(color, side))| {
        if bits >> (3 - i) & 1 == 1 {
            rights | CastlingRights::of(color, side)
        } else {
            rights
        }
    })
}

/// The state of `pos` as a stream of its own.
///
/// # Errors
/// As [`write()`].
pub fn encode(pos: &Position) -> Result<Bits, StateEncodeError> {
    let mut w = BitWriter::with_capacity(BITS);
    write(&mut w, pos)?;
    Ok(w.finish())
}

/// Reads the fields from `bytes`, which must hold nothing else.
///
/// # Errors
/// As [`read`], and trailing bits that are not padding.
pub fn decode(bytes: &[u8]) -> Result<StateFields, StateError> {
    BitReader::whole(bytes, read)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::{DecodeErrorKind, Located};
    use chessbits_bitboard::Square;
    use chessbits_notation::fen::{fen_of, parse_position, FenOptions};

    /// Encodes the position of `fen`, checks the hex, and decodes it back with the board: the
    /// FEN comes back with fullmove number 1.
    fn check(fen: &str, hex: &str) {
        let pos = parse_position(fen).unwrap();
        let bits = encode(&pos).unwrap();
        assert_eq!((bits.len(), bits.to_hex().as_str()), (14, hex), "{fen}");
        let setup = decode(bits.as_bytes()).unwrap().to_setup(pos.board()).unwrap();
        let back = Position::from_setup(&setup).unwrap();
        let mut expected = pos;
        expected.set_clocks(pos.halfmoves(), 1);
        assert_eq!(fen_of(&back, FenOptions::default()), fen_of(&expected, FenOptions::default()));
        assert_eq!(back.key(), pos.key());
    }

    #[test]
    fn states_round_trip_with_the_board() {
        check("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7f00");
        check("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "f800");
        check("r3k2r/8/8/8/8/8/8/R3K2R b Kq - 63 80", "cffc");
        check("4k3/8/8/8/P1P1P2P/8/8/4K3 b - h3 5 40", "8314");
        // Chess960 rights of outermost rooks.
        check("nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBgb - 0 1", "7f00");
    }

    #[test]
    fn states_that_do_not_fit_are_refused() {
        let refuse = |fen: &str| encode(&parse_position(fen).unwrap()).unwrap_err();
        assert_eq!(
            refuse("8/8/4k3/8/8/4K3/8/8 w - - 150 120"),
            StateEncodeError::HalfmovesTooLarge(150)
        );
        assert_eq!(
            refuse("8/8/4k3/8/8/4K3/8/8 w - - 64 120"),
            StateEncodeError::HalfmovesTooLarge(64)
        );
        assert_eq!(
            refuse("nrbbqkrn/pppppppp/8/8/8/8/PPPPPPP1/NRBBQKRR w GBgb - 0 1"),
            StateEncodeError::CastlingRookNotOutermost(Square::G1),
        );
        assert_eq!(
            refuse("4k3/8/8/8/PPPPPPPP/8/8/4K3 b - h3 0 1"),
            StateEncodeError::EnPassantNotNamed(Square::H3),
        );
        insta::assert_snapshot!(refuse("8/8/4k3/8/8/4K3/8/8 w - - 150 120"), @"halfmove clock 150 does not fit in 6 bits (at most 63)");
        insta::assert_snapshot!(refuse("nrbbqkrn/pppppppp/8/8/8/8/PPPPPPP1/NRBBQKRR w GBgb - 0 1"), @"the castling rook on g1 is not the outermost on its side, 4 bits cannot name it");
        insta::assert_snapshot!(refuse("4k3/8/8/8/PPPPPPPP/8/8/4K3 b - h3 0 1"), @"en passant square h3 is behind the eighth of eight candidate pawns, 3 bits cannot name it");
        // Nothing is written on error.
        let mut w = BitWriter::new();
        assert!(write(&mut w, &parse_position("8/8/4k3/8/8/4K3/8/8 w - - 64 1").unwrap()).is_err());
        assert!(w.is_empty());
    }

    #[test]
    fn a_short_stream_says_where() {
        assert_eq!(
            decode(&[0xf8]),
            Err(Located {
                at: crate::bits::Bit(0),
                kind: DecodeErrorKind::Truncated { wanted: 6 }
            })
        );
        assert_eq!(
            decode(&[0xf8, 0x01]),
            Err(Located {
                at: crate::bits::Bit(14),
                kind: DecodeErrorKind::TrailingBits { bits: 2 }
            })
        );
    }
}
