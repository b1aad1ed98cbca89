//! `state-full`: the game state without loss: `state14`'s fields, the castling mode, the whole
//! halfmove clock and the fullmove number, and an escape for the two states `state14` cannot
//! name.
//!
//! # Layout
//!
//! ```text
//! bit 0       side to move: 0 white, 1 black
//! bits 1-4    castling, one bit per right, K Q k q (as state14)
//! bits 5-7    en passant candidate, 7 for none (as state14)
//! bit 8       castling mode: 0 standard (e1g1), 1 Chess960 (king takes rook)
//! bit 9       escape: 1 if the block below follows
//! [escape block, only when bit 9 is 1:
//!   3 bits    per castling right held (K Q k q order), the file of its rook
//!   1 bit     en passant: 1 if there is an en passant square
//!   3 bits    its file (only if the bit before is 1); bits 5-7 are then ignored]
//! varint      halfmove clock
//! varint      fullmove number
//! ```
//!
//! The varints are those of [`bits`](crate::bits): 8 bits below 128, 16 below 16384, at most 40. So
//! the state of a game's position takes **26 bits** while both clocks are below 128, 34 once
//! the fullmove number reaches 128, up to 90 in principle.
//!
//! The escape is written only when `state14`'s fields cannot say the state: a castling right of
//! a rook that is not the outermost on its side (Chess960), or an en passant square behind the
//! eighth of eight candidate pawns (see [`state`](crate::classic::state)). It costs 4 bits and 3 a right
//! held, or 7 with an en passant square. Every legal position round-trips: FEN, key, castling
//! mode and clocks.
//!
//! # Worked example
//!
//! After 1. e4 in standard chess:
//!
//! ```text
//! 1 1111 000 0 0 00000000 00000001  =  f8 00 00 40 (26 bits)
//! ```
//!
//! ```
//! use chessbits_codec::classic::state_full;
//! use chessbits_notation::fen::parse_position;
//! use chessbits_state::Position;
//!
//! let pos = parse_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")?;
//! let bits = state_full::encode(&pos);
//! assert_eq!((bits.len(), bits.to_hex()), (26, "f8000040".to_owned()));
//! let setup = state_full::decode(bits.as_bytes())?.to_setup(pos.board())?;
//! assert_eq!(Position::from_setup(&setup)?, pos);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! Changing the layout is a breaking change.

use chessbits_bitboard::{Color, File};
use chessbits_move::CastlingMode;
use chessbits_state::Position;

use crate::bits::{varint_len, BitReader, BitWriter, Bits};
use crate::classic::state::{
    castling_bits, en_passant_bits, inner_castling_rook, CastlingField, EnPassantField, StateError,
    StateFields, NO_EN_PASSANT, RIGHTS,
};
use crate::classic::state_lossy::rights_of;

/// The number of bits the state of `pos` takes.
pub fn len(pos: &Position) -> usize {
    let escape = if needs_escape(pos) {
        pos.castles().rights().bits().count_ones() as usize * 3
            + if pos.ep_square().is_some() { 4 } else { 1 }
    } else {
        0
    };
    10 + escape + varint_len(pos.halfmoves()) + varint_len(pos.fullmoves())
}

fn needs_escape(pos: &Position) -> bool {
    inner_castling_rook(pos).is_some() || en_passant_bits(pos).is_err()
}

/// Appends the state of `pos`.
pub fn write(w: &mut BitWriter, pos: &Position) {
    let ep = en_passant_bits(pos);
    let escape = inner_castling_rook(pos).is_some() || ep.is_err();
    let ep = ep.unwrap_or(u64::from(NO_EN_PASSANT));
    let chess960 = pos.castling_mode() == CastlingMode::Chess960;
    let head = (pos.turn() as u64) << 9
        | castling_bits(pos) << 5
        | ep << 2
        | u64::from(chess960) << 1
        | u64::from(escape);
    w.write(head, 10);
    if escape {
        for &(color, side) in &RIGHTS {
            if let Some(rook) = pos.castles().rook(color, side) {
                w.write(rook.file() as u64, 3);
            }
        }
        match pos.ep_square() {
            Some(ep) => w.write(0b1000 | ep.file() as u64, 4),
            None => w.write_bit(false),
        }
    }
    w.write_varint(pos.halfmoves());
    w.write_varint(pos.fullmoves());
}

