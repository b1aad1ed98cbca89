//! FEN, X-FEN and Shredder-FEN: [`Fen`] reads and writes the six fields of a position.
//!
//! # The six fields
//!
//! ```text
//! rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1
//! '------------------ 1 ------------------' 2  3   4 5 6
//! ```
//!
//! 1. **Placement**: the ranks from 8 down to 1, separated by `/`. Each rank lists its squares
//!    from the a-file to the h-file: a piece letter (`PNBRQK` for white, `pnbrqk` for black) or a
//!    digit `1`..`8` for that many empty squares. Every rank describes exactly eight squares, and
//!    two digits never stand side by side (`44` is rejected: a run of empty squares is one digit).
//! 2. **Side to move**: `w` or `b`.
//! 3. **Castling**: `-`, or one letter per rook that keeps a castling right (see below).
//! 4. **En passant**: `-`, or the square a pawn skipped with a double push. Parsing checks only
//!    that it names a square; whether it can be real is for [`Position::from_setup`] to say.
//! 5. **Halfmove clock**: moves by either side since the last capture or pawn move.
//! 6. **Fullmove number**: 1 at the start, incremented after each black move.
//!
//! # Castling: X-FEN and Shredder-FEN
//!
//! A castling right is a rook: the field names the rooks that may still castle.
//!
//! - `K`, `Q` (white) and `k`, `q` (black) name the **outermost** rook of that color on its back
//!   rank, on the king's side (toward h) or the queen's side (toward a) of its king. This is the
//!   classical FEN meaning, and X-FEN keeps it.
//! - `A`..`H` (white) and `a`..`h` (black) name the rook on that file of the back rank. Shredder-FEN
//!   writes every right this way; X-FEN only when the rook is not the outermost one on its side.
//!
//! Both forms, and any mix of them, are read. [`Fen`]'s `Display` writes X-FEN;
//! [`CastlingNotation::Shredder`] asks [`fen_of`] for file letters. Either way the order is white
//! then black, king side then queen side.
//!
//! A worked Chess960 example: the start position `NRBBQKRN` has the king on f1 between rooks on
//! b1 and g1. Both rooks are outermost on their side, so X-FEN writes `KQkq` where Shredder-FEN
//! writes `GBgb`. Now put a third white rook on h1 in place of the knight, with the right still
//! held by the rook on g1. `K` would name h1, the outermost rook, so X-FEN must write `G`:
//!
//! ```
//! use chessbits_notation::fen::{fen_of, CastlingNotation, Fen, FenOptions};
//!
//! let fen = "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPP1/NRBBQKRR w GBgb - 0 1";
//! let pos = fen.parse::<Fen>()?.into_position()?;
//! assert_eq!(
//!     fen_of(&pos, FenOptions::default()),
//!     "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPP1/NRBBQKRR w GQkq - 0 1",
//! );
//! let shredder = FenOptions { castling: CastlingNotation::Shredder, ..FenOptions::default() };
//! assert_eq!(fen_of(&pos, shredder), fen);
//! # Ok::<_, chessbits_notation::fen::FenError>(())
//! ```
//!
//! # What is accepted
//!
//! The parser is strict except in these ways:
//!
//! - leading and trailing ASCII whitespace is ignored;
//! - fields are separated by runs of ASCII whitespace (spaces or tabs, as python-chess's
//!   `str.split()` separates them);
//! - the two clocks may be left out together, and then read as `0 1`;
//! - a fullmove number of 0 is read as 1.
//!
//! Printing is canonical: single spaces, all six fields, X-FEN castling unless asked otherwise.
//! So `parse(print(x)) == x` always holds, and `print(parse(s)) == s` holds for every FEN that
//! is already written canonically.
//!
//! # Errors
//!
//! Parsing never panics. A [`ParseFenError`] names the [`FenField`] at fault, the byte offset
//! in the input where the problem was found, and a [`FenErrorKind`]; it prints as
//! `castling (byte 48): invalid character 'Z', expected '-', KQkq or a file letter`. Fields are
//! read left to right and the first problem is reported. Text that is good FEN may still not be
//! a legal position; [`Fen::into_position`] returns the [`PositionError`], and [`parse_position`]
//! does both steps with the combined [`FenError`].

use core::fmt;
use core::str::FromStr;

use chessbits_bitboard::{Bitboard, Color, File, Piece, Rank, Role, Square};
use chessbits_move::CastlingMode;
use chessbits_movegen::MoveGen;
use chessbits_state::{Board, Position, PositionError, Setup};

/// A position as FEN text describes it: the six fields, not yet validated.
///
/// Parse one with [`str::parse`] or [`Fen::from_ascii`], check it with [`Fen::into_position`],
/// and print one with `Display` (X-FEN castling, the en passant square as stored).
///
/// ```
/// use chessbits_notation::fen::Fen;
///
/// let fen: Fen = "4k3/8/8/8/8/8/8/4K2R w K -".parse()?;
/// assert_eq!(fen.0.halfmoves, 0);
/// assert_eq!(fen.to_string(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
/// # Ok::<_, chessbits_notation::fen::ParseFenError>(())
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Fen(pub Setup);

impl Fen {
    /// Parses FEN text given as bytes (it need not be UTF-8).
    ///
    /// # Errors
    /// [`ParseFenError`] for the first field, read left to right, that is not valid FEN.
    pub fn from_ascii(fen: &[u8]) -> Result<Fen, ParseFenError> {
        let mut fields = Fields::new(fen);
        let setup = read_fields(&mut fields, true)?;
        if let Some((at, _)) = fields.next_field() {
            return Err(ParseFenError::new(FenField::Trailing, at, FenErrorKind::TooManyFields));
        }
        Ok(Fen(setup))
    }

