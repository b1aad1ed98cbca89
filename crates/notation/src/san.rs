//! Standard Algebraic Notation: [`San`] and [`SanPlus`] read and write moves as `Nf3`, `exd5`,
//! `e8=Q+`, `O-O-O#`.
//!
//! A [`San`] is the text of a move without a position. [`San::to_move`] resolves it against a
//! position into a [`Move16`] (or says why it cannot: [`SanError`]); [`San::from_move`] writes a
//! legal move of a position as SAN. [`SanPlus`] adds the check or checkmate mark.
//!
//! ```
//! use chessbits_notation::san::{San, SanPlus};
//! use chessbits_movegen::MoveGen;
//! use chessbits_state::Position;
//!
//! let mut pos = Position::new();
//! for text in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"] {
//!     let m = text.parse::<San>()?.to_move(&pos)?;
//!     pos.play(m)?;
//! }
//! let mate = "Qxf7#".parse::<San>()?.to_move(&pos)?;
//! assert_eq!(SanPlus::from_move(&pos, mate).to_string(), "Qxf7#");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! # What is written
//!
//! `Display` writes the PGN standard's SAN (section 8.2.3), and nothing else:
//!
//! - castling is `O-O` (king side) or `O-O-O` (queen side), with the letter O, in standard chess
//!   and in Chess960 alike (where a castling [`Move16`] goes from the king to its rook);
//! - otherwise the piece letter `N`, `B`, `R`, `Q` or `K` (none for a pawn), then what tells the
//!   piece apart from others of its role that can legally move to the same square: nothing if
//!   no other can; else its file if no other stands on that file; else its rank if no other
//!   stands on that rank; else both (`Qh4e1`). A pawn capture always names the pawn's file
//!   (`exd5`); then `x` for a capture (en passant included, written with no `e.p.`), the
//!   destination square, and `=` with the promotion letter (`e8=Q`, `bxa1=N`);
//! - [`SanPlus`] adds `+` after a move that gives check and `#` after one that gives checkmate;
//! - the null move is `--`.
//!
//! So a written move is at most 6 bytes (`Qh4xe1`, `exd8=Q`, `O-O-O`), 7 with its mark.
//!
//! # What is read
//!
//! The parser reads what is written and the common variants found in the wild. As a grammar,
//! over bytes (quoted text is literal, `|` separates choices, `[x]` is optional):
//!
//! ```text
//! san        = (castling | null | normal) marks
//! castling   = "O-O" | "O-O-O" | "0-0" | "0-0-0"
//! null       = "--" | "Z0" | "0000" | "@@@@"
//! normal     = [piece] [file] [rank] ["x" | "-"] square [promotion] [en-passant]
//! piece      = "P" | "N" | "B" | "R" | "Q" | "K"
//! file       = "a" .. "h"
//! rank       = "1" .. "8"
//! square     = file rank
//! promotion  = ["=" | "/"] role | "(" role ")"
//! role       = "N" | "B" | "R" | "Q" | "n" | "b" | "r" | "q"
//! en-passant = [" "] ("e.p." | "ep")                            (pawn moves only)
//! marks      = [check] [glyph] | glyph check
//! check      = "+" | "#"
//! glyph      = "!" | "?" | "!!" | "??" | "!?" | "?!"
//! ```
//!
//! The file and rank before the square are the origin, in whole (`e2e4`, `Ng1-f3`, `Nb1xc3`:
//! long algebraic notation) or in part (`Nbd2`, `R1e2`); the last file and rank in the text are
//! always the square (`e4` is a square, `e2e4` an origin and a square). Nothing else is read: no
//! whitespace around the text, no lowercase piece letters before the square (`b` is a file), no
//! `++`.
//! Parsing keeps what it reads and checks nothing against chess rules: `Ke8=Q` parses (and no
//! position has a move it names).
//!
//! Check marks and glyphs are read and not checked: [`San`] drops them, [`SanPlus`] keeps the
//! check mark. Resolution ([`San::to_move`]) is lenient in the same spirit:
//!
//! - the `x` is not checked (`Nxf3` names a quiet move, `Nf3` a capture, when that is the move);
//! - the origin given, in part or in whole, only narrows the search: `Ng1f3` resolves as `Nf3`
//!   does, and `Pe4` as `e4`;
//! - a pawn move that gives no file is a push, never a capture (`d5` and `xd5` do not name
//!   `exd5`), as the PGN standard and python-chess read it: a capture names its file;
//! - a promotion must be given exactly when the move promotes; `e8` with a pawn on e7 is illegal;
//! - the null move resolves to [`Move16::NULL`], which is not a legal move: play it with
//!   [`Position::play_null`].
//!
//! # Errors
//!
//! Parsing never panics. A [`ParseSanError`] gives the byte offset of the problem and what was
//! expected there: `san (byte 1): expected a square such as e4, found 'z'`. Resolution fails with
//! [`SanError::Illegal`] when no legal move matches (`illegal move Qh5`) and with
//! [`SanError::Ambiguous`] when more than one does, listing them in long algebraic notation, which
//! this module reads: `ambiguous move Nd2: Nb1d2 or Nf3d2`.
//!
//! # Speed
//!
//! Resolution builds no move list and sets up no generator. It narrows the origins to the pieces
//! of the named role on the named file and rank that attack the destination on the current
//! board, and tests each one's move on its own ([`MoveGen::legal_move`]: one king-safety test
//! with the occupancy the move leaves). Writing asks the same of the other pieces of the same
//! role that attack the square, and skips even that when none does. Nothing allocates, except a
//! `String` for `to_string`.

