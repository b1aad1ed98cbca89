//! Every board, state and position encoding by name ([`Encoding`]), as the `chessbits encode`
//! and `chessbits decode` commands take them: `nibbles`, `rle:1` .. `rle:6`, `rle:auto`,
//! `pieces`, `grouped`, `state14`, `state-full`, and any `BOARD+STATE` pair.
//!
//! ```
//! use chessbits_codec::classic::encoding::Encoding;
//! use chessbits_codec::bits::BitReader;
//! use chessbits_notation::fen::Fen;
//!
//! let fen: Fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1".parse()?;
//! let encoding: Encoding = "rle:auto+state-full".parse()?;
//! let bits = encoding.encode(&fen)?;
//! let decoded = encoding.decode(&mut bits.reader())?;
//! assert_eq!(decoded.to_string(), fen.to_string());
//!
//! // Board-only encodings take any placement and give the placement back.
//! let encoding: Encoding = "pieces".parse()?;
//! let bits = encoding.encode(&"8/8/8/8/8/8/8/PPPPPPPP w - -".parse()?)?;
//! assert_eq!(encoding.decode(&mut BitReader::new(bits.as_bytes()))?.to_string(), "8/8/8/8/8/8/8/PPPPPPPP");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use core::str::FromStr;

use chessbits_state::{Board, Position, PositionError, Setup};

use crate::bits::{Bit, BitReader, BitWriter, Bits, DecodeErrorKind, Located};
use crate::classic::board::{BoardFormat, UnknownFormat};
use crate::classic::position::{
    PositionDecodeError, PositionErrorKind, PositionFormat, StateFormat,
};
use crate::classic::state::{StateEncodeError, StateFields};
use chessbits_notation::fen::Fen;

/// A board, state or position encoding.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// A board alone: any placement.
    Board(BoardFormat),
    /// A game state alone (of a legal position; decoding it without a board leaves what needs
    /// the board symbolic, see [`StateFields`]).
    State(StateFormat),
    /// A legal position.
    Position(PositionFormat),
    /// A legal position in the `packed` byte format (`packed`, `packed+clocks`).
    Packed {
        /// Whether the two clocks are written.
        clocks: bool,
    },
    /// A legal position in the model-coded `compact` byte format (`compact`,
    /// `compact+clocks`).
    Compact {
        /// Whether the two clocks are written.
        clocks: bool,
    },
}

/// The names `--format` takes and what each is, one line each, for `--list`.
pub const LIST: [(&str, &str); 12] = [
    ("nibbles", BoardFormat::Nibbles.description()),
    ("rle:K", BoardFormat::Rle(crate::classic::board::RunWidth::ALL[0]).description()),
    ("rle:auto", BoardFormat::RleAuto.description()),
    ("pieces", BoardFormat::Pieces.description()),
    ("grouped", BoardFormat::Grouped.description()),
    ("state14", StateFormat::State14.description()),
    ("state-full", StateFormat::StateFull.description()),
    ("BOARD+STATE", "position: a board encoding then a state encoding, e.g. grouped+state-full"),
    ("packed", "position: at most 24 bytes, the lichess binary FEN layout, no clocks"),
    ("packed+clocks", "position: packed, then the two clocks (at most 35 bytes)"),
    ("compact", "position: range-coded against a model of real games (about 9 bytes), no clocks"),
    ("compact+clocks", "position: compact with the two clocks"),
];

impl Encoding {
    /// Encodes what this encoding holds of `fen`: the placement for a board encoding, the
    /// validated position for the others.
    ///
    /// # Errors
    /// [`EncodeError`]: the FEN is not a legal position (state and position encodings), or its
    /// state does not fit `state14`.
    pub fn encode(self, fen: &Fen) -> Result<Bits, EncodeError> {
        let mut w = BitWriter::new();
        match self {
            Encoding::Board(format) => format.write(&mut w, &fen.0.board),
            Encoding::State(format) => {
                let pos = Position::from_setup(&fen.0).map_err(EncodeError::Position)?;
                format.write(&mut w, &pos).map_err(EncodeError::State)?;
            }
            Encoding::Position(format) => {
                let pos = Position::from_setup(&fen.0).map_err(EncodeError::Position)?;
                format.write(&mut w, &pos).map_err(EncodeError::State)?;
            }
            Encoding::Packed { clocks } => {
                let pos = Position::from_setup(&fen.0).map_err(EncodeError::Position)?;
                write_bytes(&mut w, crate::packed::encode(&pos, clocks).as_bytes());
            }
            Encoding::Compact { clocks } => {
                let pos = Position::from_setup(&fen.0).map_err(EncodeError::Position)?;
                write_bytes(&mut w, crate::compact::encode(&pos, clocks).as_bytes());
            }
        }
        Ok(w.finish())
    }