    /// The fields of `pos`, with the en passant square as the position records it.
    pub fn from_position(pos: &Position) -> Fen {
        Fen(pos.to_setup())
    }

    /// Validates the fields into a position.
    ///
    /// # Errors
    /// [`PositionError`] if the fields do not describe a legal position.
    pub fn into_position(self) -> Result<Position, PositionError> {
        Position::from_setup(&self.0)
    }
}

impl FromStr for Fen {
    type Err = ParseFenError;

    fn from_str(s: &str) -> Result<Fen, ParseFenError> {
        Fen::from_ascii(s.as_bytes())
    }
}

/// Writes the setup with X-FEN castling and the en passant square as stored. A Chess960 setup
/// whose rights X-FEN would write as standard chess's `KQkq` is written in Shredder-FEN instead,
/// so that the castling mode reads back ([`fen_of`] writes exactly the notation asked for).
///
/// Castling rooks off the back ranks cannot be written and are left out; every setup that comes
/// from parsing or from a [`Position`] prints in full.
impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_fen(f, &self.0, faithful_notation(&self.0))
    }
}

/// Parses `fen` and validates it into a position.
///
/// ```
/// use chessbits_notation::fen::{parse_position, FenError};
/// use chessbits_state::Status;
///
/// let pos = parse_position("4k3/8/8/8/8/8/8/4K2R w K - 0 1")?;
/// assert_eq!(pos.fullmoves(), 1);
/// assert!(matches!(
///     parse_position("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"),
///     Err(FenError::Position(e)) if e.status() == Status::OPPOSITE_CHECK,
/// ));
/// # Ok::<_, FenError>(())
/// ```
///
/// # Errors
/// [`FenError::Syntax`] if the text is not FEN, [`FenError::Position`] if it describes no legal
/// position.
pub fn parse_position(fen: &str) -> Result<Position, FenError> {
    Ok(fen.parse::<Fen>()?.into_position()?)
}

/// How [`fen_of`] writes a position.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FenOptions {
    /// How castling rights are written.
    pub castling: CastlingNotation,
    /// When the en passant square is written.
    pub en_passant: EnPassantMode,
}

/// How castling rights are written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum CastlingNotation {
    /// `KQkq` for the outermost rook on each side of the king, the rook's file letter otherwise.
    /// For standard chess this is plain FEN.
    #[default]
    XFen,
    /// The rook's file letter always (`HAha` for the standard start position).
    Shredder,
}

/// When the en passant square is written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum EnPassantMode {
    /// After every double push, as the position records it, capture possible or not.
    #[default]
    Always,
    /// Only if a pawn of the side to move stands ready to capture (the capture may still be
    /// illegal because of a pin): [`Position::pseudo_ep_square`], the Polyglot rule.
    PseudoLegal,
    /// Only if an en passant capture is legal: python-chess's default, and the FIDE notion of
    /// the position (two positions that differ only in an en passant square nobody can use are
    /// the same position).
    Legal,
}

impl EnPassantMode {
    /// The square to write for `pos` in this mode.
    fn square(self, pos: &Position) -> Option<Square> {
        match self {
            EnPassantMode::Always => pos.ep_square(),
            EnPassantMode::PseudoLegal => pos.pseudo_ep_square(),
            EnPassantMode::Legal => pos.legal_ep_square(),
        }
    }
}

/// The FEN of `pos`, written as `options` say.
///
/// ```
/// use chessbits_notation::fen::{fen_of, parse_position, CastlingNotation, EnPassantMode, FenOptions};
///
/// let pos = parse_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")?;
/// let options = FenOptions { castling: CastlingNotation::Shredder, en_passant: EnPassantMode::PseudoLegal };
/// assert_eq!(fen_of(&pos, options), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha - 0 1");
/// # Ok::<_, chessbits_notation::fen::FenError>(())
/// ```
pub fn fen_of(pos: &Position, options: FenOptions) -> String {
    let mut setup = pos.to_setup();
    setup.ep_square = options.en_passant.square(pos);
    Printer { setup: &setup, castling: options.castling }.to_string()
}

/// A field of a FEN, to say where a [`ParseFenError`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FenField {
    /// The piece placement (field 1).
    Placement,
    /// The side to move (field 2).
    Turn,
    /// The castling rights (field 3).
    Castling,
    /// The en passant square (field 4).
    EnPassant,
    /// The halfmove clock (field 5).
    Halfmoves,
    /// The fullmove number (field 6).
    Fullmoves,
    /// Text after the sixth field.
    Trailing,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Placement => "placement",
            FenField::Turn => "side to move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en passant",
            FenField::Halfmoves => "halfmove clock",
            FenField::Fullmoves => "fullmove number",
            FenField::Trailing => "trailing text",
        })
    }
}

/// What is wrong in a FEN field.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FenErrorKind {
    /// The text ends before this field.
    MissingField,
    /// There is text after the sixth field.
    TooManyFields,
    /// This byte is not a piece letter, a digit `1`..`8` or `/`.
    InvalidPlacementChar(u8),
    /// A rank does not describe exactly eight squares.
    RankLength {
        /// The rank.
        rank: Rank,
        /// How many squares it describes.
        squares: u32,
    },
    /// A digit follows a digit (`44`, `17`): a run of empty squares is one digit.
    ConsecutiveDigits,
    /// The placement has more than eight ranks.
    TooManyRanks,
    /// The placement has only this many ranks.
    TooFewRanks(u8),
    /// The side to move is not `w` or `b`.
    InvalidTurn,
    /// This byte is not `KQkq` nor a file letter (or is a `-` among letters).
    InvalidCastlingChar(u8),
    /// This letter (`KQkq`) needs its color's king on the back rank, and there is no single one.
    CastlingWithoutKing(u8),
    /// This letter names no rook of its color on the back rank.
    CastlingWithoutRook(u8),
    /// This letter names a rook that an earlier letter named already.
    RepeatedCastlingRook {
        /// The letter.
        letter: u8,
        /// The rook it names.
        rook: Square,
    },
    /// The en passant field is neither `-` nor a square name.
    InvalidEnPassant,
    /// A clock has this byte, which is not a digit.
    InvalidNumber(u8),
    /// A clock does not fit in a `u32`.
    NumberTooLarge,
}

