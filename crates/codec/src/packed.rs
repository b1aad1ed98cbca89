//! `packed`: a position in at most 24 bytes (35 with the clocks), byte for byte the lichess
//! "binary FEN" layout wherever that layout can say what the position holds.
//!
//! [`encode`] writes a [`Position`] into a [`Packed`] (a fixed array and a length: no
//! allocation); [`decode`] reads one back into a `Position`, [`decode_setup`] into an unvalidated
//! [`Setup`]. The layout is a contract: changing it is a breaking change.
//!
//! # Layout
//!
//! ```text
//! occupancy   8 bytes   the occupied squares as a u64, big-endian (bit i = square i, a1 = 0)
//! pieces      ⌈n/2⌉     one 4-bit code per occupied square, in square order a1..h8; the first
//!                       square of each pair in the low nibble, the second in the high nibble;
//!                       an odd count leaves the last high nibble 0
//! halfmoves   LEB128    optional: the halfmove clock
//! ply         LEB128    optional: 2 × (fullmove number − 1), plus 1 when black is to move
//! variant     1 byte    optional: 0 standard, 2 Chess960 castling (3, "from position", reads as 0)
//! ```
//!
//! The piece codes:
//!
//! | code | piece | code | piece |
//! |---:|---|---:|---|
//! | 0 | white pawn | 8 | white queen |
//! | 1 | black pawn | 9 | black queen |
//! | 2 | white knight | 10 | white king |
//! | 3 | black knight | 11 | black king |
//! | 4 | white bishop | 12 | a pawn that just made a double push (white on ranks 1-4, black on 5-8): the en passant square is the one it skipped |
//! | 5 | black bishop | 13 | a white rook that keeps a castling right |
//! | 6 | white rook | 14 | a black rook that keeps a castling right |
//! | 7 | black rook | 15 | the black king, and black is to move |
//!
//! A castling right is its rook, so Chess960 rights need nothing more: the side of the right is
//! the side of the king the rook stands on. The en passant square is kept whenever the position
//! records one, a capture being possible or not.
//!
//! The trailing fields: [`encode`] with `clocks` writes them as lichess does, leaving out what is
//! at its default from the end: nothing for clocks `0 1`; only the halfmove clock when the ply is
//! 0 or 1; the variant byte only for Chess960 castling (see below). Without `clocks` nothing
//! follows the pieces, and decoding gives the clocks `0 1`. The side to move is black when a
//! code 15 or an odd ply says so.
//!
//! # The castling mode
//!
//! Castling rights that standard chess cannot express (a rook off the corner, a king off the
//! e-file) make a position Chess960 by themselves. Otherwise the mode
//! ([`Position::castling_mode`]) takes one flag, written in one of two ways:
//!
//! - with the clocks, as the variant byte 2 (lichess's Chess960), after the two clocks;
//! - without the clocks, in the two kings' codes, so that the 24-byte bound holds for 32 pieces.
//!   Taking the two kings in square order, the pairs lichess never writes for a legal position
//!   stand for:
//!
//!   | first king's code | second king's code | first king | side to move |
//!   |---:|---:|---|---|
//!   | 10 | 10 | white | white |
//!   | 11 | 11 | black | white |
//!   | 15 | 15 | black | black |
//!   | 15 | 11 | white | black |
//!
//!   A board with exactly two king codes forming one of these pairs is read this way; every
//!   other board is read as lichess reads it.
//!
//! # Interoperability
//!
//! Every standard-chess position encodes exactly as lichess (scalachess `BinaryFen`, shakmaty's
//! binary FEN) writes it, with or without the clocks, and every legal standard or Chess960
//! position lichess writes decodes here; the tests pin the published examples. The
//! differences: the Chess960 flag without the clocks (the king pairs above) is chessbits' own;
//! the variant bytes of other variants (crazyhouse, atomic, ...) are refused; bytes after the
//! variant byte are refused; and an en passant code outside ranks 4 and 5, or twice, is refused.
//!
//! # Size
//!
//! 8 bytes and half a byte per piece: at most 24 bytes for the 32 pieces of a legal position
//! ([`MAX_LEN_WITHOUT_CLOCKS`]), and up to 11 more for the clocks and the variant ([`MAX_LEN`]).
//!
//! # Worked example
//!
//! The start position, white to move:
//!
//! ```text
//! ff ff 00 00 00 00 ff ff   occupancy 0xffff00000000ffff: ranks 1, 2, 7 and 8
//! 2d 84 4a d2               a1 R (13, castling), b1 N (2); c1 B (4), d1 Q (8); e1 K (10), f1 B (4); g1 N (2), h1 R (13)
//! 00 00 00 00               white pawns a2..h2 (0)
//! 11 11 11 11               black pawns a7..h7 (1)
//! 3e 95 5b e3               a8 r (14), b8 n (3); c8 b (5), d8 q (9); e8 k (11), f8 b (5); g8 n (3), h8 r (14)
//! ```
//!
//! ```
//! use chessbits_codec::packed;
//! use chessbits_state::Position;
//!
//! let start = packed::encode(&Position::new(), false);
//! assert_eq!(start.len(), 24);
//! assert_eq!(start.as_bytes()[8..12], [0x2d, 0x84, 0x4a, 0xd2]);
//! assert_eq!(packed::decode(start.as_bytes())?, Position::new());
//! # Ok::<_, chessbits_codec::packed::PackedError>(())
//! ```
//!
//! # Errors
//!
//! Decoding never panics. A [`PackedError`] gives the bit offset in the input where the problem
//! lies (byte × 8, plus 4 for a high nibble) and a [`PackedErrorKind`].