use core::fmt;
use core::str::FromStr;

use chessbits_bitboard::{Bitboard, File, Rank, Role, Square};
use chessbits_move::Move16;
use chessbits_movegen::MoveGen;
use chessbits_state::{CastlingSide, Position};

/// A move in Standard Algebraic Notation, without a position.
///
/// ```
/// use chessbits_bitboard::{File, Role, Square};
/// use chessbits_notation::san::San;
///
/// let san: San = "Nbd2".parse()?;
/// assert_eq!(
///     san,
///     San::Normal {
///         role: Role::Knight,
///         file: Some(File::B),
///         rank: None,
///         capture: false,
///         to: Square::D2,
///         promotion: None,
///     },
/// );
/// assert_eq!(san.to_string(), "Nbd2");
/// // Lenient forms read as the canonical one.
/// assert_eq!("exd8(Q)+!".parse::<San>()?.to_string(), "exd8=Q");
/// # Ok::<_, chessbits_notation::san::ParseSanError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// Any move but castling and the null move.
    Normal {
        /// The role of the moving piece.
        role: Role,
        /// The origin's file, if given.
        file: Option<File>,
        /// The origin's rank, if given.
        rank: Option<Rank>,
        /// Whether the text marks the move a capture (`x`).
        capture: bool,
        /// The destination square.
        to: Square,
        /// The role a pawn promotes to.
        promotion: Option<Role>,
    },
    /// Castling to one side: `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// The null move (passing the turn): `--`.
    Null,
}

/// The mark after a move: check or checkmate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`: the move gives check.
    Check,
    /// `#`: the move gives checkmate.
    Checkmate,
}

/// A move in SAN with its check or checkmate mark, if any.
///
/// ```
/// use chessbits_notation::san::{SanPlus, Suffix};
///
/// let san: SanPlus = "Qxf7#".parse()?;
/// assert_eq!(san.suffix, Some(Suffix::Checkmate));
/// assert_eq!(san.to_string(), "Qxf7#");
/// # Ok::<_, chessbits_notation::san::ParseSanError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// The check or checkmate mark.
    pub suffix: Option<Suffix>,
}

impl San {
    /// Parses SAN text given as bytes (it need not be UTF-8). A check mark and a glyph after the
    /// move are read and dropped; see the [module docs](self) for the grammar.
    ///
    /// # Errors
    /// [`ParseSanError`] at the first byte that does not fit the grammar.
    pub fn from_ascii(s: &[u8]) -> Result<San, ParseSanError> {
        SanPlus::from_ascii(s).map(|plus| plus.san)
    }

    /// The SAN of `m`, a legal move of `pos` (or [`Move16::NULL`], written `--`), with the
    /// least disambiguation that tells it apart.
    ///
    /// For a move that is not legal in `pos` the result is unspecified (but this never panics).
    pub fn from_move(pos: &Position, m: Move16) -> San {
        if m.is_null() {
            return San::Null;
        }
        if m.is_castling() {
            return San::Castle(CastlingSide::from_king_rook(m.from(), m.to()));
        }
        let (from, to) = (m.from(), m.to());
        let role = pos.board().role_at(from).unwrap_or(Role::Pawn);
        let capture = m.is_capture();
        let (file, rank) = match role {
            Role::Pawn => (capture.then_some(from.file()), None),
            Role::King => (None, None),
            _ => disambiguation(pos, role, from, to),
        };
        San::Normal { role, file, rank, capture, to, promotion: m.promotion() }
    }

