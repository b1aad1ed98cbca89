//! `grouped`: the board as groups of squares, one group per piece kind present.
//!
//! # Layout
//!
//! ```text
//! per piece kind present, kinds rising (1 white pawn .. 12 black king, the codes of board):
//!   4 bits   the kind
//!   3 bits   a count c: the group holds c + 1 pieces (1 to 8)
//!   6 bits   per piece, its square (a1 = 0 .. h8 = 63), rising
//! the list ends:
//!   after a group of kind 12 (the black king) of fewer than 8 pieces, with nothing more; or
//!   with the end marker 0000 (4 bits) otherwise
//! ```
//!
//! Every legal position has one black king, so its list ends with the black king's group and
//! needs no end marker: the start position is 12 groups of 7 bits and 32 squares of 6 bits,
//! 84 + 192 = **276 bits**; 15 pieces of 7 kinds take 7 * 7 + 15 * 6 = **139 bits**. A board
//! without a black king (board encodings take any placement) pays the 4-bit end marker; the
//! empty board is the marker alone.
//!
//! **More than 8 pieces of a kind** (nine queens after promotions, or any number on a board that
//! is not a position) take several groups of that kind in a row, 8 pieces in each but the last:
//! nine or ten queens are a group of 8 and a group of 1 or 2, and so cost one more 7-bit group
//! header than a single group would. A kind may repeat only after a full group of 8, so every
//! board has exactly one encoding.
//!
//! The decoder takes the squares of a group in any order, but two pieces on one square, a kind
//! lower than the one before it, or a repeated kind after a group of fewer than 8 is an error.
//!
//! # Worked example
//!
//! White king e1, white pawn e4, black king e8:
//!
//! ```text
//! P: 0001 000 011100      K: 0110 000 000100      k: 1100 000 111100   (39 bits, no marker)
//! = 10 e3 01 30 78 (the last bit is padding)
//! ```
//!
//! ```
//! use chessbits_codec::classic::grouped;
//! use chessbits_notation::fen::Fen;
//!
//! let board = "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1".parse::<Fen>()?.0.board;
//! let bits = grouped::encode(&board);
//! assert_eq!((bits.len(), bits.to_hex()), (39, "10e3013078".to_owned()));
//! assert_eq!(grouped::decode(bits.as_bytes())?, board);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! Changing the layout (the kind order, the count offset, the end rule) is a breaking change.

use chessbits_bitboard::{Piece, Square};
use chessbits_state::Board;

use crate::bits::{BitReader, BitWriter, Bits, Located};
use crate::classic::codes::{code_of, piece_of, BoardError, BoardErrorKind};

/// The bits of a group header: a 4-bit kind and a 3-bit count.
pub const HEADER_BITS: usize = 7;

/// The most pieces one group holds.
pub const GROUP_MAX: u32 = 8;

/// The kind whose group ends the list: the black king.
const LAST_KIND: u8 = 12;

/// The number of bits `board` takes.
pub fn len(board: &Board) -> usize {
    let mut bits = 0;
    for piece in Piece::ALL {
        let n = board.by_piece(piece).count();
        bits += n.div_ceil(GROUP_MAX) as usize * HEADER_BITS + 6 * n as usize;
    }
    if needs_end_marker(board) {
        bits += 4;
    }
    bits
}

/// `true` unless the last group is a black king group of fewer than 8 pieces.
fn needs_end_marker(board: &Board) -> bool {
    let kings = piece_of(LAST_KIND).map_or(0, |king| board.by_piece(king).count());
    kings.is_multiple_of(GROUP_MAX)
}

/// Appends the groups of `board`, then the end marker if the list needs one.
pub fn write(w: &mut BitWriter, board: &Board) {
    for piece in Piece::ALL {
        let mut squares = board.by_piece(piece);
        while squares.any() {
            let n = squares.count().min(GROUP_MAX);
            w.write(u64::from(code_of(Some(piece))) << 3 | u64::from(n - 1), 7);
            for _ in 0..n {
                if let Some(sq) = squares.pop_first() {
                    w.write(sq as u64, 6);
                }
            }
        }
    }
    if needs_end_marker(board) {
        w.write(0, 4);
    }
}