use crate::bits::{Bit, ErrorKindAt, Located};
use crate::inline_bytes::inline_bytes;
use core::fmt;

use chessbits_bitboard::{Bitboard, ByRole, Color, Piece, Rank, Role, Square};
use chessbits_move::CastlingMode;
use chessbits_state::{BitboardPlacement, BitboardSetup, Position, PositionError, Setup};

/// The most bytes [`encode`] writes: 24 for the board and 11 for the clocks and the variant.
pub const MAX_LEN: usize = 35;

/// The most bytes [`encode`] writes without the clocks: 8 + 32 / 2.
pub const MAX_LEN_WITHOUT_CLOCKS: usize = 24;

/// The layout's code of a piece, by `Piece::code` (white pawn..king, black pawn..king).
const CODE_OF_PIECE: [u8; 12] = [0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11];

/// A code for an en passant pawn.
const EP_PAWN: u8 = 12;
/// A code for a white castling rook.
const WHITE_CASTLING_ROOK: u8 = 13;
/// A code for a black castling rook.
const BLACK_CASTLING_ROOK: u8 = 14;
/// A code for the black king with black to move.
const BLACK_KING_TO_MOVE: u8 = 15;
/// The plain king codes.
const WHITE_KING: u8 = 10;
/// The black king, side to move not said.
const BLACK_KING: u8 = 11;

/// The variant byte of Chess960.
const VARIANT_CHESS960: u8 = 2;

inline_bytes! {
/// A position in the `packed` layout: up to [`MAX_LEN`] bytes, held inline.
///
/// ```
/// use chessbits_codec::packed;
/// use chessbits_notation::fen::parse_position;
///
/// let pos = parse_position("8/8/8/8/8/8/2Rk4/1K6 b - - 7 40")?;
/// let bytes = packed::encode(&pos, true);
/// assert_eq!(format!("{bytes:?}"), "Packed(0000000000000c026a0f074f)");
/// # Ok::<_, chessbits_notation::fen::FenError>(())
/// ```
pub struct Packed[MAX_LEN];
}

impl Packed {
    #[inline]
    fn push(&mut self, byte: u8) {
        if let Some(slot) = self.bytes.get_mut(self.len as usize) {
            *slot = byte;
            self.len += 1;
        }
    }

    fn push_leb128(&mut self, value: u64) {
        crate::bits::leb128(value, |byte| self.push(byte));
    }
}

