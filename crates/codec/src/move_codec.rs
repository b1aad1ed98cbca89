//! The mainline of a game as bytes: each move coded against the legal moves of its position,
//! by the fitted [`move_model`](crate::move_model) and the [`range`] coder
//! ([`MoveCodec::Model`], about 3 bits a move), or as its index in canonical order
//! ([`MoveCodec::Index`], about 5 bits a move, no model).
//!
//! Decoding needs the start position and the number of plies: the bytes hold neither (the
//! `.cbg` game file (the crate `chessbits-cbg`) stores both).
//!
//! # `model`
//!
//! For each ply, the model gives every legal move a frequency out of 2<sup>15</sup>
//! ([`MoveModel::frequencies`]), in canonical order; the range coder codes the played move's
//! interval `(cum, freq)`, `cum` the sum of the frequencies before it. The bytes are the range
//! coder's output as [`range::Encoder::finish_exact`] ends it: every digit of the shortest
//! number in the final interval, trailing zeros included, which the decoder checks when it
//! finishes, so one game has one encoding. A game with no moves is zero bytes; any other is
//! at least one byte. So a decoder asked for more plies than were coded fails as soon as it
//! needs a digit the bytes do not hold ([`MoveDecodeErrorKind::Truncated`], checked after
//! every move): no input decodes to moves read from past its end.
//!
//! Before the first ply's move comes a header: one binary decision, "the game has null
//! moves", with frequency 1 out of 2<sup>15</sup> (0.00004 bits when it has none). If it
//! has, every ply then starts with the decision "this ply is a null move" (frequency 2,048
//! out of 2<sup>15</sup>), and a null ply codes nothing more.
//!
//! # `index`
//!
//! For each ply, the index of the move among the `n` legal moves in canonical order
//! ([`canonical_moves`](crate::move_model::canonical_moves)), in `⌈log2 n⌉` bits (none for a forced move), most significant bit
//! first, through the shared [`BitWriter`]; the last byte is padded with zero bits. An index
//! of `n` or more, a missing bit or a non-zero padding bit is an error.
//!
//! The header, before the first ply: if the start position's move count `n` leaves a value
//! unused in `⌈log2 n⌉` bits (`n` at least 3 and not a power of two, as the 20 moves of the
//! standard start), a game with null moves starts with the value `n` in those bits and a game
//! without starts with its first move; otherwise one bit, 1 if the game has null moves. A
//! game with null moves then starts every ply with one bit, 1 for a null move (which codes
//! nothing more). A game from the standard start without null moves is coded as if null
//! moves did not exist.
//!
//! # Worked example
//!
//! `1. e4 e5 2. Nf3` from the start position. In canonical order (origin a1..h8, then target)
//! white's 20 first moves are `b1a3 b1c3 g1f3 g1h3 a2a3 a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4
//! e2e3 e2e4 ...`: e2e4 is index 13, written in 5 bits `01101`. Black's pawns come before
//! its knights and a pawn's targets go up the board from a1's side, so the 20 replies start
//! `a7a5 a7a6 b7b5 b7b6 ...` and e7e5 is index 8 (`01000`). Then white has 29 moves, `b1a3
//! b1c3 d1e2 d1f3 d1g4 d1h5 e1e2 f1e2 f1d3 f1c4 f1b5 f1a6 g1e2 g1f3 ...`: g1f3 is index 13
//! (`01101`). The 15 bits and one bit of padding: `0110 1010 0001 1010` = `6a 1a`.
//!
//! ```
//! use chessbits_codec::move_codec::{self, MoveCodec};
//! use chessbits_movegen::MoveGen;
//! use chessbits_state::Position;
//!
//! let start = Position::new();
//! let mut pos = start;
//! let mut moves = Vec::new();
//! for uci in ["e2e4", "e7e5", "g1f3"] {
//!     let m = pos.resolve_uci(uci.parse()?)?;
//!     pos.play(m)?;
//!     moves.push(m);
//! }
//! let mut bytes = Vec::new();
//! move_codec::encode(MoveCodec::Index, &start, &moves, &mut bytes)?;
//! assert_eq!(bytes, [0x6a, 0x1a]);
//!
//! bytes.clear();
//! move_codec::encode(MoveCodec::Model, &start, &moves, &mut bytes)?;
//! assert!(bytes.len() <= 2);
//! let mut decoded = Vec::new();
//! move_codec::decode(MoveCodec::Model, &start, 3, &bytes, &mut decoded)?;
//! assert_eq!(decoded, moves);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! Changing either layout, the canonical order or the model's table is a breaking change.

