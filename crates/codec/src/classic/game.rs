//! Games as event streams: the start position and the moves, each in the move code of
//! [`moves`](crate::classic::moves) against the position it is played in ([`GameFormat`]).
//!
//! # Layout
//!
//! ```text
//! 1 bit      start: 0 = the standard start position, 1 = a position follows
//! [position  in the game format's position encoding, e.g. grouped+state-full]
//! varint     the number of plies (see io: 8 bits up to 127, 16 up to 16383)
//! moves      one code per ply, each read against the position the moves before it reach
//! ```
//!
//! Decoding replays the moves into a [`Game`], so the game comes back with its history: the
//! repetition counts, the fifty-move and 75-move counters and every position between are those
//! of the original (for a start position other than the standard one, choose a lossless
//! position encoding, `...+state-full`, to keep its clocks).
//!
//! [`encode_moves`] writes the moves alone, without start bit or count: what `chessbits pgn
//! --to moves:CODE` prints, with the ply count beside it.
//!
//! # Worked example
//!
//! The moves e4, e5, Nf3 from the standard position in `san-like`: the start bit `0`, the
//! count `00000011`, then e4 (8 bits: `011100 00`), e5 (`100100 00`) and Nf3 (12 bits, since
//! the knight, the f-pawn and the queen can all reach f3: `010101 01 0010`), 37 bits:
//!
//! ```text
//! 0 00000011 01110000 10010000 010101010010  =  01 b8 48 2a 90
//! ```
//!
//! ```
//! use chessbits_codec::classic::game::{self, GameFormat};
//! use chessbits_codec::classic::moves::MoveFormat;
//! use chessbits_movegen::Game;
//!
//! let mut g = Game::default();
//! for m in ["e2e4", "e7e5", "g1f3"] {
//!     g.play_uci(m.parse()?)?;
//! }
//! let format: GameFormat = "san-like".parse()?;
//! let bits = format.encode(&g)?;
//! assert_eq!((bits.len(), bits.to_hex()), (37, "01b8482a90".to_owned()));
//! let back = format.decode(bits.as_bytes())?;
//! assert_eq!(back.moves(), g.moves());
//! assert_eq!(back.position(), g.position());
//! // The moves alone: 28 bits.
//! assert_eq!(game::encode_moves(&g, MoveFormat::SanLike)?.len(), 28);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! Changing the layout is a breaking change.

use core::fmt;
use core::str::FromStr;

use chessbits_movegen::Game;

use crate::move_codec::MoveEncodeError;
use chessbits_state::Position;

use crate::bits::{Bit, BitReader, BitWriter, Bits, DecodeErrorKind, Located};
use crate::classic::board::{BoardFormat, UnknownFormat};
use crate::classic::moves::{MoveErrorKind, MoveFormat};
use crate::classic::position::{PositionErrorKind, PositionFormat, StateFormat};
use crate::classic::state::StateEncodeError;

/// Appends the moves of `game`, each against the position it was played in.
///
/// # Errors
/// [`MoveEncodeError`] at the first move no code holds: a null move (PGN's `--`, which a
/// [`Game`] may hold); a game's other moves are legal, checked when played.
pub fn write_moves(
    w: &mut BitWriter,
    game: &Game,
    code: MoveFormat,
) -> Result<(), MoveEncodeError> {
    let mut pos = *game.start();
    for (ply, &m) in (1..).zip(game.moves()) {
        code.write(w, &pos, m).map_err(|_| MoveEncodeError { ply, m })?;
        pos.play_unchecked(m);
    }
    Ok(())
}

/// The moves of `game` as a stream of their own: the bits and the bytes (the last one padded
/// with zero bits).
///
/// # Errors
/// As [`write_moves`].
pub fn encode_moves(game: &Game, code: MoveFormat) -> Result<Bits, MoveEncodeError> {
    let mut w = BitWriter::with_capacity(game.moves().len() * 12);
    write_moves(&mut w, game, code)?;
    Ok(w.finish())
}

/// Reads `plies` moves and plays them in `game`.
///
/// # Errors
/// [`GameDecodeError`] at the move at fault, with its ply (1 for the first move read).
pub fn read_moves(
    r: &mut BitReader<'_>,
    game: &mut Game,
    plies: u32,
    code: MoveFormat,
) -> Result<(), GameDecodeError> {
    for ply in 1..=plies {
        let at = r.position();
        let m = code
            .read(r, game.position())
            .map_err(|e| e.map(|kind| GameErrorKind::Move { ply, kind }))?;
        game.play(m).map_err(|_| {
            // `read` returns legal moves only; this keeps the path panic-free.
            let to = m.to();
            Located::invalid(
                at,
                GameErrorKind::Move {
                    ply,
                    kind: MoveErrorKind::NoMove { to, from: Some(m.from()), role: None },
                },
            )
        })?;
    }
    Ok(())
}