/// Writes `pos` in the `packed` layout, with the two clocks if `clocks` (see the
/// [module docs](self) for the layout).
///
/// At most [`MAX_LEN_WITHOUT_CLOCKS`] bytes without the clocks, [`MAX_LEN`] with them.
pub fn encode(pos: &Position, clocks: bool) -> Packed {
    let board = pos.board();
    let occupied = board.occupied();
    let mut out = Packed { bytes: [0; MAX_LEN], len: 8 };
    out.bytes[..8].copy_from_slice(&occupied.0.to_be_bytes());

    // The squares whose code is not the plain piece code.
    let ep_pawn = pos.ep_square().map_or(Bitboard::EMPTY, |ep| {
        Bitboard::from_square(ep).forward(!pos.turn()) & board.pawns()
    });
    let rooks = pos.castles().rook_squares();
    // The black king's code says that black is to move; with white to move it is the plain one.
    let black_king = match pos.turn() {
        Color::White => Bitboard::EMPTY,
        Color::Black => board.kings() & board.by_color(Color::Black),
    };
    // The Chess960 flag in the king codes: (first king's square, its code, the other's code).
    let flag = (!clocks
        && pos.castling_mode() == CastlingMode::Chess960
        && !pos.castles().is_chess960([board.king_of(Color::White), board.king_of(Color::Black)]))
    .then(|| flagged_kings(board.kings(), board.king_of(Color::White), pos.turn()));
    let specials =
        ep_pawn | rooks | black_king | if flag.is_some() { board.kings() } else { Bitboard::EMPTY };

    // The code of every occupied square: the plain codes per piece set, then the few special
    // ones over them.
    let mut codes = [0u8; 64];
    for piece in Piece::ALL {
        let code = CODE_OF_PIECE[piece.code() as usize % 12];
        for sq in board.by_piece(piece) {
            codes[sq as usize] = code;
        }
    }
    for sq in specials {
        codes[sq as usize] = match (flag, board.role_at(sq)) {
            (Some((first, a, _)), Some(Role::King)) if Some(sq) == first => a,
            (Some((_, _, b)), Some(Role::King)) => b,
            _ if ep_pawn.contains(sq) => EP_PAWN,
            _ if rooks.contains(sq) => {
                if board.by_color(Color::White).contains(sq) {
                    WHITE_CASTLING_ROOK
                } else {
                    BLACK_CASTLING_ROOK
                }
            }
            _ => BLACK_KING_TO_MOVE,
        };
    }
    let code_at = |sq: Square| codes[sq as usize];
    // Two squares to a byte, the first in the low nibble; after an odd count the last high
    // nibble is 0.
    let mut squares = occupied.into_iter();
    let mut at = 8;
    while let Some(first) = squares.next() {
        let byte = code_at(first) | squares.next().map_or(0, code_at) << 4;
        if let Some(slot) = out.bytes.get_mut(at) {
            *slot = byte;
        }
        at += 1;
    }
    out.len = at.min(MAX_LEN) as u8;

    if clocks {
        let ply = 2 * (u64::from(pos.fullmoves()) - 1) + (pos.turn() == Color::Black) as u64;
        let chess960 = pos.castling_mode() == CastlingMode::Chess960;
        if pos.halfmoves() > 0 || ply > 1 || chess960 {
            out.push_leb128(u64::from(pos.halfmoves()));
        }
        if ply > 1 || chess960 {
            out.push_leb128(ply);
        }
        if chess960 {
            out.push(VARIANT_CHESS960);
        }
    }
    out
}

/// The king codes of the Chess960 flag (the table in the module docs): the first king's square
/// in square order, its code and the other king's code.
fn flagged_kings(
    kings: Bitboard,
    white_king: Option<Square>,
    turn: Color,
) -> (Option<Square>, u8, u8) {
    let first = kings.first();
    let white_first = first.is_some() && first == white_king;
    let (a, b) = match (white_first, turn) {
        (true, Color::White) => (WHITE_KING, WHITE_KING),
        (false, Color::White) => (BLACK_KING, BLACK_KING),
        (false, Color::Black) => (BLACK_KING_TO_MOVE, BLACK_KING_TO_MOVE),
        (true, Color::Black) => (BLACK_KING_TO_MOVE, BLACK_KING),
    };
    (first, a, b)
}

/// Why bytes are not a packed position: where (`bit`: the byte × 8, plus 4 for a high
/// nibble; 0 for [`PackedErrorKind::Position`]) and what, in the bit-level decoders' one shape
/// ([`Located`]).
pub type PackedError = Located<Bit, PackedErrorKind>;

/// What is wrong in a packed position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PackedErrorKind {
    /// The input ends inside the occupancy or the piece codes.
    Truncated,
    /// The unused high nibble after an odd number of pieces is not 0.
    Padding,
    /// A second en passant pawn (code 12).
    SecondEnPassant,
    /// An en passant pawn (code 12) on a rank other than the fourth or the fifth.
    EnPassantRank,
    /// A clock is not a LEB128 number that fits (more than 5 bytes, or over the maximum).
    Clock,
    /// The variant byte names another variant than standard chess or Chess960.
    Variant(u8),
    /// Bytes follow the variant byte.
    TrailingBytes,
    /// The fields describe no legal position.
    Position(PositionError),
}