    /// The legal move of `pos` this SAN names. [`San::Null`] gives [`Move16::NULL`], which is not
    /// a legal move: play it with [`Position::play_null`].
    ///
    /// ```
    /// use chessbits_bitboard::Square;
    /// use chessbits_notation::fen::parse_position;
    /// use chessbits_notation::san::{San, SanError};
    ///
    /// let pos = parse_position("4k3/8/8/8/8/8/8/1N3N1K w - - 0 1")?;
    /// let err = "Nd2".parse::<San>()?.to_move(&pos).unwrap_err();
    /// assert_eq!(err.to_string(), "ambiguous move Nd2: Nb1d2 or Nf1d2");
    /// assert_eq!("Nfd2".parse::<San>()?.to_move(&pos)?.from(), Square::F1);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`SanError::Illegal`] if no legal move matches, [`SanError::Ambiguous`] if several do.
    pub fn to_move(&self, pos: &Position) -> Result<Move16, SanError> {
        match *self {
            San::Normal { role, file, rank, capture: _, to, promotion } => {
                // A pawn move without its file is a push: a capture names the file it comes
                // from (`exd5`), so `d5` is never `exd5` (python-chess's rule too).
                let mut origins = within(file, rank);
                if role == Role::Pawn && file.is_none() {
                    origins &= Bitboard::from_file(to.file());
                }
                // Each candidate origin is asked on its own: no move list, no generator setup.
                let candidates = pos.legal_moves_to(role, origins, to, promotion);
                match candidates.as_slice() {
                    [m] => Ok(*m),
                    [] => Err(SanError::Illegal { san: *self }),
                    _ => Err(SanError::Ambiguous { san: *self, candidates }),
                }
            }
            San::Castle(side) => castle(pos, side).ok_or(SanError::Illegal { san: *self }),
            San::Null => Ok(Move16::NULL),
        }
    }

    /// The bytes [`Display`](fmt::Display) writes, in a buffer.
    fn write(&self, buf: &mut Buf) {
        match *self {
            San::Normal { role, file, rank, capture, to, promotion } => {
                if role != Role::Pawn {
                    buf.push(role.upper_char() as u8);
                }
                if let Some(file) = file {
                    buf.push(file.char() as u8);
                }
                if let Some(rank) = rank {
                    buf.push(rank.char() as u8);
                }
                if capture {
                    buf.push(b'x');
                }
                buf.extend(&to.to_ascii());
                if let Some(role) = promotion {
                    buf.extend(&[b'=', role.upper_char() as u8]);
                }
            }
            San::Castle(CastlingSide::KingSide) => buf.extend(b"O-O"),
            San::Castle(CastlingSide::QueenSide) => buf.extend(b"O-O-O"),
            San::Null => buf.extend(b"--"),
        }
    }
}

/// The castling move of the side to move on `side`, if legal: asked of the generator, which
/// checks the squares the king crosses. Out of line, so that [`San::to_move`]'s common path
/// stays small.
#[inline(never)]
fn castle(pos: &Position, side: CastlingSide) -> Option<Move16> {
    let rook = pos.castles().rook(pos.turn(), side)?;
    let king = pos.our(Role::King);
    let mut found = None;
    pos.visit_moves(king, Bitboard::from_square(rook), |moves| {
        found = moves.into_iter().find(|m| m.is_castling());
        found.is_some()
    });
    found
}

/// The origin's file and rank that tell a move of the `role` piece on `from` to `to` apart from
/// the legal moves of the other pieces of that role to `to`.
fn disambiguation(
    pos: &Position,
    role: Role,
    from: Square,
    to: Square,
) -> (Option<File>, Option<Rank>) {
    // Only rivals whose move to `to` is legal count (a pinned piece does not).
    let rivals = pos.legal_moves_to(role, Bitboard::FULL - from, to, None);
    let legal: Bitboard = rivals.iter().map(|m| m.from()).collect();
    if legal.is_empty() {
        (None, None)
    } else if (legal & Bitboard::from_file(from.file())).is_empty() {
        (Some(from.file()), None)
    } else if (legal & Bitboard::from_rank(from.rank())).is_empty() {
        (None, Some(from.rank()))
    } else {
        (Some(from.file()), Some(from.rank()))
    }
}

/// The squares a SAN's origin file and rank allow (all squares when it gives neither).
fn within(file: Option<File>, rank: Option<Rank>) -> Bitboard {
    let mut squares = Bitboard::FULL;
    if let Some(file) = file {
        squares &= Bitboard::from_file(file);
    }
    if let Some(rank) = rank {
        squares &= Bitboard::from_rank(rank);
    }
    squares
}

impl FromStr for San {
    type Err = ParseSanError;

    fn from_str(s: &str) -> Result<San, ParseSanError> {
        San::from_ascii(s.as_bytes())
    }
}

/// Writes the SAN as the [module docs](self) say: `Nf3`, `exd5`, `e8=Q`, `O-O`, `--`.
impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = Buf::new();
        self.write(&mut buf);
        f.write_str(buf.as_str())
    }
}

impl Suffix {
    /// The mark for the move that led to `pos`: checkmate, check, or none.
    pub fn from_position(pos: &Position) -> Option<Suffix> {
        if !pos.is_check() {
            None
        } else if pos.has_legal_moves() {
            Some(Suffix::Check)
        } else {
            Some(Suffix::Checkmate)
        }
    }