use core::fmt;
use core::str::FromStr;

use chessbits_bitboard::isa;
use chessbits_move::Move16;
use chessbits_state::Position;

use crate::bits::{BitReader, BitWriter, ErrorKindAt, Located, Ply};
use crate::move_model::{canonical_count, canonical_index, MoveModel, RecentMoves, Scored};
use crate::range::{self, RangeError};

/// How moves are coded: see the [module docs](self).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum MoveCodec {
    /// The fitted move model and the range coder.
    #[default]
    Model,
    /// The index in canonical order, in `⌈log2 n⌉` bits.
    Index,
}

impl MoveCodec {
    /// The name: `model` or `index`.
    pub const fn name(self) -> &'static str {
        match self {
            MoveCodec::Model => "model",
            MoveCodec::Index => "index",
        }
    }
}

impl fmt::Display for MoveCodec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a [`MoveCodec`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCodec(pub String);

impl fmt::Display for UnknownCodec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown move codec {:?} (expected model or index)", self.0)
    }
}

impl std::error::Error for UnknownCodec {}

impl FromStr for MoveCodec {
    type Err = UnknownCodec;

    fn from_str(s: &str) -> Result<MoveCodec, UnknownCodec> {
        match s {
            "model" => Ok(MoveCodec::Model),
            "index" => Ok(MoveCodec::Index),
            _ => Err(UnknownCodec(s.to_owned())),
        }
    }
}

/// A move that is not legal where it was to be coded (a null move among them when the side to
/// move is in check).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveEncodeError {
    /// The ply of the move, from 1.
    pub ply: u32,
    /// The move.
    pub m: Move16,
}

impl fmt::Display for MoveEncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.m.is_null() {
            // PGN's `--`: the move codec codes it, but not in check (the king would be left
            // in check); the classic move codes have none.
            return write!(f, "ply {}: a null move cannot be coded", self.ply);
        }
        let (from, to) = (self.m.from(), self.m.to());
        write!(f, "ply {}: {from}{to}", self.ply)?;
        if let Some(role) = self.m.promotion() {
            write!(f, "{}", role.char())?;
        }
        f.write_str(" is not a legal move")
    }
}

impl std::error::Error for MoveEncodeError {}

/// Bytes that do not decode to moves: at which ply, near which byte ([`Ply`]), and what
/// (the binary decoders' one error shape, [`Located`]).
pub type MoveDecodeError = Located<Ply, MoveDecodeErrorKind>;

/// What is wrong in a [`MoveDecodeError`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MoveDecodeErrorKind {
    /// The game is over (checkmate or stalemate) but more plies were expected.
    NoLegalMove,
    /// The code names no legal move.
    Invalid,
    /// The bytes end before the last move does.
    Truncated,
    /// Bytes follow the last move, or it is not the shortest encoding.
    Trailing,
}

impl fmt::Display for MoveDecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveDecodeErrorKind::NoLegalMove => "no legal move, yet more plies follow",
            MoveDecodeErrorKind::Invalid => "the code names no legal move",
            MoveDecodeErrorKind::Truncated => "the coded moves end early",
            MoveDecodeErrorKind::Trailing => "bytes follow the last move",
        })
    }
}

/// `ply P (byte B): ` and the kind.
impl ErrorKindAt<Ply> for MoveDecodeErrorKind {}

/// Codes moves one by one from a start position; [`MoveEncoder::finish`] appends the bytes.
/// Reusable: buffers are kept from game to game.
#[derive(Clone, Debug)]
pub struct MoveEncoder {
    codec: MoveCodec,
    model: MoveModel<'static>,
    pos: Position,
    history: RecentMoves,
    scored: Box<Scored<'static>>,
    range: range::Encoder<Vec<u8>>,
    bits: BitWriter,
    bit_len: u64,
    /// Where the moves being coded start, and the moves pushed since (null moves included):
    /// the first null move codes them again after the header that says nulls follow.
    start: (Position, RecentMoves),
    game: Vec<Move16>,
    /// Whether the header is coded (it is, from the first ply on), and what it says.
    started: bool,
    nulls: bool,
}

