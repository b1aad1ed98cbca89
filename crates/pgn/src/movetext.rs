//! [`MovetextReader`]: games stored a row each, with their tags in columns of their own and
//! their moves as PGN movetext (lichess's Parquet database, a table of a game database), read
//! one row at a time: the tags handed to the visitor as they are, only the movetext scanned.
//!
//! A row is one game. Its movetext is read exactly as the movetext of a PGN game (the same
//! tokens, comments, variations, results and errors), with one difference that follows from
//! a row holding one game: where a PGN reader would end the game and start another (after
//! the result, at a `[`, at a `1.` after a blank line), anything but white space left is an
//! error. A comment never closed runs to the end of the movetext, as at the end of a file.

use crate::error::PgnError;
use crate::limits::Limits;
use crate::san_cache::SanCache;
use crate::scanner::Parser;
use crate::source::SliceSource;
use crate::visitor::Visitor;

/// A reader of games whose tags come from elsewhere and whose movetext is PGN, one game a
/// call: rows of a games table (lichess's Parquet database), the tags in columns of their
/// own. It keeps the move-token cache from game to game, so reading row after row costs what
/// reading one PGN file of the same games costs, less the tags.
///
/// A movetext is read exactly as the movetext of a PGN game (the same tokens, comments,
/// variations, results and errors), with one difference that follows from a row holding one
/// game: where a PGN reader would end the game and start another (after the result, at a
/// `[`, at a `1.` after a blank line), anything but white space left is an error. A visitor
/// that skips the movetext ([`Visitor::begin_movetext`]) skips all of it.
///
/// ```
/// use chessbits_pgn::{MovetextReader, RawTag, Replay, Visitor};
///
/// let mut reader = MovetextReader::new();
/// let fen = b"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
/// let game = reader.read_game(b"1. e4 Kd7 2. e5 1-0", &mut Replay::default(), |v| {
///     v.tag(b"FEN", RawTag(fen))
/// })?;
/// assert_eq!(game.game.moves().len(), 3);
///
/// // An illegal move: the error's column and byte are the movetext's.
/// let error = reader.read_game(b"1. e4 e5 2. Ke3 *", &mut Replay::default(), |_| Ok(()));
/// assert_eq!(error.unwrap_err().offset, 12);
/// // One row, one game: a second game in the movetext is an error.
/// assert!(reader.read_game(b"1. e4 1-0 1. d4 *", &mut Replay::default(), |_| Ok(())).is_err());
/// # Ok::<_, chessbits_pgn::PgnError<chessbits_pgn::ReplayError>>(())
/// ```
pub struct MovetextReader {
    sans: SanCache,
    limits: Limits,
}

impl Default for MovetextReader {
    /// [`MovetextReader::new`].
    fn default() -> MovetextReader {
        MovetextReader::new()
    }
}

impl core::fmt::Debug for MovetextReader {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MovetextReader").field("limits", &self.limits).finish_non_exhaustive()
    }
}

impl MovetextReader {
    /// A reader with the default [`Limits`].
    pub fn new() -> MovetextReader {
        MovetextReader::with_limits(Limits::default())
    }

    /// A reader whose games are bounded by `limits` (the movetext's; the tags given are not
    /// counted).
    pub fn with_limits(limits: Limits) -> MovetextReader {
        MovetextReader { sans: SanCache::warm(), limits }
    }

    /// A reader with the move-token cache `sans`, which [`into_sans`](Self::into_sans) gives
    /// back: a pool thread's, lent for one item.
    pub(crate) fn lend(sans: &mut SanCache) -> MovetextReader {
        MovetextReader { sans: core::mem::take(sans), limits: Limits::default() }
    }

    /// The move-token cache, handed back to whoever lent it.
    pub(crate) fn into_sans(self) -> SanCache {
        self.sans
    }

