//! EPD (Extended Position Description): [`Epd`] reads and writes the four position fields of a
//! FEN followed by a list of operations, as test suites (`bm`, `id`, ...) and perft suites
//! (`D1 20`, ...) use them.
//!
//! # Grammar
//!
//! ```text
//! record     = fields [clocks] { ";" | operation }
//! fields     = placement side castling en-passant       the first four fields of a FEN
//! clocks     = halfmove-clock fullmove-number           two numbers, as in a six-field FEN
//! operation  = opcode { operand } [";"]
//! opcode     = letter { letter | digit | "_" }
//! operand    = string | token
//! string     = '"' { any byte but '"' and '\' | '\' any byte } '"'
//! token      = { any byte but whitespace and ';' }      not starting with '"'
//! ```
//!
//! Tokens are separated by ASCII whitespace (spaces, tabs). The four fields are read exactly as
//! the [`fen`](crate::fen) module reads them (X-FEN and Shredder-FEN castling included); they end
//! at whitespace or at a `;`.
//!
//! Two ways of writing operations are accepted, and may be mixed:
//!
//! - standard EPD, each operation ended by `;`:
//!   `4k3/8/8/8/8/8/4P3/4K3 w - - bm e4; id "pawn";` (the last `;` may be left out);
//! - the perft-suite style, a full six-field FEN with each operation introduced by `;`:
//!   `4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 ;D1 7 ;D2 35`.
//!
//! So `;` separates operations, and an empty operation (`;;`, or a `;` right after the fields)
//! is skipped. When the token after the en passant field starts with a digit, it and the next
//! token are the clocks of a six-field FEN; they are kept as the `hmvc` and `fmvn` operations
//! (before any other), which the EPD standard defines for the same numbers.
//!
//! # Operations
//!
//! Each opcode may appear once per record; a repeat with the same operands is read as one (one
//! file of real test positions has `acn 1057; acd 20; acn 1057;`), a repeat with other operands
//! is an error. These opcodes are read into typed [`Operation`]s:
//!
//! | opcode | operands | [`Operation`] |
//! |---|---|---|
//! | `bm`, `am`, `pv` | moves, in SAN as written (any number) | [`BestMoves`](Operation::BestMoves), [`AvoidMoves`](Operation::AvoidMoves), [`PredictedVariation`](Operation::PredictedVariation) |
//! | `id`, `c0`..`c9` | one string | [`Id`](Operation::Id), [`Comment`](Operation::Comment) |
//! | `D1`, `D2`, ... | one node count (`u64`) | [`Perft`](Operation::Perft) |
//! | `hmvc`, `fmvn` | one `u32` | [`HalfmoveClock`](Operation::HalfmoveClock), [`FullmoveNumber`](Operation::FullmoveNumber) |
//! | `acd` / `acn` | one `u32` / one `u64` | [`AnalysisDepth`](Operation::AnalysisDepth), [`AnalysisNodes`](Operation::AnalysisNodes) |
//! | `ce` | one `i32`, optionally signed | [`CentipawnEvaluation`](Operation::CentipawnEvaluation) |
//!
//! Any other opcode is kept as [`Operation::Other`] with its operands as text, in order. Moves
//! are kept as the text tokens they are: whether `Nf3` names a legal move is a question for the
//! position ([`Epd::to_position`]) and a SAN reader. A string is read with the escapes `\"` and
//! `\\`; a backslash before any other byte stands for itself. An `id` or comment written as a
//! bare token (`id WAC.001;`) is read as that string.
//!
//! # Output
//!
//! Printing is canonical: the four fields as [`Fen`]'s `Display` writes them (X-FEN castling),
//! then each operation as ` opcode operand operand;` with single spaces, in the record's order.
//! Strings are quoted, with `"` and `\` escaped; [`Operation::Other`] writes its operand text as
//! stored. A six-field record thus prints with `hmvc` and `fmvn`:
//!
//! ```
//! use chessbits_notation::epd::{Epd, Operation};
//!
//! let epd: Epd = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400".parse()?;
//! assert_eq!(epd.perft(2), Some(400));
//! assert_eq!(
//!     epd.to_string(),
//!     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1; D1 20; D2 400;",
//! );
//!
//! let epd: Epd = r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";"#
//!     .parse()?;
//! assert_eq!(epd.best_moves(), Some(&["Qg6".to_owned()][..]));
//! assert_eq!(epd.id(), Some("WAC.001"));
//! assert_eq!(epd.operations().len(), 2);
//! assert_eq!(epd.to_position()?.fullmoves(), 1);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! `parse(print(e)) == e` holds for every [`Epd`] whose fields come from parsing or from a
//! position (as with [`Fen`], castling squares that hold no castling rook cannot be written), and
//! `print(parse(s)) == s` for every record already written canonically. [`Epd::set`] refuses an
//! operation that would not read back as itself (a move token with a space in it, say), so
//! records built in code keep the guarantee.
//!
//! # Errors
//!
//! Parsing never panics. A [`ParseEpdError`] says which part of the record is at fault (a FEN
//! field, an opcode, or the operation with a given opcode), the byte offset in the input, and
//! what was wrong, and prints as `operation acn (byte 53): a second operand where one is
//! expected`. Field errors are those of the FEN reader: `castling (byte 48): invalid character
//! 'Z', expected '-', KQkq or a file letter`.

use core::fmt;
use core::str::FromStr;
use std::borrow::Cow;

use chessbits_bitboard::{Bitboard, Color, Square};
use chessbits_move::CastlingMode;
use chessbits_state::{Board, Position, PositionError, Setup};

use crate::fen::{
    faithful_notation, parse_number, read_fields, write_position_fields, Byte, Fen, FenErrorKind,
    FenField, FieldSource, ParseFenError,
};

/// An EPD record: the four position fields of a FEN, not yet validated, and the operations.
///
/// The operations are kept in the order they were read or set, each opcode at most once. Read
/// them with [`Epd::operations`] or the typed accessors ([`Epd::best_moves`], [`Epd::perft`],
/// ...), change them with [`Epd::set`] and [`Epd::remove`].
///
/// ```
/// use chessbits_notation::epd::{Epd, Operation};
/// use chessbits_state::Position;
///
/// let mut epd = Epd::from_position(&Position::new());
/// epd.set(Operation::Perft { depth: 1, nodes: 20 })?;
/// epd.set(Operation::Id("start".to_owned()))?;
/// assert_eq!(epd.to_string(), r#"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - D1 20; id "start";"#);
/// assert_eq!(epd.to_string().parse::<Epd>()?, epd);
/// # Ok::<_, chessbits_notation::epd::ParseEpdError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Epd {
    /// Where the pieces stand.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// The squares of the rooks that keep a castling right, as in [`Setup::castling_rooks`].
    pub castling_rooks: Bitboard,
    /// The en passant square as written.
    pub ep_square: Option<Square>,
    /// How the game writes castling, as in [`Setup::castling_mode`]: Chess960 when the castling
    /// field names a rook by its file (Shredder-FEN letters).
    pub castling_mode: CastlingMode,
    operations: Vec<Operation>,
}

