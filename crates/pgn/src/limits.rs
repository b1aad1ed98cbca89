//! The bounds a reader keeps each game within, so that untrusted input cannot make it use
//! unbounded memory or time: [`Limits`](crate::Limits) and its defaults.

/// The deepest nesting of variations read: 64. A `(` that would open a 65th level is an error
/// for its game.
pub const MAX_VARIATION_DEPTH: usize = 64;

/// The longest comment read, in bytes between the braces (or after the `;`): 1 MiB
/// (1,048,576). A longer comment is an error for its game.
pub const MAX_COMMENT_LEN: usize = 1 << 20;

/// The longest tag pair, in bytes from `[` to `]`: 64 KiB (65,536). A longer one is an error
/// for its game.
pub const MAX_TAG_LEN: usize = 1 << 16;

/// The longest movetext token (a move, a move number, a NAG), in bytes: 64. A longer one is an
/// error for its game. Unlike the others, this bound is fixed: the streaming reader keeps a
/// token's worth of bytes ahead.
pub const MAX_TOKEN_LEN: usize = 64;

/// The most tag pairs read in one game: 1,024. One more is an error for its game.
pub const MAX_TAGS: usize = 1024;

/// The most moves read in one game, counting the moves of every variation: 100,000 (the
/// longest possible game has under 12,000 plies). One more is an error for its game.
pub const MAX_GAME_MOVES: usize = 100_000;

/// The most bytes one game may span, from its first tag (or token) to its end: 64 MiB
/// (67,108,864). A game that goes on is an error at the first tag or token past the bound,
/// and its rest is skipped as for any broken game.
pub const MAX_GAME_LEN: u64 = 1 << 26;

/// The bounds a reader puts on each game of untrusted input ([`Limits::DEFAULT`] are the
/// constants of this module). A game that goes past one is an error for that game (its
/// [`PgnErrorKind`](crate::PgnErrorKind) names the bound); the reader skips the rest of it and reads on, so a file of
/// garbage or one endless game is read in constant memory.
///
/// Memory: the streaming reader's buffer grows to about twice `comment_len` (or `tag_len`) at
/// most; a visitor that keeps a game holds at most `moves` moves, `tags` tags of `tag_len`
/// bytes, and comments of `comment_len` bytes within `game_len` bytes.
///
/// ```
/// use chessbits_pgn::{Limits, SyntaxCheck, PgnErrorKind, SliceReader};
///
/// let limits = Limits::DEFAULT.with_moves(2);
/// let mut reader = SliceReader::with_limits(b"1. e4 e5 2. Nf3 *\n1. d4 *\n", limits);
/// let err = reader.read_game(&mut SyntaxCheck).unwrap().unwrap_err();
/// assert!(matches!(err.kind, PgnErrorKind::TooManyMoves { limit: 2 }));
/// assert_eq!(err.to_string(), "game 1, line 1, column 13 (byte 12): more than 2 moves");
/// assert!(reader.read_game(&mut SyntaxCheck).unwrap().is_ok());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Limits {
    /// The deepest nesting of variations ([`MAX_VARIATION_DEPTH`](crate::MAX_VARIATION_DEPTH)).
    pub variation_depth: usize,
    /// The longest comment, in bytes ([`MAX_COMMENT_LEN`](crate::MAX_COMMENT_LEN)).
    pub comment_len: usize,
    /// The longest tag pair, in bytes ([`MAX_TAG_LEN`](crate::MAX_TAG_LEN)).
    pub tag_len: usize,
    /// The most tag pairs in a game ([`MAX_TAGS`](crate::MAX_TAGS)).
    pub tags: usize,
    /// The most moves in a game, variations included ([`MAX_GAME_MOVES`](crate::MAX_GAME_MOVES)).
    pub moves: usize,
    /// The most bytes a game spans ([`MAX_GAME_LEN`](crate::MAX_GAME_LEN)).
    pub game_len: u64,
}

impl Limits {
    /// The module's constants.
    pub const DEFAULT: Limits = Limits {
        variation_depth: MAX_VARIATION_DEPTH,
        comment_len: MAX_COMMENT_LEN,
        tag_len: MAX_TAG_LEN,
        tags: MAX_TAGS,
        moves: MAX_GAME_MOVES,
        game_len: MAX_GAME_LEN,
    };

    /// These limits with [`variation_depth`](Self::variation_depth) set to `depth`.
    #[must_use]
    pub const fn with_variation_depth(self, depth: usize) -> Limits {
        Limits { variation_depth: depth, ..self }
    }

    /// These limits with [`comment_len`](Self::comment_len) set to `len`.
    #[must_use]
    pub const fn with_comment_len(self, len: usize) -> Limits {
        Limits { comment_len: len, ..self }
    }

    /// These limits with [`tag_len`](Self::tag_len) set to `len`.
    #[must_use]
    pub const fn with_tag_len(self, len: usize) -> Limits {
        Limits { tag_len: len, ..self }
    }

    /// These limits with [`tags`](Self::tags) set to `tags`.
    #[must_use]
    pub const fn with_tags(self, tags: usize) -> Limits {
        Limits { tags, ..self }
    }

    /// These limits with [`moves`](Self::moves) set to `moves`.
    #[must_use]
    pub const fn with_moves(self, moves: usize) -> Limits {
        Limits { moves, ..self }
    }

    /// These limits with [`game_len`](Self::game_len) set to `len`.
    #[must_use]
    pub const fn with_game_len(self, len: u64) -> Limits {
        Limits { game_len: len, ..self }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}