impl fmt::Display for FenErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FenErrorKind::MissingField => f.write_str("missing"),
            FenErrorKind::TooManyFields => f.write_str("more than six fields"),
            FenErrorKind::InvalidPlacementChar(b) => write!(
                f,
                "invalid character {}, expected a piece letter, a digit 1..8 or '/'",
                Byte(b)
            ),
            FenErrorKind::RankLength { rank, squares } => {
                write!(f, "rank {rank} has {squares} squares")
            }
            FenErrorKind::ConsecutiveDigits => {
                f.write_str("two digits in a row, a run of empty squares is one digit")
            }
            FenErrorKind::TooManyRanks => f.write_str("more than 8 ranks"),
            FenErrorKind::TooFewRanks(n) => write!(f, "only {n} ranks, expected 8"),
            FenErrorKind::InvalidTurn => f.write_str("expected 'w' or 'b'"),
            FenErrorKind::InvalidCastlingChar(b) => {
                write!(f, "invalid character {}, expected '-', KQkq or a file letter", Byte(b))
            }
            FenErrorKind::CastlingWithoutKing(b) => {
                write!(f, "{} needs a single {} king on its back rank", Byte(b), letter_color(b))
            }
            FenErrorKind::CastlingWithoutRook(b) => {
                let color = letter_color(b);
                write!(f, "no {color} rook ")?;
                match b.to_ascii_lowercase() {
                    b'k' => f.write_str("on the king's side of its king")?,
                    b'q' => f.write_str("on the queen's side of its king")?,
                    lower => {
                        let file = File::from_ascii(lower).map_or('?', File::char);
                        write!(f, "on {file}{}", Rank::First.relative_to(color))?;
                    }
                }
                write!(f, " for {}", Byte(b))
            }
            FenErrorKind::RepeatedCastlingRook { letter, rook } => {
                write!(f, "{} names the rook on {rook} a second time", Byte(letter))
            }
            FenErrorKind::InvalidEnPassant => f.write_str("expected '-' or a square such as e3"),
            FenErrorKind::InvalidNumber(b) => {
                write!(f, "invalid character {}, expected a digit", Byte(b))
            }
            FenErrorKind::NumberTooLarge => {
                write!(f, "number too large, the maximum is {}", u32::MAX)
            }
        }
    }
}

/// The color a castling letter stands for: uppercase is white.
fn letter_color(b: u8) -> Color {
    Color::from_white(b.is_ascii_uppercase())
}

/// A byte of the input, quoted and escaped: `'x'`, `'\xc3'`.
pub(super) struct Byte(pub(super) u8);

impl fmt::Display for Byte {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}'", self.0.escape_ascii())
    }
}

/// Why text is not FEN: the field, the byte offset in the input, and what is wrong.
///
/// ```
/// use chessbits_notation::fen::{Fen, FenErrorKind, FenField, ParseFenError};
///
/// let err = "8/8/8/8/8/8/8/8 x - - 0 1".parse::<Fen>().unwrap_err();
/// assert_eq!(err, ParseFenError { field: FenField::Turn, offset: 16, kind: FenErrorKind::InvalidTurn });
/// assert_eq!(err.to_string(), "side to move (byte 16): expected 'w' or 'b'");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParseFenError {
    /// The field at fault.
    pub field: FenField,
    /// The byte offset in the input (leading whitespace included) where the problem was found:
    /// the bad byte, the start of the bad field, or the end of the text for a missing field.
    pub offset: usize,
    /// What is wrong.
    pub kind: FenErrorKind,
}

impl ParseFenError {
    pub(super) const fn new(field: FenField, offset: usize, kind: FenErrorKind) -> ParseFenError {
        ParseFenError { field, offset, kind }
    }
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (byte {}): {}", self.field, self.offset, self.kind)
    }
}

impl std::error::Error for ParseFenError {}

/// Why FEN text does not give a position: it is not FEN, or not a legal position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FenError {
    /// The text is not valid FEN.
    Syntax(ParseFenError),
    /// The text is FEN but the position is not legal.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Syntax(err) => fmt::Display::fmt(err, f),
            FenError::Position(err) => fmt::Display::fmt(err, f),
        }
    }
}

/// The message is the inner error's, so the inner error is not repeated as the source.
impl std::error::Error for FenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FenError::Syntax(err) => Some(err),
            FenError::Position(err) => Some(err),
        }
    }
}

impl From<ParseFenError> for FenError {
    fn from(err: ParseFenError) -> FenError {
        FenError::Syntax(err)
    }
}

impl From<PositionError> for FenError {
    fn from(err: PositionError) -> FenError {
        FenError::Position(err)
    }
}

/// Where the fields of a FEN come from: FEN text itself ([`Fields`]), or the tokens of a larger
/// format (EPD, a UCI `position` command) that embeds the fields with its own separators.
pub(super) trait FieldSource<'a> {
    /// The next field and its byte offset, or `None` where the fields end.
    fn next_field(&mut self) -> Option<(usize, &'a [u8])>;

    /// The offset to report a missing field at.
    fn missing_at(&self) -> usize;

    /// The next field, which must be there (a missing one is an error naming `field`).
    fn required(&mut self, field: FenField) -> Result<(usize, &'a [u8]), ParseFenError> {
        let at = self.missing_at();
        self.next_field().ok_or(ParseFenError::new(field, at, FenErrorKind::MissingField))
    }
}

