//! A position: any board encoding followed by a game-state encoding, such as `nibbles+state14`
//! or `grouped+state-full` ([`PositionFormat`]).
//!
//! # Layout
//!
//! ```text
//! the board, in its encoding (nibbles, rle:K, rle:auto, pieces, grouped)
//! the game state, in its encoding (state14, state-full)
//! ```
//!
//! The board comes first because the state's castling and en passant fields need it to decode.
//! Decoding validates the result: a board and state that describe no legal position (no king,
//! a pawn on the first rank, 33 pieces, the side not to move in check...) give
//! [`PositionErrorKind::Illegal`] with the offset where the position starts.
//!
//! With `state-full` every pair is **lossless**: decoding gives back the same position, the same
//! FEN (castling mode included) and the same Zobrist key. With `state14` the fullmove number comes
//! back as 1, the castling mode as the one the rights need, and positions whose state does not
//! fit are refused when encoding ([`StateEncodeError`]).
//!
//! # Worked example
//!
//! The start position in `grouped+state-full`: 276 bits of board, 26 of state:
//!
//! ```
//! use chessbits_codec::classic::position::PositionFormat;
//! use chessbits_state::Position;
//!
//! let format: PositionFormat = "grouped+state-full".parse()?;
//! let bits = format.encode(&Position::new())?;
//! assert_eq!(bits.len(), 276 + 26);
//! assert_eq!(format.decode(bits.as_bytes())?, Position::new());
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! Changing the layout of either part is a breaking change.

use core::fmt;
use core::str::FromStr;

use chessbits_state::{Position, PositionError};

use crate::bits::{Bit, BitReader, BitWriter, Bits, DecodeErrorKind, Located};
use crate::classic::board::{BoardErrorKind, BoardFormat, UnknownFormat};
use crate::classic::state::{
    en_passant_bits, inner_castling_rook, StateEncodeError, StateError, StateErrorKind,
    StateFields, RIGHTS,
};
use crate::classic::{state_full, state_lossy};

/// A game-state encoding, chosen at run time: `state14` or `state-full`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StateFormat {
    /// `state14` ([`state_lossy`]): 14 bits, lossy.
    State14,
    /// [`state_full`]: lossless, 26 bits for most positions.
    StateFull,
}

impl StateFormat {
    /// Both, `state14` first.
    pub const ALL: [StateFormat; 2] = [StateFormat::State14, StateFormat::StateFull];

    /// Whether the state of `pos` can be written. Only `state14` refuses anything.
    ///
    /// # Errors
    /// [`StateEncodeError`] saying why not.
    pub fn check(self, pos: &Position) -> Result<(), StateEncodeError> {
        if self == StateFormat::StateFull {
            return Ok(());
        }
        if pos.halfmoves() > state_lossy::MAX_HALFMOVES {
            return Err(StateEncodeError::HalfmovesTooLarge(pos.halfmoves()));
        }
        if let Some(rook) = inner_castling_rook(pos) {
            return Err(StateEncodeError::CastlingRookNotOutermost(rook));
        }
        en_passant_bits(pos).map(|_| ()).map_err(StateEncodeError::EnPassantNotNamed)
    }

    /// Appends the state of `pos`. Nothing is written on error.
    ///
    /// # Errors
    /// [`StateEncodeError`] from `state14`.
    pub fn write(self, w: &mut BitWriter, pos: &Position) -> Result<(), StateEncodeError> {
        match self {
            StateFormat::State14 => state_lossy::write(w, pos),
            StateFormat::StateFull => {
                state_full::write(w, pos);
                Ok(())
            }
        }
    }

    /// Reads the state, without a board.
    ///
    /// # Errors
    /// [`StateError`] if the stream ends first (or a `state-full` clock is too large).
    pub fn read(self, r: &mut BitReader<'_>) -> Result<StateFields, StateError> {
        match self {
            StateFormat::State14 => state_lossy::read(r),
            StateFormat::StateFull => state_full::read(r),
        }
    }

    /// `true` for the encoding that keeps every state.
    pub const fn is_lossless(self) -> bool {
        matches!(self, StateFormat::StateFull)
    }

    /// One line saying what the encoding is.
    pub const fn description(self) -> &'static str {
        match self {
            StateFormat::State14 => {
                "state: side, castling (4), en passant candidate (3), halfmove clock 0-63 (6): 14 bits"
            }
            StateFormat::StateFull => {
                "state: state14's fields, castling mode, escape, both clocks as varints: 26 bits typically"
            }
        }
    }
}

impl fmt::Display for StateFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            StateFormat::State14 => "state14",
            StateFormat::StateFull => "state-full",
        })
    }
}

impl FromStr for StateFormat {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<StateFormat, UnknownFormat> {
        match s {
            "state14" => Ok(StateFormat::State14),
            "state-full" => Ok(StateFormat::StateFull),
            _ => Err(UnknownFormat(s.to_owned())),
        }
    }
}