/// One operation of an EPD record: an opcode and its operands.
///
/// `Display` writes `opcode operand operand` (without the `;` that ends it in a record).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    /// `bm`: the best moves, as SAN tokens written in the record. Resolving them needs the
    /// position.
    BestMoves(Vec<String>),
    /// `am`: moves to avoid, as SAN tokens.
    AvoidMoves(Vec<String>),
    /// `id`: the record's name.
    Id(String),
    /// `c0`..`c9`: a comment.
    Comment {
        /// The digit of the opcode, `0..=9`.
        index: u8,
        /// The comment.
        text: String,
    },
    /// `D1`, `D2`, ...: the number of leaf nodes of a perft at this depth.
    Perft {
        /// The depth, at least 1.
        depth: u32,
        /// The node count.
        nodes: u64,
    },
    /// `hmvc`: the halfmove clock.
    HalfmoveClock(u32),
    /// `fmvn`: the fullmove number.
    FullmoveNumber(u32),
    /// `pv`: the predicted variation, as SAN tokens.
    PredictedVariation(Vec<String>),
    /// `acd`: the analysis depth in plies.
    AnalysisDepth(u32),
    /// `acn`: the number of nodes analysed.
    AnalysisNodes(u64),
    /// `ce`: the evaluation in centipawns, from the side to move's point of view.
    CentipawnEvaluation(i32),
    /// Any other opcode, with its operands as text: the tokens as written (strings with their
    /// quotes and escapes) joined by single spaces.
    Other {
        /// The opcode.
        opcode: String,
        /// The operands, empty if there are none.
        operands: String,
    },
}

impl Epd {
    /// Parses an EPD record given as bytes. Strings and tokens must be UTF-8 (the fields are
    /// ASCII anyway).
    ///
    /// # Errors
    /// [`ParseEpdError`] for the first problem, read left to right.
    pub fn from_ascii(epd: &[u8]) -> Result<Epd, ParseEpdError> {
        let mut scanner = Scanner::new(epd);
        let setup = read_fields(&mut scanner, false).map_err(ParseEpdError::from_fen)?;
        let mut epd = Epd::from_setup(&setup);

        // The clocks of a six-field FEN.
        scanner.skip_space();
        if scanner.peek().is_some_and(|b| b.is_ascii_digit()) {
            let (at, halfmoves) =
                scanner.required(FenField::Halfmoves).map_err(ParseEpdError::from_fen)?;
            let halfmoves = parse_number(FenField::Halfmoves, halfmoves, at)
                .map_err(ParseEpdError::from_fen)?;
            let (at, fullmoves) =
                scanner.required(FenField::Fullmoves).map_err(ParseEpdError::from_fen)?;
            let fullmoves = parse_number(FenField::Fullmoves, fullmoves, at)
                .map_err(ParseEpdError::from_fen)?;
            epd.operations.push(Operation::HalfmoveClock(halfmoves));
            epd.operations.push(Operation::FullmoveNumber(fullmoves));
        }

        let mut operands = Vec::new();
        while let Some(ReadOperation { at, opcode, op }) = scanner.operation(&mut operands)? {
            match epd.operations.iter().find(|known| known.is(opcode)) {
                None => epd.operations.push(op),
                // A repeat that says the same again adds nothing.
                Some(known) if *known == op => {}
                Some(_) => {
                    return Err(ParseEpdError::operation(&op, at, EpdErrorKind::DuplicateOpcode))
                }
            }
        }
        Ok(epd)
    }

    /// The four fields of `pos` (the en passant square as the position records it), with no
    /// operations: add [`Operation::HalfmoveClock`] and [`Operation::FullmoveNumber`] to keep
    /// the clocks.
    pub fn from_position(pos: &Position) -> Epd {
        Epd::from_setup(&pos.to_setup())
    }

    /// The four fields of `setup` (its clocks are not read), with no operations.
    fn from_setup(setup: &Setup) -> Epd {
        Epd {
            board: setup.board,
            turn: setup.turn,
            castling_rooks: setup.castling_rooks,
            ep_square: setup.ep_square,
            castling_mode: setup.castling_mode,
            operations: Vec::new(),
        }
    }

    /// The six fields of the position: the four of the record, and the clocks from `hmvc` and
    /// `fmvn` (0 and 1 when absent, and a fullmove number of 0 read as 1, as in FEN).
    pub fn fen(&self) -> Fen {
        let mut setup = self.setup();
        setup.halfmoves = self.halfmove_clock().unwrap_or(0);
        setup.fullmoves = self.fullmove_number().unwrap_or(1).max(1);
        Fen(setup)
    }

    /// The four fields as a setup, with the clocks at 0 and 1.
    fn setup(&self) -> Setup {
        let mut setup = Setup::empty();
        setup.board = self.board;
        setup.turn = self.turn;
        setup.castling_rooks = self.castling_rooks;
        setup.ep_square = self.ep_square;
        setup.castling_mode = self.castling_mode;
        setup
    }

    /// Validates the fields, with the clocks of [`Epd::fen`], into a position.
    ///
    /// # Errors
    /// [`PositionError`] if the fields do not describe a legal position.
    pub fn to_position(&self) -> Result<Position, PositionError> {
        self.fen().into_position()
    }

    /// [`Epd::to_position`], consuming the record.
    ///
    /// # Errors
    /// [`PositionError`] if the fields do not describe a legal position.
    pub fn into_position(self) -> Result<Position, PositionError> {
        self.to_position()
    }

    /// Every operation, in order.
    pub fn operations(&self) -> &[Operation] {
        &self.operations
    }

    /// The operation with this opcode, if the record has it.
    pub fn operation(&self, opcode: &str) -> Option<&Operation> {
        self.operations.iter().find(|op| op.is(opcode.as_bytes()))
    }

    /// Sets `op`: it replaces the operation with the same opcode, keeping its place, or is added
    /// at the end. Returns the operation replaced.
    ///
    /// # Errors
    /// Leaving the record unchanged, a [`ParseEpdError`] if `op` would not read back as itself:
    /// what reading its printed text (offsets count in that text) reports, or
    /// [`EpdErrorKind::NotReadBack`] if it reads back as something else (a move token with a
    /// space, an empty token, a [`Comment`](Operation::Comment) index above 9, a depth of 0, an
    /// [`Other`](Operation::Other) opcode that has a typed form, ...).
    pub fn set(&mut self, op: Operation) -> Result<Option<Operation>, ParseEpdError> {
        let text = op.to_string();
        let mut scanner = Scanner::new(text.as_bytes());
        let mut operands = Vec::new();
        let read = scanner.operation(&mut operands)?;
        let rest = scanner.operation(&mut operands)?;
        match read {
            Some(read) if read.op == op && rest.is_none() => {}
            _ => return Err(ParseEpdError::operation(&op, 0, EpdErrorKind::NotReadBack)),
        }
        let opcode = op.opcode();
        match self.operations.iter_mut().find(|known| known.is(opcode.as_bytes())) {
            Some(known) => Ok(Some(core::mem::replace(known, op))),
            None => {
                self.operations.push(op);
                Ok(None)
            }
        }
    }

    /// Removes the operation with this opcode and returns it.
    pub fn remove(&mut self, opcode: &str) -> Option<Operation> {
        let index = self.operations.iter().position(|op| op.is(opcode.as_bytes()))?;
        Some(self.operations.remove(index))
    }

    /// `bm`: the best moves, as written (SAN).
    pub fn best_moves(&self) -> Option<&[String]> {
        self.operations.iter().find_map(|op| match op {
            Operation::BestMoves(moves) => Some(moves.as_slice()),
            _ => None,
        })
    }

    /// `am`: the moves to avoid, as written (SAN).
    pub fn avoid_moves(&self) -> Option<&[String]> {
        self.operations.iter().find_map(|op| match op {
            Operation::AvoidMoves(moves) => Some(moves.as_slice()),
            _ => None,
        })
    }

    /// `pv`: the predicted variation, as written (SAN).
    pub fn predicted_variation(&self) -> Option<&[String]> {
        self.operations.iter().find_map(|op| match op {
            Operation::PredictedVariation(moves) => Some(moves.as_slice()),
            _ => None,
        })
    }

    /// `id`: the record's name.
    pub fn id(&self) -> Option<&str> {
        self.operations.iter().find_map(|op| match op {
            Operation::Id(id) => Some(id.as_str()),
            _ => None,
        })
    }