impl MoveEncoder {
    /// An encoder for a game starting at `start`.
    pub fn new(codec: MoveCodec, start: &Position) -> MoveEncoder {
        MoveEncoder {
            codec,
            model: MoveModel::FITTED,
            pos: *start,
            history: RecentMoves::new(),
            scored: Box::new(Scored::new(MoveModel::FITTED.weights())),
            range: range::Encoder::new(Vec::new()),
            bits: BitWriter::new(),
            bit_len: 0,
            start: (*start, RecentMoves::new()),
            game: Vec::new(),
            started: false,
            nulls: false,
        }
    }

    /// Starts a new game at `start`, with `codec`, dropping what was coded.
    pub fn reset(&mut self, codec: MoveCodec, start: &Position) {
        self.codec = codec;
        self.pos = *start;
        self.history = RecentMoves::new();
        self.restart();
    }

    /// Drops what was coded; the next move starts a game at the current position.
    fn restart(&mut self) {
        let mut buf = core::mem::replace(&mut self.range, range::Encoder::new(Vec::new())).finish();
        buf.clear();
        self.range = range::Encoder::new(buf);
        self.bits.clear();
        self.bit_len = 0;
        self.start = (self.pos, self.history);
        self.game.clear();
        self.started = false;
        self.nulls = false;
    }

    /// The position after the moves pushed so far.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Plies pushed so far.
    pub fn plies(&self) -> u32 {
        self.history.ply()
    }

    /// Codes `m`, which must be legal in the current position, and plays it.
    ///
    /// # Errors
    /// [`MoveEncodeError`] if `m` is not legal; nothing is coded then.
    /// A null move ([`Move16::NULL`]) is coded as by [`MoveEncoder::push_null`].
    #[inline]
    pub fn push(&mut self, m: Move16) -> Result<(), MoveEncodeError> {
        if m.is_null() {
            return self.push_null();
        }
        // Features and move generation count and walk many bitboards: with POPCNT and BMI1
        // where the CPU has them (`isa::run` compiles the kernel twice).
        isa::run(Push(self, m))?;
        self.game.push(m);
        Ok(())
    }

    /// Codes a null move (the side to move passes, PGN's `--`) and plays it. The first one
    /// of a game codes the moves before it again, after a header that says the game has
    /// null moves (see the [module docs](self)); a game without any costs nothing for it.
    ///
    /// # Errors
    /// [`MoveEncodeError`] if the side to move is in check; nothing is coded then.
    pub fn push_null(&mut self) -> Result<(), MoveEncodeError> {
        let illegal = MoveEncodeError { ply: self.history.ply() + 1, m: Move16::NULL };
        let mut after = self.pos;
        after.play_null().map_err(|_| illegal)?;
        if !self.nulls {
            let moves = core::mem::take(&mut self.game);
            (self.pos, self.history) = self.start;
            self.restart();
            self.nulls = true;
            for &m in &moves {
                // Each was coded from here before.
                let _ = self.push(m);
            }
            after = self.pos;
            after.play_null().map_err(|_| illegal)?;
        }
        self.begin_ply(true);
        self.pos = after;
        self.history.push_null();
        self.game.push(Move16::NULL);
        Ok(())
    }

    /// Codes what comes before a ply's move: the header before the first ply, and whether
    /// the ply is a null move in a game that has them.
    #[inline(always)]
    fn begin_ply(&mut self, null: bool) {
        if self.codec == MoveCodec::Model {
            return begin_model_ply(&mut self.range, &mut self.started, self.nulls, null);
        }
        if !self.started {
            self.started = true;
            match self.codec {
                MoveCodec::Model => {}
                MoveCodec::Index => {
                    let (n, _) = canonical_count(&self.pos);
                    let width = index_width(n);
                    if !has_spare_index(n) {
                        self.bits.write(u64::from(self.nulls), 1);
                        self.bit_len += 1;
                    } else if self.nulls {
                        self.bits.write(n as u64, width);
                        self.bit_len += u64::from(width);
                    }
                }
            }
        }
        if self.nulls {
            self.bits.write(u64::from(null), 1);
            self.bit_len += 1;
        }
    }