/// A position encoding: a board encoding and a state encoding, written `BOARD+STATE`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PositionFormat {
    /// How the board is written.
    pub board: BoardFormat,
    /// How the game state is written.
    pub state: StateFormat,
}

impl PositionFormat {
    /// The pair.
    pub const fn new(board: BoardFormat, state: StateFormat) -> PositionFormat {
        PositionFormat { board, state }
    }

    /// Appends `pos`. Nothing is written on error.
    ///
    /// # Errors
    /// [`StateEncodeError`] if the state encoding cannot hold the position's state.
    pub fn write(self, w: &mut BitWriter, pos: &Position) -> Result<(), StateEncodeError> {
        self.state.check(pos)?;
        self.board.write(w, pos.board());
        self.state.write(w, pos)
    }

    /// Reads a position and validates it.
    ///
    /// # Errors
    /// [`PositionDecodeError`]: the board's or the state's error with its offset, or
    /// [`PositionErrorKind::Illegal`] at the start of the position.
    pub fn read(self, r: &mut BitReader<'_>) -> Result<Position, PositionDecodeError> {
        let start = r.position();
        let board = self.board.read(r).map_err(|e| e.map(PositionErrorKind::Board))?;
        let state_at = r.position();
        let fields = self.state.read(r).map_err(|e| e.map(PositionErrorKind::State))?;
        let setup = fields.to_setup(&board).map_err(|kind| {
            // Point at the castling bit at fault.
            let StateErrorKind::CastlingWithoutRook { color, side } = kind;
            let bit = RIGHTS.iter().position(|&right| right == (color, side)).unwrap_or(0);
            Located::invalid(state_at + 1 + bit, PositionErrorKind::State(kind))
        })?;
        Position::from_setup(&setup)
            .map_err(|e| Located::invalid(start, PositionErrorKind::Illegal(e)))
    }

    /// The number of bits `pos` takes.
    ///
    /// # Errors
    /// [`StateEncodeError`] if the state encoding cannot hold the position's state.
    pub fn len(self, pos: &Position) -> Result<usize, StateEncodeError> {
        self.state.check(pos)?;
        let state = match self.state {
            StateFormat::State14 => state_lossy::BITS,
            StateFormat::StateFull => state_full::len(pos),
        };
        Ok(self.board.len(pos.board()) + state)
    }

    /// `pos` as a stream of its own.
    ///
    /// # Errors
    /// As [`PositionFormat::write`].
    pub fn encode(self, pos: &Position) -> Result<Bits, StateEncodeError> {
        let mut w = BitWriter::with_capacity(self.len(pos)?);
        self.write(&mut w, pos)?;
        Ok(w.finish())
    }

    /// Reads a position from `bytes`, which must hold nothing else.
    ///
    /// # Errors
    /// As [`PositionFormat::read`], and trailing bits that are not padding.
    pub fn decode(self, bytes: &[u8]) -> Result<Position, PositionDecodeError> {
        let mut r = BitReader::new(bytes);
        let pos = self.read(&mut r)?;
        r.finish()?;
        Ok(pos)
    }
}

impl fmt::Display for PositionFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", self.board, self.state)
    }
}

impl FromStr for PositionFormat {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<PositionFormat, UnknownFormat> {
        let unknown = || UnknownFormat(s.to_owned());
        let (board, state) = s.split_once('+').ok_or_else(unknown)?;
        Ok(PositionFormat {
            board: board.parse().map_err(|_| unknown())?,
            state: state.parse().map_err(|_| unknown())?,
        })
    }
}

/// What is wrong with a position stream.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionErrorKind {
    /// The board part is not a board.
    Board(BoardErrorKind),
    /// The state part does not fit the board.
    State(StateErrorKind),
    /// Board and state describe no legal position.
    Illegal(PositionError),
    /// A `packed` position is wrong (see [`crate::packed`]).
    Packed(crate::packed::PackedErrorKind),
    /// A `compact` position is wrong (see [`crate::compact`]).
    Compact(crate::compact::CompactErrorKind),
}

impl fmt::Display for PositionErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionErrorKind::Board(kind) => kind.fmt(f),
            PositionErrorKind::State(kind) => kind.fmt(f),
            PositionErrorKind::Illegal(err) => write!(f, "illegal position: {err}"),
            PositionErrorKind::Packed(kind) => kind.fmt(f),
            PositionErrorKind::Compact(kind) => kind.fmt(f),
        }
    }
}