/// Reads the placement, side to move, castling and en passant fields, then, if `clocks`, the two
/// clocks, which may be left out together (and then read as `0 1`). A fullmove number of 0 reads
/// as 1. What follows the last field read is the caller's business.
pub(super) fn read_fields<'a>(
    fields: &mut impl FieldSource<'a>,
    clocks: bool,
) -> Result<Setup, ParseFenError> {
    let mut setup = Setup::empty();

    let (at, placement) = fields.required(FenField::Placement)?;
    setup.board = parse_placement(placement, at)?;

    let (at, turn) = fields.required(FenField::Turn)?;
    setup.turn = match turn {
        b"w" => Color::White,
        b"b" => Color::Black,
        _ => return Err(ParseFenError::new(FenField::Turn, at, FenErrorKind::InvalidTurn)),
    };

    let (at, castling) = fields.required(FenField::Castling)?;
    setup.castling_rooks = parse_castling(&setup.board, castling, at)?;
    // Shredder-FEN's file letters are Chess960 notation: the game is Chess960 even when its king
    // and rooks stand where standard chess has them. Rights standard chess cannot have make it
    // Chess960 too, as `Position::from_setup` would.
    if castling.iter().any(|b| !matches!(b, b'K' | b'Q' | b'k' | b'q' | b'-'))
        || rights_need_chess960(&setup.board, setup.castling_rooks)
    {
        setup.castling_mode = CastlingMode::Chess960;
    }

    let (at, ep) = fields.required(FenField::EnPassant)?;
    setup.ep_square = match ep {
        b"-" => None,
        _ => Some(Square::from_ascii(ep).map_err(|_| {
            ParseFenError::new(FenField::EnPassant, at, FenErrorKind::InvalidEnPassant)
        })?),
    };

    if clocks {
        if let Some((at, halfmoves)) = fields.next_field() {
            setup.halfmoves = parse_number(FenField::Halfmoves, halfmoves, at)?;
            let (at, fullmoves) = fields.required(FenField::Fullmoves)?;
            setup.fullmoves = parse_number(FenField::Fullmoves, fullmoves, at)?.max(1);
        }
    }
    Ok(setup)
}

/// The fields of the trimmed input, separated by runs of ASCII whitespace (spaces, and tabs
/// as python-chess's `str.split()` takes them), with their byte offsets.
struct Fields<'a> {
    bytes: &'a [u8],
    /// The offset of `bytes` in the original input (the leading whitespace skipped).
    start: usize,
    /// The read position in `bytes`.
    pos: usize,
}

impl<'a> Fields<'a> {
    fn new(input: &'a [u8]) -> Fields<'a> {
        let bytes = input.trim_ascii_start();
        let start = input.len() - bytes.len();
        Fields { bytes: bytes.trim_ascii_end(), start, pos: 0 }
    }
}

impl<'a> FieldSource<'a> for Fields<'a> {
    fn next_field(&mut self) -> Option<(usize, &'a [u8])> {
        let rest = self.bytes.get(self.pos..)?;
        let skip = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let rest = rest.get(skip..)?;
        if rest.is_empty() {
            return None;
        }
        let len = rest.iter().take_while(|b| !b.is_ascii_whitespace()).count();
        let at = self.pos + skip;
        self.pos = at + len;
        Some((self.start + at, rest.get(..len)?))
    }

    fn missing_at(&self) -> usize {
        self.start + self.bytes.len()
    }
}

fn parse_placement(field: &[u8], at: usize) -> Result<Board, ParseFenError> {
    let err = |offset, kind| ParseFenError::new(FenField::Placement, offset, kind);
    let mut board = Board::empty();
    // Ranks in text order: 0 is rank 8.
    let mut rank_index: u8 = 0;
    let mut squares: u32 = 0;
    // Where the rank went past eight squares.
    let mut overflow_at = None;

    let finish_rank = |rank_index: u8, squares: u32, overflow_at: Option<usize>, end: usize| {
        let kind = FenErrorKind::RankLength { rank: Rank::new(7 - rank_index as u32), squares };
        match overflow_at {
            Some(offset) => Err(err(offset, kind)),
            None if squares < 8 => Err(err(end, kind)),
            None => Ok(()),
        }
    };

    for (i, &b) in field.iter().enumerate() {
        let offset = at + i;
        match b {
            b'/' => {
                finish_rank(rank_index, squares, overflow_at, offset)?;
                if rank_index >= 7 {
                    return Err(err(offset, FenErrorKind::TooManyRanks));
                }
                rank_index += 1;
                squares = 0;
                overflow_at = None;
                continue;
            }
            b'1'..=b'8' => {
                if i > 0 && field[i - 1].is_ascii_digit() {
                    return Err(err(offset, FenErrorKind::ConsecutiveDigits));
                }
                squares = squares.saturating_add(u32::from(b - b'0'));
            }
            _ => {
                let piece = Piece::from_char(char::from(b))
                    .filter(|_| b.is_ascii())
                    .ok_or(err(offset, FenErrorKind::InvalidPlacementChar(b)))?;
                if squares < 8 {
                    let sq =
                        Square::from_coords(File::new(squares), Rank::new(7 - rank_index as u32));
                    board.set_piece_at(sq, piece);
                }
                squares = squares.saturating_add(1);
            }
        }
        if squares > 8 && overflow_at.is_none() {
            overflow_at = Some(offset);
        }
    }
    let end = at + field.len();
    finish_rank(rank_index, squares, overflow_at, end)?;
    if rank_index < 7 {
        return Err(err(end, FenErrorKind::TooFewRanks(rank_index + 1)));
    }
    Ok(board)
}