    /// The mark as a character: `+` or `#`.
    pub const fn char(self) -> char {
        match self {
            Suffix::Check => '+',
            Suffix::Checkmate => '#',
        }
    }
}

impl fmt::Display for Suffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Suffix::Check => "+",
            Suffix::Checkmate => "#",
        })
    }
}

impl SanPlus {
    /// Parses SAN text with its check mark, given as bytes (it need not be UTF-8). A glyph after
    /// the move is read and dropped; see the [module docs](self) for the grammar.
    ///
    /// # Errors
    /// [`ParseSanError`] at the first byte that does not fit the grammar.
    pub fn from_ascii(s: &[u8]) -> Result<SanPlus, ParseSanError> {
        Parser { s, at: 0 }.san_plus()
    }

    /// The SAN of `m`, a legal move of `pos` (or [`Move16::NULL`]), with `+` or `#` if it gives
    /// check or checkmate. This plays the move on a copy of `pos`; when the caller plays it
    /// anyway, [`SanPlus::from_move_and_play`] saves the copy.
    pub fn from_move(pos: &Position, m: Move16) -> SanPlus {
        let mut after = *pos;
        SanPlus::from_move_and_play(&mut after, m)
    }

    /// The SAN of `m` as [`SanPlus::from_move`] writes it, and `m` played on `pos` (with
    /// [`Position::play_null`] for the null move).
    ///
    /// `m` must be legal in `pos` (or null): like [`Position::play_unchecked`], this trusts it.
    /// A null move in check is not played ([`Position::play_null`] refuses it): `pos` stays as
    /// it was and the result is `--` without a mark.
    pub fn from_move_and_play(pos: &mut Position, m: Move16) -> SanPlus {
        let san = San::from_move(pos, m);
        if m.is_null() {
            if pos.play_null().is_err() {
                return SanPlus { san, suffix: None };
            }
        } else {
            pos.play_unchecked(m);
        }
        SanPlus { san, suffix: Suffix::from_position(pos) }
    }
}

impl FromStr for SanPlus {
    type Err = ParseSanError;

    fn from_str(s: &str) -> Result<SanPlus, ParseSanError> {
        SanPlus::from_ascii(s.as_bytes())
    }
}

/// Writes the SAN and its mark: `Qxf7#`.
impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = Buf::new();
        self.san.write(&mut buf);
        if let Some(suffix) = self.suffix {
            buf.push(suffix.char() as u8);
        }
        f.write_str(buf.as_str())
    }
}

impl From<San> for SanPlus {
    fn from(san: San) -> SanPlus {
        SanPlus { san, suffix: None }
    }
}

/// A stack buffer for the text of a SAN: at most 9 bytes even for values no position writes
/// (`Qh4xe1=Q+`), so 16 leaves room to spare.
struct Buf {
    bytes: [u8; 16],
    len: usize,
}

impl Buf {
    const fn new() -> Buf {
        Buf { bytes: [0; 16], len: 0 }
    }

    fn push(&mut self, b: u8) {
        if let Some(slot) = self.bytes.get_mut(self.len) {
            *slot = b;
            self.len += 1;
        }
    }

    fn extend(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.push(b);
        }
    }

    fn as_str(&self) -> &str {
        // Only ASCII is pushed, so this never fails.
        core::str::from_utf8(self.bytes.get(..self.len).unwrap_or_default()).unwrap_or_default()
    }
}

/// What [`ParseSanError`] found wrong.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseSanErrorKind {
    /// The text is empty.
    Empty,
    /// A square (`e4`) was expected here; this byte was found, or the end of the text.
    ExpectedSquare(Option<u8>),
    /// A rank (`1`..`8`) was expected here, after the file of a square.
    ExpectedRank(Option<u8>),
    /// A promotion letter (`N`, `B`, `R`, `Q`) was expected here, after `=`, `/` or `(`.
    ExpectedPromotion(Option<u8>),
    /// A `)` closing a promotion was expected here.
    ExpectedClosingParen(Option<u8>),
    /// Castling text (`O-O`, `O-O-O`, or the same with zeros) goes on differently here.
    ExpectedCastling(Option<u8>),
    /// The move is complete, and this byte follows it.
    Trailing(u8),
}

/// A byte found where something else was expected, or the end of the text.
struct Found(Option<u8>);

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(b) => write!(f, "found '{}'", b.escape_ascii()),
            None => f.write_str("found the end of the text"),
        }
    }
}

