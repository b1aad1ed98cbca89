//! `pieces`: the board as a list of pieces, each a 4-bit code and a 6-bit square, closed by an
//! end marker.
//!
//! # Layout
//!
//! ```text
//! per piece, in square order a1..h8:
//!   4 bits   its code (see board: 1-6 white pawn..king, 7-12 black pawn..king)
//!   6 bits   its square (a1 = 0, b1 = 1, ..., h8 = 63)
//! then:
//!   4 bits   0000, the end marker (the code of an empty square)
//! ```
//!
//! So a board of `n` pieces takes `10 n + 4` bits: 320 bits of entries for the 32 pieces of the
//! start position, plus the 4-bit end marker, 324 in all; the empty board is the marker alone.
//! An end marker costs 4 bits where a count would cost 7 (0 to 64 pieces), and lets the list be
//! written as the board is scanned.
//!
//! The decoder takes the entries in any order, but two pieces on one square is an error; the
//! encoder writes them in square order, so equal boards give equal streams.
//!
//! # Worked example
//!
//! White king e1, black king e8, a white pawn on e4: `K e1` = `0110 000100`, `P e4` =
//! `0001 011100`, `k e8` = `1100 111100`, then `0000`: 34 bits.
//!
//! ```text
//! 0110000100 0001011100 1100111100 0000  =  61 05 cc f0 00 (the last 6 bits are padding)
//! ```
//!
//! ```
//! use chessbits_codec::classic::pieces;
//! use chessbits_notation::fen::Fen;
//!
//! let board = "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1".parse::<Fen>()?.0.board;
//! let bits = pieces::encode(&board);
//! assert_eq!((bits.len(), bits.to_hex()), (34, "6105ccf000".to_owned()));
//! assert_eq!(pieces::decode(bits.as_bytes())?, board);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! Changing the layout (the field widths, the marker) is a breaking change.

use chessbits_bitboard::Square;
use chessbits_state::Board;

use crate::bits::{BitReader, BitWriter, Bits, Located};
use crate::classic::codes::{code_of, piece_of, BoardError, BoardErrorKind};

/// The bits of one entry: a 4-bit code and a 6-bit square.
pub const ENTRY_BITS: usize = 10;

/// The bits of the end marker.
pub const END_BITS: usize = 4;

/// The number of bits `board` takes: 10 a piece and 4 for the end marker.
pub fn len(board: &Board) -> usize {
    board.occupied().count() as usize * ENTRY_BITS + END_BITS
}

/// Appends the pieces of `board` in square order, then the end marker.
pub fn write(w: &mut BitWriter, board: &Board) {
    for sq in board.occupied() {
        w.write(u64::from(code_of(board.piece_at(sq))) << 6 | sq as u64, 10);
    }
    w.write(0, 4);
}

/// Reads entries up to the end marker.
///
/// # Errors
/// [`BoardError`] at the entry at fault: a code of 13-15, a second piece on a square, or the end
/// of the stream.
pub fn read(r: &mut BitReader<'_>) -> Result<Board, BoardError> {
    let mut board = Board::empty();
    loop {
        let at = r.position();
        let code = r.read(4)? as u8;
        if code == 0 {
            return Ok(board);
        }
        let piece =
            piece_of(code).ok_or(Located::invalid(at, BoardErrorKind::InvalidCode(code)))?;
        let sq = Square::new(r.read(6)? as u32);
        if board.occupied().contains(sq) {
            return Err(Located::invalid(at, BoardErrorKind::SquareTaken(sq)));
        }
        board.set_piece_at(sq, piece);
    }
}

/// `board` as a stream of its own.
pub fn encode(board: &Board) -> Bits {
    BitWriter::stream(len(board), |w| write(w, board))
}

/// Reads a board from `bytes`, which must hold nothing else.
///
/// # Errors
/// As [`read`], and trailing bits that are not padding.
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
    fn published_figures() {
        let cases = [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 324),
            ("8/8/8/8/8/8/8/8 w - - 0 1", 4),
            ("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", 34),
            ("QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ w - -", 644),
        ];
        for (fen, expected) in cases {
            let board = board(fen);
            let bits = encode(&board);
            assert_eq!((bits.len(), len(&board)), (expected, expected), "{fen}");
            assert_eq!(decode(bits.as_bytes()), Ok(board), "{fen}");
        }
        // 320 bits of entries for the 32 pieces of the start position.
        assert_eq!(len(&Board::new()) - END_BITS, 320);
    }

    #[test]
    fn entries_in_any_order_decode() {
        // k e8, then K e1, then the marker.
        let mut w = BitWriter::new();
        w.write(0b1100_111100, 10);
        w.write(0b0110_000100, 10);
        w.write(0, 4);
        let bits = w.finish();
        assert_eq!(decode(bits.as_bytes()), Ok(board("4k3/8/8/8/8/8/8/4K3 w - -")));
    }

    #[test]
    fn bad_streams_say_where() {
        // K e1 twice.
        let mut w = BitWriter::new();
        w.write(0b0110_000100, 10);
        w.write(0b0110_000100, 10);
        w.write(0, 4);
        let bits = w.finish();
        let err = decode(bits.as_bytes()).unwrap_err();
        assert_eq!(err, Located::invalid(10, BoardErrorKind::SquareTaken(Square::E1)));
        insta::assert_snapshot!(err, @"bit 10: a second piece on e1");
        let err = decode(&[0xf0]).unwrap_err();
        assert_eq!(err, Located::invalid(0, BoardErrorKind::InvalidCode(15)));
        // The stream ends inside the first entry's square.
        let err = decode(&[0x61]).unwrap_err();
        assert_eq!(
            err,
            Located { at: crate::bits::Bit(4), kind: DecodeErrorKind::Truncated { wanted: 2 } }
        );
        // Garbage after the marker.
        let err = decode(&[0x00, 0x01]).unwrap_err();
        assert_eq!(
            err,
            Located { at: crate::bits::Bit(4), kind: DecodeErrorKind::TrailingBits { bits: 12 } }
        );
    }
}