    /// `c0`..`c9`: the comment with this digit.
    pub fn comment(&self, index: u8) -> Option<&str> {
        self.operations.iter().find_map(|op| match op {
            Operation::Comment { index: i, text } if *i == index => Some(text.as_str()),
            _ => None,
        })
    }

    /// `D<depth>`: the perft node count at `depth`.
    pub fn perft(&self, depth: u32) -> Option<u64> {
        self.perft_counts().find(|&(d, _)| d == depth).map(|(_, nodes)| nodes)
    }

    /// Every perft count as `(depth, nodes)`, in the record's order.
    pub fn perft_counts(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.operations.iter().filter_map(|op| match *op {
            Operation::Perft { depth, nodes } => Some((depth, nodes)),
            _ => None,
        })
    }

    /// `hmvc`: the halfmove clock.
    pub fn halfmove_clock(&self) -> Option<u32> {
        self.operations.iter().find_map(|op| match *op {
            Operation::HalfmoveClock(n) => Some(n),
            _ => None,
        })
    }

    /// `fmvn`: the fullmove number, as written.
    pub fn fullmove_number(&self) -> Option<u32> {
        self.operations.iter().find_map(|op| match *op {
            Operation::FullmoveNumber(n) => Some(n),
            _ => None,
        })
    }

    /// `acd`: the analysis depth.
    pub fn analysis_depth(&self) -> Option<u32> {
        self.operations.iter().find_map(|op| match *op {
            Operation::AnalysisDepth(n) => Some(n),
            _ => None,
        })
    }

    /// `acn`: the number of nodes analysed.
    pub fn analysis_nodes(&self) -> Option<u64> {
        self.operations.iter().find_map(|op| match *op {
            Operation::AnalysisNodes(n) => Some(n),
            _ => None,
        })
    }

    /// `ce`: the evaluation in centipawns.
    pub fn centipawn_evaluation(&self) -> Option<i32> {
        self.operations.iter().find_map(|op| match *op {
            Operation::CentipawnEvaluation(n) => Some(n),
            _ => None,
        })
    }
}

impl Default for Epd {
    /// The standard starting position, with no operations.
    fn default() -> Epd {
        Epd::from_setup(&Setup::default())
    }
}

impl FromStr for Epd {
    type Err = ParseEpdError;

    fn from_str(s: &str) -> Result<Epd, ParseEpdError> {
        Epd::from_ascii(s.as_bytes())
    }
}

/// Writes the record canonically: the four fields (X-FEN castling), then ` opcode operands;` for
/// each operation.
impl fmt::Display for Epd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let setup = self.setup();
        write_position_fields(f, &setup, faithful_notation(&setup))?;
        for op in &self.operations {
            write!(f, " {op};")?;
        }
        Ok(())
    }
}

/// The opcodes of the comments, by digit.
const COMMENT_OPCODES: [&str; 10] = ["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"];

impl Operation {
    /// The opcode: `bm`, `c3`, `D5`, or an [`Other`](Operation::Other)'s own.
    pub fn opcode(&self) -> Cow<'_, str> {
        Cow::Borrowed(match self {
            Operation::BestMoves(_) => "bm",
            Operation::AvoidMoves(_) => "am",
            Operation::Id(_) => "id",
            Operation::Comment { index, .. } => match COMMENT_OPCODES.get(usize::from(*index)) {
                Some(opcode) => opcode,
                None => return Cow::Owned(format!("c{index}")),
            },
            Operation::Perft { depth, .. } => return Cow::Owned(format!("D{depth}")),
            Operation::HalfmoveClock(_) => "hmvc",
            Operation::FullmoveNumber(_) => "fmvn",
            Operation::PredictedVariation(_) => "pv",
            Operation::AnalysisDepth(_) => "acd",
            Operation::AnalysisNodes(_) => "acn",
            Operation::CentipawnEvaluation(_) => "ce",
            Operation::Other { opcode, .. } => opcode,
        })
    }

    /// `true` if this operation's opcode is `opcode`.
    fn is(&self, opcode: &[u8]) -> bool {
        match self {
            Operation::Perft { depth, .. } => perft_depth(opcode) == Some(*depth),
            Operation::Comment { index, .. } => comment_index(opcode) == Some(*index),
            _ => self.opcode().as_bytes() == opcode,
        }
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.opcode())?;
        match self {
            Operation::BestMoves(moves)
            | Operation::AvoidMoves(moves)
            | Operation::PredictedVariation(moves) => {
                for m in moves {
                    write!(f, " {m}")?;
                }
                Ok(())
            }
            Operation::Id(text) | Operation::Comment { text, .. } => {
                f.write_str(" \"")?;
                for c in text.chars() {
                    if c == '"' || c == '\\' {
                        f.write_str("\\")?;
                    }
                    write!(f, "{c}")?;
                }
                f.write_str("\"")
            }
            Operation::Perft { nodes, .. } | Operation::AnalysisNodes(nodes) => {
                write!(f, " {nodes}")
            }
            Operation::HalfmoveClock(n)
            | Operation::FullmoveNumber(n)
            | Operation::AnalysisDepth(n) => write!(f, " {n}"),
            Operation::CentipawnEvaluation(n) => write!(f, " {n}"),
            Operation::Other { operands, .. } if operands.is_empty() => Ok(()),
            Operation::Other { operands, .. } => write!(f, " {operands}"),
        }
    }
}

/// The depth of a perft opcode `D<depth>` (no leading zero, at least 1), or `None`.
fn perft_depth(opcode: &[u8]) -> Option<u32> {
    let digits = opcode.strip_prefix(b"D")?;
    if digits.first().is_none_or(|&b| !(b'1'..=b'9').contains(&b)) {
        return None;
    }
    let mut depth: u32 = 0;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        depth = depth.checked_mul(10)?.checked_add(u32::from(b - b'0'))?;
    }
    Some(depth)
}

/// The digit of a comment opcode `c0`..`c9`, or `None`.
fn comment_index(opcode: &[u8]) -> Option<u8> {
    match *opcode {
        [b'c', digit @ b'0'..=b'9'] => Some(digit - b'0'),
        _ => None,
    }
}

/// Which part of a record a [`ParseEpdError`] is about.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EpdPart {
    /// One of the FEN fields: the four position fields, or the clocks of a six-field record.
    Field(FenField),
    /// An opcode that is not one.
    Opcode,
    /// The operation with this opcode.
    Operation(String),
}

impl fmt::Display for EpdPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpdPart::Field(field) => write!(f, "{field}"),
            EpdPart::Opcode => f.write_str("opcode"),
            EpdPart::Operation(opcode) => write!(f, "operation {opcode}"),
        }
    }
}

/// What is wrong in an EPD record.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EpdErrorKind {
    /// A FEN field is wrong, as the FEN reader says.
    Field(FenErrorKind),
    /// This byte cannot be part of an opcode here: an opcode is a letter followed by letters,
    /// digits and `_`.
    InvalidOpcode(u8),
    /// The opcode appeared earlier in the record with other operands (`hmvc` and `fmvn` count
    /// as written by the clocks of a six-field record).
    DuplicateOpcode,
    /// The operation needs an operand and has none.
    MissingOperand,
    /// The operation takes one operand and has a second one here.
    ExtraOperand,
    /// A move is a quoted string.
    QuotedMove,
    /// A string has no closing quote.
    UnterminatedString,
    /// A number has this byte, which is not a digit.
    InvalidNumber(u8),
    /// A number is outside the range of its operation.
    NumberOutOfRange {
        /// The smallest value allowed.
        min: i64,
        /// The largest value allowed.
        max: u64,
    },
    /// The text is not UTF-8.
    InvalidUtf8,
    /// [`Epd::set`] only: the operation would read back as a different one.
    NotReadBack,
}