impl fmt::Display for ParseSanErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseSanErrorKind::Empty => f.write_str("empty move text"),
            ParseSanErrorKind::ExpectedSquare(b) => {
                write!(f, "expected a square such as e4, {}", Found(b))
            }
            ParseSanErrorKind::ExpectedRank(b) => {
                write!(f, "expected a rank 1..8 to complete the square, {}", Found(b))
            }
            ParseSanErrorKind::ExpectedPromotion(b) => {
                write!(f, "expected a promotion letter N, B, R or Q, {}", Found(b))
            }
            ParseSanErrorKind::ExpectedClosingParen(b) => {
                write!(f, "expected ')' after the promotion letter, {}", Found(b))
            }
            ParseSanErrorKind::ExpectedCastling(b) => {
                write!(f, "expected O-O or O-O-O, {}", Found(b))
            }
            ParseSanErrorKind::Trailing(b) => {
                write!(f, "unexpected '{}' after the move", b.escape_ascii())
            }
        }
    }
}

/// Why text is not SAN: the byte offset where the problem was found, and what is wrong.
///
/// ```
/// use chessbits_notation::san::{ParseSanError, ParseSanErrorKind, San};
///
/// let err = "Nz3".parse::<San>().unwrap_err();
/// let kind = ParseSanErrorKind::ExpectedSquare(Some(b'z'));
/// assert_eq!(err, ParseSanError { offset: 1, kind });
/// assert_eq!(err.to_string(), "san (byte 1): expected a square such as e4, found 'z'");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParseSanError {
    /// The byte offset in the input of the bad byte, or the length of the input if it ends too
    /// early.
    pub offset: usize,
    /// What is wrong.
    pub kind: ParseSanErrorKind,
}

impl fmt::Display for ParseSanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "san (byte {}): {}", self.offset, self.kind)
    }
}

impl std::error::Error for ParseSanError {}

/// The legal moves an ambiguous SAN could mean: at most eight, because the pieces of one role
/// that can move to one square each stand on a different ray or knight jump into it (a queen
/// has eight rays, a knight eight jumps, pawns at most three origins).
pub type Candidates = arrayvec::ArrayVec<Move16, 8>;

/// Why a SAN names no legal move of a position: none matches, or several do.
///
/// The candidates sit on the stack in a [`Candidates`] list, so building the error allocates
/// nothing and the error stays small (20 bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SanError {
    /// No legal move matches.
    Illegal {
        /// The SAN.
        san: San,
    },
    /// More than one legal move matches.
    Ambiguous {
        /// The SAN.
        san: San,
        /// The legal moves that match, in generation order.
        candidates: Candidates,
    },
}

impl SanError {
    /// The SAN that could not be resolved.
    pub const fn san(&self) -> &San {
        match self {
            SanError::Illegal { san } | SanError::Ambiguous { san, .. } => san,
        }
    }
}