fn parse_castling(board: &Board, field: &[u8], at: usize) -> Result<Bitboard, ParseFenError> {
    let mut rooks = Bitboard::EMPTY;
    if field == b"-" {
        return Ok(rooks);
    }
    for (i, &b) in field.iter().enumerate() {
        let err = |kind| ParseFenError::new(FenField::Castling, at + i, kind);
        let color = letter_color(b);
        let back = Rank::First.relative_to(color);
        let candidates = board.by_piece(Role::Rook.of(color)) & Bitboard::from_rank(back);
        let lower = b.to_ascii_lowercase();
        let rook = match lower {
            b'k' | b'q' => {
                let king = (board.by_piece(Role::King.of(color)) & Bitboard::from_rank(back))
                    .single()
                    .ok_or(err(FenErrorKind::CastlingWithoutKing(b)))?;
                let (king_side, queen_side) = split_at_king(candidates, king.file());
                if lower == b'k' { king_side.last() } else { queen_side.first() }
                    .ok_or(err(FenErrorKind::CastlingWithoutRook(b)))?
            }
            _ => {
                let file =
                    File::from_ascii(lower).ok_or(err(FenErrorKind::InvalidCastlingChar(b)))?;
                let sq = Square::from_coords(file, back);
                if !candidates.contains(sq) {
                    return Err(err(FenErrorKind::CastlingWithoutRook(b)));
                }
                sq
            }
        };
        if rooks.contains(rook) {
            return Err(err(FenErrorKind::RepeatedCastlingRook { letter: b, rook }));
        }
        rooks.add(rook);
    }
    Ok(rooks)
}

/// `true` if a castling rook stands off its corner or with its king off the e-file: rights that
/// only Chess960 has.
fn rights_need_chess960(board: &Board, rooks: Bitboard) -> bool {
    rooks.into_iter().any(|rook| {
        let color = if rook.rank() == Rank::First { Color::White } else { Color::Black };
        let home = Square::from_coords(File::E, rook.rank());
        !Bitboard::CORNERS.contains(rook) || board.piece_at(home) != Some(Role::King.of(color))
    })
}

/// The castling notation that writes `setup` so that it reads back with its castling mode:
/// X-FEN, or Shredder-FEN for a Chess960 setup whose rights X-FEN would write as standard
/// chess's `KQkq` (the king on e, the rooks in the corners).
pub(super) fn faithful_notation(setup: &Setup) -> CastlingNotation {
    if setup.castling_mode == CastlingMode::Chess960
        && setup.castling_rooks.any()
        && !rights_need_chess960(&setup.board, setup.castling_rooks)
    {
        CastlingNotation::Shredder
    } else {
        CastlingNotation::XFen
    }
}

/// Splits `squares` into those on files after `file` (the king's side) and those on files before
/// it (the queen's side).
fn split_at_king(squares: Bitboard, file: File) -> (Bitboard, Bitboard) {
    let king_side = squares.into_iter().filter(|sq| sq.file() > file).collect();
    let queen_side = squares.into_iter().filter(|sq| sq.file() < file).collect();
    (king_side, queen_side)
}

pub(super) fn parse_number(field: FenField, text: &[u8], at: usize) -> Result<u32, ParseFenError> {
    let mut n: u32 = 0;
    let mut overflow = false;
    for (i, &b) in text.iter().enumerate() {
        if !b.is_ascii_digit() {
            return Err(ParseFenError::new(field, at + i, FenErrorKind::InvalidNumber(b)));
        }
        match n.checked_mul(10).and_then(|n| n.checked_add(u32::from(b - b'0'))) {
            Some(next) => n = next,
            None => overflow = true,
        }
    }
    if overflow {
        return Err(ParseFenError::new(field, at, FenErrorKind::NumberTooLarge));
    }
    Ok(n)
}

/// Writes a setup as FEN with the given castling notation.
struct Printer<'a> {
    setup: &'a Setup,
    castling: CastlingNotation,
}

impl fmt::Display for Printer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_fen(f, self.setup, self.castling)
    }
}

fn write_fen(f: &mut fmt::Formatter<'_>, setup: &Setup, castling: CastlingNotation) -> fmt::Result {
    write_position_fields(f, setup, castling)?;
    write!(f, " {} {}", setup.halfmoves, setup.fullmoves)
}

/// Writes the placement, side to move, castling and en passant fields of `setup` (its clocks are
/// not read).
pub(super) fn write_position_fields(
    f: &mut fmt::Formatter<'_>,
    setup: &Setup,
    castling: CastlingNotation,
) -> fmt::Result {
    write_placement(f, &setup.board)?;
    write!(f, " {} ", setup.turn.char())?;
    write_castling(f, setup, castling)?;
    match setup.ep_square {
        Some(sq) => write!(f, " {sq}"),
        None => f.write_str(" -"),
    }
}

fn write_placement(f: &mut fmt::Formatter<'_>, board: &Board) -> fmt::Result {
    write!(f, "{}", board.board_fen())
}

/// Writes the castling field (see [`CastlingFen`](chessbits_state::CastlingFen), the one writer
/// of it): X-FEN or Shredder-FEN letters.
fn write_castling(
    f: &mut fmt::Formatter<'_>,
    setup: &Setup,
    notation: CastlingNotation,
) -> fmt::Result {
    match notation {
        CastlingNotation::XFen => write!(f, "{}", setup.castling_fen()),
        CastlingNotation::Shredder => write!(f, "{}", setup.castling_fen().shredder()),
    }
}