impl fmt::Display for EpdErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EpdErrorKind::Field(kind) => write!(f, "{kind}"),
            EpdErrorKind::InvalidOpcode(b) => write!(
                f,
                "invalid character {}, an opcode is a letter followed by letters, digits or '_'",
                Byte(b)
            ),
            EpdErrorKind::DuplicateOpcode => {
                f.write_str("the opcode appears a second time, with other operands")
            }
            EpdErrorKind::MissingOperand => f.write_str("missing operand"),
            EpdErrorKind::ExtraOperand => f.write_str("a second operand where one is expected"),
            EpdErrorKind::QuotedMove => f.write_str("a quoted string where a move is expected"),
            EpdErrorKind::UnterminatedString => f.write_str("string without a closing '\"'"),
            EpdErrorKind::InvalidNumber(b) => {
                write!(f, "invalid character {}, expected a digit", Byte(b))
            }
            EpdErrorKind::NumberOutOfRange { min, max } => {
                write!(f, "number out of range {min}..={max}")
            }
            EpdErrorKind::InvalidUtf8 => f.write_str("invalid UTF-8"),
            EpdErrorKind::NotReadBack => f.write_str("would not read back as written"),
        }
    }
}

/// Why text is not an EPD record: the part at fault, the byte offset in the input, and what is
/// wrong.
///
/// ```
/// use chessbits_notation::epd::{Epd, EpdErrorKind, EpdPart, ParseEpdError};
///
/// let err = "8/8/8/8/8/8/8/8 w - - D1 x;".parse::<Epd>().unwrap_err();
/// assert_eq!(err.part, EpdPart::Operation("D1".to_owned()));
/// assert_eq!((err.offset, err.kind), (25, EpdErrorKind::InvalidNumber(b'x')));
/// assert_eq!(err.to_string(), "operation D1 (byte 25): invalid character 'x', expected a digit");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParseEpdError {
    /// The part of the record at fault.
    pub part: EpdPart,
    /// The byte offset in the input (leading whitespace included) where the problem was found:
    /// the bad byte, the start of the bad token or operation, or the end of the text for a
    /// missing field.
    pub offset: usize,
    /// What is wrong.
    pub kind: EpdErrorKind,
}

impl ParseEpdError {
    fn from_fen(err: ParseFenError) -> ParseEpdError {
        ParseEpdError {
            part: EpdPart::Field(err.field),
            offset: err.offset,
            kind: EpdErrorKind::Field(err.kind),
        }
    }

    fn operation(op: &Operation, offset: usize, kind: EpdErrorKind) -> ParseEpdError {
        ParseEpdError { part: EpdPart::Operation(op.opcode().into_owned()), offset, kind }
    }
}

impl fmt::Display for ParseEpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (byte {}): {}", self.part, self.offset, self.kind)
    }
}

impl std::error::Error for ParseEpdError {}

/// An operand as written: its offset, its bytes (a string with its quotes), and whether it is
/// a string.
#[derive(Copy, Clone)]
struct Token<'a> {
    at: usize,
    text: &'a [u8],
    quoted: bool,
}

/// An operation as read: its offset, its opcode as written, and what it says.
struct ReadOperation<'a> {
    at: usize,
    opcode: &'a [u8],
    op: Operation,
}

/// Reads a record left to right.
struct Scanner<'a> {
    input: &'a [u8],
    /// The read position in `input`.
    pos: usize,
    /// The end of the input, trailing whitespace left out.
    end: usize,
}

impl<'a> Scanner<'a> {
    fn new(input: &'a [u8]) -> Scanner<'a> {
        let start = input.len() - input.trim_ascii_start().len();
        Scanner { input, pos: start, end: input.trim_ascii_end().len().max(start) }
    }

    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied().filter(|_| self.pos < self.end)
    }

    /// The position after the whitespace at `self.pos`.
    fn after_space(&self) -> usize {
        let rest = self.input.get(self.pos..self.end).unwrap_or_default();
        self.pos + rest.iter().take_while(|b| b.is_ascii_whitespace()).count()
    }

    fn skip_space(&mut self) {
        self.pos = self.after_space();
    }

    /// The bytes from `self.pos` up to whitespace or `;`, and their offset.
    fn bare_token(&mut self) -> (usize, &'a [u8]) {
        let at = self.pos;
        let rest = self.input.get(at..self.end).unwrap_or_default();
        let len = rest.iter().take_while(|&&b| b != b';' && !b.is_ascii_whitespace()).count();
        self.pos = at + len;
        (at, rest.get(..len).unwrap_or_default())
    }

    /// The string starting at the `"` at `self.pos`, quotes included, or `None` if it does not
    /// end.
    fn string(&mut self) -> Option<(usize, &'a [u8])> {
        let at = self.pos;
        let rest = self.input.get(at..self.end)?;
        let mut i = 1;
        loop {
            match rest.get(i)? {
                b'\\' => i += 2,
                b'"' => break,
                _ => i += 1,
            }
        }
        self.pos = at + i + 1;
        rest.get(..=i).map(|text| (at, text))
    }

    /// The next operation with its offset and opcode as written, or `None` at the end of the
    /// record. `operands` is a buffer for the tokens.
    fn operation(
        &mut self,
        operands: &mut Vec<Token<'a>>,
    ) -> Result<Option<ReadOperation<'a>>, ParseEpdError> {
        loop {
            self.skip_space();
            match self.peek() {
                None => return Ok(None),
                Some(b';') => self.pos += 1,
                Some(_) => break,
            }
        }
        let (at, opcode) = self.bare_token();
        check_opcode(opcode, at)?;

        operands.clear();
        let end = loop {
            self.skip_space();
            match self.peek() {
                None => break self.pos,
                Some(b';') => {
                    self.pos += 1;
                    break self.pos - 1;
                }
                Some(b'"') => {
                    let (at, text) = self.string().ok_or_else(|| ParseEpdError {
                        part: EpdPart::Operation(lossy(opcode)),
                        offset: self.pos,
                        kind: EpdErrorKind::UnterminatedString,
                    })?;
                    operands.push(Token { at, text, quoted: true });
                }
                Some(_) => {
                    let (at, text) = self.bare_token();
                    operands.push(Token { at, text, quoted: false });
                }
            }
        };
        read_operation(opcode, operands, end).map(|op| Some(ReadOperation { at, opcode, op }))
    }
}

impl<'a> FieldSource<'a> for Scanner<'a> {
    fn next_field(&mut self) -> Option<(usize, &'a [u8])> {
        self.skip_space();
        match self.peek() {
            None | Some(b';') => None,
            Some(_) => Some(self.bare_token()),
        }
    }

    fn missing_at(&self) -> usize {
        self.after_space()
    }
}

/// The opcode as text for an error report (it passed [`check_opcode`], so it is ASCII).
fn lossy(opcode: &[u8]) -> String {
    String::from_utf8_lossy(opcode).into_owned()
}

/// Checks that `opcode` is a letter followed by letters, digits and `_`.
fn check_opcode(opcode: &[u8], at: usize) -> Result<(), ParseEpdError> {
    let bad = opcode.iter().enumerate().find(|&(i, &b)| {
        !(b.is_ascii_alphabetic() || (i > 0 && (b.is_ascii_digit() || b == b'_')))
    });
    match bad {
        Some((i, &b)) => Err(ParseEpdError {
            part: EpdPart::Opcode,
            offset: at + i,
            kind: EpdErrorKind::InvalidOpcode(b),
        }),
        None => Ok(()),
    }
}