/// `illegal move Qh5`; `ambiguous move Nd2: Nb1d2 or Nf1d2`, the candidates in long algebraic
/// notation (role letter, origin, `x` for a capture, destination, promotion).
impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Illegal { san } => write!(f, "illegal move {san}"),
            SanError::Ambiguous { san, candidates } => {
                write!(f, "ambiguous move {san}:")?;
                let role = match *san {
                    San::Normal { role, .. } => role,
                    _ => Role::King,
                };
                let last = candidates.len().saturating_sub(1);
                for (i, m) in candidates.iter().enumerate() {
                    let sep = match i {
                        0 => " ",
                        _ if i == last => " or ",
                        _ => ", ",
                    };
                    f.write_str(sep)?;
                    if role != Role::Pawn {
                        write!(f, "{}", role.upper_char())?;
                    }
                    write!(f, "{}{}", m.from(), if m.is_capture() { "x" } else { "" })?;
                    write!(f, "{}", m.to())?;
                    if let Some(promotion) = m.promotion() {
                        write!(f, "={}", promotion.upper_char())?;
                    }
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for SanError {}

/// The spellings of the null move, `--` first (the one written).
const NULL_FORMS: [&[u8]; 4] = [b"--", b"Z0", b"0000", b"@@@@"];

/// The SAN reader: a cursor over the input bytes.
struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.s.get(self.at + ahead).copied()
    }

    /// Consumes `text` if the input goes on with it.
    fn eat(&mut self, text: &[u8]) -> bool {
        let goes_on = self.s.get(self.at..).is_some_and(|rest| rest.starts_with(text));
        if goes_on {
            self.at += text.len();
        }
        goes_on
    }

    fn err(&self, kind: fn(Option<u8>) -> ParseSanErrorKind) -> ParseSanError {
        ParseSanError { offset: self.at, kind: kind(self.peek()) }
    }

    fn san_plus(mut self) -> Result<SanPlus, ParseSanError> {
        if self.s.is_empty() {
            return Err(ParseSanError { offset: 0, kind: ParseSanErrorKind::Empty });
        }
        let san = if NULL_FORMS.iter().any(|null| self.eat(null)) {
            San::Null
        } else {
            match self.peek() {
                Some(o @ (b'O' | b'0')) => self.castling(o)?,
                _ => self.normal()?,
            }
        };
        let suffix = self.marks();
        match self.peek() {
            None => Ok(SanPlus { san, suffix }),
            Some(b) => Err(ParseSanError { offset: self.at, kind: ParseSanErrorKind::Trailing(b) }),
        }
    }

    /// `O-O` or `O-O-O` with the letter `o` (either `O` or `0`), the first byte not yet read.
    fn castling(&mut self, o: u8) -> Result<San, ParseSanError> {
        for expected in [o, b'-', o] {
            if self.peek() != Some(expected) {
                return Err(self.err(ParseSanErrorKind::ExpectedCastling));
            }
            self.at += 1;
        }
        if self.peek() == Some(b'-') && self.peek_at(1) == Some(o) {
            self.at += 2;
            Ok(San::Castle(CastlingSide::QueenSide))
        } else {
            Ok(San::Castle(CastlingSide::KingSide))
        }
    }

    fn file(&mut self) -> Option<File> {
        let file = File::from_ascii(self.peek()?)?;
        self.at += 1;
        Some(file)
    }

    fn rank(&mut self) -> Option<Rank> {
        let rank = Rank::from_ascii(self.peek()?)?;
        self.at += 1;
        Some(rank)
    }

    /// A square, if the input goes on with one.
    fn square(&mut self) -> Option<Square> {
        let file = self.peek().and_then(File::from_ascii)?;
        let rank = self.peek_at(1).and_then(Rank::from_ascii)?;
        self.at += 2;
        Some(Square::from_coords(file, rank))
    }

    fn normal(&mut self) -> Result<San, ParseSanError> {
        let role = match self.peek().and_then(piece_letter) {
            Some(role) => {
                self.at += 1;
                role
            }
            None => Role::Pawn,
        };
        let (mut file, mut rank) = (self.file(), self.rank());
        let capture = self.peek() == Some(b'x');
        let separator = capture || self.peek() == Some(b'-');
        if separator {
            self.at += 1;
        }
        let to = match (self.square(), file, rank) {
            (Some(to), _, _) => to,
            // No second square: the file and rank read were the destination.
            (None, Some(f), Some(r)) if !separator => {
                (file, rank) = (None, None);
                Square::from_coords(f, r)
            }
            (None, _, _) => {
                // A file alone (`e9`, `exd`) was meant as a square: the rank is missing.
                let lone_file = !separator && file.is_some() && rank.is_none();
                if self.file().is_some() || lone_file {
                    return Err(self.err(ParseSanErrorKind::ExpectedRank));
                }
                return Err(self.err(ParseSanErrorKind::ExpectedSquare));
            }
        };
        let promotion = self.promotion()?;
        if role == Role::Pawn {
            self.en_passant();
        }
        Ok(San::Normal { role, file, rank, capture, to, promotion })
    }

    fn promotion(&mut self) -> Result<Option<Role>, ParseSanError> {
        let (role, closing) = match self.peek() {
            Some(b'=' | b'/') => {
                self.at += 1;
                (self.promotion_letter()?, false)
            }
            Some(b'(') => {
                self.at += 1;
                (self.promotion_letter()?, true)
            }
            Some(b) => match promotion_letter(b) {
                Some(role) => {
                    self.at += 1;
                    (role, false)
                }
                None => return Ok(None),
            },
            None => return Ok(None),
        };
        if closing {
            if self.peek() != Some(b')') {
                return Err(self.err(ParseSanErrorKind::ExpectedClosingParen));
            }
            self.at += 1;
        }
        Ok(Some(role))
    }

    fn promotion_letter(&mut self) -> Result<Role, ParseSanError> {
        let role = self
            .peek()
            .and_then(promotion_letter)
            .ok_or(self.err(ParseSanErrorKind::ExpectedPromotion))?;
        self.at += 1;
        Ok(role)
    }

    /// An optional `e.p.` or `ep`, with an optional space before it.
    fn en_passant(&mut self) {
        let start = self.at;
        self.eat(b" ");
        if !(self.eat(b"e.p.") || self.eat(b"ep")) {
            self.at = start;
        }
    }

    /// The check mark and glyph, in either order.
    fn marks(&mut self) -> Option<Suffix> {
        let mut suffix = None;
        let mut glyph = false;
        loop {
            match self.peek() {
                Some(b'+') if suffix.is_none() => suffix = Some(Suffix::Check),
                Some(b'#') if suffix.is_none() => suffix = Some(Suffix::Checkmate),
                Some(b'!' | b'?') if !glyph => {
                    glyph = true;
                    if matches!(self.peek_at(1), Some(b'!' | b'?')) {
                        self.at += 1;
                    }
                }
                _ => return suffix,
            }
            self.at += 1;
        }
    }
}

/// The role of a piece letter before the destination: uppercase only (`b` is a file).
fn piece_letter(b: u8) -> Option<Role> {
    Some(match b {
        b'P' => Role::Pawn,
        b'N' => Role::Knight,
        b'B' => Role::Bishop,
        b'R' => Role::Rook,
        b'Q' => Role::Queen,
        b'K' => Role::King,
        _ => return None,
    })
}

