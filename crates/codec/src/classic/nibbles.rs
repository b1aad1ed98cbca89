//! `nibbles`: the board as 64 piece codes of 4 bits, always 256 bits.
//!
//! # Layout
//!
//! ```text
//! bits 0-3     the code of a1
//! bits 4-7     the code of b1
//! ...
//! bits 252-255 the code of h8
//! ```
//!
//! Codes are those of [`board`](crate::classic::board): 0 empty, 1-6 white pawn, knight, bishop, rook,
//! queen, king, 7-12 the black ones; 13-15 are invalid. Bits go most significant first, so the
//! hex of the stream is the codes themselves, one hex digit a square, a1 first.
//!
//! # Worked example
//!
//! The start position: rank 1 is `R N B Q K B N R` = `4 2 3 5 6 3 2 4`, rank 2 eight white
//! pawns (`1`), ranks 3-6 empty, rank 7 black pawns (`7`), rank 8 `r n b q k b n r` =
//! `a 8 9 b c 9 8 a`:
//!
//! ```text
//! 42356324 11111111 00000000 00000000 00000000 00000000 77777777 a89bc98a
//! ```
//!
//! ```
//! use chessbits_codec::classic::nibbles;
//! use chessbits_state::Board;
//!
//! let bits = nibbles::encode(&Board::new());
//! assert_eq!(bits.len(), 256);
//! assert_eq!(bits.to_hex(), format!("4235632411111111{}77777777a89bc98a", "0".repeat(32)));
//! assert_eq!(nibbles::decode(bits.as_bytes())?, Board::new());
//! # Ok::<_, chessbits_codec::classic::board::BoardError>(())
//! ```
//!
//! Decoding fails only on a code of 13-15 or a stream shorter than 256 bits. Changing the layout
//! (the square order, the codes) is a breaking change.

use chessbits_bitboard::Square;
use chessbits_state::Board;

use crate::bits::{BitReader, BitWriter, Bits, Located};
use crate::classic::codes::{code_of, piece_of, BoardError, BoardErrorKind};

/// The size of every board in this encoding.
pub const BITS: usize = 256;

/// Appends the 64 codes of `board`, a1 first.
pub fn write(w: &mut BitWriter, board: &Board) {
    // Sixteen codes at a time: four writes of 64 bits.
    for chunk in Square::ALL.chunks(16) {
        let word =
            chunk.iter().fold(0u64, |word, &sq| word << 4 | code_of(board.piece_at(sq)) as u64);
        w.write(word, 64);
    }
}

/// Reads 64 codes.
///
/// # Errors
/// [`BoardError`]: a code of 13-15 ([`BoardErrorKind::InvalidCode`]) or the end of the stream,
/// with the bit offset of the square's code.
pub fn read(r: &mut BitReader<'_>) -> Result<Board, BoardError> {
    let mut board = Board::empty();
    for sq in Square::ALL {
        let at = r.position();
        let code = r.read(4)? as u8;
        if code != 0 {
            let piece =
                piece_of(code).ok_or(Located::invalid(at, BoardErrorKind::InvalidCode(code)))?;
            board.set_piece_at(sq, piece);
        }
    }
    Ok(board)
}

/// `board` as a stream of its own (256 bits).
pub fn encode(board: &Board) -> Bits {
    BitWriter::stream(BITS, |w| write(w, board))
}

/// Reads a board from `bytes`, which must hold nothing else.
///
/// # Errors
/// As [`read`], and [`DecodeErrorKind::TrailingBits`](crate::bits::DecodeErrorKind::TrailingBits)
/// if more than the board is there.
pub fn decode(bytes: &[u8]) -> Result<Board, BoardError> {
    BitReader::whole(bytes, read)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::DecodeErrorKind;
    use chessbits_notation::fen::Fen;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().unwrap().0.board
    }

    #[test]
    fn every_board_is_256_bits_and_round_trips() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "PPPPPPPP/pppppppp/QQQQQQQQ/kkkkkkkk/8/8/8/RNBQKBNR w - - 0 1",
        ] {
            let board = board(fen);
            let bits = encode(&board);
            assert_eq!(bits.len(), BITS, "{fen}");
            assert_eq!(decode(bits.as_bytes()), Ok(board), "{fen}");
        }
        insta::assert_snapshot!(encode(&board("8/8/8/8/8/8/8/8 w - - 0 1")), @"0000000000000000000000000000000000000000000000000000000000000000");
        insta::assert_snapshot!(encode(&board("k7/8/8/8/8/8/8/7K w - - 0 1")), @"00000006000000000000000000000000000000000000000000000000c0000000");
    }

    #[test]
    fn bad_streams_say_where() {
        let mut bytes = encode(&Board::new()).into_bytes();
        // d1's code (bits 12-15) becomes 13.
        bytes[1] = 0x5d;
        assert_eq!(decode(&bytes), Err(Located::invalid(12, BoardErrorKind::InvalidCode(13))));
        let short = encode(&Board::new()).into_bytes();
        let err = decode(&short[..31]).unwrap_err();
        assert_eq!(
            err,
            Located { at: crate::bits::Bit(248), kind: DecodeErrorKind::Truncated { wanted: 4 } }
        );
        let mut long = short.clone();
        long.push(1);
        let err = decode(&long).unwrap_err();
        assert_eq!(
            err,
            Located { at: crate::bits::Bit(256), kind: DecodeErrorKind::TrailingBits { bits: 8 } }
        );
        insta::assert_snapshot!(decode(&bytes).unwrap_err(), @"bit 12: invalid piece code 13");
    }
}