/// Builds the operation `opcode` from its operands; `end` is where the operation ends (its `;`
/// or the end of the text), for a missing operand.
fn read_operation(
    opcode: &[u8],
    operands: &[Token<'_>],
    end: usize,
) -> Result<Operation, ParseEpdError> {
    let err =
        |offset, kind| ParseEpdError { part: EpdPart::Operation(lossy(opcode)), offset, kind };
    let utf8_err = |offset| err(offset, EpdErrorKind::InvalidUtf8);
    // The single operand of an operation that takes one.
    let single = || match operands {
        [] => Err(err(end, EpdErrorKind::MissingOperand)),
        [token] => Ok(*token),
        [_, extra, ..] => Err(err(extra.at, EpdErrorKind::ExtraOperand)),
    };
    let unsigned = |max: u64| -> Result<u64, ParseEpdError> {
        let token = single()?;
        integer(token, 0, max).map(|n| n as u64).map_err(|(offset, kind)| err(offset, kind))
    };
    let moves = || -> Result<Vec<String>, ParseEpdError> {
        operands
            .iter()
            .map(|token| match token.quoted {
                true => Err(err(token.at, EpdErrorKind::QuotedMove)),
                false => utf8(token.text, token.at).map(str::to_owned).map_err(utf8_err),
            })
            .collect()
    };
    let string = || -> Result<String, ParseEpdError> {
        let token = single()?;
        match token.quoted {
            true => unescape(token).map_err(utf8_err),
            false => utf8(token.text, token.at).map(str::to_owned).map_err(utf8_err),
        }
    };
    // The u32 bound makes the narrowing casts below exact.
    let u32_max = u64::from(u32::MAX);
    Ok(match opcode {
        b"bm" => Operation::BestMoves(moves()?),
        b"am" => Operation::AvoidMoves(moves()?),
        b"pv" => Operation::PredictedVariation(moves()?),
        b"id" => Operation::Id(string()?),
        b"hmvc" => Operation::HalfmoveClock(unsigned(u32_max)? as u32),
        b"fmvn" => Operation::FullmoveNumber(unsigned(u32_max)? as u32),
        b"acd" => Operation::AnalysisDepth(unsigned(u32_max)? as u32),
        b"acn" => Operation::AnalysisNodes(unsigned(u64::MAX)?),
        b"ce" => {
            let n = integer(single()?, i64::from(i32::MIN), i32::MAX as u64)
                .map_err(|(offset, kind)| err(offset, kind))?;
            Operation::CentipawnEvaluation(n as i32)
        }
        _ => {
            if let Some(index) = comment_index(opcode) {
                Operation::Comment { index, text: string()? }
            } else if let Some(depth) = perft_depth(opcode) {
                Operation::Perft { depth, nodes: unsigned(u64::MAX)? }
            } else {
                let opcode = utf8(opcode, 0).map_err(utf8_err)?.to_owned();
                let mut text = String::new();
                for (i, token) in operands.iter().enumerate() {
                    if i > 0 {
                        text.push(' ');
                    }
                    text.push_str(utf8(token.text, token.at).map_err(utf8_err)?);
                }
                Operation::Other { opcode, operands: text }
            }
        }
    })
}

/// `bytes` (found at offset `at`) as UTF-8, or the offset of the first bad byte.
fn utf8(bytes: &[u8], at: usize) -> Result<&str, usize> {
    core::str::from_utf8(bytes).map_err(|e| at + e.valid_up_to())
}

/// The text of a quoted string: `\"` and `\\` stand for `"` and `\`, any other backslash for
/// itself.
fn unescape(token: Token<'_>) -> Result<String, usize> {
    let inner = token.text.get(1..token.text.len().saturating_sub(1)).unwrap_or_default();
    let inner = utf8(inner, token.at + 1)?;
    let mut text = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            text.push(c);
            continue;
        }
        match chars.clone().next() {
            Some(next @ ('"' | '\\')) => {
                chars.next();
                text.push(next);
            }
            _ => text.push('\\'),
        }
    }
    Ok(text)
}

/// Reads a decimal integer in `min..=max` (a sign is allowed if `min < 0`). Errors carry the
/// offset and kind.
fn integer(token: Token<'_>, min: i64, max: u64) -> Result<i128, (usize, EpdErrorKind)> {
    let text = token.text;
    let (negative, digits, start) = match text {
        [b'-', rest @ ..] if min < 0 => (true, rest, 1),
        [b'+', rest @ ..] if min < 0 => (false, rest, 1),
        _ => (false, text, 0),
    };
    if digits.is_empty() {
        let b = text.first().copied().unwrap_or(b' ');
        return Err((token.at, EpdErrorKind::InvalidNumber(b)));
    }
    let mut n: u128 = 0;
    for (i, &b) in digits.iter().enumerate() {
        if !b.is_ascii_digit() {
            return Err((token.at + start + i, EpdErrorKind::InvalidNumber(b)));
        }
        // Saturating: anything past u64 is out of range anyway.
        n = n.saturating_mul(10).saturating_add(u128::from(b - b'0'));
    }
    let n = i128::try_from(n).unwrap_or(i128::MAX);
    let n = if negative { -n } else { n };
    if n < i128::from(min) || n > i128::from(max) {
        return Err((token.at, EpdErrorKind::NumberOutOfRange { min, max }));
    }
    Ok(n)
}

#[cfg(feature = "serde")]
chessbits_bitboard::serde_text!(Epd, "an EPD record", |s| s.parse::<Epd>());

#[cfg(test)]
mod tests {
    #[cfg(feature = "serde")]
    #[test]
    fn epd_serializes_as_its_canonical_text() {
        let epd: Epd = "8/8/8/8/8/8/8/K1k5 w - - bm Kb1; id \"x\";".parse().unwrap();
        let json = serde_json::to_string(&epd).unwrap();
        assert_eq!(json, "\"8/8/8/8/8/8/8/K1k5 w - - bm Kb1; id \\\"x\\\";\"");
        assert_eq!(serde_json::from_str::<Epd>(&json).unwrap(), epd);
        assert!(serde_json::from_str::<Epd>("\"8/8 w\"").is_err());
    }

    use super::*;
    use chessbits_state::Status;

    use EpdErrorKind::*;

    /// The four fields of a legal position, 23 bytes: operations start at byte 24.
    const FIELDS: &str = "8/8/8/8/8/8/8/K6k w - -";

    fn field(field: FenField, offset: usize, kind: FenErrorKind) -> ParseEpdError {
        ParseEpdError { part: EpdPart::Field(field), offset, kind: EpdErrorKind::Field(kind) }
    }

    fn opcode(offset: usize, b: u8) -> ParseEpdError {
        ParseEpdError { part: EpdPart::Opcode, offset, kind: InvalidOpcode(b) }
    }

    fn op(opcode: &str, offset: usize, kind: EpdErrorKind) -> ParseEpdError {
        ParseEpdError { part: EpdPart::Operation(opcode.to_owned()), offset, kind }
    }

    /// Checks that `epd` prints, parses back to itself and prints the same again.
    fn check_round_trip(epd: &Epd) {
        let printed = epd.to_string();
        assert_eq!(printed.parse::<Epd>().as_ref(), Ok(epd), "printed {printed}");
        assert_eq!(epd.to_string(), printed);
    }

    /// Parses `input` (as text and as bytes) and compares the canonical output, or the error,
    /// with `expected`.
    fn check(input: &str, expected: Result<&str, ParseEpdError>) {
        let parsed = input.parse::<Epd>();
        assert_eq!(Epd::from_ascii(input.as_bytes()), parsed, "input {input:?}");
        let printed = parsed.clone().map(|epd| epd.to_string());
        assert_eq!(printed.as_deref().map_err(Clone::clone), expected, "input {input:?}");
        if let Ok(epd) = &parsed {
            check_round_trip(epd);
        }
    }