/// Reads a moves-only stream (as [`encode_moves`] writes it) of `plies` moves from `start`;
/// `bits` is its length in bits, or `None` if the stream is whole bytes with zero padding.
///
/// # Errors
/// As [`read_moves`], and bits left over.
pub fn decode_moves(
    bytes: &[u8],
    bits: Option<usize>,
    start: Position,
    plies: u32,
    code: MoveFormat,
) -> Result<Game, GameDecodeError> {
    let mut r = match bits {
        Some(len) => BitReader::with_len(bytes, len),
        None => BitReader::new(bytes),
    };
    let mut game = Game::new(start);
    read_moves(&mut r, &mut game, plies, code)?;
    r.finish()?;
    Ok(game)
}

/// A game encoding: the encoding of a start position other than the standard one, and the
/// move code. Its text form is `CODE` (other start positions in `grouped+state-full`) or
/// `CODE@BOARD+STATE`: `san-like`, `12@nibbles+state-full`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameFormat {
    /// How a start position other than the standard one is written.
    pub start: PositionFormat,
    /// How the moves are written.
    pub moves: MoveFormat,
}

/// The start position encoding when none is named: lossless and compact.
pub const DEFAULT_START: PositionFormat =
    PositionFormat::new(BoardFormat::Grouped, StateFormat::StateFull);

impl GameFormat {
    /// The game format of `moves` with start positions in `grouped+state-full`.
    pub const fn new(moves: MoveFormat) -> GameFormat {
        GameFormat { start: DEFAULT_START, moves }
    }

    /// Appends `game`. Nothing is written on error.
    ///
    /// # Errors
    /// [`GameEncodeError`]: the start position's state does not fit its encoding (`state14`).
    pub fn write(self, w: &mut BitWriter, game: &Game) -> Result<(), GameEncodeError> {
        let standard = *game.start() == Position::new();
        if !standard {
            self.start.state.check(game.start()).map_err(GameEncodeError::Start)?;
        }
        let plies = u32::try_from(game.moves().len()).map_err(|_| GameEncodeError::TooLong)?;
        w.write_bit(!standard);
        if !standard {
            self.start.write(w, game.start()).map_err(GameEncodeError::Start)?;
        }
        w.write_varint(plies);
        write_moves(w, game, self.moves).map_err(GameEncodeError::Move)
    }

    /// Reads a game, replaying its moves.
    ///
    /// # Errors
    /// [`GameDecodeError`]: the start position's error, or the move at fault with its ply.
    pub fn read(self, r: &mut BitReader<'_>) -> Result<Game, GameDecodeError> {
        let start = if r.read_bit()? {
            self.start.read(r).map_err(|e| e.map(GameErrorKind::Start))?
        } else {
            Position::new()
        };
        let plies = r.read_varint()?;
        let mut game = Game::new(start);
        read_moves(r, &mut game, plies, self.moves)?;
        Ok(game)
    }

    /// `game` as a stream of its own.
    ///
    /// # Errors
    /// As [`GameFormat::write`].
    pub fn encode(self, game: &Game) -> Result<Bits, GameEncodeError> {
        let mut w = BitWriter::with_capacity(16 + game.moves().len() * 12);
        self.write(&mut w, game)?;
        Ok(w.finish())
    }

    /// Reads a game from `bytes`, which must hold nothing else.
    ///
    /// # Errors
    /// As [`GameFormat::read`], and trailing bits that are not padding.
    pub fn decode(self, bytes: &[u8]) -> Result<Game, GameDecodeError> {
        let mut r = BitReader::new(bytes);
        let game = self.read(&mut r)?;
        r.finish()?;
        Ok(game)
    }
}

impl fmt::Display for GameFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.start == DEFAULT_START {
            write!(f, "{}", self.moves)
        } else {
            write!(f, "{}@{}", self.moves, self.start)
        }
    }
}

impl FromStr for GameFormat {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<GameFormat, UnknownFormat> {
        let unknown = || UnknownFormat(s.to_owned());
        let (moves, start) = match s.split_once('@') {
            Some((moves, start)) => (moves, start.parse().map_err(|_| unknown())?),
            None => (s, DEFAULT_START),
        };
        Ok(GameFormat { start, moves: moves.parse().map_err(|_| unknown())? })
    }
}

/// A game its format cannot hold.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GameEncodeError {
    /// The start position's state does not fit its encoding.
    Start(StateEncodeError),
    /// A move has no code: a null move (never another move of a [`Game`] built by playing
    /// moves).
    Move(MoveEncodeError),
    /// More than `u32::MAX` plies.
    TooLong,
}

impl fmt::Display for GameEncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameEncodeError::Start(err) => write!(f, "start position: {err}"),
            GameEncodeError::Move(err) => err.fmt(f),
            GameEncodeError::TooLong => f.write_str("more than 4294967295 plies"),
        }
    }
}

impl std::error::Error for GameEncodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GameEncodeError::Start(err) => Some(err),
            GameEncodeError::Move(err) => Some(err),
            GameEncodeError::TooLong => None,
        }
    }
}

/// What is wrong with a game stream.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GameErrorKind {
    /// The start position.
    Start(PositionErrorKind),
    /// The move of this ply (1 = the first move of the stream).
    Move {
        /// The ply, from 1.
        ply: u32,
        /// What is wrong.
        kind: MoveErrorKind,
    },
}