/// `bit N: ` and the kind; an illegal position has no place in the input.
impl ErrorKindAt<Bit> for PackedErrorKind {
    fn fmt_at(&self, at: &Bit, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackedErrorKind::Position(err) => write!(f, "illegal position: {err}"),
            kind => write!(f, "{at}: {kind}"),
        }
    }

    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PackedErrorKind::Position(err) => Some(err),
            _ => None,
        }
    }
}

/// What is wrong, without where: `input ends inside the board`.
impl fmt::Display for PackedErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PackedErrorKind::Truncated => f.write_str("input ends inside the board"),
            PackedErrorKind::Padding => f.write_str("the padding nibble is not 0"),
            PackedErrorKind::SecondEnPassant => f.write_str("a second en passant pawn"),
            PackedErrorKind::EnPassantRank => {
                f.write_str("en passant pawn off the fourth and fifth ranks")
            }
            PackedErrorKind::Clock => f.write_str("clock is not a LEB128 number that fits"),
            PackedErrorKind::Variant(v) => {
                write!(f, "variant {v} is neither standard chess (0, 3) nor Chess960 (2)")
            }
            PackedErrorKind::TrailingBytes => f.write_str("bytes after the variant"),
            PackedErrorKind::Position(err) => write!(f, "illegal position: {err}"),
        }
    }
}

/// Reads a packed position into a legal [`Position`].
///
/// # Errors
/// [`PackedError`] if the bytes are not a packed position or describe no legal position.
pub fn decode(bytes: &[u8]) -> Result<Position, PackedError> {
    // Counting pieces and walking bitboards is much of decoding: with POPCNT and BMI1 where
    // the CPU has them.
    chessbits_bitboard::isa::run(Decode(bytes))
}

/// Reads a packed position into `pos`, in place: [`decode`] without building a new
/// [`Position`], for readers that decode many positions into one (about a tenth faster: no
/// copy of the position). On bad bytes `pos` is left as it was; on bytes that describe no legal
/// position it is left as the start position.
///
/// ```
/// use chessbits_codec::packed;
/// use chessbits_state::Position;
///
/// let bytes = packed::encode(&Position::new(), false);
/// let mut pos = Position::new();
/// packed::decode_into(bytes.as_bytes(), &mut pos)?;
/// assert_eq!(pos, Position::new());
/// # Ok::<_, packed::PackedError>(())
/// ```
///
/// # Errors
/// [`PackedError`] if the bytes are not a packed position or describe no legal position.
pub fn decode_into(bytes: &[u8], pos: &mut Position) -> Result<(), PackedError> {
    chessbits_bitboard::isa::run(DecodeInto(bytes, pos))
}

/// [`decode_into`] as a [`Kernel`](chessbits_bitboard::isa::Kernel), compiled twice.
struct DecodeInto<'a, 'p>(&'a [u8], &'p mut Position);

impl chessbits_bitboard::isa::Kernel for DecodeInto<'_, '_> {
    type Output = Result<(), PackedError>;

    #[inline(always)]
    fn run(self) -> Self::Output {
        let setup = read(self.0)?;
        self.1.set_from_bitboard_setup(&setup).map_err(illegal)
    }
}

/// [`decode`] as a [`Kernel`](chessbits_bitboard::isa::Kernel), compiled twice.
struct Decode<'a>(&'a [u8]);

impl chessbits_bitboard::isa::Kernel for Decode<'_> {
    type Output = Result<Position, PackedError>;

    #[inline(always)]
    fn run(self) -> Self::Output {
        // The placement goes to the position as bitboards: no `Board` is built twice.
        Position::from_bitboard_setup(&read(self.0)?).map_err(illegal)
    }
}

/// The error for bytes that read but describe no legal position.
#[inline]
fn illegal(err: PositionError) -> PackedError {
    PackedError { at: Bit(0), kind: PackedErrorKind::Position(err) }
}

/// Reads a packed position into an unvalidated [`Setup`] (castling rooks, en passant square and
/// clocks as written; [`Position::from_setup`] checks them).
///
/// # Errors
/// [`PackedError`] if the bytes are not a packed position.
pub fn decode_setup(bytes: &[u8]) -> Result<Setup, PackedError> {
    read(bytes).map(|setup| setup.to_setup())
}