    /// [`MoveEncoder::push`]'s body, inlined into both copies of [`Push`].
    #[inline(always)]
    fn push_portable(&mut self, m: Move16) -> Result<(), MoveEncodeError> {
        let illegal = MoveEncodeError { ply: self.history.ply() + 1, m };
        match self.codec {
            MoveCodec::Model => {
                let analysis = self.model.analyse(&self.pos, &self.history);
                let piece = analysis.piece_on(m.from()).ok_or(illegal)?;
                // The move first: it must be legal before anything is coded.
                self.scored.clear();
                analysis.moves(piece, &mut *self.scored);
                let index = self.scored.moves().iter().position(|&c| c == m).ok_or(illegal)?;
                let moves = (self.scored.len() > 1).then(|| self.scored.choice(index));
                begin_model_ply(&mut self.range, &mut self.started, self.nulls, false);
                if analysis.piece_count() > 1 {
                    self.scored.clear();
                    analysis.score_pieces(&mut self.scored);
                    let (cum, freq) = self.scored.choice(piece);
                    self.range.encode(cum, freq);
                }
                if let Some((cum, freq)) = moves {
                    self.range.encode(cum, freq);
                }
            }
            MoveCodec::Index => {
                let (index, n) = canonical_index(&self.pos, m);
                let index = index.ok_or(illegal)?;
                let width = index_width(n);
                self.begin_ply(false);
                self.bits.write(index as u64, width);
                self.bit_len += u64::from(width);
            }
        }
        self.pos.play_unchecked(m);
        self.history.push(m);
        Ok(())
    }

    /// Appends the coded moves to `out` and starts over from the current position (clear it
    /// with [`MoveEncoder::reset`]).
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        match self.codec {
            MoveCodec::Model => {
                let range = core::mem::replace(&mut self.range, range::Encoder::new(Vec::new()));
                let mut buf = range.finish_exact();
                out.extend_from_slice(&buf);
                buf.clear();
                self.range = range::Encoder::new(buf);
            }
            MoveCodec::Index => out.extend_from_slice(self.bits.as_bytes()),
        }
        self.restart();
    }
}

/// [`MoveEncoder`]'s `begin_ply` for the model codec, on the fields it needs (the model's
/// analysis of the position holds the others).
#[inline(always)]
fn begin_model_ply(
    range: &mut range::Encoder<Vec<u8>>,
    started: &mut bool,
    nulls: bool,
    null: bool,
) {
    if !*started {
        *started = true;
        range.encode_binary(NO_NULLS, nulls);
    }
    if nulls {
        range.encode_binary(NOT_NULL, null);
    }
}

/// The model codec's header: the frequency out of [`range::TOTAL`] of "no null move in this
/// game". A game without null moves pays log2(2^15 / (2^15 - 1)) = 0.00004 bits for it.
const NO_NULLS: u32 = range::TOTAL - 1;

/// In a game with null moves, the frequency of "this ply is not a null move".
const NOT_NULL: u32 = range::TOTAL - range::TOTAL / 16;

/// Whether an index among `n` moves leaves a value unused (`n` in its `⌈log2 n⌉` bits is
/// below 2^bits): the index codec's header uses it to say that null moves follow.
#[inline]
fn has_spare_index(n: usize) -> bool {
    n >= 3 && !n.is_power_of_two()
}

/// The bits of an index among `n` moves: `⌈log2 n⌉`.
#[inline]
fn index_width(n: usize) -> u32 {
    if n <= 1 {
        0
    } else {
        usize::BITS - (n - 1).leading_zeros()
    }
}

/// Reads moves back from the bytes a [`MoveEncoder`] wrote.
#[derive(Clone, Debug)]
pub struct MoveDecoder<'a> {
    codec: MoveCodec,
    model: MoveModel<'static>,
    pos: Position,
    history: RecentMoves,
    scored: Box<Scored<'static>>,
    range: range::Decoder<'a>,
    bits: BitReader<'a>,
    /// Whether the header is read (it is, at the first ply), what it said, and whether a null
    /// move followed (a header that says so must be followed by one: the encoder writes it
    /// only then, and every game has one encoding).
    started: bool,
    nulls: bool,
    null_read: bool,
}