impl fmt::Display for GameErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameErrorKind::Start(kind) => write!(f, "start position: {kind}"),
            GameErrorKind::Move { ply, kind } => write!(f, "ply {ply}: {kind}"),
        }
    }
}

/// Why a stream is not a game: the bit offset and a [`GameErrorKind`].
pub type GameDecodeError = Located<Bit, DecodeErrorKind<GameErrorKind>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::DecodeErrorKind;
    use chessbits_bitboard::Square;
    use chessbits_move::UciMove;
    use chessbits_notation::fen::{parse_position, Fen};

    fn game(start: Option<&str>, moves: &str) -> Game {
        let mut g = Game::new(start.map_or(Position::new(), |fen| parse_position(fen).unwrap()));
        for m in moves.split_whitespace() {
            g.play_uci(m.parse::<UciMove>().unwrap()).unwrap();
        }
        g
    }

    /// Encodes in every move code and decodes: the same moves, positions, history.
    fn check(g: &Game) {
        for code in MoveFormat::ALL {
            let format = GameFormat::new(code);
            let bits = format.encode(g).unwrap();
            let back = format.decode(bits.as_bytes()).unwrap();
            assert_eq!(back.moves(), g.moves(), "{code}");
            assert_eq!(back.start(), g.start(), "{code}");
            assert_eq!(
                Fen::from_position(back.position()).to_string(),
                Fen::from_position(g.position()).to_string()
            );
            assert_eq!(back.repetitions(), g.repetitions());
            assert_eq!(back.claimable_draws(), g.claimable_draws());
            assert_eq!(back.outcome(), g.outcome());
            let moves = encode_moves(g, code).unwrap();
            let plies = g.moves().len() as u32;
            let back =
                decode_moves(moves.as_bytes(), Some(moves.len()), *g.start(), plies, code).unwrap();
            assert_eq!(back.moves(), g.moves());
        }
    }

    #[test]
    fn games_round_trip_with_their_history() {
        check(&game(None, ""));
        check(&game(None, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"));
        check(&game(None, "f2f3 e7e5 g2g4 d8h4"));
        check(&game(Some("4k3/8/8/8/8/8/8/R3K3 w Q - 98 70"), "e1d1 e8d8 d1e1"));
        check(&game(Some("nrbbqkrn/pppppppp/8/8/8/8/PPPPPPP1/NRBBQKRR w GBgb - 0 1"), "f1g1 a7a6"));
    }

    #[test]
    fn formats_parse_and_print() {
        for text in [
            "12",
            "san-like",
            "san-like-7-13",
            "12@nibbles+state14",
            "san-like@rle:auto+state-full",
        ] {
            assert_eq!(text.parse::<GameFormat>().unwrap().to_string(), text);
        }
        assert_eq!("12@grouped+state-full".parse::<GameFormat>().unwrap().to_string(), "12");
        for bad in ["13", "12@", "12@nibbles", "@nibbles+state14"] {
            assert!(bad.parse::<GameFormat>().is_err(), "{bad}");
        }
    }

    #[test]
    fn bad_streams_say_where_and_which_ply() {
        let format = GameFormat::new(MoveFormat::SanLike);
        // Standard start, 2 plies: e4, then target e4 again (black cannot move there).
        let mut w = BitWriter::new();
        w.write_bit(false);
        w.write_varint(2);
        w.write(28 << 2, 8);
        w.write(28 << 2, 8);
        let err = format.decode(w.finish().as_bytes()).unwrap_err();
        let kind = MoveErrorKind::NoMove { to: Square::E4, from: None, role: None };
        assert_eq!(err, Located::invalid(17, GameErrorKind::Move { ply: 2, kind }));
        insta::assert_snapshot!(err, @"bit 17: ply 2: no legal move to e4");
        // A count of 5 with one move.
        let mut w = BitWriter::new();
        w.write_bit(false);
        w.write_varint(5);
        w.write(28 << 2, 8);
        let err = format.decode(w.finish().as_bytes()).unwrap_err();
        // The second move reads its target from the padding, then runs out in its tag.
        assert_eq!(
            err,
            Located { at: crate::bits::Bit(23), kind: DecodeErrorKind::Truncated { wanted: 1 } }
        );
        // A start position with no kings.
        let mut w = BitWriter::new();
        w.write_bit(true);
        w.write(0, 4);
        crate::classic::state_full::write(
            &mut w,
            &parse_position("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap(),
        );
        w.write_varint(0);
        let err = format.decode(w.finish().as_bytes()).unwrap_err();
        insta::assert_snapshot!(err, @"bit 1: start position: illegal position: white has no king, black has no king");
        // Encoding refuses a start position state14 cannot hold.
        let g = game(Some("4k3/8/8/8/8/8/8/R3K3 w Q - 98 70"), "");
        let format: GameFormat = "12@nibbles+state14".parse().unwrap();
        assert_eq!(
            format.encode(&g),
            Err(GameEncodeError::Start(StateEncodeError::HalfmovesTooLarge(98)))
        );
    }
}
