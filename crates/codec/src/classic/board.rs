//! What the board encodings share: the 4-bit piece codes, [`BoardFormat`] to pick an encoding at
//! run time, and the error kind their decoders return.
//!
//! # Piece codes
//!
//! Every board encoding names a square's content, or a piece kind, with the same 4-bit code:
//!
//! ```text
//! code  0      1  2  3  4  5  6    7  8  9  10 11 12   13-15
//!       empty  P  N  B  R  Q  K    p  n  b  r  q  k    invalid
//! ```
//!
//! that is `1 + 6 * color + role` with white 0, black 1 and roles pawn 0 .. king 5
//! ([`Piece::code`](chessbits_bitboard::Piece::code) plus one). Squares are numbered a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ...,
//! h8 = 63, and every encoding visits them in that order.
//!
//! # The encodings
//!
//! | format | module | start position | size |
//! |---|---|---:|---|
//! | `nibbles` | [`nibbles`] | 256 | always 256 bits |
//! | `rle:K` | [`rle`] | 154 at K = 3 | (4 + K) bits a run |
//! | `rle:auto` | [`rle`] | 157 | 3 + the best `rle:K` |
//! | `pieces` | [`pieces`] | 324 | 10 bits a piece + 4 |
//! | `grouped` | [`grouped`] | 276 | 7 bits a kind + 6 a piece |
//!
//! Board encodings take any placement: no kings, pawns on the back ranks, all 64 squares full.
//! Their decoders never panic; a stream that is not a board gives a [`BoardError`] with the bit
//! offset of the field at fault.
//!
//! The codes and the square order are part of every board layout: changing them is a breaking
//! change.

use core::fmt;
use core::str::FromStr;

use chessbits_state::Board;

use crate::bits::{BitReader, BitWriter, Bits};
use crate::classic::{grouped, nibbles, pieces, rle};

pub use crate::classic::codes::{code_of, piece_of, BoardError, BoardErrorKind, RunWidth};

/// A board encoding, chosen at run time. Its text form is the name the `chessbits` tool takes:
/// `nibbles`, `rle:1` .. `rle:6`, `rle:auto`, `pieces`, `grouped`.
///
/// ```
/// use chessbits_codec::classic::board::BoardFormat;
/// use chessbits_state::Board;
///
/// let format: BoardFormat = "rle:3".parse()?;
/// let bits = format.encode(&Board::new());
/// assert_eq!(bits.len(), 154);
/// assert_eq!(format.decode(bits.as_bytes())?, Board::new());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BoardFormat {
    /// [`nibbles`]: 64 codes of 4 bits.
    Nibbles,
    /// [`rle`] with a fixed count width.
    Rle(RunWidth),
    /// [`rle`] with the best width for the board, stored in 3 bits.
    RleAuto,
    /// [`pieces`]: one entry per piece and an end marker.
    Pieces,
    /// [`grouped`]: the squares of each piece kind.
    Grouped,
}

impl BoardFormat {
    /// Every board encoding, in the order `--list` shows them.
    pub const ALL: [BoardFormat; 10] = [
        BoardFormat::Nibbles,
        BoardFormat::Rle(RunWidth::ALL[0]),
        BoardFormat::Rle(RunWidth::ALL[1]),
        BoardFormat::Rle(RunWidth::ALL[2]),
        BoardFormat::Rle(RunWidth::ALL[3]),
        BoardFormat::Rle(RunWidth::ALL[4]),
        BoardFormat::Rle(RunWidth::ALL[5]),
        BoardFormat::RleAuto,
        BoardFormat::Pieces,
        BoardFormat::Grouped,
    ];

    /// Appends `board` to `w`.
    pub fn write(self, w: &mut BitWriter, board: &Board) {
        match self {
            BoardFormat::Nibbles => nibbles::write(w, board),
            BoardFormat::Rle(k) => rle::write(w, board, k),
            BoardFormat::RleAuto => rle::write_auto(w, board),
            BoardFormat::Pieces => pieces::write(w, board),
            BoardFormat::Grouped => grouped::write(w, board),
        }
    }