/// Reads a packed position: the placement as bitboards, the other fields as written.
#[inline(always)]
fn read(bytes: &[u8]) -> Result<BitboardSetup, PackedError> {
    let (occupied, by_code, board_len) = read_board(bytes)?;
    let bb = |code: u8| Bitboard(by_code[code as usize]);
    let ep_pawns = bb(EP_PAWN);
    let ep_square = read_ep_square(occupied, ep_pawns)?;
    let castling_rooks = bb(WHITE_CASTLING_ROOK) | bb(BLACK_CASTLING_ROOK);
    let mut turn = if bb(BLACK_KING_TO_MOVE).any() { Color::Black } else { Color::White };
    let pair = |role: Role| bb(2 * role as u8) | bb(2 * role as u8 + 1);
    let kings = pair(Role::King) | bb(BLACK_KING_TO_MOVE);
    let by_role = ByRole([
        pair(Role::Pawn) | ep_pawns,
        pair(Role::Knight),
        pair(Role::Bishop),
        pair(Role::Rook) | castling_rooks,
        pair(Role::Queen),
        kings,
    ]);
    let mut black = (0..6).fold(Bitboard::EMPTY, |acc, role: u8| acc | bb(2 * role + 1))
        | bb(BLACK_CASTLING_ROOK)
        | bb(BLACK_KING_TO_MOVE)
        | ep_pawns & Bitboard::RANK_5;
    let mut chess960 = false;
    if let Some((white_king, black_king, side)) = chess960_kings(&by_code, kings) {
        black = black.without(white_king).with(black_king);
        turn = side;
        chess960 = true;
    }
    let trailer = read_trailer(bytes, 8 + board_len)?;
    if trailer.ply % 2 == 1 {
        turn = Color::Black;
    }
    // Every occupied square has exactly one code, so the bitboards never overlap.
    Ok(BitboardSetup {
        board: BitboardPlacement { by_role, black },
        turn,
        castling_rooks,
        ep_square,
        halfmoves: trailer.halfmoves,
        fullmoves: (trailer.ply / 2 + 1) as u32,
        castling_mode: if chess960 || trailer.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        },
    })
}

/// The occupancy, one bitboard per piece code, and the board's length in bytes.
#[inline(always)]
fn read_board(bytes: &[u8]) -> Result<(Bitboard, [u64; 16], usize), PackedError> {
    let error = |bit: usize, kind| Err(PackedError { at: Bit(bit), kind });
    let Some((occupancy, rest)) = bytes.split_first_chunk::<8>() else {
        return error(bytes.len() * 8, PackedErrorKind::Truncated);
    };
    let occupied = Bitboard(u64::from_be_bytes(*occupancy));
    let count = occupied.count() as usize;
    let board_len = count.div_ceil(2);
    let Some(codes) = rest.get(..board_len) else {
        return error(bytes.len() * 8, PackedErrorKind::Truncated);
    };
    if count % 2 == 1 && codes.last().is_some_and(|b| b >> 4 != 0) {
        return error((8 + board_len) * 8 - 4, PackedErrorKind::Padding);
    }
    // One bitboard per code: each byte holds the codes of the next two occupied squares, the
    // first in the low nibble. After an odd count the last high nibble is the padding 0, and
    // its square bit is 0: that update changes nothing.
    let mut by_code = [0u64; 16];
    let mut squares = occupied.0;
    for &byte in codes {
        let first = squares & squares.wrapping_neg();
        squares ^= first;
        let second = squares & squares.wrapping_neg();
        squares ^= second;
        by_code[(byte & 15) as usize] |= first;
        by_code[(byte >> 4) as usize] |= second;
    }
    Ok((occupied, by_code, board_len))
}

/// The en passant square the en passant pawns give (at most one, on the fourth or fifth rank).
#[inline(always)]
fn read_ep_square(occupied: Bitboard, ep_pawns: Bitboard) -> Result<Option<Square>, PackedError> {
    // The bit offset of the code of the piece on `sq`.
    let bit_of = |sq: Square| 64 + 4 * (occupied.0 & ((1 << sq as u32) - 1)).count_ones() as usize;
    let mut ep_square = None;
    for (k, sq) in ep_pawns.into_iter().enumerate() {
        let ep = match sq.rank() {
            Rank::Fourth => sq as u32 - 8,
            Rank::Fifth => sq as u32 + 8,
            _ => {
                return Err(PackedError {
                    at: Bit(bit_of(sq)),
                    kind: PackedErrorKind::EnPassantRank,
                })
            }
        };
        if k > 0 {
            return Err(PackedError {
                at: Bit(bit_of(sq)),
                kind: PackedErrorKind::SecondEnPassant,
            });
        }
        ep_square = Some(Square::new(ep));
    }
    Ok(ep_square)
}