    /// Reads what this encoding holds, then checks that the stream ends there (but for the
    /// zero padding of its last byte).
    ///
    /// # Errors
    /// [`PositionDecodeError`] with the bit offset of the field at fault.
    pub fn decode(self, r: &mut BitReader<'_>) -> Result<Decoded, PositionDecodeError> {
        let decoded = match self {
            Encoding::Board(format) => {
                Decoded::Board(format.read(r).map_err(|e| e.map(PositionErrorKind::Board))?)
            }
            Encoding::State(format) => {
                Decoded::State(format.read(r).map_err(|e| e.map(PositionErrorKind::State))?)
            }
            Encoding::Position(format) => Decoded::Position(format.read(r)?),
            // Byte formats: they read their bytes to the end themselves.
            Encoding::Packed { clocks } => {
                let bytes = read_bytes(r)?;
                let pos = crate::packed::decode(&bytes).map_err(|e| Located {
                    at: e.at,
                    kind: DecodeErrorKind::Invalid(PositionErrorKind::Packed(e.kind)),
                })?;
                // `packed` writes nothing after the piece codes: bytes there are another
                // format's clocks (`packed+clocks`), or damage, and not read as clocks.
                let end = packed_board_len(&bytes);
                if !clocks && bytes.len() > end {
                    let bits = 8 * (bytes.len() - end);
                    return Err(Located {
                        at: Bit(8 * end),
                        kind: DecodeErrorKind::TrailingBits { bits },
                    });
                }
                Decoded::Position(pos)
            }
            Encoding::Compact { .. } => {
                let bytes = read_bytes(r)?;
                let pos = crate::compact::decode(&bytes).map_err(|e| Located {
                    at: e.at,
                    kind: DecodeErrorKind::Invalid(PositionErrorKind::Compact(e.kind)),
                })?;
                Decoded::Position(pos)
            }
        };
        r.finish().map_err(Located::from)?;
        Ok(decoded)
    }
}

/// Appends whole bytes (the byte formats) to a bit stream.
fn write_bytes(w: &mut BitWriter, bytes: &[u8]) {
    for &b in bytes {
        w.write(u64::from(b), 8);
    }
}

/// The whole bytes left in a stream (a byte format's input, at most a few dozen bytes).
/// The length of a `packed` position's occupancy and piece codes, the whole of it without
/// clocks (`bytes` decoded, so at least the occupancy is there).
fn packed_board_len(bytes: &[u8]) -> usize {
    let occupancy = bytes.get(..8).map_or(0, |b| b.iter().map(|b| b.count_ones()).sum::<u32>());
    8 + (occupancy as usize).div_ceil(2)
}

fn read_bytes(r: &mut BitReader<'_>) -> Result<Vec<u8>, PositionDecodeError> {
    let mut bytes = Vec::with_capacity(r.remaining() / 8);
    while r.remaining() >= 8 {
        let at = r.position();
        let byte = r
            .read(8)
            .map_err(|_| Located { at: Bit(at), kind: DecodeErrorKind::Truncated { wanted: 8 } })?;
        bytes.push(byte as u8);
    }
    Ok(bytes)
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Encoding::Board(format) => format.fmt(f),
            Encoding::State(format) => format.fmt(f),
            Encoding::Position(format) => format.fmt(f),
            Encoding::Packed { clocks } => {
                f.write_str(if *clocks { "packed+clocks" } else { "packed" })
            }
            Encoding::Compact { clocks } => {
                f.write_str(if *clocks { "compact+clocks" } else { "compact" })
            }
        }
    }
}

impl FromStr for Encoding {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Encoding, UnknownFormat> {
        match s {
            "packed" => return Ok(Encoding::Packed { clocks: false }),
            "packed+clocks" => return Ok(Encoding::Packed { clocks: true }),
            "compact" => return Ok(Encoding::Compact { clocks: false }),
            "compact+clocks" => return Ok(Encoding::Compact { clocks: true }),
            _ => {}
        }
        if s.contains('+') {
            return s.parse().map(Encoding::Position);
        }
        s.parse().map(Encoding::Board).or_else(|_| s.parse().map(Encoding::State))
    }
}

/// What a stream decodes to.
///
/// `Display` writes it as FEN text: the placement field alone for a board, the five fields after
/// it for a state (see [`StateFields`]), the whole FEN for a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// A board.
    Board(Board),
    /// A game state, without its board.
    State(StateFields),
    /// A legal position.
    Position(Position),
}

impl fmt::Display for Decoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decoded::Board(board) => {
                let mut setup = Setup::empty();
                setup.board = *board;
                let fen = Fen(setup).to_string();
                f.write_str(fen.split(' ').next().unwrap_or_default())
            }
            Decoded::State(fields) => fields.fmt(f),
            Decoded::Position(pos) => Fen::from_position(pos).fmt(f),
        }
    }
}

/// A FEN that an encoding cannot hold.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// The FEN is not a legal position, and the encoding needs one.
    Position(PositionError),
    /// The state does not fit `state14`.
    State(StateEncodeError),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::Position(err) => write!(f, "illegal position: {err}"),
            EncodeError::State(err) => err.fmt(f),
        }
    }
}

impl std::error::Error for EncodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EncodeError::Position(err) => Some(err),
            EncodeError::State(err) => Some(err),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses() {
        let mut names = vec![];
        for board in BoardFormat::ALL {
            names.push(board.to_string());
            for state in StateFormat::ALL {
                names.push(format!("{board}+{state}"));
            }
        }
        names.extend(StateFormat::ALL.map(|s| s.to_string()));
        for name in names {
            assert_eq!(name.parse::<Encoding>().map(|e| e.to_string()), Ok(name.clone()));
        }
        assert!("rle:K".parse::<Encoding>().is_err());
        assert!("state14+state14".parse::<Encoding>().is_err());
    }
}