/// Why a stream is not a position: the bit offset and a [`PositionErrorKind`].
pub type PositionDecodeError = Located<Bit, DecodeErrorKind<PositionErrorKind>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::DecodeErrorKind;
    use crate::classic::nibbles;
    use chessbits_bitboard::Color;
    use chessbits_notation::fen::{parse_position, Fen};
    use chessbits_state::{Board, CastlingSide, Status};

    fn all_formats() -> impl Iterator<Item = PositionFormat> {
        BoardFormat::ALL
            .into_iter()
            .flat_map(|board| StateFormat::ALL.map(|state| PositionFormat::new(board, state)))
    }

    #[test]
    fn names_parse_and_print() {
        for format in all_formats() {
            assert_eq!(format.to_string().parse::<PositionFormat>(), Ok(format));
        }
        for bad in [
            "nibbles",
            "nibbles+",
            "+state14",
            "nibbles+state15",
            "state14+nibbles",
            "rle:7+state14",
        ] {
            assert!(bad.parse::<PositionFormat>().is_err(), "{bad}");
        }
    }

    #[test]
    fn lossless_pairs_round_trip() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPP1/NRBBQKRR w GBgb - 0 1",
            "4k3/8/8/8/PPPPPPPP/8/8/4K3 b - h3 99 120",
        ];
        for fen in fens {
            let pos = parse_position(fen).unwrap();
            for format in all_formats().filter(|f| f.state.is_lossless()) {
                let bits = format.encode(&pos).unwrap();
                assert_eq!(bits.len(), format.len(&pos).unwrap(), "{format} {fen}");
                let back = format.decode(bits.as_bytes()).unwrap();
                assert_eq!(back, pos, "{format} {fen}");
                assert_eq!(
                    Fen::from_position(&back).to_string(),
                    Fen::from_position(&pos).to_string()
                );
            }
        }
    }

    #[test]
    fn impossible_positions_are_typed_errors() {
        let format = PositionFormat::new(BoardFormat::Nibbles, StateFormat::StateFull);
        let with_board = |fen: &str| {
            let board = fen.parse::<Fen>().unwrap().0.board;
            let mut w = BitWriter::new();
            nibbles::write(&mut w, &board);
            state_full::write(&mut w, &Position::new());
            format.decode(w.finish().as_bytes()).unwrap_err()
        };
        // The offset and the status of an illegal position's error.
        let illegal = |e: PositionDecodeError| match e.kind {
            DecodeErrorKind::Invalid(PositionErrorKind::Illegal(illegal)) => {
                Some((e.at.0, illegal.status()))
            }
            _ => None,
        };
        // The state is the start position's: all four rights, which need kings and rooks.
        assert_eq!(
            with_board("8/8/8/8/8/8/8/8 w - - 0 1"),
            Located::invalid(
                257,
                PositionErrorKind::State(StateErrorKind::CastlingWithoutRook {
                    color: Color::White,
                    side: CastlingSide::KingSide
                })
            ),
        );
        let no_rights = |fen: &str| {
            let board = fen.parse::<Fen>().unwrap().0.board;
            let mut w = BitWriter::new();
            nibbles::write(&mut w, &board);
            state_full::write(&mut w, &parse_position("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap());
            format.decode(w.finish().as_bytes()).unwrap_err()
        };
        assert_eq!(
            illegal(no_rights("8/8/8/8/8/8/8/4K3 w - - 0 1")),
            Some((0, Status::NO_BLACK_KING))
        );
        assert_eq!(
            illegal(no_rights("4k3/8/8/8/8/8/8/P3K3 w - - 0 1")),
            Some((0, Status::PAWN_ON_BACK_RANK))
        );
        assert_eq!(
            illegal(no_rights(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
                    .replace("8/8/8/8", "8/8/8/7P")
                    .as_str()
            )),
            Some((0, Status::TOO_MANY_WHITE_PIECES)),
        );
        insta::assert_snapshot!(no_rights("8/8/8/8/8/8/8/4K3 w - - 0 1"), @"bit 0: illegal position: black has no king");
        insta::assert_snapshot!(with_board("8/8/8/8/8/8/8/8 w - - 0 1"), @"bit 257: castling right without a white king and a rook on its king's side");
        // A truncated state.
        let mut w = BitWriter::new();
        nibbles::write(&mut w, &Board::new());
        let err = format.decode(w.finish().as_bytes()).unwrap_err();
        assert_eq!(
            err,
            Located { at: crate::bits::Bit(256), kind: DecodeErrorKind::Truncated { wanted: 10 } }
        );
    }

    #[test]
    fn state14_pairs_refuse_what_does_not_fit() {
        let format = PositionFormat::new(BoardFormat::Grouped, StateFormat::State14);
        let pos = parse_position("8/8/4k3/8/8/4K3/8/8 w - - 100 80").unwrap();
        assert_eq!(format.encode(&pos), Err(StateEncodeError::HalfmovesTooLarge(100)));
        let mut w = BitWriter::new();
        assert!(format.write(&mut w, &pos).is_err());
        assert!(w.is_empty(), "nothing written");
    }
}