/// The role of a promotion letter, either case.
fn promotion_letter(b: u8) -> Option<Role> {
    Some(match b.to_ascii_uppercase() {
        b'N' => Role::Knight,
        b'B' => Role::Bishop,
        b'R' => Role::Rook,
        b'Q' => Role::Queen,
        _ => return None,
    })
}

#[cfg(feature = "serde")]
chessbits_bitboard::serde_text!(San, "a SAN move such as \"Nf3\"", |s| s.parse::<San>());
#[cfg(feature = "serde")]
chessbits_bitboard::serde_text!(SanPlus, "a SAN move such as \"Qxf7#\"", |s| s.parse::<SanPlus>());

#[cfg(test)]
mod tests {
    use super::*;
    use ParseSanErrorKind::*;

    #[cfg(feature = "serde")]
    #[test]
    fn san_serializes_as_text() {
        let san: SanPlus = "exd8=N+".parse().unwrap();
        assert_eq!(serde_json::to_string(&san).unwrap(), "\"exd8=N+\"");
        assert_eq!(serde_json::from_str::<SanPlus>("\"exd8=N+\"").unwrap(), san);
        assert_eq!(serde_json::from_str::<San>("\"O-O\"").unwrap().to_string(), "O-O");
        assert!(serde_json::from_str::<San>("\"Nz3\"").is_err());
    }

    /// Parses `input` and checks what [`SanPlus`] writes back, or the error.
    fn check(input: &str, expected: Result<&str, (usize, ParseSanErrorKind)>) {
        let parsed = input.parse::<SanPlus>();
        let got = parsed.as_ref().map(ToString::to_string).map_err(|e| (e.offset, e.kind));
        assert_eq!(got.as_deref().map_err(|e| *e), expected, "input {input:?}");
        // San reads the same text, and drops only the mark.
        assert_eq!(San::from_ascii(input.as_bytes()), parsed.map(|p| p.san), "input {input:?}");
    }

    #[test]
    fn canonical_text_reads_back() {
        for text in [
            "e4", "exd5", "Nf3", "Nbd2", "R1e2", "Qh4e1", "Kxe2", "e8=Q", "bxa1=N+", "O-O",
            "O-O-O#", "--", "Bxf7+", "Qxf7#", "gxh8=R",
        ] {
            check(text, Ok(text));
        }
    }

    #[test]
    fn lenient_forms_read_as_canonical() {
        let cases = [
            // Castling with zeros.
            ("0-0", "O-O"),
            ("0-0-0+", "O-O-O+"),
            // Null moves.
            ("Z0", "--"),
            ("0000", "--"),
            ("@@@@", "--"),
            // Promotions.
            ("e8Q", "e8=Q"),
            ("e8q", "e8=Q"),
            ("e8(Q)", "e8=Q"),
            ("e8/Q", "e8=Q"),
            ("e8=n", "e8=N"),
            ("dxe8(B)#", "dxe8=B#"),
            // En passant marks.
            ("exd6 e.p.", "exd6"),
            ("exd6e.p.", "exd6"),
            ("exd6 ep+", "exd6+"),
            ("exd6ep", "exd6"),
            // Long algebraic notation: the origin is kept.
            ("e2-e4", "e2e4"),
            ("e2e4", "e2e4"),
            ("Ng1-f3", "Ng1f3"),
            ("Nb1xc3", "Nb1xc3"),
            ("N-f3", "Nf3"),
            // Explicit pawn, and a pawn capture written without its file.
            ("Pe4", "e4"),
            ("Pexd5", "exd5"),
            ("xd5", "xd5"),
            // A missing x keeps what is written.
            ("ed5", "ed5"),
            // Glyphs are dropped, before or after the mark.
            ("Nf3!", "Nf3"),
            ("Nf3?", "Nf3"),
            ("Nf3!!", "Nf3"),
            ("Nf3??", "Nf3"),
            ("Nf3!?", "Nf3"),
            ("Nf3?!", "Nf3"),
            ("Nf3+!", "Nf3+"),
            ("Nf3!#", "Nf3#"),
            ("O-O?!", "O-O"),
            ("--!", "--"),
        ];
        for (input, expected) in cases {
            check(input, Ok(expected));
        }
    }