    /// Reads `movetext` as the movetext of one game, into `visitor`: `begin_game`, then
    /// `tags` (which hands the visitor the game's tags with [`Visitor::tag`]), then
    /// `end_tags` and the movetext's events, then `end_game`.
    ///
    /// # Errors
    /// As a PGN reader's, for the movetext ([`PgnError`]): the line, column and byte are
    /// the movetext's (line 1 at its first byte), and `game` is 1. An error that `tags`
    /// returns is the game's error at byte 0. Text after the game's result is an
    /// [`UnexpectedByte`](crate::PgnErrorKind::UnexpectedByte) error.
    pub fn read_game<V: Visitor>(
        &mut self,
        movetext: &[u8],
        visitor: &mut V,
        tags: impl FnOnce(&mut V) -> Result<(), V::Error>,
    ) -> Result<V::Output, PgnError<V::Error>> {
        let mut parser = Parser::new(SliceSource::whole(movetext), self.limits);
        parser.sans = core::mem::take(&mut self.sans);
        let result = parser.read_movetext(visitor, tags);
        self.sans = core::mem::take(&mut parser.sans);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PgnErrorKind, RawTag, Replay, SliceReader};

    /// A game of `tags` (after a `White` tag, as a row of a table always has some) and
    /// `movetext`, read as PGN by the PGN reader and as a row.
    fn both(tags: &[(&[u8], &[u8])], movetext: &str) -> (String, String) {
        let white: (&[u8], &[u8]) = (b"White", b"Anna");
        let tags = &[&[white][..], tags].concat();
        let mut pgn = Vec::new();
        for (name, value) in tags {
            pgn.extend_from_slice(b"[");
            pgn.extend_from_slice(name);
            pgn.extend_from_slice(b" \"");
            pgn.extend_from_slice(value);
            pgn.extend_from_slice(b"\"]\n");
        }
        pgn.extend_from_slice(b"\n");
        pgn.extend_from_slice(movetext.as_bytes());
        pgn.extend_from_slice(b"\n");
        let whole = SliceReader::new(&pgn).read_game(&mut Replay::default());
        let row =
            MovetextReader::new().read_game(movetext.as_bytes(), &mut Replay::default(), |v| {
                tags.iter().try_for_each(|(name, value)| v.tag(name, RawTag(value)))
            });
        let show = |r: Option<Result<crate::ReplayedGame, PgnError<crate::ReplayError>>>| match r {
            Some(Ok(g)) => format!("{:?} {:?}", g.game.moves(), g.game.start()),
            Some(Err(e)) => format!("{}", e.kind),
            None => "none".into(),
        };
        (show(whole), show(Some(row)))
    }

    #[test]
    fn a_row_reads_as_the_same_game_in_pgn() {
        let fen: &[u8] = b"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        for (tags, movetext) in [
            (&[][..], "1. e4 { [%clk 0:03:00] } e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 1-0"),
            (&[(&b"FEN"[..], fen), (&b"SetUp"[..], &b"1"[..])][..], "1. O-O O-O-O *"),
            (&[(&b"Variant"[..], &b"Chess960"[..]), (&b"FEN"[..], fen)][..], "1. O-O-O *"),
            (&[][..], "1. e4 e5 2. Ke3 *"),
            (&[][..], "1. e4 { never closed"),
            (&[][..], "1. e4 e5"),
            (&[][..], "% an escape line: no moves"),
            (&[][..], "1. e4 ; a comment to the end of the line"),
            (&[(&b"FEN"[..], &b"not a fen"[..])][..], "1. e4 *"),
            (&[(&b"Variant"[..], &b"Crazyhouse"[..])][..], "1. e4 *"),
        ] {
            let (whole, row) = both(tags, movetext);
            assert_eq!(whole, row, "{movetext}");
        }
    }

    #[test]
    fn one_row_holds_one_game() {
        let mut reader = MovetextReader::new();
        for (movetext, line, at) in [
            ("1. e4 1-0 1. d4 *", 1, 10),
            ("1. e4 e5 [Event \"x\"]", 1, 9),
            ("1. e4 e5\n\n1. d4 *", 3, 10),
        ] {
            let e = reader
                .read_game(movetext.as_bytes(), &mut Replay::default(), |_| Ok(()))
                .unwrap_err();
            assert!(matches!(e.kind, PgnErrorKind::UnexpectedByte(_)), "{movetext}: {}", e.kind);
            assert_eq!((e.line, e.offset), (line, at), "{movetext}");
        }
        // White space after the result is no game.
        assert!(reader.read_game(b"1. e4 1-0  \r\n ", &mut Replay::default(), |_| Ok(())).is_ok());
        // An empty movetext is a game without moves, its tags read.
        let game = reader.read_game(b"", &mut Replay::default(), |_| Ok(())).unwrap();
        assert!(game.game.moves().is_empty());
    }
}