/// Reads groups up to the end of the list.
///
/// # Errors
/// [`BoardError`] at the group or square at fault: a kind of 13-15, a kind out of order, a second
/// piece on a square, or the end of the stream.
pub fn read(r: &mut BitReader<'_>) -> Result<Board, BoardError> {
    let mut board = Board::empty();
    // The kind and size of the group before.
    let (mut last_kind, mut last_len) = (0u8, 0u32);
    loop {
        let at = r.position();
        let kind = r.read(4)? as u8;
        if kind == 0 {
            return Ok(board);
        }
        let piece =
            piece_of(kind).ok_or(Located::invalid(at, BoardErrorKind::InvalidCode(kind)))?;
        if kind < last_kind || (kind == last_kind && last_len < GROUP_MAX) {
            let error = BoardErrorKind::KindOutOfOrder { kind, after: last_kind };
            return Err(Located::invalid(at, error));
        }
        let n = r.read(3)? as u32 + 1;
        for _ in 0..n {
            let at = r.position();
            let sq = Square::new(r.read(6)? as u32);
            if board.occupied().contains(sq) {
                return Err(Located::invalid(at, BoardErrorKind::SquareTaken(sq)));
            }
            board.set_piece_at(sq, piece);
        }
        if kind == LAST_KIND && n < GROUP_MAX {
            return Ok(board);
        }
        (last_kind, last_len) = (kind, n);
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
            // 12 kinds, 32 pieces.
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 276),
            // 15 pieces of 7 kinds: K Q R R P P P P, k r p p p p p.
            ("r3k3/ppppp3/8/8/8/8/PPPP4/R2QK2R w - - 0 1", 139),
            // Nine white queens: a group of 8 and a group of 1, one more header (7 bits).
            ("4k3/8/8/8/8/8/QQQQQQQQ/Q3K3 w - - 0 1", 7 + 8 * 6 + 7 + 6 + 7 + 6 + 7 + 6),
            // Ten.
            ("4k3/8/8/8/8/Q7/QQQQQQQQ/Q3K3 w - - 0 1", 7 + 8 * 6 + 7 + 2 * 6 + 7 + 6 + 7 + 6),
            // No black king: the end marker.
            ("8/8/8/8/8/8/8/4K3 w - - 0 1", 7 + 6 + 4),
            ("8/8/8/8/8/8/8/8 w - - 0 1", 4),
            // Eight black kings fill a group: the marker still ends the list.
            ("kkkkkkkk/8/8/8/8/8/8/8 w - - 0 1", 7 + 8 * 6 + 4),
            ("kkkkkkkk/k7/8/8/8/8/8/8 w - - 0 1", 7 + 8 * 6 + 7 + 6),
            (
                "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ w - - 0 1",
                8 * 7 + 64 * 6 + 4,
            ),
        ];
        for (fen, expected) in cases {
            let board = board(fen);
            let bits = encode(&board);
            assert_eq!((bits.len(), len(&board)), (expected, expected), "{fen}");
            assert_eq!(decode(bits.as_bytes()), Ok(board), "{fen}");
        }
        let seven_kinds = board("r3k3/ppppp3/8/8/8/8/PPPP4/R2QK2R w - - 0 1");
        assert_eq!(seven_kinds.occupied().count(), 15);
    }

    #[test]
    fn bad_streams_say_where() {
        let group = |w: &mut BitWriter, kind: u64, squares: &[u64]| {
            w.write(kind << 3 | (squares.len() as u64 - 1), 7);
            for &sq in squares {
                w.write(sq, 6);
            }
        };
        // K e1 then P e4: kinds must rise.
        let mut w = BitWriter::new();
        group(&mut w, 6, &[4]);
        group(&mut w, 1, &[28]);
        let err = decode(w.finish().as_bytes()).unwrap_err();
        assert_eq!(err, Located::invalid(13, BoardErrorKind::KindOutOfOrder { kind: 1, after: 6 }));
        insta::assert_snapshot!(err, @"bit 13: piece kind 1 after kind 6, kinds must rise");
        // Two groups of queens, the first not full.
        let mut w = BitWriter::new();
        group(&mut w, 5, &[0, 1]);
        group(&mut w, 5, &[2]);
        let err = decode(w.finish().as_bytes()).unwrap_err();
        assert_eq!(err, Located::invalid(19, BoardErrorKind::KindOutOfOrder { kind: 5, after: 5 }));
        // A square twice.
        let mut w = BitWriter::new();
        group(&mut w, 5, &[0]);
        group(&mut w, 6, &[0]);
        let err = decode(w.finish().as_bytes()).unwrap_err();
        assert_eq!(err, Located::invalid(20, BoardErrorKind::SquareTaken(Square::A1)));
        // Kind 13.
        let err = decode(&[0xd0]).unwrap_err();
        assert_eq!(err, Located::invalid(0, BoardErrorKind::InvalidCode(13)));
        // The stream ends inside the squares.
        let mut w = BitWriter::new();
        w.write(12 << 3 | 1, 7);
        w.write(60, 6);
        let err = decode(w.finish().as_bytes()).unwrap_err();
        assert_eq!(
            err,
            Located { at: crate::bits::Bit(13), kind: DecodeErrorKind::Truncated { wanted: 3 } }
        );
    }
}