impl<'a> MoveDecoder<'a> {
    /// A decoder of `bytes`, for a game starting at `start`.
    pub fn new(codec: MoveCodec, start: &Position, bytes: &'a [u8]) -> MoveDecoder<'a> {
        MoveDecoder {
            codec,
            model: MoveModel::FITTED,
            pos: *start,
            history: RecentMoves::new(),
            scored: Box::new(Scored::new(MoveModel::FITTED.weights())),
            range: range::Decoder::new(bytes),
            bits: BitReader::new(bytes),
            started: false,
            nulls: false,
            null_read: false,
        }
    }

    /// The position after the moves decoded so far.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    fn error(&self, kind: MoveDecodeErrorKind) -> MoveDecodeError {
        let byte = match self.codec {
            MoveCodec::Model => self.range.position().saturating_sub(4),
            MoveCodec::Index => self.bits.position() / 8,
        };
        MoveDecodeError { at: Ply { ply: self.history.ply() + 1, byte }, kind }
    }

    /// Decodes the next move and plays it: [`Move16::NULL`] for a null move.
    ///
    /// # Errors
    /// [`MoveDecodeError`] if the bytes name no legal move (or there is none), or end before
    /// the move does.
    #[inline]
    pub fn next_move(&mut self) -> Result<Move16, MoveDecodeError> {
        if (!self.started || self.nulls) && self.begin_ply()? {
            return Ok(Move16::NULL);
        }
        // As in [`MoveEncoder::push`]: compiled twice, with and without the fast-bits features.
        isa::run(NextMove(self))
    }

    /// Reads what comes before a ply's move ([`MoveEncoder`]'s `begin_ply`); plays a null
    /// move and returns `true` if the ply is one.
    fn begin_ply(&mut self) -> Result<bool, MoveDecodeError> {
        if !self.started {
            self.started = true;
            self.nulls = match self.codec {
                MoveCodec::Model => self.range.decode_binary(NO_NULLS),
                MoveCodec::Index => {
                    let (n, _) = canonical_count(&self.pos);
                    if has_spare_index(n) {
                        let before = self.bits;
                        let value = self.bits.read(index_width(n)).map_err(|_| self.truncated())?;
                        if value as usize != n {
                            // The first move's index: read again as one.
                            self.bits = before;
                        }
                        value as usize == n
                    } else {
                        self.bits.read(1).map_err(|_| self.truncated())? == 1
                    }
                }
            };
        }
        if !self.nulls {
            return Ok(false);
        }
        let null = match self.codec {
            MoveCodec::Model => self.range.decode_binary(NOT_NULL),
            MoveCodec::Index => self.bits.read(1).map_err(|_| self.truncated())? == 1,
        };
        if self.codec == MoveCodec::Model && self.range.overrun() {
            return Err(self.truncated());
        }
        if null {
            if self.pos.play_null().is_err() {
                return Err(self.error(MoveDecodeErrorKind::Invalid));
            }
            self.history.push_null();
            self.null_read = true;
        }
        Ok(null)
    }

    fn truncated(&self) -> MoveDecodeError {
        self.error(MoveDecodeErrorKind::Truncated)
    }

    /// [`MoveDecoder::next_move`]'s body, inlined into both copies of [`NextMove`].
    #[inline(always)]
    fn next_move_portable(&mut self) -> Result<Move16, MoveDecodeError> {
        let m = match self.codec {
            MoveCodec::Model => {
                let analysis = self.model.analyse(&self.pos, &self.history);
                let piece = match analysis.piece_count() {
                    0 => return Err(self.error(MoveDecodeErrorKind::NoLegalMove)),
                    1 => 0,
                    _ => {
                        self.scored.clear();
                        analysis.score_pieces(&mut self.scored);
                        decode_choice(&mut self.range, &self.scored)
                            .ok_or(self.error(MoveDecodeErrorKind::Invalid))?
                    }
                };
                let m = if analysis.move_count(piece) > 1 {
                    self.scored.clear();
                    analysis.moves(piece, &mut *self.scored);
                    let index = decode_choice(&mut self.range, &self.scored)
                        .ok_or(self.error(MoveDecodeErrorKind::Invalid))?;
                    self.scored.moves().get(index).copied()
                } else {
                    analysis.move_at(piece, 0)
                }
                .ok_or(self.error(MoveDecodeErrorKind::Invalid))?;
                // A move the bytes cannot hold: the decoder read past them.
                if self.range.overrun() {
                    return Err(self.truncated());
                }
                m
            }
            MoveCodec::Index => {
                let (n, move_at) = canonical_count(&self.pos);
                if n == 0 {
                    return Err(self.error(MoveDecodeErrorKind::NoLegalMove));
                }
                let width = index_width(n);
                let at = self.bits.position();
                let index = self.bits.read(width).map_err(|_| {
                    let mut e = self.error(MoveDecodeErrorKind::Truncated);
                    e.at.byte = at / 8;
                    e
                })?;
                match move_at(index as usize) {
                    Some(m) => m,
                    None => {
                        let mut e = self.error(MoveDecodeErrorKind::Invalid);
                        e.at.byte = at / 8;
                        return Err(e);
                    }
                }
            }
        };
        self.pos.play_unchecked(m);
        self.history.push(m);
        Ok(m)
    }