/// The Chess960 flag: exactly two king codes forming one of the flagged pairs. Gives the white
/// king, the black king and the side to move they say.
#[inline(always)]
fn chess960_kings(by_code: &[u64; 16], kings: Bitboard) -> Option<(Square, Square, Color)> {
    let bb = |code: u8| Bitboard(by_code[code as usize]);
    // Every flagged pair has zero or two white kings (10): one is the common case, skipped.
    let one_white_king = bb(WHITE_KING).any() && !bb(WHITE_KING).more_than_one();
    if one_white_king || kings.count() != 2 {
        return None;
    }
    let (first, second) = (kings.first()?, kings.last()?);
    let code_at = |sq: Square| {
        [WHITE_KING, BLACK_KING, BLACK_KING_TO_MOVE]
            .into_iter()
            .find(|&code| bb(code).contains(sq))
            .unwrap_or(WHITE_KING)
    };
    match (code_at(first), code_at(second)) {
        (WHITE_KING, WHITE_KING) => Some((first, second, Color::White)),
        (BLACK_KING, BLACK_KING) => Some((second, first, Color::White)),
        (BLACK_KING_TO_MOVE, BLACK_KING_TO_MOVE) => Some((second, first, Color::Black)),
        (BLACK_KING_TO_MOVE, BLACK_KING) => Some((first, second, Color::Black)),
        _ => None,
    }
}

/// The fields after the board: the clocks and the variant byte, each optional.
struct Trailer {
    halfmoves: u32,
    ply: u64,
    chess960: bool,
}

/// Reads the fields after the board, from byte `at`.
#[inline(always)]
fn read_trailer(bytes: &[u8], mut at: usize) -> Result<Trailer, PackedError> {
    let error = |bit: usize, kind| Err(PackedError { at: Bit(bit), kind });
    let mut trailer = Trailer { halfmoves: 0, ply: 0, chess960: false };
    let mut fields = 0;
    while let Some(&byte) = bytes.get(at) {
        match fields {
            0 | 1 => {
                let start = at;
                let value = read_clock(bytes, &mut at)?;
                if fields == 0 {
                    let Ok(value) = u32::try_from(value) else {
                        return error(start * 8, PackedErrorKind::Clock);
                    };
                    trailer.halfmoves = value;
                } else {
                    if value / 2 >= u64::from(u32::MAX) {
                        return error(start * 8, PackedErrorKind::Clock);
                    }
                    trailer.ply = value;
                }
            }
            2 => {
                match byte {
                    0 | 3 => {}
                    VARIANT_CHESS960 => trailer.chess960 = true,
                    v => return error(at * 8, PackedErrorKind::Variant(v)),
                }
                at += 1;
            }
            _ => return error(at * 8, PackedErrorKind::TrailingBytes),
        }
        fields += 1;
    }
    Ok(trailer)
}