    #[test]
    fn accepted_and_normalised() {
        let cases = [
            (FIELDS.to_owned(), FIELDS.to_owned()),
            // Standard EPD; the last ';' may be left out.
            (
                format!(r#"{FIELDS} bm Kb2 Ka2; id "x";"#),
                format!(r#"{FIELDS} bm Kb2 Ka2; id "x";"#),
            ),
            (format!("{FIELDS} bm Kb2"), format!("{FIELDS} bm Kb2;")),
            // The perft-suite style: six fields, each operation introduced by ';'.
            (format!("{FIELDS} 0 1 ;D1 3 ;D2 9"), format!("{FIELDS} hmvc 0; fmvn 1; D1 3; D2 9;")),
            (format!("{FIELDS} 7 0"), format!("{FIELDS} hmvc 7; fmvn 0;")),
            (format!("{FIELDS};D1 3"), format!("{FIELDS} D1 3;")),
            // Whitespace of any kind and amount, empty operations.
            (
                format!(" \t{FIELDS}\t  bm   Kb2\tKa2 ;; ;  id  \"x\"  ; \r\n"),
                format!(r#"{FIELDS} bm Kb2 Ka2; id "x";"#),
            ),
            ("8/8/8/8/8/8/8/K6k\tw\t-\t-\tacd 3".to_owned(), format!("{FIELDS} acd 3;")),
            // Strings: escapes, a lone backslash, ';' inside, empty, UTF-8, bare.
            (format!(r#"{FIELDS} c0 "a\"b\\c\d";"#), format!(r#"{FIELDS} c0 "a\"b\\c\\d";"#)),
            (format!(r#"{FIELDS} c9 "a; b"; id "";"#), format!(r#"{FIELDS} c9 "a; b"; id "";"#)),
            (format!(r#"{FIELDS} c1 "Café";"#), format!(r#"{FIELDS} c1 "Café";"#)),
            (format!("{FIELDS} id WAC.001;"), format!(r#"{FIELDS} id "WAC.001";"#)),
            // Numbers: a sign for ce only, leading zeros, the extremes.
            (format!("{FIELDS} ce +5; acd 007;"), format!("{FIELDS} ce 5; acd 7;")),
            (format!("{FIELDS} ce -0;"), format!("{FIELDS} ce 0;")),
            (
                format!("{FIELDS} ce -2147483648; acn 18446744073709551615;"),
                format!("{FIELDS} ce -2147483648; acn 18446744073709551615;"),
            ),
            // Opcodes without a typed form keep their operand text, strings as written.
            (format!(r#"{FIELDS} Ae   "a  b\q"   x"y ;"#), format!(r#"{FIELDS} Ae "a  b\q" x"y;"#)),
            (format!(r#"{FIELDS} xx "a"b;"#), format!(r#"{FIELDS} xx "a" b;"#)),
            (
                format!("{FIELDS} D0 1; D01 2; D 3; c10 4; my_op2;"),
                format!("{FIELDS} D0 1; D01 2; D 3; c10 4; my_op2;"),
            ),
            // Move lists may be empty.
            (format!("{FIELDS} bm; pv ;"), format!("{FIELDS} bm; pv;")),
            // A repeat with the same operands is read once.
            (format!("{FIELDS} acn 5; acd 1; acn 5;"), format!("{FIELDS} acn 5; acd 1;")),
            // Shredder-FEN letters make the record Chess960; with the king on e and the rooks in
            // the corners, X-FEN would read back as standard chess, so they stay.
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha e3 D1 20".to_owned(),
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha e3 D1 20;".to_owned(),
            ),
            // Chess960 rights X-FEN can write print as X-FEN.
            (
                "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - D1 20".to_owned(),
                "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - D1 20;".to_owned(),
            ),
        ];
        for (input, expected) in cases {
            check(&input, Ok(&expected));
        }
    }

    #[test]
    fn syntax_errors() {
        use FenErrorKind as F;
        use FenField::*;
        let cases = [
            (String::new(), field(Placement, 0, F::MissingField)),
            ("  \t".to_owned(), field(Placement, 3, F::MissingField)),
            ("8/8/8/8/8/8/8/K6k w -".to_owned(), field(EnPassant, 21, F::MissingField)),
            // The fields end at ';'.
            ("8/8/8/8/8/8/8/K6k w - ;D1 3".to_owned(), field(EnPassant, 22, F::MissingField)),
            ("8/8/8/8/8/8/8/K6k x - -".to_owned(), field(Turn, 18, F::InvalidTurn)),
            (
                "8/8/8/8/8/8/8/K6k w Z -".to_owned(),
                field(Castling, 20, F::InvalidCastlingChar(b'Z')),
            ),
            ("8/8/8/8/8/8/8/K6k w - e9".to_owned(), field(EnPassant, 22, F::InvalidEnPassant)),
            (
                "8/8/8/8/8/8/8/K6x w - -".to_owned(),
                field(Placement, 16, F::InvalidPlacementChar(b'x')),
            ),
            // A digit after the fields starts the clocks of a six-field FEN.
            (format!("{FIELDS} 0 ;D1 3"), field(Fullmoves, 26, F::MissingField)),
            (format!("{FIELDS} 0"), field(Fullmoves, 25, F::MissingField)),
            (format!("{FIELDS} 5x bm Ka2"), field(Halfmoves, 25, F::InvalidNumber(b'x'))),
            (format!("{FIELDS} 0 bm Ka2;"), field(Fullmoves, 26, F::InvalidNumber(b'b'))),
            (format!("{FIELDS} 0 4294967296"), field(Fullmoves, 26, F::NumberTooLarge)),
            // Opcodes.
            (format!("{FIELDS} -bm Ka2;"), opcode(24, b'-')),
            (format!("{FIELDS} b.m Ka2;"), opcode(25, b'.')),
            (format!(r#"{FIELDS} "id" x;"#), opcode(24, b'"')),
            (format!(r#"{FIELDS} id"x";"#), opcode(26, b'"')),
            (format!("{FIELDS} _x;"), opcode(24, b'_')),
            (format!("{FIELDS} é;"), opcode(24, 0xc3)),
            // Each opcode once; the clocks count as hmvc and fmvn.
            (format!("{FIELDS} bm Ka2; bm Kb2;"), op("bm", 32, DuplicateOpcode)),
            (format!("{FIELDS} 0 1 hmvc 3;"), op("hmvc", 28, DuplicateOpcode)),
            (format!("{FIELDS} D1 3; D1 4;"), op("D1", 30, DuplicateOpcode)),
            (format!(r#"{FIELDS} c0 "a"; c0 "b";"#), op("c0", 32, DuplicateOpcode)),
            // Operand counts and kinds.
            (format!("{FIELDS} id;"), op("id", 26, MissingOperand)),
            (format!("{FIELDS} D1 ;"), op("D1", 27, MissingOperand)),
            (format!("{FIELDS} ce"), op("ce", 26, MissingOperand)),
            (format!(r#"{FIELDS} id "a" "b";"#), op("id", 31, ExtraOperand)),
            (format!("{FIELDS} acn 1028 acd ; acn 1028;"), op("acn", 33, ExtraOperand)),
            (format!(r#"{FIELDS} bm Ka2 "Kb2";"#), op("bm", 31, QuotedMove)),
            (format!(r#"{FIELDS} c0 "abc;"#), op("c0", 27, UnterminatedString)),
            (format!(r#"{FIELDS} c0 "abc\";"#), op("c0", 27, UnterminatedString)),
            (format!(r#"{FIELDS} xx a "b"#), op("xx", 29, UnterminatedString)),
            // Numbers.
            (format!("{FIELDS} D1 x;"), op("D1", 27, InvalidNumber(b'x'))),
            (format!("{FIELDS} D1 -5;"), op("D1", 27, InvalidNumber(b'-'))),
            (format!("{FIELDS} D1 +5;"), op("D1", 27, InvalidNumber(b'+'))),
            (format!("{FIELDS} ce --5;"), op("ce", 28, InvalidNumber(b'-'))),
            (format!("{FIELDS} ce -;"), op("ce", 27, InvalidNumber(b'-'))),
            (format!(r#"{FIELDS} hmvc "5";"#), op("hmvc", 29, InvalidNumber(b'"'))),
            (format!("{FIELDS} acd 1.5;"), op("acd", 29, InvalidNumber(b'.'))),
            (
                format!("{FIELDS} hmvc 4294967296;"),
                op("hmvc", 29, NumberOutOfRange { min: 0, max: u32::MAX.into() }),
            ),
            (
                format!("{FIELDS} D1 18446744073709551616;"),
                op("D1", 27, NumberOutOfRange { min: 0, max: u64::MAX }),
            ),
            (
                format!("{FIELDS} acn 999999999999999999999999999999999999999999999999;"),
                op("acn", 28, NumberOutOfRange { min: 0, max: u64::MAX }),
            ),
            (
                format!("{FIELDS} ce 2147483648;"),
                op("ce", 27, NumberOutOfRange { min: i32::MIN.into(), max: i32::MAX as u64 }),
            ),
            (
                format!("{FIELDS} ce -2147483649;"),
                op("ce", 27, NumberOutOfRange { min: i32::MIN.into(), max: i32::MAX as u64 }),
            ),
        ];
        for (input, expected) in cases {
            check(&input, Err(expected));
        }
    }

    #[test]
    fn bytes_that_are_not_utf8() {
        let parse = |ops: &[u8]| Epd::from_ascii(&[FIELDS.as_bytes(), b" ", ops].concat());
        assert_eq!(parse(b"id \"a\xff\";"), Err(op("id", 29, InvalidUtf8)));
        assert_eq!(parse(b"bm K\xe9;"), Err(op("bm", 28, InvalidUtf8)));
        assert_eq!(parse(b"xx \xff;"), Err(op("xx", 27, InvalidUtf8)));
        // Latin-1 in a comment: the byte after 'Caf'.
        assert_eq!(parse(b"c0 \"Caf\xe9\";"), Err(op("c0", 31, InvalidUtf8)));
    }

    #[test]
    fn typed_accessors() {
        let epd: Epd = concat!(
            "8/8/8/8/8/8/8/K6k w - - 3 40 ;D1 3 ;D2 9; bm Kb2 Ka2; am Kb1; pv Kb2 Kg7;",
            r#" id "x"; c3 "three"; acd 12; acn 4000; ce -25; zz 1 "2";"#
        )
        .parse()
        .unwrap();
        let moves = |list: &[&str]| list.iter().map(|&m| m.to_owned()).collect::<Vec<_>>();
        assert_eq!(epd.best_moves(), Some(&moves(&["Kb2", "Ka2"])[..]));
        assert_eq!(epd.avoid_moves(), Some(&moves(&["Kb1"])[..]));
        assert_eq!(epd.predicted_variation(), Some(&moves(&["Kb2", "Kg7"])[..]));
        assert_eq!(epd.id(), Some("x"));
        assert_eq!((epd.comment(3), epd.comment(0)), (Some("three"), None));
        assert_eq!((epd.perft(1), epd.perft(2), epd.perft(3)), (Some(3), Some(9), None));
        assert_eq!(epd.perft_counts().collect::<Vec<_>>(), [(1, 3), (2, 9)]);
        assert_eq!((epd.halfmove_clock(), epd.fullmove_number()), (Some(3), Some(40)));
        assert_eq!((epd.analysis_depth(), epd.analysis_nodes()), (Some(12), Some(4000)));
        assert_eq!(epd.centipawn_evaluation(), Some(-25));
        assert_eq!(
            epd.operation("zz"),
            Some(&Operation::Other { opcode: "zz".to_owned(), operands: r#"1 "2""#.to_owned() })
        );
        assert_eq!(epd.operation("c3").map(Operation::opcode).as_deref(), Some("c3"));
        assert_eq!(epd.operation("D2"), Some(&Operation::Perft { depth: 2, nodes: 9 }));
        assert_eq!(epd.operation("D02"), None);
        let opcodes: Vec<_> = epd.operations().iter().map(|op| op.opcode().into_owned()).collect();
        assert_eq!(
            opcodes,
            ["hmvc", "fmvn", "D1", "D2", "bm", "am", "pv", "id", "c3", "acd", "acn", "ce", "zz"]
        );

        // The clocks reach the position; absent, they are 0 and 1.
        let pos = epd.to_position().unwrap();
        assert_eq!((pos.halfmoves(), pos.fullmoves()), (3, 40));
        assert_eq!(epd.fen().to_string(), "8/8/8/8/8/8/8/K6k w - - 3 40");
        let bare: Epd = FIELDS.parse().unwrap();
        assert_eq!(bare.best_moves(), None);
        assert_eq!(bare.fen().to_string(), "8/8/8/8/8/8/8/K6k w - - 0 1");
        let zero: Epd = format!("{FIELDS} fmvn 0;").parse().unwrap();
        assert_eq!((zero.fullmove_number(), zero.fen().0.fullmoves), (Some(0), 1));
        // An illegal position is the position's error.
        let kingless: Epd = "8/8/8/8/8/8/8/8 w - -".parse().unwrap();
        assert_eq!(
            kingless.into_position().map_err(|e| e.status()),
            Err(Status::NO_WHITE_KING | Status::NO_BLACK_KING)
        );
    }

    #[test]
    fn set_and_remove() {
        let mut epd = Epd::from_position(&Position::new());
        assert_eq!(epd, Epd::default());
        assert_eq!(epd.set(Operation::Perft { depth: 1, nodes: 20 }), Ok(None));
        assert_eq!(epd.set(Operation::Id("a \"b\" \\ c".to_owned())), Ok(None));
        assert_eq!(epd.set(Operation::BestMoves(vec!["e4".to_owned(), "d4".to_owned()])), Ok(None));
        // Setting an opcode again replaces it in place.
        assert_eq!(
            epd.set(Operation::Perft { depth: 1, nodes: 21 }),
            Ok(Some(Operation::Perft { depth: 1, nodes: 20 }))
        );
        assert_eq!(
            epd.to_string(),
            r#"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - D1 21; id "a \"b\" \\ c"; bm e4 d4;"#
        );
        check_round_trip(&epd);
        assert_eq!(epd.remove("id"), Some(Operation::Id("a \"b\" \\ c".to_owned())));
        assert_eq!(epd.remove("id"), None);
        assert_eq!(epd.operations().len(), 2);

        // Operations that would not read back as themselves are refused.
        let before = epd.clone();
        let other = |opcode: &str, operands: &str| Operation::Other {
            opcode: opcode.to_owned(),
            operands: operands.to_owned(),
        };
        let refused = [
            (Operation::BestMoves(vec!["e4 e5".to_owned()]), op("bm", 0, NotReadBack)),
            (Operation::BestMoves(vec![String::new()]), op("bm", 0, NotReadBack)),
            (Operation::AvoidMoves(vec!["e4;".to_owned()]), op("am", 0, NotReadBack)),
            (Operation::AvoidMoves(vec!["\"e4".to_owned()]), op("am", 3, UnterminatedString)),
            (Operation::Comment { index: 10, text: "x".to_owned() }, op("c10", 0, NotReadBack)),
            (Operation::Perft { depth: 0, nodes: 1 }, op("D0", 0, NotReadBack)),
            (other("bm", "e4"), op("bm", 0, NotReadBack)),
            (other("D1", "20"), op("D1", 0, NotReadBack)),
            (other("zz", "a; b"), op("zz", 0, NotReadBack)),
            (other("zz", " a"), op("zz", 0, NotReadBack)),
            (other("zz", "\"a"), op("zz", 3, UnterminatedString)),
            (other("z z", ""), op("z z", 0, NotReadBack)),
            (other("9z", ""), opcode(0, b'9')),
            (other("", "a"), op("", 0, NotReadBack)),
        ];
        for (operation, expected) in refused {
            assert_eq!(epd.set(operation.clone()), Err(expected), "{operation:?}");
            assert_eq!(epd, before);
        }
        // Good ones of every kind are taken.
        for operation in [
            Operation::AvoidMoves(vec!["Nf3+".to_owned()]),
            Operation::Comment { index: 9, text: "x; \"y\"".to_owned() },
            Operation::HalfmoveClock(u32::MAX),
            Operation::FullmoveNumber(0),
            Operation::PredictedVariation(vec![]),
            Operation::AnalysisDepth(3),
            Operation::AnalysisNodes(u64::MAX),
            Operation::CentipawnEvaluation(i32::MIN),
            other("zz", r#"a "b c" d"#),
            other("noop", ""),
        ] {
            assert_eq!(epd.set(operation.clone()), Ok(None), "{operation:?}");
            assert_eq!(epd.operations().last(), Some(&operation));
        }
        check_round_trip(&epd);
    }

    #[test]
    fn output() {
        let pos = crate::fen::parse_position("r3k2r/8/8/2Pp4/8/8/8/R3K2R w KQkq d6 0 2").unwrap();
        let mut epd = Epd::from_position(&pos);
        insta::assert_snapshot!(epd, @"r3k2r/8/8/2Pp4/8/8/8/R3K2R w KQkq d6");
        epd.set(Operation::BestMoves(vec!["cxd6".to_owned()])).unwrap();
        epd.set(Operation::Comment { index: 0, text: r#"say "hi" \o/"#.to_owned() }).unwrap();
        epd.set(Operation::HalfmoveClock(0)).unwrap();
        epd.set(Operation::FullmoveNumber(2)).unwrap();
        epd.set(Operation::CentipawnEvaluation(-30)).unwrap();
        epd.set(Operation::Other { opcode: "noop".to_owned(), operands: String::new() }).unwrap();
        insta::assert_snapshot!(epd, @r#"r3k2r/8/8/2Pp4/8/8/8/R3K2R w KQkq d6 bm cxd6; c0 "say \"hi\" \\o/"; hmvc 0; fmvn 2; ce -30; noop;"#);
        assert_eq!(epd.to_position(), Ok(pos));
        let op = Operation::PredictedVariation(vec!["cxd6".to_owned(), "O-O-O".to_owned()]);
        insta::assert_snapshot!(op, @"pv cxd6 O-O-O");
    }

    #[test]
    fn error_messages() {
        let message = |epd: &str| epd.parse::<Epd>().unwrap_err().to_string();
        insta::assert_snapshot!(message(""), @"placement (byte 0): missing");
        insta::assert_snapshot!(message("8/8/8/8/8/8/8/K6k w Z -"), @"castling (byte 20): invalid character 'Z', expected '-', KQkq or a file letter");
        insta::assert_snapshot!(message("8/8/8/8/8/8/8/K6k w - ;D1 3"), @"en passant (byte 22): missing");
        insta::assert_snapshot!(message("8/8/8/8/8/8/8/K6k w - - 0 ;D1 3"), @"fullmove number (byte 26): missing");
        insta::assert_snapshot!(message("8/8/8/8/8/8/8/K6k w - - b.m Ka2;"), @"opcode (byte 25): invalid character '.', an opcode is a letter followed by letters, digits or '_'");
        insta::assert_snapshot!(message("8/8/8/8/8/8/8/K6k w - - bm Ka2; bm Kb2;"), @"operation bm (byte 32): the opcode appears a second time, with other operands");
        insta::assert_snapshot!(message("8/8/8/8/8/8/8/K6k w - - id;"), @"operation id (byte 26): missing operand");
        insta::assert_snapshot!(message("8/8/8/8/8/8/8/K6k w - - acn 1028 acd ; acn 1028;"), @"operation acn (byte 33): a second operand where one is expected");
        insta::assert_snapshot!(message(r#"8/8/8/8/8/8/8/K6k w - - bm "Ka2";"#), @"operation bm (byte 27): a quoted string where a move is expected");
        insta::assert_snapshot!(message(r#"8/8/8/8/8/8/8/K6k w - - c0 "abc;"#), @r#"operation c0 (byte 27): string without a closing '"'"#);
        insta::assert_snapshot!(message("8/8/8/8/8/8/8/K6k w - - D1 x;"), @"operation D1 (byte 27): invalid character 'x', expected a digit");
        insta::assert_snapshot!(message("8/8/8/8/8/8/8/K6k w - - ce 2147483648;"), @"operation ce (byte 27): number out of range -2147483648..=2147483647");
        insta::assert_snapshot!(message("8/8/8/8/8/8/8/K6k w - - hmvc 4294967296;"), @"operation hmvc (byte 29): number out of range 0..=4294967295");
        let not_utf8 = Epd::from_ascii(b"8/8/8/8/8/8/8/K6k w - - c0 \"Caf\xe9\";").unwrap_err();
        insta::assert_snapshot!(not_utf8, @"operation c0 (byte 31): invalid UTF-8");
        let mut epd = Epd::default();
        let refused = epd.set(Operation::BestMoves(vec!["e4 e5".to_owned()])).unwrap_err();
        insta::assert_snapshot!(refused, @"operation bm (byte 0): would not read back as written");
    }

    /// Parses `text`; whatever parses must round-trip, and an error must point inside the text.
    fn check_no_panic(text: &[u8]) {
        let result = std::panic::catch_unwind(|| match Epd::from_ascii(text) {
            Ok(epd) => check_round_trip(&epd),
            Err(err) => assert!(err.offset <= text.len(), "{err:?}"),
        });
        assert!(result.is_ok(), "input {:?}", text.escape_ascii().to_string());
    }

    #[test]
    fn every_short_operation_text_is_handled() {
        // Every string of up to four bytes from this alphabet, after the fields and alone.
        const ALPHABET: &[u8] = b" ;\"\\aD1-\t\xc3";
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        let mut last = texts.clone();
        for _ in 0..4 {
            last = last
                .iter()
                .flat_map(|t| ALPHABET.iter().map(move |&b| [t.as_slice(), &[b]].concat()))
                .collect();
            texts.extend(last.iter().cloned());
        }
        assert_eq!(texts.len(), 1 + 10 + 100 + 1000 + 10_000);
        let mut parsed = 0;
        for text in &texts {
            check_no_panic(text);
            let record = [FIELDS.as_bytes(), b" ", text].concat();
            check_no_panic(&record);
            parsed += usize::from(Epd::from_ascii(&record).is_ok());
        }
        // Empty operations, opcodes without operands and the like parse: a good share do.
        assert!(parsed > 1000, "{parsed}");
    }

    #[test]
    fn every_single_byte_edit_is_handled() {
        let records = [
            r#"r3k2r/8/8/2Pp4/8/8/8/R3K2R w KQkq d6 bm cxd6; c0 "say \"hi\" \\o/"; ce -30; noop;"#,
            "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9",
            r#"8/8/8/8/8/8/8/K6k b - - am Kh2 Kg2; id "x"; acd 3; acn 9; pv Kg1; zz "a" b; hmvc 4"#,
        ];
        const REPLACEMENTS: &[u8] = b" ;\"\\aD1-0\t\xc3\xff";
        for record in records {
            let bytes = record.as_bytes();
            for i in 0..=bytes.len() {
                check_no_panic(&bytes[..i]);
                if i < bytes.len() {
                    check_no_panic(&[&bytes[..i], &bytes[i + 1..]].concat());
                    for &b in REPLACEMENTS {
                        check_no_panic(&[&bytes[..i], &[b], &bytes[i + 1..]].concat());
                        check_no_panic(&[&bytes[..i], &[b], &bytes[i..]].concat());
                    }
                }
            }
        }
    }
}
