//! What a reader reports for a broken game: [`PgnError`](crate::PgnError), with the game, line, column and byte
//! offset, and what is wrong ([`PgnErrorKind`](crate::PgnErrorKind), [`TagError`](crate::TagError)).

use core::convert::Infallible;
use core::fmt;
use std::io;

use chessbits_notation::san::ParseSanError;

use crate::limits::MAX_TOKEN_LEN;

/// What is wrong with a tag pair.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TagError {
    /// There is no name after the `[`.
    MissingName,
    /// The name is not followed by a value in quotes.
    MissingValue,
    /// The line ends inside the value.
    UnterminatedValue,
    /// The value is not followed by `]` on the same line.
    MissingBracket,
}

impl fmt::Display for TagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TagError::MissingName => "expected a tag name after '['",
            TagError::MissingValue => "expected a value in quotes after the tag name",
            TagError::UnterminatedValue => "the line ends inside the tag value",
            TagError::MissingBracket => "expected ']' after the tag value",
        })
    }
}

/// What is wrong with a game; see [`PgnError`](crate::PgnError).
#[derive(Debug)]
#[non_exhaustive]
pub enum PgnErrorKind<E = Infallible> {
    /// The input could not be read. No game follows.
    Io(io::Error),
    /// A tag pair is malformed.
    Tag(TagError),
    /// A tag pair is longer than [`Limits::tag_len`](crate::Limits::tag_len).
    TagTooLong {
        /// The bound, in bytes.
        limit: usize,
    },
    /// A game has more tag pairs than [`Limits::tags`](crate::Limits::tags).
    TooManyTags {
        /// The bound.
        limit: usize,
    },
    /// A `{` comment has no `}` before the end of the input or before a line that starts with a
    /// tag pair (which is then read as the next game).
    UnclosedComment,
    /// A comment is longer than [`Limits::comment_len`](crate::Limits::comment_len).
    CommentTooLong {
        /// The bound, in bytes.
        limit: usize,
    },
    /// A token that should be a move is not SAN.
    InvalidSan {
        /// The token.
        token: String,
        /// Why it is not SAN.
        error: ParseSanError,
    },
    /// A movetext token is longer than [`MAX_TOKEN_LEN`](crate::MAX_TOKEN_LEN).
    TokenTooLong,
    /// A `$` glyph out of range, or a run of `!` and `?` that is not one of the six suffixes.
    InvalidNag(String),
    /// A byte that starts no movetext token.
    UnexpectedByte(u8),
    /// A `)` with no variation open.
    UnmatchedParenthesis,
    /// Variations nested deeper than [`Limits::variation_depth`](crate::Limits::variation_depth).
    TooDeep {
        /// The bound, in levels.
        limit: usize,
    },
    /// A game has more moves (variations included) than [`Limits::moves`](crate::Limits::moves).
    TooManyMoves {
        /// The bound.
        limit: usize,
    },
    /// A game spans more bytes than [`Limits::game_len`](crate::Limits::game_len).
    GameTooLong {
        /// The bound, in bytes.
        limit: u64,
    },
    /// The visitor rejected the game (an illegal move, a bad FEN tag...).
    Visitor(E),
}

impl<E: fmt::Display> fmt::Display for PgnErrorKind<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnErrorKind::Io(err) => write!(f, "read error: {err}"),
            PgnErrorKind::Tag(err) => write!(f, "invalid tag: {err}"),
            PgnErrorKind::TagTooLong { limit } => write!(f, "tag longer than {limit} bytes"),
            PgnErrorKind::TooManyTags { limit } => write!(f, "more than {limit} tags"),
            PgnErrorKind::UnclosedComment => f.write_str("comment not closed: '{' without '}'"),
            PgnErrorKind::CommentTooLong { limit } => {
                write!(f, "comment longer than {limit} bytes")
            }
            PgnErrorKind::InvalidSan { token, error } => {
                write!(f, "invalid move {token:?}: {}", error.kind)
            }
            PgnErrorKind::TokenTooLong => write!(f, "token longer than {MAX_TOKEN_LEN} bytes"),
            PgnErrorKind::InvalidNag(token) => write!(f, "invalid annotation {token:?}"),
            PgnErrorKind::UnexpectedByte(b) => {
                write!(f, "unexpected character '{}'", b.escape_ascii())
            }
            PgnErrorKind::UnmatchedParenthesis => f.write_str("')' without a variation to close"),
            PgnErrorKind::TooDeep { limit } => {
                write!(f, "variations nested deeper than {limit} levels")
            }
            PgnErrorKind::TooManyMoves { limit } => write!(f, "more than {limit} moves"),
            PgnErrorKind::GameTooLong { limit } => write!(f, "game longer than {limit} bytes"),
            PgnErrorKind::Visitor(err) => fmt::Display::fmt(err, f),
        }
    }
}

/// A broken game: which game, where, and what is wrong.
///
/// The reader skips the rest of a broken game and goes on with the next one (except after a
/// read error, which ends the input).
///
/// ```
/// use chessbits_pgn::{PgnErrorKind, SliceReader, TagError, Visitor};
///
/// struct SyntaxCheck;
/// impl Visitor for SyntaxCheck {
///     type Output = ();
///     type Error = core::convert::Infallible;
///     fn end_game(&mut self) {}
/// }
///
/// let pgn = b"1. e4 e5 *\n\n[Event \"x]\n1. d4 *\n\n1. c4 *\n";
/// let mut reader = SliceReader::new(pgn);
/// assert!(reader.read_game(&mut SyntaxCheck).unwrap().is_ok());
/// let err = reader.read_game(&mut SyntaxCheck).unwrap().unwrap_err();
/// assert!(matches!(err.kind, PgnErrorKind::Tag(TagError::UnterminatedValue)));
/// assert_eq!((err.game, err.line, err.column, err.offset), (2, 3, 11, 22));
/// assert_eq!(err.to_string(), "game 2, line 3, column 11 (byte 22): invalid tag: the line ends inside the tag value");
/// assert!(reader.read_game(&mut SyntaxCheck).unwrap().is_ok());
/// assert!(reader.read_game(&mut SyntaxCheck).is_none());
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub struct PgnError<E = Infallible> {
    /// The game number, from 1, counting broken games too.
    pub game: u64,
    /// The line, from 1.
    pub line: u64,
    /// The column in bytes, from 1.
    pub column: u64,
    /// The byte offset in the input, from 0 (a byte order mark included).
    pub offset: u64,
    /// What is wrong.
    pub kind: PgnErrorKind<E>,
}

impl<E: fmt::Display> fmt::Display for PgnError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}, column {} (byte {}): {}",
            self.game, self.line, self.column, self.offset, self.kind
        )
    }
}

/// The source is the read error or the SAN syntax error; a visitor's error is in
/// [`PgnError::kind`] (its type need not be an `Error`).
impl<E: fmt::Debug + fmt::Display> std::error::Error for PgnError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            PgnErrorKind::Io(err) => Some(err),
            PgnErrorKind::InvalidSan { error, .. } => Some(error),
            _ => None,
        }
    }
}