/// A LEB128 clock from byte `at` (at most 5 bytes), moving `at` past it.
#[inline(always)]
fn read_clock(bytes: &[u8], at: &mut usize) -> Result<u64, PackedError> {
    let start = *at;
    let mut value: u64 = 0;
    let mut shift = 0;
    loop {
        let Some(&b) = bytes.get(*at) else {
            return Err(PackedError { at: Bit(*at * 8), kind: PackedErrorKind::Clock });
        };
        if shift > 28 {
            return Err(PackedError { at: Bit(start * 8), kind: PackedErrorKind::Clock });
        }
        value |= u64::from(b & 0x7f) << shift;
        shift += 7;
        *at += 1;
        if b & 0x80 == 0 {
            return Ok(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits_notation::fen::{fen_of, parse_position, Fen, FenOptions};
    use chessbits_state::Status;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    fn unhex(text: &str) -> Vec<u8> {
        (0..text.len() / 2)
            .map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16).unwrap())
            .collect()
    }

    /// Encodes `fen` with the clocks, checks the bytes, and decodes them back to the same FEN.
    fn check(fen: &str, expected: &str) {
        let pos = parse_position(fen).unwrap();
        let packed = encode(&pos, true);
        assert_eq!(hex(packed.as_bytes()), expected, "{fen}");
        let back = decode(packed.as_bytes()).unwrap();
        assert_eq!(fen_of(&back, FenOptions::default()), fen);
        assert_eq!(back, pos);
    }

    #[test]
    fn lichess_examples() {
        // The "binary format is stable" examples of scalachess's BinaryFenTest, legal positions.
        check(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "ffff00001000efff2d844ad200000000111111113e955fe3",
        );
        check("5k2/6p1/8/1Pp5/6P1/8/8/3K4 w - c6 0 1", "20400006400000080ac0b1");
        check("4k3/8/8/8/3pP3/8/6N1/7K b - e3 0 1", "10000000180040802ac10f");
        // A king off the e-file with a right is Chess960 here, standard chess there: the same
        // bytes and our variant byte.
        let lichess = unhex("8901080000810091ad0d10e1f70007");
        let fen = "r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 4";
        assert_eq!(fen_of(&decode(&lichess).unwrap(), FenOptions::default()), fen);
        check(fen, "8901080000810091ad0d10e1f7000702");
        // Their Chess960 example, written there with the variant byte 2.
        check(
            "4rrk1/pbbp2p1/1ppnp3/3n1pqp/3N1PQP/1PPNP3/PBBP2P1/4RRK1 w Ff - 0 3",
            "704f1ee8e81e4f70d60a44000002020813191113511571be000402",
        );
        // "From position" (variant 3) reads as standard chess; standard chess writes no ply 1 and no
        // variant byte.
        let from_position = decode(&unhex("00000002180000308a1c0f030103")).unwrap();
        let fen = "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 3 1";
        assert_eq!(fen_of(&from_position, FenOptions::default()), fen);
        check(fen, "00000002180000308a1c0f03");
        // Their empty boards are setups, not positions.
        let empty = |turn, halfmoves, fullmoves| {
            let mut setup = Setup::empty();
            (setup.turn, setup.halfmoves, setup.fullmoves) = (turn, halfmoves, fullmoves);
            Ok(setup)
        };
        assert_eq!(decode_setup(&unhex("0000000000000000")), empty(Color::White, 0, 1));
        assert_eq!(decode_setup(&unhex("00000000000000000001")), empty(Color::Black, 0, 1));
        assert_eq!(decode_setup(&unhex("000000000000000064df06")), empty(Color::Black, 100, 432));
        // The start position as their variant examples begin.
        assert!(hex(encode(&Position::new(), false).as_bytes())
            .starts_with("ffff00000000ffff2d844ad200000000111111113e955be3"));
    }

    #[test]
    fn start_position_bytes() {
        let start = encode(&Position::new(), false);
        insta::assert_snapshot!(hex(start.as_bytes()), @"ffff00000000ffff2d844ad200000000111111113e955be3");
        assert_eq!(encode(&Position::new(), true), start);
        let mut frc = Position::new();
        frc.set_castling_mode(CastlingMode::Chess960).unwrap();
        // The Chess960 flag: in the kings without clocks, as the variant byte with them.
        insta::assert_snapshot!(hex(encode(&frc, false).as_bytes()), @"ffff00000000ffff2d844ad200000000111111113e955ae3");
        insta::assert_snapshot!(hex(encode(&frc, true).as_bytes()), @"ffff00000000ffff2d844ad200000000111111113e955be3000002");
        for clocks in [false, true] {
            let back = decode(encode(&frc, clocks).as_bytes()).unwrap();
            assert_eq!(back.castling_mode(), CastlingMode::Chess960);
            assert_eq!(back, frc);
        }
    }

    #[test]
    fn chess960_flag_in_every_king_order() {
        // Both king orders (white first or black first) and both sides to move.
        let fens = [
            "8/8/8/8/8/8/8/K6k w - - 0 1",
            "8/8/8/8/8/8/8/K6k b - - 0 1",
            "8/8/8/8/8/8/8/k6K w - - 0 1",
            "8/8/8/8/8/8/8/k6K b - - 0 1",
        ];
        let mut seen = Vec::new();
        for fen in fens {
            let mut pos = parse_position(fen).unwrap();
            pos.set_castling_mode(CastlingMode::Chess960).unwrap();
            let bytes = encode(&pos, false);
            assert_eq!(decode(bytes.as_bytes()), Ok(pos), "{fen}");
            let standard = encode(&parse_position(fen).unwrap(), false);
            assert_ne!(bytes, standard, "{fen}");
            seen.push(hex(bytes.as_bytes()));
        }
        assert_eq!(
            seen,
            [
                "0000000000000081aa",
                "0000000000000081bf",
                "0000000000000081bb",
                "0000000000000081ff"
            ]
        );
    }

    #[test]
    fn sizes() {
        // 32 pieces, Chess960 mode that the rights do not force, the largest clocks.
        let mut pos = parse_position(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 4294967295 4294967295",
        )
        .unwrap();
        pos.set_castling_mode(CastlingMode::Chess960).unwrap();
        assert_eq!(encode(&pos, false).len(), MAX_LEN_WITHOUT_CLOCKS);
        let full = encode(&pos, true);
        assert_eq!(full.len(), MAX_LEN);
        assert_eq!(decode(full.as_bytes()), Ok(pos));
        // Two kings: 9 bytes.
        assert_eq!(encode(&parse_position("8/8/8/8/8/8/8/K6k w - - 0 1").unwrap(), true).len(), 9);
    }

    #[test]
    fn errors() {
        let start = hex(encode(&Position::new(), false).as_bytes());
        let err = |text: &str| decode(&unhex(text)).unwrap_err();
        let kind = |text: &str| {
            let e = err(text);
            (e.at.0, e.kind)
        };
        use PackedErrorKind as K;
        assert_eq!(kind(""), (0, K::Truncated));
        assert_eq!(kind("ffff"), (16, K::Truncated));
        assert_eq!(kind(&start[..46]), (184, K::Truncated));
        // Three pieces: the padding nibble must be 0.
        assert_eq!(kind("0000000000000007a01b"), (76, K::Padding));
        assert!(matches!(
            kind("0000000000000007a00b"),
            (0, K::Position(e)) if e.status() == Status::PAWN_ON_BACK_RANK | Status::OPPOSITE_CHECK
        ));
        // A pawn that double pushed on the third rank, or two of them.
        assert_eq!(kind("0000000000010081ba0c"), (72, K::EnPassantRank));
        assert_eq!(kind("0000000300000081bacc"), (76, K::SecondEnPassant));
        // Clocks.
        // A clock cut short is reported where the input ends.
        assert_eq!(kind("8100000000000000ab80"), (80, K::Clock));
        assert_eq!(kind("8100000000000000ab808080808000"), (72, K::Clock));
        assert_eq!(kind("8100000000000000abffffffff1f"), (72, K::Clock));
        assert_eq!(kind("8100000000000000ab00feffffff1f"), (80, K::Clock));
        assert_eq!(kind(&format!("{start}000004")), (208, K::Variant(4)));
        assert_eq!(kind(&format!("{start}00000200")), (216, K::TrailingBytes));
        // Two white kings.
        assert!(matches!(
            kind("8100000000000002aa0b"),
            (0, K::Position(e)) if e.status() == Status::TOO_MANY_WHITE_KINGS
        ));

        insta::assert_snapshot!(err(""), @"bit 0: input ends inside the board");
        insta::assert_snapshot!(err("0000000000000007a01b"), @"bit 76: the padding nibble is not 0");
        insta::assert_snapshot!(err("0000000000010081ba0c"), @"bit 72: en passant pawn off the fourth and fifth ranks");
        insta::assert_snapshot!(err("0000000300000081bacc"), @"bit 76: a second en passant pawn");
        insta::assert_snapshot!(err("8100000000000000ab80"), @"bit 80: clock is not a LEB128 number that fits");
        insta::assert_snapshot!(err(&format!("{start}000004")), @"bit 208: variant 4 is neither standard chess (0, 3) nor Chess960 (2)");
        insta::assert_snapshot!(err(&format!("{start}00000200")), @"bit 216: bytes after the variant");
        insta::assert_snapshot!(err("8100000000000002aa0b"), @"illegal position: white has more than one king");
    }

    #[test]
    fn setups_keep_what_was_written() {
        // A castling rook where no right can be: the setup keeps it, the position refuses it.
        let bytes = unhex("8000000000000180da0b");
        let setup = decode_setup(&bytes).unwrap();
        assert_eq!(Fen(setup).to_string(), "7k/8/8/8/8/8/R7/7K w - - 0 1");
        assert_eq!(setup.castling_rooks, Bitboard::from_square(Square::A2));
        assert!(matches!(
            decode(&bytes).map_err(|e| e.kind),
            Err(PackedErrorKind::Position(e)) if e.status() == Status::BAD_CASTLING_RIGHTS
        ));
    }
}