    /// Checks that the bytes end with the last move decoded: no byte more, none missing.
    ///
    /// # Errors
    /// [`MoveDecodeError`] with the number of plies decoded as its ply.
    pub fn finish(&self) -> Result<(), MoveDecodeError> {
        let ply = self.history.ply();
        if self.nulls && !self.null_read {
            // A header that says null moves follow, and none did: not what an encoder writes.
            return Err(MoveDecodeError {
                at: Ply { ply, byte: 0 },
                kind: MoveDecodeErrorKind::Invalid,
            });
        }
        match self.codec {
            MoveCodec::Model => self.range.finish_exact().map_err(|e| match e {
                RangeError::Truncated { at } => MoveDecodeError {
                    at: Ply { ply, byte: at },
                    kind: MoveDecodeErrorKind::Truncated,
                },
                RangeError::NotShortest { at } => MoveDecodeError {
                    at: Ply { ply, byte: at },
                    kind: MoveDecodeErrorKind::Trailing,
                },
                RangeError::Invalid => {
                    MoveDecodeError { at: Ply { ply, byte: 0 }, kind: MoveDecodeErrorKind::Invalid }
                }
            }),
            MoveCodec::Index => self.bits.finish().map_err(|e| MoveDecodeError {
                at: Ply { ply, byte: e.offset / 8 },
                kind: MoveDecodeErrorKind::Trailing,
            }),
        }
    }
}

/// [`MoveEncoder::push`] as an [`isa::Kernel`].
struct Push<'e>(&'e mut MoveEncoder, Move16);

impl isa::Kernel for Push<'_> {
    type Output = Result<(), MoveEncodeError>;

    #[inline(always)]
    fn run(self) -> Self::Output {
        self.0.push_portable(self.1)
    }
}

/// [`MoveDecoder::next_move`] as an [`isa::Kernel`].
struct NextMove<'d, 'a>(&'d mut MoveDecoder<'a>);

impl isa::Kernel for NextMove<'_, '_> {
    type Output = Result<Move16, MoveDecodeError>;

    #[inline(always)]
    fn run(self) -> Self::Output {
        self.0.next_move_portable()
    }
}

/// Decodes the index of a candidate of `scored`; `None` if the code names none.
#[inline(always)]
fn decode_choice(range: &mut range::Decoder<'_>, scored: &Scored<'_>) -> Option<usize> {
    let d = scored.distribution()?;
    let target = range.target();
    let mut cum = 0u32;
    for (i, &s) in scored.scores().iter().enumerate() {
        let freq = d.freq(s);
        if target < cum + freq {
            range.consume(cum, freq);
            return Some(i);
        }
        cum += freq;
    }
    None
}

/// Codes `moves`, played from `start`, and appends the bytes to `out`.
///
/// # Errors
/// [`MoveEncodeError`] at the first move that is not legal (`out` is left as it was).
pub fn encode(
    codec: MoveCodec,
    start: &Position,
    moves: &[Move16],
    out: &mut Vec<u8>,
) -> Result<(), MoveEncodeError> {
    let mut encoder = MoveEncoder::new(codec, start);
    for &m in moves {
        encoder.push(m)?;
    }
    encoder.finish(out);
    Ok(())
}

/// Decodes `plies` moves from `bytes`, played from `start`, into `out` (cleared first), and
/// checks that the bytes end there.
///
/// # Errors
/// [`MoveDecodeError`] if the bytes are not the coding of `plies` legal moves.
pub fn decode(
    codec: MoveCodec,
    start: &Position,
    plies: usize,
    bytes: &[u8],
    out: &mut Vec<Move16>,
) -> Result<(), MoveDecodeError> {
    out.clear();
    let mut decoder = MoveDecoder::new(codec, start, bytes);
    for _ in 0..plies {
        out.push(decoder.next_move()?);
    }
    decoder.finish()
}