#[cfg(feature = "serde")]
chessbits_bitboard::serde_text!(Fen, "FEN text", |s| s.parse::<Fen>());

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits_state::Status;

    use FenErrorKind::*;
    use FenField::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn syntax(field: FenField, offset: usize, kind: FenErrorKind) -> FenError {
        FenError::Syntax(ParseFenError { field, offset, kind })
    }

    /// Parses `input` into a position and compares it with `expected`: the canonical FEN
    /// printed back, or the error.
    fn check(input: &str, expected: Result<&str, FenError>) {
        let got = parse_position(input).map(|pos| fen_of(&pos, FenOptions::default()));
        assert_eq!(got.as_deref().map_err(|e| *e), expected, "input {input:?}");
    }

    #[test]
    fn syntax_errors() {
        let rank = |rank, squares| RankLength { rank, squares };
        let cases = [
            ("", syntax(Placement, 0, MissingField)),
            ("   ", syntax(Placement, 3, MissingField)),
            ("\t\r\n", syntax(Placement, 3, MissingField)),
            (
                "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                syntax(Placement, 13, InvalidPlacementChar(b'x')),
            ),
            (
                "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                syntax(Placement, 18, InvalidPlacementChar(b'9')),
            ),
            (
                "rnbqkbnr/pppppppp/0/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                syntax(Placement, 18, InvalidPlacementChar(b'0')),
            ),
            // Nine squares: the error points at the first square that does not fit.
            (
                "rnbqkbnr/pppppppp/p8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                syntax(Placement, 19, rank(Rank::Sixth, 9)),
            ),
            (
                "rnbqkbnr/pppppppp/ppppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                syntax(Placement, 26, rank(Rank::Sixth, 9)),
            ),
            // A digit after a digit is rejected where it stands, before the rank overflows.
            (
                "rnbqkbnr/pppppppp/88888888/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                syntax(Placement, 19, ConsecutiveDigits),
            ),
            // Seven squares: the error points where the rank ends.
            (
                "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                syntax(Placement, 16, rank(Rank::Seventh, 7)),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
                syntax(Placement, 42, rank(Rank::First, 7)),
            ),
            ("8/8//8/8/8/8/8 w - - 0 1", syntax(Placement, 4, rank(Rank::Sixth, 0))),
            (
                "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                syntax(Placement, 41, TooFewRanks(7)),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                syntax(Placement, 36, TooManyRanks),
            ),
            ("8/8/8/8/8/8/8/8/ w - - 0 1", syntax(Placement, 15, TooManyRanks)),
            // Non-ASCII UTF-8: the first byte of 'é' is reported.
            (
                "rnbqkbnr/pppppppp/8/8/é/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                syntax(Placement, 22, InvalidPlacementChar(0xc3)),
            ),
            // A vertical bar is no separator: the placement field ends at whitespace only.
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR|w KQkq - 0 1",
                syntax(Placement, 43, InvalidPlacementChar(b'|')),
            ),
            ("8/8/8/8/8/8/8/8", syntax(Turn, 15, MissingField)),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                syntax(Turn, 44, InvalidTurn),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1",
                syntax(Turn, 44, InvalidTurn),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR wb KQkq - 0 1",
                syntax(Turn, 44, InvalidTurn),
            ),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", syntax(Castling, 45, MissingField)),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQZq - 0 1",
                syntax(Castling, 48, InvalidCastlingChar(b'Z')),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w -K - 0 1",
                syntax(Castling, 46, InvalidCastlingChar(b'-')),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w -- - 0 1",
                syntax(Castling, 46, InvalidCastlingChar(b'-')),
            ),
            ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", syntax(Castling, 22, CastlingWithoutRook(b'K'))),
            ("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", syntax(Castling, 23, CastlingWithoutRook(b'K'))),
            ("4k2r/8/8/8/8/8/8/4K3 w q - 0 1", syntax(Castling, 23, CastlingWithoutRook(b'q'))),
            // A black rook in white's corner is no white castling rook.
            ("4k3/8/8/8/8/8/8/4K2r w K - 0 1", syntax(Castling, 23, CastlingWithoutRook(b'K'))),
            ("4k3/8/8/8/8/8/4K3/7R w K - 0 1", syntax(Castling, 23, CastlingWithoutKing(b'K'))),
            ("4k3/8/8/8/8/8/8/3KK2R w K - 0 1", syntax(Castling, 24, CastlingWithoutKing(b'K'))),
            ("4k3/8/8/8/8/8/8/4K2R w A - 0 1", syntax(Castling, 23, CastlingWithoutRook(b'A'))),
            ("4k3/8/8/8/8/8/8/4K2R w h - 0 1", syntax(Castling, 23, CastlingWithoutRook(b'h'))),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1",
                syntax(Castling, 50, RepeatedCastlingRook { letter: b'K', rook: Square::H1 }),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkh - 0 1",
                syntax(Castling, 49, RepeatedCastlingRook { letter: b'h', rook: Square::H8 }),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqa - 0 1",
                syntax(Castling, 50, RepeatedCastlingRook { letter: b'a', rook: Square::A8 }),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
                syntax(EnPassant, 50, MissingField),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
                syntax(EnPassant, 51, InvalidEnPassant),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq E3 0 1",
                syntax(EnPassant, 51, InvalidEnPassant),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e33 0 1",
                syntax(EnPassant, 51, InvalidEnPassant),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
                syntax(Halfmoves, 53, InvalidNumber(b'-')),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - +1 1",
                syntax(Halfmoves, 53, InvalidNumber(b'+')),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
                syntax(Fullmoves, 54, MissingField),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 \n",
                syntax(Fullmoves, 54, MissingField),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 4294967296",
                syntax(Fullmoves, 55, NumberTooLarge),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999999999999999 1",
                syntax(Halfmoves, 53, NumberTooLarge),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1x",
                syntax(Fullmoves, 56, InvalidNumber(b'x')),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1.5",
                syntax(Fullmoves, 56, InvalidNumber(b'.')),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
                syntax(Trailing, 57, TooManyFields),
            ),
            // An EPD operation is not part of a FEN.
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20",
                syntax(Trailing, 57, TooManyFields),
            ),
            // With the clocks left out, whatever follows the en passant field must be a clock.
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20",
                syntax(Halfmoves, 53, InvalidNumber(b';')),
            ),
        ];
        for (input, expected) in cases {
            check(input, Err(expected));
            // The error is the same without the position step.
            let FenError::Syntax(err) = expected else { unreachable!() };
            assert_eq!(input.parse::<Fen>(), Err(err), "input {input:?}");
            assert_eq!(Fen::from_ascii(input.as_bytes()), Err(err), "input {input:?}");
        }
    }

    #[test]
    fn position_errors() {
        use Status as P;
        let cases = [
            // Good syntax, but white to move cannot face a fourth-rank en passant square.
            ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e4 0 1", P::BAD_EN_PASSANT),
            // The pawn cannot have come from e2: a pawn stands there.
            ("4k3/8/8/8/4P3/8/4P3/4K3 b - e3 0 1", P::BAD_EN_PASSANT),
            ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", P::TOO_MANY_WHITE_KINGS),
            ("8/8/8/8/8/8/8/4K3 w - - 0 1", P::NO_BLACK_KING),
            ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", P::PAWN_ON_BACK_RANK),
            ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", P::OPPOSITE_CHECK),
            ("4k3/8/8/8/8/8/8/4K1RR w HG - 0 1", P::BAD_CASTLING_RIGHTS),
            // A file letter needs only the rook; the king must share its rank.
            ("4k3/8/8/8/8/8/4K3/R7 w A - 0 1", P::BAD_CASTLING_RIGHTS),
        ];
        for (input, expected) in cases {
            match parse_position(input) {
                Err(FenError::Position(e)) => assert_eq!(e.status(), expected, "{input}"),
                other => panic!("{input}: {other:?}"),
            }
        }
    }

    #[test]
    fn accepted_and_normalised() {
        let cases = [
            (START, START),
            // The clocks may be left out together.
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", START),
            // Whitespace around the text, and runs of spaces between fields.
            ("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w  KQkq -  0 1 \r\n", START),
            // Tabs between fields, as python-chess's `split()` reads them.
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw KQkq\t- 0\t 1", START),
            // A fullmove number of 0 reads as 1.
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", START),
            // Shredder-FEN and mixed castling letters, in any order.
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", START),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w qAkH - 0 1", START),
            // Leading zeros and the largest clocks.
            ("4k3/8/8/8/8/8/8/4K3 b - - 007 4294967295", "4k3/8/8/8/8/8/8/4K3 b - - 7 4294967295"),
            // The en passant square is kept even when no capture is possible.
            (
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            ),
            // Chess960: the outermost rook is K/Q, an inner one its file.
            (
                "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBgb - 0 1",
                "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w KQkq - 0 1",
            ),
            (
                "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPP1/NRBBQKRR w GBgb - 0 1",
                "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPP1/NRBBQKRR w GQkq - 0 1",
            ),
            // Rooks on both sides of an inner rook: the inner one is a file letter.
            ("r1r1k3/8/8/8/8/8/8/4K3 b c - 0 1", "r1r1k3/8/8/8/8/8/8/4K3 b c - 0 1"),
            ("r1r1k3/8/8/8/8/8/8/4K3 b q - 0 1", "r1r1k3/8/8/8/8/8/8/4K3 b q - 0 1"),
            ("r1r1k3/8/8/8/8/8/8/4K3 b a - 0 1", "r1r1k3/8/8/8/8/8/8/4K3 b q - 0 1"),
        ];
        for (input, expected) in cases {
            check(input, Ok(expected));
        }
    }

    #[test]
    fn castling_letters_name_rooks() {
        let rooks = |fen: &str| fen.parse::<Fen>().map(|fen| fen.0.castling_rooks);
        let squares = |sqs: &[Square]| Ok(sqs.iter().copied().collect::<Bitboard>());
        assert_eq!(rooks(START), squares(&[Square::A1, Square::H1, Square::A8, Square::H8]));
        // K is the outermost rook on the king's side: h1, not f1.
        assert_eq!(rooks("4k3/8/8/8/8/8/8/4KR1R w K - 0 1"), squares(&[Square::H1]));
        assert_eq!(rooks("4k3/8/8/8/8/8/8/4KR1R w F - 0 1"), squares(&[Square::F1]));
        // Q is the outermost rook on the queen's side, even a rook next to the king.
        assert_eq!(rooks("4k3/8/8/8/8/8/8/3RK3 w Q - 0 1"), squares(&[Square::D1]));
        // A king in the corner has one side only.
        assert_eq!(rooks("7k/8/8/8/8/8/8/K6R w K - 0 1"), squares(&[Square::H1]));
        assert_eq!(
            rooks("7k/8/8/8/8/8/8/K6R w Q - 0 1").map_err(|e| e.kind),
            Err(CastlingWithoutRook(b'Q')),
        );
        // Black letters look at rank 8 only.
        assert_eq!(
            rooks("4k3/8/8/8/8/8/8/r3K3 w q - 0 1").map_err(|e| e.kind),
            Err(CastlingWithoutRook(b'q')),
        );
    }

    #[test]
    fn printing_options() {
        let fen = "r3k2r/8/8/2Pp4/8/8/8/R3K2R w KQkq d6 0 2";
        let pos = parse_position(fen).unwrap();
        let options = |castling, en_passant| FenOptions { castling, en_passant };
        let print = |castling, en_passant| fen_of(&pos, options(castling, en_passant));
        use CastlingNotation::*;
        use EnPassantMode::*;
        assert_eq!(print(XFen, Always), fen);
        assert_eq!(print(XFen, PseudoLegal), fen);
        assert_eq!(print(Shredder, Always), "r3k2r/8/8/2Pp4/8/8/8/R3K2R w HAha d6 0 2");
        // No white pawn next to d5: PseudoLegal leaves the square out.
        let pos = parse_position("r3k2r/8/8/3p4/8/8/8/R3K2R w Kq d6 0 2").unwrap();
        assert_eq!(
            fen_of(&pos, options(Shredder, PseudoLegal)),
            "r3k2r/8/8/3p4/8/8/8/R3K2R w Ha - 0 2",
        );
        assert_eq!(Fen::from_position(&pos).to_string(), "r3k2r/8/8/3p4/8/8/8/R3K2R w Kq d6 0 2");
        assert_eq!(FenOptions::default(), options(XFen, Always));
    }

    #[test]
    fn unvalidated_setups_print_without_panicking() {
        // No kings, a castling square without a rook, one off the back ranks: the castling
        // field keeps what it can write, from h to a.
        let mut setup = Setup::empty();
        setup.board.set_piece_at(Square::B1, Piece::new(Color::White, Role::Rook));
        setup.castling_rooks =
            [Square::B1, Square::G1, Square::E4, Square::C8].into_iter().collect();
        setup.ep_square = Some(Square::E4);
        assert_eq!(Fen(setup).to_string(), "8/8/8/8/8/8/8/1R6 w GBc e4 0 1");
        // The king's own square named as a castling square is written as a file letter.
        setup.board.set_piece_at(Square::E1, Piece::new(Color::White, Role::King));
        setup.castling_rooks = Bitboard::from_square(Square::E1) | Square::B1;
        assert_eq!(Fen(setup).to_string(), "8/8/8/8/8/8/8/1R2K3 w QE e4 0 1");
        assert_eq!(Fen::default().to_string(), START);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn fen_serializes_as_text() {
        let fen: Fen = START.parse().unwrap();
        let json = serde_json::to_string(&fen).unwrap();
        assert_eq!(json, format!("\"{START}\""));
        assert_eq!(serde_json::from_str::<Fen>(&json).unwrap(), fen);
        let err = serde_json::from_str::<Fen>("\"8/8 w\"").unwrap_err().to_string();
        assert!(err.starts_with("placement (byte 3): only 2 ranks"), "{err}");
    }

    #[test]
    fn error_messages() {
        let message = |fen: &str| parse_position(fen).unwrap_err().to_string();
        insta::assert_snapshot!(message(""), @"placement (byte 0): missing");
        insta::assert_snapshot!(message("rnbqkbnr/pppppppp/ppppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), @"placement (byte 26): rank 6 has 9 squares");
        // Digit runs that add up to eight are still rejected (other parsers reject them too).
        insta::assert_snapshot!(message("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), @"placement (byte 19): two digits in a row, a run of empty squares is one digit");
        insta::assert_snapshot!(message("rnbqkbnr/pppppppp/8/8/8/17/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), @"placement (byte 25): two digits in a row, a run of empty squares is one digit");
        insta::assert_snapshot!(message("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), @"placement (byte 41): only 7 ranks, expected 8");
        insta::assert_snapshot!(message("rnbqkbnr/pppppppp/8/8/é/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), @r#"placement (byte 22): invalid character '\xc3', expected a piece letter, a digit 1..8 or '/'"#);
        insta::assert_snapshot!(message("8/8/8/8/8/8/8/8 x - - 0 1"), @r#"side to move (byte 16): expected 'w' or 'b'"#);
        insta::assert_snapshot!(message("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQZq - 0 1"), @r#"castling (byte 48): invalid character 'Z', expected '-', KQkq or a file letter"#);
        insta::assert_snapshot!(message("4k3/8/8/8/8/8/4K3/7R w K - 0 1"), @r#"castling (byte 23): 'K' needs a single white king on its back rank"#);
        insta::assert_snapshot!(message("4k3/8/8/8/8/8/8/4K3 w K - 0 1"), @r#"castling (byte 22): no white rook on the king's side of its king for 'K'"#);
        insta::assert_snapshot!(message("4k3/8/8/8/8/8/8/4K2R w Q - 0 1"), @r#"castling (byte 23): no white rook on the queen's side of its king for 'Q'"#);
        insta::assert_snapshot!(message("4k3/8/8/8/8/8/8/4K2R w Kb - 0 1"), @r#"castling (byte 24): no black rook on b8 for 'b'"#);
        insta::assert_snapshot!(message("4k3/8/8/8/8/8/8/4K2R w KH - 0 1"), @r#"castling (byte 24): 'H' names the rook on h1 a second time"#);
        insta::assert_snapshot!(message("4k3/8/8/8/8/8/8/4K3 w - e9 0 1"), @r#"en passant (byte 24): expected '-' or a square such as e3"#);
        insta::assert_snapshot!(message("4k3/8/8/8/8/8/8/4K3 w - - -1 1"), @r#"halfmove clock (byte 26): invalid character '-', expected a digit"#);
        insta::assert_snapshot!(message("4k3/8/8/8/8/8/8/4K3 w - - 0 4294967296"), @"fullmove number (byte 28): number too large, the maximum is 4294967295");
        insta::assert_snapshot!(message("4k3/8/8/8/8/8/8/4K3 w - - 0"), @"fullmove number (byte 27): missing");
        insta::assert_snapshot!(message("4k3/8/8/8/8/8/8/4K3 w - - 0 1 1"), @"trailing text (byte 30): more than six fields");
        insta::assert_snapshot!(message("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"), @"white has more than one king");
    }
}