    #[test]
    fn fields_of_parsed_moves() {
        let normal = |role, file, rank, capture, to, promotion| San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        };
        let cases = [
            ("e4", normal(Role::Pawn, None, None, false, Square::E4, None)),
            ("exd5", normal(Role::Pawn, Some(File::E), None, true, Square::D5, None)),
            (
                "Qh4xe1",
                normal(Role::Queen, Some(File::H), Some(Rank::Fourth), true, Square::E1, None),
            ),
            ("R1e2", normal(Role::Rook, None, Some(Rank::First), false, Square::E2, None)),
            ("b8=N", normal(Role::Pawn, None, None, false, Square::B8, Some(Role::Knight))),
            ("Bb8", normal(Role::Bishop, None, None, false, Square::B8, None)),
            ("O-O", San::Castle(CastlingSide::KingSide)),
            ("0-0-0", San::Castle(CastlingSide::QueenSide)),
            ("--", San::Null),
        ];
        for (input, expected) in cases {
            assert_eq!(input.parse::<San>(), Ok(expected), "input {input:?}");
        }
        assert_eq!("Nf3+".parse::<SanPlus>().map(|p| p.suffix), Ok(Some(Suffix::Check)),);
        assert_eq!("Nf3".parse::<SanPlus>().map(|p| p.suffix), Ok(None));
    }

    #[test]
    fn syntax_errors() {
        let cases: [(&str, usize, ParseSanErrorKind); 27] = [
            ("", 0, Empty),
            ("z", 0, ExpectedSquare(Some(b'z'))),
            ("N", 1, ExpectedSquare(None)),
            ("Nz3", 1, ExpectedSquare(Some(b'z'))),
            ("e9", 1, ExpectedRank(Some(b'9'))),
            ("e", 1, ExpectedRank(None)),
            ("exd", 3, ExpectedRank(None)),
            ("Nfx", 3, ExpectedSquare(None)),
            ("e2-", 3, ExpectedSquare(None)),
            ("x", 1, ExpectedSquare(None)),
            ("-", 1, ExpectedSquare(None)),
            ("4", 1, ExpectedSquare(None)),
            ("nf3", 0, ExpectedSquare(Some(b'n'))),
            ("e8=", 3, ExpectedPromotion(None)),
            ("e8=K", 3, ExpectedPromotion(Some(b'K'))),
            ("e8(Q", 4, ExpectedClosingParen(None)),
            ("e8(Q]", 4, ExpectedClosingParen(Some(b']'))),
            ("O-", 2, ExpectedCastling(None)),
            ("O-0", 2, ExpectedCastling(Some(b'0'))),
            ("00", 1, ExpectedCastling(Some(b'0'))),
            ("O-O-", 3, Trailing(b'-')),
            ("e4 ", 2, Trailing(b' ')),
            (" e4", 0, ExpectedSquare(Some(b' '))),
            ("e4++", 3, Trailing(b'+')),
            ("e4!!!", 4, Trailing(b'!')),
            ("Nf3 e.p.", 3, Trailing(b' ')),
            ("e4\u{e9}", 2, Trailing(0xc3)),
        ];
        for (input, offset, kind) in cases {
            check(input, Err((offset, kind)));
        }
    }

    #[test]
    fn error_messages() {
        let message = |s: &str| s.parse::<San>().unwrap_err().to_string();
        insta::assert_snapshot!(message(""), @"san (byte 0): empty move text");
        insta::assert_snapshot!(message("Nz3"), @"san (byte 1): expected a square such as e4, found 'z'");
        insta::assert_snapshot!(message("N"), @"san (byte 1): expected a square such as e4, found the end of the text");
        insta::assert_snapshot!(message("exd"), @"san (byte 3): expected a rank 1..8 to complete the square, found the end of the text");
        insta::assert_snapshot!(message("e8=K"), @"san (byte 3): expected a promotion letter N, B, R or Q, found 'K'");
        insta::assert_snapshot!(message("e8(Q"), @"san (byte 4): expected ')' after the promotion letter, found the end of the text");
        insta::assert_snapshot!(message("O-0"), @"san (byte 2): expected O-O or O-O-O, found '0'");
        insta::assert_snapshot!(message("e4\u{e9}"), @r#"san (byte 2): unexpected '\xc3' after the move"#);
        insta::assert_snapshot!(message("Nf3 e.p."), @"san (byte 3): unexpected ' ' after the move");
    }

    #[test]
    fn display_of_constructed_values() {
        let san = San::Normal {
            role: Role::Queen,
            file: Some(File::H),
            rank: Some(Rank::Fourth),
            capture: true,
            to: Square::E1,
            promotion: None,
        };
        let plus = SanPlus { san, suffix: Some(Suffix::Checkmate) };
        assert_eq!(plus.to_string(), "Qh4xe1#");
        assert_eq!(SanPlus::from(San::Castle(CastlingSide::QueenSide)).to_string(), "O-O-O");
        assert_eq!(Suffix::Check.to_string(), "+");
        // The longest text there is fits the buffer.
        let long = San::Normal {
            role: Role::Queen,
            file: Some(File::H),
            rank: Some(Rank::Fourth),
            capture: true,
            to: Square::E1,
            promotion: Some(Role::Queen),
        };
        assert_eq!(SanPlus { san: long, suffix: Some(Suffix::Check) }.to_string(), "Qh4xe1=Q+");
    }
}