/// Reads the state, without a board.
///
/// # Errors
/// [`StateError`] if the stream ends first or a clock does not fit in 32 bits.
pub fn read(r: &mut BitReader<'_>) -> Result<StateFields, StateError> {
    let head = r.read(10)?;
    let rights = rights_of(head >> 5);
    let mut castling = CastlingField::Outermost(rights);
    let mut en_passant = EnPassantField::Candidate((head >> 2 & 7) as u8);
    if head & 1 == 1 {
        let mut files = [None; 4];
        for (i, &(color, side)) in RIGHTS.iter().enumerate() {
            if rights.contains(chessbits_state::CastlingRights::of(color, side)) {
                let file = File::new(r.read(3)? as u32);
                if let Some(slot) = files.get_mut(i) {
                    *slot = Some(file);
                }
            }
        }
        castling = CastlingField::Files(files);
        en_passant = EnPassantField::File(match r.read_bit()? {
            true => Some(File::new(r.read(3)? as u32)),
            false => None,
        });
    }
    let halfmoves = r.read_varint()?;
    let fullmoves = r.read_varint()?;
    Ok(StateFields {
        turn: Color::from_white(head >> 9 == 0),
        castling,
        en_passant,
        castling_mode: Some(if head >> 1 & 1 == 1 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }),
        halfmoves,
        fullmoves: Some(fullmoves),
    })
}

/// The state of `pos` as a stream of its own.
pub fn encode(pos: &Position) -> Bits {
    BitWriter::stream(len(pos), |w| write(w, pos))
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
    use chessbits_notation::fen::{parse_position, Fen};

    /// Encodes the position of `fen`, checks size and hex, and decodes it back with the board:
    /// the same position, printed the same.
    fn check(fen: &str, expected_len: usize, hex: &str) {
        let pos = parse_position(fen).unwrap();
        let bits = encode(&pos);
        assert_eq!(
            (bits.len(), len(&pos), bits.to_hex().as_str()),
            (expected_len, expected_len, hex),
            "{fen}"
        );
        let fields = decode(bits.as_bytes()).unwrap();
        let back = Position::from_setup(&fields.to_setup(pos.board()).unwrap()).unwrap();
        assert_eq!(back, pos, "{fen}");
        assert_eq!(Fen::from_position(&back).to_string(), Fen::from_position(&pos).to_string());
    }

    #[test]
    fn every_state_round_trips() {
        check("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 26, "7f000040");
        check("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 26, "f8000040");
        // Clocks beyond 6 bits and 7 bits.
        check("8/8/4k3/8/8/4K3/8/8 w - - 150 300", 42, "0725806b0080");
        check("8/8/4k3/8/8/4K3/8/8 b - - 4294967295 4294967295", 90, "873fffffffc3ffffffffc3c0");
        // Chess960: the mode bit; an inner rook's right and the eighth candidate take the escape.
        check("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", 26, "7f800040");
        check(
            "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPP1/NRBBQKRR w GBgb - 0 1",
            26 + 4 * 3 + 1,
            "7ff1c40002",
        );
        check("4k3/8/8/8/PPPPPPPP/8/8/4K3 b - h3 0 1", 26 + 4, "877c0004");
        check("4k3/8/8/8/PPPPPPPP/8/8/4K3 b - g3 0 1", 26, "86000040");
    }

    #[test]
    fn fields_print_without_a_board() {
        let fields = |fen: &str| {
            decode(encode(&parse_position(fen).unwrap()).as_bytes()).unwrap().to_string()
        };
        insta::assert_snapshot!(fields("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"), @"b KQkq #0 0 1");
        insta::assert_snapshot!(fields("nrbbqkrn/pppppppp/8/8/8/8/PPPPPPP1/NRBBQKRR w GBgb - 0 1"), @"w GBgb - 0 1");
        insta::assert_snapshot!(fields("4k3/8/8/8/PPPPPPPP/8/8/4K3 b - h3 7 9"), @"b - h3 7 9");
    }

    #[test]
    fn bad_streams_say_where() {
        // The stream ends in the fullmove number.
        let err = decode(&[0xf8, 0x00, 0x00]).unwrap_err();
        assert_eq!(
            err,
            Located { at: crate::bits::Bit(19), kind: DecodeErrorKind::Truncated { wanted: 2 } }
        );
        // A halfmove clock of five groups with the continuation bit set.
        let err = decode(&[0x00, 0x3f, 0xff, 0xff, 0xff, 0xff, 0xc0]).unwrap_err();
        assert_eq!(
            err,
            Located { at: crate::bits::Bit(10), kind: DecodeErrorKind::VarintTooLarge }
        );
        insta::assert_snapshot!(err, @"bit 10: number too large for 32 bits");
    }
}