    /// Reads a board from `r`.
    ///
    /// # Errors
    /// [`BoardError`] with the bit offset of the field at fault.
    pub fn read(self, r: &mut BitReader<'_>) -> Result<Board, BoardError> {
        match self {
            BoardFormat::Nibbles => nibbles::read(r),
            BoardFormat::Rle(k) => rle::read(r, k),
            BoardFormat::RleAuto => rle::read_auto(r),
            BoardFormat::Pieces => pieces::read(r),
            BoardFormat::Grouped => grouped::read(r),
        }
    }

    /// The number of bits `board` takes, without writing it.
    pub fn len(self, board: &Board) -> usize {
        match self {
            BoardFormat::Nibbles => nibbles::BITS,
            BoardFormat::Rle(k) => rle::len(board, k),
            BoardFormat::RleAuto => rle::len_auto(board),
            BoardFormat::Pieces => pieces::len(board),
            BoardFormat::Grouped => grouped::len(board),
        }
    }

    /// `board` as a stream of its own.
    pub fn encode(self, board: &Board) -> Bits {
        BitWriter::stream(self.len(board), |w| self.write(w, board))
    }

    /// Reads a board from `bytes`, which must hold nothing else (but the zero padding of the
    /// last byte).
    ///
    /// # Errors
    /// [`BoardError`] with the bit offset of the field at fault.
    pub fn decode(self, bytes: &[u8]) -> Result<Board, BoardError> {
        BitReader::whole(bytes, |r| self.read(r))
    }

    /// One line saying what the encoding is.
    pub const fn description(self) -> &'static str {
        match self {
            BoardFormat::Nibbles => "board: 64 squares a1..h8, a 4-bit code each (256 bits)",
            BoardFormat::Rle(_) => {
                "board: runs of (4-bit code, K-bit count c for c+1 squares), K = 1..6"
            }
            BoardFormat::RleAuto => "board: K in 3 bits, then the runs of rle:K for the best K",
            BoardFormat::Pieces => {
                "board: per piece a 4-bit code and a 6-bit square, then the end marker 0000"
            }
            BoardFormat::Grouped => {
                "board: per piece kind a 4-bit code, a 3-bit count and 6 bits a square"
            }
        }
    }
}

impl fmt::Display for BoardFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardFormat::Nibbles => f.write_str("nibbles"),
            BoardFormat::Rle(k) => write!(f, "rle:{}", k.get()),
            BoardFormat::RleAuto => f.write_str("rle:auto"),
            BoardFormat::Pieces => f.write_str("pieces"),
            BoardFormat::Grouped => f.write_str("grouped"),
        }
    }
}

/// A name that is not a board encoding.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UnknownFormat(pub String);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown format {:?}", self.0)
    }
}

impl std::error::Error for UnknownFormat {}

impl FromStr for BoardFormat {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<BoardFormat, UnknownFormat> {
        let format = match s {
            "nibbles" => Some(BoardFormat::Nibbles),
            "rle:auto" => Some(BoardFormat::RleAuto),
            "pieces" => Some(BoardFormat::Pieces),
            "grouped" => Some(BoardFormat::Grouped),
            _ => s
                .strip_prefix("rle:")
                .and_then(|k| k.parse::<u8>().ok())
                .and_then(RunWidth::new)
                .map(BoardFormat::Rle),
        };
        format.ok_or_else(|| UnknownFormat(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_cover_the_twelve_pieces() {
        assert_eq!(code_of(None), 0);
        for code in 1..=12 {
            let piece = piece_of(code).unwrap();
            assert_eq!(code_of(Some(piece)), code);
        }
        let names: String = (1..=12).map(|c| piece_of(c).unwrap().char()).collect();
        assert_eq!(names, "PNBRQKpnbrqk");
        assert_eq!([0, 13, 14, 15, 255].map(piece_of), [None; 5]);
    }

    #[test]
    fn names_parse_and_print() {
        for format in BoardFormat::ALL {
            assert_eq!(format.to_string().parse::<BoardFormat>(), Ok(format));
        }
        for bad in ["rle:0", "rle:7", "rle:", "rle", "Nibbles", "rle:03x", ""] {
            assert!(bad.parse::<BoardFormat>().is_err(), "{bad}");
        }
        insta::assert_snapshot!("rle:9".parse::<BoardFormat>().unwrap_err(), @r#"unknown format "rle:9""#);
    }
}
